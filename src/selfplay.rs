//! Self-play: complete games played by the rules from [`Game::legal_actions`], for sample games
//! and for testing the engine against the reference with games nobody has played.
//!
//! Deterministic for a seed: a small built-in PRNG (SplitMix64), and every choice is made over
//! lists in generation order (no hash order anywhere).

use crate::action::{Action, DividendKind, Entity};
use crate::engine::{
    Game, GameOptions, GameSetup, LegalAction, LegalActions, RoundKind, SetupError,
};
use crate::ids::Money;

/// Most actions a self-play game may take before it is abandoned (a safety net; games end by
/// bank break or bankruptcy long before).
pub const MAX_ACTIONS: usize = 20_000;

/// A small deterministic PRNG (SplitMix64).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next_u64() % n
        }
    }

    /// A float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// How the self-play chooses among the legal actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// Uniform within a kind of action, kinds weighted so that games end.
    Random,
    /// Plausible play: buy privates near face value, start and float corporations, lay track
    /// that reaches revenue, run the best routes, pay out, buy trains when needed.
    Greedy,
}

/// A finished (or abandoned) self-play game.
#[derive(Debug, Clone)]
pub struct SelfPlay {
    /// The setup it was played from.
    pub setup: GameSetup,
    /// The seed.
    pub seed: u64,
    /// The policy.
    pub policy: Policy,
    /// Every action, in order.
    pub actions: Vec<Action>,
    /// The final state.
    pub game: Game,
}

/// Plays one game of `title` with `players` players.
///
/// # Errors
/// An unknown title or a player count the title does not allow.
pub fn play(
    title: &str,
    players: usize,
    seed: u64,
    policy: Policy,
) -> Result<SelfPlay, SetupError> {
    play_with(title, players, seed, policy, &SelfPlayOptions::default())
}

/// What a self-play game is asked for beyond its title, players, seed and policy.
#[derive(Debug, Clone, Default)]
pub struct SelfPlayOptions {
    /// The title's optional rules to play with, by their reference names (`beginner_game`).
    pub optional_rules: Vec<String>,
    /// End the game by hand (18xx.games' End Game) after this many actions if it has not
    /// ended by then: a short finished game, scored as it stands. Self-play never ends a game
    /// by hand otherwise.
    pub end_game_after: Option<usize>,
}

/// [`play`] with optional rules, or ended by hand.
///
/// # Errors
/// An unknown title, a player count the title does not allow, or an optional rule it does
/// not have.
pub fn play_with(
    title: &str,
    players: usize,
    seed: u64,
    policy: Policy,
    options: &SelfPlayOptions,
) -> Result<SelfPlay, SetupError> {
    let end_game_after = options.end_game_after;
    let setup = GameSetup {
        title: title.to_string(),
        players: (1..=players).map(|i| format!("Player {i}")).collect(),
        seed: Some(seed),
        options: GameOptions {
            optional_rules: options.optional_rules.clone(),
        },
    };
    let mut game = Game::new(&setup)?;
    let mut rng = Rng::new(seed);
    let mut actions = Vec::new();
    while !game.finished && actions.len() < MAX_ACTIONS {
        if end_game_after == Some(actions.len()) {
            let action = Action::EndGame {
                entity: Entity::Player(player_to_end(&game)),
            };
            if game.process(&action).is_ok() {
                actions.push(action);
            }
            break;
        }
        let legal = game.legal_actions();
        let Some(action) = choose(&game, &legal, policy, &mut rng) else {
            break;
        };
        if game.process(&action).is_err() {
            // A listed action the engine rejects is a generator bug; stop rather than loop.
            break;
        }
        actions.push(action);
    }
    Ok(SelfPlay {
        setup,
        seed,
        policy,
        actions,
        game,
    })
}

/// The player who ends a game by hand: the one to act, or the president of the corporation
/// that is, or the first in seat order.
fn player_to_end(game: &Game) -> crate::ids::PlayerId {
    match game.acting_entity() {
        Some(Entity::Player(p)) => p,
        Some(Entity::Corporation(c)) => game.corp(c).president.unwrap_or(game.seats[0]),
        _ => game.seats[0],
    }
}

