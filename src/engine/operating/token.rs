//! Station tokens: the home token when a corporation first operates or is started
//! (rules-and-format D.11), the token step (one token, reachable, a free slot; B.1 4), free
//! tokens placed on a given hex (a home city chosen, tokens lifted by a lay put back, a
//! teleport's token), and the slot and cost a log states, which are checked.

use super::{or, or_mut, pay_corp, OrStep};
use crate::engine::map::Station;
use crate::engine::title::HomeTokenTiming;
use crate::engine::{Game, RuleViolation};
use crate::ids::{CityRef, CorpId, HexId, Money};

impl Game {
    pub(crate) fn next_token_price(&self, corp: CorpId) -> Option<Money> {
        let c = self.corp(corp);
        let used = self.title.corp(corp).tokens.len() - c.tokens_unused as usize;
        self.title.corp(corp).tokens.get(used).copied()
    }

    /// Reference `Tokener#can_place_token?`: a token left, affordable, and (asked last, as the
    /// reference asks its cached graph last) a city the corporation reaches.
    pub(super) fn token_step_waits(&mut self, corp: CorpId) -> bool {
        if or(self).teleport.is_some() {
            return true;
        }
        if or(self).tokened {
            return false;
        }
        let Some(price) = self.next_token_price(corp) else {
            return false;
        };
        self.corp(corp).cash >= price && self.reaches_token_city(corp)
    }

    /// Places a home token; returns false if the president must choose the city.
    pub(super) fn place_home_token(&mut self, corp: CorpId, hex: HexId) -> bool {
        if self.board.home_needs_choice(self.title.map, corp, hex) {
            or_mut(self).step = OrStep::HomeToken;
            return false;
        }
        // A home city already filled (cannot happen with reservations) leaves the token unused.
        if self
            .board
            .place_home_token(self.title.map, corp, hex)
            .is_ok()
        {
            self.corp_mut(corp).tokens_unused -= 1;
        }
        true
    }
}

/// Checks the slot and cost a log states for a token against the ones the rules give.
fn check_token_values(
    game: &Game,
    corp: CorpId,
    station: Station,
    stated: StatedToken,
    price: Money,
) -> Result<(), RuleViolation> {
    let (slot, cost) = stated;
    if let Some(slot) = slot {
        if !game.board.slot_usable(game.title.map, corp, station, slot) {
            return Err(RuleViolation::Token(format!(
                "slot {slot} of that city is not free for {}",
                game.title.corp(corp).sym
            )));
        }
    }
    if let Some(cost) = cost {
        if cost != price {
            return Err(RuleViolation::ValueMismatch {
                what: "token cost",
                recorded: cost.to_string(),
                expected: price.to_string(),
            });
        }
    }
    Ok(())
}

/// Slot and cost as a log states them.
type StatedToken = (Option<u8>, Option<Money>);

/// Places a free token of `corp` in a city that must lie on `hex` (a home token, a lifted
/// token put back, a teleport token): no reach needed, stated slot and cost checked.
pub(super) fn place_free_token_on(
    game: &mut Game,
    corp: CorpId,
    hex: HexId,
    city: CityRef,
    stated: StatedToken,
    what: &str,
) -> Result<(), RuleViolation> {
    let map = game.title.map;
    let station = game
        .board
        .locate_city(map, city)
        .filter(|s| map.hex_def(s.hex).id == hex)
        .ok_or_else(|| RuleViolation::Token(format!("{what} must go on a city of {hex}")))?;
    game.board
        .check_token(map, corp, station, false)
        .map_err(|e| RuleViolation::Token(e.to_string()))?;
    check_token_values(game, corp, station, stated, Money::ZERO)?;
    game.board
        .place_token(map, corp, station)
        .map_err(|e| RuleViolation::Token(e.to_string()))?;
    game.forget_token_reach();
    Ok(())
}

pub(super) fn replace_lifted_token(
    game: &mut Game,
    corp: CorpId,
    hex: HexId,
    city: CityRef,
    stated: StatedToken,
) -> Result<(), RuleViolation> {
    place_free_token_on(game, corp, hex, city, stated, "the lifted token")?;
    or_mut(game).pending_tokens.remove(0);
    Ok(())
}

pub(super) fn home_token_choice(
    game: &mut Game,
    corp: CorpId,
    city: CityRef,
    stated: StatedToken,
) -> Result<(), RuleViolation> {
    let Some(hex) = game.title.corp(corp).home else {
        return Err(RuleViolation::Token(format!(
            "{} has no home city to choose",
            game.title.corp(corp).sym
        )));
    };
    place_free_token_on(game, corp, hex, city, stated, "the home token")?;
    game.corp_mut(corp).tokens_unused -= 1;
    or_mut(game).step = OrStep::Track;
    Ok(())
}

pub(super) fn place_token(
    game: &mut Game,
    corp: CorpId,
    city: CityRef,
    stated: StatedToken,
) -> Result<(), RuleViolation> {
    let Some(price) = game.next_token_price(corp) else {
        return Err(RuleViolation::Token(format!(
            "{} has no token left",
            game.title.corp(corp).sym
        )));
    };
    let map = game.title.map;
    let station = game
        .board
        .locate_city(map, city)
        .ok_or_else(|| RuleViolation::Token("no such city on the map".into()))?;
    let hex = map.hex_def(station.hex).id;
    game.board
        .check_token(map, corp, station, true)
        .map_err(|e| RuleViolation::Token(format!("{}: {e}", game.title.corp(corp).sym)))?;
    check_token_values(game, corp, station, stated, price)?;
    pay_corp(game, corp, price)?;
    game.board
        .place_token(map, corp, station)
        .map_err(|e| RuleViolation::Token(e.to_string()))?;
    game.forget_token_reach();
    let _ = hex;
    game.corp_mut(corp).tokens_unused -= 1;
    Ok(())
}

impl Game {
    /// Places the home token of every corporation of the operating round that has none down
    /// yet, in operating order, before any of them operates (reference `Round::Operating#setup`
    /// with `HOME_TOKEN_TIMING = :operating_round`).
    pub(super) fn place_home_tokens_of_round(&mut self) {
        for corp in or(self).order.clone() {
            let placed =
                self.title.corp(corp).tokens.len() - usize::from(self.corp(corp).tokens_unused);
            if placed > 0 {
                continue;
            }
            let Some(home) = self.title.corp(corp).home else {
                continue;
            };
            if self
                .board
                .place_home_token(self.title.map, corp, home)
                .is_ok()
            {
                self.corp_mut(corp).tokens_unused -= 1;
            }
        }
    }

    /// Places a started corporation's home token at once, for titles that do so at par.
    pub(crate) fn place_home_token_at_par(&mut self, corp: CorpId) {
        if self.title.home_token_timing != HomeTokenTiming::Par {
            return;
        }
        let Some(home) = self.title.corp(corp).home else {
            return;
        };
        if self
            .board
            .place_home_token(self.title.map, corp, home)
            .is_ok()
        {
            self.corp_mut(corp).tokens_unused -= 1;
        }
    }
}
