//! From syntax to typed actions: resolves every id string of the surviving actions against the
//! title (players, corporations, companies, shares, trains, market cells) and the map (hexes,
//! tiles, cities). Knows no rules: whether an action is legal is [`crate::replay`]'s question.

use std::borrow::Cow;
use std::sync::Arc;

use crate::action::{Action, BidTarget, DividendKind, Entity, MarketCell, RouteSpec};
use crate::engine::correction::Correction;
use crate::engine::map::MapData;
use crate::engine::title::Title;
use crate::ids::{
    CityRef, CompanyId, CorpId, HexId, Money, Percent, PlayerId, Rotation, ShareId, TileId, TrainId,
};
use crate::log::error::{LogError, Problem, ProblemKind};
use crate::log::fast;
use crate::log::json::{self, Elements, Fields, Json, Obj, Val, What};
use crate::log::raw::{self, ActionType, Document, Header, LogPlayer, RawAction};
use crate::log::source::LogSource;
use crate::log::span::{Span, Spanned};

/// A string field's value, borrowed from the file unless it has escapes.
type Text<'s> = Spanned<Cow<'s, str>>;

/// How the importer learns about the map: which hexes exist and which physical tiles the
/// reference ids (`57-2`, preprinted `G7-2`, `blank-0`) name.
trait MapLookup {
    /// The physical tile a reference tile id names, if the title has it.
    fn tile(&self, text: &str) -> Option<TileId>;

    /// Whether the hex is on the map.
    fn has_hex(&self, hex: HexId) -> bool;
}

impl MapLookup for MapData {
    fn tile(&self, text: &str) -> Option<TileId> {
        self.parse_tile_id(text)
    }

    fn has_hex(&self, hex: HexId) -> bool {
        self.hex(hex).is_some()
    }
}

/// A game log ready to replay: the header and the surviving actions, typed.
#[derive(Debug, Clone)]
pub struct GameLog {
    /// The file name, for diagnostics.
    pub name: String,
    /// The file's text.
    pub src: Arc<str>,
    /// The header as written.
    pub header: Header,
    /// The title the log is for.
    pub title: &'static Title,
    /// The actions to process, in order, after undo/redo filtering (messages left out).
    pub actions: Vec<LoggedAction>,
    /// How many entries the `actions` array had.
    pub raw_count: usize,
    /// Where the actions are written (the `actions` array; the whole file if it has none).
    pub actions_span: Span,
    /// Corrections between the actions, in order (only a notation file has them: an 18xx.games
    /// log cannot say one).
    pub corrections: Vec<LoggedCorrection>,
}

/// A correction of a notation file, where the replay applies it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedCorrection {
    /// How many top-level actions come before it.
    pub after: usize,
    /// How many automatic actions (`& …`) of the last of them come before it: a correction
    /// written between an action and its automatic actions is applied there, as written.
    pub autos: usize,
    /// Where it is written.
    pub span: Span,
    /// What it does.
    pub correction: Correction,
}

impl GameLog {
    /// The file's text as a miette source.
    pub fn source(&self) -> LogSource {
        LogSource::new(&self.name, Arc::clone(&self.src))
    }

    /// A log to replay has at least one action: one without is most likely an export taken
    /// before the game began, or the wrong file, and would otherwise pass as a legal game.
    /// (Listing the first moves or showing the first state needs none.)
    ///
    /// # Errors
    /// `log::no_actions`, at the `actions` array.
    pub fn require_actions(&self) -> Result<(), LogError> {
        if !self.actions.is_empty() {
            return Ok(());
        }
        let (message, label) = if self.raw_count == 0 {
            ("the log has no actions", "no actions here")
        } else {
            (
                "every action of the log is undone or a message",
                "nothing here is left to replay",
            )
        };
        let problem = Problem::new(ProblemKind::NoActions, self.actions_span, message, label)
            .with_help(
                "an 18xx.games log lists the game's moves in `actions`; export it again once the \
                 game has begun (`railnote moves FILE` lists the first moves)",
            );
        Err(LogError::new(
            &self.name,
            Arc::clone(&self.src),
            vec![problem],
        ))
    }

    /// The log's id for a player (`"14828"`, or the name in hotseat logs).
    pub fn player_id(&self, player: PlayerId) -> &str {
        self.header
            .players
            .get(player.0 as usize)
            .map_or("?", |p| p.id.as_str())
    }

    /// The log's ids of all players, in seat order.
    pub fn player_ids(&self) -> Vec<String> {
        self.header.players.iter().map(|p| p.id.clone()).collect()
    }
}

/// An action's type name, as [`LoggedAction::type_name`] holds it.
fn type_name(action: &RawAction) -> Cow<'static, str> {
    match action.ty.name() {
        Some(name) => Cow::Borrowed(name),
        None => Cow::Owned(action.kind.value.to_string()),
    }
}

