//! What nodes say to each other over the bus: one place for the wire
//! format between nodes, as `tengen-protocol` is for clients.
//!
//! Every message is a [`NodeMsg`] in MessagePack with field names (the
//! encoding the store uses): a node of a later version can add a field
//! with a default. Messages go to a node's own channel
//! ([`super::bus::Bus::publish_node`]) and are dropped, whole, when
//! they cannot be read.

use bytes::Bytes;
use serde::{Deserialize, Serialize};
use tengen_protocol::{Encoding, Player, RequestId, RoomId, RoomInfo, SessionId, TableId};
use tengen_rules::game::GameConfig;

use crate::msg::table::TableRequest;
use crate::outbound::Frame;

/// One message between nodes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NodeMsg {
    /// The sending node.
    pub from: String,
    pub body: Body,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Body {
    /// A connection at `from` asks something of a table this node runs.
    ToTable {
        table: TableId,
        conn: u64,
        session: RemoteSession,
        id: Option<RequestId>,
        request: TableRequest,
    },
    /// Frames for connection `conn` of the receiving node, from the table
    /// host's relay of it. `n` numbers the relay's messages from 0, so the
    /// receiver sees any it missed.
    Frames {
        conn: u64,
        n: u64,
        frames: Vec<WireFrame>,
    },
    /// Every so often after a relay sent something: it has sent `n`
    /// messages, so the receiver sees a loss even of the last ones.
    Mark { conn: u64, n: u64 },
    /// Table `table`'s frames for the receiving node's spectators of it,
    /// published once however many of them there are
    /// ([`crate::cluster::fan`]): each part's frames go to each of its
    /// connections. `fan` is drawn anew whenever a spectator of this node
    /// starts watching; `n` numbers its messages from 0, so the receiver
    /// sees any it missed; `prev`, in message 0, is the fan it follows
    /// and how many messages that one sent.
    Fan {
        table: TableId,
        fan: u64,
        n: u64,
        #[serde(default)]
        prev: Option<(u64, u64)>,
        parts: Vec<FanPart>,
    },
    /// Every so often after a fan sent something: it has sent `n`
    /// messages (as `Mark` for a relay), to the receiver's connections
    /// `to` (its spectators there now).
    FanMark {
        table: TableId,
        fan: u64,
        n: u64,
        #[serde(default)]
        to: Vec<u64>,
    },
    /// The host closed its relay of connection `conn`: close it with
    /// `code` (1012: reconnect, the game is elsewhere now).
    Close { conn: u64, n: u64, code: u16 },
    /// Connection `conn` at `from` ended: its relays go, and the tables
    /// where its session sits start the abandonment countdown.
    ConnGone { conn: u64 },
    /// A connection at `from` asks the rated matchmaker, which runs on the
    /// node holding the `matchmaker` lease.
    ToMatchmaker {
        conn: u64,
        session: RemoteSession,
        cmd: RemoteMatchCmd,
    },
    /// A connection at `from` asks the tournament director, which runs on
    /// the node holding the `tournaments` lease; the answer comes back as
    /// `Frames` from its relay there.
    ToDirector {
        conn: u64,
        session: RemoteSession,
        id: Option<tengen_protocol::RequestId>,
        msg: tengen_protocol::ClientMsg,
    },
    // --- one lobby across nodes (`crate::lobby::remote`) ---------------
    /// A connection at `from` asks something of a room this node's lobby
    /// holds; the answers come back as `Frames` from its relay here.
    ToLobby {
        conn: u64,
        session: RemoteSession,
        cmd: LobbyRemoteCmd,
    },
    /// What a node's lobby tells the others of its public rooms: on the
    /// lobby topic ([`LOBBY_TOPIC`]) to every node, or to one node.
    Lobby(LobbyNews),
    /// Are you there? (answered by `Pong` with the same `nonce`): a node
    /// asks before it sends a returning player's commands to the node
    /// running the player's table, which may have died a moment ago.
    Ping { nonce: u64 },
    /// The answer to `Ping`.
    Pong { nonce: u64 },
}

/// Frames of a [`Body::Fan`] for the receiver's connections `to` (one
/// part per encoding in use, or one connection's own replay).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FanPart {
    pub to: Vec<u64>,
    pub frames: Vec<WireFrame>,
}

/// What a connection asks of the matchmaker of another node.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum RemoteMatchCmd {
    /// Wait for a game of `config` (as `queue`), having waited `waited_ms`
    /// already (a queue entry sent again to a new matchmaker keeps its
    /// place in the widening curve).
    Queue {
        id: Option<RequestId>,
        config: GameConfig,
        account: String,
        rating: f64,
        waited_ms: u64,
        /// A bot, or whether a person takes one (absent from an older
        /// node: a person who does not).
        #[serde(default)]
        kind: QueueKind,
    },
    /// Leave the queue (`reply`: answer `unqueued`).
    Unqueue { id: Option<RequestId>, reply: bool },
}

