//! Mutations of real inputs (the samples, the scenarios, the test data and the shared
//! fixtures of every title), shared by the mutation test (`tests/hostile.rs`) and the campaign
//! (`examples/mutation_campaign.rs`): byte flips, truncation, deep nesting, huge numbers,
//! repeated fragments, deleted and spliced pieces. Deterministic for a seed.

use std::path::{Path, PathBuf};

/// SplitMix64: a small, well-mixed, seedable generator.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The files mutations start from: every sample and scenario, the test data, and the shared
/// fixtures of every title (read where they are, not copied).
pub fn seed_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = vec![
        root.join("samples"),
        root.join("samples/scenarios"),
        root.join("samples/scenarios/errors"),
        root.join("tests/data"),
        root.join("tests/data/hostile"),
    ];
    let shared = std::env::var_os("RAILNOTE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared"));
    if let Ok(titles) = std::fs::read_dir(shared.join("fixtures")) {
        let mut titles: Vec<PathBuf> = titles.filter_map(|t| Some(t.ok()?.path())).collect();
        titles.sort();
        dirs.extend(titles);
    }
    let mut files = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut found: Vec<PathBuf> = entries
            .filter_map(|e| Some(e.ok()?.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "rn" || e == "json"))
            .collect();
        found.sort();
        files.extend(found);
    }
    files
}

/// One mutation of `input` (`other`: another input, for splices), at most `max_len` bytes
/// long, and what it was.
pub fn mutate(input: &[u8], other: &[u8], max_len: usize, rng: &mut Rng) -> (String, Vec<u8>) {
    let mut out = input.to_vec();
    let at = |rng: &mut Rng, len: usize| rng.below(len + 1);
    let what = match rng.below(8) {
        0 => {
            let flips = 1 + rng.below(8);
            for _ in 0..flips {
                if out.is_empty() {
                    break;
                }
                let i = rng.below(out.len());
                out[i] = if rng.below(2) == 0 {
                    out[i] ^ (1 << rng.below(8))
                } else {
                    *rng.pick(b"{}[]()\",:;-+0123456789 \n\\xe\xC3\xA9\xFF\x00")
                };
            }
            format!("{flips} byte flips")
        }
        1 => {
            let len = at(rng, out.len());
            out.truncate(len);
            format!("truncated to {len} bytes")
        }
        2 => {
            let openers: [&[u8]; 7] = [
                b"(",
                b"[",
                b"{",
                b"{\"a\":[",
                b"{\"type\":\"pass\",\"auto_actions\":[",
                b"(Ann: pass ",
                b"\"",
            ];
            let opener = *rng.pick(&openers);
            let depth = *rng.pick(&[65, 200, 1000, 10_000, 100_000]);
            let i = at(rng, out.len());
            let mut nested = opener.repeat(depth);
            if rng.below(2) == 0 {
                let closer: Vec<u8> = opener
                    .iter()
                    .rev()
                    .filter_map(|c| match c {
                        b'(' => Some(b')'),
                        b'[' => Some(b']'),
                        b'{' => Some(b'}'),
                        _ => None,
                    })
                    .collect();
                nested.extend(closer.repeat(depth));
            }
            out.splice(i..i, nested);
            format!("{depth} × `{}` at {i}", String::from_utf8_lossy(opener))
        }
        3 => {
            let numbers: &[&str] = &[
                "99999999999999999999999",
                "9223372036854775807",
                "-9223372036854775808",
                "9223372036854775808",
                "1e999",
                "-0.0",
                "4294967296",
                "65536",
                "256",
                "-1",
                "1000000001",
            ];
            let number = *rng.pick(numbers);
            let digits: Vec<usize> = (0..out.len())
                .filter(|&i| out[i].is_ascii_digit())
                .collect();
            if digits.is_empty() {
                let i = at(rng, out.len());
                out.splice(i..i, number.bytes());
            } else {
                let start = *rng.pick(&digits);
                let end = (start..out.len())
                    .find(|&j| !out[j].is_ascii_digit())
                    .unwrap_or(out.len());
                out.splice(start..end, number.bytes());
            }
            format!("number {number}")
        }
        4 => {
            let from = at(rng, out.len());
            let len = (1 + rng.below(64)).min(out.len() - from);
            let times = *rng.pick(&[2, 10, 1000, 10_000, 100_000]);
            let piece = out[from..from + len].to_vec();
            let times = times.min(max_len / piece.len().max(1));
            out.splice(from..from, piece.repeat(times));
            format!("{len} bytes at {from} repeated {times} times")
        }
        5 => {
            let from = at(rng, out.len());
            let len = rng.below(out.len() - from + 1).min(4096);
            out.drain(from..from + len);
            format!("{len} bytes deleted at {from}")
        }
        6 => {
            let i = at(rng, out.len());
            let from = at(rng, other.len());
            let len = rng.below(other.len() - from + 1).min(4096);
            out.splice(i..i, other[from..from + len].iter().copied());
            format!("{len} bytes of another file at {i}")
        }
        _ => {
            // A line or statement moved: the wrong step, the wrong turn.
            let lines: Vec<usize> = (0..out.len())
                .filter(|&i| out[i] == b'\n' || out[i] == b',')
                .collect();
            if lines.len() < 3 {
                out.reverse();
                "reversed".to_string()
            } else {
                let a = *rng.pick(&lines);
                let b = *rng.pick(&lines);
                let (a, b) = (a.min(b), a.max(b));
                let piece: Vec<u8> = out.drain(a..b).collect();
                let i = at(rng, out.len());
                out.splice(i..i, piece);
                format!("bytes {a}..{b} moved to {i}")
            }
        }
    };
    out.truncate(max_len);
    (what, out)
}
