//! The interface every store implements ([`Store`]), what it stores, and
//! how it fails.

use std::time::Duration;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use crate::moderation::{AddressBan, AuditEntry, Report, Standing};
use crate::study::{Doc, DocPut, ScorePut, StudyItem, Tally};

/// What a store operation can fail with.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The store cannot confirm the operation now (I/O error, lost
    /// connection, timeout). A write may or may not have happened.
    #[error("the store is unavailable: {0}")]
    Unavailable(String),
    /// A conditional write found another state than it expected (an append
    /// at the wrong log length, a rating updated meanwhile). Nothing was
    /// written.
    #[error("conflict: {0}")]
    Conflict(String),
    /// The key is taken (an account name, a table id, a finished game id).
    #[error("already exists: {0}")]
    Exists(String),
    /// No such table, account or token.
    #[error("not found: {0}")]
    NotFound(String),
    /// The stored data cannot be read (damaged file, bad encoding). The
    /// store never overwrites it.
    #[error("the stored data is unreadable: {0}")]
    Corrupt(String),
    /// The data was written by another schema version than this build
    /// reads.
    /// The store was given a configuration it cannot use (a malformed
    /// Redis URL, an empty key prefix).
    #[error("invalid store configuration: {0}")]
    Invalid(String),
    #[error(
        "the data has schema version {found}, but this build reads version {supported}; use a build that matches, or another data directory"
    )]
    Version { found: u32, supported: u32 },
    /// A leased write ([`Store::append_leased`], [`Store::renew_lease`])
    /// by a node that does not hold the table's lease (any more): it
    /// lapsed, or another node took it. Nothing was written.
    #[error("lease lost: {0}")]
    LeaseLost(String),
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// Why a backup was refused or failed. A refused one created nothing.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("{0} already exists; a backup goes into a new directory")]
    Exists(std::path::PathBuf),
    #[error(
        "{dest} is inside the store's own directory {dir}; put the backup elsewhere (another disk, ideally)"
    )]
    InsideStore {
        dest: std::path::PathBuf,
        dir: std::path::PathBuf,
    },
    #[error("{0}: its parent directory does not exist")]
    NoParent(std::path::PathBuf),
    #[error("a backup is already being taken; try again when it has finished")]
    Busy,
    #[error(
        "{0} is not backed up by the server: back it up with its own means (see the operator's guide)"
    )]
    Unsupported(String),
    #[error("the backup into {dest} failed (nothing was left there): {source}")]
    Failed {
        dest: std::path::PathBuf,
        #[source]
        source: StoreError,
    },
}

/// What a backup copied.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Backup {
    /// The new data directory.
    pub dest: std::path::PathBuf,
    /// Finished games in it.
    pub finished_games: u64,
    /// Live tables in it (as they were at the snapshot).
    pub live_tables: u64,
    /// Rows of every table, and the key and value bytes they hold.
    pub rows: u64,
    pub bytes: u64,
    /// From the request to the renamed directory.
    pub took_ms: u64,
}

/// The key a player name is stored under: names are unique regardless of
/// case (`Ann` and `ann` are one player).
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

/// Rewrites a live table's metadata (opaque to the store) into the form
/// the current server keeps, or gives `None` when it already is. The
/// server gives it at open, and a store that an earlier version wrote
/// applies it to every live table when it brings its layout up to date
/// (the server's turns the resume tokens in the metadata into digests).
pub type MetaUpgrade = fn(&[u8]) -> Option<Vec<u8>>;

/// A live table as stored: its metadata and its action log, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveTable {
    pub id: String,
    #[serde(with = "serde_bytes")]
    pub meta: Vec<u8>,
    #[serde(with = "crate::codec::byte_lists")]
    pub entries: Vec<Vec<u8>>,
}

/// A finished game, written once when the game ends, together with the
/// rating changes it causes (none for unrated or aborted games).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FinishedGame {
    /// The game's id (the table's id).
    pub id: String,
    /// The players' names, indexed for their game history.
    pub players: Vec<String>,
    /// When it ended, in Unix milliseconds.
    pub finished_ms: u64,
    /// The full game record (the server's encoding).
    #[serde(with = "serde_bytes")]
    pub record: Vec<u8>,
    /// The rating changes, applied in the same atomic write.
    pub ratings: Vec<RatingUpdate>,
}

/// One game in a player's history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRef {
    pub id: String,
    pub finished_ms: u64,
    pub players: Vec<String>,
}

