//! Legal-move generation agrees with the legality check, over every state of every fixture and
//! of deterministic self-play games:
//! (a) every listed action is accepted by `check`;
//! (b) the action the log took is listed;
//! (c) for mutations of it (other prices, rotations, hexes, tiles, cities, entities, kinds),
//!     being listed and being accepted coincide.

use railnote::action::{Action, BidTarget, DividendKind, Entity, MarketCell};
use railnote::engine::{Game, LegalActions};
use railnote::ids::{
    CityRef, CorpId, HexId, Money, Percent, PlayerId, Rotation, ShareId, TileDefId, TileId,
};
use railnote::selfplay::{self, Policy, Rng};

use crate::common::{fixtures, shared_dir};

/// Checks the three properties at `game` for the action taken there; returns the problems.
pub fn agreement(game: &Game, taken: Option<&Action>, rng: &mut Rng) -> Vec<String> {
    let mut problems = Vec::new();
    let legal = game.legal_actions();
    let at = game.round_label();
    for l in &legal.actions {
        for a in [Some(l.action.clone()), l.max_price.map(|p| l.at_price(p))]
            .into_iter()
            .flatten()
        {
            if let Err(e) = game.check(&a) {
                problems.push(format!("{at}: listed but rejected: {a:?}: {e}"));
            }
        }
    }
    if let Some(taken) = taken {
        if !matches!(taken, Action::Program { .. }) && !legal.contains(game, taken) {
            let verdict = game.check(taken).err();
            problems.push(format!(
                "{at}: taken action not listed: {taken:?} (check: {verdict:?})"
            ));
        }
        for m in mutations(game, taken, rng) {
            if matches!(m, Action::RunRoutes { .. } | Action::Program { .. }) {
                continue;
            }
            let listed = legal.contains(game, &m);
            let accepted = game.check(&m);
            if listed != accepted.is_ok() {
                problems.push(format!(
                    "{at}: mutation listed={listed} but check={accepted:?}: {m:?}"
                ));
            }
        }
    }
    problems
}

