//! Privates in the operating round: corporations buying them from players (the phase's
//! `can_buy_companies`, between half and twice the face value), and the abilities the owning
//! corporation uses (rules-and-format B.1 privates table, B.3.2): extra and normal tile lays,
//! a teleport lay with its free token, bonus markers.

use super::token::place_free_token_on;
use super::track::{lay_tile_with, LayBy};
use super::{or, or_mut, pay_corp, OrStep};
use crate::action::Action;
use crate::engine::map::LayRequest;
use crate::engine::private_lay::PlayerLayAbility;
use crate::engine::state::CompanyOwner;
use crate::engine::title::{Ability, AbilityTime};
use crate::engine::{Game, RuleViolation};
use crate::ids::{CompanyId, CorpId, HexId, Money, Rotation, TileId};

impl Game {
    pub(super) fn companies_buyable(&self) -> bool {
        self.title.phases[self.phase].can_buy_companies
    }

    pub(super) fn company_step_waits(&self, corp: CorpId) -> bool {
        let cash = self.corp(corp).cash;
        if self.companies_buyable() {
            let any = (0..self.companies.len())
                .map(|i| CompanyId(i as u8))
                .any(|c| {
                    matches!(self.company(c).owner, CompanyOwner::Player(_))
                        && !self.company(c).closed
                        && !self.company_no_buy(c)
                        && Money((self.company(c).value.0 + 1) / 2) <= cash
                });
            if any {
                return true;
            }
        }
        // An unused ability usable any time in the owner's turn (E-SF's lay, a bonus marker not
        // yet assigned) keeps the step open; track-timed lays and CdH's teleport do not.
        self.corp(corp).companies.iter().any(|c| {
            !self.company(*c).closed
                && self.company_abilities(*c).iter().any(|a| match a {
                    Ability::TileLay { when, .. } => {
                        when.contains(&AbilityTime::OwningCorpOrTurn)
                            && self.company(*c).uses_left > 0
                    }
                    Ability::AssignHex { .. } => true,
                    _ => false,
                })
        })
    }

    pub(crate) fn company_no_buy(&self, company: CompanyId) -> bool {
        self.company(company).neutered
            || self
                .company_abilities(company)
                .iter()
                .any(|a| matches!(a, Ability::NoBuy))
    }
}

/// Places a private's bonus marker (18Ireland CDSPC, TASPS) for its owning corporation; the
/// private closes.
pub(super) fn assign(game: &mut Game, company: CompanyId, hex: HexId) -> Result<(), RuleViolation> {
    let def = game.title.company(company);
    let Some(hexes) = game
        .company_abilities(company)
        .iter()
        .find_map(|a| match a {
            Ability::AssignHex { hexes, .. } => Some(hexes.clone()),
            _ => None,
        })
    else {
        return Err(RuleViolation::Company(format!(
            "{} has no marker to assign",
            def.sym
        )));
    };
    let CompanyOwner::Corporation(owner) = game.company(company).owner else {
        return Err(RuleViolation::Company(format!(
            "{}'s marker is assigned by the corporation that owns it",
            def.sym
        )));
    };
    if game.company(company).closed {
        return Err(RuleViolation::Company(format!("{} is closed", def.sym)));
    }
    // Reference: the marker ability's time is the owning corporation's turn.
    if or(game).current() != Some(owner) {
        return Err(RuleViolation::Company(format!(
            "{}'s marker is assigned only in {}'s turn",
            def.sym,
            game.title.corp(owner).sym
        )));
    }
    if !hexes.iter().any(|h| h.parse::<HexId>().ok() == Some(hex)) {
        return Err(RuleViolation::Company(format!(
            "{}'s marker goes on {}, not {hex}",
            def.sym,
            hexes.join(", ")
        )));
    }
    game.assignments.push((company, owner, hex));
    game.close_company(company);
    Ok(())
}

