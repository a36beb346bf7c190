//! The game state after an action, as a stable JSON object (`--at N`, `--trace`) and a text table.
//!
//! Field names follow the reference traces so the two can be compared field by field.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use crate::engine::{CompanyOwner, Game};
use crate::ids::{CorpId, Money, PlayerId};
use crate::log::GameLog;
use crate::output::OrderedMap;
use crate::replay::Processed;

/// The state of a game after a processed action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Snapshot {
    /// 1-based count of processed top-level actions (0 before the first).
    pub index: usize,
    /// The source id of the last processed action.
    pub action_id: Option<i64>,
    /// Its reference type name.
    pub action_type: Option<String>,
    /// The round now (`PR`, `SR 2`, `OR 3.1`).
    pub round: String,
    /// The phase's name.
    pub phase: String,
    /// Cash in the bank.
    pub bank_cash: Money,
    /// The player with the priority deal (log id), once there is one.
    pub priority_deal: Option<String>,
    /// Players in seat order of the log.
    pub players: Vec<PlayerSnapshot>,
    /// Corporations in title order.
    pub corporations: Vec<CorporationSnapshot>,
    /// Private companies in title order.
    pub companies: Vec<CompanySnapshot>,
    /// Hexes whose tile is not the preprinted one, by coordinate.
    pub tiles: BTreeMap<String, TileSnapshot>,
}

/// A player's holdings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayerSnapshot {
    /// The log's player id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Cash in hand.
    pub cash: Money,
    /// Percent held per corporation (only corporations held), title order.
    pub shares: OrderedMap<u8>,
    /// Private companies held (symbols).
    pub companies: Vec<String>,
    /// Whether the player went bankrupt.
    pub bankrupt: bool,
}

/// A stock-market position with its price.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PriceSnapshot {
    /// The price.
    pub price: Money,
    /// `[row, column]`, 0-based.
    pub coordinates: [u8; 2],
}

/// A corporation's state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CorporationSnapshot {
    /// Symbol.
    pub id: String,
    /// The president (log id).
    pub president: Option<String>,
    /// Treasury.
    pub cash: Money,
    /// Current market position.
    pub share_price: Option<PriceSnapshot>,
    /// Par price.
    pub par_price: Option<Money>,
    /// Whether it has floated.
    pub floated: bool,
    /// Whether it has closed.
    pub closed: bool,
    /// Percent still in the IPO.
    pub ipo_percent: u8,
    /// Percent in the open market.
    pub pool_percent: u8,
    /// Train names, arrival order.
    pub trains: Vec<String>,
    /// Hexes of placed tokens, placement order.
    pub tokens: Vec<String>,
    /// Private companies owned (symbols).
    pub companies: Vec<String>,
}

/// A private company's state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CompanySnapshot {
    /// Symbol.
    pub id: String,
    /// Owner: a player's log id or a corporation's symbol; `null` when unsold or closed.
    pub owner: Option<String>,
    /// Whether it has closed.
    pub closed: bool,
}

/// The tile on a hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TileSnapshot {
    /// The tile's name (`57`).
    pub tile: String,
    /// Its rotation 0–5.
    pub rotation: u8,
}

impl Snapshot {
    /// The state of `game` after the processed action `at`.
    pub fn after(game: &Game, log: &GameLog, at: Processed<'_>) -> Snapshot {
        let mut s = Snapshot::of(game, log);
        s.index = at.index;
        s.action_id = Some(at.action.action_id);
        s.action_type = Some(at.action.type_name.to_string());
        s
    }

    /// The state of `game` after the first `processed` actions of `log`.
    pub fn at(game: &Game, log: &GameLog, processed: usize) -> Snapshot {
        let mut s = Snapshot::of(game, log);
        if let Some(last) = processed.checked_sub(1).and_then(|i| log.actions.get(i)) {
            s.index = processed;
            s.action_id = Some(last.action_id);
            s.action_type = Some(last.type_name.to_string());
        }
        s
    }

    /// The state of `game` before any action (index 0).
    pub fn of(game: &Game, log: &GameLog) -> Snapshot {
        let pid = |p: PlayerId| log.player_id(p).to_string();
        let title = game.title;
        let corp_sym = |c: CorpId| title.corp(c).sym.clone();
        let players = game
            .players
            .iter()
            .map(|p| PlayerSnapshot {
                id: pid(p.id),
                name: p.name.clone(),
                cash: p.cash,
                shares: OrderedMap(
                    (0..title.corporations.len())
                        .map(|i| CorpId(i as u8))
                        .map(|c| (corp_sym(c), game.percent_held(p.id, c)))
                        .filter(|(_, pct)| *pct > 0)
                        .collect(),
                ),
                companies: p
                    .companies
                    .iter()
                    .map(|c| title.company(*c).sym.clone())
                    .collect(),
                bankrupt: p.bankrupt,
            })
            .collect();
        let corporations = game
            .corps
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let id = CorpId(i as u8);
                CorporationSnapshot {
                    id: corp_sym(id),
                    president: c.president.map(pid),
                    cash: c.cash,
                    share_price: c.share_price.and_then(|pos| {
                        Some(PriceSnapshot {
                            price: title.cell(pos.row, pos.column)?.price,
                            coordinates: [pos.row, pos.column],
                        })
                    }),
                    par_price: c.par_price,
                    floated: c.floated,
                    closed: c.closed,
                    ipo_percent: game.ipo_percent(id),
                    pool_percent: game.pool_percent(id),
                    trains: c
                        .trains
                        .iter()
                        .map(|t| title.train(t.kind).name.clone())
                        .collect(),
                    tokens: game
                        .token_hexes(id)
                        .iter()
                        .map(ToString::to_string)
                        .collect(),
                    companies: c
                        .companies
                        .iter()
                        .map(|c| title.company(*c).sym.clone())
                        .collect(),
                }
            })
            .collect();
        let companies = game
            .companies
            .iter()
            .enumerate()
            .map(|(i, c)| CompanySnapshot {
                id: title.companies[i].sym.clone(),
                owner: match c.owner {
                    _ if c.closed => None,
                    CompanyOwner::Unsold => None,
                    CompanyOwner::Player(p) => Some(pid(p)),
                    CompanyOwner::Corporation(c) => Some(corp_sym(c)),
                },
                closed: c.closed,
            })
            .collect();
        Snapshot {
            index: 0,
            action_id: None,
            action_type: None,
            round: game.round_label(),
            phase: game.phase_name().to_string(),
            bank_cash: game.bank,
            priority_deal: game.priority_deal.map(pid),
            players,
            corporations,
            companies,
            tiles: tiles(game),
        }
    }
}

