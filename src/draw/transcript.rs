//! The game in sentences, round by round, in the manner of 18xx.games' log: each action as a
//! sentence with its amounts, then what it caused (price moves, floats, new presidents, phase
//! changes, rusting, closures), the end and the standings. The sentences come from the
//! action and the states before and after it, so they say what the engine did.

// A replay that fails ends the command; the size of the error does not matter.
#![allow(clippy::result_large_err)]

use std::fmt::Write;

use serde::Serialize;

use crate::action::{Action, BidTarget, DividendKind, Entity, RouteSpec};
use crate::engine::map::TrainRoute;
use crate::engine::title::CorpKind;
use crate::engine::{CompanyOwner, Game, TrainOwner};
use crate::ids::{CorpId, Money, PlayerId, ShareId, TrainId};
use crate::log::GameLog;
use crate::replay::{Replay, ReplayError};

use super::document::Notes;

/// One line of the transcript.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Event {
    /// Processed actions when it happened (0: before the first).
    pub index: usize,
    /// The round it happened in.
    pub round: String,
    /// `round`, `action`, `auto`, `price`, `float`, `president`, `phase`, `rust`, `close`,
    /// `private`, `comment`, `variation`, `end`, `standing`.
    pub kind: &'static str,
    /// Who acted, if anyone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actor: Option<String>,
    /// The sentence.
    pub text: String,
}

/// The round as a heading (`Stock Round 2`, `Operating Round 3.1`).
fn round_heading(game: &Game) -> String {
    let label = game.round_label();
    match label.split_once(' ') {
        Some(("SR", n)) => format!("Stock Round {n}"),
        Some(("OR", n)) => format!("Operating Round {n} (phase {})", game.phase_name()),
        Some(("MR", n)) => format!("Merger Round {n}"),
        _ if label == "PR" => "Private Auction".to_string(),
        _ => label,
    }
}

/// Replays a log and writes every event; `notes` adds a notation file's glyphs and comments.
///
/// # Errors
/// The log cannot be set up or an action is illegal.
pub fn events(log: &GameLog, notes: Option<&Notes>) -> Result<Vec<Event>, ReplayError> {
    let mut replay = Replay::new(log)?;
    let mut out = Vec::new();
    let push_before = |out: &mut Vec<Event>, index: usize, round: &str| {
        let Some(note) = notes.and_then(|n| n.get(&index)) else {
            return;
        };
        for c in &note.before {
            out.push(Event {
                index,
                round: round.to_string(),
                kind: "comment",
                actor: None,
                text: c.clone(),
            });
        }
    };
    let push_notes = |out: &mut Vec<Event>, index: usize, round: &str| {
        let Some(note) = notes.and_then(|n| n.get(&index)) else {
            return;
        };
        for c in &note.after {
            out.push(Event {
                index,
                round: round.to_string(),
                kind: "comment",
                actor: None,
                text: c.clone(),
            });
        }
        for v in &note.variations {
            out.push(Event {
                index,
                round: round.to_string(),
                kind: "variation",
                actor: None,
                text: v.clone(),
            });
        }
    };
    let first = replay.game().clone();
    out.push(Event {
        index: 0,
        round: first.round_label(),
        kind: "round",
        actor: None,
        text: round_heading(&first),
    });
    push_notes(&mut out, 0, &first.round_label());
    let mut last_run: Vec<Money> = vec![Money::ZERO; first.corps.len()];
    let mut before = first;
    for (i, logged) in log.actions.iter().enumerate() {
        let index = i + 1;
        let round = before.round_label();
        push_before(&mut out, index, &round);
        let mut state = before;
        let mut steps: Vec<(&Action, bool)> = vec![(&logged.action, false)];
        steps.extend(logged.auto_actions.iter().map(|a| (&a.action, true)));
        for (action, auto) in steps {
            let mut after = state.clone();
            // The replay below rejects the same action and locates it in the file.
            if after.process_in_place(action).is_err() {
                break;
            }
            describe(
                &mut out,
                index,
                &round,
                &state,
                action,
                auto,
                &after,
                &mut last_run,
            );
            state = after;
        }
        if let Some(Err(e)) = replay.step() {
            return Err(e.into());
        }
        let after = state;
        if let Some(note) = notes.and_then(|n| n.get(&index)) {
            if let Some(glyph) = &note.glyph {
                if let Some(e) = out
                    .iter_mut()
                    .rev()
                    .find(|e| e.kind == "action" && e.index == index)
                {
                    e.text.push(' ');
                    e.text.push_str(glyph);
                }
            }
        }
        push_notes(&mut out, index, &round);
        if after.finished {
            end(&mut out, index, &after);
        } else if after.round_label() != round {
            out.push(Event {
                index,
                round: after.round_label(),
                kind: "round",
                actor: None,
                text: round_heading(&after),
            });
        }
        before = after;
    }
    Ok(out)
}

