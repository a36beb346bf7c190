//! Resolution: a written move ([`RawAction`]) to the engine [`Action`] it means in this
//! position (shakmaty's `San::to_move`). What the rules imply may be left out (tile copy,
//! certificates, train copy and price, par cell); what cannot mean anything here is an
//! [`Unresolved`]. Judging legality is the engine's.

use super::diagnostics::Code;
use super::names::{corp, did_you_mean, explicit_train, find_company, find_train_kind, share_id};
use crate::action::{Action, BidTarget, DividendKind, Entity, MarketCell, RouteSpec};
use crate::engine::map::Layout;
use crate::engine::{Game, TrainOwner};
use crate::ids::{CityRef, CorpId, HexId, Money, Percent, Rotation, ShareId, TileId, TrainId};
use crate::notation::{Orientation, RawAction, Side, Source, TokenAt};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unresolved {
    /// Stable code (`rules::unknown_entity`, `rules::tile_unavailable`, …).
    pub code: Code,
    /// What is wrong.
    pub message: String,
    /// How to write it instead.
    pub help: Option<String>,
}

pub(super) fn unresolved(code: Code, message: impl Into<String>) -> Unresolved {
    Unresolved {
        code,
        message: message.into(),
        help: None,
    }
}

impl Unresolved {
    pub(super) fn help(mut self, help: impl Into<String>) -> Unresolved {
        self.help = Some(help.into());
        self
    }
}

/// A train written as `3-1` (explicit) or `3` (the first fitting one among `candidates`).
pub(super) fn pick_train(
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
            Code::UnknownTrain,
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
        .ok_or_else(|| unresolved(Code::NoSuchTrain, format!("{whose} has no {text} train")))
}

pub(super) fn corp_of(entity: Entity) -> Option<CorpId> {
    match entity {
        Entity::Corporation(c) => Some(c),
        _ => None,
    }
}

pub(super) fn corp_trains(game: &Game, entity: Entity) -> Vec<TrainId> {
    corp_of(entity).map_or_else(Vec::new, |c| game.corp(c).trains.clone())
}

/// The compass sides of edges 0–5 of a layout.
pub fn sides(layout: Layout) -> [Side; 6] {
    match layout {
        Layout::Pointy => [Side::SW, Side::W, Side::NW, Side::NE, Side::E, Side::SE],
        Layout::Flat => [Side::S, Side::SW, Side::NW, Side::N, Side::NE, Side::SE],
    }
}

