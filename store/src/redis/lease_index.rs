//! The Redis store's index of table leases, which answers
//! [`crate::Store::unleased_tables`] (the live tables nobody holds, for
//! another node to take over) with work in proportion to what changed,
//! not to how many tables are live.
//!
//! Why: every node asks every second. Reading every live table's lease
//! (`SMEMBERS` of `P:live` and two `EXISTS` a table) cost each node
//! O(tables) a second, all on Redis. A table's lease cannot carry its own
//! expiry into a sorted set atomically (the lease is in the table's slot,
//! an index in another), and a sorted set updated at every renewal would
//! cost O(tables) a second again. But a node renews all its leases
//! together, so the index follows *holders*:
//!
//! | key | type | holds |
//! |---|---|---|
//! | `P:{leases}:holders` | sorted set | node → until when (Redis ms) its leases are known to last: set after each of its renewals of all its leases ([`crate::Store::renew_leases`]), else by the leases seen |
//! | `P:{leases}:node:NODE` | set | the ids whose lease NODE was last seen taking |
//! | `P:{leases}:due` | sorted set | id → when to look at it (Redis ms): created, released, or its holder's time ran out |
//! | `P:lease_index` | string | `1` once the ids of `P:live` were put in `due` (a prefix from before the index) |
//!
//! Every script touches `{leases}` keys only (one slot on a cluster); the
//! lease itself stays in the table's slot, and its scripts are unchanged:
//! the index is a list of candidates, never trusted for who holds what,
//! so it cannot make a table taken while its lease is live or change an
//! epoch (a taker's [`crate::Store::acquire_lease`] decides). What it
//! must do is not lose a table: a taken lease puts its id in the taker's
//! set, a release puts it in `due`, and so does the create of a table
//! whose lease is not held. A query reads the holders
//! whose time ran out and the due ids (one script); a lapsed holder's ids
//! go to `due`; each due id's `meta` and lease are read: live and not
//! leased, it is answered (and stays due until a taker attaches it);
//! leased, it goes to its holder's set, whose time is lowered to the
//! lease's if that is sooner; neither, it leaves the index. So a node
//! that dies is found when its last renewal's term ends, as before, and
//! while nothing changes a query is one script that reads two empty
//! ranges.
//!
//! Nothing is lost to a missed write either: each query also reads a
//! slice of `P:live` ([`AUDIT_SLICE`] ids, `SSCAN`) and puts back in
//! `due` any live id that is neither due nor in its holder's set (a table
//! a node of an earlier build created, an index write that failed), so
//! the whole live set is looked at every `tables / AUDIT_SLICE` queries.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;
use std::time::Duration;

use redis::Script;

use super::handle::{RedisStore, from_value};
use crate::{Result, StoreError};

/// Live ids the audit reads per query.
pub(super) const AUDIT_SLICE: usize = 100;

/// Due ids read at a time, and pages a query reads at most (the rest
/// wait for the next query).
const DUE_PAGE: usize = 10_000;
const DUE_PAGES: usize = 10;

/// Ids read per pipeline.
const CHUNK: usize = 512;

/// The Lua of Redis's time now in ms (µs in the fraction): `now` a
/// number, `now_s` its exact text for scores. Effects replication first,
/// which writes after `TIME` need before Redis 5.
const NOW: &str = "if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local now_s = string.format('%.3f', now)
";

/// KEYS: holders, due. ARGV: how many due ids to skip, how many to
/// answer. Answers the holders whose time ran out and the due ids with
/// their scores, soonest first.
static POLL: LazyLock<Script> = LazyLock::new(|| {
    Script::new(&format!(
        "{NOW}return {{redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now_s, 'LIMIT', 0, 16),
  redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now_s, 'WITHSCORES', 'LIMIT', ARGV[1], ARGV[2])}}
"
    ))
});

/// KEYS: holders, the holder's set, due. ARGV: the holder. If its time
/// ran out, its ids go to `due` and it leaves the index. Answers how many.
static DISSOLVE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(&format!(
        "{NOW}local till = redis.call('ZSCORE', KEYS[1], ARGV[1])
if till and tonumber(till) > now then return 0 end
local ids = redis.call('SMEMBERS', KEYS[2])
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[3], now_s, id) end
redis.call('DEL', KEYS[2])
redis.call('ZREM', KEYS[1], ARGV[1])
return #ids
"
    ))
});

