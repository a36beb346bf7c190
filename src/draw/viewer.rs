//! A self-contained HTML viewer of a whole game: the map, the standings and the market, the
//! notation with the current move highlighted and its comment, the transcript sentences of
//! the move, and the two charts. A slider, the arrow keys and a click on a move step through
//! the game; the fragment `#N` opens the state after N actions.
//!
//! The file carries every state without repeating what does not change: each hex's drawing
//! is stored once per distinct look and each state lists the hexes that change; the standings
//! are a flat list of values and each state lists the values that change. The page's script
//! only swaps those in.

// A replay that fails ends the command; the size of the error does not matter.
#![allow(clippy::result_large_err)]

use std::collections::HashMap;

use serde::Serialize;
use serde_json::{json, Value};

use crate::engine::map::HexIdx;
use crate::engine::{CompanyOwner, Game, GameEndReason};
use crate::ids::{CorpId, PlayerId};
use crate::replay::{Replay, ReplayError};

use super::chart::{prices_svg, values_svg, History};
use super::document::GameDocument;
use super::map::{hex_svg, map_document, Frame, MapOptions};
use super::palette::{self, corp_colours};
use super::svg::Escaped;
use super::transcript;

const TEMPLATE: &str = include_str!("viewer.html");
const SCRIPT: &str = include_str!("viewer.js");

/// Values of the standings per player and per corporation, in the order the script reads
/// them: `round, phase, bank, acting`, then per player `cash, value, shares, privates`, then
/// per corporation `price, cash, trains, president, status, market cell, tokens left,
/// privates, IPO %, market %`.
fn standings(game: &Game) -> Vec<Value> {
    let mut v: Vec<Value> = vec![
        json!(if game.finished {
            "game over".to_string()
        } else {
            game.round_label()
        }),
        json!(game.phase_name()),
        json!(game.bank.0),
        json!(game
            .acting_entity()
            .map(|e| game.entity_name(e))
            .unwrap_or_default()),
    ];
    let values = game.player_values();
    for p in &game.players {
        let shares: Vec<String> = (0..game.corps.len())
            .map(|c| CorpId(c as u8))
            .filter_map(|c| {
                let pct = game.percent_held(p.id, c);
                let president = game.corp(c).president == Some(p.id);
                (pct > 0).then(|| {
                    format!(
                        "{}{} {pct}%",
                        game.title.corp(c).sym,
                        if president { "*" } else { "" }
                    )
                })
            })
            .collect();
        let privates: Vec<&str> = p
            .companies
            .iter()
            .filter(|c| !game.company(**c).closed)
            .map(|c| game.title.company(*c).sym.as_str())
            .collect();
        let value = values.get(&p.id).map_or(0, |m| m.0);
        let cash = if p.bankrupt {
            json!("bankrupt")
        } else {
            json!(p.cash.0)
        };
        v.extend([
            cash,
            json!(value),
            json!(shares.join(", ")),
            json!(privates.join(" ")),
        ]);
    }
    for c in 0..game.corps.len() {
        let id = CorpId(c as u8);
        let corp = game.corp(id);
        let trains: Vec<String> = corp
            .trains
            .iter()
            .map(|t| game.title.train(t.kind).name.clone())
            .collect();
        let status = if corp.closed {
            "closed"
        } else if corp.floated {
            "floated"
        } else if corp.ipoed {
            "parred"
        } else {
            ""
        };
        let cell = corp
            .share_price
            .filter(|_| !corp.closed)
            .map(|p| format!("{},{}", p.row, p.column))
            .unwrap_or_default();
        let privates: Vec<&str> = corp
            .companies
            .iter()
            .filter(|k| !game.company(**k).closed)
            .map(|k| game.title.company(*k).sym.as_str())
            .collect();
        v.extend([
            game.share_price(id)
                .filter(|_| !corp.closed)
                .map_or(json!(""), |p| json!(p.0)),
            json!(corp.cash.0),
            json!(trains.join(" ")),
            json!(corp
                .president
                .map(|p| game.player(p).name.clone())
                .unwrap_or_default()),
            json!(status),
            json!(cell),
            json!(corp.tokens_unused),
            json!(privates.join(" ")),
            json!(game.ipo_percent(id)),
            json!(game.pool_percent(id)),
        ]);
    }
    v
}

/// What makes every hex look different at once: the phase (revenues), which privates block
/// hexes and which markers lie on the map.
fn board_wide(game: &Game) -> (usize, Vec<(bool, bool)>, usize) {
    let owners = game
        .companies
        .iter()
        .map(|c| (c.closed, matches!(c.owner, CompanyOwner::Corporation(_))))
        .collect();
    (game.phase, owners, game.assignments.len())
}

