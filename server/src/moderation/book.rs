//! The standings this node knows, in memory, for the checks that cannot
//! wait for the store: a table asking whether a chat line's sender is
//! muted, or whether a recipient blocks the sender; the matchmaker asking
//! whether two players may be paired; the lobby asking whether a player
//! waits out a fair-play ban before a rated game. Filled when an account logs in (its
//! standing is read then), when this node changes one, and when another
//! node says it changed one (`super::news`). A lock held only for map
//! operations, never across an await.
//!
//! Bounded: past [`MAX_ENTRIES`] standings, those with nothing in force
//! (no mute, no block, no fair-play wait) are dropped first; a standing dropped is read
//! again at its account's next login.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tengen_store::{Standing, name_key};

/// The most standings kept.
pub const MAX_ENTRIES: usize = 100_000;

/// Standings by name_key (shared, cheap to clone).
#[derive(Clone, Default)]
pub struct Book {
    inner: Arc<Mutex<HashMap<String, Standing>>>,
}

impl Book {
    /// Notes `standing` (replacing an older one of the account).
    pub fn set(&self, standing: Standing) {
        let Ok(mut book) = self.inner.lock() else {
            return;
        };
        let key = name_key(&standing.name);
        if book.len() >= MAX_ENTRIES && !book.contains_key(&key) {
            book.retain(|_, s| s.mute.is_some() || !s.blocks.is_empty() || s.playban.until_ms > 0);
            if book.len() >= MAX_ENTRIES {
                return;
            }
        }
        book.insert(key, standing);
    }

    /// The standing noted for `name`, if any.
    pub fn get(&self, name: &str) -> Option<Standing> {
        self.inner.lock().ok()?.get(&name_key(name)).cloned()
    }

    /// `name` is muted at `now_ms`.
    pub fn muted(&self, name: &str, now_ms: u64) -> bool {
        self.inner.lock().is_ok_and(|book| {
            book.get(&name_key(name))
                .and_then(|s| s.mute.as_ref())
                .is_some_and(|m| m.active(now_ms))
        })
    }

    /// `who` blocks `whom`.
    pub fn blocks(&self, who: &str, whom: &str) -> bool {
        let whom = name_key(whom);
        self.inner.lock().is_ok_and(|book| {
            book.get(&name_key(who))
                .is_some_and(|s| s.blocks.contains(&whom))
        })
    }

    /// Either of `a` and `b` blocks the other.
    pub fn apart(&self, a: &str, b: &str) -> bool {
        self.blocks(a, b) || self.blocks(b, a)
    }
}
