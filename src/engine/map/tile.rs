//! Tile geometry and upgrade legality (the reference's `upgrades_to?` and the rotation checks
//! of `Tracker#legal_tile_rotation?` that depend only on the two tiles).

use super::data::{End, Gauge, NodeKind, PathDef, TileDef};

/// Why a tile cannot replace another one (any rotation), per reference `upgrades_to?`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum UpgradeFault {
    /// The new colour is not one above the old one.
    #[error("its colour does not follow the old tile's")]
    Colour,
    /// No rotation of the old track fits inside the new track.
    #[error("it does not keep the old track")]
    Track,
    /// Labels differ.
    #[error("their labels differ")]
    Label,
    /// Town count differs, or city count differs on an unlabelled tile.
    #[error("their numbers of cities and towns differ")]
    CityTownCount,
    /// A multi-city tile would merge or split cities.
    #[error("it would merge or split the old cities")]
    CityGrouping,
}

/// Whether a path end of `a` matches `b`: same edge, or nodes of the same kind.
fn end_le(a_tile: &TileDef, a: End, b_tile: &TileDef, b: End) -> bool {
    match (a, b) {
        (End::Edge(x), End::Edge(y)) => x == y,
        (End::Node(x), End::Node(y)) => {
            a_tile.nodes[usize::from(x)].kind == b_tile.nodes[usize::from(y)].kind
        }
        _ => false,
    }
}

/// Reference `Path#<=`: every end of `p` (rotated by `pr`) matches an end of `q` (rotated by
/// `qr`), and the gauges fit.
pub(crate) fn path_le(
    pt: &TileDef,
    p: &PathDef,
    pr: u8,
    qt: &TileDef,
    q: &PathDef,
    qr: u8,
) -> bool {
    let q_ends = [q.a.rotated(qr), q.b.rotated(qr)];
    p.ends()
        .iter()
        .all(|&e| q_ends.iter().any(|&o| end_le(pt, e.rotated(pr), qt, o)))
        && p.gauge.fits(q.gauge)
}

/// Whether all of `from`'s paths (rotated by `fr`) are covered by `to`'s paths (rotated by `tr`).
pub(crate) fn paths_maintained(from: &TileDef, fr: u8, to: &TileDef, tr: u8) -> bool {
    from.paths
        .iter()
        .all(|p| to.paths.iter().any(|q| path_le(from, p, fr, to, q, tr)))
}

/// 18Ireland: whether replacing `from` by `to` is a broad-gauge lay (connects through the
/// broad network): the new tile is all broad, or it adds a broad path the old tile lacks.
pub(crate) fn uses_broad_rules(from: &TileDef, fr: u8, to: &TileDef, tr: u8) -> bool {
    if to.paths.iter().all(|p| p.gauge == Gauge::Broad) {
        return true;
    }
    to.paths.iter().any(|np| {
        np.gauge == Gauge::Broad
            && !from
                .paths
                .iter()
                .any(|op| path_le(to, np, tr, from, op, fr))
    })
}

/// Edge sets (bit per edge), one per city or town of a tile, in a fixed buffer: the rotation
/// checks ask for them for every rotation of every lay, and tiles have a few nodes (three at
/// most in the titles' data); a tile with more than [`EdgeSets::INLINE`] falls back to a list.
pub(crate) enum EdgeSets {
    Inline([u8; EdgeSets::INLINE], u8),
    Listed(Vec<u8>),
}

impl EdgeSets {
    const INLINE: usize = 8;

    fn new() -> EdgeSets {
        EdgeSets::Inline([0; EdgeSets::INLINE], 0)
    }

    fn push(&mut self, mask: u8) {
        match self {
            EdgeSets::Inline(masks, len) if usize::from(*len) < EdgeSets::INLINE => {
                masks[usize::from(*len)] = mask;
                *len += 1;
            }
            EdgeSets::Inline(masks, len) => {
                let mut list = masks[..usize::from(*len)].to_vec();
                list.push(mask);
                *self = EdgeSets::Listed(list);
            }
            EdgeSets::Listed(list) => list.push(mask),
        }
    }

