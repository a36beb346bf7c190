//! 18Ireland's merger round, held after the last operating round of a set from phase 4 on
//! (reference `G18Ireland::Round::Merger`, steps `DiscardTrain`, `MergerVote`, `Merge`): the
//! title's own round (hooks `start_round_after_operating_set`, `process_own_round`,
//! `own_round_acting`).
//!
//! In seat order each player may pass or propose a merger of two or three floated minors into
//! a major not yet started; the holders of the minors' shares vote (the pool's shares vote at
//! once, for if the new price is higher, against if lower); a passed proposal names its major,
//! which takes over the minors' tokens, cash, trains and privates and hands out one 10% share
//! per old share. The round ends when every player has passed in a row.

use std::any::Any;

use crate::action::MarketCell;
use crate::action::{Action, Entity};
use crate::engine::shares::Holder;
use crate::engine::state::{CompanyOwner, MarketPos, TrainOwner};
use crate::engine::title::hooks::TitleRound;
use crate::engine::title::CorpKind;
use crate::engine::{Game, Round, RoundKind, RuleViolation};
use crate::ids::{CorpId, Money, PlayerId, ShareId};

/// At most this many minors in one merger.
const LIMIT_MERGE: usize = 3;

#[derive(Debug, Clone, Default)]
pub(super) struct MergerRound {
    entity_index: usize,
    passed: Vec<bool>,
    /// Minors proposed so far in the current proposal.
    merging: Option<Vec<CorpId>>,
    /// Voters still to vote, with their share counts, starting with the proposer.
    to_vote: Vec<(PlayerId, u32)>,
    votes_for: u32,
    votes_against: u32,
    votes_needed: u32,
    votes_available: u32,
    /// The result of the last vote: `Some(true)` means the proposer now names the major.
    outcome: Option<bool>,
    /// Sets of minors proposed this round (sorted), which may not be proposed again.
    proposed: Vec<Vec<CorpId>>,
    /// A corporation above its train limit after a merger, which must discard first.
    discarding: Option<CorpId>,
}

impl MergerRound {
    pub(super) fn acting(&self, game: &Game) -> Option<Entity> {
        if let Some(c) = self.discarding {
            return Some(Entity::Corporation(c));
        }
        if let Some((p, _)) = self.to_vote.first() {
            return Some(Entity::Player(*p));
        }
        players(game)
            .get(self.entity_index)
            .copied()
            .map(Entity::Player)
    }
}

fn players(game: &Game) -> Vec<PlayerId> {
    game.seats
        .iter()
        .copied()
        .filter(|p| !game.player(*p).bankrupt)
        .collect()
}

/// Players holding shares of the merging minors, in seat order starting from the proposer,
/// with the number of those shares each holds: the order of both the vote and the exchange.
///
/// Bankrupt players count too: a bankruptcy sells only the shares that may be sold, and the
/// reference (`Merge#finish_merge`, `#finish_merge_to_major`) walks every seat, so a bankrupt
/// holder is asked for its vote and receives the major's shares for the ones it kept.
fn holders_from(game: &Game, proposer: PlayerId, merging: &[CorpId]) -> Vec<(PlayerId, u32)> {
    let seats = &game.seats;
    let start = seats.iter().position(|p| *p == proposer).unwrap_or(0);
    seats[start..]
        .iter()
        .chain(&seats[..start])
        .map(|p| {
            let held = merging
                .iter()
                .map(|c| shares_held(game, Holder::Player(*p), *c))
                .sum::<u32>();
            (*p, held)
        })
        .filter(|(_, held)| *held > 0)
        .collect()
}

pub(super) fn mr(game: &Game) -> &MergerRound {
    match &game.round {
        Round::Title(r) => {
            let state: &dyn Any = &*r.state;
            state
                .downcast_ref()
                .expect("18Ireland's own round is the merger round")
        }
        _ => unreachable!("merger processing outside a merger round"),
    }
}

fn mr_mut(game: &mut Game) -> &mut MergerRound {
    match &mut game.round {
        Round::Title(r) => {
            let state: &mut dyn Any = &mut *r.state;
            state
                .downcast_mut()
                .expect("18Ireland's own round is the merger round")
        }
        _ => unreachable!("merger processing outside a merger round"),
    }
}

