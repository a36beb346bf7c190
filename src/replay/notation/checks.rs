//! Check lines (`= Ann 253`) and the `Result` tag, held against the replayed game.

use super::diagnostics::Code;
use super::names::{corp, entity_by_name};
use super::resolve::{unresolved, Unresolved};
use super::walk::Player;
use crate::action::Entity;
use crate::engine::Game;
use crate::log::Span;
use crate::notation::{self, Check, CheckValue};

/// A check line's entry: the value the game gives (or why it names nothing) and the value
/// recorded.
pub(super) fn checked_value(
    game: &Game,
    e: &notation::CheckEntry,
) -> (Result<i64, Unresolved>, i64) {
    let actual = match (&e.what, e.who.text.as_str()) {
        (CheckValue::Cash(_), "bank") => Ok(game.bank.0),
        (CheckValue::Cash(_), who) => match entity_by_name(game, who) {
            Ok(Entity::Player(p)) => Ok(game.player(p).cash.0),
            Ok(Entity::Corporation(k)) => Ok(game.corp(k).cash.0),
            Ok(Entity::Company(_)) => Err(unresolved(Code::UnknownEntity, "a private has no cash")),
            Err(u) => Err(u),
        },
        (CheckValue::Holding(corp_sym, _), who) => {
            match (entity_by_name(game, who), corp(game, corp_sym)) {
                (Ok(Entity::Player(p)), Ok(k)) => Ok(i64::from(game.percent_held(p, k))),
                (Err(u), _) | (_, Err(u)) => Err(u),
                _ => Err(unresolved(
                    Code::UnknownEntity,
                    "only players' holdings can be checked",
                )),
            }
        }
    };
    let recorded = match &e.what {
        CheckValue::Cash(n) => *n,
        CheckValue::Holding(_, p) => i64::from(*p),
    };
    (actual, recorded)
}

/// Whether every value of a check line is the game's.
pub(super) fn check_holds(game: &Game, c: &Check) -> bool {
    c.entries.iter().all(|e| {
        let (actual, recorded) = checked_value(game, e);
        actual.is_ok_and(|a| a == recorded)
    })
}

/// A `Result` tag read: `(name, score, the entry as written)` and the end reason.
pub(super) struct RecordedResult {
    pub(super) scores: Vec<(String, i64, String)>,
    pub(super) reason: Option<String>,
}

/// Reads `Ann 5450, "Bo B" 5193 (bank)`.
pub(super) fn read_result(value: &str) -> Option<RecordedResult> {
    let value = value.trim();
    let (scores, reason) = match value.strip_suffix(')').and_then(|v| v.rsplit_once('(')) {
        Some((scores, reason)) => (scores.trim(), Some(reason.trim().to_string())),
        None => (value, None),
    };
    let scores = scores
        .split(',')
        .filter(|entry| !entry.trim().is_empty())
        .map(|entry| {
            let entry = entry.trim();
            let (name, score) = entry.rsplit_once(' ')?;
            let name = name.trim();
            let name = name
                .strip_prefix('"')
                .and_then(|n| n.strip_suffix('"'))
                .unwrap_or(name);
            let score = score.parse::<i64>().ok()?;
            (!name.is_empty()).then(|| (name.to_string(), score, entry.to_string()))
        })
        .collect::<Option<Vec<_>>>()?;
    Some(RecordedResult { scores, reason })
}

/// A finished game's result as `convert` writes it in the `Result` tag.
pub fn result_text(game: &Game) -> String {
    let values = game.player_values();
    let parts: Vec<String> = game
        .players
        .iter()
        .map(|p| {
            // A tag's value holds names as they are (they have no comma).
            format!("{} {}", p.name, values.get(&p.id).map_or(0, |v| v.0))
        })
        .collect();
    let mut text = parts.join(", ");
    if let Some(r) = game.end_reason {
        text.push_str(&format!(" ({})", r.as_str()));
    }
    text
}