fn mutations(game: &Game, a: &Action, rng: &mut Rng) -> Vec<Action> {
    let mut out = Vec::new();
    let players = game.players.len() as u8;
    let corps = game.corps.len() as u8;
    let other_entity = |e: Entity, rng: &mut Rng| match e {
        Entity::Player(p) => Entity::Player(PlayerId(
            (p.0 + 1 + rng.below(players.max(2) as u64 - 1) as u8) % players,
        )),
        Entity::Corporation(c) => Entity::Corporation(CorpId((c.0 + 1) % corps)),
        Entity::Company(c) => Entity::Company(c),
    };
    let mut with_entity = a.clone();
    set_entity(&mut with_entity, other_entity(a.entity(), rng));
    out.push(with_entity);
    out.push(Action::Pass { entity: a.entity() });
    match a {
        Action::Bid {
            entity,
            target,
            price,
        } => {
            for d in [-5, -1, 1, 5, 100, 1000] {
                out.push(Action::Bid {
                    entity: *entity,
                    target: *target,
                    price: *price + Money(d),
                });
            }
            for c in 0..game.companies.len() as u8 {
                out.push(Action::Bid {
                    entity: *entity,
                    target: BidTarget::Company(railnote::ids::CompanyId(c)),
                    price: *price,
                });
            }
        }
        Action::Par { entity, corp, cell } => {
            for (row, column) in [(0u8, 5u8), (1, 6), (3, 6), (5, 6)] {
                let price = game.title.cell(row, column).map_or(Money(1), |c| c.price);
                out.push(Action::Par {
                    entity: *entity,
                    corp: *corp,
                    cell: MarketCell { price, row, column },
                });
            }
            out.push(Action::Par {
                entity: *entity,
                corp: CorpId((corp.0 + 1) % corps),
                cell: *cell,
            });
        }
        Action::BuyShares { entity, shares, .. } | Action::SellShares { entity, shares, .. } => {
            let corp = shares.first().map_or(CorpId(0), |s| s.corp);
            for c in [corp, CorpId(rng.below(corps as u64) as u8)] {
                for index in [1u8, 2, 5, 8, 0] {
                    let s = vec![ShareId { corp: c, index }];
                    out.push(Action::BuyShares {
                        entity: *entity,
                        shares: s.clone(),
                        percent: None,
                    });
                    out.push(Action::SellShares {
                        entity: *entity,
                        shares: s,
                        percent: None,
                    });
                }
            }
            if let Action::SellShares { percent, .. } = a {
                let p = percent.map_or(10, |p| p.0);
                out.push(Action::SellShares {
                    entity: *entity,
                    shares: shares.clone(),
                    percent: Some(Percent(p.saturating_sub(10))),
                });
            }
        }
        Action::LayTile {
            entity,
            hex,
            tile,
            rotation,
        } => {
            for r in 0..6 {
                out.push(Action::LayTile {
                    entity: *entity,
                    hex: *hex,
                    tile: *tile,
                    rotation: Rotation::new(r).unwrap(),
                });
            }
            let map = game.title.map;
            for _ in 0..6 {
                let h = &map.hexes[rng.below(map.hexes.len() as u64) as usize];
                let def = TileDefId(rng.below(map.tiles.len() as u64) as u16);
                let t = TileId { def, copy: 0 };
                out.push(Action::LayTile {
                    entity: *entity,
                    hex: h.id,
                    tile: *tile,
                    rotation: *rotation,
                });
                out.push(Action::LayTile {
                    entity: *entity,
                    hex: *hex,
                    tile: t,
                    rotation: Rotation::new(rng.below(6) as u8).unwrap(),
                });
            }
        }
        Action::PlaceToken { entity, .. } => {
            let map = game.title.map;
            for (i, h) in map.hexes.iter().enumerate() {
                let (tile, _) = game.board.tile_at(railnote::engine::map::HexIdx(i as u16));
                let def = map.tile_def(tile.def);
                for &n in &def.cities {
                    if rng.below(4) == 0 {
                        out.push(Action::PlaceToken {
                            entity: *entity,
                            city: CityRef {
                                tile,
                                part: def.nodes[usize::from(n)].part,
                            },
                            slot: None,
                            cost: None,
                        });
                    }
                }
                let _ = h;
            }
        }
        Action::BuyTrain {
            entity,
            train,
            price,
            exchange,
        } => {
            for d in [-1, 1, -100] {
                out.push(Action::BuyTrain {
                    entity: *entity,
                    train: *train,
                    price: *price + Money(d),
                    exchange: *exchange,
                });
            }
            for t in game.trains.iter().step_by(3) {
                out.push(Action::BuyTrain {
                    entity: *entity,
                    train: t.id,
                    price: game.title.train(t.id.kind).price,
                    exchange: None,
                });
            }
        }
        Action::Dividend { entity, kind } => out.push(Action::Dividend {
            entity: *entity,
            kind: match kind {
                DividendKind::Payout => DividendKind::Withhold,
                DividendKind::Withhold => DividendKind::Payout,
            },
        }),
        Action::DiscardTrain { entity, .. } => {
            for t in game.trains.iter().step_by(2) {
                out.push(Action::DiscardTrain {
                    entity: *entity,
                    train: t.id,
                });
            }
        }
        Action::BuyCompany {
            entity,
            company,
            price,
        } => {
            for d in [-1, 1, -1000, 1000] {
                out.push(Action::BuyCompany {
                    entity: *entity,
                    company: *company,
                    price: *price + Money(d),
                });
            }
        }
        _ => {}
    }
    out.push(Action::Bankrupt { entity: a.entity() });
    out
}

