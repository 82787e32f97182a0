//! Lag compensation (the quota model of the best online chess servers).
//!
//! Each connection's lag is estimated from WebSocket ping/pong round trips
//! ([`crate::outbound`]). A move is credited part of its mover's lag, taken
//! from a per-seat *quota* that refills a little with every move, so a
//! player on a slow link is not charged for the network, while nobody can
//! bank time by claiming lag: the credit is at most the quota, at most the
//! room's cap, and (the referee's rule) at most the time the move took, so
//! no clock ever runs backwards. The flag is called only once the running
//! seat's time is gone beyond the credit it could still get, and the
//! referee accepts a move inside that grace.
//!
//! | constant | value | meaning |
//! |---|---|---|
//! | `QUOTA_MAX_MS` | 500 | a seat's quota starts full and never exceeds this |
//! | `QUOTA_GAIN_MS` | 100 | added to the mover's quota after each move |
//! | room `lag_credit_cap_ms` | 1000 by default | the most one move may be credited |

use std::time::Instant;

use tengen_rules::game::{Action, Event, Millis, Seat};

use super::Table;

impl Table {
    /// The credit `seat` may get now: its connection's lag, within its
    /// quota and the room's cap.
    pub(super) fn credit_for(&self, seat: Seat) -> Millis {
        let lag = self.seats[seat.index()].session.outbox.lag_ms();
        let cap = self.game.config().lag_credit_cap_ms;
        self.lag.credit(seat, lag, cap)
    }

    /// The grace after the running seat's flag instant before the flag is
    /// called: the credit it could still get.
    pub(super) fn flag_grace(&self) -> Millis {
        match self.game.to_act() {
            Some(seat) if self.game.flag_at().is_some() => self.credit_for(seat),
            _ => 0,
        }
    }

    /// When the flag is called (the referee's flag instant plus the grace).
    pub(super) fn flag_call_at(&self) -> Option<Millis> {
        self.game.flag_at().map(|f| f + self.flag_grace())
    }

    /// Lets time act at `ms` without calling a flag inside the grace.
    pub(super) fn tick_guarded(&mut self, ms: Millis) -> Vec<Event> {
        match (self.game.flag_at(), self.flag_call_at()) {
            (Some(flag), Some(call)) if ms >= flag && ms < call => {
                self.game.tick(flag.saturating_sub(1))
            }
            _ => self.game.tick(ms),
        }
    }

    /// After `seat`'s accepted action: the quota pays for the credit the
    /// referee granted, then refills for the move.
    pub(super) fn settle_quota(&mut self, seat: Seat, action: &Action) {
        if !action.may_press_clock() {
            return;
        }
        let granted = match self.game.entries().last().map(|e| &e.input) {
            Some(tengen_rules::game::Input::Act { lag_credit_ms, .. }) => *lag_credit_ms,
            _ => 0,
        };
        self.lag.settle(seat, granted);
    }

    /// The instant the flag is called, for the select loop.
    pub(super) fn flag_deadline(&self) -> Option<Instant> {
        self.flag_call_at().map(|ms| self.instant(ms))
    }
}
