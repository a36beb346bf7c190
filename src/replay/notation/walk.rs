//! The main walk through a game's text: moves resolved and processed in order (with the
//! passes a move implies), headings held against the round, variations replayed on a copy,
//! and the log of the main line built on the way.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use super::checks::check_holds;
use super::diagnostics::{Code, MoveError};
use super::explain::legal_list;
use super::names::entity_by_name;
use super::recovery::Recovery;
use super::resolve::resolve;
use super::setup::setup;
use crate::action::{Action, Entity};
use crate::engine::{Game, RuleViolation, Skipped};
use crate::ids::{Money, PlayerId};
use crate::log::{AutoAction, GameLog, LogSource, LoggedAction, LoggedCorrection, Span};
use crate::notation::{self, Element, GameText, Move, RawAction};
use crate::replay::{DeviationWarning, Target};

/// A correction applied during the replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppliedCorrection {
    /// Where it is written.
    pub span: Span,
    /// What it did (`correct cash Ann +50`).
    pub text: String,
    /// The round it was applied in.
    pub round: String,
}

/// A replayed game: the final state, the moves as an 18xx.games-shaped log (spans into the
/// notation), and what happened along the way.
#[derive(Debug, Clone)]
pub struct Played {
    /// The game after the main line.
    pub game: Game,
    /// The main line's actions (for `--at`, `--trace`, conversion to JSON).
    pub log: GameLog,
    /// Every failure (only the first without keep-going; the first [`DIAGNOSTICS_KEPT`]).
    pub errors: Vec<MoveError>,
    /// How many more failures there were past the ones kept.
    pub omitted: usize,
    /// Corrections applied, in order.
    pub corrections: Vec<AppliedCorrection>,
    /// Settings of programmed actions by 0-based action index (for conversion to JSON).
    pub programs: BTreeMap<(usize, usize), Vec<(String, String)>>,
    /// Moves of the main line that break a printed rule while 18xx.games accepts them.
    pub warnings: Vec<DeviationWarning>,
    /// Replayed up to a state asked for ([`play_until`]): where the first statement left out
    /// starts (the end of the game's text when the state is its end), and whether the state
    /// was reached at all. `None` when the whole game was replayed.
    pub stopped_at: Option<(usize, bool)>,
}

/// How a document is replayed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlayOptions {
    /// Report every illegal move, not just the first.
    pub keep_going: bool,
    /// Refuse moves that break a printed rule 18xx.games does not enforce, instead of
    /// warning.
    pub strict_rules: bool,
}

pub(super) struct Player<'a> {
    pub(super) src: LogSource,
    pub(super) keep_going: bool,
    pub(super) strict_rules: bool,
    pub(super) errors: Vec<MoveError>,
    pub(super) omitted: usize,
    pub(super) warnings: Vec<DeviationWarning>,
    pub(super) corrections: Vec<AppliedCorrection>,
    /// The main line's corrections, for the log.
    pub(super) logged_corrections: Vec<LoggedCorrection>,
    pub(super) actions: Vec<LoggedAction>,
    pub(super) programs: BTreeMap<(usize, usize), Vec<(String, String)>>,
    pub(super) text: &'a str,
    /// A byte offset and its line: errors come mostly in file order, so counting lines on from
    /// the last one keeps many errors linear.
    pub(super) line_at: (usize, usize),
    /// The state to stop at.
    pub(super) until: Option<&'a Target>,
    /// Where the replay stopped at `until` (the first statement left out), once it has.
    pub(super) stopped_at: Option<(usize, bool)>,
    /// The entity of the last move replayed and where that move is written: a move without an
    /// actor continues its turn, and naming another actor ends it.
    pub(super) scope: Option<(Entity, Span)>,
    /// Where the last move replayed is written, an automatic one (`& …`) too.
    pub(super) last_move: Option<Span>,
    /// The round the last move replayed was made in (after the passes it implies).
    pub(super) played_in: String,
    /// The round of the last heading written.
    pub(super) headed_round: Option<String>,
    /// Players the rules passed automatically in a stock round and who have not moved since:
    /// their cash then, the move after which it happened and the game turn of that stock round
    /// (the pass explains a refused move until the next stock round).
    pub(super) auto_passed: Vec<(PlayerId, Money, Span, Option<u32>)>,
    /// The round in which the last move was made (before it).
    pub(super) round_of_last_move: String,
    /// What the rules skipped just before the last move (a `pass` is at the step after them).
    pub(super) skipped_before_last_move: Vec<Skipped>,
    /// Problems are not reported (moves tried while out of step).
    pub(super) quiet: bool,
    /// Keep-going: where the text and the game are after a refused move, and the moves
    /// replayed out of where they are written.
    pub(super) recovery: Recovery,
}

