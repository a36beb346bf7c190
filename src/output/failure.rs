//! The JSON written to stdout when a log cannot be replayed (`--format json`).

use serde::Serialize;

use crate::log::{shorten_quotes, LogError};
use crate::replay::{IllegalAction, ResultMismatch, SetupFailed};

/// `{"finished": false, "error": {…}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FailureReport {
    /// Always false: the replay did not reach the end.
    pub finished: bool,
    /// What went wrong.
    pub error: FailureDetail,
}

/// Where and why the replay stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FailureDetail {
    /// 1-based count of the offending top-level action (none for an unreadable log).
    pub index: Option<usize>,
    /// The offending action's source id.
    pub action_id: Option<i64>,
    /// The round before the action.
    pub round: Option<String>,
    /// Who acted.
    pub actor: Option<String>,
    /// The diagnostic code (`rules::not_your_turn`, `log::syntax`, …).
    pub rule: String,
    /// The human-readable message.
    pub message: String,
}

impl FailureReport {
    fn new(error: FailureDetail) -> FailureReport {
        FailureReport {
            finished: false,
            error,
        }
    }
}

impl From<&IllegalAction> for FailureReport {
    fn from(e: &IllegalAction) -> FailureReport {
        FailureReport::new(FailureDetail {
            index: Some(e.index),
            action_id: Some(e.action_id),
            round: Some(e.round.clone()),
            actor: Some(e.actor.clone()),
            rule: e.rule().to_string(),
            message: shorten_quotes(format!("{e}: {}", e.violation)),
        })
    }
}

impl From<&ResultMismatch> for FailureReport {
    fn from(e: &ResultMismatch) -> FailureReport {
        FailureReport::new(FailureDetail {
            index: None,
            action_id: None,
            round: None,
            actor: None,
            rule: "rules::result_mismatch".to_string(),
            message: shorten_quotes(e.to_string()),
        })
    }
}

impl From<&LogError> for FailureReport {
    fn from(e: &LogError) -> FailureReport {
        // One line however many problems: the first and how many follow.
        let message = match e.problems.as_slice() {
            [] => e.to_string(),
            [first, rest @ ..] => match rest.len() + e.omitted {
                0 => first.message.clone(),
                more => format!("{} (and {more} more)", first.message),
            },
        };
        FailureReport::new(FailureDetail {
            index: None,
            action_id: None,
            round: None,
            actor: None,
            rule: e.first_code().to_string(),
            message,
        })
    }
}

impl From<&SetupFailed> for FailureReport {
    fn from(e: &SetupFailed) -> FailureReport {
        FailureReport::new(FailureDetail {
            index: None,
            action_id: None,
            round: None,
            actor: None,
            rule: "replay::setup".to_string(),
            message: e.to_string(),
        })
    }
}
