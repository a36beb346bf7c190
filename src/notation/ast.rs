//! The syntax tree of a railnote document: what was written, with byte spans, and no rules.
//!
//! Spans are metadata: [`PartialEq`] on the tree compares what was written, not where, so a
//! document parsed twice (or parsed, written and parsed again) compares equal.

use crate::ids::HexId;
use crate::log::Span;

/// A whole file: one or more games.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Document {
    /// The games, in file order.
    pub games: Vec<GameText>,
}

/// One game: its tag section and its move text.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GameText {
    /// The tags, in the order written (`[Title "1836Jr30"]`).
    pub tags: Vec<Tag>,
    /// The move text.
    pub body: Vec<Element>,
}

impl GameText {
    /// Whether this is only comments: no tag, no move, heading or check (a file of comments
    /// holds no game).
    pub fn is_comments_only(&self) -> bool {
        self.tags.is_empty() && self.body.iter().all(|e| matches!(e, Element::Comment(_)))
    }

    /// The value of the first tag named `name`, if any.
    pub fn tag(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().find(|t| t.name == name)
    }
}

/// A tag: `[Name "value"]`.
#[derive(Debug, Clone, Eq)]
pub struct Tag {
    /// The tag name (`Title`, `Players`, `Rules`, `Seed`, `Date`, `Event`, `Result`, `Id`, `Ids`).
    pub name: String,
    /// The value, unescaped.
    pub value: String,
    /// Where the tag is (the whole `[...]`).
    pub span: Span,
    /// Where the value is (inside the quotes).
    pub value_span: Span,
}

impl PartialEq for Tag {
    fn eq(&self, other: &Tag) -> bool {
        // intentionally omitted: spans
        self.name == other.name && self.value == other.value
    }
}

/// One item of the move text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Element {
    /// A round heading: `PR`, `SR 2`, `OR 3.1`.
    Heading(Heading),
    /// A move: `Ann: bid CFL 45!`.
    Move(Move),
    /// A comment: `{…}` or `; …` to the end of the line.
    Comment(Comment),
    /// A variation: `( … )`, an alternative to the move before it.
    Variation(Variation),
    /// A check line: `= Ann 315 Nord 120`.
    Check(Check),
    /// A correction: `correct cash Ann +50`.
    Correction(Correction),
}

/// A round heading.
#[derive(Debug, Clone, Eq)]
pub struct Heading {
    /// The round as written.
    pub round: RoundName,
    /// Where.
    pub span: Span,
}

impl PartialEq for Heading {
    fn eq(&self, other: &Heading) -> bool {
        self.round == other.round
    }
}

/// A round name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundName {
    /// `PR`: the private auction.
    Private,
    /// `SR n`.
    Stock(u32),
    /// `OR n.m`.
    Operating(u32, u32),
    /// `MR n.m`: a merger round after operating round n.m (18Ireland).
    Merger(u32, u32),
}

impl std::fmt::Display for RoundName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RoundName::Private => f.write_str("PR"),
            RoundName::Stock(n) => write!(f, "SR {n}"),
            RoundName::Operating(n, m) => write!(f, "OR {n}.{m}"),
            RoundName::Merger(n, m) => write!(f, "MR {n}.{m}"),
        }
    }
}

impl std::str::FromStr for RoundName {
    type Err = ();

    /// `PR`, `SR 2`, `OR 3.1`, `MR 5.2`, in either case and with any blanks between the parts
    /// (`or 3.1`, `OR3.1`): what a person types on a command line.
    fn from_str(s: &str) -> Result<RoundName, ()> {
        let s = s.trim();
        let split = s
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(s.len());
        let (kind, number) = (s[..split].to_ascii_uppercase(), s[split..].trim());
        let set = |n: &str| -> Result<(u32, u32), ()> {
            let (a, b) = n.split_once('.').ok_or(())?;
            Ok((a.parse().map_err(|_| ())?, b.parse().map_err(|_| ())?))
        };
        match kind.as_str() {
            "PR" if number.is_empty() => Ok(RoundName::Private),
            "SR" => number.parse().map(RoundName::Stock).map_err(|_| ()),
            "OR" => set(number).map(|(a, b)| RoundName::Operating(a, b)),
            "MR" => set(number).map(|(a, b)| RoundName::Merger(a, b)),
            _ => Err(()),
        }
    }
}

