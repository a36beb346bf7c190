//! Problems found while reading a game log: one [`LogError`] with many related [`Problem`]s
//! sharing one source file.

use std::fmt;
use std::sync::Arc;

use miette::{Diagnostic, LabeledSpan};

use crate::log::source::LogSource;
use crate::log::span::Span;

/// What kind of problem a log has; each kind has a stable diagnostic code (`log::…`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum ProblemKind {
    /// The file is not valid JSON.
    Syntax,
    /// The file is JSON but not an 18xx.games game log.
    NotALog,
    /// A required field is missing.
    MissingField,
    /// A field has the wrong JSON type.
    WrongType,
    /// A field's value is malformed or out of range (rotation 7, share price `"82,2"`).
    BadValue,
    /// The log's title is not one railnote knows.
    UnknownTitle,
    /// The action type is not one railnote knows.
    UnknownActionType,
    /// An entity (player, corporation, company) that the game does not have.
    UnknownEntity,
    /// A share certificate id that the title does not have.
    UnknownShare,
    /// A train id that the title does not have.
    UnknownTrain,
    /// A tile or city id that the title does not have.
    UnknownTile,
    /// A hex that is not on the map.
    UnknownHex,
    /// A market cell that is not on the stock market.
    UnknownMarketCell,
    /// An `undo` whose `action_id` names no action of the log.
    UndoTarget,
    /// A `redo` with nothing undone to restore.
    NothingToRedo,
    /// A log without a single action to replay (none, or every one undone or a message).
    NoActions,
}

impl ProblemKind {
    /// The stable diagnostic code, e.g. `log::unknown_share`.
    pub fn code(self) -> &'static str {
        match self {
            ProblemKind::Syntax => "log::syntax",
            ProblemKind::NotALog => "log::not_a_log",
            ProblemKind::MissingField => "log::missing_field",
            ProblemKind::WrongType => "log::wrong_type",
            ProblemKind::BadValue => "log::bad_value",
            ProblemKind::UnknownTitle => "log::unknown_title",
            ProblemKind::UnknownActionType => "log::unknown_action_type",
            ProblemKind::UnknownEntity => "log::unknown_entity",
            ProblemKind::UnknownShare => "log::unknown_share",
            ProblemKind::UnknownTrain => "log::unknown_train",
            ProblemKind::UnknownTile => "log::unknown_tile",
            ProblemKind::UnknownHex => "log::unknown_hex",
            ProblemKind::UnknownMarketCell => "log::unknown_market_cell",
            ProblemKind::UndoTarget => "log::undo_target",
            ProblemKind::NothingToRedo => "log::nothing_to_redo",
            ProblemKind::NoActions => "log::no_actions",
        }
    }
}

/// One problem at one place of the log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Problem {
    /// The kind (gives the code).
    pub kind: ProblemKind,
    /// What was expected, e.g. "`rotation` must be 0–5".
    pub message: String,
    /// Where.
    pub span: Span,
    /// What was found there, e.g. "found 7".
    pub label: String,
    /// How to write it correctly.
    pub help: Option<String>,
}

