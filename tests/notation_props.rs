//! Property tests of the notation reader and writer: the reader never panics, and writing then
//! reading a document gives the same document.

use proptest::prelude::*;
use railnote::notation::{parse, write};

/// One move, built from the grammar's productions with random parameters.
fn a_move() -> impl Strategy<Value = String> {
    let corp = prop::sample::select(vec!["B", "GCL", "Nord", "NBDS", "HSM", "NFL"]);
    let private = prop::sample::select(vec!["ACC", "E-SF", "CdH", "GCB", "CFL", "CFLV"]);
    let hex = (prop::sample::select(vec!['A', 'B', 'E', 'H', 'K']), 1u8..20)
        .prop_map(|(l, n)| format!("{l}{n}"));
    let tile = prop::sample::select(vec!["7", "8", "9", "57", "14", "63", "59"]);
    prop_oneof![
        Just("pass".to_string()),
        (private.clone(), 0u32..400).prop_map(|(c, p)| format!("bid {c} {p}")),
        (
            corp.clone(),
            prop::sample::select(vec![67u32, 71, 76, 82, 90, 100])
        )
            .prop_map(|(c, p)| format!("par {c} {p}")),
        (1u8..4, corp.clone(), any::<bool>())
            .prop_map(|(n, c, pool)| format!("buy {n} {c}{}", if pool { " pool" } else { "" })),
        (1u8..4, corp.clone()).prop_map(|(n, c)| format!("sell {n} {c}")),
        (tile, hex.clone(), 0u8..6).prop_map(|(t, h, r)| format!("{t} {h} r{r}")),
        hex.clone().prop_map(|h| format!("tok {h}")),
        (hex.clone(), hex.clone(), 0u32..300).prop_map(|(a, b, r)| format!("run 2:{a}-{b}={r}")),
        Just("pay".to_string()),
        Just("withhold".to_string()),
        prop::sample::select(vec!["2", "3", "4", "D"]).prop_map(|t| format!("train {t}")),
        Just("end game".to_string()),
    ]
}

/// A correction record (not a move: it takes no annotation): cash, tile or share.
fn a_correction() -> impl Strategy<Value = String> {
    let who = prop::sample::select(vec!["Ann", "Bob", "Cid"]);
    prop_oneof![
        (who.clone(), 1u32..500, any::<bool>()).prop_map(|(who, amount, minus)| {
            format!(
                "correct cash {who} {}{amount}",
                if minus { "-" } else { "+" }
            )
        }),
        (
            prop::sample::select(vec!["57", "57-1", "8", "9-0"]),
            "[A-K][1-9]",
            0u8..6
        )
            .prop_map(|(tile, hex, r)| format!("correct tile {tile} {hex} r{r}")),
        (
            prop::sample::select(vec!["Nord_3", "B_1", "GCL_8"]),
            prop::sample::select(vec!["Ann", "Bob", "pool", "ipo"])
        )
            .prop_map(|(share, to)| format!("correct share {share} {to}")),
    ]
}

fn a_line() -> impl Strategy<Value = String> {
    (
        prop::option::of(prop::sample::select(vec!["Ann", "Bob", "Cid"])),
        prop::collection::vec(a_move(), 1..4),
        prop::option::of(prop::sample::select(vec!["!", "?", "!!", "??", "!?", "?!"])),
        prop::option::of("[a-z ]{0,12}"),
    )
        .prop_map(|(actor, moves, annotation, comment)| {
            let mut line = String::new();
            if let Some(actor) = actor {
                line.push_str(&format!("{actor}: "));
            }
            line.push_str(&moves.join(", "));
            if let Some(a) = annotation {
                line.push_str(a);
            }
            if let Some(c) = comment {
                line.push_str(&format!(" {{{c}}}"));
            }
            line
        })
}

/// A heading, check line or correction, with or without a comment on its line.
fn a_statement_line() -> impl Strategy<Value = String> {
    let statement = prop_oneof![
        a_correction(),
        prop::sample::select(vec!["PR", "SR 2", "OR 3.1", "= Ann 315 Nord 120"])
            .prop_map(str::to_string),
    ];
    (statement, prop::option::of(a_comment())).prop_map(|(s, c)| match c {
        Some(c) => format!("{s} {c}"),
        None => s,
    })
}

/// A `{…}` or `; …` comment.
fn a_comment() -> impl Strategy<Value = String> {
    ("[a-z ]{0,12}", any::<bool>()).prop_map(|(text, line)| {
        if line {
            format!("; {text}")
        } else {
            format!("{{{text}}}")
        }
    })
}

fn a_document() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![4 => a_line(), 2 => a_statement_line(), 1 => a_comment()],
        0..12,
    )
    .prop_map(|lines| {
        format!(
            "[Title \"1836Jr30\"]\n[Players \"Ann, Bob, Cid\"]\n\n{}\n",
            lines.join("\n")
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn reading_any_text_never_panics(text in any::<String>()) {
        let _ = parse("any.rn", &text);
    }

    #[test]
    fn reading_any_bytes_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = parse("bytes.rn", &text);
    }

    #[test]
    fn write_then_parse_is_identity(src in a_document()) {
        let doc = parse("gen.rn", &src).map_err(|e| TestCaseError::fail(format!("{src}\n{e:?}")))?;
        let text = write(&doc);
        let again = parse("gen.rn", &text).map_err(|e| TestCaseError::fail(format!("{text}\n{e:?}")))?;
        prop_assert_eq!(&doc, &again);
        prop_assert_eq!(write(&again), text);
    }
}
