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
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::sync::Arc;

use crate::action::{Action, BidTarget, DividendKind, Entity, RouteSpec};
use crate::engine::map::MapData;
use crate::engine::title::Title;
use crate::ids::{
    CompanyId, CorpId, HexId, Money, Percent, PlayerId, Rotation, ShareId, TileDefId, TileId,
    TrainId, TrainKind,
};
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

/// For objects read by their keys' text: no key is a field.
fn no_slot(_: u128) -> Option<usize> {
    None
}

/// Skips the value at `i`; returns its end. Strings and numbers (most skipped values) without
/// a call.
#[inline(always)]
fn skip(b: &[u8], i: usize) -> Option<usize> {
    skip_in(b, i, 0)
}

/// [`skip`] at a depth.
#[inline(always)]
fn skip_in(b: &[u8], i: usize, depth: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => Some(string_end(b, i)?.0),
        b'-' | b'0'..=b'9' => number_end(b, i),
        _ => skip_value(b, i, depth),
    }
}

/// Skips the value at `i`; returns its end.
fn skip_value(b: &[u8], i: usize, depth: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => Some(string_end(b, i)?.0),
        b'-' | b'0'..=b'9' => number_end(b, i),
        b'{' if depth < MAX_DEPTH => object(b, i, false, no_slot, |_, v| skip_in(b, v, depth + 1)),
        b'[' if depth < MAX_DEPTH => array(b, i, |v| skip_in(b, v, depth + 1)),
        b't' => literal_end(b, i, b"true"),
        b'f' => literal_end(b, i, b"false"),
        b'n' => literal_end(b, i, b"null"),
        _ => None,
    }
}

/// A member's key, as [`object`] hands it over.
#[derive(Debug, Clone, Copy)]
struct Key {
    /// Its field's index in the set the object is read for, if it is one of them.
    slot: Option<usize>,
    /// Where its text starts (after the quote) and how long it is.
    from: usize,
    len: usize,
}

/// The object at `i` (at its `{`, else `None`): `member(key, value_at)` reads a member's value
/// and returns its end; `slot` finds the index of a key's field by its [`json::key_code`]
/// (keys with escapes have none). With `plain`, a key with escapes declines (it could be any
/// key). Returns the object's end.
#[inline(always)]
fn object(
    b: &[u8],
    i: usize,
    plain: bool,
    slot: impl Fn(u128) -> Option<usize>,
    mut member: impl FnMut(Key, usize) -> Option<usize>,
) -> Option<usize> {
    if *b.get(i)? != b'{' {
        return None;
    }
    let mut j = skip_ws(b, i + 1);
    if *b.get(j)? == b'}' {
        return Some(j + 1);
    }
    loop {
        let (key, end) = key(b, j, plain, &slot)?;
        let (more, next) = after(b, member(key, value_at(b, end)?)?, b'}')?;
        if !more {
            return Some(next);
        }
        j = next;
    }
}

/// Where the value of a member whose key ends at `end` starts (after the colon). Whitespace is
/// looked for only where a log as 18xx.games writes it has none, as in [`after`].
#[inline(always)]
fn value_at(b: &[u8], end: usize) -> Option<usize> {
    match b.get(end..end + 2) {
        Some(&[b':', c]) if c > b' ' => Some(end + 1),
        _ => {
            let colon = skip_ws(b, end);
            if *b.get(colon)? != b':' {
                return None;
            }
            Some(skip_ws(b, colon + 1))
        }
    }
}

/// After an element or member ending at `j`, in a container that `close` closes: whether
/// another follows, and where it starts (or where the container ends).
#[inline(always)]
fn after(b: &[u8], j: usize, close: u8) -> Option<(bool, usize)> {
    let j = match *b.get(j)? {
        b',' => j + 1,
        c if c == close => return Some((false, j + 1)),
        _ => {
            let j = skip_ws(b, j);
            match *b.get(j)? {
                b',' => j + 1,
                c if c == close => return Some((false, j + 1)),
                _ => return None,
            }
        }
    };
    match b.get(j) {
        Some(c) if *c > b' ' => Some((true, j)),
        _ => Some((true, skip_ws(b, j))),
    }
}

