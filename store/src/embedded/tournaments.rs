//! The embedded store's tournaments: one redb table, tournament id → the
//! server's opaque state bytes. Why a table of its own: an event's state
//! is replaced whole at every change (a join, a pairing, a result), and
//! read whole at start, so a key-value row is all it needs.

use redb::{Database, ReadableTable, TableDefinition, TableError};

use super::read::begin;
use super::schema::db_error;
use crate::Result;

/// Tournament id → its state (opaque bytes). Created by the first write;
/// a store written before tournaments existed simply has none.
pub(super) const TOURNAMENTS: TableDefinition<&str, &[u8]> = TableDefinition::new("tournaments");

pub(super) fn tournament(db: &Database, id: &str) -> Result<Option<Vec<u8>>> {
    let txn = begin(db)?;
    let table = match txn.open_table(TOURNAMENTS) {
        Ok(t) => t,
        Err(TableError::TableDoesNotExist(_)) => return Ok(None),
        Err(e) => return Err(db_error(e)),
    };
    let value = table.get(id).map_err(db_error)?;
    Ok(value.map(|v| v.value().to_vec()))
}

pub(super) fn tournaments(db: &Database) -> Result<Vec<(String, Vec<u8>)>> {
    let txn = begin(db)?;
    let table = match txn.open_table(TOURNAMENTS) {
        Ok(t) => t,
        Err(TableError::TableDoesNotExist(_)) => return Ok(Vec::new()),
        Err(e) => return Err(db_error(e)),
    };
    let mut out = Vec::new();
    for row in table.iter().map_err(db_error)? {
        let (k, v) = row.map_err(db_error)?;
        out.push((k.value().to_owned(), v.value().to_vec()));
    }
    Ok(out)
}