/// Laid tiles by hex.
///
/// Empty until the map subsystem lands; then: every hex of `game.board` whose tile is not the
/// preprinted one, with the tile's name and rotation.
fn tiles(game: &Game) -> BTreeMap<String, TileSnapshot> {
    let map = game.title.map;
    game.board
        .laid_tiles(map)
        .map(|(hex, tile, rotation)| {
            let name = map.tile_def(tile.def).name.clone();
            (
                hex.to_string(),
                TileSnapshot {
                    tile: name,
                    rotation: rotation.get(),
                },
            )
        })
        .collect()
}

impl fmt::Display for Snapshot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.action_id, &self.action_type) {
            (Some(id), Some(t)) => writeln!(f, "after action #{} (id {id}, {t})", self.index)?,
            _ => writeln!(f, "before the first action")?,
        }
        write!(
            f,
            "round {}  phase {}  bank {}",
            self.round, self.phase, self.bank_cash
        )?;
        if let Some(p) = &self.priority_deal {
            // The JSON keeps the log's id (as the reference traces do); people read the name.
            let name = self
                .players
                .iter()
                .find(|player| &player.id == p)
                .map_or(p.as_str(), |player| player.name.as_str());
            write!(f, "  priority deal {name}")?;
        }
        writeln!(f, "\n")?;
        let mut rows = vec![vec![
            "player".into(),
            "cash".into(),
            "shares".into(),
            "privates".into(),
        ]];
        for p in &self.players {
            let name = if p.bankrupt {
                format!("{} (bankrupt)", p.name)
            } else {
                p.name.clone()
            };
            rows.push(vec![
                name,
                p.cash.to_string(),
                p.shares.to_string(),
                p.companies.join(" "),
            ]);
        }
        table(f, &rows)?;
        let mut rows = vec![[
            "corp",
            "president",
            "cash",
            "price",
            "par",
            "ipo",
            "pool",
            "trains",
            "tokens",
            "privates",
        ]
        .map(String::from)
        .to_vec()];
        let names: BTreeMap<&str, &str> = self
            .players
            .iter()
            .map(|p| (p.id.as_str(), p.name.as_str()))
            .collect();
        for c in &self.corporations {
            let state = if c.closed {
                " (closed)"
            } else if c.floated {
                ""
            } else if c.par_price.is_some() {
                " (not floated)"
            } else {
                continue;
            };
            rows.push(vec![
                format!("{}{state}", c.id),
                c.president
                    .as_deref()
                    .map_or("-", |p| names.get(p).copied().unwrap_or(p))
                    .to_string(),
                c.cash.to_string(),
                c.share_price.map_or("-".into(), |p| {
                    format!("{} ({},{})", p.price, p.coordinates[0], p.coordinates[1])
                }),
                c.par_price.map_or("-".into(), |p| p.to_string()),
                format!("{}%", c.ipo_percent),
                format!("{}%", c.pool_percent),
                c.trains.join(" "),
                c.tokens.join(" "),
                c.companies.join(" "),
            ]);
        }
        if rows.len() > 1 {
            writeln!(f)?;
            table(f, &rows)?;
        }
        let open: Vec<String> = self
            .companies
            .iter()
            .filter(|c| !c.closed)
            .map(|c| match &c.owner {
                Some(o) => format!("{}:{}", c.id, names.get(o.as_str()).copied().unwrap_or(o)),
                None => format!("{}:unsold", c.id),
            })
            .collect();
        if !open.is_empty() {
            writeln!(f, "\nprivates: {}", open.join("  "))?;
        }
        if !self.tiles.is_empty() {
            let tiles: Vec<String> = self
                .tiles
                .iter()
                .map(|(h, t)| format!("{h}:{}/{}", t.tile, t.rotation))
                .collect();
            writeln!(f, "tiles: {}", tiles.join(" "))?;
        }
        Ok(())
    }
}

/// Writes rows as left-aligned columns (numbers right-aligned), header first.
pub(crate) fn table(f: &mut fmt::Formatter<'_>, rows: &[Vec<String>]) -> fmt::Result {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in rows {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            let numeric = !cell.is_empty() && cell.bytes().all(|b| b.is_ascii_digit() || b == b'-');
            let pad = widths[i] - cell.chars().count();
            if i > 0 {
                line.push_str("  ");
            }
            if numeric {
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            } else {
                line.push_str(cell);
                line.push_str(&" ".repeat(pad));
            }
        }
        writeln!(f, "{}", line.trim_end())?;
    }
    Ok(())
}
