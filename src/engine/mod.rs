//! The rules engine: game state, rounds and steps. Knows nothing of text, spans or files.
//!
//! [`Game::process`] validates and applies one [`Action`]; on a [`RuleViolation`] the state is
//! left exactly as it was.

pub mod correction;
pub mod deviation;
pub mod error;
pub mod map;
pub mod setup;
pub mod skipped;
pub mod state;
pub mod title;

mod auction;
mod end_game;
mod legal;
mod market;
mod operating;
mod private_lay;
mod shares;
mod stock;

use std::collections::BTreeMap;

pub use deviation::{Deviation, DeviationKind};
pub use error::RuleViolation;
pub use legal::{LegalAction, LegalActions};
pub use operating::RunSetup;
pub use skipped::{SkipReason, Skipped};
pub use state::{
    Company, CompanyOwner, Corporation, GameEndReason, MarketPos, Player, Train, TrainOwner,
};

use crate::action::{Action, Entity};
use crate::engine::map::Board;
use crate::engine::title::Title;
use crate::ids::{CompanyId, CorpId, Money, PlayerId, ShareId, TrainId};

/// A round that ends in this turn or later without another end ends the game unfinished
/// (reference `process_single_action`: `dnf`). Only a game in which nothing can end it any
/// more (every corporation closed) gets there.
const ROUND_LIMIT_TURN: u32 = 100;

/// Options a game is set up with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameOptions {
    /// Optional rules by their reference names (`multiple_brown_from_ipo`).
    pub optional_rules: Vec<String>,
}

/// An unvalidated description of a game to start.
#[derive(Debug, Clone)]
pub struct GameSetup {
    /// Reference title name (`1836Jr30`).
    pub title: String,
    /// Player names in seat order.
    pub players: Vec<String>,
    /// The seed of a title's random setup (18Ireland); ignored by titles without one.
    pub seed: Option<u64>,
    /// Options.
    pub options: GameOptions,
}

/// Why a game could not be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The title is unknown.
    #[error("unknown title `{0}`; known titles: {known}", known = Title::known_names().join(", "))]
    UnknownTitle(String),
    /// Too few or too many players.
    #[error("{title} takes {min}–{max} players, not {count}")]
    PlayerCount {
        /// The title.
        title: String,
        /// Players given.
        count: usize,
        /// Fewest allowed.
        min: u8,
        /// Most allowed.
        max: u8,
    },
    /// The title has a random setup and no seed was given.
    #[error("{title} needs the seed of its random setup")]
    MissingSeed {
        /// The title.
        title: String,
    },
    /// A stated random setup for a title without one.
    #[error("{title} has no random setup to state")]
    NoRandomSetup {
        /// The title.
        title: String,
    },
    /// A stated random setup the title's draw cannot produce.
    #[error("{title} cannot be set up that way: {fault}")]
    ImpossibleSetup {
        /// The title.
        title: String,
        /// The rule broken.
        fault: setup::SetupFault,
    },
    /// A stated random setup other than the one the seed draws.
    #[error("the seed {seed} draws a different setup: {drawn}")]
    SetupDiffers {
        /// The seed.
        seed: u64,
        /// What the seed draws, by symbols (removed privates and minor; charter order).
        drawn: String,
    },
    /// An optional rule the title does not have.
    #[error(
        "{title} has no optional rule `{rule}`; {}",
        if known.is_empty() {
            "it has none".to_string()
        } else {
            format!("its optional rules: {}", known.join(", "))
        }
    )]
    UnknownOptionalRule {
        /// The title.
        title: String,
        /// The rule.
        rule: String,
        /// The title's optional rules.
        known: Vec<String>,
    },
}

/// The kind of round in progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundKind {
    /// The initial private auction.
    Auction,
    /// A stock round.
    Stock,
    /// An operating round.
    Operating,
    /// A merger round (a title's own round, after the last operating round of a set).
    Merger,
}

