//! The Redis store: the same [`Store`] on a shared Redis.
//!
//! Why: the embedded store ties a community to one machine's disk. Redis
//! is what operators already run for shared state: several Tengen nodes
//! can reach one Redis (running several nodes builds on that), and Redis's append-only
//! file gives the durability the store promises when it is configured for
//! it (see *Persistence*). With this store the server's data directory
//! holds nothing that matters.
//!
//! The client is the `redis` crate on tokio, behind one connection type
//! (`conn`) for the three topologies the URL names:
//!
//! - `redis://` (`rediss://` for TLS): one node, through a
//!   [`ConnectionManager`](redis::aio::ConnectionManager): one multiplexed
//!   connection (many requests in flight on one socket, pipelined),
//!   re-established in the background when it breaks;
//! - `redis+cluster://[user:password@]host:port,host:port,...[?wait=N]`
//!   (`rediss+cluster://`): a Redis Cluster, through the crate's cluster
//!   client, which sends each command to its key's slot, follows
//!   `MOVED`/`ASK`, and finds a promoted replica by itself;
//! - `redis+sentinel://[user:password@]host:port,...[/NAME[/DB]][?wait=N]`:
//!   the primary the sentinels know as `NAME`, asked again when a call
//!   fails as a lost connection or `READONLY`, so the store moves to the
//!   replica they promote.
//!
//! The rest of the store is written once for all three. TLS uses rustls
//! with the ring provider and the system's root certificates, or the CA of
//! [`RedisOptions::ca_file`] (no OpenSSL).
//!
//! # Key layout
//! Every key starts with the prefix ([`RedisOptions::prefix`], `tengen`
//! by default; tests give each store a prefix of its own). The part in
//! braces is the key's *hash tag*: Redis Cluster puts keys with the same
//! tag in the same slot, so everything one operation must change
//! atomically shares a tag. `NAME` is [`crate::name_key`] of a player or
//! account name, `ID` a table (= game) id, `DIGEST` a token's digest
//! ([`crate::token_digest`]: no key or value holds a usable token).
//!
//! | key | type | holds |
//! |---|---|---|
//! | `P:schema` | string | the layout version, [`SCHEMA_VERSION`] |
//! | `P:probe` | string | written by [`Store::ping`], which a Redis that refuses writes fails (expires after a minute) |
//! | `P:live` | set | candidate ids: live tables, and finishes in progress (a table is live iff its `meta` key exists) |
//! | `P:stale` | hash | ids of `P:live` seen neither live nor finishing → when first seen so (ms) |
//! | `P:{t:ID}:meta` | string | a live table's metadata (raw bytes) |
//! | `P:{t:ID}:log` | list | its log entries, in order (raw bytes) |
//! | `P:{t:ID}:finishing` | hash | a finish in progress (the outbox): `nonce`, `state` (`staged`, `prepared`, `committed`), `finished_ms`, `players`, `record`, `heads` (the rating updates' families, players and counts, encoded), `r:I` and `h:I` (update I's rating and history point, encoded) |
//! | `P:{t:ID}:game` | hash | a finished game: `finished_ms`, `players` (encoded), `record` (raw bytes), `nonce` (of the finish that wrote it) |
//! | `P:{p:NAME}:games` | sorted set | the player's finished games: member the game id, score `finished_ms` |
//! | `P:{p:NAME}:history:FAMILY` | list | the player's rating history in a family, oldest first |
//! | `P:{f:FAMILY}:ratings` | hash | `NAME` → [`crate::Rating`] (encoded) |
//! | `P:{f:FAMILY}:games` | hash | `NAME` → the rating's game count, the condition of a [`crate::RatingUpdate`] |
//! | `P:{f:FAMILY}:pending` | hash | `NAME` → `NONCE ID` of the finish that holds the player's rating in the family (empty at rest) |
//! | `P:{f:FAMILY}:applied` | hash | `NONCE` → `NONCE ID` of the finishes whose updates the family applied, until they commit (empty at rest) |
//! | `P:{t:ID}:lease` | string | the table's lease, `EPOCH NODE`, expiring with it ([`lease`]) |
//! | `P:{t:ID}:epoch` | string | the table's last lease epoch (a counter; expires a day after its last use) |
//! | `P:{leases}:holders`, `P:{leases}:node:NODE`, `P:{leases}:due` | sorted set, sets, sorted set | the lease index (`lease_index`): until when each node's renewals last, the tables it was seen holding, the tables to look at; what [`Store::unleased_tables`] reads instead of every lease |
//! | `P:lease_index` | string | `1` once the lease index holds the tables stored before it |
//! | `P:{r:DIGEST}:tables` | set | the tables a resume token's session sits at (expires a week after the last one) |
//! | `P:{a:NAME}:account` | string | [`crate::Account`] (encoded) |
//! | `P:{k:DIGEST}:token` | string | [`crate::AuthToken`] (encoded; its `token` the digest too) |
//! | `P:{s:SKELETON}:accounts` | set | the name keys of the accounts whose names have this [`crate::name_skeleton`] (`skeletons`) |
//! | `P:name_skeletons` | string | the version of that index ([`crate::SKELETON_VERSION`]), built at connect when it differs |
//! | `P:{t}:tournaments` | hash | tournament id → the server's state of the event (raw bytes; `tournaments`) |
//! | `P:{study:SPACE}:...` | hashes, lists, a set, sorted sets | the tallies and documents of a space (`study`) |
//!
//! A table and the game it becomes share the tag `{t:ID}`, so creating a
//! table (refused if the id is live, finished or being finished),
//! appending to its log (conditional on the log's length, and in issue
//! 12 on the lease) and discarding it are each one operation on one
//! slot. Struct values are MessagePack with field names, as in the
//! embedded store (floats bit-exact; a later version can add a field with
//! a default).
//!
//! The `P:live` index is updated beside the table's own keys and is only
//! a list of candidates: a reader checks the table's `meta` key (and its
//! `finishing` key). A create adds the id before its script (so a crash
//! leaves a candidate that is not live, never a live table missing from
//! the index) and again after it; a discard or a finish removes it at
//! the end. A crash between those steps leaves a stale id (so does an
//! aborted finish of a game that had no live table), which
//! [`Store::live_tables`] drops: an id seen neither live nor finishing is
//! recorded in `P:stale`, and removed by a read at least
//! [`RedisOptions::stale_after`] (1 minute) later that still sees it so;
//! after the `SREM` that reader reads the id once more and puts it back
//! if it is live or finishing now. That is safe against a create in
//! progress: a create that returns `Ok` added its id *after* its script,
//! so either that `SADD` comes after the reader's `SREM`, or the reader's
//! second read comes after the script and sees the table. (A create
//! paused for more than `stale_after` between its first `SADD` and its
//! script, whose answer then was lost, could leave a table nobody was told
//! of out of the index; nothing accepted is lost with it.)
//!
//! # Atomicity
//! Conditional writes are Lua scripts (`EVALSHA`, loaded on first use),
//! which Redis runs atomically. **Every script, transaction and multi-key
//! command touches keys of one hash tag only** (the untagged keys, such
//! as `P:live`, are each a slot of their own and only ever used alone), so
//! the layout runs on Redis Cluster, which refuses anything else
//! (`CROSSSLOT`): the tests run the whole conformance suite on a one-node
//! cluster, which refuses any cross-slot script, and on a real cluster of
//! three primaries. A pipeline of independent commands (renewing a node's
//! leases, an import) may span slots: on a cluster it is split by slot
//! and the parts run concurrently (no atomicity was promised for it).
//! The append checks the table is live and its log has the expected
//! length before it pushes anything; a create checks neither the live key
//! nor the game key nor a staged finish exists.
//!
//! **A finished game and its rating updates are written through an
//! idempotent outbox** (`finish`). They cannot be one script or one
//! MULTI/EXEC: the keys they change are the game's (`{t:ID}`), each
//! player's (`{p:NAME}`) and each family's (`{f:FAMILY}`), and putting them
//! under one tag would put the whole community in one slot. So the
//! finish is staged under the game's tag with a random nonce, then driven
//! through single-tag steps, each idempotent, by the caller and by whoever
//! else comes across it: every family reserves its players, checking their
//! game counts, in family-name order; with all reserved the finish is
//! decided (the stage goes `prepared`, a step that is never undone); the
//! history points are appended while the reservations hold, then each
//! family applies its ratings and counts and lets its players go (once:
//! the family records the nonce); the record is committed and the live
//! table removed; the players' game indexes get the game; the stage is
//! dropped. What is promised, exactly:
//!
//! - `Ok`: all of it is written. [`StoreError::Conflict`] (a stale count,
//!   or a player's rating held by another finish that does not get out of
//!   the way): **nothing** is written; conflicts are only found while
//!   reserving, before anything a reader can see, and the abort deletes
//!   the stage and lets the reservations go. With updates in several
//!   families, a conflict in a later family than one already reserved
//!   still writes nothing (reservations are not data). `Exists`: a finish
//!   of this id was committed before (perhaps the caller's own, whose
//!   answer was lost). Racing finishes of one game: one commits, the
//!   others help it along and get `Exists` (or `Conflict` if it was
//!   aborted). So the trait's promise holds, and the conformance suite
//!   checks it as it is.
//! - What differs from one script is **visibility while a finish is in
//!   flight**: a reader can see part of a decided finish (a history point
//!   before its rating, the ratings before the record, the record before
//!   the games index) for the few round trips it takes. Nothing seen is
//!   ever taken back: the only undo, the abort, happens before anything
//!   visible is written.
//! - `Unavailable` (Redis went away, or the caller died, mid-way): the
//!   finish is staged, or not. A staged finish is **rolled forward** (or,
//!   if still undecided and its counts no longer match, aborted) by the
//!   next `finish_game` of the same game, by [`Store::live_tables`] (the
//!   id is in `P:live` while it finishes: the server's restore at start
//!   is the sweep), and by any finish that finds the players it needs
//!   held by it: that finish drives it forward itself (or lets go of the
//!   reservations of an abandoned one) before it tries again.
//! - A rated two-player finish costs about 13 round trips instead of
//!   one; an unrated one about 8.
//!
//! Builds from before the outbox (one cross-tag script) must not run on
//! the same prefix at the same time as this one: they would ignore the
//! reservations. The data at rest is the same (layout version 1).
//!
//! **Scans** (export, the name index, the layout upgrade) visit every
//! primary of a cluster in turn; an export's cursor names the primaries
//! by one slot each, so a replica promoted meanwhile is scanned in its
//! place (its `SCAN` cursor is not the old primary's: keys may come twice,
//! which imports tolerate).
//!
//! # Time bounds
//! Every call is bounded by [`RedisOptions::timeout`] (2 s by default,
//! under the server's 3 s store timeout): when Redis is down or slow the
//! call returns [`StoreError::Unavailable`] instead of waiting, and the
//! connection manager keeps reconnecting in the background (connection
//! attempts time out after 1 s). A write that timed out may still have
//! happened, as the trait says; its conditions make a retry safe.
//!
//! # Persistence
//! Redis acknowledges a write once it is in memory. Whether it survives a
//! crash depends on the server's configuration, which
//! [`RedisStore::persistence`] reads (`CONFIG GET`, or `INFO persistence`
//! where `CONFIG` is disabled): with `appendonly yes` and `appendfsync
//! always`, every acknowledged write is on disk (fsync) before the reply,
//! the embedded store's promise; with `appendfsync everysec` (Redis's
//! default) a crash of the Redis *process* loses nothing (the write is in
//! the file before the reply), but a power loss or kernel crash can lose
//! the last second or so; without the append-only file (RDB snapshots
//! only, or nothing) a restart of Redis loses every write since the last
//! snapshot, so "no accepted move is lost" does not hold. The server
//! warns loudly at start when that is the case.
//!
//! # Replication
//! Redis replicates asynchronously: a primary acknowledges a write before
//! its replicas have it, and a replica promoted after the primary died
//! lacks whatever had not reached it. So on the topologies that fail over
//! (a cluster, Sentinel) **every write waits for a replica before the
//! store acknowledges it** (`WAIT 1`, or the `N` of `?wait=N` or
//! [`RedisOptions::wait_replicas`]; 0 turns it off), within
//! [`RedisOptions::wait_timeout`]; a write that fewer replicas took fails
//! as [`StoreError::Unavailable`](crate::StoreError::Unavailable): it is on the primary, perhaps for good,
//! but not promised (the conditional writes make a retry safe). The
//! `WAIT`s are grouped (`conn::Barriers`): one after any number of writes
//! on a connection covers them all, and each is checked to have run on the
//! write's own connection (`CLIENT INFO`), never on a node promoted in
//! between. A primary left without replicas (its replica promoted, the
//! failed node not back yet) accepts no acknowledged write until one
//! comes back: run two replicas per primary to keep writing through one
//! failure. Reads go to primaries only.

