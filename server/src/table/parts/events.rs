//! A table's events: how many were stamped, and the latest kept for a
//! resuming client's replay.

use std::collections::VecDeque;

use tengen_protocol::TableEvent;

/// The table's events: how many were stamped, and the latest kept for a
/// resuming client's replay.
#[derive(Default)]
pub(crate) struct EventLog {
    /// The last `seq` stamped (events count from 1).
    pub(crate) seq: u64,
    /// The latest events, oldest first.
    pub(crate) kept: VecDeque<TableEvent>,
}

impl EventLog {
    /// Whether every event after `since` is still kept.
    pub(crate) fn replayable(&self, since: u64) -> bool {
        if since > self.seq {
            return false;
        }
        match self.kept.front() {
            None => since == self.seq,
            Some(first) => since + 1 >= first.seq,
        }
    }

    /// Keeps `event`, dropping the oldest beyond `limit` (at least one).
    pub(crate) fn keep(&mut self, event: TableEvent, limit: usize) {
        if self.kept.len() >= limit.max(1) {
            self.kept.pop_front();
        }
        self.kept.push_back(event);
    }
}
