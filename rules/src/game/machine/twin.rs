//! Twin rooms, professional traditional gomoku on two boards
//! (docs/rules.md §9): the turn structure and the judgement at the end of
//! each turn.
//!
//! Every stone is a move of its own (numbered like any other), but the
//! moves come in turns: black's first turn is one stone, every later turn
//! of either colour one stone or two, each on either board, the player's
//! choice ("其馀回合可以下连续两手": *may* play two in a row). A turn ends
//! with its second stone or, after its first, with [`Action::EndTurn`];
//! the stones after which a turn ended early are noted
//! (`Game::turn_ends`), since the moves alone no longer tell where turns
//! end. The clock is pressed once a turn, by the machine's usual rule (it
//! presses when the seat to act changes). Fives are judged only when a
//! turn ends: a turn that completed a five (five or more) on both boards
//! wins, one that completed a five on one board only loses, and when both
//! boards are full with no result the game is drawn. Kept apart from the
//! one-board handlers, which judge every stone at once.
//!
//! [`Action::EndTurn`]: crate::game::Action::EndTurn

use super::Game;
use crate::board::Variant;
use crate::game::config::Millis;
use crate::game::event::{Event, Outcome, ResultReason};
use crate::point::{Color, Point};

impl Game {
    /// Whether the last stone ended its turn: black's first stone, the
    /// second stone of a turn, or a first one after which the turn was
    /// ended ([`Action::EndTurn`](crate::game::Action::EndTurn)).
    fn twin_turn_complete(&self) -> bool {
        let Some(last) = self.moves.last() else {
            return true;
        };
        // Turns alternate colours: the trailing run of one colour is the
        // last turn's stones.
        let run = self
            .moves
            .iter()
            .rev()
            .take_while(|m| m.color == last.color)
            .count();
        run >= 2 || last.number == 1 || self.turn_ends.contains(&last.number)
    }

    /// The colour of the stone due next in a twin game.
    pub(super) fn twin_color_due(&self) -> Color {
        match self.moves.last() {
            None => Color::Black,
            Some(last) if self.twin_turn_complete() => last.color.opponent(),
            Some(last) => last.color,
        }
    }

    /// In twin rooms while a stone is due: the stones the seat to move may
    /// still place this turn, the due one included (2 at a turn's start, 1
    /// after its first stone and in black's first turn; 1 also when a
    /// single free point is left on the two boards).
    pub(super) fn stones_left(&self) -> Option<u8> {
        let second = self.second.as_deref()?;
        let free = |b: &crate::board::Board| {
            let n = b.size() as usize;
            n * n - b.stone_count()
        };
        let free = free(&self.board) + free(second);
        let due: u8 = if self.moves.is_empty() || !self.twin_turn_complete() {
            1
        } else {
            2
        };
        Some(due.min(free.min(2) as u8))
    }

    /// Whether a twin turn was ended early after stone `number`.
    pub(crate) fn turn_ended_after(&self, number: u32) -> bool {
        self.turn_ends.contains(&number)
    }

    /// Whether the seat to move may end its turn now: a twin turn with
    /// one stone placed of the two it may have.
    pub(super) fn turn_may_end(&self) -> bool {
        self.second.is_some() && !self.is_over() && !self.twin_turn_complete()
    }

    /// `seat` ends its twin turn after its first stone: the clock is
    /// pressed and the turn judged.
    pub(super) fn end_twin_turn(
        &mut self,
        seat: crate::game::action::Seat,
        now: Millis,
        credit: Millis,
    ) -> Result<Vec<Event>, crate::game::GameError> {
        self.check_task(seat)?;
        if !self.turn_may_end() {
            return Err(crate::game::GameError::TurnCannotEnd);
        }
        let color = self.color_of(seat);
        let mut events = self.begin(Some(seat), now);
        self.decline_by_move(seat, &mut events);
        let last = self.moves.last().map_or(0, |m| m.number);
        self.turn_ends.push(last);
        self.end_turn(seat, now, credit);
        events.push(Event::TurnEnded {
            seat,
            clocks: self.clocks.snapshot(now),
        });
        self.judge_twin_turn(seat, color, now, &mut events);
        if !self.is_over() {
            self.draws.may_offer = Some(seat);
        }
        Ok(events)
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
        self.judge_twin_turn(seat, color, now, events);
    }

    /// Judges the turn `seat` (holding `color`) has just ended: a five on
    /// both boards wins, a five on one board loses, both boards full draws.
    fn judge_twin_turn(
        &mut self,
        seat: crate::game::action::Seat,
        color: Color,
        now: Millis,
        events: &mut Vec<Event>,
    ) {
        let full = self.board.is_full() && self.second.as_deref().is_some_and(|b| b.is_full());
        // The turn's stones are the trailing run of `color`.
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