/// The key at `j` (at its `"`, else `None`) and its end. A key of at most 15 bytes followed by
/// sixteen more (most keys) takes one look at sixteen bytes: its closing quote, then its field;
/// only a key that is none of the fields is looked at for escapes and control characters (a
/// field's key has none). Any other key is read the long way.
#[inline(always)]
fn key(
    b: &[u8],
    j: usize,
    plain: bool,
    slot: &impl Fn(u128) -> Option<usize>,
) -> Option<(Key, usize)> {
    if let Some(bytes) = b.get(j..j + 17) {
        if bytes[0] != b'"' {
            return None;
        }
        let word = u128::from_le_bytes(bytes[1..].try_into().ok()?);
        let (low, high) = (word as u64, (word >> 64) as u64);
        let quote = json::quotes(low);
        let len = if quote != 0 {
            Some(quote.trailing_zeros() / 8)
        } else {
            let quote = json::quotes(high);
            (quote != 0).then(|| 8 + quote.trailing_zeros() / 8)
        };
        if let Some(len) = len.map(|l| l as usize) {
            let code = word & json::KEY_MASKS[len];
            let key = |slot| {
                let key = Key {
                    slot,
                    from: j + 1,
                    len,
                };
                Some((key, j + len + 2))
            };
            // A key that ends in zero bytes has the code of the key without them: it is no
            // field's key (and no JSON text's, which writes a control character escaped).
            let last_byte_set = len > 0 && code >> (8 * (len - 1)) != 0;
            if let Some(k) = slot(code).filter(|_| last_byte_set) {
                return key(Some(k));
            }
            // The first special byte, exact (see `specials`): the quote, if the key is plain.
            let special = json::specials(low);
            let first = if special != 0 {
                special.trailing_zeros() / 8
            } else {
                8 + json::specials(high).trailing_zeros() / 8
            };
            if first as usize == len {
                return key(None);
            }
        }
    }
    if *b.get(j)? != b'"' {
        return None;
    }
    let (end, escaped) = string_end(b, j)?;
    let len = end - j - 2;
    let slot = match escaped {
        true if plain => return None,
        true => None,
        false => written_code(b, j + 1, len).and_then(slot),
    };
    Some((
        Key {
            slot,
            from: j + 1,
            len,
        },
        end,
    ))
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
        let (more, next) = after(b, element(j)?, b']')?;
        if !more {
            return Some(next);
        }
        j = next;
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
                b'1'..=b'9' => j = json::digits_end(b, j + 1),
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
        // Fields 18xx.games writes that railnote does not read, from `READ` on: known, their
        // keys need no look for escapes (as another key's do) before their values are skipped.
        CREATED_AT = "created_at",
        ORIGINAL_ID = "original_id",
        USER = "user",
        EXTRA_REVENUE = "extra_revenue",
        VARIANT = "variant",
        SUBSIDY = "subsidy",
        SKIP = "skip",
        UNCONDITIONAL = "unconditional",
        INDEFINITE = "indefinite",
    }
}

/// The fields of [`fields`] that railnote reads.
const READ: usize = fields::CREATED_AT;

// An action is decoded from these fields alone: every field the located path reads
// ([`raw`]'s and [`resolve`]'s) must be one of them, or an action carrying a field missed here
// would decode without it instead of declining to the located path.
const _: () = {
    let read = fields::KEYS.split_at(READ).0;
    assert!(
        json::keys_cover(read, &raw::common::KEYS)
            && json::keys_cover(read, &resolve::action::KEYS)
    );
};

type ActionFields = [Field; READ];

/// Each field's key as a member writes it, from after its opening quote to its colon
/// (`type":`), and the bytes of sixteen that fills: whether a member has a guessed key is one
/// comparison.
struct Written {
    code: u128,
    mask: u128,
    /// From the opening quote to the value.
    len: usize,
}

