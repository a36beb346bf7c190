//! The bridge between a game log and the rules engine: sets the game up from the log's header,
//! feeds the actions to [`Game::process`], and maps the first [`RuleViolation`] back to the
//! place in the file as an [`IllegalAction`] diagnostic.
//!
//! Counting: `index` numbers the surviving top-level actions from 1, as the reference traces
//! do (one trace line per top-level action); an action's auto actions are processed right
//! after it and belong to its index. A notation file's corrections are applied where they are
//! written: after the action they follow, or between two of its auto actions (`& …`), and
//! belong to its index too (as `--at` shows them).

// A replay fails once, at its end; the size of the error value does not matter.
#![allow(clippy::result_large_err)]

use miette::{Diagnostic, LabeledSpan, SourceCode};
use std::fmt;
use std::ops::ControlFlow;

use crate::action::Action;
use crate::engine::{Game, GameOptions, GameSetup, RuleViolation, SetupError};
use crate::log::{label_span, short_name, shorten_quotes, GameLog, LogSource, LoggedAction, Span};

mod at;
pub mod notation;
mod warning;

pub use at::{At, ParseAtError, Target};
pub use warning::DeviationWarning;

/// The engine setup a log's header describes: title, players in seat order, optional rules.
pub fn setup(log: &GameLog) -> GameSetup {
    // The reference falls back to the first run of digits in the game id when a log has no
    // seed (hotseat games).
    let seed = log.header.seed.map(|s| s as u64).or_else(|| {
        let id = log.header.game_id.as_deref()?;
        let digits: String = id
            .chars()
            .skip_while(|c| !c.is_ascii_digit())
            .take_while(|c| c.is_ascii_digit())
            .collect();
        digits.parse().ok()
    });
    GameSetup {
        title: log.title.name.clone(),
        seed,
        players: log.header.players.iter().map(|p| p.name.clone()).collect(),
        options: GameOptions {
            optional_rules: log
                .header
                .optional_rules
                .iter()
                .map(|r| r.value.clone())
                .collect(),
        },
    }
}

/// One top-level action, processed together with its auto actions.
#[derive(Debug, Clone, Copy)]
pub struct Processed<'l> {
    /// 1-based count of processed top-level actions.
    pub index: usize,
    /// The action as read from the log.
    pub action: &'l LoggedAction,
}

/// A replay in progress: the game after the actions processed so far.
///
/// Actions are applied in place ([`Game::process_in_place`]), without the copy per action that
/// [`Game::process`] makes to undo a rejected one: a rejected action is rare (a replay stops at
/// it) and the state before it is rebuilt instead, from the initial state and the actions that
/// were accepted before it (the engine is deterministic, so they are accepted again and lead to
/// the same state).
#[derive(Debug)]
pub struct Replay<'l> {
    log: &'l GameLog,
    game: Game,
    /// The game as set up, before any action: where a rebuild starts.
    start: Game,
    next: usize,
    /// Refuse moves that break a printed rule 18xx.games does not enforce.
    strict_rules: bool,
    warnings: Vec<DeviationWarning>,
}