/// One surviving top-level action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedAction {
    /// Position in the log's `actions` array (0-based).
    pub raw_index: usize,
    /// The source `id`.
    pub action_id: i64,
    /// The reference type name (`lay_tile`, `program_share_pass`, …): borrowed for the types
    /// railnote knows, as nearly every action's is.
    pub type_name: Cow<'static, str>,
    /// Where the action's JSON object is.
    pub span: Span,
    /// The typed action.
    pub action: Action,
    /// Its embedded auto actions, processed right after it.
    pub auto_actions: Vec<AutoAction>,
}

/// An auto action embedded in a top-level action (it has no id of its own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AutoAction {
    /// The reference type name (as [`LoggedAction::type_name`]).
    pub type_name: Cow<'static, str>,
    /// Where its JSON object is (inside the parent's).
    pub span: Span,
    /// The typed action.
    pub action: Action,
}

/// Reads a game log: syntax, undo/redo filtering, id resolution against the title.
///
/// # Errors
/// Every syntax and resolution problem of the file, as one [`LogError`].
pub fn read(name: &str, src: &str) -> Result<GameLog, LogError> {
    read_shared(name, Arc::from(src))
}

/// [`read`] of a text the caller shares already (no copy of a large log is made).
///
/// # Errors
/// As [`read`].
pub fn read_shared(name: &str, src: Arc<str>) -> Result<GameLog, LogError> {
    match fast::read(name, &src) {
        Some(log) => Ok(log),
        None => read_located(name, src),
    }
}

/// [`read_shared`] by the fast path alone: `None` where it declines the text (and
/// [`read_shared`] reads it with [`read_located`]). For tests that hold the two paths to the same
/// result.
#[doc(hidden)]
pub fn read_fast(name: &str, src: &Arc<str>) -> Option<GameLog> {
    fast::read(name, src)
}

/// [`read_shared`] by the located path alone (syntax tree, undo/redo filtering, resolution),
/// which reads every text and reports every problem.
///
/// # Errors
/// As [`read`].
#[doc(hidden)]
pub fn read_located(name: &str, src: Arc<str>) -> Result<GameLog, LogError> {
    let doc = raw::parse_shared(name, src)?;
    resolve(&doc)
}

/// Resolves a parsed log against its title and map.
///
/// # Errors
/// Every resolution problem of the surviving actions, as one [`LogError`].
pub fn resolve(doc: &Document) -> Result<GameLog, LogError> {
    let fail = |problems| LogError::new(&doc.name, Arc::clone(&doc.src), problems);
    let title_name = &doc.header.title;
    let Some(title) = Title::by_name(&title_name.value) else {
        let problem = Problem::new(
            ProblemKind::UnknownTitle,
            title_name.span,
            format!("railnote does not know the title `{}`", title_name.value),
            "unknown title",
        )
        .with_help(format!("known titles: {}", Title::known_names().join(", ")));
        return Err(fail(vec![problem]));
    };
    let surviving = raw::filter(&doc.actions).map_err(fail)?;
    let mut r = Resolver {
        json: Json::new(&doc.src, &doc.tree),
        doc,
        title,
        players: &doc.header.players,
        map: title.map,
        small_hexes: small_hexes(title.map),
        problems: Vec::new(),
    };
    // Sized once: a log has hundreds of actions, and each growth would copy them all.
    let mut actions = Vec::with_capacity(surviving.len());
    let mut omitted = 0;
    for index in surviving {
        omitted += raw::keep_first(&mut r.problems);
        let raw = &doc.actions[index];
        if raw.ty == ActionType::Message {
            continue;
        }
        let action = r.action(raw);
        let autos: Vec<_> = raw
            .auto_actions
            .iter()
            .filter(|a| a.ty != ActionType::Message)
            .filter_map(|a| {
                r.action(a).map(|action| AutoAction {
                    type_name: type_name(a),
                    span: a.span,
                    action,
                })
            })
            .collect();
        if let (Some(action), Some(action_id)) = (action, raw.id) {
            actions.push(LoggedAction {
                raw_index: index,
                action_id,
                type_name: type_name(raw),
                span: raw.span,
                action,
                auto_actions: autos,
            });
        }
    }
    omitted += raw::keep_first(&mut r.problems);
    if !r.problems.is_empty() {
        return Err(fail(r.problems).and_omitted(omitted));
    }
    Ok(GameLog {
        name: doc.name.clone(),
        src: Arc::clone(&doc.src),
        header: doc.header.clone(),
        title,
        actions,
        raw_count: doc.actions.len(),
        actions_span: Obj::document(Json::new(&doc.src, &doc.tree))
            .ok()
            .and_then(|root| root.get_span("actions"))
            .unwrap_or(Span::new(0, doc.src.len())),
        corrections: Vec::new(),
    })
}

