//! A table's events for the spectators of another node: one publish per
//! event per node that has spectators of the table, not one per spectator.
//!
//! Why: a spectator on another node used to get every event through its
//! own relay at the table's node ([`super::node`]), one bus message per
//! spectator per event; a popular game watched from elsewhere cost Redis
//! as many publishes per move as it had remote spectators.
//!
//! How: a spectator's `watch` reaches the table through its relay as
//! before, with a `Via` (`crate::msg::table`) naming its node and connection there. The table
//! keeps one *fan* per such node ([`crate::table`]): what it sends to all
//! its spectators goes to that node once, as a [`Body::Fan`] listing the
//! connections there that should get it (one part per encoding); the
//! node hands the frames to those connections. A spectator's `watch`
//! answer (snapshot or replay) opens a new fan, addressed to it alone, so
//! that it comes before the events that follow it; its `snapshot` and
//! `unwatch` answers go in the fan too, in their place among the events.
//! Everything else a spectator is sent (answers to its other requests,
//! chat, which is filtered per reader) still goes through its relay.
//!
//! Losses: a fan numbers its messages from 0 (`n`, within a `fan` id
//! drawn anew each time a spectator of that node starts watching, its
//! first message saying how many the fan before it sent) and says how
//! many it has sent for a few ticks after sending (`FanMark`, with the
//! connections it sends to), as a relay does. A node that sees a number
//! skipped, a fan begin past 0, a fan before it short of what it sent, or
//! a mark ahead of what it got, closes the connections the fan has sent
//! to (those it named then, in the message or the mark, or before) with
//! 1012; they resume with `watch` and `since`, and the table replays what
//! they missed. A player's connection at that node is never the fan's,
//! and is left alone. A fresh fan per new spectator means the receiver
//! needs no memory of a fan once none of its connections follows it: a
//! new spectator always starts a fan at 0.

use std::sync::Arc;

use tengen_protocol::TableId;

use super::bus::Bus;
use super::wire::{Body, FanPart, NodeMsg, WireFrame};
use crate::msg::table::{FanHead, FanOut};
use crate::outbound::Frame;

/// A table's [`FanOut`] over the bus: the bus, and this node's name.
#[derive(Clone)]
pub struct BusFan {
    bus: Bus,
    me: Arc<str>,
}

impl std::fmt::Debug for BusFan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BusFan").field("me", &self.me).finish()
    }
}

impl BusFan {
    pub fn new(bus: Bus, me: &str) -> BusFan {
        BusFan { bus, me: me.into() }
    }

    fn publish(&self, node: &str, body: Body) -> bool {
        let msg = NodeMsg {
            from: self.me.to_string(),
            body,
        };
        self.bus.publish_node(node, msg.encode())
    }
}

impl FanOut for BusFan {
    /// Publishes message `head` of `table`'s fan to `node`. Never waits:
    /// false if the bus's queue is full (the message is lost, and the
    /// receiver sees the gap).
    fn frames(
        &self,
        node: &str,
        table: &TableId,
        head: FanHead,
        parts: Vec<(Vec<u64>, Vec<Frame>)>,
    ) -> bool {
        let parts = parts
            .into_iter()
            .map(|(to, frames)| FanPart {
                to,
                frames: frames.into_iter().map(WireFrame::from).collect(),
            })
            .collect();
        self.publish(
            node,
            Body::Fan {
                table: table.clone(),
                fan: head.fan,
                n: head.n,
                prev: head.prev,
                parts,
            },
        )
    }

    /// Tells `node` that fan `fan` of `table` has sent `n` messages, to
    /// its connections `to`.
    fn mark(&self, node: &str, table: &TableId, fan: u64, n: u64, to: Vec<u64>) -> bool {
        let table = table.clone();
        self.publish(node, Body::FanMark { table, fan, n, to })
    }
}
