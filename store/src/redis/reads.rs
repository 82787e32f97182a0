//! The Redis store's reads.

use std::collections::{HashMap, HashSet};
use std::time::{SystemTime, UNIX_EPOCH};

use futures_util::{StreamExt, TryStreamExt, stream};

use super::handle::RedisStore;
use super::scripts;
use crate::codec::decode;
use crate::{
    Account, AuthToken, FinishedGame, GameRef, HistoryPoint, LiveTable, Rating, Result, StoreError,
    name_key, token_digest,
};

/// How many reads of single tables or games are in flight at once.
pub(super) const READ_AHEAD: usize = 64;

impl RedisStore {
    /// One live table (metadata and log read atomically), if it is live.
    pub(super) async fn live_table_impl(&self, id: &str) -> Result<Option<LiveTable>> {
        let mut read = scripts::READ_TABLE.prepare_invoke();
        read.key(self.keys.meta(id)).key(self.keys.log(id));
        let table: Option<(Vec<u8>, Vec<Vec<u8>>)> =
            self.read_script("reading a table", read).await?;
        Ok(table.map(|(meta, entries)| LiveTable {
            id: id.to_owned(),
            meta,
            entries,
        }))
    }

    /// A candidate of the live index: whether a finish of it is staged,
    /// and the table if it is live (read atomically).
    async fn read_candidate(&self, id: &str) -> Result<(bool, Option<LiveTable>)> {
        let mut read = scripts::READ_CANDIDATE.prepare_invoke();
        read.key(self.keys.meta(id))
            .key(self.keys.log(id))
            .key(self.keys.finishing(id));
        let (staged, meta, entries): (bool, Option<Vec<u8>>, Vec<Vec<u8>>) =
            self.read_script("reading a table", read).await?;
        Ok((
            staged,
            meta.map(|meta| LiveTable {
                id: id.to_owned(),
                meta,
                entries,
            }),
        ))
    }

    /// Every live table: the index's candidates, each read on its own.
    /// This is also the sweep: a candidate with a staged finish (one in
    /// progress, or left by a crash) is taken forward first, and a
    /// candidate that is neither live nor finishing is dropped from the
    /// index once it has stayed so for [`super::RedisOptions::stale_after`].
    pub(super) async fn live_tables_impl(&self) -> Result<Vec<LiveTable>> {
        let mut members = redis::cmd("SMEMBERS");
        members.arg(self.keys.live_index());
        let ids: Vec<String> = self.query("listing live tables", members).await?;
        let read: Vec<(String, bool, Option<LiveTable>)> = stream::iter(ids)
            .map(|id| async move {
                let (staged, table) = self.read_candidate(&id).await?;
                Ok::<_, StoreError>((id, staged, table))
            })
            .buffered(READ_AHEAD)
            .try_collect()
            .await?;
        let mut tables = Vec::new();
        let mut stale = Vec::new();
        for (id, staged, table) in read {
            if staged {
                self.roll_forward(&id).await?;
                tables.extend(self.read_candidate(&id).await?.1);
            } else if let Some(table) = table {
                tables.push(table);
            } else {
                stale.push(id);
            }
        }
        self.sweep_stale(stale).await?;
        Ok(tables)
    }

    /// Drops stale candidates from the live index, safely against a create
    /// (or finish) between its `SADD` and its script: an id is removed
    /// only when it was already stale on a read at least `stale_after`
    /// earlier (recorded in `P:stale`, so across restarts and nodes), and
    /// put back if, read again after the `SREM`, it is live or finishing.
    /// A create re-adds its id after its script, so a live table never
    /// stays out of the index (see *Key layout* in the module docs).
    async fn sweep_stale(&self, stale: Vec<String>) -> Result<()> {
        let key = self.keys.stale();
        let mut all = redis::cmd("HGETALL");
        all.arg(&key);
        let suspects: HashMap<String, u64> = self.query("reading stale candidates", all).await?;
        if suspects.is_empty() && stale.is_empty() {
            return Ok(());
        }
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        let stale_after = self.stale_after.as_millis() as u64;
        let still: HashSet<&str> = stale.iter().map(String::as_str).collect();
        let cleared: Vec<&String> = suspects
            .keys()
            .filter(|id| !still.contains(id.as_str()))
            .collect();
        if !cleared.is_empty() {
            let mut del = redis::cmd("HDEL");
            del.arg(&key).arg(cleared);
            self.exec("clearing stale candidates", del).await?;
        }
        for id in stale {
            match suspects.get(&id) {
                None => {
                    let mut mark = redis::cmd("HSETNX");
                    mark.arg(&key).arg(&id).arg(now);
                    self.exec("marking a stale candidate", mark).await?;
                }
                Some(&since) if now.saturating_sub(since) >= stale_after => {
                    let mut rem = redis::cmd("SREM");
                    rem.arg(self.keys.live_index()).arg(&id);
                    self.exec("dropping a stale candidate", rem).await?;
                    let (staged, table) = self.read_candidate(&id).await?;
                    if staged || table.is_some() {
                        let mut add = redis::cmd("SADD");
                        add.arg(self.keys.live_index()).arg(&id);
                        self.exec("indexing a live table again", add).await?;
                    }
                    let mut del = redis::cmd("HDEL");
                    del.arg(&key).arg(&id);
                    self.exec("clearing a stale candidate", del).await?;
                }
                Some(_) => {}
            }
        }
        Ok(())
    }