/// What the passes a written move implies come to.
pub(super) enum Implied {
    /// No run of passes makes the move legal or brings its actor to act.
    None,
    /// The game after the passes and the move, the passes, the move as resolved there, its
    /// deviations and the round it was made in (after the passes).
    Played(
        Game,
        Vec<Entity>,
        Action,
        Vec<crate::engine::Deviation>,
        String,
    ),
    /// The game after the passes (the named actor is to act) and the move's own violation.
    Refused(Game, Vec<Entity>, Action, RuleViolation),
}

/// How many passes one written move may imply: the steps of an operating turn and the end of
/// the turn (a turn has fewer than ten steps in every title).
pub(super) const IMPLIED_PASSES: usize = 10;

/// Replays one game of a document.
///
/// # Errors
/// The game cannot be set up from its tags.
pub fn play(
    name: &str,
    src: &Arc<str>,
    text: &GameText,
    options: PlayOptions,
) -> Result<Played, MoveError> {
    play_until(name, src, text, options, None)
}

/// Replays one game of a document up to a state (`--at`): nothing after it is replayed, so a
/// later mistake does not hide the state asked for. See [`Played::stopped_at`].
///
/// # Errors
/// The game cannot be set up from its tags.
pub fn play_until(
    name: &str,
    src: &Arc<str>,
    text: &GameText,
    options: PlayOptions,
    until: Option<&Target>,
) -> Result<Played, MoveError> {
    let source = LogSource::new(name, Arc::clone(src));
    let (mut game, header) = setup(&source, text, Span::new(0, 0))?;
    let title = game.title;
    let mut p = Player {
        src: source,
        keep_going: options.keep_going,
        strict_rules: options.strict_rules,
        errors: Vec::new(),
        omitted: 0,
        warnings: Vec::new(),
        corrections: Vec::new(),
        logged_corrections: Vec::new(),
        actions: Vec::new(),
        programs: BTreeMap::new(),
        text: src,
        line_at: (0, 1),
        until,
        stopped_at: None,
        scope: None,
        last_move: None,
        played_in: String::new(),
        headed_round: None,
        auto_passed: Vec::new(),
        round_of_last_move: String::new(),
        skipped_before_last_move: Vec::new(),
        quiet: false,
        recovery: Recovery::default(),
    };
    p.body(&mut game, &text.body, true);
    if until.is_none() && p.errors.is_empty() {
        if p.actions.is_empty() {
            // A game of tags alone is most likely a file not yet written, or the wrong one.
            let at = text.tag("Title").map_or(Span::new(0, 0), |t| t.span);
            p.error(
                &game,
                at,
                Code::NoMoves,
                "the game has no moves".into(),
                Some(
                    "write the moves after the tags, e.g. `PR` and `Ann: bid ACC 20`; \
                     `railnote moves FILE` lists the first ones"
                        .into(),
                ),
                None,
            );
        } else if let Some(tag) = text.tag("Result") {
            p.check_result(&game, tag);
        }
    }
    let stopped_at = until.map(|target| {
        p.stopped_at.unwrap_or_else(|| {
            let end = text.body.iter().map(|e| element_span(e).end()).max();
            let reached = target.reached(&game, p.actions.len(), None);
            (end.unwrap_or(0), reached)
        })
    });
    let log = GameLog {
        name: name.to_string(),
        src: Arc::clone(src),
        header,
        title,
        raw_count: p.actions.len(),
        actions: p.actions,
        actions_span: Span::new(0, src.len()),
        corrections: p.logged_corrections,
    };
    Ok(Played {
        game,
        log,
        errors: p.errors,
        omitted: p.omitted,
        corrections: p.corrections,
        programs: p.programs,
        warnings: p.warnings,
        stopped_at,
    })
}

