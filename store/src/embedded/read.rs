//! The embedded store's reads, each in one read transaction (run on a
//! blocking thread by the caller).

use redb::{Database, ReadTransaction, ReadableDatabase, ReadableTable};

use super::schema::{
    ACCOUNTS, GAME_INFO, GAME_RECORD, GAMES_BY_PLAYER, GameInfo, LIVE_LOG, LIVE_META,
    RATING_HISTORY, RATINGS, TOKENS, after, db_error, decode,
};
use crate::{
    Account, AuthToken, FinishedGame, GameRef, HistoryPoint, LiveTable, Rating, Result, StoreError,
    name_key,
};

fn begin(db: &Database) -> Result<ReadTransaction> {
    db.begin_read().map_err(db_error)
}

/// Every live table with its log, by id; one pass over the metadata and
/// one over the logs (both ordered by table id).
pub(super) fn live_tables(db: &Database) -> Result<Vec<LiveTable>> {
    let txn = begin(db)?;
    let metas = txn.open_table(LIVE_META).map_err(db_error)?;
    let logs = txn.open_table(LIVE_LOG).map_err(db_error)?;
    let mut tables = Vec::new();
    for row in metas.iter().map_err(db_error)? {
        let (id, meta) = row.map_err(db_error)?;
        tables.push(LiveTable {
            id: id.value().to_owned(),
            meta: meta.value().to_vec(),
            entries: Vec::new(),
        });
    }
    let mut at = 0;
    for row in logs.iter().map_err(db_error)? {
        let (key, entry) = row.map_err(db_error)?;
        let (id, index) = key.value();
        while at < tables.len() && tables[at].id.as_str() < id {
            at += 1;
        }
        let Some(table) = tables.get_mut(at).filter(|t| t.id == id) else {
            return Err(StoreError::Corrupt(format!(
                "a log entry of table {id}, which has no metadata"
            )));
        };
        if index != table.entries.len() as u64 {
            return Err(StoreError::Corrupt(format!(
                "table {id}'s log jumps from {} entries to index {index}",
                table.entries.len()
            )));
        }
        table.entries.push(entry.value().to_vec());
    }
    Ok(tables)
}

/// One live table with its log, if it is live.
pub(super) fn live_table(db: &Database, id: &str) -> Result<Option<LiveTable>> {
    let txn = begin(db)?;
    let metas = txn.open_table(LIVE_META).map_err(db_error)?;
    let Some(meta) = metas.get(id).map_err(db_error)? else {
        return Ok(None);
    };
    let logs = txn.open_table(LIVE_LOG).map_err(db_error)?;
    let mut entries = Vec::new();
    for row in logs.range((id, 0u64)..=(id, u64::MAX)).map_err(db_error)? {
        let (key, entry) = row.map_err(db_error)?;
        if key.value().1 != entries.len() as u64 {
            return Err(StoreError::Corrupt(format!(
                "table {id}'s log jumps from {} entries to index {}",
                entries.len(),
                key.value().1
            )));
        }
        entries.push(entry.value().to_vec());
    }
    Ok(Some(LiveTable {
        id: id.to_owned(),
        meta: meta.value().to_vec(),
        entries,
    }))
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
