//! Opening the database file: checks that refuse, without writing, what
//! is not this build's store, redb's check of every page, and the schema
//! written into a new one. The directory is the server's user's alone
//! (0700) and the file too (0600): it holds password hashes, and tokens'
//! digests.

use std::fs;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use redb::{Database, DatabaseError, ReadTransaction, ReadableDatabase, StorageError};

use super::journal::CHECKPOINT_BYTES;
use super::schema::{
    self, DB_FILE, META, SCHEMA_VERSION, SCHEMA_VERSION_KEY, UPGRADABLE, db_error,
};
use crate::{Result, StoreError};

/// How [`super::EmbeddedStore::open_with`] opens a store.
#[derive(Clone, Debug)]
pub struct EmbeddedOptions {
    /// The most memory redb keeps of the file ([`DEFAULT_CACHE_BYTES`]).
    pub cache_bytes: usize,
    /// The server's rewrite of live tables' metadata, applied once when
    /// the store's layout is brought up to date ([`crate::MetaUpgrade`]).
    pub upgrade_meta: Option<crate::MetaUpgrade>,
    /// A checkpoint at every this many bytes of journal
    /// ([`super::CHECKPOINT_BYTES`]; less in tests, to see several).
    #[doc(hidden)]
    pub checkpoint_bytes: u64,
}

