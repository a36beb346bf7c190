//! 18Ireland's self-play choices (its [`TitlePolicy`]) where the generic policies would play
//! it badly: minor auctions, share issues, and the merger round.
//!
//! A game of 18Ireland ends by the bank breaking, a share price reaching the end of the
//! market, or a bankruptcy. Players that let the minors go unstarted (each stock round without
//! a new minor closes the next one) and corporations whose prices fall to 0 (they close) can
//! leave a game in which nothing operates and only the round limit (turn 100, unfinished)
//! ends it, so both policies start minors readily, at low prices, and keep prices up.

use crate::action::{Action, BidTarget, DividendKind, Entity};
use crate::engine::{Game, LegalAction, LegalActions, RoundKind};
use crate::ids::Money;
use crate::selfplay::{preferring, Rng, TitlePolicy};

/// 18Ireland's self-play choices.
#[derive(Debug)]
pub(super) struct IrelandPolicy;

impl TitlePolicy for IrelandPolicy {
    fn random_candidates(&self, game: &Game, legal: &LegalActions) -> LegalActions {
        LegalActions {
            actions: keeps_corporations(game, legal)
                .into_iter()
                .cloned()
                .collect(),
            ..legal.clone()
        }
    }

    fn kind_weight(&self, action: &Action) -> Option<f64> {
        kind_weight(action)
    }

    fn pick_price(&self, legal: &LegalAction, rng: &mut Rng) -> Option<Action> {
        pick_price(legal, rng)
    }

    fn greedy_candidates(&self, game: &Game, legal: &LegalActions) -> LegalActions {
        without_dead_ends(game, legal)
    }

    fn greedy(&self, game: &Game, legal: &LegalActions, own: &[&LegalAction]) -> Option<Action> {
        greedy(game, legal, own)
    }
}

/// Kind weights of the random policy where they differ from the generic ones.
fn kind_weight(a: &Action) -> Option<f64> {
    Some(match a {
        // Opening or raising a minor auction.
        Action::Bid {
            target: BidTarget::Corporation(_),
            ..
        } => 6.0,
        Action::Dividend {
            kind: DividendKind::Payout,
            ..
        } => 4.0,
        // Issuing and redeeming: rarely (issues push the price towards the closing cell).
        Action::SellShares {
            entity: Entity::Corporation(_),
            ..
        }
        | Action::BuyShares {
            entity: Entity::Corporation(_),
            ..
        } => 0.1,
        Action::Merge { .. } => 2.0,
        _ => return None,
    })
}

/// Drops the sales, issues and dividends after which a corporation would close (its price
/// reaching 0), unless nothing else is left: a random game in which every corporation has
/// closed has nothing left that could end it (but the round limit). Also drops the moves after
/// which nobody can act (in 18xx.games too, see [`stuck_after`]): an emergency sale past the
/// purchase minimum, a private's first lay that no second lay can join (DR, TDR: they must
/// lay both), and a par with no city for the major's home token.
fn keeps_corporations<'l>(game: &Game, legal: &'l LegalActions) -> Vec<&'l LegalAction> {
    let open = |g: &Game| g.corps.iter().filter(|c| !c.closed).count();
    let before = open(game);
    let kept: Vec<&LegalAction> = legal
        .actions
        .iter()
        .filter(|l| {
            let private_lay = matches!(
                l.action,
                Action::LayTile {
                    entity: Entity::Company(_),
                    ..
                }
            );
            if !private_lay
                && !matches!(
                    l.action,
                    Action::SellShares { .. } | Action::Dividend { .. } | Action::Par { .. }
                )
            {
                return true;
            }
            let mut next = game.clone();
            next.process(&l.action).is_ok()
                && open(&next) >= before
                && (matches!(l.action, Action::Dividend { .. })
                    || !stuck_after(game, &l.action, &next))
        })
        .collect();
    if kept.is_empty() {
        legal.actions.iter().collect()
    } else {
        kept
    }
}

/// Drops the greedy moves after which nobody can act (in 18xx.games too, see
/// [`stuck_after`]): a par with no city for the major's home token and an emergency sale past
/// the purchase minimum. Everything else is kept, and everything if nothing would be.
fn without_dead_ends(game: &Game, legal: &LegalActions) -> LegalActions {
    // Whether a home can be found does not depend on the price: one trial per corporation.
    let mut pars: std::collections::BTreeMap<crate::ids::CorpId, bool> = Default::default();
    let alive = |a: &Action| {
        let mut next = game.clone();
        next.process(a).is_ok() && !stuck_after(game, a, &next)
    };
    preferring(legal, |l| match l.action {
        Action::Par { corp, .. } => *pars.entry(corp).or_insert_with(|| alive(&l.action)),
        Action::SellShares { .. } if emergency_sale(game, &l.action) => alive(&l.action),
        _ => true,
    })
}

/// A president's sale for his corporation's train.
fn emergency_sale(game: &Game, a: &Action) -> bool {
    game.round_kind() == RoundKind::Operating
        && matches!(
            a,
            Action::SellShares {
                entity: Entity::Player(_),
                ..
            }
        )
}

