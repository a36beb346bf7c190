//! Rails' test reports (`.report`): the lines Rails writes when it replays a save, each a
//! message key and its values in Rails' test locale (`Has,klaus,335`), and their comparison
//! with railnote's replay of the same save: the cash of every player and corporation Rails
//! lists after each round (`Has`), every share price it has reported by then
//! (`START_COMPANY_LOG`, `PRICE_MOVES_LOG`), and a finished game's scores (`EoGFinalRanking`).

use std::collections::BTreeMap;
use std::fmt;

use crate::ids::Money;
use crate::log::GameLog;
use crate::replay::Replay;

/// The state Rails lists between two rounds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    /// 1-based line of the first `Has` line.
    pub line: usize,
    /// The round Rails starts next, as railnote labels it (`SR 2`, `OR 1.1`, `PR`); `None`
    /// after the game's end.
    pub next_round: Option<String>,
    /// Cash by Rails' name, in the report's order.
    pub cash: Vec<(String, i64)>,
    /// Every corporation's share price as last reported, by Rails' name.
    pub prices: BTreeMap<String, i64>,
    /// What the privates paid as the next round (an operating round) started (`ReceivesFor`),
    /// by Rails' name: railnote's state after the round starts includes it.
    pub income: BTreeMap<String, i64>,
}

/// A report, read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// The title (`GameIs`).
    pub game: String,
    /// The states between rounds, in order.
    pub checkpoints: Vec<Checkpoint>,
    /// A finished game's scores by player, best first (`EoGFinalRanking`).
    pub ranking: Vec<(String, i64)>,
}

fn number(field: Option<&str>) -> Option<i64> {
    field?.trim().parse().ok()
}

/// The round a report line starts, as railnote labels it.
fn round_started(fields: &[&str]) -> Option<String> {
    match fields {
        ["StartStockRound", n, ..] => Some(format!("SR {n}")),
        ["START_OR", n, ..] => Some(format!("OR {n}")),
        ["StartOfInitialRound", ..] => Some("PR".to_string()),
        _ => None,
    }
}

/// Reads a report. Lines it does not use are skipped; it never fails (a report is Rails'
/// output, read by tests).
pub fn parse(text: &str) -> Report {
    let mut report = Report::default();
    let mut prices = BTreeMap::new();
    let mut open: Option<Checkpoint> = None;
    let mut lines = text.lines().enumerate().peekable();
    while let Some((i, line)) = lines.next() {
        let fields: Vec<&str> = line.split(',').collect();
        match fields.as_slice() {
            ["GameIs", game, ..] => report.game = (*game).to_string(),
            ["START_COMPANY_LOG", _, corp, price, ..] => {
                if let Some(p) = number(Some(price)) {
                    prices.insert((*corp).to_string(), p);
                }
            }
            ["PRICE_MOVES_LOG", corp, _, _, price, ..] => {
                if let Some(p) = number(Some(price)) {
                    prices.insert((*corp).to_string(), p);
                }
            }
            ["Has", name, amount] => {
                let cp = open.get_or_insert_with(|| Checkpoint {
                    line: i + 1,
                    next_round: None,
                    cash: Vec::new(),
                    prices: prices.clone(),
                    income: BTreeMap::new(),
                });
                if let Some(a) = number(Some(amount)) {
                    cp.cash.push(((*name).to_string(), a));
                }
            }
            ["EoGFinalRanking :"] | ["EoGFinalRanking", ..] => {
                while let Some((_, l)) = lines.next_if(|(_, l)| l.split_once(". ").is_some()) {
                    if let Some((_, rest)) = l.split_once(". ") {
                        if let Some((score, name)) = rest.split_once(' ') {
                            if let Ok(s) = score.parse() {
                                report.ranking.push((name.to_string(), s));
                            }
                        }
                    }
                }
            }
            f => {
                if let Some(round) = round_started(f) {
                    if let Some(mut cp) = open.take() {
                        cp.next_round = Some(round.clone());
                        if round.starts_with("OR") {
                            while let Some((_, l)) = lines.next_if(|(_, l)| {
                                l.starts_with("ReceivesFor,") || l.trim().is_empty()
                            }) {
                                let r: Vec<&str> = l.split(',').collect();
                                if let (Some(name), Some(amount)) =
                                    (r.get(1), number(r.get(2).copied()))
                                {
                                    *cp.income.entry((*name).to_string()).or_default() += amount;
                                }
                            }
                        }
                        report.checkpoints.push(cp);
                    }
                }
            }
        }
    }
    report.checkpoints.extend(open);
    report
}

/// A way railnote's replay differs from Rails' report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The report's line.
    pub line: usize,
    /// Where railnote's state is taken (`after action 57, entering OR 2.1`).
    pub at: String,
    /// What differs.
    pub what: String,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "report line {} ({}): {}", self.line, self.at, self.what)
    }
}

