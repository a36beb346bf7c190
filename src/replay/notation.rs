//! Replaying railnote documents: each written move is resolved against the current [`Game`]
//! into an engine [`Action`] (shakmaty's `San::to_move(&pos)`), processed, and every failure is
//! mapped back to the move's span as a [`MoveError`]. [`to_notation`] is the inverse
//! (`San::from_move`): the shortest written form that resolves back to the very same action.

// Errors are built once per failing move; their size does not matter.
#![allow(clippy::result_large_err)]

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use miette::{Diagnostic, LabeledSpan, SourceCode};

use crate::action::{Action, BidTarget, DividendKind, Entity, MarketCell, RouteSpec};
use crate::engine::correction::{self as engine_correction, CorrectionError, ShareHolder};
use crate::engine::map::Layout;
use crate::engine::setup::ResolvedSetup;
use crate::engine::title::Title;
use crate::engine::{Game, GameOptions, GameSetup, RuleViolation, SkipReason, Skipped, TrainOwner};
use crate::ids::{
    CityRef, CorpId, HexId, Money, Percent, PlayerId, Rotation, ShareId, TileId, TrainId,
};
use crate::log::{
    label_span, not_shown, shorten_quotes, AutoAction, GameLog, Header, LogPlayer, LogSource,
    LoggedAction, LoggedCorrection, Span, Spanned, DIAGNOSTICS_KEPT, DIAGNOSTICS_SHOWN,
};
use crate::notation::{
    self, Check, CheckValue, Correction, CorrectionKind, Element, GameText, Move, Name,
    Orientation, RawAction, RouteText, Side, Source, TokenAt,
};
use crate::replay::{DeviationWarning, Target};

/// Why a written move could not become an engine action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unresolved {
    /// Stable code (`rules::unknown_entity`, `rules::tile_unavailable`, …).
    pub code: &'static str,
    /// What is wrong.
    pub message: String,
    /// How to write it instead.
    pub help: Option<String>,
}

fn unresolved(code: &'static str, message: impl Into<String>) -> Unresolved {
    Unresolved {
        code,
        message: message.into(),
        help: None,
    }
}

impl Unresolved {
    fn help(mut self, help: impl Into<String>) -> Unresolved {
        self.help = Some(help.into());
        self
    }
}

/// A name as written, in any case: the exact one first, else the only one that matches
/// ignoring case (`nord` is Nord; `Ann` and `ann` both players would need the exact case).
fn by_name<T: Copy>(written: &str, all: impl Iterator<Item = (String, T)> + Clone) -> Option<T> {
    if let Some((_, t)) = all.clone().find(|(n, _)| n == written) {
        return Some(t);
    }
    let mut folded = all.filter(|(n, _)| n.eq_ignore_ascii_case(written));
    match (folded.next(), folded.next()) {
        (Some((_, t)), None) => Some(t),
        _ => None,
    }
}

/// A corporation by its symbol, in any case.
fn find_corp(title: &Title, sym: &str) -> Option<CorpId> {
    by_name(
        sym,
        title
            .corporations
            .iter()
            .enumerate()
            .map(|(i, c)| (c.sym.clone(), CorpId(i as u8))),
    )
}

/// A private by its symbol, in any case.
fn find_company(title: &Title, sym: &str) -> Option<crate::ids::CompanyId> {
    by_name(
        sym,
        title
            .companies
            .iter()
            .enumerate()
            .map(|(i, c)| (c.sym.clone(), crate::ids::CompanyId(i as u8))),
    )
}

/// Every name of a game an actor can be: players, corporations, privates.
fn entity_names(game: &Game) -> Vec<&str> {
    game.players
        .iter()
        .map(|p| p.name.as_str())
        .chain(game.title.corporations.iter().map(|c| c.sym.as_str()))
        .chain(game.title.companies.iter().map(|c| c.sym.as_str()))
        .collect()
}

/// "did you mean `Nord`? " when a name is near one of `names`, else nothing.
fn did_you_mean<'a>(written: &str, names: impl IntoIterator<Item = &'a str>) -> String {
    notation::nearest(written, names)
        .map(|n| format!("did you mean `{}`? ", notation::name(n)))
        .unwrap_or_default()
}

/// Names an entity (player name, corporation or private symbol), in any case.
pub fn entity_by_name(game: &Game, name: &str) -> Result<Entity, Unresolved> {
    let all = game
        .players
        .iter()
        .map(|p| (p.name.clone(), Entity::Player(p.id)))
        .chain(
            game.title
                .corporations
                .iter()
                .enumerate()
                .map(|(i, c)| (c.sym.clone(), Entity::Corporation(CorpId(i as u8)))),
        )
        .chain(game.title.companies.iter().enumerate().map(|(i, c)| {
            (
                c.sym.clone(),
                Entity::Company(crate::ids::CompanyId(i as u8)),
            )
        }));
    if let Some(e) = by_name(name, all) {
        return Ok(e);
    }
    let players: Vec<String> = game
        .players
        .iter()
        .map(|p| notation::name(&p.name))
        .collect();
    Err(unresolved(
        "rules::unknown_entity",
        format!("nobody is called `{name}`"),
    )
    .help(format!(
        "{}players: {}; corporations and privates by symbol, e.g. `Nord:`",
        did_you_mean(name, entity_names(game)),
        players.join(", ")
    )))
}

fn corp(game: &Game, sym: &str) -> Result<CorpId, Unresolved> {
    find_corp(game.title, sym).ok_or_else(|| {
        let all: Vec<&str> = game
            .title
            .corporations
            .iter()
            .map(|c| c.sym.as_str())
            .collect();
        unresolved(
            "rules::unknown_entity",
            format!("{} has no corporation `{sym}`", game.title.name),
        )
        .help(format!(
            "{}corporations: {}",
            did_you_mean(sym, all.iter().copied()),
            all.join(", ")
        ))
    })
}

fn share_id(game: &Game, text: &str) -> Result<ShareId, Unresolved> {
    text.rsplit_once('_')
        .and_then(|(c, i)| {
            let corp = find_corp(game.title, c)?;
            let index: u8 = i.parse().ok()?;
            ((index as usize) < game.title.share_sizes(corp).len())
                .then_some(ShareId { corp, index })
        })
        .ok_or_else(|| {
            unresolved("rules::unknown_share", format!("no certificate `{text}`"))
                .help("a certificate is `CORP_n`, n = 0 for the president's, e.g. `Nord_3`")
        })
}

fn share_text(game: &Game, s: ShareId) -> String {
    format!("{}_{}", game.title.corp(s.corp).sym, s.index)
}

/// The reference id of a train (`3-1`).
pub fn train_text(game: &Game, t: TrainId) -> String {
    format!("{}-{}", game.title.train(t.kind).name, t.copy)
}

/// A train type by its name, in any case (`d` is the D).
fn find_train_kind(title: &Title, name: &str) -> Option<crate::ids::TrainKind> {
    by_name(
        name,
        title
            .trains
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.clone(), crate::ids::TrainKind(i as u8))),
    )
}

fn explicit_train(game: &Game, text: &str) -> Option<TrainId> {
    let (name, copy) = text.rsplit_once('-')?;
    let kind = find_train_kind(game.title, name)?;
    let copy: u16 = copy.parse().ok()?;
    (copy
        < game
            .title
            .train(kind)
            .count_with(&game.options.optional_rules))
    .then_some(TrainId { kind, copy })
}

/// A train written as `3-1` (explicit) or `3` (the first fitting one among `candidates`).
fn pick_train(
    game: &Game,
    text: &str,
    candidates: impl IntoIterator<Item = TrainId>,
    whose: &str,
) -> Result<TrainId, Unresolved> {
    if let Some(t) = explicit_train(game, text) {
        return Ok(t);
    }
    let Some(kind) = find_train_kind(game.title, text) else {
        let kinds: Vec<&str> = game.title.trains.iter().map(|t| t.name.as_str()).collect();
        return Err(unresolved(
            "rules::unknown_train",
            format!("{} has no train `{text}`", game.title.name),
        )
        .help(format!(
            "trains are written by type ({}) or as `TYPE-copy`, e.g. `3-1`",
            kinds.join(", ")
        )));
    };
    candidates
        .into_iter()
        .find(|t| t.kind == kind)
        .ok_or_else(|| {
            unresolved(
                "rules::no_such_train",
                format!("{whose} has no {text} train"),
            )
        })
}

fn corp_of(entity: Entity) -> Option<CorpId> {
    match entity {
        Entity::Corporation(c) => Some(c),
        _ => None,
    }
}

fn corp_trains(game: &Game, entity: Entity) -> Vec<TrainId> {
    corp_of(entity).map_or_else(Vec::new, |c| game.corp(c).trains.clone())
}

/// The compass sides of edges 0–5 of a layout.
pub fn sides(layout: Layout) -> [Side; 6] {
    match layout {
        Layout::Pointy => [Side::SW, Side::W, Side::NW, Side::NE, Side::E, Side::SE],
        Layout::Flat => [Side::S, Side::SW, Side::NW, Side::N, Side::NE, Side::SE],
    }
}

fn exits_text(layout: Layout, mask: u8) -> String {
    let s = sides(layout);
    // Clockwise from north-ish: print in edge order for stability.
    (0..6)
        .filter(|e| mask & (1 << e) != 0)
        .map(|e| s[e].as_str())
        .collect::<Vec<_>>()
        .join("-")
}

/// The tile copy (`57`: the first in the supply) and rotation of a lay or a tile correction.
/// `corp` (the corporation laying) narrows the help to its legal rotations.
fn resolve_tile(
    game: &Game,
    tile: &str,
    hex: HexId,
    orientation: &Orientation,
    corp: Option<CorpId>,
) -> Result<(TileId, Rotation), Unresolved> {
    let title = game.title;
    let map = title.map;
    let hex = &hex;
    let Some(idx) = map.hex_index(*hex) else {
        return Err(unresolved(
            "rules::unknown_hex",
            format!("the {} map has no hex {hex}", title.name),
        ));
    };
    let tile_id = match map.parse_tile_id(tile) {
        Some(t) => t,
        None => {
            let Some(def) = map.tile_def_by_name(tile) else {
                return Err(unresolved(
                    "rules::unknown_tile",
                    format!("{} has no tile `{tile}`", title.name),
                )
                .help("a tile is written by its number, e.g. `57 E7 r2`"));
            };
            let count = map.tile_def(def).copies();
            (0..count)
                .map(|copy| TileId { def, copy })
                .find(|t| game.board.in_supply(*t))
                .ok_or_else(|| {
                    unresolved(
                        "rules::tile_unavailable",
                        format!("no tile {tile} is left in the supply"),
                    )
                })?
        }
    };
    let def = map.tile_def(tile_id.def);
    let rotation = match orientation {
        Orientation::Rotation(r) => *r,
        Orientation::Sides(s) => {
            let names = sides(map.layout);
            let mut mask = 0u8;
            for side in s {
                match names.iter().position(|n| n == side) {
                    Some(e) => mask |= 1 << e,
                    None => {
                        return Err(unresolved(
                            "rules::bad_exits",
                            format!("a hex of this map has no side {}", side.as_str()),
                        ))
                    }
                }
            }
            match (0..6u8).find(|r| def.exits(*r) == mask) {
                Some(r) => r,
                None => {
                    let legal = game.board.legal_rotations(map, idx, tile_id, corp);
                    let mut opts: Vec<String> = (0..6u8)
                        .filter(|r| legal & (1 << r) != 0)
                        .map(|r| {
                            format!(
                                "`{} {hex} {}`",
                                def.name,
                                exits_text(map.layout, def.exits(r))
                            )
                        })
                        .collect();
                    opts.dedup();
                    let e = unresolved(
                        "rules::bad_exits",
                        format!(
                            "tile {} cannot be turned to exits {}",
                            def.name,
                            exits_text(map.layout, mask)
                        ),
                    );
                    return Err(if opts.is_empty() {
                        e
                    } else {
                        e.help(format!("legal here: {}", opts.join(", ")))
                    });
                }
            }
        }
    };
    Ok((tile_id, Rotation::new(rotation).unwrap_or_default()))
}

