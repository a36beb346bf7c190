//! A Rails save as a railnote notation game: Rails' names mapped through the title's
//! `data/<title>/rails.json`, each Rails action written as the move it is (runs by their
//! revenue, as Rails records them), Rails' options as the title's optional rules. Knows no
//! rules: the notation replay judges every move.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Deserialize;

use super::save::{NullMode, RailsAction, Save, Saved};

/// How Rails names a title's things (`data/<title>/rails.json`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RailsNames {
    /// Why the file is there.
    pub comment: String,
    /// Rails' name of the title.
    pub game: String,
    /// Rails' private names to railnote's symbols.
    pub privates: BTreeMap<String, String>,
    /// Rails' corporation names that railnote spells otherwise.
    pub corporations: BTreeMap<String, String>,
    /// Rails' special property ids (numbered in the order of its data) to the private whose
    /// ability each is, and who acts when it is used.
    pub special_properties: BTreeMap<String, SpecialProperty>,
    /// Each option railnote plays: its values railnote has, with the optional rules each
    /// means (`{"players": true}`: the player count). A value not listed is refused.
    pub options: BTreeMap<String, serde_json::Value>,
    /// Options that are Rails' settings, not rules (how it draws routes, hides values…).
    pub settings: Vec<String>,
}

/// A private's special property.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialProperty {
    /// The private's symbol.
    pub private: String,
    /// `private` (the private acts, as in 18xx.games) or `corporation` (a discount the
    /// corporation's own lay gets by itself).
    pub actor: String,
}

/// The titles railnote reads Rails saves of, with their names file.
const TITLES: &[(&str, &str, &str)] = &[
    ("1830", "1830", include_str!("../../data/1830/rails.json")),
    ("1889", "1889", include_str!("../../data/1889/rails.json")),
];

/// Why a save cannot become a railnote game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// A title railnote does not play.
    #[error("the save is a game of {0}, which railnote does not play (it reads Rails saves of {known})", known = known_titles())]
    UnknownTitle(String),
    /// An option or variant railnote does not have.
    #[error("the save's option {name} = {value} is a rule railnote does not have: {why}")]
    Option {
        name: String,
        value: String,
        why: String,
    },
    /// An action that has no move in this title.
    #[error("action {number} ({class}) has no move in {title}")]
    NoMove {
        number: usize,
        class: String,
        title: String,
    },
    /// A name in an action the title does not have.
    #[error("action {number} ({class}): {what} `{name}` is not one of {title}'s")]
    UnknownName {
        number: usize,
        class: String,
        what: &'static str,
        name: String,
        title: String,
    },
}

fn known_titles() -> String {
    TITLES.iter().map(|t| t.0).collect::<Vec<_>>().join(", ")
}

/// The names file of Rails' game `game`.
///
/// # Errors
/// A title railnote does not read Rails saves of.
pub fn names_of(game: &str) -> Result<(&'static str, RailsNames), RecordError> {
    let (_, title, json) = TITLES
        .iter()
        .find(|t| t.0 == game)
        .ok_or_else(|| RecordError::UnknownTitle(game.to_string()))?;
    // The files are the project's own: a mistake in them is a bug, caught by the tests.
    let names =
        serde_json::from_str(json).unwrap_or_else(|e| panic!("data/{title}/rails.json: {e}"));
    Ok((title, names))
}