/// A comment and how it was written.
#[derive(Debug, Clone, Eq)]
pub struct Comment {
    /// The text (without braces or the `;`), trimmed.
    pub text: String,
    /// `true` for `; …` (runs to the end of the line), `false` for `{…}`.
    pub line: bool,
    /// `true` when a line break separates it from the element before it in the same move
    /// text, so that `fmt` keeps it on its own line (never for the first element).
    pub own_line: bool,
    /// Where.
    pub span: Span,
}

impl PartialEq for Comment {
    fn eq(&self, other: &Comment) -> bool {
        self.text == other.text && self.line == other.line && self.own_line == other.own_line
    }
}

/// A variation: moves replayed from the position before the preceding move, then discarded.
#[derive(Debug, Clone, Eq)]
pub struct Variation {
    /// Its move text.
    pub body: Vec<Element>,
    /// Where (the parentheses included).
    pub span: Span,
}

impl PartialEq for Variation {
    fn eq(&self, other: &Variation) -> bool {
        self.body == other.body
    }
}

/// A check line: each entry is verified against the state at this point.
#[derive(Debug, Clone, Eq)]
pub struct Check {
    /// The entries: who, and the cash recorded.
    pub entries: Vec<CheckEntry>,
    /// Where.
    pub span: Span,
}

impl PartialEq for Check {
    fn eq(&self, other: &Check) -> bool {
        self.entries == other.entries
    }
}

/// `Ann 315` (cash) or `Ann Nord 60%` (holding).
#[derive(Debug, Clone, Eq)]
pub struct CheckEntry {
    /// A player name, corporation or `bank`.
    pub who: Name,
    /// What is checked.
    pub what: CheckValue,
    /// Where.
    pub span: Span,
}

impl PartialEq for CheckEntry {
    fn eq(&self, other: &CheckEntry) -> bool {
        self.who == other.who && self.what == other.what
    }
}

/// A checked value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckValue {
    /// Cash.
    Cash(i64),
    /// Percent of a corporation held.
    Holding(String, u8),
}

/// A correction agreed at the table, applied and reported.
#[derive(Debug, Clone, Eq)]
pub struct Correction {
    /// What is corrected.
    pub kind: CorrectionKind,
    /// Where.
    pub span: Span,
}

impl PartialEq for Correction {
    fn eq(&self, other: &Correction) -> bool {
        self.kind == other.kind
    }
}

/// The corrections railnote knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CorrectionKind {
    /// `correct cash Ann +50`: money moved between an entity and the bank.
    Cash {
        /// Whose cash.
        who: Name,
        /// Signed amount (positive: from the bank to the entity).
        amount: i64,
    },
    /// `correct tile 57 E7 r2`: a tile left in place on a hex although no lay put it there.
    /// It comes from the supply and replaces whatever was on the hex (which goes back).
    Tile {
        /// A tile name (`57`) or a physical tile (`57-1`).
        tile: String,
        /// Where.
        hex: HexId,
        /// How it is turned.
        orientation: Orientation,
    },
    /// `correct share Nord_3 Ann`: a certificate moved to a player, `pool` or `ipo`, without
    /// payment.
    Share {
        /// The certificate (`Nord_3`).
        share: Name,
        /// Who holds it now: a player, `pool` or `ipo`.
        to: Name,
    },
}

/// A name as written: a bare word or a quoted string (`"Player 1"`).
#[derive(Debug, Clone, Eq)]
pub struct Name {
    /// The name.
    pub text: String,
    /// Where.
    pub span: Span,
}

impl PartialEq for Name {
    fn eq(&self, other: &Name) -> bool {
        self.text == other.text
    }
}

impl Name {
    /// A name without position (for building documents in code).
    pub fn new(text: impl Into<String>) -> Name {
        Name {
            text: text.into(),
            span: Span::default(),
        }
    }
}

