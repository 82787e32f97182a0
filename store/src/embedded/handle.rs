//! The open database as the writer and the reader threads share it, and
//! whether the store refuses writes now.
//!
//! Why: after an I/O error (a full disk, a failing device) redb refuses
//! every later operation on that handle ("Previous I/O error occurred.
//! Please close and re-open the database."), so the store must close its
//! files and open them again once writing works (see `writer`). The
//! writer owns that; readers take the current database for each read, and
//! fail as unavailable, with the reason, while there is none.

use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::Instant;

use redb::Database;

use crate::StoreError;

#[derive(Default)]
pub(super) struct Handle {
    db: RwLock<Option<Arc<Database>>>,
    /// Why the store refuses writes, and since when, while it does.
    refusing: Mutex<Option<(String, Instant)>>,
}

impl Handle {
    pub(super) fn new(db: Arc<Database>) -> Handle {
        Handle {
            db: RwLock::new(Some(db)),
            refusing: Mutex::new(None),
        }
    }

    /// The database now, or why there is none.
    pub(super) fn db(&self) -> Result<Arc<Database>, StoreError> {
        let db = self
            .db
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        db.ok_or_else(|| StoreError::Unavailable(self.why()))
    }

    /// Takes the database away (readers fail meanwhile).
    pub(super) fn take(&self) -> Option<Arc<Database>> {
        self.db
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }

    pub(super) fn put(&self, db: Arc<Database>) {
        *self.db.write().unwrap_or_else(PoisonError::into_inner) = Some(db);
    }

    /// Why the store refuses writes now, and for how long it has, if it
    /// does.
    pub(super) fn refusing(&self) -> Option<String> {
        let refusing = self.refusing.lock().unwrap_or_else(PoisonError::into_inner);
        let (why, since) = refusing.as_ref()?;
        Some(format!("{why} (for {} s)", since.elapsed().as_secs()))
    }

    /// Says why the store refuses writes (`None`: it takes them again); a
    /// new reason while it already refuses keeps the time it began.
    pub(super) fn set_refusing(&self, why: Option<String>) {
        let mut refusing = self.refusing.lock().unwrap_or_else(PoisonError::into_inner);
        *refusing = why.map(|why| {
            let since = refusing.as_ref().map_or_else(Instant::now, |r| r.1);
            (why, since)
        });
    }

    fn why(&self) -> String {
        self.refusing()
            .unwrap_or_else(|| "the store is reopening its files".into())
    }
}