impl Player<'_> {
    /// A `Result` tag (`Ann 5450, Bob 5193 (bank)`, as `convert` writes it) against the
    /// replayed game: every score, and the end reason when it is one railnote writes.
    pub(super) fn check_result(&mut self, game: &Game, tag: &notation::Tag) {
        let Some(recorded) = read_result(&tag.value) else {
            self.error(
                game,
                tag.value_span,
                Code::BadResult,
                format!("`Result` is not `NAME SCORE, …`: `{}`", tag.value),
                Some(if game.finished {
                    format!(
                        "write the final scores, as the game gives them: `[Result \"{}\"]`",
                        result_text(game)
                    )
                } else {
                    "write the final scores once the game is over, e.g. `[Result \"Ann 5450, \
                     Bob 5193 (bank)\"]`"
                        .to_string()
                }),
                None,
            );
            return;
        };
        // Where each entry is, when the value is written without escapes.
        let span_of = |part: &str| match tag.value.find(part) {
            Some(at) if tag.value_span.len == tag.value.len() => {
                Span::new(tag.value_span.offset + at, part.len())
            }
            _ => tag.value_span,
        };
        let help = Some(format!(
            "the game gives `[Result \"{}\"]`",
            result_text(game)
        ));
        if !game.finished {
            self.error(
                game,
                tag.value_span,
                Code::ResultMismatch,
                format!(
                    "recorded a final result, but the game is not over: it stops in {}",
                    game.round_label()
                ),
                Some("leave the `Result` tag out until the game is over".into()),
                None,
            );
            return;
        }
        let values = game.player_values();
        let mut wrong = Vec::new();
        for p in &game.players {
            let actual = values.get(&p.id).map_or(0, |v| v.0);
            match recorded.scores.iter().find(|(name, _, _)| *name == p.name) {
                Some((_, r, text)) if *r != actual => wrong.push((
                    span_of(text),
                    format!("recorded {} {r}, the game gives {actual}", p.name),
                )),
                Some(_) => {}
                None => wrong.push((
                    tag.value_span,
                    format!("no score recorded for {}, the game gives {actual}", p.name),
                )),
            }
        }
        for (name, _, text) in &recorded.scores {
            if !game.players.iter().any(|p| &p.name == name) {
                wrong.push((span_of(text), format!("nobody is called `{name}`")));
            }
        }
        if let (Some(reason), Some(end)) = (&recorded.reason, game.end_reason) {
            let known = ["bank", "bankrupt", "stock_market", "dnf"];
            if known.contains(&reason.as_str()) && reason != end.as_str() {
                wrong.push((
                    span_of(reason),
                    format!(
                        "recorded the end by `{reason}`, the game ends by `{}`",
                        end.as_str()
                    ),
                ));
            }
        }
        for (span, label) in wrong {
            self.error(game, span, Code::ResultMismatch, label, help.clone(), None);
        }
    }

    /// When a check line is evaluated: after the move before it, and after what that move set
    /// off (a new round, with the privates' income at the start of an operating round).
    pub(super) fn checked_when(&mut self, game: &Game) -> String {
        let Some(last) = self.last_move_text() else {
            return "checked before the first move".to_string();
        };
        let line = self.line_of(self.last_move.map_or(0, |s| s.offset));
        let now = game.round_label();
        let mut when = format!("checked after `{last}` (line {line})");
        if now != self.round_of_last_move {
            when.push_str(&format!(", with which {now} began"));
            let income = matches!(game.round_kind(), crate::engine::RoundKind::Operating)
                && game.companies.iter().enumerate().any(|(i, c)| {
                    !c.closed
                        && c.owner != crate::engine::CompanyOwner::Unsold
                        && game.title.companies[i].revenue.0 > 0
                });
            if income {
                when.push_str(" (the privates' income is paid at its start)");
            }
        }
        when
    }

    /// A check line; `names_only` while the game and the text are out of step.
    pub(super) fn check(&mut self, game: &Game, c: &Check, names_only: bool) {
        for e in &c.entries {
            let (actual, recorded) = checked_value(game, e);
            let unit = if matches!(e.what, CheckValue::Holding(..)) {
                "%"
            } else {
                ""
            };
            match actual {
                Ok(_) if names_only => {
                    let line = self.line_of(e.span.offset);
                    if let Some(report) = self
                        .recovery
                        .desync_report
                        .and_then(|i| self.errors.get_mut(i))
                    {
                        report.unchecked.push((e.span, line));
                    }
                }
                Ok(a) if a == recorded => {}
                Ok(a) => {
                    let when = self.checked_when(game);
                    self.error(
                        game,
                        e.span,
                        Code::CheckFailed,
                        format!("recorded {recorded}{unit}, the rules give {a}{unit}"),
                        Some(format!(
                            "{when}; write `= {} {}`",
                            notation::name(&e.who.text),
                            match &e.what {
                                CheckValue::Cash(_) => a.to_string(),
                                CheckValue::Holding(c, _) => format!("{c} {a}%"),
                            }
                        )),
                        None,
                    );
                }
                Err(u) => {
                    self.error(game, e.who.span, u.code, u.message, u.help, None);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::notation::test_games::{played, reports, JR30, OPENING};

    #[test]
    fn a_result_is_read_with_quoted_names_and_the_end() {
        let r = read_result("Ann 5450, \"Bo B\" 5193 (bank)").unwrap();
        assert_eq!(
            r.scores,
            [
                ("Ann".to_string(), 5450, "Ann 5450".to_string()),
                ("Bo B".to_string(), 5193, "\"Bo B\" 5193".to_string())
            ]
        );
        assert_eq!(r.reason.as_deref(), Some("bank"));
        assert!(read_result("Ann won").is_none());
        assert!(read_result("Ann 12, Bob").is_none());
    }

    #[test]
    fn a_check_line_is_held_against_the_game() {
        let src = format!("{JR30}{OPENING}= Ann 254\n");
        let p = played(&src, true);
        let line = src.lines().count();
        assert_eq!(reports(&p, &src), [("rules::check_failed".into(), line)]);
        assert_eq!(p.errors[0].label, "recorded 254, the rules give 253");
    }

    #[test]
    fn a_result_before_the_end_is_refused() {
        let src = format!("{JR30}[Result \"Ann 1, Bob 2, Cid 3\"]\n{OPENING}");
        let p = played(&src, false);
        assert_eq!(reports(&p, &src), [("rules::result_mismatch".into(), 3)]);
    }
}
