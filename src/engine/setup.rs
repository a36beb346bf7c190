//! Random game setup, resolved once from the log's seed, so that a game record can state the
//! outcome instead of depending on a seed. The draw and its rules are the title's (hooks
//! `random_setup` and `check_setup`, see [`crate::engine::title`]).

use crate::engine::title::Title;
use crate::ids::{CompanyId, CorpId};

/// The reference engine's linear congruential generator (`Game::Base#rand`).
#[derive(Debug, Clone)]
pub struct SetupRng {
    state: u64,
}

impl SetupRng {
    const A: u64 = 1_103_515_245;
    const C: u64 = 12_345;
    const M: u64 = 1 << 31;

    /// A generator seeded as the reference seeds it.
    pub fn new(seed: u64) -> SetupRng {
        SetupRng {
            state: seed % Self::M,
        }
    }

    /// The next draw (the new state).
    pub fn draw(&mut self) -> u64 {
        self.state = (Self::A * self.state + Self::C) % Self::M;
        self.state
    }
}

/// The outcome of a title's random setup (the default: nothing drawn).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResolvedSetup {
    /// Privates removed before the game starts.
    pub removed_companies: Vec<CompanyId>,
    /// Minors removed before the game starts.
    pub removed_corporations: Vec<CorpId>,
    /// The order in which minors may be started (only the first unstarted one may be).
    pub charter_order: Vec<CorpId>,
    /// The privates dealt to the players, in seat order (1889's beginner game).
    pub dealt_companies: Vec<CompanyId>,
    /// Privates that bring the president's certificate of a corporation drawn at setup, and
    /// that corporation (18Chesapeake CV).
    pub president_draws: Vec<(CompanyId, CorpId)>,
}

/// Why a stated setup is not one the title's draw can produce.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupFault {
    /// Too few or too many privates removed.
    #[error("{expected} privates are removed, not {found}")]
    RemovedPrivates {
        /// How many the title removes.
        expected: usize,
        /// How many were stated.
        found: usize,
    },
    /// A private or minor the draw never removes.
    #[error("{0} is never removed")]
    Protected(String),
    /// Too few or too many minors removed.
    #[error("one minor is removed, not {0}")]
    RemovedMinors(usize),
    /// A corporation that is not a minor in the removals or the charter order.
    #[error("{0} is not a minor")]
    NotAMinor(String),
    /// The charter order does not open with the protected minor.
    #[error("the charter order starts with {0}")]
    FirstCharter(String),
    /// A minor missing from the charter order, listed twice, or listed though removed.
    #[error("the charter order must list every minor not removed exactly once ({0})")]
    CharterOrder(String),
    /// The privates whose president's certificate is drawn are not the stated ones.
    #[error("the setup states the corporation drawn for each of {0}")]
    PresidentDraws(String),
    /// The dealt privates are not one each of the privates in the game.
    #[error("each player is dealt one of {0}, each once")]
    Dealt(String),
}

impl ResolvedSetup {
    /// Whether both give the same game: the same privates and minor removed (in any order)
    /// and the same charter order.
    pub fn same_game(&self, other: &ResolvedSetup) -> bool {
        let sorted = |v: &[CompanyId]| {
            let mut v = v.to_vec();
            v.sort();
            v
        };
        let sorted_corps = |v: &[CorpId]| {
            let mut v = v.to_vec();
            v.sort();
            v
        };
        sorted(&self.removed_companies) == sorted(&other.removed_companies)
            && sorted_corps(&self.removed_corporations) == sorted_corps(&other.removed_corporations)
            && self.charter_order == other.charter_order
            && self.dealt_companies == other.dealt_companies
            && self.president_draws == other.president_draws
    }

    /// The outcome by symbols: `removed DR, TDR, …, SLNCR; charters DKR, UR, …`, or
    /// `dealt ER, DR, SMR` for privates dealt in seat order, or `CV brings B&O` for a
    /// president's certificate drawn (the form of a notation game's `Setup` tag).
    pub fn describe(&self, title: &Title) -> String {
        if !self.president_draws.is_empty() {
            let draws: Vec<String> = self
                .president_draws
                .iter()
                .map(|&(c, corp)| {
                    format!("{} brings {}", title.company(c).sym, title.corp(corp).sym)
                })
                .collect();
            return draws.join(", ");
        }
        if !self.dealt_companies.is_empty() {
            let dealt: Vec<&str> = self
                .dealt_companies
                .iter()
                .map(|&c| title.company(c).sym.as_str())
                .collect();
            return format!("dealt {}", dealt.join(", "));
        }
        let mut companies = self.removed_companies.clone();
        companies.sort();
        let mut minors = self.removed_corporations.clone();
        minors.sort();
        let removed: Vec<&str> = companies
            .iter()
            .map(|&c| title.company(c).sym.as_str())
            .chain(minors.iter().map(|&c| title.corp(c).sym.as_str()))
            .collect();
        let order: Vec<&str> = self
            .charter_order
            .iter()
            .map(|&c| title.corp(c).sym.as_str())
            .collect();
        format!(
            "removed {}; charters {}",
            removed.join(", "),
            order.join(", ")
        )
    }

    /// Whether the title's draw can produce this outcome (its hook's rules: for example
    /// counts, protected pieces, the charter order).
    ///
    /// # Errors
    /// The first rule the stated setup breaks.
    pub fn check(&self, title: &Title, rules: &[String], players: usize) -> Result<(), SetupFault> {
        title.hooks.check_setup(title, rules, players, self)
    }
}

/// Resolves the random setup of a game of `players` with optional `rules` from a seed (its
/// title's hook's draw); `None` for games without one.
pub fn resolve(
    title: &Title,
    rules: &[String],
    players: usize,
    seed: u64,
) -> Option<ResolvedSetup> {
    if !title.has_random_setup(rules) {
        return None;
    }
    title.hooks.random_setup(title, rules, players, seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_without_random_setup_resolve_to_none() {
        assert_eq!(
            resolve(crate::engine::title::jr30::title(), &[], 4, 7),
            None
        );
    }
}
