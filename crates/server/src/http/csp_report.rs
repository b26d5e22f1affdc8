//! `POST /csp-report`: browsers' Content-Security-Policy violation reports (issue 15 § 5).
//! No key (browsers send no credentials with reports), at most [`MAX_REPORT`] bytes; each
//! report is logged as a warning and kept in a bounded in-memory list ([`take`]) that the
//! end-to-end tests read to prove that no page violates the policy.

use axum::body::Bytes;
use axum::http::StatusCode;
use std::collections::VecDeque;
use std::sync::Mutex;

/// Largest report body kept (16 KiB); larger bodies are refused with 413 by the route's
/// body limit.
pub const MAX_REPORT: usize = 16 * 1024;

/// How many reports are kept (the oldest go first).
pub const KEPT: usize = 100;

static REPORTS: Mutex<VecDeque<String>> = Mutex::new(VecDeque::new());

/// Receives one report (`application/csp-report` or `application/reports+json`): 204.
pub async fn receive(body: Bytes) -> StatusCode {
    let text = String::from_utf8_lossy(&body).into_owned();
    tracing::warn!(report = %text, "Content-Security-Policy violation");
    let mut reports = REPORTS.lock().unwrap_or_else(|e| e.into_inner());
    if reports.len() == KEPT {
        reports.pop_front();
    }
    reports.push_back(text);
    StatusCode::NO_CONTENT
}

/// The reports received since the last call (this process), oldest first.
pub fn take() -> Vec<String> {
    REPORTS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .drain(..)
        .collect()
}
