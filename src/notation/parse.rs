//! The reader: text → [`Document`]. Recovers at every statement boundary (`,`, end of line,
//! comment, parenthesis), so one run reports every syntax error of a file.
//!
//! Productions are quoted from `grammar/railnote.ebnf`.

use std::sync::Arc;

use crate::ids::HexId;
use crate::log::{LogSource, Span};
use crate::notation::ast::*;
use crate::notation::error::{ParseError, SyntaxError};

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Word(String),
    /// A quoted string; `true` when a `:` follows right after the closing quote.
    Quoted(String, bool),
    Tag(String, String, Span),
    Comment(String, bool),
    Comma,
    Newline,
    Open,
    Close,
}

#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    span: Span,
}

fn is_word_char(c: char) -> bool {
    !(c.is_whitespace() || matches!(c, ',' | '(' | ')' | '{' | '}' | '[' | ']' | ';' | '"'))
}

fn lex(src: &str, errors: &mut Vec<SyntaxError>) -> Vec<Token> {
    let mut out = Vec::new();
    let bytes = src.as_bytes();
    let mut i = 0;
    while i < src.len() {
        let c = src[i..].chars().next().unwrap_or(' ');
        let start = i;
        match c {
            '\n' => {
                out.push(Token {
                    tok: Tok::Newline,
                    span: Span::new(i, 1),
                });
                i += 1;
            }
            c if c.is_whitespace() => i += c.len_utf8(),
            ',' => {
                out.push(Token {
                    tok: Tok::Comma,
                    span: Span::new(i, 1),
                });
                i += 1;
            }
            '(' => {
                out.push(Token {
                    tok: Tok::Open,
                    span: Span::new(i, 1),
                });
                i += 1;
            }
            ')' => {
                out.push(Token {
                    tok: Tok::Close,
                    span: Span::new(i, 1),
                });
                i += 1;
            }
            ';' => {
                let end = src[i..].find('\n').map_or(src.len(), |n| i + n);
                out.push(Token {
                    tok: Tok::Comment(src[i + 1..end].trim().to_string(), true),
                    span: Span::new(i, end - i),
                });
                i = end;
            }
            '{' => match src[i..].find('}') {
                Some(n) => {
                    out.push(Token {
                        tok: Tok::Comment(src[i + 1..i + n].trim().to_string(), false),
                        span: Span::new(i, n + 1),
                    });
                    i += n + 1;
                }
                None => {
                    errors.push(SyntaxError::new(
                        "notation::unclosed",
                        Span::new(i, 1),
                        "expected `}` to close this comment",
                        "comment opened here is never closed",
                        "a comment is `{any text}` or `; text to the end of the line`",
                    ));
                    i = src.len();
                }
            },
            '}' | ']' => {
                errors.push(SyntaxError::new(
                    "notation::unexpected",
                    Span::new(i, 1),
                    format!("expected a move, found a stray `{c}`"),
                    "nothing is open here",
                    "comments are `{…}`, tags are `[Name \"value\"]`",
                ));
                i += 1;
            }
            '"' => match src[i + 1..].find('"') {
                Some(n) => {
                    let text = src[i + 1..i + 1 + n].to_string();
                    let mut end = i + n + 2;
                    let colon = bytes.get(end) == Some(&b':');
                    if colon {
                        end += 1;
                    }
                    out.push(Token {
                        tok: Tok::Quoted(text, colon),
                        span: Span::new(start, end - start),
                    });
                    i = end;
                }
                None => {
                    errors.push(SyntaxError::new(
                        "notation::unclosed",
                        Span::new(i, 1),
                        "expected `\"` to close this name",
                        "quote opened here is never closed",
                        "a name with spaces is quoted: `\"Player 1\": pass`",
                    ));
                    i = src.len();
                }
            },
            '[' => {
                let end = src[i..].find([']', '\n']).map(|n| i + n);
                match end {
                    Some(e) if bytes[e] == b']' => {
                        let inner = &src[i + 1..e];
                        match tag_parts(inner, i + 1) {
                            Some((name, value, vspan)) => out.push(Token {
                                tok: Tok::Tag(name, value, vspan),
                                span: Span::new(i, e + 1 - i),
                            }),
                            None => errors.push(SyntaxError::new(
                                "notation::bad_tag",
                                Span::new(i, e + 1 - i),
                                "expected a tag: a name and a quoted value",
                                "not a tag",
                                "a tag is `[Name \"value\"]`, e.g. `[Title \"1836Jr30\"]`",
                            )),
                        }
                        i = e + 1;
                    }
                    _ => {
                        let e = end.unwrap_or(src.len());
                        errors.push(SyntaxError::new(
                            "notation::unclosed",
                            Span::new(i, 1),
                            "expected `]` to close this tag",
                            "tag opened here is never closed",
                            "a tag is `[Name \"value\"]` on one line, e.g. `[Title \"1836Jr30\"]`",
                        ));
                        i = e;
                    }
                }
            }
            _ => {
                let end = src[i..]
                    .char_indices()
                    .find(|(_, c)| !is_word_char(*c))
                    .map_or(src.len(), |(n, _)| i + n);
                out.push(Token {
                    tok: Tok::Word(src[i..end].to_string()),
                    span: Span::new(i, end - i),
                });
                i = end;
            }
        }
    }
    out
}

