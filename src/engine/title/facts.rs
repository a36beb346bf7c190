//! The schema of a title's facts: market grid, phases, trains, privates, corporations, cash
//! and limits, and the reference engine's per-title constants that switch generic rules.
//!
//! The facts live in `data/<title>/title.json` (our own format, transcribed from the reference
//! engine's title definitions); the map's schema lives in [`crate::engine::map`]. What a title
//! does that no fact can say is in its hook set (see [`super::hooks`]), which `"hooks"` names.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::hooks::{self, TitleHooks};
use crate::engine::map::MapData;
use crate::ids::{CompanyId, CorpId, HexId, Money, Percent, TrainKind};

pub use crate::engine::map::Colour;

/// One cell of the stock market.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarketCellDef {
    /// The share price.
    pub price: Money,
    /// A par cell (`p`).
    pub par: bool,
    /// Shares here do not count for the certificate limit (`y`, `o`, `b`).
    pub cert_exempt: bool,
    /// A player may hold more than the ownership limit (`o`, `b`).
    pub ownership_exempt: bool,
    /// Several shares may be bought in one turn (`b`).
    pub multiple_buy: bool,
    /// Reaching the cell ends the game (`e`).
    pub end_game: bool,
    /// Reaching the cell closes the corporation (`c`).
    pub close: bool,
}

/// A phase of the game.
#[derive(Debug, Clone, Deserialize)]
pub struct PhaseDef {
    /// Its name (`2`, `3`, … `D`).
    pub name: String,
    /// The train type whose first purchase starts it (none for the first phase).
    pub on: Option<String>,
    /// Most trains a corporation may own (a major, where minors differ).
    pub train_limit: u8,
    /// Most trains a minor may own, where it differs from majors.
    #[serde(default)]
    pub minor_train_limit: Option<u8>,
    /// Tile colours that may be laid.
    pub tiles: Vec<Colour>,
    /// Operating rounds per set.
    pub operating_rounds: u8,
    /// Whether corporations may buy private companies.
    #[serde(default)]
    pub can_buy_companies: bool,
    /// Whether a player may buy a private from another player as his stock-round action
    /// (the reference's phase status `can_buy_companies_from_other_players`).
    #[serde(default)]
    pub can_buy_companies_from_other_players: bool,
}

/// A train type.
#[derive(Debug, Clone, Deserialize)]
pub struct TrainDef {
    /// Its name (`2`, `D`).
    pub name: String,
    /// How many stops it may visit.
    pub distance: u16,
    /// Face price.
    pub price: Money,
    /// Copies in the depot.
    pub count: u16,
    /// Copies in the depot when an optional rule is on (1830's `optional_6_train`: a third 6).
    #[serde(default)]
    pub count_by_rule: BTreeMap<String, u16>,
    /// Unlimited copies (a new one appears whenever one is bought).
    #[serde(default)]
    pub unlimited: bool,
    /// A reserve train: kept out of the depot, it enters the pool only when a train rusts.
    #[serde(default)]
    pub reserve: bool,
    /// The train type whose first purchase rusts it.
    #[serde(default)]
    pub rusts_on: Option<String>,
    /// The train type whose first purchase makes it available.
    #[serde(default)]
    pub available_on: Option<String>,
    /// Trade-in discounts by traded train type.
    #[serde(default)]
    pub discount: BTreeMap<String, Money>,
    /// Events fired by the first purchase of this type.
    #[serde(default)]
    pub events: Vec<TrainEvent>,
}

impl TrainDef {
    /// Copies in the depot with these optional rules on.
    pub fn count_with(&self, rules: &[String]) -> u16 {
        self.count_by_rule
            .iter()
            .find(|(rule, _)| rules.contains(rule))
            .map_or(self.count, |(_, n)| *n)
    }

    /// The most copies any choice of optional rules gives (what a log may name).
    pub fn most_copies(&self) -> u16 {
        self.count_by_rule
            .values()
            .copied()
            .fold(self.count, u16::max)
    }
}