/// KEYS: due, the holder's set, holders. ARGV: id, holder, the due score
/// read (empty: a lease just taken), the lease's ms left. The id goes to
/// its holder (out of `due` unless it was marked due again since); the
/// holder's time is lowered to the lease's end if that is sooner.
static ATTACH: LazyLock<Script> = LazyLock::new(|| {
    Script::new(&format!(
        "{NOW}local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if s and (ARGV[3] == '' or tonumber(s) == tonumber(ARGV[3])) then
  redis.call('ZREM', KEYS[1], ARGV[1])
end
redis.call('SADD', KEYS[2], ARGV[1])
local e = now + tonumber(ARGV[4])
local cur = redis.call('ZSCORE', KEYS[3], ARGV[2])
if not cur or tonumber(cur) > e then
  redis.call('ZADD', KEYS[3], string.format('%.3f', e), ARGV[2])
end
return 'ok'
"
    ))
});

/// KEYS: due. ARGV: id, the due score read. Drops the id unless it was
/// marked due again since.
static DROP: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if s and tonumber(s) == tonumber(ARGV[2]) then redis.call('ZREM', KEYS[1], ARGV[1]) end
return 'ok'
",
    )
});

/// KEYS: due, and the holder's set for `released` and `unknown`. ARGV:
/// mode, then ids. Marks each id due now: `look` always; `released`
/// after taking it from the holder's set; `unknown` only if it is neither
/// due nor in the holder's set (none given: neither due).
static MARK: LazyLock<Script> = LazyLock::new(|| {
    Script::new(&format!(
        "{NOW}local mode = ARGV[1]
for i = 2, #ARGV do
  local id = ARGV[i]
  if mode == 'released' then redis.call('SREM', KEYS[2], id) end
  if mode ~= 'unknown' or (not redis.call('ZSCORE', KEYS[1], id)
      and (not KEYS[2] or redis.call('SISMEMBER', KEYS[2], id) == 0)) then
    redis.call('ZADD', KEYS[1], now_s, id)
  end
end
return 'ok'
"
    ))
});

/// KEYS: holders. ARGV: holder, ms. The holder renewed all its leases
/// just now: its time is now + ms.
static STAMP: LazyLock<Script> = LazyLock::new(|| {
    Script::new(&format!(
        "{NOW}redis.call('ZADD', KEYS[1], string.format('%.3f', now + tonumber(ARGV[2])), ARGV[1])
return 'ok'
"
    ))
});

fn millis(d: Duration) -> String {
    d.as_millis().max(1).to_string()
}

/// The holder named in a lease's value (`EPOCH NODE`).
fn holder(value: &str) -> Option<&str> {
    value.split_once(' ').map(|(_, node)| node)
}

/// One answer of a pipeline, converted.
fn answer<T: redis::FromRedisValue>(what: &str, v: Option<redis::Value>) -> Result<T> {
    from_value(what, v)
}

/// What a look at a due id found.
enum Seen {
    /// Live, nobody's lease: a table to take over.
    Unleased,
    /// Leased by this holder, this many ms left.
    Leased(String, u64),
    /// Neither live nor leased: out of the index.
    Gone,
}

impl RedisStore {
    /// After `node` took `id`'s lease for `ttl`: the id is in its set.
    pub(super) async fn index_taken(&self, id: &str, node: &str, ttl: Duration) -> Result<()> {
        let mut attach = ATTACH.prepare_invoke();
        attach
            .key(self.keys.lease_due())
            .key(self.keys.lease_holder(node))
            .key(self.keys.lease_holders())
            .arg(id)
            .arg(node)
            .arg("")
            .arg(millis(ttl));
        let _: String = self.invoke("indexing a lease", attach).await?;
        Ok(())
    }

    /// After `node` released `id`'s lease: the id is due.
    pub(super) async fn index_released(&self, id: &str, node: &str) -> Result<()> {
        let mut mark = MARK.prepare_invoke();
        mark.key(self.keys.lease_due())
            .key(self.keys.lease_holder(node))
            .arg("released")
            .arg(id);
        let _: String = self.invoke("indexing a released lease", mark).await?;
        Ok(())
    }

    /// After `id` was created without a lease held (or imported): due, to
    /// be answered, or attached to the node that takes its lease.
    pub(super) async fn index_created(&self, id: &str) -> Result<()> {
        let mut mark = MARK.prepare_invoke();
        mark.key(self.keys.lease_due()).arg("look").arg(id);
        let _: String = self.invoke("indexing a table for its lease", mark).await?;
        Ok(())
    }

