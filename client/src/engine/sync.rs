//! What to tell the engine so that its board is the game's: `BEGIN` on an
//! empty board it knows, `TURN x,y` when exactly the opponent's one stone
//! was added to the board it knows, `BOARD` otherwise (a game taken up
//! mid-way, after a restart or a reconnect, an opening in which one side
//! laid several stones, a swap of colours).
//!
//! Why a module of its own: the engine never sees the server, only this
//! account of the stones; getting it wrong would make the engine play on a
//! board that is not the game's. It is pure, so it is tested alone.

use tengen_rules::{Color, Point};

/// The engine's board as the bridge last left it.
#[derive(Clone, Debug, Default)]
pub struct Sync {
    /// The stones the engine knows, in order, each with its colour; `None`
    /// when unknown (a fresh or restarted engine needs `BOARD` or `BEGIN`).
    known: Option<Vec<(Point, Color)>>,
    /// The colour the engine played with.
    own: Option<Color>,
}

/// The command that brings the engine to the position and asks it to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ask {
    Begin,
    Turn(Point),
    /// Every stone, `true` for the engine's own colour.
    Board(Vec<(Point, bool)>),
}

impl Sync {
    /// The engine's board is unknown (a restarted engine, a refused
    /// move, a lost connection): it is told the whole board next.
    pub fn forget(&mut self) {
        *self = Sync::default();
    }

    /// The engine has an empty board (after `START` or `RESTART`).
    pub fn fresh(&mut self) {
        *self = Sync {
            known: Some(Vec::new()),
            own: None,
        };
    }

    /// How to ask for `own`'s move with `stones` (in the order played) on
    /// the board.
    pub fn ask(&self, stones: &[(Point, Color)], own: Color) -> Ask {
        let board = || Ask::Board(stones.iter().map(|&(p, c)| (p, c == own)).collect());
        let Some(known) = &self.known else {
            return board();
        };
        if stones.is_empty() && known.is_empty() {
            return Ask::Begin;
        }
        let same_side = self.own.is_none_or(|c| c == own);
        if same_side
            && stones.len() == known.len() + 1
            && stones.starts_with(known)
            && stones[known.len()].1 != own
        {
            return Ask::Turn(stones[known.len()].0);
        }
        board()
    }

    /// The engine played `p` as `own` with `stones` on the board before.
    pub fn played(&mut self, stones: &[(Point, Color)], own: Color, p: Point) {
        let mut known = stones.to_vec();
        known.push((p, own));
        self.known = Some(known);
        self.own = Some(own);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    fn p(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn begin_turn_then_board_when_the_stones_differ() {
        let mut s = Sync::default();
        s.fresh();
        assert_eq!(s.ask(&[], Black), Ask::Begin);
        s.played(&[], Black, p("H8"));
        let two = [(p("H8"), Black), (p("I9"), White)];
        assert_eq!(s.ask(&two, Black), Ask::Turn(p("I9")));
        s.played(&two, Black, p("J10"));
        // Two stones came at once: the whole board.
        let mut five = two.to_vec();
        five.extend([(p("J10"), Black), (p("K11"), White), (p("L12"), Black)]);
        assert!(matches!(s.ask(&five, Black), Ask::Board(_)));
        // The opponent's own colour is never the engine's.
        let mut four = two.to_vec();
        four.extend([(p("J10"), Black), (p("K11"), White)]);
        assert_eq!(s.ask(&four, Black), Ask::Turn(p("K11")));
        // A swap: the engine now holds white.
        match s.ask(&four[..3], White) {
            Ask::Board(b) => assert_eq!(b, [(p("H8"), false), (p("I9"), true), (p("J10"), false)]),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_new_game_gets_the_first_stone_a_restart_the_board() {
        let mut s = Sync::default();
        s.fresh();
        assert_eq!(s.ask(&[(p("H8"), Black)], White), Ask::Turn(p("H8")));
        let three = [(p("H8"), Black), (p("I9"), White), (p("J10"), Black)];
        assert!(matches!(s.ask(&three, White), Ask::Board(_)));
        s.played(&three, White, p("G7"));
        s.forget();
        assert!(matches!(s.ask(&three, White), Ask::Board(_)));
        // Restarted on the first stone, or an empty board: BOARD too.
        assert!(matches!(s.ask(&three[..1], White), Ask::Board(_)));
        assert_eq!(s.ask(&[], Black), Ask::Board(Vec::new()));
    }
}
