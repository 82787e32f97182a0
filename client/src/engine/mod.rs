//! The bridge between the server and a Piskvork (Gomocup) engine: the
//! engine, a child process, plays our seat's stones; everything else a
//! game asks for is decided by the stated policy below.
//!
//! Why a library module: `tengen engine` runs it, and the tests drive it
//! against a real server with real (and deliberately broken) engines.
//!
//! Parts: [`process`] (the child: spawn with a memory rlimit, lines with
//! deadlines), [`clock`] (the seat's clock as `INFO` time limits),
//! [`sync`] (`BEGIN`/`TURN`/`BOARD` from the game's stones), [`opening`]
//! (`SWAP2BOARD` and `YXNBEST` for opening decisions), [`bridge`]
//! (one engine through a game: restart once, then give up), [`game`] (a
//! game played on a [`crate::Session`]), [`types`] (what they share).
//!
//! **Policy** (also in `tengen engine --help`):
//! - The engine is asked for every stone of its seat, except opening
//!   stones confined to a zone (the engine cannot be told the zone).
//! - Swap2's decisions (the opener's three stones, the second player's
//!   choice, the opener's colour) are the engine's by `SWAP2BOARD`, and
//!   black's fifth-move offers by `YXNBEST N`, when it answers them
//!   ([`opening`]: asked once per game, the built-in bot's after a
//!   refusal, a timeout or an unusable answer).
//! - Every other opening decision (swap or keep, the number of fifth-move
//!   offers, which offer to keep, Taraguchi's option, Super Sakata's
//!   choice) and the zone stones are the built-in bot's
//!   ([`crate::bot::decide`]), as are the extensions' decisions for an
//!   engine that does not answer them.
//! - In claim rooms, holding white, the bridge claims black's latest stone
//!   when the referee (`tengen-rules`) says it was forbidden.
//! - A draw offer: by default accepted only on a nearly full board (at
//!   most one row's worth of empty points) where our side cannot make five
//!   now, otherwise the next move declines it; the owner may choose
//!   another [`DrawPolicy`] (never, always, when the engine's evaluation
//!   is below zero, after move N).
//! - A pass only when no point is playable and the rules allow one.
//! - Resignation: never by choice unless the owner chose
//!   [`ResignPolicy::EvalBelow`] (the engine's reported evaluation, see
//!   [`policy`]); always when the engine failed twice in
//!   one game (no answer in time, garbage, an illegal or occupied point,
//!   an exit), or when no point is playable and no pass is allowed.

pub mod bridge;
pub mod clock;
pub mod game;
pub mod opening;
pub mod policy;
pub mod process;
pub mod sync;
pub mod types;

pub use bridge::{Bridge, Timing};
pub use game::{GameEnd, PlayError, play};
pub use policy::{DrawPolicy, Policy, ResignPolicy};
pub use process::{Engine, EngineError};
pub use types::{Dialect, EngineSpec, Log, Note, told_memory};
