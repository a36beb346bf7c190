//! The fast path of [`read`](crate::log::read): a log as 18xx.games writes it, decoded from its
//! bytes straight into a [`GameLog`], without the located tree.
//!
//! It takes only what it is sure of — strings without escapes, integers written as integers,
//! each field it reads written once, every id naming something — and declines anything else
//! (`None`) to the located path, which reads the same logs to the same [`GameLog`] and says what
//! is wrong with the others. The syntax is checked with the tree's own scanners
//! ([`json::string_end`] and the others), so a text it accepts is JSON as serde_json reads it.
//! The undone actions are decoded too (a log that is fine but for an undone action is declined:
//! rare, and then the located path reads it); undo/redo filtering is [`raw::filter`]'s.
//! `tests/import.rs` and the `import` fuzz target hold the two paths to the same result.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use crate::action::{Action, BidTarget, DividendKind, Entity, RouteSpec};
use crate::engine::map::MapData;
use crate::engine::title::Title;
use crate::ids::{CompanyId, CorpId, HexId, Money, Percent, Rotation, ShareId, TrainId};
use crate::log::json::{self, literal_end, number_end, skip_ws, string_end, written_code};
use crate::log::raw::{self, ActionType, Entry, Header, LogPlayer};
use crate::log::resolve::{self, route, AutoAction, GameLog, LoggedAction};
use crate::log::span::{Span, Spanned};

/// How deep a skipped value may nest: deeper ones are left to the located path, which reads any
/// depth without recursion.
const MAX_DEPTH: usize = 64;

/// How a field's value is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    Absent,
    Null,
    /// A string without escapes.
    Plain,
    /// A number without fraction or exponent.
    Integer,
    /// Anything else: an escaped string, `80.0`, a boolean, an array, an object.
    Other,
}

/// A field's value: its form and where it is written.
#[derive(Debug, Clone, Copy)]
struct Field {
    form: Form,
    // `u32`: [`read`] declines texts of 4 GiB and more, and an action has 25 of these.
    start: u32,
    end: u32,
}

impl Field {
    const ABSENT: Field = Field {
        form: Form::Absent,
        start: 0,
        end: 0,
    };

    /// Present and not `null` (the located path reads `null` as absent).
    fn present(self) -> bool {
        !matches!(self.form, Form::Absent | Form::Null)
    }

    fn span(self) -> Span {
        Span::new(self.start as usize, (self.end - self.start) as usize)
    }

    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// Skips the value at `i`; returns its end. Strings and numbers (most skipped values) without
/// a call.
#[inline(always)]
fn skip(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => Some(string_end(b, i)?.0),
        b'-' | b'0'..=b'9' => number_end(b, i),
        _ => skip_value(b, i, 0),
    }
}

/// Skips the value at `i`; returns its end.
fn skip_value(b: &[u8], i: usize, depth: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => Some(string_end(b, i)?.0),
        b'-' | b'0'..=b'9' => number_end(b, i),
        b'{' if depth < MAX_DEPTH => object(b, i, false, |_, _, _, v| skip_value(b, v, depth + 1)),
        b'[' if depth < MAX_DEPTH => array(b, i, |v| skip_value(b, v, depth + 1)),
        b't' => literal_end(b, i, b"true"),
        b'f' => literal_end(b, i, b"false"),
        b'n' => literal_end(b, i, b"null"),
        _ => None,
    }
}