impl RoundKind {
    /// The abbreviation of the round's label (`SR 2`, `MR 3.2`).
    fn abbreviation(self) -> &'static str {
        match self {
            RoundKind::Auction => "PR",
            RoundKind::Stock => "SR",
            RoundKind::Operating => "OR",
            RoundKind::Merger => "MR",
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) enum Round {
    Auction(auction::AuctionRound),
    Stock(stock::StockRound),
    Operating(operating::OperatingRound),
    /// A round of the title's own, run by its hooks.
    Title(title::hooks::TitleRound),
}

/// A game in progress.
#[derive(Debug, Clone)]
pub struct Game {
    /// The title's rules and data.
    pub title: &'static Title,
    /// Options in force.
    pub options: GameOptions,
    /// Players by original seat.
    pub players: Vec<Player>,
    /// Current seating order (priority deal first), bankrupt players included.
    pub seats: Vec<PlayerId>,
    /// Corporations by id.
    pub corps: Vec<Corporation>,
    /// Private companies by id.
    pub companies: Vec<Company>,
    /// Certificates in the open market, in arrival order.
    pub pool: Vec<ShareId>,
    /// Corporations in each market cell, in arrival order.
    pub market_cells: BTreeMap<MarketPos, Vec<CorpId>>,
    /// Every train of the game, depot order.
    pub trains: Vec<Train>,
    /// Trains in the open market, in arrival order.
    pub pool_train_order: Vec<TrainId>,
    /// Whether a share price reached an end-game cell.
    pub market_end_reached: bool,
    /// Index of the current phase.
    pub phase: usize,
    /// Cash in the bank (may go negative once broken).
    pub bank: Money,
    /// Whether the bank has broken.
    pub bank_broken: bool,
    /// The tiles and tokens on the map.
    pub board: Board,
    /// Stock round number / OR set number, from 1.
    pub turn: u32,
    /// Operating rounds in the current set.
    pub operating_rounds: u8,
    pub(crate) round: Round,
    /// Whether the game is over.
    pub finished: bool,
    /// Why it ended.
    pub end_reason: Option<GameEndReason>,
    pub(crate) end_trigger: Option<GameEndReason>,
    /// Whether a round has ended during the action being processed: the reference notes end
    /// triggers once per action, before it moves through the rounds that follow, so a bank
    /// broken by private revenue in a round passed through without an action is seen only
    /// after the next action.
    pub(crate) round_ended_in_action: bool,
    /// Whether the game has reached its first stock round (priority deal exists).
    pub priority_deal: Option<PlayerId>,
    /// The outcome of the title's random setup, if it has one.
    pub resolved_setup: Option<setup::ResolvedSetup>,
    /// Bonus markers placed by privates: (private, corporation it serves, hex).
    pub assignments: Vec<(CompanyId, CorpId, crate::ids::HexId)>,
    /// Deviations found while processing the current action; empty between actions.
    pub(crate) deviations: Vec<Deviation>,
    /// What the rules did by themselves during the last action (see [`Game::skipped`]).
    pub(crate) skipped: Vec<Skipped>,
    /// The reference engine's cached answer, per corporation, to "can it place a token in a
    /// city it reaches" (`Graph#can_token?`): computed when its token step is first considered
    /// and kept until a tile is laid or a token is placed by a step (`Tracker#lay_tile`,
    /// `Tokener#place_token` clear the graph). Nothing else clears it — not a corporation's
    /// closing, which removes tokens — so a stale answer can skip a token step in 18xx.games
    /// after a closing; railnote follows it, since the games 18xx.games produced did.
    pub(crate) token_reach: Vec<Option<bool>>,
}

impl Game {
    /// Starts a game.
    ///
    /// # Errors
    /// An unknown title or optional rule, or a player count the title does not allow.
    pub fn new(setup: &GameSetup) -> Result<Game, SetupError> {
        Game::with_stated_setup(setup, None)
    }

