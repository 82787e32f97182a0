//! What a table sends all its spectators, to the spectators of other
//! nodes: once per node, through that node's fan
//! ([`crate::cluster::fan`]), not once per spectator through its relay.
//! A remote spectator's snapshot or replay goes through the fan too,
//! addressed to it alone, as the first message of a new fan to its node
//! (so nothing of the fan overtakes it, and the node can tell a loss
//! without remembering anything of the fans before).

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use tengen_protocol::Encoding;

use super::Table;
use super::parts::{Fan, Remote};
use crate::msg::table::{FanHead, FanLink, Via};
use crate::outbound::{self, Frame, Outbox, Shared};

/// How many ticks a fan's count is announced after it changed.
const MARKS: u8 = 3;

/// The most frames a remote spectator's snapshot or replay is made of
/// (entries of the capture queue: the replay is one).
const CAPTURE: usize = 8;

impl Table {
    /// Queues `shared` to every spectator: local ones directly, those of
    /// other nodes once per node. Spectators that cannot take it go.
    pub(super) fn send_spectators(&mut self, shared: &mut Shared<'_>) {
        let before = self.subs.spectators.len();
        let remote = &self.subs.remote;
        self.subs.spectators.retain(|c, o| {
            if remote.contains_key(c) {
                !o.is_closed()
            } else {
                o.send(shared.get(o.encoding()))
            }
        });
        self.fan_out(shared);
        if self.subs.spectators.len() != before {
            self.spectators_changed();
        }
    }

    /// Queues `shared` to the spectators of other nodes: one message per
    /// node, listing its spectators by encoding.
    fn fan_out(&mut self, shared: &mut Shared<'_>) {
        self.prune_remote();
        if self.subs.remote.is_empty() {
            return;
        }
        let mut by_node: HashMap<&str, (&FanLink, Vec<u64>, Vec<u64>)> = HashMap::new();
        for r in self.subs.remote.values() {
            let e = by_node
                .entry(r.node.as_str())
                .or_insert_with(|| (&r.link, Vec::new(), Vec::new()));
            match r.encoding {
                Encoding::Json => e.1.push(r.conn),
                Encoding::MsgPack => e.2.push(r.conn),
            }
        }
        let by_node: Vec<(String, FanLink, Vec<u64>, Vec<u64>)> = by_node
            .into_iter()
            .map(|(node, (link, json, packed))| (node.to_owned(), link.clone(), json, packed))
            .collect();
        for (node, link, json, packed) in by_node {
            let mut parts = Vec::new();
            if !json.is_empty() {
                parts.push((json, vec![shared.get(Encoding::Json)]));
            }
            if !packed.is_empty() {
                parts.push((packed, vec![shared.get(Encoding::MsgPack)]));
            }
            self.fan_send(&node, &link, parts);
        }
    }

    /// The remote spectators no longer watching go, and the fans of nodes
    /// left without any.
    fn prune_remote(&mut self) {
        let spectators = &self.subs.spectators;
        self.subs.remote.retain(|c, _| spectators.contains_key(c));
        if !self.subs.fans.is_empty() {
            let nodes: HashSet<&str> = self.subs.remote.values().map(|r| r.node.as_str()).collect();
            self.subs.fans.retain(|n, _| nodes.contains(n.as_str()));
        }
    }

    /// Publishes the next message of `node`'s fan (started if need be).
    fn fan_send(&mut self, node: &str, link: &FanLink, parts: Vec<(Vec<u64>, Vec<Frame>)>) {
        let fan = self
            .subs
            .fans
            .entry(node.to_owned())
            .or_insert_with(|| new_fan(link, None));
        let head = FanHead {
            fan: fan.id,
            n: fan.n,
            prev: fan.prev.filter(|_| fan.n == 0),
        };
        // Counted even when the bus's queue is full: the receiver then
        // sees the gap.
        fan.link.frames(node, &self.id, head, parts);
        fan.n += 1;
        fan.marks_left = MARKS;
        // The marks wait until the fans have been quiet for a tick: while
        // messages follow each other, each one's number shows a loss before
        // it, and a mark per message would double the publishes.
        self.subs.mark_due = Some(Instant::now() + self.hosting.settings.lease_ttl / 3);
    }

    /// A spectator of another node starts watching: counted as a remote
    /// one, and given an outbox that captures what `watch` answers, sent
    /// on by [`Table::send_captured`].
    pub(super) fn watch_remote(&mut self, relay: &Outbox, via: &Via) -> (Outbox, outbound::Inbox) {
        self.subs.remote.insert(
            relay.conn,
            Remote {
                node: via.node.clone(),
                conn: via.conn,
                encoding: relay.encoding(),
                link: via.link.clone(),
            },
        );
        outbound::channel(relay.conn, relay.encoding(), CAPTURE)
    }

    /// Sends what `capture` holds to the remote spectator `via`, as the
    /// first message of a new fan to its node (so that it comes before
    /// the fan's next events, and its node needs no memory of the fans
    /// before it to see a loss).
    pub(super) fn send_captured(&mut self, capture: &outbound::Inbox, via: &Via) {
        let prev = self.subs.fans.remove(&via.node).map(|f| (f.id, f.n));
        self.subs
            .fans
            .insert(via.node.clone(), new_fan(&via.link, prev));
        let frames = capture.take_now();
        self.fan_send(&via.node, &via.link, vec![(vec![via.conn], frames)]);
    }

    /// For a spectator of another node (by its relay's connection here):
    /// an outbox capturing an answer to it, to go in its node's fan
    /// ([`Table::send_addressed`]) so that it keeps its place among the
    /// fan's events (a snapshot after the events it includes, `unwatched`
    /// after the last event sent).
    pub(super) fn capture_for(&self, conn: u64) -> Option<(Outbox, outbound::Inbox)> {
        let r = self.subs.remote.get(&conn)?;
        Some(outbound::channel(conn, r.encoding, CAPTURE))
    }

    /// Sends what `capture` holds to the spectator of another node whose
    /// relay's connection here is `conn`, in its node's fan.
    pub(super) fn send_addressed(&mut self, conn: u64, capture: &outbound::Inbox) {
        let Some(r) = self.subs.remote.get(&conn) else {
            return;
        };
        let (node, link, to) = (r.node.clone(), r.link.clone(), r.conn);
        let frames = capture.take_now();
        if !frames.is_empty() {
            self.fan_send(&node, &link, vec![(vec![to], frames)]);
        }
    }

    /// Every fan that sent something lately says how many messages it
    /// has sent (for a few ticks once the fans are quiet), so a loss of
    /// its last ones shows.
    pub(super) fn send_marks(&mut self, now: Instant) {
        self.subs.mark_due = None;
        let mut again = false;
        let remote = &self.subs.remote;
        for (node, fan) in &mut self.subs.fans {
            if fan.marks_left > 0 {
                let to = remote
                    .values()
                    .filter(|r| r.node == *node)
                    .map(|r| r.conn)
                    .collect();
                fan.link.mark(node, &self.id, fan.id, fan.n, to);
                fan.marks_left -= 1;
                again |= fan.marks_left > 0;
            }
        }
        if again {
            self.subs.mark_due = Some(now + self.hosting.settings.lease_ttl / 3);
        }
    }
}

/// A fan to a node from 0, following `prev` (its id and count).
fn new_fan(link: &FanLink, prev: Option<(u64, u64)>) -> Fan {
    Fan {
        id: rand::random(),
        n: 0,
        prev,
        marks_left: 0,
        link: link.clone(),
    }
}
