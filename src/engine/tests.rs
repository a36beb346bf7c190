//! Rule tests on hand-made 1836Jr30 situations: each illegal action is rejected with the
//! expected violation and leaves the game exactly as it was.

use super::*;
use crate::action::{BidTarget, DividendKind, MarketCell};
use crate::ids::{Percent, Rotation};

fn setup(players: usize, rules: &[&str]) -> Game {
    Game::new(&GameSetup {
        title: "1836Jr30".into(),
        players: (1..=players).map(|i| format!("P{i}")).collect(),
        seed: None,
        options: GameOptions {
            optional_rules: rules.iter().map(|r| r.to_string()).collect(),
        },
    })
    .expect("valid setup")
}

fn p(i: u8) -> Entity {
    Entity::Player(PlayerId(i))
}

fn corp(_game: &Game, sym: &str) -> CorpId {
    c(sym)
}

fn c(sym: &str) -> CorpId {
    title::jr30().corp_by_sym(sym).unwrap()
}

fn company(_game: &Game, sym: &str) -> CompanyId {
    title::jr30().company_by_sym(sym).unwrap()
}

fn bid(who: u8, sym: &str, price: i64) -> Action {
    Action::Bid {
        entity: p(who),
        target: BidTarget::Company(title::jr30().company_by_sym(sym).unwrap()),
        price: Money(price),
    }
}

fn par(who: u8, sym: &str, price: i64, row: u8) -> Action {
    Action::Par {
        entity: p(who),
        corp: c(sym),
        cell: MarketCell {
            price: Money(price),
            row,
            column: 6,
        },
    }
}

fn buy(who: u8, sym: &str, index: u8) -> Action {
    Action::BuyShares {
        entity: p(who),
        shares: vec![ShareId {
            corp: c(sym),
            index,
        }],
        percent: None,
        share_price: None,
    }
}

fn pass(who: Entity) -> Action {
    Action::Pass { entity: who }
}

/// Applies legal actions, failing the test with the violation if one is rejected.
fn play(game: &mut Game, actions: &[Action]) {
    for a in actions {
        if let Err(e) = game.process(a) {
            panic!("{a:?} rejected: {e}");
        }
    }
}

/// Asserts the action is rejected with the expected code and the state is untouched.
fn assert_rejected(game: &mut Game, action: &Action, code: &str) -> RuleViolation {
    let before = format!("{game:?}");
    let err = game.process(action).expect_err("action should be illegal");
    assert_eq!(err.code(), code, "{err}");
    assert_eq!(
        before,
        format!("{game:?}"),
        "state changed by a rejected action"
    );
    err
}

/// Every private bought at face value in seat order; P3 buys CFLV and pars Nord at 90.
fn after_auction() -> Game {
    let mut g = setup(3, &[]);
    let actions = [
        bid(0, "ACC", 20),
        bid(1, "E-SF", 40),
        bid(2, "CdH", 70),
        bid(0, "GCB", 110),
        bid(1, "CFL", 160),
        bid(2, "CFLV", 220),
        par(2, "Nord", 90, 1),
    ];
    play(&mut g, &actions);
    g
}

#[test]
fn auction_sells_everything_and_hands_out_certificates() {
    let g = after_auction();
    assert_eq!(g.round_label(), "SR 1");
    // The seat pointer passed P3's purchase, so P1 has the priority deal.
    assert_eq!(g.priority_deal, Some(PlayerId(0)));
    assert_eq!(g.player(PlayerId(0)).cash, Money(600 - 130));
    assert_eq!(g.player(PlayerId(1)).cash, Money(600 - 200));
    assert_eq!(g.player(PlayerId(2)).cash, Money(600 - 290));
    assert_eq!(g.percent_held(PlayerId(1), corp(&g, "GCL")), 10);
    assert_eq!(g.percent_held(PlayerId(2), corp(&g, "Nord")), 20);
    assert_eq!(g.corp(corp(&g, "Nord")).president, Some(PlayerId(2)));
    assert_eq!(g.corp(corp(&g, "GCL")).president, None);
    assert_eq!(g.bank, Money(6000 - 1800 + 620));
}

#[test]
fn auction_rejects_low_bids_wrong_prices_and_turn_order() {
    let mut g = setup(3, &[]);
    assert_rejected(&mut g, &bid(1, "ACC", 20), "rules::not_your_turn");
    assert_rejected(&mut g, &bid(0, "ACC", 25), "rules::value_mismatch");
    let err = assert_rejected(&mut g, &bid(0, "GCB", 114), "rules::bid_too_low");
    assert_eq!(
        err.to_string(),
        "bid of 114 for GCB is below the minimum of 115"
    );
    assert_rejected(&mut g, &bid(0, "CFLV", 601), "rules::insufficient_cash");
    assert_rejected(&mut g, &par(0, "B", 100, 0), "rules::wrong_step");
}