pub(super) fn exits_text(layout: Layout, mask: u8) -> String {
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
pub(super) fn resolve_tile(
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
            Code::UnknownHex,
            format!("the {} map has no hex {hex}", title.name),
        ));
    };
    let tile_id = match map.parse_tile_id(tile) {
        Some(t) => t,
        None => {
            let Some(def) = map.tile_def_by_name(tile) else {
                return Err(unresolved(
                    Code::UnknownTile,
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
                        Code::TileUnavailable,
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
                            Code::BadExits,
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
                        Code::BadExits,
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
                .map_err(|_| unresolved(Code::UnknownHex, format!("`{hex}` is not a hex")))?,
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
                                Code::NoParPrice,
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
                                Code::Ambiguous,
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
                            Code::PriceNeeded,
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
                    unresolved(Code::UnknownCity, format!("no city `{text}`")).help(
                        "a city id is `TILE-copy-part`, e.g. `57-0-0`; or write the hex: `tok E11`",
                    )
                })?,
                TokenAt::Hex(hex, n) => {
                    let Some(idx) = map.hex_index(*hex) else {
                        return Err(unresolved(
                            Code::UnknownHex,
                            format!("the {} map has no hex {hex}", title.name),
                        ));
                    };
                    let (tile, _) = game.board.tile_at(idx);
                    let def = map.tile_def(tile.def);
                    let k = n.map_or(0, |n| usize::from(n) - 1);
                    let Some(node) = def.cities.get(k) else {
                        return Err(unresolved(
                            Code::UnknownCity,
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
                        Code::UnknownHex,
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
                        Code::PriceNeeded,
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

pub(super) fn pick_shares(
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
            Code::UnknownShare,
            "name one corporation, or certificates only",
        )
        .help("e.g. `buy 2 Nord` or `buy Nord_3 Nord_4`"));
    };
    let c = corp(game, sym)?;
    let n = usize::from(count.unwrap_or(1));
    let avail = available(c);
    if avail.len() < n {
        return Err(unresolved(
            Code::NoSuchShare,
            format!("{whose} has {} {sym} certificate(s), not {n}", avail.len()),
        ));
    }
    Ok(avail[..n].to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Orientation;
    use crate::replay::notation::names::find_corp;
    use crate::replay::notation::test_games::jr30;

    fn nord(game: &Game) -> Entity {
        Entity::Corporation(find_corp(game.title, "Nord").unwrap())
    }

    fn lay(tile: &str, hex: &str, orientation: Orientation) -> RawAction {
        RawAction::Lay {
            tile: tile.into(),
            hex: hex.parse().unwrap(),
            orientation,
        }
    }

    #[test]
    fn a_lay_takes_the_first_copy_in_the_supply() {
        let game = jr30();
        let raw = lay("57", "E7", Orientation::Rotation(2));
        let Ok(Action::LayTile { tile, rotation, .. }) = resolve(&game, nord(&game), &raw) else {
            panic!("57 E7 r2 resolves to a lay");
        };
        assert_eq!(game.title.map.tile_name(tile), "57-0");
        assert_eq!(rotation.get(), 2);
    }

    #[test]
    fn exits_name_the_first_rotation_that_has_them() {
        let game = jr30();
        let map = game.title.map;
        let def = map.tile_def(map.tile_def_by_name("57").unwrap());
        let names = sides(map.layout);
        for r in 0..6u8 {
            let exits: Vec<Side> = (0..6)
                .filter(|e| def.exits(r) & (1 << e) != 0)
                .map(|e| names[e])
                .collect();
            let raw = lay("57", "E7", Orientation::Sides(exits));
            let Ok(Action::LayTile { rotation, .. }) = resolve(&game, nord(&game), &raw) else {
                panic!("the exits of rotation {r} resolve");
            };
            // Tile 57 is a straight track: turned by three sides it is the same.
            assert_eq!(rotation.get(), r % 3);
        }
    }

    #[test]
    fn what_the_game_does_not_have_is_named() {
        let game = jr30();
        let u = resolve(
            &game,
            nord(&game),
            &lay("57", "Z99", Orientation::Rotation(0)),
        )
        .unwrap_err();
        assert_eq!(
            (u.code, u.message.as_str()),
            (Code::UnknownHex, "the 1836Jr30 map has no hex Z99")
        );
        let u = resolve(
            &game,
            nord(&game),
            &lay("999", "E7", Orientation::Rotation(0)),
        )
        .unwrap_err();
        assert_eq!(
            (u.code, u.message.as_str()),
            (Code::UnknownTile, "1836Jr30 has no tile `999`")
        );
        let par = RawAction::Par {
            corp: "Nord".into(),
            price: 81,
            cell: None,
        };
        let u = resolve(&game, Entity::Player(crate::ids::PlayerId(0)), &par).unwrap_err();
        assert_eq!(u.code, Code::NoParPrice);
        assert!(u.help.unwrap().starts_with("par prices: `par Nord "));
    }

    #[test]
    fn a_count_of_shares_needs_as_many_certificates() {
        let game = jr30();
        let buy = RawAction::Buy {
            count: Some(12),
            what: vec!["Nord".into()],
            pool: true,
            percent: None,
            price: None,
            share_price: None,
        };
        let u = resolve(&game, Entity::Player(crate::ids::PlayerId(0)), &buy).unwrap_err();
        assert_eq!(
            (u.code, u.message.as_str()),
            (
                Code::NoSuchShare,
                "the pool has 0 Nord certificate(s), not 12"
            )
        );
    }
}
