//! Game clocks as pure arithmetic (docs/rules.md §7).
//!
//! The server's monotonic clock is the only authority, but this crate never
//! reads it: every function takes the instant (`now`, in [`Millis`]) as an
//! argument. That keeps the clocks exactly reproducible (a record replays to
//! the same remaining times) and lets the server sleep until
//! [`Clocks::flag_at`] instead of polling.
//!
//! One seat's clock runs at a time: the seat the machine is waiting for.
//! "Pressing" the clock ([`Clocks::press`]) ends that seat's turn: the
//! elapsed time, less any lag credit, is charged; the move bonus of the time
//! control (Fischer increment, byo-yomi period bookkeeping) is applied; and
//! the other seat's clock starts.

use serde::{Deserialize, Serialize};

use super::action::Seat;
use super::config::{Millis, TimeControl};

/// One seat's remaining time. For sudden death and Fischer only `main_ms`
/// is used. For byo-yomi, once `main_ms` is spent the seat is in its
/// periods: `periods` left (the current one included), `period_ms` left in
/// the current one, and `period_moves` still to make in it. For the
/// eight-stone overtime, `main_ms` is the main time left (zero for both
/// seats once the game is in overtime), `period_ms` the time left for the
/// current overtime move and `period_moves` the overtime stones still to
/// play (with `move_limit_in_main`, `period_ms` is also what is left of
/// the current move's limit while the main time lasts; with
/// `shared_main`, both seats' `main_ms` are the game's one main clock).
/// For correspondence, `main_ms` is the time left for this move and
/// `vacation_ms` the vacation left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SeatClock {
    pub main_ms: Millis,
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub periods: u32,
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub period_ms: Millis,
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub period_moves: u32,
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub vacation_ms: Millis,
}

/// Runs a clock of two stages, `first` then `second`, for `elapsed`: what
/// is left of each, or `None` once both are gone.
fn two_stages(first: Millis, second: Millis, elapsed: Millis) -> Option<(Millis, Millis)> {
    if elapsed < first {
        Some((first - elapsed, second))
    } else if elapsed < first + second {
        Some((0, first + second - elapsed))
    } else {
        None
    }
}

fn is_zero_u32(v: &u32) -> bool {
    *v == 0
}

fn is_zero_u64(v: &u64) -> bool {
    *v == 0
}

impl SeatClock {
    /// A fresh clock for `control`.
    pub fn start(control: TimeControl) -> SeatClock {
        match control {
            TimeControl::Unlimited => SeatClock::default(),
            TimeControl::SuddenDeath { main_ms } | TimeControl::Fischer { main_ms, .. } => {
                SeatClock {
                    main_ms,
                    ..SeatClock::default()
                }
            }
            TimeControl::ByoYomi {
                main_ms,
                periods,
                period_ms,
                moves_per_period,
            } => SeatClock {
                main_ms,
                periods,
                period_ms,
                period_moves: moves_per_period,
                ..SeatClock::default()
            },
            TimeControl::EightStone {
                main_ms,
                move_ms,
                stones,
                ..
            } => SeatClock {
                main_ms,
                period_ms: move_ms,
                period_moves: stones,
                ..SeatClock::default()
            },
            TimeControl::Correspondence {
                move_ms,
                vacation_ms,
            } => SeatClock {
                main_ms: move_ms,
                vacation_ms,
                ..SeatClock::default()
            },
        }
    }

    /// How long this clock can run from now before it flags (`None` when
    /// unlimited): the main time, plus for byo-yomi what is left of the
    /// current period and the whole of the later ones.
    pub fn time_left(&self, control: TimeControl) -> Option<Millis> {
        match control {
            TimeControl::Unlimited => None,
            TimeControl::SuddenDeath { .. } | TimeControl::Fischer { .. } => Some(self.main_ms),
            TimeControl::ByoYomi { period_ms, .. } => Some(
                self.main_ms
                    + if self.periods == 0 {
                        0
                    } else {
                        self.period_ms + (self.periods as u64 - 1) * period_ms
                    },
            ),
            TimeControl::EightStone {
                move_ms,
                move_limit_in_main,
                ..
            } => Some(if self.main_ms == 0 {
                self.period_ms
            } else if move_limit_in_main && self.period_ms <= self.main_ms {
                // The move's own limit comes first.
                self.period_ms
            } else {
                // The main time runs out first; the overtime move that
                // follows has its full time.
                self.main_ms
                    + if move_limit_in_main {
                        move_ms
                    } else {
                        self.period_ms
                    }
            }),
            TimeControl::Correspondence { .. } => Some(self.main_ms + self.vacation_ms),
        }
    }

