//! Rule tests on 18Ireland positions built by replaying a prefix of fixture 161830 (read from
//! ../shared or `RAILNOTE_SHARED`; skipped when absent) and then playing actions of our own.
//! The figures were worked out from the rules (B.3.7) and confirmed with the reference engine.

use std::path::PathBuf;

use crate::engine::state::TrainOwner;
use crate::engine::*;
use crate::ids::{HexId, Money};
use crate::log::{self, GameLog};

fn fixture(name: &str) -> Option<GameLog> {
    let dir = std::env::var_os("RAILNOTE_SHARED").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"),
        PathBuf::from,
    );
    let path = dir.join("fixtures/18Ireland").join(name);
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!(
            "skipped: {} not found (set RAILNOTE_SHARED)",
            path.display()
        );
        return None;
    };
    Some(log::read(name, &text).expect("the fixture reads"))
}

/// The game just before the logged action `id`.
fn before(log: &GameLog, id: i64) -> Game {
    let mut game = Game::new(&crate::replay::setup(log)).expect("valid setup");
    for a in log.actions.iter().take_while(|a| a.action_id < id) {
        let autos = a.auto_actions.iter().map(|x| &x.action);
        for action in std::iter::once(&a.action).chain(autos) {
            if let Err(e) = game.process(action) {
                panic!("fixture action #{} rejected: {e}", a.action_id);
            }
        }
    }
    game
}

fn logged(log: &GameLog, id: i64) -> Action {
    log.actions
        .iter()
        .find(|a| a.action_id == id)
        .map(|a| a.action.clone())
        .expect("the action is in the log")
}

/// Asserts the action is rejected with exactly `expected` and leaves the game as it was.
fn assert_rejected(game: &mut Game, action: &Action, expected: RuleViolation) {
    let before = format!("{game:?}");
    let err = game.process(action).expect_err("action should be illegal");
    assert_eq!(err, expected);
    assert_eq!(
        before,
        format!("{game:?}"),
        "a rejected action changed the game"
    );
}

fn corp(sym: &str) -> CorpId {
    title::ireland::title().corp_by_sym(sym).unwrap()
}

fn train(name: &str, copy: u16) -> TrainId {
    TrainId {
        kind: title::ireland::title().train_kind(name).unwrap(),
        copy,
    }
}

fn trains_named(game: &Game, name: &str) -> Vec<(TrainId, TrainOwner)> {
    let kind = title::ireland::title().train_kind(name).unwrap();
    game.trains
        .iter()
        .filter(|t| t.id.kind == kind)
        .map(|t| (t.id, t.owner))
        .collect()
}

fn buy_train(sym: &str, t: TrainId, price: i64) -> Action {
    Action::BuyTrain {
        entity: Entity::Corporation(corp(sym)),
        train: t,
        price: Money(price),
        exchange: None,
    }
}

/// Fixture 161830 #537: LER buys the first 6H. Every 2H rusts (seven: six with corporations,
/// WKR's 2H-4 included, none left in the depot) and each brings one 1H' (distance 2 / 2)
/// into the pool, in rusting order; 2H' and 3H' stay in reserve. The depot then offers the
/// next 6H and the first pool train of each type.
#[test]
fn rusting_trains_release_reserve_trains_into_the_pool() {
    let Some(log) = fixture("161830.json") else {
        return;
    };
    let mut g = before(&log, 537);
    let ler = corp("LER");
    assert_eq!(g.title.phases[g.phase].name, "4");
    let one_h: Vec<TrainId> = (0..7).map(|c| train("1H'", c)).collect();
    assert!(trains_named(&g, "1H'")
        .iter()
        .all(|(_, o)| *o == TrainOwner::Reserve));
    let live_2h = trains_named(&g, "2H")
        .iter()
        .filter(|(_, o)| matches!(o, TrainOwner::Corporation(_)))
        .count();
    assert_eq!(live_2h, 7);
    let ler_cash = g.corp(ler).cash;

    g.process(&logged(&log, 537)).unwrap();
    assert_eq!(g.title.phases[g.phase].name, "6");
    assert!(trains_named(&g, "2H")
        .iter()
        .all(|(_, o)| *o == TrainOwner::Rusted));
    assert!(g.corps.iter().all(|c| c
        .trains
        .iter()
        .all(|t| title::ireland::title().train(t.kind).name != "2H")));
    assert_eq!(g.pool_train_order, one_h);
    assert!(trains_named(&g, "1H'")
        .iter()
        .all(|(_, o)| *o == TrainOwner::Pool));
    for (name, count) in [("2H'", 5), ("3H'", 4)] {
        let reserve = trains_named(&g, name);
        assert_eq!(reserve.len(), count);
        assert!(reserve.iter().all(|(_, o)| *o == TrainOwner::Reserve));
    }
    assert_eq!(g.depot_offer(), vec![train("6H", 1), one_h[0]]);
    assert_eq!(g.corp(ler).trains, vec![train("6H", 0)]);
    assert_eq!(g.corp(ler).cash, ler_cash - Money(300));

    // A pool 1H' costs its printed 40.
    assert_rejected(
        &mut g,
        &buy_train("LER", one_h[0], 30),
        RuleViolation::ValueMismatch {
            what: "train price",
            recorded: "30".into(),
            expected: "40".into(),
        },
    );
    // Only the first pool train of a type is offered (the reference's depot list).
    assert_rejected(
        &mut g,
        &buy_train("LER", one_h[3], 40),
        RuleViolation::Train("train 1H'-3 is not offered; the depot offers 6H-1, 1H'-0".into()),
    );
    // No 4H has rusted, so the 2H' are still out of play.
    assert_rejected(
        &mut g,
        &buy_train("LER", train("2H'", 0), 90),
        RuleViolation::Train("train 2H'-0 is a reserve train, not yet in play".into()),
    );

    // #538: LER buys 1H'-0 for 40; the next 1H' moves up.
    g.process(&buy_train("LER", one_h[0], 40)).unwrap();
    assert_eq!(g.corp(ler).trains, vec![train("6H", 0), one_h[0]]);
    assert_eq!(g.corp(ler).cash, ler_cash - Money(340));
    assert_eq!(g.pool_train_order, one_h[1..].to_vec());
    assert_eq!(g.depot_offer(), vec![train("6H", 1), one_h[1]]);
}

