//! The lobby's vocabulary: players, rooms as listed, coalesced updates.
//!
//! A room is listed with its whole [`GameConfig`] (rule set, opening, time
//! control, forbidden handling, draw policy) as the rules crate defines it, so
//! a client shows exactly what the referee will enforce and the lobby never
//! summarises a rule in its own words.

use serde::{Deserialize, Serialize};
use tengen_rules::game::{GameConfig, Seat};

use crate::ids::{RoomId, TableId};

/// A person at a table, as others see them. Later versions add optional
/// fields (rating, provisional, title): ignore what you do not know.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Player {
    pub name: String,
    /// A guest session (no account).
    pub guest: bool,
    /// A bot account (a program plays it). Sent only when `true`; older
    /// servers never send it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub bot: bool,
}

/// Who sits in each seat (`null`: free).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Players {
    pub first: Option<Player>,
    pub second: Option<Player>,
}

impl Players {
    pub fn seat(&self, seat: Seat) -> Option<&Player> {
        match seat {
            Seat::First => self.first.as_ref(),
            Seat::Second => self.second.as_ref(),
        }
    }

    pub fn seat_mut(&mut self, seat: Seat) -> &mut Option<Player> {
        match seat {
            Seat::First => &mut self.first,
            Seat::Second => &mut self.second,
        }
    }

    /// The first free seat, if any.
    pub fn free_seat(&self) -> Option<Seat> {
        Seat::BOTH.into_iter().find(|&s| self.seat(s).is_none())
    }
}

/// Where a room is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RoomStatus {
    /// A seat is free: `join_room` starts the game.
    Waiting,
    /// The game at `table` runs: `watch` it.
    Playing,
    /// The game at `table` is over; the room stays until its players leave.
    Finished,
}

/// A room as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RoomInfo {
    pub room: RoomId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub config: GameConfig,
    pub players: Players,
    pub status: RoomStatus,
    /// The current (or last) game's table, once one started.
    pub table: Option<TableId>,
    /// Spectators of that table.
    pub spectators: u32,
    /// Whether table chat is on (`create_room.chat`).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub chat: bool,
    /// A rated game (both players are accounts); left out when casual.
    #[serde(default, skip_serializing_if = "is_false")]
    pub rated: bool,
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Changes to the lobby since the last update, coalesced: a room appears in
/// at most one list, and clients apply `removed`, then `changed`, then
/// `added`. A room added and removed within one period is not mentioned.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct LobbyUpdate {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<RoomInfo>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changed: Vec<RoomInfo>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<RoomId>,
}

impl LobbyUpdate {
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.changed.is_empty() && self.removed.is_empty()
    }
}

/// Why a room went away before its game started.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum CancelReason {
    /// Its creator sent `cancel_room` (or left it).
    ByCreator,
    /// Its creator disconnected.
    CreatorGone,
    /// Nobody joined in time.
    Expired,
    /// The server is shutting down.
    Shutdown,
    /// The challenged player declined (`decline_challenge`).
    Declined,
    /// A reason this version does not know (a newer server's). Never sent.
    #[serde(other)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    Other,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_seat_and_empty_update() {
        let mut p = Players::default();
        assert_eq!(p.free_seat(), Some(Seat::First));
        *p.seat_mut(Seat::First) = Some(Player {
            name: "ann".into(),
            guest: true,
            bot: false,
        });
        assert_eq!(p.free_seat(), Some(Seat::Second));
        assert_eq!(p.seat(Seat::First).unwrap().name, "ann");
        assert!(LobbyUpdate::default().is_empty());
        assert_eq!(
            serde_json::to_string(&LobbyUpdate::default()).unwrap(),
            "{}"
        );
        assert_eq!(
            serde_json::from_str::<CancelReason>("\"meteor\"").unwrap(),
            CancelReason::Other
        );
    }
}
