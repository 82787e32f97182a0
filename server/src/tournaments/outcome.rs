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

#[cfg(test)]
mod tests {
    use tengen_rules::game::{Action, Game, GameConfig, RuleSet, Seat as RuleSeat};

    use super::*;

    fn game() -> Game {
        Game::new(GameConfig::free(RuleSet::Gomoku), RuleSeat::First, 0).unwrap()
    }

    fn of(g: &Game) -> Option<GameResult> {
        of_record(g.record().to_json().as_bytes())
    }

    fn place(g: &mut Game, seat: RuleSeat, p: &str, at: u64) {
        g.apply(seat, Action::place(p.parse().unwrap()), at)
            .unwrap();
    }

    #[test]
    fn a_win_a_resignation_and_an_unfinished_game() {
        let mut g = game();
        assert_eq!(of(&g), None, "no result yet");
        place(&mut g, RuleSeat::First, "H8", 1);
        g.apply(RuleSeat::Second, Action::Resign, 2).unwrap();
        assert_eq!(of(&g), Some(GameResult::Win(Seat::First)));
        assert_eq!(of_record(b"not a record"), None);
    }

    #[test]
    fn the_abort_rule_blames_the_seat_whose_first_move_never_came() {
        let mut g = game();
        g.declare_aborted(10).unwrap();
        assert_eq!(of(&g), Some(GameResult::Forfeit(Seat::Second)));
        let mut g = game();
        place(&mut g, RuleSeat::First, "H8", 1);
        g.declare_aborted(10).unwrap();
        assert_eq!(of(&g), Some(GameResult::Forfeit(Seat::First)));
        let mut g = game();
        g.apply(RuleSeat::First, Action::Abort, 1).unwrap();
        assert_eq!(of(&g), Some(GameResult::Forfeit(Seat::Second)));
    }

    #[test]
    fn absence_by_seat() {
        assert_eq!(of_absence([true, false]), GameResult::Forfeit(Seat::Second));
        assert_eq!(of_absence([false, true]), GameResult::Forfeit(Seat::First));
        assert_eq!(of_absence([true, true]), GameResult::DoubleForfeit);
    }
}
