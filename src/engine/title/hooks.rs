//! The hooks: what a title does that no fact in `data/<title>/` can say.
//!
//! A title's data names its hook set (`"hooks": "18Ireland"` in `title.json`; none: the
//! generic rules only). A hook set is a type implementing [`TitleHooks`] in the title's own
//! module; every method has a default, the generic rules, so a title overrides only where it
//! differs. Hooks receive the whole [`Game`] and may use the engine's crate-internal helpers.
//!
//! | hook | called | used by |
//! | --- | --- | --- |
//! | [`TitleHooks::random_setup`], [`TitleHooks::check_setup`], [`TitleHooks::random_setup_rules`] | `Game::new` draws the setup from the seed (`engine::setup::resolve`); a stated setup (notation `Setup` tag) is checked; a refused one is explained | 18Ireland (removed privates and minor, charter order) |
//! | [`TitleHooks::game_set_up`] | a game is set up, before its first round | 18Chesapeake (the two-player game's certificates) |
//! | [`TitleHooks::private_auction_finished`] | the private auction has ended, before the first stock round | 18Ireland (DKR closes if nobody bought DK) |
//! | [`TitleHooks::start_round_after_operating_set`], [`TitleHooks::process_own_round`], [`TitleHooks::own_round_acting`], [`TitleHooks::own_round_legal_actions`] | the last operating round of a set has ended: the title may start a round of its own ([`TitleRound`]), which these hooks then run | 18Ireland (the merger round from phase 4) |
//! | [`TitleHooks::corporation_floated`], [`TitleHooks::share_purchase`], [`TitleHooks::sold_out`] | a corporation floats; a player's share purchase is about to be carried out; a stock round ends | 18Chesapeake (two players: the IPO goes to the market, a purchase removes a market share, sold out means none in the market) |
//! | [`TitleHooks::run_setup`] | whenever runs are checked or searched: the routes step, the listed best run, `railnote routes` | 1836Jr30 (port rule), 18Ireland (hex-edge distance, narrow-gauge bonus) |
//! | [`TitleHooks::self_play`] | every self-play choice ([`TitlePolicy`]: candidates, weights, prices, greedy choices) | 18Ireland (minor auctions, issues, mergers; no moves after which nobody can act) |
//!
//! A title that needs a hook not listed here adds it to [`TitleHooks`] with the generic rule
//! as its default, and calls it from the file that holds that rule: the operating round's
//! step files (`engine/operating/{turn,token,issue,track,routes,dividend,trains,phase,
//! privates,emergency}.rs`), the stock round's (`engine/stock/{buy,sell,minor_auction}.rs`),
//! the private auction (`engine/auction.rs`) or the legal moves (`engine/legal/`). What a fact
//! can say (a constant, a list, a choice among rules the engine already has) goes in the
//! title's data instead.

use std::any::Any;
use std::fmt;

use super::{chesapeake, ireland, jr30, shikoku, Title};
use crate::action::{Action, Entity};
pub(crate) use crate::engine::legal::Gen;
use crate::engine::setup::{ResolvedSetup, SetupFault};
use crate::engine::{Game, RoundKind, RuleViolation, RunSetup};
use crate::ids::{CorpId, PlayerId, ShareId};
use crate::selfplay::{GenericPolicy, TitlePolicy};

/// What a title does that its data cannot say; see the module docs for when each hook is
/// called. Defaults are the generic rules.
pub(crate) trait TitleHooks: fmt::Debug + Sync {
    // ----- setup ---------------------------------------------------------------------------

    /// The setup a game of `players` with optional `rules` draws from its seed, for a title
    /// whose data sets `random_setup` or deals privates under one of the rules. Default: none
    /// (such a game cannot be set up).
    fn random_setup(
        &self,
        title: &Title,
        rules: &[String],
        players: usize,
        seed: u64,
    ) -> Option<ResolvedSetup> {
        let _ = (title, rules, players, seed);
        None
    }

    /// Whether the title's draw can produce a setup a game record states. Default: any.
    ///
    /// # Errors
    /// The first rule of the draw the stated setup breaks.
    fn check_setup(
        &self,
        title: &Title,
        rules: &[String],
        players: usize,
        setup: &ResolvedSetup,
    ) -> Result<(), SetupFault> {
        let _ = (title, rules, players, setup);
        Ok(())
    }

