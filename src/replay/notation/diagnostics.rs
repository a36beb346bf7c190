//! The reports of a replay: [`Code`] (every code of the replay layer, its text written once),
//! [`MoveError`] (one problem, where it is written) and [`GameRejected`] (all of a game's).

use std::fmt;

use miette::{Diagnostic, LabeledSpan, SourceCode};

use super::walk::{Played, Player};
use crate::engine::{Game, RuleViolation};
use crate::log::{
    label_span, not_shown, shorten_quotes, LogSource, Span, DIAGNOSTICS_KEPT, DIAGNOSTICS_SHOWN,
};

/// The code of a report, stable (part of the CLI contract: printed, and JSON's `rule`). The
/// codes of the replay layer are variants; a rule the engine found broken keeps the engine's
/// code ([`RuleViolation::code`]), so that each code's text is written in one place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    /// `notation::missing_tag`: a game without its `Title` or `Players` tag.
    MissingTag,
    /// `notation::bad_seed`: a `Seed` tag that is not a whole number below 2^63.
    BadSeed,
    /// `notation::bad_setup`: a `Setup` tag that cannot be read.
    BadSetup,
    /// `notation::no_moves`: a game of tags without a move.
    NoMoves,
    /// `notation::bad_result`: a `Result` tag that is not `NAME SCORE, …`.
    BadResult,
    /// `notation::variation_without_move`: a variation with no move before it to replace.
    VariationWithoutMove,
    /// `notation::move_before_heading`: a round's first move written before its heading.
    MoveBeforeHeading,
    /// `notation::move_after_heading`: a round's last move written after the next round's heading.
    MoveAfterHeading,
    /// `notation::pass_not_needed`: a `pass` where the rules had already ended the turn.
    PassNotNeeded,
    /// `replay::setup`: a game its tags cannot set up (title, players, seed, setup).
    Setup,
    /// `rules::unknown_entity`: a name that names no player, corporation or private.
    UnknownEntity,
    /// `rules::unknown_hex`: a hex not on the map.
    UnknownHex,
    /// `rules::unknown_tile`: a tile the title does not have.
    UnknownTile,
    /// `rules::tile_unavailable`: a tile none of which is left in the supply.
    TileUnavailable,
    /// `rules::bad_exits`: Exits a tile cannot be turned to.
    BadExits,
    /// `rules::unknown_city`: a city that is not there.
    UnknownCity,
    /// `rules::unknown_share`: a certificate that does not exist, or cannot be moved so.
    UnknownShare,
    /// `rules::no_such_share`: Fewer certificates than written where they are taken from.
    NoSuchShare,
    /// `rules::unknown_train`: a train type the title does not have.
    UnknownTrain,
    /// `rules::no_such_train`: a train its owner does not have.
    NoSuchTrain,
    /// `rules::no_par_price`: a price that is no par price.
    NoParPrice,
    /// `rules::ambiguous`: a written move that means several actions (several par cells).
    Ambiguous,
    /// `rules::price_needed`: a purchase that must say its price.
    PriceNeeded,
    /// `rules::check_failed`: a check line whose value is not the game's.
    CheckFailed,
    /// `rules::result_mismatch`: a `Result` tag that is not the game's result.
    ResultMismatch,
    /// `rules::wrong_round`: a round heading that is not the round being played.
    WrongRound,
    /// A rule the engine found broken (`rules::not_your_turn`, `rules::track`, …).
    Rule(&'static str),
}

impl Code {
    /// Every code of the replay layer (the engine's are listed by its violations).
    pub const ALL: [Code; 26] = [
        Code::MissingTag,
        Code::BadSeed,
        Code::BadSetup,
        Code::NoMoves,
        Code::BadResult,
        Code::VariationWithoutMove,
        Code::MoveBeforeHeading,
        Code::MoveAfterHeading,
        Code::PassNotNeeded,
        Code::Setup,
        Code::UnknownEntity,
        Code::UnknownHex,
        Code::UnknownTile,
        Code::TileUnavailable,
        Code::BadExits,
        Code::UnknownCity,
        Code::UnknownShare,
        Code::NoSuchShare,
        Code::UnknownTrain,
        Code::NoSuchTrain,
        Code::NoParPrice,
        Code::Ambiguous,
        Code::PriceNeeded,
        Code::CheckFailed,
        Code::ResultMismatch,
        Code::WrongRound,
    ];

