//! Why a move was refused, in words: a step or a turn the rules had already ended, the entity
//! the game waits for, the legal alternatives.

use super::diagnostics::Code;
use super::resolve::corp_of;
use super::walk::{turn_of, Player, IMPLIED_PASSES};
use crate::action::{Action, Entity};
use crate::engine::{Game, RuleViolation, SkipReason, Skipped};
use crate::ids::CorpId;
use crate::log::Span;
use crate::notation::{self, Move, RawAction};

/// What the rules did by themselves, in words.
pub(super) fn skipped_text(game: &Game, skipped: &Skipped) -> String {
    match skipped {
        Skipped::StockTurn { player, cash } => {
            let name = notation::name(&game.player(*player).name);
            format!(
                "{name} passed automatically: {name} could neither buy nor sell a share (cash {cash})"
            )
        }
        Skipped::Step { corp, step, why } => {
            let c = notation::name(&game.title.corp(*corp).sym);
            format!(
                "{c}'s {step} step was skipped: {}",
                skip_reason_text(game, *corp, *why)
            )
        }
    }
}

/// `a`, `a and b`, `a, b and c`.
pub(super) fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Why the rules skipped a step of a corporation's turn, in words.
pub(super) fn skip_reason_text(game: &Game, corp: CorpId, why: SkipReason) -> String {
    let c = notation::name(&game.title.corp(corp).sym);
    match why {
        SkipReason::NoLay => "no further tile may be laid this turn".to_string(),
        SkipReason::NoTokenLeft => format!("{c} has no token left"),
        SkipReason::TokenCost { price, cash } => {
            format!("{c}'s next token costs {price} and {c} has {cash}")
        }
        SkipReason::NoCityReached => {
            format!("no city connected to {c}'s network has room for its token")
        }
        SkipReason::NoTrain => format!("{c} has no train to run"),
        SkipReason::NoRoute => format!("{c}'s trains have no route"),
        SkipReason::NoRevenue => format!("{c} earned nothing and withheld"),
        SkipReason::NoTrainToBuy => {
            format!("{c} can buy no train (none it can afford, or its train limit is reached)")
        }
        SkipReason::NothingOffered => "nothing in it was possible".to_string(),
    }
}