/// `tag := '[' NAME '"' text '"' ']'`
fn tag_parts(inner: &str, offset: usize) -> Option<(String, String, Span)> {
    let trimmed = inner.trim_start();
    let name_len = trimmed
        .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .unwrap_or(trimmed.len());
    if name_len == 0 {
        return None;
    }
    let rest = trimmed[name_len..].trim();
    let value = rest.strip_prefix('"')?.strip_suffix('"')?;
    if value.contains('"') {
        return None;
    }
    let vstart = offset + inner.find('"')? + 1;
    Some((
        trimmed[..name_len].to_string(),
        value.to_string(),
        Span::new(vstart, value.len()),
    ))
}

/// Reads a railnote document.
///
/// # Errors
/// Every syntax error of the file.
pub fn parse(name: &str, src: &str) -> Result<Document, ParseError> {
    let mut errors = Vec::new();
    let tokens = lex(src, &mut errors);
    let mut p = Parser {
        tokens,
        pos: 0,
        errors,
    };
    let doc = p.document();
    if p.errors.is_empty() {
        Ok(doc)
    } else {
        let mut errors = p.errors;
        errors.sort_by_key(|e| e.span.offset);
        Err(ParseError {
            src: LogSource::new(name, Arc::from(src)),
            errors,
        })
    }
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    errors: Vec<SyntaxError>,
}

type Words<'a> = &'a [(Tok, Span)];

impl Parser {
    /// `document := game+` ; `game := tag* movetext`
    fn document(&mut self) -> Document {
        let mut doc = Document::default();
        let mut game = GameText::default();
        loop {
            // Tags (and comments or blank lines between them).
            while let Some(t) = self.tokens.get(self.pos) {
                match &t.tok {
                    Tok::Tag(name, value, vspan) => {
                        if !game.body.is_empty() {
                            doc.games.push(std::mem::take(&mut game));
                        }
                        game.tags.push(Tag {
                            name: name.clone(),
                            value: value.clone(),
                            span: t.span,
                            value_span: *vspan,
                        });
                        self.pos += 1;
                    }
                    Tok::Newline => self.pos += 1,
                    _ => break,
                }
            }
            let body = self.body(false);
            game.body.extend(body);
            match self.tokens.get(self.pos) {
                Some(Token {
                    tok: Tok::Tag(..), ..
                }) => continue,
                Some(t) => {
                    // A stray `)`.
                    self.errors.push(SyntaxError::new(
                        "notation::unexpected",
                        t.span,
                        "expected a move, found `)` with no variation open",
                        "no `(` before this",
                        "a variation is `( … )` right after the move it replaces, e.g. `Ann: pass (Ann: buy Nord)`",
                    ));
                    self.pos += 1;
                }
                None => break,
            }
        }
        if !game.tags.is_empty() || !game.body.is_empty() {
            doc.games.push(game);
        }
        doc
    }