/// The order of rounds: PR, then per turn SR, then each OR n.m followed by its MR n.m.
pub(super) fn round_order(label: &str) -> Option<(u32, u32, u32)> {
    Some(match label.parse::<notation::RoundName>().ok()? {
        notation::RoundName::Private => (0, 0, 0),
        notation::RoundName::Stock(n) => (n, 1, 0),
        notation::RoundName::Operating(n, m) => (n, 2, 2 * m),
        notation::RoundName::Merger(n, m) => (n, 2, 2 * m + 1),
    })
}

/// The game turn a round belongs to (`SR 2`, `OR 2.1` and `MR 2.1` are turn 2).
pub(super) fn turn_of(label: &str) -> Option<u32> {
    round_order(label).map(|(turn, _, _)| turn)
}

/// Where an element of the move text is written.
pub(super) fn element_span(e: &Element) -> Span {
    match e {
        Element::Heading(h) => h.span,
        Element::Move(m) => m.span,
        Element::Comment(c) => c.span,
        Element::Variation(v) => v.span,
        Element::Check(c) => c.span,
        Element::Correction(c) => c.span,
    }
}

/// What replaying a move changes in the [`Player`] besides the game and the log: kept while
/// moves are tried on a copy of the game, and put back after.
pub(super) struct MoveMemory {
    pub(super) scope: Option<(Entity, Span)>,
    pub(super) last_move: Option<Span>,
    pub(super) round_of_last_move: String,
    pub(super) skipped_before_last_move: Vec<Skipped>,
    pub(super) auto_passed: Vec<(PlayerId, Money, Span, Option<u32>)>,
    pub(super) warnings: usize,
    pub(super) unheaded: Option<(String, Span, usize)>,
}