    /// The clock after running for `elapsed`, or `None` if it flagged
    /// (reached zero) within that time.
    pub fn run(self, control: TimeControl, elapsed: Millis) -> Option<SeatClock> {
        match control {
            TimeControl::Unlimited => Some(self),
            TimeControl::SuddenDeath { .. } | TimeControl::Fischer { .. } => {
                (elapsed < self.main_ms).then(|| SeatClock {
                    main_ms: self.main_ms - elapsed,
                    ..self
                })
            }
            TimeControl::ByoYomi {
                period_ms: full,
                moves_per_period,
                ..
            } => {
                if elapsed < self.main_ms {
                    return Some(SeatClock {
                        main_ms: self.main_ms - elapsed,
                        ..self
                    });
                }
                if elapsed >= self.time_left(control)? {
                    return None;
                }
                let e = elapsed - self.main_ms;
                let mut c = SeatClock { main_ms: 0, ..self };
                if e < c.period_ms {
                    c.period_ms -= e;
                } else {
                    // The current period ran out, and maybe whole ones after
                    // it; each used-up period is gone, and the next starts
                    // fresh with its full move quota.
                    let over = e - c.period_ms;
                    c.periods -= 1 + (over / full) as u32;
                    c.period_ms = full - over % full;
                    c.period_moves = moves_per_period;
                }
                Some(c)
            }
            // The main time (each move also within its limit, with
            // `move_limit_in_main`), then the current overtime move's time.
            TimeControl::EightStone {
                move_ms,
                move_limit_in_main: true,
                ..
            } if self.main_ms > 0 => {
                if elapsed >= self.time_left(control)? {
                    return None;
                }
                Some(if elapsed < self.main_ms {
                    SeatClock {
                        main_ms: self.main_ms - elapsed,
                        period_ms: self.period_ms - elapsed,
                        ..self
                    }
                } else {
                    SeatClock {
                        main_ms: 0,
                        period_ms: move_ms - (elapsed - self.main_ms),
                        ..self
                    }
                })
            }
            TimeControl::EightStone { .. } => {
                let (main_ms, period_ms) = two_stages(self.main_ms, self.period_ms, elapsed)?;
                Some(SeatClock {
                    main_ms,
                    period_ms,
                    ..self
                })
            }
            // The move's own time, then the vacation.
            TimeControl::Correspondence { .. } => {
                let (main_ms, vacation_ms) = two_stages(self.main_ms, self.vacation_ms, elapsed)?;
                Some(SeatClock {
                    main_ms,
                    vacation_ms,
                    ..self
                })
            }
        }
    }

    /// The clock after its owner completes a move (the time already
    /// charged): Fischer adds the increment; in byo-yomi a move made in the
    /// periods counts towards the period's quota, and meeting the quota
    /// starts a fresh period; in overtime a move uses up one of the stones
    /// and the next gets the full move time; in correspondence the next
    /// move gets its full time again.
    pub fn after_move(self, control: TimeControl) -> SeatClock {
        match control {
            TimeControl::EightStone { move_ms, .. } => {
                if self.main_ms > 0 {
                    // In the main time: the next move's limit starts afresh.
                    return SeatClock {
                        period_ms: move_ms,
                        ..self
                    };
                }
                SeatClock {
                    period_ms: move_ms,
                    period_moves: self.period_moves.saturating_sub(1),
                    ..self
                }
            }
            TimeControl::Correspondence { move_ms, .. } => SeatClock {
                main_ms: move_ms,
                ..self
            },
            TimeControl::Unlimited | TimeControl::SuddenDeath { .. } => self,
            TimeControl::Fischer { increment_ms, .. } => SeatClock {
                main_ms: self.main_ms + increment_ms,
                ..self
            },
            TimeControl::ByoYomi {
                period_ms,
                moves_per_period,
                ..
            } => {
                if self.main_ms > 0 {
                    return self;
                }
                let mut c = self;
                c.period_moves -= 1;
                if c.period_moves == 0 {
                    c.period_ms = period_ms;
                    c.period_moves = moves_per_period;
                }
                c
            }
        }
    }
}