fn end(out: &mut Vec<Event>, index: usize, game: &Game) {
    let reason = match game.end_reason {
        Some(crate::engine::GameEndReason::Bank) => "the bank has broken",
        Some(crate::engine::GameEndReason::Bankrupt) => "a player went bankrupt",
        Some(crate::engine::GameEndReason::StockMarket) => "a share price reached the end",
        Some(crate::engine::GameEndReason::Dnf) => "nothing can happen any more",
        Some(crate::engine::GameEndReason::ManuallyEnded) => {
            "a player ended it by hand, and it is scored as it stands"
        }
        None => "it is over",
    };
    let round = game.round_label();
    out.push(Event {
        index,
        round: round.clone(),
        kind: "end",
        actor: None,
        text: format!("The game ends: {reason}."),
    });
    let mut values: Vec<(PlayerId, Money)> = game.player_values().into_iter().collect();
    values.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    for (place, (p, v)) in values.iter().enumerate() {
        out.push(Event {
            index,
            round: round.clone(),
            kind: "standing",
            actor: Some(game.player(*p).name.clone()),
            text: format!("{}. {} {}", place + 1, game.player(*p).name, v),
        });
    }
}

fn corp_name(game: &Game, corp: CorpId) -> &str {
    &game.title.corp(corp).sym
}

fn share_percent(game: &Game, share: ShareId) -> u8 {
    game.share_percent(share)
}

fn cash_of(game: &Game, entity: Entity) -> Money {
    match entity {
        Entity::Player(p) => game.player(p).cash,
        Entity::Corporation(c) => game.corp(c).cash,
        Entity::Company(_) => Money::ZERO,
    }
}

fn train_kind(game: &Game, train: TrainId) -> String {
    format!("{}-train", game.title.train(train.kind).name)
}