/// Picks an action from the list (`None` if nothing but ending the game by hand is left).
pub fn choose(game: &Game, legal: &LegalActions, policy: Policy, rng: &mut Rng) -> Option<Action> {
    // Ending the game by hand (18xx.games' End Game) is always listed and never played: a
    // self-play game ends by the rules, or is left unfinished when nothing else can happen.
    let legal = &without_ending_by_hand(legal);
    if legal.is_empty() {
        return None;
    }
    // Self-play follows the printed rules where 18xx.games does not, unless nothing else is
    // left: its games are then legal by both.
    let legal = &preferring(legal, |l| l.deviation.is_none());
    let legal = &without_stuck_private_lays(game, legal);
    let legal = &within_safe_bids(game, legal);
    let title = game.title.self_play();
    match policy {
        Policy::Random => Some(random(&title.random_candidates(game, legal), rng, title)),
        Policy::Greedy => Some(greedy(
            game,
            &title.greedy_candidates(game, legal),
            rng,
            title,
        )),
    }
}

/// The actions other than ending the game by hand (always listed).
fn without_ending_by_hand(legal: &LegalActions) -> LegalActions {
    LegalActions {
        actions: legal
            .actions
            .iter()
            .filter(|l| !matches!(l.action, Action::EndGame { .. }))
            .cloned()
            .collect(),
        ..legal.clone()
    }
}

/// Caps private bids at what the bidder can pay whatever his other bids win (see
/// [`Game::safe_bid_limit`]); bids above it are left out.
fn within_safe_bids(game: &Game, legal: &LegalActions) -> LegalActions {
    let mut out = legal.clone();
    out.actions.retain_mut(|l| {
        let Action::Bid {
            entity: Entity::Player(p),
            target: crate::action::BidTarget::Company(c),
            price,
        } = l.action
        else {
            return true;
        };
        let limit = game.safe_bid_limit(p, c);
        if price > limit {
            return false;
        }
        if let Some(max) = l.max_price {
            let step = l.price_step.map_or(1, |s| s.0.max(1));
            let top = Money(price.0 + (limit.0 - price.0) / step * step);
            l.max_price = Some(max.min(top));
        }
        true
    });
    if out.actions.is_empty() {
        return legal.clone();
    }
    out
}

/// Leaves out a private's lays after which nothing is legal (in 18xx.games too): a first lay
/// of two made together that no second lay can join (18Chesapeake C-P and B&S, 18Ireland DR
/// and TDR must lay both). Everything is kept if nothing else would be.
fn without_stuck_private_lays(game: &Game, legal: &LegalActions) -> LegalActions {
    preferring(legal, |l| {
        if !matches!(
            l.action,
            Action::LayTile {
                entity: Entity::Company(_),
                ..
            }
        ) {
            return true;
        }
        let mut next = game.clone();
        next.process(&l.action).is_ok()
            && (next.finished || !without_ending_by_hand(&next.legal_actions()).is_empty())
    })
}

/// The actions `keep` accepts, or all of them if it accepts none (a preference, never a dead
/// end of self-play's own making).
pub(crate) fn preferring(
    legal: &LegalActions,
    keep: impl FnMut(&&LegalAction) -> bool,
) -> LegalActions {
    let kept: Vec<LegalAction> = legal.actions.iter().filter(keep).cloned().collect();
    LegalActions {
        actions: if kept.is_empty() {
            legal.actions.clone()
        } else {
            kept
        },
        ..legal.clone()
    }
}

/// A title's own self-play choices where the generic policies would play its games badly
/// (for example let them run to the round limit); every method defaults to the generic
/// choice. A title's hooks name its policy (see [`crate::engine::title`]).
pub(crate) trait TitlePolicy: Sync {
    /// The actions the random policy chooses among. Default: all.
    fn random_candidates(&self, game: &Game, legal: &LegalActions) -> LegalActions {
        let _ = game;
        legal.clone()
    }

    /// The random policy's weight for the kind of `action`, where it differs from the
    /// generic weight.
    fn kind_weight(&self, action: &Action) -> Option<f64> {
        let _ = action;
        None
    }

    /// The random policy's price for a ranged action, where it differs from a uniform one.
    fn pick_price(&self, legal: &LegalAction, rng: &mut Rng) -> Option<Action> {
        let _ = (legal, rng);
        None
    }

    /// The actions the greedy policy chooses among. Default: all.
    fn greedy_candidates(&self, game: &Game, legal: &LegalActions) -> LegalActions {
        let _ = game;
        legal.clone()
    }

    /// The greedy choice where it differs from the generic one; `own` holds the acting
    /// entity's actions.
    fn greedy(&self, game: &Game, legal: &LegalActions, own: &[&LegalAction]) -> Option<Action> {
        let _ = (game, legal, own);
        None
    }
}

/// The generic choices only.
#[derive(Debug)]
pub(crate) struct GenericPolicy;

impl TitlePolicy for GenericPolicy {}