json::field_set! {
    /// The fields of an action that the resolver reads.
    pub(super) action {
        ENTITY = "entity",
        ENTITY_TYPE = "entity_type",
        PRICE = "price",
        COMPANY = "company",
        CORPORATION = "corporation",
        MINOR = "minor",
        SHARE_PRICE = "share_price",
        SHARES = "shares",
        PERCENT = "percent",
        HEX = "hex",
        TILE = "tile",
        ROTATION = "rotation",
        CITY = "city",
        SLOT = "slot",
        COST = "cost",
        ROUTES = "routes",
        KIND = "kind",
        TRAIN = "train",
        EXCHANGE = "exchange",
        TARGET = "target",
        CHOICE = "choice",
    }
}
use action::{
    CHOICE, CITY, COMPANY, CORPORATION, COST, ENTITY, ENTITY_TYPE, EXCHANGE, HEX, KIND, MINOR,
    PERCENT, PRICE, ROTATION, ROUTES, SHARES, SHARE_PRICE, SLOT, TARGET, TILE, TRAIN,
};
type ActionFields<'s> = Fields<'s, { action::KEYS.len() }>;

json::field_set! {
    /// The fields of a route (the fast reader's too).
    pub(super) route {
        TRAIN = "train",
        REVENUE = "revenue",
        CONNECTIONS = "connections",
        HEXES = "hexes",
        NODES = "nodes",
    }
}
type RouteFields<'s> = Fields<'s, { route::KEYS.len() }>;

/// The hexes `A0` to `Z63` of the map, a bit each ([`Resolver::hex`]).
pub(super) fn small_hexes(map: &MapData) -> [u64; 26] {
    let mut bits = [0u64; 26];
    for hex in &map.hexes {
        if let (Some(row), Ok(number @ 0..=63)) = (
            bits.get_mut(usize::from(hex.id.letter)),
            u8::try_from(hex.id.number),
        ) {
            *row |= 1 << number;
        }
    }
    bits
}

const ACTION_TYPES: &str =
    "bid, pass, par, buy_shares, sell_shares, buy_company, lay_tile, place_token, run_routes, \
     dividend, buy_train, discard_train, bankrupt, assign, merge, choose, end_game, undo, redo, \
     message, program_*";

struct Resolver<'a> {
    json: Json<'a>,
    doc: &'a Document,
    title: &'static Title,
    players: &'a [LogPlayer],
    map: &'a MapData,
    /// The map's hexes `A0` to `Z63`, a bit each: a log names thousands of hexes, and the map
    /// keeps them in a tree.
    small_hexes: [u64; 26],
    problems: Vec<Problem>,
}

/// `Ok` values pass, problems are collected and become `None`.
macro_rules! keep {
    ($r:expr, $e:expr) => {
        match $e {
            Ok(v) => Some(v),
            Err(p) => {
                $r.problems.push(p);
                None
            }
        }
    };
}