    /// Starts a game whose random setup is stated (a notation game's `Setup` tag) instead of,
    /// or as well as, drawn from the seed; both given must agree.
    ///
    /// # Errors
    /// As [`Game::new`]; a stated setup the draw cannot produce or the seed does not draw.
    pub fn with_stated_setup(
        setup: &GameSetup,
        stated: Option<setup::ResolvedSetup>,
    ) -> Result<Game, SetupError> {
        let title = Title::by_name(&setup.title)
            .ok_or_else(|| SetupError::UnknownTitle(setup.title.clone()))?;
        let count = setup.players.len();
        if count < title.players.min as usize || count > title.players.max as usize {
            return Err(SetupError::PlayerCount {
                title: title.name.clone(),
                count,
                min: title.players.min,
                max: title.players.max,
            });
        }
        if let Some(rule) = setup
            .options
            .optional_rules
            .iter()
            .find(|r| !title.optional_rules.contains(r))
        {
            return Err(SetupError::UnknownOptionalRule {
                title: title.name.clone(),
                rule: rule.clone(),
                known: title.optional_rules.clone(),
            });
        }
        let rules = &setup.options.optional_rules;
        let drawn = setup
            .seed
            .and_then(|seed| setup::resolve(title, rules, count, seed));
        let resolved = match (title.has_random_setup(rules), stated) {
            (false, None) => None,
            (false, Some(_)) => {
                return Err(SetupError::NoRandomSetup {
                    title: title.name.clone(),
                })
            }
            (true, None) => Some(drawn.ok_or_else(|| SetupError::MissingSeed {
                title: title.name.clone(),
            })?),
            (true, Some(stated)) => {
                stated
                    .check(title, rules, count)
                    .map_err(|fault| SetupError::ImpossibleSetup {
                        title: title.name.clone(),
                        fault,
                    })?;
                if let (Some(drawn), Some(seed)) = (drawn, setup.seed) {
                    if !drawn.same_game(&stated) {
                        return Err(SetupError::SetupDiffers {
                            seed,
                            drawn: drawn.describe(title),
                        });
                    }
                }
                Some(stated)
            }
        };
        let starting_cash = title.starting_cash[&(count as u8)];
        let mut bank = setup
            .options
            .optional_rules
            .iter()
            .find_map(|r| title.optional_bank_cash.get(r).copied())
            .unwrap_or(title.bank_cash);
        let players = setup
            .players
            .iter()
            .enumerate()
            .map(|(i, name)| {
                bank -= starting_cash;
                Player {
                    id: PlayerId(i as u8),
                    name: name.clone(),
                    cash: starting_cash,
                    shares: Vec::new(),
                    companies: Vec::new(),
                    bankrupt: false,
                }
            })
            .collect();
        let corps = (0..title.corporations.len())
            .map(|i| {
                let def = &title.corporations[i];
                Corporation {
                    ipoed: false,
                    floated: false,
                    closed: false,
                    president: None,
                    cash: Money::ZERO,
                    share_price: None,
                    par_price: None,
                    ipo: (0..title.share_sizes(CorpId(i as u8)).len())
                        .map(|s| ShareId {
                            corp: CorpId(i as u8),
                            index: s as u8,
                        })
                        .collect(),
                    trains: Vec::new(),
                    tokens_unused: def.tokens.len() as u8,
                    companies: Vec::new(),
                    operated: false,
                    route_seen: false,
                    share_sizes: title.share_sizes(CorpId(i as u8)).to_vec(),
                }
            })
            .collect();
        let companies = title
            .companies
            .iter()
            .map(|c| Company {
                owner: CompanyOwner::Unsold,
                // Privates for other player counts are out of the game from the start.
                closed: c.min_players.is_some_and(|min| count < usize::from(min))
                    || c.removed_with_players.contains(&(count as u8)),
                value: c.value,
                revenue: c.revenue,
                neutered: false,
                uses_left: c
                    .abilities
                    .iter()
                    .find_map(|a| match a {
                        title::Ability::TileLay { count, .. } => Some(*count),
                        title::Ability::Teleport { .. } => Some(1),
                        _ => None,
                    })
                    .unwrap_or(0),
            })
            .collect();
        let mut trains = Vec::new();
        for (k, def) in title.trains.iter().enumerate() {
            // An unlimited type starts with one copy; buying it puts the next one in the depot.
            let copies = if def.unlimited {
                1
            } else {
                def.count_with(&setup.options.optional_rules)
            };
            for copy in 0..copies {
                trains.push(Train {
                    id: TrainId {
                        kind: crate::ids::TrainKind(k as u8),
                        copy,
                    },
                    owner: if def.reserve {
                        TrainOwner::Reserve
                    } else {
                        TrainOwner::Depot
                    },
                    operated: false,
                });
            }
        }
        let reservations: Vec<_> = title
            .corporations
            .iter()
            .enumerate()
            .filter_map(|(i, c)| Some((CorpId(i as u8), c.home?, c.home_city)))
            .collect();
        let mut board = Board::new(title.map, &reservations);
        for (i, tile) in title.map.tiles.iter().enumerate() {
            if tile
                .optional_rule
                .as_ref()
                .is_some_and(|rule| !setup.options.optional_rules.contains(rule))
            {
                board.withdraw(crate::ids::TileDefId(i as u16));
            }
        }
        let mut game = Game {
            title,
            options: setup.options.clone(),
            players,
            seats: (0..count).map(|i| PlayerId(i as u8)).collect(),
            corps,
            companies,
            pool: Vec::new(),
            market_cells: BTreeMap::new(),
            trains,
            pool_train_order: Vec::new(),
            market_end_reached: false,
            phase: 0,
            bank,
            bank_broken: false,
            board,
            turn: 1,
            operating_rounds: 1,
            round: Round::Auction(auction::AuctionRound::default()),
            finished: false,
            end_reason: None,
            end_trigger: None,
            round_ended_in_action: false,
            priority_deal: None,
            resolved_setup: None,
            assignments: Vec::new(),
            deviations: Vec::new(),
            skipped: Vec::new(),
            token_reach: Vec::new(),
        };
        if let Some(resolved) = &resolved {
            for c in &resolved.removed_companies {
                game.companies[c.0 as usize].closed = true;
            }
            for c in &resolved.removed_corporations {
                game.close_corporation(*c);
            }
        }
        game.resolved_setup = resolved;
        let hooks = title.hooks;
        hooks.game_set_up(&mut game);
        if let Some(dealt) = title.dealt_privates_in(rules) {
            game.deal_privates(dealt);
            game.start_stock_round();
        } else {
            game.round = Round::Auction(auction::AuctionRound::new(&game));
        }
        Ok(game)
    }

