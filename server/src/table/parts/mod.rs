//! The table's state by concern: each part a type of its own that holds
//! the fields only that concern changes, with what it decides alone. They
//! are leaves (they know nothing of the table), so the actor (`super`) is
//! built from them and the files that run each concern (`fanout`,
//! `durable`, `lease`, `deadlines`, `lag`, `social`, `resume`, `absence`)
//! change them.

mod chat;
mod durability;
mod events;
mod freeze;
mod quotas;
mod subscribers;
mod tenure;
mod timers;

pub(crate) use chat::*;
pub(crate) use durability::*;
pub(crate) use events::*;
pub(crate) use freeze::*;
pub use quotas::QUOTA_MAX_MS;
pub(crate) use quotas::*;
pub(crate) use subscribers::*;
pub(crate) use tenure::*;
pub(crate) use timers::*;
