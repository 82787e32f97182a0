//! `tengen-server backup DEST`: a consistent copy of the embedded store,
//! taken while the server serves.
//!
//! Why through the admin socket: redb lets one process hold the store's
//! file, so only the running server can read it; the admin socket
//! (`moderation::socket`, a Unix socket in the data directory that only
//! the server's user may open) is already how the command line reaches a
//! running server, with no password and no port of its own. The command
//! sends a [`BackupRequest`] line there (`moderation::socket::ask`) and
//! gets a [`BackupReply`] line once the copy is whole; with no server running on the directory, the
//! command opens the store itself and copies it the same way. The copy itself is
//! the store's ([`tengen_store::embedded::backup`]): a read snapshot,
//! written on a thread of its own, so that moves do not wait for it.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use tengen_store::{Backup, Store};

/// The request line (JSON) on the admin socket.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BackupRequest {
    /// Who asks, for the log (`cli:` and the operator's user).
    pub by: String,
    /// The new data directory to copy the store into (absolute: the
    /// server's working directory is not the command's).
    pub backup: PathBuf,
}

/// The answer line.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BackupReply {
    Done(Backup),
    /// Refused or failed, and why (naming the path); nothing was left at
    /// the destination.
    Refused(String),
}

/// The server's side: takes the backup on its store.
pub async fn answer(store: &dyn Store, req: BackupRequest) -> BackupReply {
    tracing::info!(by = %req.by, dest = %req.backup.display(), "backup asked for");
    match store.backup(&req.backup).await {
        Ok(done) => BackupReply::Done(done),
        Err(e) => {
            tracing::error!(by = %req.by, "backup refused: {e}");
            BackupReply::Refused(e.to_string())
        }
    }
}