/// The optional rules the save's options mean.
///
/// # Errors
/// The first option (or value) railnote does not have, by name.
pub fn optional_rules(save: &Save, names: &RailsNames) -> Result<Vec<String>, RecordError> {
    let mut rules = Vec::new();
    // The variant first: it is what a refused save is refused for.
    let mut options: Vec<&(String, String)> = save.options.iter().collect();
    options.sort_by_key(|(name, _)| name != "Variant");
    for (name, value) in options {
        if names.settings.contains(name) {
            continue;
        }
        let refuse = |why: &str| RecordError::Option {
            name: name.clone(),
            value: value.clone(),
            why: why.to_string(),
        };
        let Some(values) = names.options.get(name) else {
            return Err(refuse("railnote does not know this option"));
        };
        if values.get("players").is_some() {
            continue;
        }
        // Rails' 70 % certificate limit is a two-player rule; with more players it does nothing.
        if name == "TwoPlayersCertLimit70Percent" && value == "yes" && save.players.len() == 2 {
            return Err(refuse(
                "railnote plays the two-player game with the title's own limit",
            ));
        }
        match values.get(value).and_then(|v| v.as_array()) {
            Some(list) => rules.extend(list.iter().filter_map(|r| r.as_str().map(str::to_string))),
            None => {
                let known: Vec<&str> = values
                    .as_object()
                    .map(|o| o.keys().map(String::as_str).collect())
                    .unwrap_or_default();
                return Err(refuse(&format!(
                    "railnote plays it as {}",
                    known.join(" or ")
                )));
            }
        }
    }
    rules.sort();
    rules.dedup();
    Ok(rules)
}

/// A name as a notation word: quoted when it is not a plain word.
fn word(name: &str) -> String {
    if !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '&' | '_' | '-' | '.'))
    {
        name.to_string()
    } else {
        format!("\"{name}\"")
    }
}

/// Where each move of the written game came from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Origins {
    /// For each line of the text (0-based), the number of the Rails action it was written
    /// from (0 for lines of the header).
    pub line_action: Vec<usize>,
}

/// Who acts in the part of the game an action belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Context {
    Start,
    Stock,
    Operating(String),
}

struct Writer<'a> {
    title: &'static str,
    names: &'a RailsNames,
    text: String,
    origins: Origins,
}

impl Writer<'_> {
    fn line(&mut self, number: usize, line: String) {
        self.text.push_str(&line);
        self.text.push('\n');
        self.origins.line_action.push(number);
    }

    fn corp(&self, saved: &Saved, name: &str) -> String {
        let _ = saved;
        word(
            self.names
                .corporations
                .get(name)
                .map_or(name, String::as_str),
        )
    }

    fn private(&self, saved: &Saved, name: &str) -> Result<String, RecordError> {
        self.names
            .privates
            .get(name)
            .map(|s| word(s))
            .ok_or_else(|| RecordError::UnknownName {
                number: saved.number,
                class: saved.action.class().to_string(),
                what: "the private",
                name: name.to_string(),
                title: self.title.to_string(),
            })
    }

    fn special(&self, saved: &Saved, id: i64) -> Result<&SpecialProperty, RecordError> {
        self.names
            .special_properties
            .get(&id.to_string())
            .ok_or_else(|| RecordError::UnknownName {
                number: saved.number,
                class: saved.action.class().to_string(),
                what: "the special property",
                name: id.to_string(),
                title: self.title.to_string(),
            })
    }
}

/// The train type of a Rails train id (`3_2` is the third 3-train).
fn train_kind(id: &str) -> &str {
    id.split('_').next().unwrap_or(id)
}

/// The entity that acts in a Rails action, in the notation's words, and the part of the game
/// it belongs to (`None` for actions that do not act).
fn actor(
    w: &Writer<'_>,
    saved: &Saved,
    context: &Context,
) -> Result<Option<(String, Context)>, RecordError> {
    use RailsAction as A;
    Ok(match &saved.action {
        A::Bid { player, .. } | A::BuyStartItem { player, .. } => {
            Some((word(player), Context::Start))
        }
        A::StartCompany { player, .. }
        | A::BuyCertificate { player, .. }
        | A::SellShares { player, .. } => Some((word(player), Context::Stock)),
        A::LayTile { corp, special, .. } | A::LayToken { corp, special, .. } => {
            let c = w.corp(saved, corp);
            let who = match *special {
                0 => c.clone(),
                id => match w.special(saved, id)? {
                    sp if sp.actor == "private" => word(&sp.private),
                    _ => c.clone(),
                },
            };
            Some((who, Context::Operating(c)))
        }
        A::SetDividend { corp, .. }
        | A::BuyTrain { corp, .. }
        | A::DiscardTrain { corp, .. }
        | A::BuyPrivate { corp, .. } => {
            let c = w.corp(saved, corp);
            Some((c.clone(), Context::Operating(c)))
        }
        A::UseSpecialProperty { special, .. } => {
            Some((word(&w.special(saved, *special)?.private), context.clone()))
        }
        // Rails passes with "Pass" in the start packet and the stock round only: after an
        // operating round, the first one starts a stock round.
        A::Null {
            player,
            mode: NullMode::Pass | NullMode::AutoPass,
        } => Some((
            word(player),
            match context {
                Context::Operating(_) => Context::Stock,
                other => other.clone(),
            },
        )),
        A::Null { player, .. } => Some((
            match context {
                Context::Operating(c) => c.clone(),
                _ => word(player),
            },
            context.clone(),
        )),
        _ => None,
    })
}

