//! Legal moves of 18Ireland's own round (the merger round); everything else it lists comes
//! from the generic generator, which reads the title's data.

use crate::action::{Action, Entity};
use crate::engine::title::hooks::Gen;
use crate::ids::CorpId;

/// The merger round: a discard after a merger; a vote for or against; the major the accepted
/// minors form; or a minor to propose (or add to the proposal), and passing. Every candidate
/// is kept only if `check` accepts it.
pub(super) fn merger_round(gen: &mut Gen<'_>) {
    let game = gen.game;
    let Some(entity) = game.acting_entity() else {
        return;
    };
    if let Entity::Corporation(corp) = entity {
        for &train in &game.corp(corp).trains {
            gen.push_checked(Action::DiscardTrain { entity, train });
        }
        return;
    }
    for in_favour in [true, false] {
        gen.push_checked(Action::Vote { entity, in_favour });
    }
    for corp in (0..game.corps.len()).map(|i| CorpId(i as u8)) {
        if !game.corp(corp).closed {
            gen.push_checked(Action::Merge { entity, corp });
        }
    }
    gen.push_checked(Action::Pass { entity });
}