/// Events triggered by the first train of a type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TrainEvent {
    /// All private companies close.
    CloseCompanies,
    /// Majors join the corporations; mergers become possible (18Ireland).
    CorporationsCanMerge,
    /// Majors may be started by par (18Ireland).
    MajorsCanIpo,
    /// Minors not yet started are removed (18Ireland).
    MinorsCannotStart,
    /// Trains may be traded in (18Ireland).
    TrainTradeAllowed,
}

/// A private company's special ability.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Ability {
    /// Tile lays on these hexes are forbidden while a player owns the private.
    BlocksHexes {
        /// The blocked hexes.
        hexes: Vec<String>,
    },
    /// The owning corporation may lay one of these tiles on these hexes (any hex, any tile
    /// when the lists are empty).
    TileLay {
        /// Where.
        hexes: Vec<String>,
        /// Which tiles.
        tiles: Vec<String>,
        /// Terrain costs are waived.
        free: bool,
        /// How often.
        count: u8,
        /// All lays must be made together, in one go.
        #[serde(default)]
        must_lay_together: bool,
        /// The first of the lays must be on this hex (18Ireland DR: Donegal, then one
        /// neighbour).
        #[serde(default)]
        first_hex: Option<String>,
        /// The lay is one of the corporation's normal lays (with its fees).
        #[serde(default)]
        consumes_tile_lay: bool,
        /// The private closes when the lays are used up.
        #[serde(default)]
        closes_when_used: bool,
        /// The corporation's network must reach the hex (18Ireland DCR: the title's rotation
        /// check asks for the hex among the corporation's connected hexes); the new track need
        /// not join the network, its exits may point to any neighbour (the private's step
        /// offers them all, and the track restriction is checked for corporations only).
        /// Other extra lays need no connection.
        #[serde(default)]
        connected: bool,
        /// When the lays may be made (the reference's ability `when`); none: any time in the
        /// owning corporation's turn.
        #[serde(default, deserialize_with = "one_or_many")]
        when: Vec<AbilityTime>,
        /// Who must own the private for the lay: a player (1889 MF: the player lays it
        /// himself) or a corporation; any owner when absent.
        #[serde(default)]
        owner: Option<OwnerKind>,
        /// The ability is lost once anyone else lays a tile on one of its hexes while a
        /// corporation owns the private (18Chesapeake C-P, B&S).
        #[serde(default)]
        lost_when_others_lay: bool,
    },
    /// The owning corporation pays `discount` less for a tile on a hex whose terrain is
    /// exactly `terrain` (1889 SMR: mountains without a river).
    TileDiscount {
        /// The amount off.
        discount: Money,
        /// The terrain.
        terrain: String,
    },
    /// The private's closing rule instead of the close_companies event (1889 UTF): with
    /// `on_phase` `never` it stays open while its owner is of the given kind.
    Close {
        /// The phase that closes it; `never`.
        on_phase: String,
        /// The owner for whom the rule holds.
        #[serde(default)]
        owner: Option<OwnerKind>,
    },
    /// The private's revenue changes when the phase starts, if its owner is of the given kind
    /// then (1889 UTF: 50 from phase 5 while a player owns it).
    RevenueChange {
        /// The new revenue.
        revenue: Money,
        /// The phase.
        on_phase: String,
        /// The owner for whom it changes.
        #[serde(default)]
        owner: Option<OwnerKind>,
    },
    /// The owning corporation places a bonus marker on one of these hexes: its routes stopping
    /// there earn `bonus` more.
    AssignHex {
        /// Where the marker may go.
        hexes: Vec<String>,
        /// Extra revenue.
        bonus: Money,
    },
    /// River Shannon: one route of the owner stopping at one of these cities adds the other's
    /// value.
    Shannon {
        /// The two cities.
        hexes: Vec<String>,
    },
    /// The owner's second tile action may be an upgrade for this fee (William Dargan).
    SecondUpgrade {
        /// The fee.
        cost: Money,
    },
    /// The owning corporation may lay a tile and then a free token there as its lay.
    Teleport {
        /// Where.
        hexes: Vec<String>,
        /// Which tiles.
        tiles: Vec<String>,
    },
    /// The owner may exchange the private for a share of this corporation.
    Exchange {
        /// The corporation.
        corporation: String,
        /// Where the share may come from (1889 DR: the IPO only); both when absent.
        #[serde(default)]
        from: Vec<ShareSource>,
    },
    /// The buyer receives this certificate.
    Shares {
        /// The certificate (`GCL_1`), or `random_president`: the president's certificate of a
        /// corporation drawn at setup (18Chesapeake CV).
        share: String,
        /// For a president's certificate: how the par price is set.
        #[serde(default)]
        par: ParRule,
        /// The corporation immediately buys the first train of the depot (18Ireland DKR).
        #[serde(default)]
        buys_first_train: bool,
        /// The private closes when the certificate's corporation buys a train (18Chesapeake
        /// CV, whose corporation is drawn at setup).
        #[serde(default)]
        closes_on_train: bool,
    },
    /// The private closes when this corporation buys its first train.
    CloseOnTrain {
        /// The corporation.
        corporation: String,
    },
    /// Corporations may not buy the private.
    NoBuy,
}