    fn as_mut_slice(&mut self) -> &mut [u8] {
        match self {
            EdgeSets::Inline(masks, len) => &mut masks[..usize::from(*len)],
            EdgeSets::Listed(list) => list,
        }
    }
}

impl std::ops::Deref for EdgeSets {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            EdgeSets::Inline(masks, len) => &masks[..usize::from(*len)],
            EdgeSets::Listed(list) => list,
        }
    }
}

/// Reference `city_town_edges`: for each city/town touched by a path, the set of its rotated
/// exits (bit per edge), in first-touch order.
pub(crate) fn city_town_edges(t: &TileDef, rot: u8) -> EdgeSets {
    // The nodes in first-touch order, beside their edge sets.
    let mut order = EdgeSets::new();
    let mut sets = EdgeSets::new();
    for p in &t.paths {
        for n in p.nodes() {
            if t.nodes[usize::from(n)].kind == NodeKind::Offboard {
                continue;
            }
            let edges = p.edges(rot).fold(0u8, |m, e| m | 1 << e);
            match order.iter().position(|&k| k == n) {
                Some(at) => sets.as_mut_slice()[at] |= edges,
                None => {
                    order.push(n);
                    sets.push(edges);
                }
            }
        }
    }
    sets
}

fn rotate_mask(mask: u8, ticks: u8) -> u8 {
    let m = u16::from(mask) << ticks;
    ((m | (m >> 6)) & 0x3f) as u8
}

/// Reference `upgrades_to?` (non-special): legal for *some* rotation. `from_rot` is the rotation
/// of the tile on the hex, `to_rot` the rotation of the new tile.
pub fn upgrade_fault(
    from: &TileDef,
    from_rot: u8,
    to: &TileDef,
    to_rot: u8,
) -> Option<UpgradeFault> {
    if !from.colour.upgrades_to(to.colour) {
        return Some(UpgradeFault::Colour);
    }
    if !(0..6).any(|t| paths_maintained(from, (from_rot + t) % 6, to, to_rot)) {
        return Some(UpgradeFault::Track);
    }
    if from.label != to.label {
        return Some(UpgradeFault::Label);
    }
    if from.towns != to.towns || (from.label.is_none() && from.cities.len() != to.cities.len()) {
        return Some(UpgradeFault::CityTownCount);
    }
    if from.cities.len() > 1 && to.cities.len() > 1 {
        let old = city_town_edges(from, from_rot);
        let new = city_town_edges(to, to_rot);
        let fits = (0..6).any(|r| {
            old.iter()
                .all(|&o| new.iter().any(|&n| rotate_mask(o, r) & !n == 0))
        });
        if !fits {
            return Some(UpgradeFault::CityGrouping);
        }
    }
    if from.label.is_some() && !from.cities.is_empty() && to.cities.is_empty() {
        return Some(UpgradeFault::CityTownCount);
    }
    if from.colour == super::data::Colour::White
        && from.label.as_deref() == Some("OO")
        && from.cities.len() != to.cities.len()
    {
        return Some(UpgradeFault::CityTownCount);
    }
    None
}

