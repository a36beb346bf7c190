//! Final standings: each player's cash, share value, privates and total, with the game-end
//! reason — as JSON (`result` keyed by the log's player ids, like the reference's `result`) and
//! as a text table.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use crate::engine::Game;
use crate::ids::Money;
use crate::log::GameLog;
use crate::replay::DeviationWarning;

/// The standings of a game (final, or at the end of an unfinished log).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScoreReport {
    /// The title (`1836Jr30`).
    pub title: String,
    /// Whether the game has ended.
    pub finished: bool,
    /// Why it ended (`bank`, `bankrupt`, `stock_market`, `dnf`, `manually_ended`).
    pub game_end_reason: Option<String>,
    /// Total value by the log's player id (the reference's `result`).
    pub result: BTreeMap<String, Money>,
    /// Players by rank, then seat order.
    pub players: Vec<Standing>,
    /// Moves that break a printed rule while 18xx.games accepts them (railnote follows
    /// 18xx.games), in game order.
    pub warnings: Vec<WarningReport>,
}

/// A deviation from the printed rules: `{index, action_id, round, actor, rule, message}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WarningReport {
    /// 1-based count of the top-level action (notation: the move of the main line).
    pub index: usize,
    /// The action's source id.
    pub action_id: i64,
    /// The round before the action.
    pub round: String,
    /// Who acted.
    pub actor: String,
    /// The deviation's code (`deviation::emergency_train_from_corporation`).
    pub rule: String,
    /// What happened, the printed rule and what 18xx.games does.
    pub message: String,
}

impl From<&DeviationWarning> for WarningReport {
    fn from(w: &DeviationWarning) -> WarningReport {
        WarningReport {
            index: w.index,
            action_id: w.action_id,
            round: w.round.clone(),
            actor: w.actor.clone(),
            rule: w.rule().to_string(),
            message: w.message(),
        }
    }
}

/// One player's standing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Standing {
    /// 1 for the highest total; equal totals share a rank.
    pub rank: usize,
    /// The log's player id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Cash in hand.
    pub cash: Money,
    /// Shares at market price.
    pub share_value: Money,
    /// Open private companies at face value.
    pub privates: Money,
    /// The total the game scores.
    pub total: Money,
}

impl ScoreReport {
    /// The standings of `game`, with player ids from `log`.
    pub fn new(game: &Game, log: &GameLog) -> ScoreReport {
        let values = game.player_values();
        let mut players: Vec<Standing> = game
            .players
            .iter()
            .map(|p| {
                let total = values.get(&p.id).copied().unwrap_or(p.cash);
                let privates: Money = p
                    .companies
                    .iter()
                    .filter(|c| !game.company(**c).closed)
                    .map(|c| game.company(*c).value)
                    .sum();
                Standing {
                    rank: 0,
                    id: log.player_id(p.id).to_string(),
                    name: p.name.clone(),
                    cash: p.cash,
                    // The engine's value is authoritative; the split is for display.
                    share_value: total - p.cash - privates,
                    privates,
                    total,
                }
            })
            .collect();
        // Stable sort: ties stay in seat order.
        players.sort_by_key(|p| std::cmp::Reverse(p.total));
        for i in 0..players.len() {
            players[i].rank = if i > 0 && players[i].total == players[i - 1].total {
                players[i - 1].rank
            } else {
                i + 1
            };
        }
        ScoreReport {
            title: game.title.name.clone(),
            finished: game.finished,
            game_end_reason: game.end_reason.map(|r| r.as_str().to_string()),
            result: players.iter().map(|p| (p.id.clone(), p.total)).collect(),
            players,
            warnings: Vec::new(),
        }
    }

    /// The same standings with the deviations found on the way.
    #[must_use]
    pub fn with_warnings(mut self, warnings: &[DeviationWarning]) -> ScoreReport {
        self.warnings = warnings.iter().map(WarningReport::from).collect();
        self
    }
}

impl fmt::Display for ScoreReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.finished, &self.game_end_reason) {
            (true, Some(reason)) => writeln!(f, "{}: game over ({reason})\n", self.title)?,
            (true, None) => writeln!(f, "{}: game over\n", self.title)?,
            (false, _) => writeln!(
                f,
                "{}: game not finished; standings at the end of the log\n",
                self.title
            )?,
        }
        let mut rows = vec![["rank", "player", "cash", "shares", "privates", "total"]
            .map(String::from)
            .to_vec()];
        for p in &self.players {
            rows.push(vec![
                p.rank.to_string(),
                p.name.clone(),
                p.cash.to_string(),
                p.share_value.to_string(),
                p.privates.to_string(),
                p.total.to_string(),
            ]);
        }
        crate::output::snapshot::table(f, &rows)?;
        match self.warnings.len() {
            0 => Ok(()),
            n => writeln!(
                f,
                "\n{n} move(s) break a printed rule that 18xx.games does not enforce; \
                 railnote followed 18xx.games (see the warnings)"
            ),
        }
    }
}
