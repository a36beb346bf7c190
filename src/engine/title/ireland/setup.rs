//! 18Ireland's random setup (reference `G18Ireland#setup`): six of the eleven privates and
//! one minor leave the game, and the minors' charter order is drawn, all from the seed.

use crate::engine::setup::{ResolvedSetup, SetupFault, SetupRng};
use crate::engine::title::{CorpKind, Title};
use crate::ids::{CompanyId, CorpId};

/// Privates kept whatever the draw, the corporation that always opens the pile, and how many
/// privates stay (18Ireland rules, as the reference engine implements them).
const PROTECTED_COMPANIES: [&str; 2] = ["DAR", "DK"];
const PROTECTED_CORPORATION: &str = "DKR";
const KEEP_COMPANIES: usize = 5;

/// Whether the draw can produce `setup`: counts, protected pieces, a charter order of every
/// remaining minor, the protected one first.
pub(super) fn check(title: &Title, setup: &ResolvedSetup) -> Result<(), SetupFault> {
    let expected = title.companies.len().saturating_sub(KEEP_COMPANIES);
    if setup.removed_companies.len() != expected {
        return Err(SetupFault::RemovedPrivates {
            expected,
            found: setup.removed_companies.len(),
        });
    }
    let mut seen: Vec<CompanyId> = Vec::new();
    for &c in &setup.removed_companies {
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
    if setup.removed_corporations.len() != 1 {
        return Err(SetupFault::RemovedMinors(setup.removed_corporations.len()));
    }
    let minor = |c: CorpId| -> Result<(), SetupFault> {
        if title.corp(c).kind == CorpKind::Minor {
            Ok(())
        } else {
            Err(SetupFault::NotAMinor(title.corp(c).sym.clone()))
        }
    };
    for &c in setup
        .removed_corporations
        .iter()
        .chain(&setup.charter_order)
    {
        minor(c)?;
        if title.corp(c).sym == PROTECTED_CORPORATION && setup.removed_corporations.contains(&c) {
            return Err(SetupFault::Protected(title.corp(c).sym.clone()));
        }
    }
    match setup.charter_order.first() {
        Some(&c) if title.corp(c).sym == PROTECTED_CORPORATION => {}
        Some(&c) => return Err(SetupFault::FirstCharter(title.corp(c).sym.clone())),
        None => return Err(SetupFault::CharterOrder("it is empty".into())),
    }
    for i in 0..title.corporations.len() {
        let c = CorpId(i as u8);
        if title.corp(c).kind != CorpKind::Minor {
            continue;
        }
        let listed = setup.charter_order.iter().filter(|&&x| x == c).count();
        let removed = setup.removed_corporations.contains(&c);
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

/// The draw from a seed, as the reference's `setup` makes it.
pub(super) fn draw(title: &Title, seed: u64) -> Option<ResolvedSetup> {
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
        ..ResolvedSetup::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ireland() -> &'static Title {
        super::super::title()
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
            let setup = draw(title, seed).unwrap();
            let (mut companies, corps, order) = syms(title, &setup);
            companies.sort_by_key(|s| title.company_by_sym(s));
            let mut expected: Vec<String> = removed.iter().map(|s| s.to_string()).collect();
            expected.sort_by_key(|s| title.company_by_sym(s));
            assert_eq!(companies, expected, "seed {seed}");
            assert_eq!(corps, [minor], "seed {seed}");
            assert_eq!(order, charter, "seed {seed}");
        }
    }
}