impl Ability {
    /// A tile lay the owning corporation makes (not one its player owner makes himself, nor
    /// the seller's lay when it is sold).
    pub fn is_corporation_lay(&self) -> bool {
        matches!(self, Ability::TileLay { when, owner, .. }
            if *owner != Some(OwnerKind::Player) && !when.contains(&AbilityTime::Sold))
    }
}

/// When a private's ability may be used (the reference's ability `when` values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AbilityTime {
    /// In the owning corporation's track step.
    Track,
    /// Any time in the owning corporation's turn.
    OwningCorpOrTurn,
    /// In the track step of a corporation the owning player presides over.
    OwningPlayerTrack,
    /// In an operating round before the operating corporation has acted in its turn.
    OrBetweenTurns,
    /// Any time in a stock round.
    StockRound,
    /// Once, right after a corporation has bought the private from a player: the seller
    /// lays (1889 ER).
    Sold,
}

/// Who owns a private, for abilities that depend on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OwnerKind {
    /// A player.
    Player,
    /// A corporation.
    Corporation,
}

/// Where a certificate comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShareSource {
    /// The corporation's initial offering.
    Ipo,
    /// The open market.
    Market,
}

fn one_or_many<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Vec<T>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany<T> {
        One(T),
        Many(Vec<T>),
    }
    Ok(match OneOrMany::deserialize(d)? {
        OneOrMany::One(t) => vec![t],
        OneOrMany::Many(v) => v,
    })
}

/// How a president's certificate that comes with a private gets its par price.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParRule {
    /// The buyer chooses it at once (1836Jr30 CFLV → Nord).
    #[default]
    Chosen,
    /// The highest par price at most half the purchase price; the corporation's treasury
    /// receives the purchase price (18Ireland DK → DKR).
    HalfPrice,
}

/// What happens when every player passes in a row in the private auction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AllPassRule {
    /// The cheapest private's price drops while it is unsold; afterwards privates pay revenue.
    DiscountThenRevenue,
    /// Before any purchase, the cheapest private's price drops and all bids are cleared;
    /// after one, privates left without bids are removed and the bids resolved.
    RestartThenRemoveUnbid,
}

/// Auction rules that differ between titles.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct AuctionRules {
    /// Bids must exceed the minimum by a multiple of the increment.
    pub bid_multiple: bool,
    /// What a full round of passes does.
    pub all_pass: AllPassRule,
    /// Only a player's bids that lead their private tie up his cash (the reference's
    /// `ONLY_HIGHEST_BID_COMMITTED`: 18Chesapeake); otherwise all his bids do.
    #[serde(default)]
    pub only_highest_bid_committed: bool,
}

