//! Tile lays a private grants outside its owning corporation's tile actions, made by a
//! player: the player owner's own lay (1889 MF, the port tile: in a stock round, before the
//! operating corporation has acted in its turn, or in the track step of a corporation he
//! presides over) and the lay its seller makes once a corporation has bought it (1889 ER:
//! a green tile on Ohzu). Reference: the special-track steps (`SpecialTrack`,
//! `TrackLayWhenCompanySold`) and `ability_right_time?`.
//!
//! Neither lay needs a connection or counts as a tile action of a corporation; both pay the
//! terrain (none on 1889's hexes) as the reference charges it: the operating corporation, or
//! in a stock round the player in turn, for the owner's lay; the seller for the sold lay.

use crate::engine::map::LayRequest;
use crate::engine::state::CompanyOwner;
use crate::engine::title::{Ability, AbilityTime, OwnerKind};
use crate::engine::{Game, Round, RuleViolation};
use crate::ids::{CompanyId, CorpId, HexId, Money, PlayerId, Rotation, TileId};

/// A private's tile lay made by a player (its owner, or its seller).
#[derive(Debug, Clone, Copy)]
pub(crate) struct PlayerLayAbility<'a> {
    /// Where it may lay.
    pub(crate) hexes: &'a [String],
    /// Which tiles.
    pub(crate) tiles: &'a [String],
    /// When.
    pub(crate) when: &'a [AbilityTime],
}

impl<'a> PlayerLayAbility<'a> {
    /// The private's lay its player owner makes himself (`owner: player`), if it has one.
    pub(crate) fn owners(abilities: &'a [Ability]) -> Option<PlayerLayAbility<'a>> {
        Self::find(abilities, |when, owner| {
            owner == Some(OwnerKind::Player) && !when.contains(&AbilityTime::Sold)
        })
    }

    /// The private's lay its seller makes once a corporation has bought it, if it has one.
    pub(crate) fn sellers(abilities: &'a [Ability]) -> Option<PlayerLayAbility<'a>> {
        Self::find(abilities, |when, _| when.contains(&AbilityTime::Sold))
    }

    fn find(
        abilities: &'a [Ability],
        fits: impl Fn(&[AbilityTime], Option<OwnerKind>) -> bool,
    ) -> Option<PlayerLayAbility<'a>> {
        abilities.iter().find_map(|a| match a {
            Ability::TileLay {
                hexes,
                tiles,
                when,
                owner,
                ..
            } if fits(when, *owner) => Some(PlayerLayAbility { hexes, tiles, when }),
            _ => None,
        })
    }
}

impl Game {
    /// Whether the player owning `company` may use its lay ability now, by the ability's
    /// times: any time in a stock round (`stock_round`); in an operating round before the
    /// operating corporation has acted in its turn (`or_between_turns`), or in the track step
    /// of a corporation he presides over (`owning_player_track`).
    pub(crate) fn player_lay_time(&self, owner: PlayerId, when: &[AbilityTime]) -> bool {
        match &self.round {
            Round::Stock(_) => when.contains(&AbilityTime::StockRound),
            Round::Operating(o) => {
                let Some(corp) = o.current() else {
                    return false;
                };
                (when.contains(&AbilityTime::OrBetweenTurns) && !o.operator_acted)
                    || (when.contains(&AbilityTime::OwningPlayerTrack)
                        && self.corp(corp).president == Some(owner)
                        && o.track_ahead())
            }
            _ => false,
        }
    }