    /// `movetext := (statement | comment | variation | sep)*`
    fn body(&mut self, nested: bool) -> Vec<Element> {
        let mut out = Vec::new();
        let mut pending_actor: Option<Name> = None;
        let mut words: Vec<(Tok, Span)> = Vec::new();
        loop {
            let tok = self.tokens.get(self.pos).cloned();
            let is_word = matches!(
                tok.as_ref().map(|t| &t.tok),
                Some(Tok::Word(_) | Tok::Quoted(..))
            );
            if is_word {
                let t = tok.expect("checked");
                words.push((t.tok, t.span));
                self.pos += 1;
                continue;
            }
            if !words.is_empty() {
                self.statement(&words, &mut pending_actor, &mut out);
                words.clear();
            }
            let Some(t) = tok else { break };
            match t.tok {
                Tok::Comma | Tok::Newline => self.pos += 1,
                Tok::Comment(text, line) => {
                    out.push(Element::Comment(Comment {
                        text,
                        line,
                        span: t.span,
                    }));
                    self.pos += 1;
                }
                Tok::Open => {
                    self.pos += 1;
                    let body = self.body(true);
                    let end = match self.tokens.get(self.pos) {
                        Some(Token {
                            tok: Tok::Close,
                            span,
                        }) => {
                            self.pos += 1;
                            span.end()
                        }
                        _ => {
                            self.errors.push(SyntaxError::new(
                                "notation::unclosed",
                                t.span,
                                "expected `)` to close this variation",
                                "variation opened here is never closed",
                                "a variation is `( … )`, e.g. `Ann: pass (Ann: buy Nord)`",
                            ));
                            self.tokens
                                .get(self.pos)
                                .map_or(t.span.end(), |t| t.span.offset)
                        }
                    };
                    out.push(Element::Variation(Variation {
                        body,
                        span: Span::new(t.span.offset, end - t.span.offset),
                    }));
                }
                Tok::Close if nested => break,
                Tok::Close | Tok::Tag(..) => break,
                Tok::Word(_) | Tok::Quoted(..) => unreachable!("handled above"),
            }
        }
        if let Some(actor) = pending_actor {
            self.errors.push(SyntaxError::new(
                "notation::expected",
                actor.span,
                "expected an action after the actor",
                "actor without a move",
                "write the actor before its action: `Ann: pass`",
            ));
        }
        out
    }

    fn statement(&mut self, words: Words<'_>, pending: &mut Option<Name>, out: &mut Vec<Element>) {
        let start = words[0].1.offset;
        let last = words[words.len() - 1].1;
        let span = Span::new(start, last.end() - start);
        match self.statement_inner(words, pending, span) {
            Ok(Some(e)) => out.push(e),
            Ok(None) => {}
            Err(e) => {
                *pending = None;
                self.errors.push(e);
            }
        }
    }

    fn statement_inner(
        &mut self,
        words: Words<'_>,
        pending: &mut Option<Name>,
        span: Span,
    ) -> Result<Option<Element>, SyntaxError> {
        let mut rest = words;
        let mut auto = false;
        if let Some((Tok::Word(w), _)) = rest.first() {
            if w == "&" {
                auto = true;
                rest = &rest[1..];
            }
        }
        let mut actor = pending.take();
        if let Some((tok, s)) = rest.first() {
            let name = match tok {
                Tok::Quoted(text, true) => Some(text.clone()),
                Tok::Word(w) if w.len() > 1 && w.ends_with(':') && w.matches(':').count() == 1 => {
                    Some(w[..w.len() - 1].to_string())
                }
                Tok::Quoted(_, false) => {
                    return Err(SyntaxError::new(
                        "notation::expected",
                        *s,
                        "expected `:` after a quoted actor",
                        "quoted name without `:`",
                        "a quoted actor is followed by a colon: `\"Player 1\": pass`",
                    ))
                }
                _ => None,
            };
            if let Some(name) = name {
                actor = Some(Name {
                    text: name,
                    span: *s,
                });
                rest = &rest[1..];
            }
        }
        if rest.is_empty() {
            if auto {
                return Err(SyntaxError::new(
                    "notation::expected",
                    span,
                    "expected a move after `&`",
                    "nothing to mark as automatic",
                    "an automatic move is `& Ann: pass`",
                ));
            }
            *pending = actor;
            return Ok(None);
        }
        let action_start = rest[0].1.offset;
        let head = word(&rest[0]);
        if actor.is_none() && !auto {
            // Headings, checks, corrections stand alone.
            match head {
                "PR" if rest.len() == 1 => {
                    return Ok(Some(Element::Heading(Heading {
                        round: RoundName::Private,
                        span,
                    })))
                }
                "SR" | "OR" | "MR" => return self.heading(rest, span, head).map(Some),
                "=" => return check(rest, span).map(|c| Some(Element::Check(c))),
                "correct" => return correction(rest, span).map(|c| Some(Element::Correction(c))),
                _ => {}
            }
        }
        // Annotation: a trailing glyph word, or glyphs glued to the last word.
        let mut annotation = None;
        let mut owned: Vec<(Tok, Span)> = rest.to_vec();
        if let Some((Tok::Word(w), s)) = owned.last().cloned() {
            let stripped = w.trim_end_matches(['!', '?']);
            if stripped.len() < w.len() {
                let glyph = &w[stripped.len()..];
                let Some(a) = Annotation::from_glyph(glyph) else {
                    return Err(SyntaxError::new(
                        "notation::bad_annotation",
                        Span::new(s.offset + stripped.len(), glyph.len()),
                        format!("expected an annotation, found `{glyph}`"),
                        "not an annotation",
                        "annotations are `!`, `?`, `!!`, `??`, `!?`, `?!`, e.g. `Ann: buy Nord!?`",
                    ));
                };
                annotation = Some(a);
                owned.pop();
                if !stripped.is_empty() {
                    owned.push((
                        Tok::Word(stripped.to_string()),
                        Span::new(s.offset, stripped.len()),
                    ));
                }
            }
        }
        if owned.is_empty() {
            return Err(SyntaxError::new(
                "notation::expected",
                span,
                "expected an action before the annotation",
                "annotation without a move",
                "an annotation follows its move: `Ann: buy Nord!`",
            ));
        }
        let action_end = owned[owned.len() - 1].1.end();
        let action = action(&owned)?;
        Ok(Some(Element::Move(Move {
            auto,
            actor,
            action,
            annotation,
            span,
            action_span: Span::new(action_start, action_end - action_start),
        })))
    }

