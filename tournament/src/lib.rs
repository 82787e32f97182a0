//! Tengen's tournament engine: matches, round robins by the Berger
//! tables, Swiss pairing by the Dutch system, knockouts, arenas, standings
//! with tie-breaks, and a `Tournament` value that ties them together.
//!
//! Pure like the referee: no I/O, no async, no clock reads (times and lots
//! are passed in), and every state serialisable so the server can store it
//! and replay it. See `docs/tournaments.md` for the systems and sources.

pub mod arena;
pub mod export;
pub mod knockout;
pub mod ledger;
pub mod matches;
pub mod model;
pub mod round_robin;
pub mod standings;
pub mod swiss;
pub mod tournament;

pub use matches::{
    Decider, GameKind, Match, MatchError, MatchFormat, MatchLength, MatchState, Recorded,
};
pub use model::{GameResult, Outcome, PlayerId, PointSystem, Points, Seat};
pub use standings::{MAX_TIE_BREAKS, Standing, TieBreak, TieBreakError};
pub use tournament::{
    Board, BoardContent, Entrant, GameRef, Round, Settings, System, Tournament, TournamentError,
};