fn set_entity(a: &mut Action, to: Entity) {
    match a {
        Action::Bid { entity, .. }
        | Action::Pass { entity }
        | Action::Par { entity, .. }
        | Action::BuyShares { entity, .. }
        | Action::SellShares { entity, .. }
        | Action::BuyCompany { entity, .. }
        | Action::LayTile { entity, .. }
        | Action::PlaceToken { entity, .. }
        | Action::RunRoutes { entity, .. }
        | Action::Dividend { entity, .. }
        | Action::BuyTrain { entity, .. }
        | Action::DiscardTrain { entity, .. }
        | Action::Bankrupt { entity }
        | Action::Assign { entity, .. }
        | Action::Merge { entity, .. }
        | Action::Vote { entity, .. }
        | Action::Program { entity } => *entity = to,
    }
}

/// Walks a game given as a list of actions, checking agreement before each one.
fn check_game(setup_game: Game, actions: &[Action], seed: u64) -> (usize, Vec<String>) {
    let mut game = setup_game;
    let mut rng = Rng::new(seed);
    let mut problems = Vec::new();
    let mut states = 0;
    for a in actions {
        if !matches!(a, Action::Program { .. }) {
            states += 1;
            problems.extend(agreement(&game, Some(a), &mut rng));
        }
        game.process(a).expect("the game was legal");
    }
    (states, problems)
}

/// Every state of every fixture of `title`: (states checked, problems).
fn fixtures_problems(shared: &std::path::Path, title: &str) -> (usize, Vec<String>) {
    let mut total = 0;
    let mut problems = Vec::new();
    for path in fixtures(shared, title) {
        let src = std::fs::read_to_string(&path).unwrap();
        let log = railnote::log::read(&path.display().to_string(), &src).unwrap();
        let game = Game::new(&railnote::replay::setup(&log)).unwrap();
        let actions: Vec<Action> = log
            .actions
            .iter()
            .flat_map(|l| {
                std::iter::once(l.action.clone())
                    .chain(l.auto_actions.iter().map(|a| a.action.clone()))
            })
            .collect();
        let (states, p) = check_game(game, &actions, 1);
        total += states;
        problems.extend(
            p.into_iter()
                .map(|p| format!("{}: {p}", path.file_name().unwrap().to_string_lossy())),
        );
    }
    (total, problems)
}

#[test]
fn fixtures_agree() {
    let Some(shared) = shared_dir() else { return };
    let (total, problems) = fixtures_problems(&shared, "1836Jr30");
    assert!(total > 1000, "{total}");
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems[..problems.len().min(30)].join("\n")
    );
}

/// The four 18Ireland fixtures: minor auctions, narrow gauge, mergers, votes, assignments.
#[test]
fn ireland_fixtures_agree() {
    let Some(shared) = shared_dir() else { return };
    let (total, problems) = fixtures_problems(&shared, "18Ireland");
    assert!(total > 1000, "{total}");
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems[..problems.len().min(40)].join("\n")
    );
}

/// Self-play games of both policies: every state agrees, and every game finishes.
#[test]
fn selfplay_agrees() {
    let mut problems = Vec::new();
    for seed in 0..6u64 {
        let policy = if seed % 2 == 0 {
            Policy::Random
        } else {
            Policy::Greedy
        };
        let players = 2 + (seed % 3) as usize;
        let played = selfplay::play("1836Jr30", players, seed, policy).unwrap();
        assert!(played.game.finished, "seed {seed} did not finish");
        let game = Game::new(&played.setup).unwrap();
        let (_, p) = check_game(game, &played.actions, seed);
        problems.extend(p.into_iter().map(|p| format!("seed {seed}: {p}")));
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems[..problems.len().min(30)].join("\n")
    );
}

