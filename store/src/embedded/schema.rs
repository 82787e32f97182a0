//! The embedded store's tables, value encoding and error mapping (the
//! layout is described in the [module documentation](super)).

use redb::TableDefinition;
use serde::{Deserialize, Serialize};

use crate::StoreError;

/// `schema_version` → the layout version ([`super::SCHEMA_VERSION`]).
pub(super) const META: TableDefinition<&str, u32> = TableDefinition::new("meta");
pub(super) const SCHEMA_VERSION_KEY: &str = "schema_version";

/// Counters: [`NEXT_SEQ`], [`ORPHANS`], [`GC_CURSOR`].
pub(super) const COUNTERS: TableDefinition<&str, u64> = TableDefinition::new("counters");
/// The next log sequence number (also the source of table generations).
pub(super) const NEXT_SEQ: &str = "next_seq";
/// How many log entries belong to no live table (awaiting collection).
pub(super) const ORPHANS: &str = "orphans";
/// Where the next garbage-collection step starts in the log.
pub(super) const GC_CURSOR: &str = "gc_cursor";

/// Live table id → (generation, log length). A table is live iff it is
/// here; its generation is a sequence number taken when it was created,
/// so that a discarded table's entries never count for a new table with
/// the same id.
pub(super) const LIVE: TableDefinition<&str, (u64, u64)> = TableDefinition::new("live");
/// Live table id → its metadata (opaque bytes).
pub(super) const LIVE_META: TableDefinition<&str, &[u8]> = TableDefinition::new("live_meta");
/// Sequence number → (generation, index in its table's log, entry). The
/// sequence grows with every append, so a group of appends to many tables
/// lands on a few pages at the end of the tree instead of one page per
/// table.
pub(super) const LIVE_LOG: TableDefinition<u64, (u64, u64, &[u8])> =
    TableDefinition::new("live_log");

/// Finished game id → [`GameInfo`] (encoded).
pub(super) const GAME_INFO: TableDefinition<&str, &[u8]> = TableDefinition::new("game_info");
/// Finished game id → its record (opaque bytes).
pub(super) const GAME_RECORD: TableDefinition<&str, &[u8]> = TableDefinition::new("game_record");
/// (name_key(player), finished_ms, game id) → the game's players (encoded
/// `Vec<String>`), so a history page needs no second lookup.
pub(super) const GAMES_BY_PLAYER: TableDefinition<(&str, u64, &str), &[u8]> =
    TableDefinition::new("games_by_player");

/// name_key(account name) → [`crate::Account`] (encoded).
pub(super) const ACCOUNTS: TableDefinition<&str, &[u8]> = TableDefinition::new("accounts");
/// A token's digest → [`crate::AuthToken`] (encoded, its `token` the
/// digest too).
pub(super) const TOKENS: TableDefinition<&str, &[u8]> = TableDefinition::new("tokens");

/// (family, name_key(player)) → [`crate::Rating`] (encoded).
pub(super) const RATINGS: TableDefinition<(&str, &str), &[u8]> = TableDefinition::new("ratings");
/// (name_key(player), family, seq) → [`crate::HistoryPoint`] (encoded);
/// seq counts from 0 per player and family.
pub(super) const RATING_HISTORY: TableDefinition<(&str, &str, u64), &[u8]> =
    TableDefinition::new("rating_history");

/// (name_skeleton(name), name_key(name)) of every account: the accounts
/// by what their names look like (`skeletons`).
pub(super) const NAME_SKELETONS: TableDefinition<(&str, &str), ()> =
    TableDefinition::new("name_skeletons");

/// Moderation, one table of prefixed keys (`embedded::moderation`):
/// `s/NAME` a standing, `a/SEQ` (20 digits) an audit entry, `r/ID` a
/// report, `n/RANGE` an address ban; values encoded.
pub(super) const MODERATION: TableDefinition<&str, &[u8]> = TableDefinition::new("moderation");

/// A finished game's header: everything but the record.
#[derive(Serialize, Deserialize)]
pub(super) struct GameInfo {
    pub finished_ms: u64,
    pub players: Vec<String>,
}

/// The smallest string greater than every string that equals `s`, for
/// range bounds over tuple keys whose first element is `s`:
/// `(s, ..)` ≤ key < `(after(s), ..)` selects exactly the keys starting
/// with element `s`.
pub(super) fn after(s: &str) -> String {
    let mut next = String::with_capacity(s.len() + 1);
    next.push_str(s);
    next.push('\0');
    next
}

pub(super) use crate::codec::{decode, encode};

/// Maps any redb error to a store error: damage is [`StoreError::Corrupt`],
/// everything else [`StoreError::Unavailable`] (the operation may be
/// retried).
pub(super) fn db_error(e: impl Into<redb::Error>) -> StoreError {
    let e: redb::Error = e.into();
    match e {
        redb::Error::Corrupted(m) => StoreError::Corrupt(m),
        redb::Error::TableTypeMismatch { .. } => StoreError::Corrupt(e.to_string()),
        e => StoreError::Unavailable(e.to_string()),
    }
}

/// The layout version this build reads and writes: 2 keeps tokens as
/// their digests (`crate::token_digest`) and indexes the accounts by
/// their names' skeleton (`name_skeletons`). A store of version 1 (tokens
/// as they are, with or without that index) is brought up to date at
/// open (`upgrade`, then `skeletons`).
pub const SCHEMA_VERSION: u32 = 2;
/// The earlier layout this build brings up to date at open (`upgrade`).
pub(super) const UPGRADABLE: u32 = 1;

/// The database file's name inside the data directory.
pub const DB_FILE: &str = "tengen.redb";

/// The live log's size (see the layout in the [module documentation](self)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LogStats {
    /// Entries in the log, orphans included.
    pub entries: u64,
    /// Entries of finished or discarded tables, not yet collected.
    pub orphans: u64,
}

/// Why a request was not applied.
pub(super) enum Failure {
    /// Its precondition failed; it wrote nothing, the batch goes on.
    Refused(StoreError),
    /// redb failed; the transaction cannot be trusted and is dropped.
    Fatal(StoreError),
}

pub(super) fn fatal(e: impl Into<redb::Error>) -> Failure {
    Failure::Fatal(db_error(e))
}

impl Failure {
    pub(super) fn fatal(e: impl Into<redb::Error>) -> Failure {
        fatal(e)
    }
}

pub(super) type Applied = std::result::Result<(), Failure>;