/// An annotation glyph after a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Annotation {
    /// `!`
    Good,
    /// `?`
    Mistake,
    /// `!!`
    Brilliant,
    /// `??`
    Blunder,
    /// `!?`
    Interesting,
    /// `?!`
    Dubious,
}

impl Annotation {
    /// The glyph.
    pub fn as_str(self) -> &'static str {
        match self {
            Annotation::Good => "!",
            Annotation::Mistake => "?",
            Annotation::Brilliant => "!!",
            Annotation::Blunder => "??",
            Annotation::Interesting => "!?",
            Annotation::Dubious => "?!",
        }
    }

    /// The annotation a glyph names.
    pub fn from_glyph(s: &str) -> Option<Annotation> {
        Some(match s {
            "!" => Annotation::Good,
            "?" => Annotation::Mistake,
            "!!" => Annotation::Brilliant,
            "??" => Annotation::Blunder,
            "!?" => Annotation::Interesting,
            "?!" => Annotation::Dubious,
            _ => return None,
        })
    }
}

/// A move: optional actor, the action, an optional annotation.
#[derive(Debug, Clone, Eq)]
pub struct Move {
    /// `&` before the move: an automatic action triggered by the previous move
    /// (a programmed buy or pass in 18xx.games).
    pub auto: bool,
    /// The actor, when written (`Ann:`); otherwise the entity the game waits for.
    pub actor: Option<Name>,
    /// The action.
    pub action: RawAction,
    /// An annotation glyph.
    pub annotation: Option<Annotation>,
    /// The whole move.
    pub span: Span,
    /// The action alone (without actor).
    pub action_span: Span,
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.auto == other.auto
            && self.actor == other.actor
            && self.action == other.action
            && self.annotation == other.annotation
    }
}

/// Where shares or a train come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The initial offering (default for shares) or the depot (default for trains).
    Ipo,
    /// The open market: `pool`.
    Pool,
    /// Another corporation: `from Nord`.
    Corp(String),
}

/// How a tile is turned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Orientation {
    /// `r0`…`r5`: the rotation number.
    Rotation(u8),
    /// Exits as compass sides joined with `-`: `NE-SW`, `W-E-SE`.
    Sides(Vec<Side>),
}

/// A hex side, as read off the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Side {
    /// North.
    N,
    /// North-east.
    NE,
    /// East.
    E,
    /// South-east.
    SE,
    /// South.
    S,
    /// South-west.
    SW,
    /// West.
    W,
    /// North-west.
    NW,
}

impl Side {
    /// All sides.
    pub const ALL: [Side; 8] = [
        Side::N,
        Side::NE,
        Side::E,
        Side::SE,
        Side::S,
        Side::SW,
        Side::W,
        Side::NW,
    ];

    /// The side's letters.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::N => "N",
            Side::NE => "NE",
            Side::E => "E",
            Side::SE => "SE",
            Side::S => "S",
            Side::SW => "SW",
            Side::W => "W",
            Side::NW => "NW",
        }
    }

    /// The side its letters name.
    pub fn from_letters(s: &str) -> Option<Side> {
        Side::ALL.into_iter().find(|side| side.as_str() == s)
    }
}

/// A stop named in a route's `@` list: `H4.0` (hex, part index).
pub type Stop = (HexId, u8);

/// One train's route: `2-0:H6-H4=50`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteText {
    /// The train: a type (`2`) or a physical train (`2-0`).
    pub train: String,
    /// The connections, each a chain of hexes from stop to stop, joined by `+`.
    pub connections: Vec<Vec<HexId>>,
    /// The hexes walked, joined by `~`, as older 18xx.games logs state a route (no stops
    /// marked); empty when the route has connections.
    pub walk: Vec<HexId>,
    /// The revenue stated, `=N` (checked).
    pub revenue: Option<i64>,
    /// Stop signatures, `@H6.0+H4.0`.
    pub nodes: Vec<Stop>,
}