#[derive(Serialize)]
struct Schema {
    title: String,
    name: String,
    count: usize,
    players: Vec<String>,
    corps: Vec<CorpInfo>,
    finished: bool,
    result: String,
}

#[derive(Serialize)]
struct CorpInfo {
    sym: String,
    name: String,
    fill: String,
    text: String,
}

#[derive(Serialize)]
struct Data {
    schema: Schema,
    /// Distinct hex drawings.
    groups: Vec<String>,
    /// Drawing of each hex before the first action.
    hexes: Vec<usize>,
    /// Per state 1..=count: `[hex, drawing, hex, drawing, …]` that change.
    hex_changes: Vec<Vec<usize>>,
    /// Standings before the first action.
    slots: Vec<Value>,
    /// Per state 1..=count: `[slot, value, …]` that change.
    slot_changes: Vec<Vec<Value>>,
    /// Per state 0..=count: the transcript's sentences of that action.
    events: Vec<Vec<String>>,
    /// Per state 0..=count with notes: glyph and comments.
    notes: std::collections::BTreeMap<usize, super::document::ActionNote>,
}

struct Drawings {
    ids: HashMap<String, usize>,
    list: Vec<String>,
}

impl Drawings {
    fn id(&mut self, svg: String) -> usize {
        if let Some(&id) = self.ids.get(&svg) {
            return id;
        }
        let id = self.list.len();
        self.ids.insert(svg.clone(), id);
        self.list.push(svg);
        id
    }
}

/// The notation text as HTML: each move of the main line wrapped in a span that knows its
/// action.
fn notation_html(doc: &GameDocument) -> String {
    let mut marks: Vec<(usize, usize, usize)> = Vec::new();
    for (i, a) in doc.log.actions.iter().enumerate() {
        marks.push((a.span.offset, a.span.end(), i + 1));
        for auto in &a.auto_actions {
            marks.push((auto.span.offset, auto.span.end(), i + 1));
        }
    }
    marks.sort();
    let text = &doc.text;
    let mut out = String::with_capacity(text.len() * 2);
    let mut at = 0;
    for (start, end, index) in marks {
        if start < at || end > text.len() {
            continue;
        }
        let (Some(before), Some(inside)) = (text.get(at..start), text.get(start..end)) else {
            continue;
        };
        out.push_str(&Escaped(before).to_string());
        out.push_str(&format!(
            "<span class=\"mv\" data-i=\"{index}\">{}</span>",
            Escaped(inside)
        ));
        at = end;
    }
    out.push_str(&Escaped(text.get(at..).unwrap_or("")).to_string());
    out
}

