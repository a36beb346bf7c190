//! Keep-going: after a refused move the game and the text are brought back in step, so that
//! each mistake is reported once (swapped lines, lines on the wrong side of a heading, a wrong
//! recorded value replayed with the rules' value).

use super::checks::check_holds;
use super::diagnostics::Code;
use super::explain::and_list;
use super::names::entity_by_name;
use super::resolve::resolve;
use super::walk::{round_order, Player, IMPLIED_PASSES};
use crate::action::{Action, Entity};
use crate::engine::Game;
use crate::log::{shorten_quotes, Span};
use crate::notation::{self, Check, Element, Move, RawAction, Source};

/// Keep-going's state after a refused move: how the text and the game are out of step, and
/// the moves replayed elsewhere than where they are written.
#[derive(Default)]
pub(super) struct Recovery {
    /// The moves made since the last heading in a round other than its: the round, where the
    /// first of them is written and how many there are. A heading of that round comes after
    /// them (see [`Player::move_before_heading`]).
    pub(super) unheaded: Option<(String, Span, usize)>,
    /// Moves replayed before where they are written (the last moves of a round written after
    /// the next round's heading): skipped when reached.
    pub(super) played_ahead: Vec<usize>,
    /// The first moves of a round written before its heading (at this offset): replayed after
    /// the heading and the check lines right after it, where they belong.
    pub(super) postponed: Option<(usize, Vec<Move>)>,
    /// With keep-going, after a move was refused: the entity whose turn it was in. The text
    /// and the game are out of step until the next move that names its actor, or the next
    /// round heading, brings them together again (see [`Player::resync`]).
    pub(super) desync: Option<Option<Entity>>,
    /// With keep-going, a move refused because another entity was to act, kept in case the
    /// next lines are that entity's: the two were written in the wrong order (see
    /// [`Player::play_deferred`]).
    pub(super) deferred: Option<Deferred>,
    /// While out of step, the report of the refused move (among the errors): the check lines
    /// not evaluated are listed on it.
    pub(super) desync_report: Option<usize>,
    /// With keep-going, a move refused while its actor was to act, kept until the next heading:
    /// when the same actor's next line is its move and the refused one replays as its first of
    /// the next round, the two were swapped across the heading.
    pub(super) refused: Option<Refused>,
}

/// A refused move kept until the next heading (see [`Player::refused`]).
pub(super) struct Refused {
    pub(super) actor: Entity,
    /// The refused move and the moves without an actor after it.
    pub(super) moves: Vec<Move>,
    /// Its report among the errors.
    pub(super) error: Option<usize>,
    /// Where the same actor's next move, which was replayed, is written.
    pub(super) replaced_by: Option<Span>,
}

/// A move written before the turn of the entity the game waited for: it is replayed after that
/// turn, so that a swapped pair of lines is one mistake, not a cascade.
pub(super) struct Deferred {
    /// Who wrote the refused move.
    pub(super) actor: Entity,
    /// Who was to act; once the next line names another actor whose turn comes when this
    /// turn ends, that one.
    pub(super) waited_for: Entity,
    /// The refused move and the moves without an actor after it (the rest of its turn).
    pub(super) moves: Vec<Move>,
    /// Its report among the errors (none if past [`DIAGNOSTICS_KEPT`]).
    pub(super) error: Option<usize>,
    /// Once the move of the entity waited for is replayed, where it is written: the deferred
    /// moves are replayed when that turn ends (at the next move naming another actor, a heading,
    /// a check line, a correction or the end).
    pub(super) after: Option<Span>,
}

/// How many passes a resynchronisation may make: a round's worth of turns.
pub(super) const RESYNC_PASSES: usize = 64;

/// Whether `next` is to act, or comes to act once the turn of `ending` (who is to act) ends
/// with passes.
pub(super) fn turn_ends_with(game: &Game, ending: Entity, next: Entity) -> bool {
    if game.acting_entity() == Some(next) {
        return true;
    }
    let mut trial = game.clone();
    let mut passes = 0;
    while trial.acting_entity() == Some(ending) {
        if passes >= IMPLIED_PASSES
            || trial
                .process_in_place(&Action::Pass { entity: ending })
                .is_err()
        {
            return false;
        }
        passes += 1;
    }
    trial.acting_entity() == Some(next)
}

/// How many lines after a round heading may be that round's last moves, written after it.
pub(super) const MOVED_PAST_HEADING: usize = 4;