    /// `heading := 'PR' | 'SR' INT | 'OR' INT '.' INT`
    fn heading(&mut self, rest: Words<'_>, span: Span, kind: &str) -> Result<Element, SyntaxError> {
        let help = "round headings are `PR`, `SR 2`, `OR 3.1` or `MR 5.2`";
        let bad = |s: Span, found: &str| {
            SyntaxError::new(
                "notation::bad_heading",
                s,
                if kind == "SR" {
                    "expected a stock round number after `SR`".to_string()
                } else {
                    format!("expected `set.round` after `{kind}`, e.g. `{kind} 3.1`")
                },
                format!("found {found}"),
                help,
            )
        };
        let Some(arg) = rest.get(1) else {
            return Err(bad(span, "nothing"));
        };
        if rest.len() > 2 {
            return Err(bad(rest[2].1, &format!("`{}`", word(&rest[2]))));
        }
        let text = word(arg);
        let set_round = || -> Option<(u32, u32)> {
            let (a, b) = text.split_once('.')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        };
        let round = match kind {
            "SR" => text.parse().ok().map(RoundName::Stock),
            "MR" => set_round().map(|(a, b)| RoundName::Merger(a, b)),
            _ => set_round().map(|(a, b)| RoundName::Operating(a, b)),
        };
        round
            .map(|round| Element::Heading(Heading { round, span }))
            .ok_or_else(|| bad(arg.1, &format!("`{text}`")))
    }
}

fn word(t: &(Tok, Span)) -> &str {
    match &t.0 {
        Tok::Word(w) => w,
        Tok::Quoted(q, _) => q,
        _ => "",
    }
}

fn found(t: &(Tok, Span)) -> String {
    format!("found `{}`", word(t))
}

/// `check := '=' (name (INT | CORP INT '%'))+`
fn check(rest: Words<'_>, span: Span) -> Result<Check, SyntaxError> {
    let help = "a check line is `= Ann 315 Bob 120` (cash) or `= Ann Nord 60%` (holding)";
    let mut entries = Vec::new();
    let mut i = 1;
    while i < rest.len() {
        let who = Name {
            text: word(&rest[i]).to_string(),
            span: rest[i].1,
        };
        let Some(next) = rest.get(i + 1) else {
            return Err(SyntaxError::new(
                "notation::expected",
                rest[i].1,
                "expected an amount after the name",
                "name without a value",
                help,
            ));
        };
        if let Ok(n) = word(next).parse::<i64>() {
            entries.push(CheckEntry {
                who,
                what: CheckValue::Cash(n),
                span: Span::new(rest[i].1.offset, next.1.end() - rest[i].1.offset),
            });
            i += 2;
            continue;
        }
        let pct = rest.get(i + 2).and_then(|t| percent(word(t)));
        match pct {
            Some(p) => {
                entries.push(CheckEntry {
                    who,
                    what: CheckValue::Holding(word(next).to_string(), p),
                    span: Span::new(rest[i].1.offset, rest[i + 2].1.end() - rest[i].1.offset),
                });
                i += 3;
            }
            None => {
                let at = rest.get(i + 2).unwrap_or(next);
                return Err(SyntaxError::new(
                    "notation::expected",
                    at.1,
                    "expected an amount or a corporation and a percentage",
                    found(at),
                    help,
                ));
            }
        }
    }
    if entries.is_empty() {
        return Err(SyntaxError::new(
            "notation::expected",
            span,
            "expected at least one entry after `=`",
            "empty check",
            help,
        ));
    }
    Ok(Check { entries, span })
}

