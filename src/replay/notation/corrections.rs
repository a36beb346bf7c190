//! Corrections (`correct cash Ann +50`): what the players agreed to change, applied where
//! written.

use super::diagnostics::Code;
use super::names::{entity_by_name, share_id, share_text};
use super::resolve::{resolve_tile, unresolved, Unresolved};
use super::walk::{AppliedCorrection, Player};
use crate::action::Entity;
use crate::engine::correction::{self as engine_correction, CorrectionError, ShareHolder};
use crate::engine::Game;
use crate::ids::Money;
use crate::log::{LoggedCorrection, Span};
use crate::notation::{self, Correction, CorrectionKind, Name};

impl Player<'_> {
    pub(super) fn correction(&mut self, game: &mut Game, c: &Correction, main: bool) {
        let applied = match &c.kind {
            CorrectionKind::Cash { who, amount } => entity_by_name(game, &who.text)
                .map_err(|u| (who.span, u))
                .and_then(|entity| {
                    let correction = engine_correction::Correction::Cash {
                        entity,
                        amount: Money(*amount),
                    };
                    game.correct(&correction)
                        .map_err(|e| match e {
                            CorrectionError::OutOfRange(_) => (
                                c.span,
                                unresolved(Code::out_of_range(), e.to_string()).help(
                                    "a correction moves what the players agreed to move, e.g. `correct cash Ann +50`",
                                ),
                            ),
                            _ => (who.span, unresolved(Code::UnknownEntity, e.to_string())),
                        })
                        .map(|_| {
                            (
                                format!("correct cash {} {amount:+}", notation::name(&who.text)),
                                correction,
                            )
                        })
                }),
            CorrectionKind::Tile {
                tile,
                hex,
                orientation,
            } => resolve_tile(game, tile, *hex, orientation, None)
                .and_then(|(tile, rotation)| {
                    let correction = engine_correction::Correction::Tile {
                        hex: *hex,
                        tile,
                        rotation,
                    };
                    let lifted = game.correct(&correction).map_err(|e| {
                        unresolved(Code::TileUnavailable, e.to_string()).help(
                            "a tile correction takes a tile from the supply: `correct tile 57 E7 r2`",
                        )
                    })?;
                    let mut text = format!(
                        "correct tile {} {hex} r{}",
                        game.title.map.tile_name(tile),
                        rotation.get()
                    );
                    for corp in lifted {
                        text.push_str(&format!(
                            " ({}'s token returned)",
                            game.title.corp(corp).sym
                        ));
                    }
                    Ok((text, correction))
                })
                .map_err(|u| (c.span, u)),
            CorrectionKind::Share { share, to } => Self::correct_share(game, share, to),
        };
        match applied {
            Ok((text, correction)) => {
                self.corrections.push(AppliedCorrection {
                    span: c.span,
                    text,
                    round: game.round_label(),
                });
                if main {
                    // Where it is written: after the actions so far, and before the automatic
                    // actions (`& …`) of the last one written after it.
                    self.logged_corrections.push(LoggedCorrection {
                        after: self.actions.len(),
                        autos: self.actions.last().map_or(0, |a| a.auto_actions.len()),
                        span: c.span,
                        correction,
                    });
                }
            }
            Err((span, u)) => {
                self.error(game, span, u.code, u.message, u.help, None);
            }
        }
    }

    /// `correct share Nord_3 Ann`: the certificate to a player, `pool` or `ipo`.
    pub(super) fn correct_share(
        game: &mut Game,
        share: &Name,
        to: &Name,
    ) -> Result<(String, engine_correction::Correction), (Span, Unresolved)> {
        let id = share_id(game, &share.text).map_err(|u| (share.span, u))?;
        let holder = match to.text.as_str() {
            "pool" => ShareHolder::Pool,
            "ipo" => ShareHolder::Ipo,
            name => match entity_by_name(game, name) {
                Ok(Entity::Player(p)) => ShareHolder::Player(p),
                Ok(_) => {
                    return Err((
                        to.span,
                        unresolved(
                            Code::UnknownEntity,
                            "certificates are corrected to a player, `pool` or `ipo`",
                        ),
                    ))
                }
                Err(u) => return Err((to.span, u)),
            },
        };
        let correction = engine_correction::Correction::Share {
            share: id,
            to: holder,
        };
        game.correct(&correction).map_err(|e| {
            (
                share.span,
                unresolved(Code::UnknownShare, e.to_string())
                    .help("correct a normal certificate, e.g. `correct share Nord_3 Ann`"),
            )
        })?;
        Ok((
            format!(
                "correct share {} {}",
                share_text(game, id),
                notation::name(&to.text)
            ),
            correction,
        ))
    }
}

#[cfg(test)]
mod tests {
    use crate::replay::notation::test_games::{played, reports, JR30, OPENING};

    #[test]
    fn a_correction_changes_the_game_where_it_is_written() {
        let src = format!("{JR30}{OPENING}correct cash Ann +50\n= Ann 303\n");
        let p = played(&src, false);
        assert!(p.errors.is_empty(), "{:?}", p.errors);
        assert_eq!(p.corrections.len(), 1);
        assert_eq!(p.corrections[0].text, "correct cash Ann +50");
        assert_eq!(p.log.corrections.len(), 1);
    }

    #[test]
    fn a_correction_that_cannot_be_made_is_refused() {
        let src = format!("{JR30}{OPENING}correct share Nord_0 Bob\ncorrect cash Zed +5\n");
        let p = played(&src, true);
        let line = src.lines().count() - 1;
        assert_eq!(
            reports(&p, &src),
            [
                ("rules::unknown_share".into(), line),
                ("rules::unknown_entity".into(), line + 1)
            ]
        );
        assert!(p.corrections.is_empty());
    }
}
