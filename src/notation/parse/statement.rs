//! `statement = heading | check | correction | move`, read from the words of one statement.

use nom::branch::alt;
use nom::combinator::{all_consuming, opt, verify};
use nom::Parser;

use super::action::{self, action};
use super::error::{fail, At, Problem};
use super::word;
use super::words::{any_word, keyword, Quoting, WResult, Word, Words};
use crate::log::Span;
use crate::notation::ast::*;

/// What a statement is, or the actor of the next one (`Ann:` alone, the move on the next line).
pub(super) enum Statement {
    Element(Element),
    Actor(Name),
}

/// `statement = heading | check | correction | move`
///
/// `pending` is an actor written alone before this statement. A problem comes with where the
/// move ends (for [`At::EndOfMove`]): an annotation after the action is not part of it.
pub(super) fn statement(
    words: &mut [Word<'_>],
    pending: Option<Name>,
) -> Result<Statement, (Box<Problem>, usize)> {
    let span = Words(words).span().unwrap_or_default();
    let whole = Words(words);
    // `&` (bare) marks an automatic move.
    let ampersand = verify(any_word, |w: &Word<'_>| {
        w.quoting == Quoting::Bare && w.text == "&"
    });
    let (i, auto) = opt(ampersand)
        .parse(whole)
        .map_err(|e| (committed(e), span.end()))?;
    let auto = auto.is_some();
    let (i, written) = opt(actor)
        .parse(i)
        .map_err(|e| (committed(e), span.end()))?;
    let actor = written.or(pending);
    if i.is_empty() {
        if auto {
            return Err((
                Box::new(Problem::new(
                    "notation::expected",
                    At::Span(span),
                    "expected a move after `&`",
                    "nothing to mark as automatic",
                    "an automatic move is `& Ann: pass`",
                )),
                span.end(),
            ));
        }
        if let Some(actor) = actor {
            return Ok(Statement::Actor(actor));
        }
    }
    // Headings, checks and corrections stand alone.
    if actor.is_none() && !auto {
        match alt((
            private_heading(span),
            round_heading(span),
            check(span),
            correction(span),
        ))
        .parse(i)
        {
            Ok((_, element)) => return Ok(Statement::Element(element)),
            Err(nom::Err::Error(_)) => {}
            Err(e) => return Err((committed(e), span.end())),
        }
    }
    let start = words.len() - i.0.len();
    let action_words = &mut words[start..];
    let (len, annotation) = annotation(action_words).map_err(|p| (p, span.end()))?;
    let action_words = Words(&action_words[..len]);
    let Some(action_span) = action_words.span() else {
        return Err((
            Box::new(Problem::new(
                "notation::expected",
                At::Span(span),
                "expected an action before the annotation",
                "annotation without a move",
                "an annotation follows its move: `Ann: buy Nord!`",
            )),
            span.end(),
        ));
    };
    let (rest, action) = action(action_words).map_err(|e| (committed(e), action_span.end()))?;
    debug_assert!(
        rest.is_empty(),
        "every action form reads to the end of the move"
    );
    Ok(Statement::Element(Element::Move(Move {
        auto,
        actor,
        action,
        annotation,
        span,
        action_span,
    })))
}

/// The problem of a committed production (productions here always commit with one).
fn committed(e: nom::Err<super::error::Error>) -> Box<Problem> {
    match e {
        nom::Err::Failure(super::error::Error(Some(p)))
        | nom::Err::Error(super::error::Error(Some(p))) => p,
        _ => Box::new(Problem::new(
            "notation::expected",
            At::EndOfMove,
            "expected a statement",
            "not a statement",
            "a statement is a heading (`SR 1`), a check (`= Ann 315`), a correction or a move",
        )),
    }
}

