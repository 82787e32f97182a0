//! The machine's input handlers: for each kind of input, first every check
//! that could refuse it, then the changes, which cannot fail. Split from
//! the machine's public face (`mod.rs`) to keep each file readable.

use super::Game;
use crate::forbidden::Forbidden;
use crate::game::action::{Seat, Task};
use crate::game::config::{ForbiddenHandling, Millis};
use crate::game::error::GameError;
use crate::game::event::{
    Event, ForbiddenStone, GameResult, Move, Outcome, ResultReason, ViolationKind,
};
use crate::game::record::{Input, RecordEntry};
use crate::point::{Color, Point};

impl Game {
    // ---- checks ------------------------------------------------------------

    /// What refuses any input at `now`: the end, time running backwards, a
    /// flag that has fallen.
    pub(super) fn precheck(&self, now: Millis) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        if now < self.last_at {
            return Err(GameError::TimeWentBackwards {
                now,
                last: self.last_at,
            });
        }
        if let Some(seat) = self.clocks.flagged(now) {
            return Err(GameError::TimeUp { seat });
        }
        Ok(())
    }

    /// `seat` must be the one asked to place a stone; returns its colour
    /// and zone.
    pub(super) fn check_mover(&self, seat: Seat) -> Result<(Color, Option<u8>), GameError> {
        match self.task() {
            Some((s, Task::Place { color, within, .. })) if s == seat => Ok((color, within)),
            Some((s, Task::DecideSwap { .. })) if s == seat => Err(GameError::SwapDecisionPending),
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
            self.draws.check_limits(seat, &self.config.draw)
        } else {
            Ok(())
        }
    }

    // ---- changes (called only once every check has passed) ----------------

    /// The common start of an accepted input by `seat` (or by the server):
    /// reports a lapsed offer, ends the opponent's right to offer
    /// separately, and, when white acts, ends the claim on black's last
    /// stone (RULES.md §3).
    pub(super) fn begin(&mut self, seat: Option<Seat>, now: Millis) -> Vec<Event> {
        let mut events = Vec::new();
        self.settle_lapse(now, &mut events);
        if let Some(seat) = seat {
            if self.draws.may_offer == Some(seat.other()) {
                self.draws.may_offer = None;
            }
            if self.color_of(seat) == Color::White {
                self.notes.claimable = None;
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

    /// A move by `seat` declines the opponent's standing offer.
    pub(super) fn decline_by_move(&mut self, seat: Seat, events: &mut Vec<Event>) {
        if let Some(p) = self.draws.pending.take() {
            debug_assert_eq!(p.seat, seat.other());
            events.push(Event::DrawDeclined {
                seat,
                by_move: true,
            });
        }
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
        self.notes.claimable = None;
        let result = GameResult { outcome, reason };
        self.result = Some(result.clone());
        events.push(Event::GameOver {
            result,
            clocks: self.clocks.snapshot(now),
            forbidden: self.notes.forbidden.clone(),
        });
    }

    /// Records a move and starts the opponent's clock.
    pub(super) fn push_move(
        &mut self,
        seat: Seat,
        color: Color,
        point: Option<Point>,
        now: Millis,
        credit: Millis,
    ) -> Event {
        let mv = Move {
            number: self.moves.len() as u32 + 1,
            seat,
            color,
            point,
        };
        self.moves.push(mv);
        self.clocks.press(now, credit, seat.other());
        Event::Moved {
            mv,
            clocks: self.clocks.snapshot(now),
        }
    }

    pub(super) fn place(
        &mut self,
        seat: Seat,
        point: Point,
        offer: bool,
        now: Millis,
        credit: Millis,
    ) -> Result<Vec<Event>, GameError> {
        let (color, within) = self.check_mover(seat)?;
        let size = self.board.size();
        if !point.on_board(size) {
            return Err(GameError::OffBoard { point });
        }
        if self.board.get(point).is_some() {
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
        self.board
            .place(point, color)
            .expect("checked: on board and empty");
        events.push(self.push_move(seat, color, Some(point), now, credit));
        if color == Color::Black {
            self.notes.claimable = None;
        }
        if let Some(kind) = forbidden {
            match self.handling {
                Some(ForbiddenHandling::Lose) => {
                    let outcome = Outcome::win(self.seat_of(Color::White), self);
                    self.finish(
                        outcome,
                        ResultReason::ForbiddenPlayed {
                            point,
                            forbidden: kind,
                        },
                        now,
                        &mut events,
                    );
                    return Ok(events);
                }
                _ => {
                    // Claim: the stone stands, and only the referee knows.
                    self.notes.claimable = Some((point, kind));
                    self.notes.forbidden.push(ForbiddenStone {
                        move_number: self.moves.len() as u32,
                        point,
                        kind,
                    });
                }
            }
        }
        if let Some(line) = self.board.winning_line(point, self.variant) {
            self.finish(
                Outcome::win(seat, self),
                ResultReason::Five { line },
                now,
                &mut events,
            );
        } else if self.board.is_full() {
            self.finish(Outcome::Draw, ResultReason::BoardFull, now, &mut events);
        } else {
            self.after_move(seat, offer, now, &mut events);
        }
        Ok(events)
    }

    pub(super) fn pass(
        &mut self,
        seat: Seat,
        offer: bool,
        now: Millis,
        credit: Millis,
    ) -> Result<Vec<Event>, GameError> {
        let (color, _) = self.check_mover(seat)?;
        if self.board.stone_count() < 5 {
            return Err(GameError::PassNotAllowed);
        }
        self.check_offer_with_move(seat, offer)?;

        let both = self.moves.last().is_some_and(|m| m.point.is_none());
        let mut events = self.begin(Some(seat), now);
        self.decline_by_move(seat, &mut events);
        events.push(self.push_move(seat, color, None, now, credit));
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
        match self.task() {
            Some((s, Task::DecideSwap { .. })) if s == seat => {}
            Some((s, _)) if s == seat => return Err(GameError::NoSwapDecision),
            _ => return Err(GameError::NotYourTurn),
        }
        let mut events = self.begin(Some(seat), now);
        self.swapped = Some(swap);
        if swap {
            // Taking black counts as a move: it declines a standing offer,
            // and the clock passes to the new white.
            self.decline_by_move(seat, &mut events);
            self.black = seat;
            self.clocks.press(now, credit, seat.other());
        }
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

    pub(super) fn claim(&mut self, seat: Seat, now: Millis) -> Result<Vec<Event>, GameError> {
        if self.handling != Some(ForbiddenHandling::Claim) {
            return Err(GameError::ClaimsDisabled);
        }
        if self.color_of(seat) != Color::White {
            return Err(GameError::ClaimByBlack);
        }
        // Judged before `begin`, which ends the claim on the last stone.
        let upheld = self.notes.claimable.or_else(|| {
            self.notes
                .forbidden
                .iter()
                .find(|s| s.kind == Forbidden::Overline)
                .map(|s| (s.point, s.kind))
        });
        let mut events = self.begin(Some(seat), now);
        if let Some((point, kind)) = upheld {
            events.push(Event::ClaimUpheld { seat, point, kind });
            self.finish(
                Outcome::win(seat, self),
                ResultReason::ForbiddenClaimed {
                    point,
                    forbidden: kind,
                },
                now,
                &mut events,
            );
        } else {
            let count = {
                let v = &mut self.violations[seat.index()];
                *v += 1;
                *v
            };
            events.push(Event::Violation {
                seat,
                kind: ViolationKind::FalseClaim,
                count,
            });
            if count >= 2 {
                self.finish(
                    Outcome::win(seat.other(), self),
                    ResultReason::Violations { seat },
                    now,
                    &mut events,
                );
            }
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