/// A registered account.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Account {
    /// The name as registered (case kept for display).
    pub name: String,
    /// The argon2id hash in PHC string form.
    pub password_hash: String,
    pub created_ms: u64,
    /// A bot account: chosen by its owner before its first game, never
    /// undone ([`Store::make_bot`]). Absent in accounts stored before
    /// bots existed, which are people's.
    #[serde(default)]
    pub bot: bool,
    /// A bot account's challenge filters as its owner last set them (the
    /// server's JSON text, opaque to the store; [`Store::set_bot_filters`]).
    /// Absent: none set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_filters: Option<String>,
}

/// A login token: a 128-bit random value (hex), valid until `expires_ms`
/// unless revoked. Stores keep only its digest ([`crate::token_digest`]):
/// [`Store::token`] gives back the token it was asked with, and an export
/// gives the digest in `token` (which an import keeps as it is).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuthToken {
    pub token: String,
    /// The account's name as registered.
    pub account: String,
    pub expires_ms: u64,
}

/// A player's Glicko-2 rating in one rule family, with the counts the
/// provisional and inactive rules need.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The player's name as registered.
    pub player: String,
    /// The rule family (`renju`, `gomoku`, `freestyle`, ...).
    pub family: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games played, and their outcomes.
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Distinct rated opponents (names), for the provisional rule.
    pub opponents: Vec<String>,
    /// When the latest rated games ended (Unix ms, newest last, at most
    /// the last 7), for the inactive rule.
    pub recent_ms: Vec<u64>,
}

/// One point of a player's rating history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryPoint {
    pub game: String,
    pub at_ms: u64,
    pub opponent: String,
    /// 1 win, 0.5 draw, 0 loss.
    pub score: f64,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

/// A rating change: the new state and its history point, applied only if
/// the stored rating still has `expected_games` games (0 when the player
/// had no rating in the family), else [`StoreError::Conflict`] and the
/// whole write is refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingUpdate {
    pub expected_games: u32,
    pub rating: Rating,
    pub history: HistoryPoint,
}

/// One piece of a store's content, as [`Store::export`] gives it and
/// [`Store::import`] takes it: what moving a community from one store to
/// another carries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Item {
    Account(Account),
    Token(AuthToken),
    /// A rating with the player's whole history in its family, oldest
    /// first.
    Rating {
        rating: Rating,
        history: Vec<HistoryPoint>,
    },
    /// A finished game (its `ratings` are empty: they live in the
    /// [`Item::Rating`]s).
    Game(FinishedGame),
    /// A live table with its whole log.
    Live(LiveTable),
}

/// Where an export goes on: opaque, valid for the store that gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportCursor(pub String);

/// A page of an export.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportPage {
    pub items: Vec<Item>,
    /// Where the next page starts; `None` when the export is complete.
    pub next: Option<ExportCursor>,
}

/// A page of [`Store::export_study`].
#[derive(Clone, Debug, PartialEq)]
pub struct StudyPage {
    pub items: Vec<StudyItem>,
    /// Where the next page starts; `None` once the export is complete.
    pub next: Option<ExportCursor>,
}

/// A node's hold on a live table: only the holder may append to its log
/// (see [`Store::acquire_lease`]). Epochs of one table only grow, so a
/// lease taken after another never equals it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lease {
    pub node: String,
    pub epoch: u64,
}

/// What [`Store::acquire_lease`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Acquired {
    /// The lease is the caller's now, with this epoch.
    Ours(Lease),
    /// Someone (perhaps the caller, under an older epoch) holds it still.
    Held(Lease),
}

