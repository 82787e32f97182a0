//! Test support: a closed store made to look as the previous version left
//! it, for the tests of an upgrade (a server upgraded after a crash).

use std::path::Path;

use redb::Durability;

use super::journal::{self, CHECKPOINT_BYTES, JOURNAL_FILE, Journal, SECOND_FILE};
use super::schema::{META, SCHEMA_VERSION_KEY, TOKENS, UPGRADABLE, db_error, encode};
use super::{DEFAULT_CACHE_BYTES, open};
use crate::{AuthToken, Result, StoreError};

/// Rewrites the records that follow the last checkpoint of the (closed)
/// store in `dir` in the previous journal format, forgets the commit
/// number of that checkpoint, sets the previous layout version and stores
/// `tokens` as that version did (keyed by the token itself).
pub fn as_previous_version(dir: &Path, tokens: &[AuthToken]) -> Result<()> {
    let (db, _) = open::open_store(&dir.join(super::DB_FILE), DEFAULT_CACHE_BYTES)?;
    let (journal, found) = Journal::read(dir, &db, CHECKPOINT_BYTES)?;
    drop(journal);
    if found.damage.is_some() {
        return Err(StoreError::Invalid("the journal is damaged".into()));
    }
    let tag = journal::stored_tag(&db)?;
    let mut old = Vec::new();
    for group in &found.groups {
        let payload = rmp_serde::to_vec(&journal::Group {
            gc: group.gc,
            ops: group.ops.iter().collect(),
        })
        .map_err(|e| StoreError::Invalid(e.to_string()))?;
        journal::legacy::encode(&mut old, false, tag, &payload);
    }
    let write = |name: &str, bytes: &[u8]| {
        std::fs::write(dir.join(name), bytes).map_err(|e| StoreError::Invalid(e.to_string()))
    };
    old.resize(old.len().max(1 << 20), 0);
    write(JOURNAL_FILE, &old)?;
    write(SECOND_FILE, &[])?;
    let mut txn = db.begin_write().map_err(db_error)?;
    txn.set_durability(Durability::Immediate)
        .map_err(db_error)?;
    journal::forget_seq(&txn)?;
    txn.open_table(META)
        .map_err(db_error)?
        .insert(SCHEMA_VERSION_KEY, UPGRADABLE)
        .map_err(db_error)?;
    {
        let mut table = txn.open_table(TOKENS).map_err(db_error)?;
        for token in tokens {
            let value = encode(token)?;
            table
                .insert(token.token.as_str(), value.as_slice())
                .map_err(db_error)?;
        }
    }
    txn.commit().map_err(db_error)
}
