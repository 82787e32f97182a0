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
//! - `PREFIX:{t:TABLE}:events` — a table's events. The `{t:TABLE}` hash tag
//!   is the one the store's keys of that table use, so the channel lands on
//!   the table's slot when Redis Cluster's sharded pub/sub is used later.
//!   [`Bus::subscribe_table`] and [`Bus::unsubscribe_table`] are
//!   reference-counted: several local watchers of one table make one Redis
//!   subscription, removed with the last of them.
//!
//! # Losses, and how a receiver learns of them
//!
//! Pub/sub is fire and forget: Redis keeps nothing for a subscriber that is
//! not connected. So the bus does not promise delivery; it promises that a
//! receiver *knows* when something may have been lost, and can then resync
//! (ask the owner for a snapshot; the tables' own `seq` tells the rest).
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
//!   and [`Bus::publish_table`] never wait: they put the message on a
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
//! Every queue of the bus is bounded ([`PUBLISH_QUEUE`], [`DELIVERY_QUEUE`]
//! by default, or [`BusConfig`]), and so is every Redis call
//! ([`COMMAND_TIMEOUT`]). One queue is not the bus's: the connection
//! manager relays pushes to the bus's handler through an unbounded channel
//! of its own; the handler never waits, so that channel stays near empty.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use bytes::Bytes;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{IntoConnectionInfo, ProtocolVersion, PushInfo, PushKind, Value};
use tokio::sync::{Notify, mpsc, watch};
use tokio::task::JoinHandle;

/// Default size of the queue to the publisher task.
pub const PUBLISH_QUEUE: usize = 4096;
/// Default size of the queue of deliveries to the receiver.
pub const DELIVERY_QUEUE: usize = 4096;
/// The most messages the publisher sends in one pipeline.
pub const PUBLISH_BATCH: usize = 256;
/// The most channels in one `SUBSCRIBE` or `UNSUBSCRIBE`.
const SUBSCRIBE_BATCH: usize = 512;
/// How long any one Redis call (a publish batch, a subscription, a probe)
/// may take before it counts as failed.
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(2);
/// How often an idle subscriber connection is checked with `PING`.
pub const KEEPALIVE: Duration = Duration::from_secs(5);
/// How soon a pending gap notice is retried while the receiver is full.
const NOTICE_RETRY: Duration = Duration::from_millis(50);
/// Backoff between probes of an unreachable Redis.
const BACKOFF_MIN: Duration = Duration::from_millis(100);
const BACKOFF_MAX: Duration = Duration::from_secs(2);
/// Failed probes after which the subscriber connection is built anew.
const REBUILD_AFTER: u32 = 3;
/// The longest node or table id.
pub const MAX_ID_BYTES: usize = 64;

/// Why the bus did not start, or a subscription is not confirmed.
#[derive(Debug, thiserror::Error)]
pub enum BusError {
    #[error("bad {what} id {id:?}: 1 to {MAX_ID_BYTES} of A-Z, a-z, 0-9, '-', '_', '.'")]
    BadId { what: &'static str, id: String },
    #[error("the bus channel prefix must be non-empty, without '{{', '}}' or whitespace")]
    BadPrefix,
    #[error("the Redis URL {url}: {source}")]
    Url {
        url: String,
        source: redis::RedisError,
    },
    #[error("cannot read the CA file {}: {source}", .file.display())]
    CaFile {
        file: PathBuf,
        source: std::io::Error,
    },
    #[error("a CA file is for rediss:// URLs, not {0}")]
    CaWithoutTls(String),
    #[error("Redis is unavailable: {0}")]
    Unavailable(String),
    #[error("the bus has stopped")]
    Closed,
}

/// What the receiver gets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// A message on this node's own channel.
    Node { payload: Bytes },
    /// A message on the events channel of a table this node subscribed to.
    Table { table: String, payload: Bytes },
    /// The subscriber connection was lost and is back, with every
    /// subscription made again: anything published meanwhile is lost.
    /// Everything published from now on is delivered.
    Resubscribed,
    /// The receiver queue was full: `dropped` deliveries were dropped just
    /// before this one.
    Lagged { dropped: u64 },
}

/// Where the bus connects and how much it queues.
#[derive(Clone, Debug)]
pub struct BusConfig {
    /// `redis://[user:password@]host:port[/db]`, or `rediss://` for TLS.
    pub url: String,
    /// The CA that signed the server's certificate (`rediss://` only);
    /// `None`: the system's roots.
    pub ca_file: Option<PathBuf>,
    /// Every channel name starts with `PREFIX:`.
    pub prefix: String,
    /// This node's id: its channel is `PREFIX:node:NODE`.
    pub node: String,
    /// Size of the queue to the publisher task.
    pub publish_queue: usize,
    /// Size of the queue of deliveries to the receiver.
    pub delivery_queue: usize,
}

