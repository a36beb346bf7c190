//! The bridge between a game log and the rules engine: sets the game up from the log's header,
//! feeds the actions to [`Game::process`], and maps the first [`RuleViolation`] back to the
//! place in the file as an [`IllegalAction`] diagnostic.
//!
//! Counting: `index` numbers the surviving top-level actions from 1, as the reference traces
//! do (one trace line per top-level action); an action's auto actions are processed right
//! after it and belong to its index.

// A replay fails once, at its end; the size of the error value does not matter.
#![allow(clippy::result_large_err)]

use miette::{Diagnostic, LabeledSpan, SourceCode};
use std::fmt;
use std::ops::ControlFlow;

use crate::action::Action;
use crate::engine::{Game, GameOptions, GameSetup, RuleViolation, SetupError};
use crate::log::{GameLog, LogSource, LoggedAction, Span};

pub mod notation;

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
#[derive(Debug)]
pub struct Replay<'l> {
    log: &'l GameLog,
    game: Game,
    next: usize,
}

impl<'l> Replay<'l> {
    /// Sets the game up from the log's header.
    ///
    /// # Errors
    /// A player count or optional rule the title does not allow.
    pub fn new(log: &'l GameLog) -> Result<Replay<'l>, SetupFailed> {
        let game = Game::new(&setup(log)).map_err(|error| {
            let span = match &error {
                SetupError::UnknownOptionalRule { rule, .. } => log
                    .header
                    .optional_rules
                    .iter()
                    .find(|r| &r.value == rule)
                    .map_or(log.header.players_span, |r| r.span),
                SetupError::UnknownTitle(_) => log.header.title.span,
                _ => log.header.players_span,
            };
            SetupFailed {
                src: log.source(),
                span,
                error,
            }
        })?;
        Ok(Replay { log, game, next: 0 })
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
        if let Err(v) = self.game.process(&logged.action) {
            return Some(Err(at(&self.game, &logged.action, logged.span, None, v)));
        }
        for (i, auto) in logged.auto_actions.iter().enumerate() {
            if let Err(v) = self.game.process(&auto.action) {
                return Some(Err(at(&self.game, &auto.action, auto.span, Some(i + 1), v)));
            }
        }
        self.next += 1;
        Some(Ok(Processed {
            index,
            action: logged,
        }))
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

/// Replays a whole log.
///
/// # Errors
/// A setup the title does not allow, or the first illegal action.
pub fn replay(log: &GameLog) -> Result<Game, ReplayError> {
    Ok(Replay::new(log)?.finish()?)
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
#[derive(Debug, thiserror::Error, Diagnostic)]
#[error("cannot set the game up: {error}")]
#[diagnostic(code(replay::setup))]
pub struct SetupFailed {
    /// The file.
    #[source_code]
    pub src: LogSource,
    /// Where the offending header entry is.
    #[label("{error}")]
    pub span: Span,
    /// What the engine said.
    pub error: SetupError,
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
    #[source]
    pub violation: RuleViolation,
    /// What would have been legal instead, written in the notation: moves of the same kind
    /// first, sorted, at most [`LEGAL_SHOWN`] (then how many more).
    pub legal: Vec<String>,
}

/// How many legal alternatives a diagnostic lists.
pub const LEGAL_SHOWN: usize = 8;

/// The legal actions at the state where `action` was rejected, in the notation, the same kind
/// as the rejected action first.
fn legal_alternatives(game: &Game, action: &Action) -> Vec<String> {
    let legal = game.legal_actions();
    let mut written: Vec<(bool, String)> = legal
        .actions
        .iter()
        .map(|l| {
            let actor = game.entity_name(l.action.entity());
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
            action_type,
            round: game.round_label(),
            actor: game.entity_name(action.entity()),
            expected_actor: game.acting_entity().map(|e| game.entity_name(e)),
            legal: legal_alternatives(game, action),
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
            LabeledSpan::new_primary_with_span(Some(self.violation.to_string()), self.span),
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
        (!parts.is_empty()).then(|| Box::new(parts.join("\n")) as Box<dyn fmt::Display>)
    }
}