use std::time::Duration;

use async_trait::async_trait;

use crate::{
    Account, Acquired, AddressBan, AuditEntry, AuthToken, ExportCursor, ExportPage, FinishedGame,
    GameRef, HistoryPoint, Item, Lease, LiveTable, Rating, Report, Result, Standing, Store,
};

mod conn;
mod finish;
mod handle;
mod keys;
mod lease;
mod lease_index;
mod moderation;
mod persistence;
mod reads;
mod scripts;
mod skeletons;
mod study;
mod tournaments;
mod transfer;
mod upgrade;
mod writes;

pub use conn::node_url;
pub use handle::{RedisOptions, RedisStore, SCHEMA_VERSION, redact};
pub use persistence::{Fsync, Persistence};

impl RedisStore {
    /// How the Redis server keeps its data (see *Persistence* in the
    /// [module documentation](self)).
    pub async fn persistence(&self) -> Result<Persistence> {
        persistence::read(self).await
    }

    /// [`Store::unleased_tables`] as it was before the lease index: a
    /// scan of every live table's lease (for the benchmark that compares
    /// them, `examples/lease_index.rs`).
    #[cfg(feature = "testing")]
    #[doc(hidden)]
    pub async fn unleased_tables_scanned(&self) -> Result<Vec<String>> {
        self.unleased_tables_scanned_impl().await
    }