/// The legal moves at a state, in the notation, the same kind as `action` first.
pub(super) fn legal_list(game: &Game, action: &Action) -> String {
    crate::replay::legal_alternatives(game, action, None)
        .into_iter()
        .map(|m| {
            if m.starts_with("and ") {
                m
            } else {
                format!("`{m}`")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

impl Player<'_> {
    /// The diagnostic of a refused move, with what the rules did by themselves before it when
    /// that is why: a step skipped, a player passed automatically.
    pub(super) fn explain(
        &self,
        game: &Game,
        m: &Move,
        entity: Entity,
        action: &Action,
        v: &RuleViolation,
        help: Option<String>,
    ) -> (Code, String, Option<String>) {
        match v {
            RuleViolation::NotYourTurn { .. } => {
                let now = turn_of(&game.round_label());
                let Some(&(player, cash, at, _)) = self
                    .auto_passed
                    .iter()
                    .find(|(p, _, _, turn)| Entity::Player(*p) == entity && *turn == now)
                else {
                    return (Code::of(v), v.to_string(), help);
                };
                let why = skipped_text(game, &Skipped::StockTurn { player, cash });
                let why = match self.text.get(at.offset..at.end()) {
                    Some(last) => format!("{why}, after `{}`", last.trim()),
                    None => why,
                };
                if matches!(m.action, RawAction::Pass) {
                    (
                        Code::PassNotNeeded,
                        format!("this `pass` is not needed: {why}"),
                        Some(format!(
                            "leave it out: the rules pass a player who can do nothing{}",
                            game.acting_entity()
                                .map(|e| format!(
                                    "; the game waits for {}",
                                    notation::name(&game.entity_name(e))
                                ))
                                .unwrap_or_default()
                        )),
                    )
                } else {
                    (Code::of(v), why, help)
                }
            }
            RuleViolation::WrongStep { step: now, .. } => {
                let skipped_step = |step: &str| {
                    game.skipped().iter().find(|s| {
                        matches!(s, Skipped::Step { corp, step: st, .. }
                            if Entity::Corporation(*corp) == entity && *st == step)
                    })
                };
                let written_step = match action {
                    Action::LayTile { .. } => Some("track"),
                    Action::PlaceToken { .. } => Some("token"),
                    Action::RunRoutes { .. } => Some("routes"),
                    Action::Dividend { .. } => Some("dividend"),
                    Action::BuyTrain { .. } => Some("trains"),
                    _ => None,
                };
                if let Some(skipped) = written_step.and_then(skipped_step) {
                    return (
                        Code::of(v),
                        skipped_text(game, skipped),
                        Some(format!(
                            "leave this move out; {} is at the {now} step",
                            notation::name(&game.entity_name(entity))
                        )),
                    );
                }
                let earlier: Vec<String> = game
                    .skipped()
                    .iter()
                    .filter(|s| matches!(s, Skipped::Step { corp, .. } if Entity::Corporation(*corp) == entity))
                    .map(|s| skipped_text(game, s))
                    .collect();
                if matches!(action, Action::Pass { .. }) && !earlier.is_empty() {
                    return (
                        Code::of(v),
                        format!(
                            "{}; this `pass` would be at the {now} step, which cannot be passed",
                            earlier.join("; ")
                        ),
                        Some("leave it out: a skipped step needs no pass".to_string()),
                    );
                }
                (Code::of(v), v.to_string(), help)
            }
            _ => (Code::of(v), v.to_string(), help),
        }
    }

    /// A move without an actor after the turn it would continue is over.
    pub(super) fn turn_over(&mut self, game: &Game, m: &Move, scope: Entity, last: Span) {
        let whose = notation::name(&game.entity_name(scope));
        let last_text = self.written_text(last);
        let why = if last_text.ends_with("pass") || last_text.ends_with(": p") {
            let skipped: Vec<(&str, SkipReason)> = self
                .skipped_before_last_move
                .iter()
                .filter_map(|s| match s {
                    Skipped::Step { corp, step, why } if Entity::Corporation(*corp) == scope => {
                        Some((*step, *why))
                    }
                    _ => None,
                })
                .collect();
            match skipped.as_slice() {
                [] => format!("{whose}'s turn ended with `{last_text}`"),
                [(_, first), ..] => {
                    let steps: Vec<&str> = skipped.iter().map(|(s, _)| *s).collect();
                    let corp = corp_of(scope).unwrap_or(CorpId(0));
                    format!(
                        "{whose}'s turn ended with the `pass` before it, since the rules had \
                         skipped its {} step{} ({})",
                        and_list(&steps),
                        if steps.len() > 1 { "s" } else { "" },
                        skip_reason_text(game, corp, *first)
                    )
                }
            }
        } else {
            format!("{whose}'s turn is over: nothing was left to {whose} after `{last_text}`")
        };
        let next = game
            .acting_entity()
            .map(|e| notation::name(&game.entity_name(e)));
        let (code, label, help) = if matches!(m.action, RawAction::Pass) {
            (
                Code::PassNotNeeded,
                format!("this `pass` is not needed: {why}"),
                format!(
                    "leave it out: a turn ends by itself when nothing is left to do in it, and where \
                     the next actor is named{}",
                    next.as_ref()
                        .map(|n| format!(" (the game waits for {n})"))
                        .unwrap_or_default()
                ),
            )
        } else {
            (
                Code::not_your_turn(),
                format!("{why}, so this move has no actor"),
                match &next {
                    Some(n) => {
                        format!("the game waits for {n}: write `{n}: …` if the move is theirs")
                    }
                    None => "the game is over".to_string(),
                },
            )
        };
        self.error(game, m.span, code, label, Some(help), None);
    }

    pub(super) fn help_for(
        &self,
        game: &Game,
        action: &Action,
        v: &RuleViolation,
    ) -> Option<String> {
        if let RuleViolation::EndGame(_) = v {
            let first = notation::name(&game.players.first()?.name);
            let corporation = match game.acting_entity() {
                Some(e @ Entity::Corporation(_)) => {
                    format!(", or `{}: end game`", notation::name(&game.entity_name(e)))
                }
                _ => String::new(),
            };
            return Some(format!(
                "any player may end it, e.g. `{first}: end game`{corporation}"
            ));
        }
        if let RuleViolation::NotYourTurn { .. } = v {
            let who = game.acting_entity()?;
            let name = notation::name(&game.entity_name(who));
            if self.scope.map(|(e, _)| e) == Some(who) {
                let mut trial = game.clone();
                let mut passes = 0;
                while passes < IMPLIED_PASSES
                    && trial.acting_entity() == Some(who)
                    && trial.process(&Action::Pass { entity: who }).is_ok()
                {
                    passes += 1;
                }
                return Some(match trial.acting_entity() {
                    Some(next) if next != who => {
                        let next = notation::name(&trial.entity_name(next));
                        format!("after {name}'s turn the game waits for {next}: write `{next}: …`")
                    }
                    // The turn in progress cannot end here: a pass is not allowed.
                    _ => format!(
                        "{name}'s turn is not over: {name} must still act; legal: {}",
                        legal_list(game, action)
                    ),
                });
            }
            return Some(format!("the game waits for {name}: write `{name}: …`"));
        }
        if let Action::LayTile {
            hex, tile, entity, ..
        } = action
        {
            let map = game.title.map;
            let idx = map.hex_index(*hex)?;
            let legal = game
                .board
                .legal_rotations(map, idx, *tile, corp_of(*entity));
            let name = &map.tile_def(tile.def).name;
            let opts: Vec<String> = (0..6u8)
                .filter(|r| legal & (1 << r) != 0)
                .take(8)
                .map(|r| format!("`{name} {hex} r{r}`"))
                .collect();
            return Some(if opts.is_empty() {
                format!("tile {name} fits no rotation on {hex}")
            } else {
                format!("legal here: {}", opts.join(", "))
            });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::notation::names::find_corp;
    use crate::replay::notation::test_games::jr30;

    #[test]
    fn lists_are_joined_with_and() {
        assert_eq!(and_list(&[]), "");
        assert_eq!(and_list(&["a"]), "a");
        assert_eq!(and_list(&["a", "b"]), "a and b");
        assert_eq!(and_list(&["a", "b", "c"]), "a, b and c");
    }

    #[test]
    fn a_skipped_step_says_why() {
        let game = jr30();
        let nord = find_corp(game.title, "Nord").unwrap();
        assert_eq!(
            skipped_text(
                &game,
                &Skipped::Step {
                    corp: nord,
                    step: "routes",
                    why: SkipReason::NoTrain
                }
            ),
            "Nord's routes step was skipped: Nord has no train to run"
        );
        assert_eq!(
            skip_reason_text(&game, nord, SkipReason::NoRevenue),
            "Nord earned nothing and withheld"
        );
    }
}
