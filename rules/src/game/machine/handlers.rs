//! The machine's input handlers: for each kind of input, first every check
//! that could refuse it, then the changes, which cannot fail. Split from
//! the machine's public face (`mod.rs`) to keep each file readable.

use super::Game;
use crate::forbidden::Forbidden;
use crate::game::action::{Seat, Task};
use crate::game::config::{ForbiddenHandling, Millis};
use crate::game::error::GameError;
use crate::game::event::{Event, ForbiddenStone, GameResult, Move, Outcome, ResultReason};
use crate::game::record::{Input, RecordEntry};
use crate::point::{Color, Point};

impl Game {
    // ---- checks ------------------------------------------------------------

    /// What refuses any input at `now`: the end, time running backwards, a
    /// flag that has fallen.
    /// [`Game::precheck`] with the flag judged `credit` earlier: a move
    /// whose lag credit takes it back before the flag is on time.
    pub(super) fn precheck_with_credit(
        &self,
        now: Millis,
        credit: Millis,
    ) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        if now < self.last_at {
            return Err(GameError::TimeWentBackwards {
                now,
                last: self.last_at,
            });
        }
        if let Some(seat) = self.clocks.flagged(now.saturating_sub(credit)) {
            return Err(GameError::TimeUp { seat });
        }
        Ok(())
    }

    pub(super) fn precheck(&self, now: Millis) -> Result<(), GameError> {
        self.precheck_with_credit(now, 0)
    }

    /// `seat` must be the one asked to place a stone (Swap2's second player
    /// may place white 4 as its choice); returns its colour and zone.
    pub(super) fn check_mover(&self, seat: Seat) -> Result<(Color, Option<u8>), GameError> {
        match self.check_task(seat)? {
            Task::Place { color, within, .. } => Ok((color, within)),
            Task::Swap2Choice => Ok((Color::White, None)),
            Task::DecideSwap { .. } | Task::SuperSakataChoice { .. } => {
                Err(GameError::SwapDecisionPending)
            }
            task => Err(GameError::WrongAction { task }),
        }
    }

    /// `seat` must be the one the machine waits for; returns its task.
    pub(super) fn check_task(&self, seat: Seat) -> Result<Task, GameError> {
        match self.task() {
            Some((s, task)) if s == seat => Ok(task),
            _ => Err(GameError::NotYourTurn),
        }
    }

    pub(super) fn check_abort(&self) -> Result<(), GameError> {
        if self.acted[0] && self.acted[1] {
            Err(GameError::AbortNotAllowed)
        } else {
            Ok(())
        }
    }

    pub(super) fn check_offer_with_move(&self, seat: Seat, offer: bool) -> Result<(), GameError> {
        if offer {
            // Only in the openings where one seat places several stones in
            // a row can its own offer still stand when it moves.
            if self.draws.pending.is_some_and(|p| p.seat == seat) {
                return Err(GameError::OfferPending);
            }
            self.draws.check_limits(seat, &self.config.draw)
        } else {
            Ok(())
        }
    }

    // ---- changes (called only once every check has passed) ----------------

    /// The common start of an accepted input by `seat` (or by the server):
    /// reports a lapsed offer and ends the opponent's right to offer
    /// separately. (White's claim on black's last stone is not ended here:
    /// only white's next *move* ends it, [`Game::push_move`].)
    pub(super) fn begin(&mut self, seat: Option<Seat>, now: Millis) -> Vec<Event> {
        let mut events = Vec::new();
        self.settle_lapse(now, &mut events);
        if let Some(seat) = seat {
            if self.draws.may_offer == Some(seat.other()) {
                self.draws.may_offer = None;
            }
            self.acted[seat.index()] = true;
        }
        self.last_at = now;
        events
    }

    pub(super) fn settle_lapse(&mut self, now: Millis, events: &mut Vec<Event>) {
        if let Some(seat) = self.draws.lapsed(&self.config.draw, now) {
            self.draws.pending = None;
            events.push(Event::DrawOfferLapsed { seat });
        }
    }

    /// A move by `seat` declines the opponent's standing draw offer (its
    /// own offer, possible when it places several opening stones in a row,
    /// stands), and ends a takeback request, whoever made it.
    pub(super) fn decline_by_move(&mut self, seat: Seat, events: &mut Vec<Event>) {
        if self.draws.pending.is_some_and(|p| p.seat == seat.other()) {
            self.draws.pending = None;
            events.push(Event::DrawDeclined {
                seat,
                by_move: true,
            });
        }
        self.takeback_ended_by_move(seat, events);
    }

    pub(super) fn log(&mut self, at: Millis, input: Input) {
        let clocks = self.clocks.snapshot(at);
        self.entries.push(RecordEntry { at, input, clocks });
    }

    pub(super) fn finish(
        &mut self,
        outcome: Outcome,
        reason: ResultReason,
        now: Millis,
        events: &mut Vec<Event>,
    ) {
        self.clocks.stop(now);
        self.draws.pending = None;
        self.draws.may_offer = None;
        self.takebacks.pending = None;
        self.notes.claimable = None;
        let result = GameResult { outcome, reason };
        self.result = Some(result.clone());
        events.push(Event::GameOver {
            result,
            clocks: self.clocks.snapshot(now),
            forbidden: self.notes.forbidden.clone(),
        });
    }

    /// Ends `seat`'s turn if the machine now waits for the other seat:
    /// presses the clock (with `credit`) and starts the other's. Called once
    /// the state reflects the action (and before the game is finished).
    pub(super) fn end_turn(&mut self, seat: Seat, now: Millis, credit: Millis) {
        let next = self.to_act().unwrap_or(seat.other());
        if next != seat {
            self.clocks.press(now, credit, next);
        }
    }

    /// Records a move and ends the turn if the other seat acts next. A
    /// white move (a stone or a pass) ends white's right to claim black's
    /// last stone: the forbidden move stands once white plays on without
    /// pointing it out (docs/rules.md §3; an overline stays claimable).
    /// Declining a draw, chatting or any other non-move leaves it.
    pub(super) fn push_move(
        &mut self,
        seat: Seat,
        color: Color,
        (point, board): (Option<Point>, u8),
        now: Millis,
        credit: Millis,
    ) -> Event {
        let mv = Move {
            number: self.moves.len() as u32 + 1,
            seat,
            color,
            point,
            board,
        };
        self.moves.push(mv);
        if color == Color::White {
            self.notes.claimable = None;
        }
        self.end_turn(seat, now, credit);
        Event::Moved {
            mv,
            clocks: self.clocks.snapshot(now),
        }
    }

    pub(super) fn place(
        &mut self,
        seat: Seat,
        board: u8,
        point: Point,
        offer: bool,
        now: Millis,
        credit: Millis,
    ) -> Result<Vec<Event>, GameError> {
        let (color, within) = self.check_mover(seat)?;
        let target = self.board_at(board).ok_or(GameError::NoSuchBoard {
            board,
            boards: self.config.rule_set.boards(),
        })?;
        let size = target.size();
        if !point.on_board(size) {
            return Err(GameError::OffBoard { point });
        }
        if target.get(point).is_some() {
            return Err(GameError::Occupied { point });
        }
        if let Some(w) = within {
            let c = Point::center(size);
            let r = (w / 2) as i32;
            if (point.x as i32 - c.x as i32).abs() > r || (point.y as i32 - c.y as i32).abs() > r {
                return Err(GameError::OutsideZone { within: w });
            }
        }
        self.check_offer_with_move(seat, offer)?;
        let forbidden = match (color, self.handling) {
            (Color::Black, Some(_)) => self.board.forbidden(point),
            _ => None,
        };
        if let (Some(kind), Some(ForbiddenHandling::Block)) = (forbidden, self.handling) {
            return Err(GameError::ForbiddenPoint { point, kind });
        }

        let mut events = self.begin(Some(seat), now);
        self.decline_by_move(seat, &mut events);
        if self.second.is_some() {
            self.place_twin(seat, (board, point), color, (now, credit), &mut events);
            if !self.is_over() {
                self.after_move(seat, offer, now, &mut events);
            }
            return Ok(events);
        }
        self.board
            .place(point, color)
            .expect("checked: on board and empty");
        events.push(self.push_move(seat, color, (Some(point), 0), now, credit));
        self.note_opening_formed(&mut events);
        if color == Color::Black {
            self.notes.claimable = None;
        }
        if !self.settle_stone(color, point, forbidden, now, &mut events) {
            self.after_move(seat, offer, now, &mut events);
        }
        Ok(events)
    }

    /// After a stone of `color` at `point` (on the board and in the moves,
    /// judged `forbidden` before it was placed): a forbidden black stone
    /// loses (`lose`) or is noted for a claim (`claim`); then a five wins
    /// for the colour that made it, and a full board is a draw. Returns
    /// whether the game ended.
    pub(super) fn settle_stone(
        &mut self,
        color: Color,
        point: Point,
        forbidden: Option<Forbidden>,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> bool {
        if let Some(kind) = forbidden {
            if self.handling == Some(ForbiddenHandling::Lose) {
                let outcome = Outcome::win(self.seat_of(Color::White), self);
                let reason = ResultReason::ForbiddenPlayed {
                    point,
                    forbidden: kind,
                };
                self.finish(outcome, reason, now, events);
                return true;
            }
            // Claim: the stone stands, and only the referee knows.
            self.notes.claimable = Some((point, kind));
            self.notes.forbidden.push(ForbiddenStone {
                move_number: self.moves.len() as u32,
                point,
                kind,
            });
        }
        if let Some(line) = self.board.winning_line(point, self.variant) {
            let outcome = Outcome::win(self.seat_of(color), self);
            self.finish(outcome, ResultReason::Five { line }, now, events);
        } else if self.board.is_full() {
            self.finish(Outcome::Draw, ResultReason::BoardFull, now, events);
        } else {
            return false;
        }
        true
    }

    pub(super) fn pass(
        &mut self,
        seat: Seat,
        offer: bool,
        now: Millis,
        credit: Millis,
    ) -> Result<Vec<Event>, GameError> {
        self.check_task(seat)?;
        if self.second.is_some() {
            return Err(GameError::NoPassInTwin);
        }
        if self.opening_step().is_some() {
            return Err(GameError::PassDuringOpening);
        }
        let (color, _) = self.check_mover(seat)?;
        if self.board.stone_count() < 5 {
            return Err(GameError::PassNotAllowed);
        }
        self.check_offer_with_move(seat, offer)?;

        let both = self.moves.last().is_some_and(|m| m.point.is_none());
        let mut events = self.begin(Some(seat), now);
        self.decline_by_move(seat, &mut events);
        events.push(self.push_move(seat, color, (None, 0), now, credit));
        if both {
            self.finish(Outcome::Draw, ResultReason::BothPassed, now, &mut events);
        } else {
            self.after_move(seat, offer, now, &mut events);
        }
        Ok(events)
    }

    /// After a move that did not end the game: the mover may now offer a
    /// draw (and does, if it came with the move).
    pub(super) fn after_move(
        &mut self,
        seat: Seat,
        offer: bool,
        now: Millis,
        events: &mut Vec<Event>,
    ) {
        self.draws.may_offer = Some(seat);
        if offer {
            let offers = self.draws.offer(seat, now);
            events.push(Event::DrawOffered { seat, offers });
        }
    }

    pub(super) fn decide_swap(
        &mut self,
        seat: Seat,
        swap: bool,
        now: Millis,
        credit: Millis,
    ) -> Result<Vec<Event>, GameError> {
        match self.check_task(seat)? {
            Task::DecideSwap { .. } | Task::Swap2Choice | Task::SuperSakataChoice { .. } => {}
            _ => return Err(GameError::NoSwapDecision),
        }
        let mut events = self.begin(Some(seat), now);
        self.swapped = Some(swap);
        self.facts.decide(self.moves.len());
        if swap {
            // Taking the other colour counts as a move: it declines a
            // standing offer, and the colours change hands.
            self.decline_by_move(seat, &mut events);
            self.black = self.black.other();
        }
        // Keeping, the decider usually plays on; swapping, the other seat
        // (now holding the colour to move) does.
        self.end_turn(seat, now, credit);
        events.push(Event::SwapDecided {
            seat,
            swapped: swap,
            black: self.black,
            clocks: self.clocks.snapshot(now),
        });
        Ok(events)
    }

    pub(super) fn offer_draw(&mut self, seat: Seat, now: Millis) -> Result<Vec<Event>, GameError> {
        self.draws.check_separate(seat, &self.config.draw, now)?;
        let mut events = self.begin(Some(seat), now);
        let offers = self.draws.offer(seat, now);
        events.push(Event::DrawOffered { seat, offers });
        Ok(events)
    }

    pub(super) fn answer_draw(
        &mut self,
        seat: Seat,
        accept: bool,
        now: Millis,
    ) -> Result<Vec<Event>, GameError> {
        if self.draws.standing(&self.config.draw, now) != Some(seat.other()) {
            return Err(GameError::NoDrawOffer);
        }
        let mut events = self.begin(Some(seat), now);
        self.draws.pending = None;
        if accept {
            events.push(Event::DrawAccepted { seat });
            self.finish(Outcome::Draw, ResultReason::DrawAgreed, now, &mut events);
        } else {
            events.push(Event::DrawDeclined {
                seat,
                by_move: false,
            });
        }
        Ok(events)
    }
}

impl Outcome {
    /// A win for `seat`, with the colour it holds in `game`.
    pub(super) fn win(seat: Seat, game: &Game) -> Outcome {
        Outcome::Win {
            seat,
            color: game.color_of(seat),
        }
    }
}