pub(super) fn special_lay(
    game: &mut Game,
    corp: CorpId,
    company: CompanyId,
    hex: HexId,
    tile: TileId,
    rotation: Rotation,
) -> Result<(), RuleViolation> {
    let def = game.title.company(company);
    let Some(ability) = LayAbility::of(game.company_abilities(company)) else {
        return Err(RuleViolation::Company(format!(
            "{} cannot lay tiles",
            def.sym
        )));
    };
    let LayAbility { kind, together, .. } = ability;
    check_lay_place(game, company, &ability, hex, tile)?;
    let laid_before: Vec<HexId> = match &or(game).together {
        Some((c, laid)) if *c == company => laid.clone(),
        _ => Vec::new(),
    };
    check_lays_join(game, company, &ability, &laid_before, hex, tile, rotation)?;
    check_lay_time(game, company, &ability)?;
    let map = game.title.map;
    let upgrade = map
        .hex_index(hex)
        .is_some_and(|h| game.board.tile_def(map, h).colour != crate::engine::map::Colour::White);
    match kind {
        SpecialLay::Lay {
            free,
            consumes: true,
            ..
        } => lay_tile_with(
            game,
            corp,
            hex,
            tile,
            rotation,
            LayBy::Private {
                waive_terrain: free,
            },
        )?,
        SpecialLay::Lay {
            free,
            consumes: false,
            connected,
            ..
        } => extra_lay(game, corp, hex, tile, rotation, free, connected)?,
        SpecialLay::Teleport => {
            // The corporation's tile action of the turn (reference `lay_tile_action`): it
            // must still have one.
            let fee = game.tile_action_fee(corp, upgrade)?;
            extra_lay(game, corp, hex, tile, rotation, false, false)?;
            pay_corp(game, corp, fee)?;
        }
    }
    game.companies[company.0 as usize].uses_left -= 1;
    if together.is_some() {
        let left = game.company(company).uses_left;
        let mut laid = laid_before;
        laid.push(hex);
        or_mut(game).together = (left > 0).then_some((company, laid));
    }
    if let SpecialLay::Lay { closes: true, .. } = kind {
        if game.company(company).uses_left == 0 {
            game.close_company(company);
        }
    }
    match kind {
        SpecialLay::Teleport => {
            // The teleport is the corporation's tile action of the turn (reference
            // `lay_tile_action`); the track step stays open only while something else may
            // still lay (18Chesapeake: B&S's lays when the same corporation owns it).
            or_mut(game).lays.push(upgrade);
            if or(game).step == OrStep::Track && !game.track_step_waits(corp) {
                game.next_or_step();
            }
            if game.corp(corp).tokens_unused > 0 {
                or_mut(game).teleport = Some((company, hex));
            }
        }
        SpecialLay::Lay { consumes: true, .. } => {
            // Laid ahead of the track step (in the issue step), the lay is counted and the
            // track step comes when the issue step ends.
            if or(game).step == OrStep::Track && !game.track_step_waits(corp) {
                game.next_or_step();
            }
        }
        SpecialLay::Lay { .. } => {}
    }
    game.skip_steps();
    Ok(())
}

/// A private's tile-lay ability, as [`special_lay`] checks it.
struct LayAbility {
    /// Where it may lay (anywhere when empty).
    hexes: Vec<String>,
    /// Which tiles (any when empty).
    tiles: Vec<String>,
    kind: SpecialLay,
    /// The hex its first lay must be on, and its number of lays.
    first: Option<(String, u8)>,
    /// Its number of lays, when they must be made together.
    together: Option<u8>,
    /// Usable only while the track step is ahead.
    track_timed: bool,
}

impl LayAbility {
    /// The private's lay ability, if it has one. E-SF's, DR's, TDR's, DCR's and TIM's lays
    /// are extra; BoW's is one of the corporation's normal lays without terrain; CdH's
    /// teleport is the corporation's lay for the turn, pays the terrain and is followed by
    /// a free station token there.
    fn of(abilities: &[Ability]) -> Option<LayAbility> {
        let mut first = None;
        let mut together = None;
        let mut track_timed = false;
        let (hexes, tiles, kind) = abilities.iter().find_map(|a| match a {
            a @ Ability::TileLay { .. } if !a.is_corporation_lay() => None,
            Ability::TileLay {
                hexes,
                tiles,
                free,
                consumes_tile_lay,
                closes_when_used,
                connected,
                count,
                first_hex,
                must_lay_together,
                when,
                ..
            } => Some((
                {
                    track_timed = when.contains(&AbilityTime::Track);
                    first = first_hex.as_ref().map(|h| (h.clone(), *count));
                    together = (*must_lay_together && !*consumes_tile_lay).then_some(*count);
                    hexes.clone()
                },
                tiles.clone(),
                SpecialLay::Lay {
                    free: *free,
                    consumes: *consumes_tile_lay,
                    closes: *closes_when_used,
                    connected: *connected,
                },
            )),
            Ability::Teleport { hexes, tiles } => {
                Some((hexes.clone(), tiles.clone(), SpecialLay::Teleport))
            }
            _ => None,
        })?;
        Some(LayAbility {
            hexes,
            tiles,
            kind,
            first,
            together,
            track_timed,
        })
    }
}

