//! The operating round: each floated corporation in operating order walks the steps of its
//! turn — home token, issue or redeem shares, track, token, routes, dividend, trains,
//! private purchase (rules-and-format B.1 "Operating round" and B.3.7; reference step list
//! `operating_round`). A step that has nothing to ask is skipped automatically (the
//! reference's `skip_steps`, D.1), so a log holds a `pass` only where the reference waited
//! for one.
//!
//! One file per step, each with its rule references:
//! - [`turn`]: the round and turn machinery — operating order, step order, skipping, the end
//!   of the round and of the set;
//! - [`token`]: home tokens, station tokens, lifted tokens put back;
//! - [`issue`]: issuing and redeeming shares;
//! - [`track`]: tile actions and their fees;
//! - [`routes`]: running the trains, and the run rules a title's hook chooses;
//! - [`dividend`]: payout or withhold, and the share price move;
//! - [`trains`]: the train offer, purchases, trade-ins, discards;
//! - [`phase`]: what the first train of a type sets off (phases, rusting, events);
//! - [`privates`]: private purchases and the privates' abilities (lays, teleports, markers);
//! - [`emergency`]: emergency money and bankruptcy.
//!
//! [`process`] routes each action to its step; this file also holds the round's state.

mod dividend;
mod emergency;
mod issue;
mod phase;
mod privates;
mod routes;
mod token;
mod track;
mod trains;
mod turn;

use crate::action::{Action, Entity};
use crate::engine::private_lay::{owner_lay, seller_lay};
use crate::engine::state::{CompanyOwner, TrainOwner};
use crate::engine::{Game, Round, RuleViolation};
use crate::ids::{CompanyId, CorpId, HexId, Money, PlayerId, TrainKind};
use emergency::{bankrupt, emergency_sell};
use issue::{issue_share, redeem_share};
use privates::{assign, buy_company, special_lay, teleport_token};
use routes::run_routes;
use token::{home_token_choice, place_token, replace_lifted_token};
use track::lay_tile;
use trains::{buy_train, discard_train};

pub use routes::RunSetup;

/// Where a corporation's turn stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OrStep {
    HomeToken,
    IssueShares,
    Track,
    Token,
    Route,
    Dividend,
    BuyTrain,
    BuyCompany,
}

impl Game {
    /// After a player's lay with his private in an operating round, the steps that ask
    /// nothing are skipped.
    pub(crate) fn skip_steps_after_private_lay(&mut self) {
        self.skip_steps();
    }
}

