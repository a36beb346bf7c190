//! 1889 (reference `G1889`, Shikoku): 1830's rules on Shikoku for 2–6 players.
//!
//! Almost everything is data (`data/1889/`): home tokens placed as each operating round
//! starts, sell-then-buy or buy-then-sell turns with sales in blocks, the seven privates and
//! their abilities (MF's port laid by its player owner, ER's green tile laid by its seller,
//! SMR's mountain discount, DR's exchange from the IPO, UTF's revenue and survival while a
//! player owns it), privates by player count, D trains' diesel values on the offboards, and
//! the beginner game's privates, values and tiles (`dealt_privates`). The one hook is the
//! beginner game's deal of the privates ([`deal`]).

use super::hooks::TitleHooks;
use super::Title;
use crate::engine::setup::{ResolvedSetup, SetupFault, SetupRng};
use crate::ids::CompanyId;

/// The reference engine's name of the title.
pub const NAME: &str = "1889";

/// The title's facts.
pub fn title() -> &'static Title {
    Title::by_name(NAME).expect("1889 is bundled")
}

/// 1889's hook set (`"hooks": "1889"`).
#[derive(Debug)]
pub(crate) struct ShikokuHooks;

impl TitleHooks for ShikokuHooks {
    fn random_setup(
        &self,
        title: &Title,
        rules: &[String],
        players: usize,
        seed: u64,
    ) -> Option<ResolvedSetup> {
        Some(ResolvedSetup {
            dealt_companies: deal(title, rules, players, seed)?,
            ..ResolvedSetup::default()
        })
    }

    fn check_setup(
        &self,
        title: &Title,
        rules: &[String],
        players: usize,
        setup: &ResolvedSetup,
    ) -> Result<(), SetupFault> {
        let in_game = dealt_privates(title, rules, players).unwrap_or_default();
        let mut stated = setup.clone();
        stated.dealt_companies.sort();
        let mut expected = in_game.clone();
        expected.sort();
        let expected = ResolvedSetup {
            dealt_companies: expected,
            ..ResolvedSetup::default()
        };
        if stated != expected {
            let syms: Vec<&str> = in_game
                .iter()
                .map(|&c| title.company(c).sym.as_str())
                .collect();
            return Err(SetupFault::Dealt(syms.join(", ")));
        }
        Ok(())
    }

    fn random_setup_rules(&self) -> Option<&'static str> {
        Some(
            "in 1889's beginner game each player is dealt one of the privates listed for the \
             player count, in seat order: `[Setup \"dealt DR, SIR, ER\"]`",
        )
    }
}

/// The privates of a dealt game for the player count, in the title's order.
fn dealt_privates(title: &Title, rules: &[String], players: usize) -> Option<Vec<CompanyId>> {
    let dealt = title.dealt_privates_in(rules)?;
    let listed = dealt.by_players.get(&u8::try_from(players).ok()?)?;
    Some(
        (0..title.companies.len())
            .map(|i| CompanyId(i as u8))
            .filter(|&c| listed.contains(&title.company(c).sym))
            .collect(),
    )
}

/// The beginner game's deal, as the reference's `setup` makes it: the privates in the game,
/// in the title's order, each draw once from the game's generator; sorted by their draws,
/// the first goes to the first player, and so on.
pub fn deal(title: &Title, rules: &[String], players: usize, seed: u64) -> Option<Vec<CompanyId>> {
    let mut rng = SetupRng::new(seed);
    let mut drawn: Vec<(u64, CompanyId)> = dealt_privates(title, rules, players)?
        .into_iter()
        .map(|c| (rng.draw(), c))
        .collect();
    drawn.sort();
    Some(drawn.into_iter().map(|(_, c)| c).take(players).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The deals 18xx.games made in reference games (their traces' first states).
    #[test]
    fn deals_as_the_reference() {
        let t = title();
        let rules = vec!["beginner_game".to_string()];
        let syms = |players, seed| -> Vec<String> {
            deal(t, &rules, players, seed)
                .unwrap()
                .iter()
                .map(|&c| t.company(c).sym.clone())
                .collect()
        };
        assert_eq!(syms(5, 3), ["ER", "DR", "SMR", "TR", "SIR"]);
        assert_eq!(deal(t, &[], 5, 3), None);
    }
}
