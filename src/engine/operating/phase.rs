//! What a train purchase sets off (rules-and-format B.0 "Phases", D.8): the phase change on the
//! first train of a type, rusting (with a reserve train released for each rusted one where the
//! title has them), the type's events, and privates that close on a corporation's first train.

use crate::engine::state::{CompanyOwner, TrainOwner};
use crate::engine::title::{Ability, CorpKind, OwnerKind, TrainEvent};
use crate::engine::Game;
use crate::ids::{CompanyId, CorpId, TrainId, TrainKind};

impl Game {
    /// Phase changes, rusting, events and private closings after a train purchase.
    pub(super) fn after_train_bought(&mut self, corp: CorpId, train: TrainId) {
        // Privates that close when a corporation buys its first train (CFLV for Nord; CV for
        // the corporation drawn for it).
        for i in 0..self.companies.len() {
            let company = CompanyId(i as u8);
            let closes = self.company_abilities(company).iter().any(|a| match a {
                Ability::CloseOnTrain { corporation } => {
                    self.title.corp_by_sym(corporation) == Some(corp)
                }
                Ability::Shares {
                    share,
                    closes_on_train: true,
                    ..
                } => crate::engine::auction::parse_share(self, company, share)
                    .is_some_and(|s| s.corp == corp),
                _ => false,
            });
            if closes && !self.companies[i].closed {
                self.close_company(CompanyId(i as u8));
            }
        }
        self.train_left_depot(train);
    }

    /// What the first train of a type leaving the depot sets off (bought, or exported):
    /// phases, rusting, the type's events, then the train limits.
    pub(crate) fn train_left_depot(&mut self, train: TrainId) {
        let name = self.title.train(train.kind).name.clone();
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
                self.phase_started();
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
                let company = CompanyId(i as u8);
                if !self.companies[i].closed && !self.closes_later(company) {
                    self.close_company(company);
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

    /// The next depot train leaves the game at the end of a set of operating rounds, if it is
    /// of a type the title exports (18Chesapeake: 2, 3 and 4 trains; reference
    /// `or_set_finished`, `Depot#export!`), with what its purchase would set off.
    pub(crate) fn export_train(&mut self) {
        let Some(next) = self.next_depot_train() else {
            return;
        };
        if !self
            .title
            .train_export
            .contains(&self.title.train(next.kind).name)
        {
            return;
        }
        self.set_train_owner(next, TrainOwner::Exported);
        self.train_left_depot(next);
    }

    /// What a phase's start does to privates (reference `Phase#trigger_events!`): revenues
    /// change and privates close as their abilities say, for owners of the kind they name.
    fn phase_started(&mut self) {
        let phase = self.title.phases[self.phase].name.clone();
        for i in 0..self.companies.len() {
            let company = CompanyId(i as u8);
            let state = self.company(company);
            if state.closed || state.owner == CompanyOwner::Unsold {
                continue;
            }
            let owner = state.owner;
            for ability in self.company_abilities(company) {
                match ability {
                    Ability::RevenueChange {
                        revenue,
                        on_phase,
                        owner: kind,
                    } if *on_phase == phase && owned_by(owner, *kind) => {
                        self.companies[i].revenue = *revenue;
                    }
                    Ability::Close {
                        on_phase,
                        owner: kind,
                    } if *on_phase == phase && owned_by(owner, *kind) => {
                        self.close_company(company);
                        break;
                    }
                    _ => {}
                }
            }
        }
    }

    /// Whether a private outlives the close_companies event: its close ability, for its
    /// owner now, names `never` or a phase still to come (reference
    /// `event_close_companies!`).
    fn closes_later(&self, company: CompanyId) -> bool {
        let owner = self.company(company).owner;
        self.company_abilities(company).iter().any(|a| match a {
            Ability::Close {
                on_phase,
                owner: kind,
            } if owned_by(owner, *kind) => {
                on_phase == "never"
                    || self.title.phases[self.phase + 1..]
                        .iter()
                        .any(|p| p.name == *on_phase)
            }
            _ => false,
        })
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

/// Whether the private's owner is of the kind an ability names (any owner when none is named;
/// an unsold private counts as a player's, as the reference's `ability_right_owner?` has it).
fn owned_by(owner: CompanyOwner, kind: Option<OwnerKind>) -> bool {
    match kind {
        None => true,
        Some(OwnerKind::Player) => !matches!(owner, CompanyOwner::Corporation(_)),
        Some(OwnerKind::Corporation) => matches!(owner, CompanyOwner::Corporation(_)),
    }
}