impl OrStep {
    fn name(self) -> &'static str {
        match self {
            OrStep::HomeToken => "home token",
            OrStep::IssueShares => "issue or redeem shares",
            OrStep::Track => "track",
            OrStep::Token => "token",
            OrStep::Route => "routes",
            OrStep::Dividend => "dividend",
            OrStep::BuyTrain => "trains",
            OrStep::BuyCompany => "private purchase",
        }
    }

    fn allowed(self) -> &'static str {
        match self {
            OrStep::HomeToken => "place_token",
            OrStep::IssueShares => "sell_shares (issue), buy_shares (redeem), pass",
            OrStep::Track => "lay_tile, pass",
            OrStep::Token => "place_token, pass",
            OrStep::Route => "run_routes",
            OrStep::Dividend => "dividend",
            OrStep::BuyTrain => "buy_train, pass (or sell_shares by the president in an emergency)",
            OrStep::BuyCompany => "buy_company, pass",
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct OperatingRound {
    pub(crate) round_num: u8,
    order: Vec<CorpId>,
    index: usize,
    pub(crate) step: OrStep,
    revenue: Money,
    depot_kinds_bought: Vec<TrainKind>,
    /// Whether the corporation has traded a train in this turn.
    traded_in: bool,
    /// Tile actions taken this turn: whether each was an upgrade.
    lays: Vec<bool>,
    /// Price per share of the last emergency sale (limits cheaper purchases from others).
    pub(crate) last_share_sold_price: Option<Money>,
    /// A corporation above its train limit after a phase change; it must discard first.
    pub(crate) discarding: Option<CorpId>,
    /// The private and hex of a teleport lay (CdH) whose free token is still to be placed.
    pub(crate) teleport: Option<(CompanyId, HexId)>,
    /// Tokens lifted by a lay on a trackless multi-city tile, to be placed again on that hex.
    pub(crate) pending_tokens: Vec<LiftedToken>,
    /// A private whose lays must be made together (18Ireland DR, TDR) and the hexes it has
    /// laid on so far: until its last lay nothing else of the turn may happen (reference
    /// special track step, blocking).
    pub(crate) together: Option<(CompanyId, Vec<HexId>)>,
    /// Whether the operating corporation (or a private it owns) has acted in its turn: until
    /// then the abilities usable between turns are (reference `current_operator_acted`).
    pub(crate) operator_acted: bool,
    /// A private just bought by a corporation whose seller may now lay a tile with it, and the
    /// seller (1889 ER; reference `TrackLayWhenCompanySold`): until the lay or a pass nothing
    /// else happens.
    pub(crate) sold_lay: Option<(CompanyId, PlayerId)>,
    /// Corporations whose shares the president has sold in this turn's emergency (a title
    /// selling in blocks allows one sale each).
    pub(crate) emergency_sold: Vec<CorpId>,
    /// Whether the corporation has placed its token of the turn (a teleport's free token
    /// counts, whenever it is placed: reference `Tokener#place_token` sets `tokened`).
    pub(crate) tokened: bool,
}

fn or(game: &Game) -> &OperatingRound {
    match &game.round {
        Round::Operating(o) => o,
        _ => unreachable!("operating processing outside an operating round"),
    }
}

fn or_mut(game: &mut Game) -> &mut OperatingRound {
    match &mut game.round {
        Round::Operating(o) => o,
        _ => unreachable!("operating processing outside an operating round"),
    }
}

/// A token lifted by a lay on a trackless multi-city tile, to be placed again on that hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LiftedToken {
    /// Whose token it is.
    pub(crate) owner: CorpId,
    pub(crate) hex: HexId,
    /// The corporation that laid the tile: it chooses the city.
    pub(crate) placer: CorpId,
}

impl OperatingRound {
    pub(crate) fn acting(&self, game: &Game) -> Option<Entity> {
        if let Some((company, _)) = self.sold_lay {
            return Some(Entity::Company(company));
        }
        if let Some(c) = self.discarding {
            return Some(Entity::Corporation(c));
        }
        if let Some(lifted) = self.pending_tokens.first() {
            return Some(Entity::Corporation(lifted.placer));
        }
        if let Some((company, _)) = self.teleport {
            return Some(Entity::Company(company));
        }
        if let Some((company, _)) = &self.together {
            return Some(Entity::Company(*company));
        }
        self.order.get(self.index).map(|c| {
            let _ = game;
            Entity::Corporation(*c)
        })
    }

    pub(crate) fn current(&self) -> Option<CorpId> {
        self.order.get(self.index).copied()
    }

    /// Whether the track step is still ahead or in progress (the reference's
    /// `ability_blocking_step` is the track step).
    pub(crate) fn track_ahead(&self) -> bool {
        matches!(
            self.step,
            OrStep::HomeToken | OrStep::IssueShares | OrStep::Track
        )
    }
}

pub(crate) fn process(game: &mut Game, action: &Action) -> Result<(), RuleViolation> {
    let Some(corp) = or(game).current() else {
        return Err(RuleViolation::GameOver);
    };
    // Actions outside the step order first, in the order the reference's steps ask for them:
    // a private's marker or exchange at any time, a private's lays made together, a private
    // bought at any point of the turn, a forced discard, a lifted token put back, an emergency
    // sale.
    if let Some(done) = process_any_time(game, corp, action) {
        return done;
    }
    if let Some(done) = process_sold_lay(game, corp, action) {
        return done;
    }
    if let (Entity::Company(company), Action::LayTile { .. }) = (action.entity(), action) {
        if matches!(game.company(company).owner, CompanyOwner::Player(_)) {
            return lay_by_owner(game, company, action);
        }
    }
    let acts_for_operator = match action.entity() {
        Entity::Corporation(c) => c == corp,
        Entity::Company(c) => game.company(c).owner == CompanyOwner::Corporation(corp),
        Entity::Player(_) => false,
    };
    if acts_for_operator {
        or_mut(game).operator_acted = true;
    }
    check_lays_together(game, action)?;
    if let Some(done) = process_company_purchase(game, corp, action) {
        return done;
    }
    if let Some(done) = process_ability_ahead_of_home_token(game, corp, action) {
        return done;
    }
    if let Some(done) = process_pending(game, action) {
        return done;
    }
    if let Some(done) = process_emergency_sale(game, corp, action) {
        return done;
    }
    let entity = action.entity();
    let owned_company = match entity {
        Entity::Company(c) if game.company(c).owner == CompanyOwner::Corporation(corp) => Some(c),
        _ => None,
    };
    if entity != Entity::Corporation(corp) && owned_company.is_none() {
        let expected = game.title.corp(corp).sym.clone();
        return Err(RuleViolation::NotYourTurn {
            actor: game.entity_name(entity),
            expected,
        });
    }
    if let Some(company) = owned_company {
        return process_company_ability(game, corp, company, action);
    }
    process_step(game, corp, action)
}

