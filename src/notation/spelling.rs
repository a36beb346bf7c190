//! Nearest spellings, for "did you mean" help: keywords of the notation, and (in the replay)
//! the names of a game's players, corporations and privates.

/// The candidate nearest to `word` (ignoring case), if it is close enough to be what was meant:
/// one edit for a word of up to 4 characters, two for a longer one. Of equally near candidates,
/// the first listed.
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word = word.to_lowercase();
    let chars = word.chars().count();
    candidates
        .into_iter()
        // Words that differ in length by more than 2 are more than 2 edits apart; a candidate
        // longer than the distance can hold is not near either.
        .filter(|c| c.len().abs_diff(word.len()) <= 2 && c.chars().count() < 32)
        .map(|c| (distance(&word, &c.to_lowercase()), c))
        // Short words have few letters to go by: one edit; longer ones two.
        .filter(|(d, _)| *d < chars && *d <= if chars <= 4 { 1 } else { 2 })
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Edit distance, for "did you mean": insertions, deletions, substitutions and swaps of two
/// neighbouring characters (`Nrod` is one edit from `Nord`). `b` is a keyword or a name: at most
/// 31 characters. Linear in `a`: three rows of the table are kept.
pub(crate) fn distance(a: &str, b: &str) -> usize {
    const WIDTH: usize = 32;
    let b: Vec<char> = b.chars().take(WIDTH - 1).collect();
    let len = b.len();
    // `row[j]`: the distance between the part of `a` read so far and the first `j` characters
    // of `b`; `before` the row one character earlier, `before2` two.
    let mut before2 = [0usize; WIDTH];
    let mut before: [usize; WIDTH] = std::array::from_fn(|j| j);
    let mut previous_a: Option<char> = None;
    for (i, ca) in a.chars().enumerate() {
        let mut row = [0usize; WIDTH];
        row[0] = i + 1;
        for j in 1..=len {
            let cb = b[j - 1];
            let mut best = (before[j - 1] + usize::from(ca != cb))
                .min(before[j] + 1)
                .min(row[j - 1] + 1);
            if j > 1
                && previous_a == Some(b[j - 1])
                && Some(ca) == b.get(j - 2).copied()
                && ca != cb
            {
                best = best.min(before2[j - 2] + 1);
            }
            row[j] = best;
        }
        before2 = before;
        before = row;
        previous_a = Some(ca);
    }
    before[len]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance() {
        for (a, b, d) in [
            ("", "", 0),
            ("pass", "pass", 0),
            ("pass", "pas", 1),
            ("buy", "bid", 2),
            ("lay", "play", 1),
            ("tok", "took", 1),
            ("withhold", "wh", 6),
            ("é", "e", 1),
            ("kitten", "sitting", 3),
            ("nrod", "nord", 1),
            ("ab", "ba", 1),
            ("abc", "ca", 3),
        ] {
            assert_eq!(distance(a, b), d, "{a} {b}");
            assert_eq!(distance(b, a), d, "{b} {a}");
        }
    }

    #[test]
    fn nearest_ignores_case_and_prefers_the_first_listed() {
        let names = ["Nord", "NBDS", "HSM", "GCL", "B"];
        assert_eq!(nearest("Nrod", names), Some("Nord"));
        assert_eq!(nearest("nord", names), Some("Nord"));
        assert_eq!(nearest("hsn", names), Some("HSM"));
        assert_eq!(nearest("Zeeland", names), None);
        // One letter is no clue.
        assert_eq!(nearest("X", names), None);
        assert_eq!(nearest("Zoe", ["Ann", "Bob", "Cid"]), None);
        assert_eq!(nearest("Anne", ["Ann", "Bob", "Cid"]), Some("Ann"));
    }
}