    /// After a renewal of leases: each holder renewed, its time moved on.
    /// A failure is logged, not returned (the renewals happened; at worst
    /// the holder's ids are looked at once more).
    pub(super) async fn stamp_holders(&self, holders: &BTreeSet<&str>, ttl: Duration) {
        let mut pipe = redis::pipe();
        pipe.load_script(&STAMP).ignore();
        for node in holders {
            let mut stamp = STAMP.prepare_invoke();
            stamp
                .key(self.keys.lease_holders())
                .arg(*node)
                .arg(millis(ttl));
            pipe.invoke_script(&stamp).ignore();
        }
        let mut conn = self.conn.clone();
        let done = self
            .call("marking a holder's renewal", async move {
                pipe.query_async::<()>(&mut conn).await
            })
            .await;
        if let Err(e) = done {
            tracing::warn!(error = %e, "a renewal of leases was not noted in the lease index");
        }
    }

    /// See the module documentation: lapsed holders dissolved, due ids
    /// looked at, a slice of the live set audited.
    pub(super) async fn unleased_tables_impl(&self) -> Result<Vec<String>> {
        let mut found = BTreeSet::new();
        let (dead, mut page) = self.poll(0).await?;
        if !dead.is_empty() {
            for node in &dead {
                self.dissolve(node).await?;
            }
            page = self.poll(0).await?.1;
        }
        // A look takes every due id out of `due` but the unleased ones,
        // so the next page starts after those (another node's looks
        // meanwhile may make it skip some: the next query has them).
        for _ in 0..DUE_PAGES {
            let full = page.len() == DUE_PAGE;
            for chunk in page.chunks(CHUNK) {
                self.look_at(chunk, &mut found).await?;
            }
            if !full {
                break;
            }
            page = self.poll(found.len()).await?.1;
        }
        self.audit(&mut found).await?;
        Ok(found.into_iter().collect())
    }

    /// The holders whose time ran out, and the due ids with their scores
    /// (`skip` of them skipped).
    async fn poll(&self, skip: usize) -> Result<(Vec<String>, Vec<(String, String)>)> {
        let mut poll = POLL.prepare_invoke();
        poll.key(self.keys.lease_holders())
            .key(self.keys.lease_due())
            .arg(skip)
            .arg(DUE_PAGE);
        let (dead, due): (Vec<String>, Vec<String>) =
            self.read_script("reading the lease index", poll).await?;
        let due = due
            .chunks_exact(2)
            .map(|p| (p[0].clone(), p[1].clone()))
            .collect();
        Ok((dead, due))
    }

    async fn dissolve(&self, node: &str) -> Result<()> {
        let mut dissolve = DISSOLVE.prepare_invoke();
        dissolve
            .key(self.keys.lease_holders())
            .key(self.keys.lease_holder(node))
            .key(self.keys.lease_due())
            .arg(node);
        let n: u64 = self
            .invoke("looking at a lapsed holder's leases", dissolve)
            .await?;
        tracing::debug!(%node, tables = n, "a holder of leases stopped renewing; its tables are looked at");
        Ok(())
    }

    /// Reads each due id's `meta` and lease, answers the unleased live
    /// ones, and moves the others on (to their holder, or out).
    async fn look_at(&self, due: &[(String, String)], found: &mut BTreeSet<String>) -> Result<()> {
        let mut pipe = redis::pipe();
        for (id, _) in due {
            pipe.cmd("EXISTS").arg(self.keys.meta(id));
            pipe.cmd("GET").arg(self.keys.lease(id));
            pipe.cmd("PTTL").arg(self.keys.lease(id));
        }
        let mut conn = self.conn.clone();
        let answers: Vec<redis::Value> = self
            .call("looking at due leases", async move {
                pipe.query_async(&mut conn).await
            })
            .await?;
        if answers.len() != 3 * due.len() {
            return Err(StoreError::Corrupt(format!(
                "looking at {} due leases: {} answers",
                due.len(),
                answers.len()
            )));
        }
        let mut answers = answers.into_iter();
        let mut pipe = redis::pipe();
        pipe.load_script(&ATTACH).ignore();
        pipe.load_script(&DROP).ignore();
        let mut moved = 0;
        for (id, score) in due {
            let what = "looking at due leases";
            let live: bool = answer(what, answers.next())?;
            let lease: Option<String> = answer(what, answers.next())?;
            let left: i64 = answer(what, answers.next())?;
            let seen = match (&lease, live) {
                (Some(v), _) => match holder(v) {
                    Some(node) => Seen::Leased(node.to_owned(), left.max(0) as u64),
                    None => {
                        return Err(StoreError::Corrupt(format!(
                            "table {id}'s lease reads {v:?}"
                        )));
                    }
                },
                (None, true) => Seen::Unleased,
                (None, false) => Seen::Gone,
            };
            match seen {
                Seen::Unleased => {
                    found.insert(id.clone());
                }
                Seen::Leased(node, left) => {
                    let mut attach = ATTACH.prepare_invoke();
                    attach
                        .key(self.keys.lease_due())
                        .key(self.keys.lease_holder(&node))
                        .key(self.keys.lease_holders())
                        .arg(id)
                        .arg(&node)
                        .arg(score)
                        .arg(left);
                    pipe.invoke_script(&attach).ignore();
                    moved += 1;
                }
                Seen::Gone => {
                    let mut drop = DROP.prepare_invoke();
                    drop.key(self.keys.lease_due()).arg(id).arg(score);
                    pipe.invoke_script(&drop).ignore();
                    moved += 1;
                }
            }
        }
        if moved == 0 {
            return Ok(());
        }
        let mut conn = self.conn.clone();
        self.call("moving due leases on", async move {
            pipe.query_async::<()>(&mut conn).await
        })
        .await
    }

