//! The bridge between the server and a Piskvork (Gomocup) engine: the
//! engine, a child process, plays our seat's stones; everything else a
//! game asks for is decided by the stated policy below.
//!
//! Why a library module: `tengen engine` runs it, and the tests drive it
//! against a real server with real (and deliberately broken) engines.
//!
//! Parts: [`process`] (the child: spawn with a memory rlimit, lines with
//! deadlines), [`clock`] (the seat's clock as `INFO` time limits),
//! [`sync`] (`BEGIN`/`TURN`/`BOARD` from the game's stones), [`bridge`]
//! (one engine through a game: restart once, then give up), [`game`] (a
//! game played on a [`crate::Session`]).
//!
//! **Policy** (also in `tengen engine --help`):
//! - The engine is asked for every stone of its seat, except opening
//!   stones confined to a zone (the engine cannot be told the zone).
//! - Every other opening decision (swap or keep, the number of fifth-move
//!   offers, the offers, which offer to keep, Taraguchi's option, Swap2's
//!   choice, Super Sakata's choice) and the zone stones are the built-in
//!   bot's ([`crate::bot::decide`]). `SWAP2BOARD` is not used.
//! - In claim rooms, holding white, the bridge claims black's latest stone
//!   when the referee (`tengen-rules`) says it was forbidden.
//! - A draw offer is accepted only on a nearly full board (at most one
//!   row's worth of empty points) where our side cannot make five now;
//!   otherwise the next move declines it.
//! - A pass only when no point is playable and the rules allow one.
//! - Resignation: never by choice; only when the engine failed twice in
//!   one game (no answer in time, garbage, an illegal or occupied point,
//!   an exit), or when no point is playable and no pass is allowed.

pub mod bridge;
pub mod clock;
pub mod game;
pub mod process;
pub mod sync;

use std::path::PathBuf;
use std::sync::Arc;

pub use bridge::{Bridge, Timing};
pub use game::{GameEnd, PlayError, play};
pub use process::{Engine, EngineError};

use crate::piskvork::NoteKind;

/// How to run the engine.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub program: PathBuf,
    pub args: Vec<String>,
    /// The engine's address space limit in bytes (`RLIMIT_AS`), also told
    /// to it as `INFO max_memory`; `None`: no limit.
    pub max_memory: Option<u64>,
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
}

/// Where notes go (the caller prints or collects them).
pub type Log = Arc<dyn Fn(Note) + Send + Sync>;
