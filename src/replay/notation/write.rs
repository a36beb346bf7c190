//! The inverse of [`super::resolve()`]: the shortest written form of an action that means it
//! again (shakmaty's `San::from_move`).

use super::names::{share_text, train_text};
use super::resolve::resolve;
use crate::action::{Action, BidTarget, DividendKind};
use crate::engine::{Game, TrainOwner};
use crate::log::Span;
use crate::notation::{Move, Name, Orientation, RawAction, RouteText, Source, TokenAt};

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

pub(super) fn candidates(game: &Game, action: &Action) -> Vec<RawAction> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::notation::test_games::{jr30, played, JR30, OPENING};

    /// shakmaty's promise for `San::from_move`: what is written for an action means it again,
    /// for every legal action at every state of a replayed opening.
    #[test]
    fn every_legal_action_is_written_as_itself() {
        let opening = played(&format!("{JR30}{OPENING}"), false);
        assert!(opening.errors.is_empty());
        let mut game = jr30();
        let mut tried = 0;
        for logged in &opening.log.actions {
            for legal in game.legal_actions().actions {
                let written = to_notation(&game, &legal.action);
                assert_eq!(
                    resolve(&game, legal.action.entity(), &written).as_ref(),
                    Ok(&legal.action),
                    "`{written}` in {}",
                    game.round_label()
                );
                tried += 1;
            }
            game.process_in_place(&logged.action).unwrap();
        }
        assert!(tried > 100, "{tried} actions tried");
    }
}