/// `correction := 'correct' 'cash' name SIGNED_INT`
fn correction(rest: Words<'_>, span: Span) -> Result<Correction, SyntaxError> {
    let help = "a correction is `correct cash Ann +50` (money from the bank; negative to the bank)";
    match rest {
        [_, kind, who, amount] if word(kind) == "cash" => {
            let text = word(amount);
            let value = text
                .strip_prefix('+')
                .unwrap_or(text)
                .parse::<i64>()
                .map_err(|_| {
                    SyntaxError::new(
                        "notation::bad_number",
                        amount.1,
                        "expected a signed amount",
                        found(amount),
                        help,
                    )
                })?;
            Ok(Correction {
                kind: CorrectionKind::Cash {
                    who: Name {
                        text: word(who).to_string(),
                        span: who.1,
                    },
                    amount: value,
                },
                span,
            })
        }
        [_, kind, ..] if word(kind) != "cash" => Err(SyntaxError::new(
            "notation::unknown_keyword",
            kind.1,
            "expected a correction kind",
            found(kind),
            help,
        )),
        _ => Err(SyntaxError::new(
            "notation::expected",
            span,
            "expected `correct cash NAME AMOUNT`",
            "incomplete correction",
            help,
        )),
    }
}

fn percent(s: &str) -> Option<u8> {
    s.strip_suffix('%')?.parse().ok().filter(|p| *p <= 100)
}

fn int(t: &(Tok, Span), what: &str, help: &str) -> Result<i64, SyntaxError> {
    word(t).parse::<i64>().map_err(|_| {
        SyntaxError::new(
            "notation::bad_number",
            t.1,
            format!("expected {what}"),
            found(t),
            help,
        )
    })
}

fn hex(t: &(Tok, Span), help: &str) -> Result<HexId, SyntaxError> {
    word(t).parse::<HexId>().map_err(|_| {
        SyntaxError::new(
            "notation::bad_hex",
            t.1,
            "expected a hex coordinate",
            found(t),
            help,
        )
    })
}

fn expect_end(rest: Words<'_>, n: usize, help: &str) -> Result<(), SyntaxError> {
    match rest.get(n) {
        None => Ok(()),
        Some(t) => Err(SyntaxError::new(
            "notation::trailing",
            Span::new(t.1.offset, rest[rest.len() - 1].1.end() - t.1.offset),
            "expected the end of the move (`,` or a new line)",
            format!("unexpected `{}`", word(t)),
            help,
        )),
    }
}

/// The one word after the keyword of a `keyword ARG` action (`assign C13`, `discard 3`).
fn sole_argument<'w>(rest: Words<'w>, what: &str, help: &str) -> Result<&'w str, SyntaxError> {
    let arg = rest.get(1).ok_or_else(|| missing(rest, what, help))?;
    expect_end(rest, 2, help)?;
    Ok(word(arg))
}

fn missing(rest: Words<'_>, what: &str, help: &str) -> SyntaxError {
    let last = rest[rest.len() - 1].1;
    SyntaxError::new(
        "notation::expected",
        Span::new(last.end(), 0),
        format!("expected {what}"),
        "the move ends here",
        help,
    )
}

const KEYWORDS: &[&str] = &[
    "pass", "bid", "par", "buy", "sell", "lay", "tok", "run", "pay", "withhold", "train",
    "discard", "bankrupt", "program", "assign", "merge", "vote",
];

fn looks_like_tile(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_digit())
}