/// Starts a merger round after the last operating round `round_num` of a set, from the
/// second phase (4) on; returns whether it did.
pub(super) fn start_after_operating_set(game: &mut Game, round_num: u8) -> bool {
    if game.phase == 0 {
        return false;
    }
    let count = players(game).len();
    game.round = Round::Title(TitleRound {
        kind: RoundKind::Merger,
        round_num,
        state: Box::new(MergerRound {
            passed: vec![false; count],
            ..MergerRound::default()
        }),
    });
    true
}

/// Shares of a corporation a holder has, counted in its share units (a minor's 40%
/// certificate is two shares).
fn shares_held(game: &Game, holder: Holder, corp: CorpId) -> u32 {
    u32::from(game.percent_of_holder(holder, corp)) / u32::from(game.normal_share_percent(corp))
}

fn merge_targets(game: &Game) -> Vec<CorpId> {
    (0..game.corps.len())
        .map(|i| CorpId(i as u8))
        .filter(|c| {
            game.title.corp(*c).kind == CorpKind::Major
                && !game.corp(*c).floated
                && !game.corp(*c).closed
        })
        .collect()
}

fn floated_minors(game: &Game) -> Vec<CorpId> {
    (0..game.corps.len())
        .map(|i| CorpId(i as u8))
        .filter(|c| {
            game.title.corp(*c).kind == CorpKind::Minor
                && game.corp(*c).floated
                && !game.corp(*c).closed
        })
        .collect()
}

/// Each of `minors` with the corporations its home reaches over broad gauge: one walk per
/// minor, as the merger checks ask about every pair.
fn broad_links(game: &Game, minors: &[CorpId]) -> Vec<(CorpId, Vec<CorpId>)> {
    minors
        .iter()
        .map(|&c| (c, game.board.broad_joined(game.title.map, c)))
        .collect()
}

/// Why `candidate` may not join the minors `with` (reference `Merge#merge_possible?`): it
/// must be joined by broad gauge to one of them, no two minors' homes may share a tile, and
/// the share counts (issued shares, one player's, the pool's) must stay within bounds.
/// `links` holds the [`broad_links`] of every minor in `with`.
fn merge_fault(
    game: &Game,
    with: &[CorpId],
    candidate: CorpId,
    links: &[(CorpId, Vec<CorpId>)],
) -> Option<&'static str> {
    if with.contains(&candidate) {
        return Some("it is already in the proposal");
    }
    let home_hex = |c: CorpId| game.token_hexes(c).first().copied();
    let candidate_home = home_hex(candidate);
    if candidate_home.is_some() && with.iter().any(|c| home_hex(*c) == candidate_home) {
        return Some("its home shares a tile with a proposed minor's home");
    }
    let joined = |c: &CorpId| {
        links
            .iter()
            .any(|(minor, reached)| minor == c && reached.contains(&candidate))
    };
    if !with.iter().any(joined) {
        return Some("no broad-gauge track joins its home to a proposed minor's home");
    }
    let all: Vec<CorpId> = with.iter().copied().chain([candidate]).collect();
    let issued: u32 = all
        .iter()
        .map(|c| 5 - shares_held(game, Holder::Ipo(*c), *c))
        .sum();
    if issued > 10 {
        return Some("the minors would have more than 10 shares issued");
    }
    if game.players.iter().any(|p| {
        all.iter()
            .map(|c| shares_held(game, Holder::Player(p.id), *c))
            .sum::<u32>()
            > 7
    }) {
        return Some("a player would hold more than 7 shares of the minors");
    }
    let pooled: u32 = all
        .iter()
        .map(|c| shares_held(game, Holder::Pool, *c))
        .sum();
    (pooled > 5).then_some("the market would hold more than 5 shares of the minors")
}

