//! What the bridge's parts share: how to run the engine, the notes
//! they log, and the opening extensions a game may still ask.
//!
//! Why a leaf module: every part names these, and none of the parts is
//! named by them.

use std::path::PathBuf;
use std::sync::Arc;

use crate::piskvork::NoteKind;

/// How to run the engine.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub program: PathBuf,
    pub args: Vec<String>,
    /// The engine's address space limit in bytes (`RLIMIT_AS`), also told
    /// to it as `INFO max_memory`; `None`: no limit.
    pub max_memory: Option<u64>,
    /// The engine's CPU time limit in seconds over its life
    /// (`RLIMIT_CPU`); `None`: no limit. Past it the kernel ends the
    /// engine, a failure like any exit (restarted once, with a fresh
    /// allowance).
    pub cpu_seconds: Option<u64>,
}

/// Something worth a log line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// A line sent to the engine.
    Sent(String),
    /// The engine's own line (`MESSAGE`, `DEBUG`, `ERROR`, `UNKNOWN`,
    /// `SUGGEST`).
    Engine(NoteKind, String),
    /// The engine failed; what the bridge does about it.
    Failed { error: String, then: String },
    /// A move played for our seat, and who chose it.
    Played { action: String, by: &'static str },
    /// The connection to the server dropped, or came back.
    Link(String),
    /// The engine does not answer an opening extension (`SWAP2BOARD`,
    /// `YXNBEST`) usably: the built-in bot decides instead, and the
    /// extension is not asked again in this game.
    Unsupported { command: &'static str, why: String },
}

/// Where notes go (the caller prints or collects them).
pub type Log = Arc<dyn Fn(Note) + Send + Sync>;

/// An opening extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ext {
    Swap2,
    NBest,
}

impl Ext {
    /// The command, as sent and as logged.
    pub fn command(self) -> &'static str {
        match self {
            Ext::Swap2 => "SWAP2BOARD",
            Ext::NBest => "YXNBEST",
        }
    }
}

/// Which extensions may still be asked in this game.
#[derive(Clone, Copy, Debug, Default)]
pub struct Extensions {
    swap2_off: bool,
    nbest_off: bool,
}

impl Extensions {
    pub fn on(&self, ext: Ext) -> bool {
        match ext {
            Ext::Swap2 => !self.swap2_off,
            Ext::NBest => !self.nbest_off,
        }
    }

    pub fn set(&mut self, ext: Ext, on: bool) {
        match ext {
            Ext::Swap2 => self.swap2_off = !on,
            Ext::NBest => self.nbest_off = !on,
        }
    }
}