    /// What the draw does, in a sentence, for a diagnostic about a stated setup it cannot
    /// produce. Default: none.
    fn random_setup_rules(&self) -> Option<&'static str> {
        None
    }

    /// Called once a game is set up (its random setup applied), before its first round.
    /// Default: nothing.
    fn game_set_up(&self, game: &mut Game) {
        let _ = game;
    }

    // ----- rounds --------------------------------------------------------------------------

    /// Called once the private auction has ended, before the first stock round starts.
    fn private_auction_finished(&self, game: &mut Game) {
        let _ = game;
    }

    /// Called when the last operating round `round_num` of a set has ended and the game goes
    /// on: the title may start a round of its own (set `game.round` to a
    /// `Round::Title`([`TitleRound`])) and return true. Default: false, the next stock
    /// round follows.
    fn start_round_after_operating_set(&self, game: &mut Game, round_num: u8) -> bool {
        let _ = (game, round_num);
        false
    }

    /// Checks and applies an action in the title's own round ([`Game::process`] calls it).
    ///
    /// # Errors
    /// The rule the action breaks.
    fn process_own_round(&self, game: &mut Game, action: &Action) -> Result<(), RuleViolation> {
        let _ = (game, action);
        unreachable!("a title that starts no round of its own has none to process")
    }

    /// The entity the title's own round waits for.
    fn own_round_acting(&self, game: &Game) -> Option<Entity> {
        let _ = game;
        None
    }

    /// Lists the legal actions of the title's own round (with `gen.push_checked`).
    fn own_round_legal_actions(&self, gen: &mut Gen<'_>) {
        let _ = gen;
    }

    // ----- stock round ---------------------------------------------------------------------

    /// Called when a corporation has floated (and been paid). Default: nothing.
    fn corporation_floated(&self, game: &mut Game, corp: CorpId) {
        let _ = (game, corp);
    }

    /// Called before a player's share purchase that passed every check is carried out;
    /// returns whether it goes ahead (the turn counts it either way). Default: it does.
    fn share_purchase(&self, game: &mut Game, player: PlayerId, shares: &[ShareId]) -> bool {
        let _ = (game, player, shares);
        true
    }

    /// Whether a corporation is sold out at the end of a stock round (its price then rises).
    /// Default: floated, with every share held by players.
    fn sold_out(&self, game: &Game, corp: CorpId) -> bool {
        game.all_shares_with_players(corp)
    }

    // ----- operating round -----------------------------------------------------------------

    /// How `corp`'s runs are evaluated now: distance rule, revenue rule and bonuses. Default:
    /// trains count stops, a route earns the sum of its stops, plus the bonuses of the
    /// corporation's private markers and paired-city privates ([`Game::standard_run_setup`]).
    fn run_setup(&self, game: &Game, corp: CorpId) -> RunSetup {
        game.standard_run_setup(corp)
    }

    // ----- self-play -----------------------------------------------------------------------

    /// The title's own self-play choices ([`TitlePolicy`]). Default: the generic policies.
    fn self_play(&self) -> &'static dyn TitlePolicy {
        &GenericPolicy
    }
}

/// A round a title adds to the generic ones (18Ireland's merger round): its kind and the
/// operating round it follows, for labels (`MR 3.2`), and the title's own state, which only
/// the title's hooks read (by downcasting).
#[derive(Debug)]
pub(crate) struct TitleRound {
    /// The kind of round, for labels and reports.
    pub(crate) kind: RoundKind,
    /// The operating round it follows.
    pub(crate) round_num: u8,
    /// The title's state of the round.
    pub(crate) state: Box<dyn TitleRoundState>,
}

impl Clone for TitleRound {
    fn clone(&self) -> TitleRound {
        TitleRound {
            kind: self.kind,
            round_num: self.round_num,
            state: self.state.clone_box(),
        }
    }
}

/// The state of a title's own round: any `Clone + Debug` type.
pub(crate) trait TitleRoundState: Any + fmt::Debug + Send + Sync {
    /// A copy (games are cloned to check actions without applying them).
    fn clone_box(&self) -> Box<dyn TitleRoundState>;
}

impl<T: Any + Clone + fmt::Debug + Send + Sync> TitleRoundState for T {
    fn clone_box(&self) -> Box<dyn TitleRoundState> {
        Box::new(self.clone())
    }
}

/// The generic rules: no hook overridden.
#[derive(Debug)]
struct Generic;

impl TitleHooks for Generic {}

/// The hook set of a title whose data names none.
pub(crate) fn generic() -> &'static dyn TitleHooks {
    &Generic
}

/// The hook set a title's data names (`"hooks"` in `title.json`).
pub(crate) fn by_name(name: &str) -> Option<&'static dyn TitleHooks> {
    match name {
        "1836Jr30" => Some(&jr30::Jr30Hooks),
        "18Ireland" => Some(&ireland::IrelandHooks),
        "1889" => Some(&shikoku::ShikokuHooks),
        "18Chesapeake" => Some(&chesapeake::ChesapeakeHooks),
        _ => None,
    }
}