/// The object at `i` (at its `{`, else `None`): `member(key_code, key_from, key_len, value_at)`
/// reads a member's value and returns its end (the code is the key's [`json::key_code`], if it
/// has one and no escapes). With `plain`, a key with escapes declines (it could be
/// any key). Returns the object's end.
#[inline(always)]
fn object(
    b: &[u8],
    i: usize,
    plain: bool,
    mut member: impl FnMut(Option<u128>, usize, usize, usize) -> Option<usize>,
) -> Option<usize> {
    if *b.get(i)? != b'{' {
        return None;
    }
    let mut j = skip_ws(b, i + 1);
    if *b.get(j)? == b'}' {
        return Some(j + 1);
    }
    loop {
        let (end, code) = match short_key(b, j) {
            Some((end, code)) => (end, Some(code)),
            None => {
                if *b.get(j)? != b'"' {
                    return None;
                }
                match string_end(b, j)? {
                    (end, false) => (end, written_code(b, j + 1, end - j - 2)),
                    (_, true) if plain => return None,
                    (end, true) => (end, None),
                }
            }
        };
        let colon = skip_ws(b, end);
        if *b.get(colon)? != b':' {
            return None;
        }
        j = skip_ws(b, member(code, j + 1, end - j - 2, skip_ws(b, colon + 1))?);
        match *b.get(j)? {
            b',' => j = skip_ws(b, j + 1),
            b'}' => return Some(j + 1),
            _ => return None,
        }
    }
}

/// The end of the key at `j` (at its `"`) if it is one of at most 15 bytes without escapes
/// and sixteen bytes follow its quote (most keys): one look at sixteen bytes. `None` for any
/// other key (and for no key), which the caller reads the long way.
#[inline(always)]
fn short_key(b: &[u8], j: usize) -> Option<(usize, u128)> {
    let bytes: [u8; 16] = b.get(j + 1..j + 17)?.try_into().ok()?;
    if b[j] != b'"' {
        return None;
    }
    let word = u128::from_le_bytes(bytes);
    let (low, high) = (
        json::specials(word as u64),
        json::specials((word >> 64) as u64),
    );
    // The first special byte, exact (see `specials`).
    let at = if low != 0 {
        low.trailing_zeros() / 8
    } else if high != 0 {
        8 + high.trailing_zeros() / 8
    } else {
        return None;
    } as usize;
    (bytes[at] == b'"').then(|| (j + at + 2, word & json::KEY_MASKS[at]))
}

/// The array at `i` (at its `[`, else `None`): `element(at)` reads an element and returns its
/// end. Returns the array's end.
#[inline(always)]
fn array(b: &[u8], i: usize, mut element: impl FnMut(usize) -> Option<usize>) -> Option<usize> {
    if *b.get(i)? != b'[' {
        return None;
    }
    let mut j = skip_ws(b, i + 1);
    if *b.get(j)? == b']' {
        return Some(j + 1);
    }
    loop {
        j = skip_ws(b, element(j)?);
        match *b.get(j)? {
            b',' => j = skip_ws(b, j + 1),
            b']' => return Some(j + 1),
            _ => return None,
        }
    }
}

/// The value at `i` as a field; returns it and its end.
#[inline(always)]
fn field(b: &[u8], i: usize) -> Option<(Field, usize)> {
    let (form, end) = match *b.get(i)? {
        b'"' => match string_end(b, i)? {
            (end, false) => (Form::Plain, end),
            (end, true) => (Form::Other, end),
        },
        b'-' | b'0'..=b'9' => {
            // The integer part, as `number_end` reads it; a fraction or exponent makes it
            // another form of number.
            let mut j = i + usize::from(b[i] == b'-');
            match *b.get(j)? {
                b'0' => j += 1,
                b'1'..=b'9' => {
                    j += 1;
                    while b.get(j).is_some_and(u8::is_ascii_digit) {
                        j += 1;
                    }
                }
                _ => return None,
            }
            match b.get(j) {
                Some(b'.' | b'e' | b'E') => (Form::Other, number_end(b, i)?),
                _ => (Form::Integer, j),
            }
        }
        b'n' => (Form::Null, literal_end(b, i, b"null")?),
        _ => (Form::Other, skip_value(b, i, 0)?),
    };
    Some((
        Field {
            form,
            start: i as u32,
            end: end as u32,
        },
        end,
    ))
}