fn kind_weight(a: &Action) -> f64 {
    match a {
        Action::SellShares { .. } | Action::BuyCompany { .. } => 0.3,
        Action::Bankrupt { .. } => 0.2,
        Action::LayTile { .. } => 3.0,
        Action::BuyShares { .. } | Action::PlaceToken { .. } | Action::BuyTrain { .. } => 2.0,
        Action::RunRoutes { routes, .. } if routes.is_empty() => 0.1,
        Action::RunRoutes { .. } => 5.0,
        _ => 1.0,
    }
}

fn pick_price(l: &LegalAction, rng: &mut Rng) -> Action {
    match l.price_range() {
        Some((lo, hi)) if hi > lo => {
            let step = l.price_step.map_or(1, |s| s.0.max(1));
            let count = (hi.0 - lo.0) / step + 1;
            l.at_price(Money(lo.0 + step * rng.below(count as u64) as i64))
        }
        _ => l.action.clone(),
    }
}

/// Kinds weighted (the title's weight where it has one), uniform within a kind.
fn random(legal: &LegalActions, rng: &mut Rng, title: &dyn TitlePolicy) -> Action {
    // Kinds (with the empty run apart from real runs), each weighted, then uniform within.
    let mut kinds: Vec<(String, f64, Vec<&LegalAction>)> = Vec::new();
    for l in &legal.actions {
        let name = match &l.action {
            Action::RunRoutes { routes, .. } if routes.is_empty() => "no_run".to_string(),
            a => a.type_name().to_string(),
        };
        match kinds.iter_mut().find(|(k, _, _)| *k == name) {
            Some((_, _, list)) => list.push(l),
            None => {
                let weight = title
                    .kind_weight(&l.action)
                    .unwrap_or_else(|| kind_weight(&l.action));
                kinds.push((name, weight, vec![l]))
            }
        }
    }
    let total: f64 = kinds.iter().map(|k| k.1).sum();
    let mut x = rng.unit() * total;
    let mut chosen = &kinds[kinds.len() - 1].2;
    for (_, w, list) in &kinds {
        if x < *w {
            chosen = list;
            break;
        }
        x -= w;
    }
    let l = chosen[rng.below(chosen.len() as u64) as usize];
    if let Some(a) = title.pick_price(l, rng) {
        return a;
    }
    pick_price(l, rng)
}

fn find(legal: &LegalActions, f: impl Fn(&Action) -> bool) -> Vec<&LegalAction> {
    legal.actions.iter().filter(|l| f(&l.action)).collect()
}

fn pass_or_first(legal: &LegalActions) -> Action {
    find(legal, |a| matches!(a, Action::Pass { .. }))
        .first()
        .map(|l| l.action.clone())
        .unwrap_or_else(|| legal.actions[0].action.clone())
}

fn greedy(game: &Game, legal: &LegalActions, rng: &mut Rng, title: &dyn TitlePolicy) -> Action {
    let acting = legal.acting;
    // Only the acting entity's actions (private exchanges of bystanders are ignored).
    let own: Vec<&LegalAction> = legal
        .actions
        .iter()
        .filter(|l| {
            Some(l.action.entity()) == acting
                || matches!(l.action, Action::SellShares { .. } | Action::LayTile { .. })
        })
        .collect();
    let has =
        |f: &dyn Fn(&Action) -> bool| own.iter().find(|l| f(&l.action)).map(|l| l.action.clone());
    if let Some(a) = title.greedy(game, legal, &own) {
        return a;
    }
    match game.round_kind() {
        RoundKind::Auction => {
            // A par after CFLV: a middle price.
            if let Some(a) = own
                .iter()
                .filter(|l| matches!(l.action, Action::Par { .. }))
                .nth(1)
            {
                return a.action.clone();
            }
            // Buy the cheapest private at its price while cash allows; otherwise pass.
            let cash = match acting {
                Some(Entity::Player(p)) => game.player(p).cash,
                _ => Money::ZERO,
            };
            if let Some(a) =
                has(&|a| matches!(a, Action::Bid { price, .. } if price.0 * 3 <= cash.0 * 2))
                    .filter(|a| {
                        legal
                            .actions
                            .iter()
                            .any(|l| l.action == *a && l.max_price.is_none())
                    })
            {
                return a;
            }
            pass_or_first(legal)
        }
        RoundKind::Stock => {
            let Some(Entity::Player(p)) = acting else {
                return pass_or_first(legal);
            };
            if !own.iter().any(|l| matches!(l.action, Action::Pass { .. })) {
                // Must sell: the smallest bundle.
                if let Some(a) = has(&|a| matches!(a, Action::SellShares { .. })) {
                    return a;
                }
            }
            // Float the corporations we preside first, then start one, then the best buy.
            let mut buys: Vec<(i64, Action)> = own
                .iter()
                .filter_map(|l| match &l.action {
                    Action::BuyShares {
                        entity: Entity::Player(_),
                        shares,
                        ..
                    } if shares.len() == 1 => {
                        let c = game.corp(shares[0].corp);
                        let mut score = game.share_price(shares[0].corp).map_or(0, |m| m.0);
                        if c.president == Some(p) && !c.floated {
                            score += 1000;
                        }
                        if c.floated {
                            score += 100 + 10 * c.trains.len() as i64;
                        }
                        Some((score, l.action.clone()))
                    }
                    _ => None,
                })
                .collect();
            buys.sort_by_key(|(s, _)| std::cmp::Reverse(*s));
            if let Some((s, a)) = buys.first() {
                if *s >= 1000 {
                    return a.clone();
                }
            }
            let cash = game.player(p).cash;
            let pars: Vec<&&LegalAction> = own
                .iter()
                .filter(|l| matches!(l.action, Action::Par { cell, .. } if cell.price.0 * 6 <= cash.0 + 200))
                .collect();
            if !pars.is_empty() && rng.below(3) != 0 {
                return pars[0].action.clone();
            }
            if let Some((_, a)) = buys.first() {
                return a.clone();
            }
            pass_or_first(legal)
        }
        RoundKind::Operating => greedy_or(game, legal, &own, rng),
        RoundKind::Merger => own
            .first()
            .map(|l| l.action.clone())
            .unwrap_or(Action::Pass {
                entity: acting.unwrap_or(Entity::Player(crate::ids::PlayerId(0))),
            }),
    }
}