    /// [`Store::finish_game`], stopped after `steps` round trips to Redis
    /// as if the process died there (`Unavailable`), for the tests of the
    /// roll-forward.
    #[cfg(feature = "testing")]
    #[doc(hidden)]
    pub async fn finish_game_interrupted(&self, game: &FinishedGame, steps: u32) -> Result<()> {
        self.finish_game_run(game, &mut finish::Run::new(Some(steps)))
            .await
    }
}

#[async_trait]
impl Store for RedisStore {
    fn describe(&self) -> String {
        self.shown.clone()
    }

    fn last_progress(&self) -> Option<std::time::Instant> {
        self.progress.last()
    }

    async fn ping(&self) -> Result<()> {
        // A write, not a PING: a Redis out of memory (`maxmemory`) still
        // answers PING but refuses writes (`OOM`); one that cannot write
        // its append-only file refuses both (`MISCONF`) until it can.
        let mut set = redis::cmd("SET");
        set.arg(self.keys.probe()).arg(1).arg("PX").arg(60_000);
        self.exec("writing the probe key", set).await
    }

    async fn create_table(&self, id: &str, meta: &[u8]) -> Result<()> {
        self.create_table_impl(id, meta).await
    }

    async fn append(&self, id: &str, at: u64, entries: &[Vec<u8>]) -> Result<()> {
        self.append_impl(id, at, entries).await
    }

