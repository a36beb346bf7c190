//! Random game setup, resolved once from the log's seed (18Ireland), so that a game record can
//! state the outcome instead of depending on a seed.

use crate::engine::title::{CorpKind, Title};
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

/// The outcome of a title's random setup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedSetup {
    /// Privates removed before the game starts.
    pub removed_companies: Vec<CompanyId>,
    /// Minors removed before the game starts.
    pub removed_corporations: Vec<CorpId>,
    /// The order in which minors may be started (only the first unstarted one may be).
    pub charter_order: Vec<CorpId>,
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
    }

    /// The outcome by symbols: `removed DR, TDR, …, SLNCR; charters DKR, UR, …` (the form of
    /// a notation game's `Setup` tag).
    pub fn describe(&self, title: &Title) -> String {
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

    /// Whether the title's draw can produce this outcome (counts, protected pieces, a charter
    /// order of every remaining minor, the protected one first).
    ///
    /// # Errors
    /// The first rule the stated setup breaks.
    pub fn check(&self, title: &Title) -> Result<(), SetupFault> {
        let expected = title.companies.len().saturating_sub(KEEP_COMPANIES);
        if self.removed_companies.len() != expected {
            return Err(SetupFault::RemovedPrivates {
                expected,
                found: self.removed_companies.len(),
            });
        }
        let mut seen: Vec<CompanyId> = Vec::new();
        for &c in &self.removed_companies {
            let sym = &title.company(c).sym;
            if PROTECTED_COMPANIES.contains(&sym.as_str()) {
                return Err(SetupFault::Protected(sym.clone()));
            }
            if seen.contains(&c) {
                return Err(SetupFault::RemovedPrivates {
                    expected,
                    found: expected - 1,
                });
            }
            seen.push(c);
        }
        if self.removed_corporations.len() != 1 {
            return Err(SetupFault::RemovedMinors(self.removed_corporations.len()));
        }
        let minor = |c: CorpId| -> Result<(), SetupFault> {
            if title.corp(c).kind == CorpKind::Minor {
                Ok(())
            } else {
                Err(SetupFault::NotAMinor(title.corp(c).sym.clone()))
            }
        };
        for &c in self.removed_corporations.iter().chain(&self.charter_order) {
            minor(c)?;
            if title.corp(c).sym == PROTECTED_CORPORATION && self.removed_corporations.contains(&c)
            {
                return Err(SetupFault::Protected(title.corp(c).sym.clone()));
            }
        }
        match self.charter_order.first() {
            Some(&c) if title.corp(c).sym == PROTECTED_CORPORATION => {}
            Some(&c) => return Err(SetupFault::FirstCharter(title.corp(c).sym.clone())),
            None => return Err(SetupFault::CharterOrder("it is empty".into())),
        }
        for i in 0..title.corporations.len() {
            let c = CorpId(i as u8);
            if title.corp(c).kind != CorpKind::Minor {
                continue;
            }
            let listed = self.charter_order.iter().filter(|&&x| x == c).count();
            let removed = self.removed_corporations.contains(&c);
            let sym = &title.corp(c).sym;
            match (listed, removed) {
                (0, false) => return Err(SetupFault::CharterOrder(format!("{sym} is missing"))),
                (1, false) | (0, true) => {}
                (_, true) => return Err(SetupFault::CharterOrder(format!("{sym} is removed"))),
                _ => return Err(SetupFault::CharterOrder(format!("{sym} is listed twice"))),
            }
        }
        Ok(())
    }
}

/// Privates kept whatever the draw, the corporation that always opens the pile, and how many
/// privates stay (18Ireland rules, as the reference engine implements them).
const PROTECTED_COMPANIES: [&str; 2] = ["DAR", "DK"];
const PROTECTED_CORPORATION: &str = "DKR";
const KEEP_COMPANIES: usize = 5;