/// Why `corp` cannot be added to the current proposal by `player`, for the diagnostic.
fn merge_refusal(game: &Game, player: PlayerId, corp: CorpId) -> String {
    let sym = &game.title.corp(corp).sym;
    let merging = mr(game).merging.clone().unwrap_or_default();
    if merge_targets(game).is_empty() {
        return "no major is left to form".into();
    }
    if merging.len() == LIMIT_MERGE {
        return format!("at most {LIMIT_MERGE} minors merge at once");
    }
    if !floated_minors(game).contains(&corp) {
        return format!("{sym} is not a floated minor");
    }
    if merging.is_empty() {
        if game.percent_held(player, corp) == 0 {
            return format!(
                "a proposal starts with a minor the proposer holds shares of, not {sym}"
            );
        }
        return format!("{sym} cannot merge with any other minor");
    }
    match merge_fault(game, &merging, corp, &broad_links(game, &merging)) {
        Some(why) => format!("{sym} cannot join this merger: {why}"),
        None => format!("{sym} cannot be added to a merger proposal now"),
    }
}

fn merge_candidates(game: &Game, player: PlayerId) -> Vec<CorpId> {
    let m = mr(game);
    let merging = m.merging.clone().unwrap_or_default();
    if merge_targets(game).is_empty() || merging.len() == LIMIT_MERGE {
        return Vec::new();
    }
    let potential: Vec<CorpId> = floated_minors(game)
        .into_iter()
        .filter(|c| !merging.contains(c))
        .collect();
    if merging.is_empty() {
        // Only the minors the player holds may open a proposal: only their networks are walked.
        let held: Vec<CorpId> = potential
            .iter()
            .copied()
            .filter(|c| game.percent_held(player, *c) > 0)
            .collect();
        let links = broad_links(game, &held);
        held.into_iter()
            .filter(|c| {
                potential
                    .iter()
                    .any(|c2| merge_fault(game, &[*c], *c2, &links).is_none())
            })
            .collect()
    } else {
        let links = broad_links(game, &merging);
        potential
            .into_iter()
            .filter(|c| merge_fault(game, &merging, *c, &links).is_none())
            .collect()
    }
}

/// The new major's cell: the lowest row and lowest column among the minors' cells.
fn merged_cell(game: &Game, merging: &[CorpId]) -> Option<MarketPos> {
    let row = merging
        .iter()
        .filter_map(|c| game.corp(*c).share_price)
        .map(|p| p.row)
        .min()?;
    let column = merging
        .iter()
        .filter_map(|c| game.corp(*c).share_price)
        .map(|p| p.column)
        .min()?;
    Some(MarketPos { row, column })
}

pub(super) fn process(game: &mut Game, action: &Action) -> Result<(), RuleViolation> {
    let acting = mr(game).acting(game);
    if Some(action.entity()) != acting {
        return Err(RuleViolation::NotYourTurn {
            actor: game.entity_name(action.entity()),
            expected: acting
                .map(|e| game.entity_name(e))
                .unwrap_or_else(|| "nobody".into()),
        });
    }
    if let Some(corp) = mr(game).discarding {
        return match action {
            Action::DiscardTrain { train, .. } => discard(game, corp, *train),
            _ => Err(RuleViolation::WrongStep {
                action: action.type_name(),
                step: "discard train",
                allowed: "discard_train".into(),
            }),
        };
    }
    let Entity::Player(player) = action.entity() else {
        unreachable!("only players act here")
    };
    if !mr(game).to_vote.is_empty() {
        return match action {
            Action::Vote { in_favour, .. } => {
                vote(game, *in_favour);
                after_action(game);
                Ok(())
            }
            _ => Err(RuleViolation::WrongStep {
                action: action.type_name(),
                step: "merger vote",
                allowed: "choose (for or against)".into(),
            }),
        };
    }
    match action {
        Action::Merge { corp, .. } if mr(game).outcome == Some(true) => {
            merge_into_major(game, player, *corp)?;
        }
        Action::Merge { corp, .. } => {
            if !merge_candidates(game, player).contains(corp) {
                return Err(RuleViolation::Shares(merge_refusal(game, player, *corp)));
            }
            mr_mut(game)
                .merging
                .get_or_insert_with(Vec::new)
                .push(*corp);
            if merge_candidates(game, player).is_empty() {
                start_vote(game, player);
            }
        }
        // After a vote in favour the proposer must name the major (the reference offers only
        // `merge` then), whatever remains of the proposal.
        Action::Pass { .. } if mr(game).outcome == Some(true) => {
            return Err(RuleViolation::Shares(
                "name the major the minors merge into".into(),
            ));
        }
        Action::Pass { .. } => match mr(game).merging.as_ref().map(Vec::len) {
            Some(1) => {
                return Err(RuleViolation::Shares(
                    "a proposal needs a second minor before the vote".into(),
                ))
            }
            Some(_) => start_vote(game, player),
            None => {
                let i = mr(game).entity_index;
                mr_mut(game).passed[i] = true;
                next_player(game);
                return Ok(());
            }
        },
        _ => {
            return Err(RuleViolation::WrongStep {
                action: action.type_name(),
                step: "merger round",
                allowed: "merge, pass".into(),
            })
        }
    }
    after_action(game);
    Ok(())
}