/// The game of a save as notation text, with where each line came from.
///
/// # Errors
/// A title, option or action railnote does not have.
pub fn notation(save: &Save) -> Result<(String, Origins), RecordError> {
    let (title, names) = names_of(&save.game)?;
    let rules = optional_rules(save, &names)?;
    let mut w = Writer {
        title,
        names: &names,
        text: String::new(),
        origins: Origins::default(),
    };
    w.line(0, format!("[Title \"{title}\"]"));
    w.line(0, format!("[Players \"{}\"]", save.players.join(", ")));
    if !rules.is_empty() {
        w.line(0, format!("[Rules \"{}\"]", rules.join(", ")));
    }
    if let Some(date) = &save.saved_at {
        w.line(
            0,
            format!("[Date \"{}\"]", date.split(' ').next().unwrap_or(date)),
        );
    }
    let version = save.rails_version.as_deref().unwrap_or("before 1.0.7");
    w.line(0, format!("{{Converted from a Rails {version} save: runs are recorded by their revenue, as Rails keeps them.}}"));

    let mut comments = save.comments.iter().peekable();
    let mut context = Context::Start;
    // The actors of the actions that act, to know whether a turn that Rails ended with "Done"
    // is followed by another turn of the same entity (the notation then needs the `pass`).
    let actors: Vec<Option<String>> = {
        let mut ctx = Context::Start;
        let mut out = Vec::new();
        for saved in &save.actions {
            match actor(&w, saved, &ctx)? {
                Some((who, c)) => {
                    out.push(Some(who));
                    ctx = c;
                }
                None => out.push(None),
            }
        }
        out
    };
    for (k, saved) in save.actions.iter().enumerate() {
        use RailsAction as A;
        let n = saved.number;
        let next_actor = actors[k + 1..].iter().flatten().next();
        let Some((who, ctx)) = actor(&w, saved, &context)? else {
            match &saved.action {
                A::CashCorrection { holder, amount, .. } => {
                    let holder = if save.players.contains(holder) {
                        word(holder)
                    } else {
                        w.corp(saved, holder)
                    };
                    w.line(n, format!("correct cash {holder} {amount:+}"));
                }
                A::MapCorrection {
                    hex,
                    tiles,
                    orientation,
                    finished: true,
                    ..
                } => {
                    if let Some(tile) = tiles.first() {
                        w.line(n, format!("correct tile {tile} {hex} r{orientation}"));
                    }
                }
                A::MapCorrection { .. } | A::CorrectionMode { .. } | A::RequestTurn { .. } => {}
                other => {
                    return Err(RecordError::NoMove {
                        number: n,
                        class: other.class().to_string(),
                        title: title.to_string(),
                    })
                }
            }
            flush_comments(&mut w, &mut comments, n);
            continue;
        };
        context = ctx;
        let mv = match &saved.action {
            A::Bid { item, amount, .. } => {
                Some(format!("bid {} {amount}", w.private(saved, item)?))
            }
            A::BuyStartItem {
                item, price, par, ..
            } => {
                let mut m = format!("bid {} {price}", w.private(saved, item)?);
                if let Some(par) = par {
                    let _ = write!(m, ", par {} {par}", par_corp(&names, item));
                }
                Some(m)
            }
            A::StartCompany { corp, price, .. } => {
                Some(format!("par {} {price}", w.corp(saved, corp)))
            }
            A::BuyCertificate {
                corp, from, count, ..
            } => {
                let count = if *count > 1 {
                    format!("{count} ")
                } else {
                    String::new()
                };
                let pool = if from.eq_ignore_ascii_case("pool") {
                    " pool"
                } else {
                    ""
                };
                Some(format!("buy {count}{}{pool}", w.corp(saved, corp)))
            }
            A::SellShares {
                corp,
                count,
                percent,
                ..
            } => {
                let c = w.corp(saved, corp);
                Some(if *percent == 10 {
                    format!("sell {count} {c}")
                } else {
                    format!("sell {count} {c} {}%", count * percent)
                })
            }
            A::LayTile {
                tile,
                hex,
                orientation,
                ..
            } => Some(format!("{tile} {hex} r{orientation}")),
            A::LayToken { hex, station, .. } => Some(if *station > 1 {
                format!("tok {hex}/{station}")
            } else {
                format!("tok {hex}")
            }),
            A::SetDividend {
                revenue,
                allocation,
                ..
            } => Some(match (*revenue, *allocation) {
                (0, _) => "run".to_string(),
                (r, 2) => format!("run {r}, pay"),
                (r, _) => format!("run {r}, wh"),
            }),
            A::BuyTrain {
                kind,
                train,
                from,
                price,
                exchanged,
                ..
            } => {
                let kind = if kind.is_empty() {
                    train_kind(train)
                } else {
                    kind
                };
                let mut m = format!("train {kind}");
                if from.eq_ignore_ascii_case("pool") {
                    m.push_str(" pool");
                } else if !from.eq_ignore_ascii_case("ipo") {
                    let _ = write!(m, " {price} from {}", w.corp(saved, from));
                }
                if let Some(x) = exchanged {
                    let _ = write!(m, " x {} {price}", train_kind(x));
                }
                Some(m)
            }
            A::DiscardTrain { train, .. } => {
                train.as_ref().map(|t| format!("discard {}", train_kind(t)))
            }
            A::BuyPrivate { private, price, .. } => {
                Some(format!("buy {} {price}", w.private(saved, private)?))
            }
            A::UseSpecialProperty { .. } => Some(format!("buy {}", exchange_corp(&names, &who))),
            // A step Rails skipped is passed by the next move of the turn, or by its end.
            A::Null {
                mode: NullMode::Skip | NullMode::StartGame,
                ..
            } => None,
            // "Done" ends a turn: the next actor named ends it in the notation, unless that is
            // the same entity again (its next turn).
            A::Null {
                mode: NullMode::Done,
                ..
            } => (next_actor == Some(&who)).then(|| "pass".to_string()),
            A::Null {
                mode: NullMode::Pass | NullMode::AutoPass,
                ..
            } => Some("pass".to_string()),
            _ => None,
        };
        if let Some(mv) = mv {
            w.line(n, format!("{who}: {mv}"));
        }
        flush_comments(&mut w, &mut comments, n);
    }
    Ok((w.text, w.origins))
}

/// The corporation whose president's certificate comes with a private (1830's B&O).
fn par_corp(names: &RailsNames, item: &str) -> String {
    match names.privates.get(item).map(String::as_str) {
        Some("BO") => "B&O".to_string(),
        _ => item.to_string(),
    }
}

/// The corporation a private is exchanged for a share of.
fn exchange_corp(names: &RailsNames, private: &str) -> &'static str {
    let _ = names;
    match private {
        "MH" => "NYC",
        _ => "IR",
    }
}

fn flush_comments<'c>(
    w: &mut Writer<'_>,
    comments: &mut std::iter::Peekable<impl Iterator<Item = &'c (usize, String)>>,
    after: usize,
) {
    while let Some((_, text)) = comments.next_if(|(k, _)| *k <= after) {
        let clean: String = text
            .chars()
            .map(|c| if matches!(c, '{' | '}') { '(' } else { c })
            .collect();
        w.line(after, format!("{{{clean}}}"));
    }
}