    /// Deals the privates instead of an auction (a dealt-privates rule, 1889's beginner game):
    /// only the privates listed for the player count stay, without abilities and with the
    /// rule's values and revenues; each player pays for the one the setup dealt him.
    fn deal_privates(&mut self, dealt: &title::DealtPrivates) {
        let listed = dealt
            .by_players
            .get(&(self.players.len() as u8))
            .cloned()
            .unwrap_or_default();
        for (i, def) in self.title.companies.iter().enumerate() {
            let company = &mut self.companies[i];
            // The rule's list decides, whatever the player count removes otherwise (1889's
            // two-player game keeps SIR here).
            if !listed.contains(&def.sym) {
                company.closed = true;
                continue;
            }
            company.closed = false;
            company.neutered = true;
            company.uses_left = 0;
            company.value = dealt.values.get(&def.sym).copied().unwrap_or(def.value);
            company.revenue = dealt.revenues.get(&def.sym).copied().unwrap_or(def.revenue);
        }
        let deal = self
            .resolved_setup
            .as_ref()
            .map(|r| r.dealt_companies.clone())
            .unwrap_or_default();
        for (seat, company) in deal.into_iter().enumerate() {
            let player = PlayerId(seat as u8);
            let value = self.company(company).value;
            self.companies[usize::from(company.0)].owner = CompanyOwner::Player(player);
            self.player_mut(player).companies.push(company);
            self.player_mut(player).cash -= value;
            self.bank += value;
        }
    }

    /// Checks and applies one action. On error the game is unchanged. Returns the deviations
    /// of the action: printed rules it breaks while 18xx.games accepts it (railnote follows
    /// 18xx.games; see [`Deviation`]).
    ///
    /// # Errors
    /// The rule the action breaks.
    pub fn process(&mut self, action: &Action) -> Result<Vec<Deviation>, RuleViolation> {
        if !self.admits(action)? {
            return Ok(Vec::new());
        }
        let mut next = self.clone();
        next.apply(action)?;
        *self = next;
        Ok(std::mem::take(&mut self.deviations))
    }

    /// [`Game::process`], following the printed rules where `strict_rules` is set: a move
    /// that breaks one while 18xx.games accepts it is refused
    /// ([`RuleViolation::PrintedRule`]) and leaves the game unchanged.
    ///
    /// # Errors
    /// The rule the action breaks.
    pub fn process_with(
        &mut self,
        action: &Action,
        strict_rules: bool,
    ) -> Result<Vec<Deviation>, RuleViolation> {
        if !strict_rules {
            return self.process(action);
        }
        let mut next = self.clone();
        let deviations = next.process(action)?;
        if let Some(first) = deviations.into_iter().next() {
            return Err(RuleViolation::PrintedRule(first));
        }
        *self = next;
        Ok(Vec::new())
    }

    /// Checks and applies one action without the copy [`Game::process`] makes to keep a
    /// rejected action from changing anything: on error the game may be partly changed and
    /// must be thrown away or rebuilt. The verdict is the one [`Game::process`] gives.
    ///
    /// The copy is most of the cost of a replay; [`crate::replay::Replay`], which can rebuild
    /// the state before a rejected action from the log, processes actions this way.
    ///
    /// # Errors
    /// The rule the action breaks.
    pub(crate) fn process_in_place(
        &mut self,
        action: &Action,
    ) -> Result<Vec<Deviation>, RuleViolation> {
        if !self.admits(action)? {
            return Ok(Vec::new());
        }
        self.apply(action)?;
        Ok(std::mem::take(&mut self.deviations))
    }