const WRITTEN: [Written; fields::KEYS.len()] = {
    let mut written = [const {
        Written {
            code: 0,
            mask: 0,
            len: 0,
        }
    }; fields::KEYS.len()];
    let mut i = 0;
    while i < written.len() {
        let len = fields::KEYS[i].len();
        assert!(
            len + 2 <= 16,
            "a key and its closing quote and colon fit in sixteen bytes"
        );
        let code = json::key_code(fields::KEYS[i]) | (b'"' as u128) << (8 * len);
        written[i] = Written {
            code: code | (b':' as u128) << (8 * (len + 1)),
            mask: json::KEY_MASKS[len + 2],
            len: len + 3,
        };
        i += 1;
    }
    written
};

/// The member at `j` if it has the key of field `guess` (as [`WRITTEN`]): its field and where
/// its value starts.
#[inline(always)]
fn guessed(b: &[u8], j: usize, guess: u8) -> Option<(Option<usize>, usize)> {
    let written = WRITTEN.get(usize::from(guess))?;
    let bytes = b.get(j..j + 17)?;
    let word = u128::from_le_bytes(bytes[1..].try_into().ok()?);
    if bytes[0] != b'"' || word & written.mask != written.code {
        return None;
    }
    let v = j + written.len;
    match b.get(v) {
        Some(c) if *c > b' ' => Some((Some(usize::from(guess)), v)),
        _ => Some((Some(usize::from(guess)), skip_ws(b, v))),
    }
}

/// The key an action's member most likely has, by the action's type and the key before: the
/// key the last member with the same type and key before it had. 18xx.games writes the fields
/// of each type in one order: nine keys of ten are guessed right, and a right guess costs one
/// comparison, where finding a key costs a search for its closing quote and a look-up.
struct Guesses(Box<[Cell<u8>]>);

impl Guesses {
    /// Contexts per type: after each field, at the start, after a key of no field.
    const PER_TYPE: usize = fields::KEYS.len() + 2;
    /// No guess.
    const NONE: u8 = u8::MAX;

    fn new() -> Guesses {
        let contexts = (ActionType::Unknown as usize + 1) * Self::PER_TYPE;
        Guesses((0..contexts).map(|_| Cell::new(Self::NONE)).collect())
    }

    /// The guess in `context`.
    #[inline(always)]
    fn of(&self, context: Context) -> &Cell<u8> {
        &self.0[context.ty + context.key]
    }
}

/// Where in an action a member is, for [`Guesses`]: its type's contexts (the first of them) and
/// the key before.
#[derive(Clone, Copy)]
struct Context {
    ty: usize,
    key: usize,
}

impl Context {
    /// An action's first member (its type not read yet).
    const START: Context = Context {
        ty: ActionType::Unknown as usize * Guesses::PER_TYPE,
        key: fields::KEYS.len(),
    };

    /// After a member with field `slot`.
    #[inline(always)]
    fn after(self, slot: Option<usize>) -> Context {
        Context {
            ty: self.ty,
            key: slot.unwrap_or(fields::KEYS.len() + 1),
        }
    }

    /// In an action of type `ty`.
    #[inline(always)]
    fn of_type(self, ty: ActionType) -> Context {
        Context {
            ty: ty as usize * Guesses::PER_TYPE,
            key: self.key,
        }
    }
}

