//! The admin socket: how `tengen-server admin` reaches a running server
//! whose embedded store it cannot open (redb lets one process hold the
//! file). A Unix socket in the data directory ([`SOCKET`]), mode 0600, so
//! only the server's own user can connect; each connection carries one
//! request line (JSON: [`AdminRequest`], at most [`MAX_LINE`] bytes) and
//! gets one answer line (a server message: the action's reply or an
//! `error`; a backup request, `crate::backup`, gets that module's reply
//! once the copy is whole). The server runs the action as a moderator's
//! `moderate` would, on its live state: a ban closes the account's
//! sessions at once. Connections are answered side by side (at most
//! [`AT_ONCE`]), so a backup taking minutes holds up no ban.

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tengen_protocol::{ErrorBody, ErrorCode, ModRequest, ServerMsg};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixListener;
use tokio::sync::watch;

use super::actions::Ctx;
use crate::hosting::Hosting;

/// The socket's file name in the data directory.
pub const SOCKET: &str = "admin.sock";
/// The longest request line.
pub const MAX_LINE: usize = 16 * 1024;
/// Requests answered at once; a further connection waits to be accepted.
const AT_ONCE: usize = 4;

/// One request over the socket.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AdminRequest {
    /// Who acts, for the audit log (`cli:` and the operator's user).
    pub by: String,
    pub request: ModRequest,
}

/// A request line: a backup (`crate::backup`, answered with its own
/// reply) if it has a `backup` field, else a moderation action.
enum Line {
    Backup(crate::backup::BackupRequest),
    Moderate(AdminRequest),
}

impl Line {
    fn parse(line: &[u8]) -> serde_json::Result<Line> {
        let value: serde_json::Value = serde_json::from_slice(line)?;
        if value.get("backup").is_some() {
            serde_json::from_value(value).map(Line::Backup)
        } else {
            serde_json::from_value(value).map(Line::Moderate)
        }
    }
}

/// The socket's path for a data directory.
pub fn path(data_dir: &Path) -> PathBuf {
    data_dir.join(SOCKET)
}

/// The command line's side: sends `req` as one line to the server
/// listening on `socket` and reads its answer line; `Ok(None)` when no
/// server listens there.
pub async fn ask<Reply: DeserializeOwned>(
    socket: &Path,
    req: &impl Serialize,
) -> anyhow::Result<Option<Reply>> {
    let Ok(stream) = tokio::net::UnixStream::connect(socket).await else {
        return Ok(None);
    };
    let (read, mut write) = stream.into_split();
    let mut line = serde_json::to_vec(req)?;
    line.push(b'\n');
    write
        .write_all(&line)
        .await
        .context("writing to the admin socket")?;
    let mut answer = String::new();
    BufReader::new(read)
        .read_line(&mut answer)
        .await
        .context("reading the admin socket")?;
    if answer.is_empty() {
        anyhow::bail!("the server closed the admin socket without an answer");
    }
    serde_json::from_str(&answer)
        .map(Some)
        .context("the server's answer")
}

/// Listens on the data directory's socket until shutdown (a stale socket
/// file of an earlier run is replaced; the store's lock says no other
/// server uses this directory).
pub fn serve(
    hosting: Hosting,
    data_dir: &Path,
    mut shutdown: watch::Receiver<bool>,
) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let path = path(data_dir);
    let _ = std::fs::remove_file(&path);
    let listener = UnixListener::bind(&path)?;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
    let slots = std::sync::Arc::new(tokio::sync::Semaphore::new(AT_ONCE));
    tokio::spawn(async move {
        loop {
            let slot = tokio::select! {
                slot = slots.clone().acquire_owned() => slot,
                _ = shutdown.wait_for(|s| *s) => break,
            };
            let Ok(slot) = slot else { break };
            let accepted = tokio::select! {
                s = listener.accept() => s,
                _ = shutdown.wait_for(|s| *s) => break,
            };
            let Ok((stream, _)) = accepted else { continue };
            let hosting = hosting.clone();
            tokio::spawn(async move {
                answer(&hosting, stream).await;
                drop(slot);
            });
        }
        let _ = std::fs::remove_file(&path);
    });
    Ok(())
}

async fn answer(h: &Hosting, stream: tokio::net::UnixStream) {
    let (read, mut write) = stream.into_split();
    let mut line = Vec::new();
    let mut reader = BufReader::new(read.take(MAX_LINE as u64));
    let read = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        reader.read_until(b'\n', &mut line),
    )
    .await;
    let mut out = match read {
        Ok(Ok(_)) => match Line::parse(&line) {
            Ok(Line::Backup(req)) => {
                serde_json::to_vec(&crate::backup::answer(&*h.store, req).await)
            }
            Ok(Line::Moderate(req)) => serde_json::to_vec(&run(h, req).await),
            Err(e) => serde_json::to_vec(&ServerMsg::Error(ErrorBody::new(
                ErrorCode::BadRequest,
                e.to_string(),
            ))),
        },
        _ => return,
    }
    .unwrap_or_default();
    out.push(b'\n');
    let _ = write.write_all(&out).await;
}

async fn run(h: &Hosting, req: AdminRequest) -> ServerMsg {
    if let Err(why) = req.request.validate() {
        return ServerMsg::Error(ErrorBody::new(ErrorCode::BadRequest, why));
    }
    if super::arbiter::reaches_live(&req.request) {
        return super::arbiter::through_socket(h, &req.by, req.request).await;
    }
    let ctx = Ctx {
        m: &h.moderation,
        store: &*h.store,
        sessions: &h.sessions,
        by: &req.by,
    };
    ctx.act(req.request).await.unwrap_or_else(ServerMsg::Error)
}
