//! The track step: the corporation's tile actions (the title's `tile_lays`: lay or upgrade,
//! fees, no lay after an upgrade), terrain costs, hexes blocked by privates
//! (rules-and-format B.1 "Operating round" 3, C.5 for upgrades, D.12 for the tile supply).

use super::{or, or_mut, pay_corp, LiftedToken};
use crate::engine::map::LayRequest;
use crate::engine::state::CompanyOwner;
use crate::engine::title::{Ability, AbilityTime};
use crate::engine::{Game, Round, RuleViolation};
use crate::ids::{CompanyId, CorpId, HexId, Money, Rotation, TileId};

impl Game {
    /// Whether the track step still waits: the first tile action always; a later one while the
    /// title allows it (not after an upgrade unless Dargan's ability) and its fee is affordable.
    pub(super) fn track_step_waits(&self, corp: CorpId) -> bool {
        // Reference `Tracker#can_lay_tile?`: a track-timed lay ability of the corporation's own
        // private, or one it could buy now, keeps the step open.
        if self.has_track_ability(corp)
            || self.could_buy_track_private(corp)
            || self.president_has_track_lay(corp)
        {
            return true;
        }
        let lays = &or(self).lays;
        let Some(rule) = self.title.tile_lays.get(lays.len()) else {
            return false;
        };
        if lays.is_empty() {
            return true;
        }
        let upgraded = lays.iter().any(|u| *u);
        let may_lay = !(rule.not_if_upgraded && upgraded);
        let may_upgrade = rule.upgrade || self.second_upgrade_fee(corp).is_some();
        (may_lay || may_upgrade) && self.corp(corp).cash >= rule.cost
    }

    fn is_track_lay_ability(ability: &Ability) -> bool {
        matches!(ability, Ability::TileLay { when, .. } if when.contains(&AbilityTime::Track))
    }

    fn has_track_ability(&self, corp: CorpId) -> bool {
        self.corp(corp).companies.iter().any(|c| {
            !self.company(*c).closed
                && self.company(*c).uses_left > 0
                && self.company_abilities(*c).iter().any(|a| {
                    Self::is_track_lay_ability(a)
                        && !matches!(
                            a,
                            Ability::TileLay {
                                consumes_tile_lay: true,
                                ..
                            }
                        )
                })
        })
    }

    /// Whether the corporation's president owns a private whose lay he may make in its track
    /// step (1889 MF): the reference counts such an ability among the corporation's own
    /// (`Corporation#all_abilities` adds the president's `owning_player` ones), so the step
    /// waits for it, or for a pass.
    fn president_has_track_lay(&self, corp: CorpId) -> bool {
        let Some(president) = self.corp(corp).president else {
            return false;
        };
        self.player(president).companies.iter().any(|&c| {
            let state = self.company(c);
            !state.closed
                && state.uses_left > 0
                && crate::engine::private_lay::PlayerLayAbility::owners(self.company_abilities(c))
                    .is_some_and(|a| a.when.contains(&AbilityTime::OwningPlayerTrack))
        })
    }

    fn could_buy_track_private(&self, corp: CorpId) -> bool {
        self.companies_buyable()
            && (0..self.companies.len())
                .map(|i| CompanyId(i as u8))
                .any(|c| {
                    matches!(self.company(c).owner, CompanyOwner::Player(_))
                        && !self.company(c).closed
                        && !self.company_no_buy(c)
                        && Money((self.company(c).value.0 + 1) / 2) <= self.corp(corp).cash
                        && self
                            .company_abilities(c)
                            .iter()
                            .any(Self::is_track_lay_ability)
                })
    }

    /// The fee for an upgrade as a later tile action, when a private allows it (William Dargan).
    fn second_upgrade_fee(&self, corp: CorpId) -> Option<Money> {
        self.corp(corp).companies.iter().find_map(|c| {
            self.company_abilities(*c).iter().find_map(|a| match a {
                Ability::SecondUpgrade { cost } if !self.company(*c).closed => Some(*cost),
                _ => None,
            })
        })
    }

    /// Hexes blocked by privates that no corporation owns: a player's, or one still unsold
    /// (reference: a player-owned ability also counts while the private has no owner; an
    /// 18Ireland private left in the bank after the auction keeps blocking).
    pub(crate) fn blocked_hexes(&self) -> Vec<HexId> {
        let mut out = Vec::new();
        for (i, c) in self.companies.iter().enumerate() {
            if c.closed || matches!(c.owner, CompanyOwner::Corporation(_)) {
                continue;
            }
            for a in self.company_abilities(CompanyId(i as u8)) {
                if let Ability::BlocksHexes { hexes } = a {
                    out.extend(hexes.iter().filter_map(|h| h.parse::<HexId>().ok()));
                }
            }
        }
        out
    }
}

pub(super) fn lay_tile(
    game: &mut Game,
    corp: CorpId,
    hex: HexId,
    tile: TileId,
    rotation: Rotation,
) -> Result<(), RuleViolation> {
    // Reference quirk: a corporation's own lay that lifts tokens off a trackless multi-city
    // tile (18Ireland Belfast J4, 1836Jr30's two-city hexes) has its graph computed
    // (`check_track_restrictions!`) while the tokens still stand in the new tile's cities,
    // and a route seen then stays cached (D.1) even if the token is put back in a city
    // without track. Private and teleport lays skip that check. By the rules such a
    // corporation has no route, but the reference keeps offering it the route step, so we do
    // too. This is the reference's strict (live) processing, which the oracle's verdicts use;
    // a reloaded game (`Engine::Game.load`) skips that check and so never caches the route.
    let route_before_lift = game.title.map.hex_index(hex).is_some_and(|at| {
        game.board
            .route_before_lift(game.title.map, at, tile, rotation, corp)
    });
    lay_tile_with(game, corp, hex, tile, rotation, LayBy::Corporation)?;
    if route_before_lift {
        game.corp_mut(corp).route_seen = true;
    }
    Ok(())
}

