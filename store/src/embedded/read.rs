//! The embedded store's reads, each in one read transaction (run on a
//! blocking thread by the caller).

use std::collections::HashMap;

use redb::{Database, ReadTransaction, ReadableDatabase, ReadableTable, ReadableTableMetadata};

use super::schema::{
    ACCOUNTS, COUNTERS, GAME_INFO, GAME_RECORD, GAMES_BY_PLAYER, GameInfo, LIVE, LIVE_LOG,
    LIVE_META, ORPHANS, RATING_HISTORY, RATINGS, TOKENS, after, db_error, decode,
};
use crate::{
    Account, AuthToken, FinishedGame, GameRef, HistoryPoint, LiveTable, Rating, Result, StoreError,
    name_key,
};

pub(super) fn begin(db: &Database) -> Result<ReadTransaction> {
    db.begin_read().map_err(db_error)
}

/// Every live table with its log: the tables, then one pass over the log
/// from the oldest live table's creation on, skipping orphaned entries.
pub(super) fn live_tables(db: &Database) -> Result<Vec<LiveTable>> {
    let txn = begin(db)?;
    let live = txn.open_table(LIVE).map_err(db_error)?;
    let metas = txn.open_table(LIVE_META).map_err(db_error)?;
    let mut tables = Vec::new();
    let mut heads = Vec::new();
    for row in live.iter().map_err(db_error)? {
        let (id, value) = row.map_err(db_error)?;
        let (id, head) = (id.value(), value.value());
        let Some(meta) = metas.get(id).map_err(db_error)? else {
            return Err(StoreError::Corrupt(format!(
                "live table {id} has no metadata"
            )));
        };
        heads.push(head);
        tables.push(LiveTable {
            id: id.to_owned(),
            meta: meta.value().to_vec(),
            entries: Vec::new(),
        });
    }
    fill_logs(&txn, &mut tables, &heads)?;
    Ok(tables)
}

/// Reads the logs of `tables`, whose (generation, length) are `heads` in
/// the same order: one pass over the live log from the oldest table's
/// creation on (a table's entries all come after it), skipping orphaned
/// entries and stopping once every entry is found.
pub(super) fn fill_logs(
    txn: &ReadTransaction,
    tables: &mut [LiveTable],
    heads: &[(u64, u64)],
) -> Result<()> {
    let by_generation: HashMap<u64, usize> = heads
        .iter()
        .enumerate()
        .map(|(i, &(g, _))| (g, i))
        .collect();
    for (table, &(_, len)) in tables.iter_mut().zip(heads) {
        table.entries = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    }
    if let Some(&first) = by_generation.keys().min() {
        let log = txn.open_table(LIVE_LOG).map_err(db_error)?;
        let mut missing: u64 = heads.iter().map(|&(_, len)| len).sum();
        for row in log.range(first..).map_err(db_error)? {
            if missing == 0 {
                break;
            }
            let (_, value) = row.map_err(db_error)?;
            let (generation, index, entry) = value.value();
            let Some(&t) = by_generation.get(&generation) else {
                continue;
            };
            let table = &mut tables[t];
            if index != table.entries.len() as u64 {
                return Err(StoreError::Corrupt(format!(
                    "table {}'s log jumps from {} entries to index {index}",
                    table.id,
                    table.entries.len()
                )));
            }
            table.entries.push(entry.to_vec());
            missing = missing.saturating_sub(1);
        }
    }
    for (table, &(_, len)) in tables.iter().zip(heads) {
        if table.entries.len() as u64 != len {
            return Err(StoreError::Corrupt(format!(
                "table {} has {} log entries of {len}",
                table.id,
                table.entries.len()
            )));
        }
    }
    Ok(())
}

/// How many entries the live log holds, and how many of them are orphans.
pub(super) fn log_stats(db: &Database) -> Result<super::schema::LogStats> {
    let txn = begin(db)?;
    let log = txn.open_table(LIVE_LOG).map_err(db_error)?;
    let counters = txn.open_table(COUNTERS).map_err(db_error)?;
    Ok(super::schema::LogStats {
        entries: log.len().map_err(db_error)?,
        orphans: counters
            .get(ORPHANS)
            .map_err(db_error)?
            .map_or(0, |v| v.value()),
    })
}

/// One live table with its log, if it is live: its entries are found from
/// its creation on, by its generation.
pub(super) fn live_table(db: &Database, id: &str) -> Result<Option<LiveTable>> {
    let txn = begin(db)?;
    let live = txn.open_table(LIVE).map_err(db_error)?;
    let Some(row) = live.get(id).map_err(db_error)? else {
        return Ok(None);
    };
    let head = row.value();
    let metas = txn.open_table(LIVE_META).map_err(db_error)?;
    let Some(meta) = metas.get(id).map_err(db_error)? else {
        return Err(StoreError::Corrupt(format!(
            "live table {id} has no metadata"
        )));
    };
    let mut tables = [LiveTable {
        id: id.to_owned(),
        meta: meta.value().to_vec(),
        entries: Vec::new(),
    }];
    fill_logs(&txn, &mut tables, &[head])?;
    let [table] = tables;
    Ok(Some(table))
}

