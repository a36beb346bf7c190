use super::*;

fn round_trip(src: &str) -> Document {
    let doc = parse("t.rn", src).unwrap_or_else(|e| panic!("{e:?}"));
    let text = write(&doc);
    let again = parse("t.rn", &text).unwrap_or_else(|e| panic!("{text}\n{e:?}"));
    assert_eq!(doc, again, "{text}");
    assert_eq!(write(&again), text, "fmt is idempotent");
    doc
}

#[test]
fn every_production_round_trips() {
    let src = r#"[Title "1836Jr30"]
[Players "Ann, Bob, Cid"]

PR
Ann: bid CFLV 225!, Bob: pass, "Player 1": p
SR 1
Ann: par Nord 82, buy Nord, buy 2 Nord pool 20%, buy Nord_3 10%, sell 3 Nord, sell NBDS_2 NBDS_0 50%
= Ann 315 Bob Nord 60%
correct cash Ann +50
OR 1.1
Nord: 57 E7 r2?, lay 57-1 E7 W-E, tok E11/2 s0 40, tok 57-2-0, run 2:H6-H4=50 3-1:I3-I5-H4+H4-H6@H4.0+H6.0
pay, withhold, wh, train 3, train 3-1 120 from HSM, train D x 4 800, train 2 pool, discard 3
Nord: buy CFL 40 {a comment} ; line comment
& Ann: buy GCL_3 10%
(Nord: pass ; alt
)
bankrupt, program share_pass, program buy_shares corporation=GCL from_market=false, & Ann: program disable reason="GCL is floated"
par B 90@3.5
"#;
    let doc = round_trip(src);
    assert_eq!(doc.games.len(), 1);
}

#[test]
fn the_18ireland_forms_round_trip() {
    let src = r#"[Title "18Ireland"]
[Players "Ann, Bob, Cid"]
[Seed "1411315859"]

MR 5.2
Ann: merge DER, merge UR, pass, vote for
Bob: vote against
OR 5.2
TASPS: assign C13
GNWR: run
"#;
    let doc = round_trip(src);
    let text = write(&doc);
    for form in [
        "merge DER",
        "vote for",
        "vote against",
        "assign C13",
        "GNWR: run",
    ] {
        assert!(text.contains(form), "{form} missing from\n{text}");
    }
}

#[test]
fn several_games() {
    let doc = round_trip("[Title \"1836Jr30\"]\nAnn: pass\n[Title \"1836Jr30\"]\nBob: pass\n");
    assert_eq!(doc.games.len(), 2);
}

#[test]
fn all_errors_are_reported() {
    let err = parse("t.rn", "Ann: bdi CFL 4\nBob: bid CFL x\n57 E7 r9\n{open").unwrap_err();
    let codes: Vec<_> = err.errors.iter().map(|e| e.code).collect();
    assert_eq!(
        codes,
        [
            "notation::unknown_keyword",
            "notation::bad_number",
            "notation::bad_rotation",
            "notation::unclosed"
        ]
    );
}

#[test]
fn a_program_setting_needs_a_key() {
    let err = parse("t.rn", "program disable =\"GCL is floated\"").unwrap_err();
    let found: Vec<_> = err
        .errors
        .iter()
        .map(|e| (e.code, e.span.offset, e.span.len, e.label.as_str()))
        .collect();
    assert_eq!(
        found,
        [("notation::unexpected", 16, 1, "found `=`")],
        "{err:?}"
    );
}

#[test]
fn recovery_reads_past_broken_text_inside_a_move() {
    // A stray `}` and a broken tag inside a move are reported and read past; the move still
    // reads. Where a problem of the text and one of the move meet (`{` right after `buy 6`),
    // the text's comes first.
    let src = "Ann: bid} CFL [x] 45\nBob: buy 6{never closed";
    let err = parse("t.rn", src).unwrap_err();
    let found: Vec<_> = err
        .errors
        .iter()
        .map(|e| (e.code, &src[e.span.offset..e.span.end()]))
        .collect();
    assert_eq!(
        found,
        [
            ("notation::unexpected", "}"),
            ("notation::bad_tag", "[x]"),
            ("notation::unclosed", "{"),
            ("notation::expected", ""),
        ]
    );
    assert_eq!(
        err.errors[3].message,
        "expected a corporation or certificate"
    );
    assert_eq!(err.errors[3].span.offset, src.find('{').unwrap());
}

#[test]
fn corrections_round_trip() {
    let doc = round_trip(
        "correct cash \"Player 1\" -20\ncorrect tile 57 E7 r2\ncorrect tile 57-1 E7 NE-SW\ncorrect share Nord_3 pool\n",
    );
    let kinds: Vec<_> = doc.games[0]
        .body
        .iter()
        .map(|e| match e {
            Element::Correction(c) => c.kind.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        kinds[2],
        CorrectionKind::Tile {
            tile: "57-1".into(),
            hex: "E7".parse().unwrap(),
            orientation: Orientation::Sides(vec![Side::NE, Side::SW]),
        }
    );
    assert_eq!(
        kinds[3],
        CorrectionKind::Share {
            share: Name::new("Nord_3"),
            to: Name::new("pool"),
        }
    );
}

#[test]
fn a_broken_correction_says_which_form_it_breaks() {
    let err = parse(
        "t.rn",
        "correct tile 57 E7 r9\ncorrect share Nord_3\ncorrect stock Ann 5",
    )
    .unwrap_err();
    let found: Vec<_> = err
        .errors
        .iter()
        .map(|e| (e.code, e.message.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            (
                "notation::bad_rotation",
                "expected a rotation from r0 to r5"
            ),
            (
                "notation::expected",
                "expected `correct share CERTIFICATE HOLDER`"
            ),
            (
                "notation::unknown_keyword",
                "expected a correction kind (`cash`, `tile` or `share`)"
            ),
        ]
    );
}
