//! A rejected action leaves the game exactly as it was (issue 16), as a property over many
//! states of every fixture of every title railnote knows (titles are picked up from
//! `fixtures/<title>/` in the shared data, so a title added later is covered as soon as
//! [`Title::by_name`] knows it). The illegal actions come from the complement of the legal-move
//! generator: legal actions by the wrong entity, actions of other states (the wrong step), and
//! legal actions with forged values (prices, ids in and out of the title's ranges, rotations,
//! hexes off the map).
//!
//! Each is fed to [`Game::process`] (state compared in full with [`Game::state_debug`]), to
//! [`Game::check`] (same verdict), and at every sampled state one of them to a
//! [`Replay`](crate::replay::Replay), which processes in place and rebuilds the state on a
//! rejection.
//!
//! `RAILNOTE_REJECT_EVERY=1 cargo test --release reject_leaves_the_state -- --nocapture`
//! checks every state instead of a sample.

use std::path::PathBuf;

use super::title::Title;
use super::*;
use crate::action::{BidTarget, DividendKind, MarketCell};
use crate::ids::{CityRef, HexId, Percent, Rotation, TileDefId, TileId, TrainKind};
use crate::log::{GameLog, LoggedAction};

/// The fixtures of every title railnote knows, by title; `None` without the shared data.
fn known_fixtures() -> Option<Vec<(String, Vec<PathBuf>)>> {
    let shared = std::env::var_os("RAILNOTE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    let Ok(dirs) = std::fs::read_dir(shared.join("fixtures")) else {
        eprintln!("skipped: {} not found", shared.display());
        return None;
    };
    let mut titles: Vec<(String, Vec<PathBuf>)> = dirs
        .filter_map(|d| d.ok())
        .filter(|d| d.path().is_dir())
        .filter_map(|d| {
            let title = d.file_name().to_string_lossy().into_owned();
            Title::by_name(&title)?;
            let mut files: Vec<PathBuf> = std::fs::read_dir(d.path())
                .ok()?
                .filter_map(|f| Some(f.ok()?.path()))
                .filter(|f| f.extension().is_some_and(|e| e == "json"))
                // Games ended by 18xx.games' "End Game" button: railnote does not read that
                // action yet (tests/common.rs `fixtures` leaves them out the same way).
                .filter(|f| {
                    !std::fs::read_to_string(f).is_ok_and(|t| t.contains(r#""type":"end_game""#))
                })
                .collect();
            files.sort();
            Some((title, files))
        })
        .collect();
    titles.sort();
    Some(titles)
}

/// Every entity of the game.
fn entities(game: &Game) -> Vec<Entity> {
    (0..game.players.len())
        .map(|p| Entity::Player(PlayerId(p as u8)))
        .chain((0..game.corps.len()).map(|c| Entity::Corporation(CorpId(c as u8))))
        .chain((0..game.companies.len()).map(|c| Entity::Company(CompanyId(c as u8))))
        .collect()
}

/// Prices a forger would try: near the stated one, nothing, negative, at and past the limit,
/// and the extremes of the type.
fn forged_prices(price: Money) -> Vec<Money> {
    let mut out: Vec<Money> = [-10, -1, 1, 5, 10]
        .iter()
        .map(|d| Money(price.0.saturating_add(*d)))
        .collect();
    out.extend(
        [
            0,
            -1,
            Money::LIMIT.0,
            Money::LIMIT.0 + 1,
            -Money::LIMIT.0 - 1,
            i64::MAX,
            i64::MIN,
        ]
        .map(Money),
    );
    out
}

/// Hexes: the first and last of the map, and two that no map has.
fn forged_hexes(game: &Game) -> Vec<HexId> {
    let hexes = &game.title.map.hexes;
    let mut out = vec![HexId::new(25, 999), HexId::new(0, -99)];
    out.extend(hexes.first().map(|h| h.id));
    out.extend(hexes.last().map(|h| h.id));
    out
}

/// Tiles: copies and definitions past the title's, and the first preprinted ones.
fn forged_tiles(game: &Game, tile: TileId) -> Vec<TileId> {
    let defs = game.title.map.tiles.len() as u16;
    vec![
        TileId {
            def: tile.def,
            copy: tile.copy + 1,
        },
        TileId {
            def: tile.def,
            copy: u16::MAX,
        },
        TileId {
            def: TileDefId(defs),
            copy: 0,
        },
        TileId {
            def: TileDefId(u16::MAX),
            copy: 0,
        },
        TileId {
            def: TileDefId((tile.def.0 + 1) % defs),
            copy: 0,
        },
    ]
}

/// Trains: other copies, the next type, types past the title's.
fn forged_trains(game: &Game, train: TrainId) -> Vec<TrainId> {
    let kinds = game.title.trains.len() as u8;
    vec![
        TrainId {
            kind: train.kind,
            copy: train.copy + 1,
        },
        TrainId {
            kind: train.kind,
            copy: u16::MAX,
        },
        TrainId {
            kind: TrainKind((train.kind.0 + 1) % kinds),
            copy: 0,
        },
        TrainId {
            kind: TrainKind(kinds),
            copy: 0,
        },
        TrainId {
            kind: TrainKind(u8::MAX),
            copy: 0,
        },
    ]
}

/// A legal action with one value forged.
fn forged(game: &Game, a: &Action) -> Vec<Action> {
    let corps = game.corps.len() as u8;
    let companies = game.companies.len() as u8;
    let mut out = Vec::new();
    let mut with = |f: &dyn Fn(&mut Action)| {
        let mut b = a.clone();
        f(&mut b);
        out.push(b);
    };
    // Entities past the game's tables.
    with(&|b| b.set_entity(Entity::Player(PlayerId(game.players.len() as u8))));
    with(&|b| b.set_entity(Entity::Player(PlayerId(u8::MAX))));
    with(&|b| b.set_entity(Entity::Corporation(CorpId(corps))));
    with(&|b| b.set_entity(Entity::Company(CompanyId(companies))));
    match a {
        Action::Bid { target, price, .. } => {
            for p in forged_prices(*price) {
                with(&|b| {
                    if let Action::Bid { price, .. } = b {
                        *price = p;
                    }
                });
            }
            let targets = [
                BidTarget::Company(CompanyId(companies)),
                BidTarget::Corporation(CorpId(corps)),
                match target {
                    BidTarget::Company(c) => BidTarget::Company(CompanyId((c.0 + 1) % companies)),
                    BidTarget::Corporation(c) => BidTarget::Corporation(CorpId((c.0 + 1) % corps)),
                },
            ];
            for t in targets {
                with(&|b| {
                    if let Action::Bid { target, .. } = b {
                        *target = t;
                    }
                });
            }
        }
        Action::Par { corp, cell, .. } => {
            let cells = [
                MarketCell {
                    price: cell.price + Money(1),
                    ..*cell
                },
                MarketCell {
                    row: u8::MAX,
                    ..*cell
                },
                MarketCell {
                    column: cell.column.wrapping_add(1),
                    ..*cell
                },
                MarketCell {
                    price: Money(i64::MIN),
                    ..*cell
                },
            ];
            for c in cells {
                with(&|b| {
                    if let Action::Par { cell, .. } = b {
                        *cell = c;
                    }
                });
            }
            for k in [CorpId((corp.0 + 1) % corps), CorpId(corps)] {
                with(&|b| {
                    if let Action::Par { corp, .. } = b {
                        *corp = k;
                    }
                });
            }
        }
        Action::BuyShares {
            shares, percent, ..
        }
        | Action::SellShares {
            shares, percent, ..
        } => {
            let corp = shares.first().map_or(CorpId(0), |s| s.corp);
            let share_lists = [
                vec![ShareId {
                    corp,
                    index: u8::MAX,
                }],
                vec![ShareId {
                    corp: CorpId(corps),
                    index: 1,
                }],
                vec![ShareId {
                    corp: CorpId((corp.0 + 1) % corps),
                    index: 1,
                }],
                shares.iter().chain(shares).copied().collect(),
                Vec::new(),
            ];
            for list in share_lists {
                with(&|b| {
                    if let Action::BuyShares { shares, .. } | Action::SellShares { shares, .. } = b
                    {
                        *shares = list.clone();
                    }
                });
            }
            let p = percent.map_or(10, |p| p.0);
            for q in [0, p + 10, p.saturating_sub(5), u8::MAX] {
                with(&|b| {
                    if let Action::BuyShares { percent, .. } | Action::SellShares { percent, .. } =
                        b
                    {
                        *percent = Some(Percent(q));
                    }
                });
            }
        }
        Action::BuyCompany { company, price, .. } => {
            for p in forged_prices(*price) {
                with(&|b| {
                    if let Action::BuyCompany { price, .. } = b {
                        *price = p;
                    }
                });
            }
            for k in [CompanyId((company.0 + 1) % companies), CompanyId(companies)] {
                with(&|b| {
                    if let Action::BuyCompany { company, .. } = b {
                        *company = k;
                    }
                });
            }
        }
        Action::LayTile { tile, rotation, .. } => {
            for r in (0..6).filter(|r| *r != rotation.get()) {
                with(&|b| {
                    if let Action::LayTile { rotation, .. } = b {
                        *rotation = Rotation::new(r).unwrap_or_default();
                    }
                });
            }
            for h in forged_hexes(game) {
                with(&|b| {
                    if let Action::LayTile { hex, .. } = b {
                        *hex = h;
                    }
                });
            }
            for t in forged_tiles(game, *tile) {
                with(&|b| {
                    if let Action::LayTile { tile, .. } = b {
                        *tile = t;
                    }
                });
            }
        }
        Action::PlaceToken {
            city, slot, cost, ..
        } => {
            let cities = forged_tiles(game, city.tile)
                .into_iter()
                .map(|tile| CityRef { tile, ..*city })
                .chain([CityRef {
                    part: u8::MAX,
                    ..*city
                }]);
            for c in cities {
                with(&|b| {
                    if let Action::PlaceToken { city, .. } = b {
                        *city = c;
                    }
                });
            }
            for s in [Some(slot.unwrap_or(0) + 1), Some(u8::MAX)] {
                with(&|b| {
                    if let Action::PlaceToken { slot, .. } = b {
                        *slot = s;
                    }
                });
            }
            for p in forged_prices(cost.unwrap_or(Money::ZERO)) {
                with(&|b| {
                    if let Action::PlaceToken { cost, .. } = b {
                        *cost = Some(p);
                    }
                });
            }
        }
        Action::RunRoutes { routes, .. } => {
            if let Some(first) = routes.first() {
                for t in forged_trains(game, first.train) {
                    with(&|b| {
                        if let Action::RunRoutes { routes, .. } = b {
                            routes[0].train = t;
                        }
                    });
                }
                for p in forged_prices(first.revenue.unwrap_or(Money::ZERO)) {
                    with(&|b| {
                        if let Action::RunRoutes { routes, .. } = b {
                            routes[0].revenue = Some(p);
                        }
                    });
                }
                for h in forged_hexes(game) {
                    with(&|b| {
                        if let Action::RunRoutes { routes, .. } = b {
                            routes[0].connections.push(vec![h, h]);
                        }
                    });
                }
                with(&|b| {
                    if let Action::RunRoutes { routes, .. } = b {
                        let twice = routes[0].clone();
                        routes.push(twice);
                    }
                });
            }
        }
        Action::BuyTrain {
            train,
            price,
            exchange,
            ..
        } => {
            for p in forged_prices(*price) {
                with(&|b| {
                    if let Action::BuyTrain { price, .. } = b {
                        *price = p;
                    }
                });
            }
            for t in forged_trains(game, *train) {
                with(&|b| {
                    if let Action::BuyTrain { train, .. } = b {
                        *train = t;
                    }
                });
                with(&|b| {
                    if let Action::BuyTrain { exchange, .. } = b {
                        *exchange = Some(t);
                    }
                });
            }
            if exchange.is_some() {
                with(&|b| {
                    if let Action::BuyTrain { exchange, .. } = b {
                        *exchange = None;
                    }
                });
            }
        }
        Action::DiscardTrain { train, .. } => {
            for t in forged_trains(game, *train) {
                with(&|b| {
                    if let Action::DiscardTrain { train, .. } = b {
                        *train = t;
                    }
                });
            }
        }
        Action::Dividend { kind, .. } => with(&|b| {
            if let Action::Dividend { kind: k, .. } = b {
                *k = match kind {
                    DividendKind::Payout => DividendKind::Withhold,
                    DividendKind::Withhold => DividendKind::Payout,
                };
            }
        }),
        Action::Assign { .. } => {
            for h in forged_hexes(game) {
                with(&|b| {
                    if let Action::Assign { hex, .. } = b {
                        *hex = h;
                    }
                });
            }
        }
        Action::Merge { corp, .. } => {
            for k in [CorpId((corp.0 + 1) % corps), CorpId(corps)] {
                with(&|b| {
                    if let Action::Merge { corp, .. } = b {
                        *corp = k;
                    }
                });
            }
        }
        Action::Vote { in_favour, .. } => with(&|b| {
            if let Action::Vote { in_favour: v, .. } = b {
                *v = !*in_favour;
            }
        }),
        Action::Pass { .. }
        | Action::Bankrupt { .. }
        | Action::Program { .. }
        | Action::EndGame { .. } => {}
    }
    out
}

/// Candidate illegal actions at `game`: the legal actions by every other entity and with
/// forged values, and `elsewhere` (actions of other states: the wrong step).
fn candidates(game: &Game, elsewhere: &[&Action]) -> Vec<Action> {
    let legal = game.legal_actions();
    let everyone = entities(game);
    let mut out = Vec::new();
    // The generator lists every run and every private price; a few of each kind are enough.
    let mut per_kind: BTreeMap<&str, usize> = BTreeMap::new();
    for l in &legal.actions {
        let seen = per_kind.entry(l.action.type_name()).or_default();
        *seen += 1;
        if *seen > 4 {
            continue;
        }
        for e in &everyone {
            if *e != l.action.entity() {
                let mut a = l.action.clone();
                a.set_entity(*e);
                out.push(a);
            }
        }
        out.extend(forged(game, &l.action));
        if let Some(max) = l.max_price {
            out.push(l.at_price(max + Money(1)));
        }
    }
    out.extend(elsewhere.iter().map(|a| (*a).clone()));
    for e in everyone {
        out.push(Action::Pass { entity: e });
        out.push(Action::Bankrupt { entity: e });
        out.push(Action::Dividend {
            entity: e,
            kind: DividendKind::Payout,
        });
        out.push(Action::Vote {
            entity: e,
            in_favour: true,
        });
        out.push(Action::EndGame { entity: e });
    }
    out
}

/// What the property found in one game.
#[derive(Default)]
struct Found {
    states: usize,
    rejected: usize,
    replays: usize,
    problems: Vec<String>,
}

/// The log cut after `keep` actions, then `action`.
fn cut_with(log: &GameLog, keep: usize, action: &Action) -> GameLog {
    let mut cut = log.clone();
    cut.actions.truncate(keep);
    cut.actions.push(LoggedAction {
        raw_index: keep,
        action_id: keep as i64 + 1,
        type_name: action.type_name().into(),
        span: crate::log::Span::default(),
        action: action.clone(),
        auto_actions: Vec::new(),
    });
    cut
}

fn check_log(log: &GameLog, every: usize, found: &mut Found) {
    let mut game =
        Game::with_stated_setup(&crate::replay::setup(log), log.header.stated_setup.clone())
            .expect("the fixture sets up");
    let n = log.actions.len();
    let step = if every > 0 { every } else { (n / 40).max(1) };
    for k in 0..=n {
        if k % step == 0 || k == n {
            found.states += 1;
            let before = game.state_debug();
            // Actions of other states: the ones taken a little before and after this one.
            let elsewhere: Vec<&Action> = [k.wrapping_sub(2), k + 1, k + 2, k + 7]
                .iter()
                .filter_map(|&i| log.actions.get(i))
                .map(|l| &l.action)
                .collect();
            let mut replayed = false;
            for a in candidates(&game, &elsewhere) {
                let verdict = game.check(&a);
                let mut trial = game.clone();
                match trial.process(&a) {
                    Ok(deviations) => {
                        if let Err(e) = verdict {
                            found.problems.push(format!(
                                "{} #{k}: process accepts what check rejects ({e}): {a:?}",
                                log.name
                            ));
                        }
                        // A strict replay refuses a deviation, and the refusal changes nothing
                        // either.
                        if !deviations.is_empty() {
                            let mut strict = game.clone();
                            let refused = strict.process_with(&a, true);
                            if !matches!(refused, Err(RuleViolation::PrintedRule(_)))
                                || strict.state_debug() != before
                            {
                                found.problems.push(format!(
                                    "{} #{k}: the strict refusal ({refused:?}) changed the state or did not happen: {a:?}",
                                    log.name
                                ));
                            }
                        }
                    }
                    Err(v) => {
                        found.rejected += 1;
                        if verdict.as_ref() != Err(&v) {
                            found.problems.push(format!(
                                "{} #{k}: process says {v:?}, check {verdict:?}: {a:?}",
                                log.name
                            ));
                        }
                        if trial.state_debug() != before {
                            found.problems.push(format!(
                                "{} #{k}: rejected ({v}) but the state changed: {a:?}",
                                log.name
                            ));
                        }
                        if !replayed && k < n {
                            replayed = true;
                            found.replays += 1;
                            let cut = cut_with(log, k, &a);
                            let mut replay =
                                crate::replay::Replay::new(&cut).expect("the fixture sets up");
                            while replay.processed() < k {
                                let _ = replay.step();
                            }
                            let stepped = replay.step();
                            if !matches!(stepped, Some(Err(_)))
                                || replay.game().state_debug() != before
                            {
                                found.problems.push(format!(
                                    "{} #{k}: the replay did not reject it or changed the state: {a:?}",
                                    log.name
                                ));
                            }
                        }
                    }
                }
            }
        }
        let Some(logged) = log.actions.get(k) else {
            break;
        };
        let accepted = std::iter::once(&logged.action)
            .chain(logged.auto_actions.iter().map(|a| &a.action))
            .all(|a| game.process(a).is_ok());
        if !accepted {
            // The conformance tests are about this game; the states up to here were checked.
            eprintln!("{}: stops at action {} (rejected)", log.name, k + 1);
            return;
        }
    }
}

#[test]
fn reject_leaves_the_state_unchanged() {
    let Some(titles) = known_fixtures() else {
        return;
    };
    let every: usize = std::env::var("RAILNOTE_REJECT_EVERY")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut found = Found::default();
    let mut games = 0;
    for (title, files) in &titles {
        assert!(!files.is_empty(), "no fixture for {title}");
        for path in files {
            let text = std::fs::read_to_string(path).expect("readable fixture");
            let log = crate::log::read(&path.display().to_string(), &text)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            check_log(&log, every, &mut found);
            games += 1;
        }
    }
    eprintln!(
        "{} titles, {games} games, {} states, {} rejected actions ({} through a replay)",
        titles.len(),
        found.states,
        found.rejected,
        found.replays
    );
    assert!(
        found.problems.is_empty(),
        "{} problems:\n{}",
        found.problems.len(),
        found.problems[..found.problems.len().min(30)].join("\n")
    );
    assert!(found.rejected > 10 * found.states, "{}", found.rejected);
}
