//! Whether this node may take a table over now, and which takeovers it is
//! running.
//!
//! Why: after an outage of the store every lease has lapsed, though every
//! node lives; a node that took the tables it then finds unleased would
//! move live games for nothing. So each node notes when a store call of
//! its own last failed, and takes over nothing until the store has
//! answered it steadily for the takeover grace
//! (`Settings::takeover_grace`): by then each table's own node has taken
//! its lease back. A node whose store never failed takes a dead node's
//! tables as soon as their leases lapse. The set of takeovers in progress
//! keeps the periodic scan and a returning player's `hello` from both
//! starting one for the same table.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How this node has found the store lately, and which tables it is
/// taking over now. Shared by the takeover scan, the node's liveness
/// tick and every `hello`.
#[derive(Clone, Default)]
pub struct Takeovers {
    /// When a store call of this node last failed.
    failed: Arc<Mutex<Option<Instant>>>,
    /// Tables whose takeover is in progress here (so that the scan and a
    /// `hello` never both start one).
    taking: Arc<Mutex<HashSet<String>>>,
}

impl Takeovers {
    /// A store call failed (the store is down, or cannot be reached).
    pub fn store_failed(&self) {
        if let Ok(mut f) = self.failed.lock() {
            *f = Some(Instant::now());
        }
    }

    /// Whether no store call has failed for `grace`.
    pub fn calm_for(&self, grace: Duration) -> bool {
        self.failed
            .lock()
            .map(|f| f.is_none_or(|t| t.elapsed() >= grace))
            .unwrap_or(false)
    }

    /// Marks `id` as being taken over here; false if it already is.
    pub fn begin(&self, id: &str) -> bool {
        self.taking
            .lock()
            .map(|mut t| t.insert(id.to_owned()))
            .unwrap_or(false)
    }

    /// Whether `id` is being taken over here now.
    pub fn taking(&self, id: &str) -> bool {
        self.taking.lock().is_ok_and(|t| t.contains(id))
    }

    pub fn end(&self, id: &str) {
        if let Ok(mut t) = self.taking.lock() {
            t.remove(id);
        }
    }
}