    /// The code as printed: `notation::pass_not_needed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::MissingTag => "notation::missing_tag",
            Code::BadSeed => "notation::bad_seed",
            Code::BadSetup => "notation::bad_setup",
            Code::NoMoves => "notation::no_moves",
            Code::BadResult => "notation::bad_result",
            Code::VariationWithoutMove => "notation::variation_without_move",
            Code::MoveBeforeHeading => "notation::move_before_heading",
            Code::MoveAfterHeading => "notation::move_after_heading",
            Code::PassNotNeeded => "notation::pass_not_needed",
            Code::Setup => "replay::setup",
            Code::UnknownEntity => "rules::unknown_entity",
            Code::UnknownHex => "rules::unknown_hex",
            Code::UnknownTile => "rules::unknown_tile",
            Code::TileUnavailable => "rules::tile_unavailable",
            Code::BadExits => "rules::bad_exits",
            Code::UnknownCity => "rules::unknown_city",
            Code::UnknownShare => "rules::unknown_share",
            Code::NoSuchShare => "rules::no_such_share",
            Code::UnknownTrain => "rules::unknown_train",
            Code::NoSuchTrain => "rules::no_such_train",
            Code::NoParPrice => "rules::no_par_price",
            Code::Ambiguous => "rules::ambiguous",
            Code::PriceNeeded => "rules::price_needed",
            Code::CheckFailed => "rules::check_failed",
            Code::ResultMismatch => "rules::result_mismatch",
            Code::WrongRound => "rules::wrong_round",
            Code::Rule(code) => code,
        }
    }

    /// The code of a rule the engine found broken.
    pub fn of(violation: &RuleViolation) -> Code {
        Code::Rule(violation.code())
    }

    /// `rules::game_over`, as the engine names it.
    pub(super) fn game_over() -> Code {
        Code::of(&RuleViolation::GameOver)
    }

    /// `rules::not_your_turn`, as the engine names it.
    pub(super) fn not_your_turn() -> Code {
        Code::of(&RuleViolation::NotYourTurn {
            actor: String::new(),
            expected: String::new(),
        })
    }

    /// `rules::out_of_range`, as the engine names it.
    pub(super) fn out_of_range() -> Code {
        Code::of(&RuleViolation::OutOfRange(String::new()))
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<str> for Code {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

/// A failure while replaying a document: a rule broken, a move that means nothing here, a
/// heading or check that disagrees with the game.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{headline}")]
pub struct MoveError {
    /// The file.
    pub src: LogSource,
    /// The offending move (or heading, check line).
    pub span: Span,
    /// Stable code (`rules::not_your_turn`, `rules::check_failed`, …).
    pub code: Code,
    /// One line: which move, where.
    pub headline: String,
    /// The label: the rule broken.
    pub label: String,
    /// Related places.
    pub related: Vec<(Span, String)>,
    /// The legal alternatives or a correct example.
    pub help: Option<String>,
    /// 1-based move number in the main line (0 for non-moves).
    pub index: usize,
    /// The round (`OR 3.1`).
    pub round: String,
    /// The actor, if known.
    pub actor: Option<String>,
    /// With keep-going, the values of check lines right after this refused move that were not
    /// held against the game (it is uncertain until the text and the game are in step again):
    /// each entry and its line.
    pub unchecked: Vec<(Span, usize)>,
}

impl MoveError {
    /// Why the check lines after this move were not evaluated, if some were not.
    pub fn unchecked_note(&self) -> Option<String> {
        let lines: std::collections::BTreeSet<usize> =
            self.unchecked.iter().map(|(_, line)| *line).collect();
        let lines: Vec<String> = lines.iter().map(ToString::to_string).collect();
        let (which, verb) = match lines.as_slice() {
            [] => return None,
            [one] => (format!("the check line on line {one}"), "is"),
            more => (
                format!("the check lines on lines {}", more.join(", ")),
                "are",
            ),
        };
        Some(format!(
            "{which} {verb} not evaluated: after a refused move the game is uncertain until the \
             next line that names its actor (or a round heading), and a value checked there \
             would mostly repeat this mistake; replay again once this move is mended"
        ))
    }
}

impl Diagnostic for MoveError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.src)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let primary =
            LabeledSpan::new_primary_with_span(Some(self.label.clone()), label_span(self.span));
        Some(Box::new(
            std::iter::once(primary)
                .chain(
                    self.related
                        .iter()
                        .map(|(s, l)| LabeledSpan::new_with_span(Some(l.clone()), label_span(*s))),
                )
                .chain(self.unchecked.iter().map(|(s, _)| {
                    LabeledSpan::new_with_span(
                        Some("not checked after the refused move".into()),
                        label_span(*s),
                    )
                })),
        ))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let help = match (&self.help, self.unchecked_note()) {
            (Some(help), Some(note)) => format!("{help}\n{note}"),
            (Some(help), None) => help.clone(),
            (None, Some(note)) => note,
            (None, None) => return None,
        };
        Some(Box::new(help))
    }
}

