//! Opening the database file: checks that refuse, without writing, what
//! is not this build's store, and the schema written into a new one.

use std::fs;
use std::path::Path;

use redb::{Database, DatabaseError, ReadTransaction, ReadableDatabase, StorageError};

use super::schema::{self, DB_FILE, META, SCHEMA_VERSION, SCHEMA_VERSION_KEY, db_error};
use crate::{Result, StoreError};

/// Makes sure `dir` is a directory (creating it if missing) and returns
/// the database file's path in it.
pub(super) fn data_file(dir: &Path) -> Result<std::path::PathBuf> {
    match fs::metadata(dir) {
        Ok(m) if !m.is_dir() => {
            return Err(StoreError::Unavailable(format!(
                "the data directory {} is not a directory",
                dir.display()
            )));
        }
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            fs::create_dir_all(dir).map_err(|e| {
                StoreError::Unavailable(format!(
                    "cannot create the data directory {}: {e}",
                    dir.display()
                ))
            })?;
        }
        Err(e) => {
            return Err(StoreError::Unavailable(format!(
                "cannot read the data directory {}: {e}",
                dir.display()
            )));
        }
    }
    let path = dir.join(DB_FILE);
    if let Ok(m) = fs::metadata(&path)
        && !m.is_file()
    {
        return Err(StoreError::Unavailable(format!(
            "{} is not a file",
            path.display()
        )));
    }
    Ok(path)
}

/// Opens the store's database at `path`, creating it when the file is
/// missing or empty. An existing file is first opened read-only, so that a
/// file that is not a redb database, a redb database that is not a Tengen
/// store, or a store of another schema version is refused before anything
/// could write to it. (A clean read-write open and close rewrites redb's
/// own bookkeeping, never the data.)
pub(super) fn open_store(path: &Path, cache_bytes: usize) -> Result<Database> {
    let existing = fs::metadata(path).map(|m| m.len() > 0).unwrap_or(false);
    if existing {
        probe(path)?;
    }
    let db = open_database_with(path, cache_bytes)?;
    match read_version(&db.begin_read().map_err(db_error)?, path)? {
        Some(SCHEMA_VERSION) => Ok(db),
        Some(found) => Err(StoreError::Version {
            found,
            supported: SCHEMA_VERSION,
        }),
        None => {
            create_schema(&db)?;
            Ok(db)
        }
    }
}

/// The memory redb may use to cache the file's pages, by default: bounded,
/// so that the process does not grow with the database (redb's own default
/// is 1 GiB). Live tables' logs and recent games fit many times over; a
/// read of an old game may go to the disk (the OS's page cache).
pub const DEFAULT_CACHE_BYTES: usize = 64 << 20;

/// Opens `path` read-write (or creates it), with redb's failures named
/// and the default cache.
pub(super) fn open_database(path: &Path) -> Result<Database> {
    open_database_with(path, DEFAULT_CACHE_BYTES)
}

/// [`open_database`] with a cache of `cache_bytes` (redb's own default, 1
/// GiB, would let the process grow with the file up to that).
fn open_database_with(path: &Path, cache_bytes: usize) -> Result<Database> {
    // redb asserts on some impossible states in debug builds; a damaged
    // file must give an error instead.
    let open = || Database::builder().set_cache_size(cache_bytes).create(path);
    match std::panic::catch_unwind(open) {
        Ok(Ok(db)) => Ok(db),
        Ok(Err(e)) => Err(open_error(path, e)),
        Err(_) => Err(unreadable(path)),
    }
}

/// Reads an existing file without writing to it and refuses it if it is
/// not a store of this schema version. A database that was not closed
/// cleanly cannot be opened read-only; the read-write open repairs it and
/// checks it then.
fn probe(path: &Path) -> Result<()> {
    let db = match std::panic::catch_unwind(|| Database::builder().open_read_only(path)) {
        Ok(Ok(db)) => db,
        Ok(Err(DatabaseError::RepairAborted)) => return Ok(()),
        Ok(Err(e)) => return Err(open_error(path, e)),
        Err(_) => return Err(unreadable(path)),
    };
    match read_version(&db.begin_read().map_err(db_error)?, path)? {
        Some(found) if found != SCHEMA_VERSION => Err(StoreError::Version {
            found,
            supported: SCHEMA_VERSION,
        }),
        _ => Ok(()),
    }
}

fn unreadable(path: &Path) -> StoreError {
    StoreError::Corrupt(format!(
        "{} could not be opened (redb failed on it); it was left as it is",
        path.display()
    ))
}

fn open_error(path: &Path, e: DatabaseError) -> StoreError {
    let shown = path.display();
    match e {
        DatabaseError::DatabaseAlreadyOpen => StoreError::Unavailable(format!(
            "{shown} is already open (by another server, or another store in this process)"
        )),
        DatabaseError::Storage(StorageError::Io(e))
            if e.kind() == std::io::ErrorKind::InvalidData =>
        {
            StoreError::Corrupt(format!(
                "{shown} is not a redb database ({e}); it was left as it is"
            ))
        }
        DatabaseError::Storage(StorageError::Corrupted(m)) => {
            StoreError::Corrupt(format!("{shown} is damaged ({m}); it was left as it is"))
        }
        e => StoreError::Unavailable(format!("cannot open {shown}: {e}")),
    }
}

/// The stored schema version; `None` in a new, empty database. A database
/// with tables but no version is not a Tengen store.
fn read_version(txn: &ReadTransaction, path: &Path) -> Result<Option<u32>> {
    let shown = path.display();
    match txn.open_table(META) {
        Ok(meta) => {
            let version = meta.get(SCHEMA_VERSION_KEY).map_err(db_error)?;
            version
                .map(|v| Some(v.value()))
                .ok_or_else(|| StoreError::Corrupt(format!("{shown} has no schema version")))
        }
        Err(redb::TableError::TableDoesNotExist(_)) => {
            if txn.list_tables().map_err(db_error)?.next().is_some() {
                Err(StoreError::Corrupt(format!(
                    "{shown} is a redb database but not a Tengen store (no schema version); it was left as it is"
                )))
            } else {
                Ok(None)
            }
        }
        Err(e) => Err(StoreError::Corrupt(format!("{shown}: {e}"))),
    }
}

/// Writes the schema version and creates every table, in one commit.
fn create_schema(db: &Database) -> Result<()> {
    use schema::*;
    let txn = db.begin_write().map_err(db_error)?;
    txn.open_table(META)
        .map_err(db_error)?
        .insert(SCHEMA_VERSION_KEY, SCHEMA_VERSION)
        .map_err(db_error)?;
    txn.open_table(COUNTERS).map_err(db_error)?;
    txn.open_table(LIVE).map_err(db_error)?;
    txn.open_table(LIVE_META).map_err(db_error)?;
    txn.open_table(LIVE_LOG).map_err(db_error)?;
    txn.open_table(GAME_INFO).map_err(db_error)?;
    txn.open_table(GAME_RECORD).map_err(db_error)?;
    txn.open_table(GAMES_BY_PLAYER).map_err(db_error)?;
    txn.open_table(ACCOUNTS).map_err(db_error)?;
    txn.open_table(TOKENS).map_err(db_error)?;
    txn.open_table(RATINGS).map_err(db_error)?;
    txn.open_table(RATING_HISTORY).map_err(db_error)?;
    txn.open_table(MODERATION).map_err(db_error)?;
    txn.commit().map_err(db_error)
}
