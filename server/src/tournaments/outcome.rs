//! A finished table's result as a tournament result. Why apart: it is
//! the one place the referee's ending (a seat's win, a draw, an abort)
//! becomes the engine's `GameResult`, read from the stored game record
//! alone, so the director reaches the same result from a table's notice
//! and from the store after a restart.
//!
//! A tournament table seats the game's opener (as paired) in the first
//! seat, so the referee's seats are the engine's. An aborted game is
//! lost by the player the abort rule blames: the seat that aborted, or,
//! when the server aborted because a first move never came, the seat
//! whose first move it was: the opener if it never acted, else the
//! second seat.

use tengen_rules::game::{GameRecord, Input, Outcome, ResultReason, Seat as RuleSeat};
use tengen_tournament::{GameResult, Seat};

fn seat(s: RuleSeat) -> Seat {
    match s {
        RuleSeat::First => Seat::First,
        RuleSeat::Second => Seat::Second,
    }
}

/// The tournament result of a finished game's record (`None`: the record
/// is unreadable or has no result).
pub fn of_record(bytes: &[u8]) -> Option<GameResult> {
    let text = std::str::from_utf8(bytes).ok()?;
    let record = GameRecord::from_json(text).ok()?;
    let result = record.result.as_ref()?;
    Some(match (result.outcome, &result.reason) {
        (Outcome::Win { seat: s, .. }, _) => GameResult::Win(seat(s)),
        (Outcome::Draw, _) => GameResult::Draw,
        (Outcome::Aborted, ResultReason::Aborted { seat: Some(s) }) => {
            GameResult::Forfeit(seat(s.other()))
        }
        (Outcome::Aborted, _) => {
            let acted = |s: RuleSeat| {
                record
                    .entries
                    .iter()
                    .any(|e| matches!(e.input, Input::Act { seat, .. } if seat == s))
            };
            match (acted(RuleSeat::First), acted(RuleSeat::Second)) {
                (false, _) => GameResult::Forfeit(Seat::Second),
                (true, false) => GameResult::Forfeit(Seat::First),
                // Not an abort the server makes: nobody to blame.
                (true, true) => GameResult::DoubleForfeit,
            }
        }
    })
}

/// The result of a game nobody could be seated for within the wait:
/// `absent` by seat.
pub fn of_absence(absent: [bool; 2]) -> GameResult {
    match absent {
        [true, false] => GameResult::Forfeit(Seat::Second),
        [false, true] => GameResult::Forfeit(Seat::First),
        _ => GameResult::DoubleForfeit,
    }
}
