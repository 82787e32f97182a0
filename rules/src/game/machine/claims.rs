//! White's claims of black's forbidden moves in `claim` rooms
//! (docs/rules.md §3): when a claim is open, and how one is judged.
//!
//! A claim names its point: black's last stone, while white has not moved
//! since it was played, or any black stone that made an overline, at any
//! time before the end. It holds if that stone was forbidden when played
//! (an overline's stone always was). A claim that does not hold is a
//! violation. Whether a claim is *open* is judged only on what both
//! players see (the stones and the moves), so that offering the claim
//! reveals nothing: black's last stone could be forbidden once black has
//! five stones (no forbidden shape has fewer), and a black overline on the
//! board is there for all to see. A claim that names no black stone, or
//! comes when none is open, is refused with no penalty.
//!
//! Records from before claims named their point hold claims without one;
//! they are judged as they were then (the referee finds the stone: black's
//! last if forbidden, else any overline) and are never refused, so that
//! those records replay to their result.

use super::Game;
use crate::forbidden::Forbidden;
use crate::game::action::Seat;
use crate::game::config::{ForbiddenHandling, Millis};
use crate::game::error::GameError;
use crate::game::event::{Event, Outcome, ResultReason, ViolationKind};
use crate::point::{Color, Point};

/// No forbidden shape has fewer black stones (a double three is the new
/// stone and two more on each of two lines).
const FEWEST_FOR_A_FORBIDDEN_SHAPE: usize = 5;

impl Game {
    /// Black's last stone, if white could claim it now: it is the last
    /// move (white has not moved since) and black has enough stones for a
    /// forbidden shape.
    fn last_stone_open(&self) -> Option<Point> {
        let last = self.moves.last()?;
        let black_stones = self
            .board
            .stones()
            .filter(|(_, c)| *c == Color::Black)
            .count();
        (last.color == Color::Black && black_stones >= FEWEST_FOR_A_FORBIDDEN_SHAPE)
            .then_some(last.point)
            .flatten()
    }

    /// Whether six or more black stones stand in a row anywhere.
    fn black_overline_stands(&self) -> bool {
        let b = &self.board;
        b.stones().any(|(p, c)| {
            c == Color::Black
                && [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
                    // Count from the start of the run only.
                    let starts = p
                        .offset(-dx, -dy, b.size())
                        .is_none_or(|q| b.get(q) != Some(Color::Black));
                    starts
                        && (1..6).all(|k| {
                            p.offset(dx * k, dy * k, b.size())
                                .is_some_and(|q| b.get(q) == Some(Color::Black))
                        })
                })
        })
    }

    /// Whether a claim could hold now, as both players can tell: black's
    /// last stone could be forbidden, or a black overline stands.
    pub(super) fn claim_open(&self) -> bool {
        self.last_stone_open().is_some() || self.black_overline_stands()
    }

    pub(super) fn claim(
        &mut self,
        seat: Seat,
        point: Option<Point>,
        now: Millis,
    ) -> Result<Vec<Event>, GameError> {
        if self.handling != Some(ForbiddenHandling::Claim) {
            return Err(GameError::ClaimsDisabled);
        }
        if self.color_of(seat) != Color::White {
            return Err(GameError::ClaimByBlack);
        }
        if let Some(p) = point {
            if self.board.get(p) != Some(Color::Black) {
                return Err(GameError::ClaimNotBlackStone { point: p });
            }
            if !self.claim_open() {
                return Err(GameError::ClaimNotPossible);
            }
        }
        let overline_at = |q: Option<Point>| {
            self.notes
                .forbidden
                .iter()
                .find(|s| s.kind == Forbidden::Overline && q.is_none_or(|q| q == s.point))
                .map(|s| (s.point, s.kind))
        };
        let upheld = match point {
            Some(p) => self
                .notes
                .claimable
                .filter(|(q, _)| *q == p)
                .or_else(|| overline_at(Some(p))),
            None => self.notes.claimable.or_else(|| overline_at(None)),
        };
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
            return Ok(events);
        }
        let count = {
            let v = &mut self.violations[seat.index()];
            *v += 1;
            *v
        };
        events.push(Event::Violation {
            seat,
            kind: ViolationKind::FalseClaim,
            count,
            point,
        });
        if count >= 2 {
            self.finish(
                Outcome::win(seat.other(), self),
                ResultReason::Violations { seat },
                now,
                &mut events,
            );
        }
        Ok(events)
    }
}
