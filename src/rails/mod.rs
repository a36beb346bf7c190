//! Games saved by Rails (Rails-18xx/Rails, the Java 18xx program): its `.rails` saves read
//! ([`save`]) and written as railnote notation ([`record`]), which the notation replay then
//! judges like any record; and the reports Rails writes when it replays a save ([`report`]),
//! to compare railnote's replay with Rails' own.

pub mod record;
pub mod report;
pub mod save;

pub use record::{notation, Origins, RecordError};
pub use save::{is_java_serialization, read, ReadError, Save};

/// Why a Rails save cannot be played by railnote.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RailsError {
    /// The file cannot be read.
    #[error("{name}: {0}", name = .1)]
    Read(ReadError, String),
    /// The game cannot be written as a railnote game.
    #[error("{name}: {0}", name = .1)]
    Record(RecordError, String),
}

impl miette::Diagnostic for RailsError {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new(match self {
            RailsError::Read(..) => "rails::unreadable",
            RailsError::Record(RecordError::UnknownTitle(_), _) => "rails::unknown_title",
            RailsError::Record(RecordError::Option { .. }, _) => "rails::unknown_option",
            RailsError::Record(..) => "rails::no_move",
        }))
    }
}

/// A Rails save, read and written as a notation game (the text and where each line of it
/// came from).
///
/// # Errors
/// A damaged save (where, which action and field), a title, option or action railnote does
/// not have.
pub fn to_notation(name: &str, bytes: &[u8]) -> Result<(String, Origins), RailsError> {
    let save = read(bytes).map_err(|e| RailsError::Read(e, name.to_string()))?;
    notation(&save).map_err(|e| RailsError::Record(e, name.to_string()))
}
