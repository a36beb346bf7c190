//! Legal-move generation for what 1836Jr30 does not have (18Ireland): minor auctions in the
//! stock round, the home-city choice of a started major, track under gauge rules with the
//! two tile actions of a turn, the privates' lays and bonus markers, and the merger round.
//!
//! As in the parent module, candidates come from the engine's own predicates; the ones whose
//! legality is not an interval or a plain predicate are kept only if `check` accepts them.

use super::{Gen, LegalAction};
use crate::action::{Action, BidTarget, Entity};
use crate::engine::map::{lay_outcome, Colour, HexIdx, Reach};
use crate::engine::operating::OrStep;
use crate::engine::state::CompanyOwner;
use crate::engine::title::Ability;
use crate::engine::Round;
use crate::ids::{CityRef, CompanyId, CorpId, HexId, Money, PlayerId, Rotation, TileId};

/// Minor-auction bids rise in steps of this (reference `min_increment`).
const MINOR_BID_STEP: Money = Money(5);

impl Gen<'_> {
    // ----- stock round --------------------------------------------------------------------

    /// The stock-round states that are not a player's normal turn: a started major choosing
    /// its home city, and a running minor auction. Returns whether the state was one of them.
    pub(super) fn minor_auction_step(&mut self) -> bool {
        let game = self.game;
        let Round::Stock(s) = &game.round else {
            return false;
        };
        match game.acting_entity() {
            Some(entity @ Entity::Corporation(_)) => {
                self.every_city(entity);
                true
            }
            Some(entity @ Entity::Player(player)) => {
                let Some((corp, high)) = s.minor_auction_high() else {
                    return false;
                };
                let lo = high + MINOR_BID_STEP;
                let hi = game.max_minor_bid(player, corp);
                self.push_range_step(
                    Action::Bid {
                        entity,
                        target: BidTarget::Corporation(corp),
                        price: lo,
                    },
                    lo,
                    hi,
                    Some(MINOR_BID_STEP),
                );
                self.push_checked(Action::Pass { entity });
                true
            }
            _ => false,
        }
    }

    /// Opening bids for the next minor of the charter pile.
    pub(super) fn minor_auction_openings(&mut self, player: PlayerId) {
        let game = self.game;
        let (Some(rules), Some(corp)) = (game.title.minor_auction, game.next_minor()) else {
            return;
        };
        let lo = rules.min_bid;
        self.push_range_step(
            Action::Bid {
                entity: Entity::Player(player),
                target: BidTarget::Corporation(corp),
                price: lo,
            },
            lo,
            game.max_minor_bid(player, corp),
            Some(MINOR_BID_STEP),
        );
    }

    /// A token of `entity` in every city of the map (the home-city choice).
    fn every_city(&mut self, entity: Entity) {
        let game = self.game;
        let map = game.title.map;
        for h in 0..map.hexes.len() {
            let (tile, _) = game.board.tile_at(HexIdx(h as u16));
            let def = map.tile_def(tile.def);
            for &node in &def.cities {
                self.push_checked(Action::PlaceToken {
                    entity,
                    city: CityRef {
                        tile,
                        part: def.nodes[usize::from(node)].part,
                    },
                    slot: None,
                    cost: None,
                });
            }
        }
    }

    // ----- operating round ----------------------------------------------------------------

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
    /// that waives it; `new_track_rule` for the corporation's own lays (not a private's, see
    /// [`crate::engine::map::LayRequest::new_track_rule`]).
    fn network_lays(
        &self,
        corp: CorpId,
        free_terrain: bool,
        new_track_rule: bool,
    ) -> Vec<(HexId, TileId, Rotation)> {
        let game = self.game;
        let map = game.title.map;
        let reach = Reach::compute(map, &game.board, corp);
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
                    lay_outcome(map, old, map.tile_def(tile.def)).cost
                };
                if fee + terrain > cash {
                    continue;
                }
                let rotations =
                    game.board
                        .legal_rotations_with(map, hex, tile, Some(&reach), false);
                for r in (0..6u8).filter(|r| rotations & (1 << r) != 0) {
                    if !new_track_rule
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
            for ability in &game.title.company(company).abilities {
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
                    if o.step != OrStep::Track {
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
                        let reach = connected.then(|| Reach::compute(map, &game.board, corp));
                        let rotations = game.board.legal_rotations_with(
                            map,
                            h,
                            tile,
                            reach.as_ref(),
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

    /// Bonus markers (CDSPC, TASPS): any time of an operating round, by a private that a
    /// corporation owns, on each of its hexes.
    pub(super) fn assignments(&mut self) {
        let game = self.game;
        for (i, def) in game.title.companies.iter().enumerate() {
            let company = CompanyId(i as u8);
            let state = game.company(company);
            if state.closed || !matches!(state.owner, CompanyOwner::Corporation(_)) {
                continue;
            }
            for ability in &def.abilities {
                let Ability::AssignHex { hexes, .. } = ability else {
                    continue;
                };
                for hex in hexes.iter().filter_map(|h| h.parse::<HexId>().ok()) {
                    self.push_checked(Action::Assign {
                        entity: Entity::Company(company),
                        hex,
                    });
                }
            }
        }
    }
}
