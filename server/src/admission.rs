//! Admission: the cap on open WebSocket connections.
//!
//! One process may hold only so many open files, and every connection is
//! one. Past the cap a new upgrade is answered with HTTP 503 before it
//! becomes a WebSocket, so the connections already open (and the store's
//! and Redis's own files) never run short. A [`Ticket`] stands for one
//! admitted connection from its upgrade to its end: dropping it, however
//! the connection ends (an upgrade that fails included), frees the place.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The count of open connections against the cap.
#[derive(Debug)]
pub struct Admission {
    open: AtomicUsize,
    max: usize,
}

/// One admitted connection's place (and its place under its address's
/// cap, `crate::addresses`); freed when dropped.
pub struct Ticket(Arc<Admission>, Option<crate::addresses::Place>);

impl Ticket {
    /// The ticket, holding `place` under the per-address cap as well.
    pub fn with_address(mut self, place: Option<crate::addresses::Place>) -> Ticket {
        self.1 = place;
        self
    }
}

impl Admission {
    pub fn new(max: usize) -> Arc<Admission> {
        Arc::new(Admission {
            open: AtomicUsize::new(0),
            max,
        })
    }

    /// A place for one more connection, if the cap allows.
    pub fn admit(self: &Arc<Self>) -> Option<Ticket> {
        let before = self.open.fetch_add(1, Ordering::AcqRel);
        if before >= self.max {
            self.open.fetch_sub(1, Ordering::AcqRel);
            metrics::counter!(crate::metrics::CONNECTIONS_REFUSED).increment(1);
            crate::metrics::cap_hit(crate::metrics::Cap::Connections);
            return None;
        }
        Some(Ticket(self.clone(), None))
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.open.load(Ordering::Acquire)
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.0.open.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_holds_and_a_dropped_ticket_frees_its_place() {
        let a = Admission::new(2);
        let t1 = a.admit().unwrap();
        let _t2 = a.admit().unwrap();
        assert!(a.admit().is_none(), "a third is refused");
        assert_eq!(a.open(), 2, "a refusal takes no place");
        drop(t1);
        assert!(a.admit().is_some());
    }
}
