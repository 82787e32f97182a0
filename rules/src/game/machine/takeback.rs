//! Takebacks (docs/rules.md §5), in rooms whose configuration allows them
//! (`takebacks`: the server's casual rooms).
//!
//! A player asks to take back its last move; the opponent accepts or
//! declines. Accepted, the requester's last move goes, and with it every
//! move played after it (the opponent's reply, if the requester asked on
//! its own turn), and the requester is to move again. Only moves made
//! once the opening rule is over can go: the opening's decisions (swaps,
//! offers, choices) are never undone. The clocks are not turned back: the
//! running clock is charged its time and handed to the requester. Draw
//! offers, violations and their counts stay as they are.
//!
//! A request stands until it is answered or a move is made (the
//! opponent's move declines it, the requester's own withdraws it). A
//! declined request is not asked again before the next move, so a
//! request cannot be repeated to wear the opponent down.
//!
//! Why by removing moves rather than replaying: the machine's state after
//! the opening is the moves themselves (board, colour to move, claim
//! notes, twin turns), so taking the last ones off is exact, and the
//! record keeps the request and the answer as inputs, so a replay does
//! the same.

use super::Game;
use crate::game::action::{ActionKind, Seat};
use crate::game::config::Millis;
use crate::game::error::GameError;
use crate::game::event::Event;
use crate::point::Color;

impl Game {
    /// Notes the number of moves once the opening rule is over (from then
    /// on, moves may be taken back).
    pub(super) fn note_plain_play(&mut self) {
        if self.plain_from.is_none() && self.opening_step().is_none() && !self.swap_pending() {
            self.plain_from = Some(self.moves.len());
        }
    }

    /// The index in the moves of `seat`'s last move that may be taken
    /// back, if any.
    fn takeback_target(&self, seat: Seat) -> Option<usize> {
        let from = self.plain_from?;
        let i = self.moves.iter().rposition(|m| m.seat == seat)?;
        (i >= from).then_some(i)
    }

    /// The takeback actions open to `seat` now.
    pub(super) fn takeback_actions(&self, seat: Seat) -> Vec<ActionKind> {
        if !self.config.takebacks || self.is_over() {
            return Vec::new();
        }
        match self.takebacks.pending {
            Some(s) if s == seat.other() => {
                vec![ActionKind::AcceptTakeback, ActionKind::DeclineTakeback]
            }
            Some(_) => Vec::new(),
            None if !self.takebacks.declined[seat.index()]
                && self.takeback_target(seat).is_some() =>
            {
                vec![ActionKind::RequestTakeback]
            }
            None => Vec::new(),
        }
    }

    pub(super) fn request_takeback(
        &mut self,
        seat: Seat,
        now: Millis,
    ) -> Result<Vec<Event>, GameError> {
        if !self.config.takebacks {
            return Err(GameError::TakebacksOff);
        }
        if self.takebacks.pending.is_some() {
            return Err(GameError::TakebackPending);
        }
        if self.takebacks.declined[seat.index()] {
            return Err(GameError::TakebackDeclinedAlready);
        }
        if self.takeback_target(seat).is_none() {
            return Err(GameError::NothingToTakeBack);
        }
        let mut events = self.begin(Some(seat), now);
        self.takebacks.pending = Some(seat);
        events.push(Event::TakebackRequested { seat });
        Ok(events)
    }

    pub(super) fn answer_takeback(
        &mut self,
        seat: Seat,
        accept: bool,
        now: Millis,
    ) -> Result<Vec<Event>, GameError> {
        let requester = seat.other();
        if self.takebacks.pending != Some(requester) {
            return Err(GameError::NoTakebackRequest);
        }
        let Some(target) = self.takeback_target(requester) else {
            return Err(GameError::NothingToTakeBack);
        };
        let mut events = self.begin(Some(seat), now);
        self.takebacks.pending = None;
        if !accept {
            self.takebacks.declined[requester.index()] = true;
            events.push(Event::TakebackDeclined {
                seat,
                by_move: false,
            });
            return Ok(events);
        }
        let undone = self.moves.split_off(target);
        for mv in &undone {
            if let Some(p) = mv.point {
                match mv.board {
                    0 => self.board.remove(p),
                    _ => self.second.as_deref_mut().and_then(|b| b.remove(p)),
                };
            }
        }
        let kept = self.moves.len() as u32;
        self.turn_ends.retain(|&n| n <= kept);
        self.notes.forbidden.retain(|s| s.move_number <= kept);
        // White may claim black's last stone again if it is the last move
        // once more (and was forbidden).
        self.notes.claimable = self
            .moves
            .last()
            .filter(|m| m.color == Color::Black)
            .and_then(|m| {
                let s = self
                    .notes
                    .forbidden
                    .iter()
                    .find(|s| s.move_number == m.number)?;
                Some((s.point, s.kind))
            });
        self.draws.pending = None;
        self.draws.may_offer = None;
        if let Some(next) = self.to_act()
            && self.clocks.running() != Some(next)
        {
            self.clocks.hand_over(now, next);
        }
        events.push(Event::TakenBack {
            seat: requester,
            undone,
            clocks: self.clocks.snapshot(now),
        });
        Ok(events)
    }

    /// A move by `seat` ends a standing request (declines the opponent's,
    /// withdraws its own), and the declined may ask again.
    pub(super) fn takeback_ended_by_move(&mut self, seat: Seat, events: &mut Vec<Event>) {
        if self.takebacks.pending.take().is_some() {
            events.push(Event::TakebackDeclined {
                seat,
                by_move: true,
            });
        }
        self.takebacks.declined = [false; 2];
    }
}
