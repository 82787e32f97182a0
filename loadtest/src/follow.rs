//! Event order: the tables a connection follows and the last `seq` it
//! has of each, so that every table event is checked to be the next one.
//!
//! Why it exists: the server promises each table's events in order, none
//! lost and none twice; a load run is where that promise meets queues,
//! slow consumers and (soak) connections coming and going. Players and
//! spectators of `games`, `fanout` and `soak` both check it here, counting
//! a gap or a repeat as an error.

use tengen_protocol::TableId;

/// What a connection follows: each table with the last `seq` it has of it
/// (None until the table's snapshot).
#[derive(Default)]
pub struct Follow {
    pub tables: Vec<(TableId, Option<u64>)>,
}

impl Follow {
    pub fn has(&self, table: &TableId) -> bool {
        self.tables.iter().any(|(t, _)| t == table)
    }

    pub fn last_mut(&mut self, table: &TableId) -> Option<&mut Option<u64>> {
        self.tables
            .iter_mut()
            .find(|(t, _)| t == table)
            .map(|(_, last)| last)
    }

    /// An event `seq` of `table` arrived: true if it is the next one of a
    /// watched table; a gap or a repeat is counted (and is an error). Events
    /// of tables no longer watched (or not yet: before the snapshot) are
    /// ignored.
    pub fn check(&mut self, table: &TableId, seq: u64, s: &mut crate::stats::Stats) -> bool {
        let Some(Some(last)) = self.last_mut(table) else {
            return false;
        };
        if seq <= *last {
            s.events_duplicated += 1;
            s.error("event_duplicated");
            return false;
        }
        if seq > *last + 1 {
            s.events_lost += seq - *last - 1;
            s.error("event_lost");
        }
        *last = seq;
        true
    }
}
