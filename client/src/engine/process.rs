//! The engine as a child process: spawned with a memory limit, spoken to
//! line by line, every read bounded by a deadline and a line length.
//!
//! Why a module of its own: this is where an outside program can hang,
//! babble or die, and each of those must come back as a typed
//! [`EngineError`] at a known time, never as a blocked task or an
//! unbounded buffer.

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::time::Instant;

use tengen_rules::Point;

use super::types::{EngineSpec, Log, Note};
use crate::piskvork::{NoteKind, from_xy, note};

/// The longest line an engine may print; anything longer is babble.
pub const MAX_LINE: usize = 4096;

/// The longest a line may wait to be taken by the engine.
pub const WRITE_WAIT: Duration = Duration::from_secs(5);

/// The most lines [`Engine::drain`] reads before it stops anyway.
pub const MAX_DRAIN: usize = 64;

/// How long an engine that printed `ERROR` while a reply was awaited
/// (`OK`, an extension's answer) may take to answer anyway; silent past
/// it, the `ERROR` was its reply: a refusal.
pub const ERROR_GRACE: Duration = Duration::from_secs(1);

/// The most `MESSAGE` lines kept for [`Engine::take_messages`].
pub const MAX_KEPT: usize = 512;

/// What is awaited, which decides what an `ERROR` line means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Awaiting {
    /// A stone. No `ERROR` is ever taken for it: engines print them
    /// unprompted (Rapfi, when its hash table does not fit the memory it
    /// was told: `ERROR Failed to allocate ...` after `INFO max_memory`,
    /// then a smaller table and its move). The answer is the next line
    /// that is not a note; an engine that says nothing more runs out of
    /// time.
    Stone,
    /// `OK` or an extension's answer: `UNKNOWN` is a refusal at once,
    /// `ERROR` once the engine stays silent for [`ERROR_GRACE`] after it
    /// (Rapfi complains about each bad line of a position, then answers).
    Reply,
}

/// What went wrong with the engine.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("the engine could not be started: {0}")]
    Spawn(std::io::Error),
    #[error("no answer from the engine within {0:?}")]
    Timeout(Duration),
    #[error("the engine printed '{0}', which is not an answer")]
    Garbage(String),
    #[error("the engine refused: {0}")]
    Refused(String),
    #[error("the engine exited ({0})")]
    Exited(String),
    #[error("the engine's point {point}: {why}")]
    Illegal { point: String, why: String },
}

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: ChildStdout,
    buf: Vec<u8>,
    /// The rest of a line too long is dropped, up to its newline.
    skipping: bool,
    log: Log,
    /// The evaluation in the engine's latest `MESSAGE`/`DEBUG` line that
    /// had one ([`super::policy::evaluation`]).
    pub last_eval: Option<i32>,
    /// The texts of its latest `MESSAGE` lines (at most [`MAX_KEPT`]):
    /// where Rapfi puts the N best moves of `YXNBEST`.
    messages: std::collections::VecDeque<String>,
}

