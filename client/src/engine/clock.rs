//! The seat's clock as the engine's `INFO timeout_turn`, `time_left` and
//! `timeout_match`, with a safety margin taken off for the lag.
//!
//! Why a module of its own: this is the arithmetic that decides whether
//! an engine can lose on time by the bridge's fault, so it is a pure
//! function with its own tests for every time control.
//!
//! - `timeout_turn`: what this move may take without flagging: the main
//!   time (Fischer, sudden death; the increment comes only after the
//!   move); in byo-yomi and the eight-stone overtime the main time plus
//!   the current period's share of a move (a period of several moves is
//!   shared by the moves left in it); in correspondence the move's time
//!   and the vacation. Never more than `cap`, so an untimed game moves on.
//! - `time_left`: all the time until the clock flags.
//! - `timeout_match`: the control's whole time (0 when there is none:
//!   untimed and correspondence games).
//!
//! The margin comes off both the turn and the time left; the turn is at
//! least [`MIN_TURN_MS`], since zero means "as fast as you can" to some
//! engines and "no limit" to others.

use tengen_rules::game::{Millis, SeatClock, TimeControl};

/// The least turn time the engine is ever given.
pub const MIN_TURN_MS: Millis = 50;

/// `time_left` for a game without a clock (the protocol's customary
/// "plenty").
pub const NO_LIMIT_MS: Millis = 2_147_483_647;

/// The engine's time for one move, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnTime {
    pub timeout_turn: Millis,
    pub time_left: Millis,
    pub timeout_match: Millis,
    /// What the clock allows this move (less the margin), before the cap.
    pub clock_bound: Millis,
}

impl TurnTime {
    /// The turn again after `spent_ms` (a failed attempt before a
    /// restart): the same cap, but no more than the clock has left, and
    /// still at least [`MIN_TURN_MS`].
    pub fn after(self, spent_ms: Millis) -> TurnTime {
        let clock_bound = self.clock_bound.saturating_sub(spent_ms);
        let timeout_turn = self.timeout_turn.min(clock_bound).max(MIN_TURN_MS);
        TurnTime {
            timeout_turn,
            time_left: self.time_left.saturating_sub(spent_ms).max(timeout_turn),
            clock_bound,
            ..self
        }
    }
}