impl<'l> Replay<'l> {
    /// Sets the game up from the log's header.
    ///
    /// # Errors
    /// A player count or optional rule the title does not allow.
    pub fn new(log: &'l GameLog) -> Result<Replay<'l>, SetupFailed> {
        let mut game = Game::with_stated_setup(&setup(log), log.header.stated_setup.clone())
            .map_err(|error| {
                let span = match &error {
                    SetupError::UnknownOptionalRule { rule, .. } => log
                        .header
                        .optional_rules
                        .iter()
                        .find(|r| &r.value == rule)
                        .map_or(log.header.players_span, |r| r.span),
                    SetupError::UnknownTitle(_)
                    | SetupError::MissingSeed { .. }
                    | SetupError::NoRandomSetup { .. }
                    | SetupError::ImpossibleSetup { .. }
                    | SetupError::SetupDiffers { .. } => log.header.title.span,
                    _ => log.header.players_span,
                };
                SetupFailed {
                    src: log.source(),
                    span,
                    error,
                }
            })?;
        apply_corrections(log, 0, 0, &mut game);
        Ok(Replay {
            log,
            start: game.clone(),
            game,
            next: 0,
            strict_rules: false,
            warnings: Vec::new(),
        })
    }

    /// Follows the printed rules where 18xx.games does not: a move that breaks one is an
    /// illegal action ([`RuleViolation::PrintedRule`]) instead of a warning.
    #[must_use]
    pub fn strict_rules(mut self, strict: bool) -> Self {
        self.strict_rules = strict;
        self
    }

    /// The deviations found so far: moves that break a printed rule while 18xx.games accepts
    /// them (railnote follows 18xx.games).
    pub fn warnings(&self) -> &[DeviationWarning] {
        &self.warnings
    }

    /// The game after the actions processed so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The log being replayed.
    pub fn log(&self) -> &'l GameLog {
        self.log
    }

    /// How many top-level actions have been processed.
    pub fn processed(&self) -> usize {
        self.next
    }

    /// Processes the next top-level action and its auto actions; `None` at the end of the log.
    ///
    /// After an error the game is left as it was before the failing (auto) action.
    ///
    /// # Errors
    /// The first rule violation, located in the file.
    pub fn step(&mut self) -> Option<Result<Processed<'l>, IllegalAction>> {
        let logged = self.log.actions.get(self.next)?;
        let index = self.next + 1;
        let at = |game: &Game,
                  action: &Action,
                  span: Span,
                  auto: Option<usize>,
                  violation: RuleViolation| {
            IllegalAction::new(self.log, game, logged, index, action, span, auto, violation)
        };
        let mut found: Vec<DeviationWarning> = Vec::new();
        let actions = std::iter::once((&logged.action, logged.span, &logged.type_name)).chain(
            logged
                .auto_actions
                .iter()
                .map(|a| (&a.action, a.span, &a.type_name)),
        );
        for (k, (action, span, type_name)) in actions.enumerate() {
            let auto = k.checked_sub(1);
            let outcome = match self.game.process_in_place(action) {
                Ok(deviations) if self.strict_rules && !deviations.is_empty() => {
                    Err(RuleViolation::PrintedRule(deviations[0].clone()))
                }
                other => other,
            };
            match outcome {
                Ok(deviations) => {
                    found.extend(deviations.into_iter().map(|deviation| DeviationWarning {
                        src: self.log.source(),
                        span,
                        index,
                        action_id: logged.action_id,
                        action_type: type_name.to_string(),
                        round: deviation.round.clone(),
                        actor: self.game.entity_name(action.entity()),
                        deviation,
                    }));
                    apply_corrections(self.log, index, k, &mut self.game);
                }
                Err(v) => {
                    self.rebuild(auto);
                    return Some(Err(at(&self.game, action, span, auto.map(|i| i + 1), v)));
                }
            }
        }
        self.warnings.extend(found);
        self.next += 1;
        Some(Ok(Processed {
            index,
            action: logged,
        }))
    }

    /// Puts the game back in the state before a rejected action: the initial state, then every
    /// action processed so far, then, if the rejected action is an auto action, the next
    /// top-level action and its first `autos_done` auto actions.
    fn rebuild(&mut self, autos_done: Option<usize>) {
        let mut game = self.start.clone();
        let log = self.log;
        let redo = |game: &mut Game, index: usize, autos: usize| {
            let logged = &log.actions[index - 1];
            let actions = std::iter::once(&logged.action)
                .chain(logged.auto_actions[..autos].iter().map(|a| &a.action));
            for (k, action) in actions.enumerate() {
                let accepted = game.process_in_place(action);
                debug_assert!(
                    accepted.is_ok(),
                    "an action accepted once is accepted again"
                );
                apply_corrections(log, index, k, game);
            }
        };
        for (done, logged) in self.log.actions[..self.next].iter().enumerate() {
            redo(&mut game, done + 1, logged.auto_actions.len());
        }
        if let Some(autos) = autos_done {
            redo(&mut game, self.next + 1, autos);
        }
        self.game = game;
    }

    /// Processes every remaining action, calling `visit` after each one with the new state;
    /// `visit` may stop the replay early.
    ///
    /// # Errors
    /// The first rule violation, located in the file.
    pub fn run_with(
        &mut self,
        mut visit: impl FnMut(Processed<'l>, &Game) -> ControlFlow<()>,
    ) -> Result<(), IllegalAction> {
        while let Some(step) = self.step() {
            if visit(step?, &self.game).is_break() {
                break;
            }
        }
        Ok(())
    }

    /// Processes every remaining action and returns the final game.
    ///
    /// # Errors
    /// The first rule violation, located in the file.
    pub fn finish(mut self) -> Result<Game, IllegalAction> {
        self.run_with(|_, _| ControlFlow::Continue(()))?;
        Ok(self.game)
    }
}