/// How minors are auctioned in the stock round.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct MinorAuctionRules {
    /// The opening bid.
    pub min_bid: Money,
    /// The par price is the highest par cell at most half the winning bid, and at most this.
    pub max_par: Money,
    /// A player who sold in his stock turn may not start a corporation in it (par a major);
    /// 18Ireland's share step offers no par after a sale.
    #[serde(default)]
    pub no_par_after_sale: bool,
}

/// One tile action of a corporation's turn.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct TileLayRule {
    /// Whether it may be an upgrade.
    pub upgrade: bool,
    /// Fee for the action, besides terrain.
    pub cost: Money,
    /// Not allowed after an upgrade this turn.
    #[serde(default)]
    pub not_if_upgraded: bool,
}

/// When a corporation without trains must buy one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MustBuyTrain {
    /// Once it has (or ever had) a route.
    Route,
    /// Always, while the depot has trains.
    Always,
}

/// How a dividend moves the share price.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DividendMoves {
    /// Right on any payout, left on a withhold.
    RightOnPayout,
    /// Right once if the revenue reaches the price (twice for minors at double), no move
    /// below the price, left on a withhold (18Ireland).
    ByRevenueAndPrice,
}

/// Operating-round rules that differ between titles.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct OperatingRules {
    /// When a corporation without trains must buy one.
    pub must_buy_train: MustBuyTrain,
    /// At most one train of each type from the depot per turn.
    pub one_train_per_type_from_depot: bool,
    /// After a trade-in the train step stays open only for a purchase the corporation can
    /// afford at face value, not for another trade-in (18Ireland).
    #[serde(default)]
    pub only_normal_purchase_after_trade_in: bool,
    /// How dividends move the price.
    pub dividend_moves: DividendMoves,
    /// Corporations may issue or redeem one share before laying track.
    pub issue_shares: bool,
    /// When a president may sell shares to buy the corporation's train.
    #[serde(default)]
    pub emergency_sales: EmergencySales,
    /// Whether an emergency purchase may be a train from another corporation (the reference's
    /// `EBUY_FROM_OTHERS`).
    #[serde(default)]
    pub emergency_from_others: EmergencyFromOthers,
    /// What a bankruptcy does.
    #[serde(default)]
    pub bankruptcy: Bankruptcy,
    /// An emergency sale may not hand the presidency of any corporation the president sells
    /// to another player, not only that of the one buying the train (the reference's
    /// `EBUY_PRES_SWAP = false`: 1889).
    #[serde(default)]
    pub emergency_keeps_presidencies: bool,
    /// The home-token step comes before the privates' steps (reference step order,
    /// 18Ireland): while a home token waits to be placed, no private may be bought. Otherwise
    /// (1836Jr30) a private may be bought then.
    #[serde(default)]
    pub home_token_first: bool,
}

/// What a bankruptcy does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bankruptcy {
    /// The game ends at once (1836Jr30).
    #[default]
    EndsGame,
    /// The player is out and his corporations close; the game ends when one player is left
    /// (18Ireland).
    PlayerOut,
}

/// When a president may sell shares for an emergency train purchase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EmergencySales {
    /// Only while his and the corporation's cash together fall short, and never more than
    /// needed (1836Jr30).
    #[default]
    OnlyWhatIsNeeded,
    /// Starting only while the corporation alone cannot pay for the cheapest train, then each
    /// sale only while the bundle one certificate smaller would leave president and treasury
    /// short of the dearest depot train (18Ireland).
    WhileCorporationShort,
}

/// Whether a corporation that must buy a train may buy it from another corporation with its
/// president's money (the reference's `EBUY_FROM_OTHERS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EmergencyFromOthers {
    /// For up to the train's face value (1836Jr30).
    #[default]
    Value,
    /// The printed rules forbid it (18Ireland). 18xx.games' train step still offers it, for up
    /// to the face value, so railnote accepts it as a deviation; with an empty treasury, or
    /// once the president has sold shares for a treasury short of every depot train, it
    /// offers no train of another corporation.
    Never,
}