/// `actor = WORD , ":" | '"' , text , '"' , ":"`
fn actor(i: Words<'_>) -> WResult<'_, Name> {
    let (rest, w) = any_word(i)?;
    let name = match w.quoting {
        Quoting::QuotedActor => w.text,
        Quoting::Bare
            if w.text.len() > 1 && w.text.ends_with(':') && w.text.matches(':').count() == 1 =>
        {
            &w.text[..w.text.len() - 1]
        }
        Quoting::Quoted => {
            return Err(fail(Problem::new(
                "notation::expected",
                At::Span(w.span),
                "expected `:` after a quoted actor",
                "quoted name without `:`",
                "a quoted actor is followed by a colon: `\"Player 1\": pass`",
            )))
        }
        Quoting::Bare => return Err(nom::Err::Error(super::error::Error(None))),
    };
    Ok((
        rest,
        Name {
            text: name.to_string(),
            span: w.span,
        },
    ))
}

/// `annotation`, glued to the last word (`buy Nord!?`) or written alone after it: takes it off
/// the move and gives the number of words left.
fn annotation(words: &mut [Word<'_>]) -> Result<(usize, Option<Annotation>), Box<Problem>> {
    let Some(last) = words.last_mut() else {
        return Ok((0, None));
    };
    if last.quoting != Quoting::Bare {
        return Ok((words.len(), None));
    }
    let stem = last.text.trim_end_matches(['!', '?']);
    if stem.len() == last.text.len() {
        return Ok((words.len(), None));
    }
    let glyph = &last.text[stem.len()..];
    let Some(a) = word::annotation(glyph) else {
        return Err(Box::new(Problem::new(
            "notation::bad_annotation",
            At::Span(Span::new(last.span.offset + stem.len(), glyph.len())),
            format!("expected an annotation, found `{glyph}`"),
            "not an annotation",
            "annotations are `!`, `?`, `!!`, `??`, `!?`, `?!`, e.g. `Ann: buy Nord!?`",
        )));
    };
    if stem.is_empty() {
        return Ok((words.len() - 1, Some(a)));
    }
    last.text = stem;
    last.span.len = stem.len();
    Ok((words.len(), Some(a)))
}

/// `"PR"`, alone.
fn private_heading<'a>(span: Span) -> impl Fn(Words<'a>) -> WResult<'a, Element> {
    move |i| {
        let (i, _) = all_consuming(keyword("PR")).parse(i)?;
        Ok((
            i,
            Element::Heading(Heading {
                round: RoundName::Private,
                span,
            }),
        ))
    }
}

/// `"SR" , INT | ( "OR" | "MR" ) , INT , "." , INT`
fn round_heading<'a>(span: Span) -> impl Fn(Words<'a>) -> WResult<'a, Element> {
    move |i| {
        const HELP: &str = "round headings are `PR`, `SR 2`, `OR 3.1` or `MR 5.2`";
        let (i, kind) = alt((keyword("SR"), keyword("OR"), keyword("MR"))).parse(i)?;
        let kind = kind.text;
        let bad = |at: Span, found: String| {
            fail(Problem::new(
                "notation::bad_heading",
                At::Span(at),
                if kind == "SR" {
                    "expected a stock round number after `SR`".to_string()
                } else {
                    format!("expected `set.round` after `{kind}`, e.g. `{kind} 3.1`")
                },
                format!("found {found}"),
                HELP,
            ))
        };
        let (i, number) = any_word(i).map_err(|_| bad(span, "nothing".to_string()))?;
        if let Some(extra) = i.first() {
            return Err(bad(extra.span, format!("`{}`", extra.text)));
        }
        let round = match kind {
            "SR" => number.text.parse().ok().map(RoundName::Stock),
            "MR" => word::set_round(number.text).map(|(a, b)| RoundName::Merger(a, b)),
            _ => word::set_round(number.text).map(|(a, b)| RoundName::Operating(a, b)),
        };
        let round = round.ok_or_else(|| bad(number.span, format!("`{}`", number.text)))?;
        Ok((i, Element::Heading(Heading { round, span })))
    }
}

const CHECK_HELP: &str = "a check line is `= Ann 315 Bob 120` (cash) or `= Ann Nord 60%` (holding)";

/// `check = "=" , entry , { entry }`
fn check<'a>(span: Span) -> impl Fn(Words<'a>) -> WResult<'a, Element> {
    move |i| {
        let (mut i, _) = keyword("=").parse(i)?;
        let mut entries = Vec::new();
        while !i.is_empty() {
            let (rest, e) = entry(i)?;
            entries.push(e);
            i = rest;
        }
        if entries.is_empty() {
            return Err(fail(Problem::new(
                "notation::expected",
                At::Span(span),
                "expected at least one entry after `=`",
                "empty check",
                CHECK_HELP,
            )));
        }
        Ok((i, Element::Check(Check { entries, span })))
    }
}