    /// The owning player of a private whose own lay ability is usable now, if it is.
    pub(crate) fn player_lay_usable(&self, company: CompanyId) -> Option<PlayerId> {
        let state = self.company(company);
        let CompanyOwner::Player(owner) = state.owner else {
            return None;
        };
        if state.closed || state.uses_left == 0 {
            return None;
        }
        let ability = PlayerLayAbility::owners(self.company_abilities(company))?;
        self.player_lay_time(owner, ability.when).then_some(owner)
    }
}

/// A player's lay with a private he owns (1889 MF).
///
/// # Errors
/// The private has no such ability, it is not usable now, or the lay breaks the ability's
/// or the map's rules.
pub(crate) fn owner_lay(
    game: &mut Game,
    company: CompanyId,
    hex: HexId,
    tile: TileId,
    rotation: Rotation,
) -> Result<(), RuleViolation> {
    let sym = &game.title.company(company).sym;
    let Some(ability) = PlayerLayAbility::owners(game.company_abilities(company)) else {
        return Err(RuleViolation::Company(format!(
            "{sym} cannot lay tiles now"
        )));
    };
    let state = game.company(company);
    let CompanyOwner::Player(owner) = state.owner else {
        return Err(RuleViolation::Company(format!(
            "{sym}'s lay is made by a player who owns it"
        )));
    };
    if state.closed || state.uses_left == 0 {
        return Err(RuleViolation::Company(format!(
            "{sym}'s tile lay has been used"
        )));
    }
    if !game.player_lay_time(owner, ability.when) {
        return Err(RuleViolation::Company(format!(
            "{sym}'s lay may be made in a stock round, before the operating corporation acts in \
             its turn, or in the track step of a corporation {} presides over",
            game.player(owner).name
        )));
    }
    // The reference charges its current entity: the operating corporation, or the player in
    // turn in a stock round.
    let payer = match &game.round {
        Round::Operating(o) => o.current().map(Payer::Corporation),
        Round::Stock(s) => s.acting(game).map(Payer::Player),
        _ => None,
    }
    .unwrap_or(Payer::Player(owner));
    lay_for_player(game, company, ability, (hex, tile, rotation), payer)?;
    game.companies[usize::from(company.0)].uses_left -= 1;
    if let Round::Operating(_) = game.round {
        game.skip_steps_after_private_lay();
    }
    Ok(())
}

/// The seller's lay once a corporation has bought the private (1889 ER), or its pass.
///
/// # Errors
/// The private has no such ability or the lay breaks the ability's or the map's rules.
pub(crate) fn seller_lay(
    game: &mut Game,
    company: CompanyId,
    seller: PlayerId,
    placement: (HexId, TileId, Rotation),
) -> Result<(), RuleViolation> {
    let Some(ability) = PlayerLayAbility::sellers(game.company_abilities(company)) else {
        return Err(RuleViolation::Company(format!(
            "{} has no lay for its seller",
            game.title.company(company).sym
        )));
    };
    lay_for_player(game, company, ability, placement, Payer::Player(seller))?;
    game.companies[usize::from(company.0)].uses_left = 0;
    Ok(())
}

/// Who pays the terrain of a lay made by a player.
#[derive(Debug, Clone, Copy)]
enum Payer {
    Player(PlayerId),
    Corporation(CorpId),
}

fn lay_for_player(
    game: &mut Game,
    company: CompanyId,
    ability: PlayerLayAbility<'_>,
    (hex, tile, rotation): (HexId, TileId, Rotation),
    payer: Payer,
) -> Result<(), RuleViolation> {
    let sym = &game.title.company(company).sym;
    if !ability
        .hexes
        .iter()
        .any(|h| h.parse::<HexId>().ok() == Some(hex))
    {
        return Err(RuleViolation::Company(format!(
            "{sym} may only lay on {}",
            ability.hexes.join(", ")
        )));
    }
    let map = game.title.map;
    if usize::from(tile.def.0) < map.tiles.len() {
        let name = &map.tile_def(tile.def).name;
        if !ability.tiles.is_empty() && !ability.tiles.contains(name) {
            return Err(RuleViolation::Company(format!(
                "{sym} may only lay tile {}",
                ability.tiles.join(" or ")
            )));
        }
    }
    let blocked = game.blocked_hexes();
    let colours = game.phase_tile_colours();
    let corp = match payer {
        Payer::Corporation(c) => c,
        // Read only for a connection or a corporation's rules, which this lay skips.
        Payer::Player(_) => CorpId(0),
    };
    let request = LayRequest {
        corp,
        hex,
        tile,
        rotation,
        phase_colours: colours,
        blocked_hexes: &blocked,
        check_connectivity: false,
        corporation_lay: false,
        exits_anywhere: false,
    };
    let outcome = game
        .board
        .check_lay(map, &request)
        .map_err(|e| RuleViolation::Track(e.to_string()))?;
    let cost = outcome.cost;
    if cost > Money::ZERO {
        let (who, cash) = match payer {
            Payer::Player(p) => (game.player(p).name.clone(), game.player(p).cash),
            Payer::Corporation(c) => (game.title.corp(c).sym.clone(), game.corp(c).cash),
        };
        if cash < cost {
            return Err(RuleViolation::InsufficientCash {
                who,
                available: cash,
                needed: cost,
            });
        }
        match payer {
            Payer::Player(p) => game.player_mut(p).cash -= cost,
            Payer::Corporation(c) => game.corp_mut(c).cash -= cost,
        }
        game.bank += cost;
    }
    game.lay_by_private(corp, hex, tile, rotation);
    Ok(())
}
