//! The Tengen client library.
//!
//! Used by the terminal client, the load generator and the tests. Today it
//! holds the quick bot ([`bot`]); the connection, request/reply matching and
//! the game state built from server events join it with the protocol crate.

pub mod bot;
pub mod view;