/// Where a decoded action goes.
enum Sink<'o> {
    /// An entry of the `actions` array.
    Top(&'o mut Actions),
    /// An auto action of one.
    Auto(&'o mut Vec<AutoAction>),
}

/// The lists of an action, read where they are written.
#[derive(Default)]
struct Lists {
    shares: Option<Vec<ShareId>>,
    routes: Option<Vec<RouteSpec>>,
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
    let end = object(b, root, true, top::slot, |key, at| {
        let Some(slot) = key.slot else {
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
                object(b, at, true, no_slot, |k, v| {
                    match &b[k.from..k.from + k.len] {
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
                                optional_rules
                                    .push(Spanned::new(text.plain(f)?.to_string(), f.span()));
                                Some(end)
                            })
                        }
                        b"seed" | b"optional_rules" => None,
                        _ => skip(b, v),
                    }
                })
            }
            top::RESULT => {
                if b.get(at) == Some(&b'n') {
                    return literal_end(b, at, b"null");
                }
                let mut scores = BTreeMap::new();
                let end = object(b, at, true, no_slot, |k, v| {
                    let (f, end) = field(b, v)?;
                    let score = Spanned::new(text.int(f)?, f.span());
                    scores
                        .insert(text.src[k.from..k.from + k.len].to_string(), score)
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

/// An integer of more than eighteen digits, if it fits.
#[inline(never)]
fn long_int(negative: bool, digits: &[u8]) -> Option<i64> {
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

    /// The type a `type` field names ([`ActionType::Unknown`] for any value but a string
    /// without escapes, which is no type).
    fn action_type(self, f: Field) -> ActionType {
        match self.plain(f) {
            Some(written) => ActionType::of_code(
                json::written_code(self.b, f.start as usize + 1, written.len()),
                written,
            ),
            None => ActionType::Unknown,
        }
    }

    /// An integer written as one.
    #[inline(always)]
    fn int(self, f: Field) -> Option<i64> {
        if f.form != Form::Integer {
            return None;
        }
        let (negative, digits) = match &self.b[f.range()] {
            [b'-', rest @ ..] => (true, rest),
            digits => (false, digits),
        };
        // Eighteen digits always fit.
        if digits.len() > 18 {
            return long_int(negative, digits);
        }
        let mut magnitude = 0;
        for d in digits {
            magnitude = magnitude * 10 + i64::from(d - b'0');
        }
        Some(if negative { -magnitude } else { magnitude })
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
        let end = object(b, at, true, no_slot, |k, v| {
            let slot = match &b[k.from..k.from + k.len] {
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
    names: Names,
    guesses: Guesses,
    /// The last entity found ([`Reader::entity`]), by the codes of its name and entity type: an
    /// action's entity is mostly the one of the action before.
    last_entity: Cell<Option<(u128, u128, Entity)>>,
    /// The tile definitions of the names met ([`Reader::tile`]), by their codes.
    tiles: RefCell<Vec<(u128, TileDefId)>>,
}

/// The ids an action names, each by its [`json::key_code`], so that a written id (of at most 16
/// bytes) is found with a few integer comparisons where [`resolve`]'s look-ups compare strings.
/// An id of more than 16 bytes has [`Names::LONG`], which no written id's code is; a written id
/// of more than 16 bytes has no code and is looked up by [`resolve`].
struct Names {
    players: Vec<u128>,
    corps: Vec<u128>,
    /// The number of certificates of each corporation.
    shares: Vec<usize>,
    companies: Vec<u128>,
    trains: Vec<u128>,
    /// The copies of each train type a log may name (`u32`: an unlimited type, any `u16`).
    copies: Vec<u32>,
}

impl Names {
    /// Bytes of 0xFF, which no text has.
    const LONG: u128 = u128::MAX;

    fn new(title: &Title, players: &[LogPlayer]) -> Names {
        let code = |s: &str| json::key_code_of(s.as_bytes(), 0, s.len()).unwrap_or(Self::LONG);
        let corps = 0..title.corporations.len() as u8;
        Names {
            players: players.iter().map(|p| code(&p.id)).collect(),
            corps: title.corporations.iter().map(|c| code(&c.sym)).collect(),
            shares: corps.map(|c| title.share_sizes(CorpId(c)).len()).collect(),
            companies: title.companies.iter().map(|c| code(&c.sym)).collect(),
            trains: title.trains.iter().map(|t| code(&t.name)).collect(),
            copies: title
                .trains
                .iter()
                .map(|t| match t.unlimited {
                    true => 1 << 16,
                    false => u32::from(t.most_copies()),
                })
                .collect(),
        }
    }
}

/// The index of `code` in `codes` (the first, as [`resolve`]'s look-ups find it).
#[inline(always)]
fn find(codes: &[u128], code: u128) -> Option<usize> {
    codes.iter().position(|c| *c == code)
}

/// Codes of `entity_type`s.
const PLAYER: u128 = json::key_code("player");
const CORPORATION: u128 = json::key_code("corporation");
const MINOR: u128 = json::key_code("minor");
const COMPANY: u128 = json::key_code("company");

/// The digits of `digits` (one to four: no `u16` overflows) as a number, if it is all digits.
#[inline(always)]
fn small_number(digits: &[u8]) -> Option<u16> {
    if digits.is_empty() || digits.len() > 4 {
        return None;
    }
    let mut n = 0;
    for d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        n = n * 10 + u16::from(d - b'0');
    }
    Some(n)
}

impl<'a> Reader<'a> {
    fn new(text: Text<'a>, title: &'static Title, players: &'a [LogPlayer]) -> Reader<'a> {
        Reader {
            text,
            title,
            map: title.map,
            small_hexes: resolve::small_hexes(title.map),
            players,
            names: Names::new(title, players),
            guesses: Guesses::new(),
            last_entity: Cell::new(None),
            tiles: RefCell::new(Vec::new()),
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
        let end = array(self.text.b, at, |a| self.action(a, Sink::Top(&mut list)))?;
        Some((list, end))
    }

    /// The action at `at`, an entry of the `actions` array or an auto action of one: read into
    /// `sink`. Returns its end.
    fn action(&self, at: usize, sink: Sink<'_>) -> Option<usize> {
        let auto = matches!(sink, Sink::Auto(_));
        let (text, b) = (self.text, self.text.b);
        let mut f: ActionFields = [Field::ABSENT; READ];
        let mut seen = 0;
        let mut lists = Lists::default();
        let mut ty = ActionType::Unknown;
        // The loop of `object`, written out: the member it reads is no closure to inline.
        if *b.get(at)? != b'{' {
            return None;
        }
        let mut j = skip_ws(b, at + 1);
        let end = if *b.get(j)? == b'}' {
            j + 1
        } else {
            // The guess of each member's key, from the action's type (once read) and the
            // member before.
            let mut context = Context::START;
            loop {
                let guess = self.guesses.of(context);
                let (slot, v) = match guessed(b, j, guess.get()) {
                    Some(found) => found,
                    None => {
                        let (key, end) = key(b, j, true, &fields::slot)?;
                        if let Some(k) = key.slot {
                            guess.set(k as u8);
                        }
                        (key.slot, value_at(b, end)?)
                    }
                };
                context = context.after(slot);
                let end = match slot {
                    Some(k) if k < READ => {
                        if again(&mut seen, k) {
                            return None;
                        }
                        if b.get(v) == Some(&b'[')
                            && matches!(k, fields::SHARES | fields::ROUTES | fields::AUTO_ACTIONS)
                        {
                            let end = self.list(k, v, auto, &mut lists)?;
                            f[k] = Field {
                                form: Form::Other,
                                start: v as u32,
                                end: end as u32,
                            };
                            end
                        } else {
                            let (value, end) = field(b, v)?;
                            // An auto action list that is no array is reported by the located
                            // path.
                            if k == fields::AUTO_ACTIONS && value.present() {
                                return None;
                            }
                            if k == fields::TYPE {
                                ty = text.action_type(value);
                                context = context.of_type(ty);
                            }
                            f[k] = value;
                            end
                        }
                    }
                    _ => skip(b, v)?,
                };
                let (more, next) = after(b, end, b'}')?;
                if !more {
                    break next;
                }
                j = next;
            }
        };
        let Lists {
            shares,
            routes,
            auto_actions,
        } = lists;
        // What the located path's syntax layer checks of every action, undone or not.
        // A known type is a string without escapes (`action_type`).
        let kind = f[fields::TYPE];
        let type_name = match (ty, ty.name()) {
            (ActionType::Unknown, _) => return None,
            (_, Some(name)) => Cow::Borrowed(name),
            (_, None) => Cow::Owned(text.plain(kind)?.to_owned()),
        };
        let id = match auto {
            true => None,
            false => Some(text.int(f[fields::ID])?),
        };
        let action_id = text.opt(f[fields::ACTION_ID], |t, a| {
            Some(Spanned::new(t.int(a)?, a.span()))
        })?;
        let action = match ty {
            ActionType::Undo | ActionType::Redo | ActionType::Message => {
                text.opt(f[fields::ENTITY], Text::id)?;
                text.opt(f[fields::ENTITY_TYPE], Text::plain)?;
                None
            }
            // Its entity is read as these are.
            _ => Some(self.typed(ty, &f, shares, routes)?),
        };
        let span = Span::new(at, end - at);
        match sink {
            Sink::Top(list) => {
                let raw_index = list.listed.len();
                list.listed.push(Listed {
                    ty,
                    id,
                    action_id,
                    kind_span: kind.span(),
                });
                match action {
                    Some(action) => list.logged.push(LoggedAction {
                        raw_index,
                        action_id: id?,
                        type_name,
                        span,
                        action,
                        auto_actions,
                    }),
                    None => list.meta = true,
                }
            }
            Sink::Auto(list) => match ty {
                ActionType::Message => {}
                ActionType::Undo | ActionType::Redo => return None,
                _ => list.push(AutoAction {
                    type_name,
                    span,
                    action: action?,
                }),
            },
        }
        Some(end)
    }

    /// The list (`shares`, `routes` or `auto_actions`, field `k`) of an action at `at` (at
    /// its `[`), an auto action's if `auto`; returns its end. Out of line: the loop over an
    /// action's members has registers enough for the members most actions have.
    #[inline(never)]
    fn list(&self, k: usize, at: usize, auto: bool, lists: &mut Lists) -> Option<usize> {
        let (text, b) = (self.text, self.text.b);
        match k {
            fields::SHARES => {
                let mut list = Vec::with_capacity(1);
                let end = array(b, at, |s| {
                    let (f, end) = field(b, s)?;
                    list.push(self.share_named(text.plain(f)?)?);
                    Some(end)
                })?;
                lists.shares = Some(list);
                Some(end)
            }
            fields::ROUTES => {
                let mut list = Vec::with_capacity(1);
                let end = array(b, at, |r| {
                    let (route, end) = self.route(r)?;
                    list.push(route);
                    Some(end)
                })?;
                lists.routes = Some(list);
                Some(end)
            }
            // 18xx.games embeds auto actions in a top-level action only (the located path
            // reports those of an auto action).
            _ if auto => array(b, at, |_| None),
            _ => array(b, at, |a| {
                self.action(a, Sink::Auto(&mut lists.auto_actions))
            }),
        }
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
                tile: self.tile(text.plain(f[TILE])?)?,
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
        let (b, e, ty) = (self.text.b, f[fields::ENTITY], f[fields::ENTITY_TYPE]);
        let (from, len) = match e.form {
            Form::Plain => (e.start as usize + 1, (e.end - e.start) as usize - 2),
            Form::Integer if &b[e.range()] != b"-0" => (e.start as usize, e.range().len()),
            _ => return None,
        };
        let Some(code) = json::written_code(b, from, len) else {
            let name = self.text.id(e)?;
            let entity_type = self.text.opt(ty, Text::plain)?;
            return resolve::entity_named(self.title, self.players, name, entity_type)?;
        };
        // No entity type: a code no written type has.
        let kind = match ty.form {
            Form::Absent | Form::Null => Names::LONG,
            Form::Plain => json::written_code(b, ty.start as usize + 1, ty.range().len() - 2)?,
            _ => return None,
        };
        if let Some((_, _, entity)) = self
            .last_entity
            .get()
            .filter(|l| (l.0, l.1) == (code, kind))
        {
            return Some(entity);
        }
        let names = &self.names;
        let player = || find(&names.players, code).map(|i| Entity::Player(PlayerId(i as u8)));
        let corp = || find(&names.corps, code).map(|i| Entity::Corporation(CorpId(i as u8)));
        let company = || find(&names.companies, code).map(|i| Entity::Company(CompanyId(i as u8)));
        let entity = match kind {
            Names::LONG => player().or_else(corp).or_else(company),
            PLAYER => player(),
            CORPORATION | MINOR => corp(),
            COMPANY => company(),
            _ => None,
        }?;
        self.last_entity.set(Some((code, kind, entity)));
        Some(entity)
    }

    /// The code of a string field's text (`Ok`), or its text if it has none (more than 16
    /// bytes).
    fn code(&self, f: Field) -> Option<Result<u128, &'a str>> {
        if f.form != Form::Plain {
            return None;
        }
        match json::written_code(self.text.b, f.start as usize + 1, f.range().len() - 2) {
            Some(code) => Some(Ok(code)),
            None => self.text.plain(f).map(Err),
        }
    }

    fn corp(&self, f: Field) -> Option<CorpId> {
        match self.code(f)? {
            Ok(code) => find(&self.names.corps, code).map(|i| CorpId(i as u8)),
            Err(name) => self.title.corp_by_sym(name),
        }
    }

    fn company(&self, f: Field) -> Option<CompanyId> {
        match self.code(f)? {
            Ok(code) => find(&self.names.companies, code).map(|i| CompanyId(i as u8)),
            Err(name) => self.title.company_by_sym(name),
        }
    }

    fn train(&self, f: Field) -> Option<TrainId> {
        self.train_named(self.text.plain(f)?)
    }

    /// [`resolve::train_named`], for `<type>-<copy>` with a type of at most 16 bytes and a
    /// copy of one to four digits without looking at strings.
    fn train_named(&self, text: &str) -> Option<TrainId> {
        let bytes = text.as_bytes();
        let fast = bytes.iter().rposition(|c| *c == b'-').and_then(|dash| {
            let copy = small_number(&bytes[dash + 1..])?;
            let code = json::key_code_of(bytes, 0, dash)?;
            Some((code, copy))
        });
        let Some((code, copy)) = fast else {
            return resolve::train_named(self.title, text);
        };
        let kind = find(&self.names.trains, code)?;
        (u32::from(copy) < self.names.copies[kind]).then_some(TrainId {
            kind: TrainKind(kind as u8),
            copy,
        })
    }

    /// [`MapData::parse_tile_id`], for `<name>-<copy>` with a name of at most 16 bytes and a
    /// copy of one to four digits with the names met before remembered (the map looks a name up
    /// by comparing strings).
    fn tile(&self, written: &str) -> Option<TileId> {
        let bytes = written.as_bytes();
        let fast = bytes.iter().rposition(|c| *c == b'-').and_then(|dash| {
            let copy = small_number(&bytes[dash + 1..])?;
            let code = json::key_code_of(bytes, 0, dash)?;
            Some((code, copy, dash))
        });
        let Some((code, copy, dash)) = fast else {
            return self.map.parse_tile_id(written);
        };
        let mut tiles = self.tiles.borrow_mut();
        let def = match tiles.iter().find(|(c, _)| *c == code) {
            Some((_, def)) => *def,
            None => {
                let def = self.map.tile_def_by_name(&written[..dash])?;
                tiles.push((code, def));
                def
            }
        };
        self.map.tile_copy(def, copy)
    }

    /// [`resolve::share_named`], for `<corporation>_<index>` with a corporation of at most 16
    /// bytes and an index of one to four digits without looking at strings.
    fn share_named(&self, text: &str) -> Option<ShareId> {
        let bytes = text.as_bytes();
        let fast = bytes.iter().rposition(|c| *c == b'_').and_then(|at| {
            let index = small_number(&bytes[at + 1..])?;
            let code = json::key_code_of(bytes, 0, at)?;
            Some((code, index))
        });
        let Some((code, index)) = fast else {
            return resolve::share_named(self.title, text);
        };
        let corp = find(&self.names.corps, code)?;
        let index = u8::try_from(index).ok()?;
        (usize::from(index) < self.names.shares[corp]).then_some(ShareId {
            corp: CorpId(corp as u8),
            index,
        })
    }

    fn hex(&self, written: &str) -> Option<HexId> {
        resolve::hex_named(self.map, &self.small_hexes, written)
    }

    /// An array of hex coordinates at `at`.
    fn hexes(&self, at: usize) -> Option<(Vec<HexId>, usize)> {
        let b = self.text.b;
        let mut hexes = Vec::with_capacity(4);
        let end = array(b, at, |h| {
            let (hex, end) = match self.small_hex_at(h) {
                Some((hex, end)) => (hex, end),
                None => {
                    let (f, end) = field(b, h)?;
                    (self.hex(self.text.plain(f)?)?, end)
                }
            };
            hexes.push(hex);
            Some(end)
        })?;
        Some((hexes, end))
    }

    /// The hex written at `at` as most are (a capital and one or two digits, one of
    /// [`resolve::small_hexes`]) and the end of its text; `None` for any other text, which
    /// [`resolve::hex_named`] reads.
    #[inline(always)]
    fn small_hex_at(&self, at: usize) -> Option<(HexId, usize)> {
        let [b'"', letter @ b'A'..=b'Z', first @ b'0'..=b'9', next, last] =
            *self.text.b.get(at..at + 5)?
        else {
            return None;
        };
        let (number, end) = match (next, last) {
            (b'"', _) => (first - b'0', at + 4),
            (b'0'..=b'9', b'"') => ((first - b'0') * 10 + (next - b'0'), at + 5),
            _ => return None,
        };
        let letter = letter - b'A';
        (number < 64 && self.small_hexes[usize::from(letter)] >> number & 1 == 1)
            .then(|| (HexId::new(letter, i16::from(number)), end))
    }

    /// The route stop written at `at` as most are (`"<hex>-<part>"`, the hex as
    /// [`Reader::small_hex_at`] reads it, a part of one digit) and the end of its text; `None`
    /// for any other text, which [`resolve::node_named`] reads.
    #[inline(always)]
    fn small_node_at(&self, at: usize) -> Option<((HexId, u8), usize)> {
        let b = self.text.b;
        let digits = match b.get(at + 3)? {
            b'-' => 1,
            _ => 2,
        };
        let [b'"', letter @ b'A'..=b'Z', first @ b'0'..=b'9'] = *b.get(at..at + 3)? else {
            return None;
        };
        let (number, dash) = match digits {
            1 => (first - b'0', at + 3),
            _ => {
                let [next @ b'0'..=b'9', b'-'] = *b.get(at + 3..at + 5)? else {
                    return None;
                };
                ((first - b'0') * 10 + (next - b'0'), at + 4)
            }
        };
        let [part @ b'0'..=b'9', b'"'] = *b.get(dash + 1..dash + 3)? else {
            return None;
        };
        let letter = letter - b'A';
        (number < 64 && self.small_hexes[usize::from(letter)] >> number & 1 == 1).then(|| {
            let hex = HexId::new(letter, i16::from(number));
            ((hex, part - b'0'), dash + 3)
        })
    }

    /// The route at `at`, as [`resolve`] reads it.
    fn route(&self, at: usize) -> Option<(RouteSpec, usize)> {
        let (text, b) = (self.text, self.text.b);
        let mut f = [Field::ABSENT; route::KEYS.len()];
        let mut seen = 0;
        let mut connections = None;
        let mut nodes = None;
        let end = object(b, at, true, route::slot, |key, v| {
            let Some(k) = key.slot else {
                return skip(b, v);
            };
            if again(&mut seen, k) {
                return None;
            }
            let end = match k {
                route::CONNECTIONS if b.get(v) == Some(&b'[') => {
                    let mut list = Vec::with_capacity(4);
                    let end = array(b, v, |s| {
                        let (hexes, end) = self.hexes(s)?;
                        list.push(hexes);
                        Some(end)
                    })?;
                    connections = Some(list);
                    end
                }
                // Read only where there are no connections (then again, as hexes).
                route::HEXES if b.get(v) == Some(&b'[') => array(b, v, |h| skip_in(b, h, 1))?,
                route::NODES if b.get(v) == Some(&b'[') => {
                    let mut list = Vec::with_capacity(4);
                    let end = array(b, v, |n| {
                        let (node, end) = match self.small_node_at(n) {
                            Some(node) => node,
                            None => {
                                let (f, end) = field(b, n)?;
                                let written = text.plain(f)?;
                                (
                                    resolve::node_named(self.map, &self.small_hexes, written)?,
                                    end,
                                )
                            }
                        };
                        list.push(node);
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