impl Game {
    /// After a private's action outside the step order: the private-purchase step ends if
    /// nothing holds it open any more, and the steps that ask nothing are skipped.
    fn after_private_action(&mut self, corp: CorpId) {
        if or(self).step == OrStep::BuyCompany && !self.company_step_waits(corp) {
            self.next_or_step();
        }
        self.skip_steps();
    }
}

/// A private's bonus marker, or a private's exchange for a share: allowed at any time of the
/// owning corporation's turn.
fn process_any_time(
    game: &mut Game,
    corp: CorpId,
    action: &Action,
) -> Option<Result<(), RuleViolation>> {
    // A private's bonus marker may be placed at any time of its owning corporation's turn
    // (reference `Assign` step: not blocking, ahead of the turn's steps).
    if let (Entity::Company(company), Action::Assign { hex, .. }) = (action.entity(), action) {
        if let Err(e) = assign(game, company, *hex) {
            return Some(Err(e));
        }
        // The marker may have been all that held the private-purchase step open.
        game.after_private_action(corp);
        return Some(Ok(()));
    }
    // A private's owner may exchange it at any time (GCB).
    if let (Entity::Company(company), Action::BuyShares { shares, .. }) = (action.entity(), action)
    {
        return Some(crate::engine::stock::exchange(game, company, shares));
    }
    None
}

/// The seller's lay with a private just bought (1889 ER), or his pass: nothing else may come
/// first.
fn process_sold_lay(
    game: &mut Game,
    corp: CorpId,
    action: &Action,
) -> Option<Result<(), RuleViolation>> {
    let (company, seller) = or(game).sold_lay?;
    let result = match action {
        Action::LayTile {
            entity: Entity::Company(c),
            hex,
            tile,
            rotation,
        } if *c == company => seller_lay(game, company, seller, (*hex, *tile, *rotation)),
        Action::Pass {
            entity: Entity::Company(c),
        } if *c == company => {
            game.companies[usize::from(company.0)].uses_left = 0;
            Ok(())
        }
        _ => Err(RuleViolation::WrongStep {
            action: action.type_name(),
            step: "seller's lay",
            allowed: format!(
                "lay_tile or pass by {} (for {}, who sold it)",
                game.title.company(company).sym,
                game.player(seller).name
            ),
        }),
    };
    if result.is_ok() {
        or_mut(game).sold_lay = None;
        game.after_private_action(corp);
    }
    Some(result)
}

/// A lay a player makes with a private he owns (1889 MF).
fn lay_by_owner(game: &mut Game, company: CompanyId, action: &Action) -> Result<(), RuleViolation> {
    let Action::LayTile {
        hex,
        tile,
        rotation,
        ..
    } = action
    else {
        unreachable!("called for lay_tile only");
    };
    owner_lay(game, company, *hex, *tile, *rotation)
}

/// While a private's lays must be made together, nothing else may be done.
fn check_lays_together(game: &Game, action: &Action) -> Result<(), RuleViolation> {
    let Some((company, _)) = &or(game).together else {
        return Ok(());
    };
    let company = *company;
    let own_lay = matches!(
        (action.entity(), action),
        (Entity::Company(c), Action::LayTile { .. }) if c == company
    );
    if own_lay {
        return Ok(());
    }
    Err(RuleViolation::WrongStep {
        action: action.type_name(),
        step: "private's lays",
        allowed: format!(
            "lay_tile by {} (its lays are made together)",
            game.title.company(company).sym
        ),
    })
}

