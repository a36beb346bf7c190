//! Conversions between the 18xx.games JSON log and the railnote notation, both lossless for the
//! actions the engine processes: JSON → notation writes, for every action, the shortest move
//! that resolves back to the same action in the same position
//! ([`crate::replay::notation::to_notation`]); notation → JSON writes a minimal log the
//! reference engine loads (players, title, settings, actions with ids 1..n, result).

// A conversion fails once; the size of the error value does not matter.
#![allow(clippy::result_large_err)]

use miette::{Diagnostic, LabeledSpan, SourceCode};
use serde_json::{json, Map, Value};
use std::fmt;

use crate::action::{Action, BidTarget, DividendKind, Entity};
use crate::engine::Game;
use crate::log::{label_span, shorten_quotes, GameLog, LogSource, Span};
use crate::notation::{self, Document, Element, GameText, Heading, RawAction, RoundName, Tag};
use crate::replay::notation::{move_for, train_text, Played};
use crate::replay::{IllegalAction, Replay, SetupFailed};

/// Why a log could not be converted.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum ConvertError {
    /// The log's header describes a game the title does not allow.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Setup(#[from] SetupFailed),
    /// An action of the log is illegal.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Illegal(#[from] IllegalAction),
    /// A name in the log's header that the notation cannot hold.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Unwritable(#[from] Box<UnwritableName>),
}

/// A name from the log's header (a player's name or id, an optional rule, the game's id) that
/// the notation cannot write: written anyway, the notation would not read back, or would read
/// as other players.
#[derive(Debug, thiserror::Error)]
#[error("{}", shorten_quotes(format!("the {what} `{value}` cannot be written in the notation: {why}")))]
pub struct UnwritableName {
    /// The file.
    pub src: LogSource,
    /// Where the name is (the header, when the reader keeps no place for it).
    pub span: Span,
    /// What the name is (`player name`, `optional rule`).
    pub what: &'static str,
    /// The name.
    pub value: String,
    /// Why it cannot be written.
    pub why: &'static str,
}

impl Diagnostic for UnwritableName {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new("convert::unwritable_name"))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.src)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(
                Some(format!("{}: {}", self.what, self.why)),
                label_span(self.span),
            ),
        )))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(
            "the notation writes these names in tags (`[Players \"Ann, Bob\"]`) and quotes a \
             player's name before a move: a name cannot hold `\"`, `]`, a comma or a line break, \
             be empty or start or end with a space, be a corporation's or a private's symbol, and two \
             players cannot share one",
        ))
    }
}

/// Why `name` cannot be one of the comma-separated names of a tag, if it cannot.
fn unwritable_in_list(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        Some("it is empty")
    } else if name.contains('"') {
        Some("it holds `\"`, which ends a tag's value and a quoted name")
    } else if name.contains(']') {
        Some("it holds `]`, which ends a tag")
    } else if name.contains(['\n', '\r']) {
        Some("it holds a line break; a tag is one line")
    } else if name.contains(',') {
        Some("it holds a comma, which separates the names of a tag")
    } else if name.trim() != name {
        Some("it starts or ends with a space, which a tag's names lose")
    } else {
        None
    }
}

/// Every name of the header that the notation will hold can be written and reads back as
/// itself.
fn check_writable(log: &GameLog) -> Result<(), Box<UnwritableName>> {
    let unwritable = |span: Span, what: &'static str, value: &str, why: &'static str| {
        Err(Box::new(UnwritableName {
            src: log.source(),
            span,
            what,
            value: value.to_string(),
            why,
        }))
    };
    let players = &log.header.players;
    for (i, p) in players.iter().enumerate() {
        if let Some(why) = unwritable_in_list(&p.name) {
            return unwritable(p.span, "player name", &p.name, why);
        }
        if log.title.corp_by_sym(&p.name).is_some() || log.title.company_by_sym(&p.name).is_some() {
            return unwritable(
                p.span,
                "player name",
                &p.name,
                "it is a corporation's or a private's symbol, which the notation would read instead",
            );
        }
        if players[..i].iter().any(|q| q.name == p.name) {
            return unwritable(
                p.span,
                "player name",
                &p.name,
                "another player has it; the notation names players by name",
            );
        }
        if let Some(why) = unwritable_in_list(&p.id) {
            return unwritable(p.span, "player id", &p.id, why);
        }
    }
    for rule in &log.header.optional_rules {
        if let Some(why) = unwritable_in_list(&rule.value) {
            return unwritable(rule.span, "optional rule", &rule.value, why);
        }
    }
    if let Some(id) = &log.header.game_id {
        // A single value: only what ends the tag matters.
        let why = if id.contains('"') {
            Some("it holds `\"`, which ends a tag's value")
        } else if id.contains(']') {
            Some("it holds `]`, which ends a tag")
        } else if id.contains(['\n', '\r']) {
            Some("it holds a line break; a tag is one line")
        } else {
            None
        };
        if let Some(why) = why {
            return unwritable(Span::default(), "game id", id, why);
        }
    }
    Ok(())
}