/// When a corporation's home token is placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HomeTokenTiming {
    /// When it operates for the first time.
    Operate,
    /// When it is started (par).
    Par,
    /// When each operating round starts, for every corporation that operates in it, before
    /// any of them operates (1889; the reference's `HOME_TOKEN_TIMING = :operating_round`).
    OperatingRound,
}

/// A private company.
#[derive(Debug, Clone, Deserialize)]
pub struct CompanyDef {
    /// Short symbol (`GCB`).
    pub sym: String,
    /// Full name.
    pub name: String,
    /// Face value.
    pub value: Money,
    /// Revenue paid to its owner at the start of each operating round.
    pub revenue: Money,
    /// Special abilities.
    pub abilities: Vec<Ability>,
    /// Fewest players for the private to be in the game (1889 UTF: 4).
    #[serde(default)]
    pub min_players: Option<u8>,
    /// Player counts the private is left out with (1889 SIR: two players).
    #[serde(default)]
    pub removed_with_players: Vec<u8>,
}

/// A corporation.
#[derive(Debug, Clone, Deserialize)]
pub struct CorpDef {
    /// Short symbol (`Nord`).
    pub sym: String,
    /// Full name.
    pub name: String,
    /// Major or minor.
    #[serde(default)]
    pub kind: CorpKind,
    /// Home hex, if the corporation has a fixed one.
    #[serde(default, deserialize_with = "de_opt_hex")]
    pub home: Option<HexId>,
    /// Home city on a multi-city hex, if fixed.
    #[serde(default)]
    pub home_city: Option<u8>,
    /// Token prices in order of use.
    pub tokens: Vec<Money>,
    /// Drawing colour of its tokens and charts (an SVG colour, as 18xx.games draws it).
    #[serde(default)]
    pub color: Option<String>,
    /// Colour of its symbol on its tokens (default white).
    #[serde(default)]
    pub text_color: Option<String>,
}

fn de_opt_hex<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<HexId>, D::Error> {
    let s = Option::<String>::deserialize(d)?;
    s.map(|s| s.parse().map_err(serde::de::Error::custom))
        .transpose()
}

/// The kinds of corporation a title has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CorpKind {
    /// A 10-share corporation (the only kind in 1836Jr30).
    #[default]
    Major,
    /// A 5-share minor (18Ireland).
    Minor,
}

/// What a kind of corporation is made of.
#[derive(Debug, Clone, Deserialize)]
pub struct KindDef {
    /// Certificate sizes, president first.
    pub shares: Vec<Percent>,
    /// Percentage that must leave the IPO for the corporation to float.
    pub float_percent: Percent,
    /// Most a player may own outside exempt cells.
    pub max_ownership_percent: Percent,
    /// Most the open market may hold.
    pub market_share_limit: Percent,
}

/// How corporations receive money for their shares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Capitalization {
    /// Ten times par from the bank when the corporation floats (IPO sales pay the bank).
    Full,
    /// Each treasury share sold pays the corporation.
    Incremental,
}

/// The order of selling and buying within a stock-round turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SellBuyOrder {
    /// Sell, buy, sell again.
    SellBuySell,
    /// Sell, then buy; no sale after a purchase.
    SellBuy,
    /// Sell then buy, or buy then sell: no sale once a turn has both sold and then bought
    /// (the reference's default, `:sell_buy_or_buy_sell`; 1889).
    SellBuyOrBuySell,
}

