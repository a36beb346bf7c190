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
//! `build.rs` compiles the data files into the binary ([`embedded`]): a process reads them
//! without parsing JSON text.
//!
//! To add a title: its `data/<dir>/` files, one line in [`BUNDLED`], and, only if it needs
//! one, a hook set in its own module registered in [`hooks::by_name`].

pub mod chesapeake;
pub(crate) mod embedded;
pub mod facts;
pub(crate) mod hooks;
pub mod ireland;
pub mod jr30;
pub mod shikoku;

use std::sync::{LazyLock, OnceLock};

pub use facts::*;

use crate::engine::map::MapData;

/// A title bundled with railnote: its reference name and its folder under `data/`.
struct Bundled {
    /// The reference engine's title name (`1836Jr30`).
    name: &'static str,
    /// The folder under `data/` (compiled into the binary by `build.rs`, see [`embedded`]).
    folder: &'static str,
}

/// The titles railnote knows, in the order `known_names` lists them.
const BUNDLED: [Bundled; 5] = [
    Bundled {
        name: "1836Jr30",
        folder: "1836jr30",
    },
    Bundled {
        name: "18Ireland",
        folder: "18ireland",
    },
    Bundled {
        name: "1830",
        folder: "1830",
    },
    Bundled {
        name: "1889",
        folder: "1889",
    },
    Bundled {
        name: "18Chesapeake",
        folder: "18chesapeake",
    },
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
        let (facts, map) = embedded::files(b.folder)
            .unwrap_or_else(|| panic!("data/{} is not compiled in", b.folder));
        let map = MAPS[index].get_or_init(|| {
            MapData::from_embedded(map)
                .unwrap_or_else(|e| panic!("bundled {} map data: {e}", b.name))
        });
        Title::from_embedded(facts, map)
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

    /// The compiled-in data reads into exactly what the JSON text of `data/` reads into.
    #[test]
    fn embedded_data_reads_as_the_json_files() {
        let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
        for (index, b) in BUNDLED.iter().enumerate() {
            let read =
                |file: &str| std::fs::read_to_string(data.join(b.folder).join(file)).unwrap();
            let map: &'static MapData =
                Box::leak(Box::new(MapData::from_json(&read("map.json")).unwrap()));
            let title = Title::from_json(&read("title.json"), map).unwrap();
            assert_eq!(
                format!("{map:?}"),
                format!("{:?}", bundled(index).map),
                "{}",
                b.name
            );
            assert_eq!(
                format!("{title:?}"),
                format!("{:?}", bundled(index)),
                "{}",
                b.name
            );
        }
    }
}
