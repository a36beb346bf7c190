//! The reader: text → [`Document`], written with nom.
//!
//! Two levels, as in `grammar/railnote.ebnf`: [`lexical`] productions read the text (words,
//! quoted names, tags, comments, separators), [`statement`] and [`action`] productions read
//! the words of one statement (nom over a slice of words, [`words::Words`]), and [`word`]
//! productions read inside one word (routes, orientations, par cells). nom has no recovery, so
//! the loop here ([`Reader::movetext`]) drives the productions and, after every problem,
//! resumes at the next word (lexical problems) or statement (`,`, end of line, comment,
//! parenthesis): one run reports every syntax error of a file.

mod action;
mod error;
mod lexical;
mod statement;
mod word;
mod words;

use std::sync::Arc;

use nom::Offset;

use self::error::{At, Problem};
use self::statement::Statement;
use self::words::{Quoting, Word};
use crate::log::{LogSource, Span, DIAGNOSTICS_KEPT};
use crate::notation::ast::*;
use crate::notation::error::{ParseError, SyntaxError};

/// Reads a railnote document.
///
/// # Errors
/// Every syntax error of the file.
pub fn parse(name: &str, src: &str) -> Result<Document, ParseError> {
    match parse_lenient(name, src) {
        (doc, None) => Ok(doc),
        (_, Some(errors)) => Err(errors),
    }
}

/// Reads a railnote document as far as it can be read: every statement without a syntax error,
/// and the syntax errors of the others (`None` if there are none). What is read of a
/// half-written file can be replayed up to a point before its first mistake (`--at`).
pub fn parse_lenient(name: &str, src: &str) -> (Document, Option<ParseError>) {
    let mut reader = Reader {
        src,
        rest: src,
        words: Vec::new(),
        errors: Vec::new(),
        omitted: 0,
        depth: 0,
        flattened: 0,
    };
    let doc = reader.document();
    if reader.errors.is_empty() {
        return (doc, None);
    }
    // In file order; where a problem of the text itself (an unclosed comment) and a problem
    // of the move before it (a missing price) meet, the text's comes first.
    let mut errors = reader.errors;
    errors.sort_by_key(|(source, e)| (e.span.offset, *source));
    let errors = ParseError {
        src: LogSource::new(name, Arc::from(src)),
        errors: errors.into_iter().map(|(_, e)| e).collect(),
        omitted: reader.omitted,
    };
    (doc, Some(errors))
}

/// `Ann:bid ACC 20` is read as `Ann: bid ACC 20`: a statement never starts with a route, so a
/// first word with a colon inside is an actor glued to its action.
fn split_glued_actor<'a>(words: &mut Vec<Word<'a>>) {
    let Some(first) = words.first() else {
        return;
    };
    if first.quoting != Quoting::Bare || first.text.matches(':').count() != 1 {
        return;
    }
    let Some(colon) = first
        .text
        .find(':')
        .filter(|&c| c > 0 && c + 1 < first.text.len())
    else {
        return;
    };
    let (actor, action) = first.text.split_at(colon + 1);
    let span = first.span;
    words[0] = Word {
        text: actor,
        span: Span::new(span.offset, actor.len()),
        quoting: Quoting::Bare,
    };
    words.insert(
        1,
        Word {
            text: action,
            span: Span::new(span.offset + actor.len(), action.len()),
            quoting: Quoting::Bare,
        },
    );
}

/// Why a move text stopped.
enum Stop {
    /// The end of the file.
    End,
    /// A `)`: the end of a variation, or a stray one.
    Close(Span),
    /// A tag: the next game's (or, before any move, this game's).
    Tag(Tag),
}

struct Reader<'a> {
    src: &'a str,
    /// What is left to read.
    rest: &'a str,
    /// The words of the statement being read (reused).
    words: Vec<Word<'a>>,
    errors: Vec<(Source, SyntaxError)>,
    /// Errors found after the first [`DIAGNOSTICS_KEPT`]: counted, not kept.
    omitted: usize,
    /// How many variations are open.
    depth: usize,
    /// `(` read past [`MAX_DEPTH`] and not yet closed: read as part of the variation around
    /// them, so that nothing the input controls nests deeper.
    flattened: usize,
}

/// How deep variations may nest. Reading, writing and replaying a variation recurse, so the
/// input must not choose the depth; real games nest two or three deep.
pub const MAX_DEPTH: usize = 64;