/// Both clocks as a client renders them: each seat's time as of the moment
/// of the event, and whose clock is running from that moment on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ClockSnapshot {
    pub running: Option<Seat>,
    pub first: SeatClock,
    pub second: SeatClock,
}

impl ClockSnapshot {
    pub fn seat(&self, seat: Seat) -> SeatClock {
        match seat {
            Seat::First => self.first,
            Seat::Second => self.second,
        }
    }

    /// The clocks `elapsed` later (how a client counts down between the
    /// server's figures): the running seat's clock run, at zero once it
    /// has flagged, and the eight-stone overtime shared.
    pub fn advanced(self, control: TimeControl, elapsed: Millis) -> ClockSnapshot {
        let Some(seat) = self.running else {
            return self;
        };
        let mut seats = [self.first, self.second];
        seats[seat.index()] = seats[seat.index()]
            .run(control, elapsed)
            .unwrap_or_default();
        share_overtime(control, &mut seats, seat);
        ClockSnapshot {
            running: self.running,
            first: seats[0],
            second: seats[1],
        }
    }
}

/// The eight-stone overtime is the game's, not a seat's: once `ran`'s main
/// time is gone, the other seat's unused main time lapses too
/// (docs/rules.md §7). With `shared_main` the main time itself is the
/// game's: the other seat's stands where `ran`'s does.
fn share_overtime(control: TimeControl, seats: &mut [SeatClock; 2], ran: Seat) {
    if let TimeControl::EightStone { shared_main, .. } = control
        && (shared_main || seats[ran.index()].main_ms == 0)
    {
        seats[ran.other().index()].main_ms = seats[ran.index()].main_ms;
    }
}

/// The pair of clocks of a game. The running seat's clock started at
/// `since`; the other is stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    control: TimeControl,
    seats: [SeatClock; 2],
    running: Option<Seat>,
    since: Millis,
}

impl Clocks {
    /// Fresh clocks with `running`'s clock started at `start`.
    pub fn new(control: TimeControl, start: Millis, running: Seat) -> Clocks {
        Clocks {
            control,
            seats: [SeatClock::start(control); 2],
            running: Some(running),
            since: start,
        }
    }

    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// The seat whose clock runs, if any.
    pub fn running(&self) -> Option<Seat> {
        self.running
    }

    /// When the running seat's turn (and clock) started.
    pub fn since(&self) -> Millis {
        self.since
    }

    /// A seat's clock as it stood when the running clock was last started
    /// (not counting the time since).
    pub fn stored(&self, seat: Seat) -> SeatClock {
        self.seats[seat.index()]
    }

    /// The instant at which the running seat flags, if a clock runs and the
    /// control is not unlimited. The seat has lost on time at any
    /// `now >= flag_at`.
    pub fn flag_at(&self) -> Option<Millis> {
        let seat = self.running?;
        let left = self.seats[seat.index()].time_left(self.control)?;
        Some(self.since + left)
    }

    /// The seat that has run out of time at `now`, if any.
    pub fn flagged(&self, now: Millis) -> Option<Seat> {
        match self.flag_at() {
            Some(at) if now >= at => self.running,
            _ => None,
        }
    }

    /// Both clocks as of `now` (the running one charged up to `now`, at zero
    /// once flagged). `None` for unlimited games.
    pub fn snapshot(&self, now: Millis) -> Option<ClockSnapshot> {
        if self.control == TimeControl::Unlimited {
            return None;
        }
        let stored = ClockSnapshot {
            running: self.running,
            first: self.seats[0],
            second: self.seats[1],
        };
        Some(stored.advanced(self.control, now.saturating_sub(self.since)))
    }

