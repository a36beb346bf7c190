//! A game as the viewer and the transcript show it: its notation text, the replayable log of
//! its main line (spans into that text) and the notes written at its moves (glyphs, comments,
//! variations). An 18xx.games JSON log is converted to notation first, so that every game is
//! shown in notation.

// A failure ends the command; its size does not matter.
#![allow(clippy::result_large_err)]

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use crate::convert;
use crate::log::{GameLog, Span};
use crate::notation::{self, Element, GameText};
use crate::replay::notation::{play, MoveError, PlayOptions};

/// What was written at one action of the main line.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ActionNote {
    /// The glyph (`!`, `?!`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub glyph: Option<String>,
    /// Comments on their own lines before the move.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub before: Vec<String>,
    /// Comments after the move on its line.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub after: Vec<String>,
    /// Variations written after the move, as written.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variations: Vec<String>,
}

impl ActionNote {
    fn is_empty(&self) -> bool {
        self.glyph.is_none()
            && self.before.is_empty()
            && self.after.is_empty()
            && self.variations.is_empty()
    }
}

/// Notes by action: key 0 is before the first action, key N belongs to the N-th action.
pub type Notes = BTreeMap<usize, ActionNote>;

/// A game read for drawing.
#[derive(Debug, Clone)]
pub struct GameDocument {
    /// The file name.
    pub name: String,
    /// The notation text shown (the file itself, or the conversion of a JSON log).
    pub text: Arc<str>,
    /// The main line, with spans into `text`.
    pub log: GameLog,
    /// Notes at the moves.
    pub notes: Notes,
    /// Whether `text` was converted from an 18xx.games JSON log.
    pub converted: bool,
}

/// Why a game cannot be read for drawing.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum DocumentError {
    /// The notation does not parse.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Syntax(#[from] notation::ParseError),
    /// A move of the notation is rejected.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Move(#[from] MoveError),
    /// The JSON log cannot be converted.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Convert(#[from] convert::ConvertError),
    /// The file holds no game.
    #[error("{0}: no game in the file")]
    #[diagnostic(
        code(notation::no_game),
        help("a game starts with its tags, e.g. `[Title \"1836Jr30\"]` and `[Players \"Ann, Bob, Cid\"]`, then its moves")
    )]
    Empty(String),
}

impl GameDocument {
    /// Reads the first game of a notation file.
    ///
    /// # Errors
    /// A syntax error or the first rejected move.
    pub fn from_notation(name: &str, text: &str) -> Result<GameDocument, DocumentError> {
        let doc = notation::parse(name, text)?;
        let game = doc
            .games
            .into_iter()
            .find(|g| !g.is_comments_only())
            .ok_or_else(|| DocumentError::Empty(name.to_string()))?;
        let shared: Arc<str> = Arc::from(text);
        let played = play(name, &shared, &game, PlayOptions::default())?;
        if let Some(first) = played.errors.into_iter().next() {
            return Err(first.into());
        }
        let mut notes = notes_of(&game, &played.log, &shared);
        // Corrections are not actions of the log: the pictures are drawn without them, so each
        // is at least told at the move it follows.
        for c in &played.corrections {
            // The actions are in file order: a search, not a count from the start for each.
            let after = played
                .log
                .actions
                .partition_point(|a| a.span.offset < c.span.offset);
            notes.entry(after).or_default().after.push(format!(
                "correction applied: {} (the states shown leave it out)",
                c.text
            ));
        }
        Ok(GameDocument {
            name: name.to_string(),
            text: shared,
            log: played.log,
            notes,
            converted: false,
        })
    }

    /// Converts an 18xx.games log to notation and reads that.
    ///
    /// # Errors
    /// The log cannot be replayed.
    pub fn from_json_log(log: &GameLog) -> Result<GameDocument, DocumentError> {
        let doc = convert::to_notation(log)?;
        let text = notation::write(&doc);
        let mut read = GameDocument::from_notation(&log.name, &text)?;
        read.converted = true;
        Ok(read)
    }
}

/// The notes of the main line: each glyph at its move, each comment after the move it follows
/// on the same line, or before the move after it when it stands on its own line.
fn notes_of(game: &GameText, log: &GameLog, text: &str) -> Notes {
    let mut index_at: BTreeMap<usize, usize> = BTreeMap::new();
    for (i, a) in log.actions.iter().enumerate() {
        index_at.insert(a.span.offset, i + 1);
        for auto in &a.auto_actions {
            index_at.insert(auto.span.offset, i + 1);
        }
    }
    let mut notes = Notes::new();
    let mut last = 0;
    let mut pending: Vec<String> = Vec::new();
    let slice = |s: Span| text.get(s.offset..s.end()).unwrap_or("").to_string();
    for e in &game.body {
        match e {
            Element::Move(m) => {
                let Some(&i) = index_at.get(&m.span.offset) else {
                    continue;
                };
                let note = notes.entry(i).or_default();
                note.before.append(&mut pending);
                if let Some(a) = m.annotation {
                    note.glyph = Some(a.as_str().to_string());
                }
                last = i;
            }
            Element::Comment(c) if c.own_line && last > 0 => pending.push(c.text.clone()),
            Element::Comment(c) => notes.entry(last).or_default().after.push(c.text.clone()),
            Element::Variation(v) => notes
                .entry(last)
                .or_default()
                .variations
                .push(slice(v.span)),
            Element::Heading(_) | Element::Check(_) | Element::Correction(_) => {}
        }
    }
    if !pending.is_empty() {
        notes.entry(last).or_default().after.append(&mut pending);
    }
    notes.retain(|_, n| !n.is_empty());
    notes
}
