//! `action`: one function per alternative of the production, each committing (nom `cut`
//! semantics: a [`Failure`](nom::Err::Failure)) once its keyword is read, so a problem is
//! reported inside the form the player meant.

use nom::branch::alt;
use nom::combinator::{peek, verify};
use nom::Parser;

use super::error::{fail, At, Problem};
use super::word::{self, BadOrientation, BadTokenAt};
use super::words::{any_word, keyword, required, Quoting, WResult, Word, Words};
use crate::ids::HexId;
use crate::notation::ast::{Orientation, RawAction, Source};

/// The keywords of the action forms, for "did you mean" help.
const KEYWORDS: &[&str] = &[
    "pass", "bid", "par", "buy", "sell", "lay", "tok", "run", "pay", "withhold", "train",
    "discard", "bankrupt", "program", "assign", "merge", "vote", "end",
];

/// `action = "pass" | "bid" … | "program" …` (the whole move, annotation removed).
pub(super) fn action(i: Words<'_>) -> WResult<'_, RawAction> {
    alt((
        pass,
        dividend,
        bankrupt,
        end_game,
        bid,
        par,
        buy,
        sell,
        lay,
        tok,
        run,
        train,
        assign,
        merge,
        vote,
        discard,
        program,
        unknown_action,
    ))
    .parse(i)
}

/// The end of the move: anything left is reported as one trailing span.
pub(super) fn end_of_move(help: &'static str) -> impl Fn(Words<'_>) -> WResult<'_, ()> {
    move |i| match (i.first(), i.span()) {
        (Some(first), Some(span)) => Err(fail(Problem::new(
            "notation::trailing",
            At::Span(span),
            "expected the end of the move (`,` or a new line)",
            format!("unexpected `{}`", first.text),
            help,
        ))),
        _ => Ok((i, ())),
    }
}

/// A word that does not fit where it stands.
fn unfit(
    code: &'static str,
    w: &Word<'_>,
    message: &'static str,
    help: &'static str,
) -> nom::Err<super::error::Error> {
    fail(Problem::new(
        code,
        At::Span(w.span),
        message,
        w.found(),
        help,
    ))
}