/// `action := pass | bid | par | buy | sell | lay | token | run | dividend | train | discard
///           | 'bankrupt' | program`
fn action(rest: Words<'_>) -> Result<RawAction, SyntaxError> {
    let head = word(&rest[0]);
    match head {
        "pass" | "p" => {
            expect_end(rest, 1, "`pass` stands alone")?;
            Ok(RawAction::Pass)
        }
        "pay" | "payout" => {
            expect_end(rest, 1, "`pay` stands alone")?;
            Ok(RawAction::Payout)
        }
        "withhold" | "wh" => {
            expect_end(rest, 1, "`withhold` stands alone")?;
            Ok(RawAction::Withhold)
        }
        "bankrupt" => {
            expect_end(rest, 1, "`bankrupt` stands alone")?;
            Ok(RawAction::Bankrupt)
        }
        "bid" => {
            let help = "a bid is `bid PRIVATE PRICE`, e.g. `bid CFL 45`";
            let target = rest
                .get(1)
                .ok_or_else(|| missing(rest, "a private company", help))?;
            let price = rest.get(2).ok_or_else(|| missing(rest, "a price", help))?;
            let price = int(price, "a price", help)?;
            expect_end(rest, 3, help)?;
            Ok(RawAction::Bid {
                target: word(target).to_string(),
                price,
            })
        }
        "par" => {
            let help = "a par is `par CORP PRICE`, e.g. `par Nord 82` (or `par Nord 82@2.6`)";
            let corp = rest
                .get(1)
                .ok_or_else(|| missing(rest, "a corporation", help))?;
            let p = rest
                .get(2)
                .ok_or_else(|| missing(rest, "a par price", help))?;
            let text = word(p);
            let (price, cell) = match text.split_once('@') {
                Some((price, cell)) => {
                    let cell = cell
                        .split_once('.')
                        .and_then(|(r, c)| Some((r.parse::<u8>().ok()?, c.parse::<u8>().ok()?)));
                    (price, cell.map(Some))
                }
                None => (text, Some(None)),
            };
            let bad = || {
                SyntaxError::new(
                    "notation::bad_number",
                    p.1,
                    "expected a par price (and optionally `@row.column`)",
                    found(p),
                    help,
                )
            };
            let price: i64 = price.parse().map_err(|_| bad())?;
            let cell = cell.ok_or_else(bad)?;
            expect_end(rest, 3, help)?;
            Ok(RawAction::Par {
                corp: word(corp).to_string(),
                price,
                cell,
            })
        }
        "buy" | "sell" => {
            let buy = head == "buy";
            let help = if buy {
                "a purchase is `buy Nord`, `buy 2 Nord pool`, `buy Nord_3 10%`, or a private: `buy CFL 40`"
            } else {
                "a sale is `sell Nord`, `sell 3 Nord`, or certificates: `sell NBDS_2 NBDS_0 50%`"
            };
            let mut count = None;
            let mut what = Vec::new();
            let mut pool = false;
            let mut pct = None;
            let mut price = None;
            for (k, t) in rest.iter().enumerate().skip(1) {
                let w = word(t);
                if k == 1 && w.bytes().all(|b| b.is_ascii_digit()) && rest.len() > 2 {
                    count = Some(w.parse::<u8>().map_err(|_| {
                        SyntaxError::new(
                            "notation::bad_number",
                            t.1,
                            "expected a certificate count",
                            found(t),
                            help,
                        )
                    })?);
                } else if let Some(p) = percent(w) {
                    pct = Some(p);
                } else if w == "pool" && buy {
                    pool = true;
                } else if let Ok(n) = w.parse::<i64>() {
                    if !buy || price.is_some() {
                        return Err(SyntaxError::new(
                            "notation::unexpected",
                            t.1,
                            "expected a corporation, a certificate or a percentage",
                            found(t),
                            help,
                        ));
                    }
                    price = Some(n);
                } else if w.starts_with(|c: char| c.is_ascii_alphabetic()) {
                    what.push(w.to_string());
                } else {
                    return Err(SyntaxError::new(
                        "notation::unexpected",
                        t.1,
                        "expected a corporation, a certificate or a percentage",
                        found(t),
                        help,
                    ));
                }
            }
            if what.is_empty() {
                return Err(missing(rest, "a corporation or certificate", help));
            }
            Ok(if buy {
                RawAction::Buy {
                    count,
                    what,
                    pool,
                    percent: pct,
                    price,
                }
            } else {
                RawAction::Sell {
                    count,
                    what,
                    percent: pct,
                }
            })
        }
        "lay" => lay(&rest[1..], rest),
        _ if looks_like_tile(head)
            && rest.len() >= 2
            && word(&rest[1]).parse::<HexId>().is_ok() =>
        {
            lay(rest, rest)
        }
        "tok" => {
            let help = "a token is `tok E11`, `tok E11/2` (second city of the hex), with optional slot and cost: `tok E11 s0 40`";
            let at = rest.get(1).ok_or_else(|| missing(rest, "a hex", help))?;
            let text = word(at);
            let at_v = if text.matches('-').count() >= 2 {
                TokenAt::City(text.to_string())
            } else {
                let (h, n) = match text.split_once('/') {
                    Some((h, n)) => (
                        h,
                        Some(n.parse::<u8>().ok().filter(|n| *n >= 1).ok_or_else(|| {
                            SyntaxError::new(
                                "notation::bad_number",
                                at.1,
                                "expected a city number from 1 after `/`",
                                found(at),
                                help,
                            )
                        })?),
                    ),
                    None => (text, None),
                };
                let hex = h.parse::<HexId>().map_err(|_| {
                    SyntaxError::new(
                        "notation::bad_hex",
                        at.1,
                        "expected a hex coordinate",
                        found(at),
                        help,
                    )
                })?;
                TokenAt::Hex(hex, n)
            };
            let mut slot = None;
            let mut cost = None;
            for t in &rest[2..] {
                let w = word(t);
                if let Some(s) = w.strip_prefix('s').and_then(|s| s.parse::<u8>().ok()) {
                    slot = Some(s);
                } else if let (Ok(c), None) = (w.parse::<i64>(), cost) {
                    cost = Some(c);
                } else {
                    return Err(SyntaxError::new(
                        "notation::unexpected",
                        t.1,
                        "expected a slot (`s0`) or a cost",
                        found(t),
                        help,
                    ));
                }
            }
            Ok(RawAction::Token {
                at: at_v,
                slot,
                cost,
            })
        }
        "run" => {
            let help =
                "a run is `run TRAIN:HEX-HEX…` per train, e.g. `run 2:H6-H4=50 3:I3-I5-H4+H4-H6`";
            // `run` alone declares that no train runs (18xx.games `routes: []`).
            let routes = rest[1..]
                .iter()
                .map(|t| route(t, help))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(RawAction::Run { routes })
        }
        "train" => {
            let help = "a train purchase is `train 3`, `train 3 pool`, `train 3-1 120 from Nord`, `train D x 4 800`";
            let t = rest.get(1).ok_or_else(|| missing(rest, "a train", help))?;
            let mut price = None;
            let mut from = Source::Ipo;
            let mut exchange = None;
            let mut k = 2;
            while k < rest.len() {
                let w = word(&rest[k]);
                match w {
                    "pool" => from = Source::Pool,
                    "from" | "x" => {
                        let arg = rest.get(k + 1).ok_or_else(|| {
                            missing(
                                rest,
                                if w == "x" {
                                    "the train traded in"
                                } else {
                                    "a corporation"
                                },
                                help,
                            )
                        })?;
                        if w == "x" {
                            exchange = Some(word(arg).to_string());
                        } else {
                            from = Source::Corp(word(arg).to_string());
                        }
                        k += 1;
                    }
                    _ => match w.parse::<i64>() {
                        Ok(n) if price.is_none() => price = Some(n),
                        _ => {
                            return Err(SyntaxError::new(
                                "notation::unexpected",
                                rest[k].1,
                                "expected a price, `pool`, `from CORP` or `x TRAIN`",
                                found(&rest[k]),
                                help,
                            ))
                        }
                    },
                }
                k += 1;
            }
            Ok(RawAction::Train {
                train: word(t).to_string(),
                price,
                from,
                exchange,
            })
        }
        "assign" => {
            let help = "an assignment is `assign C13` (the private's marker on a hex)";
            Ok(RawAction::Assign {
                hex: sole_argument(rest, "a hex", help)?.to_string(),
            })
        }
        "merge" => {
            let help = "a merger move is `merge DDR` (a minor to merge, or the major it becomes)";
            Ok(RawAction::Merge {
                corp: sole_argument(rest, "a corporation", help)?.to_string(),
            })
        }
        "vote" => {
            let help = "a vote is `vote for` or `vote against`";
            let in_favour = match sole_argument(rest, "for or against", help)? {
                "for" => true,
                "against" => false,
                _ => return Err(missing(rest, "for or against", help)),
            };
            Ok(RawAction::Vote { in_favour })
        }
        "discard" => {
            let help = "a discard is `discard 3` or `discard 3-2`";
            Ok(RawAction::Discard {
                train: sole_argument(rest, "a train", help)?.to_string(),
            })
        }
        "program" => {
            let help = "a programmed action is `program share_pass` or `program buy_shares corporation=GCL`";
            let t = rest
                .get(1)
                .ok_or_else(|| missing(rest, "a program kind", help))?;
            let mut args = Vec::new();
            let mut k = 2;
            while k < rest.len() {
                let a = &rest[k];
                k += 1;
                match word(a).split_once('=') {
                    Some((key, "")) if matches!(rest.get(k), Some((Tok::Quoted(..), _))) => {
                        args.push((key.to_string(), format!("\"{}\"", word(&rest[k]))));
                        k += 1;
                    }
                    Some((key, v)) if !key.is_empty() => {
                        args.push((key.to_string(), v.to_string()))
                    }
                    _ => {
                        return Err(SyntaxError::new(
                            "notation::unexpected",
                            a.1,
                            "expected a setting `key=value`",
                            found(a),
                            help,
                        ))
                    }
                }
            }
            Ok(RawAction::Program {
                kind: word(t).to_string(),
                args,
            })
        }
        _ => {
            let suggestion = KEYWORDS
                .iter()
                .min_by_key(|k| distance(k, head))
                .filter(|k| distance(k, head) <= 2);
            let help = match suggestion {
                Some(k) => format!("did you mean `{k}`? actions: {}", KEYWORDS.join(", ")),
                None => format!(
                    "a move starts with an action ({}) or a tile lay such as `57 E7 r2`",
                    KEYWORDS.join(", ")
                ),
            };
            Err(SyntaxError::new(
                "notation::unknown_keyword",
                rest[0].1,
                "expected an action",
                format!("unknown action `{head}`"),
                help,
            ))
        }
    }
}