/// Resolves the random setup of a title from a seed; `None` for titles without one.
pub fn resolve(title: &Title, seed: u64) -> Option<ResolvedSetup> {
    if !title.random_setup {
        return None;
    }
    let mut rng = SetupRng::new(seed);
    // Privates: every unprotected one draws once, in title order; the lowest draws leave.
    let remove = title.companies.len().saturating_sub(KEEP_COMPANIES);
    let mut drawn: Vec<(u64, CompanyId)> = (0..title.companies.len())
        .map(|i| CompanyId(i as u8))
        .filter(|c| !PROTECTED_COMPANIES.contains(&title.company(*c).sym.as_str()))
        .map(|c| (rng.draw(), c))
        .collect();
    drawn.sort();
    let removed_companies: Vec<CompanyId> = drawn.iter().take(remove).map(|(_, c)| *c).collect();
    // Minors: all but the protected one draw once; the lowest leaves, the protected one leads.
    let protected = title.corp_by_sym(PROTECTED_CORPORATION)?;
    let mut minors: Vec<(u64, CorpId)> = (0..title.corporations.len())
        .map(|i| CorpId(i as u8))
        .filter(|c| title.corp(*c).kind == CorpKind::Minor && *c != protected)
        .map(|c| (rng.draw(), c))
        .collect();
    minors.sort();
    let removed_corporations: Vec<CorpId> = minors.first().map(|(_, c)| *c).into_iter().collect();
    let charter_order = std::iter::once(protected)
        .chain(minors.iter().skip(1).map(|(_, c)| *c))
        .collect();
    Some(ResolvedSetup {
        removed_companies,
        removed_corporations,
        charter_order,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ireland() -> Title {
        Title::from_json(
            include_str!("../../data/18ireland/title.json"),
            crate::engine::map::jr30(),
        )
        .unwrap()
    }

    fn syms(title: &Title, setup: &ResolvedSetup) -> (Vec<String>, Vec<String>, Vec<String>) {
        (
            setup
                .removed_companies
                .iter()
                .map(|c| title.company(*c).sym.clone())
                .collect(),
            setup
                .removed_corporations
                .iter()
                .map(|c| title.corp(*c).sym.clone())
                .collect(),
            setup
                .charter_order
                .iter()
                .map(|c| title.corp(*c).sym.clone())
                .collect(),
        )
    }

    /// Seeds and outcomes of the four 18Ireland reference games (their logs' removals and the
    /// corporation order of the reference traces).
    #[test]
    fn reproduces_the_reference_setups() {
        let title = ireland();
        let cases: [(u64, &[&str], &str, &[&str]); 4] = [
            (
                1_411_315_859,
                &["BoW", "CDSPC", "TDR", "DCR", "WDE", "TIM"],
                "KJR",
                &[
                    "DKR", "DER", "DDR", "GNWR", "GJR", "UR", "SLNCR", "EBSR", "WLR", "CBPR",
                    "CIR", "WKR", "LER",
                ],
            ),
            (
                689_309_492,
                &["TDR", "DCR", "TASPS", "RSSC", "WDE", "TIM"],
                "CBPR",
                &[
                    "DKR", "LER", "WLR", "UR", "SLNCR", "DER", "DDR", "CIR", "KJR", "GJR", "WKR",
                    "GNWR", "EBSR",
                ],
            ),
            (
                387_286_109,
                &["DR", "CDSPC", "TDR", "DCR", "RSSC", "TIM"],
                "CIR",
                &[
                    "DKR", "CBPR", "DER", "KJR", "UR", "LER", "WKR", "GJR", "WLR", "GNWR", "DDR",
                    "EBSR", "SLNCR",
                ],
            ),
            (
                237_665_830,
                &["DR", "TDR", "DCR", "TASPS", "WDE", "TIM"],
                "GNWR",
                &[
                    "DKR", "WKR", "LER", "CIR", "DDR", "GJR", "WLR", "UR", "DER", "CBPR", "KJR",
                    "EBSR", "SLNCR",
                ],
            ),
        ];
        for (seed, removed, minor, charter) in cases {
            let setup = resolve(&title, seed).unwrap();
            let (mut companies, corps, order) = syms(&title, &setup);
            companies.sort_by_key(|s| title.company_by_sym(s));
            let mut expected: Vec<String> = removed.iter().map(|s| s.to_string()).collect();
            expected.sort_by_key(|s| title.company_by_sym(s));
            assert_eq!(companies, expected, "seed {seed}");
            assert_eq!(corps, [minor], "seed {seed}");
            assert_eq!(order, charter, "seed {seed}");
        }
    }

    #[test]
    fn titles_without_random_setup_resolve_to_none() {
        assert_eq!(resolve(crate::engine::title::jr30(), 7), None);
    }
}