/// Each route's revenue and stops, as the engine's run check evaluates them.
fn run_details(game: &Game, corp: CorpId, routes: &[RouteSpec]) -> Vec<(Money, String)> {
    let trains: Vec<TrainRoute<'_>> = routes.iter().map(|r| game.train_route(r)).collect();
    let setup = game.run_setup(corp);
    game.board
        .compute_run_with(
            game.title.map,
            corp,
            &trains,
            game.phase_tile_colours(),
            &setup.context(),
        )
        .map(|runs| {
            runs.into_iter()
                .map(|r| {
                    let stops: Vec<String> = r.stops.iter().map(|(h, _)| h.to_string()).collect();
                    (r.revenue, stops.join("–"))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// What certificates cost or fetch: the price per share unit (par from the IPO, the market
/// price otherwise) times the units.
fn share_amount(game: &Game, shares: &[ShareId], from_ipo: bool) -> Money {
    let Some(first) = shares.first() else {
        return Money::ZERO;
    };
    let corp = first.corp;
    let price = if from_ipo {
        game.corp(corp).par_price.or_else(|| game.share_price(corp))
    } else {
        game.share_price(corp)
    }
    .unwrap_or(Money::ZERO);
    let unit = i64::from(game.normal_share_percent(corp)).max(1);
    let pct: i64 = shares
        .iter()
        .map(|s| i64::from(share_percent(game, *s)))
        .sum();
    Money(price.0 * pct / unit)
}

#[allow(clippy::too_many_arguments)]
fn describe(
    out: &mut Vec<Event>,
    index: usize,
    round: &str,
    before: &Game,
    action: &Action,
    auto: bool,
    after: &Game,
    last_run: &mut [Money],
) {
    let entity = action.entity();
    let who = before.entity_name(entity);
    let spent = cash_of(before, entity) - cash_of(after, entity);
    let text = match action {
        Action::Bid { target, price, .. } => {
            let what = match target {
                BidTarget::Company(c) => before.title.company(*c).sym.clone(),
                BidTarget::Corporation(c) => corp_name(before, *c).to_string(),
            };
            format!("{who} bids {price} for {what}")
        }
        Action::Pass { .. } => format!("{who} passes"),
        Action::Par { corp, .. } => format!(
            "{who} pars {} at {}",
            corp_name(before, *corp),
            after
                .share_price(*corp)
                .map_or_else(|| "?".to_string(), |p| p.to_string())
        ),
        Action::BuyShares { shares, .. } => {
            let Some(first) = shares.first() else {
                return;
            };
            let pct: u32 = shares
                .iter()
                .map(|s| u32::from(share_percent(before, *s)))
                .sum();
            let from_ipo = before.corp(first.corp).ipo.contains(first);
            let spent = share_amount(before, shares, from_ipo);
            let from = if from_ipo {
                "the IPO"
            } else if before.pool.contains(first) {
                "the market"
            } else {
                "its holder"
            };
            let what = if shares.len() == 1 {
                format!("a {pct}% share of {}", corp_name(before, first.corp))
            } else {
                format!("{pct}% of {}", corp_name(before, first.corp))
            };
            format!("{who} buys {what} from {from} for {spent}")
        }
        Action::SellShares { shares, .. } => {
            let Some(first) = shares.first() else {
                return;
            };
            let pct: u32 = shares
                .iter()
                .map(|s| u32::from(share_percent(before, *s)))
                .sum();
            format!(
                "{who} sells {pct}% of {} to the market for {}",
                corp_name(before, first.corp),
                share_amount(before, shares, false)
            )
        }
        Action::BuyCompany { company, price, .. } => {
            let seller = match before.company(*company).owner {
                CompanyOwner::Player(p) => format!(" from {}", before.player(p).name),
                CompanyOwner::Corporation(c) => format!(" from {}", corp_name(before, c)),
                CompanyOwner::Unsold => String::new(),
            };
            format!(
                "{who} buys {}{seller} for {price}",
                before.title.company(*company).sym
            )
        }
        Action::LayTile {
            hex,
            tile,
            rotation,
            ..
        } => {
            let map = before.title.map;
            let name = &map.tile_def(tile.def).name;
            let place = map
                .hex(*hex)
                .and_then(|h| h.location.as_deref())
                .map(|l| format!(" ({l})"))
                .unwrap_or_default();
            let verb = match map.hex_index(*hex).map(|i| before.board.tile_at(i).0) {
                Some(old) if map.hex(*hex).is_some_and(|h| h.tile != old) => "upgrades",
                _ => "lays",
            };
            let cost = if spent.0 > 0 {
                format!(" for {spent}")
            } else {
                String::new()
            };
            let verb_text = if verb == "upgrades" {
                format!("{who} upgrades {hex}{place} to tile {name}")
            } else {
                format!("{who} lays tile {name} on {hex}{place}")
            };
            format!("{verb_text} (rotation {}){cost}", rotation.get())
        }
        Action::PlaceToken { city, .. } => {
            let map = before.title.map;
            let hex = before
                .board
                .locate_city(map, *city)
                .map(|s| map.hex_def(s.hex).id.to_string())
                .unwrap_or_else(|| map.tile_name(city.tile));
            let cost = if spent.0 > 0 {
                format!(" for {spent}")
            } else {
                String::new()
            };
            format!("{who} places a token on {hex}{cost}")
        }
        Action::RunRoutes { routes, .. } => {
            let Entity::Corporation(corp) = entity else {
                return;
            };
            let runs = run_details(before, corp, routes);
            let total: Money = runs.iter().map(|r| r.0).sum();
            if let Some(slot) = last_run.get_mut(usize::from(corp.0)) {
                *slot = total;
            }
            if routes.is_empty() {
                format!("{who} runs no train")
            } else {
                let parts: Vec<String> = routes
                    .iter()
                    .zip(runs.iter())
                    .map(|(r, (rev, stops))| {
                        format!("a {} {stops} for {rev}", train_kind(before, r.train))
                    })
                    .collect();
                format!("{who} runs {} ({total} in all)", parts.join(" and "))
            }
        }
        Action::Dividend { kind, .. } => {
            let Entity::Corporation(corp) = entity else {
                return;
            };
            let total = last_run
                .get(usize::from(corp.0))
                .copied()
                .unwrap_or_default();
            match kind {
                DividendKind::Withhold => format!("{who} withholds {total}"),
                DividendKind::Payout => {
                    let unit = u32::from(before.normal_share_percent(corp));
                    let per_share = before.players.iter().find_map(|p| {
                        let pct = u32::from(before.percent_held(p.id, corp));
                        let gain = after.player(p.id).cash - p.cash;
                        (pct > 0).then(|| Money(gain.0 * i64::from(unit) / i64::from(pct)))
                    });
                    match per_share {
                        Some(s) => format!("{who} pays {s} per share ({total})"),
                        None => format!("{who} pays out {total}"),
                    }
                }
            }
        }
        Action::BuyTrain {
            train,
            price,
            exchange,
            ..
        } => {
            let from = match before
                .trains
                .iter()
                .find(|t| t.id == *train)
                .map(|t| t.owner)
            {
                Some(TrainOwner::Corporation(c)) => corp_name(before, c).to_string(),
                Some(TrainOwner::Pool) => "the market".to_string(),
                _ => "the depot".to_string(),
            };
            let trade = exchange
                .map(|t| format!(", trading in a {}", train_kind(before, t)))
                .unwrap_or_default();
            format!(
                "{who} buys a {} from {from} for {price}{trade}",
                train_kind(before, *train)
            )
        }
        Action::DiscardTrain { train, .. } => {
            format!("{who} discards a {}", train_kind(before, *train))
        }
        Action::Bankrupt { .. } => format!("{who} goes bankrupt"),
        Action::EndGame { .. } => format!("{who} ends the game"),
        Action::Assign { hex, .. } => format!("{who} places its marker on {hex}"),
        // A minor named is proposed for the merger; a major named is what the minors become.
        Action::Merge { corp, .. } => match before.title.corp(*corp).kind {
            CorpKind::Minor => format!("{who} proposes {} for a merger", corp_name(before, *corp)),
            CorpKind::Major => format!(
                "{who} merges the proposed minors into {}",
                corp_name(before, *corp)
            ),
        },
        Action::Vote { in_favour, .. } => format!(
            "{who} votes {} the merger",
            if *in_favour { "for" } else { "against" }
        ),
        Action::Program { .. } => return,
    };
    let mut sentence = text;
    // Price moves caused by the action, in corporation order.
    let mut moves = Vec::new();
    for c in 0..before.corps.len() {
        let corp = CorpId(c as u8);
        let (old, new) = (before.share_price(corp), after.share_price(corp));
        if let (Some(old), Some(new)) = (old, new) {
            if old != new && before.corp(corp).par_price.is_some() {
                moves.push(format!(
                    "{} moves from {old} to {new}",
                    corp_name(after, corp)
                ));
            }
        }
    }
    if !moves.is_empty() {
        sentence.push_str("; ");
        sentence.push_str(&moves.join(", "));
    }
    let kind = if auto { "auto" } else { "action" };
    let push = |out: &mut Vec<Event>, kind: &'static str, actor: Option<String>, text: String| {
        out.push(Event {
            index,
            round: round.to_string(),
            kind,
            actor,
            text,
        });
    };
    push(out, kind, Some(who.clone()), sentence);
    consequences(out, &push, before, after);
}

fn consequences(
    out: &mut Vec<Event>,
    push: &impl Fn(&mut Vec<Event>, &'static str, Option<String>, String),
    before: &Game,
    after: &Game,
) {
    for (k, b) in before.companies.iter().enumerate() {
        let a = &after.companies[k];
        let sym = &before.title.companies[k].sym;
        if matches!(b.owner, CompanyOwner::Unsold) && a.owner != b.owner {
            let owner = match a.owner {
                CompanyOwner::Player(p) => after.player(p).name.clone(),
                CompanyOwner::Corporation(c) => corp_name(after, c).to_string(),
                CompanyOwner::Unsold => continue,
            };
            push(out, "private", None, format!("{owner} wins {sym}"));
        }
    }
    for c in 0..before.corps.len() {
        let corp = CorpId(c as u8);
        let (b, a) = (before.corp(corp), after.corp(corp));
        let sym = corp_name(after, corp).to_string();
        if !b.floated && a.floated {
            push(out, "float", None, format!("{sym} floats with {}", a.cash));
        }
        if a.president != b.president && !a.closed {
            if let Some(p) = a.president {
                push(
                    out,
                    "president",
                    None,
                    format!("{} becomes president of {sym}", after.player(p).name),
                );
            }
        }
        if !b.closed && a.closed {
            push(out, "close", None, format!("{sym} closes"));
        }
    }
    if after.phase != before.phase {
        let phase = &after.title.phases[after.phase];
        let colours: Vec<&str> = phase.tiles.iter().map(|c| c.name()).collect();
        push(
            out,
            "phase",
            None,
            format!(
                "Phase {} begins: {} tiles, train limit {}, {} operating round{} per set",
                phase.name,
                colours.join(", "),
                phase.train_limit,
                phase.operating_rounds,
                if phase.operating_rounds == 1 { "" } else { "s" }
            ),
        );
    }
    let mut rusted: Vec<String> = Vec::new();
    for (i, t) in before.trains.iter().enumerate() {
        let now = after.trains.get(i).map(|t| t.owner);
        if now == Some(TrainOwner::Rusted) && t.owner != TrainOwner::Rusted {
            let owner = match t.owner {
                TrainOwner::Corporation(c) | TrainOwner::Closed(c) => {
                    corp_name(before, c).to_string()
                }
                TrainOwner::Pool => "the market".to_string(),
                _ => "the depot".to_string(),
            };
            rusted.push(format!("{} ({owner})", before.train_name(t.id)));
        }
    }
    if !rusted.is_empty() {
        push(
            out,
            "rust",
            None,
            format!("Trains rust: {}", rusted.join(", ")),
        );
    }
    for (i, t) in before.trains.iter().enumerate() {
        let now = after.trains.get(i).map(|t| t.owner);
        if now == Some(TrainOwner::Exported) && t.owner != TrainOwner::Exported {
            push(
                out,
                "export",
                None,
                format!("Train {} is exported", before.train_name(t.id)),
            );
        }
    }
    for (k, b) in before.companies.iter().enumerate() {
        if !b.closed && after.companies[k].closed {
            push(
                out,
                "close",
                None,
                format!("{} closes", before.title.companies[k].sym),
            );
        }
    }
}

/// The events as text: a heading per round, a line per event.
pub fn text(events: &[Event]) -> String {
    let mut s = String::new();
    for e in events {
        let _ = match e.kind {
            "round" => writeln!(s, "\n== {} ==", e.text),
            "comment" => writeln!(s, "    {{{}}}", e.text),
            "variation" => writeln!(s, "    variation: {}", e.text),
            "action" => writeln!(s, "{:>4}  {}", e.index, e.text),
            "end" => writeln!(s, "\n{}", e.text),
            "standing" => writeln!(s, "  {}", e.text),
            _ => writeln!(s, "      {}", e.text),
        };
    }
    s.trim_start().to_string()
}