fn tag(name: &str, value: impl Into<String>) -> Tag {
    Tag {
        name: name.into(),
        value: value.into(),
        span: Span::default(),
        value_span: Span::default(),
    }
}

fn round_name(label: &str) -> Option<RoundName> {
    label.parse().ok()
}

/// Converts a replayable 18xx.games log to a notation document (one game).
///
/// # Errors
/// The log cannot be replayed (the notation could not express an illegal action faithfully),
/// or a name of its header cannot be written in the notation.
pub fn to_notation(log: &GameLog) -> Result<Document, ConvertError> {
    check_writable(log)?;
    let mut replay = Replay::new(log)?;
    let mut body = Vec::new();
    let mut heading = String::new();
    let mut last_entity: Option<Entity> = None;
    let mut k = 0;
    while k < log.actions.len() {
        let logged = &log.actions[k];
        let game = replay.game().clone();
        let label = game.round_label();
        if label != heading {
            if let Some(round) = round_name(&label) {
                body.push(Element::Heading(Heading {
                    round,
                    span: Span::default(),
                }));
            }
            heading = label;
            last_entity = None;
        }
        push_move(
            &mut body,
            &game,
            &with_revenues(&game, &logged.action),
            &logged.type_name,
            last_entity,
            false,
        );
        if let (Some(Element::Move(m)), Some(args)) = (
            body.last_mut(),
            program_args(log, &logged.type_name, logged.span),
        ) {
            if let RawAction::Program { args: a, .. } = &mut m.action {
                *a = args;
            }
        }
        last_entity = Some(logged.action.entity());
        // Auto actions are written after their parent, in the position they are processed in.
        let mut g = game.clone();
        let _ = g.process(&logged.action);
        for auto in &logged.auto_actions {
            push_move(&mut body, &g, &auto.action, &auto.type_name, None, true);
            if let (Some(Element::Move(m)), Some(args)) = (
                body.last_mut(),
                program_args(log, &auto.type_name, auto.span),
            ) {
                if let RawAction::Program { args: a, .. } = &mut m.action {
                    *a = args;
                }
            }
            let _ = g.process(&auto.action);
            last_entity = None;
        }
        match replay.step() {
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(e.into()),
            None => break,
        }
        k += 1;
    }
    let game = replay.game();
    let mut tags = vec![
        tag("Title", log.title.name.clone()),
        tag(
            "Players",
            log.header
                .players
                .iter()
                .map(|p| p.name.clone())
                .collect::<Vec<_>>()
                .join(", "),
        ),
    ];
    if !log.header.optional_rules.is_empty() {
        tags.push(tag(
            "Rules",
            log.header
                .optional_rules
                .iter()
                .map(|r| r.value.clone())
                .collect::<Vec<_>>()
                .join(", "),
        ));
    }
    if let Some(id) = &log.header.game_id {
        tags.push(tag("Id", id.clone()));
    }
    // Titles with a random setup: the seed it is drawn from.
    if let (Some(seed), true) = (
        crate::replay::setup(log).seed,
        game.title.has_random_setup(&game.options.optional_rules),
    ) {
        tags.push(tag("Seed", seed.to_string()));
    }
    // ... and its outcome, so that the record does not depend on the seed.
    if let Some(resolved) = &game.resolved_setup {
        tags.push(tag("Setup", resolved.describe(game.title)));
    }
    if log.header.players.iter().any(|p| p.id != p.name) {
        tags.push(tag(
            "Ids",
            log.header
                .players
                .iter()
                .map(|p| p.id.clone())
                .collect::<Vec<_>>()
                .join(", "),
        ));
    }
    if game.finished {
        tags.push(tag("Result", crate::replay::notation::result_text(game)));
    }
    Ok(Document {
        games: vec![GameText { tags, body }],
    })
}

