//! The nom error of the reader: either "this production does not apply here" (nom `Error`,
//! backtracked by `alt`/`opt`) or, once a production has committed, the [`Problem`] found
//! (nom `Failure`), which the recovery loop turns into a [`SyntaxError`].

use std::borrow::Cow;

use nom::error::{ErrorKind, FromExternalError, ParseError};

use crate::log::Span;
use crate::notation::error::SyntaxError;

/// The reader's nom error: `None` while backtracking, the problem once committed.
#[derive(Debug)]
pub(super) struct Error(pub(super) Option<Box<Problem>>);

impl<I> ParseError<I> for Error {
    fn from_error_kind(_: I, _: ErrorKind) -> Error {
        Error(None)
    }

    fn append(_: I, _: ErrorKind, other: Error) -> Error {
        other
    }

    fn or(self, other: Error) -> Error {
        if other.0.is_some() {
            other
        } else {
            self
        }
    }
}

impl<I, E> FromExternalError<I, E> for Error {
    fn from_external_error(_: I, _: ErrorKind, _: E) -> Error {
        Error(None)
    }
}

/// A committed failure: the production is known, the text does not fit it.
pub(super) fn fail(problem: Problem) -> nom::Err<Error> {
    nom::Err::Failure(Error(Some(Box::new(problem))))
}

/// Where a problem is.
#[derive(Debug, Clone, Copy)]
pub(super) enum At {
    /// A span of the source (words carry theirs).
    Span(Span),
    /// Zero width at the end of the move: the move ended before something it needs.
    EndOfMove,
    /// Found by a lexical production, which sees only the unread text: `len` bytes from where
    /// `unread` bytes were left; reading resumes where `resume` bytes are left.
    Unread {
        unread: usize,
        len: usize,
        resume: usize,
    },
}

/// What was expected, what was found, and how to write it.
#[derive(Debug)]
pub(super) struct Problem {
    pub(super) code: &'static str,
    pub(super) at: At,
    pub(super) message: Cow<'static, str>,
    pub(super) label: Cow<'static, str>,
    pub(super) help: Cow<'static, str>,
    /// Makes the help line when the problem is reported, not when it is found: a file may
    /// have millions of problems, and only the first are kept (a did-you-mean search for each
    /// would dominate reading such a file).
    pub(super) help_later: Option<fn(&str) -> String>,
}

impl Problem {
    pub(super) fn new(
        code: &'static str,
        at: At,
        message: impl Into<Cow<'static, str>>,
        label: impl Into<Cow<'static, str>>,
        help: impl Into<Cow<'static, str>>,
    ) -> Problem {
        Problem {
            code,
            at,
            message: message.into(),
            label: label.into(),
            help: help.into(),
            help_later: None,
        }
    }

    /// `expected {what}`, at the end of a move that stops short.
    pub(super) fn missing(what: &str, help: &'static str) -> Problem {
        Problem::new(
            "notation::expected",
            At::EndOfMove,
            format!("expected {what}"),
            "the move ends here",
            help,
        )
    }

    /// The diagnostic, given the source length (for lexical positions) and where the move
    /// ended (for [`At::EndOfMove`]).
    pub(super) fn into_syntax_error(self, src_len: usize, end_of_move: usize) -> SyntaxError {
        let span = match self.at {
            At::Span(span) => span,
            At::EndOfMove => Span::new(end_of_move, 0),
            At::Unread { unread, len, .. } => Span::new(src_len - unread, len),
        };
        let help = match self.help_later {
            Some(make) => make(&self.help).into(),
            None => self.help,
        };
        SyntaxError::new(self.code, span, self.message, self.label, help)
    }
}