impl BusConfig {
    /// A configuration with the default queue sizes and no CA file.
    pub fn new(url: impl Into<String>, prefix: impl Into<String>, node: impl Into<String>) -> Self {
        BusConfig {
            url: url.into(),
            ca_file: None,
            prefix: prefix.into(),
            node: node.into(),
            publish_queue: PUBLISH_QUEUE,
            delivery_queue: DELIVERY_QUEUE,
        }
    }
}

/// The bus's counters since it started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BusStats {
    /// Messages Redis accepted from this bus.
    pub published: u64,
    /// Messages refused because the publish queue was full.
    pub publish_dropped: u64,
    /// Messages lost because their batch failed or timed out in Redis.
    pub publish_failed: u64,
    /// Deliveries handed to the receiver (notices included).
    pub delivered: u64,
    /// Deliveries dropped because the receiver queue was full.
    pub delivery_dropped: u64,
    /// Pushes from Redis that could not be read, dropped.
    pub malformed: u64,
    /// Times the subscriptions were made again after a lost connection.
    pub resubscribed: u64,
}

#[derive(Default)]
struct Counters {
    published: AtomicU64,
    publish_dropped: AtomicU64,
    publish_failed: AtomicU64,
    delivered: AtomicU64,
    delivery_dropped: AtomicU64,
    malformed: AtomicU64,
    resubscribed: AtomicU64,
}

fn bump(counter: &AtomicU64, n: u64) {
    counter.fetch_add(n, Ordering::Relaxed);
}

/// The channel names of one prefix.
#[derive(Clone, Debug)]
struct Names {
    prefix: String,
    /// `PREFIX:node:NODE` of this bus.
    own: String,
    /// `PREFIX:{t:`, the start of every table channel.
    table_start: String,
}

const TABLE_END: &str = "}:events";

impl Names {
    fn node(&self, node: &str) -> String {
        format!("{}:node:{node}", self.prefix)
    }

    fn table(&self, table: &str) -> String {
        format!("{}{table}{TABLE_END}", self.table_start)
    }

    /// What a channel name says: this node's channel, or a table's.
    fn read(&self, channel: &[u8]) -> Option<Source> {
        if channel == self.own.as_bytes() {
            return Some(Source::Node);
        }
        let table = channel
            .strip_prefix(self.table_start.as_bytes())?
            .strip_suffix(TABLE_END.as_bytes())?;
        let table = std::str::from_utf8(table).ok()?;
        valid_id(table).then(|| Source::Table(table.to_owned()))
    }
}

enum Source {
    Node,
    Table(String),
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID_BYTES
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

fn check_id(what: &'static str, id: &str) -> Result<(), BusError> {
    if valid_id(id) {
        Ok(())
    } else {
        Err(BusError::BadId {
            what,
            id: id.chars().take(MAX_ID_BYTES + 8).collect(),
        })
    }
}

/// The receiver side: the queue's sender and the notices owed.
struct Outlet {
    tx: mpsc::Sender<Delivery>,
    /// Deliveries dropped since the last `Lagged` that got through.
    lost: u64,
    /// A `Resubscribed` that did not fit yet.
    resubscribed: bool,
}

impl Outlet {
    /// Hands over the owed notices; false if the receiver is still full.
    fn flush(&mut self, counters: &Counters) -> bool {
        if self.resubscribed {
            if !self.put(Delivery::Resubscribed, counters) {
                return false;
            }
            self.resubscribed = false;
        }
        if self.lost > 0 {
            if !self.put(Delivery::Lagged { dropped: self.lost }, counters) {
                return false;
            }
            self.lost = 0;
        }
        true
    }

    fn put(&mut self, d: Delivery, counters: &Counters) -> bool {
        match self.tx.try_send(d) {
            Ok(()) => {
                bump(&counters.delivered, 1);
                true
            }
            Err(mpsc::error::TrySendError::Full(_)) => false,
            // Nobody listens any more: nothing is owed to anyone.
            Err(mpsc::error::TrySendError::Closed(_)) => true,
        }
    }

    fn deliver(&mut self, d: Delivery, counters: &Counters) {
        let notice = matches!(d, Delivery::Resubscribed);
        if self.flush(counters) && self.put(d, counters) {
            return;
        }
        if notice {
            self.resubscribed = true;
        } else {
            self.lost += 1;
            bump(&counters.delivery_dropped, 1);
        }
    }