impl Default for EmbeddedOptions {
    fn default() -> EmbeddedOptions {
        EmbeddedOptions {
            cache_bytes: DEFAULT_CACHE_BYTES,
            upgrade_meta: None,
            checkpoint_bytes: CHECKPOINT_BYTES,
        }
    }
}

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
        Ok(_) => restrict(dir, 0o700),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(dir)
                .map_err(|e| {
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
    match fs::metadata(&path) {
        Ok(m) if !m.is_file() => {
            return Err(StoreError::Unavailable(format!(
                "{} is not a file",
                path.display()
            )));
        }
        Ok(_) => restrict(&path, 0o600),
        // redb creates the file with the default mode: it is made first.
        Err(_) => {
            fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(false)
                .mode(0o600)
                .open(&path)
                .map_err(|e| {
                    StoreError::Unavailable(format!("cannot create {}: {e}", path.display()))
                })?;
        }
    }
    Ok(path)
}

/// Takes away what others than the server's user may do with `path`
/// (made by an earlier version, or by hand); a warning if that fails (a
/// directory the server's user does not own).
fn restrict(path: &Path, mode: u32) {
    let Ok(m) = fs::metadata(path) else { return };
    if m.permissions().mode() & 0o077 != 0
        && let Err(e) = fs::set_permissions(path, fs::Permissions::from_mode(mode))
    {
        tracing::warn!(path = %path.display(), "cannot make it the server's user's alone: {e}");
    }
}

/// Opens the store's database at `path`, creating it when the file is
/// missing or empty, with redb's check of every page's checksum (the
/// figure for a 1 GiB store is in BENCHMARKS.md). An existing file is
/// first opened read-only, so that a
/// file that is not a redb database, a redb database that is not a Tengen
/// store, or a store of another schema version is refused before anything
/// could write to it. (A clean read-write open and close rewrites redb's
/// own bookkeeping, never the data.)
///
/// Also says whether redb found its last commit damaged and went back to
/// the one before (which it does after a crash cut that commit short):
/// the journal then tells whether anything acknowledged went with it.
pub(super) fn open_store(path: &Path, cache_bytes: usize) -> Result<(Database, bool)> {
    let (db, fell_back, before) = open_store_keeping(path, cache_bytes)?;
    if let Some(before) = before {
        before.discard();
    }
    Ok((db, fell_back))
}

/// [`open_store`], keeping a copy of a file that redb has to repair (a
/// crash left it open), for the caller to put back if the start then
/// refuses the directory (the journal is damaged): a refused start leaves
/// every file as the crash left it.
pub(super) fn open_store_keeping(
    path: &Path,
    cache_bytes: usize,
) -> Result<(Database, bool, Option<BeforeRepair>)> {
    let existing = fs::metadata(path).map(|m| m.len() > 0).unwrap_or(false);
    let before = if existing && probe(path)? == Probed::NeedsRepair {
        BeforeRepair::take(path)
    } else {
        None
    };
    let fell_back = Arc::new(AtomicBool::new(false));
    let opened =
        open_database_with(path, cache_bytes, fell_back.clone()).and_then(|db| match read_version(
            &db.begin_read().map_err(db_error)?,
            path,
        )? {
            Some(SCHEMA_VERSION | UPGRADABLE) => Ok(db),
            Some(found) => Err(StoreError::Version {
                found,
                supported: SCHEMA_VERSION,
            }),
            None => {
                create_schema(&db)?;
                Ok(db)
            }
        });
    match opened {
        Ok(db) => Ok((db, fell_back.load(Ordering::SeqCst), before)),
        Err(e) => {
            if let Some(before) = before {
                before.put_back();
            }
            Err(e)
        }
    }
}

/// The bytes of a database file as a crash left them, copied beside it
/// before redb's repair rewrites its bookkeeping.
pub(super) struct BeforeRepair {
    copy: std::path::PathBuf,
    original: std::path::PathBuf,
}

impl BeforeRepair {
    /// Copies `path`; without room for the copy the start goes on
    /// without one (said in the log).
    fn take(path: &Path) -> Option<BeforeRepair> {
        let mut name = path.as_os_str().to_owned();
        name.push(".before-repair");
        let copy = std::path::PathBuf::from(name);
        match fs::copy(path, &copy) {
            Ok(_) => Some(BeforeRepair {
                copy,
                original: path.to_path_buf(),
            }),
            Err(e) => {
                let _ = fs::remove_file(&copy);
                tracing::warn!(
                    "could not copy {} before redb repairs it ({e}); a refused start will \
                     leave the repaired file",
                    path.display()
                );
                None
            }
        }
    }

    /// Puts the copy back in place of the repaired file (whose database
    /// must be closed).
    pub(super) fn put_back(self) {
        if let Err(e) = fs::rename(&self.copy, &self.original) {
            tracing::error!(
                "could not put {} back in place of {}: {e}",
                self.copy.display(),
                self.original.display()
            );
        }
    }

    /// The start went on: the copy is not needed.
    pub(super) fn discard(self) {
        let _ = fs::remove_file(&self.copy);
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
    open_database_with(path, DEFAULT_CACHE_BYTES, Default::default())
}

/// [`open_database`] with a cache of `cache_bytes` (redb's own default, 1
/// GiB, would let the process grow with the file up to that).
/// `fell_back` is set if redb's repair went back to the commit before
/// the last (its last one failed its checksums).
fn open_database_with(
    path: &Path,
    cache_bytes: usize,
    fell_back: Arc<AtomicBool>,
) -> Result<Database> {
    // redb asserts on some impossible states in debug builds; a damaged
    // file must give an error instead.
    let open = || {
        let mut builder = Database::builder();
        builder
            .set_cache_size(cache_bytes)
            // Every page's checksum, at every open: damage is refused
            // here, naming the file, not found later by a read.
            .set_check_integrity_on_open(true)
            // redb's repair reports this point (a third of the way) only
            // when the last commit fails its checksums and it goes back
            // to the one before.
            .set_repair_callback(move |session| {
                if (session.progress() - 0.3).abs() < 1e-9 {
                    fell_back.store(true, Ordering::SeqCst);
                }
            });
        builder.create(path)
    };
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
fn probe(path: &Path) -> Result<Probed> {
    let db = match std::panic::catch_unwind(|| Database::builder().open_read_only(path)) {
        Ok(Ok(db)) => db,
        Ok(Err(DatabaseError::RepairAborted)) => return Ok(Probed::NeedsRepair),
        Ok(Err(e)) => return Err(open_error(path, e)),
        Err(_) => return Err(unreadable(path)),
    };
    match read_version(&db.begin_read().map_err(db_error)?, path)? {
        Some(found) if found != SCHEMA_VERSION && found != UPGRADABLE => Err(StoreError::Version {
            found,
            supported: SCHEMA_VERSION,
        }),
        _ => Ok(Probed::Clean),
    }
}

/// What [`probe`] found of a file it did not refuse.
#[derive(Debug, PartialEq, Eq)]
enum Probed {
    /// Closed cleanly: readable without a write.
    Clean,
    /// Left open by a crash: the read-write open will repair it.
    NeedsRepair,
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
