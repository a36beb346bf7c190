//! Writes a game as an 18xx.games JSON log (serialize only): the inverse of the importer in
//! [`crate::log`] for the actions railnote generates. Player ids are 1-based seat numbers;
//! routes carry `connections` and `nodes` but no `revenue`, so the reference computes it.

use serde_json::{json, Map, Value};

use crate::action::{Action, BidTarget, DividendKind, Entity};
use crate::engine::{Game, GameEndReason, GameSetup, RoundKind};
use crate::ids::{CityRef, ShareId, TrainId};

/// The JSON log of a game played from `setup` with `actions`; `game` is the state after them
/// (its result and end reason are written when it is finished).
pub fn game_log(setup: &GameSetup, seed: u64, actions: &[Action], game: &Game) -> Value {
    let players: Vec<Value> = setup
        .players
        .iter()
        .enumerate()
        .map(|(i, name)| json!({"id": i + 1, "name": name}))
        .collect();
    let list: Vec<Value> = actions
        .iter()
        .enumerate()
        .filter(|(_, a)| !matches!(a, Action::Program { .. }))
        .map(|(i, a)| action_json(game, a, i as i64 + 1))
        .collect();
    let mut out = Map::new();
    out.insert("id".into(), json!(seed));
    out.insert("title".into(), json!(setup.title));
    out.insert("players".into(), Value::Array(players));
    out.insert(
        "settings".into(),
        json!({"seed": seed, "optional_rules": setup.options.optional_rules}),
    );
    out.insert("actions".into(), Value::Array(list));
    if game.finished {
        let result: Map<String, Value> = game
            .player_values()
            .into_iter()
            .map(|(p, v)| ((p.0 as usize + 1).to_string(), json!(v.0)))
            .collect();
        out.insert("status".into(), json!("finished"));
        out.insert("result".into(), Value::Object(result));
        let reason = game.end_reason.map(GameEndReason::as_str);
        out.insert("game_end_reason".into(), json!(reason));
    } else {
        out.insert("status".into(), json!("active"));
    }
    out.insert("turn".into(), json!(game.turn));
    let round = match game.round_kind() {
        RoundKind::Auction => "Auction Round",
        RoundKind::Stock => "Stock Round",
        RoundKind::Operating => "Operating Round",
        RoundKind::Merger => "Merger Round",
    };
    out.insert("round".into(), json!(round));
    Value::Object(out)
}

fn entity_json(game: &Game, e: Entity) -> (Value, &'static str) {
    match e {
        Entity::Player(p) => (json!(p.0 as usize + 1), "player"),
        Entity::Corporation(c) => (json!(game.title.corp(c).sym), "corporation"),
        Entity::Company(c) => (json!(game.title.company(c).sym), "company"),
    }
}

fn share(game: &Game, s: ShareId) -> String {
    format!("{}_{}", game.title.corp(s.corp).sym, s.index)
}

fn train(game: &Game, t: TrainId) -> String {
    game.train_name(t)
}

fn city(game: &Game, c: CityRef) -> String {
    format!("{}-{}", game.title.map.tile_name(c.tile), c.part)
}