fn market_html(game: &Game) -> String {
    let mut out = String::from("<table class=\"market\">");
    for (r, row) in game.title.market.iter().enumerate() {
        out.push_str("<tr>");
        for (c, cell) in row.iter().enumerate() {
            match cell {
                Some(cell) => {
                    let mut class = Vec::new();
                    if cell.par {
                        class.push("par");
                    }
                    if cell.close || cell.end_game {
                        class.push("edge");
                    } else if cell.ownership_exempt {
                        class.push("brown");
                    } else if cell.cert_exempt {
                        class.push("yellow");
                    }
                    out.push_str(&format!(
                        "<td id=\"mk-{r}-{c}\" class=\"{}\"><b>{}</b></td>",
                        class.join(" "),
                        cell.price.0
                    ));
                }
                None => out.push_str("<td class=\"none\"></td>"),
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</table>");
    out
}

fn result_line(game: &Game) -> String {
    if !game.finished {
        return "unfinished".to_string();
    }
    let mut values: Vec<(PlayerId, i64)> = game
        .player_values()
        .into_iter()
        .map(|(p, m)| (p, m.0))
        .collect();
    values.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let list: Vec<String> = values
        .iter()
        .map(|(p, v)| format!("{} {v}", game.player(*p).name))
        .collect();
    let reason = game.end_reason.map_or("", GameEndReason::as_str);
    format!("{} ({reason})", list.join(", "))
}

/// The viewer of a game as one HTML document.
///
/// # Errors
/// The game cannot be replayed.
pub fn html(doc: &GameDocument) -> Result<String, ReplayError> {
    let mut replay = Replay::new(&doc.log)?;
    let start = replay.game().clone();
    let map = start.title.map;
    let frame = Frame::new(map);
    let mut drawings = Drawings {
        ids: HashMap::new(),
        list: Vec::new(),
    };
    let hex_count = map.hexes.len();
    let mut hexes: Vec<usize> = (0..hex_count)
        .map(|i| drawings.id(hex_svg(&start, &frame, HexIdx(i as u16), &[])))
        .collect();
    let first_hexes = hexes.clone();
    let mut hex_state: Vec<_> = start.board.hexes.to_vec();
    let mut wide = board_wide(&start);
    let mut slots = standings(&start);
    let first_slots = slots.clone();
    let mut hex_changes = Vec::new();
    let mut slot_changes = Vec::new();
    let mut history = History::start(&start);
    let mut label = start.round_label();
    while let Some(step) = replay.step() {
        let step = step?;
        let game = replay.game();
        let now_wide = board_wide(game);
        let all = now_wide != wide;
        wide = now_wide;
        let mut changes = Vec::new();
        for i in 0..hex_count {
            if all || game.board.hexes[i] != hex_state[i] {
                let id = drawings.id(hex_svg(game, &frame, HexIdx(i as u16), &[]));
                if id != hexes[i] {
                    hexes[i] = id;
                    changes.extend([i, id]);
                }
            }
        }
        hex_state.clone_from(&game.board.hexes);
        hex_changes.push(changes);
        let now = standings(game);
        let mut diff = Vec::new();
        for (k, value) in now.iter().enumerate() {
            if slots.get(k) != Some(value) {
                diff.extend([json!(k), value.clone()]);
            }
        }
        slots = now;
        slot_changes.push(diff);
        let round = game.round_label();
        if round != label {
            history.note(&label, step.index, game);
            label = round;
        }
    }
    let end = replay.game().clone();
    history.note(
        if end.finished { "end" } else { &label },
        replay.processed(),
        &end,
    );
    let count = replay.processed();
    let mut events: Vec<Vec<String>> = vec![Vec::new(); count + 1];
    for e in transcript::events(&doc.log, None)? {
        if matches!(e.kind, "round" | "comment" | "variation") {
            continue;
        }
        if let Some(list) = events.get_mut(e.index) {
            list.push(e.text);
        }
    }
    // The page shows the file's name, not where it was on the machine that made it.
    let shown_name = std::path::Path::new(&doc.name)
        .file_name()
        .map_or_else(|| doc.name.clone(), |n| n.to_string_lossy().into_owned());
    let schema = Schema {
        title: start.title.name.clone(),
        name: shown_name.clone(),
        count,
        players: start.players.iter().map(|p| p.name.clone()).collect(),
        corps: (0..start.corps.len())
            .map(|c| {
                let id = CorpId(c as u8);
                let (fill, text) = corp_colours(start.title, id);
                CorpInfo {
                    sym: start.title.corp(id).sym.clone(),
                    name: start.title.corp(id).name.clone(),
                    fill: fill.to_string(),
                    text: text.to_string(),
                }
            })
            .collect(),
        finished: end.finished,
        result: result_line(&end),
    };
    let data = Data {
        schema,
        groups: drawings.list,
        hexes: first_hexes,
        hex_changes,
        slots: first_slots,
        slot_changes,
        events,
        notes: doc.notes.clone(),
    };
    // Inside the script element, `</script` would end it early and `<!--` would change how the
    // browser looks for its end; `<` is only ever inside a JSON string, where `\u003c` is the
    // same character.
    let data_json = serde_json::to_string(&data)
        .unwrap_or_default()
        .replace('<', "\\u003c");
    let map_svg = map_document(
        &start,
        &frame,
        &MapOptions {
            caption: super::caption(&start, 0),
            ..MapOptions::default()
        },
        |svg, hex| {
            svg.raw(&format!("<g id=\"hx{}\">", hex.get()));
            svg.raw(&drawings_initial(&data.groups, &data.hexes, hex.get()));
            svg.raw("</g>");
        },
    );
    let mut env = minijinja::Environment::new();
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    let rendered = env.template_from_str(TEMPLATE).and_then(|t| {
        t.render(minijinja::context! {
            title => start.title.name.clone(),
            name => shown_name,
            players => start.players.iter().map(|p| p.name.clone()).collect::<Vec<_>>().join(", "),
            result => result_line(&end),
            count => count,
            converted => doc.converted,
            map => minijinja::Value::from_safe_string(map_svg),
            market => minijinja::Value::from_safe_string(market_html(&start)),
            notation => minijinja::Value::from_safe_string(notation_html(doc)),
            prices => minijinja::Value::from_safe_string(prices_svg(&history)),
            values => minijinja::Value::from_safe_string(values_svg(&history)),
            data => minijinja::Value::from_safe_string(data_json),
            script => minijinja::Value::from_safe_string(SCRIPT.to_string()),
            font => palette::FONT,
        })
    });
    // The template is part of the crate and tested; a failure here is a build defect.
    Ok(rendered.unwrap_or_else(|e| format!("<!doctype html><p>viewer template: {e}</p>")))
}

fn drawings_initial(groups: &[String], hexes: &[usize], hex: usize) -> String {
    hexes
        .get(hex)
        .and_then(|&id| groups.get(id))
        .cloned()
        .unwrap_or_default()
}
