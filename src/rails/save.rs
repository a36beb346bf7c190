//! Reading a Rails save: Java object serialization (read with `jaded`) into typed Rails
//! actions. Knows no rules and no railnote title: the names stay Rails' own (privates `A`–`G`,
//! tile numbers, orientations 0–5); [`super::record`] maps them.
//!
//! A save is, in order (Rails' `GameSaver`): the Rails version and the date (both strings,
//! missing before Rails 1.0.7), the file version (a `Long`), the game's name, a map of the
//! game's options, optionally a map of configuration options, the players' names (a list),
//! then one object per action (before Rails 1.3.1: one list of them) and, last, optionally a
//! sorted map of the players' comments by action number.

use std::cell::Cell;
use std::fmt;
use std::io::{self, Read};
use std::rc::Rc;

use jaded::{AnnotationIter, Content, Parser, PrimitiveType, Value};

/// The largest save read. Rails' largest test game is 43 KB; the reader keeps whole copies of
/// objects the stream refers back to, so an unbounded input is no input to take.
pub const MAX_SAVE_BYTES: usize = 1 << 20;

/// The two bytes every Java serialization stream starts with, and the stream version.
pub const MAGIC: [u8; 4] = [0xAC, 0xED, 0x00, 0x05];

/// Whether `bytes` start as a Java serialization stream (a Rails save, if anything railnote
/// reads).
pub fn is_java_serialization(bytes: &[u8]) -> bool {
    bytes.starts_with(&MAGIC)
}

/// A Rails save, read.
#[derive(Debug, Clone, PartialEq)]
pub struct Save {
    /// The Rails version that wrote it (`2.4.6+`), when stated.
    pub rails_version: Option<String>,
    /// When it was saved (`2023-03-02 21:29:27`), when stated.
    pub saved_at: Option<String>,
    /// The game's name (`1889`).
    pub game: String,
    /// The game's options, by name, in the order of the file.
    pub options: Vec<(String, String)>,
    /// The players' names in seat order.
    pub players: Vec<String>,
    /// The actions, in the order they were taken.
    pub actions: Vec<Saved>,
    /// The players' comments, by the number of actions taken before them.
    pub comments: Vec<(usize, String)>,
}

/// One action of a save.
#[derive(Debug, Clone, PartialEq)]
pub struct Saved {
    /// 1-based number in the save.
    pub number: usize,
    /// Where its object starts in the file.
    pub offset: usize,
    /// What it is.
    pub action: RailsAction,
}

/// Rails' `NullAction` modes, in Rails' order (the save stores the ordinal).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NullMode {
    /// Ends a turn or a step ("Done").
    Done,
    /// Declines ("Pass").
    Pass,
    /// Skips a step of an operating turn.
    Skip,
    /// A pass Rails made for the player.
    AutoPass,
    /// Starts the game.
    StartGame,
}

