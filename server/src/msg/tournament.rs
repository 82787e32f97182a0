//! What connections tell the tournament director, and its mailbox.

use tengen_protocol::{ClientMsg, RequestId};

use crate::sessions::Session;

/// A connection's tournament request (`ClientMsg`'s tournament types),
/// with the session that sent it; answered on its outbox.
pub struct TournamentCmd {
    pub session: Session,
    pub id: Option<RequestId>,
    pub msg: ClientMsg,
}

/// The director's mailbox.
pub type DirectorHandle = crate::mailbox::Mailbox<TournamentCmd>;