/// Who waits in the rated queue, as the matchmaker pairs them: a bot
/// account, or a person who accepts a bot opponent or not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueueKind {
    pub bot: bool,
    /// A person's opt-in to bot opponents (ignored for a bot).
    pub accepts_bots: bool,
}

impl QueueKind {
    /// Whether these two may be paired: people with people, bots with
    /// bots, and a bot with a person only if the person said yes.
    pub fn pairs_with(self, other: QueueKind) -> bool {
        match (self.bot, other.bot) {
            (false, false) | (true, true) => true,
            (true, false) => other.accepts_bots,
            (false, true) => self.accepts_bots,
        }
    }
}

/// The table channel every node's lobby news goes on (table ids are
/// numbers, so it is no table's).
pub const LOBBY_TOPIC: &str = "lobby";

/// The lobby commands a connection can send for a room of another node.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum LobbyRemoteCmd {
    Join {
        id: Option<RequestId>,
        room: RoomId,
        /// The seats the session has at the sending node, counted there
        /// exactly as it sends: the room's node counts these instead of
        /// its news of the sender's rooms, which lag (a room just left
        /// there would still count). Absent from an older node.
        #[serde(default)]
        seated: Option<u32>,
    },
    Leave {
        id: Option<RequestId>,
        room: RoomId,
    },
    Cancel {
        id: Option<RequestId>,
        room: RoomId,
    },
    /// A moderator closes the room (`LobbyCmd::Close`).
    Close {
        id: Option<RequestId>,
        room: RoomId,
        reason: String,
    },
    /// `challenge` of `player`, online at the receiving node (its answer
    /// to [`LobbyNews::Find`]): the challenge room is made there, with
    /// the challenger seated through its relay (`crate::lobby::find`).
    Challenge {
        id: Option<RequestId>,
        player: String,
        config: GameConfig,
        chat: bool,
        rated: bool,
    },
}

impl LobbyRemoteCmd {
    pub fn id(&self) -> Option<RequestId> {
        match self {
            LobbyRemoteCmd::Join { id, .. }
            | LobbyRemoteCmd::Leave { id, .. }
            | LobbyRemoteCmd::Cancel { id, .. }
            | LobbyRemoteCmd::Close { id, .. }
            | LobbyRemoteCmd::Challenge { id, .. } => *id,
        }
    }

    /// The room the command is for (none for a challenge, which makes one).
    pub fn room(&self) -> Option<&RoomId> {
        match self {
            LobbyRemoteCmd::Join { room, .. }
            | LobbyRemoteCmd::Leave { room, .. }
            | LobbyRemoteCmd::Cancel { room, .. }
            | LobbyRemoteCmd::Close { room, .. } => Some(room),
            LobbyRemoteCmd::Challenge { .. } => None,
        }
    }
}

/// A room as nodes tell each other of it. Private rooms too (never
/// listed to clients, but joinable by id from any node).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SharedRoom {
    pub info: RoomInfo,
    pub public: bool,
    /// The sessions seated in it (connected to any node), so that every
    /// node counts a session's seats everywhere against its limit
    /// (absent from an older node: none).
    #[serde(default)]
    pub seats: Vec<SessionId>,
}

/// A node's lobby news. `epoch` is drawn when the node's lobby starts,
/// so a restarted node is told from its former self; `seq` numbers the
/// node's `Update`s from 1 within the epoch, so a receiver sees any it
/// missed (and asks for a `Sync`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum LobbyNews {
    /// The sender's rooms changed (coalesced): as they are now, or gone.
    Update {
        epoch: u64,
        seq: u64,
        rooms: Vec<SharedRoom>,
        removed: Vec<RoomId>,
    },
    /// Every few seconds: the sender lives; `seq` is its last `Update`.
    Alive { epoch: u64, seq: u64 },
    /// Send me all your rooms (on the lobby topic: everyone).
    Sync,
    /// The answer to `Sync`: the sender's rooms as of `seq`, in parts
    /// numbered from 0, the last one marked.
    Rooms {
        epoch: u64,
        seq: u64,
        part: u32,
        last: bool,
        rooms: Vec<SharedRoom>,
    },
    /// The sender stops: its rooms go now.
    Bye { epoch: u64 },
    /// Who is online as `name` at your node? (on the lobby topic; each
    /// node answers with `Found` to the sender, `nonce` repeated).
    Find { nonce: u64, name: String },
    /// The answer to `Find`: the player online here under that name
    /// (`None`: nobody).
    Found { nonce: u64, player: Option<Player> },
}