/// A Rails action, with Rails' names. Every variant keeps the name of the player who took it
/// (Rails' `playerName`).
#[derive(Debug, Clone, PartialEq)]
pub enum RailsAction {
    /// `BidStartItem`: a bid on a private of the start packet.
    Bid {
        player: String,
        item: String,
        amount: i64,
    },
    /// `BuyStartItem`: buying the cheapest private (or an auction won), with the par price of
    /// the corporation whose president's certificate comes with it, if one was set.
    BuyStartItem {
        player: String,
        item: String,
        price: i64,
        par: Option<i64>,
    },
    /// `StartCompany`: setting a corporation's par price and buying its president's
    /// certificate.
    StartCompany {
        player: String,
        corp: String,
        price: i64,
    },
    /// `BuyCertificate`: certificates bought from the IPO, the pool or a player.
    BuyCertificate {
        player: String,
        corp: String,
        from: String,
        count: i64,
        price: i64,
        percent: i64,
    },
    /// `SellShares`: a bundle sold to the pool.
    SellShares {
        player: String,
        corp: String,
        count: i64,
        percent: i64,
        price: i64,
    },
    /// `LayTile`: a tile laid, by a corporation or through a private's special property.
    LayTile {
        player: String,
        corp: String,
        tile: i64,
        hex: String,
        orientation: i64,
        special: i64,
    },
    /// `LayBaseToken`: a station token placed (`station` is 1-based).
    LayToken {
        player: String,
        corp: String,
        hex: String,
        station: i64,
        special: i64,
    },
    /// `SetDividend`: the run's revenue and what was done with it (Rails' allocation code).
    SetDividend {
        player: String,
        corp: String,
        revenue: i64,
        allocation: i64,
    },
    /// `BuyTrain`: a train bought from the bank's depot, the pool or a corporation.
    BuyTrain {
        player: String,
        corp: String,
        train: String,
        kind: String,
        from: String,
        price: i64,
        exchanged: Option<String>,
    },
    /// `DiscardTrain`: a train given up above the limit.
    DiscardTrain {
        player: String,
        corp: String,
        train: Option<String>,
    },
    /// `BuyPrivate`: a corporation buys a private from a player.
    BuyPrivate {
        player: String,
        corp: String,
        private: String,
        price: i64,
    },
    /// `NullAction`: done, pass, skip.
    Null { player: String, mode: NullMode },
    /// `UseSpecialProperty`: a private's special property used outside a lay (an exchange).
    UseSpecialProperty { player: String, special: i64 },
    /// `CashCorrectionAction`: cash moved from the bank (negative: to it).
    CashCorrection {
        player: String,
        holder: String,
        amount: i64,
    },
    /// `MapCorrectionAction`: a tile put on the map outside the rules (only its finished step
    /// does anything).
    MapCorrection {
        player: String,
        hex: String,
        tiles: Vec<i64>,
        orientation: i64,
        finished: bool,
    },
    /// `CorrectionModeAction`: a correction mode switched on or off (no effect on the game).
    CorrectionMode { player: String },
    /// `RequestTurn`: a player of a network game asks for the turn (no effect on the game).
    RequestTurn { player: String },
    /// Any other Rails action, by its class name.
    Other { player: String, class: String },
}

impl RailsAction {
    /// The Rails class name of the action (`LayTile`).
    pub fn class(&self) -> &str {
        match self {
            RailsAction::Bid { .. } => "BidStartItem",
            RailsAction::BuyStartItem { .. } => "BuyStartItem",
            RailsAction::StartCompany { .. } => "StartCompany",
            RailsAction::BuyCertificate { .. } => "BuyCertificate",
            RailsAction::SellShares { .. } => "SellShares",
            RailsAction::LayTile { .. } => "LayTile",
            RailsAction::LayToken { .. } => "LayBaseToken",
            RailsAction::SetDividend { .. } => "SetDividend",
            RailsAction::BuyTrain { .. } => "BuyTrain",
            RailsAction::DiscardTrain { .. } => "DiscardTrain",
            RailsAction::BuyPrivate { .. } => "BuyPrivate",
            RailsAction::Null { .. } => "NullAction",
            RailsAction::UseSpecialProperty { .. } => "UseSpecialProperty",
            RailsAction::CashCorrection { .. } => "CashCorrectionAction",
            RailsAction::MapCorrection { .. } => "MapCorrectionAction",
            RailsAction::CorrectionMode { .. } => "CorrectionModeAction",
            RailsAction::RequestTurn { .. } => "RequestTurn",
            RailsAction::Other { class, .. } => class.rsplit('.').next().unwrap_or(class),
        }
    }

    /// The name of the player who took it.
    pub fn player(&self) -> &str {
        match self {
            RailsAction::Bid { player, .. }
            | RailsAction::BuyStartItem { player, .. }
            | RailsAction::StartCompany { player, .. }
            | RailsAction::BuyCertificate { player, .. }
            | RailsAction::SellShares { player, .. }
            | RailsAction::LayTile { player, .. }
            | RailsAction::LayToken { player, .. }
            | RailsAction::SetDividend { player, .. }
            | RailsAction::BuyTrain { player, .. }
            | RailsAction::DiscardTrain { player, .. }
            | RailsAction::BuyPrivate { player, .. }
            | RailsAction::Null { player, .. }
            | RailsAction::UseSpecialProperty { player, .. }
            | RailsAction::CashCorrection { player, .. }
            | RailsAction::MapCorrection { player, .. }
            | RailsAction::CorrectionMode { player }
            | RailsAction::RequestTurn { player }
            | RailsAction::Other { player, .. } => player,
        }
    }
}

