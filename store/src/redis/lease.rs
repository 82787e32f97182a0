//! The Redis store's table leases (several nodes on one Redis): which node may write a live
//! table's log; and the seat index, which tells a node taking a table over
//! whose reconnection is a player's.
//!
//! A lease is the key `P:{t:ID}:lease`, holding `EPOCH NODE` and expiring
//! with the lease (`PX`), so a node that dies simply stops renewing and its
//! leases lapse on their own. Epochs come from `P:{t:ID}:epoch`, an `INCR`
//! counter, so every acquisition of one table gets a greater epoch than
//! the last; the counter expires a day after the last acquisition or
//! renewal (it only has to outlive any lease of the table, and must not
//! outlive the table by much). A leased append checks the lease value and
//! writes in one script: all the keys share the table's hash tag, so it is
//! one atomic step on one slot, Cluster included. A node that lost its
//! lease, however late its append arrives, writes nothing.

use std::collections::BTreeSet;
use std::time::Duration;

use redis::Script;
use std::sync::LazyLock;

use super::handle::RedisStore;
use crate::{Acquired, Lease, Result, StoreError};

/// How long a resume token's seat index outlives its last entry.
const SEATS_TTL_S: u64 = 7 * 24 * 3600;

/// How long an epoch counter outlives its last use.
const EPOCH_TTL_MS: u64 = 24 * 3600 * 1000;

/// KEYS: lease, epoch. ARGV: node, ttl ms, epoch ttl ms. Takes the lease
/// if it is free or `node`'s own. Answers `{'ours', value}` or
/// `{'held', value}`.
static ACQUIRE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local cur = redis.call('GET', KEYS[1])
if cur and string.sub(cur, string.find(cur, ' ') + 1) ~= ARGV[1] then
  return {'held', cur}
end
local e = redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
local v = tostring(e) .. ' ' .. ARGV[1]
redis.call('SET', KEYS[1], v, 'PX', ARGV[2])
return {'ours', v}
",
    )
});

/// Whether the lease valued `ARGV[v]` is still its holder's (Lua, with
/// the lease key `KEYS[l]` and the epoch counter `KEYS[e]`): held, or
/// lapsed while nobody took the table (the counter is still its epoch).
fn still_ours(l: u8, e: u8, v: u8) -> String {
    format!(
        "local cur = redis.call('GET', KEYS[{l}])\n\
         local ours = cur == ARGV[{v}] or (not cur and redis.call('GET', KEYS[{e}]) == \
         string.sub(ARGV[{v}], 1, string.find(ARGV[{v}], ' ') - 1))\n"
    )
}

/// KEYS: lease, epoch. ARGV: value, ttl ms, epoch ttl ms. Answers `ok` or
/// `lost`; a lapsed lease nobody took is set again.
static RENEW: LazyLock<Script> = LazyLock::new(|| {
    Script::new(&format!(
        "{}if not ours then return 'lost' end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 'ok'
",
        still_ours(1, 2, 1)
    ))
});

/// KEYS: lease, epoch. ARGV: value. Answers `released`, or `ok` if it
/// was not held. The epoch counter moves on, so the released lease is
/// never its holder's again.
static RELEASE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  redis.call('INCR', KEYS[2])
  return 'released'
end
return 'ok'
",
    )
});

/// The plain append with the lease checked first. KEYS: meta, log, lease,
/// epoch. ARGV: expected length, lease value, entries. Answers `ok`,
/// `lost`, `missing` or `len:N`.
static APPEND_LEASED: LazyLock<Script> = LazyLock::new(|| {
    Script::new(&format!(
        "{}if not ours then return 'lost' end\nlocal first = 3\n{}",
        still_ours(3, 4, 2),
        super::scripts::APPEND_BODY
    ))
});

fn value(lease: &Lease) -> String {
    format!("{} {}", lease.epoch, lease.node)
}

fn parse(id: &str, value: &str) -> Result<Lease> {
    value
        .split_once(' ')
        .and_then(|(epoch, node)| {
            Some(Lease {
                epoch: epoch.parse().ok()?,
                node: node.to_owned(),
            })
        })
        .ok_or_else(|| StoreError::Corrupt(format!("table {id}'s lease reads {value:?}")))
}

fn millis(ttl: Duration) -> String {
    ttl.as_millis().max(1).to_string()
}

fn lost(id: &str, lease: &Lease) -> StoreError {
    StoreError::LeaseLost(format!(
        "table {id}'s lease of {} (epoch {}) is not held",
        lease.node, lease.epoch
    ))
}

impl RedisStore {
    pub(super) async fn acquire_lease_impl(
        &self,
        id: &str,
        node: &str,
        ttl: Duration,
    ) -> Result<Acquired> {
        if node.is_empty() || node.contains(char::is_whitespace) {
            return Err(StoreError::Invalid(format!(
                "a node id must be non-empty without spaces, not {node:?}"
            )));
        }
        let mut acquire = ACQUIRE.prepare_invoke();
        acquire
            .key(self.keys.lease(id))
            .key(self.keys.epoch(id))
            .arg(node)
            .arg(millis(ttl))
            .arg(EPOCH_TTL_MS);
        let (status, held): (String, String) = self.invoke("taking a lease", acquire).await?;
        let lease = parse(id, &held)?;
        match status.as_str() {
            "ours" => {
                // Only answered ours once the index knows: a lease it
                // missed would be found late if its holder died.
                self.index_taken(id, node, ttl).await?;
                Ok(Acquired::Ours(lease))
            }
            _ => Ok(Acquired::Held(lease)),
        }
    }