/// The moves after the heading at `at`, up to the next heading, that name their actor, each
/// with the moves without an actor after it (the rest of its turn); none followed by a
/// variation (it replaces the move where it is written). At most [`MOVED_PAST_HEADING`].
pub(super) fn named_moves_after(body: &[Element], at: usize) -> Vec<Vec<&Move>> {
    let mut groups = Vec::new();
    let mut k = at + 1;
    while k < body.len() && groups.len() < MOVED_PAST_HEADING {
        match &body[k] {
            Element::Heading(_) => break,
            Element::Move(m) if m.actor.is_some() && !m.auto => {
                let (group, next) = move_group(body, k);
                if !matches!(body.get(next), Some(Element::Variation(_))) {
                    groups.push(group);
                }
                k = next;
            }
            _ => k += 1,
        }
    }
    groups
}

/// The move at `at` in `body` and the moves without an actor (or automatic) after it, the rest
/// of its turn (comments may stand between them); and where the next element other than a
/// comment is.
pub(super) fn move_group(body: &[Element], at: usize) -> (Vec<&Move>, usize) {
    let mut group = Vec::new();
    if let Some(Element::Move(m)) = body.get(at) {
        group.push(m);
    }
    let mut k = at + 1;
    loop {
        match body.get(k) {
            Some(Element::Comment(_)) => {}
            Some(Element::Move(rest)) if rest.actor.is_none() || rest.auto => group.push(rest),
            _ => break,
        }
        k += 1;
    }
    (group, k)
}

/// The help of a round's first move written before the previous round's last move and the
/// heading between them: both lines are out of place, and this says where each goes.
pub(super) fn swapped_lines_help(last_move: &str, line: usize) -> String {
    format!(
        "the lines are swapped across the heading: write `{last_move}` (line {line}) before the \
         heading, and this one after it. Both are replayed in their places, so what follows is \
         judged as written"
    )
}

