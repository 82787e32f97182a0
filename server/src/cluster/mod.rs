//! Several server nodes sharing one Redis (issue 12).
//!
//! A table is owned by one node; players and spectators may be connected
//! to any node. What the nodes say to each other travels over Redis
//! pub/sub through the [`bus`]: commands to a table's owner and replies to
//! a connection's node on per-node channels, a table's events to every
//! node with watchers on per-table channels. The messages themselves are
//! opaque bytes here; the server defines what they mean.

pub mod bus;
