//! A table's own timers (`super::super::deadlines`).

use std::time::Instant;

/// The table's own timers (the game's come from the referee, the others'
/// from their parts).
pub(crate) struct Timers {
    /// When the seat to act must have acted, while some seat has never
    /// acted (then the game is aborted).
    pub(crate) first_action_due: Option<Instant>,
    /// The seat whose first action never came, once the game was aborted
    /// for that (a fair-play offence when rated).
    pub(crate) no_show: Option<tengen_rules::game::Seat>,
    /// When the table closes, once the game is over.
    pub(crate) close_at: Option<Instant>,
}
