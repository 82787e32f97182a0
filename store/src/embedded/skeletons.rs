//! The embedded store's index of account names by their confusable
//! skeleton ([`crate::name_skeleton`]): one redb table of
//! (skeleton, name_key) keys, written in the transaction that writes the
//! account, and built at open for the accounts stored before it existed
//! (or before [`SKELETON_VERSION`] changed).
//!
//! Why a table of its own: a guest's name, a new account's and a room's
//! are looked up by skeleton, and a skeleton cannot be turned back into
//! the names that have it; the accounts table is keyed by name.

use redb::{Database, ReadableTable, TableError};

use super::read::begin;
use super::schema::{ACCOUNTS, Applied, META, NAME_SKELETONS, after, db_error, decode, fatal};
use super::tables::Tables;
use crate::{Account, Result, SKELETON_VERSION, name_key, name_skeleton};

/// `meta` key: the [`SKELETON_VERSION`] the index was built with.
const VERSION_KEY: &str = "name_skeletons";

impl Tables<'_> {
    /// Indexes the account `name` (with every write of an account).
    pub(super) fn index_name(&mut self, name: &str) -> Applied {
        let (skeleton, key) = (name_skeleton(name), name_key(name));
        self.skeletons
            .open()?
            .insert((skeleton.as_str(), key.as_str()), ())
            .map_err(fatal)?;
        Ok(())
    }
}

/// Builds the index at open when it was built with another version (or
/// never): every account indexed again, in one commit.
pub(super) fn build_if_needed(db: &Database) -> Result<()> {
    let built = {
        let txn = begin(db)?;
        let meta = txn.open_table(META).map_err(db_error)?;
        let version = meta.get(VERSION_KEY).map_err(db_error)?;
        version.map(|v| v.value())
    };
    if built == Some(SKELETON_VERSION) {
        return Ok(());
    }
    let txn = db.begin_write().map_err(db_error)?;
    let mut accounts = 0usize;
    {
        let mut index = txn.open_table(NAME_SKELETONS).map_err(db_error)?;
        index.retain(|_, _| false).map_err(db_error)?;
        let table = txn.open_table(ACCOUNTS).map_err(db_error)?;
        for row in table.iter().map_err(db_error)? {
            let (key, value) = row.map_err(db_error)?;
            let account: Account = decode(value.value(), "an account")?;
            let skeleton = name_skeleton(&account.name);
            index
                .insert((skeleton.as_str(), key.value()), ())
                .map_err(db_error)?;
            accounts += 1;
        }
        txn.open_table(META)
            .map_err(db_error)?
            .insert(VERSION_KEY, SKELETON_VERSION)
            .map_err(db_error)?;
    }
    txn.commit().map_err(db_error)?;
    tracing::info!(accounts, "indexed the account names by their skeleton");
    Ok(())
}

/// Calls `each` with the skeleton and the registered name of every
/// indexed account in `range` (of the index's keys), in index order,
/// while it returns true. A store without the index has none.
fn walk<'a>(
    db: &Database,
    range: impl std::ops::RangeBounds<(&'a str, &'a str)>,
    mut each: impl FnMut(&str, String) -> bool,
) -> Result<()> {
    let txn = begin(db)?;
    let index = match txn.open_table(NAME_SKELETONS) {
        Ok(t) => t,
        Err(TableError::TableDoesNotExist(_)) => return Ok(()),
        Err(e) => return Err(db_error(e)),
    };
    let accounts = txn.open_table(ACCOUNTS).map_err(db_error)?;
    for row in index.range(range).map_err(db_error)? {
        let (key, _) = row.map_err(db_error)?;
        let (skeleton, name) = key.value();
        let Some(value) = accounts.get(name).map_err(db_error)? else {
            continue;
        };
        let account: Account = decode(value.value(), "an account")?;
        if !each(skeleton, account.name) {
            break;
        }
    }
    Ok(())
}

/// The registered names of the accounts whose skeleton is `name`'s.
pub(super) fn accounts_like(db: &Database, name: &str) -> Result<Vec<String>> {
    let skeleton = name_skeleton(name);
    let upper = after(&skeleton);
    let mut names = Vec::new();
    walk(
        db,
        (skeleton.as_str(), "")..(upper.as_str(), ""),
        |_, name| {
            names.push(name);
            true
        },
    )?;
    names.sort_unstable();
    Ok(names)
}

/// The groups of two or more accounts sharing a skeleton, at most
/// `limit`.
pub(super) fn lookalike_accounts(db: &Database, limit: usize) -> Result<Vec<Vec<String>>> {
    let mut groups = Vec::new();
    let mut current: (String, Vec<String>) = (String::new(), Vec::new());
    let close = |(_, mut names): (String, Vec<String>), groups: &mut Vec<Vec<String>>| {
        if names.len() > 1 {
            names.sort_unstable();
            groups.push(names);
        }
    };
    walk(db, .., |skeleton, name| {
        if skeleton != current.0 {
            let done = std::mem::replace(&mut current, (skeleton.to_owned(), Vec::new()));
            close(done, &mut groups);
        }
        current.1.push(name);
        groups.len() < limit
    })?;
    close(current, &mut groups);
    groups.truncate(limit);
    Ok(groups)
}

/// Forgets the index and the version it was built with, as in a store
/// written before it existed (for tests of the build at open).
#[doc(hidden)]
pub fn forget_for_tests(dir: &std::path::Path) -> Result<()> {
    let db = super::open::open_database(&dir.join(super::DB_FILE))?;
    let txn = db.begin_write().map_err(db_error)?;
    txn.delete_table(NAME_SKELETONS).map_err(db_error)?;
    txn.open_table(META)
        .map_err(db_error)?
        .remove(VERSION_KEY)
        .map_err(db_error)?;
    txn.commit().map_err(db_error)
}
