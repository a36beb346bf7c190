//! The JSON written to stdout when a log cannot be replayed (`--format json`).

use serde::Serialize;

use crate::log::{shorten_quotes, LogError, Span};
use crate::replay::{IllegalAction, ResultMismatch, SetupFailed};

/// `{"finished": false, "error": {…}, "problems": [{line, column, …}, …]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FailureReport {
    /// Always false: the replay did not reach the end.
    pub finished: bool,
    /// What went wrong (the first problem, with how many follow).
    pub error: FailureDetail,
    /// Every problem kept (all syntax errors of a notation file, every illegal move with
    /// `--keep-going`; otherwise the one), each with where it is written.
    pub problems: Vec<ProblemDetail>,
}

/// One problem and where it is written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProblemDetail {
    /// 1-based line of the file.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// The diagnostic code.
    pub rule: String,
    /// What is wrong.
    pub message: String,
    /// The round then, when known.
    pub round: Option<String>,
    /// Who acted, when known.
    pub actor: Option<String>,
    /// With `--keep-going`, the lines of check lines right after this refused move that were
    /// not evaluated (the game is uncertain until the text is in step again).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_checked: Vec<usize>,
}

impl ProblemDetail {
    /// A problem at `span` of `src`.
    pub fn at(src: &str, span: Span, rule: &str, message: String) -> ProblemDetail {
        let (line, column) = span.line_col(src);
        ProblemDetail {
            line,
            column,
            rule: rule.to_string(),
            message,
            round: None,
            actor: None,
            not_checked: Vec::new(),
        }
    }
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
    /// A failure and its problems.
    pub fn new(error: FailureDetail, problems: Vec<ProblemDetail>) -> FailureReport {
        FailureReport {
            finished: false,
            error,
            problems,
        }
    }
}

impl From<&IllegalAction> for FailureReport {
    fn from(e: &IllegalAction) -> FailureReport {
        let detail = FailureDetail {
            index: Some(e.index),
            action_id: Some(e.action_id),
            round: Some(e.round.clone()),
            actor: Some(e.actor.clone()),
            rule: e.rule().to_string(),
            message: shorten_quotes(format!("{e}: {}", e.violation)),
        };
        let problem = ProblemDetail {
            round: detail.round.clone(),
            actor: detail.actor.clone(),
            ..ProblemDetail::at(e.src.text(), e.span, &detail.rule, detail.message.clone())
        };
        FailureReport::new(detail, vec![problem])
    }
}

impl From<&ResultMismatch> for FailureReport {
    fn from(e: &ResultMismatch) -> FailureReport {
        let detail = FailureDetail {
            index: None,
            action_id: None,
            round: None,
            actor: None,
            rule: "rules::result_mismatch".to_string(),
            message: shorten_quotes(e.to_string()),
        };
        let problems = e
            .labels
            .iter()
            .map(|(span, label)| {
                ProblemDetail::at(e.src.text(), *span, &detail.rule, label.clone())
            })
            .collect();
        FailureReport::new(detail, problems)
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
        let detail = FailureDetail {
            index: None,
            action_id: None,
            round: None,
            actor: None,
            rule: e.first_code().to_string(),
            message,
        };
        let problems = e
            .problems
            .iter()
            .map(|p| ProblemDetail::at(e.src.text(), p.span, p.kind.code(), p.message.clone()))
            .collect();
        FailureReport::new(detail, problems)
    }
}

impl From<&SetupFailed> for FailureReport {
    fn from(e: &SetupFailed) -> FailureReport {
        let detail = FailureDetail {
            index: None,
            action_id: None,
            round: None,
            actor: None,
            rule: "replay::setup".to_string(),
            message: e.to_string(),
        };
        let problem = ProblemDetail::at(e.src.text(), e.span, &detail.rule, detail.message.clone());
        FailureReport::new(detail, vec![problem])
    }
}