impl Resolver<'_> {
    fn action(&mut self, raw: &RawAction) -> Option<Action> {
        let kind: &str = &raw.kind.value;
        let doc = self.doc;
        let obj = doc.object(raw).find(&action::KEYS, action::slot);
        if matches!(
            raw.ty,
            ActionType::Unknown | ActionType::Undo | ActionType::Redo | ActionType::Message
        ) {
            self.problems.push(
                Problem::new(
                    ProblemKind::UnknownActionType,
                    raw.kind.span,
                    format!(
                        "railnote does not know the action type `{kind}` of {}",
                        self.title.name
                    ),
                    "unknown action type",
                )
                .with_help(format!("known action types: {ACTION_TYPES}")),
            );
            return None;
        }
        let entity = self.entity(raw, &obj);
        let action = match raw.ty {
            ActionType::Bid => self.bid(&obj, entity?),
            ActionType::Pass => Some(Action::Pass { entity: entity? }),
            ActionType::Par => {
                let corp = self.corp_field(&obj, CORPORATION);
                let cell = self.market_cell(&obj);
                Some(Action::Par {
                    entity: entity?,
                    corp: corp?,
                    cell: cell?,
                })
            }
            ActionType::BuyShares | ActionType::SellShares => {
                let shares = self.shares(&obj);
                let percent = keep!(self, obj.opt_int(PERCENT))
                    .and_then(|p| lift(p.map(|p| self.percent(p))));
                let share_price =
                    keep!(self, obj.opt_int(SHARE_PRICE)).map(|p| p.map(|p| Money(p.value)));
                let (entity, shares, percent, share_price) =
                    (entity?, shares?, percent?, share_price?);
                Some(if raw.ty == ActionType::BuyShares {
                    Action::BuyShares {
                        entity,
                        shares,
                        percent,
                        share_price,
                    }
                } else {
                    Action::SellShares {
                        entity,
                        shares,
                        percent,
                        share_price,
                    }
                })
            }
            ActionType::BuyCompany => {
                let company = self.company_field(&obj, COMPANY);
                let price = self.money(&obj, PRICE);
                Some(Action::BuyCompany {
                    entity: entity?,
                    company: company?,
                    price: price?,
                })
            }
            ActionType::LayTile => {
                let hex = keep!(self, obj.text(HEX, "the hex coordinate, e.g. \"H6\""))
                    .and_then(|h| self.hex(&h));
                let tile = keep!(self, obj.text(TILE, "the tile id, e.g. \"57-0\""))
                    .and_then(|t| self.tile(&t));
                let rotation = keep!(self, obj.int(ROTATION, "the rotation 0–5"))
                    .and_then(|r| self.rotation(&r));
                Some(Action::LayTile {
                    entity: entity?,
                    hex: hex?,
                    tile: tile?,
                    rotation: rotation?,
                })
            }
            ActionType::PlaceToken => {
                let city = keep!(self, obj.text(CITY, "the city id, e.g. \"57-0-0\""))
                    .and_then(|c| self.city(&c));
                let slot = keep!(self, obj.opt_int(SLOT)).and_then(|s| match s {
                    None => Some(None),
                    Some(s) => keep!(self, small(&s, "`slot`", "a slot number 0–255").map(Some)),
                });
                let cost = keep!(self, obj.opt_int(COST)).map(|c| c.map(|c| Money(c.value)));
                Some(Action::PlaceToken {
                    entity: entity?,
                    city: city?,
                    slot: slot?,
                    cost: cost?,
                })
            }
            ActionType::RunRoutes => {
                let routes = self.routes(&obj);
                Some(Action::RunRoutes {
                    entity: entity?,
                    routes: routes?,
                })
            }
            ActionType::Dividend => {
                let kind =
                    keep!(self, obj.text(KIND, "\"payout\" or \"withhold\"")).and_then(|k| match k
                        .value
                        .as_ref()
                    {
                        "payout" => Some(DividendKind::Payout),
                        "withhold" => Some(DividendKind::Withhold),
                        other => keep!(
                            self,
                            Err(bad(
                                k.span,
                                "`kind` of a dividend must be \"payout\" or \"withhold\"",
                                other
                            ))
                        ),
                    });
                Some(Action::Dividend {
                    entity: entity?,
                    kind: kind?,
                })
            }
            ActionType::BuyTrain => {
                let train = self.train_field(&obj, TRAIN);
                let price = self.money(&obj, PRICE);
                let exchange = keep!(self, obj.opt_text(EXCHANGE))
                    .and_then(|e| lift(e.map(|e| self.train(&e))));
                Some(Action::BuyTrain {
                    entity: entity?,
                    train: train?,
                    price: price?,
                    exchange: exchange?,
                })
            }
            ActionType::DiscardTrain => {
                let train = self.train_field(&obj, TRAIN);
                Some(Action::DiscardTrain {
                    entity: entity?,
                    train: train?,
                })
            }
            ActionType::Bankrupt => Some(Action::Bankrupt { entity: entity? }),
            ActionType::EndGame => Some(Action::EndGame { entity: entity? }),
            ActionType::Assign => {
                let hex = keep!(
                    self,
                    obj.text(TARGET, "the hex the marker goes on, e.g. \"C13\"")
                )
                .and_then(|h| self.hex(&h));
                Some(Action::Assign {
                    entity: entity?,
                    hex: hex?,
                })
            }
            ActionType::Merge => {
                let corp = self.corp_field(&obj, CORPORATION);
                Some(Action::Merge {
                    entity: entity?,
                    corp: corp?,
                })
            }
            ActionType::Choose => {
                let choice = keep!(self, obj.text(CHOICE, "\"for\" or \"against\""));
                let in_favour = choice.and_then(|c| match c.value.as_ref() {
                    "for" => Some(true),
                    "against" => Some(false),
                    _ => {
                        self.problems.push(Problem::new(
                            ProblemKind::BadValue,
                            c.span,
                            format!("a vote is \"for\" or \"against\", not {:?}", c.value),
                            "not a vote",
                        ));
                        None
                    }
                });
                Some(Action::Vote {
                    entity: entity?,
                    in_favour: in_favour?,
                })
            }
            _ => Some(Action::Program { entity: entity? }), // program_*: accepted and ignored
        };
        action
    }

    fn entity(&mut self, raw: &RawAction, obj: &ActionFields<'_>) -> Option<Entity> {
        const EXPECTED: &str = "who acts: a player id or a corporation/company symbol";
        // Both read already by [`raw::parse`], which reports them when they are not text.
        let entity = obj
            .get(ENTITY)
            .map(|v| json::id_at(self.json, v, &|| obj.field_name(ENTITY)));
        let entity_type = obj.opt_text(ENTITY_TYPE);
        let (entity, entity_type) = match (entity, entity_type) {
            (Some(Ok(e)), Ok(t)) => (e, t),
            (None, _) => return keep!(self, Err(obj.req(ENTITY, EXPECTED).unwrap_err())),
            (Some(e), t) => {
                self.problems.extend(e.err());
                self.problems.extend(t.err());
                return None;
            }
        };
        let name: &str = &entity.value;
        let kind = entity_type.as_ref().map(|t| &*t.value);
        let found = entity_named(self.title, self.players, name, kind).flatten();
        // What was expected is only said when nothing is found.
        let expected: &dyn Fn() -> String = match kind {
            Some("player") => &|| "a player id of this log".to_string(),
            Some("corporation" | "minor") => &|| format!("a corporation: {}", self.corp_names()),
            Some("company") => &|| format!("a private company: {}", self.company_names()),
            Some(other) => {
                let span = entity_type.as_ref().map_or(raw.span, |t| t.span);
                return keep!(
                    self,
                    Err(bad(
                        span,
                        "`entity_type` must be \"player\", \"corporation\" or \"company\"",
                        other
                    ))
                );
            }
            None => &|| "a player id or a corporation/company symbol".to_string(),
        };
        if found.is_some() {
            return found;
        }
        let expected = expected();
        let ids: Vec<&str> = self.players.iter().map(|p| p.id.as_str()).collect();
        found.or_else(|| {
            self.problems.push(
                Problem::new(
                    ProblemKind::UnknownEntity,
                    entity.span,
                    format!("the acting entity `{name}` is not {expected}"),
                    "unknown entity",
                )
                .with_help(format!("players of this log: {}", ids.join(", "))),
            );
            None
        })
    }

    fn corp_names(&self) -> String {
        self.title
            .corporations
            .iter()
            .map(|c| c.sym.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn company_names(&self) -> String {
        self.title
            .companies
            .iter()
            .map(|c| c.sym.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn corp(&mut self, sym: &Text<'_>) -> Option<CorpId> {
        let found = self.title.corp_by_sym(&sym.value);
        if found.is_none() {
            let help = format!("corporations of {}: {}", self.title.name, self.corp_names());
            self.problems.push(
                Problem::new(
                    ProblemKind::UnknownEntity,
                    sym.span,
                    format!("{} has no corporation `{}`", self.title.name, sym.value),
                    "unknown corporation",
                )
                .with_help(help),
            );
        }
        found
    }

    fn corp_field(&mut self, obj: &ActionFields<'_>, key: usize) -> Option<CorpId> {
        let sym = keep!(self, obj.text(key, "a corporation symbol, e.g. \"Nord\""))?;
        self.corp(&sym)
    }

    fn company(&mut self, sym: &Text<'_>) -> Option<CompanyId> {
        let found = self.title.company_by_sym(&sym.value);
        if found.is_none() {
            let help = format!(
                "private companies of {}: {}",
                self.title.name,
                self.company_names()
            );
            self.problems.push(
                Problem::new(
                    ProblemKind::UnknownEntity,
                    sym.span,
                    format!("{} has no private company `{}`", self.title.name, sym.value),
                    "unknown company",
                )
                .with_help(help),
            );
        }
        found
    }

    fn company_field(&mut self, obj: &ActionFields<'_>, key: usize) -> Option<CompanyId> {
        let sym = keep!(
            self,
            obj.text(key, "a private company symbol, e.g. \"GCB\"")
        )?;
        self.company(&sym)
    }

    fn bid(&mut self, obj: &ActionFields<'_>, entity: Entity) -> Option<Action> {
        let target = if obj.get(COMPANY).is_some() {
            self.company_field(obj, COMPANY).map(BidTarget::Company)
        } else if obj.get(CORPORATION).is_some() {
            self.corp_field(obj, CORPORATION)
                .map(BidTarget::Corporation)
        } else if obj.get(MINOR).is_some() {
            self.corp_field(obj, MINOR).map(BidTarget::Corporation)
        } else {
            keep!(
                self,
                Err(obj
                    .req(COMPANY, "the private company bid on, e.g. \"CFL\"")
                    .unwrap_err())
            )
        };
        let price = self.money(obj, PRICE);
        Some(Action::Bid {
            entity,
            target: target?,
            price: price?,
        })
    }

    fn money(&mut self, obj: &ActionFields<'_>, key: usize) -> Option<Money> {
        keep!(self, obj.int(key, "an amount of money")).map(|m| Money(m.value))
    }

    fn percent(&mut self, p: Spanned<i64>) -> Option<Percent> {
        match u8::try_from(p.value) {
            Ok(v) if v <= 100 => Some(Percent(v)),
            _ => keep!(
                self,
                Err(bad(p.span, "`percent` must be 0–100", &p.value.to_string()))
            ),
        }
    }

    fn shares(&mut self, obj: &ActionFields<'_>) -> Option<Vec<ShareId>> {
        let items = keep!(
            self,
            obj.array(SHARES, "the certificates, e.g. [\"Nord_3\"]")
        )?;
        let mut shares = Some(Vec::new());
        for item in items {
            let share = keep!(
                self,
                json::text_at(self.json, item, &|| "a share id".into())
            )
            .and_then(|s| self.share(&s));
            match (share, shares.as_mut()) {
                (Some(s), Some(list)) => list.push(s),
                _ => shares = None,
            }
        }
        shares
    }

    fn share(&mut self, text: &Text<'_>) -> Option<ShareId> {
        let parsed = share_named(self.title, &text.value);
        if parsed.is_none() {
            let count = (0..self.title.corporations.len())
                .map(|i| self.title.share_sizes(CorpId(i as u8)).len())
                .max()
                .unwrap_or(0);
            self.problems.push(
                Problem::new(
                    ProblemKind::UnknownShare,
                    text.span,
                    format!("{} has no share certificate `{}`", self.title.name, text.value),
                    "unknown share",
                )
                .with_help(format!(
                    "a share is `<corporation>_<n>` with n from 0 (president) to {}; corporations: {}",
                    count.saturating_sub(1),
                    self.corp_names()
                )),
            );
        }
        parsed
    }

    fn train_field<const N: usize>(&mut self, obj: &Fields<'_, N>, key: usize) -> Option<TrainId> {
        let text = keep!(self, obj.text(key, "a train id, e.g. \"3-1\""))?;
        self.train(&text)
    }

    fn train(&mut self, text: &Text<'_>) -> Option<TrainId> {
        let parsed = train_named(self.title, &text.value);
        if parsed.is_none() {
            let trains: Vec<String> = self
                .title
                .trains
                .iter()
                .map(|t| match t.unlimited {
                    true => format!("{n}-0, {n}-1, …", n = t.name),
                    false => format!(
                        "{n}-0…{n}-{}",
                        t.most_copies().saturating_sub(1),
                        n = t.name
                    ),
                })
                .collect();
            self.problems.push(
                Problem::new(
                    ProblemKind::UnknownTrain,
                    text.span,
                    format!("{} has no train `{}`", self.title.name, text.value),
                    "unknown train",
                )
                .with_help(format!("a train is `<type>-<copy>`: {}", trains.join(", "))),
            );
        }
        parsed
    }

    fn hex(&mut self, text: &Text<'_>) -> Option<HexId> {
        if let Some(hex) = small_hex(&self.small_hexes, &text.value) {
            return Some(hex);
        }
        match text.value.parse::<HexId>() {
            Ok(hex) if self.map.has_hex(hex) => Some(hex),
            Ok(_) => keep!(
                self,
                Err(Problem::new(
                    ProblemKind::UnknownHex,
                    text.span,
                    format!("the {} map has no hex {}", self.title.name, text.value),
                    "not on the map",
                ))
            ),
            Err(e) => keep!(
                self,
                Err(Problem::new(
                    ProblemKind::UnknownHex,
                    text.span,
                    e.to_string(),
                    "not a hex coordinate"
                )
                .with_help("a hex is a row letter and a column number, e.g. \"H6\""))
            ),
        }
    }

    fn tile(&mut self, text: &Text<'_>) -> Option<TileId> {
        let found = self.map.tile(&text.value);
        if found.is_none() {
            self.problems.push(
                Problem::new(
                    ProblemKind::UnknownTile,
                    text.span,
                    format!("{} has no tile `{}`", self.title.name, text.value),
                    "unknown tile",
                )
                .with_help("a tile is `<tile name>-<copy>`, e.g. \"57-0\" (the first tile 57)"),
            );
        }
        found
    }

    fn city(&mut self, text: &Text<'_>) -> Option<CityRef> {
        let parsed = city_named(self.map, &text.value);
        if parsed.is_none() {
            self.problems.push(
                Problem::new(
                    ProblemKind::UnknownTile,
                    text.span,
                    format!("{} has no city `{}`", self.title.name, text.value),
                    "unknown city",
                )
                .with_help("a city is `<tile id>-<part index>`, e.g. \"57-0-0\""),
            );
        }
        parsed
    }

    fn rotation(&mut self, r: &Spanned<i64>) -> Option<Rotation> {
        let rotation = u8::try_from(r.value).ok().and_then(Rotation::new);
        if rotation.is_none() {
            self.problems
                .push(bad(r.span, "`rotation` must be 0–5", &r.value.to_string()));
        }
        rotation
    }

    fn market_cell(&mut self, obj: &ActionFields<'_>) -> Option<MarketCell> {
        let text = keep!(
            self,
            obj.text(
                SHARE_PRICE,
                "the par cell as \"price,row,column\", e.g. \"82,2,6\""
            )
        )?;
        let cell = match market_cell_written(&text.value) {
            Some(cell) => cell,
            None => {
                self.problems.push(
                    bad(
                        text.span,
                        "`share_price` must be \"price,row,column\"",
                        &text.value,
                    )
                    .with_help("e.g. \"82,2,6\": price 82 in row 2, column 6 (0-based)"),
                );
                return None;
            }
        };
        match cell.filter(|c| self.title.cell(c.row, c.column).is_some()) {
            Some(c) => Some(c),
            _ => {
                self.problems.push(
                    Problem::new(
                        ProblemKind::UnknownMarketCell,
                        text.span,
                        format!(
                            "the {} stock market has no cell `{}`",
                            self.title.name, text.value
                        ),
                        "no such market cell",
                    )
                    .with_help("row and column are 0-based positions in the market grid"),
                );
                None
            }
        }
    }

    fn routes(&mut self, obj: &ActionFields<'_>) -> Option<Vec<RouteSpec>> {
        let items = keep!(
            self,
            obj.array(ROUTES, "one route per train: [{\"train\": \"2-0\", …}]")
        )?;
        let mut routes = Some(Vec::new());
        for item in items {
            let route = self.route(item);
            match (route, routes.as_mut()) {
                (Some(r), Some(list)) => list.push(r),
                _ => routes = None,
            }
        }
        routes
    }

    fn route(&mut self, val: Val) -> Option<RouteSpec> {
        let obj = keep!(self, Obj::at(self.json, val, What::Text("a route")))?
            .find(&route::KEYS, route::slot);
        let train = self.train_field(&obj, route::TRAIN);
        let revenue = keep!(self, obj.opt_int(route::REVENUE)).map(|r| r.map(|r| Money(r.value)));
        // Older logs state a route by the hexes it walks (`hexes`, no `connections`); newer
        // ones write `hexes` too, as the route's stop hexes, beside the connections.
        if obj.get(route::CONNECTIONS).is_none() && obj.get(route::HEXES).is_some() {
            let walk = self.hex_list(&obj, route::HEXES);
            return Some(RouteSpec {
                train: train?,
                connections: Vec::new(),
                revenue: revenue?,
                nodes: Vec::new(),
                walk: walk?,
            });
        }
        let mut connections = Some(Vec::new());
        for seg in keep!(
            self,
            obj.array(
                route::CONNECTIONS,
                "the hexes walked, stop to stop: [[\"H6\", \"H4\"]]"
            )
        )? {
            let hexes = keep!(
                self,
                json::array_at(self.json, seg, &|| "a route segment".into())
            )
            .and_then(|hexes| self.hexes(hexes));
            match (hexes, connections.as_mut()) {
                (Some(h), Some(list)) => list.push(h),
                _ => connections = None,
            }
        }
        let mut nodes = Some(Vec::new());
        for node in keep!(self, obj.opt_array(route::NODES))? {
            let parsed = keep!(
                self,
                json::text_at(self.json, node, &|| "a route stop".into())
            )
            .and_then(|n| self.node(&n));
            match (parsed, nodes.as_mut()) {
                (Some(n), Some(list)) => list.push(n),
                _ => nodes = None,
            }
        }
        Some(RouteSpec {
            train: train?,
            connections: connections?,
            revenue: revenue?,
            nodes: nodes?,
            walk: Vec::new(),
        })
    }

    /// The hexes of an array, each problem reported.
    fn hexes(&mut self, items: Elements<'_>) -> Option<Vec<HexId>> {
        let mut hexes = Some(Vec::new());
        for h in items {
            let hex = keep!(self, json::text_at(self.json, h, &|| "a hex".into()))
                .and_then(|h| self.hex(&h));
            match (hex, hexes.as_mut()) {
                (Some(h), Some(list)) => list.push(h),
                _ => hexes = None,
            }
        }
        hexes
    }

    /// An array of hex coordinates.
    fn hex_list(&mut self, obj: &RouteFields<'_>, key: usize) -> Option<Vec<HexId>> {
        let items = keep!(self, obj.array(key, "hex coordinates: [\"H6\", \"H4\"]"))?;
        self.hexes(items)
    }

    fn node(&mut self, text: &Text<'_>) -> Option<(HexId, u8)> {
        match node_named(self.map, &self.small_hexes, &text.value) {
            Some(node) => Some(node),
            None => keep!(
                self,
                Err(Problem::new(
                    ProblemKind::UnknownHex,
                    text.span,
                    format!(
                        "`{}` is not a route stop of the {} map",
                        text.value, self.title.name
                    ),
                    "unknown stop",
                )
                .with_help("a stop is `<hex>-<part index>`, e.g. \"D6-1\""))
            ),
        }
    }
}

/// An optional field: absent → `Some(None)`, resolved → `Some(Some(v))`, failed → `None`.
fn lift<T>(v: Option<Option<T>>) -> Option<Option<T>> {
    match v {
        None => Some(None),
        Some(v) => v.map(Some),
    }
}

fn bad(span: Span, message: &str, found: &str) -> Problem {
    Problem::new(
        ProblemKind::BadValue,
        span,
        message,
        format!("found {found}"),
    )
}

fn small(v: &Spanned<i64>, what: &str, expected: &str) -> Result<u8, Problem> {
    u8::try_from(v.value).map_err(|_| {
        bad(
            v.span,
            &format!("{what} must be {expected}"),
            &v.value.to_string(),
        )
    })
}

// What an id string names, if anything: shared by the resolver (which says what is wrong when
// nothing is found) and the fast path (which then leaves the log to the resolver).

/// The acting entity named `name`, as the `entity_type` says (`None`: one of the three, looked
/// for in that order); `None` for an `entity_type` that names none of them.
pub(super) fn entity_named(
    title: &Title,
    players: &[LogPlayer],
    name: &str,
    entity_type: Option<&str>,
) -> Option<Option<Entity>> {
    let player = || {
        players
            .iter()
            .position(|p| p.id == name)
            .map(|i| Entity::Player(PlayerId(i as u8)))
    };
    let corp = || title.corp_by_sym(name).map(Entity::Corporation);
    let company = || title.company_by_sym(name).map(Entity::Company);
    Some(match entity_type {
        Some("player") => player(),
        Some("corporation" | "minor") => corp(),
        Some("company") => company(),
        Some(_) => return None,
        None => player().or_else(corp).or_else(company),
    })
}

/// A share certificate `<corporation>_<index>`.
pub(super) fn share_named(title: &Title, text: &str) -> Option<ShareId> {
    let (corp, index) = text.rsplit_once('_')?;
    let corp = title.corp_by_sym(corp)?;
    let count = title.share_sizes(corp).len();
    let index: u8 = index.parse().ok().filter(|i| (*i as usize) < count)?;
    Some(ShareId { corp, index })
}

/// A train `<type>-<copy>`.
pub(super) fn train_named(title: &Title, text: &str) -> Option<TrainId> {
    let (name, copy) = text.rsplit_once('-')?;
    let kind = title.train_kind(name)?;
    let copy: u16 = copy
        .parse()
        .ok()
        .filter(|c| title.train(kind).unlimited || *c < title.train(kind).most_copies())?;
    Some(TrainId { kind, copy })
}

/// A hex of the map's `A0` to `Z63` ([`small_hexes`]) written as a capital and one or two
/// digits (as `HexId` parses them): most coordinates of a log.
pub(super) fn small_hex(small_hexes: &[u64; 26], text: &str) -> Option<HexId> {
    let [letter @ b'A'..=b'Z', digits @ ..] = text.as_bytes() else {
        return None;
    };
    let (tens, d) = match digits {
        [d @ b'0'..=b'9'] => (0, d),
        [t @ b'0'..=b'9', d @ b'0'..=b'9'] => ((t - b'0') * 10, d),
        _ => return None,
    };
    let number = tens + (d - b'0');
    (number < 64 && small_hexes[usize::from(letter - b'A')] >> number & 1 == 1)
        .then(|| HexId::new(letter - b'A', i16::from(number)))
}

/// A hex of the map.
pub(super) fn hex_named(map: &MapData, small_hexes: &[u64; 26], text: &str) -> Option<HexId> {
    small_hex(small_hexes, text)
        .or_else(|| text.parse::<HexId>().ok().filter(|hex| map.has_hex(*hex)))
}

/// A city `<tile id>-<part index>`.
pub(super) fn city_named(map: &MapData, text: &str) -> Option<CityRef> {
    let (tile, part) = text.rsplit_once('-')?;
    let part: u8 = part.parse().ok()?;
    Some(CityRef {
        tile: map.tile(tile)?,
        part,
    })
}

/// A route stop `<hex>-<part index>` of the map.
pub(super) fn node_named(
    map: &MapData,
    small_hexes: &[u64; 26],
    text: &str,
) -> Option<(HexId, u8)> {
    let (hex, part) = text.rsplit_once('-')?;
    let part = part.parse::<u8>().ok()?;
    Some((hex_named(map, small_hexes, hex)?, part))
}

/// A par cell written `"price,row,column"`: `None` if it is not written so, `Some(None)` if
/// its row or column is out of range (the market says which cells exist).
pub(super) fn market_cell_written(text: &str) -> Option<Option<MarketCell>> {
    let parts: Vec<Option<i64>> = text.split(',').map(|p| p.trim().parse().ok()).collect();
    match parts.as_slice() {
        [Some(price), Some(row), Some(column)] => {
            Some(match (u8::try_from(*row), u8::try_from(*column)) {
                (Ok(row), Ok(column)) => Some(MarketCell {
                    price: Money(*price),
                    row,
                    column,
                }),
                _ => None,
            })
        }
        _ => None,
    }
}