    /// What every action must pass before its rules are asked: the game is not over and
    /// the action's ids and amounts are the title's. `false` for an action that is recorded
    /// but changes nothing (a programmed action's settings).
    pub(crate) fn admits(&self, action: &Action) -> Result<bool, RuleViolation> {
        if self.finished {
            return Err(RuleViolation::GameOver);
        }
        self.check_ranges(action)?;
        Ok(!matches!(action, Action::Program { .. }))
    }

    /// A tile was laid or a token placed by a step: the reference clears its graph, so every
    /// corporation's token reach is asked afresh.
    pub(crate) fn forget_token_reach(&mut self) {
        self.token_reach.clear();
    }

    /// Whether the corporation reaches a city it can place a token in, as the reference's
    /// cached graph answers (see [`Game::token_reach`]).
    pub(crate) fn reaches_token_city(&mut self, corp: CorpId) -> bool {
        let i = usize::from(corp.0);
        if let Some(Some(known)) = self.token_reach.get(i) {
            return *known;
        }
        let reach = self.board.has_reachable_token_city(self.title.map, corp);
        if self.token_reach.len() <= i {
            self.token_reach.resize(i + 1, None);
        }
        self.token_reach[i] = Some(reach);
        reach
    }

    /// Notes that the action being processed breaks a printed rule that 18xx.games does not
    /// enforce.
    pub(crate) fn deviate(&mut self, kind: DeviationKind, detail: String) {
        let round = self.round_label();
        self.deviations.push(Deviation {
            kind,
            detail,
            round,
        });
    }

    /// Whether every id of an action is one of the game's and every amount is within
    /// [`Money::LIMIT`]. The readers resolve ids against the title and never make others, but
    /// the library's callers can, and the engine indexes its tables with them.
    fn check_ranges(&self, action: &Action) -> Result<(), RuleViolation> {
        let out = |what: String| Err(RuleViolation::OutOfRange(what));
        let corp = |c: CorpId| match usize::from(c.0) < self.corps.len() {
            true => Ok(()),
            false => out(format!(
                "corporation {} is not one of the {} corporations of {}",
                c.0,
                self.corps.len(),
                self.title.name
            )),
        };
        let company = |c: CompanyId| match usize::from(c.0) < self.companies.len() {
            true => Ok(()),
            false => out(format!(
                "private {} is not one of the {} privates of {}",
                c.0,
                self.companies.len(),
                self.title.name
            )),
        };
        let entity = |e: Entity| match e {
            Entity::Player(p) if usize::from(p.0) >= self.players.len() => out(format!(
                "player {} is not one of the game's {} players",
                p.0,
                self.players.len()
            )),
            Entity::Player(_) => Ok(()),
            Entity::Corporation(c) => corp(c),
            Entity::Company(c) => company(c),
        };
        let share = |s: ShareId| {
            corp(s.corp)?;
            let count = self.title.share_sizes(s.corp).len();
            match usize::from(s.index) < count {
                true => Ok(()),
                false => out(format!(
                    "{} has {count} certificates, not {}",
                    self.title.corp(s.corp).sym,
                    usize::from(s.index) + 1
                )),
            }
        };
        let train = |t: TrainId| match usize::from(t.kind.0) < self.title.trains.len() {
            true => Ok(()),
            false => out(format!(
                "train type {} is not one of the {} of {}",
                t.kind.0,
                self.title.trains.len(),
                self.title.name
            )),
        };
        let tile = |t: crate::ids::TileId| match usize::from(t.def.0) < self.title.map.tiles.len() {
            true => Ok(()),
            false => out(format!(
                "tile {} is not one of the {} tiles of {}",
                t.def.0,
                self.title.map.tiles.len(),
                self.title.name
            )),
        };
        let amount = |m: Money| match (-Money::LIMIT.0..=Money::LIMIT.0).contains(&m.0) {
            true => Ok(()),
            false => out(format!("the amount {m} is beyond {}", Money::LIMIT)),
        };
        entity(action.entity())?;
        match action {
            Action::Bid { target, price, .. } => {
                match target {
                    crate::action::BidTarget::Company(c) => company(*c)?,
                    crate::action::BidTarget::Corporation(c) => corp(*c)?,
                }
                amount(*price)
            }
            Action::Par { corp: c, cell, .. } => {
                corp(*c)?;
                amount(cell.price)
            }
            Action::BuyShares {
                shares,
                share_price,
                ..
            }
            | Action::SellShares {
                shares,
                share_price,
                ..
            } => {
                shares.iter().try_for_each(|s| share(*s))?;
                share_price.map_or(Ok(()), amount)
            }
            Action::BuyCompany {
                company: c, price, ..
            } => {
                company(*c)?;
                amount(*price)
            }
            Action::LayTile { tile: t, .. } => tile(*t),
            Action::PlaceToken { city, cost, .. } => {
                tile(city.tile)?;
                cost.map_or(Ok(()), amount)
            }
            Action::RunRoutes { routes, .. } => routes.iter().try_for_each(|r| {
                train(r.train)?;
                r.revenue.map_or(Ok(()), amount)
            }),
            Action::BuyTrain {
                train: t,
                price,
                exchange,
                ..
            } => {
                train(*t)?;
                exchange.map_or(Ok(()), train)?;
                amount(*price)
            }
            Action::DiscardTrain { train: t, .. } => train(*t),
            Action::Merge { corp: c, .. } => corp(*c),
            Action::Pass { .. }
            | Action::Dividend { .. }
            | Action::Bankrupt { .. }
            | Action::Assign { .. }
            | Action::Vote { .. }
            | Action::Program { .. }
            | Action::EndGame { .. } => Ok(()),
        }
    }

