//! 18Ireland (reference `G18Ireland`), for 3–6 players: minors started by auction, majors by
//! par from phase 6 or by merging minors, broad and narrow gauge, hex trains.
//!
//! Most of it is data (`data/18ireland/`) read by generic rules: the minor auctions, the
//! incremental capitalisation, the gauge rules of the map, the emergency-money and
//! bankruptcy constants. What is its own is here, behind [`IrelandHooks`]:
//! - the random setup: removed privates and minor, the minors' charter order ([`setup`]);
//! - DKR's closing when nobody bought DK in the private auction;
//! - the merger round after each set of operating rounds from phase 4 ([`merger`]), with its
//!   legal moves ([`legal`]);
//! - the runs: trains count hex edges, stops add the narrow-gauge bonus (`run_setup`);
//! - its self-play choices ([`selfplay`]).

mod legal;
mod merger;
mod selfplay;
mod setup;

#[cfg(test)]
mod rules_tests;

use super::hooks::{Gen, TitleHooks};
use super::{Ability, ParRule, Title};
use crate::action::{Action, Entity};
use crate::engine::auction::parse_share;
use crate::engine::map::{DistanceMode, MapData};
use crate::engine::setup::{ResolvedSetup, SetupFault};
use crate::engine::state::CompanyOwner;
use crate::engine::{Game, RuleViolation, RunSetup};
use crate::ids::CorpId;
use crate::selfplay::TitlePolicy;

/// The reference engine's name of the title.
pub const NAME: &str = "18Ireland";

/// The title's facts.
pub fn title() -> &'static Title {
    Title::by_name(NAME).expect("18Ireland is bundled")
}

/// The title's map.
pub fn map() -> &'static MapData {
    title().map
}

/// 18Ireland's hook set (`"hooks": "18Ireland"`).
#[derive(Debug)]
pub(crate) struct IrelandHooks;

impl TitleHooks for IrelandHooks {
    fn random_setup(
        &self,
        title: &Title,
        _rules: &[String],
        _players: usize,
        seed: u64,
    ) -> Option<ResolvedSetup> {
        setup::draw(title, seed)
    }

    fn check_setup(
        &self,
        title: &Title,
        _rules: &[String],
        _players: usize,
        stated: &ResolvedSetup,
    ) -> Result<(), SetupFault> {
        setup::check(title, stated)
    }

    fn random_setup_rules(&self) -> Option<&'static str> {
        Some(
            "18Ireland removes six privates (never DAR or DK) and one minor (never DKR); \
             its charter order starts with DKR and lists every other minor once",
        )
    }

    fn private_auction_finished(&self, game: &mut Game) {
        close_unbought_half_price_minors(game);
    }

    fn start_round_after_operating_set(&self, game: &mut Game, round_num: u8) -> bool {
        merger::start_after_operating_set(game, round_num)
    }

    fn process_own_round(&self, game: &mut Game, action: &Action) -> Result<(), RuleViolation> {
        merger::process(game, action)
    }

    fn own_round_acting(&self, game: &Game) -> Option<Entity> {
        merger::mr(game).acting(game)
    }

    fn own_round_legal_actions(&self, gen: &mut Gen<'_>) {
        legal::merger_round(gen);
    }

    fn self_play(&self) -> &'static dyn TitlePolicy {
        &selfplay::IrelandPolicy
    }

    /// Hex trains count the hex edges crossed and every stop; each stop adds the towns it
    /// reaches over narrow gauge (18Ireland rules, hex trains and the narrow-gauge bonus).
    fn run_setup(&self, game: &Game, corp: CorpId) -> RunSetup {
        RunSetup {
            distance: DistanceMode::HexEdges,
            narrow_bonus: true,
            ..game.standard_run_setup(corp)
        }
    }
}

/// DKR, whose president's certificate comes only with DK, closes when nobody
/// bought DK in the auction (reference `close_dkr_if_unpurchased!`); it would otherwise lead
/// the minors' charter order with a certificate nobody can take.
fn close_unbought_half_price_minors(game: &mut Game) {
    for (i, def) in game.title.companies.iter().enumerate() {
        if matches!(game.companies[i].owner, CompanyOwner::Player(_)) {
            continue;
        }
        for ability in &def.abilities {
            let Ability::Shares {
                share,
                par: ParRule::HalfPrice,
                ..
            } = ability
            else {
                continue;
            };
            let Some(share) = parse_share(game, crate::ids::CompanyId(i as u8), share) else {
                continue;
            };
            if share.index == 0 && game.corp(share.corp).president.is_none() {
                game.close_corporation(share.corp);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::title::Capitalization;
    use crate::ids::Percent;

    #[test]
    fn ireland_facts_fit_the_schema() {
        let t = title();
        assert_eq!(t.companies.len(), 11);
        assert_eq!(t.corporations.len(), 21);
        let minor = t.corp_by_sym("DKR").unwrap();
        assert_eq!(
            t.share_sizes(minor).iter().map(|p| p.0).collect::<Vec<_>>(),
            [40, 20, 20, 20]
        );
        assert_eq!(t.corp(minor).home_city, Some(0));
        assert_eq!(
            t.kind_of(t.corp_by_sym("GSWR").unwrap())
                .max_ownership_percent,
            Percent(70)
        );
        assert_eq!(t.capitalization, Capitalization::Incremental);
        assert!(t.cell(7, 0).unwrap().close);
        assert!(t.cell(0, 14).unwrap().end_game);
        let reserve: Vec<&str> = t
            .trains
            .iter()
            .filter(|tr| tr.reserve)
            .map(|tr| tr.name.as_str())
            .collect();
        assert_eq!(reserve, ["1H'", "2H'", "3H'"]);
    }
}