/// A run as the notation writes it: each route with its revenue, the one the rules give where
/// the log states none (old 18xx.games logs store no revenues), so that a converted game reads
/// like an annotated one and checks itself when replayed.
fn with_revenues(game: &Game, action: &Action) -> Action {
    let Action::RunRoutes {
        entity: entity @ Entity::Corporation(corp),
        routes,
    } = action
    else {
        return action.clone();
    };
    if routes.iter().all(|r| r.revenue.is_some()) {
        return action.clone();
    }
    match game.run_revenues(*corp, routes) {
        Ok(revenues) => Action::RunRoutes {
            entity: *entity,
            routes: routes
                .iter()
                .zip(revenues)
                .map(|(r, revenue)| crate::action::RouteSpec {
                    revenue: Some(r.revenue.unwrap_or(revenue)),
                    ..r.clone()
                })
                .collect(),
        },
        // The replay reports it.
        Err(_) => action.clone(),
    }
}

fn push_move(
    body: &mut Vec<Element>,
    game: &Game,
    action: &Action,
    type_name: &str,
    last_entity: Option<Entity>,
    auto: bool,
) {
    let entity = action.entity();
    let with_actor = auto || Some(entity) != last_entity || game.acting_entity() != Some(entity);
    let mut m = move_for(game, action, with_actor, auto);
    if let Some(kind) = type_name.strip_prefix("program_") {
        m.action = RawAction::Program {
            kind: kind.into(),
            args: Vec::new(),
        };
    }
    body.push(Element::Move(m));
}

/// The settings of a programmed action, read back from its JSON object (the ones the notation
/// can write: see [`setting_text`]).
fn program_args(log: &GameLog, type_name: &str, span: Span) -> Option<Vec<(String, String)>> {
    Some(
        program_settings(log, type_name, span)?
            .iter()
            .filter_map(|(k, v)| setting_text(k, v))
            .collect(),
    )
}

/// The settings of a programmed action as its JSON object has them.
fn program_settings(log: &GameLog, type_name: &str, span: Span) -> Option<Map<String, Value>> {
    if !type_name.starts_with("program_") {
        return None;
    }
    let text = log.src.get(span.offset..span.end())?;
    let Ok(Value::Object(obj)) = serde_json::from_str::<Value>(text) else {
        return None;
    };
    const SKIP: &[&str] = &[
        "type",
        "entity",
        "entity_type",
        "id",
        "created_at",
        "user",
        "auto_actions",
        "original_id",
    ];
    Some(
        obj.into_iter()
            .filter(|(k, _)| !SKIP.contains(&k.as_str()))
            .collect(),
    )
}

/// A setting as the notation writes it (`key=word`, `key="some text"`), if it can: the key is
/// one word without `=`; a text value is bare when it is one word that does not read as JSON,
/// quoted when it holds no `"` or line break. Lists and objects cannot be written.
fn setting_text(key: &str, value: &Value) -> Option<(String, String)> {
    let plain = |t: &str| {
        !t.is_empty()
            && t.chars().all(|c| {
                !(c.is_whitespace()
                    || matches!(
                        c,
                        ',' | '(' | ')' | '{' | '}' | '[' | ']' | ';' | '"' | '!' | '?'
                    ))
            })
    };
    if !plain(key) || key.contains(['=', ':']) {
        return None;
    }
    let text = match value {
        Value::String(s) if plain(s) && serde_json::from_str::<Value>(s).is_err() => s.clone(),
        Value::String(s) if !s.contains(['"', '\n', '\r']) => format!("\"{s}\""),
        Value::Bool(_) | Value::Number(_) | Value::Null => value.to_string(),
        _ => return None,
    };
    Some((key.to_string(), text))
}

/// How many settings of the log's programmed actions the notation cannot write (and
/// [`to_notation`] leaves out): lists, objects, text with `"` or a line break, odd keys.
pub fn unwritable_settings(log: &GameLog) -> usize {
    log.actions
        .iter()
        .flat_map(|a| {
            std::iter::once((a.type_name.as_ref(), a.span)).chain(
                a.auto_actions
                    .iter()
                    .map(|x| (x.type_name.as_ref(), x.span)),
            )
        })
        .filter_map(|(type_name, span)| program_settings(log, type_name, span))
        .map(|settings| {
            settings
                .iter()
                .filter(|(k, v)| setting_text(k, v).is_none())
                .count()
        })
        .sum()
}

