//! The best run of a corporation at a game state (`railnote routes`) and the audit of recorded
//! runs against it (`railnote replay --check-runs`): the search call for a [`Game`] and the
//! serialize-only reports with their text renderings.

use std::fmt;

use serde::Serialize;

use crate::action::RouteSpec;
use crate::engine::map::{BestRun, RouteError, SearchError, SearchLimits, TrainSpec};
use crate::engine::Game;
use crate::ids::{CorpId, Money, TrainId};

/// The trains `corp` owns, as the search takes them.
pub fn corp_trains(game: &Game, corp: CorpId) -> Vec<TrainSpec> {
    game.corp(corp)
        .trains
        .iter()
        .map(|&t| game.train_spec(t))
        .collect()
}

/// The best run of all of `corp`'s trains on the current board and phase.
///
/// # Errors
/// The network is too large for the search.
pub fn best_run(game: &Game, corp: CorpId, limits: SearchLimits) -> Result<BestRun, SearchError> {
    game.best_run(corp, &corp_trains(game, corp), limits)
}

/// The revenue of each of `routes` run by `corp` on the current board, as the engine computes
/// it when the run is processed ([`Game::run_revenues`]).
///
/// # Errors
/// A route the engine rejects.
pub fn run_revenues(
    game: &Game,
    corp: CorpId,
    routes: &[RouteSpec],
) -> Result<Vec<Money>, RouteError> {
    game.run_revenues(corp, routes)
}

/// The best run of a corporation at a state, as printed by `railnote routes`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoutesReport {
    /// Processed top-level actions (`--at`).
    pub at: usize,
    /// The corporation.
    pub corporation: String,
    /// The phase (`2` … `D`).
    pub phase: String,
    /// The trains searched, by name (`2-0`).
    pub trains: Vec<String>,
    /// One entry per train that runs.
    pub routes: Vec<RouteReport>,
    /// Total revenue.
    pub total: Money,
    /// Whether `total` is proven optimal (false only when a time limit was hit).
    pub optimal: bool,
    /// Upper bound of the optimum (equal to `total` when optimal).
    pub upper_bound: Money,
}

/// One train's route.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RouteReport {
    /// The train (`5-1`).
    pub train: String,
    /// Stops in route order, as node signatures (`E5-1`: hex and part index).
    pub stops: Vec<String>,
    /// Hexes walked from stop to stop (the `connections` of a `run_routes` action).
    pub connections: Vec<Vec<String>>,
    /// Revenue.
    pub revenue: Money,
}

fn train_name(game: &Game, t: TrainId) -> String {
    game.train_name(t)
}

impl RoutesReport {
    /// The report of `best` found for `corp` at `game` (after `at` processed actions).
    pub fn new(game: &Game, at: usize, corp: CorpId, best: &BestRun) -> RoutesReport {
        RoutesReport {
            at,
            corporation: game.title.corp(corp).sym.clone(),
            phase: game.phase_name().to_string(),
            trains: game
                .corp(corp)
                .trains
                .iter()
                .map(|&t| train_name(game, t))
                .collect(),
            routes: best
                .routes
                .iter()
                .map(|r| RouteReport {
                    train: train_name(game, r.spec.train),
                    stops: r.stops.iter().map(|(h, p)| format!("{h}-{p}")).collect(),
                    connections: r
                        .spec
                        .connections
                        .iter()
                        .map(|c| c.iter().map(ToString::to_string).collect())
                        .collect(),
                    revenue: r.revenue,
                })
                .collect(),
            total: best.total,
            optimal: best.optimal,
            upper_bound: best.upper_bound,
        }
    }
}

impl fmt::Display for RoutesReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} after action {} (phase {}), trains {}",
            self.corporation,
            self.at,
            self.phase,
            if self.trains.is_empty() {
                "none".to_string()
            } else {
                self.trains.join(" ")
            }
        )?;
        for r in &self.routes {
            writeln!(
                f,
                "  {:<5} {:>5}  {}  via {}",
                r.train,
                r.revenue.to_string(),
                r.stops.join(" "),
                r.connections
                    .iter()
                    .map(|c| c.join(">"))
                    .collect::<Vec<_>>()
                    .join(" | ")
            )?;
        }
        if self.optimal {
            writeln!(f, "  total {} (optimal)", self.total)
        } else {
            writeln!(
                f,
                "  total {} (time limit hit: best found; the optimum is at most {})",
                self.total, self.upper_bound
            )
        }
    }
}

/// A recorded run compared with the best run at the same state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunCheck {
    /// The run action's 1-based index among processed top-level actions.
    pub index: usize,
    /// The run action's source id.
    pub action_id: i64,
    /// Revenue of the recorded run.
    pub recorded: Money,
    /// The best run at the state before the action.
    pub best: RoutesReport,
    /// The recorded run in the notation, with each route's revenue (`run 2:I3-I5=50`).
    pub recorded_run: String,
    /// The best run in the notation, ready to replace the recorded one in a `.rn` file.
    pub best_run: String,
}

/// A run of `corp` in the notation, each route with its revenue: `run 3-0:I3-H2+H2-G1=80`.
pub fn run_notation(game: &Game, corp: CorpId, routes: &[(RouteSpec, Money)]) -> String {
    let action = crate::action::Action::RunRoutes {
        entity: crate::action::Entity::Corporation(corp),
        routes: routes
            .iter()
            .map(|(spec, revenue)| RouteSpec {
                revenue: Some(*revenue),
                ..spec.clone()
            })
            .collect(),
    };
    crate::replay::notation::to_notation(game, &action).to_string()
}

/// The run audit of a whole log (`railnote replay --check-runs`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunAudit {
    /// Runs checked.
    pub runs: usize,
    /// Runs below the optimum (or, with a time limit, below the best run found).
    pub below: Vec<RunCheck>,
    /// Runs whose optimum was not proven within the time limit.
    pub unproven: usize,
}

impl fmt::Display for RunAudit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} runs checked, {} below the optimum{}",
            self.runs,
            self.below.len(),
            if self.unproven > 0 {
                format!(", {} not proven within the time limit", self.unproven)
            } else {
                String::new()
            }
        )?;
        for c in &self.below {
            writeln!(
                f,
                "warning: action {} (#{}): {} ran {}, {} was possible",
                c.index, c.action_id, c.best.corporation, c.recorded, c.best.total
            )?;
            writeln!(f, "  recorded: {}", c.recorded_run)?;
            writeln!(f, "  best:     {}", c.best_run)?;
            write!(f, "{}", c.best)?;
        }
        Ok(())
    }
}