/// The rotation checks of `legal_tile_rotation?` that only involve the two tiles: old track
/// kept exactly, no unexplained new cities, one-to-one city mapping on multi-city upgrades,
/// and (track restriction) every old city/town's exits kept by one new city/town.
pub(crate) fn rotation_keeps_old(from: &TileDef, fr: u8, to: &TileDef, tr: u8) -> bool {
    if !paths_maintained(from, fr, to, tr) {
        return false;
    }
    let old = city_town_edges(from, fr);
    let new = city_town_edges(to, tr);
    let added = new.len().saturating_sub(old.len());
    let unrelated = new
        .iter()
        .filter(|&&n| old.iter().all(|&o| n & o == 0))
        .count();
    if unrelated > added {
        return false;
    }
    if from.cities.len() > 1 && to.cities.len() > 1 {
        let one_to_one = old
            .iter()
            .all(|&o| new.iter().filter(|&&n| o & !n == 0).count() == 1);
        if !one_to_one {
            return false;
        }
    }
    // "New track must override old one": each old city/town (with or without track) needs a
    // new city/town whose exits include all of its exits.
    let node_exits = |t: &TileDef, r: u8| {
        let mut sets = EdgeSets::new();
        if t.nodes.len() <= EdgeSets::INLINE {
            // [`TileDef::node_exits`] of every node in one pass over the paths.
            let mut exits = [0u8; EdgeSets::INLINE];
            for p in &t.paths {
                let edges = p.edges(r).fold(0u8, |m, e| m | 1 << e);
                for n in p.nodes() {
                    exits[usize::from(n)] |= edges;
                }
            }
            for (n, node) in t.nodes.iter().enumerate() {
                if node.kind != NodeKind::Offboard {
                    sets.push(exits[n]);
                }
            }
        } else {
            for n in 0..t.nodes.len() as u8 {
                if t.nodes[usize::from(n)].kind != NodeKind::Offboard {
                    sets.push(t.node_exits(n, r));
                }
            }
        }
        sets
    };
    let new_ct = node_exits(to, tr);
    node_exits(from, fr)
        .iter()
        .all(|&o| new_ct.iter().any(|&n| o & !n == 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::title::jr30::map as jr30;

    fn up(from: &str, to: &str) -> bool {
        let m = jr30();
        let f = m.tile_def(m.tile_def_by_name(from).unwrap());
        let t = m.tile_def(m.tile_def_by_name(to).unwrap());
        upgrade_fault(f, 0, t, 0).is_none()
    }

    #[test]
    fn upgrade_graph_matches_reference() {
        // C.6 upgrade graph, checked against every manifest tile.
        let expected: &[(&str, &[&str])] = &[
            ("7", &["18", "26", "27", "28", "29"]),
            ("8", &["16", "19", "23", "24", "25", "28", "29"]),
            ("9", &["18", "19", "20", "23", "24", "26", "27"]),
            ("57", &["14", "15"]),
            ("14", &["63"]),
            ("15", &["63"]),
            ("16", &["43", "70"]),
            ("18", &["43"]),
            ("19", &["45", "46"]),
            ("20", &["44", "47"]),
            ("23", &["41", "43", "45", "47"]),
            ("24", &["42", "43", "46", "47"]),
            ("25", &["40", "45", "46"]),
            ("26", &["42", "44", "45"]),
            ("27", &["41", "44", "46"]),
            ("28", &["39", "43", "46", "70"]),
            ("29", &["39", "43", "45", "70"]),
            ("53", &["61"]),
            ("54", &["62"]),
            ("59", &["64", "65", "66", "67", "68"]),
            ("D6", &["54"]),
            ("E5", &["59"]),
            ("E11", &["59"]),
            ("H10", &["59"]),
            ("H6", &["53"]),
            ("I3", &["53"]),
            ("G7", &["57"]),
            ("F10", &["3", "4", "58"]),
            ("B8", &["2", "56"]),
            ("blank", &["7", "8", "9"]),
            ("2", &[]),
            ("3", &[]),
            ("58", &[]),
        ];
        let m = jr30();
        let manifest: Vec<&str> = m
            .tiles
            .iter()
            .filter(|t| !t.preprinted)
            .map(|t| t.name.as_str())
            .collect();
        for (from, tos) in expected {
            let got: Vec<&str> = manifest.iter().copied().filter(|to| up(from, to)).collect();
            assert_eq!(&got, tos, "upgrades of {from}");
        }
    }

    #[test]
    fn single_upgrades() {
        assert!(up("7", "18"));
        assert!(!up("7", "14"));
        assert!(up("57", "14"));
        assert!(up("57", "15"));
    }
}