/// Which level found a problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Source {
    Text,
    Statement,
}

impl<'a> Reader<'a> {
    /// `document = game , { game }` ; `game = { tag } , movetext` — a tag after moves starts a
    /// new game.
    fn document(&mut self) -> Document {
        let mut doc = Document::default();
        let mut game = GameText::default();
        loop {
            let (body, stop) = self.movetext();
            game.body.extend(body);
            match stop {
                Stop::Tag(tag) => {
                    if !game.body.is_empty() {
                        doc.games.push(std::mem::take(&mut game));
                    }
                    game.tags.push(tag);
                }
                Stop::Close(span) => self.push(Source::Statement, || SyntaxError::new(
                    "notation::unexpected",
                    span,
                    "expected a move, found `)` with no variation open",
                    "no `(` before this",
                    "a variation is `( … )` right after the move it replaces, e.g. `Ann: pass (Ann: buy Nord)`",
                )),
                Stop::End => break,
            }
        }
        if !game.tags.is_empty() || !game.body.is_empty() {
            doc.games.push(game);
        }
        doc
    }

    /// `movetext = { statement | comment | variation | sep }`, up to a tag, a `)` or the end.
    fn movetext(&mut self) -> (Vec<Element>, Stop) {
        let mut out = Vec::new();
        // `Ann:` alone: the actor of the next statement.
        let mut pending: Option<Name> = None;
        // Whether a line break came after the last element read: `fmt` keeps such a comment on
        // its own line, and any other on the line of what it follows.
        let mut line_broken = false;
        let stop = loop {
            self.skip_blank();
            let Some(c) = self.rest.chars().next() else {
                break Stop::End;
            };
            let elements_before = out.len();
            match c {
                ',' | '\n' => {
                    line_broken |= c == '\n' && !out.is_empty();
                    self.lexeme(lexical::sep);
                }
                '{' | ';' => {
                    if let Some(c) = self.lexeme(lexical::comment) {
                        out.push(Element::Comment(Comment {
                            text: c.text.to_string(),
                            line: c.line,
                            own_line: line_broken,
                            span: self.span_of(c.written),
                        }));
                    }
                }
                '(' if self.depth >= MAX_DEPTH => {
                    let open = Span::new(self.src.offset(self.rest), 1);
                    self.lexeme(lexical::open);
                    if self.flattened == 0 {
                        self.push(Source::Statement, || SyntaxError::new(
                            "notation::too_deep",
                            open,
                            format!("variations nested deeper than {MAX_DEPTH}"),
                            format!("variation {} levels deep", MAX_DEPTH + 1),
                            "a variation replaces the move before it; write deeply nested alternatives one after another instead",
                        ));
                    }
                    self.flattened += 1;
                }
                ')' if self.flattened > 0 => {
                    self.lexeme(lexical::close);
                    self.flattened -= 1;
                }
                '(' => {
                    let (variation, stop) = self.variation();
                    out.push(Element::Variation(variation));
                    if let Some(stop) = stop {
                        break stop;
                    }
                }
                ')' => {
                    let close = Span::new(self.src.offset(self.rest), 1);
                    self.lexeme(lexical::close);
                    break Stop::Close(close);
                }
                '[' => {
                    if let Some(tag) = self.lexeme(lexical::tag) {
                        break Stop::Tag(Tag {
                            name: tag.name.to_string(),
                            value: tag.value.to_string(),
                            span: self.span_of(tag.written),
                            value_span: self.span_of(tag.value),
                        });
                    }
                }
                '}' | ']' => {
                    self.lexeme(lexical::stray);
                }
                _ => {
                    self.statement_words();
                    split_glued_actor(&mut self.words);
                    if !self.words.is_empty() {
                        let mut words = std::mem::take(&mut self.words);
                        match statement::statement(&mut words, pending.take()) {
                            Ok(Statement::Element(e)) => out.push(e),
                            Ok(Statement::Actor(actor)) => pending = Some(actor),
                            Err((problem, end)) => self.report(*problem, end),
                        }
                        words.clear();
                        self.words = words;
                    }
                }
            }
            if out.len() != elements_before {
                line_broken = false;
            }
        };
        if let Some(actor) = pending {
            self.push(Source::Statement, || {
                SyntaxError::new(
                    "notation::expected",
                    actor.span,
                    "expected an action after the actor",
                    "actor without a move",
                    "write the actor before its action: `Ann: pass`",
                )
            });
        }
        (out, stop)
    }