/// Applies the log's corrections written right after its first `after` top-level actions and
/// `autos` auto actions of the last of them.
fn apply_corrections(log: &GameLog, after: usize, autos: usize, game: &mut Game) {
    let first = log
        .corrections
        .partition_point(|c| (c.after, c.autos) < (after, autos));
    for c in log.corrections[first..]
        .iter()
        .take_while(|c| (c.after, c.autos) == (after, autos))
    {
        let applied = game.correct(&c.correction);
        debug_assert!(
            applied.is_ok(),
            "a correction applied once while the notation was replayed applies again"
        );
    }
}

/// Replays a whole log.
///
/// # Errors
/// A setup the title does not allow, or the first illegal action.
pub fn replay(log: &GameLog) -> Result<Game, ReplayError> {
    Ok(Replay::new(log)?.finish()?)
}

/// A whole log replayed: the final game and the deviations on the way.
#[derive(Debug)]
pub struct Replayed {
    /// The game after the last action.
    pub game: Game,
    /// Moves that break a printed rule while 18xx.games accepts them.
    pub warnings: Vec<DeviationWarning>,
}

/// Replays a whole log, collecting the deviations from the printed rules; with
/// `strict_rules` the first one is an illegal action instead.
///
/// # Errors
/// A setup the title does not allow, or the first illegal action.
pub fn replay_with_warnings(log: &GameLog, strict_rules: bool) -> Result<Replayed, ReplayError> {
    let mut replay = Replay::new(log)?.strict_rules(strict_rules);
    replay.run_with(|_, _| ControlFlow::Continue(()))?;
    Ok(Replayed {
        game: replay.game,
        warnings: replay.warnings,
    })
}

/// A log's stored final result that the replayed game does not give.
#[derive(Debug, Clone, thiserror::Error)]
#[error("the recorded result differs from the game: {}", first_label(.labels))]
pub struct ResultMismatch {
    /// The file.
    pub src: LogSource,
    /// Each recorded score that differs, with the score the game gives.
    pub labels: Vec<(Span, String)>,
    /// The result the game gives.
    pub help: String,
}

fn first_label(labels: &[(Span, String)]) -> &str {
    labels.first().map_or("", |(_, l)| l.as_str())
}

impl Diagnostic for ResultMismatch {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new("rules::result_mismatch"))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.src)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(self.labels.iter().map(|(span, label)| {
            LabeledSpan::new_with_span(Some(label.clone()), label_span(*span))
        })))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(&self.help))
    }
}

