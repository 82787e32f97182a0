//! What connections, tables, the matchmaker and the node tell the lobby,
//! and its mailbox.

use tengen_protocol::{RequestId, RoomId, RoomInfo, SessionId, TableId};
use tengen_rules::game::{GameConfig, Seat};

use super::matchmaker::{MatchmakerHandle, Pairing};
use super::node::NodeHandle;
use crate::cluster::wire::{LobbyNews, LobbyRemoteCmd};
use crate::sessions::Session;

/// What connections and tables tell the lobby.
pub enum LobbyCmd {
    Subscribe {
        session: Session,
        id: Option<RequestId>,
    },
    Unsubscribe {
        session: Session,
        id: Option<RequestId>,
    },
    List {
        session: Session,
        id: Option<RequestId>,
    },
    Create {
        session: Session,
        id: Option<RequestId>,
        room: NewRoom,
    },
    /// [`LobbyCmd::Create`], the new room's id then sent to `created`
    /// (the computer, which joins it: `crate::computer`); dropped when the
    /// room is refused (the creator hears why). `opener`: the seat that
    /// opens when the game starts (else drawn by lot).
    CreateFor {
        session: Session,
        id: Option<RequestId>,
        room: NewRoom,
        opener: Option<tengen_rules::game::Seat>,
        created: tokio::sync::oneshot::Sender<tengen_protocol::RoomId>,
    },
    Join {
        session: Session,
        id: Option<RequestId>,
        room: RoomId,
    },
    Challenge {
        session: Session,
        id: Option<RequestId>,
        player: String,
        config: GameConfig,
        chat: bool,
        /// A rated challenge: both must be accounts.
        rated: bool,
    },
    DeclineChallenge {
        session: Session,
        id: Option<RequestId>,
        room: RoomId,
    },
    Leave {
        session: Session,
        id: Option<RequestId>,
        room: RoomId,
    },
    Cancel {
        session: Session,
        id: Option<RequestId>,
        room: RoomId,
    },
    /// A connection closed. `holder`: it still held its session (not taken
    /// over by a resume elsewhere), so the session's waiting rooms and
    /// finished seats go too.
    Gone {
        session: SessionId,
        conn: u64,
        holder: bool,
    },
    /// A session was taken over by a new connection (`hello.resume` while
    /// the old one was still open): the rooms it sits in stay, and are
    /// answered on the new connection from now on.
    Resumed { session: Session },
    /// A table's game ended: the room is `finished` until its players leave.
    TableFinished { room: RoomId },
    /// A table closed (some time after its game): its room goes, unless a
    /// rematch moved the room on to another table.
    TableClosed { room: RoomId, table: TableId },
    /// A table's spectator count changed (already coalesced by the table).
    Spectators { room: RoomId, count: u32 },
    /// A table restored after a restart brings its room back (`playing`,
    /// or `finished` if its game had ended). `seats` by room seat.
    Restored {
        info: RoomInfo,
        public: bool,
        seats: [Session; 2],
    },
    /// Both players of a finished table asked for a rematch: start it in
    /// the same room, the opener switched (or in a new room `like` it, if
    /// both players have left that one). `seats` are the players as the
    /// table knows them now (their current connections).
    Rematch {
        room: RoomId,
        from: TableId,
        seats: [Session; 2],
        opener: Seat,
        like: NewRoom,
    },
    /// The matchmaker paired two players: seat them in a new rated room
    /// (or give them back to `matchmaker` if one cannot sit now).
    Matched {
        pairing: Box<Pairing>,
        matchmaker: MatchmakerHandle,
    },
    /// The tournament director: seat a tournament game (or tell the
    /// director who is absent).
    TournamentGame(Box<crate::msg::tournament::TournamentSeating>),
    /// Other nodes' lobbies, through this node's actor (`crate::lobby`).
    Cluster(ClusterCmd),
    /// A moderator closes `room` (here, or on the node holding it): it
    /// goes from the lobby, a game in it is aborted, everyone there gets
    /// `room_closed`; `session` is answered `moderated`. The role was
    /// checked by the sender. `here_only`: a room of another node is left
    /// alone (every node heard the same command).
    Close {
        session: Session,
        id: Option<RequestId>,
        room: RoomId,
        reason: String,
        here_only: bool,
    },
    /// Whether `room` is known, here or on another node (`reply`).
    Locate {
        room: RoomId,
        reply: tokio::sync::oneshot::Sender<bool>,
    },
}

/// A room as `create_room` asks for it.
pub struct NewRoom {
    pub config: GameConfig,
    /// Listed in the lobby (else its id is the invitation).
    pub public: bool,
    pub name: Option<String>,
    /// Table chat on.
    pub chat: bool,
    /// A rated room: both seats must be accounts.
    pub rated: bool,
}

/// The lobby's mailbox: connections, tables, the matchmaker and the node
/// send it commands; the ends of connections and tables come as notices.
pub type LobbyHandle = crate::mailbox::Mailbox<LobbyCmd>;

/// What the node actor tells the lobby.
pub enum ClusterCmd {
    /// The bus is up (and the lobby topic subscribed): speak to the
    /// other nodes from now on.
    Attach { node: NodeHandle },
    /// News from another node's lobby.
    News { from: String, news: LobbyNews },
    /// The bus may have lost deliveries: ask everyone for their rooms.
    Reset,
    /// A command of a connection at another node, for a room here;
    /// `session`'s outbox is the connection's relay.
    Remote {
        from: String,
        session: Session,
        cmd: LobbyRemoteCmd,
    },
    /// The relay here of another node's connection ended.
    RelayGone { session: SessionId, conn: u64 },
}
