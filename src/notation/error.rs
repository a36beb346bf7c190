//! Syntax errors: every error of a file in one [`ParseError`], each with its span, what was
//! expected, what was found, and a help line with a correct example.

use std::fmt;

use miette::{Diagnostic, LabeledSpan, SourceCode};

use crate::log::{label_span, not_shown, shorten_quotes, LogSource, Span, DIAGNOSTICS_SHOWN};

/// One syntax error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Stable code (`notation::expected`, `notation::unknown_keyword`, …).
    pub code: &'static str,
    /// Where.
    pub span: Span,
    /// What was expected.
    pub message: String,
    /// What was found.
    pub label: String,
    /// How to write it, with an example.
    pub help: String,
}

impl SyntaxError {
    pub(crate) fn new(
        code: &'static str,
        span: Span,
        message: impl Into<String>,
        label: impl Into<String>,
        help: impl Into<String>,
    ) -> SyntaxError {
        SyntaxError {
            code,
            span,
            message: shorten_quotes(message.into()),
            label: shorten_quotes(label.into()),
            help: shorten_quotes(help.into()),
        }
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SyntaxError {}

impl Diagnostic for SyntaxError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(Some(self.label.clone()), label_span(self.span)),
        )))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(&self.help))
    }
}

/// All syntax errors of a file (the first [`DIAGNOSTICS_SHOWN`] are rendered).
#[derive(Debug, Clone, thiserror::Error)]
#[error("{} syntax error(s) in {}{}", self.count(), src.name(), not_shown(self.count()))]
pub struct ParseError {
    /// The file.
    pub src: LogSource,
    /// Every error, in file order (the first [`DIAGNOSTICS_KEPT`](crate::log::DIAGNOSTICS_KEPT) found).
    pub errors: Vec<SyntaxError>,
    /// How many more errors were found past the ones kept.
    pub omitted: usize,
}

impl ParseError {
    /// How many syntax errors the file has.
    pub fn count(&self) -> usize {
        self.errors.len() + self.omitted
    }
}

impl Diagnostic for ParseError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new("notation::invalid"))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.src)
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        Some(Box::new(
            self.errors
                .iter()
                .take(DIAGNOSTICS_SHOWN)
                .map(|e| e as &dyn Diagnostic),
        ))
    }
}
