//! What the store keeps of a live table besides its log ([`TableMeta`]),
//! and the log entries' stored form.

use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use tengen_protocol::{Player, RoomId, SessionId, TournamentGame};
use tengen_rules::game::{GameConfig, RecordEntry, Seat};

use crate::sessions::{Session, Sessions};

/// The version of [`TableMeta`]'s JSON form.
pub const META_VERSION: u32 = 1;

/// What the store keeps of a live table besides its log: enough to start
/// its actor again after a restart, with the same seats, room and rules.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TableMeta {
    pub version: u32,
    pub room: RoomId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room_name: Option<String>,
    pub public: bool,
    pub chat: bool,
    #[serde(default)]
    pub rated: bool,
    pub config: GameConfig,
    pub opener: Seat,
    /// The players by seat (first, second), with the digests of the resume
    /// tokens that bring them back to their sessions after a restart.
    pub seats: [SeatMeta; 2],
    /// The table seat of the room's first seat (its creator).
    pub room_first: Seat,
    /// When the table started, in Unix milliseconds.
    pub created_ms: u64,
    /// The tournament game this table plays, if any: its result goes to
    /// the tournament director, and it takes no rematch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<TournamentGame>,
}

/// A seated player as stored.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SeatMeta {
    pub session: SessionId,
    pub player: Player,
    /// The resume token's digest (`tengen_store::token_digest`): never the
    /// token (empty for a session without one).
    pub token: String,
}

impl SeatMeta {
    /// How the store keeps `session`'s seat: with its resume token's
    /// digest.
    pub fn of(session: &Session, sessions: &Sessions) -> SeatMeta {
        SeatMeta {
            session: session.id.clone(),
            player: session.player.clone(),
            token: sessions.token_digest(&session.id).unwrap_or_default(),
        }
    }
}

/// The stored metadata of a table an earlier version wrote, with each
/// seat's resume token turned into its digest; `None` if there is none to
/// turn (the store's [`tengen_store::MetaUpgrade`]). Every other field is
/// kept as it is.
pub fn upgrade_stored(meta: &[u8]) -> Option<Vec<u8>> {
    let mut value: serde_json::Value = serde_json::from_slice(meta).ok()?;
    let mut changed = false;
    for seat in value.get_mut("seats")?.as_array_mut()? {
        if let Some(serde_json::Value::String(token)) = seat.get_mut("token")
            && !token.is_empty()
            && !tengen_store::is_digest(token)
        {
            *token = tengen_store::token_digest(token);
            changed = true;
        }
    }
    changed.then(|| serde_json::to_vec(&value).expect("a JSON value serializes"))
}

/// Milliseconds since the Unix epoch, now.
pub fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Encodes log entries as the store keeps them (one JSON object each).
pub fn encode_entries(entries: &[RecordEntry]) -> Vec<Vec<u8>> {
    entries
        .iter()
        .map(|e| serde_json::to_vec(e).expect("a record entry always serializes"))
        .collect()
}

/// Decodes stored log entries.
pub fn decode_entries(raw: &[Vec<u8>]) -> Result<Vec<RecordEntry>, serde_json::Error> {
    raw.iter().map(|b| serde_json::from_slice(b)).collect()
}