pub(super) fn game(db: &Database, id: &str) -> Result<Option<FinishedGame>> {
    let txn = begin(db)?;
    let infos = txn.open_table(GAME_INFO).map_err(db_error)?;
    let Some(info) = infos.get(id).map_err(db_error)? else {
        return Ok(None);
    };
    let info: GameInfo = decode(info.value(), "a game's header")?;
    let records = txn.open_table(GAME_RECORD).map_err(db_error)?;
    let Some(record) = records.get(id).map_err(db_error)? else {
        return Err(StoreError::Corrupt(format!("game {id} has no record")));
    };
    Ok(Some(FinishedGame {
        id: id.to_owned(),
        players: info.players,
        finished_ms: info.finished_ms,
        record: record.value().to_vec(),
        ratings: Vec::new(),
    }))
}

pub(super) fn games_of(
    db: &Database,
    player: &str,
    before_ms: Option<u64>,
    limit: usize,
) -> Result<Vec<GameRef>> {
    if limit == 0 {
        return Ok(Vec::new());
    }
    let txn = begin(db)?;
    let index = txn.open_table(GAMES_BY_PLAYER).map_err(db_error)?;
    let key = name_key(player);
    let end = after(&key);
    let start = (key.as_str(), 0, "");
    let rows = match before_ms {
        // Every key (key, ms, id) with ms < before sorts before (key, before, "").
        Some(before) => index.range(start..(key.as_str(), before, "")),
        None => index.range(start..(end.as_str(), 0, "")),
    }
    .map_err(db_error)?;
    let mut games = Vec::new();
    for row in rows.rev().take(limit) {
        let (key, players) = row.map_err(db_error)?;
        let (_, finished_ms, id) = key.value();
        games.push(GameRef {
            id: id.to_owned(),
            finished_ms,
            players: decode(players.value(), "a game's players")?,
        });
    }
    Ok(games)
}

pub(super) fn account(db: &Database, name: &str) -> Result<Option<Account>> {
    let txn = begin(db)?;
    let accounts = txn.open_table(ACCOUNTS).map_err(db_error)?;
    let value = accounts.get(name_key(name).as_str()).map_err(db_error)?;
    value.map(|v| decode(v.value(), "an account")).transpose()
}

pub(super) fn token(db: &Database, token: &str) -> Result<Option<AuthToken>> {
    let txn = begin(db)?;
    let tokens = txn.open_table(TOKENS).map_err(db_error)?;
    let value = tokens.get(token).map_err(db_error)?;
    value.map(|v| decode(v.value(), "a token")).transpose()
}

pub(super) fn rating(db: &Database, player: &str, family: &str) -> Result<Option<Rating>> {
    let txn = begin(db)?;
    let ratings = txn.open_table(RATINGS).map_err(db_error)?;
    let value = ratings
        .get((family, name_key(player).as_str()))
        .map_err(db_error)?;
    value.map(|v| decode(v.value(), "a rating")).transpose()
}

pub(super) fn ratings(db: &Database, family: &str) -> Result<Vec<Rating>> {
    let txn = begin(db)?;
    let ratings = txn.open_table(RATINGS).map_err(db_error)?;
    let end = after(family);
    let mut all = Vec::new();
    for row in ratings
        .range((family, "")..(end.as_str(), ""))
        .map_err(db_error)?
    {
        let (_, value) = row.map_err(db_error)?;
        all.push(decode(value.value(), "a rating")?);
    }
    Ok(all)
}

pub(super) fn rating_history(
    db: &Database,
    player: &str,
    family: &str,
) -> Result<Vec<HistoryPoint>> {
    let txn = begin(db)?;
    let history = txn.open_table(RATING_HISTORY).map_err(db_error)?;
    let key = name_key(player);
    let mut points = Vec::new();
    for row in history
        .range((key.as_str(), family, 0)..=(key.as_str(), family, u64::MAX))
        .map_err(db_error)?
    {
        let (_, value) = row.map_err(db_error)?;
        points.push(decode(value.value(), "a rating history point")?);
    }
    Ok(points)
}

/// The ids of the live tables.
pub(super) fn live_ids(db: &Database) -> Result<Vec<String>> {
    let txn = begin(db)?;
    let live = txn.open_table(LIVE).map_err(db_error)?;
    let mut ids = Vec::new();
    for row in live.iter().map_err(db_error)? {
        ids.push(row.map_err(db_error)?.0.value().to_owned());
    }
    Ok(ids)
}
