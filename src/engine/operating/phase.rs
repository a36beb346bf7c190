//! What a train purchase sets off (rules-and-format B.0 "Phases", D.8): the phase change on the
//! first train of a type, rusting (with a reserve train released for each rusted one where the
//! title has them), the type's events, and privates that close on a corporation's first train.

use crate::engine::state::TrainOwner;
use crate::engine::title::{Ability, CorpKind, TrainEvent};
use crate::engine::Game;
use crate::ids::{CompanyId, CorpId, TrainId, TrainKind};

impl Game {
    /// Phase changes, rusting, events and private closings after a train purchase.
    pub(super) fn after_train_bought(&mut self, corp: CorpId, train: TrainId) {
        let name = self.title.train(train.kind).name.clone();
        // Privates that close when a corporation buys its first train (CFLV for Nord).
        for i in 0..self.companies.len() {
            let closes = self.company_abilities(CompanyId(i as u8)).iter().any(|a| {
                matches!(a, Ability::CloseOnTrain { corporation } if self.title.corp_by_sym(corporation) == Some(corp))
            });
            if closes && !self.companies[i].closed {
                self.close_company(CompanyId(i as u8));
            }
        }
        if train.copy != 0 {
            return;
        }
        let first_of_kind = !self
            .trains
            .iter()
            .any(|t| t.id.kind == train.kind && t.id != train && t.owner != TrainOwner::Depot);
        if !first_of_kind {
            return;
        }
        while let Some(next) = self.title.phases.get(self.phase + 1) {
            if next.on.as_deref() == Some(name.as_str()) {
                self.phase += 1;
            } else {
                break;
            }
        }
        let rusting: Vec<TrainKind> = (0..self.title.trains.len())
            .map(|k| TrainKind(k as u8))
            .filter(|k| self.title.train(*k).rusts_on.as_deref() == Some(name.as_str()))
            .collect();
        for kind in rusting {
            let ids: Vec<TrainId> = self
                .trains
                .iter()
                .filter(|t| {
                    t.id.kind == kind
                        && matches!(
                            t.owner,
                            TrainOwner::Corporation(_) | TrainOwner::Pool | TrainOwner::Closed(_)
                        )
                })
                .map(|t| t.id)
                .collect();
            for id in ids {
                for c in &mut self.corps {
                    c.trains.retain(|x| *x != id);
                }
                self.set_train_owner(id, TrainOwner::Rusted);
                self.release_reserve_train(id);
            }
        }
        if self
            .title
            .train(train.kind)
            .events
            .contains(&TrainEvent::CloseCompanies)
        {
            for i in 0..self.companies.len() {
                if !self.companies[i].closed {
                    self.close_company(CompanyId(i as u8));
                }
            }
        }
        if self
            .title
            .train(train.kind)
            .events
            .contains(&TrainEvent::MinorsCannotStart)
        {
            // Minors not yet started leave the game (their home reservations with them).
            let unstarted: Vec<CorpId> = (0..self.corps.len())
                .map(|i| CorpId(i as u8))
                .filter(|c| {
                    self.title.corp(*c).kind == CorpKind::Minor
                        && !self.corp(*c).ipoed
                        && !self.corp(*c).closed
                })
                .collect();
            for c in unstarted {
                self.close_corporation(c);
            }
        }
        self.check_train_limits();
    }

    /// A rusting train that is not itself a reserve train brings a reserve train of half its
    /// distance into the pool (18Ireland), if one is left.
    fn release_reserve_train(&mut self, rusted: TrainId) {
        let def = self.title.train(rusted.kind);
        if def.reserve {
            return;
        }
        let half = def.distance / 2;
        let reserve = self
            .trains
            .iter()
            .find(|t| {
                t.owner == TrainOwner::Reserve && self.title.train(t.id.kind).distance == half
            })
            .map(|t| t.id);
        if let Some(id) = reserve {
            self.set_train_owner(id, TrainOwner::Pool);
        }
    }
}