/// After an action: the proposer's turn ends once nothing is left to him (a failed vote, a
/// completed merger).
fn after_action(game: &mut Game) {
    let m = mr(game);
    if m.discarding.is_none() && m.to_vote.is_empty() && m.outcome == Some(false) {
        next_player(game);
    }
}

fn next_player(game: &mut Game) {
    let n = players(game).len().max(1);
    let m = mr_mut(game);
    m.entity_index = (m.entity_index + 1) % n;
    m.merging = None;
    m.outcome = None;
    if m.passed.iter().all(|p| *p) {
        if game.market_end_now() || game.round_ends_past_limit() {
            return;
        }
        game.turn += 1;
        game.start_stock_round();
    }
}

fn start_vote(game: &mut Game, proposer: PlayerId) {
    let merging = mr(game).merging.clone().unwrap_or_default();
    let mut sorted = merging.clone();
    sorted.sort();
    if mr(game).proposed.contains(&sorted) {
        // The same set may not be proposed twice in a round: the proposal is cleared.
        mr_mut(game).merging = None;
        return;
    }
    let to_vote = holders_from(game, proposer, &merging);
    let new_price = merged_cell(game, &merging)
        .and_then(|pos| game.title.cell(pos.row, pos.column))
        .map(|c| c.price)
        .unwrap_or(Money::ZERO);
    let (mut votes_for, mut votes_against) = (0, 0);
    for c in &merging {
        let shares = shares_held(game, Holder::Pool, *c);
        let price = game.share_price(*c).unwrap_or(Money::ZERO);
        if new_price > price {
            votes_for += shares;
        } else if new_price < price {
            votes_against += shares;
        }
    }
    let available = votes_for + votes_against + to_vote.iter().map(|(_, s)| s).sum::<u32>();
    let m = mr_mut(game);
    m.passed.iter_mut().for_each(|p| *p = false);
    m.to_vote = to_vote;
    m.votes_for = votes_for;
    m.votes_against = votes_against;
    m.votes_available = available;
    m.votes_needed = available / 2 + 1;
    m.proposed.push(sorted);
    check_result(game);
}

fn vote(game: &mut Game, in_favour: bool) {
    let m = mr_mut(game);
    let (_, shares) = m.to_vote.remove(0);
    if in_favour {
        m.votes_for += shares;
    } else {
        m.votes_against += shares;
    }
    check_result(game);
}

fn check_result(game: &mut Game) {
    let m = mr_mut(game);
    if m.votes_for >= m.votes_needed {
        m.outcome = Some(true);
        m.to_vote.clear();
    } else if m.to_vote.is_empty() {
        m.outcome = Some(false);
    } else if m.votes_available - m.votes_against < m.votes_needed {
        m.outcome = Some(false);
        m.to_vote.clear();
    }
}