impl Player<'_> {
    /// A move, with keep-going's resynchronisation: after a refused move, the moves without an
    /// actor that follow it (the rest of that turn) are tried without a report, and the next
    /// move that names its actor first ends the turns in between (passes) so that it can be
    /// judged on its own: each mistake is reported once, and the ones after it still are.
    pub(super) fn move_in_step(&mut self, game: &mut Game, m: &Move, main: bool) -> bool {
        // A refused move stays kept while its actor's lines follow it (see `refused`).
        let named = m
            .actor
            .as_ref()
            .filter(|_| !m.auto)
            .map(|name| entity_by_name(game, &name.text).ok());
        if let Some(named) = named {
            if self
                .recovery
                .refused
                .as_ref()
                .is_some_and(|r| Some(r.actor) != named)
            {
                self.recovery.refused = None;
            }
        }
        let moved = self.move_in_step_kept(game, m, main);
        if let (Some(refused), Some(Some(named))) = (self.recovery.refused.as_mut(), named) {
            if moved && refused.actor == named && refused.moves[0].span != m.span {
                refused.replaced_by.get_or_insert(m.span);
            }
        }
        moved
    }

    pub(super) fn move_in_step_kept(&mut self, game: &mut Game, m: &Move, main: bool) -> bool {
        let Some(failed_in) = self.recovery.desync else {
            let reported = self.errors.len() + self.omitted;
            let acting = game.acting_entity();
            let moved = self.play_move(game, m, main);
            if !moved && self.keep_going && self.errors.len() + self.omitted > reported {
                self.recovery.desync = Some(acting);
                self.recovery.desync_report = (self.errors.len() > reported).then_some(reported);
                self.defer(game, m, reported);
                let actor = m
                    .actor
                    .as_ref()
                    .filter(|_| !m.auto)
                    .and_then(|name| entity_by_name(game, &name.text).ok());
                if self.recovery.deferred.is_none() && actor.is_some() && actor == acting {
                    self.recovery.refused = actor.map(|actor| Refused {
                        actor,
                        moves: vec![m.clone()],
                        error: (self.errors.len() > reported).then_some(reported),
                        replaced_by: None,
                    });
                }
            }
            return moved;
        };
        let Some(name) = m.actor.as_ref().filter(|_| !m.auto) else {
            // The rest of the refused move's turn: the deferred move's, or the one the game was
            // in.
            if let Some(refused) = self
                .recovery
                .refused
                .as_mut()
                .filter(|r| r.replaced_by.is_none())
            {
                refused.moves.push(m.clone());
            }
            if let Some(deferred) = self.recovery.deferred.as_mut() {
                deferred.moves.push(m.clone());
                return false;
            }
            if failed_in.is_some() && game.acting_entity() == failed_in {
                self.quiet = true;
                let moved = self.play_move(game, m, main);
                self.quiet = false;
                return moved;
            }
            return false;
        };
        let named = match entity_by_name(game, &name.text) {
            Ok(e) => e,
            // A name that names nobody is a mistake of its own.
            Err(_) => {
                self.recovery.deferred = None;
                return self.play_move(game, m, main);
            }
        };
        // The move the game waited for, right after one written before it (once the turn in
        // progress ends): the deferred move follows this turn.
        let waiting = self.recovery.deferred.take().and_then(|d| {
            (named != d.actor && turn_ends_with(game, d.waited_for, named)).then_some(Deferred {
                waited_for: named,
                ..d
            })
        });
        if !self.resync(game, m.span, main, |g| g.acting_entity() == Some(named)) {
            return false;
        }
        self.scope = None;
        let moved = self.move_in_step_kept(game, m, main);
        if let Some(mut deferred) = waiting.filter(|_| moved) {
            deferred.after = Some(m.span);
            self.recovery.deferred = Some(deferred);
        }
        moved
    }

    /// After a move was refused (its report the first past `reported`) because its actor was
    /// not to act (the turn before may have ended as the move implies): it is kept to be
    /// replayed after the turn of the entity the game waits for, should the next line be it.
    pub(super) fn defer(&mut self, game: &Game, m: &Move, reported: usize) {
        let (Some(name), Some(waited_for)) =
            (m.actor.as_ref().filter(|_| !m.auto), game.acting_entity())
        else {
            return;
        };
        let Ok(actor) = entity_by_name(game, &name.text) else {
            return;
        };
        let error = (self.errors.len() > reported).then_some(reported);
        // A player's `pass` while another entity is to act is refused as not needed when the
        // rules passed that player earlier; it may still be the next round's.
        let not_your_turn = error
            .and_then(|i| self.errors.get(i))
            .is_none_or(|e| e.code == Code::not_your_turn() || e.code == Code::PassNotNeeded);
        if actor != waited_for && not_your_turn {
            self.recovery.deferred = Some(Deferred {
                actor,
                waited_for,
                moves: vec![m.clone()],
                error,
                after: None,
            });
        }
    }

    /// Replays the deferred moves (a move written before the turn of the entity the game
    /// waited for) now that this turn is over: that turn ends with passes, and the deferred
    /// moves are replayed as written. Its report then says the two were swapped. Nothing is
    /// changed if they are refused there (the report stands as it was), or if `next` (the actor
    /// of the line that ends the turn) is the deferred move's actor: the move was written again
    /// in its place. At a `heading` that the deferred moves begin (the next round's first move
    /// written before the last one of this round and before the heading), the report says so.
    pub(super) fn play_deferred(
        &mut self,
        game: &mut Game,
        main: bool,
        next: Option<Entity>,
        heading: Option<(&str, Span)>,
    ) {
        let Some(deferred) = self.recovery.deferred.take() else {
            return;
        };
        let Some(after) = deferred.after else {
            return;
        };
        if next == Some(deferred.actor) {
            return;
        }
        let mut trial = game.clone();
        let mut passes = Vec::new();
        while trial.acting_entity() == Some(deferred.waited_for) {
            if passes.len() >= IMPLIED_PASSES
                || trial
                    .process_in_place(&Action::Pass {
                        entity: deferred.waited_for,
                    })
                    .is_err()
            {
                return;
            }
            passes.push(deferred.waited_for);
        }
        if trial.acting_entity() != Some(deferred.actor) {
            return;
        }
        // Tried first without a trace (no report, nothing logged) …
        let first_in = self.quietly(|p| {
            p.scope = None;
            let mut first_in = None;
            for m in &deferred.moves {
                if !p.play_move(&mut trial, m, false) {
                    return None;
                }
                first_in.get_or_insert_with(|| p.played_in.clone());
            }
            first_in
        });
        let Some(first_in) = first_in else {
            return;
        };
        // The next round's first move, before its heading: after the heading.
        let heading = heading.filter(|(round, _)| *round == first_in);
        // … then for good.
        let first = &deferred.moves[0];
        for entity in passes {
            if game.process_in_place(&Action::Pass { entity }).is_err() {
                return;
            }
            if main {
                self.log_implied_pass(entity, first.span);
            }
        }
        self.scope = None;
        match heading {
            Some((_, at)) => self.recovery.postponed = Some((at.offset, deferred.moves.clone())),
            None => {
                for m in &deferred.moves {
                    self.play_move(game, m, main);
                }
            }
        }
        let waited_for = game.entity_name(deferred.waited_for);
        let actor = game.entity_name(deferred.actor);
        let line = self.line_of(after.offset);
        let written = self.written_text(after);
        let Some(report) = deferred.error.filter(|&i| i < self.errors.len()) else {
            return;
        };
        match heading {
            Some((round, at)) => {
                let heading_line = self.line_of(at.offset);
                let label = format!(
                    "this is {round}'s first move, written before {}'s last one (line {line}) \
                     and the `{round}` heading (line {heading_line})",
                    self.errors[report].round
                );
                let help = format!(
                    "write it after the `{round}` heading. It is replayed there, after \
                     `{written}`, {waited_for}'s move, which the game waited for, so what follows \
                     is judged as written"
                );
                self.out_of_place(report, Code::MoveBeforeHeading, round, label, help);
            }
            None => {
                self.errors[report].help = Some(shorten_quotes(format!(
                    "the lines are swapped: `{written}` (line {line}) is {waited_for}'s move, \
                     which the game waited for; write it before this one. {actor}'s move is \
                     replayed after it, where it is {actor}'s turn, so what follows is judged as \
                     written"
                )));
            }
        }
    }

    /// Passes, by whoever is to act, until `reached` (at most [`RESYNC_PASSES`]); the game and
    /// the text are then in step again. `false` (nothing changed) if no run of legal passes
    /// gets there.
    pub(super) fn resync(
        &mut self,
        game: &mut Game,
        at: Span,
        main: bool,
        reached: impl Fn(&Game) -> bool,
    ) -> bool {
        if reached(game) {
            self.recovery.desync = None;
            return true;
        }
        let mut trial = game.clone();
        let mut passes = Vec::new();
        while !reached(&trial) {
            let Some(acting) = trial.acting_entity() else {
                return false;
            };
            if passes.len() >= RESYNC_PASSES
                || trial
                    .process_in_place(&Action::Pass { entity: acting })
                    .is_err()
            {
                return false;
            }
            passes.push(acting);
        }
        *game = trial;
        if main {
            for p in passes {
                self.log_implied_pass(p, at);
            }
        }
        self.recovery.desync = None;
        true
    }

    /// The move with the values it records (revenues, prices, costs, slots, percentages, par
    /// cells) left out, processed: the move as the rules give it.
    pub(super) fn with_the_rules_values(
        &self,
        game: &mut Game,
        entity: Entity,
        m: &Move,
    ) -> Option<(Action, Vec<crate::engine::Deviation>)> {
        let mut raw = m.action.clone();
        match &mut raw {
            RawAction::Run { routes } => routes.iter_mut().for_each(|r| r.revenue = None),
            RawAction::Train {
                price,
                from: Source::Ipo | Source::Pool,
                ..
            } => *price = None,
            RawAction::Token { slot, cost, .. } => (*slot, *cost) = (None, None),
            RawAction::Par { cell, .. } => *cell = None,
            RawAction::Buy {
                percent,
                share_price,
                ..
            }
            | RawAction::Sell {
                percent,
                share_price,
                ..
            } => (*percent, *share_price) = (None, None),
            _ => return None,
        }
        let action = resolve(game, entity, &raw).ok()?;
        let deviations = game.process_with(&action, self.strict_rules).ok()?;
        Some((action, deviations))
    }

    /// A heading written after moves of its round (the first of them before it): one problem,
    /// on the first of those moves. They were replayed where they are written (the passes they
    /// imply ended the round before), as they would have been after the heading.
    pub(super) fn move_before_heading(&mut self, game: &Game, written: &str, at: Span) -> bool {
        let Some((round, first, count)) = self.recovery.unheaded.clone() else {
            return false;
        };
        if round != written || self.recovery.desync.is_some() {
            return false;
        }
        let line = self.line_of(at.offset);
        // A move refused where it is written and replayed later (a swap) is reported already.
        if let Some(report) = self
            .errors
            .iter()
            .position(|e| e.span.offset == first.offset)
        {
            let label = format!(
                "this is {round}'s first move, written before the `{round}` heading (line {line})"
            );
            let help = format!(
                "write it after the heading: {round} begins there. It is replayed after the \
                 move the game waited for, so what follows is judged as written"
            );
            self.out_of_place(report, Code::MoveBeforeHeading, &round, label, help);
            return true;
        }
        let label = match count {
            1 => format!(
                "this is {round}'s first move, written before the `{round}` heading (line {line})"
            ),
            n => format!(
                "this is {round}'s first move, and the {} after it are {round}'s too, written \
                 before the `{round}` heading (line {line})",
                if n == 2 {
                    "move".to_string()
                } else {
                    format!("{} moves", n - 1)
                }
            ),
        };
        let help = format!(
            "{round} begins at its heading: write the heading before this line. The moves are \
             replayed as if it stood there, so what follows is judged as written"
        );
        let code = Code::MoveBeforeHeading;
        if let Some(report) = self.error(game, first, code, String::new(), None, None) {
            self.out_of_place(report, code, &round, label, help);
        }
        true
    }

    /// A heading of a later round while the game still waits in this one, and moves after it
    /// (before the next heading) that are this round's last: after them the round ends as the
    /// heading says. They are replayed before the heading, where they belong, reported once (on
    /// the first) and skipped where they are written. When a move was refused just before the
    /// heading because the game waited for another actor (the first move of the next round and
    /// the last one of this round swapped across the heading), it is replayed after the heading,
    /// and its report says so.
    pub(super) fn moves_after_heading(
        &mut self,
        game: &mut Game,
        body: &[Element],
        at: usize,
        written: &str,
        span: Span,
        main: bool,
    ) -> bool {
        let Some(moved) = self.plan_after_heading(game, body, at, written, true) else {
            return false;
        };
        let actual = game.round_label();
        let first = moved[0];
        let first_text = self.written_text(first.span);
        let first_line = self.line_of(first.span.offset);
        let heading_line = self.line_of(span.offset);
        let swapped = match self.recovery.deferred.take_if(|d| d.after.is_none()) {
            Some(d) => Some((d.moves, d.error)),
            None => self
                .recovery
                .refused
                .take_if(|r| r.replaced_by.is_none())
                .map(|r| (r.moves, r.error)),
        }
        .filter(|_| self.recovery.desync.is_some());
        // The next round's first move written before the heading is reported already: the
        // two lines are swapped across it.
        let postponed = self
            .recovery
            .postponed
            .as_ref()
            .filter(|(heading, _)| *heading == span.offset)
            .and_then(|(_, moves)| moves.first())
            .map(|m| m.span.offset);
        let swap_report =
            postponed.and_then(|offset| self.errors.iter().position(|e| e.span.offset == offset));
        if let Some(report) = swap_report.and_then(|i| self.errors.get_mut(i)) {
            report.help = Some(shorten_quotes(format!(
                "the lines are swapped across the heading: write `{first_text}` (line \
                 {first_line}), {actual}'s last move, before the heading, and this one after \
                 it. Both are replayed in their places, so what follows is judged as written"
            )));
        } else if swapped.is_none() {
            self.report_after_heading(game, &moved, written, span);
        }
        for m in &moved {
            self.play_move(game, m, main);
            self.recovery.played_ahead.push(m.span.offset);
        }
        self.heading(game, written.to_string(), span, main);
        if let Some((moves, error)) = swapped {
            self.scope = None;
            self.recovery.postponed = Some((span.offset, moves));
            if let Some(report) = error.filter(|&i| i < self.errors.len()) {
                let label = format!(
                    "this is {written}'s first move, written before {actual}'s last one (line \
                     {first_line}) and the `{written}` heading (line {heading_line})"
                );
                let help = swapped_lines_help(&first_text, first_line);
                self.out_of_place(report, Code::MoveBeforeHeading, written, label, help);
            }
            self.recovery.desync = None;
            self.recovery.desync_report = None;
        }
        true
    }

    /// A check line that the game does not match, right before a heading of a later round
    /// (the heading at `heading` in `body`) while the game still waits in this one: when the
    /// round's last moves are written after the heading and the check holds after them, they
    /// were written after the check too. They are replayed before the check, reported once,
    /// and skipped where they are written.
    pub(super) fn moves_after_check(
        &mut self,
        game: &mut Game,
        body: &[Element],
        heading: usize,
        c: &Check,
        main: bool,
    ) {
        let Some(Element::Heading(h)) = body.get(heading) else {
            return;
        };
        if self.recovery.desync.is_some() || check_holds(game, c) {
            return;
        }
        let written = h.round.to_string();
        let Some(moved) = self.plan_after_heading(game, body, heading, &written, false) else {
            return;
        };
        let holds = self.quietly(|p| {
            let mut trial = game.clone();
            moved.iter().all(|m| p.play_move(&mut trial, m, false)) && check_holds(&trial, c)
        });
        if !holds {
            return;
        }
        self.report_after_heading(game, &moved, &written, h.span);
        for m in &moved {
            self.play_move(game, m, main);
            self.recovery.played_ahead.push(m.span.offset);
        }
    }

    /// The round's last moves written after the heading at `at` in `body` (see
    /// [`Player::moves_after_heading`]): `None` if the heading is not ahead of the game, if no
    /// line after it ends the round so, or (unless `swaps`) if a move refused just before it
    /// waits for them.
    pub(super) fn plan_after_heading<'b>(
        &mut self,
        game: &Game,
        body: &'b [Element],
        at: usize,
        written: &str,
        swaps: bool,
    ) -> Option<Vec<&'b Move>> {
        let actual = game.round_label();
        if actual == written
            || round_order(written) <= round_order(&actual)
            || game.acting_entity().is_none()
        {
            return None;
        }
        // A move refused before the heading, kept to be replayed after the move the game
        // waited for (or the refused move's actor still to act): the two swapped across it.
        let swapped = match (&self.recovery.deferred, &self.recovery.refused) {
            _ if !swaps || self.recovery.desync.is_none() => None,
            (Some(d), _) if d.after.is_none() => Some((d.actor, d.moves.clone())),
            (None, Some(r)) if r.replaced_by.is_none() => Some((r.actor, r.moves.clone())),
            _ => None,
        };
        match (self.recovery.desync.is_some(), &swapped) {
            (true, None) => return None,
            (false, _) if self.heading_passes(game, written).is_some() => return None,
            _ => {}
        }
        let groups = named_moves_after(body, at);
        // Tried without a trace: which of the lines after the heading are this round's (in
        // order; the first lines of the next round are left where they are). One line first
        // (the fewest moved lines explain the heading best; a line of passes last, as ending
        // the round is what a heading implies anyway), then as many as it takes.
        let mut singles: Vec<usize> = (0..groups.len()).collect();
        singles.sort_by_key(|k| {
            groups[*k]
                .iter()
                .all(|m| matches!(m.action, RawAction::Pass))
        });
        let taken = self.quietly(|p| {
            singles
                .iter()
                .map(|k| vec![*k])
                .chain((groups.len() > 1).then(|| (0..groups.len()).collect()))
                .find_map(|order| {
                    p.moves_reach_heading(game, &groups, &order, &actual, written, swapped.as_ref())
                })
        })?;
        Some(
            taken
                .iter()
                .flat_map(|k| groups[*k].iter().copied())
                .collect(),
        )
    }

    /// The report of a round's last moves written after the next round's heading (at `at`).
    pub(super) fn report_after_heading(
        &mut self,
        game: &Game,
        moved: &[&Move],
        written: &str,
        at: Span,
    ) {
        let actual = game.round_label();
        let heading_line = self.line_of(at.offset);
        let waited_for = game
            .acting_entity()
            .map(|e| notation::name(&game.entity_name(e)))
            .unwrap_or_default();
        let others: Vec<String> = moved[1..]
            .iter()
            .filter(|m| m.actor.is_some() && !m.auto)
            .map(|m| self.line_of(m.span.offset).to_string())
            .collect();
        let label = if others.is_empty() {
            format!(
                "this is {actual}'s last move, written after the `{written}` heading (line \
                 {heading_line})"
            )
        } else {
            format!(
                "this move and the one{s} on line{s} {} are {actual}'s last, written after the \
                 `{written}` heading (line {heading_line})",
                and_list(&others.iter().map(String::as_str).collect::<Vec<_>>()),
                s = if others.len() > 1 { "s" } else { "" },
            )
        };
        let help = format!(
            "write it before the `{written}` heading: {actual} was not over there (the game \
             waited for {waited_for}). It is replayed before the heading, so what follows is \
             judged as written"
        );
        let code = Code::MoveAfterHeading;
        if let Some(report) = self.error(game, moved[0].span, code, String::new(), None, None) {
            self.out_of_place(report, code, &actual, label, help);
        }
    }

    /// After a heading: a move refused before it while its actor was to act, followed by the
    /// same actor's move that was replayed, is the actor's first move of this round when it
    /// replays here (the two swapped across the heading). It is replayed after the heading and
    /// the check lines right after it, and its report says so.
    pub(super) fn refused_before_heading(
        &mut self,
        game: &Game,
        body: &[Element],
        heading: usize,
        written: &str,
        at: Span,
    ) {
        let Some(refused) = self.recovery.refused.take() else {
            return;
        };
        let Some(replaced_by) = refused.replaced_by else {
            return;
        };
        if self.recovery.desync.is_some()
            || game.round_label() != written
            || game.acting_entity() != Some(refused.actor)
        {
            return;
        }
        // The actor's own line after the heading: the refused one was rewritten, not moved.
        let next_actor = body[heading + 1..].iter().find_map(|e| match e {
            Element::Move(m) if !m.auto => m.actor.as_ref().map(|n| Some(n.text.as_str())),
            Element::Heading(_) => Some(None),
            _ => None,
        });
        if next_actor
            .flatten()
            .is_some_and(|name| entity_by_name(game, name).ok() == Some(refused.actor))
        {
            return;
        }
        let replays = self.quietly(|p| {
            let mut trial = game.clone();
            p.scope = None;
            refused
                .moves
                .iter()
                .all(|m| p.play_move(&mut trial, m, false))
        });
        if !replays {
            return;
        }
        let heading_line = self.line_of(at.offset);
        let line = self.line_of(replaced_by.offset);
        let replaced_text = self.written_text(replaced_by);
        let actor = notation::name(&game.entity_name(refused.actor));
        if let Some(report) = refused.error.filter(|&i| i < self.errors.len()) {
            let label = format!(
                "this is {actor}'s first move of {written}, written before {actor}'s move of {} \
                 (line {line}) and the `{written}` heading (line {heading_line})",
                self.errors[report].round
            );
            let help = swapped_lines_help(&replaced_text, line);
            self.out_of_place(report, Code::MoveBeforeHeading, written, label, help);
        }
        self.recovery.postponed = Some((at.offset, refused.moves));
    }

    /// The first moves of a round written right before its heading (the move at `at` in
    /// `body`, with the moves without an actor after it): reported once, and replayed after the
    /// heading and the check lines right after it, where they belong.
    pub(super) fn first_moves_before_heading(
        &mut self,
        game: &Game,
        body: &[Element],
        at: usize,
    ) -> bool {
        let Element::Move(m) = &body[at] else {
            return false;
        };
        if self.recovery.desync.is_some() || m.auto || m.actor.is_none() {
            return false;
        }
        let (group, next) = move_group(body, at);
        let Some(Element::Heading(h)) = body.get(next) else {
            return false;
        };
        let written = h.round.to_string();
        let unheaded = |p: &Self| {
            p.headed_round.as_deref() != Some(written.as_str())
                && p.recovery
                    .unheaded
                    .as_ref()
                    .is_none_or(|(round, _, _)| *round != written)
        };
        if !unheaded(self) {
            return false;
        }
        // Made in the heading's round (once the passes it implies have ended the round before)?
        let fits = self.quietly(|p| {
            let mut trial = game.clone();
            group.iter().enumerate().all(|(n, m)| {
                p.play_move(&mut trial, m, false) && (n > 0 || p.played_in == written)
            })
        });
        if !fits {
            return false;
        }
        let line = self.line_of(h.span.offset);
        let code = Code::MoveBeforeHeading;
        let label = format!(
            "this is {written}'s first move, written before the `{written}` heading (line {line})"
        );
        let help = format!(
            "write it after the heading: {written} begins there. It is replayed after the \
             heading, so what follows is judged as written"
        );
        if let Some(report) = self.error(game, m.span, code, String::new(), None, None) {
            self.out_of_place(report, code, &written, label, help);
        }
        self.recovery
            .played_ahead
            .extend(group[1..].iter().map(|m| m.span.offset));
        self.recovery.postponed = Some((h.span.offset, group.into_iter().cloned().collect()));
        true
    }

    /// Replays the moves postponed past a heading (see [`Player::postponed`]).
    pub(super) fn play_postponed(&mut self, game: &mut Game, main: bool) {
        let Some((_, moves)) = self.recovery.postponed.take() else {
            return;
        };
        self.scope = None;
        for m in &moves {
            if !self.play_move(game, m, main) {
                break;
            }
        }
    }

    /// Which of the move groups `order` names, tried in turn (a group that is not `actual`'s
    /// is left out), end the round `actual` so that the game reaches the heading `written`,
    /// after which the `swapped` moves (refused before the heading) replay. Moves are replayed
    /// on a copy of the game; the caller keeps this quiet.
    pub(super) fn moves_reach_heading(
        &mut self,
        game: &Game,
        groups: &[Vec<&Move>],
        order: &[usize],
        actual: &str,
        written: &str,
        swapped: Option<&(Entity, Vec<Move>)>,
    ) -> Option<Vec<usize>> {
        let scope = self.scope;
        let mut trial = game.clone();
        let mut taken = Vec::new();
        let mut reached = None;
        for &k in order {
            let mut attempt = trial.clone();
            let before = self.scope;
            let fits = groups[k].iter().enumerate().all(|(n, m)| {
                self.play_move(&mut attempt, m, false) && (n > 0 || self.played_in == actual)
            });
            if !fits {
                self.scope = before;
                continue;
            }
            trial = attempt;
            taken.push(k);
            if trial.round_label() == written {
                reached = Some(trial);
                break;
            }
            if let Some((after, _)) = self.heading_passes(&trial, written) {
                reached = Some(after);
                break;
            }
        }
        let replays = reached.is_some_and(|mut after| match swapped {
            None => true,
            Some((actor, moves)) => {
                self.scope = None;
                after.acting_entity() == Some(*actor)
                    && moves.iter().all(|m| self.play_move(&mut after, m, false))
            }
        });
        self.scope = scope;
        replays.then_some(taken)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::notation::test_games::{game_text, played, reports, JR30, OPENING};

    #[test]
    fn a_turn_is_its_named_move_and_the_moves_without_an_actor_after_it() {
        let text = game_text(&format!(
            "{JR30}PR\nAnn: bid CFLV 225\n{{a note}}\npass\nBob: pass\nSR 1\nCid: pass\n"
        ));
        let (group, next) = move_group(&text.body, 1);
        assert_eq!(group.len(), 2);
        assert!(matches!(&text.body[next], Element::Move(m) if m.actor.is_some()));
        let after: Vec<usize> = named_moves_after(&text.body, 0)
            .iter()
            .map(Vec::len)
            .collect();
        // Up to the next heading.
        assert_eq!(after, [2, 1]);
    }

    #[test]
    fn two_swapped_lines_are_one_mistake() {
        let swapped = OPENING.replace(
            "Ann: buy Nord\nBob: par HSM 76\n",
            "Bob: par HSM 76\nAnn: buy Nord\n",
        );
        let src = format!("{JR30}{swapped}");
        let line = src.lines().position(|l| l == "Bob: par HSM 76").unwrap() + 1;
        let p = played(&src, true);
        assert_eq!(reports(&p, &src), [("rules::not_your_turn".into(), line)]);
        assert!(p.errors[0]
            .help
            .as_deref()
            .unwrap()
            .starts_with("the lines are swapped"));
        // Replayed as if written in order.
        let clean = played(&format!("{JR30}{OPENING}"), false);
        assert_eq!(p.game.round_label(), clean.game.round_label());
        let cash = |g: &Game| g.players.iter().map(|p| p.cash).collect::<Vec<_>>();
        assert_eq!(cash(&p.game), cash(&clean.game));
    }

    #[test]
    fn a_turn_ends_with_passes_when_the_rules_allow_them() {
        let game = crate::replay::notation::test_games::jr30();
        let ann = game.acting_entity().unwrap();
        assert!(turn_ends_with(&game, ann, ann));
        let bob = Entity::Player(crate::ids::PlayerId(1));
        assert!(turn_ends_with(&game, ann, bob));
        let cid = Entity::Player(crate::ids::PlayerId(2));
        assert!(!turn_ends_with(&game, ann, cid));
    }
}
