//! Tengen's durable state, behind one async interface.
//!
//! The server keeps everything that must survive a restart through
//! [`Store`]: the action log of every live table (so a restarted or
//! failed-over server resumes each game with no accepted move lost), the
//! finished games' records, and the accounts, login tokens and ratings.
//! The interface assumes nothing about where the data lives: the embedded
//! store (a redb file in the data directory, the default) and the Redis
//! store satisfy it alike, and both pass the one conformance suite in
//! `conformance` (built with the `testing` feature only: it is test code,
//! kept out of the production library).
//!
//! The store knows nothing of the rules: table metadata, log entries and
//! game records are opaque bytes the server encodes (JSON), and ratings are
//! plain numbers. Keys are strings (table, game and player ids). Player
//! names are matched case-insensitively: the store keys them by
//! [`name_key`]; accounts are also indexed by [`name_skeleton`], so that
//! a name made to look like an account's finds it.
//!
//! Every write is durable when its future resolves `Ok` (fsync'd, for the
//! embedded store; for the Redis store, as durable as that Redis's
//! append-only file makes it, see [`redis`]); the server tells no client
//! of an action before that.
//! A write that cannot be confirmed returns [`StoreError::Unavailable`] and
//! may or may not have happened; writes are conditional (an append names
//! the log length it expects) so that retrying one is safe.

mod api;
mod codec;
#[cfg(feature = "testing")]
pub mod conformance;
pub mod embedded;
pub mod migrate;
pub mod moderation;
pub mod names;
mod progress;
pub mod redis;
pub mod study;
#[cfg(feature = "testing")]
pub mod testing;
mod tokens;

pub use api::{
    Account, Acquired, AuthToken, Backup, BackupError, ExportCursor, ExportPage, FinishedGame,
    GameRef, HistoryPoint, Item, Lease, LiveTable, MetaUpgrade, Rating, RatingUpdate, Result,
    Store, StoreError, StudyPage, name_key,
};
pub use embedded::EmbeddedStore;
pub use moderation::{AddressBan, AuditEntry, Playban, Report, ReportClosed, Sanction, Standing};
pub use names::{SKELETON_VERSION, name_skeleton};
pub use progress::Progress;
pub use redis::{RedisOptions, RedisStore};
pub use study::{CountAdd, Doc, DocPut, Fields, ListPush, ScorePut, StudyItem, Tally};
pub use tokens::{is_digest, token_digest};
