//! Moderation: roles, the audit log, bans and mutes, players' blocks and
//! reports, banned address ranges, and what moderators do to rooms,
//! games and ratings. One concern per file:
//!
//! - [`state`], what moderation shares on a node ([`state::Moderation`],
//!   in `Hosting`), and [`boot`], its start;
//! - [`book`], the standings this node holds in memory for checks that
//!   cannot wait (a chat line, a pairing);
//! - [`standing`], changing a stored standing without losing a
//!   concurrent change;
//! - [`audit`], the audit log's writer;
//! - [`gate`], the checks at the door: a banned account's login, a
//!   banned address's WebSocket upgrade;
//! - [`addresses`], the banned ranges as this node holds them, and
//!   [`crate::cidr`], what a range is;
//! - [`wire`], what one node tells the others, and [`news`], listening
//!   for it (Redis pub/sub) and doing what it implies (a ban closes the
//!   account's sessions);
//! - [`actions`], the `moderate` requests;
//! - [`arbiter`], those that reach live rooms and games (`close_room`,
//!   `abort_game`), handed to the room's lobby or the game's table;
//! - [`rerate`], `reset_rating`: a bad-faith game's rating changes
//!   reversed;
//! - [`players`], `block`, `unblock` and `report`;
//! - [`chat`], what a mute and a block do to table chat and challenges;
//! - [`playban`], the fair-play limits (which abandoned rated games
//!   count, how long the wait), and [`fairplay`], recording them and
//!   refusing rated play while a wait runs;
//! - [`admin`], `tengen-server admin`: the same actions from the command
//!   line, against the store directly or through a running server's
//!   [`socket`].
//!
//! Why its own tree: moderation cuts across accounts, tables, the lobby
//! and the matchmaker, but owns nothing of theirs; each of them makes one
//! small call here.

pub mod actions;
pub mod addresses;
pub mod admin;
pub mod arbiter;
pub mod audit;
pub mod book;
pub mod boot;
pub mod chat;
pub mod fairplay;
pub mod gate;
pub mod news;
pub mod playban;
pub mod players;
pub mod rerate;
pub mod socket;
pub mod standing;
pub mod state;
pub mod wire;