/// Resolves a written move against the game.
///
/// # Errors
/// A name, tile, city, share or train the move cannot mean in this position.
pub fn resolve(game: &Game, entity: Entity, raw: &RawAction) -> Result<Action, Unresolved> {
    let title = game.title;
    let map = title.map;
    Ok(match raw {
        RawAction::Pass => Action::Pass { entity },
        RawAction::Payout => Action::Dividend {
            entity,
            kind: DividendKind::Payout,
        },
        RawAction::Withhold => Action::Dividend {
            entity,
            kind: DividendKind::Withhold,
        },
        RawAction::Bankrupt => Action::Bankrupt { entity },
        RawAction::Assign { hex } => Action::Assign {
            entity,
            hex: hex
                .parse()
                .map_err(|_| unresolved("rules::unknown_hex", format!("`{hex}` is not a hex")))?,
        },
        RawAction::Merge { corp } => Action::Merge {
            entity,
            corp: self::corp(game, corp)?,
        },
        RawAction::Vote { in_favour } => Action::Vote {
            entity,
            in_favour: *in_favour,
        },
        RawAction::Program { .. } => Action::Program { entity },
        RawAction::EndGame => Action::EndGame { entity },
        RawAction::Bid { target, price } => {
            let target = match find_company(title, target) {
                Some(c) => BidTarget::Company(c),
                None => BidTarget::Corporation(corp(game, target).map_err(|e| {
                    let all: Vec<&str> = title.companies.iter().map(|c| c.sym.as_str()).collect();
                    e.help(format!(
                        "{}privates: {}",
                        did_you_mean(target, all.iter().copied()),
                        all.join(", ")
                    ))
                })?),
            };
            Action::Bid {
                entity,
                target,
                price: Money(*price),
            }
        }
        RawAction::Par {
            corp: sym,
            price,
            cell,
        } => {
            let c = corp(game, sym)?;
            let cell = match cell {
                Some((row, column)) => MarketCell {
                    price: Money(*price),
                    row: *row,
                    column: *column,
                },
                None => {
                    let mut found = Vec::new();
                    let mut pars = Vec::new();
                    for (r, row) in title.market.iter().enumerate() {
                        for (k, cell) in row.iter().enumerate() {
                            if let Some(cell) = cell.as_ref().filter(|c| c.par) {
                                pars.push(cell.price.0);
                                if cell.price.0 == *price {
                                    found.push(MarketCell {
                                        price: cell.price,
                                        row: r as u8,
                                        column: k as u8,
                                    });
                                }
                            }
                        }
                    }
                    pars.sort_unstable();
                    pars.dedup();
                    match found.as_slice() {
                        [one] => *one,
                        [] => {
                            let list: Vec<String> =
                                pars.iter().map(|p| format!("`par {sym} {p}`")).collect();
                            return Err(unresolved(
                                "rules::no_par_price",
                                format!("{price} is not a par price of {}", title.name),
                            )
                            .help(format!("par prices: {}", list.join(", "))));
                        }
                        many => {
                            let list: Vec<String> = many
                                .iter()
                                .map(|c| format!("`par {sym} {price}@{}.{}`", c.row, c.column))
                                .collect();
                            return Err(unresolved(
                                "rules::ambiguous",
                                format!("several par cells show {price}"),
                            )
                            .help(format!("name the cell: {}", list.join(", "))));
                        }
                    }
                }
            };
            Action::Par {
                entity,
                corp: c,
                cell,
            }
        }
        RawAction::Buy {
            count,
            what,
            pool,
            percent,
            price,
            share_price,
        } => {
            if let [sym] = what.as_slice() {
                if let Some(company) = find_company(title, sym) {
                    let Some(price) = price else {
                        return Err(unresolved(
                            "rules::price_needed",
                            format!("buying {sym} needs a price"),
                        )
                        .help(format!("e.g. `buy {sym} {}`", title.company(company).value)));
                    };
                    return Ok(Action::BuyCompany {
                        entity,
                        company,
                        price: Money(*price),
                    });
                }
            }
            let shares = pick_shares(
                game,
                what,
                *count,
                |c| {
                    if *pool {
                        game.pool.iter().filter(|s| s.corp == c).copied().collect()
                    } else {
                        game.corp(c).ipo.to_vec()
                    }
                },
                if *pool { "the pool" } else { "the IPO" },
            )?;
            Action::BuyShares {
                entity,
                shares,
                percent: percent.map(Percent),
                share_price: share_price.map(Money),
            }
        }
        RawAction::Sell {
            count,
            what,
            percent,
            share_price,
        } => {
            let held: Vec<ShareId> = match entity {
                Entity::Player(p) => game.player(p).shares.clone(),
                _ => Vec::new(),
            };
            let shares = pick_shares(
                game,
                what,
                *count,
                |c| {
                    let mut mine: Vec<ShareId> =
                        held.iter().filter(|s| s.corp == c).copied().collect();
                    // Ordinary certificates first, the president's last.
                    mine.sort_by_key(|s| s.index == 0);
                    mine
                },
                &game.entity_name(entity),
            )?;
            Action::SellShares {
                entity,
                shares,
                percent: percent.map(Percent),
                share_price: share_price.map(Money),
            }
        }
        RawAction::Lay {
            tile,
            hex,
            orientation,
        } => {
            let (tile_id, rotation) = resolve_tile(game, tile, *hex, orientation, corp_of(entity))?;
            Action::LayTile {
                entity,
                hex: *hex,
                tile: tile_id,
                rotation,
            }
        }
        RawAction::Token { at, slot, cost } => {
            let city = match at {
                TokenAt::City(text) => map.parse_city_ref(text).ok_or_else(|| {
                    unresolved("rules::unknown_city", format!("no city `{text}`")).help(
                        "a city id is `TILE-copy-part`, e.g. `57-0-0`; or write the hex: `tok E11`",
                    )
                })?,
                TokenAt::Hex(hex, n) => {
                    let Some(idx) = map.hex_index(*hex) else {
                        return Err(unresolved(
                            "rules::unknown_hex",
                            format!("the {} map has no hex {hex}", title.name),
                        ));
                    };
                    let (tile, _) = game.board.tile_at(idx);
                    let def = map.tile_def(tile.def);
                    let k = n.map_or(0, |n| usize::from(n) - 1);
                    let Some(node) = def.cities.get(k) else {
                        return Err(unresolved(
                            "rules::unknown_city",
                            match def.cities.len() {
                                0 => format!("{hex} has no city"),
                                c => {
                                    format!("{hex} has {c} cit{}", if c == 1 { "y" } else { "ies" })
                                }
                            },
                        )
                        .help(format!(
                            "`tok {hex}` is its first city, `tok {hex}/2` the second"
                        )));
                    };
                    CityRef {
                        tile,
                        part: def.nodes[usize::from(*node)].part,
                    }
                }
            };
            Action::PlaceToken {
                entity,
                city,
                slot: *slot,
                cost: cost.map(Money),
            }
        }
        RawAction::Run { routes } => {
            let mut free = corp_trains(game, entity);
            let mut out = Vec::new();
            for r in routes {
                // As in a JSON log, a stated stop is on the map (it is written into the
                // converted log, which must read).
                if let Some((hex, part)) = r
                    .nodes
                    .iter()
                    .find(|(h, _)| game.title.map.hex(*h).is_none())
                {
                    return Err(unresolved(
                        "rules::unknown_hex",
                        format!(
                            "the stop `{hex}.{part}`: {hex} is not on the {} map",
                            game.title.name
                        ),
                    )
                    .help("a stop is the hex and the part index of a city or town, e.g. `@D6.1`"));
                }
                let train = pick_train(game, &r.train, free.clone(), &game.entity_name(entity))?;
                free.retain(|t| *t != train);
                out.push(RouteSpec {
                    walk: r.walk.clone(),
                    train,
                    connections: r.connections.clone(),
                    revenue: r.revenue.map(Money),
                    nodes: r.nodes.clone(),
                });
            }
            Action::RunRoutes {
                entity,
                routes: out,
            }
        }
        RawAction::Train {
            train,
            price,
            from,
            exchange,
        } => {
            let (candidates, whose): (Vec<TrainId>, String) = match from {
                Source::Ipo => (
                    game.trains
                        .iter()
                        .filter(|t| t.owner == TrainOwner::Depot)
                        .map(|t| t.id)
                        .collect(),
                    "the depot".into(),
                ),
                Source::Pool => (game.pool_train_order.clone(), "the pool".into()),
                Source::Corp(c) => {
                    let c = corp(game, c)?;
                    (game.corp(c).trains.clone(), title.corp(c).sym.clone())
                }
            };
            let t = pick_train(game, train, candidates, &whose)?;
            let exchange = exchange
                .as_ref()
                .map(|x| {
                    pick_train(
                        game,
                        x,
                        corp_trains(game, entity),
                        &game.entity_name(entity),
                    )
                })
                .transpose()?;
            let price = match (price, from) {
                (Some(p), _) => Money(*p),
                (None, Source::Corp(c)) => {
                    return Err(unresolved(
                        "rules::price_needed",
                        format!("a train bought from {c} needs a price"),
                    )
                    .help(format!("e.g. `train {train} 100 from {c}`")))
                }
                (None, _) => {
                    let def = title.train(t.kind);
                    let discount = exchange
                        .and_then(|x| def.discount.get(&title.train(x.kind).name).copied())
                        .unwrap_or(Money::ZERO);
                    def.price - discount
                }
            };
            Action::BuyTrain {
                entity,
                train: t,
                price,
                exchange,
            }
        }
        RawAction::Discard { train } => Action::DiscardTrain {
            entity,
            train: pick_train(
                game,
                train,
                corp_trains(game, entity),
                &game.entity_name(entity),
            )?,
        },
    })
}

fn pick_shares(
    game: &Game,
    what: &[String],
    count: Option<u8>,
    available: impl Fn(CorpId) -> Vec<ShareId>,
    whose: &str,
) -> Result<Vec<ShareId>, Unresolved> {
    if what.iter().all(|w| w.contains('_')) {
        return what.iter().map(|w| share_id(game, w)).collect();
    }
    let [sym] = what else {
        return Err(unresolved(
            "rules::unknown_share",
            "name one corporation, or certificates only",
        )
        .help("e.g. `buy 2 Nord` or `buy Nord_3 Nord_4`"));
    };
    let c = corp(game, sym)?;
    let n = usize::from(count.unwrap_or(1));
    let avail = available(c);
    if avail.len() < n {
        return Err(unresolved(
            "rules::no_such_share",
            format!("{whose} has {} {sym} certificate(s), not {n}", avail.len()),
        ));
    }
    Ok(avail[..n].to_vec())
}

/// The shortest written form of `action` that [`resolve`] maps back to exactly `action` in
/// `game`, and whether the actor must be written (it differs from the entity the game waits
/// for).
pub fn to_notation(game: &Game, action: &Action) -> RawAction {
    let candidates = candidates(game, action);
    let entity = action.entity();
    for c in &candidates {
        if resolve(game, entity, c).as_ref() == Ok(action) {
            return c.clone();
        }
    }
    // The last candidate is fully explicit.
    candidates.into_iter().last().unwrap_or(RawAction::Pass)
}

fn candidates(game: &Game, action: &Action) -> Vec<RawAction> {
    let title = game.title;
    let map = title.map;
    match action {
        Action::Pass { .. } => vec![RawAction::Pass],
        Action::Bankrupt { .. } => vec![RawAction::Bankrupt],
        Action::EndGame { .. } => vec![RawAction::EndGame],
        Action::Assign { hex, .. } => vec![RawAction::Assign {
            hex: hex.to_string(),
        }],
        Action::Merge { corp, .. } => vec![RawAction::Merge {
            corp: title.corp(*corp).sym.clone(),
        }],
        Action::Vote { in_favour, .. } => vec![RawAction::Vote {
            in_favour: *in_favour,
        }],
        Action::Program { .. } => vec![RawAction::Program {
            kind: "share_pass".into(),
            args: Vec::new(),
        }],
        Action::Dividend { kind, .. } => vec![match kind {
            DividendKind::Payout => RawAction::Payout,
            DividendKind::Withhold => RawAction::Withhold,
        }],
        Action::Bid { target, price, .. } => vec![RawAction::Bid {
            target: match target {
                BidTarget::Company(c) => title.company(*c).sym.clone(),
                BidTarget::Corporation(c) => title.corp(*c).sym.clone(),
            },
            price: price.0,
        }],
        Action::Par { corp, cell, .. } => {
            let sym = title.corp(*corp).sym.clone();
            vec![
                RawAction::Par {
                    corp: sym.clone(),
                    price: cell.price.0,
                    cell: None,
                },
                RawAction::Par {
                    corp: sym,
                    price: cell.price.0,
                    cell: Some((cell.row, cell.column)),
                },
            ]
        }
        Action::BuyShares {
            shares,
            percent,
            share_price,
            ..
        }
        | Action::SellShares {
            shares,
            percent,
            share_price,
            ..
        } => {
            let buy = matches!(action, Action::BuyShares { .. });
            let share_price = share_price.map(|p| p.0);
            let percent = percent.map(|p| p.0);
            let explicit: Vec<String> = shares.iter().map(|s| share_text(game, *s)).collect();
            let mut out = Vec::new();
            if let Some(first) = shares.first() {
                if shares.iter().all(|s| s.corp == first.corp) {
                    let sym = title.corp(first.corp).sym.clone();
                    let count = (shares.len() > 1).then_some(shares.len() as u8);
                    for pool in [false, true] {
                        if !buy && pool {
                            continue;
                        }
                        out.push(if buy {
                            RawAction::Buy {
                                count,
                                what: vec![sym.clone()],
                                pool,
                                percent,
                                price: None,
                                share_price,
                            }
                        } else {
                            RawAction::Sell {
                                count,
                                what: vec![sym.clone()],
                                percent,
                                share_price,
                            }
                        });
                    }
                }
            }
            out.push(if buy {
                RawAction::Buy {
                    count: None,
                    what: explicit,
                    pool: false,
                    percent,
                    price: None,
                    share_price,
                }
            } else {
                RawAction::Sell {
                    count: None,
                    what: explicit,
                    percent,
                    share_price,
                }
            });
            out
        }
        Action::BuyCompany { company, price, .. } => vec![RawAction::Buy {
            count: None,
            what: vec![title.company(*company).sym.clone()],
            pool: false,
            percent: None,
            price: Some(price.0),
            share_price: None,
        }],
        Action::LayTile {
            hex,
            tile,
            rotation,
            ..
        } => {
            let name = map.tile_def(tile.def).name.clone();
            let o = Orientation::Rotation(rotation.get());
            vec![
                RawAction::Lay {
                    tile: name,
                    hex: *hex,
                    orientation: o.clone(),
                },
                RawAction::Lay {
                    tile: map.tile_name(*tile),
                    hex: *hex,
                    orientation: o,
                },
            ]
        }
        Action::PlaceToken {
            city, slot, cost, ..
        } => {
            let mut out = Vec::new();
            if let Some(idx) = game.board.hex_of_tile(city.tile) {
                let hex = map.hex_def(idx).id;
                let def = map.tile_def(city.tile.def);
                if let Some(k) = def.city_by_part(city.part) {
                    out.push(RawAction::Token {
                        at: TokenAt::Hex(hex, None),
                        slot: *slot,
                        cost: cost.map(|c| c.0),
                    });
                    out.push(RawAction::Token {
                        at: TokenAt::Hex(hex, Some(k as u8 + 1)),
                        slot: *slot,
                        cost: cost.map(|c| c.0),
                    });
                }
            }
            out.push(RawAction::Token {
                at: TokenAt::City(format!("{}-{}", map.tile_name(city.tile), city.part)),
                slot: *slot,
                cost: cost.map(|c| c.0),
            });
            out
        }
        Action::RunRoutes { routes, .. } => {
            let texts = |short: bool| RawAction::Run {
                routes: routes
                    .iter()
                    .map(|r| RouteText {
                        train: if short {
                            title.train(r.train.kind).name.clone()
                        } else {
                            train_text(game, r.train)
                        },
                        connections: r.connections.clone(),
                        walk: r.walk.clone(),
                        revenue: r.revenue.map(|m| m.0),
                        nodes: r.nodes.clone(),
                    })
                    .collect(),
            };
            vec![texts(true), texts(false)]
        }
        Action::BuyTrain {
            train,
            price,
            exchange,
            entity,
        } => {
            let from = match game.trains.iter().find(|t| t.id == *train).map(|t| t.owner) {
                Some(TrainOwner::Pool) => Source::Pool,
                Some(TrainOwner::Corporation(c)) => Source::Corp(title.corp(c).sym.clone()),
                _ => Source::Ipo,
            };
            let _ = entity;
            let mut out = Vec::new();
            for short in [true, false] {
                let t = if short {
                    title.train(train.kind).name.clone()
                } else {
                    train_text(game, *train)
                };
                let x = exchange.map(|x| {
                    if short {
                        title.train(x.kind).name.clone()
                    } else {
                        train_text(game, x)
                    }
                });
                if short {
                    out.push(RawAction::Train {
                        train: t.clone(),
                        price: None,
                        from: from.clone(),
                        exchange: x.clone(),
                    });
                }
                out.push(RawAction::Train {
                    train: t,
                    price: Some(price.0),
                    from: from.clone(),
                    exchange: x,
                });
            }
            out
        }
        Action::DiscardTrain { train, .. } => vec![
            RawAction::Discard {
                train: title.train(train.kind).name.clone(),
            },
            RawAction::Discard {
                train: train_text(game, *train),
            },
        ],
    }
}

/// A failure while replaying a document: a rule broken, a move that means nothing here, a
/// heading or check that disagrees with the game.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{headline}")]
pub struct MoveError {
    /// The file.
    pub src: LogSource,
    /// The offending move (or heading, check line).
    pub span: Span,
    /// Stable code (`rules::not_your_turn`, `rules::check_failed`, …).
    pub code: &'static str,
    /// One line: which move, where.
    pub headline: String,
    /// The label: the rule broken.
    pub label: String,
    /// Related places.
    pub related: Vec<(Span, String)>,
    /// The legal alternatives or a correct example.
    pub help: Option<String>,
    /// 1-based move number in the main line (0 for non-moves).
    pub index: usize,
    /// The round (`OR 3.1`).
    pub round: String,
    /// The actor, if known.
    pub actor: Option<String>,
    /// With keep-going, the values of check lines right after this refused move that were not
    /// held against the game (it is uncertain until the text and the game are in step again):
    /// each entry and its line.
    pub unchecked: Vec<(Span, usize)>,
}

impl MoveError {
    /// Why the check lines after this move were not evaluated, if some were not.
    pub fn unchecked_note(&self) -> Option<String> {
        let lines: std::collections::BTreeSet<usize> =
            self.unchecked.iter().map(|(_, line)| *line).collect();
        let lines: Vec<String> = lines.iter().map(ToString::to_string).collect();
        let (which, verb) = match lines.as_slice() {
            [] => return None,
            [one] => (format!("the check line on line {one}"), "is"),
            more => (
                format!("the check lines on lines {}", more.join(", ")),
                "are",
            ),
        };
        Some(format!(
            "{which} {verb} not evaluated: after a refused move the game is uncertain until the \
             next line that names its actor (or a round heading), and a value checked there \
             would mostly repeat this mistake; replay again once this move is mended"
        ))
    }
}

impl Diagnostic for MoveError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.src)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let primary =
            LabeledSpan::new_primary_with_span(Some(self.label.clone()), label_span(self.span));
        Some(Box::new(
            std::iter::once(primary)
                .chain(
                    self.related
                        .iter()
                        .map(|(s, l)| LabeledSpan::new_with_span(Some(l.clone()), label_span(*s))),
                )
                .chain(self.unchecked.iter().map(|(s, _)| {
                    LabeledSpan::new_with_span(
                        Some("not checked after the refused move".into()),
                        label_span(*s),
                    )
                })),
        ))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let help = match (&self.help, self.unchecked_note()) {
            (Some(help), Some(note)) => format!("{help}\n{note}"),
            (Some(help), None) => help.clone(),
            (None, Some(note)) => note,
            (None, None) => return None,
        };
        Some(Box::new(help))
    }
}