#[test]
fn single_bid_is_bought_when_its_private_becomes_the_cheapest() {
    let mut g = setup(3, &[]);
    play(&mut g, &[bid(0, "E-SF", 45), bid(1, "ACC", 20)]);
    // E-SF cascaded to P1 at his bid as soon as ACC was sold.
    assert_eq!(
        g.company(company(&g, "E-SF")).owner,
        CompanyOwner::Player(PlayerId(0))
    );
    assert_eq!(g.player(PlayerId(0)).cash, Money(555));
    assert_eq!(g.acting_entity(), Some(p(2)));
}

#[test]
fn contested_private_is_auctioned_among_its_bidders() {
    let mut g = setup(3, &[]);
    play(
        &mut g,
        &[bid(0, "E-SF", 45), bid(1, "E-SF", 50), bid(2, "ACC", 20)],
    );
    // Lowest bidder (P1) must raise or drop out.
    assert_eq!(g.acting_entity(), Some(p(0)));
    assert_rejected(&mut g, &bid(0, "E-SF", 54), "rules::bid_too_low");
    play(&mut g, &[bid(0, "E-SF", 55), pass(p(1))]);
    assert_eq!(
        g.company(company(&g, "E-SF")).owner,
        CompanyOwner::Player(PlayerId(0))
    );
    assert_eq!(g.player(PlayerId(0)).cash, Money(545));
    // Back to the seat after the purchase that started the cascade.
    assert_eq!(g.acting_entity(), Some(p(0)));
}

#[test]
fn all_pass_lowers_the_cheapest_private() {
    let mut g = setup(3, &[]);
    play(&mut g, &[pass(p(0)), pass(p(1)), pass(p(2))]);
    assert_rejected(&mut g, &bid(0, "ACC", 20), "rules::value_mismatch");
    play(&mut g, &[bid(0, "ACC", 15)]);
    assert_eq!(g.player(PlayerId(0)).cash, Money(585));
}

#[test]
fn par_needs_a_par_cell_and_its_true_price() {
    let mut g = after_auction();
    assert_rejected(&mut g, &par(0, "B", 112, 0), "rules::value_mismatch");
    let off_par = Action::Par {
        entity: p(0),
        corp: corp(&g, "B"),
        cell: MarketCell {
            price: Money(112),
            row: 0,
            column: 7,
        },
    };
    assert_rejected(&mut g, &off_par, "rules::shares");
    assert_rejected(&mut g, &par(0, "Nord", 90, 1), "rules::shares");
    play(&mut g, &[par(0, "B", 100, 0)]);
    assert_eq!(g.player(PlayerId(0)).cash, Money(470 - 200));
    assert_eq!(g.share_price(corp(&g, "B")), Some(Money(100)));
}

/// A two-player auction: P1 has 650 left and the priority deal, P2 holds Nord's presidency.
fn two_player_stock_round() -> Game {
    let mut g = setup(2, &[]);
    let actions = [
        bid(0, "ACC", 20),
        bid(1, "E-SF", 40),
        bid(0, "CdH", 70),
        bid(1, "GCB", 110),
        bid(0, "CFL", 160),
        bid(1, "CFLV", 220),
        par(1, "Nord", 90, 1),
    ];
    play(&mut g, &actions);
    assert_eq!(g.acting_entity(), Some(p(0)));
    g
}

#[test]
fn stock_round_limits() {
    let mut g = after_auction();
    play(&mut g, &[par(0, "B", 67, 5)]);
    // In SR 1 nothing is left to P1 after a purchase (no selling yet): the turn passed on.
    assert_eq!(g.acting_entity(), Some(p(1)));
    assert_rejected(&mut g, &buy(0, "B", 1), "rules::not_your_turn");
    // P2 may not sell in the first stock round.
    let sell = Action::SellShares {
        entity: p(1),
        shares: vec![ShareId {
            corp: c("GCL"),
            index: 1,
        }],
        percent: None,
        share_price: None,
    };
    assert_rejected(&mut g, &sell, "rules::shares");
    // Nord_0 cannot be bought; the president's certificate comes with the par.
    assert_rejected(&mut g, &buy(1, "Nord", 0), "rules::shares");
    // Two certificates in one purchase outside a brown cell.
    let two = Action::BuyShares {
        entity: p(1),
        shares: vec![
            ShareId {
                corp: c("B"),
                index: 1,
            },
            ShareId {
                corp: c("B"),
                index: 2,
            },
        ],
        percent: Some(Percent(20)),
        share_price: None,
    };
    assert_rejected(&mut g, &two, "rules::shares");
    play(&mut g, &[buy(1, "B", 1)]);
    assert_eq!(g.player(PlayerId(1)).cash, Money(400 - 67));
    assert_eq!(g.acting_entity(), Some(p(2)));
}

