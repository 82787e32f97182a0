//! Pacing of new games: a node starts at most so many tables a second.
//!
//! Why: starting a game is several times the work of a move (the table's
//! task and its first store write, the snapshots to both players, the
//! spectators' first watch), and games end and start in waves: the
//! rounds of an event, or a crowd that all sat down at once and all
//! finishes at once. Measured with 2,000 games on one core, the second in
//! which 2,000 games ended and 2,000 began held the moves of the games in
//! progress behind it (half of that second's moves took over 2.5 ms to
//! handle, a fifth over 5 ms), and that second made most of the run's
//! p99. With the same starts spread over three seconds, the worst second
//! had 82 moves over 5 ms instead of 403.
//!
//! So a new table waits its turn before it starts (before its clocks
//! start, its first store write and its snapshots): turns are handed out
//! evenly, [`StartGate::reserve`] giving each the next free instant, so a
//! wave of starts becomes a steady trickle beside the moves. A burst of
//! up to a twentieth of a second's turns starts at once, so that an idle
//! server starts a game without delay. The rate is a setting
//! (`--table-start-rate`, 0: no pacing). When the turns handed out reach
//! more than [`MAX_BACKLOG`] ahead, the edge sheds new rooms and queue
//! entries (`crate::pressure`): the wait a player would have is bounded.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How far ahead turns may be handed out before new work is shed.
pub const MAX_BACKLOG: Duration = Duration::from_secs(3);

/// The schedule of table starts (see the [module documentation](self)).
#[derive(Debug)]
pub struct StartGate {
    /// Between two turns (zero: no pacing).
    interval: Duration,
    /// How many turns an idle gate gives at once.
    burst: u32,
    /// The next free turn.
    next: Mutex<Option<Instant>>,
}

impl StartGate {
    /// A gate of `per_second` starts a second (0: every start at once).
    pub fn new(per_second: u32) -> StartGate {
        let interval = if per_second == 0 {
            Duration::ZERO
        } else {
            Duration::from_secs(1) / per_second
        };
        StartGate {
            interval,
            burst: (per_second / 20).max(1),
            next: Mutex::new(None),
        }
    }

    /// Takes the next turn: `None` to start at once, or the instant to
    /// start at.
    pub fn reserve(&self, now: Instant) -> Option<Instant> {
        if self.interval.is_zero() {
            return None;
        }
        let mut next = self.next.lock().unwrap_or_else(|e| e.into_inner());
        let earliest = now.checked_sub(self.interval * self.burst).unwrap_or(now);
        let turn = next.map_or(earliest, |n| n.max(earliest));
        *next = Some(turn + self.interval);
        (turn > now).then_some(turn)
    }

    /// How far ahead of `now` the turns handed out reach.
    pub fn backlog(&self, now: Instant) -> Duration {
        let next = *self.next.lock().unwrap_or_else(|e| e.into_inner());
        next.map_or(Duration::ZERO, |n| n.saturating_duration_since(now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_idle_gate_starts_a_burst_at_once_then_spaces_the_rest_evenly() {
        let gate = StartGate::new(1000); // a turn every ms, 50 at once
        let now = Instant::now() + Duration::from_secs(10);
        let at_once = (0..50).filter(|_| gate.reserve(now).is_none()).count();
        assert!(at_once >= 50, "{at_once} started at once");
        let mut last = now;
        for k in 0..100 {
            let turn = gate.reserve(now).unwrap_or(now);
            assert!(turn >= last, "turn {k} before the one before it");
            assert!(turn - last <= Duration::from_millis(1));
            last = turn;
        }
        // A hundred starts past the burst: about 100 ms of turns.
        let backlog = gate.backlog(now);
        assert!(
            backlog >= Duration::from_millis(95) && backlog <= Duration::from_millis(101),
            "{backlog:?}"
        );
    }

    #[test]
    fn turns_come_back_once_the_gate_was_idle() {
        let gate = StartGate::new(100);
        let now = Instant::now() + Duration::from_secs(10);
        for _ in 0..200 {
            gate.reserve(now);
        }
        assert!(gate.reserve(now).is_some(), "busy: a turn later");
        let later = now + Duration::from_secs(5);
        assert_eq!(gate.backlog(later), Duration::ZERO);
        assert_eq!(gate.reserve(later), None, "idle again: at once");
    }

    #[test]
    fn a_zero_rate_never_waits() {
        let gate = StartGate::new(0);
        let now = Instant::now();
        assert!((0..10_000).all(|_| gate.reserve(now).is_none()));
        assert_eq!(gate.backlog(now), Duration::ZERO);
    }
}
