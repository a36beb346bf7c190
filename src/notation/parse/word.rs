//! Productions inside one word (nom over the word's text): orientations, routes, par cells,
//! token places, percentages. Numbers are read by the standard `FromStr` of their type, so
//! `+5` is 5 wherever a number is.

use std::str::FromStr;

use nom::branch::alt;
use nom::bytes::complete::{tag, take_till, take_while};
use nom::character::complete::char;
use nom::combinator::{all_consuming, map_opt, map_res, opt, rest, verify};
use nom::multi::separated_list1;
use nom::sequence::{preceded, separated_pair, terminated};
use nom::{IResult, Parser};

use super::error::Error;
use crate::ids::HexId;
use crate::notation::ast::{Annotation, Orientation, RouteText, Side, Stop, TokenAt};

type PResult<'a, O> = IResult<&'a str, O, Error>;

/// A `FromStr` value up to (not including) the first of `stops`.
fn number_until<'a, T: FromStr>(
    stops: &'static [char],
) -> impl Parser<&'a str, Output = T, Error = Error> {
    map_res(take_till(move |c| stops.contains(&c)), str::parse::<T>)
}

/// The rest of the word as a `FromStr` value.
fn number<T: FromStr>(i: &str) -> PResult<'_, T> {
    map_res(rest, str::parse::<T>).parse(i)
}

/// Reads a whole word with `p`.
fn whole<'a, O>(p: impl Parser<&'a str, Output = O, Error = Error>, text: &'a str) -> Option<O> {
    all_consuming(p).parse(text).ok().map(|(_, o)| o)
}

/// `INT , "%"`, at most 100.
pub(super) fn percent(text: &str) -> Option<u8> {
    whole(
        verify(terminated(number_until::<u8>(&['%']), char('%')), |p| {
            *p <= 100
        }),
        text,
    )
}

/// `SIGNED_INT`: `+50`, `-20`, `50`.
pub(super) fn signed_amount(text: &str) -> Option<i64> {
    whole(preceded(opt(char('+')), number::<i64>), text)
}

/// `INT , "." , INT`: set and round of an operating or merger round (`3.1`).
pub(super) fn set_round(text: &str) -> Option<(u32, u32)> {
    whole(
        separated_pair(number_until(&['.']), char('.'), number),
        text,
    )
}

/// `INT , [ "@" , INT , "." , INT ]`: a par price, optionally with its market cell.
pub(super) fn par_price(text: &str) -> Option<(i64, Option<(u8, u8)>)> {
    whole(
        (
            number_until::<i64>(&['@']),
            opt(preceded(
                char('@'),
                separated_pair(number_until::<u8>(&['.']), char('.'), number::<u8>),
            )),
        ),
        text,
    )
}

/// Why an orientation does not read.
pub(super) enum BadOrientation {
    /// `r6` and above.
    RotationTooLarge,
    /// Neither a rotation nor compass sides.
    Unreadable,
}

/// `orientation = "r" , DIGIT0-5 | SIDE , { "-" , SIDE }`
pub(super) fn orientation(text: &str) -> Result<Orientation, BadOrientation> {
    let rotation = preceded(alt((char('r'), char('R'))), number::<u8>);
    let side = map_opt(take_till(|c| c == '-'), |s: &str| {
        Side::from_letters(&s.to_ascii_uppercase())
    });
    let sides = separated_list1(char('-'), side);
    match whole(
        alt((
            rotation.map(Orientation::Rotation),
            sides.map(Orientation::Sides),
        )),
        text,
    ) {
        Some(Orientation::Rotation(r)) if r > 5 => Err(BadOrientation::RotationTooLarge),
        Some(o) => Ok(o),
        None => Err(BadOrientation::Unreadable),
    }
}

/// `HEX`, the letter in either case as a person types it (`i5` is I5).
pub(super) fn hex(text: &str) -> Option<HexId> {
    let mut chars = text.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    format!("{letter}{}", chars.as_str()).parse().ok()
}

/// `HEX` up to one of `stops`.
fn hex_until<'a>(stops: &'static [char]) -> impl Parser<&'a str, Output = HexId, Error = Error> {
    map_opt(take_till(move |c| stops.contains(&c)), hex)
}

/// `chain = HEX , { "-" , HEX }`
fn chain(i: &str) -> PResult<'_, Vec<HexId>> {
    separated_list1(char('-'), hex_until(&['-', '+'])).parse(i)
}