impl Player<'_> {
    /// Runs `tried` (moves tried on a copy of the game, not for the log) without a report, and
    /// forgets what its moves changed.
    pub(super) fn quietly<T>(&mut self, tried: impl FnOnce(&mut Self) -> T) -> T {
        let memory = MoveMemory {
            scope: self.scope,
            last_move: self.last_move,
            round_of_last_move: self.round_of_last_move.clone(),
            skipped_before_last_move: self.skipped_before_last_move.clone(),
            auto_passed: self.auto_passed.clone(),
            warnings: self.warnings.len(),
            unheaded: self.recovery.unheaded.clone(),
        };
        let quiet = std::mem::replace(&mut self.quiet, true);
        let outcome = tried(self);
        self.quiet = quiet;
        self.scope = memory.scope;
        self.last_move = memory.last_move;
        self.round_of_last_move = memory.round_of_last_move;
        self.skipped_before_last_move = memory.skipped_before_last_move;
        self.auto_passed = memory.auto_passed;
        self.warnings.truncate(memory.warnings);
        self.recovery.unheaded = memory.unheaded;
        outcome
    }

    pub(super) fn stopped(&self) -> bool {
        (!self.keep_going && !self.errors.is_empty()) || self.stopped_at.is_some()
    }

    /// Whether the main line has reached the state asked for before `e`: then nothing from `e`
    /// on is replayed.
    pub(super) fn stop_before(&mut self, game: &Game, e: &Element) -> bool {
        let Some(target) = self.until else {
            return false;
        };
        let span = element_span(e);
        let before_move = matches!(e, Element::Move(m) if !m.auto);
        let reached = match target {
            Target::Before(offset) => span.offset >= *offset,
            // Checks and headings right after the state belong to it; the next move does not.
            _ => before_move && target.reached(game, self.actions.len(), Some(span.offset)),
        };
        if reached {
            self.stopped_at = Some((span.offset, true));
        }
        reached
    }

    /// A move's text as written, for the reports.
    pub(super) fn written_text(&self, span: Span) -> String {
        self.text
            .get(span.offset..span.end())
            .unwrap_or("?")
            .trim()
            .to_string()
    }

    /// The 1-based line of a byte offset.
    pub(super) fn line_of(&mut self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        let (from, line) = if offset >= self.line_at.0 {
            self.line_at
        } else {
            (0, 1)
        };
        let line = line
            + self.text.as_bytes()[from..offset]
                .iter()
                .filter(|b| **b == b'\n')
                .count();
        self.line_at = (offset, line);
        line
    }

    /// Replays a body; `main` when its moves belong to the main line (kept in the log).
    pub(super) fn body(&mut self, game: &mut Game, body: &[Element], main: bool) {
        let mut before: Option<(Game, Option<(Entity, Span)>)> = None;
        // The move a variation follows was refused: its report stands for the variation too.
        let mut refused_before_variation = false;
        for (i, e) in body.iter().enumerate() {
            if self.stopped() || (main && self.stop_before(game, e)) {
                return;
            }
            // A round's first moves written before its heading come after the heading and the
            // check lines that describe the round's start.
            if self
                .recovery
                .postponed
                .as_ref()
                .is_some_and(|(heading, _)| {
                    element_span(e).offset > *heading
                        && !matches!(e, Element::Check(_) | Element::Comment(_))
                })
            {
                self.play_postponed(game, main);
            }
            // A round's last move written after the next round's heading was replayed before
            // the heading.
            if let Element::Move(m) = e {
                if let Some(k) = self
                    .recovery
                    .played_ahead
                    .iter()
                    .position(|o| *o == m.span.offset)
                {
                    self.recovery.played_ahead.swap_remove(k);
                    continue;
                }
            }
            // The turn after which a deferred move comes ends with the next line that names
            // another actor, or the same one when its turn has ended.
            if let Some(waited_for) = self
                .recovery
                .deferred
                .as_ref()
                .filter(|d| d.after.is_some())
                .map(|d| d.waited_for)
            {
                match e {
                    Element::Heading(h) => {
                        self.play_deferred(game, main, None, Some((&h.round.to_string(), h.span)));
                    }
                    Element::Check(_) | Element::Correction(_) => {
                        self.play_deferred(game, main, None, None);
                    }
                    Element::Move(m) if !m.auto => {
                        if let Some(name) = &m.actor {
                            let named = entity_by_name(game, &name.text).ok();
                            if named != Some(waited_for) || game.acting_entity() != Some(waited_for)
                            {
                                self.play_deferred(game, main, named, None);
                            }
                        }
                    }
                    _ => {}
                }
            }
            match e {
                Element::Comment(_) => {}
                Element::Heading(h) => {
                    let written = h.round.to_string();
                    let placed = self.move_before_heading(game, &written, h.span)
                        || self.moves_after_heading(game, body, i, &written, h.span, main);
                    self.headed_round = Some(written.clone());
                    self.recovery.unheaded = None;
                    if placed {
                        self.recovery.refused = None;
                        continue;
                    }
                    if self.recovery.desync.is_some() {
                        self.recovery.deferred = None;
                        if self.resync(game, h.span, main, |g| g.round_label() == written) {
                            self.scope = None;
                        } else {
                            // No run of passes gets there: the heading is a mistake of its own.
                            let desync = self.recovery.desync.take();
                            self.heading(game, written.clone(), h.span, main);
                            self.recovery.desync = desync;
                        }
                    } else {
                        self.heading(game, written.clone(), h.span, main);
                    }
                    self.refused_before_heading(game, body, i, &written, h.span);
                }
                // Out of step, a value checked would mostly repeat the mistake already
                // reported (the report says which were not evaluated); a name that names
                // nobody is a mistake of its own.
                Element::Check(c) => {
                    // Right before a heading that the round's last moves were written after.
                    if let Some(next) = body[i + 1..]
                        .iter()
                        .position(|e| !matches!(e, Element::Check(_) | Element::Comment(_)))
                    {
                        self.moves_after_check(game, body, i + 1 + next, c, main);
                    }
                    // Right after a heading that the first moves of its round were written
                    // before: the check describes the round's start, or the moves' outcome.
                    if self.recovery.postponed.is_some() && !check_holds(game, c) {
                        let moves = self.recovery.postponed.as_ref().map(|(_, m)| m.clone());
                        let mut trial = game.clone();
                        let after = self.quietly(|p| {
                            p.scope = None;
                            moves
                                .iter()
                                .flatten()
                                .all(|m| p.play_move(&mut trial, m, false))
                        });
                        if after && check_holds(&trial, c) {
                            self.play_postponed(game, main);
                        }
                    }
                    self.check(game, c, self.recovery.desync.is_some());
                }
                Element::Correction(c) => self.correction(game, c, main),
                Element::Variation(v) => {
                    let Some((start, scope)) = before.as_ref() else {
                        self.error(game, v.span, Code::VariationWithoutMove, "a variation replaces a move, but none comes before it".into(), Some("write the variation right after the move it replaces: `Ann: pass (Ann: buy Nord)`".into()), None);
                        continue;
                    };
                    let mut alt = start.clone();
                    let saved = std::mem::take(&mut self.actions);
                    let main_scope = std::mem::replace(&mut self.scope, *scope);
                    let main_last_move = self.last_move;
                    let main_desync = self.recovery.desync.take();
                    let main_deferred = self.recovery.deferred.take();
                    let main_refused = self.recovery.refused.take();
                    let main_report = self.recovery.desync_report.take();
                    let quiet = self.quiet;
                    self.quiet |= refused_before_variation;
                    self.body(&mut alt, &v.body, false);
                    self.quiet = quiet;
                    self.actions = saved;
                    self.scope = main_scope;
                    self.last_move = main_last_move;
                    self.recovery.desync = main_desync;
                    self.recovery.deferred = main_deferred;
                    self.recovery.refused = main_refused;
                    self.recovery.desync_report = main_report;
                }
                Element::Move(m) => {
                    // A comment may stand between a move and its variation.
                    let next_is_variation = matches!(
                        body[i + 1..]
                            .iter()
                            .find(|e| !matches!(e, Element::Comment(_))),
                        Some(Element::Variation(_))
                    );
                    if !next_is_variation && self.first_moves_before_heading(game, body, i) {
                        continue;
                    }
                    let snapshot = next_is_variation.then(|| (game.clone(), self.scope));
                    let moved = self.move_in_step(game, m, main);
                    if next_is_variation {
                        before = snapshot;
                        refused_before_variation = !moved && self.keep_going;
                    } else if moved {
                        before = None;
                    }
                }
            }
        }
        if self
            .recovery
            .deferred
            .as_ref()
            .is_some_and(|d| d.after.is_some())
        {
            self.play_deferred(game, main, None, None);
        }
        if !self.stopped() {
            self.play_postponed(game, main);
        }
    }

    pub(super) fn play_move(&mut self, game: &mut Game, m: &Move, main: bool) -> bool {
        let entity = match &m.actor {
            Some(name) => match entity_by_name(game, &name.text) {
                Ok(e) => e,
                Err(u) => {
                    self.error(
                        game,
                        name.span,
                        u.code,
                        u.message,
                        u.help,
                        Some(name.text.clone()),
                    );
                    return false;
                }
            },
            None => match (self.scope, game.acting_entity()) {
                // A move without an actor continues the turn of the move before it; it never
                // passes silently to whoever acts next.
                (Some((scope, last)), acting) if acting != Some(scope) && !m.auto => {
                    self.turn_over(game, m, scope, last);
                    return false;
                }
                (Some((scope, _)), _) if !m.auto => scope,
                (_, Some(e)) => e,
                (_, None) => {
                    let label = if game.finished {
                        "the game is over".to_string()
                    } else {
                        "nobody is to act".to_string()
                    };
                    self.error(game, m.span, Code::game_over(), label, None, None);
                    return false;
                }
            },
        };
        let actor = game.entity_name(entity);
        let round_before = game.round_label();
        let skipped_before = game.skipped().to_vec();
        let action = match resolve(game, entity, &m.action) {
            Ok(a) => a,
            Err(u) => {
                self.error(game, m.action_span, u.code, u.message, u.help, Some(actor));
                return false;
            }
        };
        let mut processed = game.process_with(&action, self.strict_rules);
        let mut action = action;
        if let Err(v @ RuleViolation::ValueMismatch { .. }) = &processed {
            // Keep-going: a recorded value the rules do not give is reported, and the move is
            // replayed with the rules' value, so that what follows is judged on its own.
            if let Some((played, deviations)) = self
                .keep_going
                .then(|| self.with_the_rules_values(game, entity, m))
                .flatten()
            {
                let help = self.help_for(game, &action, v);
                self.error(
                    game,
                    m.span,
                    Code::of(v),
                    v.to_string(),
                    help,
                    Some(actor.clone()),
                );
                action = played;
                processed = Ok(deviations);
            }
        }
        let (passes, action, deviations, played_in) = match processed {
            Ok(deviations) => (Vec::new(), action, deviations, round_before.clone()),
            Err(v) => match self.implied_passes(game, m, entity, &v) {
                Implied::Played(trial, passes, action, deviations, round) => {
                    if main && self.stops_within(game, m, &passes) {
                        return false;
                    }
                    *game = trial;
                    (passes, action, deviations, round)
                }
                Implied::Refused(trial, passes, action, v) => {
                    // The turn before ended as the move implies; the move itself is wrong.
                    if main && self.stops_within(game, m, &passes) {
                        return false;
                    }
                    *game = trial;
                    if main {
                        for pass in passes {
                            self.log_implied_pass(pass, m.span);
                        }
                    }
                    self.scope = None;
                    let help = self.help_for(game, &action, &v);
                    self.error(game, m.span, Code::of(&v), v.to_string(), help, Some(actor));
                    return false;
                }
                Implied::None => {
                    let help = self.help_for(game, &action, &v);
                    let (code, label, help) = self.explain(game, m, entity, &action, &v, help);
                    self.error(game, m.span, code, label, help, Some(actor));
                    return false;
                }
            },
        };
        self.scope = (!m.auto).then_some((entity, m.span));
        self.last_move = Some(m.span);
        self.round_of_last_move = round_before;
        self.note_round_of_move(&played_in, m.span, m.auto);
        self.skipped_before_last_move = skipped_before;
        self.note_auto_passes(game, entity, m.span);
        if main {
            for pass in passes {
                self.log_implied_pass(pass, m.span);
            }
        }
        if main {
            let n = self.actions.len() + usize::from(!m.auto || self.actions.is_empty());
            self.warnings
                .extend(deviations.into_iter().map(|deviation| DeviationWarning {
                    src: self.src.clone(),
                    span: m.span,
                    index: n,
                    action_id: n as i64,
                    action_type: action.type_name().to_string(),
                    round: deviation.round.clone(),
                    actor: actor.clone(),
                    deviation,
                }));
        }
        if main {
            let type_name = match &m.action {
                RawAction::Program { kind, .. } => Cow::Owned(format!("program_{kind}")),
                _ => Cow::Borrowed(action.type_name()),
            };
            if m.auto {
                let n = self.actions.len();
                if let Some(parent) = self.actions.last_mut() {
                    if let RawAction::Program { args, .. } = &m.action {
                        self.programs
                            .insert((n - 1, parent.auto_actions.len() + 1), args.clone());
                    }
                    parent.auto_actions.push(AutoAction {
                        type_name,
                        span: m.span,
                        action,
                    });
                    return true;
                }
            }
            let n = self.actions.len();
            if let RawAction::Program { args, .. } = &m.action {
                self.programs.insert((n, 0), args.clone());
            }
            self.actions.push(LoggedAction {
                raw_index: n,
                action_id: n as i64 + 1,
                type_name,
                span: m.span,
                action,
                auto_actions: Vec::new(),
            });
        }
        true
    }

    /// The passes a written move implies, when it is refused as written: a move of a later step
    /// passes the steps before it (`Nord: 57 E7 r2, train 2` passes the token step), and a move
    /// naming another actor ends the turn of the entity that moved last
    /// (`Bob: buy HSM` then `Cid: pass` ends Bob's turn). Returns the game after the passes and
    /// the move, the passes, and the move as resolved there; `None` if no run of passes makes
    /// the move legal (the move's own violation is then reported).
    pub(super) fn implied_passes(
        &self,
        game: &Game,
        m: &Move,
        entity: Entity,
        violation: &RuleViolation,
    ) -> Implied {
        if m.auto || matches!(m.action, RawAction::Pass) && m.actor.is_none() {
            return Implied::None;
        }
        let Some(acting) = game.acting_entity() else {
            return Implied::None;
        };
        let passer = match violation {
            RuleViolation::WrongStep { .. } if acting == entity => entity,
            RuleViolation::NotYourTurn { .. }
                if m.actor.is_some() && self.scope.map(|(e, _)| e) == Some(acting) =>
            {
                acting
            }
            _ => return Implied::None,
        };
        let mut trial = game.clone();
        let mut passes = Vec::new();
        // The turn before ends (when another actor is named) …
        while passer != entity && trial.acting_entity() == Some(passer) {
            if passes.len() >= IMPLIED_PASSES
                || trial
                    .process_in_place(&Action::Pass { entity: passer })
                    .is_err()
            {
                return Implied::None;
            }
            passes.push(passer);
        }
        if trial.acting_entity() != Some(entity) {
            return Implied::None;
        }
        // … and the steps before the move's are passed.
        // The first refusal for the step (at the step the move's actor is at), unless a later
        // step refuses the move for another reason: that is its problem.
        let mut refused = None;
        while passes.len() <= IMPLIED_PASSES {
            let Ok(action) = resolve(&trial, entity, &m.action) else {
                return Implied::None;
            };
            let round = trial.round_label();
            match trial.process_with(&action, self.strict_rules) {
                Ok(deviations) => return Implied::Played(trial, passes, action, deviations, round),
                Err(v @ RuleViolation::WrongStep { .. }) => {
                    refused.get_or_insert((trial.clone(), passes.clone(), action, v));
                    // A pass that ends the turn is not one the move implies.
                    if trial.acting_entity() != Some(entity)
                        || trial.process_in_place(&Action::Pass { entity }).is_err()
                        || trial.acting_entity() != Some(entity)
                    {
                        break;
                    }
                    passes.push(entity);
                }
                Err(v) => {
                    if !passes.is_empty() {
                        refused = Some((trial, passes, action, v));
                    }
                    break;
                }
            }
        }
        match refused {
            // Another actor was named, and it is to act once the turn before has ended; or a
            // later step of the move's actor refuses it: the move's own problem, where the
            // game then is.
            Some((game_then, passes, action, v))
                if passer != entity || !matches!(v, RuleViolation::WrongStep { .. }) =>
            {
                Implied::Refused(game_then, passes, action, v)
            }
            _ => Implied::None,
        }
    }

    /// Whether the state asked for (`--at N`) falls among the passes a move implies: then
    /// they are replayed up to it, and the replay stops before the move.
    pub(super) fn stops_within(&mut self, game: &mut Game, m: &Move, passes: &[Entity]) -> bool {
        let Some(Target::Actions(n)) = self.until else {
            return false;
        };
        if self.actions.len() + passes.len() < *n {
            return false;
        }
        for &entity in passes {
            if self.actions.len() >= *n {
                break;
            }
            if game.process(&Action::Pass { entity }).is_err() {
                break;
            }
            self.log_implied_pass(entity, m.span);
        }
        self.stopped_at = Some((m.span.offset, true));
        true
    }

    /// Keeps who the rules passed automatically during the move just replayed.
    pub(super) fn note_auto_passes(&mut self, game: &Game, mover: Entity, at: Span) {
        let now = turn_of(&game.round_label());
        let then = turn_of(&self.round_of_last_move);
        self.auto_passed
            .retain(|(p, _, _, turn)| Entity::Player(*p) != mover && *turn == now);
        for s in game.skipped() {
            if let Skipped::StockTurn { player, cash } = s {
                self.auto_passed.retain(|(p, _, _, _)| p != player);
                self.auto_passed.push((*player, *cash, at, then));
            }
        }
    }

    /// The text of the last move replayed, as written.
    pub(super) fn last_move_text(&self) -> Option<String> {
        let span = self.last_move?;
        Some(self.text.get(span.offset..span.end())?.trim().to_string())
    }

    /// A pass the written move implies, in the log (at the start of that move).
    pub(super) fn log_implied_pass(&mut self, entity: Entity, at: Span) {
        let n = self.actions.len();
        self.actions.push(LoggedAction {
            raw_index: n,
            action_id: n as i64 + 1,
            type_name: "pass".into(),
            span: Span::new(at.offset, 0),
            action: Action::Pass { entity },
            auto_actions: Vec::new(),
        });
    }

    /// Keeps the round a move was made in: the moves made in a round other than the last
    /// heading's, since that heading.
    pub(super) fn note_round_of_move(&mut self, round: &str, at: Span, auto: bool) {
        self.played_in = round.to_string();
        // An automatic action belongs to the move before it, even when that move began the
        // next round.
        if auto || self.headed_round.as_deref() == Some(round) {
            return;
        }
        match &mut self.recovery.unheaded {
            Some((unheaded, _, count)) if unheaded == round => *count += 1,
            _ => self.recovery.unheaded = Some((round.to_string(), at, 1)),
        }
    }

    /// The passes that end the turn of the entity that moved last, when they bring the game to
    /// the round `written`: the game after them and the passes.
    pub(super) fn heading_passes(&self, game: &Game, written: &str) -> Option<(Game, Vec<Entity>)> {
        let (passer, _) = self
            .scope
            .filter(|(e, _)| game.acting_entity() == Some(*e))?;
        let mut trial = game.clone();
        let mut passes = Vec::new();
        while passes.len() < IMPLIED_PASSES
            && trial.acting_entity() == Some(passer)
            && trial.process(&Action::Pass { entity: passer }).is_ok()
        {
            passes.push(passer);
        }
        (!passes.is_empty() && trial.round_label() == written).then_some((trial, passes))
    }

    /// A round heading: checked against the round being played. The turn of the entity that
    /// moved last ends here if it can (as where the next actor is named).
    pub(super) fn heading(&mut self, game: &mut Game, written: String, span: Span, main: bool) {
        if game.round_label() == written {
            return;
        }
        if let Some((trial, passes)) = self.heading_passes(game, &written) {
            *game = trial;
            if main {
                for p in passes {
                    self.log_implied_pass(p, span);
                }
            }
            self.scope = None;
            return;
        }
        let actual = game.round_label();
        let waiting = game
            .acting_entity()
            .map(|e| notation::name(&game.entity_name(e)));
        let ahead = round_order(&written) > round_order(&actual);
        let help = match (&waiting, self.scope) {
            (_, _) if !ahead => {
                let mut why = String::new();
                if let Some(last) = self.last_move_text() {
                    if self.round_of_last_move != actual && !self.round_of_last_move.is_empty() {
                        why = format!("`{last}` ended {}", self.round_of_last_move);
                        let passed: Vec<String> = self
                            .auto_passed
                            .iter()
                            .filter(|(_, _, _, turn)| *turn == turn_of(&actual))
                            .map(|(p, _, _, _)| notation::name(&game.player(*p).name))
                            .collect();
                        if !passed.is_empty() {
                            why.push_str(&format!(
                                " ({} passed automatically: nothing was left to them)",
                                passed.join(", ")
                            ));
                        }
                        why.push_str("; ");
                    }
                }
                format!("{why}write `{actual}` here, or leave the heading out")
            }
            (Some(who), Some((e, _))) if game.acting_entity() == Some(e) => format!(
                "{who}'s turn in {actual} is not over: {who} must still act; legal: {}",
                legal_list(game, &Action::Pass { entity: e })
            ),
            (Some(who), _) => format!(
                "{actual} goes on: the game waits for {who}; write their moves before `{written}`"
            ),
            (None, _) => format!("write `{actual}` here, or leave the heading out"),
        };
        self.error(
            game,
            span,
            Code::WrongRound,
            format!("this is {actual}, not {written}"),
            Some(help),
            None,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::notation::test_games::{played, reports, JR30, OPENING};

    #[test]
    fn rounds_are_ordered_by_turn_then_kind() {
        let order = [
            "PR", "SR 1", "OR 1.1", "MR 1.1", "OR 1.2", "MR 1.2", "SR 2", "OR 2.1",
        ];
        for pair in order.windows(2) {
            assert!(round_order(pair[0]) < round_order(pair[1]), "{pair:?}");
        }
        assert_eq!(round_order("XR 1"), None);
        assert_eq!(turn_of("OR 2.1"), Some(2));
        assert_eq!(turn_of("PR"), Some(0));
    }

    #[test]
    fn the_opening_replays_into_the_log() {
        let p = played(&format!("{JR30}{OPENING}"), false);
        assert!(p.errors.is_empty(), "{:?}", p.errors);
        assert_eq!(p.game.round_label(), "SR 1");
        // Nine auction lines, the passes the auction implies, four of the stock round.
        assert_eq!(p.log.actions.len(), 13);
        assert_eq!(p.log.actions[9].type_name, "par");
    }

    #[test]
    fn a_replay_stops_at_the_first_refused_move_unless_kept_going() {
        let src = format!("{JR30}{OPENING}Ann: buy Zord\nBob: buy Nrd\n");
        let first = src.lines().count() - 1;
        let p = played(&src, false);
        assert_eq!(reports(&p, &src), [("rules::unknown_entity".into(), first)]);
        let p = played(&src, true);
        assert_eq!(
            reports(&p, &src),
            [
                ("rules::unknown_entity".into(), first),
                ("rules::unknown_entity".into(), first + 1)
            ]
        );
    }

    #[test]
    fn a_move_without_an_actor_continues_the_turn_before_it() {
        let src = format!("{JR30}{OPENING}Ann: buy Nord\nbuy GCL\n");
        let p = played(&src, false);
        assert_eq!(
            reports(&p, &src),
            [("rules::not_your_turn".into(), src.lines().count())]
        );
        assert!(
            p.errors[0].label.starts_with("Ann's turn is over"),
            "{}",
            p.errors[0].label
        );
    }
}