    async fn live_tables(&self) -> Result<Vec<LiveTable>> {
        self.live_tables_impl().await
    }

    async fn live_table(&self, id: &str) -> Result<Option<LiveTable>> {
        self.live_table_impl(id).await
    }

    async fn discard_table(&self, id: &str) -> Result<()> {
        self.discard_table_impl(id).await
    }

    async fn finish_game(&self, game: &FinishedGame) -> Result<()> {
        self.finish_game_impl(game).await
    }

    async fn game(&self, id: &str) -> Result<Option<FinishedGame>> {
        self.game_impl(id).await
    }

    async fn games_of(
        &self,
        player: &str,
        before_ms: Option<u64>,
        limit: usize,
    ) -> Result<Vec<GameRef>> {
        self.games_of_impl(player, before_ms, limit).await
    }

    async fn acquire_lease(&self, id: &str, node: &str, ttl: Duration) -> Result<Acquired> {
        self.acquire_lease_impl(id, node, ttl).await
    }

    async fn renew_lease(&self, id: &str, lease: &Lease, ttl: Duration) -> Result<()> {
        self.renew_lease_impl(id, lease, ttl).await
    }

    async fn renew_leases(&self, leases: &[(String, Lease)], ttl: Duration) -> Result<Vec<bool>> {
        self.renew_leases_impl(leases, ttl).await
    }

    async fn release_lease(&self, id: &str, lease: &Lease) -> Result<()> {
        self.release_lease_impl(id, lease).await
    }

    async fn lease(&self, id: &str) -> Result<Option<Lease>> {
        self.lease_impl(id).await
    }

    async fn append_leased(
        &self,
        id: &str,
        lease: &Lease,
        at: u64,
        entries: &[Vec<u8>],
    ) -> Result<()> {
        self.append_leased_impl(id, lease, at, entries).await
    }

    async fn unleased_tables(&self) -> Result<Vec<String>> {
        self.unleased_tables_impl().await
    }

    async fn index_seat(&self, token: &str, id: &str) -> Result<()> {
        self.index_seat_impl(token, id).await
    }

    async fn seat_tables(&self, token: &str) -> Result<Vec<String>> {
        self.seat_tables_impl(token).await
    }

    async fn standing(&self, name: &str) -> Result<Option<Standing>> {
        self.standing_impl(name).await
    }

