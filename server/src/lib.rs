//! The Tengen server.
//!
//! One process serves the WebSocket endpoint (`/ws`), `/healthz` and
//! `/metrics` on one port. Inside, state has one owner each and owners talk
//! by message (ARCHITECTURE.md, "Invariants"): a *connection* task per socket reads, decodes,
//! rate-limits and routes; the *lobby* actor owns the rooms; a *table* actor
//! per game owns the referee's `Game` and its clocks and fans its events out.
//! Nothing holds a lock across an await, and every queue is bounded.
//!
//! Durable state goes through one [`Store`](tengen_store::Store): the embedded store in the
//! data directory by default, or the Redis store ([`Settings::redis`];
//! then the data directory holds nothing that matters). At start the server restores every live game
//! from it ([`table::restore::restore_all`]); every accepted action is in the store
//! before anyone hears of it. Each table holds a lease in the store while
//! it runs, and on a shared store (Redis) a node takes over the tables of
//! a node that died ([`table::restore::take_over`]).
//!
//! [`Server::start`] runs it in-process (the binary and the tests both use
//! it); `listen 127.0.0.1:0` picks a free port, and [`Server::addr`] says
//! which. [`Server::shutdown`] is the graceful stop: `/healthz` answers 503,
//! connections close with 1012 (restarting), the listener closes after the
//! drain delay.

// This library is the server binary's insides; its documentation is for the
// people who work on it, and its module docs link to private items on purpose.
// Read it with `cargo doc -p tengen-server --document-private-items`.
#![allow(rustdoc::private_intra_doc_links)]

pub mod accounts;
pub mod addresses;
pub mod admission;
pub mod analysis;
pub mod app;
pub mod attempts;
pub mod backup;
pub mod bot_filters;
pub mod cidr;
pub mod cluster;
pub mod computer;
pub mod conn;
pub mod gate;
pub mod health;
pub mod hosting;
pub mod http;
pub mod keeper;
pub mod lag;
pub mod lobby;
pub mod logging;
pub mod mailbox;
pub mod matchmaker;
pub mod metrics;
pub mod moderation;
pub mod msg;
pub mod names;
pub mod outbound;
pub mod pacing;
pub mod pressure;
pub mod ratings;
pub mod records;
pub mod sessions;
pub mod settings;
pub mod signout;
pub mod start;
pub mod study;
pub mod table;
pub mod takeovers;
pub mod tournaments;
pub mod web;

pub use app::AppState;
pub use settings::{RedisSettings, Settings};
pub use start::{Server, StartError, open_redis};
