//! The routes step: every train of the corporation runs once (rules-and-format B.1 5, C.8 and
//! D.15 for the revenue of a logged route). How runs are scored is the title's
//! (`TitleHooks::run_setup`): distance rule, revenue rule, bonuses; the run check and the
//! route search start from the same [`RunSetup`].

use super::or_mut;
use crate::action::RouteSpec;
use crate::engine::map::{
    plain_revenue, BestRun, ContextRules, DistanceMode, RevenueHook, RouteError, RunContext,
    SearchError, SearchLimits, TrainRoute, TrainSpec,
};
use crate::engine::title::Ability;
use crate::engine::{DeviationKind, Game, RuleViolation};
use crate::ids::{CorpId, HexId, Money, TrainId};

impl Game {
    pub(super) fn route_step_waits(&mut self, corp: CorpId) -> bool {
        let has_train = self
            .corp(corp)
            .trains
            .iter()
            .any(|t| !self.trains.iter().any(|x| x.id == *t && x.operated));
        has_train && self.route_available(corp)
    }

    /// Whether the corporation has (or ever had) a route; remembered once true.
    pub(super) fn route_available(&mut self, corp: CorpId) -> bool {
        if self.corp(corp).route_seen {
            return true;
        }
        let available = self.board.route_available(self.title.map, corp);
        if available {
            self.corp_mut(corp).route_seen = true;
        }
        available
    }
}

pub(super) fn run_routes(
    game: &mut Game,
    corp: CorpId,
    routes: &[RouteSpec],
) -> Result<(), RuleViolation> {
    for (i, r) in routes.iter().enumerate() {
        if !game.corp(corp).trains.contains(&r.train) {
            return Err(RuleViolation::Route(format!(
                "{} does not own train {}",
                game.title.corp(corp).sym,
                game.train_name(r.train)
            )));
        }
        if routes[..i].iter().any(|o| o.train == r.train) {
            return Err(RuleViolation::Route(format!(
                "train {} runs twice",
                game.train_name(r.train)
            )));
        }
        if game.trains.iter().any(|t| t.id == r.train && t.operated) {
            return Err(RuleViolation::Route(format!(
                "train {} already ran this operating round",
                game.train_name(r.train)
            )));
        }
    }
    // Routes an older log states by their hexes: split into connections; one that no legal
    // route matches earns what the log states, as in 18xx.games, with a deviation.
    let mut trusted = Money::ZERO;
    let resolved: Vec<RouteSpec>;
    let checked: &[RouteSpec] = if routes.iter().all(|r| r.walk.is_empty()) {
        routes
    } else {
        let mut checked = Vec::with_capacity(routes.len());
        for (r, resolved) in routes.iter().zip(game.resolve_walks(corp, routes)) {
            match (resolved, r.revenue) {
                (Ok(spec), _) => checked.push(spec),
                (Err(verdict), Some(stated)) => {
                    trusted += stated;
                    game.deviate(
                        DeviationKind::UncheckedRoute,
                        format!(
                            "{}'s {} earns the stated {stated} on {} ({verdict})",
                            game.title.corp(corp).sym,
                            game.train_name(r.train),
                            r.walk
                                .iter()
                                .map(|h| h.to_string())
                                .collect::<Vec<_>>()
                                .join("-")
                        ),
                    );
                }
                (Err(verdict), None) => return Err(verdict),
            }
        }
        resolved = checked;
        &resolved
    };
    let revenues: Vec<Money> = game
        .run_revenues(corp, checked)
        .map_err(|e| RuleViolation::Route(e.to_string()))?;
    for (r, computed) in checked.iter().zip(&revenues) {
        if let Some(stated) = r.revenue {
            if stated != *computed {
                return Err(RuleViolation::ValueMismatch {
                    what: "route revenue",
                    recorded: stated.to_string(),
                    expected: computed.to_string(),
                });
            }
        }
    }
    for r in routes {
        if let Some(t) = game.trains.iter_mut().find(|t| t.id == r.train) {
            t.operated = true;
        }
    }
    or_mut(game).revenue = revenues.iter().copied().sum::<Money>() + trusted;
    Ok(())
}

