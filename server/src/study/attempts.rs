//! Puzzle tries in progress on this node: a bounded map, each try taken
//! out while a move of it is judged (so two moves of one try are never
//! judged at once) and put back after.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tengen_study::puzzle::{Attempt, Puzzle};

/// A try, and whose it is.
pub(super) struct Try {
    pub attempt: Attempt,
    pub puzzle: Arc<Puzzle>,
    /// The account's name key, or the guest's session name.
    pub player: String,
    /// An account's first try: rated at its end.
    pub rated: bool,
    pub started: Instant,
}

pub(super) struct Attempts {
    tries: Mutex<HashMap<String, Try>>,
    cap: usize,
    ttl: Duration,
}

impl Attempts {
    pub fn new(cap: usize, ttl: Duration) -> Attempts {
        Attempts {
            tries: Mutex::default(),
            cap: cap.max(1),
            ttl,
        }
    }

    /// Keeps `t` under a new id; the expired and, at the cap, the oldest
    /// make room.
    pub fn insert(&self, t: Try) -> String {
        let id = format!("{:016x}", rand::random::<u64>());
        self.put(id.clone(), t);
        id
    }

    /// Puts a try back (or in).
    pub fn put(&self, id: String, t: Try) {
        let Ok(mut tries) = self.tries.lock() else {
            return;
        };
        let ttl = self.ttl;
        tries.retain(|_, t| t.started.elapsed() < ttl);
        while tries.len() >= self.cap {
            let Some(oldest) = tries
                .iter()
                .min_by_key(|(_, t)| t.started)
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            tries.remove(&oldest);
        }
        tries.insert(id, t);
    }

    /// Takes `id`'s try out, if it is `player`'s.
    pub fn take(&self, id: &str, player: &str) -> Option<Try> {
        let mut tries = self.tries.lock().ok()?;
        if tries.get(id)?.player != player {
            return None;
        }
        tries.remove(id)
    }
}
