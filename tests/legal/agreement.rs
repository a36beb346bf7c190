//! The agreement check of `tests/legal.rs`, shared with `examples/selfplay_agreement.rs` (the
//! long run in release): at a state, (a) every listed action is accepted by `check`, (b) the
//! action taken is listed, (c) for mutations of it, being listed and being accepted coincide.

use railnote::action::{Action, BidTarget, DividendKind, Entity, MarketCell};
use railnote::engine::Game;
use railnote::ids::{
    CityRef, CorpId, Money, Percent, PlayerId, Rotation, ShareId, TileDefId, TileId,
};
use railnote::selfplay::{self, Policy, Rng};

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
    with_entity.set_entity(other_entity(a.entity(), rng));
    out.push(with_entity);
    out.push(Action::Pass { entity: a.entity() });
    out.push(Action::EndGame { entity: a.entity() });
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
                        share_price: None,
                    });
                    out.push(Action::SellShares {
                        entity: *entity,
                        shares: s,
                        percent: None,
                        share_price: None,
                    });
                }
            }
            if let Action::SellShares { percent, .. } = a {
                let p = percent.map_or(10, |p| p.0);
                out.push(Action::SellShares {
                    entity: *entity,
                    shares: shares.clone(),
                    percent: Some(Percent(p.saturating_sub(10))),
                    share_price: None,
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

/// Walks a game given as a list of actions, checking agreement before each one.
pub fn check_game(setup_game: Game, actions: &[Action], seed: u64) -> (usize, Vec<String>) {
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

/// What [`selfplay_agreement`] found.
#[derive(Default)]
pub struct SelfplayAgreement {
    pub states: usize,
    pub actions: usize,
    pub unfinished: usize,
    /// Each prefixed with its seed; an unfinished game is one too.
    pub problems: Vec<String>,
}

/// Self-play games of `title`, one per seed (even seeds random, odd seeds greedy, from the
/// title's fewest players up, three player counts), each checked at every state.
pub fn selfplay_agreement(title: &str, seeds: std::ops::Range<u64>) -> SelfplayAgreement {
    let fewest = railnote::engine::title::Title::by_name(title)
        .unwrap_or_else(|| panic!("unknown title {title}"))
        .players
        .min;
    let mut out = SelfplayAgreement::default();
    for seed in seeds {
        let policy = if seed % 2 == 0 {
            Policy::Random
        } else {
            Policy::Greedy
        };
        let players = usize::from(fewest) + (seed % 3) as usize;
        let played = selfplay::play(title, players, seed, policy).expect("valid setup");
        if !played.game.finished {
            out.unfinished += 1;
            out.problems.push(format!("seed {seed}: did not finish"));
        }
        out.actions += played.actions.len();
        let game = Game::new(&played.setup).expect("valid setup");
        let (states, problems) = check_game(game, &played.actions, seed);
        out.states += states;
        out.problems
            .extend(problems.into_iter().map(|p| format!("seed {seed}: {p}")));
    }
    out
}