/// Every failure of a replayed game, as one diagnostic.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{} problem(s) in {}{}", self.count(), src.name(), not_shown(self.count()))]
pub struct GameRejected {
    /// The file.
    pub src: LogSource,
    /// The failures in order (the first [`DIAGNOSTICS_KEPT`]).
    pub errors: Vec<MoveError>,
    /// How many more failures there were past the ones kept.
    pub omitted: usize,
}

impl GameRejected {
    /// Every failure of a replayed game.
    pub fn of(played: &Played) -> Option<GameRejected> {
        let first = played.errors.first()?;
        Some(GameRejected {
            src: first.src.clone(),
            errors: played.errors.clone(),
            omitted: played.omitted,
        })
    }

    /// How many failures the game has.
    pub fn count(&self) -> usize {
        self.errors.len() + self.omitted
    }
}

impl Diagnostic for GameRejected {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.errors
            .first()
            .map(|e| Box::new(e.code) as Box<dyn fmt::Display>)
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

/// A correction applied during the replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppliedCorrection {
    /// Where it is written.
    pub span: Span,
    /// What it did (`correct cash Ann +50`).
    pub text: String,
    /// The round it was applied in.
    pub round: String,
}

/// A replayed game: the final state, the moves as an 18xx.games-shaped log (spans into the
/// notation), and what happened along the way.
#[derive(Debug, Clone)]
pub struct Played {
    /// The game after the main line.
    pub game: Game,
    /// The main line's actions (for `--at`, `--trace`, conversion to JSON).
    pub log: GameLog,
    /// Every failure (only the first without keep-going; the first [`DIAGNOSTICS_KEPT`]).
    pub errors: Vec<MoveError>,
    /// How many more failures there were past the ones kept.
    pub omitted: usize,
    /// Corrections applied, in order.
    pub corrections: Vec<AppliedCorrection>,
    /// Settings of programmed actions by 0-based action index (for conversion to JSON).
    pub programs: BTreeMap<(usize, usize), Vec<(String, String)>>,
    /// Moves of the main line that break a printed rule while 18xx.games accepts them.
    pub warnings: Vec<DeviationWarning>,
    /// Replayed up to a state asked for ([`play_until`]): where the first statement left out
    /// starts (the end of the game's text when the state is its end), and whether the state
    /// was reached at all. `None` when the whole game was replayed.
    pub stopped_at: Option<(usize, bool)>,
}

/// How a document is replayed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlayOptions {
    /// Report every illegal move, not just the first.
    pub keep_going: bool,
    /// Refuse moves that break a printed rule 18xx.games does not enforce, instead of
    /// warning.
    pub strict_rules: bool,
}

/// Sets a game up from its tags.
///
/// # Errors
/// A missing or wrong `Title`/`Players` tag, or a setup the title does not allow.
pub fn setup(src: &LogSource, text: &GameText, at: Span) -> Result<(Game, Header), MoveError> {
    let fail = |span: Span, code: &'static str, label: String, help: &str| MoveError {
        src: src.clone(),
        span,
        code,
        headline: shorten_quotes(format!("cannot set the game up: {label}")),
        label: shorten_quotes(label),
        related: Vec::new(),
        help: Some(help.to_string()),
        index: 0,
        round: String::new(),
        actor: None,
        unchecked: Vec::new(),
    };
    let Some(title) = text.tag("Title") else {
        return Err(fail(
            at,
            "notation::missing_tag",
            "no `Title` tag".into(),
            "every game starts with `[Title \"1836Jr30\"]` and `[Players \"Ann, Bob, Cid\"]`",
        ));
    };
    let Some(players) = text.tag("Players") else {
        return Err(fail(
            title.span,
            "notation::missing_tag",
            "no `Players` tag".into(),
            "name the players in seat order: `[Players \"Ann, Bob, Cid\"]`",
        ));
    };
    // The title in any case (`1836jr30`).
    let title_name = Title::known_names()
        .iter()
        .find(|n| n.eq_ignore_ascii_case(title.value.trim()))
        .map_or_else(|| title.value.clone(), |n| (*n).to_string());
    let names: Vec<String> = split_list(&players.value);
    let rules = text
        .tag("Rules")
        .map(|t| split_list(&t.value))
        .unwrap_or_default();
    let ids = text.tag("Ids").map(|t| split_list(&t.value));
    let seed = match text.tag("Seed") {
        None => None,
        // JSON logs carry the seed as a signed integer: keep to the range both can hold.
        Some(tag) => Some(
            tag.value
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|v| i64::try_from(*v).is_ok())
                .ok_or_else(|| {
                    fail(
                tag.value_span,
                "notation::bad_seed",
                format!("`Seed` must be a whole number below 2^63, not `{}`", tag.value),
                "the seed of the random setup as 18xx.games records it: `[Seed \"1411315859\"]`",
            )
                })?,
        ),
    };
    let setup_tag = text.tag("Setup");
    let stated = match (setup_tag, Title::by_name(&title_name)) {
        (Some(tag), Some(t)) => Some(stated_setup(t, &tag.value).map_err(|label| {
            fail(
                tag.value_span,
                "notation::bad_setup",
                label,
                "state the random setup as `[Setup \"removed DR, TDR, DCR, WDE, TIM, RSSC, \
                 SLNCR; charters DKR, UR, …\"]`: the privates and the minor removed, then every \
                 other minor in charter order",
            )
        })?),
        _ => None,
    };
    let game = Game::with_stated_setup(
        &GameSetup {
            title: title_name.clone(),
            players: names.clone(),
            seed,
            options: GameOptions {
                optional_rules: rules.clone(),
            },
        },
        stated.clone(),
    )
    .map_err(|e| {
        use crate::engine::SetupError;
        let setup_span = setup_tag.map_or(title.value_span, |t| t.value_span);
        let span = match e {
            SetupError::UnknownTitle(_) | SetupError::MissingSeed { .. } => title.value_span,
            SetupError::UnknownOptionalRule { .. } => {
                text.tag("Rules").map_or(at, |t| t.value_span)
            }
            SetupError::NoRandomSetup { .. } | SetupError::ImpossibleSetup { .. } => setup_span,
            SetupError::SetupDiffers { .. } => setup_span,
            SetupError::PlayerCount { .. } => players.value_span,
        };
        let help = match e {
            SetupError::MissingSeed { .. } => {
                "add the seed of the random setup, `[Seed \"1411315859\"]`, or the setup \
                 itself, `[Setup \"removed …; charters …\"]`"
            }
            SetupError::SetupDiffers { .. } => {
                "correct the `Setup` tag, or drop one of `Seed` and `Setup`"
            }
            SetupError::NoRandomSetup { .. } => "remove the `Setup` tag",
            SetupError::ImpossibleSetup { .. } => Title::by_name(&title_name)
                .and_then(Title::random_setup_rules)
                .unwrap_or("see `grammar/README.md` for the `Setup` tag"),
            SetupError::UnknownTitle(_) => {
                let hint = did_you_mean(&title.value, Title::known_names().iter().copied());
                return fail(
                    span,
                    "replay::setup",
                    e.to_string(),
                    &format!("{hint}the title is written as 18xx.games names it"),
                );
            }
            _ => "see `grammar/README.md` for the tags",
        };
        fail(span, "replay::setup", e.to_string(), help)
    })?;
    let header = Header {
        game_id: text.tag("Id").map(|t| t.value.clone()),
        title: Spanned::new(title_name.clone(), title.value_span),
        players: names
            .iter()
            .enumerate()
            .map(|(i, n)| LogPlayer {
                id: ids
                    .as_ref()
                    .and_then(|ids| ids.get(i).cloned())
                    .unwrap_or_else(|| n.clone()),
                name: n.clone(),
                span: players.value_span,
            })
            .collect(),
        players_span: players.value_span,
        optional_rules: rules
            .into_iter()
            .map(|r| Spanned::new(r, text.tag("Rules").map_or(at, |t| t.value_span)))
            .collect(),
        seed: seed.and_then(|s| i64::try_from(s).ok()),
        stated_setup: stated,
        result: None,
        game_end_reason: None,
    };
    Ok((game, header))
}

/// A `Setup` tag's value: `removed SYM, …; charters SYM, …` (privates and minors removed,
/// then the minors in charter order).
fn stated_setup(title: &Title, value: &str) -> Result<ResolvedSetup, String> {
    if let Some(dealt) = value.trim().strip_prefix("dealt") {
        let mut dealt_companies = Vec::new();
        for sym in split_list(dealt) {
            dealt_companies.push(
                title
                    .company_by_sym(&sym)
                    .ok_or_else(|| format!("`{sym}` is not a private of {}", title.name))?,
            );
        }
        return Ok(ResolvedSetup {
            dealt_companies,
            ..ResolvedSetup::default()
        });
    }
    if value.contains(" brings ") {
        let mut president_draws = Vec::new();
        for draw in split_list(value) {
            let (company, corp) = draw
                .split_once(" brings ")
                .map(|(a, b)| (a.trim(), b.trim()))
                .ok_or_else(|| format!("`{draw}` is not `PRIVATE brings CORPORATION`"))?;
            president_draws.push((
                title
                    .company_by_sym(company)
                    .ok_or_else(|| format!("`{company}` is not a private of {}", title.name))?,
                title
                    .corp_by_sym(corp)
                    .ok_or_else(|| format!("`{corp}` is not a corporation of {}", title.name))?,
            ));
        }
        return Ok(ResolvedSetup {
            president_draws,
            ..ResolvedSetup::default()
        });
    }
    let (removed, charters) = value
        .split_once(';')
        .map(|(a, b)| (a.trim(), b.trim()))
        .ok_or_else(|| format!("`Setup` has two parts separated by `;`, not `{value}`"))?;
    let removed = removed
        .strip_prefix("removed")
        .ok_or_else(|| format!("`Setup` starts with `removed`, not `{removed}`"))?;
    let charters = charters.strip_prefix("charters").ok_or_else(|| {
        format!("the second part of `Setup` starts with `charters`, not `{charters}`")
    })?;
    let mut out = ResolvedSetup::default();
    for sym in split_list(removed).iter().filter(|s| !s.is_empty()) {
        if let Some(c) = find_company(title, sym) {
            out.removed_companies.push(c);
        } else if let Some(c) = find_corp(title, sym) {
            out.removed_corporations.push(c);
        } else {
            return Err(format!(
                "`{sym}` is not a private or minor of {}",
                title.name
            ));
        }
    }
    for sym in split_list(charters).iter().filter(|s| !s.is_empty()) {
        out.charter_order.push(
            find_corp(title, sym)
                .ok_or_else(|| format!("`{sym}` is not a minor of {}", title.name))?,
        );
    }
    Ok(out)
}

fn split_list(s: &str) -> Vec<String> {
    s.split(',')
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

struct Player<'a> {
    src: LogSource,
    keep_going: bool,
    strict_rules: bool,
    errors: Vec<MoveError>,
    omitted: usize,
    warnings: Vec<DeviationWarning>,
    corrections: Vec<AppliedCorrection>,
    /// The main line's corrections, for the log.
    logged_corrections: Vec<LoggedCorrection>,
    actions: Vec<LoggedAction>,
    programs: BTreeMap<(usize, usize), Vec<(String, String)>>,
    text: &'a str,
    /// A byte offset and its line: errors come mostly in file order, so counting lines on from
    /// the last one keeps many errors linear.
    line_at: (usize, usize),
    /// The state to stop at.
    until: Option<&'a Target>,
    /// Where the replay stopped at `until` (the first statement left out), once it has.
    stopped_at: Option<(usize, bool)>,
    /// The entity of the last move replayed and where that move is written: a move without an
    /// actor continues its turn, and naming another actor ends it.
    scope: Option<(Entity, Span)>,
    /// Where the last move replayed is written, an automatic one (`& …`) too.
    last_move: Option<Span>,
    /// The round the last move replayed was made in (after the passes it implies).
    played_in: String,
    /// The round of the last heading written.
    headed_round: Option<String>,
    /// The moves made since the last heading in a round other than its: the round, where the
    /// first of them is written and how many there are. A heading of that round comes after
    /// them (see [`Player::move_before_heading`]).
    unheaded: Option<(String, Span, usize)>,
    /// Moves replayed before where they are written (the last moves of a round written after
    /// the next round's heading): skipped when reached.
    played_ahead: Vec<usize>,
    /// The first moves of a round written before its heading (at this offset): replayed after
    /// the heading and the check lines right after it, where they belong.
    postponed: Option<(usize, Vec<Move>)>,
    /// Players the rules passed automatically in a stock round and who have not moved since:
    /// their cash then, the move after which it happened and the game turn of that stock round
    /// (the pass explains a refused move until the next stock round).
    auto_passed: Vec<(PlayerId, Money, Span, Option<u32>)>,
    /// The round in which the last move was made (before it).
    round_of_last_move: String,
    /// What the rules skipped just before the last move (a `pass` is at the step after them).
    skipped_before_last_move: Vec<Skipped>,
    /// With keep-going, after a move was refused: the entity whose turn it was in. The text
    /// and the game are out of step until the next move that names its actor, or the next
    /// round heading, brings them together again (see [`Player::resync`]).
    desync: Option<Option<Entity>>,
    /// With keep-going, a move refused because another entity was to act, kept in case the
    /// next lines are that entity's: the two were written in the wrong order (see
    /// [`Player::play_deferred`]).
    deferred: Option<Deferred>,
    /// While out of step, the report of the refused move (among the errors): the check lines
    /// not evaluated are listed on it.
    desync_report: Option<usize>,
    /// Problems are not reported (moves tried while out of step).
    quiet: bool,
    /// With keep-going, a move refused while its actor was to act, kept until the next heading:
    /// when the same actor's next line is its move and the refused one replays as its first of
    /// the next round, the two were swapped across the heading.
    refused: Option<Refused>,
}

/// A refused move kept until the next heading (see [`Player::refused`]).
struct Refused {
    actor: Entity,
    /// The refused move and the moves without an actor after it.
    moves: Vec<Move>,
    /// Its report among the errors.
    error: Option<usize>,
    /// Where the same actor's next move, which was replayed, is written.
    replaced_by: Option<Span>,
}

/// A move written before the turn of the entity the game waited for: it is replayed after that
/// turn, so that a swapped pair of lines is one mistake, not a cascade.
struct Deferred {
    /// Who wrote the refused move.
    actor: Entity,
    /// Who was to act; once the next line names another actor whose turn comes when this
    /// turn ends, that one.
    waited_for: Entity,
    /// The refused move and the moves without an actor after it (the rest of its turn).
    moves: Vec<Move>,
    /// Its report among the errors (none if past [`DIAGNOSTICS_KEPT`]).
    error: Option<usize>,
    /// Once the move of the entity waited for is replayed, where it is written: the deferred
    /// moves are replayed when that turn ends (at the next move naming another actor, a heading,
    /// a check line, a correction or the end).
    after: Option<Span>,
}

/// How many passes a resynchronisation may make: a round's worth of turns.
const RESYNC_PASSES: usize = 64;

/// What the passes a written move implies come to.
enum Implied {
    /// No run of passes makes the move legal or brings its actor to act.
    None,
    /// The game after the passes and the move, the passes, the move as resolved there, its
    /// deviations and the round it was made in (after the passes).
    Played(
        Game,
        Vec<Entity>,
        Action,
        Vec<crate::engine::Deviation>,
        String,
    ),
    /// The game after the passes (the named actor is to act) and the move's own violation.
    Refused(Game, Vec<Entity>, Action, RuleViolation),
}

/// How many passes one written move may imply: the steps of an operating turn and the end of
/// the turn (a turn has fewer than ten steps in every title).
const IMPLIED_PASSES: usize = 10;

/// Whether `next` is to act, or comes to act once the turn of `ending` (who is to act) ends
/// with passes.
fn turn_ends_with(game: &Game, ending: Entity, next: Entity) -> bool {
    if game.acting_entity() == Some(next) {
        return true;
    }
    let mut trial = game.clone();
    let mut passes = 0;
    while trial.acting_entity() == Some(ending) {
        if passes >= IMPLIED_PASSES
            || trial
                .process_in_place(&Action::Pass { entity: ending })
                .is_err()
        {
            return false;
        }
        passes += 1;
    }
    trial.acting_entity() == Some(next)
}

/// How many lines after a round heading may be that round's last moves, written after it.
const MOVED_PAST_HEADING: usize = 4;

