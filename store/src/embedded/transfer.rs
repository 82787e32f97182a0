//! Export and import: the whole store in pages, and items put back as
//! they are (for moving a community to another store; see
//! [`crate::Store::export`]).
//!
//! An export reads one section after the other (accounts, tokens,
//! ratings, games, live tables), each in key order; the cursor is the
//! section and the last key given, so a page is one range read from
//! there, in its own read transaction.

use std::ops::Bound;

use redb::{Database, ReadableDatabase};
use serde::{Deserialize, Serialize};

use super::schema::Failure;
use super::schema::{
    ACCOUNTS, GAME_INFO, GAME_RECORD, GameInfo, LIVE, LIVE_META, RATING_HISTORY, RATINGS, TOKENS,
    db_error, decode, encode,
};
use super::tables::Tables;
use crate::{
    ExportCursor, ExportPage, FinishedGame, Item, LiveTable, Result, StoreError, name_key,
};

/// The sections of an export, in order.
const ACCOUNTS_SECTION: u8 = 0;
const TOKENS_SECTION: u8 = 1;
const RATINGS_SECTION: u8 = 2;
const GAMES_SECTION: u8 = 3;
const DONE: u8 = 5;

/// Where an export stands: the section, and the last key it gave (its
/// parts; none at the start of a section).
#[derive(Serialize, Deserialize)]
struct Cursor {
    section: u8,
    after: Vec<String>,
}

fn bound(after: &str) -> Bound<&str> {
    Bound::Excluded(after)
}

/// A page of the export from `from`.
pub(super) fn export(
    db: &Database,
    from: Option<&ExportCursor>,
    limit: usize,
) -> Result<ExportPage> {
    let limit = limit.max(1);
    let mut cursor = match from {
        Some(c) => crate::codec::uncursor(c)?,
        None => Cursor {
            section: ACCOUNTS_SECTION,
            after: Vec::new(),
        },
    };
    let txn = db.begin_read().map_err(db_error)?;
    let mut items = Vec::new();
    while cursor.section < DONE && items.len() < limit {
        let want = limit - items.len();
        let last = match cursor.section {
            ACCOUNTS_SECTION | TOKENS_SECTION => {
                let table = txn
                    .open_table(if cursor.section == ACCOUNTS_SECTION {
                        ACCOUNTS
                    } else {
                        TOKENS
                    })
                    .map_err(db_error)?;
                let start = match cursor.after.first() {
                    Some(a) => bound(a),
                    None => Bound::Unbounded,
                };
                let mut last = None;
                for row in table
                    .range::<&str>((start, Bound::Unbounded))
                    .map_err(db_error)?
                    .take(want)
                {
                    let (key, value) = row.map_err(db_error)?;
                    items.push(if cursor.section == ACCOUNTS_SECTION {
                        Item::Account(decode(value.value(), "an account")?)
                    } else {
                        Item::Token(decode(value.value(), "a token")?)
                    });
                    last = Some(vec![key.value().to_owned()]);
                }
                last
            }
            RATINGS_SECTION => {
                let ratings = txn.open_table(RATINGS).map_err(db_error)?;
                let history = txn.open_table(RATING_HISTORY).map_err(db_error)?;
                let start = match cursor.after.as_slice() {
                    [family, player] => Bound::Excluded((family.as_str(), player.as_str())),
                    _ => Bound::Unbounded,
                };
                let mut last = None;
                for row in ratings
                    .range::<(&str, &str)>((start, Bound::Unbounded))
                    .map_err(db_error)?
                    .take(want)
                {
                    let (key, value) = row.map_err(db_error)?;
                    let (family, player) = key.value();
                    let mut points = Vec::new();
                    for point in history
                        .range((player, family, 0)..=(player, family, u64::MAX))
                        .map_err(db_error)?
                    {
                        points.push(decode(
                            point.map_err(db_error)?.1.value(),
                            "a history point",
                        )?);
                    }
                    items.push(Item::Rating {
                        rating: decode(value.value(), "a rating")?,
                        history: points,
                    });
                    last = Some(vec![family.to_owned(), player.to_owned()]);
                }
                last
            }
            GAMES_SECTION => {
                let infos = txn.open_table(GAME_INFO).map_err(db_error)?;
                let records = txn.open_table(GAME_RECORD).map_err(db_error)?;
                let start = match cursor.after.first() {
                    Some(a) => bound(a),
                    None => Bound::Unbounded,
                };
                let mut last = None;
                for row in infos
                    .range::<&str>((start, Bound::Unbounded))
                    .map_err(db_error)?
                    .take(want)
                {
                    let (key, value) = row.map_err(db_error)?;
                    let id = key.value();
                    let info: GameInfo = decode(value.value(), "a game's header")?;
                    let record = records
                        .get(id)
                        .map_err(db_error)?
                        .ok_or_else(|| StoreError::Corrupt(format!("game {id} has no record")))?;
                    items.push(Item::Game(FinishedGame {
                        id: id.to_owned(),
                        players: info.players,
                        finished_ms: info.finished_ms,
                        record: record.value().to_vec(),
                        ratings: Vec::new(),
                    }));
                    last = Some(vec![id.to_owned()]);
                }
                last
            }
            // The live tables.
            _ => {
                let tables = live_page(&txn, cursor.after.first().map(String::as_str), want)?;
                let last = tables.last().map(|t| vec![t.id.clone()]);
                items.extend(tables.into_iter().map(Item::Live));
                last
            }
        };
        match last {
            Some(after) if items.len() >= limit => {
                cursor.after = after;
            }
            _ => {
                // The section is done (it gave fewer than asked).
                cursor.section += 1;
                cursor.after = Vec::new();
            }
        }
    }
    let next = if cursor.section < DONE {
        Some(crate::codec::cursor(&cursor)?)
    } else {
        None
    };
    Ok(ExportPage { items, next })
}