    fn apply(&mut self, action: &Action) -> Result<(), RuleViolation> {
        self.round_ended_in_action = false;
        self.deviations.clear();
        self.skipped.clear();
        // 18xx.games' End Game step comes before every round's own steps and never blocks.
        if let Action::EndGame { entity } = action {
            return self.end_by_hand(*entity);
        }
        let share_price = self.stated_share_price(action);
        // Before the lay, as the reference's `preprocess_action`: the steps that follow see
        // the ability gone (the track step may then end with this lay).
        if let Action::LayTile { entity, hex, .. } = action {
            self.forfeit_lays_on(*hex, *entity);
        }
        match self.round {
            Round::Auction(_) => auction::process(self, action)?,
            Round::Stock(_) => stock::process(self, action)?,
            Round::Operating(_) => operating::process(self, action)?,
            Round::Title(_) => {
                let hooks = self.title.hooks;
                hooks.process_own_round(self, action)?
            }
        }
        // Checked once the action is known to be legal otherwise, so that a wrong actor or
        // step is reported first; the rules' price is the one before the action.
        if let Some((stated, expected)) = share_price.filter(|(s, e)| s != e) {
            return Err(RuleViolation::ValueMismatch {
                what: "share price",
                recorded: stated.to_string(),
                expected: expected.to_string(),
            });
        }
        self.after_action();
        Ok(())
    }

    /// A tile laid on `hex` by anyone but a private whose lays there are lost when others
    /// build (18Chesapeake C-P, B&S) takes that ability away, while a corporation owns the
    /// private (reference `check_special_tile_lay`).
    fn forfeit_lays_on(&mut self, hex: crate::ids::HexId, by: Entity) {
        for i in 0..self.companies.len() {
            let company = CompanyId(i as u8);
            let state = self.company(company);
            if state.closed
                || state.uses_left == 0
                || by == Entity::Company(company)
                || !matches!(state.owner, CompanyOwner::Corporation(_))
            {
                continue;
            }
            let forfeits = self.company_abilities(company).iter().any(|a| {
                matches!(a, title::Ability::TileLay { hexes, lost_when_others_lay: true, .. }
                    if hexes.iter().any(|h| h.parse::<crate::ids::HexId>().ok() == Some(hex)))
            });
            if forfeits {
                self.companies[i].uses_left = 0;
            }
        }
    }

    /// Every piece of the state (not the title), for tests that compare states; destructured in
    /// full so that a new field cannot be left out.
    #[cfg(test)]
    pub(crate) fn state_debug(&self) -> String {
        let Game {
            title: _,
            options,
            players,
            seats,
            corps,
            companies,
            pool,
            market_cells,
            trains,
            pool_train_order,
            market_end_reached,
            phase,
            bank,
            bank_broken,
            board,
            turn,
            operating_rounds,
            round,
            finished,
            end_reason,
            end_trigger,
            round_ended_in_action,
            priority_deal,
            resolved_setup,
            assignments,
            deviations,
            skipped,
            token_reach,
        } = self;
        format!(
            "{:?}",
            (
                (
                    options,
                    players,
                    seats,
                    corps,
                    companies,
                    pool,
                    market_cells
                ),
                (trains, pool_train_order, market_end_reached, phase, bank),
                (bank_broken, board, turn, operating_rounds, round, finished),
                (
                    end_reason,
                    end_trigger,
                    round_ended_in_action,
                    priority_deal,
                    resolved_setup,
                    assignments,
                    deviations,
                    skipped,
                    token_reach
                ),
            )
        )
    }