/// `stop = HEX , "." , INT`
fn stop(i: &str) -> PResult<'_, Stop> {
    separated_pair(hex_until(&['.']), char('.'), number_until::<u8>(&['+'])).parse(i)
}

/// `route = TRAIN , ":" , ( chain , { "+" , chain } | walk ) , [ "=" , INT ] ,
/// [ "@" , stop , { "+" , stop } ]`; `walk = HEX , "~" , HEX , { "~" , HEX }`
///
/// The word is first cut at its delimiters, then each part is read, so a route with several
/// faults reports the first of: train, revenue, chains, stops. The error is what was expected.
pub(super) fn route(text: &str) -> Result<RouteText, &'static str> {
    let mut train = terminated(take_till(|c| c == ':'), char(':'));
    let (after, train) = train
        .parse(text)
        .map_err(|_: nom::Err<Error>| "`TRAIN:` before the route")?;
    if train.is_empty() {
        return Err("a train before `:`");
    }
    let parts = (
        take_till(|c| c == '=' || c == '@'),
        opt(preceded(char('='), take_till(|c| c == '@'))),
        opt(preceded(char('@'), rest)),
    );
    let (path, revenue, nodes) = whole(parts, after).ok_or("`TRAIN:` before the route")?;
    let revenue = match revenue {
        Some(r) => Some(whole(number::<i64>, r).ok_or("a revenue after `=`")?),
        None => None,
    };
    let (connections, walk) = if path.contains('~') {
        let walk = whole(separated_list1(char('~'), hex_until(&['~'])), path)
            .filter(|w| w.len() >= 2)
            .ok_or("a walk of hexes joined by `~`")?;
        (Vec::new(), walk)
    } else {
        let connections = whole(separated_list1(char('+'), chain), path)
            .ok_or("hexes joined by `-`, chains joined by `+`")?;
        (connections, Vec::new())
    };
    let nodes = match nodes {
        Some(n) => whole(separated_list1(char('+'), stop), n)
            .ok_or("stops as `HEX.part` joined by `+` after `@`")?,
        None => Vec::new(),
    };
    Ok(RouteText {
        train: train.to_string(),
        connections,
        walk,
        revenue,
        nodes,
    })
}

/// Why a token place does not read.
pub(super) enum BadTokenAt {
    /// `E11/0`: cities count from 1.
    CityNumber,
    /// Not a hex coordinate.
    Hex,
}

/// `HEX , [ "/" , INT ] | CITY` (a city id has two `-`: `57-2-0`).
pub(super) fn token_at(text: &str) -> Result<TokenAt, BadTokenAt> {
    if text.matches('-').count() >= 2 {
        return Ok(TokenAt::City(text.to_string()));
    }
    let (hex, city) = whole(
        (
            take_till(|c| c == '/'),
            opt(preceded(char('/'), take_while(|_| true))),
        ),
        text,
    )
    .ok_or(BadTokenAt::Hex)?;
    let city = match city {
        Some(n) => Some(whole(verify(number::<u8>, |n| *n >= 1), n).ok_or(BadTokenAt::CityNumber)?),
        None => None,
    };
    let hex = self::hex(hex).ok_or(BadTokenAt::Hex)?;
    Ok(TokenAt::Hex(hex, city))
}

/// `s , INT`: a token slot.
pub(super) fn slot(text: &str) -> Option<u8> {
    whole(preceded(char('s'), number::<u8>), text)
}

/// `annotation = "!" | "?" | "!!" | "??" | "!?" | "?!"`
pub(super) fn annotation(glyph: &str) -> Option<Annotation> {
    whole(
        alt((
            tag("!!").map(|_| Annotation::Brilliant),
            tag("??").map(|_| Annotation::Blunder),
            tag("!?").map(|_| Annotation::Interesting),
            tag("?!").map(|_| Annotation::Dubious),
            tag("!").map(|_| Annotation::Good),
            tag("?").map(|_| Annotation::Mistake),
        )),
        glyph,
    )
}

/// `KEY , "=" , WORD`: a programmed action's setting (the value may be empty, a quoted name
/// follows then).
pub(super) fn setting(text: &str) -> Option<(&str, &str)> {
    whole(
        separated_pair(
            verify(take_till(|c| c == '='), |k: &str| !k.is_empty()),
            char('='),
            rest,
        ),
        text,
    )
}