impl Engine {
    /// Starts `spec`'s command, its address space limited to
    /// `spec.max_memory` bytes when set (the child is killed when the
    /// `Engine` is dropped).
    pub fn spawn(spec: &EngineSpec, log: Log) -> Result<Engine, EngineError> {
        let mut cmd = Command::new(&spec.program);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true);
        let limits: Vec<(libc::__rlimit_resource_t, u64)> = [
            spec.max_memory.map(|b| (libc::RLIMIT_AS, b)),
            spec.cpu_seconds.map(|s| (libc::RLIMIT_CPU, s)),
        ]
        .into_iter()
        .flatten()
        .collect();
        if !limits.is_empty() {
            set_limits(&mut cmd, limits);
        }
        let mut child = cmd.spawn().map_err(EngineError::Spawn)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(EngineError::Exited("no pipes".into()));
        };
        Ok(Engine {
            child,
            stdin,
            stdout,
            buf: Vec::new(),
            skipping: false,
            log,
            last_eval: None,
            messages: std::collections::VecDeque::new(),
        })
    }

    /// Sends one line; an engine that stops reading (its pipe full for
    /// [`WRITE_WAIT`]) is a timeout, not a hang.
    pub async fn send(&mut self, line: &str) -> Result<(), EngineError> {
        (self.log)(Note::Sent(line.to_string()));
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        let write = async {
            self.stdin.write_all(&bytes).await?;
            self.stdin.flush().await
        };
        match tokio::time::timeout(WRITE_WAIT, write).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) => Err(self.exited()),
            Err(_) => Err(EngineError::Timeout(WRITE_WAIT)),
        }
    }

    /// Waits for `OK` (after `START`, `RESTART`), logging the engine's
    /// notes on the way.
    pub async fn expect_ok(&mut self, wait: Duration) -> Result<(), EngineError> {
        let deadline = Instant::now() + wait;
        let line = self.answer_line(deadline, wait, Awaiting::Reply).await?;
        if line.eq_ignore_ascii_case("OK") {
            Ok(())
        } else {
            Err(EngineError::Garbage(line))
        }
    }

    /// Waits for a point `x,y` on a board of `size`.
    pub async fn expect_point(&mut self, size: u8, wait: Duration) -> Result<Point, EngineError> {
        let deadline = Instant::now() + wait;
        let line = self.answer_line(deadline, wait, Awaiting::Stone).await?;
        from_xy(&line, size).map_err(|_| EngineError::Garbage(line))
    }

    /// The engine's next answer line (notes logged and skipped; `UNKNOWN`
    /// is a refusal, and `ERROR` when nothing follows it within
    /// [`ERROR_GRACE`]), as text: for the extensions' answers, which are
    /// not one point.
    pub async fn expect_line(&mut self, wait: Duration) -> Result<String, EngineError> {
        let deadline = Instant::now() + wait;
        self.answer_line(deadline, wait, Awaiting::Reply).await
    }

    /// The texts of the `MESSAGE` lines read since the last call (the
    /// latest [`MAX_KEPT`]), oldest first.
    pub fn take_messages(&mut self) -> Vec<String> {
        self.messages.drain(..).collect()
    }

    /// Reads and logs whatever the engine still prints until it is quiet
    /// for `quiet` (at most [`MAX_DRAIN`] lines): after a refused
    /// extension, an engine that knows no block command may answer each
    /// of its lines, and those answers must not be read as the next move.
    pub async fn drain(&mut self, quiet: Duration) {
        for _ in 0..MAX_DRAIN {
            let deadline = Instant::now() + quiet;
            match self.read_line(deadline, quiet).await {
                Ok(line) => match note(&line) {
                    Some((kind, text)) => (self.log)(Note::Engine(kind, text.to_string())),
                    None => (self.log)(Note::Engine(NoteKind::Debug, format!("(late) {line}"))),
                },
                Err(_) => return,
            }
        }
    }

    /// The next line that is not a note (`MESSAGE`, `DEBUG`, `SUGGEST`
    /// are logged and skipped, `ERROR` and `UNKNOWN` logged and read as
    /// [`Awaiting`] says).
    async fn answer_line(
        &mut self,
        mut deadline: Instant,
        wait: Duration,
        awaiting: Awaiting,
    ) -> Result<String, EngineError> {
        let mut error: Option<String> = None;
        loop {
            let line = match self.read_line(deadline, wait).await {
                // Silent after its ERROR: that was the reply.
                Err(EngineError::Timeout(_)) if error.is_some() => {
                    return Err(EngineError::Refused(error.unwrap_or_default()));
                }
                other => other?,
            };
            match note(&line) {
                Some((kind, text)) => {
                    if matches!(kind, NoteKind::Message | NoteKind::Debug)
                        && let Some(e) = super::policy::evaluation(text)
                    {
                        self.last_eval = Some(e);
                    }
                    if kind == NoteKind::Message {
                        if self.messages.len() == MAX_KEPT {
                            self.messages.pop_front();
                        }
                        self.messages.push_back(text.to_string());
                    }
                    (self.log)(Note::Engine(kind, text.to_string()));
                    match (kind, awaiting) {
                        (NoteKind::Unknown, _) => return Err(EngineError::Refused(line)),
                        (NoteKind::Error, Awaiting::Reply) => {
                            deadline = deadline.min(Instant::now() + ERROR_GRACE);
                            error = Some(line);
                        }
                        _ => {}
                    }
                }
                None if line.trim().is_empty() => {}
                None => return Ok(line.trim().to_string()),
            }
        }
    }

    async fn read_line(
        &mut self,
        deadline: Instant,
        wait: Duration,
    ) -> Result<String, EngineError> {
        loop {
            if let Some(end) = self.buf.iter().position(|&b| b == b'\n') {
                let raw: Vec<u8> = self.buf.drain(..=end).collect();
                if std::mem::take(&mut self.skipping) {
                    continue;
                }
                let line = String::from_utf8_lossy(&raw);
                return Ok(line.trim_end_matches(['\n', '\r']).to_string());
            }
            if self.skipping {
                self.buf.clear();
            } else if self.buf.len() > MAX_LINE {
                let start = String::from_utf8_lossy(&self.buf[..40]).to_string();
                self.buf.clear();
                self.skipping = true;
                return Err(EngineError::Garbage(format!(
                    "{start}... (a line too long)"
                )));
            }
            let mut chunk = [0u8; 1024];
            let n = match tokio::time::timeout_at(deadline, self.stdout.read(&mut chunk)).await {
                Err(_) => return Err(EngineError::Timeout(wait)),
                Ok(Err(_)) | Ok(Ok(0)) => return Err(self.exited()),
                Ok(Ok(n)) => n,
            };
            self.buf.extend_from_slice(&chunk[..n]);
        }
    }

    /// The engine is gone: how it ended, as far as we can tell now.
    fn exited(&mut self) -> EngineError {
        match self.child.try_wait() {
            Ok(Some(status)) => EngineError::Exited(status.to_string()),
            _ => EngineError::Exited("its output closed".into()),
        }
    }

    /// `END`, then a short wait for the engine to exit; killed past it.
    pub async fn stop(mut self) {
        let _ = self.send("END").await;
        let done = tokio::time::timeout(Duration::from_secs(1), self.child.wait()).await;
        if done.is_err() {
            let _ = self.child.kill().await;
        }
    }
}

/// The child's rlimits (`RLIMIT_AS` in bytes, `RLIMIT_CPU` in seconds of
/// CPU time over the process's life: past it the kernel kills it, which
/// the bridge sees as an exit), set between fork and exec.
fn set_limits(cmd: &mut Command, limits: Vec<(libc::__rlimit_resource_t, u64)>) {
    let limits: Vec<_> = limits
        .into_iter()
        .map(|(resource, value)| {
            let limit = libc::rlimit {
                rlim_cur: value as libc::rlim_t,
                rlim_max: value as libc::rlim_t,
            };
            (resource, limit)
        })
        .collect();
    // SAFETY: the closure runs in the forked child before exec and only
    // calls setrlimit, which is async-signal-safe; it reads the vector
    // built before the fork and allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            for (resource, limit) in &limits {
                if libc::setrlimit(*resource, limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
}