/// A corporation's run rules at a state, owned (see [`Game::run_setup`]): what its title's
/// hook chose, with the bonuses the corporation's privates and markers give.
#[derive(Debug, Clone)]
pub struct RunSetup {
    /// What a train's distance counts.
    pub(crate) distance: DistanceMode,
    /// The title's rule applied to a route's stops.
    pub(crate) revenue: RevenueHook,
    /// Stops add the nodes they reach over narrow-only track.
    pub(crate) narrow_bonus: bool,
    /// Route bonuses of the hexes where the corporation's private markers lie.
    pub(crate) hex_bonuses: Vec<(HexId, Money)>,
    /// The two cities of a paired-city private the corporation owns.
    pub(crate) paired_cities: Option<[HexId; 2]>,
}

impl RunSetup {
    /// The context [`Board::compute_run_with`](crate::engine::map::Board::compute_run_with)
    /// and the route search take.
    pub fn context(&self) -> RunContext<'_> {
        RunContext {
            distance: self.distance,
            hook: self.revenue,
            narrow_bonus: self.narrow_bonus,
            hex_bonuses: &self.hex_bonuses,
            shannon: self.paired_cities,
        }
    }
}

impl Game {
    /// How `corp`'s runs are evaluated now: the title's run rules (its hook) with the bonuses
    /// its privates and markers give. The run check and the route search both start from it.
    pub fn run_setup(&self, corp: CorpId) -> RunSetup {
        self.title.hooks.run_setup(self, corp)
    }

    /// The generic run rules: trains count stops, a route earns the sum of its stops, plus
    /// the bonuses of the corporation's private markers and paired-city private.
    pub(crate) fn standard_run_setup(&self, corp: CorpId) -> RunSetup {
        RunSetup {
            distance: DistanceMode::Stops,
            revenue: plain_revenue,
            narrow_bonus: false,
            hex_bonuses: self.hex_bonuses(corp),
            paired_cities: self.paired_cities(corp),
        }
    }

    /// The revenue of each of `routes` run by `corp` on the current board and phase, as the
    /// run check computes it (validating each route).
    ///
    /// # Errors
    /// A route the rules reject.
    pub fn run_revenues(
        &self,
        corp: CorpId,
        routes: &[RouteSpec],
    ) -> Result<Vec<Money>, RouteError> {
        let trains: Vec<TrainRoute<'_>> = routes.iter().map(|r| self.train_route(r)).collect();
        let setup = self.run_setup(corp);
        Ok(self
            .board
            .compute_run_with(
                self.title.map,
                corp,
                &trains,
                self.phase_tile_colours(),
                &setup.context(),
            )?
            .into_iter()
            .map(|r| r.revenue)
            .collect())
    }

