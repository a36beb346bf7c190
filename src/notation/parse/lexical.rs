//! Lexical productions (nom over the text): separators, comments, tags, quoted names, words.
//! They see only the unread text, so their problems are placed relative to it
//! ([`At::Unread`]), with where reading resumes after the problem.

use nom::bytes::complete::{tag as literal, take_till, take_until, take_while, take_while1};
use nom::character::complete::{char, one_of};
use nom::combinator::{all_consuming, consumed, cut, opt};
use nom::sequence::{delimited, preceded, terminated};
use nom::{IResult, Parser};

use super::error::{fail, At, Error, Problem};

pub(super) type LResult<'a, O> = IResult<&'a str, O, Error>;

/// Characters that end a word: whitespace and the notation's punctuation.
pub(super) fn is_word_char(c: char) -> bool {
    !(c.is_whitespace() || matches!(c, ',' | '(' | ')' | '{' | '}' | '[' | ']' | ';' | '"'))
}

/// Whitespace within a line (a newline is a separator).
pub(super) fn blank(i: &str) -> LResult<'_, &str> {
    take_while(|c: char| c.is_whitespace() && c != '\n').parse(i)
}

/// `sep = "," | NEWLINE`
pub(super) fn sep(i: &str) -> LResult<'_, char> {
    one_of(",\n").parse(i)
}

/// A bare word: everything up to whitespace or punctuation.
pub(super) fn word(i: &str) -> LResult<'_, &str> {
    take_while1(is_word_char).parse(i)
}

/// A quoted name as written (`"Player 1"`, or `"Player 1":` as an actor).
pub(super) struct QuotedText<'a> {
    /// The whole of it, quotes (and colon) included.
    pub(super) written: &'a str,
    /// Inside the quotes.
    pub(super) text: &'a str,
    /// Followed right away by `:`.
    pub(super) actor: bool,
}

/// `notation::unclosed` at the opener that starts `i`; reading resumes where `resume` bytes
/// of `i` are left.
fn unclosed(
    i: &str,
    resume: usize,
    message: &'static str,
    label: &'static str,
    help: &'static str,
) -> nom::Err<Error> {
    fail(Problem::new(
        "notation::unclosed",
        At::Unread {
            unread: i.len(),
            len: 1,
            resume,
        },
        message,
        label,
        help,
    ))
}

/// `'"' , text , '"' , [ ":" ]`
pub(super) fn quoted(i: &str) -> LResult<'_, QuotedText<'_>> {
    let (rest, (written, (text, colon))) = consumed((
        preceded(char('"'), cut(terminated(take_until("\""), char('"')))),
        opt(char(':')),
    ))
    .parse(i)
    .map_err(|e| match e {
        nom::Err::Failure(_) => unclosed(
            i,
            0,
            "expected `\"` to close this name",
            "quote opened here is never closed",
            "a name with spaces is quoted: `\"Player 1\": pass`",
        ),
        e => e,
    })?;
    Ok((
        rest,
        QuotedText {
            written,
            text,
            actor: colon.is_some(),
        },
    ))
}

/// A comment as written.
pub(super) struct CommentText<'a> {
    /// The whole of it, braces or `;` included.
    pub(super) written: &'a str,
    /// The text, trimmed.
    pub(super) text: &'a str,
    /// `; …` to the end of the line.
    pub(super) line: bool,
}

/// `comment = "{" , text , "}" | ";" , text-to-eol`
pub(super) fn comment(i: &str) -> LResult<'_, CommentText<'_>> {
    let block = preceded(char('{'), cut(terminated(take_until("}"), char('}'))));
    let line = preceded(char(';'), take_till(|c| c == '\n'));
    let (rest, (written, (text, line))) = consumed(nom::branch::alt((
        block.map(|t| (t, false)),
        line.map(|t| (t, true)),
    )))
    .parse(i)
    .map_err(|e| match e {
        nom::Err::Failure(_) => unclosed(
            i,
            0,
            "expected `}` to close this comment",
            "comment opened here is never closed",
            "a comment is `{any text}` or `; text to the end of the line`",
        ),
        e => e,
    })?;
    Ok((
        rest,
        CommentText {
            written,
            text: text.trim(),
            line,
        },
    ))
}

/// A tag as written.
pub(super) struct TagText<'a> {
    /// The whole `[…]`.
    pub(super) written: &'a str,
    pub(super) name: &'a str,
    /// Inside the quotes.
    pub(super) value: &'a str,
}

/// `tag = "[" , NAME , '"' , text , '"' , "]"`, on one line.
pub(super) fn tag(i: &str) -> LResult<'_, TagText<'_>> {
    let (rest, (written, inner)) = consumed(preceded(
        char('['),
        cut(terminated(take_till(|c| c == ']' || c == '\n'), char(']'))),
    ))
    .parse(i)
    .map_err(|e| match e {
        // Resume at the end of the line: a tag never spans lines.
        nom::Err::Failure(_) => unclosed(
            i,
            i.len() - i.find('\n').unwrap_or(i.len()),
            "expected `]` to close this tag",
            "tag opened here is never closed",
            "a tag is `[Name \"value\"]` on one line, e.g. `[Title \"1836Jr30\"]`",
        ),
        e => e,
    })?;
    match tag_inside(inner) {
        Ok((_, (name, value))) => Ok((
            rest,
            TagText {
                written,
                name,
                value,
            },
        )),
        Err(_) => Err(fail(Problem::new(
            "notation::bad_tag",
            At::Unread {
                unread: i.len(),
                len: written.len(),
                resume: rest.len(),
            },
            "expected a tag: a name and a quoted value",
            "not a tag",
            "a tag is `[Name \"value\"]`, e.g. `[Title \"1836Jr30\"]`",
        ))),
    }
}

/// Inside the brackets: `NAME '"' text '"'`, spaced freely.
fn tag_inside(i: &str) -> LResult<'_, (&str, &str)> {
    let space = || take_while(char::is_whitespace);
    all_consuming(delimited(
        space(),
        (
            take_while1(|c: char| c.is_ascii_alphanumeric() || c == '_'),
            preceded(
                space(),
                delimited(char('"'), take_till(|c| c == '"'), char('"')),
            ),
        ),
        space(),
    ))
    .parse(i)
}

/// A closing `}` or `]` with nothing open: reported, then skipped.
pub(super) fn stray(i: &str) -> LResult<'_, ()> {
    let (_, c) = one_of("}]").parse(i)?;
    Err(fail(Problem::new(
        "notation::unexpected",
        At::Unread {
            unread: i.len(),
            len: 1,
            resume: i.len() - 1,
        },
        format!("expected a move, found a stray `{c}`"),
        "nothing is open here",
        "comments are `{…}`, tags are `[Name \"value\"]`",
    )))
}

/// `(` opening a variation.
pub(super) fn open(i: &str) -> LResult<'_, &str> {
    literal("(").parse(i)
}

/// `)` closing a variation.
pub(super) fn close(i: &str) -> LResult<'_, &str> {
    literal(")").parse(i)
}
