//! What the Swiss pairing knows about a player: score, rank, seats,
//! opponents, byes and floats. The caller (the `Tournament`, or a TRF
//! reader) builds these from its records.

use serde::{Deserialize, Serialize};

use crate::model::{PlayerId, Points, Seat};

/// Which way a player floated in a round: paired with a lower-scored
/// player (down, the bye counts as down) or a higher-scored one (up).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Float {
    Down,
    Up,
}

/// What the pairing needs to know about one player still in the event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissPlayer {
    pub id: PlayerId,
    /// Pairing number order: 0 is the top seed (by rating).
    pub rank: usize,
    pub score: Points,
    /// Seats of the games played over the board, oldest first.
    pub seats: Vec<Seat>,
    /// Everyone already paired with (played or forfeited): never again.
    pub opponents: Vec<PlayerId>,
    /// Already had a bye or a point without playing: no bye again.
    pub had_bye: bool,
    /// Rounds so far without a game played over the board (byes,
    /// forfeits, absences): the bye goes to someone with fewer.
    pub unplayed_rounds: u32,
    /// How they floated in the last round, if they did.
    pub last_float: Option<Float>,
}

impl SwissPlayer {
    /// A player who has played nothing yet, with pairing number `rank`.
    pub fn new(id: PlayerId, rank: usize) -> SwissPlayer {
        SwissPlayer {
            id,
            rank,
            score: Points::ZERO,
            seats: vec![],
            opponents: vec![],
            had_bye: false,
            unplayed_rounds: 0,
            last_float: None,
        }
    }
}
