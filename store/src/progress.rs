//! When a store last finished a write: how the server tells a store that
//! is slow from one that is down.
//!
//! Under overload every write waits longer, and a fixed timeout would call
//! a store that is merely behind "unavailable" and freeze games that would
//! have gone on a moment later. A store that finished some write recently
//! is working through its queue; one that finished none is stuck or gone.
//! Each store marks a [`Progress`] whenever a write (embedded: a commit;
//! Redis: any answer) completes, and [`crate::Store::last_progress`] reads
//! it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The instant of the latest completed write, lock-free.
#[derive(Debug)]
pub struct Progress {
    origin: Instant,
    /// Nanoseconds after `origin` of the latest mark, plus one (0: never).
    last: AtomicU64,
}

impl Default for Progress {
    fn default() -> Self {
        Progress {
            origin: Instant::now(),
            last: AtomicU64::new(0),
        }
    }
}

impl Progress {
    /// A write completed now.
    pub fn mark(&self) {
        let ns = self.origin.elapsed().as_nanos().min(u64::MAX as u128 - 1) as u64;
        self.last.fetch_max(ns + 1, Ordering::Relaxed);
    }

    /// When a write last completed, if one ever did.
    pub fn last(&self) -> Option<Instant> {
        match self.last.load(Ordering::Relaxed) {
            0 => None,
            n => Some(self.origin + std::time::Duration::from_nanos(n - 1)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_marked_is_none_and_a_mark_is_now() {
        let p = Progress::default();
        assert_eq!(p.last(), None);
        let before = Instant::now();
        p.mark();
        let at = p.last().expect("marked");
        assert!(at >= before - std::time::Duration::from_millis(1));
        assert!(at <= Instant::now());
    }
}