impl Problem {
    /// A problem without help text.
    pub fn new(
        kind: ProblemKind,
        span: Span,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> Problem {
        Problem {
            kind,
            message: shorten_quotes(message.into()),
            span,
            label: shorten_quotes(label.into()),
            help: None,
        }
    }

    /// The same problem with a help line.
    #[must_use]
    pub fn with_help(mut self, help: impl Into<String>) -> Problem {
        self.help = Some(shorten_quotes(help.into()));
        self
    }
}

/// How many problems of one file are kept; past these, problems are counted (a file of a
/// million errors must not take gigabytes to report).
pub const DIAGNOSTICS_KEPT: usize = 1000;

/// How many problems of one file a diagnostic shows; the others are counted in its headline.
/// Rendering a problem costs a pass over the text before it, so a file full of errors would
/// take quadratic time (and print megabytes) to show them all.
pub const DIAGNOSTICS_SHOWN: usize = 20;

/// The headline's note on problems not shown, if there are any.
pub(crate) fn not_shown(total: usize) -> String {
    if total > DIAGNOSTICS_SHOWN {
        format!(
            " (the first {DIAGNOSTICS_SHOWN} shown, and {} more)",
            total - DIAGNOSTICS_SHOWN
        )
    } else {
        String::new()
    }
}

/// Longest piece of the input quoted in a message (`` found `…` ``), in characters.
const QUOTE_SHOWN: usize = 60;
/// Longest message, label or help line, in characters.
const MESSAGE_SHOWN: usize = 2000;

/// A message with every backquoted piece of input longer than [`QUOTE_SHOWN`] characters cut
/// short, and at most [`MESSAGE_SHOWN`] characters in all: a word or name of a megabyte must not
/// become a megabyte of diagnostics.
pub(crate) fn shorten_quotes(message: String) -> String {
    // Most messages are short: no piece of them can be too long (bytes ≥ characters).
    if message.len() <= QUOTE_SHOWN {
        return message;
    }
    let long_quote = message
        .split('`')
        .skip(1)
        .step_by(2)
        .any(|q| q.len() > QUOTE_SHOWN && q.chars().nth(QUOTE_SHOWN).is_some());
    if !long_quote
        && (message.len() <= MESSAGE_SHOWN || message.chars().nth(MESSAGE_SHOWN).is_none())
    {
        return message;
    }
    let mut out = String::new();
    for (i, piece) in message.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        match piece.char_indices().nth(QUOTE_SHOWN) {
            Some((cut, _)) if i % 2 == 1 => {
                out.push_str(&piece[..cut]);
                out.push('…');
            }
            _ => out.push_str(piece),
        }
    }
    match out.char_indices().nth(MESSAGE_SHOWN) {
        Some((cut, _)) => {
            out.truncate(cut);
            out.push('…');
            out
        }
        None => out,
    }
}

/// A name from the input (a player's, an action type) as a message shows it: at most
/// [`QUOTE_SHOWN`] characters.
pub(crate) fn short_name(name: &str) -> String {
    match name.char_indices().nth(QUOTE_SHOWN) {
        Some((cut, _)) => format!("{}…", &name[..cut]),
        None => name.to_string(),
    }
}

/// The part of a labelled span that is underlined: at most [`LABEL_SHOWN`] bytes, so that a
/// label on a huge value (a megabyte word, a variation of ten thousand lines) shows where it
/// starts instead of all of it.
pub(crate) fn label_span(span: Span) -> Span {
    Span::new(span.offset, span.len.min(LABEL_SHOWN))
}

/// Longest part of a span that a label underlines, in bytes.
const LABEL_SHOWN: usize = 400;

impl Diagnostic for Problem {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.kind.code()))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(Some(self.label.clone()), label_span(self.span)),
        )))
    }
}

/// A game log that could not be read: every problem found, against the file's text (the first
/// [`DIAGNOSTICS_SHOWN`] are rendered).
#[derive(Debug, thiserror::Error)]
#[error("cannot read game log {name}: {}", summary(.problems, *.omitted))]
pub struct LogError {
    /// The file name as given.
    pub name: String,
    /// The file's text.
    pub src: LogSource,
    /// The problems, in file order (the first [`DIAGNOSTICS_KEPT`]).
    pub problems: Vec<Problem>,
    /// How many more problems were found past the ones kept.
    pub omitted: usize,
}

fn summary(problems: &[Problem], omitted: usize) -> String {
    match (problems, omitted) {
        ([one], 0) => one.message.clone(),
        (many, _) => {
            let count = many.len() + omitted;
            format!("{count} problems{}", not_shown(count))
        }
    }
}

impl Diagnostic for LogError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new("log::invalid"))
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.src)
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        Some(Box::new(
            self.problems
                .iter()
                .take(DIAGNOSTICS_SHOWN)
                .map(|p| p as &dyn Diagnostic),
        ))
    }
}

impl LogError {
    /// An error for `problems` (sorted by position) in the file `name` with text `src`.
    pub fn new(name: &str, src: Arc<str>, mut problems: Vec<Problem>) -> LogError {
        problems.sort_by_key(|p| p.span);
        let omitted = problems.len().saturating_sub(DIAGNOSTICS_KEPT);
        problems.truncate(DIAGNOSTICS_KEPT);
        LogError {
            name: name.to_string(),
            src: LogSource::new(name, src),
            problems,
            omitted,
        }
    }

    /// The same error, with `omitted` more problems found and dropped before it was made.
    #[must_use]
    pub fn and_omitted(mut self, omitted: usize) -> LogError {
        self.omitted += omitted;
        self
    }

    /// The first problem's code (`log::syntax`, …), or `log::invalid` if there is none.
    pub fn first_code(&self) -> &'static str {
        self.problems
            .first()
            .map_or("log::invalid", |p| p.kind.code())
    }
}