    /// What the rules did by themselves during the last action processed (players passed
    /// because nothing was left to them, steps skipped because they asked nothing), in order.
    pub fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }

    /// Notes something the rules did by themselves (the first [`skipped::SKIPPED_KEPT`] per
    /// action).
    pub(crate) fn note_skipped(&mut self, what: Skipped) {
        if self.skipped.len() < skipped::SKIPPED_KEPT {
            self.skipped.push(what);
        }
    }

    /// The kind of round in progress.
    pub fn round_kind(&self) -> RoundKind {
        match &self.round {
            Round::Auction(_) => RoundKind::Auction,
            Round::Stock(_) => RoundKind::Stock,
            Round::Operating(_) => RoundKind::Operating,
            Round::Title(r) => r.kind,
        }
    }

    /// The round as railnote writes it: `PR`, `SR 2`, `OR 3.1`, `MR 3.2`.
    pub fn round_label(&self) -> String {
        let kind = self.round_kind().abbreviation();
        match &self.round {
            Round::Auction(_) => kind.to_string(),
            Round::Stock(_) => format!("{kind} {}", self.turn),
            Round::Operating(or) => format!("{kind} {}.{}", self.turn, or.round_num),
            Round::Title(r) => format!("{kind} {}.{}", self.turn, r.round_num),
        }
    }

    /// The current phase's name.
    pub fn phase_name(&self) -> &str {
        &self.title.phases[self.phase].name
    }