/// 18Ireland self-play, one game per policy: every state agrees (minor auctions, gauge track,
/// mergers and votes included), and both games reach a natural end (the bank breaks).
#[test]
fn ireland_selfplay_agrees() {
    let mut problems = Vec::new();
    for (seed, policy) in [(1u64, Policy::Greedy), (2, Policy::Random)] {
        let played = selfplay::play("18Ireland", 4, seed, policy).unwrap();
        assert!(played.game.finished, "seed {seed} did not finish");
        assert_eq!(
            played.game.end_reason,
            Some(railnote::engine::GameEndReason::Bank),
            "seed {seed}"
        );
        assert!(
            played
                .actions
                .iter()
                .any(|a| matches!(a, Action::Merge { .. })),
            "seed {seed}: no merger was proposed"
        );
        let game = Game::new(&played.setup).unwrap();
        let (_, p) = check_game(game, &played.actions, seed);
        problems.extend(p.into_iter().map(|p| format!("seed {seed}: {p}")));
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems[..problems.len().min(30)].join("\n")
    );
}

/// A random 18Ireland game in which every corporation closes: nothing operates and nobody can
/// act, so the rounds follow each other (private revenue) until the bank breaks. This used to
/// recurse between rounds until the stack overflowed.
#[test]
fn ireland_game_without_corporations_ends_by_the_bank() {
    let played = selfplay::play("18Ireland", 4, 11, Policy::Random).unwrap();
    assert!(played.game.finished);
    assert_eq!(
        played.game.end_reason,
        Some(railnote::engine::GameEndReason::Bank)
    );
    assert!(played.game.corps.iter().all(|c| c.closed || !c.floated));
    assert_eq!(played.actions.len(), 500);
    assert_eq!(played.game.round_label(), "OR 62.2");
}

/// A random 18Ireland game in which checking a bankruptcy (after the round's last corporation
/// had closed) re-sorted the operating order past its end and panicked.
#[test]
fn ireland_bankruptcy_after_the_last_corporation_closed() {
    let played = selfplay::play("18Ireland", 4, 59, Policy::Random).unwrap();
    assert!(played.game.finished);
    assert_eq!(played.actions.len(), 859);
    assert_eq!(played.game.round_label(), "OR 26.2");
}

/// The long run of the issue: `RAILNOTE_SELFPLAY_GAMES=1000 cargo test --release -- --ignored`.
#[test]
#[ignore]
fn selfplay_agrees_many() {
    let games: u64 = std::env::var("RAILNOTE_SELFPLAY_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let mut problems = Vec::new();
    let mut states = 0;
    for seed in 0..games {
        let policy = if seed % 2 == 0 {
            Policy::Random
        } else {
            Policy::Greedy
        };
        let players = 2 + (seed % 3) as usize;
        let played = selfplay::play("1836Jr30", players, seed, policy).unwrap();
        assert!(played.game.finished, "seed {seed} did not finish");
        let game = Game::new(&played.setup).unwrap();
        let (s, p) = check_game(game, &played.actions, seed);
        states += s;
        problems.extend(p.into_iter().map(|p| format!("seed {seed}: {p}")));
    }
    eprintln!("{games} games, {states} states checked");
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems[..problems.len().min(30)].join("\n")
    );
}

#[allow(dead_code)]
fn unused(_: LegalActions, _: HexId) {}

/// Self-play logs cut right after an action the reference engine rejects (found by running
/// self-play games through the reference): railnote must reject that last action too.
#[test]
fn selfplay_regressions() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/selfplay");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for path in files {
        let src = std::fs::read_to_string(&path).unwrap();
        let log = railnote::log::read(&path.display().to_string(), &src).unwrap();
        let last = log.actions.len();
        match railnote::replay::replay(&log) {
            Ok(_) => panic!(
                "{}: accepted, the reference rejects action {last}",
                path.display()
            ),
            Err(railnote::replay::ReplayError::Illegal(e)) => {
                assert_eq!(e.index, last, "{}", path.display())
            }
            Err(e) => panic!("{}: {e:?}", path.display()),
        }
    }
}
