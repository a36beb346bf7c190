//! The legal actions at a state, grouped by kind (`railnote moves`): JSON (each action in the
//! 18xx.games log format, plus its price range) and a readable text list.

use std::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::action::{Action, BidTarget, DividendKind, Entity};
use crate::engine::state::TrainOwner;
use crate::engine::{Game, LegalAction, LegalActions};
use crate::output::json_log::action_json;

/// The legal actions at one state.
#[derive(Debug, Clone, Serialize)]
pub struct MovesReport {
    /// Processed top-level actions before this state.
    pub index: usize,
    /// The round (`OR 3.1`).
    pub round: String,
    /// The phase.
    pub phase: String,
    /// Who the game waits for.
    pub acting: Option<String>,
    /// Whether any valid run is legal besides the listed ones.
    pub any_run: bool,
    /// Number of listed actions.
    pub count: usize,
    /// Actions by kind, in step order.
    pub groups: Vec<MoveGroup>,
    /// Why nothing but End Game is legal in a game that is not over (a dead end, such as a
    /// private's first lay of two that no second lay can join), if that is so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dead_end: Option<String>,
}

/// The legal actions of one kind.
#[derive(Debug, Clone, Serialize)]
pub struct MoveGroup {
    /// The reference's action type (`lay_tile`).
    pub kind: String,
    /// The actions in the 18xx.games format; ranged ones carry `max_price` (and `price_step`
    /// when not every amount in the range is legal), those that break a printed rule while
    /// 18xx.games accepts them the deviation's code (`deviation`).
    pub actions: Vec<Value>,
    /// One readable line per action.
    #[serde(skip)]
    pub text: Vec<String>,
    /// Each action as a move of the notation (`Ann: buy Nord`), with its price range as a
    /// comment.
    #[serde(skip)]
    pub notation: Vec<String>,
}

impl MovesReport {
    /// The report for `legal`, the legal actions of `game`.
    pub fn new(game: &Game, legal: &LegalActions, index: usize) -> MovesReport {
        let groups = legal
            .grouped()
            .into_iter()
            .map(|(kind, list)| MoveGroup {
                kind: kind.to_string(),
                actions: list
                    .iter()
                    .map(|l| {
                        let mut v = action_json(game, &l.action, 0);
                        if let Value::Object(o) = &mut v {
                            o.remove("id");
                            if let Some(max) = l.max_price {
                                o.insert("max_price".into(), Value::from(max.0));
                            }
                            if let Some(step) = l.price_step {
                                o.insert("price_step".into(), Value::from(step.0));
                            }
                            if let Some(d) = l.deviation {
                                o.insert("deviation".into(), Value::from(d.code()));
                            }
                        }
                        v
                    })
                    .collect(),
                text: list.iter().map(|l| describe(game, l)).collect(),
                notation: list.iter().map(|l| as_notation(game, l)).collect(),
            })
            .collect();
        MovesReport {
            index,
            round: game.round_label(),
            phase: game.phase_name().to_string(),
            acting: legal.acting.map(|e| game.entity_name(e)),
            any_run: legal.any_run,
            count: legal.len(),
            groups,
            dead_end: dead_end(game, legal),
        }
    }
}

fn price_text(l: &LegalAction, price: crate::ids::Money) -> String {
    match l.max_price {
        Some(max) if max != price => match l.price_step {
            Some(step) => format!("{price}–{max} in steps of {step}"),
            None => format!("{price}–{max}"),
        },
        _ => price.to_string(),
    }
}

/// One legal action in words (a deviation from the printed rules says so).
pub fn describe(game: &Game, l: &LegalAction) -> String {
    let text = describe_action(game, l);
    match l.deviation {
        Some(d) => format!("{text} [against the printed rules: {}]", d.code()),
        None => text,
    }
}

