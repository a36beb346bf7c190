//! Certificate transfers, presidency and limits.