/// Whether a key was read already in this object (and marks it read): a repeated key declines,
/// as the last one counts and the fast path reads the first.
fn again(seen: &mut u64, slot: usize) -> bool {
    let bit = 1 << slot;
    let repeated = *seen & bit != 0;
    *seen |= bit;
    repeated
}

json::field_set! {
    /// The top-level fields railnote reads.
    top {
        TITLE = "title",
        ID = "id",
        PLAYERS = "players",
        SETTINGS = "settings",
        RESULT = "result",
        GAME_END_REASON = "game_end_reason",
        ACTIONS = "actions",
    }
}

json::field_set! {
    /// The fields of an action that railnote reads: those of [`raw`] and of [`resolve`].
    fields {
        TYPE = "type",
        ID = "id",
        ENTITY = "entity",
        ENTITY_TYPE = "entity_type",
        ACTION_ID = "action_id",
        AUTO_ACTIONS = "auto_actions",
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
// An action is decoded from these fields alone: every field the located path reads
// ([`raw`]'s and [`resolve`]'s) must be one of them, or an action carrying a field missed here
// would decode without it instead of declining to the located path.
const _: () = assert!(
    json::keys_cover(&fields::KEYS, &raw::common::KEYS)
        && json::keys_cover(&fields::KEYS, &resolve::action::KEYS)
);

type ActionFields = [Field; fields::KEYS.len()];

/// One entry of the `actions` array, decoded.
struct Decoded {
    ty: ActionType,
    type_name: Cow<'static, str>,
    kind_span: Span,
    span: Span,
    id: Option<i64>,
    action_id: Option<Spanned<i64>>,
    /// The typed action (`None` for `undo`, `redo` and `message`).
    action: Option<Action>,
    auto_actions: Vec<AutoAction>,
}

/// What undo/redo filtering reads of an entry of the `actions` array.
struct Listed {
    ty: ActionType,
    id: Option<i64>,
    action_id: Option<Spanned<i64>>,
    kind_span: Span,
}

/// The `actions` array, decoded.
struct Actions {
    /// Every entry.
    listed: Vec<Listed>,
    /// The game actions (not `undo`, `redo`, `message`), typed.
    logged: Vec<LoggedAction>,
    /// Whether there is an `undo`, `redo` or `message` (if not, every game action survives).
    meta: bool,
}

impl Entry for Listed {
    fn ty(&self) -> ActionType {
        self.ty
    }

    fn id(&self) -> Option<i64> {
        self.id
    }

    fn action_id(&self) -> Option<&Spanned<i64>> {
        self.action_id.as_ref()
    }

    fn kind_span(&self) -> Span {
        self.kind_span
    }
}

/// Reads a log, or declines it (`None`): see the module's description.
pub(crate) fn read(name: &str, shared: &Arc<str>) -> Option<GameLog> {
    let src: &str = shared;
    let b = src.as_bytes();
    // The located path refuses texts of 4 GiB and more.
    u32::try_from(b.len()).ok()?;
    let text = Text { src, b };
    let mut seen = 0;
    let mut title: Option<(Spanned<String>, &'static Title)> = None;
    let mut game_id = None;
    let mut players: Option<(Vec<LogPlayer>, Span)> = None;
    let mut optional_rules = Vec::new();
    let mut seed = None;
    let mut result = None;
    let mut game_end_reason = None;
    // The actions, their span, and where they start if they come before the title or the
    // players (then read once the header is).
    let mut actions: Option<(Actions, Span)> = None;
    let mut actions_later: Option<(usize, Span)> = None;
    let root = skip_ws(b, 0);
    let end = object(b, root, true, |code, _, _, at| {
        let Some(slot) = code.and_then(top::slot) else {
            return skip(b, at);
        };
        if again(&mut seen, slot) {
            return None;
        }
        match slot {
            top::TITLE => {
                let (f, end) = field(b, at)?;
                let name = text.plain(f)?;
                title = Some((
                    Spanned::new(name.to_string(), f.span()),
                    Title::by_name(name)?,
                ));
                Some(end)
            }
            top::ID => {
                let (f, end) = field(b, at)?;
                game_id = text.opt(f, Text::id)?.map(str::to_string);
                Some(end)
            }
            top::PLAYERS => {
                let mut list = Vec::new();
                let end = array(b, at, |p| {
                    let (player, end) = text.player(p)?;
                    list.push(player);
                    Some(end)
                })?;
                players = Some((list, Span::new(at, end - at)));
                Some(end)
            }
            top::SETTINGS => {
                if b.get(at) == Some(&b'n') {
                    return literal_end(b, at, b"null");
                }
                let mut seen = 0;
                object(b, at, true, |_, from, len, v| match &b[from..from + len] {
                    b"seed" if !again(&mut seen, 0) => {
                        let (f, end) = field(b, v)?;
                        seed = text.opt(f, Text::int)?;
                        Some(end)
                    }
                    b"optional_rules" if !again(&mut seen, 1) => {
                        if b.get(v) == Some(&b'n') {
                            return literal_end(b, v, b"null");
                        }
                        array(b, v, |r| {
                            let (f, end) = field(b, r)?;
                            optional_rules.push(Spanned::new(text.plain(f)?.to_string(), f.span()));
                            Some(end)
                        })
                    }
                    b"seed" | b"optional_rules" => None,
                    _ => skip(b, v),
                })
            }
            top::RESULT => {
                if b.get(at) == Some(&b'n') {
                    return literal_end(b, at, b"null");
                }
                let mut scores = BTreeMap::new();
                let end = object(b, at, true, |_, from, len, v| {
                    let (f, end) = field(b, v)?;
                    let score = Spanned::new(text.int(f)?, f.span());
                    scores
                        .insert(text.src[from..from + len].to_string(), score)
                        .is_none()
                        .then_some(end)
                })?;
                result = Some(scores);
                Some(end)
            }
            top::GAME_END_REASON => {
                let (f, end) = field(b, at)?;
                game_end_reason = text.opt(f, Text::plain)?.map(str::to_string);
                Some(end)
            }
            _ => {
                let end = match (&title, &players) {
                    (Some((_, title)), Some((players, _))) => {
                        let (list, end) = Reader::new(text, title, players).actions(at)?;
                        actions = Some((list, Span::new(at, end - at)));
                        end
                    }
                    _ => {
                        let end = skip_value(b, at, 0)?;
                        actions_later = Some((at, Span::new(at, end - at)));
                        end
                    }
                };
                Some(end)
            }
        }
    })?;
    if skip_ws(b, end) != b.len() {
        return None;
    }
    let ((title_name, title), (players, players_span)) = (title?, players?);
    let (actions, actions_span) = match (actions, actions_later) {
        (Some(actions), _) => actions,
        (None, Some((at, span))) => (Reader::new(text, title, &players).actions(at)?.0, span),
        (None, None) => return None,
    };
    let Actions {
        listed,
        mut logged,
        meta,
    } = actions;
    if meta {
        let mut surviving = vec![false; listed.len()];
        for index in raw::filter_entries(&listed).ok()? {
            surviving[index] = true;
        }
        logged.retain(|a| surviving[a.raw_index]);
    }
    Some(GameLog {
        name: name.to_string(),
        src: Arc::clone(shared),
        header: Header {
            game_id,
            title: title_name,
            players,
            players_span,
            optional_rules,
            seed,
            stated_setup: None,
            result,
            game_end_reason,
        },
        title,
        actions: logged,
        raw_count: listed.len(),
        actions_span,
        corrections: Vec::new(),
    })
}

/// The log's text, and its values as the located path decodes them (`None`: not in a form the
/// fast path takes).
#[derive(Clone, Copy)]
struct Text<'s> {
    src: &'s str,
    b: &'s [u8],
}

impl<'s> Text<'s> {
    /// A string without escapes.
    fn plain(self, f: Field) -> Option<&'s str> {
        (f.form == Form::Plain).then(|| &self.src[f.start as usize + 1..f.end as usize - 1])
    }

    /// An integer written as one.
    fn int(self, f: Field) -> Option<i64> {
        if f.form != Form::Integer {
            return None;
        }
        let (negative, digits) = match &self.b[f.range()] {
            [b'-', rest @ ..] => (true, rest),
            digits => (false, digits),
        };
        let mut magnitude: u64 = 0;
        for d in digits {
            magnitude = magnitude
                .checked_mul(10)?
                .checked_add(u64::from(d - b'0'))?;
        }
        if negative {
            0i64.checked_sub_unsigned(magnitude)
        } else {
            i64::try_from(magnitude).ok()
        }
    }

    /// A player id or entity: a string, or an integer as it is written (but `-0`).
    fn id(self, f: Field) -> Option<&'s str> {
        match f.form {
            Form::Plain => self.plain(f),
            Form::Integer => {
                let written = &self.src[f.range()];
                // Eighteen digits always fit.
                let fits = written.len() <= 18 || self.int(f).is_some();
                (written != "-0" && fits).then_some(written)
            }
            _ => None,
        }
    }

    /// An optional field: absent or `null` is `Some(None)`.
    fn opt<T>(self, f: Field, read: impl Fn(Self, Field) -> Option<T>) -> Option<Option<T>> {
        if f.present() {
            read(self, f).map(Some)
        } else {
            Some(None)
        }
    }

    /// A player of the header.
    fn player(self, at: usize) -> Option<(LogPlayer, usize)> {
        let b = self.b;
        let (mut name, mut id) = (Field::ABSENT, Field::ABSENT);
        let end = object(b, at, true, |_, from, len, v| {
            let slot = match &b[from..from + len] {
                b"name" => &mut name,
                b"id" => &mut id,
                _ => return skip(b, v),
            };
            if slot.form != Form::Absent {
                return None;
            }
            let (f, end) = field(b, v)?;
            *slot = f;
            Some(end)
        })?;
        let name = self.plain(name)?.to_string();
        let id = self
            .opt(id, Text::id)?
            .map_or_else(|| name.clone(), str::to_string);
        let span = Span::new(at, end - at);
        Some((LogPlayer { id, name, span }, end))
    }
}