/// `lay := 'lay'? TILE HEX orientation`
fn lay(args: Words<'_>, all: Words<'_>) -> Result<RawAction, SyntaxError> {
    let help = "a tile lay is `TILE HEX ROTATION`, e.g. `57 E7 r2` or with exits `57 E7 W-E`";
    let tile = args.first().ok_or_else(|| missing(all, "a tile", help))?;
    let h = args.get(1).ok_or_else(|| missing(all, "a hex", help))?;
    let hex = hex(h, help)?;
    let o = args
        .get(2)
        .ok_or_else(|| missing(all, "a rotation (`r0`…`r5`) or exits", help))?;
    let text = word(o);
    let orientation = if let Some(r) = text.strip_prefix('r').and_then(|r| r.parse::<u8>().ok()) {
        if r > 5 {
            return Err(SyntaxError::new(
                "notation::bad_rotation",
                o.1,
                "expected a rotation from r0 to r5",
                found(o),
                help,
            ));
        }
        Orientation::Rotation(r)
    } else {
        let sides: Option<Vec<Side>> = text.split('-').map(Side::from_letters).collect();
        match sides {
            Some(s) if !s.is_empty() => Orientation::Sides(s),
            _ => {
                return Err(SyntaxError::new(
                    "notation::bad_rotation",
                    o.1,
                    "expected a rotation (`r0`…`r5`) or exits as compass sides (`NE-SW`)",
                    found(o),
                    help,
                ))
            }
        }
    };
    expect_end(args, 3, help)?;
    Ok(RawAction::Lay {
        tile: word(tile).to_string(),
        hex,
        orientation,
    })
}