/// The moves after the heading at `at`, up to the next heading, that name their actor, each
/// with the moves without an actor after it (the rest of its turn); none followed by a
/// variation (it replaces the move where it is written). At most [`MOVED_PAST_HEADING`].
fn named_moves_after(body: &[Element], at: usize) -> Vec<Vec<&Move>> {
    let mut groups = Vec::new();
    let mut k = at + 1;
    while k < body.len() && groups.len() < MOVED_PAST_HEADING {
        match &body[k] {
            Element::Heading(_) => break,
            Element::Move(m) if m.actor.is_some() && !m.auto => {
                let (group, next) = move_group(body, k);
                if !matches!(body.get(next), Some(Element::Variation(_))) {
                    groups.push(group);
                }
                k = next;
            }
            _ => k += 1,
        }
    }
    groups
}

/// The move at `at` in `body` and the moves without an actor (or automatic) after it, the rest
/// of its turn (comments may stand between them); and where the next element other than a
/// comment is.
fn move_group(body: &[Element], at: usize) -> (Vec<&Move>, usize) {
    let mut group = Vec::new();
    if let Some(Element::Move(m)) = body.get(at) {
        group.push(m);
    }
    let mut k = at + 1;
    loop {
        match body.get(k) {
            Some(Element::Comment(_)) => {}
            Some(Element::Move(rest)) if rest.actor.is_none() || rest.auto => group.push(rest),
            _ => break,
        }
        k += 1;
    }
    (group, k)
}

/// A check line's entry: the value the game gives (or why it names nothing) and the value
/// recorded.
fn checked_value(game: &Game, e: &notation::CheckEntry) -> (Result<i64, Unresolved>, i64) {
    let actual = match (&e.what, e.who.text.as_str()) {
        (CheckValue::Cash(_), "bank") => Ok(game.bank.0),
        (CheckValue::Cash(_), who) => match entity_by_name(game, who) {
            Ok(Entity::Player(p)) => Ok(game.player(p).cash.0),
            Ok(Entity::Corporation(k)) => Ok(game.corp(k).cash.0),
            Ok(Entity::Company(_)) => {
                Err(unresolved("rules::unknown_entity", "a private has no cash"))
            }
            Err(u) => Err(u),
        },
        (CheckValue::Holding(corp_sym, _), who) => {
            match (entity_by_name(game, who), corp(game, corp_sym)) {
                (Ok(Entity::Player(p)), Ok(k)) => Ok(i64::from(game.percent_held(p, k))),
                (Err(u), _) | (_, Err(u)) => Err(u),
                _ => Err(unresolved(
                    "rules::unknown_entity",
                    "only players' holdings can be checked",
                )),
            }
        }
    };
    let recorded = match &e.what {
        CheckValue::Cash(n) => *n,
        CheckValue::Holding(_, p) => i64::from(*p),
    };
    (actual, recorded)
}

/// Whether every value of a check line is the game's.
fn check_holds(game: &Game, c: &Check) -> bool {
    c.entries.iter().all(|e| {
        let (actual, recorded) = checked_value(game, e);
        actual.is_ok_and(|a| a == recorded)
    })
}

/// Replays one game of a document.
///
/// # Errors
/// The game cannot be set up from its tags.
pub fn play(
    name: &str,
    src: &Arc<str>,
    text: &GameText,
    options: PlayOptions,
) -> Result<Played, MoveError> {
    play_until(name, src, text, options, None)
}

/// Replays one game of a document up to a state (`--at`): nothing after it is replayed, so a
/// later mistake does not hide the state asked for. See [`Played::stopped_at`].
///
/// # Errors
/// The game cannot be set up from its tags.
pub fn play_until(
    name: &str,
    src: &Arc<str>,
    text: &GameText,
    options: PlayOptions,
    until: Option<&Target>,
) -> Result<Played, MoveError> {
    let source = LogSource::new(name, Arc::clone(src));
    let (mut game, header) = setup(&source, text, Span::new(0, 0))?;
    let title = game.title;
    let mut p = Player {
        src: source,
        keep_going: options.keep_going,
        strict_rules: options.strict_rules,
        errors: Vec::new(),
        omitted: 0,
        warnings: Vec::new(),
        corrections: Vec::new(),
        logged_corrections: Vec::new(),
        actions: Vec::new(),
        programs: BTreeMap::new(),
        text: src,
        line_at: (0, 1),
        until,
        stopped_at: None,
        scope: None,
        last_move: None,
        played_in: String::new(),
        headed_round: None,
        unheaded: None,
        played_ahead: Vec::new(),
        postponed: None,
        refused: None,
        auto_passed: Vec::new(),
        round_of_last_move: String::new(),
        skipped_before_last_move: Vec::new(),
        desync: None,
        deferred: None,
        desync_report: None,
        quiet: false,
    };
    p.body(&mut game, &text.body, true);
    if until.is_none() && p.errors.is_empty() {
        if p.actions.is_empty() {
            // A game of tags alone is most likely a file not yet written, or the wrong one.
            let at = text.tag("Title").map_or(Span::new(0, 0), |t| t.span);
            p.error(
                &game,
                at,
                "notation::no_moves",
                "the game has no moves".into(),
                Some(
                    "write the moves after the tags, e.g. `PR` and `Ann: bid ACC 20`; \
                     `railnote moves FILE` lists the first ones"
                        .into(),
                ),
                None,
            );
        } else if let Some(tag) = text.tag("Result") {
            p.check_result(&game, tag);
        }
    }
    let stopped_at = until.map(|target| {
        p.stopped_at.unwrap_or_else(|| {
            let end = text.body.iter().map(|e| element_span(e).end()).max();
            let reached = target.reached(&game, p.actions.len(), None);
            (end.unwrap_or(0), reached)
        })
    });
    let log = GameLog {
        name: name.to_string(),
        src: Arc::clone(src),
        header,
        title,
        raw_count: p.actions.len(),
        actions: p.actions,
        actions_span: Span::new(0, src.len()),
        corrections: p.logged_corrections,
    };
    Ok(Played {
        game,
        log,
        errors: p.errors,
        omitted: p.omitted,
        corrections: p.corrections,
        programs: p.programs,
        warnings: p.warnings,
        stopped_at,
    })
}