    /// The tile colours the current phase allows (borrowed from the title, so a lay can
    /// check against them while it changes the game).
    pub(crate) fn phase_tile_colours(&self) -> &'static [crate::engine::map::Colour] {
        let title: &'static Title = self.title;
        &title.phases[self.phase].tiles
    }

    /// The entity whose decision the game is waiting for, if any.
    pub fn acting_entity(&self) -> Option<Entity> {
        if self.finished {
            return None;
        }
        match &self.round {
            Round::Auction(a) => a.acting(self).map(Entity::Player),
            Round::Stock(s) => s.acting_entity(self),
            Round::Operating(o) => o.acting(self),
            Round::Title(_) => self.title.hooks.own_round_acting(self),
        }
    }

    /// A printable name for an entity.
    pub fn entity_name(&self, entity: Entity) -> String {
        match entity {
            Entity::Player(p) => self.player(p).name.clone(),
            Entity::Corporation(c) => self.title.corp(c).sym.clone(),
            Entity::Company(c) => self.title.company(c).sym.clone(),
        }
    }

    /// The player by id.
    pub fn player(&self, id: PlayerId) -> &Player {
        &self.players[id.0 as usize]
    }

    pub(crate) fn player_mut(&mut self, id: PlayerId) -> &mut Player {
        &mut self.players[id.0 as usize]
    }

    /// The corporation by id.
    pub fn corp(&self, id: CorpId) -> &Corporation {
        &self.corps[id.0 as usize]
    }

    pub(crate) fn corp_mut(&mut self, id: CorpId) -> &mut Corporation {
        &mut self.corps[id.0 as usize]
    }

    /// The private company by id.
    pub fn company(&self, id: CompanyId) -> &Company {
        &self.companies[id.0 as usize]
    }

    /// The private's abilities in this game: the title's, none once taken away.
    pub fn company_abilities(&self, id: CompanyId) -> &'static [title::Ability] {
        if self.company(id).neutered {
            return &[];
        }
        &self.title.company(id).abilities
    }

    /// Hexes of a corporation's placed tokens, in token order.
    pub fn token_hexes(&self, corp: CorpId) -> Vec<crate::ids::HexId> {
        self.board.token_hexes(self.title.map, corp)
    }

    /// The share price of a corporation, if it has one.
    pub fn share_price(&self, corp: CorpId) -> Option<Money> {
        self.corp(corp)
            .share_price
            .and_then(|p| self.title.cell(p.row, p.column))
            .map(|c| c.price)
    }

    /// Percent of a corporation held by a player.
    pub fn percent_held(&self, player: PlayerId, corp: CorpId) -> u8 {
        state::percent_of(
            &self.player(player).shares,
            corp,
            &self.corp(corp).share_sizes,
        )
        .0
    }

    /// The most percent of a corporation any player but `player` holds: what a presidency
    /// handed on by him needs.
    pub(crate) fn most_held_by_others(&self, player: PlayerId, corp: CorpId) -> u8 {
        self.players
            .iter()
            .filter(|p| p.id != player)
            .map(|p| self.percent_held(p.id, corp))
            .max()
            .unwrap_or(0)
    }

    /// Percent of a corporation in the IPO.
    pub fn ipo_percent(&self, corp: CorpId) -> u8 {
        state::percent_of(&self.corp(corp).ipo, corp, &self.corp(corp).share_sizes).0
    }

    /// Percent of a corporation in the open market.
    pub fn pool_percent(&self, corp: CorpId) -> u8 {
        state::percent_of(&self.pool, corp, &self.corp(corp).share_sizes).0
    }

    /// Each player's value: cash + shares at market price + privates at face value.
    pub fn player_values(&self) -> BTreeMap<PlayerId, Money> {
        self.players
            .iter()
            .map(|p| {
                let shares: Money = p
                    .shares
                    .iter()
                    .map(|s| {
                        let pct = i64::from(self.share_percent(*s));
                        let price = self.share_price(s.corp).unwrap_or(Money::ZERO);
                        // A share is worth the price per share unit (10% of a major, 20% of a
                        // minor); a president's certificate counts its units.
                        let unit = i64::from(self.normal_share_percent(s.corp));
                        Money(price.0 * pct / unit)
                    })
                    .sum();
                let privates: Money = p
                    .companies
                    .iter()
                    .filter(|c| !self.company(**c).closed)
                    .map(|c| self.company(*c).value)
                    .sum();
                (p.id, p.cash + shares + privates)
            })
            .collect()
    }

    /// Pays `amount` from the bank to a receiver; the bank may go negative (it breaks).
    pub(crate) fn bank_pays(&mut self, amount: Money) {
        self.bank -= amount;
        if self.bank.0 < 0 {
            self.bank_broken = true;
        }
    }

    /// A round ends: the first time in an action, the bank's break becomes the end trigger
    /// (reference `game_end_check`, run once after each action); returns whether the game
    /// has run past the reference's round limit and ends unfinished (`dnf`: a round ending in
    /// turn 100 or later without another end).
    pub(crate) fn round_ends_past_limit(&mut self) -> bool {
        self.note_bank_trigger();
        if self.turn >= ROUND_LIMIT_TURN {
            self.end_game(GameEndReason::Dnf);
            return true;
        }
        false
    }

    /// The end trigger of a broken bank, noted the first time a round ends in an action.
    pub(crate) fn note_bank_trigger(&mut self) {
        if !self.round_ended_in_action {
            self.round_ended_in_action = true;
            self.trigger_end_if_bank_broken();
        }
    }

    fn trigger_end_if_bank_broken(&mut self) {
        if self.bank_broken && self.end_trigger.is_none() {
            self.end_trigger = Some(GameEndReason::Bank);
        }
    }

    fn after_action(&mut self) {
        self.close_corporations_in_close_cells();
        self.trigger_end_if_bank_broken();
    }

    /// Closes a corporation: tokens, shares and market marker go; its cash returns to the bank;
    /// its trains leave play.
    pub(crate) fn close_corporation(&mut self, corp: CorpId) {
        self.retire_trains(corp);
        self.board.remove_tokens(corp);
        self.board.remove_reservations(corp);
        let cash = self.corp(corp).cash;
        self.bank += cash;
        self.corp_mut(corp).cash = Money::ZERO;
        for p in &mut self.players {
            p.shares.retain(|s| s.corp != corp);
        }
        self.pool.retain(|s| s.corp != corp);
        self.corp_mut(corp).ipo.clear();
        if let Some(pos) = self.corp(corp).share_price {
            if let Some(list) = self.market_cells.get_mut(&pos) {
                list.retain(|c| *c != corp);
            }
        }
        let companies = std::mem::take(&mut self.corp_mut(corp).companies);
        for c in companies {
            self.close_company(c);
        }
        self.corp_mut(corp).closed = true;
    }

    /// Corporations whose price reached a close cell close at once, after the action that
    /// moved them (18Ireland's 0); an operating one hands the turn to the next corporation.
    fn close_corporations_in_close_cells(&mut self) {
        let closing: Vec<CorpId> = (0..self.corps.len())
            .map(|i| CorpId(i as u8))
            .filter(|c| {
                !self.corp(*c).closed
                    && self
                        .corp(*c)
                        .share_price
                        .and_then(|p| self.title.cell(p.row, p.column))
                        .is_some_and(|cell| cell.close)
            })
            .collect();
        let closed_any = !closing.is_empty();
        for corp in closing {
            self.close_corporation(corp);
            self.corp_closed_while_operating(corp);
        }
        if closed_any {
            self.end_idle_stock_turn();
        }
    }
}

#[cfg(test)]
mod reject_tests;
#[cfg(test)]
mod tests;