/// The log's stored `result` against the replayed game: every score must be the one the game
/// gives (18xx.games stores the result its engine computed; a different one means the log was
/// edited, or the two engines disagree). A log without a result, or with an empty one, is not
/// checked.
///
/// # Errors
/// The scores that differ.
pub fn check_result(log: &GameLog, game: &Game) -> Result<(), ResultMismatch> {
    let Some(recorded) = log.header.result.as_ref().filter(|r| !r.is_empty()) else {
        return Ok(());
    };
    let values = game.player_values();
    let given: Vec<String> = game
        .players
        .iter()
        .map(|p| {
            format!(
                "\"{}\": {}",
                log.player_id(p.id),
                values.get(&p.id).map_or(0, |v| v.0)
            )
        })
        .collect();
    let help = format!("the game gives `\"result\": {{{}}}`", given.join(", "));
    let whole = recorded.values().next().map_or(Span::new(0, 0), |v| v.span);
    let mut labels = Vec::new();
    if !game.finished {
        labels.push((
            whole,
            format!(
                "recorded a final result, but the game is not over: it stops in {}",
                game.round_label()
            ),
        ));
    } else {
        for p in &game.players {
            let id = log.player_id(p.id);
            let actual = values.get(&p.id).map_or(0, |v| v.0);
            match recorded.get(id) {
                Some(r) if r.value != actual => labels.push((
                    r.span,
                    format!("recorded {} {}, the game gives {actual}", p.name, r.value),
                )),
                Some(_) => {}
                None => labels.push((
                    whole,
                    format!("no score recorded for {}, the game gives {actual}", p.name),
                )),
            }
        }
    }
    if labels.is_empty() {
        return Ok(());
    }
    Err(ResultMismatch {
        src: log.source(),
        labels,
        help,
    })
}

/// Why a replay stopped.
#[derive(Debug, thiserror::Error, Diagnostic)]
pub enum ReplayError {
    /// The header describes a game the title does not allow.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Setup(#[from] SetupFailed),
    /// An action breaks the rules.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Illegal(#[from] IllegalAction),
}

/// The log's header describes a game the title does not allow (player count, optional rule).
#[derive(Debug, thiserror::Error)]
#[error("{}", shorten_quotes(format!("cannot set the game up: {error}")))]
pub struct SetupFailed {
    /// The file.
    pub src: LogSource,
    /// Where the offending header entry is.
    pub span: Span,
    /// What the engine said.
    pub error: SetupError,
}

impl Diagnostic for SetupFailed {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new("replay::setup"))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.src)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        // The error may quote the header (an optional rule's name) at any length.
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(
                Some(shorten_quotes(self.error.to_string())),
                label_span(self.span),
            ),
        )))
    }
}

/// An action the rules do not allow, located in the log.
#[derive(Debug, thiserror::Error)]
#[error("{}", self.headline())]
pub struct IllegalAction {
    /// The file.
    pub src: LogSource,
    /// The offending action's JSON object.
    pub span: Span,
    /// 1-based count of processed top-level actions, this one included.
    pub index: usize,
    /// The source id of the action (of its parent, for an auto action).
    pub action_id: i64,
    /// For an auto action: its 1-based position among its parent's auto actions.
    pub auto: Option<usize>,
    /// The reference type name of the offending action.
    pub action_type: String,
    /// The round before the action (`PR`, `SR 2`, `OR 3.1`).
    pub round: String,
    /// Who acted.
    pub actor: String,
    /// Who the game was waiting for, if anyone.
    pub expected_actor: Option<String>,
    /// The rule broken.
    pub violation: RuleViolation,
    /// What would have been legal instead, written in the notation: moves of the same kind
    /// first, sorted, at most [`LEGAL_SHOWN`] (then how many more).
    pub legal: Vec<String>,
    /// The rule broken as the diagnostic shows it (the engine's message may quote a player's
    /// name of any length).
    #[source]
    shown: ShownViolation,
}

/// A rule violation's message, cut short for a diagnostic.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct ShownViolation(String);

/// How many legal alternatives a diagnostic lists.
pub const LEGAL_SHOWN: usize = 8;

