//! This node as a receiver of other nodes' table fans
//! ([`crate::cluster::fan`]): each fan message handed to the local
//! connections it names, and a loss (a number skipped, a fan begun past
//! 0, a fan before it short of its count, a mark ahead) resynchronising
//! the local connections the fan sends to (a table's players here, whose
//! frames come through their relays, are left alone).

use std::collections::HashSet;

use tengen_protocol::TableId;

use super::{Follow, Node};
use crate::cluster::wire::FanPart;
use crate::msg::table::FanHead;
use crate::outbound::Frame;

impl Node {
    /// Message `head` of `table`'s fan at node `from`.
    pub(super) fn fan(&mut self, from: String, table: TableId, head: FanHead, parts: Vec<FanPart>) {
        let key = (from, table);
        let named = parts.iter().flat_map(|p| p.to.iter().copied());
        let follow = self.fans.entry(key.clone()).or_insert_with(|| Follow {
            id: head.fan,
            next: 0,
            conns: HashSet::new(),
        });
        let mut lost = false;
        if follow.id != head.fan {
            // A new fan: it starts at 0, and the one before it (if this
            // node followed it) must have come whole.
            lost = match head.prev {
                Some((id, sent)) => id != follow.id || follow.next < sent,
                None => false,
            };
            follow.id = head.fan;
            follow.next = 0;
        }
        follow.conns.extend(named);
        lost |= head.n != follow.next;
        follow.next = head.n + 1;
        if lost {
            // Its connections here resume; the messages after this one
            // are followed from here.
            return self.resync_fan(&key, "a fan message was lost");
        }
        for part in parts {
            let frames: Vec<Frame> = part.frames.into_iter().map(Frame::from).collect();
            for conn in part.to {
                if let Some(r) = self.routed.get_mut(&conn) {
                    // A remote spectator's `watch` is answered in a fan
                    // message: its node has answered it.
                    r.asked.remove(&key.0);
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

    /// Forgets the connections gone, and the fans none of whose
    /// connections is left (at each tick: so the fans followed are at
    /// most the local connections). A fan forgotten needs no memory: a
    /// new spectator here starts a new one at 0.
    pub(super) fn forget_fans(&mut self) {
        let routed = &self.routed;
        self.fans.retain(|_, f| {
            f.conns.retain(|c| routed.contains_key(c));
            !f.conns.is_empty()
        });
    }
}