#[test]
fn sixty_percent_limit_and_float() {
    let mut g = two_player_stock_round();
    play(&mut g, &[par(0, "B", 67, 5)]);
    for index in 1..=4 {
        play(&mut g, &[pass(p(1)), buy(0, "B", index)]);
    }
    assert_eq!(g.percent_held(PlayerId(0), c("B")), 60);
    assert!(g.corp(c("B")).floated);
    assert_eq!(g.corp(c("B")).cash, Money(670));
    play(&mut g, &[pass(p(1))]);
    assert_eq!(g.acting_entity(), Some(p(0)));
    let err = assert_rejected(&mut g, &buy(0, "B", 5), "rules::shares");
    assert_eq!(err.to_string(), "P1 would hold more than 60% of B");
}

#[test]
fn stock_round_ends_after_all_pass_and_operating_round_follows() {
    let mut g = two_player_stock_round();
    play(&mut g, &[par(0, "B", 67, 5)]);
    for index in 1..=4 {
        play(&mut g, &[pass(p(1)), buy(0, "B", index)]);
    }
    play(&mut g, &[pass(p(1)), pass(p(0))]);
    assert_eq!(g.round_label(), "OR 1.1");
    // The last to pass was P1, so P2 has the priority deal.
    assert_eq!(g.priority_deal, Some(PlayerId(1)));
    assert_eq!(g.acting_entity(), Some(Entity::Corporation(c("B"))));
    // Private revenue was paid at the start of the operating round (ACC 5, CdH 15, CFL 25).
    assert_eq!(
        g.player(PlayerId(0)).cash,
        Money(650 - 134 - 4 * 67 + 5 + 15 + 25)
    );
    // Home token placed automatically on Brussels.
    assert_eq!(g.token_hexes(c("B")), vec!["H6".parse().unwrap()]);
    let b = Entity::Corporation(c("B"));
    // Dividends are not accepted in the track step.
    assert_rejected(
        &mut g,
        &Action::Dividend {
            entity: b,
            kind: DividendKind::Payout,
        },
        "rules::wrong_step",
    );
    let map = g.title.map;
    let lay = |hex: &str, tile: &str, rotation: u8| Action::LayTile {
        entity: b,
        hex: hex.parse().unwrap(),
        tile: map.parse_tile_id(tile).unwrap(),
        rotation: Rotation::new(rotation).unwrap(),
    };
    // Green in phase 2; a hex not connected to B; a hex blocked by CdH (owned by a player).
    assert_rejected(&mut g, &lay("H4", "14-0", 0), "rules::track");
    assert_rejected(&mut g, &lay("K5", "8-0", 0), "rules::track");
    assert_rejected(&mut g, &lay("J8", "57-0", 0), "rules::track");
    // Another corporation cannot act in B's turn.
    let nord = Action::Pass {
        entity: Entity::Corporation(c("Nord")),
    };
    assert_rejected(&mut g, &nord, "rules::not_your_turn");
}

/// P1 presides B with 30% (B_0 and B_2), P2 holds 20% (B_1 and B_3); B has not floated and
/// stock round 2 has begun.
fn b_shared_in_sr2() -> Game {
    let mut g = two_player_stock_round();
    play(
        &mut g,
        &[
            par(0, "B", 67, 5),
            buy(1, "B", 1),
            buy(0, "B", 2),
            buy(1, "B", 3),
            pass(p(0)),
            pass(p(1)),
        ],
    );
    assert_eq!(g.round_label(), "SR 2");
    if g.acting_entity() == Some(p(1)) {
        play(&mut g, &[pass(p(1))]);
    }
    assert_eq!(g.acting_entity(), Some(p(0)));
    g
}

fn sell(who: u8, sym: &str, indices: &[u8], percent: u8) -> Action {
    Action::SellShares {
        entity: p(who),
        shares: indices
            .iter()
            .map(|&index| ShareId {
                corp: c(sym),
                index,
            })
            .collect(),
        percent: Some(Percent(percent)),
        share_price: None,
    }
}

#[test]
fn presidents_certificate_is_sold_only_with_all_the_sellers_certificates() {
    let mut g = b_shared_in_sr2();
    // The reference would take this but keep P1 president with a 10% certificate.
    let err = assert_rejected(&mut g, &sell(0, "B", &[0], 10), "rules::shares");
    assert_eq!(
        err.to_string(),
        "B's president's certificate is sold only together with all of P1's other B certificates"
    );
    assert_rejected(&mut g, &sell(0, "B", &[0], 20), "rules::shares");
    assert!(!g
        .legal_actions()
        .actions
        .iter()
        .any(|l| matches!(&l.action, Action::SellShares { shares, .. } if shares.len() == 1 && shares[0].index == 0)));
    // The offered partial bundle: everything, as 20%; P2 takes the presidency.
    play(&mut g, &[sell(0, "B", &[2, 0], 20)]);
    assert_eq!(g.corp(c("B")).president, Some(PlayerId(1)));
    assert_eq!(g.percent_held(PlayerId(0), c("B")), 10);
    assert_eq!(g.percent_held(PlayerId(1), c("B")), 20);
    assert_eq!(g.pool_percent(c("B")), 20);
}