    fn owes(&self) -> bool {
        self.resubscribed || self.lost > 0
    }
}

/// The channels subscribed on the current connection, as far as the
/// subscriber task knows.
#[derive(Default)]
struct Confirmed(HashSet<String>);

/// What the handles and the tasks share.
struct Shared {
    names: Names,
    /// The tables wanted, with their local watcher counts.
    wanted: Mutex<HashMap<String, usize>>,
    confirmed: watch::Sender<Confirmed>,
    /// Wakes the subscriber task (a change of `wanted`, a disconnection,
    /// a notice owed).
    wake: Notify,
    /// `wanted` changed since the subscriber task last looked.
    dirty: AtomicBool,
    /// The connection generation whose disconnection counts.
    epoch: AtomicU64,
    disconnected: AtomicBool,
    outlet: Mutex<Outlet>,
    counters: Counters,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding one of these locks leaves consistent data
    // (counts and a queue sender): go on with it.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    fn deliver(&self, d: Delivery) {
        let owes = {
            let mut outlet = lock(&self.outlet);
            outlet.deliver(d, &self.counters);
            outlet.owes()
        };
        if owes {
            self.wake.notify_one();
        }
    }

    /// A push from the subscriber connection of generation `epoch`
    /// (called by the redis crate's reader; must not block).
    fn push(&self, epoch: u64, info: PushInfo) {
        match info.kind {
            PushKind::Message => match self.read_message(info.data) {
                Some(d) => self.deliver(d),
                None => {
                    bump(&self.counters.malformed, 1);
                    tracing::debug!("bus: unreadable message from Redis dropped");
                }
            },
            PushKind::Disconnection => {
                if self.epoch.load(Ordering::Acquire) == epoch {
                    self.disconnected.store(true, Ordering::Release);
                    self.wake.notify_one();
                }
            }
            // Confirmations of our own (un)subscriptions: the commands'
            // replies already said so.
            PushKind::Subscribe | PushKind::Unsubscribe => {}
            other => {
                bump(&self.counters.malformed, 1);
                tracing::debug!(kind = ?other, "bus: unexpected push from Redis dropped");
            }
        }
    }

    fn read_message(&self, data: Vec<Value>) -> Option<Delivery> {
        let mut data = data.into_iter();
        let (Some(Value::BulkString(channel)), Some(Value::BulkString(payload)), None) =
            (data.next(), data.next(), data.next())
        else {
            return None;
        };
        let payload = Bytes::from(payload);
        Some(match self.names.read(&channel)? {
            Source::Node => Delivery::Node { payload },
            Source::Table(table) => Delivery::Table { table, payload },
        })
    }

    /// Every channel wanted now: this node's and the wanted tables'.
    fn wanted_channels(&self) -> HashSet<String> {
        let wanted = lock(&self.wanted);
        let mut all: HashSet<String> = wanted.keys().map(|t| self.names.table(t)).collect();
        all.insert(self.names.own.clone());
        all
    }

    fn stats(&self) -> BusStats {
        let c = &self.counters;
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        BusStats {
            published: get(&c.published),
            publish_dropped: get(&c.publish_dropped),
            publish_failed: get(&c.publish_failed),
            delivered: get(&c.delivered),
            delivery_dropped: get(&c.delivery_dropped),
            malformed: get(&c.malformed),
            resubscribed: get(&c.resubscribed),
        }
    }
}

/// One message for the publisher task.
struct Outgoing {
    channel: String,
    payload: Bytes,
}

/// A handle on the bus; clones share it. When the last clone is dropped
/// the bus stops: the subscriber connection closes at once, the publisher
/// sends what is already queued and then closes.
#[derive(Clone)]
pub struct Bus {
    inner: Arc<Inner>,
}

struct Inner {
    shared: Arc<Shared>,
    outgoing: mpsc::Sender<Outgoing>,
    stop: watch::Sender<bool>,
    subscriber: JoinHandle<()>,
}

impl Drop for Inner {
    /// The subscriber task stops now; the publisher task still sends what
    /// is queued (each batch within [`COMMAND_TIMEOUT`]) and ends when the
    /// queue is empty, since no handle can add to it any more.
    fn drop(&mut self) {
        let _ = self.stop.send(true);
        self.subscriber.abort();
    }
}

impl std::fmt::Debug for Bus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bus")
            .field("node", &self.inner.shared.names.own)
            .finish_non_exhaustive()
    }
}