/// Every failure of a replayed game, as one diagnostic.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{} problem(s) in {}{}", self.count(), src.name(), not_shown(self.count()))]
pub struct GameRejected {
    /// The file.
    pub src: LogSource,
    /// The failures in order (the first [`DIAGNOSTICS_KEPT`]).
    pub errors: Vec<MoveError>,
    /// How many more failures there were past the ones kept.
    pub omitted: usize,
}

impl GameRejected {
    /// Every failure of a replayed game.
    pub fn of(played: &Played) -> Option<GameRejected> {
        let first = played.errors.first()?;
        Some(GameRejected {
            src: first.src.clone(),
            errors: played.errors.clone(),
            omitted: played.omitted,
        })
    }

    /// How many failures the game has.
    pub fn count(&self) -> usize {
        self.errors.len() + self.omitted
    }
}

impl Diagnostic for GameRejected {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.errors
            .first()
            .map(|e| Box::new(e.code) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.src)
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        Some(Box::new(
            self.errors
                .iter()
                .take(DIAGNOSTICS_SHOWN)
                .map(|e| e as &dyn Diagnostic),
        ))
    }
}

impl Player<'_> {
    pub(super) fn error(
        &mut self,
        game: &Game,
        span: Span,
        code: Code,
        label: String,
        help: Option<String>,
        actor: Option<String>,
    ) -> Option<usize> {
        if self.quiet {
            return None;
        }
        if self.errors.len() >= DIAGNOSTICS_KEPT {
            self.omitted += 1;
            return None;
        }
        let line = self.line_of(span.offset);
        self.errors.push(MoveError {
            src: self.src.clone(),
            span,
            code,
            headline: shorten_quotes(format!(
                "line {line}: `{}` in {} is rejected",
                self.written_text(span),
                game.round_label()
            )),
            label: shorten_quotes(label),
            related: Vec::new(),
            help: help.map(shorten_quotes),
            index: self.actions.len() + 1,
            round: game.round_label(),
            actor,
            unchecked: Vec::new(),
        });
        Some(self.errors.len() - 1)
    }

    /// Makes report `report` that of a move on the wrong side of a round heading (`code`),
    /// which is replayed in the round it belongs to: the headline says so instead of
    /// "rejected", and the label and help say where the move belongs.
    pub(super) fn out_of_place(
        &mut self,
        report: usize,
        code: Code,
        belongs_to: &str,
        label: String,
        help: String,
    ) {
        let Some(span) = self.errors.get(report).map(|e| e.span) else {
            return;
        };
        let line = self.line_of(span.offset);
        let headline = shorten_quotes(format!(
            "line {line}: `{}` is out of place: it belongs to {belongs_to}",
            self.written_text(span)
        ));
        let e = &mut self.errors[report];
        e.code = code;
        e.headline = headline;
        e.label = shorten_quotes(label);
        e.help = Some(shorten_quotes(help));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use std::sync::Arc;

    #[test]
    fn each_code_has_its_own_text() {
        let texts: BTreeSet<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(texts.len(), Code::ALL.len());
        for code in Code::ALL {
            let (area, name) = code.as_str().split_once("::").unwrap();
            assert!(["notation", "replay", "rules"].contains(&area), "{code}");
            assert!(
                name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
                "{code}"
            );
            assert_eq!(code.to_string(), code.as_str());
        }
    }

    #[test]
    fn the_engines_codes_are_its_own() {
        assert_eq!(Code::game_over(), "rules::game_over");
        assert_eq!(Code::not_your_turn(), "rules::not_your_turn");
        assert_eq!(Code::out_of_range(), "rules::out_of_range");
        assert!(Code::ALL.iter().all(|c| *c != Code::not_your_turn()));
    }

    #[test]
    fn the_check_lines_not_evaluated_are_listed() {
        let error = |unchecked: Vec<(Span, usize)>| MoveError {
            src: LogSource::new("test.rn", Arc::from("")),
            span: Span::new(0, 0),
            code: Code::CheckFailed,
            headline: String::new(),
            label: String::new(),
            related: Vec::new(),
            help: None,
            index: 0,
            round: String::new(),
            actor: None,
            unchecked,
        };
        assert_eq!(error(Vec::new()).unchecked_note(), None);
        let one = error(vec![(Span::new(0, 1), 7), (Span::new(2, 1), 7)]);
        assert!(one
            .unchecked_note()
            .unwrap()
            .starts_with("the check line on line 7 is not evaluated"));
        let two = error(vec![(Span::new(0, 1), 9), (Span::new(2, 1), 8)]);
        assert!(two
            .unchecked_note()
            .unwrap()
            .starts_with("the check lines on lines 8, 9 are not evaluated"));
    }
}
