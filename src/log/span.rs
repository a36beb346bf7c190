//! Byte spans into the log file, and values that carry one.

use miette::SourceSpan;
use serde::Serialize;

/// A byte range in the source file (offset and length), convertible to a miette [`SourceSpan`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize)]
pub struct Span {
    /// Byte offset of the first byte.
    pub offset: usize,
    /// Length in bytes.
    pub len: usize,
}

impl Span {
    /// A span from an offset and a length.
    pub const fn new(offset: usize, len: usize) -> Span {
        Span { offset, len }
    }

    /// The offset one past the last byte.
    pub const fn end(self) -> usize {
        self.offset + self.len
    }

    /// The 1-based line and column (in characters) where the span starts.
    pub fn line_col(self, src: &str) -> (usize, usize) {
        let before = &src[..self.offset.min(src.len())];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, before[line_start..].chars().count() + 1)
    }
}

impl From<Span> for SourceSpan {
    fn from(span: Span) -> SourceSpan {
        SourceSpan::new(span.offset.into(), span.len)
    }
}

/// A value read from the log, with the span of its JSON text.
///
/// The span is metadata: equality compares values only (so hand-built expectations in tests do
/// not need positions).
#[derive(Debug, Clone)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Where it was written.
    pub span: Span,
}

impl<T> Spanned<T> {
    /// A value with its span.
    pub const fn new(value: T, span: Span) -> Spanned<T> {
        Spanned { value, span }
    }
}

impl<T: PartialEq> PartialEq for Spanned<T> {
    fn eq(&self, other: &Spanned<T>) -> bool {
        // intentionally omitted: self.span == other.span
        self.value == other.value
    }
}

impl<T: Eq> Eq for Spanned<T> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one() {
        let src = "{\n  \"a\": 1,\n  \"bé\": 2\n}";
        let at = src.find("2").unwrap();
        assert_eq!(Span::new(at, 1).line_col(src), (3, 9));
        assert_eq!(Span::new(0, 1).line_col(src), (1, 1));
    }
}
