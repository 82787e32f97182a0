//! What the Swiss pairing knows about a player: score, pairing number,
//! the seats of the games played, whom they met over the board, whether
//! they may still get the bye, and how they floated in the last two
//! rounds. The caller (the `Tournament`, or a TRF reader) builds these
//! from its records.

use serde::{Deserialize, Serialize};

use crate::model::{PlayerId, Points, Seat};

/// A float (FIDE C.04.3 1.4): paired with a lower-scored player, or given
/// the bye or a point without playing (down); paired with a higher-scored
/// player (up).
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
    /// Seats of the games played over the board, oldest first (unplayed
    /// rounds do not count for colours).
    pub seats: Vec<Seat>,
    /// Everyone met over the board: never again. A forfeited game was not
    /// played, so its two players may still meet.
    pub opponents: Vec<PlayerId>,
    /// Already had the pairing-allocated bye, or scored a win's points in
    /// a round without playing: no bye again (C.04.1 article 4).
    pub bye_barred: bool,
    /// How they floated in the last round (`[0]`) and the round before
    /// (`[1]`).
    pub floats: [Option<Float>; 2],
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
            bye_barred: false,
            floats: [None, None],
        }
    }

    /// Games played over the board.
    pub fn played(&self) -> usize {
        self.seats.len()
    }
}
