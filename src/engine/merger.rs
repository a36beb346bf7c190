//! The merger round (18Ireland), held after the last operating round of a set from phase 4 on.
//!
//! Players act in seat order; the round ends when all have passed in a row. Proposals and votes
//! (`merge`, `choose`) are not implemented yet and are rejected with a diagnostic saying so.

use crate::action::{Action, Entity};
use crate::engine::{Game, Round, RuleViolation};
use crate::ids::PlayerId;

#[derive(Debug, Clone, Default)]
pub(crate) struct MergerRound {
    /// The operating round it follows (labels `MR n.m`).
    pub(crate) round_num: u8,
    entity_index: usize,
    passed: Vec<bool>,
}

impl MergerRound {
    pub(crate) fn acting(&self, game: &Game) -> Option<PlayerId> {
        players(game).get(self.entity_index).copied()
    }
}

fn players(game: &Game) -> Vec<PlayerId> {
    game.seats
        .iter()
        .copied()
        .filter(|p| !game.player(*p).bankrupt)
        .collect()
}

fn mr(game: &mut Game) -> &mut MergerRound {
    match &mut game.round {
        Round::Merger(m) => m,
        _ => unreachable!("merger processing outside a merger round"),
    }
}

impl Game {
    /// Whether a merger round follows the last operating round of a set now.
    pub(crate) fn merger_round_due(&self) -> bool {
        self.title.mergers && self.phase > 0
    }

    pub(crate) fn start_merger_round(&mut self, round_num: u8) {
        let count = players(self).len();
        self.round = Round::Merger(MergerRound {
            round_num,
            entity_index: 0,
            passed: vec![false; count],
        });
    }
}

pub(crate) fn process(game: &mut Game, action: &Action) -> Result<(), RuleViolation> {
    let acting = match &game.round {
        Round::Merger(m) => m.acting(game),
        _ => None,
    };
    let Some(player) = acting.filter(|p| action.entity() == Entity::Player(*p)) else {
        return Err(RuleViolation::NotYourTurn {
            actor: game.entity_name(action.entity()),
            expected: acting
                .map(|p| game.player(p).name.clone())
                .unwrap_or_else(|| "nobody".into()),
        });
    };
    let _ = player;
    match action {
        Action::Pass { .. } => {
            let n = players(game).len();
            let m = mr(game);
            let i = m.entity_index;
            m.passed[i] = true;
            m.entity_index = (i + 1) % n.max(1);
            if m.passed.iter().all(|p| *p) {
                game.turn += 1;
                game.start_stock_round();
            }
            Ok(())
        }
        Action::Merge { .. } | Action::Vote { .. } => Err(RuleViolation::WrongStep {
            action: action.type_name(),
            step: "merger round (proposals and votes are not supported yet)",
            allowed: "pass".into(),
        }),
        _ => Err(RuleViolation::WrongStep {
            action: action.type_name(),
            step: "merger round",
            allowed: "merge, choose, pass".into(),
        }),
    }
}