/// Which part of a save a reading error is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// The header object of that name (`the game's options`).
    Header(&'static str),
    /// An action, by its 1-based number, with its Rails class when it was read that far.
    Action {
        number: usize,
        class: Option<String>,
    },
    /// The players' comments after the actions.
    Comments,
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Part::Header(what) => write!(f, "{what}"),
            Part::Action {
                number,
                class: Some(class),
            } => write!(f, "action {number} ({class})"),
            Part::Action {
                number,
                class: None,
            } => write!(f, "action {number}"),
            Part::Comments => write!(f, "the comments after the actions"),
        }
    }
}

/// What is wrong with a save.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// Not a Java serialization stream at all.
    NotJava,
    /// Larger than [`MAX_SAVE_BYTES`].
    TooLarge(usize),
    /// The file ends inside an object.
    Truncated,
    /// The stream's structure is broken (the Java reader's words).
    Damaged(String),
    /// An object of another kind than the save has there.
    Unexpected {
        expected: &'static str,
        found: String,
    },
    /// A field the action's class always has is missing.
    MissingField(&'static str),
    /// A field holds another kind of value.
    BadField {
        field: &'static str,
        expected: &'static str,
    },
    /// A file version other than the one Rails writes (9 since Rails 1.0.7).
    FileVersion(i64),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::NotJava => write!(
                f,
                "not a Rails save: it does not start as Java serialization"
            ),
            Problem::TooLarge(n) => write!(
                f,
                "{n} bytes: a Rails save is at most {MAX_SAVE_BYTES} bytes here"
            ),
            Problem::Truncated => write!(f, "the file ends inside it: the save is cut short"),
            Problem::Damaged(why) => write!(f, "the serialized data is damaged ({why})"),
            Problem::Unexpected { expected, found } => {
                write!(f, "expected {expected}, found {found}")
            }
            Problem::MissingField(name) => write!(f, "its field `{name}` is missing"),
            Problem::BadField { field, expected } => {
                write!(f, "its field `{field}` is not {expected}")
            }
            Problem::FileVersion(v) => write!(f, "save file version {v}; Rails writes 9"),
        }
    }
}

/// A save that cannot be read: what is wrong, in which part and at which byte.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{part}, at byte {offset}: {problem}")]
pub struct ReadError {
    /// Which part of the save.
    pub part: Part,
    /// Where the part starts (or the problem is, for a truncation).
    pub offset: usize,
    /// What is wrong.
    pub problem: Problem,
}

/// A reader that counts the bytes the Java reader took, to say where each object starts.
struct Counting<'a> {
    bytes: &'a [u8],
    at: Rc<Cell<usize>>,
}

impl Read for Counting<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let at = self.at.get();
        let rest = self.bytes.get(at..).unwrap_or_default();
        let n = rest.len().min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.at.set(at + n);
        Ok(n)
    }
}

/// The objects of the stream, one at a time, with where each starts.
struct Objects<'a> {
    parser: Parser<Counting<'a>>,
    at: Rc<Cell<usize>>,
    len: usize,
}

impl<'a> Objects<'a> {
    fn new(bytes: &'a [u8]) -> Result<Self, ReadError> {
        let header = |problem| ReadError {
            part: Part::Header("the file's start"),
            offset: 0,
            problem,
        };
        if bytes.len() > MAX_SAVE_BYTES {
            return Err(header(Problem::TooLarge(bytes.len())));
        }
        if !is_java_serialization(bytes) {
            return Err(header(Problem::NotJava));
        }
        let at = Rc::new(Cell::new(0));
        let parser = Parser::new(Counting {
            bytes,
            at: Rc::clone(&at),
        })
        .map_err(|_| header(Problem::NotJava))?;
        Ok(Objects {
            parser,
            at,
            len: bytes.len(),
        })
    }

