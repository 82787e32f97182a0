//! The game state machine, its clocks and its records (docs/rules.md §3–§7).
//!
//! A table has one [`Game`]. The server hands it every player action with
//! the instant it arrived ([`Game::apply`]), lets time act when a deadline
//! falls ([`Game::tick`], [`Game::next_deadline`]), and declares what only
//! it can know ([`Game::declare_abandoned`], [`Game::declare_draw_called`],
//! [`Game::declare_both_away`], [`Game::declare_aborted`]).
//! Each call returns the [`Event`]s to broadcast or a [`GameError`] that
//! changed nothing. At every moment [`Game::prompt`] says which [`Seat`]
//! must act and what it may do.
//!
//! Modules, one concern each:
//! - [`config`], the room's configuration and its validation;
//! - [`opening_rule`], the room's opening rule and the values opening
//!   decisions carry (offer sets, Taraguchi's option);
//! - [`clock`], the clocks as pure arithmetic;
//! - [`action`], seats, actions, prompts (the input vocabulary);
//! - [`event`], events, moves and results (the output vocabulary);
//! - [`error`], refusals;
//! - `draw`, draw-offer bookkeeping; `takebacks`, takeback requests';
//! - `machine`, the machine itself (its input handlers in `machine::handlers`,
//!   the opening rules' sequence in `machine::openings` and their handlers
//!   in `machine::opening_handlers`; claims in `machine::claims`, twin turns
//!   in `machine::twin`, takebacks in `machine::takeback`, an absent
//!   player's end in `machine::absence`);
//! - [`record`], the versioned game record and its replay;
//! - [`notation`], renju notation and PSQ, and reading any record format;
//! - `revealed`, the forbidden points `block` and `lose` rooms show
//!   ([`Game::forbidden_points_shown`]).

pub mod action;
pub mod clock;
pub mod config;
mod draw;
pub mod error;
pub mod event;
mod machine;
pub mod notation;
pub mod opening_rule;
pub mod record;
mod revealed;
mod takebacks;

pub use action::{Action, ActionKind, Prompt, Seat, Task};
pub use clock::{ClockSnapshot, Clocks, SeatClock};
pub use config::{
    ConfigError, DrawPolicy, ForbiddenHandling, GameConfig, MAX_OFFER_LEAD, Millis, Opening,
    RuleSet, TimeControl,
};
pub use error::GameError;
pub use event::{Event, ForbiddenStone, GameResult, Move, Outcome, ResultReason, ViolationKind};
pub use machine::{Game, OpeningProgress, Snapshot};
pub use notation::{ExportError, ImportError, from_psq, from_renju_notation, import};
pub use opening_rule::{
    DEFAULT_SOOSORV_N, DEFAULT_TARAGUCHI_N, JONSSON_MAX_OFFERS, MAX_FIFTH_OFFERS, OfferSet,
    SUPER_SAKATA_MAX_ROUNDS, TaraguchiOption, TooManyOffers,
};
pub use record::{GameRecord, Input, RECORD_VERSION, RecordEntry, ReplayError};
pub use revealed::ForbiddenPoint;
