//! 1836Jr30 (reference `G1836Jr30`): 1836jr on 1830's rules, for 2–4 players.
//!
//! Everything but one rule is data (`data/1836jr30/`): the waterfall auction of six privates,
//! sell/buy/sell stock rounds with full capitalisation, one tile action per turn, home tokens
//! placed when a corporation first operates, trains that must be bought once a route exists.
//! The one hook is the port rule of its runs ([`port_rule`]).

use super::hooks::TitleHooks;
use super::Title;
use crate::engine::map::{MapData, NodeKind, RouteErrorKind, RunContext, Stop};
use crate::engine::{Game, RunSetup};
use crate::ids::{CorpId, Money};

/// The reference engine's name of the title.
pub const NAME: &str = "1836Jr30";

/// The title's facts.
pub fn title() -> &'static Title {
    Title::by_name(NAME).expect("1836Jr30 is bundled")
}

/// The title's map.
pub fn map() -> &'static MapData {
    title().map
}

/// 1836Jr30's hook set (`"hooks": "1836Jr30"`).
#[derive(Debug)]
pub(crate) struct Jr30Hooks;

impl TitleHooks for Jr30Hooks {
    /// The generic run rules with the port rule as the revenue rule.
    fn run_setup(&self, game: &Game, corp: CorpId) -> RunSetup {
        RunSetup {
            revenue: port_rule,
            ..game.standard_run_setup(corp)
        }
    }
}

/// The run rules of a corporation without bonuses: stops, the port rule.
pub fn run_context() -> RunContext<'static> {
    RunContext::plain(port_rule)
}

/// The port rule (1836Jr30 rules, and the reference's `revenue_for`): a route with a port
/// needs at least 3 stops; the port's value is replaced by its value times the number of
/// stops that are cities holding the runner's token.
///
/// # Errors
/// [`RouteErrorKind::PortNeedsThreeStops`] for a port on a shorter route.
pub fn port_rule(stops: &[Stop<'_>], sum: Money) -> Result<Money, RouteErrorKind> {
    let Some(port) = stops.iter().find(|s| s.node.in_group("port")) else {
        return Ok(sum);
    };
    if stops.len() < 3 {
        return Err(RouteErrorKind::PortNeedsThreeStops(port.hex));
    }
    let tokened = stops
        .iter()
        .filter(|s| s.node.kind == NodeKind::City && s.tokened_by_runner)
        .count() as i64;
    Ok(sum - port.value + Money(port.value.0 * tokened))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{CompanyId, CorpId};

    #[test]
    fn jr30_market_has_par_cells_in_column_6() {
        let t = title();
        let pars: Vec<i64> = (0..11u8)
            .filter_map(|r| t.cell(r, 6).filter(|c| c.par).map(|c| c.price.0))
            .collect();
        assert_eq!(pars, vec![100, 90, 82, 76, 71, 67]);
        assert!(t.cell(8, 0).is_none());
        assert!(t.cell(5, 0).unwrap().multiple_buy);
    }

    #[test]
    fn jr30_lookups() {
        let t = title();
        assert_eq!(t.corp_by_sym("Nord"), Some(CorpId(2)));
        assert_eq!(t.company_by_sym("CFLV"), Some(CompanyId(5)));
        assert_eq!(
            t.train_kind("D").map(|k| t.train(k).price),
            Some(Money(1100))
        );
    }
}