/// Decodes actions against a title and the log's players.
struct Reader<'a> {
    text: Text<'a>,
    title: &'static Title,
    map: &'static MapData,
    small_hexes: [u64; 26],
    players: &'a [LogPlayer],
}

impl<'a> Reader<'a> {
    fn new(text: Text<'a>, title: &'static Title, players: &'a [LogPlayer]) -> Reader<'a> {
        Reader {
            text,
            title,
            map: title.map,
            small_hexes: resolve::small_hexes(title.map),
            players,
        }
    }

    /// The `actions` array at `at`.
    fn actions(&self, at: usize) -> Option<(Actions, usize)> {
        // Sized once, for actions of 88 bytes (those of the fixtures take 95 to 182, 130 in the
        // middle): each growth would copy them all, and room never written is never touched.
        let capacity = (self.text.b.len() - at) / 88;
        let mut list = Actions {
            listed: Vec::with_capacity(capacity),
            logged: Vec::with_capacity(capacity),
            meta: false,
        };
        let end = array(self.text.b, at, |a| {
            let (d, end) = self.action(a, false)?;
            let raw_index = list.listed.len();
            list.listed.push(Listed {
                ty: d.ty,
                id: d.id,
                action_id: d.action_id,
                kind_span: d.kind_span,
            });
            match d.action {
                Some(action) => list.logged.push(LoggedAction {
                    raw_index,
                    action_id: d.id?,
                    type_name: d.type_name.into_owned(),
                    span: d.span,
                    action,
                    auto_actions: d.auto_actions,
                }),
                None => list.meta = true,
            }
            Some(end)
        })?;
        Some((list, end))
    }

    /// The action at `at`, an auto action if `auto`.
    fn action(&self, at: usize, auto: bool) -> Option<(Decoded, usize)> {
        let (text, b) = (self.text, self.text.b);
        let mut f: ActionFields = [Field::ABSENT; fields::KEYS.len()];
        let mut seen = 0;
        let mut shares = None;
        let mut routes = None;
        let mut auto_actions = Vec::new();
        let end = object(b, at, true, |code, _, _, v| {
            let Some(k) = code.and_then(fields::slot) else {
                return skip(b, v);
            };
            if again(&mut seen, k) {
                return None;
            }
            let end = match k {
                fields::SHARES if b.get(v) == Some(&b'[') => {
                    let mut list = Vec::new();
                    let end = array(b, v, |s| {
                        let (f, end) = field(b, s)?;
                        list.push(resolve::share_named(self.title, text.plain(f)?)?);
                        Some(end)
                    })?;
                    shares = Some(list);
                    end
                }
                fields::ROUTES if b.get(v) == Some(&b'[') => {
                    let mut list = Vec::new();
                    let end = array(b, v, |r| {
                        let (route, end) = self.route(r)?;
                        list.push(route);
                        Some(end)
                    })?;
                    routes = Some(list);
                    end
                }
                // 18xx.games embeds auto actions in a top-level action only (the located path
                // reports those of an auto action).
                fields::AUTO_ACTIONS if b.get(v) == Some(&b'[') && !auto => array(b, v, |a| {
                    let (d, end) = self.action(a, true)?;
                    match d.ty {
                        ActionType::Message => {}
                        ActionType::Undo | ActionType::Redo => return None,
                        _ => auto_actions.push(AutoAction {
                            type_name: d.type_name.into_owned(),
                            span: d.span,
                            action: d.action?,
                        }),
                    }
                    Some(end)
                })?,
                fields::AUTO_ACTIONS if b.get(v) == Some(&b'[') => array(b, v, |_| None)?,
                _ => {
                    let (value, end) = field(b, v)?;
                    // An auto action list that is no array is reported by the located path.
                    if k == fields::AUTO_ACTIONS && value.present() {
                        return None;
                    }
                    f[k] = value;
                    return Some(end);
                }
            };
            f[k] = Field {
                form: Form::Other,
                start: v as u32,
                end: end as u32,
            };
            Some(end)
        })?;
        // What the located path's syntax layer checks of every action, undone or not.
        let kind = f[fields::TYPE];
        let written = text.plain(kind)?;
        let ty = ActionType::of(written);
        let type_name = match ty {
            ActionType::Unknown => return None,
            _ => ty
                .name()
                .map_or_else(|| Cow::Owned(written.to_string()), Cow::Borrowed),
        };
        let id = match auto {
            true => None,
            false => Some(text.int(f[fields::ID])?),
        };
        text.opt(f[fields::ENTITY], Text::id)?;
        text.opt(f[fields::ENTITY_TYPE], Text::plain)?;
        let action_id = text.opt(f[fields::ACTION_ID], |t, a| {
            Some(Spanned::new(t.int(a)?, a.span()))
        })?;
        let action = match ty {
            ActionType::Undo | ActionType::Redo | ActionType::Message => None,
            _ => Some(self.typed(ty, &f, shares, routes)?),
        };
        let decoded = Decoded {
            ty,
            type_name,
            kind_span: kind.span(),
            span: Span::new(at, end - at),
            id,
            action_id,
            action,
            auto_actions,
        };
        Some((decoded, end))
    }

    /// The typed action, as [`resolve`] makes it.
    fn typed(
        &self,
        ty: ActionType,
        f: &ActionFields,
        shares: Option<Vec<ShareId>>,
        routes: Option<Vec<RouteSpec>>,
    ) -> Option<Action> {
        use fields::{
            CHOICE, CITY, COMPANY, CORPORATION, COST, EXCHANGE, HEX, KIND, MINOR, PERCENT, PRICE,
            ROTATION, SHARE_PRICE, SLOT, TARGET, TILE, TRAIN,
        };
        let text = self.text;
        let entity = self.entity(f)?;
        let money = |k: usize| text.int(f[k]).map(Money);
        let opt_money = |k: usize| text.opt(f[k], Text::int).map(|m| m.map(Money));
        Some(match ty {
            ActionType::Bid => {
                let target = if f[COMPANY].present() {
                    BidTarget::Company(self.company(f[COMPANY])?)
                } else if f[CORPORATION].present() {
                    BidTarget::Corporation(self.corp(f[CORPORATION])?)
                } else {
                    BidTarget::Corporation(self.corp(f[MINOR])?)
                };
                Action::Bid {
                    entity,
                    target,
                    price: money(PRICE)?,
                }
            }
            ActionType::Pass => Action::Pass { entity },
            ActionType::Par => {
                let written = text.plain(f[SHARE_PRICE])?;
                let cell = resolve::market_cell_written(written)??;
                self.title.cell(cell.row, cell.column)?;
                Action::Par {
                    entity,
                    corp: self.corp(f[CORPORATION])?,
                    cell,
                }
            }
            ActionType::BuyShares | ActionType::SellShares => {
                let shares = shares?;
                let percent = match text.opt(f[PERCENT], Text::int)? {
                    None => None,
                    Some(p) => Some(Percent(u8::try_from(p).ok().filter(|p| *p <= 100)?)),
                };
                let share_price = opt_money(SHARE_PRICE)?;
                if ty == ActionType::BuyShares {
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
                }
            }
            ActionType::BuyCompany => Action::BuyCompany {
                entity,
                company: self.company(f[COMPANY])?,
                price: money(PRICE)?,
            },
            ActionType::LayTile => Action::LayTile {
                entity,
                hex: self.hex(text.plain(f[HEX])?)?,
                tile: self.map.parse_tile_id(text.plain(f[TILE])?)?,
                rotation: u8::try_from(text.int(f[ROTATION])?)
                    .ok()
                    .and_then(Rotation::new)?,
            },
            ActionType::PlaceToken => Action::PlaceToken {
                entity,
                city: resolve::city_named(self.map, text.plain(f[CITY])?)?,
                slot: match text.opt(f[SLOT], Text::int)? {
                    None => None,
                    Some(s) => Some(u8::try_from(s).ok()?),
                },
                cost: opt_money(COST)?,
            },
            ActionType::RunRoutes => Action::RunRoutes {
                entity,
                routes: routes?,
            },
            ActionType::Dividend => Action::Dividend {
                entity,
                kind: match text.plain(f[KIND])? {
                    "payout" => DividendKind::Payout,
                    "withhold" => DividendKind::Withhold,
                    _ => return None,
                },
            },
            ActionType::BuyTrain => Action::BuyTrain {
                entity,
                train: self.train(f[TRAIN])?,
                price: money(PRICE)?,
                exchange: match f[EXCHANGE].present() {
                    true => Some(self.train(f[EXCHANGE])?),
                    false => None,
                },
            },
            ActionType::DiscardTrain => Action::DiscardTrain {
                entity,
                train: self.train(f[TRAIN])?,
            },
            ActionType::Bankrupt => Action::Bankrupt { entity },
            ActionType::EndGame => Action::EndGame { entity },
            ActionType::Assign => Action::Assign {
                entity,
                hex: self.hex(text.plain(f[TARGET])?)?,
            },
            ActionType::Merge => Action::Merge {
                entity,
                corp: self.corp(f[CORPORATION])?,
            },
            ActionType::Choose => Action::Vote {
                entity,
                in_favour: match text.plain(f[CHOICE])? {
                    "for" => true,
                    "against" => false,
                    _ => return None,
                },
            },
            ActionType::Program => Action::Program { entity },
            ActionType::Undo | ActionType::Redo | ActionType::Message | ActionType::Unknown => {
                return None
            }
        })
    }

    fn entity(&self, f: &ActionFields) -> Option<Entity> {
        let name = self.text.id(f[fields::ENTITY])?;
        let entity_type = self.text.opt(f[fields::ENTITY_TYPE], Text::plain)?;
        resolve::entity_named(self.title, self.players, name, entity_type)?
    }

    fn corp(&self, f: Field) -> Option<CorpId> {
        self.title.corp_by_sym(self.text.plain(f)?)
    }

    fn company(&self, f: Field) -> Option<CompanyId> {
        self.title.company_by_sym(self.text.plain(f)?)
    }

    fn train(&self, f: Field) -> Option<TrainId> {
        resolve::train_named(self.title, self.text.plain(f)?)
    }

    fn hex(&self, written: &str) -> Option<HexId> {
        resolve::hex_named(self.map, &self.small_hexes, written)
    }

    /// An array of hex coordinates at `at`.
    fn hexes(&self, at: usize) -> Option<(Vec<HexId>, usize)> {
        let b = self.text.b;
        let mut hexes = Vec::new();
        let end = array(b, at, |h| {
            let (f, end) = field(b, h)?;
            hexes.push(self.hex(self.text.plain(f)?)?);
            Some(end)
        })?;
        Some((hexes, end))
    }

    /// The route at `at`, as [`resolve`] reads it.
    fn route(&self, at: usize) -> Option<(RouteSpec, usize)> {
        let (text, b) = (self.text, self.text.b);
        let mut f = [Field::ABSENT; route::KEYS.len()];
        let mut seen = 0;
        let mut connections = None;
        let mut nodes = None;
        let end = object(b, at, true, |code, _, _, v| {
            let Some(k) = code.and_then(route::slot) else {
                return skip(b, v);
            };
            if again(&mut seen, k) {
                return None;
            }
            let end = match k {
                route::CONNECTIONS if b.get(v) == Some(&b'[') => {
                    let mut list = Vec::new();
                    let end = array(b, v, |s| {
                        let (hexes, end) = self.hexes(s)?;
                        list.push(hexes);
                        Some(end)
                    })?;
                    connections = Some(list);
                    end
                }
                route::NODES if b.get(v) == Some(&b'[') => {
                    let mut list = Vec::new();
                    let end = array(b, v, |n| {
                        let (f, end) = field(b, n)?;
                        list.push(resolve::node_named(
                            self.map,
                            &self.small_hexes,
                            text.plain(f)?,
                        )?);
                        Some(end)
                    })?;
                    nodes = Some(list);
                    end
                }
                _ => {
                    let (value, end) = field(b, v)?;
                    f[k] = value;
                    return Some(end);
                }
            };
            f[k] = Field {
                form: Form::Other,
                start: v as u32,
                end: end as u32,
            };
            Some(end)
        })?;
        let train = self.train(f[route::TRAIN])?;
        let revenue = text.opt(f[route::REVENUE], Text::int)?.map(Money);
        // Older logs state a route by the hexes it walks (`hexes`, no `connections`).
        let spec = if !f[route::CONNECTIONS].present() && f[route::HEXES].present() {
            RouteSpec {
                train,
                connections: Vec::new(),
                revenue,
                nodes: Vec::new(),
                walk: self.hexes(f[route::HEXES].start as usize)?.0,
            }
        } else {
            RouteSpec {
                train,
                connections: connections?,
                revenue,
                nodes: match f[route::NODES].present() {
                    true => nodes?,
                    false => Vec::new(),
                },
                walk: Vec::new(),
            }
        };
        Some((spec, end))
    }
}
