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
use tengen_protocol::{Encoding, Player, RequestId, SessionId, TableId};
use tengen_rules::game::{Action, GameConfig};

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
        cmd: RemoteCmd,
    },
    /// Frames for connection `conn` of the receiving node, from the table
    /// host's relay of it. `n` numbers the relay's messages from 0, so the
    /// receiver sees any it missed.
    Frames {
        conn: u64,
        n: u64,
        frames: Vec<WireFrame>,
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
    },
    /// Leave the queue (`reply`: answer `unqueued`).
    Unqueue { id: Option<RequestId>, reply: bool },
}

/// A session of another node, as a table needs it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RemoteSession {
    pub id: SessionId,
    pub player: Player,
    /// Its resume token, so that a table started on another node keeps it
    /// (in the table's stored seats) for failover and resuming anywhere.
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

/// The table commands a connection can send (`crate::table::TableCmd`
/// without the local parts: outboxes and instants).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum RemoteCmd {
    Watch {
        id: Option<RequestId>,
        since: Option<u64>,
    },
    Unwatch {
        id: Option<RequestId>,
    },
    Act {
        id: Option<RequestId>,
        action: Action,
    },
    Snapshot {
        id: Option<RequestId>,
    },
    Chat {
        id: Option<RequestId>,
        text: String,
    },
    Rematch {
        id: Option<RequestId>,
    },
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
}
