//! Tournaments run by the server: the director actor (`director`), one
//! event's stored state and the engine calls that change it (`event`),
//! and the views clients get (`view`). Why a tree of its own: the
//! pairing and scoring are the `tengen-tournament` engine's; this is only
//! the part that needs a server: durability, a single director across
//! nodes (by lease), entries by sessions, and pushing changes to
//! watchers.

pub mod director;
pub mod event;
pub mod view;