/// A session of another node, as a table needs it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RemoteSession {
    pub id: SessionId,
    pub player: Player,
    /// Its resume token's digest, so that a table started on another node
    /// keeps it (in the table's stored seats) for failover and resuming
    /// anywhere.
    #[serde(default)]
    pub token: String,
    /// Text (JSON) or binary (MessagePack) frames.
    pub binary: bool,
}

impl RemoteSession {
    pub fn encoding(&self) -> Encoding {
        if self.binary {
            Encoding::MsgPack
        } else {
            Encoding::Json
        }
    }
}

/// An encoded server frame, as a connection's writer takes it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum WireFrame {
    Text(String),
    Binary(Bytes),
}

impl From<Frame> for WireFrame {
    fn from(f: Frame) -> WireFrame {
        match f {
            Frame::Text(t) => WireFrame::Text(t.as_str().to_owned()),
            Frame::Binary(b) => WireFrame::Binary(b),
        }
    }
}

impl From<WireFrame> for Frame {
    fn from(f: WireFrame) -> Frame {
        match f {
            WireFrame::Text(t) => Frame::Text(t.into()),
            WireFrame::Binary(b) => Frame::Binary(b),
        }
    }
}

impl NodeMsg {
    pub fn encode(&self) -> Bytes {
        Bytes::from(rmp_serde::to_vec_named(self).expect("a node message always serializes"))
    }

    pub fn decode(bytes: &[u8]) -> Option<NodeMsg> {
        rmp_serde::from_slice(bytes).ok()
    }
}

/// Whether `frames` tell a waiting player the queue is over for them
/// (`matched`, or `unqueued`).
pub fn left_queue(frames: &[WireFrame], encoding: tengen_protocol::Encoding) -> bool {
    frames.iter().any(|f| {
        let bytes: &[u8] = match f {
            WireFrame::Text(t) => t.as_bytes(),
            WireFrame::Binary(b) => b,
        };
        tengen_protocol::decode_server(bytes, encoding).is_ok_and(|f| {
            matches!(
                f.msg,
                tengen_protocol::ServerMsg::Matched { .. } | tengen_protocol::ServerMsg::Unqueued
            )
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_messages_round_trip() {
        let msg = NodeMsg {
            from: "node-a".into(),
            body: Body::Frames {
                conn: 7,
                n: 3,
                frames: vec![
                    WireFrame::Text("{\"type\":\"pong\"}".into()),
                    WireFrame::Binary(Bytes::from_static(&[0x81, 0xa1, 0x74])),
                ],
            },
        };
        let back = NodeMsg::decode(&msg.encode()).expect("decodes");
        assert_eq!(back.from, "node-a");
        let Body::Frames { conn, n, frames } = back.body else {
            panic!("{back:?}")
        };
        assert_eq!((conn, n), (7, 3));
        assert!(matches!(&frames[0], WireFrame::Text(t) if t == "{\"type\":\"pong\"}"));
        assert!(matches!(&frames[1], WireFrame::Binary(b) if b[..] == [0x81, 0xa1, 0x74]));
        assert!(NodeMsg::decode(b"\xc1garbage").is_none());
    }

    #[test]
    fn lobby_news_round_trips() {
        let info = tengen_protocol::RoomInfo {
            room: RoomId::from_u64(9),
            name: Some("r".into()),
            config: tengen_rules::game::GameConfig::free(tengen_rules::game::RuleSet::Renju),
            players: Default::default(),
            status: tengen_protocol::RoomStatus::Waiting,
            table: None,
            spectators: 2,
            chat: false,
            rated: false,
        };
        let msg = NodeMsg {
            from: "node-b".into(),
            body: Body::Lobby(LobbyNews::Update {
                epoch: 5,
                seq: 7,
                rooms: vec![SharedRoom {
                    info: info.clone(),
                    public: false,
                    seats: vec![SessionId::from_u64(4)],
                }],
                removed: vec![RoomId::from_u64(3)],
            }),
        };
        let back = NodeMsg::decode(&msg.encode()).expect("decodes");
        let Body::Lobby(LobbyNews::Update {
            epoch,
            seq,
            rooms,
            removed,
        }) = back.body
        else {
            panic!("{back:?}")
        };
        assert_eq!((epoch, seq), (5, 7));
        assert_eq!(
            rooms,
            vec![SharedRoom {
                info,
                public: false,
                seats: vec![SessionId::from_u64(4)],
            }]
        );
        assert_eq!(removed, vec![RoomId::from_u64(3)]);
    }
}
