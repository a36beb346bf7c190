//! Tile lays: the corporation's own (every supply tile at every rotation the engine's rotation
//! predicate allows on a hex its network reaches) and its privates' lays.
//!
//! Two generators: without gauges (one tile action a turn, no new-track rule) lays are listed
//! straight from the rotation predicate; with gauges (the map data's `gauges`) a turn may have
//! several tile actions with fees and the new-track rule, and the lays come from the reach of
//! the broad or narrow network. The agreement tests replay every listed lay through `check`.

use super::{Gen, LegalAction};
use crate::action::Action;
use crate::action::Entity;
use crate::engine::map::{lay_outcome, Colour, HexIdx, NetworkRule};
use crate::engine::private_lay::PlayerLayAbility;
use crate::engine::title::Ability;
use crate::engine::Round;
use crate::ids::{CompanyId, CorpId, HexId, Money, Rotation, TileId};

impl Gen<'_> {
    /// The first copy of each tile definition still in the supply, in manifest order.
    pub(super) fn supply(&self) -> Vec<TileId> {
        let map = self.game.title.map;
        let mut out = Vec::new();
        for (d, def) in map.tiles.iter().enumerate() {
            if def.preprinted {
                continue;
            }
            let def_id = crate::ids::TileDefId(d as u16);
            if let Some(copy) = (0..def.copies().min(64))
                .find(|&copy| self.game.board.in_supply(TileId { def: def_id, copy }))
            {
                out.push(TileId { def: def_id, copy });
            }
        }
        out
    }

    /// The supply's tiles of the colours the phase allows.
    pub(super) fn phase_supply(&self) -> Vec<TileId> {
        let game = self.game;
        let colours = game.phase_tile_colours();
        self.supply()
            .into_iter()
            .filter(|t| colours.contains(&game.title.map.tile_def(t.def).colour))
            .collect()
    }

    pub(super) fn track(&mut self, corp: CorpId) {
        let game = self.game;
        let map = game.title.map;
        if map.rules.gauges {
            return self.gauge_track(corp);
        }
        let reach = game.board.reach(map, corp);
        let blocked = game.blocked_hexes();
        let cash = game.corp(corp).cash;
        let supply = self.phase_supply();
        for (h, hd) in map.hexes.iter().enumerate() {
            if reach.edges[h] == 0 || blocked.contains(&hd.id) {
                continue;
            }
            let hex = HexIdx(h as u16);
            let old = game.board.tile_def(map, hex);
            // The turn's next tile action must allow a lay (or an upgrade) here: the track
            // step may stay open after the last one (a private its president may still lay).
            let Ok(fee) = game.tile_action_fee(corp, old.colour != Colour::White) else {
                continue;
            };
            if fee + game.terrain_cost(corp, hd.id, Money(old.upgrade_cost)) > cash {
                continue;
            }
            for &tile in &supply {
                // Tiles only a private lays (1889's port) are not the corporation's.
                if map.tile_def(tile.def).blocks_lay {
                    continue;
                }
                let rotations = game.board.legal_rotations_with(
                    map,
                    hex,
                    tile,
                    Some(NetworkRule::track(&reach)),
                    false,
                );
                for r in 0..6u8 {
                    let adds = || {
                        !map.rules.semi_restrictive
                            || old.paths.is_empty()
                            || game.board.adds_track_or_value(map, corp, hex, tile, r)
                    };
                    if rotations & (1 << r) != 0 && adds() {
                        self.out.actions.push(LegalAction::exact(Action::LayTile {
                            entity: Entity::Corporation(corp),
                            hex: hd.id,
                            tile,
                            rotation: Rotation::new(r).unwrap_or_default(),
                        }));
                    }
                }
            }
        }
    }

    /// Tile lays through an owned private's ability (E-SF on B8), at any point of the turn.
    pub(super) fn special_lays(&mut self, corp: CorpId) {
        let game = self.game;
        let map = game.title.map;
        if map.rules.gauges {
            return self.gauge_special_lays(corp);
        }
        let supply = self.supply();
        for &company in &game.corp(corp).companies {
            if game.company(company).uses_left == 0 || game.company(company).closed {
                continue;
            }
            for ability in game.company_abilities(company) {
                let (hexes, tiles) = match ability {
                    // A teleport: the corporation's lay of the turn on the private's hex.
                    Ability::Teleport { hexes, tiles } => (hexes, tiles),
                    Ability::TileLay { hexes, tiles, .. } if ability.is_corporation_lay() => {
                        (hexes, tiles)
                    }
                    _ => continue,
                };
                for hex in hexes.iter().filter_map(|h| h.parse::<HexId>().ok()) {
                    let Some(h) = map.hex_index(hex) else {
                        continue;
                    };
                    for &tile in supply
                        .iter()
                        .filter(|t| tiles.contains(&map.tile_def(t.def).name))
                    {
                        let rotations = game.board.legal_rotations_with(map, h, tile, None, false);
                        for r in (0..6u8).filter(|r| rotations & (1 << r) != 0) {
                            self.push_checked(Action::LayTile {
                                entity: Entity::Company(company),
                                hex,
                                tile,
                                rotation: Rotation::new(r).unwrap_or_default(),
                            });
                        }
                    }
                }
            }
        }
    }

    /// Tile actions under gauge rules: every supply tile at every rotation the engine's
    /// rotation predicate allows on a hex the broad or narrow network reaches, when the turn
    /// still has a tile action of that kind (lay or upgrade) and the treasury pays its fee
    /// and the terrain.
    pub(super) fn gauge_track(&mut self, corp: CorpId) {
        for (hex, tile, rotation) in self.network_lays(corp, false, true) {
            self.out.actions.push(LegalAction::exact(Action::LayTile {
                entity: Entity::Corporation(corp),
                hex,
                tile,
                rotation,
            }));
        }
    }

    /// The corporation's own lays (see [`Gen::gauge_track`]); `free_terrain` for a private
    /// that waives it; `corporation_lay` for the corporation's own lays (not a private's, see
    /// [`crate::engine::map::LayRequest::corporation_lay`]).
    pub(super) fn network_lays(
        &self,
        corp: CorpId,
        free_terrain: bool,
        corporation_lay: bool,
    ) -> Vec<(HexId, TileId, Rotation)> {
        let game = self.game;
        let map = game.title.map;
        let reach = game.board.reach(map, corp);
        let blocked = game.blocked_hexes();
        let cash = game.corp(corp).cash;
        let supply = self.phase_supply();
        let mut out = Vec::new();
        for (h, hd) in map.hexes.iter().enumerate() {
            if reach.any_edges(h) == 0 || blocked.contains(&hd.id) {
                continue;
            }
            let hex = HexIdx(h as u16);
            let old = game.board.tile_def(map, hex);
            let Ok(fee) = game.tile_action_fee(corp, old.colour != Colour::White) else {
                continue;
            };
            for &tile in &supply {
                let terrain = if free_terrain {
                    Money::ZERO
                } else {
                    game.terrain_cost(
                        corp,
                        hd.id,
                        lay_outcome(map, old, map.tile_def(tile.def)).cost,
                    )
                };
                if fee + terrain > cash {
                    continue;
                }
                let rotations = game.board.legal_rotations_with(
                    map,
                    hex,
                    tile,
                    Some(NetworkRule::track(&reach)),
                    false,
                );
                for r in (0..6u8).filter(|r| rotations & (1 << r) != 0) {
                    if !corporation_lay
                        || old.paths.is_empty()
                        || game.board.adds_track_or_value(map, corp, hex, tile, r)
                    {
                        out.push((hd.id, tile, Rotation::new(r).unwrap_or_default()));
                    }
                }
            }
        }
        out
    }

    /// Lays through the corporation's privates: a lay that is one of the corporation's tile
    /// actions (BoW, track step only), or an extra lay on the private's hexes (DR, TDR, DCR,
    /// the Irish Mail's red tile on a blue hex), which needs no connection.
    pub(super) fn gauge_special_lays(&mut self, corp: CorpId) {
        let game = self.game;
        let map = game.title.map;
        let Round::Operating(o) = &game.round else {
            return;
        };
        let supply = self.supply();
        for &company in &game.corp(corp).companies {
            let state = game.company(company);
            if state.uses_left == 0 || state.closed {
                continue;
            }
            let entity = Entity::Company(company);
            for ability in game.company_abilities(company) {
                if !ability.is_corporation_lay() {
                    continue;
                }
                let Ability::TileLay {
                    hexes,
                    tiles,
                    free,
                    consumes_tile_lay,
                    connected,
                    ..
                } = ability
                else {
                    continue;
                };
                if *consumes_tile_lay {
                    // One of the corporation's lays, usable while the track step is ahead
                    // (BoW's in the issue step too).
                    if !o.track_ahead() {
                        continue;
                    }
                    for (hex, tile, rotation) in self.network_lays(corp, *free, false) {
                        let on_hex = hexes.is_empty()
                            || hexes.iter().any(|x| x.parse::<HexId>().ok() == Some(hex));
                        let name = &map.tile_def(tile.def).name;
                        if on_hex && (tiles.is_empty() || tiles.contains(name)) {
                            self.push_unique(LegalAction::exact(Action::LayTile {
                                entity,
                                hex,
                                tile,
                                rotation,
                            }));
                        }
                    }
                    continue;
                }
                for hex in hexes.iter().filter_map(|h| h.parse::<HexId>().ok()) {
                    let Some(h) = map.hex_index(hex) else {
                        continue;
                    };
                    let old = game.board.tile_def(map, h);
                    for &tile in supply
                        .iter()
                        .filter(|t| tiles.is_empty() || tiles.contains(&map.tile_def(t.def).name))
                    {
                        let new = map.tile_def(tile.def);
                        let irish_mail = map.rules.red_on_blue
                            && old.colour == Colour::Blue
                            && new.colour == Colour::Red;
                        let reach = connected.then(|| game.board.reach(map, corp));
                        let network = reach.as_deref().map(|reach| NetworkRule {
                            reach,
                            exits_anywhere: true,
                        });
                        let rotations = game.board.legal_rotations_with(
                            map,
                            h,
                            tile,
                            network,
                            irish_mail && !connected,
                        );
                        for r in (0..6u8).filter(|r| rotations & (1 << r) != 0) {
                            self.push_checked(Action::LayTile {
                                entity,
                                hex,
                                tile,
                                rotation: Rotation::new(r).unwrap_or_default(),
                            });
                        }
                    }
                }
            }
        }
    }

    /// A private's lays made by a player (see [`crate::engine::private_lay`]): every supply
    /// tile of the ability at every rotation on its hexes, kept if `check` accepts it.
    pub(super) fn private_lays(&mut self, company: CompanyId, hexes: &[String], tiles: &[String]) {
        let game = self.game;
        let map = game.title.map;
        let supply = self.supply();
        for hex in hexes.iter().filter_map(|h| h.parse::<HexId>().ok()) {
            let Some(h) = map.hex_index(hex) else {
                continue;
            };
            for &tile in supply
                .iter()
                .filter(|t| tiles.is_empty() || tiles.contains(&map.tile_def(t.def).name))
            {
                let rotations = game.board.legal_rotations_with(map, h, tile, None, false);
                for r in (0..6u8).filter(|r| rotations & (1 << r) != 0) {
                    self.push_checked(Action::LayTile {
                        entity: Entity::Company(company),
                        hex,
                        tile,
                        rotation: Rotation::new(r).unwrap_or_default(),
                    });
                }
            }
        }
    }

    /// The lays players may make now with privates they own (1889 MF), in any round.
    pub(super) fn owner_lays(&mut self) {
        let game = self.game;
        for i in 0..game.companies.len() {
            let company = CompanyId(i as u8);
            if game.player_lay_usable(company).is_none() {
                continue;
            }
            if let Some(ability) = PlayerLayAbility::owners(game.company_abilities(company)) {
                self.private_lays(company, ability.hexes, ability.tiles);
            }
        }
    }
}