    /// The next object, or `None` at the end of the file.
    fn next(&mut self, part: impl Fn() -> Part) -> Result<Option<(usize, Value)>, ReadError> {
        let start = self.at.get();
        if start >= self.len {
            return Ok(None);
        }
        match self.parser.read() {
            Ok(Content::Object(v)) => Ok(Some((start, v))),
            Ok(Content::Block(_)) => Err(ReadError {
                part: part(),
                offset: start,
                problem: Problem::Unexpected {
                    expected: "an object",
                    found: "raw data".into(),
                },
            }),
            Err(e) => {
                let truncated =
                    matches!(e, jaded::StreamError::EndOfStream(_)) || self.at.get() >= self.len;
                Err(ReadError {
                    part: part(),
                    offset: if truncated { self.len } else { start },
                    problem: if truncated {
                        Problem::Truncated
                    } else {
                        Problem::Damaged(e.to_string())
                    },
                })
            }
        }
    }

    /// The next object, which must be there.
    fn expect(&mut self, part: impl Fn() -> Part) -> Result<(usize, Value), ReadError> {
        let len = self.len;
        self.next(&part)?.ok_or_else(|| ReadError {
            part: part(),
            offset: len,
            problem: Problem::Truncated,
        })
    }
}

fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Object(o) => format!("an object of class {}", o.class_name()),
        Value::JavaString(s) => format!("the text {s:?}"),
        Value::Enum(c, k) => format!("the constant {c}.{k}"),
        Value::Primitive(p) => format!("the number {p}"),
        Value::Array(_) | Value::PrimitiveArray(_) => "an array".into(),
        Value::Class(c) => format!("the class {c}"),
        Value::Loop(_) => "a reference to an enclosing object".into(),
    }
}

/// A Java `Long`/`Integer` object's value.
fn boxed_integer(v: &Value) -> Option<i64> {
    let o = v.object_data()?;
    match o.get_field("value")? {
        Value::Primitive(PrimitiveType::Long(n)) => Some(*n),
        Value::Primitive(PrimitiveType::Int(n)) => Some(i64::from(*n)),
        _ => None,
    }
}

/// The entries of a `HashMap` (or `LinkedHashMap`, `TreeMap`) as its `writeObject` wrote them:
/// for a hash map the bucket count then the size, for a tree map the size, then the keys and
/// values in turn.
fn map_entries(v: &Value) -> Option<Vec<(&Value, &Value)>> {
    let o = v.object_data()?;
    let tree = o.class_name() == "java.util.TreeMap";
    if !tree
        && !matches!(
            o.class_name(),
            "java.util.HashMap" | "java.util.LinkedHashMap"
        )
    {
        return None;
    }
    let mut it: AnnotationIter<'_> = o.get_annotation(0)?;
    if !tree {
        it.read_i32().ok()?;
    }
    let size = usize::try_from(it.read_i32().ok()?).ok()?;
    let mut out = Vec::new();
    for _ in 0..size {
        let key = it.read_object().ok()?;
        let value = it.read_object().ok()?;
        out.push((key, value));
    }
    Some(out)
}

/// The elements of an `ArrayList` (or of Guava's immutable list, as it serializes).
fn list_elements(v: &Value) -> Option<Vec<&Value>> {
    let o = v.object_data()?;
    if let Some(Value::Array(items)) = o.get_field("elements") {
        return Some(items.iter().collect());
    }
    if !o.class_name().ends_with("ArrayList") && !o.class_name().ends_with("LinkedList") {
        return None;
    }
    let mut it = o.get_annotation(0)?;
    // Older Java wrote the capacity here, newer the size: the `size` field is the count.
    let written = it.read_i32().ok()?;
    let size = match o.get_field("size") {
        Some(Value::Primitive(PrimitiveType::Int(n))) => *n,
        _ => written,
    };
    let size = usize::try_from(size).ok()?;
    let mut out = Vec::new();
    for _ in 0..size {
        out.push(it.read_object().ok()?);
    }
    Some(out)
}

/// An action object's fields, each read with an error that names it.
struct Fields<'v> {
    object: &'v jaded::ObjectData,
}