impl Bus {
    /// Connects (two connections: one subscribed, one publishing),
    /// subscribes to this node's channel, and starts the bus's tasks.
    /// Returns the handle and the receiver of every [`Delivery`]. Fails
    /// on a bad id, prefix or URL, or when Redis does not answer within
    /// [`COMMAND_TIMEOUT`].
    pub async fn connect(config: BusConfig) -> Result<(Bus, mpsc::Receiver<Delivery>), BusError> {
        if config.prefix.is_empty()
            || config
                .prefix
                .chars()
                .any(|c| c == '{' || c == '}' || c.is_whitespace())
        {
            return Err(BusError::BadPrefix);
        }
        check_id("node", &config.node)?;
        let client = client(&config)?;
        let names = Names {
            own: format!("{}:node:{}", config.prefix, config.node),
            table_start: format!("{}:{{t:", config.prefix),
            prefix: config.prefix.clone(),
        };
        let (tx, rx) = mpsc::channel(config.delivery_queue.max(1));
        let shared = Arc::new(Shared {
            names,
            wanted: Mutex::new(HashMap::new()),
            confirmed: watch::Sender::new(Confirmed::default()),
            wake: Notify::new(),
            dirty: AtomicBool::new(false),
            epoch: AtomicU64::new(0),
            disconnected: AtomicBool::new(false),
            outlet: Mutex::new(Outlet {
                tx,
                lost: 0,
                resubscribed: false,
            }),
            counters: Counters::default(),
        });
        let mut subscriber = open(&client, Some((&shared, 0))).await?;
        let publisher = open(&client, None).await?;
        let own = shared.names.own.clone();
        subscribe(&mut subscriber, std::slice::from_ref(&own))
            .await
            .map_err(BusError::Unavailable)?;
        shared.confirmed.send_modify(|c| {
            c.0.insert(own.clone());
        });
        let (stop, stopped) = watch::channel(false);
        let (outgoing, queue) = mpsc::channel(config.publish_queue.max(1));
        let subscriber_task = tokio::spawn(
            Subscriber {
                shared: shared.clone(),
                client,
                conn: subscriber,
                held: HashSet::from([own]),
                stop: stopped,
            }
            .run(),
        );
        tokio::spawn(publish_loop(queue, publisher, shared.clone()));
        tracing::info!(node = %config.node, prefix = %config.prefix, "cluster bus connected");
        let inner = Inner {
            shared,
            outgoing,
            stop,
            subscriber: subscriber_task,
        };
        Ok((
            Bus {
                inner: Arc::new(inner),
            },
            rx,
        ))
    }

    /// Sends `payload` to node `node`'s channel (this node's own too).
    /// Never waits: false when the publish queue is full (the message is
    /// dropped and counted), the id is bad, or the bus has stopped.
    pub fn publish_node(&self, node: &str, payload: Bytes) -> bool {
        if !valid_id(node) {
            tracing::debug!(node, "bus: publish to a bad node id refused");
            return false;
        }
        let channel = self.inner.shared.names.node(node);
        self.enqueue(channel, payload)
    }

    /// Sends `payload` to table `table`'s events channel. Never waits, as
    /// [`Bus::publish_node`].
    pub fn publish_table(&self, table: &str, payload: Bytes) -> bool {
        if !valid_id(table) {
            tracing::debug!(table, "bus: publish to a bad table id refused");
            return false;
        }
        let channel = self.inner.shared.names.table(table);
        self.enqueue(channel, payload)
    }

    fn enqueue(&self, channel: String, payload: Bytes) -> bool {
        match self.inner.outgoing.try_send(Outgoing { channel, payload }) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                bump(&self.inner.shared.counters.publish_dropped, 1);
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    /// Adds a local watcher of table `table`: the first one makes the
    /// Redis subscription. Returns once the subscription is in effect, so
    /// anything published to the table from then on is delivered (or a
    /// notice says it may not have been).
    ///
    /// On `Err(Unavailable)` (Redis did not confirm within
    /// [`COMMAND_TIMEOUT`]) the watcher is still counted, and the
    /// subscription will be made when Redis is back, announced by
    /// [`Delivery::Resubscribed`]; pair every call with
    /// [`Bus::unsubscribe_table`] either way. A bad id is refused and not
    /// counted.
    pub async fn subscribe_table(&self, table: &str) -> Result<(), BusError> {
        check_id("table", table)?;
        let shared = &self.inner.shared;
        let channel = shared.names.table(table);
        *lock(&shared.wanted).entry(table.to_owned()).or_insert(0) += 1;
        shared.dirty.store(true, Ordering::Release);
        shared.wake.notify_one();
        let mut confirmed = shared.confirmed.subscribe();
        match tokio::time::timeout(
            COMMAND_TIMEOUT,
            confirmed.wait_for(|c| c.0.contains(&channel)),
        )
        .await
        {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(_)) => Err(BusError::Closed),
            Err(_) => Err(BusError::Unavailable(format!(
                "the subscription to table {table} was not confirmed within {COMMAND_TIMEOUT:?}"
            ))),
        }
    }