    async fn put_standing(&self, standing: &Standing) -> Result<()> {
        self.put_standing_impl(standing).await
    }

    async fn append_audit(&self, entry: &AuditEntry) -> Result<()> {
        self.append_audit_impl(entry).await
    }

    async fn audit_log(&self, limit: usize) -> Result<Vec<AuditEntry>> {
        self.audit_log_impl(limit).await
    }

    async fn put_report(&self, report: &Report) -> Result<()> {
        self.put_report_impl(report).await
    }

    async fn reports(&self) -> Result<Vec<Report>> {
        self.reports_impl().await
    }

    async fn put_address_ban(&self, ban: &AddressBan) -> Result<()> {
        self.put_address_ban_impl(ban).await
    }

    async fn remove_address_ban(&self, range: &str) -> Result<()> {
        self.remove_address_ban_impl(range).await
    }

    async fn address_bans(&self) -> Result<Vec<AddressBan>> {
        self.address_bans_impl().await
    }

    async fn create_account(&self, account: &Account) -> Result<()> {
        self.create_account_impl(account).await
    }

    async fn account(&self, name: &str) -> Result<Option<Account>> {
        self.account_impl(name).await
    }

    async fn accounts_like(&self, name: &str) -> Result<Vec<String>> {
        self.accounts_like_impl(name).await
    }

    async fn lookalike_accounts(&self, limit: usize) -> Result<Vec<Vec<String>>> {
        self.lookalike_accounts_impl(limit).await
    }

    async fn make_bot(&self, name: &str) -> Result<()> {
        self.make_bot_impl(name).await
    }

    async fn set_bot_filters(&self, name: &str, filters: &str) -> Result<()> {
        self.set_bot_filters_impl(name, filters).await
    }

    async fn put_token(&self, token: &AuthToken) -> Result<()> {
        self.put_token_impl(token).await
    }

    async fn token(&self, token: &str) -> Result<Option<AuthToken>> {
        self.token_impl(token).await
    }

    async fn revoke_token(&self, token: &str) -> Result<()> {
        self.revoke_token_impl(token).await
    }

    async fn rating(&self, player: &str, family: &str) -> Result<Option<Rating>> {
        self.rating_impl(player, family).await
    }

    async fn ratings(&self, family: &str) -> Result<Vec<Rating>> {
        self.ratings_impl(family).await
    }

    async fn rating_history(&self, player: &str, family: &str) -> Result<Vec<HistoryPoint>> {
        self.rating_history_impl(player, family).await
    }

    async fn export(&self, from: Option<&ExportCursor>, limit: usize) -> Result<ExportPage> {
        self.export_impl(from, limit).await
    }

    async fn import(&self, items: &[Item]) -> Result<()> {
        self.import_impl(items).await
    }

    async fn put_tournament(&self, id: &str, state: &[u8]) -> Result<()> {
        self.put_tournament_impl(id, state).await
    }

    async fn tournament(&self, id: &str) -> Result<Option<Vec<u8>>> {
        self.tournament_impl(id).await
    }

    async fn tournaments(&self) -> Result<Vec<(String, Vec<u8>)>> {
        self.tournaments_impl().await
    }

    async fn tally(&self, space: &str, tally: &crate::Tally) -> Result<bool> {
        self.tally_impl(space, tally).await
    }

    async fn tallies(&self, space: &str, keys: &[Vec<u8>]) -> Result<Vec<crate::study::Fields>> {
        self.tallies_impl(space, keys).await
    }

    async fn lists(&self, space: &str, keys: &[Vec<u8>]) -> Result<Vec<Vec<Vec<u8>>>> {
        self.lists_impl(space, keys).await
    }

    async fn put_docs(
        &self,
        space: &str,
        docs: &[crate::DocPut],
        scores: &[crate::ScorePut],
    ) -> Result<()> {
        self.put_docs_impl(space, docs, scores).await
    }

    async fn docs(&self, space: &str, keys: &[String]) -> Result<Vec<Option<crate::Doc>>> {
        self.docs_impl(space, keys).await
    }

    async fn scored(
        &self,
        space: &str,
        index: &str,
        min: i64,
        max: i64,
        limit: usize,
    ) -> Result<Vec<(String, i64)>> {
        self.scored_impl(space, index, min, max, limit).await
    }

    async fn export_study(
        &self,
        from: Option<&ExportCursor>,
        limit: usize,
    ) -> Result<crate::StudyPage> {
        self.export_study_impl(from, limit).await
    }

    async fn import_study(&self, items: &[crate::StudyItem]) -> Result<()> {
        self.import_study_impl(items).await
    }
}
