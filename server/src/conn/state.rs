//! [`ConnState`]: what one connection task keeps between frames, shared by
//! the reading loop and the router.

use tengen_protocol::{Encoding, TableId};

use super::accounts;
use crate::sessions::Session;

pub(super) struct ConnState {
    /// Accounts and ranked play (`accounts`).
    pub(super) ranked: accounts::ConnRanked,
    pub(super) session: Session,
    pub(super) encoding: Encoding,
    pub(super) watching: Vec<TableId>,
    pub(super) lobby_subscribed: bool,
}