/// What the rules did by themselves, in words.
fn skipped_text(game: &Game, skipped: &Skipped) -> String {
    match skipped {
        Skipped::StockTurn { player, cash } => {
            let name = notation::name(&game.player(*player).name);
            format!(
                "{name} passed automatically: {name} could neither buy nor sell a share (cash {cash})"
            )
        }
        Skipped::Step { corp, step, why } => {
            let c = notation::name(&game.title.corp(*corp).sym);
            format!(
                "{c}'s {step} step was skipped: {}",
                skip_reason_text(game, *corp, *why)
            )
        }
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Why the rules skipped a step of a corporation's turn, in words.
fn skip_reason_text(game: &Game, corp: CorpId, why: SkipReason) -> String {
    let c = notation::name(&game.title.corp(corp).sym);
    match why {
        SkipReason::NoLay => "no further tile may be laid this turn".to_string(),
        SkipReason::NoTokenLeft => format!("{c} has no token left"),
        SkipReason::TokenCost { price, cash } => {
            format!("{c}'s next token costs {price} and {c} has {cash}")
        }
        SkipReason::NoCityReached => {
            format!("no city connected to {c}'s network has room for its token")
        }
        SkipReason::NoTrain => format!("{c} has no train to run"),
        SkipReason::NoRoute => format!("{c}'s trains have no route"),
        SkipReason::NoRevenue => format!("{c} earned nothing and withheld"),
        SkipReason::NoTrainToBuy => {
            format!("{c} can buy no train (none it can afford, or its train limit is reached)")
        }
        SkipReason::NothingOffered => "nothing in it was possible".to_string(),
    }
}

/// The legal moves at a state, in the notation, the same kind as `action` first.
fn legal_list(game: &Game, action: &Action) -> String {
    crate::replay::legal_alternatives(game, action, None)
        .into_iter()
        .map(|m| {
            if m.starts_with("and ") {
                m
            } else {
                format!("`{m}`")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The order of rounds: PR, then per turn SR, then each OR n.m followed by its MR n.m.
fn round_order(label: &str) -> Option<(u32, u32, u32)> {
    Some(match label.parse::<notation::RoundName>().ok()? {
        notation::RoundName::Private => (0, 0, 0),
        notation::RoundName::Stock(n) => (n, 1, 0),
        notation::RoundName::Operating(n, m) => (n, 2, 2 * m),
        notation::RoundName::Merger(n, m) => (n, 2, 2 * m + 1),
    })
}

/// A `Result` tag read: `(name, score, the entry as written)` and the end reason.
struct RecordedResult {
    scores: Vec<(String, i64, String)>,
    reason: Option<String>,
}

/// Reads `Ann 5450, "Bo B" 5193 (bank)`.
fn read_result(value: &str) -> Option<RecordedResult> {
    let value = value.trim();
    let (scores, reason) = match value.strip_suffix(')').and_then(|v| v.rsplit_once('(')) {
        Some((scores, reason)) => (scores.trim(), Some(reason.trim().to_string())),
        None => (value, None),
    };
    let scores = scores
        .split(',')
        .filter(|entry| !entry.trim().is_empty())
        .map(|entry| {
            let entry = entry.trim();
            let (name, score) = entry.rsplit_once(' ')?;
            let name = name.trim();
            let name = name
                .strip_prefix('"')
                .and_then(|n| n.strip_suffix('"'))
                .unwrap_or(name);
            let score = score.parse::<i64>().ok()?;
            (!name.is_empty()).then(|| (name.to_string(), score, entry.to_string()))
        })
        .collect::<Option<Vec<_>>>()?;
    Some(RecordedResult { scores, reason })
}

/// A finished game's result as `convert` writes it in the `Result` tag.
pub fn result_text(game: &Game) -> String {
    let values = game.player_values();
    let parts: Vec<String> = game
        .players
        .iter()
        .map(|p| {
            // A tag's value holds names as they are (they have no comma).
            format!("{} {}", p.name, values.get(&p.id).map_or(0, |v| v.0))
        })
        .collect();
    let mut text = parts.join(", ");
    if let Some(r) = game.end_reason {
        text.push_str(&format!(" ({})", r.as_str()));
    }
    text
}

/// The game turn a round belongs to (`SR 2`, `OR 2.1` and `MR 2.1` are turn 2).
fn turn_of(label: &str) -> Option<u32> {
    round_order(label).map(|(turn, _, _)| turn)
}

/// Where an element of the move text is written.
fn element_span(e: &Element) -> Span {
    match e {
        Element::Heading(h) => h.span,
        Element::Move(m) => m.span,
        Element::Comment(c) => c.span,
        Element::Variation(v) => v.span,
        Element::Check(c) => c.span,
        Element::Correction(c) => c.span,
    }
}

/// What replaying a move changes in the [`Player`] besides the game and the log: kept while
/// moves are tried on a copy of the game, and put back after.
struct MoveMemory {
    scope: Option<(Entity, Span)>,
    last_move: Option<Span>,
    round_of_last_move: String,
    skipped_before_last_move: Vec<Skipped>,
    auto_passed: Vec<(PlayerId, Money, Span, Option<u32>)>,
    warnings: usize,
    unheaded: Option<(String, Span, usize)>,
}

impl Player<'_> {
    /// Runs `tried` (moves tried on a copy of the game, not for the log) without a report, and
    /// forgets what its moves changed.
    fn quietly<T>(&mut self, tried: impl FnOnce(&mut Self) -> T) -> T {
        let memory = MoveMemory {
            scope: self.scope,
            last_move: self.last_move,
            round_of_last_move: self.round_of_last_move.clone(),
            skipped_before_last_move: self.skipped_before_last_move.clone(),
            auto_passed: self.auto_passed.clone(),
            warnings: self.warnings.len(),
            unheaded: self.unheaded.clone(),
        };
        let quiet = std::mem::replace(&mut self.quiet, true);
        let outcome = tried(self);
        self.quiet = quiet;
        self.scope = memory.scope;
        self.last_move = memory.last_move;
        self.round_of_last_move = memory.round_of_last_move;
        self.skipped_before_last_move = memory.skipped_before_last_move;
        self.auto_passed = memory.auto_passed;
        self.warnings.truncate(memory.warnings);
        self.unheaded = memory.unheaded;
        outcome
    }

    fn stopped(&self) -> bool {
        (!self.keep_going && !self.errors.is_empty()) || self.stopped_at.is_some()
    }

    /// Whether the main line has reached the state asked for before `e`: then nothing from `e`
    /// on is replayed.
    fn stop_before(&mut self, game: &Game, e: &Element) -> bool {
        let Some(target) = self.until else {
            return false;
        };
        let span = element_span(e);
        let before_move = matches!(e, Element::Move(m) if !m.auto);
        let reached = match target {
            Target::Before(offset) => span.offset >= *offset,
            // Checks and headings right after the state belong to it; the next move does not.
            _ => before_move && target.reached(game, self.actions.len(), Some(span.offset)),
        };
        if reached {
            self.stopped_at = Some((span.offset, true));
        }
        reached
    }

    fn error(
        &mut self,
        game: &Game,
        span: Span,
        code: &'static str,
        label: String,
        help: Option<String>,
        actor: Option<String>,
    ) -> Option<usize> {
        if self.quiet {
            return None;
        }
        if self.errors.len() >= DIAGNOSTICS_KEPT {
            self.omitted += 1;
            return None;
        }
        let line = self.line_of(span.offset);
        self.errors.push(MoveError {
            src: self.src.clone(),
            span,
            code,
            headline: shorten_quotes(format!(
                "line {line}: `{}` in {} is rejected",
                self.written_text(span),
                game.round_label()
            )),
            label: shorten_quotes(label),
            related: Vec::new(),
            help: help.map(shorten_quotes),
            index: self.actions.len() + 1,
            round: game.round_label(),
            actor,
            unchecked: Vec::new(),
        });
        Some(self.errors.len() - 1)
    }

    /// Makes report `report` that of a move on the wrong side of a round heading (`code`),
    /// which is replayed in the round it belongs to: the headline says so instead of
    /// "rejected", and the label and help say where the move belongs.
    fn out_of_place(
        &mut self,
        report: usize,
        code: &'static str,
        belongs_to: &str,
        label: String,
        help: String,
    ) {
        let Some(span) = self.errors.get(report).map(|e| e.span) else {
            return;
        };
        let line = self.line_of(span.offset);
        let headline = shorten_quotes(format!(
            "line {line}: `{}` is out of place: it belongs to {belongs_to}",
            self.written_text(span)
        ));
        let e = &mut self.errors[report];
        e.code = code;
        e.headline = headline;
        e.label = shorten_quotes(label);
        e.help = Some(shorten_quotes(help));
    }

    /// A move's text as written, for the reports.
    fn written_text(&self, span: Span) -> String {
        self.text
            .get(span.offset..span.end())
            .unwrap_or("?")
            .trim()
            .to_string()
    }

    /// The 1-based line of a byte offset.
    fn line_of(&mut self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        let (from, line) = if offset >= self.line_at.0 {
            self.line_at
        } else {
            (0, 1)
        };
        let line = line
            + self.text.as_bytes()[from..offset]
                .iter()
                .filter(|b| **b == b'\n')
                .count();
        self.line_at = (offset, line);
        line
    }

    /// Replays a body; `main` when its moves belong to the main line (kept in the log).
    fn body(&mut self, game: &mut Game, body: &[Element], main: bool) {
        let mut before: Option<(Game, Option<(Entity, Span)>)> = None;
        // The move a variation follows was refused: its report stands for the variation too.
        let mut refused_before_variation = false;
        for (i, e) in body.iter().enumerate() {
            if self.stopped() || (main && self.stop_before(game, e)) {
                return;
            }
            // A round's first moves written before its heading come after the heading and the
            // check lines that describe the round's start.
            if self.postponed.as_ref().is_some_and(|(heading, _)| {
                element_span(e).offset > *heading
                    && !matches!(e, Element::Check(_) | Element::Comment(_))
            }) {
                self.play_postponed(game, main);
            }
            // A round's last move written after the next round's heading was replayed before
            // the heading.
            if let Element::Move(m) = e {
                if let Some(k) = self.played_ahead.iter().position(|o| *o == m.span.offset) {
                    self.played_ahead.swap_remove(k);
                    continue;
                }
            }
            // The turn after which a deferred move comes ends with the next line that names
            // another actor, or the same one when its turn has ended.
            if let Some(waited_for) = self
                .deferred
                .as_ref()
                .filter(|d| d.after.is_some())
                .map(|d| d.waited_for)
            {
                match e {
                    Element::Heading(h) => {
                        self.play_deferred(game, main, None, Some((&h.round.to_string(), h.span)));
                    }
                    Element::Check(_) | Element::Correction(_) => {
                        self.play_deferred(game, main, None, None);
                    }
                    Element::Move(m) if !m.auto => {
                        if let Some(name) = &m.actor {
                            let named = entity_by_name(game, &name.text).ok();
                            if named != Some(waited_for) || game.acting_entity() != Some(waited_for)
                            {
                                self.play_deferred(game, main, named, None);
                            }
                        }
                    }
                    _ => {}
                }
            }
            match e {
                Element::Comment(_) => {}
                Element::Heading(h) => {
                    let written = h.round.to_string();
                    let placed = self.move_before_heading(game, &written, h.span)
                        || self.moves_after_heading(game, body, i, &written, h.span, main);
                    self.headed_round = Some(written.clone());
                    self.unheaded = None;
                    if placed {
                        self.refused = None;
                        continue;
                    }
                    if self.desync.is_some() {
                        self.deferred = None;
                        if self.resync(game, h.span, main, |g| g.round_label() == written) {
                            self.scope = None;
                        } else {
                            // No run of passes gets there: the heading is a mistake of its own.
                            let desync = self.desync.take();
                            self.heading(game, written.clone(), h.span, main);
                            self.desync = desync;
                        }
                    } else {
                        self.heading(game, written.clone(), h.span, main);
                    }
                    self.refused_before_heading(game, body, i, &written, h.span);
                }
                // Out of step, a value checked would mostly repeat the mistake already
                // reported (the report says which were not evaluated); a name that names
                // nobody is a mistake of its own.
                Element::Check(c) => {
                    // Right before a heading that the round's last moves were written after.
                    if let Some(next) = body[i + 1..]
                        .iter()
                        .position(|e| !matches!(e, Element::Check(_) | Element::Comment(_)))
                    {
                        self.moves_after_check(game, body, i + 1 + next, c, main);
                    }
                    // Right after a heading that the first moves of its round were written
                    // before: the check describes the round's start, or the moves' outcome.
                    if self.postponed.is_some() && !check_holds(game, c) {
                        let moves = self.postponed.as_ref().map(|(_, m)| m.clone());
                        let mut trial = game.clone();
                        let after = self.quietly(|p| {
                            p.scope = None;
                            moves
                                .iter()
                                .flatten()
                                .all(|m| p.play_move(&mut trial, m, false))
                        });
                        if after && check_holds(&trial, c) {
                            self.play_postponed(game, main);
                        }
                    }
                    self.check(game, c, self.desync.is_some());
                }
                Element::Correction(c) => self.correction(game, c, main),
                Element::Variation(v) => {
                    let Some((start, scope)) = before.as_ref() else {
                        self.error(game, v.span, "notation::variation_without_move", "a variation replaces a move, but none comes before it".into(), Some("write the variation right after the move it replaces: `Ann: pass (Ann: buy Nord)`".into()), None);
                        continue;
                    };
                    let mut alt = start.clone();
                    let saved = std::mem::take(&mut self.actions);
                    let main_scope = std::mem::replace(&mut self.scope, *scope);
                    let main_last_move = self.last_move;
                    let main_desync = self.desync.take();
                    let main_deferred = self.deferred.take();
                    let main_refused = self.refused.take();
                    let main_report = self.desync_report.take();
                    let quiet = self.quiet;
                    self.quiet |= refused_before_variation;
                    self.body(&mut alt, &v.body, false);
                    self.quiet = quiet;
                    self.actions = saved;
                    self.scope = main_scope;
                    self.last_move = main_last_move;
                    self.desync = main_desync;
                    self.deferred = main_deferred;
                    self.refused = main_refused;
                    self.desync_report = main_report;
                }
                Element::Move(m) => {
                    // A comment may stand between a move and its variation.
                    let next_is_variation = matches!(
                        body[i + 1..]
                            .iter()
                            .find(|e| !matches!(e, Element::Comment(_))),
                        Some(Element::Variation(_))
                    );
                    if !next_is_variation && self.first_moves_before_heading(game, body, i) {
                        continue;
                    }
                    let snapshot = next_is_variation.then(|| (game.clone(), self.scope));
                    let moved = self.move_in_step(game, m, main);
                    if next_is_variation {
                        before = snapshot;
                        refused_before_variation = !moved && self.keep_going;
                    } else if moved {
                        before = None;
                    }
                }
            }
        }
        if self.deferred.as_ref().is_some_and(|d| d.after.is_some()) {
            self.play_deferred(game, main, None, None);
        }
        if !self.stopped() {
            self.play_postponed(game, main);
        }
    }

    /// A move, with keep-going's resynchronisation: after a refused move, the moves without an
    /// actor that follow it (the rest of that turn) are tried without a report, and the next
    /// move that names its actor first ends the turns in between (passes) so that it can be
    /// judged on its own: each mistake is reported once, and the ones after it still are.
    fn move_in_step(&mut self, game: &mut Game, m: &Move, main: bool) -> bool {
        // A refused move stays kept while its actor's lines follow it (see `refused`).
        let named = m
            .actor
            .as_ref()
            .filter(|_| !m.auto)
            .map(|name| entity_by_name(game, &name.text).ok());
        if let Some(named) = named {
            if self
                .refused
                .as_ref()
                .is_some_and(|r| Some(r.actor) != named)
            {
                self.refused = None;
            }
        }
        let moved = self.move_in_step_kept(game, m, main);
        if let (Some(refused), Some(Some(named))) = (self.refused.as_mut(), named) {
            if moved && refused.actor == named && refused.moves[0].span != m.span {
                refused.replaced_by.get_or_insert(m.span);
            }
        }
        moved
    }

    fn move_in_step_kept(&mut self, game: &mut Game, m: &Move, main: bool) -> bool {
        let Some(failed_in) = self.desync else {
            let reported = self.errors.len() + self.omitted;
            let acting = game.acting_entity();
            let moved = self.play_move(game, m, main);
            if !moved && self.keep_going && self.errors.len() + self.omitted > reported {
                self.desync = Some(acting);
                self.desync_report = (self.errors.len() > reported).then_some(reported);
                self.defer(game, m, reported);
                let actor = m
                    .actor
                    .as_ref()
                    .filter(|_| !m.auto)
                    .and_then(|name| entity_by_name(game, &name.text).ok());
                if self.deferred.is_none() && actor.is_some() && actor == acting {
                    self.refused = actor.map(|actor| Refused {
                        actor,
                        moves: vec![m.clone()],
                        error: (self.errors.len() > reported).then_some(reported),
                        replaced_by: None,
                    });
                }
            }
            return moved;
        };
        let Some(name) = m.actor.as_ref().filter(|_| !m.auto) else {
            // The rest of the refused move's turn: the deferred move's, or the one the game was
            // in.
            if let Some(refused) = self.refused.as_mut().filter(|r| r.replaced_by.is_none()) {
                refused.moves.push(m.clone());
            }
            if let Some(deferred) = self.deferred.as_mut() {
                deferred.moves.push(m.clone());
                return false;
            }
            if failed_in.is_some() && game.acting_entity() == failed_in {
                self.quiet = true;
                let moved = self.play_move(game, m, main);
                self.quiet = false;
                return moved;
            }
            return false;
        };
        let named = match entity_by_name(game, &name.text) {
            Ok(e) => e,
            // A name that names nobody is a mistake of its own.
            Err(_) => {
                self.deferred = None;
                return self.play_move(game, m, main);
            }
        };
        // The move the game waited for, right after one written before it (once the turn in
        // progress ends): the deferred move follows this turn.
        let waiting = self.deferred.take().and_then(|d| {
            (named != d.actor && turn_ends_with(game, d.waited_for, named)).then_some(Deferred {
                waited_for: named,
                ..d
            })
        });
        if !self.resync(game, m.span, main, |g| g.acting_entity() == Some(named)) {
            return false;
        }
        self.scope = None;
        let moved = self.move_in_step_kept(game, m, main);
        if let Some(mut deferred) = waiting.filter(|_| moved) {
            deferred.after = Some(m.span);
            self.deferred = Some(deferred);
        }
        moved
    }

    /// After a move was refused (its report the first past `reported`) because its actor was
    /// not to act (the turn before may have ended as the move implies): it is kept to be
    /// replayed after the turn of the entity the game waits for, should the next line be it.
    fn defer(&mut self, game: &Game, m: &Move, reported: usize) {
        let (Some(name), Some(waited_for)) =
            (m.actor.as_ref().filter(|_| !m.auto), game.acting_entity())
        else {
            return;
        };
        let Ok(actor) = entity_by_name(game, &name.text) else {
            return;
        };
        let error = (self.errors.len() > reported).then_some(reported);
        // A player's `pass` while another entity is to act is refused as not needed when the
        // rules passed that player earlier; it may still be the next round's.
        let not_your_turn = error.and_then(|i| self.errors.get(i)).is_none_or(|e| {
            e.code == "rules::not_your_turn" || e.code == "notation::pass_not_needed"
        });
        if actor != waited_for && not_your_turn {
            self.deferred = Some(Deferred {
                actor,
                waited_for,
                moves: vec![m.clone()],
                error,
                after: None,
            });
        }
    }

    /// Replays the deferred moves (a move written before the turn of the entity the game
    /// waited for) now that this turn is over: that turn ends with passes, and the deferred
    /// moves are replayed as written. Its report then says the two were swapped. Nothing is
    /// changed if they are refused there (the report stands as it was), or if `next` (the actor
    /// of the line that ends the turn) is the deferred move's actor: the move was written again
    /// in its place. At a `heading` that the deferred moves begin (the next round's first move
    /// written before the last one of this round and before the heading), the report says so.
    fn play_deferred(
        &mut self,
        game: &mut Game,
        main: bool,
        next: Option<Entity>,
        heading: Option<(&str, Span)>,
    ) {
        let Some(deferred) = self.deferred.take() else {
            return;
        };
        let Some(after) = deferred.after else {
            return;
        };
        if next == Some(deferred.actor) {
            return;
        }
        let mut trial = game.clone();
        let mut passes = Vec::new();
        while trial.acting_entity() == Some(deferred.waited_for) {
            if passes.len() >= IMPLIED_PASSES
                || trial
                    .process_in_place(&Action::Pass {
                        entity: deferred.waited_for,
                    })
                    .is_err()
            {
                return;
            }
            passes.push(deferred.waited_for);
        }
        if trial.acting_entity() != Some(deferred.actor) {
            return;
        }
        // Tried first without a trace (no report, nothing logged) …
        let first_in = self.quietly(|p| {
            p.scope = None;
            let mut first_in = None;
            for m in &deferred.moves {
                if !p.play_move(&mut trial, m, false) {
                    return None;
                }
                first_in.get_or_insert_with(|| p.played_in.clone());
            }
            first_in
        });
        let Some(first_in) = first_in else {
            return;
        };
        // The next round's first move, before its heading: after the heading.
        let heading = heading.filter(|(round, _)| *round == first_in);
        // … then for good.
        let first = &deferred.moves[0];
        for entity in passes {
            if game.process_in_place(&Action::Pass { entity }).is_err() {
                return;
            }
            if main {
                self.log_implied_pass(entity, first.span);
            }
        }
        self.scope = None;
        match heading {
            Some((_, at)) => self.postponed = Some((at.offset, deferred.moves.clone())),
            None => {
                for m in &deferred.moves {
                    self.play_move(game, m, main);
                }
            }
        }
        let waited_for = game.entity_name(deferred.waited_for);
        let actor = game.entity_name(deferred.actor);
        let line = self.line_of(after.offset);
        let written = self.written_text(after);
        let Some(report) = deferred.error.filter(|&i| i < self.errors.len()) else {
            return;
        };
        match heading {
            Some((round, at)) => {
                let heading_line = self.line_of(at.offset);
                let label = format!(
                    "this is {round}'s first move, written before {}'s last one (line {line}) \
                     and the `{round}` heading (line {heading_line})",
                    self.errors[report].round
                );
                let help = format!(
                    "write it after the `{round}` heading. It is replayed there, after \
                     `{written}`, {waited_for}'s move, which the game waited for, so what follows \
                     is judged as written"
                );
                self.out_of_place(report, "notation::move_before_heading", round, label, help);
            }
            None => {
                self.errors[report].help = Some(shorten_quotes(format!(
                    "the lines are swapped: `{written}` (line {line}) is {waited_for}'s move, \
                     which the game waited for; write it before this one. {actor}'s move is \
                     replayed after it, where it is {actor}'s turn, so what follows is judged as \
                     written"
                )));
            }
        }
    }

    /// Passes, by whoever is to act, until `reached` (at most [`RESYNC_PASSES`]); the game and
    /// the text are then in step again. `false` (nothing changed) if no run of legal passes
    /// gets there.
    fn resync(
        &mut self,
        game: &mut Game,
        at: Span,
        main: bool,
        reached: impl Fn(&Game) -> bool,
    ) -> bool {
        if reached(game) {
            self.desync = None;
            return true;
        }
        let mut trial = game.clone();
        let mut passes = Vec::new();
        while !reached(&trial) {
            let Some(acting) = trial.acting_entity() else {
                return false;
            };
            if passes.len() >= RESYNC_PASSES
                || trial
                    .process_in_place(&Action::Pass { entity: acting })
                    .is_err()
            {
                return false;
            }
            passes.push(acting);
        }
        *game = trial;
        if main {
            for p in passes {
                self.log_implied_pass(p, at);
            }
        }
        self.desync = None;
        true
    }

    fn play_move(&mut self, game: &mut Game, m: &Move, main: bool) -> bool {
        let entity = match &m.actor {
            Some(name) => match entity_by_name(game, &name.text) {
                Ok(e) => e,
                Err(u) => {
                    self.error(
                        game,
                        name.span,
                        u.code,
                        u.message,
                        u.help,
                        Some(name.text.clone()),
                    );
                    return false;
                }
            },
            None => match (self.scope, game.acting_entity()) {
                // A move without an actor continues the turn of the move before it; it never
                // passes silently to whoever acts next.
                (Some((scope, last)), acting) if acting != Some(scope) && !m.auto => {
                    self.turn_over(game, m, scope, last);
                    return false;
                }
                (Some((scope, _)), _) if !m.auto => scope,
                (_, Some(e)) => e,
                (_, None) => {
                    let label = if game.finished {
                        "the game is over".to_string()
                    } else {
                        "nobody is to act".to_string()
                    };
                    self.error(game, m.span, "rules::game_over", label, None, None);
                    return false;
                }
            },
        };
        let actor = game.entity_name(entity);
        let round_before = game.round_label();
        let skipped_before = game.skipped().to_vec();
        let action = match resolve(game, entity, &m.action) {
            Ok(a) => a,
            Err(u) => {
                self.error(game, m.action_span, u.code, u.message, u.help, Some(actor));
                return false;
            }
        };
        let mut processed = game.process_with(&action, self.strict_rules);
        let mut action = action;
        if let Err(v @ RuleViolation::ValueMismatch { .. }) = &processed {
            // Keep-going: a recorded value the rules do not give is reported, and the move is
            // replayed with the rules' value, so that what follows is judged on its own.
            if let Some((played, deviations)) = self
                .keep_going
                .then(|| self.with_the_rules_values(game, entity, m))
                .flatten()
            {
                let help = self.help_for(game, &action, v);
                self.error(
                    game,
                    m.span,
                    v.code(),
                    v.to_string(),
                    help,
                    Some(actor.clone()),
                );
                action = played;
                processed = Ok(deviations);
            }
        }
        let (passes, action, deviations, played_in) = match processed {
            Ok(deviations) => (Vec::new(), action, deviations, round_before.clone()),
            Err(v) => match self.implied_passes(game, m, entity, &v) {
                Implied::Played(trial, passes, action, deviations, round) => {
                    if main && self.stops_within(game, m, &passes) {
                        return false;
                    }
                    *game = trial;
                    (passes, action, deviations, round)
                }
                Implied::Refused(trial, passes, action, v) => {
                    // The turn before ended as the move implies; the move itself is wrong.
                    if main && self.stops_within(game, m, &passes) {
                        return false;
                    }
                    *game = trial;
                    if main {
                        for pass in passes {
                            self.log_implied_pass(pass, m.span);
                        }
                    }
                    self.scope = None;
                    let help = self.help_for(game, &action, &v);
                    self.error(game, m.span, v.code(), v.to_string(), help, Some(actor));
                    return false;
                }
                Implied::None => {
                    let help = self.help_for(game, &action, &v);
                    let (code, label, help) = self.explain(game, m, entity, &action, &v, help);
                    self.error(game, m.span, code, label, help, Some(actor));
                    return false;
                }
            },
        };
        self.scope = (!m.auto).then_some((entity, m.span));
        self.last_move = Some(m.span);
        self.round_of_last_move = round_before;
        self.note_round_of_move(&played_in, m.span, m.auto);
        self.skipped_before_last_move = skipped_before;
        self.note_auto_passes(game, entity, m.span);
        if main {
            for pass in passes {
                self.log_implied_pass(pass, m.span);
            }
        }
        if main {
            let n = self.actions.len() + usize::from(!m.auto || self.actions.is_empty());
            self.warnings
                .extend(deviations.into_iter().map(|deviation| DeviationWarning {
                    src: self.src.clone(),
                    span: m.span,
                    index: n,
                    action_id: n as i64,
                    action_type: action.type_name().to_string(),
                    round: deviation.round.clone(),
                    actor: actor.clone(),
                    deviation,
                }));
        }
        if main {
            let type_name = match &m.action {
                RawAction::Program { kind, .. } => Cow::Owned(format!("program_{kind}")),
                _ => Cow::Borrowed(action.type_name()),
            };
            if m.auto {
                let n = self.actions.len();
                if let Some(parent) = self.actions.last_mut() {
                    if let RawAction::Program { args, .. } = &m.action {
                        self.programs
                            .insert((n - 1, parent.auto_actions.len() + 1), args.clone());
                    }
                    parent.auto_actions.push(AutoAction {
                        type_name,
                        span: m.span,
                        action,
                    });
                    return true;
                }
            }
            let n = self.actions.len();
            if let RawAction::Program { args, .. } = &m.action {
                self.programs.insert((n, 0), args.clone());
            }
            self.actions.push(LoggedAction {
                raw_index: n,
                action_id: n as i64 + 1,
                type_name,
                span: m.span,
                action,
                auto_actions: Vec::new(),
            });
        }
        true
    }

    /// The move with the values it records (revenues, prices, costs, slots, percentages, par
    /// cells) left out, processed: the move as the rules give it.
    fn with_the_rules_values(
        &self,
        game: &mut Game,
        entity: Entity,
        m: &Move,
    ) -> Option<(Action, Vec<crate::engine::Deviation>)> {
        let mut raw = m.action.clone();
        match &mut raw {
            RawAction::Run { routes } => routes.iter_mut().for_each(|r| r.revenue = None),
            RawAction::Train {
                price,
                from: Source::Ipo | Source::Pool,
                ..
            } => *price = None,
            RawAction::Token { slot, cost, .. } => (*slot, *cost) = (None, None),
            RawAction::Par { cell, .. } => *cell = None,
            RawAction::Buy {
                percent,
                share_price,
                ..
            }
            | RawAction::Sell {
                percent,
                share_price,
                ..
            } => (*percent, *share_price) = (None, None),
            _ => return None,
        }
        let action = resolve(game, entity, &raw).ok()?;
        let deviations = game.process_with(&action, self.strict_rules).ok()?;
        Some((action, deviations))
    }

    /// The passes a written move implies, when it is refused as written: a move of a later step
    /// passes the steps before it (`Nord: 57 E7 r2, train 2` passes the token step), and a move
    /// naming another actor ends the turn of the entity that moved last
    /// (`Bob: buy HSM` then `Cid: pass` ends Bob's turn). Returns the game after the passes and
    /// the move, the passes, and the move as resolved there; `None` if no run of passes makes
    /// the move legal (the move's own violation is then reported).
    fn implied_passes(
        &self,
        game: &Game,
        m: &Move,
        entity: Entity,
        violation: &RuleViolation,
    ) -> Implied {
        if m.auto || matches!(m.action, RawAction::Pass) && m.actor.is_none() {
            return Implied::None;
        }
        let Some(acting) = game.acting_entity() else {
            return Implied::None;
        };
        let passer = match violation {
            RuleViolation::WrongStep { .. } if acting == entity => entity,
            RuleViolation::NotYourTurn { .. }
                if m.actor.is_some() && self.scope.map(|(e, _)| e) == Some(acting) =>
            {
                acting
            }
            _ => return Implied::None,
        };
        let mut trial = game.clone();
        let mut passes = Vec::new();
        // The turn before ends (when another actor is named) …
        while passer != entity && trial.acting_entity() == Some(passer) {
            if passes.len() >= IMPLIED_PASSES
                || trial
                    .process_in_place(&Action::Pass { entity: passer })
                    .is_err()
            {
                return Implied::None;
            }
            passes.push(passer);
        }
        if trial.acting_entity() != Some(entity) {
            return Implied::None;
        }
        // … and the steps before the move's are passed.
        // The first refusal for the step (at the step the move's actor is at), unless a later
        // step refuses the move for another reason: that is its problem.
        let mut refused = None;
        while passes.len() <= IMPLIED_PASSES {
            let Ok(action) = resolve(&trial, entity, &m.action) else {
                return Implied::None;
            };
            let round = trial.round_label();
            match trial.process_with(&action, self.strict_rules) {
                Ok(deviations) => return Implied::Played(trial, passes, action, deviations, round),
                Err(v @ RuleViolation::WrongStep { .. }) => {
                    refused.get_or_insert((trial.clone(), passes.clone(), action, v));
                    // A pass that ends the turn is not one the move implies.
                    if trial.acting_entity() != Some(entity)
                        || trial.process_in_place(&Action::Pass { entity }).is_err()
                        || trial.acting_entity() != Some(entity)
                    {
                        break;
                    }
                    passes.push(entity);
                }
                Err(v) => {
                    if !passes.is_empty() {
                        refused = Some((trial, passes, action, v));
                    }
                    break;
                }
            }
        }
        match refused {
            // Another actor was named, and it is to act once the turn before has ended; or a
            // later step of the move's actor refuses it: the move's own problem, where the
            // game then is.
            Some((game_then, passes, action, v))
                if passer != entity || !matches!(v, RuleViolation::WrongStep { .. }) =>
            {
                Implied::Refused(game_then, passes, action, v)
            }
            _ => Implied::None,
        }
    }

    /// Whether the state asked for (`--at N`) falls among the passes a move implies: then
    /// they are replayed up to it, and the replay stops before the move.
    fn stops_within(&mut self, game: &mut Game, m: &Move, passes: &[Entity]) -> bool {
        let Some(Target::Actions(n)) = self.until else {
            return false;
        };
        if self.actions.len() + passes.len() < *n {
            return false;
        }
        for &entity in passes {
            if self.actions.len() >= *n {
                break;
            }
            if game.process(&Action::Pass { entity }).is_err() {
                break;
            }
            self.log_implied_pass(entity, m.span);
        }
        self.stopped_at = Some((m.span.offset, true));
        true
    }

    /// The diagnostic of a refused move, with what the rules did by themselves before it when
    /// that is why: a step skipped, a player passed automatically.
    fn explain(
        &self,
        game: &Game,
        m: &Move,
        entity: Entity,
        action: &Action,
        v: &RuleViolation,
        help: Option<String>,
    ) -> (&'static str, String, Option<String>) {
        match v {
            RuleViolation::NotYourTurn { .. } => {
                let now = turn_of(&game.round_label());
                let Some(&(player, cash, at, _)) = self
                    .auto_passed
                    .iter()
                    .find(|(p, _, _, turn)| Entity::Player(*p) == entity && *turn == now)
                else {
                    return (v.code(), v.to_string(), help);
                };
                let why = skipped_text(game, &Skipped::StockTurn { player, cash });
                let why = match self.text.get(at.offset..at.end()) {
                    Some(last) => format!("{why}, after `{}`", last.trim()),
                    None => why,
                };
                if matches!(m.action, RawAction::Pass) {
                    (
                        "notation::pass_not_needed",
                        format!("this `pass` is not needed: {why}"),
                        Some(format!(
                            "leave it out: the rules pass a player who can do nothing{}",
                            game.acting_entity()
                                .map(|e| format!(
                                    "; the game waits for {}",
                                    notation::name(&game.entity_name(e))
                                ))
                                .unwrap_or_default()
                        )),
                    )
                } else {
                    (v.code(), why, help)
                }
            }
            RuleViolation::WrongStep { step: now, .. } => {
                let skipped_step = |step: &str| {
                    game.skipped().iter().find(|s| {
                        matches!(s, Skipped::Step { corp, step: st, .. }
                            if Entity::Corporation(*corp) == entity && *st == step)
                    })
                };
                let written_step = match action {
                    Action::LayTile { .. } => Some("track"),
                    Action::PlaceToken { .. } => Some("token"),
                    Action::RunRoutes { .. } => Some("routes"),
                    Action::Dividend { .. } => Some("dividend"),
                    Action::BuyTrain { .. } => Some("trains"),
                    _ => None,
                };
                if let Some(skipped) = written_step.and_then(skipped_step) {
                    return (
                        v.code(),
                        skipped_text(game, skipped),
                        Some(format!(
                            "leave this move out; {} is at the {now} step",
                            notation::name(&game.entity_name(entity))
                        )),
                    );
                }
                let earlier: Vec<String> = game
                    .skipped()
                    .iter()
                    .filter(|s| matches!(s, Skipped::Step { corp, .. } if Entity::Corporation(*corp) == entity))
                    .map(|s| skipped_text(game, s))
                    .collect();
                if matches!(action, Action::Pass { .. }) && !earlier.is_empty() {
                    return (
                        v.code(),
                        format!(
                            "{}; this `pass` would be at the {now} step, which cannot be passed",
                            earlier.join("; ")
                        ),
                        Some("leave it out: a skipped step needs no pass".to_string()),
                    );
                }
                (v.code(), v.to_string(), help)
            }
            _ => (v.code(), v.to_string(), help),
        }
    }

    /// A `Result` tag (`Ann 5450, Bob 5193 (bank)`, as `convert` writes it) against the
    /// replayed game: every score, and the end reason when it is one railnote writes.
    fn check_result(&mut self, game: &Game, tag: &notation::Tag) {
        let Some(recorded) = read_result(&tag.value) else {
            self.error(
                game,
                tag.value_span,
                "notation::bad_result",
                format!("`Result` is not `NAME SCORE, …`: `{}`", tag.value),
                Some(if game.finished {
                    format!(
                        "write the final scores, as the game gives them: `[Result \"{}\"]`",
                        result_text(game)
                    )
                } else {
                    "write the final scores once the game is over, e.g. `[Result \"Ann 5450, \
                     Bob 5193 (bank)\"]`"
                        .to_string()
                }),
                None,
            );
            return;
        };
        // Where each entry is, when the value is written without escapes.
        let span_of = |part: &str| match tag.value.find(part) {
            Some(at) if tag.value_span.len == tag.value.len() => {
                Span::new(tag.value_span.offset + at, part.len())
            }
            _ => tag.value_span,
        };
        let help = Some(format!(
            "the game gives `[Result \"{}\"]`",
            result_text(game)
        ));
        if !game.finished {
            self.error(
                game,
                tag.value_span,
                "rules::result_mismatch",
                format!(
                    "recorded a final result, but the game is not over: it stops in {}",
                    game.round_label()
                ),
                Some("leave the `Result` tag out until the game is over".into()),
                None,
            );
            return;
        }
        let values = game.player_values();
        let mut wrong = Vec::new();
        for p in &game.players {
            let actual = values.get(&p.id).map_or(0, |v| v.0);
            match recorded.scores.iter().find(|(name, _, _)| *name == p.name) {
                Some((_, r, text)) if *r != actual => wrong.push((
                    span_of(text),
                    format!("recorded {} {r}, the game gives {actual}", p.name),
                )),
                Some(_) => {}
                None => wrong.push((
                    tag.value_span,
                    format!("no score recorded for {}, the game gives {actual}", p.name),
                )),
            }
        }
        for (name, _, text) in &recorded.scores {
            if !game.players.iter().any(|p| &p.name == name) {
                wrong.push((span_of(text), format!("nobody is called `{name}`")));
            }
        }
        if let (Some(reason), Some(end)) = (&recorded.reason, game.end_reason) {
            let known = ["bank", "bankrupt", "stock_market", "dnf"];
            if known.contains(&reason.as_str()) && reason != end.as_str() {
                wrong.push((
                    span_of(reason),
                    format!(
                        "recorded the end by `{reason}`, the game ends by `{}`",
                        end.as_str()
                    ),
                ));
            }
        }
        for (span, label) in wrong {
            self.error(
                game,
                span,
                "rules::result_mismatch",
                label,
                help.clone(),
                None,
            );
        }
    }

    /// When a check line is evaluated: after the move before it, and after what that move set
    /// off (a new round, with the privates' income at the start of an operating round).
    fn checked_when(&mut self, game: &Game) -> String {
        let Some(last) = self.last_move_text() else {
            return "checked before the first move".to_string();
        };
        let line = self.line_of(self.last_move.map_or(0, |s| s.offset));
        let now = game.round_label();
        let mut when = format!("checked after `{last}` (line {line})");
        if now != self.round_of_last_move {
            when.push_str(&format!(", with which {now} began"));
            let income = matches!(game.round_kind(), crate::engine::RoundKind::Operating)
                && game.companies.iter().enumerate().any(|(i, c)| {
                    !c.closed
                        && c.owner != crate::engine::CompanyOwner::Unsold
                        && game.title.companies[i].revenue.0 > 0
                });
            if income {
                when.push_str(" (the privates' income is paid at its start)");
            }
        }
        when
    }

    /// Keeps who the rules passed automatically during the move just replayed.
    fn note_auto_passes(&mut self, game: &Game, mover: Entity, at: Span) {
        let now = turn_of(&game.round_label());
        let then = turn_of(&self.round_of_last_move);
        self.auto_passed
            .retain(|(p, _, _, turn)| Entity::Player(*p) != mover && *turn == now);
        for s in game.skipped() {
            if let Skipped::StockTurn { player, cash } = s {
                self.auto_passed.retain(|(p, _, _, _)| p != player);
                self.auto_passed.push((*player, *cash, at, then));
            }
        }
    }

    /// The text of the last move replayed, as written.
    fn last_move_text(&self) -> Option<String> {
        let span = self.last_move?;
        Some(self.text.get(span.offset..span.end())?.trim().to_string())
    }

    /// A pass the written move implies, in the log (at the start of that move).
    fn log_implied_pass(&mut self, entity: Entity, at: Span) {
        let n = self.actions.len();
        self.actions.push(LoggedAction {
            raw_index: n,
            action_id: n as i64 + 1,
            type_name: "pass".into(),
            span: Span::new(at.offset, 0),
            action: Action::Pass { entity },
            auto_actions: Vec::new(),
        });
    }

    /// A move without an actor after the turn it would continue is over.
    fn turn_over(&mut self, game: &Game, m: &Move, scope: Entity, last: Span) {
        let whose = notation::name(&game.entity_name(scope));
        let last_text = self.written_text(last);
        let why = if last_text.ends_with("pass") || last_text.ends_with(": p") {
            let skipped: Vec<(&str, SkipReason)> = self
                .skipped_before_last_move
                .iter()
                .filter_map(|s| match s {
                    Skipped::Step { corp, step, why } if Entity::Corporation(*corp) == scope => {
                        Some((*step, *why))
                    }
                    _ => None,
                })
                .collect();
            match skipped.as_slice() {
                [] => format!("{whose}'s turn ended with `{last_text}`"),
                [(_, first), ..] => {
                    let steps: Vec<&str> = skipped.iter().map(|(s, _)| *s).collect();
                    let corp = corp_of(scope).unwrap_or(CorpId(0));
                    format!(
                        "{whose}'s turn ended with the `pass` before it, since the rules had \
                         skipped its {} step{} ({})",
                        and_list(&steps),
                        if steps.len() > 1 { "s" } else { "" },
                        skip_reason_text(game, corp, *first)
                    )
                }
            }
        } else {
            format!("{whose}'s turn is over: nothing was left to {whose} after `{last_text}`")
        };
        let next = game
            .acting_entity()
            .map(|e| notation::name(&game.entity_name(e)));
        let (code, label, help) = if matches!(m.action, RawAction::Pass) {
            (
                "notation::pass_not_needed",
                format!("this `pass` is not needed: {why}"),
                format!(
                    "leave it out: a turn ends by itself when nothing is left to do in it, and where \
                     the next actor is named{}",
                    next.as_ref()
                        .map(|n| format!(" (the game waits for {n})"))
                        .unwrap_or_default()
                ),
            )
        } else {
            (
                "rules::not_your_turn",
                format!("{why}, so this move has no actor"),
                match &next {
                    Some(n) => {
                        format!("the game waits for {n}: write `{n}: …` if the move is theirs")
                    }
                    None => "the game is over".to_string(),
                },
            )
        };
        self.error(game, m.span, code, label, Some(help), None);
    }

    fn help_for(&self, game: &Game, action: &Action, v: &RuleViolation) -> Option<String> {
        if let RuleViolation::EndGame(_) = v {
            let first = notation::name(&game.players.first()?.name);
            let corporation = match game.acting_entity() {
                Some(e @ Entity::Corporation(_)) => {
                    format!(", or `{}: end game`", notation::name(&game.entity_name(e)))
                }
                _ => String::new(),
            };
            return Some(format!(
                "any player may end it, e.g. `{first}: end game`{corporation}"
            ));
        }
        if let RuleViolation::NotYourTurn { .. } = v {
            let who = game.acting_entity()?;
            let name = notation::name(&game.entity_name(who));
            if self.scope.map(|(e, _)| e) == Some(who) {
                let mut trial = game.clone();
                let mut passes = 0;
                while passes < IMPLIED_PASSES
                    && trial.acting_entity() == Some(who)
                    && trial.process(&Action::Pass { entity: who }).is_ok()
                {
                    passes += 1;
                }
                return Some(match trial.acting_entity() {
                    Some(next) if next != who => {
                        let next = notation::name(&trial.entity_name(next));
                        format!("after {name}'s turn the game waits for {next}: write `{next}: …`")
                    }
                    // The turn in progress cannot end here: a pass is not allowed.
                    _ => format!(
                        "{name}'s turn is not over: {name} must still act; legal: {}",
                        legal_list(game, action)
                    ),
                });
            }
            return Some(format!("the game waits for {name}: write `{name}: …`"));
        }
        if let Action::LayTile {
            hex, tile, entity, ..
        } = action
        {
            let map = game.title.map;
            let idx = map.hex_index(*hex)?;
            let legal = game
                .board
                .legal_rotations(map, idx, *tile, corp_of(*entity));
            let name = &map.tile_def(tile.def).name;
            let opts: Vec<String> = (0..6u8)
                .filter(|r| legal & (1 << r) != 0)
                .take(8)
                .map(|r| format!("`{name} {hex} r{r}`"))
                .collect();
            return Some(if opts.is_empty() {
                format!("tile {name} fits no rotation on {hex}")
            } else {
                format!("legal here: {}", opts.join(", "))
            });
        }
        None
    }

    /// Keeps the round a move was made in: the moves made in a round other than the last
    /// heading's, since that heading.
    fn note_round_of_move(&mut self, round: &str, at: Span, auto: bool) {
        self.played_in = round.to_string();
        // An automatic action belongs to the move before it, even when that move began the
        // next round.
        if auto || self.headed_round.as_deref() == Some(round) {
            return;
        }
        match &mut self.unheaded {
            Some((unheaded, _, count)) if unheaded == round => *count += 1,
            _ => self.unheaded = Some((round.to_string(), at, 1)),
        }
    }

    /// A heading written after moves of its round (the first of them before it): one problem,
    /// on the first of those moves. They were replayed where they are written (the passes they
    /// imply ended the round before), as they would have been after the heading.
    fn move_before_heading(&mut self, game: &Game, written: &str, at: Span) -> bool {
        let Some((round, first, count)) = self.unheaded.clone() else {
            return false;
        };
        if round != written || self.desync.is_some() {
            return false;
        }
        let line = self.line_of(at.offset);
        // A move refused where it is written and replayed later (a swap) is reported already.
        if let Some(report) = self
            .errors
            .iter()
            .position(|e| e.span.offset == first.offset)
        {
            let label = format!(
                "this is {round}'s first move, written before the `{round}` heading (line {line})"
            );
            let help = format!(
                "write it after the heading: {round} begins there. It is replayed after the \
                 move the game waited for, so what follows is judged as written"
            );
            self.out_of_place(report, "notation::move_before_heading", &round, label, help);
            return true;
        }
        let label = match count {
            1 => format!(
                "this is {round}'s first move, written before the `{round}` heading (line {line})"
            ),
            n => format!(
                "this is {round}'s first move, and the {} after it are {round}'s too, written \
                 before the `{round}` heading (line {line})",
                if n == 2 {
                    "move".to_string()
                } else {
                    format!("{} moves", n - 1)
                }
            ),
        };
        let help = format!(
            "{round} begins at its heading: write the heading before this line. The moves are \
             replayed as if it stood there, so what follows is judged as written"
        );
        let code = "notation::move_before_heading";
        if let Some(report) = self.error(game, first, code, String::new(), None, None) {
            self.out_of_place(report, code, &round, label, help);
        }
        true
    }

    /// A heading of a later round while the game still waits in this one, and moves after it
    /// (before the next heading) that are this round's last: after them the round ends as the
    /// heading says. They are replayed before the heading, where they belong, reported once (on
    /// the first) and skipped where they are written. When a move was refused just before the
    /// heading because the game waited for another actor (the first move of the next round and
    /// the last one of this round swapped across the heading), it is replayed after the heading,
    /// and its report says so.
    fn moves_after_heading(
        &mut self,
        game: &mut Game,
        body: &[Element],
        at: usize,
        written: &str,
        span: Span,
        main: bool,
    ) -> bool {
        let Some(moved) = self.plan_after_heading(game, body, at, written, true) else {
            return false;
        };
        let actual = game.round_label();
        let first = moved[0];
        let first_text = self.written_text(first.span);
        let first_line = self.line_of(first.span.offset);
        let heading_line = self.line_of(span.offset);
        let swapped = match self.deferred.take_if(|d| d.after.is_none()) {
            Some(d) => Some((d.moves, d.error)),
            None => self
                .refused
                .take_if(|r| r.replaced_by.is_none())
                .map(|r| (r.moves, r.error)),
        }
        .filter(|_| self.desync.is_some());
        // The next round's first move written before the heading is reported already: the
        // two lines are swapped across it.
        let postponed = self
            .postponed
            .as_ref()
            .filter(|(heading, _)| *heading == span.offset)
            .and_then(|(_, moves)| moves.first())
            .map(|m| m.span.offset);
        let swap_report =
            postponed.and_then(|offset| self.errors.iter().position(|e| e.span.offset == offset));
        if let Some(report) = swap_report.and_then(|i| self.errors.get_mut(i)) {
            report.help = Some(shorten_quotes(format!(
                "the lines are swapped across the heading: write `{first_text}` (line \
                 {first_line}), {actual}'s last move, before the heading, and this one after \
                 it. Both are replayed in their places, so what follows is judged as written"
            )));
        } else if swapped.is_none() {
            self.report_after_heading(game, &moved, written, span);
        }
        for m in &moved {
            self.play_move(game, m, main);
            self.played_ahead.push(m.span.offset);
        }
        self.heading(game, written.to_string(), span, main);
        if let Some((moves, error)) = swapped {
            self.scope = None;
            self.postponed = Some((span.offset, moves));
            if let Some(report) = error.filter(|&i| i < self.errors.len()) {
                let label = format!(
                    "this is {written}'s first move, written before {actual}'s last one (line \
                     {first_line}) and the `{written}` heading (line {heading_line})"
                );
                let help = swapped_lines_help(&first_text, first_line);
                self.out_of_place(
                    report,
                    "notation::move_before_heading",
                    written,
                    label,
                    help,
                );
            }
            self.desync = None;
            self.desync_report = None;
        }
        true
    }

    /// A check line that the game does not match, right before a heading of a later round
    /// (the heading at `heading` in `body`) while the game still waits in this one: when the
    /// round's last moves are written after the heading and the check holds after them, they
    /// were written after the check too. They are replayed before the check, reported once,
    /// and skipped where they are written.
    fn moves_after_check(
        &mut self,
        game: &mut Game,
        body: &[Element],
        heading: usize,
        c: &Check,
        main: bool,
    ) {
        let Some(Element::Heading(h)) = body.get(heading) else {
            return;
        };
        if self.desync.is_some() || check_holds(game, c) {
            return;
        }
        let written = h.round.to_string();
        let Some(moved) = self.plan_after_heading(game, body, heading, &written, false) else {
            return;
        };
        let holds = self.quietly(|p| {
            let mut trial = game.clone();
            moved.iter().all(|m| p.play_move(&mut trial, m, false)) && check_holds(&trial, c)
        });
        if !holds {
            return;
        }
        self.report_after_heading(game, &moved, &written, h.span);
        for m in &moved {
            self.play_move(game, m, main);
            self.played_ahead.push(m.span.offset);
        }
    }

    /// The round's last moves written after the heading at `at` in `body` (see
    /// [`Player::moves_after_heading`]): `None` if the heading is not ahead of the game, if no
    /// line after it ends the round so, or (unless `swaps`) if a move refused just before it
    /// waits for them.
    fn plan_after_heading<'b>(
        &mut self,
        game: &Game,
        body: &'b [Element],
        at: usize,
        written: &str,
        swaps: bool,
    ) -> Option<Vec<&'b Move>> {
        let actual = game.round_label();
        if actual == written
            || round_order(written) <= round_order(&actual)
            || game.acting_entity().is_none()
        {
            return None;
        }
        // A move refused before the heading, kept to be replayed after the move the game
        // waited for (or the refused move's actor still to act): the two swapped across it.
        let swapped = match (&self.deferred, &self.refused) {
            _ if !swaps || self.desync.is_none() => None,
            (Some(d), _) if d.after.is_none() => Some((d.actor, d.moves.clone())),
            (None, Some(r)) if r.replaced_by.is_none() => Some((r.actor, r.moves.clone())),
            _ => None,
        };
        match (self.desync.is_some(), &swapped) {
            (true, None) => return None,
            (false, _) if self.heading_passes(game, written).is_some() => return None,
            _ => {}
        }
        let groups = named_moves_after(body, at);
        // Tried without a trace: which of the lines after the heading are this round's (in
        // order; the first lines of the next round are left where they are). One line first
        // (the fewest moved lines explain the heading best; a line of passes last, as ending
        // the round is what a heading implies anyway), then as many as it takes.
        let mut singles: Vec<usize> = (0..groups.len()).collect();
        singles.sort_by_key(|k| {
            groups[*k]
                .iter()
                .all(|m| matches!(m.action, RawAction::Pass))
        });
        let taken = self.quietly(|p| {
            singles
                .iter()
                .map(|k| vec![*k])
                .chain((groups.len() > 1).then(|| (0..groups.len()).collect()))
                .find_map(|order| {
                    p.moves_reach_heading(game, &groups, &order, &actual, written, swapped.as_ref())
                })
        })?;
        Some(
            taken
                .iter()
                .flat_map(|k| groups[*k].iter().copied())
                .collect(),
        )
    }

    /// The report of a round's last moves written after the next round's heading (at `at`).
    fn report_after_heading(&mut self, game: &Game, moved: &[&Move], written: &str, at: Span) {
        let actual = game.round_label();
        let heading_line = self.line_of(at.offset);
        let waited_for = game
            .acting_entity()
            .map(|e| notation::name(&game.entity_name(e)))
            .unwrap_or_default();
        let others: Vec<String> = moved[1..]
            .iter()
            .filter(|m| m.actor.is_some() && !m.auto)
            .map(|m| self.line_of(m.span.offset).to_string())
            .collect();
        let label = if others.is_empty() {
            format!(
                "this is {actual}'s last move, written after the `{written}` heading (line \
                 {heading_line})"
            )
        } else {
            format!(
                "this move and the one{s} on line{s} {} are {actual}'s last, written after the \
                 `{written}` heading (line {heading_line})",
                and_list(&others.iter().map(String::as_str).collect::<Vec<_>>()),
                s = if others.len() > 1 { "s" } else { "" },
            )
        };
        let help = format!(
            "write it before the `{written}` heading: {actual} was not over there (the game \
             waited for {waited_for}). It is replayed before the heading, so what follows is \
             judged as written"
        );
        let code = "notation::move_after_heading";
        if let Some(report) = self.error(game, moved[0].span, code, String::new(), None, None) {
            self.out_of_place(report, code, &actual, label, help);
        }
    }

    /// After a heading: a move refused before it while its actor was to act, followed by the
    /// same actor's move that was replayed, is the actor's first move of this round when it
    /// replays here (the two swapped across the heading). It is replayed after the heading and
    /// the check lines right after it, and its report says so.
    fn refused_before_heading(
        &mut self,
        game: &Game,
        body: &[Element],
        heading: usize,
        written: &str,
        at: Span,
    ) {
        let Some(refused) = self.refused.take() else {
            return;
        };
        let Some(replaced_by) = refused.replaced_by else {
            return;
        };
        if self.desync.is_some()
            || game.round_label() != written
            || game.acting_entity() != Some(refused.actor)
        {
            return;
        }
        // The actor's own line after the heading: the refused one was rewritten, not moved.
        let next_actor = body[heading + 1..].iter().find_map(|e| match e {
            Element::Move(m) if !m.auto => m.actor.as_ref().map(|n| Some(n.text.as_str())),
            Element::Heading(_) => Some(None),
            _ => None,
        });
        if next_actor
            .flatten()
            .is_some_and(|name| entity_by_name(game, name).ok() == Some(refused.actor))
        {
            return;
        }
        let replays = self.quietly(|p| {
            let mut trial = game.clone();
            p.scope = None;
            refused
                .moves
                .iter()
                .all(|m| p.play_move(&mut trial, m, false))
        });
        if !replays {
            return;
        }
        let heading_line = self.line_of(at.offset);
        let line = self.line_of(replaced_by.offset);
        let replaced_text = self.written_text(replaced_by);
        let actor = notation::name(&game.entity_name(refused.actor));
        if let Some(report) = refused.error.filter(|&i| i < self.errors.len()) {
            let label = format!(
                "this is {actor}'s first move of {written}, written before {actor}'s move of {} \
                 (line {line}) and the `{written}` heading (line {heading_line})",
                self.errors[report].round
            );
            let help = swapped_lines_help(&replaced_text, line);
            self.out_of_place(
                report,
                "notation::move_before_heading",
                written,
                label,
                help,
            );
        }
        self.postponed = Some((at.offset, refused.moves));
    }

    /// The first moves of a round written right before its heading (the move at `at` in
    /// `body`, with the moves without an actor after it): reported once, and replayed after the
    /// heading and the check lines right after it, where they belong.
    fn first_moves_before_heading(&mut self, game: &Game, body: &[Element], at: usize) -> bool {
        let Element::Move(m) = &body[at] else {
            return false;
        };
        if self.desync.is_some() || m.auto || m.actor.is_none() {
            return false;
        }
        let (group, next) = move_group(body, at);
        let Some(Element::Heading(h)) = body.get(next) else {
            return false;
        };
        let written = h.round.to_string();
        let unheaded = |p: &Self| {
            p.headed_round.as_deref() != Some(written.as_str())
                && p.unheaded
                    .as_ref()
                    .is_none_or(|(round, _, _)| *round != written)
        };
        if !unheaded(self) {
            return false;
        }
        // Made in the heading's round (once the passes it implies have ended the round before)?
        let fits = self.quietly(|p| {
            let mut trial = game.clone();
            group.iter().enumerate().all(|(n, m)| {
                p.play_move(&mut trial, m, false) && (n > 0 || p.played_in == written)
            })
        });
        if !fits {
            return false;
        }
        let line = self.line_of(h.span.offset);
        let code = "notation::move_before_heading";
        let label = format!(
            "this is {written}'s first move, written before the `{written}` heading (line {line})"
        );
        let help = format!(
            "write it after the heading: {written} begins there. It is replayed after the \
             heading, so what follows is judged as written"
        );
        if let Some(report) = self.error(game, m.span, code, String::new(), None, None) {
            self.out_of_place(report, code, &written, label, help);
        }
        self.played_ahead
            .extend(group[1..].iter().map(|m| m.span.offset));
        self.postponed = Some((h.span.offset, group.into_iter().cloned().collect()));
        true
    }

    /// Replays the moves postponed past a heading (see [`Player::postponed`]).
    fn play_postponed(&mut self, game: &mut Game, main: bool) {
        let Some((_, moves)) = self.postponed.take() else {
            return;
        };
        self.scope = None;
        for m in &moves {
            if !self.play_move(game, m, main) {
                break;
            }
        }
    }

    /// Which of the move groups `order` names, tried in turn (a group that is not `actual`'s
    /// is left out), end the round `actual` so that the game reaches the heading `written`,
    /// after which the `swapped` moves (refused before the heading) replay. Moves are replayed
    /// on a copy of the game; the caller keeps this quiet.
    fn moves_reach_heading(
        &mut self,
        game: &Game,
        groups: &[Vec<&Move>],
        order: &[usize],
        actual: &str,
        written: &str,
        swapped: Option<&(Entity, Vec<Move>)>,
    ) -> Option<Vec<usize>> {
        let scope = self.scope;
        let mut trial = game.clone();
        let mut taken = Vec::new();
        let mut reached = None;
        for &k in order {
            let mut attempt = trial.clone();
            let before = self.scope;
            let fits = groups[k].iter().enumerate().all(|(n, m)| {
                self.play_move(&mut attempt, m, false) && (n > 0 || self.played_in == actual)
            });
            if !fits {
                self.scope = before;
                continue;
            }
            trial = attempt;
            taken.push(k);
            if trial.round_label() == written {
                reached = Some(trial);
                break;
            }
            if let Some((after, _)) = self.heading_passes(&trial, written) {
                reached = Some(after);
                break;
            }
        }
        let replays = reached.is_some_and(|mut after| match swapped {
            None => true,
            Some((actor, moves)) => {
                self.scope = None;
                after.acting_entity() == Some(*actor)
                    && moves.iter().all(|m| self.play_move(&mut after, m, false))
            }
        });
        self.scope = scope;
        replays.then_some(taken)
    }

    /// The passes that end the turn of the entity that moved last, when they bring the game to
    /// the round `written`: the game after them and the passes.
    fn heading_passes(&self, game: &Game, written: &str) -> Option<(Game, Vec<Entity>)> {
        let (passer, _) = self
            .scope
            .filter(|(e, _)| game.acting_entity() == Some(*e))?;
        let mut trial = game.clone();
        let mut passes = Vec::new();
        while passes.len() < IMPLIED_PASSES
            && trial.acting_entity() == Some(passer)
            && trial.process(&Action::Pass { entity: passer }).is_ok()
        {
            passes.push(passer);
        }
        (!passes.is_empty() && trial.round_label() == written).then_some((trial, passes))
    }

    /// A round heading: checked against the round being played. The turn of the entity that
    /// moved last ends here if it can (as where the next actor is named).
    fn heading(&mut self, game: &mut Game, written: String, span: Span, main: bool) {
        if game.round_label() == written {
            return;
        }
        if let Some((trial, passes)) = self.heading_passes(game, &written) {
            *game = trial;
            if main {
                for p in passes {
                    self.log_implied_pass(p, span);
                }
            }
            self.scope = None;
            return;
        }
        let actual = game.round_label();
        let waiting = game
            .acting_entity()
            .map(|e| notation::name(&game.entity_name(e)));
        let ahead = round_order(&written) > round_order(&actual);
        let help = match (&waiting, self.scope) {
            (_, _) if !ahead => {
                let mut why = String::new();
                if let Some(last) = self.last_move_text() {
                    if self.round_of_last_move != actual && !self.round_of_last_move.is_empty() {
                        why = format!("`{last}` ended {}", self.round_of_last_move);
                        let passed: Vec<String> = self
                            .auto_passed
                            .iter()
                            .filter(|(_, _, _, turn)| *turn == turn_of(&actual))
                            .map(|(p, _, _, _)| notation::name(&game.player(*p).name))
                            .collect();
                        if !passed.is_empty() {
                            why.push_str(&format!(
                                " ({} passed automatically: nothing was left to them)",
                                passed.join(", ")
                            ));
                        }
                        why.push_str("; ");
                    }
                }
                format!("{why}write `{actual}` here, or leave the heading out")
            }
            (Some(who), Some((e, _))) if game.acting_entity() == Some(e) => format!(
                "{who}'s turn in {actual} is not over: {who} must still act; legal: {}",
                legal_list(game, &Action::Pass { entity: e })
            ),
            (Some(who), _) => format!(
                "{actual} goes on: the game waits for {who}; write their moves before `{written}`"
            ),
            (None, _) => format!("write `{actual}` here, or leave the heading out"),
        };
        self.error(
            game,
            span,
            "rules::wrong_round",
            format!("this is {actual}, not {written}"),
            Some(help),
            None,
        );
    }

    /// A check line; `names_only` while the game and the text are out of step.
    fn check(&mut self, game: &Game, c: &Check, names_only: bool) {
        for e in &c.entries {
            let (actual, recorded) = checked_value(game, e);
            let unit = if matches!(e.what, CheckValue::Holding(..)) {
                "%"
            } else {
                ""
            };
            match actual {
                Ok(_) if names_only => {
                    let line = self.line_of(e.span.offset);
                    if let Some(report) = self.desync_report.and_then(|i| self.errors.get_mut(i)) {
                        report.unchecked.push((e.span, line));
                    }
                }
                Ok(a) if a == recorded => {}
                Ok(a) => {
                    let when = self.checked_when(game);
                    self.error(
                        game,
                        e.span,
                        "rules::check_failed",
                        format!("recorded {recorded}{unit}, the rules give {a}{unit}"),
                        Some(format!(
                            "{when}; write `= {} {}`",
                            notation::name(&e.who.text),
                            match &e.what {
                                CheckValue::Cash(_) => a.to_string(),
                                CheckValue::Holding(c, _) => format!("{c} {a}%"),
                            }
                        )),
                        None,
                    );
                }
                Err(u) => {
                    self.error(game, e.who.span, u.code, u.message, u.help, None);
                }
            }
        }
    }

    fn correction(&mut self, game: &mut Game, c: &Correction, main: bool) {
        let applied = match &c.kind {
            CorrectionKind::Cash { who, amount } => entity_by_name(game, &who.text)
                .map_err(|u| (who.span, u))
                .and_then(|entity| {
                    let correction = engine_correction::Correction::Cash {
                        entity,
                        amount: Money(*amount),
                    };
                    game.correct(&correction)
                        .map_err(|e| match e {
                            CorrectionError::OutOfRange(_) => (
                                c.span,
                                unresolved("rules::out_of_range", e.to_string()).help(
                                    "a correction moves what the players agreed to move, e.g. `correct cash Ann +50`",
                                ),
                            ),
                            _ => (who.span, unresolved("rules::unknown_entity", e.to_string())),
                        })
                        .map(|_| {
                            (
                                format!("correct cash {} {amount:+}", notation::name(&who.text)),
                                correction,
                            )
                        })
                }),
            CorrectionKind::Tile {
                tile,
                hex,
                orientation,
            } => resolve_tile(game, tile, *hex, orientation, None)
                .and_then(|(tile, rotation)| {
                    let correction = engine_correction::Correction::Tile {
                        hex: *hex,
                        tile,
                        rotation,
                    };
                    let lifted = game.correct(&correction).map_err(|e| {
                        unresolved("rules::tile_unavailable", e.to_string()).help(
                            "a tile correction takes a tile from the supply: `correct tile 57 E7 r2`",
                        )
                    })?;
                    let mut text = format!(
                        "correct tile {} {hex} r{}",
                        game.title.map.tile_name(tile),
                        rotation.get()
                    );
                    for corp in lifted {
                        text.push_str(&format!(
                            " ({}'s token returned)",
                            game.title.corp(corp).sym
                        ));
                    }
                    Ok((text, correction))
                })
                .map_err(|u| (c.span, u)),
            CorrectionKind::Share { share, to } => Self::correct_share(game, share, to),
        };
        match applied {
            Ok((text, correction)) => {
                self.corrections.push(AppliedCorrection {
                    span: c.span,
                    text,
                    round: game.round_label(),
                });
                if main {
                    // Where it is written: after the actions so far, and before the automatic
                    // actions (`& …`) of the last one written after it.
                    self.logged_corrections.push(LoggedCorrection {
                        after: self.actions.len(),
                        autos: self.actions.last().map_or(0, |a| a.auto_actions.len()),
                        span: c.span,
                        correction,
                    });
                }
            }
            Err((span, u)) => {
                self.error(game, span, u.code, u.message, u.help, None);
            }
        }
    }

    /// `correct share Nord_3 Ann`: the certificate to a player, `pool` or `ipo`.
    fn correct_share(
        game: &mut Game,
        share: &Name,
        to: &Name,
    ) -> Result<(String, engine_correction::Correction), (Span, Unresolved)> {
        let id = share_id(game, &share.text).map_err(|u| (share.span, u))?;
        let holder = match to.text.as_str() {
            "pool" => ShareHolder::Pool,
            "ipo" => ShareHolder::Ipo,
            name => match entity_by_name(game, name) {
                Ok(Entity::Player(p)) => ShareHolder::Player(p),
                Ok(_) => {
                    return Err((
                        to.span,
                        unresolved(
                            "rules::unknown_entity",
                            "certificates are corrected to a player, `pool` or `ipo`",
                        ),
                    ))
                }
                Err(u) => return Err((to.span, u)),
            },
        };
        let correction = engine_correction::Correction::Share {
            share: id,
            to: holder,
        };
        game.correct(&correction).map_err(|e| {
            (
                share.span,
                unresolved("rules::unknown_share", e.to_string())
                    .help("correct a normal certificate, e.g. `correct share Nord_3 Ann`"),
            )
        })?;
        Ok((
            format!(
                "correct share {} {}",
                share_text(game, id),
                notation::name(&to.text)
            ),
            correction,
        ))
    }
}

/// A converted document's companion: the ids of players by name (`[Ids "949, 2225"]`).
pub fn player_ids(log: &GameLog) -> BTreeMap<PlayerId, String> {
    log.header
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (PlayerId(i as u8), p.id.clone()))
        .collect()
}

/// Writes one move for `action` (the actor when `with_actor`).
pub fn move_for(game: &Game, action: &Action, with_actor: bool, auto: bool) -> Move {
    let actor = with_actor.then(|| Name::new(game.entity_name(action.entity())));
    Move {
        auto,
        actor,
        action: to_notation(game, action),
        annotation: None,
        span: Span::default(),
        action_span: Span::default(),
    }
}

/// The names a game's text may use, for writing them as the game spells them.
struct Spelling {
    /// Players (from the `Players` tag), corporations, privates, train types.
    names: Vec<String>,
}

impl Spelling {
    /// The name as the game spells it (`nord` → `Nord`); as written if it names nothing, or
    /// more than one thing ignoring case.
    fn of(&self, written: &str) -> String {
        by_name(written, self.names.iter().map(|n| (n.clone(), n.as_str())))
            .map_or_else(|| written.to_string(), str::to_string)
    }

    /// `nord_3` → `Nord_3`, `d-1` → `D-1`, `nord` → `Nord`.
    fn of_id(&self, written: &str, separator: char) -> String {
        if let Some((name, rest)) = written.rsplit_once(separator) {
            let spelled = self.of(name);
            if spelled != name {
                return format!("{spelled}{separator}{rest}");
            }
        }
        self.of(written)
    }

    fn fix(&self, name: &mut String) {
        *name = self.of(name);
    }

    fn body(&self, body: &mut [Element]) {
        for e in body {
            match e {
                Element::Move(m) => {
                    if let Some(actor) = &mut m.actor {
                        self.fix(&mut actor.text);
                    }
                    self.action(&mut m.action);
                }
                Element::Variation(v) => self.body(&mut v.body),
                Element::Check(c) => {
                    for entry in &mut c.entries {
                        if entry.who.text != "bank" {
                            self.fix(&mut entry.who.text);
                        }
                        if let CheckValue::Holding(corp, _) = &mut entry.what {
                            self.fix(corp);
                        }
                    }
                }
                Element::Correction(c) => match &mut c.kind {
                    CorrectionKind::Cash { who, .. } => self.fix(&mut who.text),
                    CorrectionKind::Tile { .. } => {}
                    CorrectionKind::Share { share, to } => {
                        share.text = self.of_id(&share.text, '_');
                        if !matches!(to.text.as_str(), "pool" | "ipo") {
                            self.fix(&mut to.text);
                        }
                    }
                },
                Element::Heading(_) | Element::Comment(_) => {}
            }
        }
    }

    fn action(&self, action: &mut RawAction) {
        match action {
            RawAction::Bid { target, .. } => self.fix(target),
            RawAction::Par { corp, .. } | RawAction::Merge { corp } => self.fix(corp),
            RawAction::Buy { what, .. } | RawAction::Sell { what, .. } => {
                for w in what {
                    *w = self.of_id(w, '_');
                }
            }
            RawAction::Train {
                train,
                from,
                exchange,
                ..
            } => {
                *train = self.of_id(train, '-');
                if let Source::Corp(c) = from {
                    self.fix(c);
                }
                if let Some(x) = exchange {
                    *x = self.of_id(x, '-');
                }
            }
            RawAction::Discard { train } => *train = self.of_id(train, '-'),
            RawAction::Run { routes } => {
                for r in routes {
                    r.train = self.of_id(&r.train, '-');
                }
            }
            RawAction::Assign { hex } => *hex = hex.to_ascii_uppercase(),
            RawAction::Pass
            | RawAction::Lay { .. }
            | RawAction::Token { .. }
            | RawAction::Payout
            | RawAction::Withhold
            | RawAction::Bankrupt
            | RawAction::Vote { .. }
            | RawAction::Program { .. }
            | RawAction::EndGame => {}
        }
    }
}

/// Writes every name of a document as its game spells it: the title, players (as the `Players`
/// tag has them), corporations, privates, certificates and trains (`buy nord` → `buy Nord`,
/// `[Title "1836jr30"]` → `1836Jr30`). What `railnote fmt` writes; a game of a title railnote
/// does not know is left as written.
pub fn spell_names(doc: &mut notation::Document) {
    for game in &mut doc.games {
        let Some(title) = game.tags.iter_mut().find(|t| t.name == "Title") else {
            continue;
        };
        let Some(known) = Title::known_names()
            .iter()
            .find(|n| n.eq_ignore_ascii_case(title.value.trim()))
        else {
            continue;
        };
        title.value = (*known).to_string();
        let Some(facts) = Title::by_name(known) else {
            continue;
        };
        let players = game.tag("Players").map(|t| split_list(&t.value));
        let spelling = Spelling {
            names: players
                .unwrap_or_default()
                .into_iter()
                .chain(facts.corporations.iter().map(|c| c.sym.clone()))
                .chain(facts.companies.iter().map(|c| c.sym.clone()))
                .chain(facts.trains.iter().map(|t| t.name.clone()))
                .collect(),
        };
        spelling.body(&mut game.body);
    }
}

/// The help of a round's first move written before the previous round's last move and the
/// heading between them: both lines are out of place, and this says where each goes.
fn swapped_lines_help(last_move: &str, line: usize) -> String {
    format!(
        "the lines are swapped across the heading: write `{last_move}` (line {line}) before the \
         heading, and this one after it. Both are replayed in their places, so what follows is \
         judged as written"
    )
}
