//! Bringing a store of the earlier layout up to date at open: login
//! tokens keyed by their digest instead of the token, and live tables'
//! metadata rewritten by the server's [`MetaUpgrade`] (its resume tokens
//! to their digests).
//!
//! Why all at once, then a compaction and empty journal files: a row
//! rewritten in redb leaves its old page's bytes in the file until the
//! page is used again, and the journal's records (read at this open, and
//! redundant after its checkpoint) hold the old rows' writes; a token
//! that must not be at rest must not be there either. redb's compaction
//! moves every page to the front of the file and cuts the rest off.

use std::sync::Arc;

use redb::{Database, Durability, ReadableTable};

use super::journal::Journal;
use super::schema::{
    LIVE_META, META, SCHEMA_VERSION, SCHEMA_VERSION_KEY, TOKENS, UPGRADABLE, db_error, decode,
    encode,
};
use crate::tokens::{is_digest, token_digest};
use crate::{AuthToken, MetaUpgrade, Result};

/// Upgrades the store if it has the earlier layout (`open_store` refused
/// any other); `db` must not be shared yet (for the compaction). Called
/// after the journal's replay and checkpoint.
pub(super) fn upgrade(
    db: &mut Arc<Database>,
    journal: &mut Journal,
    meta: Option<MetaUpgrade>,
) -> Result<()> {
    let txn = db.begin_write().map_err(db_error)?;
    let version = {
        let table = txn.open_table(META).map_err(db_error)?;
        let version = table.get(SCHEMA_VERSION_KEY).map_err(db_error)?;
        version.map(|v| v.value())
    };
    if version != Some(UPGRADABLE) {
        return Ok(());
    }
    let mut txn = txn;
    txn.set_durability(Durability::Immediate)
        .map_err(db_error)?;
    let mut tokens = 0;
    {
        let mut table = txn.open_table(TOKENS).map_err(db_error)?;
        let mut old = Vec::new();
        for row in table.iter().map_err(db_error)? {
            let (k, v) = row.map_err(db_error)?;
            if !is_digest(k.value()) {
                old.push((k.value().to_owned(), v.value().to_vec()));
            }
        }
        for (key, value) in old {
            let mut token: AuthToken = decode(&value, "a token")?;
            token.token = token_digest(&key);
            table.remove(key.as_str()).map_err(db_error)?;
            let value = encode(&token)?;
            table
                .insert(token.token.as_str(), value.as_slice())
                .map_err(db_error)?;
            tokens += 1;
        }
    }
    let mut metas = 0;
    if let Some(upgrade) = meta {
        let mut table = txn.open_table(LIVE_META).map_err(db_error)?;
        let mut rewritten = Vec::new();
        for row in table.iter().map_err(db_error)? {
            let (k, v) = row.map_err(db_error)?;
            if let Some(new) = upgrade(v.value()) {
                rewritten.push((k.value().to_owned(), new));
            }
        }
        for (id, new) in rewritten {
            table
                .insert(id.as_str(), new.as_slice())
                .map_err(db_error)?;
            metas += 1;
        }
    }
    txn.open_table(META)
        .map_err(db_error)?
        .insert(SCHEMA_VERSION_KEY, SCHEMA_VERSION)
        .map_err(db_error)?;
    txn.commit().map_err(db_error)?;
    match Arc::get_mut(db) {
        Some(db) => while db.compact().map_err(db_error)? {},
        None => tracing::warn!("the store could not be compacted after its upgrade"),
    }
    journal.clear()?;
    tracing::info!(
        tokens,
        live_tables = metas,
        "the store's layout was brought from version {UPGRADABLE} to {SCHEMA_VERSION}: tokens are kept as their digests"
    );
    Ok(())
}