    /// The lag credit a move at `now` would get for a requested `lag_ms`:
    /// at most the room's cap, and never more than the time that actually
    /// elapsed on the move, so no clock ever runs backwards.
    pub fn credit(&self, now: Millis, lag_ms: Millis, cap_ms: Millis) -> Millis {
        lag_ms.min(cap_ms).min(now.saturating_sub(self.since))
    }

    /// Ends the running seat's turn at `now` with `credit` (from
    /// [`Clocks::credit`]) and starts `next`'s clock. The caller has checked
    /// that the running seat had not flagged at `now`.
    pub fn press(&mut self, now: Millis, credit: Millis, next: Seat) {
        if let Some(seat) = self.running {
            let elapsed = now.saturating_sub(self.since).saturating_sub(credit);
            let mut seats = self.seats;
            seats[seat.index()] = seats[seat.index()]
                .run(self.control, elapsed)
                .unwrap_or_default();
            share_overtime(self.control, &mut seats, seat);
            seats[seat.index()] = seats[seat.index()].after_move(self.control);
            self.seats = seats;
        }
        self.running = Some(next);
        self.since = now;
    }

    /// Hands the clock to `next` at `now` without a move: the running
    /// seat is charged its time, with no move bonus (a takeback gives the
    /// move back to the seat that made it).
    pub fn hand_over(&mut self, now: Millis, next: Seat) {
        self.stop(now);
        self.running = Some(next);
    }

    /// Whether the eight-stone overtime is over: both seats are in it and
    /// have played all their overtime stones (the game is then drawn,
    /// unless it ended otherwise).
    pub fn overtime_spent(&self) -> bool {
        matches!(self.control, TimeControl::EightStone { .. })
            && self
                .seats
                .iter()
                .all(|c| c.main_ms == 0 && c.period_moves == 0)
    }