fn setting_value(v: &str) -> Value {
    serde_json::from_str::<Value>(v).unwrap_or_else(|_| json!(v))
}

fn entity_json(log: &GameLog, game: &Game, e: Entity) -> (Value, &'static str) {
    match e {
        Entity::Player(p) => (id_value(log.player_id(p)), "player"),
        Entity::Corporation(c) => (json!(game.title.corp(c).sym), "corporation"),
        Entity::Company(c) => (json!(game.title.company(c).sym), "company"),
    }
}

fn id_value(id: &str) -> Value {
    id.parse::<i64>().map_or_else(|_| json!(id), |n| json!(n))
}

fn action_json(log: &GameLog, game: &Game, type_name: &str, action: &Action) -> Map<String, Value> {
    let title = game.title;
    let map = title.map;
    let mut o = Map::new();
    o.insert("type".into(), json!(type_name));
    let (entity, entity_type) = entity_json(log, game, action.entity());
    o.insert("entity".into(), entity);
    o.insert("entity_type".into(), json!(entity_type));
    let shares = |s: &[crate::ids::ShareId]| {
        json!(s
            .iter()
            .map(|s| format!("{}_{}", title.corp(s.corp).sym, s.index))
            .collect::<Vec<_>>())
    };
    match action {
        Action::Pass { .. } | Action::Bankrupt { .. } | Action::EndGame { .. } => {}
        Action::Program { .. } => {}
        Action::Assign { hex, .. } => {
            o.insert("target".into(), json!(hex.to_string()));
            o.insert("target_type".into(), json!("hex"));
        }
        Action::Merge { corp, .. } => {
            o.insert("corporation".into(), json!(title.corp(*corp).sym));
        }
        Action::Vote { in_favour, .. } => {
            o.insert(
                "choice".into(),
                json!(if *in_favour { "for" } else { "against" }),
            );
        }
        Action::Bid { target, price, .. } => {
            match target {
                BidTarget::Company(c) => o.insert("company".into(), json!(title.company(*c).sym)),
                BidTarget::Corporation(c) => {
                    o.insert("corporation".into(), json!(title.corp(*c).sym))
                }
            };
            o.insert("price".into(), json!(price.0));
        }
        Action::Par { corp, cell, .. } => {
            o.insert("corporation".into(), json!(title.corp(*corp).sym));
            o.insert(
                "share_price".into(),
                json!(format!("{},{},{}", cell.price.0, cell.row, cell.column)),
            );
        }
        Action::BuyShares {
            shares: s,
            percent,
            share_price,
            ..
        }
        | Action::SellShares {
            shares: s,
            percent,
            share_price,
            ..
        } => {
            o.insert("shares".into(), shares(s));
            if let Some(price) = share_price {
                o.insert("share_price".into(), json!(price.0));
            }
            if let Some(p) = percent {
                o.insert("percent".into(), json!(p.0));
            }
        }
        Action::BuyCompany { company, price, .. } => {
            o.insert("company".into(), json!(title.company(*company).sym));
            o.insert("price".into(), json!(price.0));
        }
        Action::LayTile {
            hex,
            tile,
            rotation,
            ..
        } => {
            o.insert("hex".into(), json!(hex.to_string()));
            o.insert("tile".into(), json!(map.tile_name(*tile)));
            o.insert("rotation".into(), json!(rotation.get()));
        }
        Action::PlaceToken {
            city, slot, cost, ..
        } => {
            o.insert(
                "city".into(),
                json!(format!("{}-{}", map.tile_name(city.tile), city.part)),
            );
            if let Some(s) = slot {
                o.insert("slot".into(), json!(s));
            }
            if let Some(c) = cost {
                o.insert("cost".into(), json!(c.0));
            }
        }
        Action::RunRoutes { routes, .. } => {
            let rs: Vec<Value> = routes
                .iter()
                .map(|r| {
                    let mut m = Map::new();
                    m.insert("train".into(), json!(train_text(game, r.train)));
                    if r.walk.is_empty() {
                        m.insert(
                            "connections".into(),
                            json!(r
                                .connections
                                .iter()
                                .map(|c| c.iter().map(|h| h.to_string()).collect::<Vec<_>>())
                                .collect::<Vec<_>>()),
                        );
                    } else {
                        // A route of an older log: the hexes it walks.
                        m.insert(
                            "hexes".into(),
                            json!(r.walk.iter().map(|h| h.to_string()).collect::<Vec<_>>()),
                        );
                    }
                    if let Some(rev) = r.revenue {
                        m.insert("revenue".into(), json!(rev.0));
                    }
                    if !r.nodes.is_empty() {
                        m.insert(
                            "nodes".into(),
                            json!(r
                                .nodes
                                .iter()
                                .map(|(h, p)| format!("{h}-{p}"))
                                .collect::<Vec<_>>()),
                        );
                    }
                    Value::Object(m)
                })
                .collect();
            o.insert("routes".into(), json!(rs));
        }
        Action::Dividend { kind, .. } => {
            o.insert(
                "kind".into(),
                json!(match kind {
                    DividendKind::Payout => "payout",
                    DividendKind::Withhold => "withhold",
                }),
            );
        }
        Action::BuyTrain {
            train,
            price,
            exchange,
            ..
        } => {
            o.insert("train".into(), json!(train_text(game, *train)));
            o.insert("price".into(), json!(price.0));
            if let Some(x) = exchange {
                o.insert("exchange".into(), json!(train_text(game, *x)));
            }
        }
        Action::DiscardTrain { train, .. } => {
            o.insert("train".into(), json!(train_text(game, *train)));
        }
    }
    o
}

