//! The operator's way past a damaged journal (`tengen-server salvage`).
//!
//! Why by hand: damage with acknowledged commits after it means players
//! were told of moves the store can no longer give back. The open refuses
//! that and leaves the journal as it is (after a crash, redb's own
//! recovery has rewritten its bookkeeping in the database file by then);
//! only an operator may accept the loss. A
//! salvage keeps a copy of the three files as they are, replays the
//! commits that precede the damage, takes a checkpoint and empties the
//! journal, and says how many commits were lost.

use std::fs;
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use super::journal::{JOURNAL_FILE, Journal, SECOND_FILE};
use super::open::{self, EmbeddedOptions};
use super::pending::Pending;
use super::schema::DB_FILE;
use super::{upgrade, writer};
use crate::{Result, StoreError};

/// What a salvage did.
#[derive(Clone, Debug)]
pub struct Salvaged {
    /// The damage found, as the open reports it; `None`: the journal was
    /// whole, and nothing was changed.
    pub damage: Option<String>,
    /// Where the copies of the files, as they were, are.
    pub copy: Option<PathBuf>,
    /// The commits that preceded the damage, replayed.
    pub kept: usize,
    /// The commits lost: the damaged one and every one after it found in
    /// the files (a journal of the earlier format cannot count those
    /// after: at least this many).
    pub lost: u64,
}

/// Salvages the store in `dir` (stopped: redb locks its file).
pub fn salvage(dir: &Path, options: &EmbeddedOptions) -> Result<Salvaged> {
    let db_file = dir.join(DB_FILE);
    if !db_file.is_file() {
        return Err(StoreError::Invalid(format!(
            "{} holds no store ({DB_FILE} is missing)",
            dir.display()
        )));
    }
    let copy = keep_copy(dir)?;
    let mut db = match open::open_store(&db_file, options.cache_bytes) {
        Ok((db, _)) => Arc::new(db),
        // A server runs on it: nothing to salvage from here.
        Err(e @ StoreError::Unavailable(_)) => {
            let _ = fs::remove_dir_all(&copy);
            return Err(e);
        }
        Err(e) => {
            return Err(StoreError::Corrupt(format!(
                "{e}. A salvage keeps what the journal holds on top of the database file, \
                 so that file must open: restore it from a backup (the files as they were \
                 are in {})",
                copy.display()
            )));
        }
    };
    let (mut journal, found) = Journal::read(dir, &db, options.checkpoint_bytes)?;
    let Some(damage) = found.damage else {
        drop(db);
        let _ = fs::remove_dir_all(&copy);
        return Ok(Salvaged {
            damage: None,
            copy: None,
            kept: found.groups.len(),
            lost: 0,
        });
    };
    writer::replay_and_checkpoint(&db, &mut journal, &mut Pending::default(), &found.groups)?;
    journal.clear()?;
    upgrade::upgrade(&mut db, &mut journal, options.upgrade_meta)?;
    let salvaged = Salvaged {
        damage: Some(damage.to_string()),
        copy: Some(copy),
        kept: found.groups.len(),
        lost: damage.lost(),
    };
    tracing::warn!(
        kept = salvaged.kept,
        lost = salvaged.lost,
        "salvaged the store in {} past damage: {}",
        dir.display(),
        damage
    );
    Ok(salvaged)
}

/// Copies the store's files as they are into a new directory of `dir`'s.
fn keep_copy(dir: &Path) -> Result<PathBuf> {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let copy = (0..)
        .map(|n| match n {
            0 => dir.join(format!("salvaged-{secs}")),
            n => dir.join(format!("salvaged-{secs}-{n}")),
        })
        .find(|p| !p.exists())
        .expect("some name is free");
    let failed = |e: std::io::Error| {
        StoreError::Unavailable(format!(
            "cannot copy the store into {}: {e}",
            copy.display()
        ))
    };
    fs::DirBuilder::new()
        .mode(0o700)
        .create(&copy)
        .map_err(failed)?;
    for name in [DB_FILE, JOURNAL_FILE, SECOND_FILE] {
        let from = dir.join(name);
        if from.exists() {
            let to = copy.join(name);
            fs::copy(&from, &to).map_err(failed)?;
            fs::set_permissions(&to, fs::Permissions::from_mode(0o600)).map_err(failed)?;
        }
    }
    Ok(copy)
}