#[derive(Debug, Deserialize)]
struct TitleFile {
    name: String,
    currency: String,
    bank_cash: Money,
    players: PlayerRange,
    starting_cash: BTreeMap<u8, Money>,
    cert_limit: BTreeMap<u8, u8>,
    optional_rules: Vec<String>,
    #[serde(default)]
    optional_bank_cash: BTreeMap<String, Money>,
    #[serde(default)]
    random_setup: bool,
    market: Vec<Vec<String>>,
    phases: Vec<PhaseDef>,
    trains: Vec<TrainDef>,
    companies: Vec<CompanyDef>,
    corporations: Vec<CorpDef>,
    corporation_kinds: BTreeMap<CorpKind, KindDef>,
    auction: AuctionRules,
    home_token_timing: HomeTokenTiming,
    #[serde(default)]
    minor_auction: Option<MinorAuctionRules>,
    #[serde(default)]
    major_par_phase: Option<String>,
    tile_lays: Vec<TileLayRule>,
    operating: OperatingRules,
    capitalization: Capitalization,
    sell_buy_order: SellBuyOrder,
    #[serde(default)]
    must_sell_in_blocks: bool,
    #[serde(default = "first_stock_round")]
    private_sales_from_stock_round: u32,
    #[serde(default)]
    dealt_privates: Option<DealtPrivates>,
    #[serde(default)]
    train_export: Vec<String>,
    /// The hook set (see [`super::hooks`]); none: the generic rules only.
    #[serde(default)]
    hooks: Option<String>,
}

fn first_stock_round() -> u32 {
    1
}

/// Privates dealt at random instead of auctioned, under an optional rule (1889's beginner
/// game): only the privates listed for the player count are in the game; each player is dealt
/// one (the title's hook draws the deal from the seed) and pays its value for it; the privates
/// have no abilities, corporations may not buy them, and the game starts with a stock round.
#[derive(Debug, Clone, Deserialize)]
pub struct DealtPrivates {
    /// The optional rule.
    pub rule: String,
    /// The privates in the game, by player count.
    pub by_players: BTreeMap<u8, Vec<String>>,
    /// Their values under the rule.
    pub values: BTreeMap<String, Money>,
    /// Their revenues under the rule.
    pub revenues: BTreeMap<String, Money>,
}

/// Allowed player counts.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct PlayerRange {
    /// Fewest players.
    pub min: u8,
    /// Most players.
    pub max: u8,
}

/// Everything the engine needs to know about one title.
#[derive(Debug)]
pub struct Title {
    /// The reference engine's title name (`1836Jr30`).
    pub name: String,
    /// Currency symbol.
    pub currency: String,
    /// Cash in the bank before players are paid.
    pub bank_cash: Money,
    /// Allowed player counts.
    pub players: PlayerRange,
    /// Starting cash by player count.
    pub starting_cash: BTreeMap<u8, Money>,
    /// Certificate limit by player count.
    pub cert_limit: BTreeMap<u8, u8>,
    /// Optional rules the title knows.
    pub optional_rules: Vec<String>,
    /// Bank cash under an optional rule (18Ireland `larger_bank`).
    pub optional_bank_cash: BTreeMap<String, Money>,
    /// Whether the setup is drawn from the game's seed (see [`crate::engine::setup`]).
    pub random_setup: bool,
    /// The stock market grid (`None` = no cell).
    pub market: Vec<Vec<Option<MarketCellDef>>>,
    /// Phases in order.
    pub phases: Vec<PhaseDef>,
    /// Train types in depot order.
    pub trains: Vec<TrainDef>,
    /// Private companies in value order.
    pub companies: Vec<CompanyDef>,
    /// Corporations.
    pub corporations: Vec<CorpDef>,
    /// What each kind of corporation is made of.
    pub kinds: BTreeMap<CorpKind, KindDef>,
    /// Auction rules.
    pub auction: AuctionRules,
    /// When home tokens are placed.
    pub home_token_timing: HomeTokenTiming,
    /// Minors are started by an auction in the stock round (18Ireland).
    pub minor_auction: Option<MinorAuctionRules>,
    /// The phase from which majors may be started by par, when they cannot from the start.
    pub major_par_phase: Option<String>,
    /// The tile actions of a corporation's turn, in order.
    pub tile_lays: Vec<TileLayRule>,
    /// Operating-round rules that differ between titles.
    pub operating: OperatingRules,
    /// How corporations are paid for their shares.
    pub capitalization: Capitalization,
    /// Selling and buying order in a stock-round turn.
    pub sell_buy_order: SellBuyOrder,
    /// A turn sells a corporation's shares in one sale: no second sale of the same
    /// corporation in a stock turn or an emergency (the reference's `MUST_SELL_IN_BLOCKS`;
    /// 1889).
    pub must_sell_in_blocks: bool,
    /// The first stock round in which players may buy privates from each other (in phases
    /// that allow it; 1830: not in the first).
    pub private_sales_from_stock_round: u32,
    /// An optional rule under which privates are dealt instead of auctioned (1889's beginner
    /// game).
    pub dealt_privates: Option<DealtPrivates>,
    /// Train types exported at the end of each set of operating rounds: while the next depot
    /// train is of one of them, it leaves the game as if bought (18Chesapeake: 2, 3, 4).
    pub train_export: Vec<String>,
    /// The map.
    pub map: &'static MapData,
    /// What the title does that no fact can say (see [`super::hooks`]).
    pub(crate) hooks: &'static dyn TitleHooks,
}

