//! Each player's round-by-round record (whom they met, in which seat, how
//! it went, whether it was played), read off the rounds. Pairing,
//! standings, tie-breaks and exports all work from this one view, so they
//! agree on what counts as played, as a bye or as a forfeit.

use serde::{Deserialize, Serialize};

use crate::model::{Outcome, PlayerId, PointSystem, Points, Seat};

/// How a player's round went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Entry {
    /// A game played over the board.
    Played {
        opponent: PlayerId,
        seat: Seat,
        outcome: Outcome,
    },
    /// Won because the opponent did not play (no-show, withdrawal).
    ForfeitWin { opponent: PlayerId },
    /// Lost by not playing.
    ForfeitLoss { opponent: PlayerId },
    /// Neither played.
    DoubleForfeit { opponent: PlayerId },
    /// The pairing's bye (the odd player out), worth `points`.
    Bye { points: Points },
    /// Not paired (withdrawn, or a knocked-out player).
    Absent,
    /// Paired, result not in yet.
    Pending { opponent: PlayerId, seat: Seat },
}

impl Entry {
    pub fn opponent(&self) -> Option<PlayerId> {
        match *self {
            Entry::Played { opponent, .. }
            | Entry::ForfeitWin { opponent }
            | Entry::ForfeitLoss { opponent }
            | Entry::DoubleForfeit { opponent }
            | Entry::Pending { opponent, .. } => Some(opponent),
            Entry::Bye { .. } | Entry::Absent => None,
        }
    }

    pub fn played(&self) -> bool {
        matches!(self, Entry::Played { .. })
    }

    /// Whether the round is settled (not pending).
    pub fn settled(&self) -> bool {
        !matches!(self, Entry::Pending { .. })
    }

    /// Points for this round under `points`.
    pub fn points(&self, points: &PointSystem) -> Points {
        match *self {
            Entry::Played { outcome, .. } => points.for_outcome(outcome),
            Entry::ForfeitWin { .. } => points.win,
            Entry::Bye { points: p } => p,
            _ => Points::ZERO,
        }
    }

    /// Whether the player scored without playing (a bye with points or a
    /// forfeit win): such a player gets no further bye.
    pub fn unplayed_point(&self) -> bool {
        match *self {
            Entry::ForfeitWin { .. } => true,
            Entry::Bye { points } => points > Points::ZERO,
            _ => false,
        }
    }
}

/// One player's record: entries by round (index 0 is round 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub player: PlayerId,
    pub entries: Vec<Entry>,
}

impl Record {
    pub fn score(&self, points: &PointSystem) -> Points {
        self.entries.iter().map(|e| e.points(points)).sum()
    }

    /// The score after the first `rounds` rounds.
    pub fn score_after(&self, rounds: usize, points: &PointSystem) -> Points {
        self.entries
            .iter()
            .take(rounds)
            .map(|e| e.points(points))
            .sum()
    }

    /// Seats of the games played over the board (pending games count:
    /// the seat is taken), oldest first.
    pub fn seats(&self) -> Vec<Seat> {
        self.entries
            .iter()
            .filter_map(|e| match *e {
                Entry::Played { seat, .. } | Entry::Pending { seat, .. } => Some(seat),
                _ => None,
            })
            .collect()
    }

    /// The opponents met over the board (a forfeited game was not
    /// played: its two players may still meet).
    pub fn played_opponents(&self) -> Vec<PlayerId> {
        self.entries
            .iter()
            .filter_map(|e| match *e {
                Entry::Played { opponent, .. } | Entry::Pending { opponent, .. } => Some(opponent),
                _ => None,
            })
            .collect()
    }

    pub fn opponents(&self) -> Vec<PlayerId> {
        self.entries.iter().filter_map(Entry::opponent).collect()
    }

    pub fn wins(&self) -> u32 {
        self.count(|e| {
            matches!(
                e,
                Entry::Played {
                    outcome: Outcome::Win,
                    ..
                }
            )
        })
    }

    pub fn first_seat_games(&self) -> u32 {
        self.count(|e| {
            matches!(
                e,
                Entry::Played {
                    seat: Seat::First,
                    ..
                }
            )
        })
    }

    pub fn unplayed_rounds(&self) -> u32 {
        self.count(|e| !e.played() && e.settled())
    }

    fn count(&self, f: impl Fn(&Entry) -> bool) -> u32 {
        self.entries.iter().filter(|e| f(e)).count() as u32
    }
}
