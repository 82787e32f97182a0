//! Game records: every accepted input, in order, with its time, so a game
//! can be stored, restored after a restart and replayed exactly (覆盘,
//! docs/rules.md §1).
//!
//! A record stores the machine's *inputs*, not its state: the
//! configuration, the opener, the start instant, and each accepted input
//! (a seat's action, a tick that let time act, a server declaration). The
//! machine is deterministic, so feeding the same inputs at the same
//! instants rebuilds the same game, clocks included; the clocks stored
//! after each input are a check (and what a viewer shows), not a source.
//!
//! # JSON form, version 1
//!
//! ```json
//! {
//!   "version": 1,
//!   "config": { "rule_set": "renju", "opening": "free", "board_size": 15,
//!               "time": { "kind": "fischer", "main_ms": 300000, "increment_ms": 5000 },
//!               "draw": {}, "lag_credit_cap_ms": 1000 },
//!   "opener": "first",
//!   "start": 0,
//!   "tags": { "first": "alice", "second": "bob" },
//!   "entries": [
//!     { "at": 2100, "input": "act", "seat": "first",
//!       "action": { "type": "place", "point": "H8" }, "lag_credit_ms": 40,
//!       "clocks": { "running": "second", "first": { "main_ms": 302940 },
//!                   "second": { "main_ms": 300000 } } },
//!     { "at": 9000, "input": "act", "seat": "second",
//!       "action": { "type": "place", "point": "I9", "offer_draw": true }, "clocks": { ... } },
//!     { "at": 15000, "input": "tick", "clocks": { ... } },
//!     { "at": 20000, "input": "abandoned", "seat": "second", "clocks": { ... } }
//!   ],
//!   "result": { "outcome": { "kind": "win", "seat": "first", "color": "black" },
//!               "reason": { "kind": "abandonment", "seat": "second" } }
//! }
//! ```
//!
//! - `version`: the format version; readers refuse versions they do not
//!   know. Adding optional fields, or new variants (actions, opening
//!   rules), does not change it: every existing record keeps its form and
//!   meaning, and a reader that does not know a new variant refuses the
//!   record instead of misreading it. Changing what an existing field or
//!   variant means does change it.
//! - Opening rules (docs/rules.md §6) add actions: `declare_offers` (`count`),
//!   `offer_fifths` (`points`, the whole set, as one entry: the offers are
//!   one move), `keep_fifth` (`point`, the offer white kept: it becomes
//!   move 5), `choose_option` (Taraguchi: `single` or `offers`) and
//!   `place_two` (Swap2: `white`, `black`); swaps are `swap`/`keep` as
//!   before. Every opening action is an entry, so replay is exact.
//! - `config`: a [`GameConfig`] as the lobby sends it.
//! - `start`, `at`: milliseconds of the server's monotonic clock (any
//!   origin; the server uses the table's creation). Only differences matter.
//! - `tags`: free text metadata (player names under `first`/`second`, event,
//!   date, ...); the machine ignores it.
//! - `entries[].input`: `act` (a seat's [`Action`], with the
//!   `lag_credit_ms` it was granted, omitted when zero), `tick` (time made
//!   something happen: a flag or a lapsed draw offer), `abandoned` (the
//!   server declared `seat` gone: its opponent claimed the win, or nobody
//!   could), `draw_called` (`seat` was away and its opponent called a
//!   draw), `both_away` (both away in an untimed game: drawn), `aborted`
//!   (the server aborted), `arbiter_aborted` (a moderator did).
//! - Takebacks (casual rooms): `request_takeback`, then the opponent's
//!   `accept_takeback` (the requester's last move and any later ones are
//!   undone as the entry is replayed) or `decline_takeback`.
//! - `entries[].clocks`: both clocks right after the input (`null` when
//!   untimed), as in [`ClockSnapshot`].
//! - `result`: the [`GameResult`], or `null` while the game runs.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::action::{Action, Seat};
use super::clock::ClockSnapshot;
use super::config::{ConfigError, GameConfig, Millis};
use super::error::GameError;
use super::event::GameResult;

/// The version of the JSON form written by this crate.
pub const RECORD_VERSION: u32 = 1;

/// One accepted input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "input", rename_all = "snake_case")]
pub enum Input {
    /// A seat's action; `lag_credit_ms` is the credit it was granted.
    Act {
        seat: Seat,
        action: Action,
        #[serde(default, skip_serializing_if = "is_zero")]
        lag_credit_ms: Millis,
    },
    /// Time acted: the seat to move flagged, or a draw offer lapsed.
    Tick,
    /// The server declared that `seat` abandoned the game (its opponent
    /// claimed the win, or nobody was there to claim it).
    Abandoned { seat: Seat },
    /// `seat` was away past the grace and its opponent called a draw.
    DrawCalled { seat: Seat },
    /// Both players were away past the grace in an untimed game.
    BothAway,
    /// The server aborted the game.
    Aborted,
    /// An arbiter (a moderator) aborted the game, at any point of it.
    ArbiterAborted,
}

fn is_zero(v: &Millis) -> bool {
    *v == 0
}

/// An input with the instant it was accepted and the clocks after it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RecordEntry {
    pub at: Millis,
    #[serde(flatten)]
    pub input: Input,
    #[serde(default)]
    pub clocks: Option<ClockSnapshot>,
}

/// A whole game (or a game so far). See the module documentation for the
/// JSON form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GameRecord {
    pub version: u32,
    pub config: GameConfig,
    pub opener: Seat,
    pub start: Millis,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tags: BTreeMap<String, String>,
    pub entries: Vec<RecordEntry>,
    pub result: Option<GameResult>,
}

/// Why a record could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("record version {0} is not supported (this build reads version {RECORD_VERSION})")]
    Version(u32),
    #[error("invalid configuration: {0}")]
    Config(#[from] ConfigError),
    #[error("entry {index} (at {at} ms) was refused: {error}")]
    Refused {
        index: usize,
        at: Millis,
        error: GameError,
    },
    #[error("entry {index} is a tick, but at {at} ms time changes nothing")]
    IdleTick { index: usize, at: Millis },
    #[error("entry {index}: the recorded clocks differ from the replayed ones")]
    ClocksDiffer { index: usize },
    #[error("the recorded result differs from the replayed one")]
    ResultDiffers,
}

impl GameRecord {
    /// The JSON form, pretty-printed.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a record always serializes")
    }

    /// Reads the JSON form (any version; [`GameRecord::replay`] checks it).
    pub fn from_json(text: &str) -> Result<GameRecord, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The record with a tag set (player names, event, date, ...).
    pub fn with_tag(mut self, key: &str, value: &str) -> GameRecord {
        self.tags.insert(key.to_string(), value.to_string());
        self
    }
}