/// Whether nobody can act after `action` (taken at `before`, leading to `next`), in
/// 18xx.games too:
/// - nothing is listed but bonus markers to assign (after a private's first lay that no
///   second lay can join, the game waits for that private; a par with no city for the
///   major's home token waits for that token);
/// - after an emergency sale, no train is buyable and no bankruptcy allowed although the
///   president and the treasury together could pay for the cheapest train: the sale went
///   past what was needed, and as it sets the purchase minimum (the reference's
///   `spend_minmax`), further sales only raise it.
fn stuck_after(before: &Game, action: &Action, next: &Game) -> bool {
    if next.finished {
        return false;
    }
    let legal = next.legal_actions();
    // Ending the game by hand is always possible and no way on.
    if legal
        .actions
        .iter()
        .filter(|l| !matches!(l.action, Action::EndGame { .. }))
        .all(|l| matches!(l.action, Action::Assign { .. }))
    {
        return true;
    }
    if !emergency_sale(before, action) || next.round_kind() != RoundKind::Operating {
        return false;
    }
    let Some(Entity::Corporation(corp)) = legal.acting else {
        return false;
    };
    if legal
        .actions
        .iter()
        .any(|l| matches!(l.action, Action::BuyTrain { .. } | Action::Bankrupt { .. }))
    {
        return false;
    }
    let c = next.corp(corp);
    let total = c.cash + c.president.map_or(Money::ZERO, |p| next.player(p).cash);
    next.cheapest_depot_price()
        .is_some_and(|cheapest| total >= cheapest)
}

/// A price for a ranged action: bids stay within a few steps of the lowest, so that the
/// winner keeps cash for shares; other ranges are uniform.
fn pick_price(l: &LegalAction, rng: &mut Rng) -> Option<Action> {
    let (lo, hi) = l.price_range()?;
    let step = l.price_step?.0.max(1);
    let count = ((hi.0 - lo.0) / step + 1).min(4);
    Some(l.at_price(Money(lo.0 + step * rng.below(count as u64) as i64)))
}

/// The greedy choice where it differs from the generic one: minor auctions in the stock round, the
/// home city of a started major, and the merger round. `None` leaves the choice to the
/// common greedy policy.
fn greedy(game: &Game, legal: &LegalActions, own: &[&LegalAction]) -> Option<Action> {
    match game.round_kind() {
        RoundKind::Stock => greedy_stock(game, legal, own),
        RoundKind::Merger => Some(greedy_merger(game, own)),
        _ => None,
    }
}

fn greedy_stock(game: &Game, legal: &LegalActions, own: &[&LegalAction]) -> Option<Action> {
    match legal.acting? {
        // A major's home: the city worth most now.
        Entity::Corporation(_) => own
            .iter()
            .filter(|l| matches!(l.action, Action::PlaceToken { .. }))
            .max_by_key(|l| city_value(game, &l.action))
            .map(|l| l.action.clone()),
        Entity::Player(p) => {
            let cash = game.player(p).cash;
            let bid = own.iter().find(|l| {
                matches!(
                    l.action,
                    Action::Bid {
                        target: BidTarget::Corporation(_),
                        ..
                    }
                )
            })?;
            let (lo, _) = bid.price_range()?;
            // Raise or open while the bid is a minor's worth and leaves cash for a share.
            let running = !own.iter().any(|l| {
                matches!(
                    l.action,
                    Action::BuyShares { .. } | Action::Par { .. } | Action::SellShares { .. }
                )
            });
            let limit = if running { 130 } else { 120 };
            if lo.0 <= limit && lo.0 + 40 <= cash.0 {
                return Some(bid.action.clone());
            }
            if running {
                return own
                    .iter()
                    .find(|l| matches!(l.action, Action::Pass { .. }))
                    .map(|l| l.action.clone());
            }
            None
        }
        Entity::Company(_) => None,
    }
}

/// The revenue of the city a token goes to, now.
fn city_value(game: &Game, a: &Action) -> i64 {
    let Action::PlaceToken { city, .. } = a else {
        return 0;
    };
    let map = game.title.map;
    let colours = game.phase_tile_colours();
    let def = map.tile_def(city.tile.def);
    def.nodes
        .iter()
        .find(|n| n.part == city.part)
        .map_or(0, |n| n.revenue.value(colours).0)
}

/// Vote for every merger, propose mergers of minors the player holds, form the first major
/// left, and discard the cheapest train when over the limit.
fn greedy_merger(game: &Game, own: &[&LegalAction]) -> Action {
    let first = |f: &dyn Fn(&Action) -> bool| own.iter().find(|l| f(&l.action));
    if let Some(l) = first(&|a| {
        matches!(
            a,
            Action::Vote {
                in_favour: true,
                ..
            }
        )
    }) {
        return l.action.clone();
    }
    if let Some(l) = own
        .iter()
        .filter(|l| matches!(l.action, Action::DiscardTrain { .. }))
        .min_by_key(|l| match l.action {
            Action::DiscardTrain { train, .. } => game.title.train(train.kind).price,
            _ => Money::ZERO,
        })
    {
        return l.action.clone();
    }
    if let Some(l) = first(&|a| matches!(a, Action::Merge { .. })) {
        return l.action.clone();
    }
    own.iter()
        .find(|l| matches!(l.action, Action::Pass { .. }))
        .or(own.first())
        .map(|l| l.action.clone())
        .unwrap_or(Action::Pass {
            entity: Entity::Player(crate::ids::PlayerId(0)),
        })
}
