//! This node as a receiver of other nodes' table fans
//! ([`crate::cluster::fan`]): each fan message handed to the local
//! connections it names, and a gap in a fan's numbering resynchronising
//! the local connections the fan sends to (a table's players here, whose
//! frames come through their relays, are left alone).

use std::collections::HashSet;

use tengen_protocol::TableId;

use super::Node;
use crate::cluster::wire::FanPart;
use crate::outbound::Frame;

/// What this node follows of one fan.
pub(super) struct Follow {
    /// The fan's id.
    id: u64,
    /// The number of its next message.
    next: u64,
    /// The local connections it has sent to (pruned at each tick to those
    /// still routed).
    conns: HashSet<u64>,
}

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
        let named = parts.iter().flat_map(|p| p.to.iter().copied());
        let follow = self.fans.entry(key.clone()).or_insert_with(|| Follow {
            id: fan,
            next: 0,
            conns: HashSet::new(),
        });
        if follow.id != fan {
            // A new fan (the table's node had no spectators here for a
            // while): it starts at 0.
            follow.id = fan;
            follow.next = 0;
            if n == 0 {
                follow.conns.clear();
            }
        }
        follow.conns.extend(named);
        let expected = follow.next;
        follow.next = n + 1;
        if n != expected {
            // Its connections here resume; the messages after it are
            // followed from here.
            return self.resync_fan(&key, "a fan message was lost");
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

    /// Fan `fan` of `table` at `from` has sent `n` messages, to the
    /// connections `to` here: if fewer came, the last ones were lost.
    pub(super) fn fan_mark(
        &mut self,
        from: String,
        table: TableId,
        fan: u64,
        n: u64,
        to: Vec<u64>,
    ) {
        let key = (from, table);
        let follow = self.fans.entry(key.clone()).or_insert_with(|| Follow {
            id: fan,
            next: 0,
            conns: HashSet::new(),
        });
        // A fan not heard of (or forgotten) got nothing through here.
        let got = if follow.id == fan { follow.next } else { 0 };
        if got < n {
            follow.conns.extend(to);
            if follow.id == fan {
                follow.next = n;
            }
            self.resync_fan(&key, "a fan's last messages were lost");
        }
    }

    /// Closes (1012) every local connection fan `key` has sent to: they
    /// resume, and the table replays what they missed.
    fn resync_fan(&mut self, key: &(String, TableId), why: &str) {
        let conns: Vec<u64> = self
            .fans
            .get_mut(key)
            .map(|f| f.conns.drain().collect())
            .unwrap_or_default();
        for conn in conns {
            self.resync(conn, why);
        }
    }

    /// Forgets the connections gone, and the fans of tables no local
    /// connection speaks to any more (at each tick: so the fans followed
    /// are at most the tables the local connections speak to).
    pub(super) fn forget_fans(&mut self) {
        if self.fans.is_empty() {
            return;
        }
        let routed = &self.routed;
        let spoken: HashSet<(&str, &TableId)> = routed
            .values()
            .flat_map(|r| r.tables.iter().map(|(t, n)| (n.as_str(), t)))
            .collect();
        self.fans.retain(|(n, t), f| {
            f.conns.retain(|c| routed.contains_key(c));
            spoken.contains(&(n.as_str(), t))
        });
    }
}