fn gnwr_run(log: &GameLog, revenue: i64) -> Action {
    let mut run = logged(log, 147);
    let Action::RunRoutes { routes, .. } = &mut run else {
        panic!("#147 is GNWR's run");
    };
    routes[0].revenue = Some(Money(revenue));
    run
}

fn hex(s: &str) -> HexId {
    s.parse().unwrap()
}

fn tile_name(g: &Game, h: &str) -> String {
    let m = g.title.map;
    let (tile, _) = g.board.tile_at(m.hex_index(hex(h)).unwrap());
    m.tile_def(tile.def).name.clone()
}

/// Fixture 161830 #147: GNWR's 2H runs Athenry D12 (town 10) – Dromod F10 (city 20, one
/// narrow exit) over E11. With the narrow IR5 town on Athlone F12 (#146) facing Dromod's
/// narrow exit, the run earns 10 + 20 + 10 = 40; if GNWR passes its second lay instead, no
/// narrow town is joined to either stop and the run earns 30, so a claimed 40 counts a bonus
/// the route does not have. (Reference `Route#revenue` without the logged revenue: 40
/// "D12-F10 (Narrow: £10)" and 30 "D12-F10".) The map test `ireland_narrow_gauge_bonus`
/// covers a narrow town that lies next to the stop but is not joined to it.
#[test]
fn narrow_gauge_town_bonus_counts_only_connected_towns() {
    let Some(log) = fixture("161830.json") else {
        return;
    };
    let base = before(&log, 146);
    let gnwr = Entity::Corporation(corp("GNWR"));
    assert_eq!(tile_name(&base, "F12"), "F12");

    let mut with_town = base.clone();
    with_town.process(&logged(&log, 146)).unwrap();
    assert_eq!(tile_name(&with_town, "F12"), "IR5");
    assert_rejected(
        &mut with_town,
        &gnwr_run(&log, 30),
        RuleViolation::ValueMismatch {
            what: "route revenue",
            recorded: "30".into(),
            expected: "40".into(),
        },
    );
    with_town.process(&gnwr_run(&log, 40)).unwrap();

    let mut without = base;
    without.process(&Action::Pass { entity: gnwr }).unwrap();
    assert_rejected(
        &mut without,
        &gnwr_run(&log, 40),
        RuleViolation::ValueMismatch {
            what: "route revenue",
            recorded: "40".into(),
            expected: "30".into(),
        },
    );
    without.process(&gnwr_run(&log, 30)).unwrap();
}

