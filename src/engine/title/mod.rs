//! Titles: each is facts plus a hook set.
//!
//! - Facts live in `data/<title>/` — `title.json` (market, phases, trains, privates,
//!   corporations, limits and the reference's per-title constants; schema in [`facts`]) and
//!   `map.json` (hexes, tiles; schema in [`crate::engine::map`]).
//! - What a title does that no fact can say is a hook set: a type implementing
//!   [`hooks::TitleHooks`] in the title's own module ([`jr30`], [`ireland`]), named by the
//!   `"hooks"` key of its `title.json`. The hooks, when the engine calls them and which titles
//!   use them are listed in [`hooks`].
//!
//! Generic engine code names no title: it reads facts and calls hooks.
//!
//! To add a title: its `data/<dir>/` files, one line in [`BUNDLED`], and, only if it needs
//! one, a hook set in its own module registered in [`hooks::by_name`].

pub mod chesapeake;
pub mod facts;
pub(crate) mod hooks;
pub mod ireland;
pub mod jr30;
pub mod shikoku;

use std::sync::{LazyLock, OnceLock};

pub use facts::*;

use crate::engine::map::MapData;

/// A title bundled with railnote: its reference name and its `data/<dir>/` files.
struct Bundled {
    /// The reference engine's title name (`1836Jr30`).
    name: &'static str,
    /// `title.json`.
    facts: &'static str,
    /// `map.json`.
    map: &'static str,
}

/// A bundled title: its reference name and its folder under `data/`.
macro_rules! bundled {
    ($name:literal, $folder:literal) => {
        Bundled {
            name: $name,
            facts: include_str!(concat!("../../../data/", $folder, "/title.json")),
            map: include_str!(concat!("../../../data/", $folder, "/map.json")),
        }
    };
}

/// The titles railnote knows, in the order `known_names` lists them.
const BUNDLED: [Bundled; 5] = [
    bundled!("1836Jr30", "1836jr30"),
    bundled!("18Ireland", "18ireland"),
    bundled!("1830", "1830"),
    bundled!("1889", "1889"),
    bundled!("18Chesapeake", "18chesapeake"),
];

static MAPS: [OnceLock<MapData>; BUNDLED.len()] = [const { OnceLock::new() }; BUNDLED.len()];
static TITLES: [OnceLock<Title>; BUNDLED.len()] = [const { OnceLock::new() }; BUNDLED.len()];
static NAMES: LazyLock<Vec<&'static str>> =
    LazyLock::new(|| BUNDLED.iter().map(|b| b.name).collect());

impl Title {
    /// The title by its reference-engine name (`1836Jr30`), if railnote knows it.
    pub fn by_name(name: &str) -> Option<&'static Title> {
        let index = BUNDLED.iter().position(|b| b.name == name)?;
        Some(bundled(index))
    }

    /// Names of the titles railnote knows.
    pub fn known_names() -> &'static [&'static str] {
        &NAMES
    }

    /// The title's self-play choices (its hook).
    pub(crate) fn self_play(&self) -> &'static dyn crate::selfplay::TitlePolicy {
        self.hooks.self_play()
    }

    /// What the title's random setup does, in a sentence (for diagnostics), if it has one.
    pub fn random_setup_rules(&self) -> Option<&'static str> {
        self.hooks.random_setup_rules()
    }
}

/// The bundled title at `index`, read on first use.
fn bundled(index: usize) -> &'static Title {
    let b = &BUNDLED[index];
    TITLES[index].get_or_init(|| {
        let map = MAPS[index].get_or_init(|| {
            MapData::from_json(b.map).unwrap_or_else(|e| panic!("bundled {} map data: {e}", b.name))
        });
        Title::from_json(b.facts, map)
            .unwrap_or_else(|e| panic!("bundled {} title data: {e}", b.name))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every bundled title's data reads (the loaders above panic otherwise) under its name.
    #[test]
    fn every_bundled_title_loads_under_its_name() {
        for name in Title::known_names() {
            assert_eq!(Title::by_name(name).map(|t| t.name.as_str()), Some(*name));
        }
        assert!(Title::by_name("1830X").is_none());
    }
}
