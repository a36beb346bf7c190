//! The 18xx.games game-log layer: reads the JSON logs of the reference site into typed
//! [`Action`](crate::action::Action)s with source positions. Knows nothing of rules.
//!
//! Three stages, each usable on its own:
//! 1. [`parse`]: JSON syntax → [`Document`] (header + every raw action, with byte spans);
//! 2. [`filter`]: undo/redo filtering exactly as the reference engine loads a log;
//! 3. [`resolve`]: id strings (`Nord_3`, `3-1`, `57-2-0`, `"82,2,6"`) → typed ids.
//!
//! [`read`] runs all three. Every problem of a file is collected into one [`LogError`], a miette
//! diagnostic with a label at the exact place and a help line saying what was expected.
//!
//! A log as 18xx.games writes it is first offered to a fast path that decodes it from the bytes
//! to the same [`GameLog`] in one pass; it declines anything unusual or wrong (escapes, `80.0`,
//! repeated fields, any problem), which the three stages then read ([`read_fast`] and
//! [`read_located`] run either alone, for tests that hold them to the same result).

mod error;
mod fast;
mod json;
mod raw;
mod resolve;
mod source;
mod span;

pub(crate) use error::{label_span, not_shown, short_name, shorten_quotes};
pub use error::{LogError, Problem, ProblemKind, DIAGNOSTICS_KEPT, DIAGNOSTICS_SHOWN};
pub use raw::{filter, parse, parse_shared, Document, Header, LogPlayer, RawAction};
pub use resolve::{
    read, read_fast, read_located, read_shared, resolve, AutoAction, GameLog, LoggedAction,
    LoggedCorrection,
};
pub use source::LogSource;
pub use span::{Span, Spanned};