    /// A route with what its train may count and earn.
    pub fn train_route<'r>(&self, spec: &'r RouteSpec) -> TrainRoute<'r> {
        let search = self.train_spec(spec.train);
        TrainRoute {
            spec,
            distance: search.distance,
            diesel: search.diesel,
        }
    }

    /// A train as the route search takes it: what it counts, whether it earns diesel values
    /// (the reference's `route_base_revenue` asks for a train named D).
    pub fn train_spec(&self, train: TrainId) -> TrainSpec {
        let def = self.title.train(train.kind);
        TrainSpec {
            train,
            distance: u32::from(def.distance),
            diesel: def.name == "D",
        }
    }

    /// The routes with each walk (a route as an older log states it, see
    /// [`RouteSpec::walk`]) split into connections: the first split, trying the routes in
    /// order, that the run check accepts with the revenue the log states, if it states one.
    /// Routes with connections are kept as they are. A walk no split resolves gives the
    /// verdict on its first split (or on the walk, if none matches track) instead.
    pub fn resolve_walks(
        &self,
        corp: CorpId,
        routes: &[RouteSpec],
    ) -> Vec<Result<RouteSpec, RuleViolation>> {
        const SPLITS: usize = 64;
        let mut out: Vec<Result<RouteSpec, RuleViolation>> = Vec::with_capacity(routes.len());
        for r in routes {
            if r.walk.is_empty() {
                out.push(Ok(r.clone()));
                continue;
            }
            let resolved: Vec<RouteSpec> = out.iter().filter_map(|x| x.clone().ok()).collect();
            let mut first_failure = None;
            let mut chosen = None;
            for connections in self.board.split_walk(self.title.map, &r.walk, SPLITS) {
                let candidate = RouteSpec {
                    connections,
                    walk: Vec::new(),
                    ..r.clone()
                };
                let mut trial = resolved.clone();
                trial.push(candidate.clone());
                let verdict = match self.run_revenues(corp, &trial) {
                    Ok(revenues) => {
                        let computed = revenues[revenues.len() - 1];
                        match r.revenue {
                            Some(stated) if stated != computed => {
                                Err(RuleViolation::ValueMismatch {
                                    what: "route revenue",
                                    recorded: stated.to_string(),
                                    expected: computed.to_string(),
                                })
                            }
                            _ => Ok(()),
                        }
                    }
                    Err(e) => Err(RuleViolation::Route(e.kind.to_string())),
                };
                match verdict {
                    Ok(()) => {
                        chosen = Some(candidate);
                        break;
                    }
                    Err(e) => {
                        first_failure.get_or_insert(e);
                    }
                }
            }
            out.push(chosen.ok_or_else(|| {
                first_failure.unwrap_or_else(|| {
                    RuleViolation::Route(format!(
                        "no track walks {} from stop to stop",
                        r.walk
                            .iter()
                            .map(|h| h.to_string())
                            .collect::<Vec<_>>()
                            .join("-")
                    ))
                })
            }));
        }
        out
    }

    /// The best run of `trains` for `corp` on the current board and phase, by the same run
    /// rules as [`Game::run_revenues`].
    ///
    /// # Errors
    /// The network is too large for the search.
    pub fn best_run(
        &self,
        corp: CorpId,
        trains: &[TrainSpec],
        limits: SearchLimits,
    ) -> Result<BestRun, SearchError> {
        let setup = self.run_setup(corp);
        let colours = self.phase_tile_colours();
        let rules = ContextRules::new(setup.context(), &self.board, self.title.map, colours);
        self.board
            .best_run(self.title.map, corp, trains, colours, &rules, limits)
    }

    /// Route bonuses of hexes where a private's marker assigned to this corporation lies.
    fn hex_bonuses(&self, corp: CorpId) -> Vec<(HexId, Money)> {
        self.assignments
            .iter()
            .filter(|(_, owner, _)| *owner == corp)
            .filter_map(|(company, _, hex)| {
                self.company_abilities(*company)
                    .iter()
                    .find_map(|a| match a {
                        Ability::AssignHex { bonus, .. } => Some((*hex, *bonus)),
                        _ => None,
                    })
            })
            .collect()
    }

    /// The two cities of a paired-city private the corporation owns (River Shannon): one of
    /// its routes stopping at one of them earns the other's value too.
    fn paired_cities(&self, corp: CorpId) -> Option<[HexId; 2]> {
        self.corp(corp).companies.iter().find_map(|c| {
            if self.company(*c).closed {
                return None;
            }
            self.company_abilities(*c).iter().find_map(|a| match a {
                Ability::Shannon { hexes } => match hexes.as_slice() {
                    [a, b] => Some([a.parse().ok()?, b.parse().ok()?]),
                    _ => None,
                },
                _ => None,
            })
        })
    }
}
