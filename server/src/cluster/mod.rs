//! Several server nodes sharing one Redis.
//!
//! A table is owned by one node; players and spectators may be connected
//! to any node. What the nodes say to each other travels over Redis
//! pub/sub through the [`bus`]: commands to a table's owner and replies to
//! a connection's node on per-node channels, a table's events to every
//! node with watchers on per-table channels. The messages themselves are
//! opaque bytes here; the server defines what they mean.
//!
//! The lobby is one across nodes: each node's lobby publishes its rooms'
//! changes on the bus's lobby channel ([`wire::LOBBY_CHANNEL`]), numbered,
//! with heartbeats, and merges the other nodes' rooms into what its
//! watchers see; a gap, a new node or a bus reconnect asks for a full
//! list, and a node silent for twice the lease time loses its rooms.
//! Joining (or leaving) another node's room goes to that node like a
//! table command, through the connection's relay there
//! (`crate::lobby::remote`).

pub mod bus;
pub mod leases;
pub mod node;
pub mod wire;