    /// One slice of the live set: its unleased tables are answered, and
    /// any live id the index lost track of is marked due.
    async fn audit(&self, found: &mut BTreeSet<String>) -> Result<()> {
        let cursor = *self.audit_cursor.lock().unwrap_or_else(|p| p.into_inner());
        let mut sscan = redis::cmd("SSCAN");
        sscan
            .arg(self.keys.live_index())
            .arg(cursor)
            .arg("COUNT")
            .arg(AUDIT_SLICE);
        let (next, ids): (u64, Vec<String>) = self.query("auditing the lease index", sscan).await?;
        *self.audit_cursor.lock().unwrap_or_else(|p| p.into_inner()) = next;
        if ids.is_empty() {
            return Ok(());
        }
        let mut pipe = redis::pipe();
        for id in &ids {
            pipe.cmd("EXISTS").arg(self.keys.meta(id));
            pipe.cmd("GET").arg(self.keys.lease(id));
        }
        let mut conn = self.conn.clone();
        let answers: Vec<redis::Value> = self
            .call("auditing the lease index", async move {
                pipe.query_async(&mut conn).await
            })
            .await?;
        let mut answers = answers.into_iter();
        // Holder (none: unleased) → the live ids it should know.
        let mut unknown: BTreeMap<Option<String>, Vec<&String>> = BTreeMap::new();
        for id in &ids {
            let what = "auditing the lease index";
            let live: bool = answer(what, answers.next())?;
            let lease: Option<String> = answer(what, answers.next())?;
            if !live {
                continue;
            }
            let node = lease.as_deref().and_then(holder).map(str::to_owned);
            if node.is_none() {
                found.insert(id.clone());
            }
            unknown.entry(node).or_default().push(id);
        }
        if unknown.is_empty() {
            return Ok(());
        }
        let mut pipe = redis::pipe();
        pipe.load_script(&MARK).ignore();
        for (node, ids) in unknown {
            let mut mark = MARK.prepare_invoke();
            mark.key(self.keys.lease_due());
            if let Some(node) = &node {
                mark.key(self.keys.lease_holder(node));
            }
            mark.arg("unknown");
            for id in ids {
                mark.arg(id);
            }
            pipe.invoke_script(&mark).ignore();
        }
        let mut conn = self.conn.clone();
        self.call("auditing the lease index", async move {
            pipe.query_async::<()>(&mut conn).await
        })
        .await
    }

    /// A prefix from before the index: every id of `P:live` marked due
    /// once, so that the first queries attach each to its holder (or
    /// answer it). Idempotent; nodes connecting together do no harm.
    pub(super) async fn index_leases_if_needed(&self) -> Result<()> {
        let mut get = redis::cmd("GET");
        get.arg(self.keys.lease_index_version());
        let built: Option<u32> = self.query("reading the lease index's version", get).await?;
        if built == Some(1) {
            return Ok(());
        }
        let mut cursor = 0u64;
        let mut marked = 0usize;
        loop {
            let mut sscan = redis::cmd("SSCAN");
            sscan
                .arg(self.keys.live_index())
                .arg(cursor)
                .arg("COUNT")
                .arg(1000);
            let (next, ids): (u64, Vec<String>) =
                self.query("building the lease index", sscan).await?;
            if !ids.is_empty() {
                let mut mark = MARK.prepare_invoke();
                mark.key(self.keys.lease_due()).arg("unknown");
                for id in &ids {
                    mark.arg(id);
                }
                let _: String = self.invoke("building the lease index", mark).await?;
                marked += ids.len();
            }
            cursor = next;
            if cursor == 0 {
                break;
            }
        }
        let mut set = redis::cmd("SET");
        set.arg(self.keys.lease_index_version()).arg(1);
        self.exec("writing the lease index's version", set).await?;
        if marked > 0 {
            tracing::info!(
                tables = marked,
                "the lease index was built: every live table is looked at once"
            );
        }
        Ok(())
    }
}
