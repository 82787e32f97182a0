//! Takeback-request bookkeeping: the request standing and who may not
//! ask again yet (the machine's handlers are in `machine::takeback`).

use super::action::Seat;

/// The takeback request standing, and who may not ask again yet.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Takebacks {
    /// The seat whose request awaits an answer.
    pub pending: Option<Seat>,
    /// Per seat: its request was declined, and no move was made since.
    pub declined: [bool; 2],
}