/// The durable state of a Tengen server. See the crate documentation.
#[async_trait]
pub trait Store: Send + Sync + 'static {
    /// What this store is, for logs (`embedded store at tengen-data`).
    fn describe(&self) -> String;

    /// Succeeds when the store can confirm writes now (a write of its
    /// own: the embedded store commits, the Redis store sets a key).
    async fn ping(&self) -> Result<()>;

    /// Why the store refuses writes now, when it knows without asking
    /// (the embedded store after an I/O error, until it has opened its
    /// files again); `None` otherwise (ask [`Store::ping`]).
    fn refusing(&self) -> Option<String> {
        None
    }

    /// When the store last completed a write (any caller's), or `None` if
    /// it cannot say. A caller whose own write is late keeps waiting while
    /// this is recent: the store is behind, not down (see
    /// [`crate::Progress`]).
    fn last_progress(&self) -> Option<std::time::Instant> {
        None
    }

    /// Copies the whole store, consistently, into the new directory
    /// `dest` while it serves (the embedded store: see
    /// [`crate::embedded::backup`]); a store kept by another program
    /// (Redis) is backed up by that program's own means
    /// ([`BackupError::Unsupported`]).
    async fn backup(&self, dest: &std::path::Path) -> std::result::Result<Backup, BackupError> {
        let _ = dest;
        Err(BackupError::Unsupported(self.describe()))
    }

    // --- live tables -------------------------------------------------

    /// Creates a live table with its metadata and an empty log
    /// ([`StoreError::Exists`] if the id is live or finished; a discarded
    /// table's id is free again).
    async fn create_table(&self, id: &str, meta: &[u8]) -> Result<()>;

    /// Appends `entries` to table `id`'s log, whose length must be `at`
    /// ([`StoreError::Conflict`] otherwise, nothing written;
    /// [`StoreError::NotFound`] if no such live table). Appending entries
    /// that are already there (same `at`, same bytes) is a conflict too:
    /// the caller knows what it wrote. Appending no entries at the right
    /// length succeeds and changes nothing.
    async fn append(&self, id: &str, at: u64, entries: &[Vec<u8>]) -> Result<()>;

    /// Every live table with its whole log (at start, to restore them).
    async fn live_tables(&self) -> Result<Vec<LiveTable>>;

    /// One live table with its whole log, if it is live (to learn what an
    /// append whose answer was lost actually wrote).
    async fn live_table(&self, id: &str) -> Result<Option<LiveTable>>;

    /// Forgets a live table without a record (a table whose game never
    /// started). Forgetting an unknown table is not an error.
    async fn discard_table(&self, id: &str) -> Result<()>;

    /// Ends a game in one atomic write: stores its record, indexes it for
    /// each player, applies its rating updates (each conditional, see
    /// [`RatingUpdate`]) with their history points, and removes the live
    /// table `game.id` if there is one (a game with no live table is
    /// fine). [`StoreError::Exists`] if a game with this id is already
    /// finished. Any refusal writes nothing. (The Redis store writes it
    /// in single-slot steps that only go forward: the outcome is all or
    /// nothing, but a reader may see part of a finish in flight; see
    /// *Atomicity* in [`redis`].)
    async fn finish_game(&self, game: &FinishedGame) -> Result<()>;

    /// A finished game (without its rating updates), if there is one.
    async fn game(&self, id: &str) -> Result<Option<FinishedGame>>;

    /// A player's finished games, newest first: at most `limit`, ending
    /// strictly before `before_ms` when given (for paging).
    async fn games_of(
        &self,
        player: &str,
        before_ms: Option<u64>,
        limit: usize,
    ) -> Result<Vec<GameRef>>;

    // --- leases (several nodes) ---------------------------------------

    /// Takes table `id`'s lease for `node` for `ttl`, if nobody holds it
    /// (never taken, released, or lapsed) or `node` itself does (a node
    /// restarted under the same name takes its tables back at once), with
    /// a new epoch greater than every earlier one of the table, so that an
    /// earlier holder can write no more; otherwise answers who holds it.
    /// Node names must be unique among the running nodes.
    /// The table need not be live yet: a node takes the lease *before* it
    /// creates the table, so no other node ever sees it unleased.
    async fn acquire_lease(&self, id: &str, node: &str, ttl: Duration) -> Result<Acquired>;

    /// Extends `lease` to `ttl` from now; [`StoreError::LeaseLost`] if
    /// another node took the table since (or the lease was released). A
    /// lease that lapsed while nobody took it is the holder's again: a node
    /// that was merely slow loses a table only to a node that took it.
    async fn renew_lease(&self, id: &str, lease: &Lease, ttl: Duration) -> Result<()>;

    /// [`Store::renew_lease`] for many tables in one call (one round trip
    /// to Redis): for each, whether it is still held (false: taken by
    /// another node or released). An error means none was renewed.
    async fn renew_leases(&self, leases: &[(String, Lease)], ttl: Duration) -> Result<Vec<bool>> {
        let mut held = Vec::with_capacity(leases.len());
        for (id, lease) in leases {
            held.push(match self.renew_lease(id, lease, ttl).await {
                Ok(()) => true,
                Err(StoreError::LeaseLost(_)) => false,
                Err(e) => return Err(e),
            });
        }
        Ok(held)
    }

    /// Gives `lease` up at once (nothing happens if it is not held).
    async fn release_lease(&self, id: &str, lease: &Lease) -> Result<()>;

    /// Who holds table `id`'s lease now.
    async fn lease(&self, id: &str) -> Result<Option<Lease>>;

    /// [`Store::append`], only while `lease` is held (or lapsed with no
    /// other node having taken the table since, as for
    /// [`Store::renew_lease`]): [`StoreError::LeaseLost`] otherwise, and
    /// nothing written. The check and the write are one atomic step, so a
    /// node that lost the lease can never write, however late its append
    /// arrives.
    async fn append_leased(
        &self,
        id: &str,
        lease: &Lease,
        at: u64,
        entries: &[Vec<u8>],
    ) -> Result<()>;

    /// The ids of live tables nobody holds a lease on: the tables a node
    /// that died left behind, for another node to take over.
    async fn unleased_tables(&self) -> Result<Vec<String>>;

    /// Notes that the session with resume token `token` sits at live
    /// table `id` (`token` may be given as its digest; either way the
    /// store keeps the digest), so that a node that takes the table over can tell a
    /// player's reconnection to it apart from a stranger's (the table's
    /// metadata holds the tokens too, but cannot be looked up by token).
    /// Kept at least a week; a token's entries may outlive their tables.
    async fn index_seat(&self, token: &str, id: &str) -> Result<()>;

    /// The tables [`Store::index_seat`] noted for `token` (live or not).
    async fn seat_tables(&self, token: &str) -> Result<Vec<String>>;

    // --- accounts ----------------------------------------------------

    /// Registers an account ([`StoreError::Exists`] if the name, in any
    /// case, is taken).
    async fn create_account(&self, account: &Account) -> Result<()>;

    /// The account under `name` (any case).
    async fn account(&self, name: &str) -> Result<Option<Account>>;

    /// The names (as registered) of the accounts whose
    /// [`crate::name_skeleton`] is that of `name`: the accounts a reader
    /// could take `name` for (the account `name` itself among them, if it
    /// is registered), in name order.
    async fn accounts_like(&self, name: &str) -> Result<Vec<String>>;

    /// The groups of accounts whose names share a skeleton (registered
    /// before the server compared them, or at the same moment): each group
    /// two or more names in name order, the groups in skeleton order, at
    /// most `limit` groups.
    async fn lookalike_accounts(&self, limit: usize) -> Result<Vec<Vec<String>>>;

    /// Makes the account under `name` (any case) a bot account, for good:
    /// [`StoreError::NotFound`] if there is no such account,
    /// [`StoreError::Conflict`] if a finished game of that name is stored
    /// (a player who has played stays a person). Making a bot a bot again
    /// is fine. The embedded store checks and writes in one transaction;
    /// the Redis store reads the game index first, then swaps the account
    /// only if it is unchanged (a game finishing between the two is not
    /// seen, so the server also refuses an account seated at a table).
    async fn make_bot(&self, name: &str) -> Result<()>;

    /// Keeps `filters` (opaque text) as the bot account `name`'s (any
    /// case) challenge filters, replacing earlier ones:
    /// [`StoreError::NotFound`] if there is no such account,
    /// [`StoreError::Conflict`] if it is not a bot. A refusal changes
    /// nothing.
    async fn set_bot_filters(&self, name: &str, filters: &str) -> Result<()>;

    /// Stores a login token (replacing one with the same value).
    async fn put_token(&self, token: &AuthToken) -> Result<()>;

    /// A stored token (expired ones too: the caller checks the expiry).
    async fn token(&self, token: &str) -> Result<Option<AuthToken>>;

    /// Revokes a token; revoking an unknown one is not an error.
    async fn revoke_token(&self, token: &str) -> Result<()>;

    // --- ratings -----------------------------------------------------

    /// A player's rating in a family, if they have one.
    async fn rating(&self, player: &str, family: &str) -> Result<Option<Rating>>;

    /// Every rating of a family (the leaderboard's input), in no order.
    async fn ratings(&self, family: &str) -> Result<Vec<Rating>>;

    /// A player's rating history in a family, oldest first.
    async fn rating_history(&self, player: &str, family: &str) -> Result<Vec<HistoryPoint>>;

    // --- moderation (`crate::moderation`) -----------------------------

    /// The standing of the account `name` (any case), if one was written.
    async fn standing(&self, name: &str) -> Result<Option<Standing>>;

    /// Writes a standing if the stored one still has `standing.version`
    /// (0: none stored), storing it with the version one higher;
    /// [`StoreError::Conflict`] otherwise, and nothing written.
    async fn put_standing(&self, standing: &Standing) -> Result<()>;

    /// Appends to the audit log (which is never rewritten).
    async fn append_audit(&self, entry: &AuditEntry) -> Result<()>;

    /// The audit log's latest `limit` entries, newest first.
    async fn audit_log(&self, limit: usize) -> Result<Vec<AuditEntry>>;

    /// Stores a report (replacing one with the same id: how it is closed).
    async fn put_report(&self, report: &Report) -> Result<()>;

    /// Every stored report, in no order.
    async fn reports(&self) -> Result<Vec<Report>>;

    /// Bans an address range (replacing a ban of the same range).
    async fn put_address_ban(&self, ban: &AddressBan) -> Result<()>;

    /// Lifts the ban of a range; lifting an unknown one is not an error.
    async fn remove_address_ban(&self, range: &str) -> Result<()>;

    /// Every banned range.
    async fn address_bans(&self) -> Result<Vec<AddressBan>>;

    // --- moving a community between stores ----------------------------

    /// A page of the store's whole content: accounts, tokens, ratings
    /// with their histories, finished games and live tables, in that
    /// order. Start with `from: None` and pass each page's `next` until it
    /// is `None`. `limit` bounds the items of a page roughly (a page may
    /// hold a few more, or none while `next` is still given), so an export
    /// never holds the whole store in memory. An item may come twice
    /// (the Redis store's scans promise only that nothing is missed);
    /// writes made during an export may or may not be in it.
    async fn export(&self, from: Option<&ExportCursor>, limit: usize) -> Result<ExportPage>;

    /// Puts `items` into the store as they are, each replacing whatever
    /// the store holds under the same key (an account, token, rating and
    /// its history, game, or live table with its log), so importing the
    /// same items twice changes nothing. No refusal applies (no `Exists`
    /// or `Conflict`): this is for migration, not for serving. A finished
    /// game is indexed for its players' histories; a live table's id must
    /// not be a finished game's.
    async fn import(&self, items: &[Item]) -> Result<()>;

    // --- tournaments ----------------------------------------------------

    /// Stores tournament `id`'s whole state (opaque bytes: the server's
    /// serde value of the event), replacing what was stored under `id`.
    /// One atomic, durable write: a reader sees the old state or the new.
    async fn put_tournament(&self, id: &str, state: &[u8]) -> Result<()>;

    /// Tournament `id`'s state as last stored, if any.
    async fn tournament(&self, id: &str) -> Result<Option<Vec<u8>>>;

    /// Every stored tournament as (id, state), in id order (at start, to
    /// run them again; the server bounds how many it keeps).
    async fn tournaments(&self) -> Result<Vec<(String, Vec<u8>)>>;

    // --- tallies and documents (`crate::study`) -------------------------

    /// Applies `tally` in `space` in one atomic, durable write, unless a
    /// tally with its token was applied there before: `true` when applied
    /// now, `false` when it had been (nothing changes). Its counters are
    /// added to, its lists pushed to and each cut to `keep` items.
    async fn tally(&self, space: &str, tally: &Tally) -> Result<bool>;

    /// The counters of each key, `(field, values)` in field order (empty
    /// for a key with none), in the order of `keys`.
    async fn tallies(&self, space: &str, keys: &[Vec<u8>]) -> Result<Vec<crate::study::Fields>>;

    /// The list of each key, newest first (empty for a key with none), in
    /// the order of `keys`.
    async fn lists(&self, space: &str, keys: &[Vec<u8>]) -> Result<Vec<Vec<Vec<u8>>>>;

    /// Writes `docs` and `scores` in `space` in one atomic, durable write,
    /// each document only if its stored version is the one it expects:
    /// [`StoreError::Conflict`] otherwise, and nothing is written. Each
    /// document written has its version raised by one. A key named twice
    /// is refused as [`StoreError::Invalid`].
    async fn put_docs(&self, space: &str, docs: &[DocPut], scores: &[ScorePut]) -> Result<()>;

    /// Each key's document, in the order of `keys`.
    async fn docs(&self, space: &str, keys: &[String]) -> Result<Vec<Option<Doc>>>;

    /// The members of `space`'s scored index `index` whose score is in
    /// `min..=max`, by score then member, at most `limit`.
    async fn scored(
        &self,
        space: &str,
        index: &str,
        min: i64,
        max: i64,
        limit: usize,
    ) -> Result<Vec<(String, i64)>>;

    /// A page of the tallies and documents of every space (what
    /// [`Store::export`] does not carry), paged as it is: start with
    /// `None`, pass each page's `next` until it is `None`.
    async fn export_study(&self, from: Option<&ExportCursor>, limit: usize) -> Result<StudyPage>;

    /// Puts exported items back, each replacing what is stored under its
    /// key (a key's counters, a list, a document with its version, a
    /// score); importing the same items twice changes nothing.
    async fn import_study(&self, items: &[StudyItem]) -> Result<()>;
}