    /// Removes a local watcher of table `table`: the last one removes the
    /// Redis subscription (in the background; a message already on its way
    /// may still be delivered). Never waits. Unknown tables are ignored.
    pub fn unsubscribe_table(&self, table: &str) {
        let shared = &self.inner.shared;
        let mut wanted = lock(&shared.wanted);
        if let Some(n) = wanted.get_mut(table) {
            *n -= 1;
            if *n == 0 {
                wanted.remove(table);
                drop(wanted);
                shared.dirty.store(true, Ordering::Release);
                shared.wake.notify_one();
            }
        }
    }

    /// How many local watchers table `table` has.
    pub fn watchers(&self, table: &str) -> usize {
        lock(&self.inner.shared.wanted)
            .get(table)
            .copied()
            .unwrap_or(0)
    }

    /// Whether the subscriber task has confirmed table `table`'s
    /// subscription on the current connection.
    pub fn is_subscribed(&self, table: &str) -> bool {
        let channel = self.inner.shared.names.table(table);
        self.inner.shared.confirmed.borrow().0.contains(&channel)
    }

    /// This node's id.
    pub fn node(&self) -> &str {
        let names = &self.inner.shared.names;
        &names.own[names.prefix.len() + ":node:".len()..]
    }

    /// The bus's counters.
    pub fn stats(&self) -> BusStats {
        self.inner.shared.stats()
    }
}

mod conn;
mod subscriber;

use conn::*;
use subscriber::*;

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Names {
        Names {
            prefix: "p".into(),
            own: "p:node:n1".into(),
            table_start: "p:{t:".into(),
        }
    }

    #[test]
    fn channel_names_round_trip() {
        let n = names();
        assert_eq!(n.table("abc"), "p:{t:abc}:events");
        assert_eq!(n.node("n2"), "p:node:n2");
        assert!(matches!(n.read(b"p:node:n1"), Some(Source::Node)));
        assert!(matches!(n.read(b"p:{t:abc}:events"), Some(Source::Table(t)) if t == "abc"));
        for bad in [
            &b"p:node:n2"[..],
            b"p:{t:}:events",
            b"p:{t:a}b}:events",
            b"q:{t:abc}:events",
            b"p:{t:abc}:event",
            b"p:{t:\xff}:events",
            b"",
        ] {
            assert!(n.read(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn ids() {
        assert!(valid_id("node-1.a_b"));
        assert!(!valid_id(""));
        assert!(!valid_id("a}b"));
        assert!(!valid_id("a:b"));
        assert!(!valid_id(&"x".repeat(MAX_ID_BYTES + 1)));
    }

    #[test]
    fn a_full_outlet_drops_counts_and_owes_notices() {
        let (tx, mut rx) = mpsc::channel(2);
        let counters = Counters::default();
        let mut o = Outlet {
            tx,
            lost: 0,
            resubscribed: false,
        };
        let msg = |i: u8| Delivery::Node {
            payload: Bytes::from(vec![i]),
        };
        for i in 0..5 {
            o.deliver(msg(i), &counters);
        }
        o.deliver(Delivery::Resubscribed, &counters);
        assert_eq!(o.lost, 3);
        assert!(o.resubscribed);
        assert_eq!(rx.try_recv().unwrap(), msg(0));
        assert_eq!(rx.try_recv().unwrap(), msg(1));
        o.deliver(msg(9), &counters);
        // The notices go first; the message did not fit after them.
        assert_eq!(rx.try_recv().unwrap(), Delivery::Resubscribed);
        assert_eq!(rx.try_recv().unwrap(), Delivery::Lagged { dropped: 3 });
        assert!(rx.try_recv().is_err());
        assert_eq!(o.lost, 1);
        assert!(o.flush(&counters));
        assert_eq!(rx.try_recv().unwrap(), Delivery::Lagged { dropped: 1 });
        assert_eq!(counters.delivery_dropped.load(Ordering::Relaxed), 4);
    }
}