/// One action as the reference writes it.
pub fn action_json(game: &Game, a: &Action, id: i64) -> Value {
    let (entity, entity_type) = entity_json(game, a.entity());
    let mut o = Map::new();
    o.insert("type".into(), json!(a.type_name()));
    o.insert("entity".into(), entity);
    o.insert("entity_type".into(), json!(entity_type));
    o.insert("id".into(), json!(id));
    match a {
        Action::Bid { target, price, .. } => {
            match target {
                BidTarget::Company(c) => {
                    o.insert("company".into(), json!(game.title.company(*c).sym))
                }
                BidTarget::Corporation(c) => {
                    o.insert("corporation".into(), json!(game.title.corp(*c).sym))
                }
            };
            o.insert("price".into(), json!(price.0));
        }
        Action::Par { corp, cell, .. } => {
            o.insert("corporation".into(), json!(game.title.corp(*corp).sym));
            o.insert(
                "share_price".into(),
                json!(format!("{},{},{}", cell.price.0, cell.row, cell.column)),
            );
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
            if let Some(price) = share_price {
                o.insert("share_price".into(), json!(price.0));
            }
            let list: Vec<String> = shares.iter().map(|s| share(game, *s)).collect();
            o.insert("shares".into(), json!(list));
            let sum: u8 = shares.iter().map(|s| game.share_percent(*s)).sum();
            o.insert("percent".into(), json!(percent.map_or(sum, |p| p.0)));
        }
        Action::BuyCompany { company, price, .. } => {
            o.insert("company".into(), json!(game.title.company(*company).sym));
            o.insert("price".into(), json!(price.0));
        }
        Action::LayTile {
            hex,
            tile,
            rotation,
            ..
        } => {
            o.insert("hex".into(), json!(hex.to_string()));
            o.insert("tile".into(), json!(game.title.map.tile_name(*tile)));
            o.insert("rotation".into(), json!(rotation.get()));
        }
        Action::PlaceToken { city: c, slot, .. } => {
            o.insert("city".into(), json!(city(game, *c)));
            o.insert("slot".into(), json!(slot.unwrap_or(0)));
            if let Entity::Corporation(corp) = a.entity() {
                o.insert("tokener".into(), json!(game.title.corp(corp).sym));
            }
            if slot.is_none() {
                o.remove("slot");
            }
        }
        Action::RunRoutes { routes, .. } => {
            let list: Vec<Value> = routes
                .iter()
                .map(|r| {
                    let connections: Vec<Vec<String>> = r
                        .connections
                        .iter()
                        .map(|seg| seg.iter().map(|h| h.to_string()).collect())
                        .collect();
                    let nodes: Vec<String> =
                        r.nodes.iter().map(|(h, p)| format!("{h}-{p}")).collect();
                    let mut route = Map::new();
                    route.insert("train".into(), json!(train(game, r.train)));
                    if r.walk.is_empty() {
                        route.insert("connections".into(), json!(connections));
                    } else {
                        // A route of an older log: the hexes it walks.
                        let walk: Vec<String> = r.walk.iter().map(|h| h.to_string()).collect();
                        route.insert("hexes".into(), json!(walk));
                    }
                    if let Some(rev) = r.revenue {
                        route.insert("revenue".into(), json!(rev.0));
                    }
                    if r.walk.is_empty() {
                        route.insert("nodes".into(), json!(nodes));
                    }
                    Value::Object(route)
                })
                .collect();
            o.insert("routes".into(), Value::Array(list));
        }
        Action::Dividend { kind, .. } => {
            let k = match kind {
                DividendKind::Payout => "payout",
                DividendKind::Withhold => "withhold",
            };
            o.insert("kind".into(), json!(k));
        }
        Action::BuyTrain {
            train: t,
            price,
            exchange,
            ..
        } => {
            o.insert("train".into(), json!(train(game, *t)));
            o.insert("price".into(), json!(price.0));
            o.insert("variant".into(), json!(game.title.train(t.kind).name));
            if let Some(x) = exchange {
                o.insert("exchange".into(), json!(train(game, *x)));
            }
        }
        Action::DiscardTrain { train: t, .. } => {
            o.insert("train".into(), json!(train(game, *t)));
        }
        Action::Pass { .. }
        | Action::Bankrupt { .. }
        | Action::Program { .. }
        | Action::EndGame { .. } => {}
        Action::Assign { hex, .. } => {
            o.insert("target".into(), json!(hex.to_string()));
            o.insert("target_type".into(), json!("hex"));
        }
        Action::Merge { corp, .. } => {
            o.insert("corporation".into(), json!(game.title.corp(*corp).sym));
        }
        Action::Vote { in_favour, .. } => {
            o.insert(
                "choice".into(),
                json!(if *in_favour { "for" } else { "against" }),
            );
        }
    }
    Value::Object(o)
}
