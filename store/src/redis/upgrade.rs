//! Bringing a prefix of the earlier layout (version 1) up to date at
//! connect: login tokens and seat indexes keyed by the token's digest
//! instead of the token, and live tables' metadata rewritten by the
//! server's [`MetaUpgrade`] (its resume tokens to their digests), so that
//! nothing in Redis holds a usable token. Every step can be run again: a
//! connect that fails half-way leaves version 1, and the next finishes.
//! Nodes of the earlier version must not run meanwhile (they would go on
//! writing tokens as they are).

use super::handle::RedisStore;
use super::transfer::Scan;
use super::{keys, scripts};
use crate::codec::{decode, encode};
use crate::tokens::{is_digest, token_digest};
use crate::{AuthToken, MetaUpgrade, Result};

/// Keys a `SCAN` step asks for.
const COUNT: usize = 500;

impl RedisStore {
    pub(super) async fn upgrade(&self, meta: Option<MetaUpgrade>) -> Result<()> {
        let mut counts = [0usize; 3];
        for (i, kind) in [keys::TOKENS, keys::SEATS, keys::LIVE]
            .into_iter()
            .enumerate()
        {
            if kind == keys::LIVE && meta.is_none() {
                continue;
            }
            let mut at = Scan::default();
            while !at.done() {
                let found = self.scan(&mut at, kind, COUNT).await?;
                for key in &found {
                    let Some(id) = self.keys.parse(key, kind) else {
                        continue;
                    };
                    let done = match kind {
                        keys::TOKENS => self.upgrade_token(key, id).await?,
                        keys::SEATS => self.upgrade_seats(key, id).await?,
                        _ => self.upgrade_meta(key, meta.expect("checked above")).await?,
                    };
                    counts[i] += usize::from(done);
                }
            }
        }
        tracing::info!(
            tokens = counts[0],
            seat_indexes = counts[1],
            live_tables = counts[2],
            "the Redis layout was brought from version 1 to 2: tokens are kept as their digests"
        );
        Ok(())
    }

    /// A login token under its digest (whether it was not yet).
    async fn upgrade_token(&self, key: &str, token: &str) -> Result<bool> {
        if is_digest(token) {
            return Ok(false);
        }
        let mut get = redis::cmd("GET");
        get.arg(key);
        let Some(value): Option<Vec<u8>> = self.query("reading a token", get).await? else {
            return Ok(false);
        };
        let mut stored: AuthToken = decode(&value, "a token")?;
        stored.token = token_digest(token);
        let mut set = redis::cmd("SET");
        set.arg(self.keys.token(&stored.token))
            .arg(encode(&stored)?);
        self.exec("storing a token", set).await?;
        let mut del = redis::cmd("DEL");
        del.arg(key);
        self.exec("removing a token", del).await?;
        Ok(true)
    }

    /// A resume token's seat index under its digest, with its expiry.
    async fn upgrade_seats(&self, key: &str, token: &str) -> Result<bool> {
        if is_digest(token) {
            return Ok(false);
        }
        let mut members = redis::cmd("SMEMBERS");
        members.arg(key);
        let tables: Vec<String> = self.query("reading a seat index", members).await?;
        let mut ttl = redis::cmd("PTTL");
        ttl.arg(key);
        let ttl: i64 = self.query("reading a seat index", ttl).await?;
        let new = self.keys.seats(&token_digest(token));
        if !tables.is_empty() {
            let mut pipe = redis::pipe();
            pipe.atomic().cmd("SADD").arg(&new).arg(&tables).ignore();
            if ttl > 0 {
                pipe.cmd("PEXPIRE").arg(&new).arg(ttl).ignore();
            }
            let mut conn = self.conn.clone();
            self.call("moving a seat index", async move {
                pipe.query_async::<()>(&mut conn).await
            })
            .await?;
        }
        let mut del = redis::cmd("DEL");
        del.arg(key);
        self.exec("removing a seat index", del).await?;
        Ok(true)
    }

    /// A live table's metadata as the server keeps it now; unchanged if
    /// the table ended meanwhile.
    async fn upgrade_meta(&self, key: &str, upgrade: MetaUpgrade) -> Result<bool> {
        let mut get = redis::cmd("GET");
        get.arg(key);
        let Some(meta): Option<Vec<u8>> = self.query("reading a table", get).await? else {
            return Ok(false);
        };
        let Some(new) = upgrade(&meta) else {
            return Ok(false);
        };
        let mut swap = scripts::SWAP.prepare_invoke();
        swap.key(key).arg(meta).arg(new);
        let status: String = self.invoke("rewriting a table's metadata", swap).await?;
        Ok(status == "ok")
    }
}