/// The time the engine may spend on this move, from its seat's `clock`
/// (as of now) under `control`, keeping `margin` in hand and at most
/// `cap` per move.
pub fn turn_time(control: TimeControl, clock: SeatClock, margin: Millis, cap: Millis) -> TurnTime {
    let Some(left) = clock.time_left(control) else {
        return TurnTime {
            timeout_turn: cap.max(MIN_TURN_MS),
            time_left: NO_LIMIT_MS,
            timeout_match: 0,
            clock_bound: NO_LIMIT_MS,
        };
    };
    let this_move = match control {
        TimeControl::Unlimited => cap,
        TimeControl::SuddenDeath { .. } | TimeControl::Fischer { .. } => clock.main_ms,
        TimeControl::ByoYomi { .. } if clock.periods == 0 => clock.main_ms,
        TimeControl::ByoYomi { .. } => {
            clock.main_ms + clock.period_ms / u64::from(clock.period_moves.max(1))
        }
        // The main time and the move's time (or the move's limit, when it
        // holds in the main time too): the clock's own arithmetic.
        TimeControl::EightStone { .. } => left,
        TimeControl::Correspondence { .. } => left,
    };
    let timeout_match = match control {
        TimeControl::Unlimited | TimeControl::Correspondence { .. } => 0,
        TimeControl::SuddenDeath { main_ms } | TimeControl::Fischer { main_ms, .. } => main_ms,
        TimeControl::ByoYomi {
            main_ms,
            periods,
            period_ms,
            ..
        } => main_ms + u64::from(periods) * period_ms,
        TimeControl::EightStone {
            main_ms,
            move_ms,
            stones,
            ..
        } => main_ms + u64::from(stones) * move_ms,
    };
    let clock_bound = this_move.saturating_sub(margin);
    let timeout_turn = clock_bound.min(cap).max(MIN_TURN_MS);
    TurnTime {
        timeout_turn,
        time_left: left.saturating_sub(margin).max(timeout_turn),
        timeout_match,
        clock_bound,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CAP: Millis = 10_000;

    fn fresh(control: TimeControl) -> SeatClock {
        SeatClock::start(control)
    }

    #[test]
    fn fischer_gives_the_main_time_less_the_margin() {
        let c = TimeControl::Fischer {
            main_ms: 5_000,
            increment_ms: 3_000,
        };
        let t = turn_time(c, fresh(c), 400, CAP);
        assert_eq!(t.timeout_turn, 4_600);
        assert_eq!(t.time_left, 4_600);
        assert_eq!(t.timeout_match, 5_000);
        // Long main time: the cap holds the turn, not the time left.
        let c = TimeControl::Fischer {
            main_ms: 600_000,
            increment_ms: 0,
        };
        let t = turn_time(c, fresh(c), 400, CAP);
        assert_eq!((t.timeout_turn, t.time_left), (CAP, 599_600));
    }

    #[test]
    fn a_retry_gets_what_is_left_of_the_turn() {
        let c = TimeControl::Fischer {
            main_ms: 5_000,
            increment_ms: 3_000,
        };
        let t = turn_time(c, fresh(c), 400, CAP).after(1_000);
        assert_eq!((t.timeout_turn, t.time_left), (3_600, 3_600));
        let t = t.after(10_000);
        assert_eq!((t.timeout_turn, t.time_left), (MIN_TURN_MS, MIN_TURN_MS));
        // A turn held by the cap, not the clock, keeps the cap.
        let c = TimeControl::SuddenDeath { main_ms: 300_000 };
        let t = turn_time(c, fresh(c), 400, 1_500).after(1_700);
        assert_eq!(
            (t.timeout_turn, t.time_left),
            (1_500, 300_000 - 400 - 1_700)
        );
    }

    #[test]
    fn sudden_death_with_little_left_gets_the_floor() {
        let c = TimeControl::SuddenDeath { main_ms: 60_000 };
        let mut clock = fresh(c);
        clock.main_ms = 300;
        let t = turn_time(c, clock, 400, CAP);
        assert_eq!(t.timeout_turn, MIN_TURN_MS);
        assert_eq!(t.time_left, MIN_TURN_MS);
    }

    #[test]
    fn byo_yomi_counts_the_period_shared_by_its_moves() {
        let c = TimeControl::ByoYomi {
            main_ms: 0,
            periods: 3,
            period_ms: 9_000,
            moves_per_period: 3,
        };
        let t = turn_time(c, fresh(c), 500, CAP);
        // 9 s for three moves: 3 s for this one.
        assert_eq!(t.timeout_turn, 2_500);
        assert_eq!(t.time_left, 27_000 - 500);
        assert_eq!(t.timeout_match, 27_000);
        let c = TimeControl::ByoYomi {
            main_ms: 2_000,
            periods: 1,
            period_ms: 5_000,
            moves_per_period: 1,
        };
        let t = turn_time(c, fresh(c), 500, CAP);
        assert_eq!(t.timeout_turn, 6_500);
    }

    #[test]
    fn untimed_and_correspondence_are_capped() {
        let t = turn_time(TimeControl::Unlimited, SeatClock::default(), 400, CAP);
        assert_eq!(t.timeout_turn, CAP);
        assert_eq!(t.timeout_match, 0);
        assert_eq!(t.time_left, NO_LIMIT_MS);
        let c = TimeControl::Correspondence {
            move_ms: 86_400_000,
            vacation_ms: 0,
        };
        let t = turn_time(c, fresh(c), 400, CAP);
        assert_eq!((t.timeout_turn, t.timeout_match), (CAP, 0));
    }

    #[test]
    fn eight_stone_overtime_gives_the_move_time() {
        let c = TimeControl::eight_stone(0, 4_000, 8);
        let mut clock = fresh(c);
        clock.main_ms = 0;
        let t = turn_time(c, clock, 300, CAP);
        assert_eq!(t.timeout_turn, 3_700);
    }
}