/// Up to `want` live tables after `after` (in id order) with their logs:
/// the tables, then one pass over the log from the oldest one's creation.
fn live_page(
    txn: &redb::ReadTransaction,
    after: Option<&str>,
    want: usize,
) -> Result<Vec<LiveTable>> {
    let live = txn.open_table(LIVE).map_err(db_error)?;
    let metas = txn.open_table(LIVE_META).map_err(db_error)?;
    let start = match after {
        Some(a) => bound(a),
        None => Bound::Unbounded,
    };
    let mut tables = Vec::new();
    let mut heads = Vec::new();
    for row in live
        .range::<&str>((start, Bound::Unbounded))
        .map_err(db_error)?
        .take(want)
    {
        let (id, value) = row.map_err(db_error)?;
        let (id, head) = (id.value(), value.value());
        let meta = metas
            .get(id)
            .map_err(db_error)?
            .ok_or_else(|| StoreError::Corrupt(format!("live table {id} has no metadata")))?;
        heads.push(head);
        tables.push(LiveTable {
            id: id.to_owned(),
            meta: meta.value().to_vec(),
            entries: Vec::new(),
        });
    }
    super::read::fill_logs(txn, &mut tables, &heads)?;
    Ok(tables)
}

impl Tables<'_> {
    /// Puts every item as it is (see [`crate::Store::import`]).
    pub(super) fn import(&mut self, items: &[Item]) -> std::result::Result<(), Failure> {
        for item in items {
            match item {
                Item::Account(account) => {
                    let value = encode(account).map_err(Failure::Refused)?;
                    self.accounts
                        .open()?
                        .insert(name_key(&account.name).as_str(), value.as_slice())
                        .map_err(Failure::fatal)?;
                    self.index_name(&account.name)?;
                }
                Item::Token(token) => {
                    let value = encode(token).map_err(Failure::Refused)?;
                    self.tokens
                        .open()?
                        .insert(token.token.as_str(), value.as_slice())
                        .map_err(Failure::fatal)?;
                }
                Item::Rating { rating, history } => {
                    let player = name_key(&rating.player);
                    let family = rating.family.as_str();
                    let value = encode(rating).map_err(Failure::Refused)?;
                    self.ratings
                        .open()?
                        .insert((family, player.as_str()), value.as_slice())
                        .map_err(Failure::fatal)?;
                    self.history
                        .open()?
                        .retain_in(
                            (player.as_str(), family, 0)..=(player.as_str(), family, u64::MAX),
                            |_, _| false,
                        )
                        .map_err(Failure::fatal)?;
                    for (seq, point) in (0u64..).zip(history) {
                        let value = encode(point).map_err(Failure::Refused)?;
                        self.history
                            .open()?
                            .insert((player.as_str(), family, seq), value.as_slice())
                            .map_err(Failure::fatal)?;
                    }
                }
                Item::Game(game) => self.put_game(game)?,
                Item::Live(table) => {
                    self.remove_live(&table.id)?;
                    self.create_table(&table.id, &table.meta)?;
                    self.append(&table.id, 0, &table.entries)?;
                }
            }
        }
        Ok(())
    }
}
