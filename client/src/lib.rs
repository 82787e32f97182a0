//! The Tengen client library.
//!
//! Used by the terminal client, the load generator and the tests:
//! [`conn`], a connection (handshake, requests matched to replies, pushes in
//! order); [`session`], a session over as many connections as it takes
//! (reconnects by itself, resumes, delivers every table event once);
//! [`view`], a table's state built only from the server's snapshot and
//! events (no rule logic of its own); [`bot`], the quick bot;
//! [`piskvork`], the Gomocup engines' text protocol; [`pbrain`], the bot as
//! such an engine; [`engine`], a bridge playing games with one; [`player`],
//! the built-in bot's levels ([`tengen_bot`]) at a table.

pub mod bot;
pub mod conn;
pub mod engine;
pub mod follow;
pub mod pace;
pub mod pbrain;
pub mod piskvork;
pub mod player;
pub mod session;
pub mod view;

pub use conn::{ClientError, Connection, Identity};
pub use session::{Delivery, Session, SessionError};
