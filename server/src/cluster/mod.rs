//! Several server nodes sharing one Redis.
//!
//! A table is owned by one node; players and spectators may be connected
//! to any node. What the nodes say to each other travels over Redis
//! pub/sub through the [`bus`]: commands to a table's owner, and a table's
//! answers and events for a connection of another node (through that
//! connection's relay at the owner, numbered per connection), on per-node
//! channels; what a table sends all its spectators goes once to each node
//! that has some ([`fan`]); the lobby's news on the `lobby` topic. The bus carries opaque
//! bytes; [`wire`] says what they mean.
//!
//! The lobby is one across nodes: each node's lobby publishes its rooms'
//! changes on the bus's lobby topic ([`wire::LOBBY_TOPIC`]) through the node actor, numbered,
//! with heartbeats, and merges the other nodes' rooms into what its
//! watchers see; a gap, a new node or a bus reconnect asks for a full
//! list, and a node silent for twice the lease time loses its rooms.
//! Joining (or leaving) another node's room goes to that node like a
//! table command, through the connection's relay there
//! (`crate::lobby::remote`), and so does a challenge of a player found
//! online there (`crate::lobby::find`); shared rooms carry their seated
//! sessions, so seat limits count every node's rooms.

pub mod bus;
pub mod fan;
pub mod leases;
pub mod node;
pub mod wire;