    /// Stops the clocks at `now` (the game is over): the running seat is
    /// charged its elapsed time, with no move bonus; a flagged clock stays at
    /// zero.
    pub fn stop(&mut self, now: Millis) {
        if let Some(seat) = self.running.take() {
            let elapsed = now.saturating_sub(self.since);
            let mut seats = self.seats;
            seats[seat.index()] = seats[seat.index()]
                .run(self.control, elapsed)
                .unwrap_or_default();
            share_overtime(self.control, &mut seats, seat);
            self.seats = seats;
        }
        self.since = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BYO: TimeControl = TimeControl::ByoYomi {
        main_ms: 10_000,
        periods: 3,
        period_ms: 5_000,
        moves_per_period: 1,
    };

    #[test]
    fn sudden_death_runs_down_and_flags_at_zero() {
        let c = SeatClock::start(TimeControl::SuddenDeath { main_ms: 1000 });
        let sd = TimeControl::SuddenDeath { main_ms: 1000 };
        assert_eq!(c.run(sd, 999).unwrap().main_ms, 1);
        assert_eq!(c.run(sd, 1000), None);
        assert_eq!(c.time_left(sd), Some(1000));
        assert_eq!(c.after_move(sd), c, "no bonus");
    }

    #[test]
    fn byo_yomi_uses_up_periods_only_when_they_run_out() {
        let c = SeatClock::start(BYO);
        assert_eq!(c.time_left(BYO), Some(10_000 + 15_000));
        // Main time spent and 2 s into the first period.
        let c1 = c.run(BYO, 12_000).unwrap();
        assert_eq!((c1.main_ms, c1.periods, c1.period_ms), (0, 3, 3_000));
        // A move in time: the period is not used up and starts afresh.
        let c2 = c1.after_move(BYO);
        assert_eq!((c2.periods, c2.period_ms), (3, 5_000));
        // Exactly one period passes without a move: it is gone.
        let c3 = c2.run(BYO, 5_000).unwrap();
        assert_eq!((c3.periods, c3.period_ms), (2, 5_000));
        // 11.5 s without a move: two periods gone, 3.5 s into the last.
        let c4 = c2.run(BYO, 11_500).unwrap();
        assert_eq!((c4.periods, c4.period_ms), (1, 3_500));
        assert_eq!(c2.run(BYO, 15_000), None, "all three periods");
        assert_eq!(c2.run(BYO, 14_999).unwrap().period_ms, 1);
    }

    #[test]
    fn byo_yomi_with_several_moves_per_period() {
        let tc = TimeControl::ByoYomi {
            main_ms: 0,
            periods: 2,
            period_ms: 10_000,
            moves_per_period: 3,
        };
        let c = SeatClock::start(tc);
        // Two moves of 3 s each: same period, 4 s and one move left.
        let c = c.run(tc, 3_000).unwrap().after_move(tc);
        assert_eq!((c.periods, c.period_ms, c.period_moves), (2, 7_000, 2));
        let c = c.run(tc, 3_000).unwrap().after_move(tc);
        assert_eq!((c.periods, c.period_ms, c.period_moves), (2, 4_000, 1));
        // The third move in time completes the quota: a fresh period.
        let done = c.run(tc, 3_999).unwrap().after_move(tc);
        assert_eq!(
            (done.periods, done.period_ms, done.period_moves),
            (2, 10_000, 3)
        );
        // Too slow instead: the period is used up, the next starts with the
        // full quota, and the move counts in it.
        let late = c.run(tc, 5_000).unwrap();
        assert_eq!(
            (late.periods, late.period_ms, late.period_moves),
            (1, 9_000, 3)
        );
        let late = late.after_move(tc);
        assert_eq!(
            (late.periods, late.period_ms, late.period_moves),
            (1, 9_000, 2)
        );
        assert_eq!(c.run(tc, 14_000), None);
    }

    #[test]
    fn clocks_press_charge_and_flag_instant() {
        let fischer = TimeControl::Fischer {
            main_ms: 60_000,
            increment_ms: 2_000,
        };
        let mut clocks = Clocks::new(fischer, 1_000, Seat::First);
        assert_eq!(clocks.flag_at(), Some(61_000));
        assert_eq!(clocks.flagged(60_999), None);
        assert_eq!(clocks.flagged(61_000), Some(Seat::First));
        clocks.press(11_000, 0, Seat::Second);
        assert_eq!(clocks.stored(Seat::First).main_ms, 52_000);
        assert_eq!(clocks.flag_at(), Some(71_000));
        let snap = clocks.snapshot(21_000).unwrap();
        assert_eq!(snap.running, Some(Seat::Second));
        assert_eq!(snap.second.main_ms, 50_000);
        assert_eq!(snap.first.main_ms, 52_000);
        clocks.stop(31_000);
        assert_eq!(clocks.running(), None);
        assert_eq!(
            clocks.stored(Seat::Second).main_ms,
            40_000,
            "no increment at the end"
        );
        assert_eq!(clocks.flag_at(), None);
    }

    #[test]
    fn lag_credit_is_capped_and_never_exceeds_elapsed() {
        let mut clocks = Clocks::new(TimeControl::SuddenDeath { main_ms: 10_000 }, 0, Seat::First);
        assert_eq!(clocks.credit(3_000, 5_000, 800), 800, "capped");
        assert_eq!(clocks.credit(3_000, 200, 800), 200, "what was asked");
        assert_eq!(
            clocks.credit(300, 5_000, 800),
            300,
            "never more than elapsed"
        );
        let credit = clocks.credit(300, 5_000, 800);
        clocks.press(300, credit, Seat::Second);
        assert_eq!(
            clocks.stored(Seat::First).main_ms,
            10_000,
            "not above the start"
        );
        assert!(
            Clocks::new(TimeControl::Unlimited, 0, Seat::First)
                .flag_at()
                .is_none()
        );
        assert!(
            Clocks::new(TimeControl::Unlimited, 0, Seat::First)
                .snapshot(5)
                .is_none()
        );
    }
}
