//! Colours and type shared by every picture: tile colours as 18xx.games prints them, route
//! colours, a palette for players, and each corporation's colours from its title's data.

use crate::engine::map::Colour;
use crate::engine::title::Title;
use crate::ids::CorpId;

/// The font stack of every picture (DejaVu Sans is what Debian and the PNG renderer have).
pub const FONT: &str = "DejaVu Sans, Verdana, Arial, sans-serif";

/// The fill of a tile colour (18xx.games' hex colours).
pub fn tile_colour(colour: Colour) -> &'static str {
    match colour {
        Colour::White => "#eae0c8",
        Colour::Yellow => "#fde900",
        Colour::Green => "#71bf44",
        Colour::Brown => "#cb7745",
        Colour::Gray => "#bcbdc0",
        Colour::Blue => "#35a7ff",
        Colour::Red => "#ec232a",
    }
}

/// Colours of the trains' routes, in train order (18xx.games' route colours).
const ROUTES: [&str; 8] = [
    "#a40122", "#099ffa", "#00dcb5", "#ff5aaf", "#9400e6", "#ff6e3a", "#009581", "#ffdc3d",
];

/// The colour of the `i`-th route.
pub fn route_colour(i: usize) -> &'static str {
    ROUTES[i % ROUTES.len()]
}

/// Colours for players in charts, by seat.
const PLAYERS: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
];

/// The colour of the player in seat `i`.
pub fn player_colour(i: usize) -> &'static str {
    PLAYERS[i % PLAYERS.len()]
}

/// Fallback corporation colours for titles whose data gives none.
const CORPS: [&str; 10] = [
    "#1f4e9c", "#b22222", "#2e8b57", "#6a3d9a", "#d2691e", "#008b8b", "#8b4513", "#c71585",
    "#556b2f", "#4b0082",
];

/// A corporation's fill and text colours: the title's, or a fixed fallback by position.
pub fn corp_colours(title: &Title, corp: CorpId) -> (&str, &str) {
    let def = title.corp(corp);
    let fill = def
        .color
        .as_deref()
        .unwrap_or(CORPS[usize::from(corp.0) % CORPS.len()]);
    let text = def.text_color.as_deref().unwrap_or("#ffffff");
    (fill, text)
}

/// Black or white, whichever reads on `fill` (white on dark named or hex colours).
pub fn contrast(fill: &str) -> &'static str {
    let dark_names = [
        "black",
        "darkblue",
        "navy",
        "purple",
        "brown",
        "green",
        "red",
        "gray",
        "maroon",
        "darkgreen",
    ];
    if dark_names.contains(&fill) {
        return "#ffffff";
    }
    let hex = fill.trim_start_matches('#');
    if hex.len() == 6 {
        if let Ok(v) = u32::from_str_radix(hex, 16) {
            let (r, g, b) = ((v >> 16) & 255, (v >> 8) & 255, v & 255);
            let luma = 299 * r + 587 * g + 114 * b;
            return if luma < 128_000 { "#ffffff" } else { "#000000" };
        }
    }
    "#000000"
}