/// Corporations may buy privates at any point of their turn when the phase allows it
/// (reference: a non-blocking private step ahead of the turn's steps), also while they
/// discard a train and, where that step comes after the home token's (1836Jr30), while a
/// home token waits to be placed.
fn process_company_purchase(
    game: &mut Game,
    corp: CorpId,
    action: &Action,
) -> Option<Result<(), RuleViolation>> {
    let Action::BuyCompany {
        entity: Entity::Corporation(buyer),
        company,
        price,
    } = action
    else {
        return None;
    };
    let home_token_waits = home_token_waits(game);
    let blocked = or(game).discarding.is_some_and(|c| c != corp)
        || (home_token_waits && game.title.operating.home_token_first);
    if *buyer != corp || blocked {
        return None;
    }
    if let Err(e) = buy_company(game, corp, *company, *price) {
        return Some(Err(e));
    }
    if or(game).sold_lay.is_some() {
        return Some(Ok(()));
    }
    game.after_private_action(corp);
    Some(Ok(()))
}

/// A private's ability used by the corporation while its home token waits to be placed: where
/// the reference's private steps come before its home-token step (1830, 1836Jr30: special
/// track and special token ahead of the home token), the private acts and the home token
/// still waits; where the home token comes first (18Ireland) it must be placed first.
fn process_ability_ahead_of_home_token(
    game: &mut Game,
    corp: CorpId,
    action: &Action,
) -> Option<Result<(), RuleViolation>> {
    let Entity::Company(company) = action.entity() else {
        return None;
    };
    let home_token_waits = home_token_waits(game);
    let ahead = home_token_waits
        && !game.title.operating.home_token_first
        && or(game).discarding.is_none()
        && game.company(company).owner == CompanyOwner::Corporation(corp);
    ahead.then(|| process_company_ability(game, corp, company, action))
}

/// A home token waits to be placed: the corporation's own, or one a lay lifted.
fn home_token_waits(game: &Game) -> bool {
    !or(game).pending_tokens.is_empty() || or(game).step == OrStep::HomeToken
}

/// What interrupts the turn until it is done: a corporation over its train limit discards
/// (the reference's `DiscardTrain` step), a token lifted by a lay is put back.
fn process_pending(game: &mut Game, action: &Action) -> Option<Result<(), RuleViolation>> {
    if let Some(discarding) = or(game).discarding {
        // Every corporation over its limit may discard, in any order: the reference's step
        // waits for the first in its list but takes any of them (`crowded_corps`).
        return Some(match action {
            Action::DiscardTrain {
                entity: Entity::Corporation(c),
                train,
            } if game.over_train_limit(*c) => discard_train(game, *c, *train),
            _ => Err(RuleViolation::WrongStep {
                action: action.type_name(),
                step: "discard train",
                allowed: format!("discard_train by {}", game.title.corp(discarding).sym),
            }),
        });
    }
    if let Some(&LiftedToken { owner, hex, placer }) = or(game).pending_tokens.first() {
        return Some(match action {
            Action::PlaceToken {
                entity: Entity::Corporation(c),
                city,
                slot,
                cost,
            } if *c == placer => {
                replace_lifted_token(game, owner, hex, *city, (*slot, *cost)).map(|()| {
                    game.skip_steps();
                })
            }
            _ => Err(RuleViolation::WrongStep {
                action: action.type_name(),
                step: "home token",
                allowed: format!(
                    "place_token by {} for {}'s token on {hex}",
                    game.title.corp(placer).sym,
                    game.title.corp(owner).sym
                ),
            }),
        });
    }
    None
}

/// Emergency sales come from the president during the train step, and only to raise money
/// for a train the corporation must buy.
fn process_emergency_sale(
    game: &mut Game,
    corp: CorpId,
    action: &Action,
) -> Option<Result<(), RuleViolation>> {
    let Action::SellShares {
        entity: Entity::Player(p),
        shares,
        percent,
        ..
    } = action
    else {
        return None;
    };
    if or(game).step != OrStep::BuyTrain || game.corp(corp).president != Some(*p) {
        return None;
    }
    if !game.must_buy_train(corp) {
        return Some(Err(RuleViolation::Shares(format!(
            "{} need not buy a train: in an operating round a president sells shares \
             only to raise money for a train his corporation must buy",
            game.title.corp(corp).sym
        ))));
    }
    Some(emergency_sell(game, corp, *p, shares, *percent))
}