/// `route := TRAIN ':' chain ('+' chain)* ('=' INT)? ('@' stop ('+' stop)*)?`
fn route(t: &(Tok, Span), help: &str) -> Result<RouteText, SyntaxError> {
    let text = word(t);
    let bad = |what: &str| {
        SyntaxError::new(
            "notation::bad_route",
            t.1,
            format!("expected {what}"),
            found(t),
            help,
        )
    };
    let (train, rest) = text
        .split_once(':')
        .ok_or_else(|| bad("`TRAIN:` before the route"))?;
    if train.is_empty() {
        return Err(bad("a train before `:`"));
    }
    let (rest, nodes) = match rest.split_once('@') {
        Some((r, n)) => (r, Some(n)),
        None => (rest, None),
    };
    let (path, revenue) = match rest.split_once('=') {
        Some((p, r)) => (
            p,
            Some(r.parse::<i64>().map_err(|_| bad("a revenue after `=`"))?),
        ),
        None => (rest, None),
    };
    let connections = path
        .split('+')
        .map(|chain| {
            chain
                .split('-')
                .map(|h| h.parse::<HexId>().ok())
                .collect::<Option<Vec<_>>>()
                .filter(|c| !c.is_empty())
        })
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| bad("hexes joined by `-`, chains joined by `+`"))?;
    let nodes = match nodes {
        None => Vec::new(),
        Some(n) => n
            .split('+')
            .map(|s| {
                let (h, p) = s.split_once('.')?;
                Some((h.parse::<HexId>().ok()?, p.parse::<u8>().ok()?))
            })
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| bad("stops as `HEX.part` joined by `+` after `@`"))?,
    };
    Ok(RouteText {
        train: train.to_string(),
        connections,
        revenue,
        nodes,
    })
}

fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}