/// An action as written, before it is resolved against a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RawAction {
    /// `pass`.
    Pass,
    /// `bid CFL 45`: a bid, or the purchase of a private at its price.
    Bid {
        /// The private (or corporation) bid on.
        target: String,
        /// The amount.
        price: i64,
    },
    /// `par Nord 82`, or with the market cell `par Nord 82@2.6` (0-based row.column).
    Par {
        /// The corporation.
        corp: String,
        /// The par price.
        price: i64,
        /// The cell, when written.
        cell: Option<(u8, u8)>,
    },
    /// `buy Nord`, `buy 2 Nord pool`, `buy Nord_3 10%`, or a private bought by a corporation:
    /// `buy CFL 40`.
    Buy {
        /// How many certificates (`buy 2 Nord`).
        count: Option<u8>,
        /// A corporation, certificates (`Nord_3`) or a private company.
        what: Vec<String>,
        /// `pool` (shares from the open market).
        pool: bool,
        /// The bundle size, `20%` (checked).
        percent: Option<u8>,
        /// A price (private purchase).
        price: Option<i64>,
        /// The price per share, `@90` (checked).
        share_price: Option<i64>,
    },
    /// `sell Nord`, `sell 3 Nord`, `sell NBDS_2 NBDS_0 50%`.
    Sell {
        /// How many certificates.
        count: Option<u8>,
        /// A corporation or certificates.
        what: Vec<String>,
        /// The bundle size, `30%`.
        percent: Option<u8>,
        /// The price per share, `@90` (checked).
        share_price: Option<i64>,
    },
    /// `57 E7 r2`, `lay 57-1 E7 W-E`.
    Lay {
        /// A tile name (`57`) or a physical tile (`57-1`).
        tile: String,
        /// Where.
        hex: HexId,
        /// How it is turned.
        orientation: Orientation,
    },
    /// `tok E11`, `tok E11/2 s0 40`, `tok 57-2-0`.
    Token {
        /// A hex (with `/n` for its n-th city) or a city id.
        at: TokenAt,
        /// The slot, `s0` (checked).
        slot: Option<u8>,
        /// The cost (checked).
        cost: Option<i64>,
    },
    /// `run 2:H6-H4=50 3-1:I3-I5-H4+H4-H6`.
    Run {
        /// One route per train.
        routes: Vec<RouteText>,
    },
    /// `pay`: pay out.
    Payout,
    /// `withhold`.
    Withhold,
    /// `train 3`, `train 3 pool`, `train 3-1 120 from Nord`, `train D x 4 1000`.
    Train {
        /// A type or a physical train.
        train: String,
        /// The price (checked for the depot and the pool; needed from a corporation).
        price: Option<i64>,
        /// Where from (default: the depot).
        from: Source,
        /// A train traded in: `x 4`.
        exchange: Option<String>,
    },
    /// `discard 3`.
    Discard {
        /// A type or a physical train.
        train: String,
    },
    /// `bankrupt`.
    Bankrupt,
    /// `assign C13`: a private's bonus marker on a hex (18Ireland).
    Assign {
        /// The hex.
        hex: String,
    },
    /// `merge DDR`: propose a minor for a merger, or name the major it becomes (18Ireland).
    Merge {
        /// The corporation.
        corp: String,
    },
    /// `vote for` / `vote against` (18Ireland mergers).
    Vote {
        /// For (true) or against.
        in_favour: bool,
    },
    /// `end game`: the actor ends the game at once, scored as it stands (18xx.games' End Game
    /// button; the printed rules have no such move).
    EndGame,
    /// `program buy_shares corporation=GCL until_condition=float`: an 18xx.games programmed
    /// action (no effect on the game; its settings are kept for conversion).
    Program {
        /// The reference type after `program_`.
        kind: String,
        /// Its settings, `key=value` (values as JSON scalars; bare words are strings).
        args: Vec<(String, String)>,
    },
}

/// Where a token goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenAt {
    /// `E11` or `E11/2` (1-based city of the hex).
    Hex(HexId, Option<u8>),
    /// `57-2-0`: a reference city id (tile id and part index).
    City(String),
}