    pub(super) async fn game_impl(&self, id: &str) -> Result<Option<FinishedGame>> {
        let mut get = redis::cmd("HMGET");
        get.arg(self.keys.game(id))
            .arg("finished_ms")
            .arg("players")
            .arg("record");
        let (ms, players, record): (Option<u64>, Option<Vec<u8>>, Option<Vec<u8>>) =
            self.query("reading a game", get).await?;
        match (ms, players, record) {
            (None, None, None) => Ok(None),
            (Some(finished_ms), Some(players), Some(record)) => Ok(Some(FinishedGame {
                id: id.to_owned(),
                players: decode(&players, "a game's players")?,
                finished_ms,
                record,
                ratings: Vec::new(),
            })),
            _ => Err(StoreError::Corrupt(format!("game {id} is incomplete"))),
        }
    }

    pub(super) async fn games_of_impl(
        &self,
        player: &str,
        before_ms: Option<u64>,
        limit: usize,
    ) -> Result<Vec<GameRef>> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        // ZREVRANGEBYSCORE rather than ZRANGE .. BYSCORE REV: Redis < 6.2.
        let mut range = redis::cmd("ZREVRANGEBYSCORE");
        range
            .arg(self.keys.player_games(player))
            .arg(match before_ms {
                Some(before) => format!("({before}"),
                None => "+inf".into(),
            })
            .arg("-inf")
            .arg("LIMIT")
            .arg(0)
            .arg(limit);
        let ids: Vec<String> = self.query("listing a player's games", range).await?;
        stream::iter(ids)
            .map(|id| async move {
                let mut get = redis::cmd("HMGET");
                get.arg(self.keys.game(&id))
                    .arg("finished_ms")
                    .arg("players");
                let (ms, players): (Option<u64>, Option<Vec<u8>>) =
                    self.query("reading a game's players", get).await?;
                match (ms, players) {
                    (Some(finished_ms), Some(players)) => Ok(GameRef {
                        players: decode(&players, "a game's players")?,
                        id,
                        finished_ms,
                    }),
                    _ => Err(StoreError::Corrupt(format!(
                        "game {id} is indexed for {player} but not stored"
                    ))),
                }
            })
            .buffered(READ_AHEAD)
            .try_collect()
            .await
    }

    pub(super) async fn account_impl(&self, name: &str) -> Result<Option<Account>> {
        let mut get = redis::cmd("GET");
        get.arg(self.keys.account(name));
        let value: Option<Vec<u8>> = self.query("reading an account", get).await?;
        value.map(|v| decode(&v, "an account")).transpose()
    }

    pub(super) async fn token_impl(&self, token: &str) -> Result<Option<AuthToken>> {
        let found = self.stored_token(&token_digest(token)).await?;
        Ok(found.map(|stored| AuthToken {
            token: token.to_owned(),
            ..stored
        }))
    }

    /// A token as stored, under its digest.
    pub(super) async fn stored_token(&self, digest: &str) -> Result<Option<AuthToken>> {
        let mut get = redis::cmd("GET");
        get.arg(self.keys.token(digest));
        let value: Option<Vec<u8>> = self.query("reading a token", get).await?;
        value.map(|v| decode(&v, "a token")).transpose()
    }

    pub(super) async fn rating_impl(&self, player: &str, family: &str) -> Result<Option<Rating>> {
        let mut get = redis::cmd("HGET");
        get.arg(self.keys.ratings(family)).arg(name_key(player));
        let value: Option<Vec<u8>> = self.query("reading a rating", get).await?;
        value.map(|v| decode(&v, "a rating")).transpose()
    }

    pub(super) async fn ratings_impl(&self, family: &str) -> Result<Vec<Rating>> {
        let mut all = redis::cmd("HVALS");
        all.arg(self.keys.ratings(family));
        let values: Vec<Vec<u8>> = self.query("reading a family's ratings", all).await?;
        values.iter().map(|v| decode(v, "a rating")).collect()
    }

    pub(super) async fn rating_history_impl(
        &self,
        player: &str,
        family: &str,
    ) -> Result<Vec<HistoryPoint>> {
        let mut range = redis::cmd("LRANGE");
        range.arg(self.keys.history(player, family)).arg(0).arg(-1);
        let values: Vec<Vec<u8>> = self.query("reading a rating history", range).await?;
        values
            .iter()
            .map(|v| decode(v, "a rating history point"))
            .collect()
    }
}
