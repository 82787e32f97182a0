//! The audit log's one writer on the server: every moderator action, with
//! who did it, to what, when and why, appended *before* the action is
//! done, so that no action happens unrecorded. An action that fails after
//! its entry was written (a game that ended meanwhile, a room that closed)
//! leaves the entry as it is: the log says what a moderator asked for, and
//! the moderator's answer says whether it happened. (A second entry noting
//! the failure is not written yet.)

use tengen_protocol::{AuditItem, ErrorBody, ErrorCode};
use tengen_store::{AuditEntry, Store};

use super::state::unix_ms;

/// Appends one entry; `unavailable` when the store cannot take it (and
/// the action must not be done).
pub async fn record(
    store: &dyn Store,
    by: &str,
    action: &str,
    target: &str,
    reason: &str,
) -> Result<(), ErrorBody> {
    let entry = AuditEntry {
        at_ms: unix_ms(),
        by: by.to_owned(),
        action: action.to_owned(),
        target: target.to_owned(),
        reason: reason.to_owned(),
    };
    match store.append_audit(&entry).await {
        Ok(()) => {
            tracing::info!(by, action, target, reason, "moderation");
            Ok(())
        }
        Err(e) => {
            tracing::error!(error = %e, by, action, target, "the audit entry was not written");
            Err(ErrorBody::new(
                ErrorCode::Unavailable,
                "the audit log cannot be written now; nothing was done",
            ))
        }
    }
}

/// A stored entry as the wire shows it.
pub fn item(e: AuditEntry) -> AuditItem {
    AuditItem {
        at_ms: e.at_ms,
        by: e.by,
        action: e.action,
        target: e.target,
        reason: e.reason,
    }
}
