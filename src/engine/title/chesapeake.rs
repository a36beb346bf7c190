//! 18Chesapeake (reference `G18Chesapeake`): 1830's rules around the Chesapeake Bay for 2–6
//! players.
//!
//! Data (`data/18chesapeake/`): the auction's bids in multiples of 5 with only a player's
//! winning bids committed, sell-then-buy stock turns, the privates (C-P and B&S lay two
//! tiles together, forfeited once someone else builds there; C&OC's teleport; B&OR's
//! share; CV's president's certificate of a drawn corporation, closing when that corporation
//! buys a train), unlimited 7, 8 and 9 tiles, trains exported at the end of each set of
//! operating rounds. The hooks: the draw of CV's corporation ([`draw`]) and the two-player
//! game's share rules.

use super::hooks::TitleHooks;
use super::Title;
use crate::engine::auction::RANDOM_PRESIDENT;
use crate::engine::setup::{ResolvedSetup, SetupFault, SetupRng};
use crate::engine::shares::Holder;
use crate::engine::title::Ability;
use crate::engine::Game;
use crate::ids::{CompanyId, CorpId, Percent, PlayerId, ShareId};

/// The reference engine's name of the title.
pub const NAME: &str = "18Chesapeake";

/// The title's facts.
pub fn title() -> &'static Title {
    Title::by_name(NAME).expect("18Chesapeake is bundled")
}

/// 18Chesapeake's hook set (`"hooks": "18Chesapeake"`).
#[derive(Debug)]
pub(crate) struct ChesapeakeHooks;

impl TitleHooks for ChesapeakeHooks {
    fn random_setup(
        &self,
        title: &Title,
        _rules: &[String],
        _players: usize,
        seed: u64,
    ) -> Option<ResolvedSetup> {
        Some(ResolvedSetup {
            president_draws: draw(title, seed),
            ..ResolvedSetup::default()
        })
    }

    fn check_setup(
        &self,
        title: &Title,
        _rules: &[String],
        _players: usize,
        setup: &ResolvedSetup,
    ) -> Result<(), SetupFault> {
        let drawing = drawing_privates(title);
        let stated: Vec<CompanyId> = setup.president_draws.iter().map(|(c, _)| *c).collect();
        let only_draws = ResolvedSetup {
            president_draws: setup.president_draws.clone(),
            ..ResolvedSetup::default()
        };
        if stated != drawing || *setup != only_draws {
            let syms: Vec<&str> = drawing
                .iter()
                .map(|&c| title.company(c).sym.as_str())
                .collect();
            return Err(SetupFault::PresidentDraws(syms.join(", ")));
        }
        Ok(())
    }

    /// Two players: every corporation but CV's has a 30% president's certificate, and its
    /// last certificate leaves the game (reference `setup`).
    fn game_set_up(&self, game: &mut Game) {
        if !two_player(game) {
            return;
        }
        let cv_corporation = cv_corporation(game);
        for i in 0..game.corps.len() {
            let corp = CorpId(i as u8);
            if Some(corp) == cv_corporation {
                continue;
            }
            let c = game.corp_mut(corp);
            c.share_sizes[0] = TWO_PLAYER_PRESIDENT;
            c.ipo.pop();
        }
    }

    /// Two players: a floated corporation's certificates left in the IPO go to the market
    /// (reference `float_corporation`).
    fn corporation_floated(&self, game: &mut Game, corp: CorpId) {
        if !two_player(game) {
            return;
        }
        let ipo = game.corp(corp).ipo.clone();
        let pct = ipo.iter().map(|s| game.share_percent(*s)).sum();
        game.transfer_shares(corp, &ipo, Holder::Ipo(corp), Holder::Pool, pct);
    }

    /// Two players: a purchase by anyone but the president first takes the corporation's last
    /// certificate in the market out of the game; if that is the certificate bought, nothing
    /// else happens (reference `SharePool#buy_shares`).
    fn share_purchase(&self, game: &mut Game, player: PlayerId, shares: &[ShareId]) -> bool {
        let Some(first) = shares.first().copied() else {
            return true;
        };
        if !two_player(game) || game.corp(first.corp).president == Some(player) {
            return true;
        }
        let Some(at) = game.pool.iter().rposition(|s| s.corp == first.corp) else {
            return true;
        };
        let removed = game.pool.remove(at);
        removed != first
    }

    /// Two players: sold out means floated with no certificate in the market (reference
    /// `Round::Stock#sold_out?`).
    fn sold_out(&self, game: &Game, corp: CorpId) -> bool {
        if !two_player(game) {
            return game.all_shares_with_players(corp);
        }
        game.corp(corp).floated && game.pool_percent(corp) == 0
    }

    fn random_setup_rules(&self) -> Option<&'static str> {
        Some(
            "18Chesapeake draws the corporation whose president's certificate comes with the \
             Cornelius Vanderbilt: `[Setup \"CV brings B&O\"]`",
        )
    }
}

/// The president's certificate of the two-player game.
const TWO_PLAYER_PRESIDENT: Percent = Percent(30);

fn two_player(game: &Game) -> bool {
    game.players.len() == 2
}

/// The corporation drawn for CV.
fn cv_corporation(game: &Game) -> Option<CorpId> {
    game.resolved_setup
        .as_ref()?
        .president_draws
        .first()
        .map(|(_, corp)| *corp)
}

/// The privates whose certificate is a drawn president's, in the title's order.
fn drawing_privates(title: &Title) -> Vec<CompanyId> {
    (0..title.companies.len())
        .map(|i| CompanyId(i as u8))
        .filter(|&c| {
            title
                .company(c)
                .abilities
                .iter()
                .any(|a| matches!(a, Ability::Shares { share, .. } if share == RANDOM_PRESIDENT))
        })
        .collect()
}

/// The corporations drawn for CV, as the reference's `init_company_abilities` draws them:
/// the game's generator, its first draw modulo the number of corporations, in the title's
/// order.
pub fn draw(title: &Title, seed: u64) -> Vec<(CompanyId, CorpId)> {
    let mut rng = SetupRng::new(seed);
    let count = title.corporations.len() as u64;
    drawing_privates(title)
        .into_iter()
        .map(|c| (c, CorpId((rng.draw() % count) as u8)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The corporations 18xx.games drew for CV in the reference games (their seeds).
    #[test]
    fn draws_as_the_reference() {
        let t = title();
        let drawn = |seed| {
            draw(t, seed)
                .iter()
                .map(|&(c, corp)| format!("{} {}", t.company(c).sym, t.corp(corp).sym))
                .collect::<Vec<_>>()
        };
        assert_eq!(drawn(1277), ["CV SRR"]);
        assert_eq!(drawn(14377), ["CV C&A"]);
        assert_eq!(drawn(1905), ["CV C&A"]);
        assert_eq!(drawn(3055), ["CV C&O"]);
    }
}