/// What the comparison found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Checkpoints compared.
    pub checkpoints: usize,
    /// Cash amounts compared.
    pub amounts: usize,
    /// Share prices compared.
    pub prices: usize,
    /// Scores compared.
    pub scores: usize,
    /// Checkpoints of rounds railnote does not have (Rails' short operating round paying the
    /// privates when nobody buys in the start packet, and the start packet's continuation
    /// after it, which railnote plays within its one private auction), by report line.
    pub skipped: Vec<usize>,
    /// Every difference.
    pub differences: Vec<Difference>,
}

/// Compares railnote's replay of `log` (a save's game) with Rails' report. `corp_name` maps
/// Rails' corporation names to railnote's symbols.
pub fn compare(report: &Report, log: &GameLog, corp_name: &dyn Fn(&str) -> String) -> Comparison {
    let mut out = Comparison::default();
    let Ok(mut replay) = Replay::new(log) else {
        out.differences.push(Difference {
            line: 0,
            at: "setup".into(),
            what: "the game cannot be set up".into(),
        });
        return out;
    };
    let checkpoints: Vec<&Checkpoint> = report
        .checkpoints
        .iter()
        .filter(|cp| {
            let short = match cp.next_round.as_deref() {
                Some(r) if r.starts_with("OR 0.") => true,
                // The first start packet has no checkpoint before it.
                Some("PR") => true,
                _ => false,
            };
            if short {
                out.skipped.push(cp.line);
            }
            !short
        })
        .collect();
    let mut pending = checkpoints.into_iter().peekable();
    let mut label = replay.game().round_label();
    loop {
        match replay.step() {
            None => break,
            Some(Err(e)) => {
                out.differences.push(Difference {
                    line: 0,
                    at: format!("action {}", e.index),
                    what: e.to_string(),
                });
                return out;
            }
            Some(Ok(_)) => {}
        }
        let now = replay.game().round_label();
        if now == label {
            continue;
        }
        label = now;
        // Checkpoints of rounds railnote does not have (Rails' short operating round after
        // an auction nobody bought in) are compared with the next state railnote has.
        if let Some(cp) = pending.next_if(|cp| cp.next_round.as_deref() == Some(label.as_str())) {
            check(
                &mut out,
                cp,
                replay.game(),
                &format!("after action {}, entering {label}", replay.processed()),
                corp_name,
            );
        }
    }
    if replay.game().finished {
        if let Some(cp) = pending.next_if(|cp| cp.next_round.is_none()) {
            check(
                &mut out,
                cp,
                replay.game(),
                "the end of the game",
                corp_name,
            );
        }
        let values = replay.game().player_values();
        for (name, score) in &report.ranking {
            out.scores += 1;
            let ours = replay
                .game()
                .players
                .iter()
                .find(|p| &p.name == name)
                .and_then(|p| values.get(&p.id));
            if ours != Some(&Money(*score)) {
                out.differences.push(Difference {
                    line: 0,
                    at: "the end of the game".into(),
                    what: format!(
                        "{name} scores {score} in Rails, {} in railnote",
                        ours.map_or("nothing".to_string(), |m| m.0.to_string())
                    ),
                });
            }
        }
    }
    for cp in pending {
        out.differences.push(Difference {
            line: cp.line,
            at: "never reached".into(),
            what: format!(
                "railnote's replay never enters {}",
                cp.next_round.as_deref().unwrap_or("the game's end")
            ),
        });
    }
    out
}

fn check(
    out: &mut Comparison,
    cp: &Checkpoint,
    game: &crate::engine::Game,
    at: &str,
    corp_name: &dyn Fn(&str) -> String,
) {
    out.checkpoints += 1;
    for (name, amount) in &cp.cash {
        let expected = amount + cp.income.get(name).copied().unwrap_or(0);
        let ours = if let Some(p) = game.players.iter().find(|p| &p.name == name) {
            Some(p.cash.0)
        } else {
            let sym = corp_name(name);
            (0..game.corps.len())
                .find(|&i| game.title.corp(crate::ids::CorpId(i as u8)).sym == sym)
                .map(|i| game.corps[i].cash.0)
        };
        out.amounts += 1;
        if ours != Some(expected) {
            out.differences.push(Difference {
                line: cp.line,
                at: at.to_string(),
                what: format!(
                    "{name} has {expected} in Rails{}, {} in railnote",
                    if cp.income.contains_key(name) {
                        " (with the privates' income)"
                    } else {
                        ""
                    },
                    ours.map_or("no such entity".to_string(), |m| m.to_string())
                ),
            });
        }
    }
    for (corp, price) in &cp.prices {
        let sym = corp_name(corp);
        let Some(i) = (0..game.corps.len())
            .find(|&i| game.title.corp(crate::ids::CorpId(i as u8)).sym == sym)
        else {
            continue;
        };
        out.prices += 1;
        let ours = game.share_price(crate::ids::CorpId(i as u8));
        if ours != Some(Money(*price)) {
            out.differences.push(Difference {
                line: cp.line,
                at: at.to_string(),
                what: format!(
                    "{corp}'s share price is {price} in Rails, {} in railnote",
                    ours.map_or("none".to_string(), |m| m.0.to_string())
                ),
            });
        }
    }
}