    pub(super) async fn renew_lease_impl(
        &self,
        id: &str,
        lease: &Lease,
        ttl: Duration,
    ) -> Result<()> {
        let renew = self.renewal(id, lease, ttl);
        let status: String = self.invoke("renewing a lease", renew).await?;
        match status.as_str() {
            "ok" => Ok(()),
            _ => Err(lost(id, lease)),
        }
    }

    fn renewal(&self, id: &str, lease: &Lease, ttl: Duration) -> redis::ScriptInvocation<'static> {
        let mut renew = RENEW.prepare_invoke();
        renew
            .key(self.keys.lease(id))
            .key(self.keys.epoch(id))
            .arg(value(lease))
            .arg(millis(ttl))
            .arg(EPOCH_TTL_MS);
        renew
    }

    /// Every renewal in one pipeline: one round trip for all of a node's
    /// tables.
    pub(super) async fn renew_leases_impl(
        &self,
        leases: &[(String, Lease)],
        ttl: Duration,
    ) -> Result<Vec<bool>> {
        if leases.is_empty() {
            return Ok(Vec::new());
        }
        let mut pipe = redis::pipe();
        pipe.load_script(&RENEW).ignore();
        for (id, lease) in leases {
            pipe.invoke_script(&self.renewal(id, lease, ttl));
        }
        let mut conn = self.conn.clone();
        let answers: Vec<String> = self
            .call("renewing leases", async move {
                pipe.query_async(&mut conn).await
            })
            .await?;
        if answers.len() != leases.len() {
            return Err(StoreError::Corrupt(format!(
                "renewing {} leases: {} answers",
                leases.len(),
                answers.len()
            )));
        }
        let holders: BTreeSet<&str> = leases.iter().map(|(_, l)| l.node.as_str()).collect();
        self.stamp_holders(&holders, ttl).await;
        Ok(answers.iter().map(|a| a == "ok").collect())
    }

    pub(super) async fn release_lease_impl(&self, id: &str, lease: &Lease) -> Result<()> {
        let mut release = RELEASE.prepare_invoke();
        release
            .key(self.keys.lease(id))
            .key(self.keys.epoch(id))
            .arg(value(lease));
        let status: String = self.invoke("releasing a lease", release).await?;
        if status == "released" {
            self.index_released(id, &lease.node).await?;
        }
        Ok(())
    }

    pub(super) async fn lease_impl(&self, id: &str) -> Result<Option<Lease>> {
        let mut get = redis::cmd("GET");
        get.arg(self.keys.lease(id));
        let held: Option<String> = self.query("reading a lease", get).await?;
        held.map(|v| parse(id, &v)).transpose()
    }

    pub(super) async fn append_leased_impl(
        &self,
        id: &str,
        lease: &Lease,
        at: u64,
        entries: &[Vec<u8>],
    ) -> Result<()> {
        let mut append = APPEND_LEASED.prepare_invoke();
        append
            .key(self.keys.meta(id))
            .key(self.keys.log(id))
            .key(self.keys.lease(id))
            .key(self.keys.epoch(id))
            .arg(at.to_string())
            .arg(value(lease));
        for entry in entries {
            append.arg(entry.as_slice());
        }
        let status: String = self.invoke("appending to a leased log", append).await?;
        match status.as_str() {
            "ok" => Ok(()),
            "lost" => Err(lost(id, lease)),
            "missing" => Err(StoreError::NotFound(format!("no live table {id}"))),
            other => match other.strip_prefix("len:") {
                Some(len) => Err(StoreError::Conflict(format!(
                    "table {id}'s log has {len} entries, not {at}"
                ))),
                None => Err(StoreError::Unavailable(format!(
                    "appending to a leased log: unexpected answer {other:?}"
                ))),
            },
        }
    }

    pub(super) async fn index_seat_impl(&self, token: &str, id: &str) -> Result<()> {
        let key = self.keys.seats(&crate::tokens::at_rest(token));
        let mut pipe = redis::pipe();
        pipe.atomic()
            .cmd("SADD")
            .arg(&key)
            .arg(id)
            .ignore()
            .cmd("EXPIRE")
            .arg(&key)
            .arg(SEATS_TTL_S)
            .ignore();
        let mut conn = self.conn.clone();
        self.call("indexing a seat", async move {
            pipe.query_async::<()>(&mut conn).await
        })
        .await
    }

    pub(super) async fn seat_tables_impl(&self, token: &str) -> Result<Vec<String>> {
        let mut members = redis::cmd("SMEMBERS");
        members.arg(self.keys.seats(&crate::tokens::at_rest(token)));
        self.query("reading a seat index", members).await
    }

    /// The live candidates whose `meta` exists and whose lease does not,
    /// by a scan of every live table: `SMEMBERS` of `P:live`, then one
    /// pipeline of `EXISTS` pairs (the keys are in different slots, so
    /// not one script). What [`crate::Store::unleased_tables`] did before
    /// the lease index (`super::lease_index`), kept to measure it against.
    #[cfg(feature = "testing")]
    pub(super) async fn unleased_tables_scanned_impl(&self) -> Result<Vec<String>> {
        let mut members = redis::cmd("SMEMBERS");
        members.arg(self.keys.live_index());
        let ids: Vec<String> = self.query("listing live tables", members).await?;
        let mut out = Vec::new();
        for chunk in ids.chunks(512) {
            let mut pipe = redis::pipe();
            for id in chunk {
                pipe.cmd("EXISTS").arg(self.keys.meta(id));
                pipe.cmd("EXISTS").arg(self.keys.lease(id));
            }
            let mut conn = self.conn.clone();
            let found: Vec<bool> = self
                .call("checking leases", async move {
                    pipe.query_async(&mut conn).await
                })
                .await?;
            for (id, pair) in chunk.iter().zip(found.chunks(2)) {
                if pair == [true, false] {
                    out.push(id.clone());
                }
            }
        }
        Ok(out)
    }
}
