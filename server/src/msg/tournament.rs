//! What connections, the lobby and tables tell the tournament director,
//! and its mailbox.

use tengen_protocol::{ClientMsg, RequestId, TableId, TournamentGame};
use tengen_rules::game::GameConfig;

use crate::sessions::Session;

/// A connection's tournament request (`ClientMsg`'s tournament types),
/// with the session that sent it; answered on its outbox.
pub struct TournamentCmd {
    pub session: Session,
    pub id: Option<RequestId>,
    pub msg: ClientMsg,
}

/// Everything the director hears.
pub enum DirectorCmd {
    /// A connection's request (boxed: the largest by far).
    Request(Box<TournamentCmd>),
    /// The lobby could not seat a tournament game at `table`: `absent`
    /// by seat (offline here, or seated at as many tables as allowed).
    Absent {
        game: TournamentGame,
        table: TableId,
        absent: [bool; 2],
    },
    /// A tournament table's game is over and stored as a finished game:
    /// its result is in the store's record of `table`.
    Over {
        game: TournamentGame,
        table: TableId,
    },
}

/// The director's mailbox.
pub type DirectorHandle = crate::mailbox::Mailbox<DirectorCmd>;

/// A tournament game for the lobby to seat: a rated room with both
/// seats taken, `players[0]` opening, its table started at `table`.
pub struct TournamentSeating {
    pub game: TournamentGame,
    /// Account names: the first seat (the opener as paired), the second.
    pub players: [String; 2],
    /// The sessions the director last heard each player on (a relay of
    /// another node's connection, with several nodes): seated when the
    /// player is not connected here.
    pub known: [Option<Session>; 2],
    pub config: GameConfig,
    pub rated: bool,
    pub table: TableId,
    /// Where to say that a player was absent.
    pub director: DirectorHandle,
}