/// An action of a private the operating corporation owns: a teleport's free token, or one of
/// its tile lays.
fn process_company_ability(
    game: &mut Game,
    corp: CorpId,
    company: CompanyId,
    action: &Action,
) -> Result<(), RuleViolation> {
    if or(game).teleport.is_some_and(|(c, _)| c == company) {
        return teleport_token(game, corp, action);
    }
    match action {
        Action::LayTile {
            hex,
            tile,
            rotation,
            ..
        } => special_lay(game, corp, company, *hex, *tile, *rotation),
        _ => Err(RuleViolation::Company(format!(
            "{} has no ability for {}",
            game.title.company(company).sym,
            action.type_name()
        ))),
    }
}

/// An action of the corporation's current step; afterwards the steps that ask nothing are
/// skipped.
fn process_step(game: &mut Game, corp: CorpId, action: &Action) -> Result<(), RuleViolation> {
    let step = or(game).step;
    match (step, action) {
        (
            OrStep::HomeToken,
            Action::PlaceToken {
                city, slot, cost, ..
            },
        ) => home_token_choice(game, corp, *city, (*slot, *cost))?,
        (
            OrStep::Track,
            Action::LayTile {
                hex,
                tile,
                rotation,
                ..
            },
        ) => {
            lay_tile(game, corp, *hex, *tile, *rotation)?;
            if !game.track_step_waits(corp) {
                game.next_or_step();
            }
        }
        (OrStep::IssueShares, Action::SellShares { shares, .. }) => {
            issue_share(game, corp, shares)?;
            game.next_or_step();
        }
        (OrStep::IssueShares, Action::BuyShares { shares, .. }) => {
            redeem_share(game, corp, shares)?;
            game.next_or_step();
        }
        (
            OrStep::IssueShares
            | OrStep::Track
            | OrStep::Token
            | OrStep::BuyTrain
            | OrStep::BuyCompany,
            Action::Pass { .. },
        ) => {
            if step == OrStep::BuyTrain && game.must_buy_train(corp) {
                return Err(RuleViolation::Train(format!(
                    "{} has no train and must buy one",
                    game.title.corp(corp).sym
                )));
            }
            game.next_or_step();
        }
        (
            OrStep::Token,
            Action::PlaceToken {
                city, slot, cost, ..
            },
        ) => {
            place_token(game, corp, *city, (*slot, *cost))?;
            game.next_or_step();
        }
        (OrStep::Route, Action::RunRoutes { routes, .. }) => {
            run_routes(game, corp, routes)?;
            game.next_or_step();
        }
        (OrStep::Dividend, Action::Dividend { kind, .. }) => {
            game.pay_dividend(corp, *kind);
            game.next_or_step();
        }
        (
            OrStep::BuyTrain,
            Action::BuyTrain {
                train,
                price,
                exchange,
                ..
            },
        ) => {
            let from_depot = game
                .trains
                .iter()
                .any(|t| t.id == *train && t.owner == TrainOwner::Depot);
            buy_train(game, corp, *train, *price, *exchange)?;
            if game.finished {
                return Ok(());
            }
            if or(game).discarding.is_none() && !game.train_step_waits_after_buy(corp, from_depot) {
                game.next_or_step();
            }
        }
        (OrStep::BuyTrain, Action::Bankrupt { .. }) => {
            bankrupt(game, corp)?;
            return Ok(());
        }
        _ => {
            return Err(RuleViolation::WrongStep {
                action: action.type_name(),
                step: step.name(),
                allowed: step.allowed().to_string(),
            })
        }
    }
    game.skip_steps();
    Ok(())
}

fn pay_corp(game: &mut Game, corp: CorpId, amount: Money) -> Result<(), RuleViolation> {
    if amount.0 <= 0 {
        return Ok(());
    }
    if game.corp(corp).cash < amount {
        return Err(RuleViolation::InsufficientCash {
            who: game.title.corp(corp).sym.clone(),
            available: game.corp(corp).cash,
            needed: amount,
        });
    }
    game.corp_mut(corp).cash -= amount;
    game.bank += amount;
    Ok(())
}