/// The legal actions at the state where `action` was rejected, in the notation, the same kind
/// as the rejected action first. Ending the game by hand, always legal, is no alternative to
/// a move of the game: it is listed only for a refused `end_game`. A move refused because the
/// printed rules were asked for gets no alternatives that break them too.
pub(crate) fn legal_alternatives(
    game: &Game,
    action: &Action,
    violation: Option<&RuleViolation>,
) -> Vec<String> {
    let legal = game.legal_actions();
    let ending = matches!(action, Action::EndGame { .. });
    let printed_rules = matches!(violation, Some(RuleViolation::PrintedRule(_)));
    let mut written: Vec<(bool, String)> = legal
        .actions
        .iter()
        .filter(|l| matches!(l.action, Action::EndGame { .. }) == ending)
        .filter(|l| !(printed_rules && l.deviation.is_some()))
        .map(|l| {
            let actor = short_name(&game.entity_name(l.action.entity()));
            let text = crate::replay::notation::to_notation(game, &l.action).to_string();
            let text = match l.max_price {
                Some(max) => format!("{actor}: {text} (up to {max})"),
                None => format!("{actor}: {text}"),
            };
            (l.action.type_name() != action.type_name(), text)
        })
        .collect();
    written.sort();
    written.dedup();
    let total = written.len();
    let mut out: Vec<String> = written
        .into_iter()
        .take(LEGAL_SHOWN)
        .map(|(_, t)| t)
        .collect();
    if total > LEGAL_SHOWN {
        out.push(format!("and {} more", total - LEGAL_SHOWN));
    }
    out
}

impl IllegalAction {
    #[allow(clippy::too_many_arguments)]
    fn new(
        log: &GameLog,
        game: &Game,
        logged: &LoggedAction,
        index: usize,
        action: &Action,
        span: Span,
        auto: Option<usize>,
        violation: RuleViolation,
    ) -> IllegalAction {
        let action_type = match auto {
            None => logged.type_name.clone(),
            Some(i) => logged.auto_actions[i - 1].type_name.clone(),
        };
        IllegalAction {
            src: log.source(),
            span,
            index,
            action_id: logged.action_id,
            auto,
            action_type: short_name(&action_type),
            round: game.round_label(),
            actor: short_name(&game.entity_name(action.entity())),
            expected_actor: game
                .acting_entity()
                .map(|e| short_name(&game.entity_name(e))),
            legal: legal_alternatives(game, action, Some(&violation)),
            shown: ShownViolation(shorten_quotes(violation.to_string())),
            violation,
        }
    }

    /// The rule's stable code (`rules::not_your_turn`).
    pub fn rule(&self) -> &'static str {
        self.violation.code()
    }

    fn headline(&self) -> String {
        let what = match self.auto {
            None => format!("action #{} (id {})", self.index, self.action_id),
            Some(k) => format!(
                "auto action {k} of action #{} (id {})",
                self.index, self.action_id
            ),
        };
        format!(
            "{what} is illegal: `{}` by {} in {}",
            self.action_type, self.actor, self.round
        )
    }
}