/// Why title data could not be loaded (a defect of the bundled data, reported by tests).
#[derive(Debug, thiserror::Error)]
pub enum TitleDataError {
    /// The JSON does not fit the schema.
    #[error("title data: {0}")]
    Json(#[from] serde_json::Error),
    /// A market cell is malformed.
    #[error("title data: bad market cell `{0}`")]
    MarketCell(String),
    /// A name refers to nothing.
    #[error("title data: unknown {kind} `{name}`")]
    Unknown {
        /// What kind of thing.
        kind: &'static str,
        /// The name.
        name: String,
    },
}

fn parse_cell(code: &str) -> Result<Option<MarketCellDef>, TitleDataError> {
    if code.is_empty() {
        return Ok(None);
    }
    let digits = code.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let letters = &code[digits.len()..];
    let price: i64 = digits
        .parse()
        .map_err(|_| TitleDataError::MarketCell(code.to_string()))?;
    if letters.chars().any(|c| !"pyobec".contains(c)) {
        return Err(TitleDataError::MarketCell(code.to_string()));
    }
    let has = |c| letters.contains(c);
    Ok(Some(MarketCellDef {
        price: Money(price),
        par: has('p'),
        cert_exempt: has('y') || has('o') || has('b'),
        ownership_exempt: has('o') || has('b'),
        multiple_buy: has('b'),
        end_game: has('e'),
        close: has('c'),
    }))
}

impl Title {
    /// The market's par prices, in market order (repeats included).
    pub(crate) fn par_prices(&self) -> impl Iterator<Item = Money> + '_ {
        self.market
            .iter()
            .flatten()
            .flatten()
            .filter(|c| c.par)
            .map(|c| c.price)
    }

    /// Read a `title.json` text (the tests compare it with the compiled-in data).
    #[cfg(test)]
    pub(crate) fn from_json(json: &str, map: &'static MapData) -> Result<Title, TitleDataError> {
        Title::from_file(serde_json::from_str(json)?, map)
    }

    /// Read a `title.json` compiled into the binary (see [`super::embedded`]).
    pub(crate) fn from_embedded(
        data: &'static super::embedded::Data,
        map: &'static MapData,
    ) -> Result<Title, TitleDataError> {
        Title::from_file(TitleFile::deserialize(data)?, map)
    }