    /// `variation = "(" , movetext , ")"`; a tag inside closes it (and is passed on).
    fn variation(&mut self) -> (Variation, Option<Stop>) {
        let open = Span::new(self.src.offset(self.rest), 1);
        self.lexeme(lexical::open);
        self.depth += 1;
        let (body, stop) = self.movetext();
        self.depth -= 1;
        // Past the limit, a variation is open only while its level is.
        self.flattened = 0;
        let (end, passed_on) = match stop {
            Stop::Close(close) => (close.end(), None),
            stop => {
                self.push(Source::Statement, || {
                    SyntaxError::new(
                        "notation::unclosed",
                        open,
                        "expected `)` to close this variation",
                        "variation opened here is never closed",
                        "a variation is `( … )`, e.g. `Ann: pass (Ann: buy Nord)`",
                    )
                });
                match stop {
                    Stop::Tag(tag) => (tag.span.offset, Some(Stop::Tag(tag))),
                    _ => (open.end(), Some(Stop::End)),
                }
            }
        };
        let span = Span::new(open.offset, end - open.offset);
        (Variation { body, span }, passed_on)
    }

    /// The words of one statement, up to a separator, comment, parenthesis, tag or the end.
    /// Stray closers and broken tags between words are reported and read past.
    fn statement_words(&mut self) {
        loop {
            self.skip_blank();
            let Some(c) = self.rest.chars().next() else {
                return;
            };
            match c {
                '"' => {
                    if let Some(q) = self.lexeme(lexical::quoted) {
                        let span = self.span_of(q.written);
                        self.words.push(Word {
                            text: q.text,
                            span,
                            quoting: if q.actor {
                                Quoting::QuotedActor
                            } else {
                                Quoting::Quoted
                            },
                        });
                    }
                }
                '}' | ']' => {
                    self.lexeme(lexical::stray);
                }
                // A well-formed tag ends the statement (and the game's moves).
                '[' if lexical::tag(self.rest).is_ok() => return,
                '[' => {
                    self.lexeme(lexical::tag);
                }
                c if lexical::is_word_char(c) => {
                    if let Some(w) = self.lexeme(lexical::word) {
                        let span = self.span_of(w);
                        self.words.push(Word {
                            text: w,
                            span,
                            quoting: Quoting::Bare,
                        });
                    }
                }
                _ => return,
            }
        }
    }

    /// Runs a lexical production on the unread text: on success reads past it; on a problem
    /// reports it and resumes where the production says.
    fn lexeme<O>(&mut self, p: fn(&'a str) -> lexical::LResult<'a, O>) -> Option<O> {
        match p(self.rest) {
            Ok((rest, o)) => {
                self.rest = rest;
                Some(o)
            }
            Err(nom::Err::Failure(error::Error(Some(problem)))) => {
                if let At::Unread { resume, .. } = problem.at {
                    self.rest = &self.src[self.src.len() - resume..];
                }
                self.report(*problem, 0);
                None
            }
            // Not this lexeme (the caller peeked): read past one character.
            Err(_) => {
                let n = self.rest.chars().next().map_or(0, char::len_utf8);
                self.rest = &self.rest[n..];
                None
            }
        }
    }

    fn skip_blank(&mut self) {
        if let Ok((rest, _)) = lexical::blank(self.rest) {
            self.rest = rest;
        }
    }

    fn span_of(&self, part: &str) -> Span {
        Span::new(self.src.offset(part), part.len())
    }

    fn report(&mut self, problem: Problem, end_of_move: usize) {
        let source = match problem.at {
            At::Unread { .. } => Source::Text,
            _ => Source::Statement,
        };
        let src_len = self.src.len();
        self.push(source, || problem.into_syntax_error(src_len, end_of_move));
    }

    /// Keeps an error (made only if it is kept: a file may have millions).
    fn push(&mut self, source: Source, error: impl FnOnce() -> SyntaxError) {
        if self.errors.len() < DIAGNOSTICS_KEPT {
            self.errors.push((source, error()));
        } else {
            self.omitted += 1;
        }
    }
}