impl Diagnostic for IllegalAction {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.violation.code()))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.src)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(
                Some(shorten_quotes(self.violation.to_string())),
                label_span(self.span),
            ),
        )))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let mut parts = Vec::new();
        if let Some(expected) = self.expected_actor.as_ref().filter(|e| **e != self.actor) {
            parts.push(format!("the game was waiting for {expected}"));
        }
        if !self.legal.is_empty() {
            parts.push(format!("legal here: {}", self.legal.join("; ")));
        }
        (!parts.is_empty())
            .then(|| Box::new(shorten_quotes(parts.join("\n"))) as Box<dyn fmt::Display>)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Entity;
    use crate::ids::{CorpId, PlayerId};
    use crate::log::AutoAction;

    /// Logs to replay: the self-play samples, and the shared fixtures when they are present.
    fn logs() -> Vec<GameLog> {
        let mut texts: Vec<(String, String)> = [
            (
                "seed1",
                include_str!("../samples/1836jr30-selfplay-greedy-3p-seed1.json"),
            ),
            (
                "seed200",
                include_str!("../samples/1836jr30-selfplay-greedy-4p-seed200.json"),
            ),
        ]
        .iter()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect();
        let shared = std::env::var_os("RAILNOTE_SHARED")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"));
        for title in ["1836Jr30", "18Ireland"] {
            let Ok(dir) = std::fs::read_dir(shared.join("fixtures").join(title)) else {
                continue;
            };
            let mut files: Vec<_> = dir.filter_map(|e| Some(e.ok()?.path())).collect();
            files.sort();
            for f in files
                .iter()
                .filter(|f| f.extension().is_some_and(|e| e == "json"))
            {
                texts.push((f.display().to_string(), std::fs::read_to_string(f).unwrap()));
            }
        }
        texts
            .iter()
            .map(|(name, text)| crate::log::read(name, text).unwrap())
            .collect()
    }

    /// An action the game rejects in this state.
    fn rejected(game: &Game) -> Action {
        let candidates = (0..game.players.len())
            .map(|p| Action::Pass {
                entity: Entity::Player(PlayerId(p as u8)),
            })
            .chain((0..game.corps.len()).map(|c| Action::Pass {
                entity: Entity::Corporation(CorpId(c as u8)),
            }))
            .chain((0..game.players.len()).map(|p| Action::Bankrupt {
                entity: Entity::Player(PlayerId(p as u8)),
            }));
        candidates
            .into_iter()
            .find(|a| game.check(a).is_err())
            .expect("some pass or bankruptcy is illegal")
    }

    /// Steps `replay` to just before action `at`, then changes the state as a rejected action
    /// might have before it failed (in a way that changes no verdict).
    fn scribble_before(replay: &mut Replay<'_>, at: usize) {
        while replay.processed() < at {
            replay.step().unwrap().unwrap();
        }
        replay.game.players[0].name.push_str(" (changed)");
    }

    /// A rejected action, top-level or auto, leaves the replay at the state before it (whatever
    /// it changed before failing is undone): the same state as [`Game::process`], which copies
    /// the game before every action, leaves.
    #[test]
    fn a_rejected_action_leaves_the_state_before_it() {
        for log in logs() {
            let mut game = Game::new(&setup(&log)).unwrap();
            let n = log.actions.len();
            let positions: Vec<usize> = (0..n).step_by(n / 6 + 1).chain([n - 1]).collect();
            let mut k = 0;
            for &at in &positions {
                while k < at {
                    game.process(&log.actions[k].action).unwrap();
                    for auto in &log.actions[k].auto_actions {
                        game.process(&auto.action).unwrap();
                    }
                    k += 1;
                }
                let before = game.state_debug();
                // The action at `at` replaced by an illegal one.
                let mut bad = log.clone();
                bad.actions[at].action = rejected(&game);
                bad.actions[at].auto_actions.clear();
                let mut replay = Replay::new(&bad).unwrap();
                scribble_before(&mut replay, at);
                let err = replay
                    .run_with(|_, _| ControlFlow::Continue(()))
                    .unwrap_err();
                assert_eq!((err.index, err.auto), (at + 1, None), "{}", log.name);
                assert_eq!(
                    replay.game().state_debug(),
                    before,
                    "{} #{}",
                    log.name,
                    at + 1
                );
                // The action at `at` kept, with its auto actions followed by an illegal one.
                let mut after = game.clone();
                after.process(&log.actions[at].action).unwrap();
                for auto in &log.actions[at].auto_actions {
                    after.process(&auto.action).unwrap();
                }
                let mut bad = log.clone();
                let autos = log.actions[at].auto_actions.len();
                bad.actions[at].auto_actions.push(AutoAction {
                    type_name: "pass".into(),
                    span: log.actions[at].span,
                    action: rejected(&after),
                });
                let mut replay = Replay::new(&bad).unwrap();
                scribble_before(&mut replay, at);
                let err = replay
                    .run_with(|_, _| ControlFlow::Continue(()))
                    .unwrap_err();
                assert_eq!(
                    (err.index, err.auto),
                    (at + 1, Some(autos + 1)),
                    "{}",
                    log.name
                );
                assert_eq!(replay.game().state_debug(), after.state_debug());
            }
        }
    }
}