impl<'v> Fields<'v> {
    fn get(&self, field: &'static str) -> Result<&'v Value, Problem> {
        self.object
            .get_field(field)
            .ok_or(Problem::MissingField(field))
    }

    fn int(&self, field: &'static str) -> Result<i64, Problem> {
        match self.get(field)? {
            Value::Primitive(PrimitiveType::Int(n)) => Ok(i64::from(*n)),
            Value::Primitive(PrimitiveType::Long(n)) => Ok(*n),
            Value::Primitive(PrimitiveType::Short(n)) => Ok(i64::from(*n)),
            other => boxed_integer(other).ok_or(Problem::BadField {
                field,
                expected: "a whole number",
            }),
        }
    }

    fn int_or(&self, field: &'static str, default: i64) -> Result<i64, Problem> {
        match self.object.get_field(field) {
            None | Some(Value::Null) => Ok(default),
            Some(_) => self.int(field),
        }
    }

    fn bool(&self, field: &'static str) -> Result<bool, Problem> {
        match self.get(field)? {
            Value::Primitive(PrimitiveType::Boolean(b)) => Ok(*b),
            _ => Err(Problem::BadField {
                field,
                expected: "true or false",
            }),
        }
    }

    fn text(&self, field: &'static str) -> Result<String, Problem> {
        match self.get(field)? {
            Value::JavaString(s) => Ok(s.clone()),
            _ => Err(Problem::BadField {
                field,
                expected: "a text",
            }),
        }
    }

    fn text_or_null(&self, field: &'static str) -> Result<Option<String>, Problem> {
        match self.object.get_field(field) {
            None | Some(Value::Null) => Ok(None),
            Some(_) => self.text(field).map(Some),
        }
    }

    fn ints(&self, field: &'static str) -> Result<Vec<i64>, Problem> {
        let bad = Problem::BadField {
            field,
            expected: "a list of whole numbers",
        };
        match self.get(field)? {
            Value::Null => Ok(Vec::new()),
            Value::PrimitiveArray(items) => items
                .iter()
                .map(|p| match p {
                    PrimitiveType::Int(n) => Ok(i64::from(*n)),
                    _ => Err(bad.clone()),
                })
                .collect(),
            _ => Err(bad),
        }
    }
}

/// Reads the action object `v` of class `class`.
fn action(class: &str, object: &jaded::ObjectData) -> Result<RailsAction, Problem> {
    let f = Fields { object };
    let player = f.text_or_null("playerName")?.unwrap_or_default();
    let short = class
        .strip_prefix("rails.game.action.")
        .or_else(|| class.strip_prefix("rails.game.correct."));
    Ok(match short.unwrap_or(class) {
        "BidStartItem" => RailsAction::Bid {
            player,
            item: f.text("startItemName")?,
            amount: f.int("actualBid")?,
        },
        "BuyStartItem" => RailsAction::BuyStartItem {
            player,
            item: f.text("startItemName")?,
            price: f.int("price")?,
            par: match f.int_or("associatedSharePrice", 0)? {
                0 => None,
                p => Some(p),
            },
        },
        "StartCompany" => RailsAction::StartCompany {
            player,
            corp: f.text("companyName")?,
            price: f.int("price")?,
        },
        "BuyCertificate" => RailsAction::BuyCertificate {
            player,
            corp: f.text("companyName")?,
            from: f.text("fromName")?,
            count: f.int("numberBought")?,
            price: f.int("price")?,
            percent: f.int("sharePerCert")?,
        },
        "SellShares" => RailsAction::SellShares {
            player,
            corp: f.text("companyName")?,
            // Older saves leave `numberSold` at 0 and keep the count in `number`.
            count: match f.int("numberSold")? {
                0 => f.int("number")?,
                n => n,
            },
            percent: f.int("share")?,
            price: f.int("price")?,
        },
        "LayTile" => RailsAction::LayTile {
            player,
            corp: f.text("companyName")?,
            tile: f.int("laidTileId")?,
            hex: f.text("chosenHexName")?,
            orientation: f.int("orientation")?,
            special: f.int_or("specialPropertyId", 0)?,
        },
        "LayBaseToken" => RailsAction::LayToken {
            player,
            corp: f.text("companyName")?,
            hex: f.text("chosenHexName")?,
            station: f.int("chosenStation")?,
            special: f.int_or("specialPropertyId", 0)?,
        },
        "SetDividend" => RailsAction::SetDividend {
            player,
            corp: f.text("companyName")?,
            revenue: f.int("actualRevenue")?,
            allocation: f.int("revenueAllocation")?,
        },
        "BuyTrain" => RailsAction::BuyTrain {
            player,
            corp: f.text("companyName")?,
            train: f.text("trainUniqueId")?,
            kind: f.text_or_null("typeName")?.unwrap_or_default(),
            from: f.text("fromName")?,
            price: f.int("pricePaid")?,
            exchanged: f.text_or_null("exchangedTrainUniqueId")?,
        },
        "DiscardTrain" => RailsAction::DiscardTrain {
            player,
            corp: f.text("companyName")?,
            train: f.text_or_null("discardedTrainUniqueId")?,
        },
        "BuyPrivate" => RailsAction::BuyPrivate {
            player,
            corp: f.text("companyName")?,
            private: f.text("privateCompanyName")?,
            price: f.int("price")?,
        },
        "NullAction" => RailsAction::Null {
            player,
            mode: match f.int("mode")? {
                0 => NullMode::Done,
                1 => NullMode::Pass,
                2 => NullMode::Skip,
                3 => NullMode::AutoPass,
                4 => NullMode::StartGame,
                _ => {
                    return Err(Problem::BadField {
                        field: "mode",
                        expected: "a mode of NullAction (0–4)",
                    })
                }
            },
        },
        "UseSpecialProperty" => RailsAction::UseSpecialProperty {
            player,
            special: f.int("specialPropertyId")?,
        },
        "CashCorrectionAction" => RailsAction::CashCorrection {
            player,
            holder: f.text("cashHolderName")?,
            amount: f.int("correctAmount")?,
        },
        "MapCorrectionAction" => RailsAction::MapCorrection {
            player,
            hex: f.text("locationCoordinates")?,
            tiles: f.ints("tileIds")?,
            orientation: f.int("orientation")?,
            finished: f.text_or_null("stepName")?.as_deref() == Some("FINISHED"),
        },
        "CorrectionModeAction" => {
            f.bool("active")?;
            RailsAction::CorrectionMode { player }
        }
        "RequestTurn" => RailsAction::RequestTurn { player },
        _ => RailsAction::Other {
            player,
            class: class.to_string(),
        },
    })
}

/// Reads a Rails save.
///
/// # Errors
/// What is wrong and where: the header object, or the action (its number and class) and the
/// field; a save cut short says which action it ends in.
pub fn read(bytes: &[u8]) -> Result<Save, ReadError> {
    if bytes.len() > MAX_SAVE_BYTES {
        return Err(ReadError {
            part: Part::Header("the file's start"),
            offset: 0,
            problem: Problem::TooLarge(bytes.len()),
        });
    }
    // The Java reader recurses once per nested object, and so does dropping what it read: a
    // crafted file of nested arrays (ten bytes a level) would overflow the stack of the
    // calling thread. A thread with a stack in proportion to the file (about 500 bytes of
    // stack a level in a debug build) reads it; the memory is only reserved, and touched
    // only as deep as the file nests.
    let stack = (16 << 20) + bytes.len().saturating_mul(STACK_PER_BYTE);
    let failed = |why: &str| ReadError {
        part: Part::Header("the file's start"),
        offset: 0,
        problem: Problem::Damaged(why.to_string()),
    };
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("rails-save".into())
            .stack_size(stack)
            .spawn_scoped(scope, || read_here(bytes))
            .map_err(|_| failed("no thread could be started to read it"))?
            .join()
            .unwrap_or_else(|_| Err(failed("the Java reader failed on it")))
    })
}