/// Who makes a tile action of the corporation's turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum LayBy {
    Corporation,
    /// A private whose lay is one of the corporation's tile actions (BoW), and whether it pays
    /// the terrain.
    Private {
        waive_terrain: bool,
    },
}

/// A tile action of the corporation's turn.
pub(super) fn lay_tile_with(
    game: &mut Game,
    corp: CorpId,
    hex: HexId,
    tile: TileId,
    rotation: Rotation,
    by: LayBy,
) -> Result<(), RuleViolation> {
    let blocked = game.blocked_hexes();
    let colours = game.phase_tile_colours();
    let request = LayRequest {
        corp,
        hex,
        tile,
        rotation,
        phase_colours: colours,
        blocked_hexes: &blocked,
        check_connectivity: true,
        exits_anywhere: false,
        corporation_lay: by == LayBy::Corporation,
    };
    let outcome = game
        .board
        .check_lay(game.title.map, &request)
        .map_err(|e| RuleViolation::Track(e.to_string()))?;
    let fee = game.tile_action_fee(corp, outcome.upgrade)?;
    let terrain = if by
        == (LayBy::Private {
            waive_terrain: true,
        }) {
        Money::ZERO
    } else {
        game.terrain_cost(corp, hex, outcome.cost)
    };
    pay_corp(game, corp, fee + terrain)?;
    game.lay_checked(corp, hex, tile, rotation);
    or_mut(game).lays.push(outcome.upgrade);
    Ok(())
}

impl Game {
    /// The terrain `corp` pays to lay on `hex`: `cost` less the discounts of its privates for
    /// exactly the hex's terrain (1889 SMR: mountains without a river; the reference's
    /// `TileDiscount` matches the terrain list exactly by default), never below zero.
    pub(crate) fn terrain_cost(&self, corp: CorpId, hex: HexId, cost: Money) -> Money {
        let map = self.title.map;
        let Some(index) = map.hex_index(hex) else {
            return cost;
        };
        let mut terrain = self.board.tile_def(map, index).terrain.clone();
        terrain.sort();
        terrain.dedup();
        let discount: Money = self
            .corp(corp)
            .companies
            .iter()
            .filter(|c| !self.company(**c).closed)
            .flat_map(|c| self.company_abilities(*c))
            .filter_map(|a| match a {
                Ability::TileDiscount {
                    discount,
                    terrain: t,
                } if terrain.len() == 1 && terrain[0] == *t => Some(*discount),
                _ => None,
            })
            .sum();
        Money((cost.0 - discount.0).max(0))
    }

    /// Lays a tile a player's private lay has checked (no tile action of a corporation).
    pub(crate) fn lay_by_private(
        &mut self,
        corp: CorpId,
        hex: HexId,
        tile: TileId,
        rotation: Rotation,
    ) {
        self.lay_checked(corp, hex, tile, rotation);
    }

    /// Which tile action of the turn the next lay is, and what it may be and cost: the fee
    /// for a lay (`upgrade` false) or an upgrade, or why the corporation may not make it.
    pub(crate) fn tile_action_fee(
        &self,
        corp: CorpId,
        upgrade: bool,
    ) -> Result<Money, RuleViolation> {
        let done = &or(self).lays;
        let Some(rule) = self.title.tile_lays.get(done.len()).copied() else {
            return Err(RuleViolation::Track(format!(
                "{} has no tile action left this turn",
                self.title.corp(corp).sym
            )));
        };
        let upgraded_before = done.iter().any(|u| *u);
        if upgrade && !done.is_empty() {
            match (rule.upgrade, self.second_upgrade_fee(corp)) {
                (true, _) => Ok(rule.cost),
                (false, Some(fee)) => Ok(fee),
                (false, None) => Err(RuleViolation::Track(
                    "this tile action may only lay a new tile, not upgrade".into(),
                )),
            }
        } else if !upgrade && rule.not_if_upgraded && upgraded_before {
            Err(RuleViolation::Track(
                "no further tile may be laid after an upgrade this turn".into(),
            ))
        } else {
            Ok(rule.cost)
        }
    }

    /// Lays a tile already checked for `corp`; tokens lifted from a multi-city tile are put
    /// back in order, each by `corp` (18xx.games lets the operating corporation choose the city
    /// of every lifted token, its own or another's).
    pub(crate) fn lay_checked(
        &mut self,
        corp: CorpId,
        hex: HexId,
        tile: TileId,
        rotation: Rotation,
    ) {
        let map = self.title.map;
        if let Some(index) = map.hex_index(hex) {
            let lifted = self.board.lay(map, index, tile, rotation);
            self.forget_token_reach();
            if let Round::Operating(o) = &mut self.round {
                o.pending_tokens
                    .extend(lifted.into_iter().map(|owner| LiftedToken {
                        owner,
                        hex,
                        placer: corp,
                    }));
            }
        }
    }
}
