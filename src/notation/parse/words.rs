//! The words of one statement, as a nom input: statement productions take words the way
//! lexical productions take characters.

use std::iter::Enumerate;
use std::slice::Iter;

use nom::error::ErrorKind;
use nom::{IResult, Input, Needed, Parser};

use super::error::{Error, Problem};
use crate::log::Span;

/// How a word was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Quoting {
    /// A bare word: `Nord`, `57`, `2:H6-H4=50`.
    Bare,
    /// A quoted name: `"Player 1"`.
    Quoted,
    /// A quoted name with `:` right after the closing quote: `"Player 1":`.
    QuotedActor,
}

/// One word of a statement: its text (inside the quotes for a quoted name) and where it is.
#[derive(Debug, Clone, Copy)]
pub(super) struct Word<'a> {
    pub(super) text: &'a str,
    pub(super) span: Span,
    pub(super) quoting: Quoting,
}

impl Word<'_> {
    /// `found `…`` — the label of a word that does not fit.
    pub(super) fn found(&self) -> String {
        format!("found `{}`", self.text)
    }
}

/// A run of words (the rest of a statement).
#[derive(Debug, Clone, Copy)]
pub(super) struct Words<'a>(pub(super) &'a [Word<'a>]);

pub(super) type WResult<'a, O> = IResult<Words<'a>, O, Error>;

impl<'a> Words<'a> {
    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub(super) fn first(&self) -> Option<&'a Word<'a>> {
        self.0.first()
    }

    pub(super) fn last(&self) -> Option<&'a Word<'a>> {
        self.0.last()
    }

    /// From the first word to the end of the last.
    pub(super) fn span(&self) -> Option<Span> {
        let (first, last) = (self.first()?, self.last()?);
        Some(Span::new(
            first.span.offset,
            last.span.end() - first.span.offset,
        ))
    }
}

impl<'a> Input for Words<'a> {
    type Item = &'a Word<'a>;
    type Iter = Iter<'a, Word<'a>>;
    type IterIndices = Enumerate<Iter<'a, Word<'a>>>;

    fn input_len(&self) -> usize {
        self.0.len()
    }

    fn take(&self, index: usize) -> Words<'a> {
        Words(&self.0[..index])
    }

    fn take_from(&self, index: usize) -> Words<'a> {
        Words(&self.0[index..])
    }

    fn take_split(&self, index: usize) -> (Words<'a>, Words<'a>) {
        let (prefix, suffix) = self.0.split_at(index);
        (Words(suffix), Words(prefix))
    }

    fn position<P: Fn(&'a Word<'a>) -> bool>(&self, predicate: P) -> Option<usize> {
        self.0.iter().position(predicate)
    }

    fn iter_elements(&self) -> Iter<'a, Word<'a>> {
        self.0.iter()
    }

    fn iter_indices(&self) -> Enumerate<Iter<'a, Word<'a>>> {
        self.0.iter().enumerate()
    }

    fn slice_index(&self, count: usize) -> Result<usize, Needed> {
        if count <= self.0.len() {
            Ok(count)
        } else {
            Err(Needed::new(count - self.0.len()))
        }
    }
}

/// Any one word (backtracks at the end of the statement).
pub(super) fn any_word(i: Words<'_>) -> WResult<'_, Word<'_>> {
    match i.0.split_first() {
        Some((w, rest)) => Ok((Words(rest), *w)),
        None => Err(nom::Err::Error(nom::error::ParseError::from_error_kind(
            i,
            ErrorKind::Eof,
        ))),
    }
}

/// The word `k`, bare or quoted (backtracks otherwise).
pub(super) fn keyword<'a>(
    k: &'static str,
) -> impl Parser<Words<'a>, Output = Word<'a>, Error = Error> {
    nom::combinator::verify(any_word, move |w: &Word<'_>| w.text == k)
}

/// A word the production cannot do without: at the end of the move, `expected {what}`.
pub(super) fn required<'a>(
    what: &'static str,
    help: &'static str,
) -> impl Parser<Words<'a>, Output = Word<'a>, Error = Error> {
    move |i: Words<'a>| match any_word(i) {
        Ok(found) => Ok(found),
        Err(_) => Err(super::error::fail(Problem::missing(what, help))),
    }
}