/// Writes a replayed notation game as an 18xx.games JSON log.
pub fn to_json(played: &Played) -> Value {
    let log = &played.log;
    let game = &played.game;
    let mut actions = Vec::new();
    for (i, a) in log.actions.iter().enumerate() {
        let mut o = action_json(log, game, &a.type_name, &a.action);
        for (k, v) in played.programs.get(&(i, 0)).into_iter().flatten() {
            o.insert(k.clone(), setting_value(v));
        }
        o.insert("id".into(), json!(i + 1));
        if !a.auto_actions.is_empty() {
            let autos: Vec<Value> = a
                .auto_actions
                .iter()
                .enumerate()
                .map(|(j, x)| {
                    let mut o = action_json(log, game, &x.type_name, &x.action);
                    for (k, v) in played.programs.get(&(i, j + 1)).into_iter().flatten() {
                        o.insert(k.clone(), setting_value(v));
                    }
                    Value::Object(o)
                })
                .collect();
            o.insert("auto_actions".into(), json!(autos));
        }
        actions.push(Value::Object(o));
    }
    let mut top = Map::new();
    if let Some(id) = &log.header.game_id {
        top.insert("id".into(), id_value(id));
    }
    top.insert(
        "players".into(),
        json!(log
            .header
            .players
            .iter()
            .map(|p| json!({"id": id_value(&p.id), "name": p.name}))
            .collect::<Vec<_>>()),
    );
    top.insert("title".into(), json!(log.title.name));
    top.insert(
        "settings".into(),
        match crate::replay::setup(log).seed {
            Some(seed) if game.title.has_random_setup(&game.options.optional_rules) => json!({
                "seed": seed,
                "optional_rules": log.header.optional_rules.iter().map(|r| r.value.clone()).collect::<Vec<_>>(),
            }),
            _ => json!({"optional_rules": log.header.optional_rules.iter().map(|r| r.value.clone()).collect::<Vec<_>>()}),
        },
    );
    if game.finished {
        top.insert("status".into(), json!("finished"));
        let values = game.player_values();
        let result: Map<String, Value> = game
            .players
            .iter()
            .map(|p| {
                (
                    log.player_id(p.id).to_string(),
                    json!(values.get(&p.id).map_or(0, |v| v.0)),
                )
            })
            .collect();
        top.insert("result".into(), Value::Object(result));
        if let Some(r) = game.end_reason {
            top.insert("game_end_reason".into(), json!(r.as_str()));
        }
    }
    top.insert("actions".into(), json!(actions));
    Value::Object(top)
}

/// The canonical text of a document (what `railnote fmt` prints).
pub fn format(doc: &Document) -> String {
    notation::write(doc)
}