/// Whether the private has a lay left, and the hex and tile are ones it may lay.
fn check_lay_place(
    game: &Game,
    company: CompanyId,
    ability: &LayAbility,
    hex: HexId,
    tile: TileId,
) -> Result<(), RuleViolation> {
    let def = game.title.company(company);
    if game.company(company).uses_left == 0 {
        return Err(RuleViolation::Company(format!(
            "{}'s tile lays have been used",
            def.sym
        )));
    }
    if !ability.hexes.is_empty()
        && !ability
            .hexes
            .iter()
            .any(|h| h.parse::<HexId>().ok() == Some(hex))
    {
        return Err(RuleViolation::Company(format!(
            "{} may only lay on {}",
            def.sym,
            ability.hexes.join(", ")
        )));
    }
    if let Some((first_hex, count)) = &ability.first {
        // The reference offers no neighbours to the first lay elsewhere (and fails on it).
        if game.company(company).uses_left == *count && first_hex.parse::<HexId>().ok() != Some(hex)
        {
            return Err(RuleViolation::Company(format!(
                "{}'s first lay must be on {first_hex}",
                def.sym
            )));
        }
    }
    let tile_name = game.title.map.tile_def(tile.def).name.clone();
    if !ability.tiles.is_empty() && !ability.tiles.contains(&tile_name) {
        return Err(RuleViolation::Company(format!(
            "{} may only lay tile {}",
            def.sym,
            ability.tiles.join(" or ")
        )));
    }
    Ok(())
}

/// A private's lays made together join each other.
fn check_lays_join(
    game: &Game,
    company: CompanyId,
    ability: &LayAbility,
    laid_before: &[HexId],
    hex: HexId,
    tile: TileId,
    rotation: Rotation,
) -> Result<(), RuleViolation> {
    let def = game.title.company(company);
    // The reference (special track `check_connect`, on by default for lays on two or more
    // hexes) wants the lays made together to join: the new tile's track must meet an earlier
    // one's across their common edge.
    if ability.together.is_some_and(|count| count >= 2)
        && ability.hexes.len() >= 2
        && !laid_before.is_empty()
    {
        let map = game.title.map;
        let exits_at = |h: crate::engine::map::HexIdx| {
            let (t, r) = game.board.tile_at(h);
            map.tile_def(t.def).exits(r.get())
        };
        let joins = map.hex_index(hex).is_some_and(|h| {
            let new = map.tile_def(tile.def).exits(rotation.get());
            (0..6u8).filter(|e| new & (1 << e) != 0).any(|e| {
                game.board.neighbour(map, h, e).is_some_and(|n| {
                    laid_before.iter().any(|l| map.hex_index(*l) == Some(n))
                        && exits_at(n) & (1 << ((e + 3) % 6)) != 0
                })
            })
        });
        if !joins {
            return Err(RuleViolation::Company(format!(
                "{}'s lays must join each other",
                def.sym
            )));
        }
    }
    Ok(())
}

/// The lay comes at a time the ability allows: a track-timed one while the track step is
/// ahead, one that is a normal lay in the track step.
fn check_lay_time(
    game: &Game,
    company: CompanyId,
    ability: &LayAbility,
) -> Result<(), RuleViolation> {
    let def = game.title.company(company);
    let uses_normal_lay = matches!(
        ability.kind,
        SpecialLay::Teleport | SpecialLay::Lay { consumes: true, .. }
    );
    let track_ahead = or(game).track_ahead();
    if ability.track_timed && !uses_normal_lay && !track_ahead {
        // Reference `ability_right_time?`: a track-timed ability is usable while the track
        // step is the first of the turn's blocking steps not yet passed (issues come before).
        return Err(RuleViolation::Company(format!(
            "{}'s lays belong to the track step, and that step is over",
            def.sym
        )));
    }
    // Reference `ability_blocking_step`: a lay that takes one of the corporation's own is
    // usable while the track step is still ahead, so also in an issue step before it.
    let consumes_lay = matches!(ability.kind, SpecialLay::Lay { consumes: true, .. });
    let step_allows = if consumes_lay {
        track_ahead
    } else {
        or(game).step == OrStep::Track
    };
    if uses_normal_lay && !step_allows {
        return Err(RuleViolation::Company(format!(
            "{}'s lay is one of the corporation's tile actions, and the track step is over",
            def.sym
        )));
    }
    Ok(())
}