fn greedy_or(game: &Game, legal: &LegalActions, own: &[&LegalAction], rng: &mut Rng) -> Action {
    let first =
        |f: &dyn Fn(&Action) -> bool| own.iter().find(|l| f(&l.action)).map(|l| l.action.clone());
    if let Some(a) = first(&|a| matches!(a, Action::DiscardTrain { .. })) {
        return a;
    }
    if let Some(a) = first(&|a| matches!(a, Action::RunRoutes { routes, .. } if !routes.is_empty()))
    {
        return a;
    }
    if let Some(a) = first(&|a| {
        matches!(
            a,
            Action::Dividend {
                kind: DividendKind::Payout,
                ..
            }
        )
    }) {
        return a;
    }
    // Tile lays: upgrades and stations first (they add revenue), else any track.
    let lays: Vec<&Action> = own
        .iter()
        .map(|l| &l.action)
        .filter(|a| {
            matches!(
                a,
                Action::LayTile {
                    entity: Entity::Corporation(_),
                    ..
                }
            )
        })
        .collect();
    if !lays.is_empty() {
        let map = game.title.map;
        let score = |a: &Action| -> i64 {
            let Action::LayTile { tile, .. } = a else {
                return 0;
            };
            let def = map.tile_def(tile.def);
            i64::from(def.colour as u8) * 10
                + (def.cities.len() as i64) * 5
                + i64::from(def.towns) * 3
        };
        let best = lays.iter().map(|a| score(a)).max().unwrap_or(0);
        let top: Vec<&&Action> = lays.iter().filter(|a| score(a) == best).collect();
        return (*top[rng.below(top.len() as u64) as usize]).clone();
    }
    if let Some(a) = first(&|a| matches!(a, Action::PlaceToken { .. })) {
        return a;
    }
    // Trains: the cheapest from the depot when under the limit (not from other corporations).
    if let Some(Entity::Corporation(corp)) = legal.acting {
        let depot: Vec<&LegalAction> = own
            .iter()
            .copied()
            .filter(|l| l.max_price.is_none() && matches!(l.action, Action::BuyTrain { .. }))
            .collect();
        if let Some(l) = depot.iter().min_by_key(|l| match l.action {
            Action::BuyTrain { price, .. } => price,
            _ => Money::ZERO,
        }) {
            let c = game.corp(corp);
            if c.trains.is_empty() || c.trains.len() < 2 || rng.below(2) == 0 {
                return l.action.clone();
            }
        }
        let can_pass = own.iter().any(|l| matches!(l.action, Action::Pass { .. }));
        if !can_pass {
            if let Some(l) = own
                .iter()
                .find(|l| matches!(l.action, Action::BuyTrain { .. }))
            {
                return match l.price_range() {
                    Some((lo, _)) => l.at_price(lo),
                    None => l.action.clone(),
                };
            }
            if let Some(a) = first(&|a| matches!(a, Action::SellShares { .. })) {
                return a;
            }
            if let Some(a) = first(&|a| matches!(a, Action::Bankrupt { .. })) {
                return a;
            }
        }
    }
    pass_or_first(legal)
}
