//! Twin rooms, professional traditional gomoku on two boards
//! (docs/rules.md §9): the turn structure and the judgement at the end of
//! each turn.
//!
//! Every stone is a move of its own (numbered like any other), but the
//! moves come in turns: black's first turn is one stone, every later turn
//! of either colour two, each on either board. The clock is pressed once a
//! turn, by the machine's usual rule (it presses when the seat to act
//! changes). Fives are judged only when a turn ends: a turn that completed
//! a five (five or more) on both boards wins, one that completed a five on
//! one board only loses, and when both boards are full with no result the
//! game is drawn. Kept apart from the one-board handlers, which judge
//! every stone at once.

use super::Game;
use crate::board::Variant;
use crate::game::config::Millis;
use crate::game::event::{Event, Outcome, ResultReason};
use crate::point::{Color, Point};

/// The colour of stone `number` (from 1) in a twin game: black 1, white 2
/// and 3, black 4 and 5, ... (turn `number / 2`, black's turns even).
fn color_of_stone(number: u32) -> Color {
    if (number / 2).is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    }
}

impl Game {
    /// The colour of the stone due next in a twin game.
    pub(super) fn twin_color_due(&self) -> Color {
        color_of_stone(self.moves.len() as u32 + 1)
    }

    /// In twin rooms while a stone is due: the stones the seat to move still
    /// places this turn, the due one included (1 or 2; 1 also when a single
    /// free point is left on the two boards).
    pub(super) fn stones_left(&self) -> Option<u8> {
        let second = self.second.as_deref()?;
        let next = self.moves.len() as u32 + 1;
        let free = |b: &crate::board::Board| {
            let n = b.size() as usize;
            n * n - b.stone_count()
        };
        let free = free(&self.board) + free(second);
        // Stone 1 is black's whole first turn; after it, even stones open
        // a turn of two and odd ones close it.
        let due: u8 = if next.is_multiple_of(2) { 2 } else { 1 };
        Some(due.min(free.min(2) as u8))
    }

    /// Places a stone of `color` (checked: the seat's, on an empty point of
    /// an existing board) in a twin game and, if that ends the turn, judges
    /// it: a five on both boards wins, a five on one board loses, both
    /// boards full draws.
    pub(super) fn place_twin(
        &mut self,
        seat: crate::game::action::Seat,
        (board, point): (u8, Point),
        color: Color,
        (now, credit): (Millis, Millis),
        events: &mut Vec<Event>,
    ) {
        let target = match board {
            0 => &mut self.board,
            _ => self.second.as_deref_mut().expect("checked: board 1 exists"),
        };
        target
            .place(point, color)
            .expect("checked: on board and empty");
        events.push(self.push_move(seat, color, (Some(point), board), now, credit));
        let full = self.board.is_full() && self.second.as_deref().is_some_and(|b| b.is_full());
        if self.to_act() == Some(seat) && !full {
            return;
        }
        // The turn is over: its stones are the trailing run of `color`.
        let mut lines: [Option<Vec<Point>>; 2] = [None, None];
        for mv in self.moves.iter().rev().take_while(|m| m.color == color) {
            let (Some(p), Some(b)) = (mv.point, self.board_at(mv.board)) else {
                continue;
            };
            let slot = &mut lines[mv.board as usize];
            if slot.is_none() {
                *slot = b.winning_line(p, Variant::Freestyle);
            }
        }
        let lost = |board: u8, line: Vec<Point>| ResultReason::OneBoardFive { seat, board, line };
        let (outcome, reason) = match lines {
            [Some(a), Some(b)] => (
                Outcome::win(seat, self),
                ResultReason::TwinFives { lines: [a, b] },
            ),
            [Some(line), None] => (Outcome::win(seat.other(), self), lost(0, line)),
            [None, Some(line)] => (Outcome::win(seat.other(), self), lost(1, line)),
            [None, None] if full => (Outcome::Draw, ResultReason::BoardFull),
            [None, None] => return,
        };
        self.finish(outcome, reason, now, events);
    }
}