/// Fixture 161830 #266–#267: UR lays IR1 on Belfast J4, its home token is lifted and put back
/// by `place_token`. While the lay is processed the token still stands in city 0, which IR1
/// joins to I5 (a route: J4 and I5 are both mandatory stops), and the reference caches that.
/// Put back in city 1, which has no track, UR has no route by the rules, yet keeps the route
/// step for good (reference strict processing; see `lay_tile`).
#[test]
fn a_route_seen_before_the_home_token_is_lifted_is_remembered() {
    let Some(log) = fixture("161830.json") else {
        return;
    };
    let ur = corp("UR");
    let m = title::ireland::title().map;
    let j4 = m.hex_index(hex("J4")).unwrap();
    let mut g = before(&log, 266);
    let Action::LayTile { tile, rotation, .. } = logged(&log, 266) else {
        panic!("#266 is UR's lay");
    };
    assert!(g.board.route_before_lift(m, j4, tile, rotation, ur));
    assert!(!g.board.route_available(m, ur));
    g.process(&logged(&log, 266)).unwrap();
    let Round::Operating(o) = &g.round else {
        panic!("UR lays in an operating round");
    };
    assert_eq!(
        o.pending_tokens,
        vec![crate::engine::operating::LiftedToken {
            owner: ur,
            hex: hex("J4"),
            placer: ur
        }]
    );
    assert!(g.corp(ur).route_seen);

    let mut trackless = g.clone();
    let mut place = logged(&log, 267);
    let Action::PlaceToken { city, .. } = &mut place else {
        panic!("#267 is UR's home token");
    };
    city.part = 1;
    trackless.process(&place).unwrap();
    assert!(!trackless.board.route_available(m, ur));
    assert!(trackless.corp(ur).route_seen);
}

/// A self-play log of tests/data/selfplay (its last action is the one the reference rejects).
fn selfplay_log(name: &str) -> GameLog {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/selfplay")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("the regression log is in the repo");
    log::read(name, &text).expect("the regression log reads")
}

/// Random self-play, seed 37, MR 9.2: Player 3 went bankrupt keeping a 20% share of LER (one
/// share), which a bankruptcy does not sell. Player 1 proposes LER and EBSR; the pool's LER
/// share votes for (the new price, 50, is above LER's 38), so 5 of 8 votes are needed. The
/// bankrupt Player 3 still votes and takes a share of the major (reference `Merge`, which
/// walks every seat).
#[test]
fn a_bankrupt_holder_votes_on_a_merger_and_gets_the_majors_share() {
    let log = selfplay_log("ireland-bankrupt-holder-votes-on-a-merger.json");
    let (p1, p2, p3) = (PlayerId(0), PlayerId(1), PlayerId(2));
    let mut g = before(&log, 411);
    assert!(g.player(p3).bankrupt);
    assert_eq!(g.percent_held(p3, corp("LER")), 20);
    // Player 1's 3 votes and the pool's 1 leave the proposal one short.
    assert_eq!(g.acting_entity(), Some(Entity::Player(p2)));
    assert_rejected(
        &mut g,
        &logged(&log, 411),
        RuleViolation::NotYourTurn {
            actor: "Player 1".into(),
            expected: "Player 2".into(),
        },
    );
    let vote = |entity, in_favour| Action::Vote {
        entity: Entity::Player(entity),
        in_favour,
    };
    g.process(&vote(p2, false)).unwrap();
    assert_eq!(g.acting_entity(), Some(Entity::Player(p3)));
    g.process(&vote(p3, true)).unwrap();
    assert_eq!(g.acting_entity(), Some(Entity::Player(p1)));
    g.process(&logged(&log, 411)).unwrap();
    let wlwr = corp("WLWR");
    assert_eq!(
        [p1, p2, p3, PlayerId(3)].map(|p| g.percent_held(p, wlwr)),
        [30, 30, 10, 0]
    );
    assert_eq!(g.pool_percent(wlwr), 10);
    assert_eq!(g.corp(wlwr).president, Some(p1));
}

/// Random self-play, seed 19, MR 8.2: CIR and WKR merge into CBSCR. The bankrupt Player 3
/// kept one CIR share and receives CBSCR_4 for it, so the pool holds only the four shares
/// for the pool's CIR and WKR shares, and Player 2 cannot buy CBSCR_4 there in SR 9.
#[test]
fn a_bankrupt_holders_share_is_exchanged_in_a_merger() {
    let log = selfplay_log("ireland-bankrupt-holder-gets-the-majors-share.json");
    let g = before(&log, 514);
    let cbscr = corp("CBSCR");
    assert!(g.player(PlayerId(2)).bankrupt);
    assert_eq!(
        (0..4)
            .map(|p| g.percent_held(PlayerId(p), cbscr))
            .collect::<Vec<_>>(),
        [0, 20, 10, 30]
    );
    assert_eq!(g.pool_percent(cbscr), 40);
    assert_eq!(g.corp(cbscr).president, Some(PlayerId(3)));
}
