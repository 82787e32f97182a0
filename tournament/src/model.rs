//! The vocabulary every system shares: who plays (`PlayerId`), which seat
//! opens (`Seat`), how a game ended (`GameResult`) and what it is worth
//! (`Points`, counted in half points so a draw is exact and state compares
//! and serialises without floats).

use serde::{Deserialize, Serialize};

/// A player's id, given by the server (an account id or a local number).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct PlayerId(pub u64);

impl std::fmt::Display for PlayerId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// The two seats of a game. `First` opens: it is black, the colour the
/// pairing rules balance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Seat {
    First,
    Second,
}

impl Seat {
    pub fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }
}

/// How one game ended, in seat terms (the referee reports black or white).
/// A forfeit is a game not played over the board: it scores like a win but
/// counts as unplayed for colours, repeat-pairing and tie-breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    Win(Seat),
    Draw,
    /// The named seat wins because the other did not play.
    Forfeit(Seat),
    /// Neither played: nobody scores.
    DoubleForfeit,
}

impl GameResult {
    /// Points (in halves, win 2, draw 1) the given seat scored: the raw
    /// result, before a tournament's point settings are applied.
    pub fn halves_for(self, seat: Seat) -> u32 {
        match self {
            GameResult::Win(s) | GameResult::Forfeit(s) => {
                if s == seat {
                    2
                } else {
                    0
                }
            }
            GameResult::Draw => 1,
            GameResult::DoubleForfeit => 0,
        }
    }

    /// Whether the game was played over the board.
    pub fn played(self) -> bool {
        matches!(self, GameResult::Win(_) | GameResult::Draw)
    }

    /// The outcome for `seat`: won, drawn or lost.
    pub fn outcome_for(self, seat: Seat) -> Outcome {
        match self.halves_for(seat) {
            2 => Outcome::Win,
            1 => Outcome::Draw,
            _ => Outcome::Loss,
        }
    }
}

/// Won, drawn or lost, from one player's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// A score in half points: `Points(3)` is 1½.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Points(pub u32);

impl Points {
    pub const ZERO: Points = Points(0);
    pub const HALF: Points = Points(1);
    pub const ONE: Points = Points(2);
}

impl std::ops::Add for Points {
    type Output = Points;
    fn add(self, o: Points) -> Points {
        Points(self.0 + o.0)
    }
}

impl std::ops::AddAssign for Points {
    fn add_assign(&mut self, o: Points) {
        self.0 += o.0;
    }
}

impl std::iter::Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, |a, b| a + b)
    }
}

impl std::fmt::Display for Points {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let whole = self.0 / 2;
        if self.0.is_multiple_of(2) {
            write!(f, "{whole}")
        } else if whole == 0 {
            write!(f, "½")
        } else {
            write!(f, "{whole}½")
        }
    }
}

/// What a win, a draw, a loss and a bye are worth (the defaults are 1, ½,
/// 0 and 1). Some events score 3-1-0: `win: Points(6), draw: Points(2)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointSystem {
    pub win: Points,
    pub draw: Points,
    pub loss: Points,
    /// A pairing-allocated bye (the odd player out of a Swiss round, the
    /// bye of a round robin with an odd count is worth nothing by the
    /// tables: see `round_robin`).
    pub bye: Points,
}

impl Default for PointSystem {
    fn default() -> Self {
        PointSystem {
            win: Points::ONE,
            draw: Points::HALF,
            loss: Points::ZERO,
            bye: Points::ONE,
        }
    }
}

impl PointSystem {
    pub fn for_outcome(&self, o: Outcome) -> Points {
        match o {
            Outcome::Win => self.win,
            Outcome::Draw => self.draw,
            Outcome::Loss => self.loss,
        }
    }
}

/// A deterministic mix of a random value passed in (the server draws it,
/// the engine never reads a clock or a random source) with an index, so
/// one draw decides several lots (splitmix64).
pub fn mix_lot(lot: u64, index: u64) -> u64 {
    let mut z = lot.wrapping_add(index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
