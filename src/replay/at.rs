//! A state of a game asked for by `--at`: after N processed actions (`120`), after a line of
//! the file (`line:42`), or the first state of a round (`"OR 3.1"`). A notation file is replayed
//! only up to that state, so a half-written file can be inspected while later lines are still
//! wrong.

use std::fmt;
use std::str::FromStr;

use crate::engine::Game;
use crate::notation::RoundName;

/// A state of a game, as written on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum At {
    /// After this many processed actions (`0`: before the first), counted as the reference
    /// traces count them.
    Actions(usize),
    /// After every statement that starts on or before this 1-based line of the file.
    Line(usize),
    /// The first state of this round.
    Round(RoundName),
}

/// Why an `--at` value cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a state: write a number of actions (`120`), a line (`line:42`) or a round \
     (`\"OR 3.1\"`, `\"SR 2\"`, `PR`)"
)]
pub struct ParseAtError(String);

impl FromStr for At {
    type Err = ParseAtError;

    fn from_str(s: &str) -> Result<At, ParseAtError> {
        let text = s.trim();
        let fail = || ParseAtError(s.to_string());
        if let Ok(n) = text.parse::<usize>() {
            return Ok(At::Actions(n));
        }
        let lower = text.to_ascii_lowercase();
        if let Some(line) = lower.strip_prefix("line:").or(lower.strip_prefix("line ")) {
            return match line.trim().parse::<usize>() {
                Ok(n) if n > 0 => Ok(At::Line(n)),
                _ => Err(fail()),
            };
        }
        text.parse::<RoundName>()
            .map(At::Round)
            .map_err(|()| fail())
    }
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            At::Actions(n) => write!(f, "{n}"),
            At::Line(n) => write!(f, "line:{n}"),
            At::Round(r) => write!(f, "{r}"),
        }
    }
}

/// An [`At`] resolved against the text of a file: where to stop a replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// After this many processed actions.
    Actions(usize),
    /// Before the first statement that starts at or past this byte offset.
    Before(usize),
    /// At the first state of the round with this label (`OR 3.1`).
    Round(String),
}

impl At {
    /// Where to stop in a file with this text.
    ///
    /// # Errors
    /// A line past the end of the file.
    pub fn target(&self, src: &str) -> Result<Target, String> {
        Ok(match self {
            At::Actions(n) => Target::Actions(*n),
            At::Round(r) => Target::Round(r.to_string()),
            At::Line(line) => {
                let lines = src.lines().count();
                if *line > lines {
                    return Err(format!("--at {self}: the file has {lines} line(s)"));
                }
                // The offset where line `line + 1` starts (or the end).
                let offset = src
                    .match_indices('\n')
                    .nth(line - 1)
                    .map_or(src.len(), |(i, _)| i + 1);
                Target::Before(offset)
            }
        })
    }
}

impl Target {
    /// Whether the state after `processed` actions is the one asked for; `next` is where the
    /// next action is written (`None` past the last).
    pub fn reached(&self, game: &Game, processed: usize, next: Option<usize>) -> bool {
        match self {
            Target::Actions(n) => processed >= *n,
            Target::Before(offset) => next.is_none_or(|at| at >= *offset),
            Target::Round(label) => game.round_label() == *label,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_people_type() {
        assert_eq!("120".parse(), Ok(At::Actions(120)));
        assert_eq!(" 0 ".parse(), Ok(At::Actions(0)));
        assert_eq!("line:42".parse(), Ok(At::Line(42)));
        assert_eq!("LINE: 7".parse(), Ok(At::Line(7)));
        assert_eq!("OR 3.1".parse(), Ok(At::Round(RoundName::Operating(3, 1))));
        assert_eq!("or3.1".parse(), Ok(At::Round(RoundName::Operating(3, 1))));
        assert_eq!("sr 2".parse(), Ok(At::Round(RoundName::Stock(2))));
        assert_eq!("pr".parse(), Ok(At::Round(RoundName::Private)));
        assert_eq!("MR 5.2".parse(), Ok(At::Round(RoundName::Merger(5, 2))));
        for bad in ["", "line:0", "line:x", "OR 3", "SR", "XR 1", "-1", "PR 1"] {
            assert!(bad.parse::<At>().is_err(), "{bad:?} was read");
        }
        assert_eq!("line:42".parse::<At>().unwrap().to_string(), "line:42");
        assert_eq!("or 3.1".parse::<At>().unwrap().to_string(), "OR 3.1");
    }

    #[test]
    fn a_line_is_the_offset_where_the_next_starts() {
        let src = "a\nbb\nccc";
        assert_eq!(At::Line(1).target(src), Ok(Target::Before(2)));
        assert_eq!(At::Line(2).target(src), Ok(Target::Before(5)));
        assert_eq!(At::Line(3).target(src), Ok(Target::Before(8)));
        assert!(At::Line(4).target(src).is_err());
    }
}