/// Stack reserved per byte of a save (see [`read`]).
const STACK_PER_BYTE: usize = 640;

fn read_here(bytes: &[u8]) -> Result<Save, ReadError> {
    let mut objects = Objects::new(bytes)?;
    let header_error = |what: &'static str, offset: usize, problem| ReadError {
        part: Part::Header(what),
        offset,
        problem,
    };
    let unexpected = |what: &'static str, expected: &'static str, offset: usize, v: &Value| {
        header_error(
            what,
            offset,
            Problem::Unexpected {
                expected,
                found: describe(v),
            },
        )
    };

    let (mut offset, mut next) = objects.expect(|| Part::Header("the Rails version"))?;
    let mut rails_version = None;
    let mut saved_at = None;
    if let Value::JavaString(s) = &next {
        rails_version = Some(s.clone());
        (offset, next) = objects.expect(|| Part::Header("the date"))?;
        if let Value::JavaString(s) = &next {
            saved_at = Some(s.clone());
            (offset, next) = objects.expect(|| Part::Header("the file version"))?;
        }
    }
    match boxed_integer(&next) {
        Some(9) => {}
        Some(v) => {
            return Err(header_error(
                "the file version",
                offset,
                Problem::FileVersion(v),
            ))
        }
        None => return Err(unexpected("the file version", "a Long", offset, &next)),
    }
    let (offset, name) = objects.expect(|| Part::Header("the game's name"))?;
    let game = match name {
        Value::JavaString(s) => s,
        other => return Err(unexpected("the game's name", "a text", offset, &other)),
    };
    let (offset, options_value) = objects.expect(|| Part::Header("the game's options"))?;
    let options = map_entries(&options_value)
        .and_then(|entries| {
            entries
                .into_iter()
                .map(|(k, v)| Some((k.string()?.to_string(), v.string()?.to_string())))
                .collect::<Option<Vec<_>>>()
        })
        .ok_or_else(|| {
            unexpected(
                "the game's options",
                "a map of texts",
                offset,
                &options_value,
            )
        })?;
    let (mut offset, mut next) = objects.expect(|| Part::Header("the players"))?;
    if map_entries(&next).is_some() {
        // Configuration options that are not rules (Rails' own settings).
        (offset, next) = objects.expect(|| Part::Header("the players"))?;
    }
    let players = list_elements(&next)
        .and_then(|items| {
            items
                .into_iter()
                .map(|v| v.string().map(str::to_string))
                .collect::<Option<Vec<_>>>()
        })
        .ok_or_else(|| unexpected("the players", "a list of names", offset, &next))?;

    let mut actions: Vec<Saved> = Vec::new();
    let mut comments = Vec::new();
    loop {
        let number = actions.len() + 1;
        let Some((offset, value)) = objects.next(|| Part::Action {
            number,
            class: None,
        })?
        else {
            break;
        };
        let Some(object) = value.object_data() else {
            return Err(ReadError {
                part: Part::Action {
                    number,
                    class: None,
                },
                offset,
                problem: Problem::Unexpected {
                    expected: "an action",
                    found: describe(&value),
                },
            });
        };
        let class = object.class_name();
        if class == "java.util.TreeMap" {
            comments = read_comments(&value).ok_or(ReadError {
                part: Part::Comments,
                offset,
                problem: Problem::Unexpected {
                    expected: "a map of comments by action number",
                    found: describe(&value),
                },
            })?;
            break;
        }
        if !class.starts_with("rails.game.") {
            return Err(ReadError {
                part: Part::Action {
                    number,
                    class: None,
                },
                offset,
                problem: Problem::Unexpected {
                    expected: "a Rails action",
                    found: describe(&value),
                },
            });
        }
        let action = action(class, object).map_err(|problem| ReadError {
            part: Part::Action {
                number,
                class: Some(class.rsplit('.').next().unwrap_or(class).to_string()),
            },
            offset,
            problem,
        })?;
        actions.push(Saved {
            number,
            offset,
            action,
        });
    }
    Ok(Save {
        rails_version,
        saved_at,
        game,
        options,
        players,
        actions,
        comments,
    })
}

fn read_comments(v: &Value) -> Option<Vec<(usize, String)>> {
    map_entries(v)?
        .into_iter()
        .map(|(k, v)| {
            Some((
                usize::try_from(boxed_integer(k)?).ok()?,
                v.string()?.to_string(),
            ))
        })
        .collect()
}