/// `entry = name , ( INT | CORP , INT , "%" )`
fn entry(i: Words<'_>) -> WResult<'_, CheckEntry> {
    let (i, who) = any_word(i)?;
    let name = Name {
        text: who.text.to_string(),
        span: who.span,
    };
    let Ok((i, next)) = any_word(i) else {
        return Err(fail(Problem::new(
            "notation::expected",
            At::Span(who.span),
            "expected an amount after the name",
            "name without a value",
            CHECK_HELP,
        )));
    };
    if let Ok(n) = next.text.parse::<i64>() {
        let span = Span::new(who.span.offset, next.span.end() - who.span.offset);
        return Ok((
            i,
            CheckEntry {
                who: name,
                what: CheckValue::Cash(n),
                span,
            },
        ));
    }
    match any_word(i) {
        Ok((rest, pct)) => match word::percent(pct.text) {
            Some(p) => Ok((
                rest,
                CheckEntry {
                    who: name,
                    what: CheckValue::Holding(next.text.to_string(), p),
                    span: Span::new(who.span.offset, pct.span.end() - who.span.offset),
                },
            )),
            None => Err(bad_entry(&pct)),
        },
        Err(_) => Err(bad_entry(&next)),
    }
}

fn bad_entry(at: &Word<'_>) -> nom::Err<super::error::Error> {
    fail(Problem::new(
        "notation::expected",
        At::Span(at.span),
        "expected an amount or a corporation and a percentage",
        at.found(),
        CHECK_HELP,
    ))
}

const CORRECTION_HELP: &str = "a correction is `correct cash Ann +50` (money from the bank; negative to the bank), `correct tile 57 E7 r2` (a tile left in place) or `correct share Nord_3 Ann` (a certificate moved to a player, `pool` or `ipo`)";

/// `correction = "correct" , ( "cash" , name , SIGNED_INT | "tile" , TILE , HEX , orientation
///              | "share" , SHARE , name )`
fn correction<'a>(span: Span) -> impl Fn(Words<'a>) -> WResult<'a, Element> {
    move |i| {
        let (i, _) = keyword("correct").parse(i)?;
        let incomplete = |form: &'static str| {
            fail(Problem::new(
                "notation::expected",
                At::Span(span),
                format!("expected `{form}`"),
                "incomplete correction",
                CORRECTION_HELP,
            ))
        };
        let kind = match i.0 {
            [kind, rest @ ..] if kind.text == "cash" => match rest {
                [who, amount] => {
                    let value = word::signed_amount(amount.text).ok_or_else(|| {
                        fail(Problem::new(
                            "notation::bad_number",
                            At::Span(amount.span),
                            "expected a signed amount",
                            amount.found(),
                            CORRECTION_HELP,
                        ))
                    })?;
                    CorrectionKind::Cash {
                        who: name(who),
                        amount: value,
                    }
                }
                _ => return Err(incomplete("correct cash NAME AMOUNT")),
            },
            [kind, ..] if kind.text == "tile" => {
                let (rest, (tile, hex, orientation)) =
                    action::tile_placement(CORRECTION_HELP)(Words(&i.0[1..]))?;
                action::end_of_move(CORRECTION_HELP)(rest)?;
                CorrectionKind::Tile {
                    tile: tile.text.to_string(),
                    hex,
                    orientation,
                }
            }
            [kind, rest @ ..] if kind.text == "share" => match rest {
                [share, to] => CorrectionKind::Share {
                    share: name(share),
                    to: name(to),
                },
                _ => return Err(incomplete("correct share CERTIFICATE HOLDER")),
            },
            [kind, ..] => {
                return Err(fail(Problem::new(
                    "notation::unknown_keyword",
                    At::Span(kind.span),
                    "expected a correction kind (`cash`, `tile` or `share`)",
                    kind.found(),
                    CORRECTION_HELP,
                )))
            }
            [] => return Err(incomplete("correct cash NAME AMOUNT")),
        };
        Ok((Words(&[]), Element::Correction(Correction { kind, span })))
    }
}

fn name(w: &Word<'_>) -> Name {
    Name {
        text: w.text.to_string(),
        span: w.span,
    }
}