fn describe_action(game: &Game, l: &LegalAction) -> String {
    let who = game.entity_name(l.action.entity());
    let map = game.title.map;
    match &l.action {
        Action::Bid { target, price, .. } => {
            let name = match target {
                BidTarget::Company(c) => game.title.company(*c).sym.clone(),
                BidTarget::Corporation(c) => game.title.corp(*c).sym.clone(),
            };
            if l.max_price.is_some() {
                format!("{who} bids {} on {name}", price_text(l, *price))
            } else {
                format!("{who} buys {name} for {price}")
            }
        }
        Action::Pass { .. } => format!("{who} passes"),
        Action::Par { corp, cell, .. } => {
            format!(
                "{who} starts {} at {}",
                game.title.corp(*corp).sym,
                cell.price
            )
        }
        Action::BuyShares { shares, .. } => {
            let from = match shares.first().map(|s| game.corp(s.corp).ipo.contains(s)) {
                Some(true) => "IPO",
                _ => "market",
            };
            let names: Vec<String> = shares
                .iter()
                .map(|s| format!("{}_{}", game.title.corp(s.corp).sym, s.index))
                .collect();
            if let Entity::Company(_) = l.action.entity() {
                format!("{who} is exchanged for {} ({from})", names.join(", "))
            } else {
                format!("{who} buys {} ({from})", names.join(", "))
            }
        }
        Action::SellShares {
            shares, percent, ..
        } => {
            let names: Vec<String> = shares
                .iter()
                .map(|s| format!("{}_{}", game.title.corp(s.corp).sym, s.index))
                .collect();
            let pct = percent.map(|p| format!(" ({p})")).unwrap_or_default();
            format!("{who} sells {}{pct}", names.join(", "))
        }
        Action::BuyCompany { company, price, .. } => format!(
            "{who} buys {} for {}",
            game.title.company(*company).sym,
            price_text(l, *price)
        ),
        Action::LayTile {
            hex,
            tile,
            rotation,
            ..
        } => format!(
            "{who} lays {} on {hex}, rotation {rotation}",
            map.tile_name(*tile)
        ),
        Action::PlaceToken { city, .. } => {
            let hex = game
                .board
                .hex_of_tile(city.tile)
                .map(|h| map.hex_def(h).id.to_string())
                .unwrap_or_default();
            format!(
                "{who} places a token on {hex} (city {}-{})",
                map.tile_name(city.tile),
                city.part
            )
        }
        Action::RunRoutes { routes, .. } if routes.is_empty() => format!("{who} runs no train"),
        Action::RunRoutes { routes, .. } => {
            let parts: Vec<String> = routes
                .iter()
                .map(|r| {
                    let stops: Vec<String> = r.nodes.iter().map(|(h, _)| h.to_string()).collect();
                    format!("{} {}", game.train_name(r.train), stops.join("-"))
                })
                .collect();
            format!("{who} runs {}", parts.join(", "))
        }
        Action::Dividend { kind, .. } => match kind {
            DividendKind::Payout => format!("{who} pays out"),
            DividendKind::Withhold => format!("{who} withholds"),
        },
        Action::BuyTrain {
            train,
            price,
            exchange,
            ..
        } => {
            let from = match game.trains.iter().find(|t| t.id == *train).map(|t| t.owner) {
                Some(TrainOwner::Corporation(c)) => game.title.corp(c).sym.clone(),
                Some(TrainOwner::Pool) => "the open market".to_string(),
                _ => "the depot".to_string(),
            };
            let trade = exchange
                .map(|x| format!(", trading in {}", game.train_name(x)))
                .unwrap_or_default();
            format!(
                "{who} buys {} from {from} for {}{trade}",
                game.train_name(*train),
                price_text(l, *price)
            )
        }
        Action::DiscardTrain { train, .. } => format!("{who} discards {}", game.train_name(*train)),
        Action::Bankrupt { .. } => format!("{who} declares bankruptcy"),
        Action::Assign { hex, .. } => format!("{who} assigns its marker to {hex}"),
        Action::Merge { corp, .. } => {
            format!("{who} proposes {} for a merger", game.title.corp(*corp).sym)
        }
        Action::Vote { in_favour, .. } => {
            format!("{who} votes {}", if *in_favour { "for" } else { "against" })
        }
        Action::Program { .. } => format!("{who} programs an action"),
        // A corporation ends it for a user who is not one of the players (a hotseat's owner).
        Action::EndGame {
            entity: Entity::Corporation(_),
        } => format!("{who} ends the game at once (End Game, by a user who does not play)"),
        Action::EndGame { .. } => format!("{who} ends the game at once (End Game)"),
    }
}

/// A legal action as a move of the notation, ready to be pasted into a `.rn` file.
fn as_notation(game: &Game, legal: &LegalAction) -> String {
    let actor = crate::notation::name(&game.entity_name(legal.action.entity()));
    let text = crate::replay::notation::to_notation(game, &legal.action);
    match legal.max_price {
        Some(max) => format!("{actor}: {text} ; up to {max}"),
        None => format!("{actor}: {text}"),
    }
}

impl MovesReport {
    /// The legal actions as moves of the notation, grouped by kind under a `;` comment (what
    /// `railnote moves --format notation` prints).
    pub fn notation(&self) -> String {
        let mut out = format!(
            "; {} (phase {}) after {} actions; waiting for {}\n",
            self.round,
            self.phase,
            self.index,
            self.acting.as_deref().unwrap_or("nobody")
        );
        for g in &self.groups {
            out.push_str(&format!("; {}\n", g.kind));
            for line in &g.notation {
                out.push_str(line);
                out.push('\n');
            }
        }
        if self.any_run {
            out.push_str("; any other valid run is legal too\n");
        }
        out
    }
}

/// Why the game cannot go on without End Game: what the acting entity's pass is refused for
/// (the move its step waits for), none of which is legal.
fn dead_end(game: &Game, legal: &LegalActions) -> Option<String> {
    let only_end_game = legal
        .actions
        .iter()
        .all(|l| matches!(l.action, Action::EndGame { .. }));
    if game.finished || !only_end_game {
        return None;
    }
    let why = legal
        .acting
        .and_then(|entity| game.check(&Action::Pass { entity }).err())
        .map_or_else(String::new, |e| format!(": {e}"));
    Some(format!(
        "nothing but End Game is legal{why}, and no such move can be made; the game cannot \
         go on from here (the move that led here would have to be taken back)"
    ))
}

impl fmt::Display for MovesReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} (phase {}) after {} actions; waiting for {}",
            self.round,
            self.phase,
            self.index,
            self.acting.as_deref().unwrap_or("nobody")
        )?;
        writeln!(f, "{} legal actions", self.count)?;
        if let Some(dead_end) = &self.dead_end {
            writeln!(f, "{dead_end}")?;
        }
        for g in &self.groups {
            writeln!(f, "\n{} ({})", g.kind, g.text.len())?;
            for line in &g.text {
                writeln!(f, "  {line}")?;
            }
        }
        if self.any_run {
            writeln!(f, "\n(any other valid run is legal too)")?;
        }
        Ok(())
    }
}
