//! Whether a table's game time stands still, and why.

use std::time::Instant;

use tengen_protocol::PauseReason;

/// Whether game time stands still, and why.
#[derive(Default)]
pub(crate) struct Freeze {
    /// After a restart: when the clocks run even if a player is not back.
    pub(crate) restoring: Option<Instant>,
    /// Since when game time stands still, if it does.
    pub(crate) since: Option<Instant>,
    /// The pause reason last announced.
    pub(crate) announced: Option<PauseReason>,
}
