//! Tournaments run by the server: the director actor (`director`) and
//! its answers to connections (`requests`), one event's stored state and
//! the engine calls that change it (`event`; an arena's continuous
//! pairing and end in `arena`), the games played on real
//! tables (`games`) and their results read from the game records
//! (`outcome`), and the views clients get (`view`). Why a tree of its
//! own: the pairing and scoring are the `tengen-tournament` engine's;
//! this is only the part that needs a server: durability, a single
//! director across nodes (by lease), entries by sessions, tables for
//! the games, and pushing changes to watchers.

pub mod arena;
pub mod director;
pub mod event;
pub mod games;
pub mod outcome;
pub mod requests;
pub mod view;
