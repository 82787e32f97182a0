//! The cluster bus: opaque messages between server nodes over Redis
//! pub/sub, with every possible loss made visible.
//!
//! # Why
//!
//! A table is owned by one node, but its players and spectators may be
//! connected to any node. A player's command must reach the owner, and the
//! owner's events must reach every node where someone watches. The nodes
//! already share one Redis (the store), so they talk through its pub/sub:
//! no second piece of infrastructure, no node-to-node addressing.
//!
//! # Channels
//!
//! - `PREFIX:node:NODE` — point to point: commands to a table's owner,
//!   replies to a connection's node. Every bus subscribes to its own node
//!   channel at start and keeps it.
//! - `PREFIX:topic:NAME` — a topic: one message to every node subscribed
//!   to it (the lobby's news go on the `lobby` topic, which every node
//!   subscribes to). [`Bus::subscribe_topic`] and [`Bus::unsubscribe_topic`]
//!   are reference-counted: several local subscribers of one topic make one
//!   Redis subscription, removed with the last of them.
//!
//! A table's events do not use a topic: they reach the spectators of
//! another node once per event on that node's channel, numbered per table
//! and node (`crate::cluster::fan`), and a player there through its relay
//! at the table's node, numbered per connection (`crate::cluster::node`),
//! so that each receiver sees its own gaps.
//!
//! # Losses, and how a receiver learns of them
//!
//! Pub/sub is fire and forget: Redis keeps nothing for a subscriber that is
//! not connected. So the bus does not promise delivery; it promises that a
//! receiver *knows* when something may have been lost, and can then resync
//! (a relay's numbering, or a topic's own, tells what is missing).
//!
//! - **Reconnects.** The subscriber connection is a `ConnectionManager`
//!   speaking RESP3, so published messages arrive as push messages on the
//!   same multiplexed connection, and the crate reconnects and resubscribes
//!   by itself. What was published while the connection was down is gone.
//!   The crate tells the bus of every disconnection (a `Disconnection` push);
//!   the bus then probes with `PING` until Redis answers (building a fresh
//!   connection if the old one stays unusable), subscribes again to every
//!   channel it wants (the crate's own resubscription ignores failures and
//!   says nothing of when it is done), removes any channel the crate
//!   restored that nobody wants any more (left while Redis was down), and
//!   only then delivers [`Delivery::Resubscribed`]. Everything published
//!   after a receiver sees `Resubscribed` is delivered, until the next
//!   notice. A keepalive `PING` also catches a connection that died
//!   silently.
//! - **A slow receiver.** Deliveries go through a bounded queue. When it is
//!   full the delivery is dropped and counted, and [`Delivery::Lagged`]
//!   (with the number dropped) comes before the next delivery that fits —
//!   soon, without waiting for the next message. A notice that does not fit
//!   waits the same way. Nothing in the bus ever waits for a receiver.
//! - **A slow or absent Redis on the sending side.** [`Bus::publish_node`]
//!   and [`Bus::publish_topic`] never wait: they put the message on a
//!   bounded queue to a publisher task and return `false` if it is full
//!   (dropped and counted). The publisher sends what is queued as one
//!   pipeline, in order; a batch that never reached Redis (connection
//!   refused) is tried again within the timeout, and a batch Redis refuses
//!   or does not confirm within the timeout is dropped and counted (not
//!   repeated: part of it may have been published). The subscribers get no
//!   notice for that (they were not disconnected): a receiver relies on
//!   sequence numbers in the payload (a table's `seq`) or on request
//!   timeouts.
//! - **Bad input.** A push the bus cannot read (a channel it does not know,
//!   a payload that is not a byte string) is dropped and counted, never a
//!   panic.
//!
//! Ordering: messages from one bus on one channel arrive in the order they
//! were published (one publisher task, one connection, pipelines in order;
//! Redis keeps the order per publishing connection).
//!
//! No lock is held across an await: the subscription counts and the
//! delivery state are `std::sync::Mutex`es held for a few instructions.
//! Every queue of the bus is bounded (`PUBLISH_QUEUE`, `DELIVERY_QUEUE`
//! by default, or [`BusConfig`]), and so is every Redis call
//! (`COMMAND_TIMEOUT`). One queue is not the bus's: the connection
//! manager relays pushes to the bus's handler through an unbounded channel
//! of its own; the handler never waits, so that channel stays near empty.

mod conn;
mod handle;
mod shared;
mod subscriber;

pub use handle::Bus;
pub use shared::{BusConfig, BusError, BusStats, Delivery};