/// `"pass" | "p"`
fn pass(i: Words<'_>) -> WResult<'_, RawAction> {
    let (i, _) = alt((keyword("pass"), keyword("p"))).parse(i)?;
    let (i, ()) = end_of_move("`pass` stands alone")(i)?;
    Ok((i, RawAction::Pass))
}

/// `"pay" | "payout" | "withhold" | "wh"`
fn dividend(i: Words<'_>) -> WResult<'_, RawAction> {
    if let Ok((i, _)) = alt((keyword("pay"), keyword("payout"))).parse(i) {
        let (i, ()) = end_of_move("`pay` stands alone")(i)?;
        return Ok((i, RawAction::Payout));
    }
    let (i, _) = alt((keyword("withhold"), keyword("wh"))).parse(i)?;
    let (i, ()) = end_of_move("`withhold` stands alone")(i)?;
    Ok((i, RawAction::Withhold))
}

/// `"bankrupt"`
fn bankrupt(i: Words<'_>) -> WResult<'_, RawAction> {
    let (i, _) = keyword("bankrupt").parse(i)?;
    let (i, ()) = end_of_move("`bankrupt` stands alone")(i)?;
    Ok((i, RawAction::Bankrupt))
}

/// `"bid" , SYM , INT`
fn bid(i: Words<'_>) -> WResult<'_, RawAction> {
    const HELP: &str = "a bid is `bid PRIVATE PRICE`, e.g. `bid CFL 45`";
    let (i, _) = keyword("bid").parse(i)?;
    let (i, (target, price)) = (
        required("a private company", HELP),
        required("a price", HELP),
    )
        .parse(i)?;
    let price = price
        .text
        .parse::<i64>()
        .map_err(|_| unfit("notation::bad_number", &price, "expected a price", HELP))?;
    let (i, ()) = end_of_move(HELP)(i)?;
    Ok((
        i,
        RawAction::Bid {
            target: target.text.to_string(),
            price,
        },
    ))
}

/// `"par" , CORP , INT , [ "@" , INT , "." , INT ]`
fn par(i: Words<'_>) -> WResult<'_, RawAction> {
    const HELP: &str = "a par is `par CORP PRICE`, e.g. `par Nord 82` (or `par Nord 82@2.6`)";
    let (i, _) = keyword("par").parse(i)?;
    let (i, (corp, p)) = (
        required("a corporation", HELP),
        required("a par price", HELP),
    )
        .parse(i)?;
    let (price, cell) = word::par_price(p.text).ok_or_else(|| {
        unfit(
            "notation::bad_number",
            &p,
            "expected a par price (and optionally `@row.column`)",
            HELP,
        )
    })?;
    let (i, ()) = end_of_move(HELP)(i)?;
    Ok((
        i,
        RawAction::Par {
            corp: corp.text.to_string(),
            price,
            cell,
        },
    ))
}

/// One word after `buy`/`sell`: the items may come in any order.
enum TradeItem<'a> {
    Percent(u8),
    Pool,
    Price(i64),
    SharePrice(i64),
    What(&'a str),
}

/// `[ INT ]` first in a trade, when more words follow: the number of certificates.
fn certificate_count(help: &'static str) -> impl Fn(Words<'_>) -> WResult<'_, Option<u8>> {
    move |i| {
        let mut count = verify(any_word, |w: &Word<'_>| {
            w.text.bytes().all(|b| b.is_ascii_digit())
        });
        match count.parse(i) {
            Ok((rest, w)) if !rest.is_empty() => {
                let n = w.text.parse::<u8>().map_err(|_| {
                    unfit(
                        "notation::bad_number",
                        &w,
                        "expected a certificate count",
                        help,
                    )
                })?;
                Ok((rest, Some(n)))
            }
            _ => Ok((i, None)),
        }
    }
}

/// `CORP | SHARE | "pool" | INT , "%" | "@" , INT | INT` (a price: a private bought by a
/// corporation).
fn trade_item(
    buy: bool,
    help: &'static str,
) -> impl Fn(Words<'_>) -> WResult<'_, (Word<'_>, TradeItem<'_>)> {
    move |i| {
        let (rest, w) = any_word(i)?;
        let item = if let Some(p) = word::percent(w.text) {
            TradeItem::Percent(p)
        } else if buy && w.text == "pool" {
            TradeItem::Pool
        } else if let Ok(n) = w.text.parse::<i64>() {
            TradeItem::Price(n)
        } else if let Some(n) = w.text.strip_prefix('@') {
            match n.parse::<i64>() {
                Ok(n) if n >= 0 => TradeItem::SharePrice(n),
                _ => {
                    return Err(unfit(
                        "notation::bad_number",
                        &w,
                        "expected a price per share after `@`",
                        help,
                    ))
                }
            }
        } else if w.text.starts_with(|c: char| c.is_ascii_alphabetic()) {
            TradeItem::What(w.text)
        } else {
            return Err(unfit_trade(&w, help));
        };
        Ok((rest, (w, item)))
    }
}

fn unfit_trade(w: &Word<'_>, help: &'static str) -> nom::Err<super::error::Error> {
    unfit(
        "notation::unexpected",
        w,
        "expected a corporation, a certificate or a percentage",
        help,
    )
}

/// What `buy` and `sell` share.
struct Trade {
    count: Option<u8>,
    what: Vec<String>,
    pool: bool,
    percent: Option<u8>,
    price: Option<i64>,
    share_price: Option<i64>,
}

/// `[ INT ] , ( CORP | SHARE , { SHARE } ) , [ "pool" ] , [ INT , "%" ] , [ "@" , INT ]` after
/// `buy`/`sell`.
fn trade(buy: bool, help: &'static str) -> impl Fn(Words<'_>) -> WResult<'_, Trade> {
    move |i| {
        let (mut i, count) = certificate_count(help)(i)?;
        let mut t = Trade {
            count,
            what: Vec::new(),
            pool: false,
            percent: None,
            price: None,
            share_price: None,
        };
        loop {
            let (rest, (w, item)) = match trade_item(buy, help)(i) {
                Ok(found) => found,
                Err(nom::Err::Error(_)) => break,
                Err(e) => return Err(e),
            };
            match item {
                TradeItem::Percent(p) => t.percent = Some(p),
                TradeItem::Pool => t.pool = true,
                // Only a corporation buying a private names a price, once.
                TradeItem::Price(_) if !buy || t.price.is_some() => {
                    return Err(unfit_trade(&w, help))
                }
                TradeItem::Price(n) => t.price = Some(n),
                TradeItem::SharePrice(_) if t.share_price.is_some() => {
                    return Err(unfit_trade(&w, help))
                }
                TradeItem::SharePrice(n) => t.share_price = Some(n),
                TradeItem::What(s) => t.what.push(s.to_string()),
            }
            i = rest;
        }
        if t.what.is_empty() {
            return Err(fail(Problem::missing("a corporation or certificate", help)));
        }
        Ok((i, t))
    }
}

/// `"buy" , [ INT ] , ( CORP | SHARE , { SHARE } ) , [ "pool" ] , [ INT , "%" ] , [ "@" , INT ]
/// | "buy" , PRIVATE , INT`
fn buy(i: Words<'_>) -> WResult<'_, RawAction> {
    const HELP: &str =
        "a purchase is `buy Nord`, `buy 2 Nord pool`, `buy Nord_3 10%`, `buy Nord pool @90`, or a private: `buy CFL 40`";
    let (i, _) = keyword("buy").parse(i)?;
    let (i, t) = trade(true, HELP)(i)?;
    Ok((
        i,
        RawAction::Buy {
            count: t.count,
            what: t.what,
            pool: t.pool,
            percent: t.percent,
            price: t.price,
            share_price: t.share_price,
        },
    ))
}

/// `"sell" , [ INT ] , ( CORP | SHARE , { SHARE } ) , [ INT , "%" ] , [ "@" , INT ]`
fn sell(i: Words<'_>) -> WResult<'_, RawAction> {
    const HELP: &str =
        "a sale is `sell Nord`, `sell 3 Nord`, `sell Nord @80`, or certificates: `sell NBDS_2 NBDS_0 50%`";
    let (i, _) = keyword("sell").parse(i)?;
    let (i, t) = trade(false, HELP)(i)?;
    Ok((
        i,
        RawAction::Sell {
            count: t.count,
            what: t.what,
            percent: t.percent,
            share_price: t.share_price,
        },
    ))
}

/// `[ "lay" ] , TILE , HEX , orientation` — without `lay`, only when the move starts with a
/// tile (a digit) and a hex.
fn lay(i: Words<'_>) -> WResult<'_, RawAction> {
    if let Ok((i, _)) = keyword("lay").parse(i) {
        return tile_lay(i);
    }
    let tile = verify(any_word, |w: &Word<'_>| {
        w.text.starts_with(|c: char| c.is_ascii_digit())
    });
    let hex = verify(any_word, |w: &Word<'_>| word::hex(w.text).is_some());
    let (_, _) = peek((tile, hex)).parse(i)?;
    tile_lay(i)
}

/// `TILE , HEX , orientation`
fn tile_lay(i: Words<'_>) -> WResult<'_, RawAction> {
    const HELP: &str =
        "a tile lay is `TILE HEX ROTATION`, e.g. `57 E7 r2` or with exits `57 E7 W-E`";
    let (i, (tile, hex, orientation)) = tile_placement(HELP)(i)?;
    let (i, ()) = end_of_move(HELP)(i)?;
    Ok((
        i,
        RawAction::Lay {
            tile: tile.text.to_string(),
            hex,
            orientation,
        },
    ))
}

/// `TILE , HEX , orientation`: a tile lay's words, also those of a tile correction.
pub(super) fn tile_placement(
    help: &'static str,
) -> impl Fn(Words<'_>) -> WResult<'_, (Word<'_>, HexId, Orientation)> {
    move |i| {
        let (i, (tile, h)) = (required("a tile", help), required("a hex", help)).parse(i)?;
        let hex = word::hex(h.text)
            .ok_or_else(|| unfit("notation::bad_hex", &h, "expected a hex coordinate", help))?;
        let (i, o) = required("a rotation (`r0`…`r5`) or exits", help).parse(i)?;
        let orientation = word::orientation(o.text).map_err(|bad| {
            let message = match bad {
                BadOrientation::RotationTooLarge => "expected a rotation from r0 to r5",
                BadOrientation::Unreadable => {
                    "expected a rotation (`r0`…`r5`) or exits as compass sides (`NE-SW`)"
                }
            };
            unfit("notation::bad_rotation", &o, message, help)
        })?;
        Ok((i, (tile, hex, orientation)))
    }
}

/// `"tok" , ( HEX , [ "/" , INT ] | CITY ) , [ "s" , INT ] , [ INT ]`
fn tok(i: Words<'_>) -> WResult<'_, RawAction> {
    const HELP: &str = "a token is `tok E11`, `tok E11/2` (second city of the hex), with optional slot and cost: `tok E11 s0 40`";
    let (i, _) = keyword("tok").parse(i)?;
    let (mut i, place) = required("a hex", HELP).parse(i)?;
    let at = word::token_at(place.text).map_err(|bad| match bad {
        BadTokenAt::CityNumber => unfit(
            "notation::bad_number",
            &place,
            "expected a city number from 1 after `/`",
            HELP,
        ),
        BadTokenAt::Hex => unfit(
            "notation::bad_hex",
            &place,
            "expected a hex coordinate",
            HELP,
        ),
    })?;
    let (mut slot, mut cost) = (None, None);
    while let Ok((rest, w)) = any_word(i) {
        if let Some(s) = word::slot(w.text) {
            slot = Some(s);
        } else if let (Ok(c), None) = (w.text.parse::<i64>(), cost) {
            cost = Some(c);
        } else {
            return Err(unfit(
                "notation::unexpected",
                &w,
                "expected a slot (`s0`) or a cost",
                HELP,
            ));
        }
        i = rest;
    }
    Ok((i, RawAction::Token { at, slot, cost }))
}

/// `"run" , { route }` — `run` alone: no train runs.
fn run(i: Words<'_>) -> WResult<'_, RawAction> {
    const HELP: &str =
        "a run is `run TRAIN:HEX-HEX…` per train, e.g. `run 2:H6-H4=50 3:I3-I5-H4+H4-H6`";
    let (mut i, _) = keyword("run").parse(i)?;
    let mut routes = Vec::new();
    while let Ok((rest, w)) = any_word(i) {
        let route = word::route(w.text).map_err(|what| {
            fail(Problem::new(
                "notation::bad_route",
                At::Span(w.span),
                format!("expected {what}"),
                w.found(),
                HELP,
            ))
        })?;
        routes.push(route);
        i = rest;
    }
    Ok((i, RawAction::Run { routes }))
}

/// `"train" , TRAIN , [ INT ] , [ "pool" | "from" , CORP ] , [ "x" , TRAIN ]` (in any order).
fn train(i: Words<'_>) -> WResult<'_, RawAction> {
    const HELP: &str = "a train purchase is `train 3`, `train 3 pool`, `train 3-1 120 from Nord`, `train D x 4 800`";
    let (i, _) = keyword("train").parse(i)?;
    let (mut i, t) = required("a train", HELP).parse(i)?;
    let mut price = None;
    let mut from = Source::Ipo;
    let mut exchange = None;
    while let Ok((rest, w)) = any_word(i) {
        i = match w.text {
            "pool" => {
                from = Source::Pool;
                rest
            }
            "from" => {
                let (rest, corp) = required("a corporation", HELP).parse(rest)?;
                from = Source::Corp(corp.text.to_string());
                rest
            }
            "x" => {
                let (rest, old) = required("the train traded in", HELP).parse(rest)?;
                exchange = Some(old.text.to_string());
                rest
            }
            text => match text.parse::<i64>() {
                Ok(n) if price.is_none() => {
                    price = Some(n);
                    rest
                }
                _ => {
                    return Err(unfit(
                        "notation::unexpected",
                        &w,
                        "expected a price, `pool`, `from CORP` or `x TRAIN`",
                        HELP,
                    ))
                }
            },
        };
    }
    Ok((
        i,
        RawAction::Train {
            train: t.text.to_string(),
            price,
            from,
            exchange,
        },
    ))
}

/// `KEYWORD , ARG`: the one word after the keyword.
fn sole_argument<'a>(
    k: &'static str,
    what: &'static str,
    help: &'static str,
) -> impl Fn(Words<'a>) -> WResult<'a, Word<'a>> {
    move |i| {
        let (i, _) = keyword(k).parse(i)?;
        let (i, arg) = required(what, help).parse(i)?;
        let (i, ()) = end_of_move(help)(i)?;
        Ok((i, arg))
    }
}

/// `"assign" , HEX`
fn assign(i: Words<'_>) -> WResult<'_, RawAction> {
    let help = "an assignment is `assign C13` (the private's marker on a hex)";
    let (i, hex) = sole_argument("assign", "a hex", help)(i)?;
    Ok((
        i,
        RawAction::Assign {
            hex: hex.text.to_string(),
        },
    ))
}

/// `"merge" , CORP`
fn merge(i: Words<'_>) -> WResult<'_, RawAction> {
    let help = "a merger move is `merge DDR` (a minor to merge, or the major it becomes)";
    let (i, corp) = sole_argument("merge", "a corporation", help)(i)?;
    Ok((
        i,
        RawAction::Merge {
            corp: corp.text.to_string(),
        },
    ))
}

/// `"vote" , ( "for" | "against" )`
fn vote(i: Words<'_>) -> WResult<'_, RawAction> {
    let help = "a vote is `vote for` or `vote against`";
    let (i, choice) = sole_argument("vote", "for or against", help)(i)?;
    let in_favour = match choice.text {
        "for" => true,
        "against" => false,
        _ => return Err(fail(Problem::missing("for or against", help))),
    };
    Ok((i, RawAction::Vote { in_favour }))
}

/// `"end" , "game"`: 18xx.games' End Game.
fn end_game(i: Words<'_>) -> WResult<'_, RawAction> {
    const HELP: &str = "ending the game at once is `end game` (with its actor: `Ann: end game`)";
    let (i, _) = keyword("end").parse(i)?;
    let (i, game) = required("`game`", HELP).parse(i)?;
    if game.text != "game" {
        return Err(unfit(
            "notation::unexpected",
            &game,
            "expected `game` after `end`",
            HELP,
        ));
    }
    let (i, ()) = end_of_move(HELP)(i)?;
    Ok((i, RawAction::EndGame))
}

/// `"discard" , TRAIN`
fn discard(i: Words<'_>) -> WResult<'_, RawAction> {
    let help = "a discard is `discard 3` or `discard 3-2`";
    let (i, t) = sole_argument("discard", "a train", help)(i)?;
    Ok((
        i,
        RawAction::Discard {
            train: t.text.to_string(),
        },
    ))
}

/// `"program" , KIND , { KEY , "=" , ( WORD | '"' , text , '"' ) }`
fn program(i: Words<'_>) -> WResult<'_, RawAction> {
    const HELP: &str =
        "a programmed action is `program share_pass` or `program buy_shares corporation=GCL`";
    let (i, _) = keyword("program").parse(i)?;
    let (mut i, kind) = required("a program kind", HELP).parse(i)?;
    let mut args = Vec::new();
    while let Ok((rest, w)) = any_word(i) {
        // A quoted word is a value, never a whole setting: `"b c=d"` would be written back
        // as `b c=d`, two words.
        let setting = (w.quoting == Quoting::Bare)
            .then(|| word::setting(w.text))
            .flatten();
        let Some((key, value)) = setting else {
            return Err(unfit(
                "notation::unexpected",
                &w,
                "expected a setting `key=value`",
                HELP,
            ));
        };
        i = rest;
        // `reason="GCL is floated"`: the value is the quoted name right after `=`.
        let mut quoted = verify(any_word, |q: &Word<'_>| q.quoting != Quoting::Bare);
        match quoted.parse(i) {
            Ok((rest, q)) if value.is_empty() => {
                args.push((key.to_string(), format!("\"{}\"", q.text)));
                i = rest;
            }
            _ => args.push((key.to_string(), value.to_string())),
        }
    }
    Ok((
        i,
        RawAction::Program {
            kind: kind.text.to_string(),
            args,
        },
    ))
}

/// No action form starts with this word: name the nearest keyword.
fn unknown_action(i: Words<'_>) -> WResult<'_, RawAction> {
    let (_, head) = any_word(i)?;
    let mut problem = Problem::new(
        "notation::unknown_keyword",
        At::Span(head.span),
        "expected an action",
        format!("unknown action `{}`", head.text),
        head.text.to_string(),
    );
    problem.help_later = Some(unknown_action_help);
    Err(fail(problem))
}

/// The help line of an unknown action `word`: the nearest keyword, if one is near.
fn unknown_action_help(word: &str) -> String {
    const ACTIONS: &str = "pass, bid, par, buy, sell, lay, tok, run, pay, withhold, train, \
                           discard, bankrupt, program, assign, merge, vote, end game";
    // `end` is read as the start of `end game`, the whole move; `endgame` is near it too.
    fn written(k: &str) -> &str {
        if k == "end" || k == "endgame" {
            "end game"
        } else {
            k
        }
    }
    debug_assert_eq!(
        ACTIONS,
        KEYWORDS
            .iter()
            .map(|k| written(k))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let forms = KEYWORDS.iter().copied().chain(std::iter::once("endgame"));
    match crate::notation::nearest(word, forms) {
        Some(k) => format!("did you mean `{}`? actions: {ACTIONS}", written(k)),
        None => {
            format!("a move starts with an action ({ACTIONS}) or a tile lay such as `57 E7 r2`")
        }
    }
}