    fn from_file(file: TitleFile, map: &'static MapData) -> Result<Title, TitleDataError> {
        let market = file
            .market
            .iter()
            .map(|row| row.iter().map(|c| parse_cell(c)).collect())
            .collect::<Result<_, _>>()?;
        let hooks = match &file.hooks {
            None => hooks::generic(),
            Some(name) => hooks::by_name(name).ok_or_else(|| TitleDataError::Unknown {
                kind: "hook set",
                name: name.clone(),
            })?,
        };
        let title = Title {
            name: file.name,
            currency: file.currency,
            bank_cash: file.bank_cash,
            players: file.players,
            starting_cash: file.starting_cash,
            cert_limit: file.cert_limit,
            optional_rules: file.optional_rules,
            optional_bank_cash: file.optional_bank_cash,
            random_setup: file.random_setup,
            market,
            phases: file.phases,
            trains: file.trains,
            companies: file.companies,
            corporations: file.corporations,
            kinds: file.corporation_kinds,
            auction: file.auction,
            home_token_timing: file.home_token_timing,
            minor_auction: file.minor_auction,
            major_par_phase: file.major_par_phase,
            tile_lays: file.tile_lays,
            operating: file.operating,
            capitalization: file.capitalization,
            sell_buy_order: file.sell_buy_order,
            must_sell_in_blocks: file.must_sell_in_blocks,
            private_sales_from_stock_round: file.private_sales_from_stock_round,
            dealt_privates: file.dealt_privates,
            train_export: file.train_export,
            map,
            hooks,
        };
        for corp in &title.corporations {
            if !title.kinds.contains_key(&corp.kind) {
                return Err(TitleDataError::Unknown {
                    kind: "corporation kind",
                    name: format!("{:?}", corp.kind),
                });
            }
        }
        for train in &title.trains {
            for name in train
                .rusts_on
                .iter()
                .chain(&train.available_on)
                .chain(train.discount.keys())
            {
                if title.train_kind(name).is_none() {
                    return Err(TitleDataError::Unknown {
                        kind: "train",
                        name: name.clone(),
                    });
                }
            }
        }
        Ok(title)
    }

    /// The dealt-privates rule, if these optional rules turn it on.
    pub fn dealt_privates_in(&self, rules: &[String]) -> Option<&DealtPrivates> {
        self.dealt_privates
            .as_ref()
            .filter(|d| rules.contains(&d.rule))
    }

    /// Whether a game with these optional rules draws part of its setup from the seed: the
    /// title's own draw (18Ireland), or the deal of a dealt-privates rule (1889's beginner
    /// game).
    pub fn has_random_setup(&self, rules: &[String]) -> bool {
        self.random_setup || self.dealt_privates_in(rules).is_some()
    }

    /// A corporation by symbol.
    pub fn corp_by_sym(&self, sym: &str) -> Option<CorpId> {
        self.corporations
            .iter()
            .position(|c| c.sym == sym)
            .map(|i| CorpId(i as u8))
    }

    /// A private company by symbol.
    pub fn company_by_sym(&self, sym: &str) -> Option<CompanyId> {
        self.companies
            .iter()
            .position(|c| c.sym == sym)
            .map(|i| CompanyId(i as u8))
    }

    /// A train type by name.
    pub fn train_kind(&self, name: &str) -> Option<TrainKind> {
        self.trains
            .iter()
            .position(|t| t.name == name)
            .map(|i| TrainKind(i as u8))
    }

    /// The corporation's definition.
    pub fn corp(&self, id: CorpId) -> &CorpDef {
        &self.corporations[id.0 as usize]
    }

    /// What the corporation's kind is made of (certificates, float, limits).
    pub fn kind_of(&self, id: CorpId) -> &KindDef {
        &self.kinds[&self.corp(id).kind]
    }

    /// The corporation's certificate sizes, president first.
    pub fn share_sizes(&self, id: CorpId) -> &[Percent] {
        &self.kind_of(id).shares
    }

    /// The private's definition.
    pub fn company(&self, id: CompanyId) -> &CompanyDef {
        &self.companies[id.0 as usize]
    }

    /// The train type's definition.
    pub fn train(&self, kind: TrainKind) -> &TrainDef {
        &self.trains[kind.0 as usize]
    }

    /// The market cell at (row, column), if there is one.
    pub fn cell(&self, row: u8, column: u8) -> Option<&MarketCellDef> {
        self.market
            .get(row as usize)?
            .get(column as usize)?
            .as_ref()
    }
}
