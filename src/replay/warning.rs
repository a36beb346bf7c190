//! Deviation warnings: moves the printed rules forbid that 18xx.games accepts (see
//! [`crate::engine::Deviation`]), located in the file. A replay follows 18xx.games and reports
//! them after the standings; a strict replay (`--strict-rules`) refuses them instead.

use miette::{Diagnostic, LabeledSpan, Severity, SourceCode};
use std::fmt;

use crate::engine::Deviation;
use crate::log::{label_span, short_name, shorten_quotes, LogSource, Span};

/// A move that breaks a printed rule while 18xx.games accepts it, located in the file.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}", self.headline())]
pub struct DeviationWarning {
    /// The file.
    pub src: LogSource,
    /// The move (a JSON action object or a notation move).
    pub span: Span,
    /// 1-based count of processed top-level actions (notation: moves of the main line).
    pub index: usize,
    /// The source id of the action (notation: the move number).
    pub action_id: i64,
    /// The reference type name of the action.
    pub action_type: String,
    /// The round before the action (`OR 3.1`).
    pub round: String,
    /// Who acted.
    pub actor: String,
    /// The printed rule broken and what happened.
    pub deviation: Deviation,
}

impl DeviationWarning {
    /// The deviation's stable code (`deviation::emergency_train_from_corporation`).
    pub fn rule(&self) -> &'static str {
        self.deviation.kind.code()
    }

    /// One sentence for JSON output and summaries: what happened, the printed rule and what
    /// 18xx.games does.
    pub fn message(&self) -> String {
        format!(
            "{}; {}; {}",
            self.deviation,
            self.deviation.kind.rule(),
            self.deviation.kind.reference()
        )
    }

    /// Names from the file (the actor, an action type) are cut short: a diagnostic stays a few
    /// lines however long they are.
    fn headline(&self) -> String {
        format!(
            "action #{} (id {}) deviates from the printed rules: `{}` by {} in {}",
            self.index,
            self.action_id,
            short_name(&self.action_type),
            short_name(&self.actor),
            self.round
        )
    }
}

impl Diagnostic for DeviationWarning {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.deviation.kind.code()))
    }

    fn severity(&self) -> Option<Severity> {
        Some(Severity::Warning)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.src)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(
                Some(shorten_quotes(self.deviation.to_string())),
                label_span(self.span),
            ),
        )))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(format!(
            "{}\n{}; railnote does the same (--strict-rules refuses the move)",
            self.deviation.kind.rule(),
            self.deviation.kind.reference()
        )))
    }
}