/// What kind of lay a private grants.
#[derive(Debug, Clone, Copy)]
enum SpecialLay {
    Lay {
        free: bool,
        consumes: bool,
        closes: bool,
        connected: bool,
    },
    Teleport,
}

/// A lay outside the corporation's tile actions: no connection needed unless the private
/// asks for one (18Ireland DCR: its hex reached by the corporation's network, its track need
/// not join it, as in the reference); terrain paid unless the private waives it.
fn extra_lay(
    game: &mut Game,
    corp: CorpId,
    hex: HexId,
    tile: TileId,
    rotation: Rotation,
    free: bool,
    connected: bool,
) -> Result<(), RuleViolation> {
    let colours = game.phase_tile_colours();
    let request = LayRequest {
        corp,
        hex,
        tile,
        rotation,
        phase_colours: colours,
        blocked_hexes: &[],
        check_connectivity: connected,
        exits_anywhere: true,
        corporation_lay: false,
    };
    let outcome = game
        .board
        .check_lay(game.title.map, &request)
        .map_err(|e| RuleViolation::Track(e.to_string()))?;
    if !free {
        let cost = game.terrain_cost(corp, hex, outcome.cost);
        pay_corp(game, corp, cost)?;
    }
    game.lay_checked(corp, hex, tile, rotation);
    Ok(())
}

/// The free token after a teleport lay (reference `SpecialToken`): placed on the teleport hex
/// from the corporation's charter, or declined.
pub(super) fn teleport_token(
    game: &mut Game,
    corp: CorpId,
    action: &Action,
) -> Result<(), RuleViolation> {
    let Some((company, hex)) = or(game).teleport else {
        return Err(RuleViolation::Company(
            "no teleport token is pending".into(),
        ));
    };
    match action {
        Action::PlaceToken {
            city, slot, cost, ..
        } => {
            let what = format!("{}'s token", game.title.company(company).sym);
            place_free_token_on(game, corp, hex, *city, (*slot, *cost), &what)?;
            game.corp_mut(corp).tokens_unused -= 1;
            or_mut(game).teleport = None;
            or_mut(game).tokened = true;
            // The teleport token is the corporation's token for the turn.
            if or(game).step == OrStep::Token {
                game.next_or_step();
            }
        }
        Action::Pass { .. } => or_mut(game).teleport = None,
        _ => {
            return Err(RuleViolation::WrongStep {
                action: action.type_name(),
                step: "teleport token",
                allowed: "place_token, pass".into(),
            })
        }
    }
    game.skip_steps();
    Ok(())
}

pub(super) fn buy_company(
    game: &mut Game,
    corp: CorpId,
    company: CompanyId,
    price: Money,
) -> Result<(), RuleViolation> {
    let sym = game.title.company(company).sym.clone();
    if !game.companies_buyable() {
        return Err(RuleViolation::Company(format!(
            "corporations may not buy privates in phase {}",
            game.phase_name()
        )));
    }
    let CompanyOwner::Player(seller) = game.company(company).owner else {
        return Err(RuleViolation::Company(format!(
            "{sym} is not owned by a player"
        )));
    };
    if game.company(company).closed || game.company_no_buy(company) {
        return Err(RuleViolation::Company(format!(
            "{sym} cannot be bought by a corporation"
        )));
    }
    let value = game.company(company).value;
    let (min, max) = (Money((value.0 + 1) / 2), Money(value.0 * 2));
    if price < min || price > max {
        return Err(RuleViolation::Company(format!(
            "{sym} costs between {min} and {max}, not {price}"
        )));
    }
    if game.corp(corp).cash < price {
        return Err(RuleViolation::InsufficientCash {
            who: game.title.corp(corp).sym.clone(),
            available: game.corp(corp).cash,
            needed: price,
        });
    }
    game.corp_mut(corp).cash -= price;
    game.player_mut(seller).cash += price;
    game.player_mut(seller).companies.retain(|c| *c != company);
    game.corp_mut(corp).companies.push(company);
    game.companies[company.0 as usize].owner = CompanyOwner::Corporation(corp);
    let abilities = game.company_abilities(company);
    if PlayerLayAbility::sellers(abilities).is_some() && game.company(company).uses_left > 0 {
        or_mut(game).sold_lay = Some((company, seller));
    }
    Ok(())
}
