//! The log's text as a miette source that keeps excerpts readable.
//!
//! 18xx.games exports a game as a single line of JSON (50 kB and more); quoting "the line" of
//! a problem would print the whole file. When the excerpt miette asks for is that long, this
//! source narrows it to the labelled span plus a little context on either side.

use std::sync::Arc;

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

/// Longest excerpt served as is.
const MAX_EXCERPT: usize = 1200;
/// Context kept on either side of a span when an excerpt is narrowed.
const CONTEXT: usize = 40;

/// A named log text, shared cheaply between diagnostics.
#[derive(Debug, Clone)]
pub struct LogSource {
    name: String,
    text: Arc<str>,
}

impl LogSource {
    /// The text of the file `name`.
    pub fn new(name: impl Into<String>, text: Arc<str>) -> LogSource {
        LogSource {
            name: name.into(),
            text,
        }
    }

    /// The file name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The whole text.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl SourceCode for LogSource {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let text: &str = &self.text;
        // A label may be cut inside a character (see `label_span`): serve whole characters.
        let (from, to) = (
            text.floor_char_boundary(span.offset()),
            text.ceil_char_boundary(span.offset() + span.len()),
        );
        let span = &SourceSpan::new(from.into(), to - from);
        let full = self.text.read_span(span, before, after)?;
        if full.data().len() <= MAX_EXCERPT {
            return Ok(Box::new(MietteSpanContents::new_named(
                self.name.clone(),
                full.data(),
                *full.span(),
                full.line(),
                full.column(),
                full.line_count(),
            )));
        }
        let line_start = text[..from].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[to..].find('\n').map_or(text.len(), |i| to + i);
        let mut start = from.saturating_sub(CONTEXT).max(line_start);
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (to + CONTEXT).min(line_end);
        while !text.is_char_boundary(end) {
            end += 1;
        }
        // miette heads the excerpt with the line and column of the span itself.
        let line = text[..start].matches('\n').count();
        let column = text[line_start..from].chars().count();
        let data = &text.as_bytes()[start..end];
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            data,
            SourceSpan::new(start.into(), end - start),
            line,
            column,
            text[start..end].matches('\n').count() + 1,
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A label cut inside a character, on a line long enough to be narrowed, once panicked
    /// (found by the `parse` fuzz target).
    #[test]
    fn spans_inside_characters_are_widened_to_them() {
        let text: Arc<str> = Arc::from("é".repeat(3000).as_str());
        let source = LogSource::new("long.rn", text);
        for (offset, len) in [(1, 400), (2, 401), (5999, 1), (6000, 0)] {
            let contents = source
                .read_span(&SourceSpan::new(offset.into(), len), 0, 0)
                .unwrap();
            let data = std::str::from_utf8(contents.data())
                .unwrap_or_else(|e| panic!("{offset} {len}: {e} {:?}", contents.span()));
            assert!(data.len() <= 400 + 2 * CONTEXT + 4, "{offset} {len}");
        }
    }
}
