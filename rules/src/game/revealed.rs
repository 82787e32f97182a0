//! The forbidden points a room shows its players and spectators.
//!
//! In `block` and `lose` renju rooms a forbidden move is refused or lost at
//! once, so nothing is gained by hiding it: the referee lists the points
//! where a black stone would be forbidden now, whenever black is asked for
//! a stone (a move, or the fifth-move offers). In `claim` rooms spotting a
//! forbidden move is part of the game, so nothing is ever revealed there,
//! and other rule sets have no forbidden moves.

use serde::{Deserialize, Serialize};

use super::{ForbiddenHandling, Game, Millis, RuleSet, Task};
use crate::forbidden::Forbidden;
use crate::{Color, Point};

/// A point where a black stone would be forbidden, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ForbiddenPoint {
    pub point: Point,
    pub kind: Forbidden,
}

impl Game {
    /// The forbidden points this room reveals at `now`: in a renju room
    /// whose forbidden moves are `block` or `lose`, while black is asked
    /// for a stone, every empty point where black's stone would be
    /// forbidden (ordered by row, then column); empty otherwise (and always
    /// in `claim` rooms).
    pub fn forbidden_points_shown(&self, now: Millis) -> Vec<ForbiddenPoint> {
        let config = self.config();
        let reveals = config.rule_set == RuleSet::Renju
            && matches!(
                config.forbidden_handling(),
                Some(ForbiddenHandling::Block | ForbiddenHandling::Lose)
            );
        if !reveals || self.is_over() {
            return Vec::new();
        }
        let black_to_place = self.prompt(now).is_some_and(|p| {
            matches!(
                p.task,
                Task::Place {
                    color: Color::Black,
                    ..
                } | Task::OfferFifths { .. }
            )
        });
        if !black_to_place {
            return Vec::new();
        }
        self.board()
            .forbidden_points()
            .into_iter()
            .map(|(point, kind)| ForbiddenPoint { point, kind })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Action, GameConfig, Seat};

    fn game(handling: ForbiddenHandling) -> Game {
        let mut config = GameConfig::free(RuleSet::Renju);
        config.forbidden = Some(handling);
        Game::new(config, Seat::First, 0).expect("valid")
    }

    /// Black H8 I8 J9 J10 (white far away): J8 makes two threes.
    fn play_to_double_three(g: &mut Game) {
        let moves = ["H8", "A1", "I8", "A3", "J9", "A5", "J10", "A7"];
        for (i, p) in moves.iter().enumerate() {
            let seat = if i % 2 == 0 {
                Seat::First
            } else {
                Seat::Second
            };
            g.apply(seat, Action::place(p.parse().unwrap()), (i as u64 + 1) * 10)
                .expect("legal");
        }
    }

    #[test]
    fn block_and_lose_rooms_reveal_black_s_forbidden_points() {
        for handling in [ForbiddenHandling::Block, ForbiddenHandling::Lose] {
            let mut g = game(handling);
            play_to_double_three(&mut g);
            let shown = g.forbidden_points_shown(100);
            assert!(
                shown.contains(&ForbiddenPoint {
                    point: "J8".parse().unwrap(),
                    kind: Forbidden::DoubleThree
                }),
                "{shown:?}"
            );
        }
    }

    #[test]
    fn claim_rooms_reveal_nothing() {
        let mut g = game(ForbiddenHandling::Claim);
        play_to_double_three(&mut g);
        assert_eq!(g.forbidden_points_shown(100), Vec::new());
    }

    #[test]
    fn nothing_is_revealed_while_white_is_to_play() {
        let mut g = game(ForbiddenHandling::Block);
        play_to_double_three(&mut g);
        g.apply(Seat::First, Action::place("O15".parse().unwrap()), 100)
            .expect("legal");
        assert_eq!(g.forbidden_points_shown(110), Vec::new());
    }
}
