//! This node as a receiver of other nodes' table fans
//! ([`crate::cluster::fan`]): each fan message handed to the local
//! connections it names, and a gap in a fan's numbering resynchronising
//! every local connection watching that table.

use tengen_protocol::TableId;

use super::Node;
use crate::cluster::wire::FanPart;
use crate::outbound::Frame;

impl Node {
    /// Message `n` of fan `fan` of `table` at node `from`.
    pub(super) fn fan(
        &mut self,
        from: String,
        table: TableId,
        fan: u64,
        n: u64,
        parts: Vec<FanPart>,
    ) {
        let key = (from, table);
        // A fan not seen before starts at 0.
        let next = match self.fans.get(&key) {
            Some(&(id, next)) if id == fan => next,
            _ => 0,
        };
        self.fans.insert(key.clone(), (fan, n + 1));
        if n != next {
            // Its watchers here resume; the messages after it are theirs
            // no more (they are closed), and are followed from here.
            return self.resync_watchers(&key.0, &key.1, "a fan message was lost");
        }
        for part in parts {
            let frames: Vec<Frame> = part.frames.into_iter().map(Frame::from).collect();
            for conn in part.to {
                if let Some(r) = self.routed.get(&conn) {
                    r.outbox.send_all(frames.clone());
                }
            }
        }
    }

    /// Fan `fan` of `table` at `from` has sent `n` messages: if fewer came
    /// here, the last ones were lost.
    pub(super) fn fan_mark(&mut self, from: String, table: TableId, fan: u64, n: u64) {
        let key = (from, table);
        let behind = match self.fans.get(&key) {
            Some(&(id, next)) if id == fan => next < n,
            // Never heard of (or forgotten): whatever it sent is lost.
            _ => n > 0,
        };
        if behind {
            if let Some(e) = self.fans.get_mut(&key).filter(|e| e.0 == fan) {
                e.1 = n;
            }
            self.resync_watchers(&key.0, &key.1, "a fan's last messages were lost");
        }
    }

    /// Closes (1012) every local connection that speaks to `table` at
    /// `node`: they resume, and the table replays what they missed.
    fn resync_watchers(&mut self, node: &str, table: &TableId, why: &str) {
        let conns: Vec<u64> = self
            .routed
            .iter()
            .filter(|(_, r)| r.tables.get(table).is_some_and(|n| n == node))
            .map(|(c, _)| *c)
            .collect();
        for conn in conns {
            self.resync(conn, why);
        }
    }

    /// Forgets the fans of tables no local connection speaks to any more
    /// (at each tick: so the fans followed are at most the tables the
    /// local connections speak to).
    pub(super) fn forget_fans(&mut self) {
        if self.fans.is_empty() {
            return;
        }
        let spoken: std::collections::HashSet<(&str, &TableId)> = self
            .routed
            .values()
            .flat_map(|r| r.tables.iter().map(|(t, n)| (n.as_str(), t)))
            .collect();
        self.fans
            .retain(|(n, t), _| spoken.contains(&(n.as_str(), t)));
    }
}