/// The accepted merger: the major is started at the merged price, takes the minors' tokens,
/// cash, trains, privates and markers, and hands out one share per old share, in seat order
/// from the proposer; the pool's shares become pool shares.
fn merge_into_major(
    game: &mut Game,
    proposer: PlayerId,
    target: CorpId,
) -> Result<(), RuleViolation> {
    if !merge_targets(game).contains(&target) {
        return Err(RuleViolation::Shares(format!(
            "{} is not a major that can be formed",
            game.title.corp(target).sym
        )));
    }
    let merging = mr(game).merging.clone().unwrap_or_default();
    let merging = if merging.is_empty() {
        last_proposal(game)
    } else {
        merging
    };
    let Some(pos) = merged_cell(game, &merging) else {
        return Err(RuleViolation::Shares("no minors to merge".into()));
    };
    let price = game
        .title
        .cell(pos.row, pos.column)
        .map(|c| c.price)
        .unwrap_or(Money::ZERO);
    game.set_par(
        target,
        &MarketCell {
            price,
            row: pos.row,
            column: pos.column,
        },
    );
    let player_shares = holders_from(game, proposer, &merging);
    let market_shares: u32 = merging
        .iter()
        .map(|c| shares_held(game, Holder::Pool, *c))
        .sum();
    for minor in &merging {
        game.board.transfer_tokens(game.title.map, *minor, target);
        let cash = game.corp(*minor).cash;
        game.corp_mut(*minor).cash = Money::ZERO;
        game.corp_mut(target).cash += cash;
        let companies = std::mem::take(&mut game.corp_mut(*minor).companies);
        for c in companies {
            game.companies[c.0 as usize].owner = CompanyOwner::Corporation(target);
            game.corp_mut(target).companies.push(c);
        }
        let trains = std::mem::take(&mut game.corp_mut(*minor).trains);
        for t in trains {
            if let Some(train) = game.trains.iter_mut().find(|x| x.id == t) {
                train.owner = TrainOwner::Corporation(target);
            }
            game.corp_mut(target).trains.push(t);
        }
        for a in game.assignments.iter_mut().filter(|a| a.1 == *minor) {
            a.1 = target;
        }
        game.close_corporation(*minor);
    }
    let placed = game.token_hexes(target).len() as u8;
    let charter = game.title.corp(target).tokens.len() as u8;
    game.corp_mut(target).tokens_unused = charter.saturating_sub(placed);
    for (player, shares) in player_shares {
        let ipo: Vec<ShareId> = game.corp(target).ipo.clone();
        let bundle: Vec<ShareId> = if ipo.first().is_some_and(|s| s.index == 0) {
            if shares > 1 {
                ipo.iter().take(shares as usize - 1).copied().collect()
            } else {
                ipo.iter().skip(1).take(shares as usize).copied().collect()
            }
        } else {
            ipo.iter().take(shares as usize).copied().collect()
        };
        let pct: u8 = bundle.iter().map(|s| game.share_percent(*s)).sum();
        game.transfer_shares(
            target,
            &bundle,
            Holder::Ipo(target),
            Holder::Player(player),
            pct,
        );
    }
    if market_shares > 0 {
        let bundle: Vec<ShareId> = game
            .corp(target)
            .ipo
            .iter()
            .take(market_shares as usize)
            .copied()
            .collect();
        let pct: u8 = bundle.iter().map(|s| game.share_percent(*s)).sum();
        game.transfer_shares(target, &bundle, Holder::Ipo(target), Holder::Pool, pct);
    }
    game.check_float(target);
    let m = mr_mut(game);
    m.merging = None;
    m.outcome = None;
    if game.corp(target).trains.len() > game.train_limit(target) {
        mr_mut(game).discarding = Some(target);
        return Ok(());
    }
    next_player(game);
    Ok(())
}

/// The minors of the proposal that was just voted on.
fn last_proposal(game: &Game) -> Vec<CorpId> {
    mr(game).proposed.last().cloned().unwrap_or_default()
}

fn discard(game: &mut Game, corp: CorpId, train: crate::ids::TrainId) -> Result<(), RuleViolation> {
    if !game.corp(corp).trains.contains(&train) {
        return Err(RuleViolation::Train(format!(
            "{} does not own train {}",
            game.title.corp(corp).sym,
            game.train_name(train)
        )));
    }
    game.discard_to_pool(corp, train);
    if game.corp(corp).trains.len() <= game.train_limit(corp) {
        mr_mut(game).discarding = None;
        next_player(game);
    }
    Ok(())
}
