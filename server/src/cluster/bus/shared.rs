//! What the bus's parts share: its limits, errors, configuration and
//! counters, the channel names, and the state the handle and the
//! subscriber task both touch.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use bytes::Bytes;
use redis::{PushInfo, PushKind, Value};
use tokio::sync::{Notify, mpsc, watch};

/// Default size of the queue to the publisher task.
pub const PUBLISH_QUEUE: usize = 4096;
/// Default size of the queue of deliveries to the receiver.
pub const DELIVERY_QUEUE: usize = 4096;
/// The most messages the publisher sends in one pipeline.
pub const PUBLISH_BATCH: usize = 256;
/// The most channels in one `SUBSCRIBE` or `UNSUBSCRIBE`.
pub(super) const SUBSCRIBE_BATCH: usize = 512;
/// How long any one Redis call (a publish batch, a subscription, a probe)
/// may take before it counts as failed.
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(2);
/// How often an idle subscriber connection is checked with `PING`.
pub const KEEPALIVE: Duration = Duration::from_secs(5);
/// How soon a pending gap notice is retried while the receiver is full.
pub(super) const NOTICE_RETRY: Duration = Duration::from_millis(50);
/// Backoff between probes of an unreachable Redis.
pub(super) const BACKOFF_MIN: Duration = Duration::from_millis(100);
pub(super) const BACKOFF_MAX: Duration = Duration::from_secs(2);
/// Failed probes after which the subscriber connection is built anew.
pub(super) const REBUILD_AFTER: u32 = 3;
/// The longest node id or topic name.
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
    /// A message on a topic this node subscribed to.
    Topic { topic: String, payload: Bytes },
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
pub(super) struct Counters {
    pub(super) published: AtomicU64,
    pub(super) publish_dropped: AtomicU64,
    pub(super) publish_failed: AtomicU64,
    pub(super) delivered: AtomicU64,
    pub(super) delivery_dropped: AtomicU64,
    pub(super) malformed: AtomicU64,
    pub(super) resubscribed: AtomicU64,
}

pub(super) fn bump(counter: &AtomicU64, n: u64) {
    counter.fetch_add(n, Ordering::Relaxed);
}

/// The channel names of one prefix.
#[derive(Clone, Debug)]
pub(super) struct Names {
    pub(super) prefix: String,
    /// `PREFIX:node:NODE` of this bus.
    pub(super) own: String,
    /// `PREFIX:topic:`, the start of every topic's channel.
    pub(super) topic_start: String,
}

impl Names {
    pub(super) fn node(&self, node: &str) -> String {
        format!("{}:node:{node}", self.prefix)
    }

    pub(super) fn topic(&self, topic: &str) -> String {
        format!("{}{topic}", self.topic_start)
    }

    /// What a channel name says: this node's channel, or a topic's.
    pub(super) fn read(&self, channel: &[u8]) -> Option<Source> {
        if channel == self.own.as_bytes() {
            return Some(Source::Node);
        }
        let topic = channel.strip_prefix(self.topic_start.as_bytes())?;
        let topic = std::str::from_utf8(topic).ok()?;
        valid_id(topic).then(|| Source::Topic(topic.to_owned()))
    }
}

pub(super) enum Source {
    Node,
    Topic(String),
}

pub(super) fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID_BYTES
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

pub(super) fn check_id(what: &'static str, id: &str) -> Result<(), BusError> {
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
pub(super) struct Outlet {
    pub(super) tx: mpsc::Sender<Delivery>,
    /// Deliveries dropped since the last `Lagged` that got through.
    pub(super) lost: u64,
    /// A `Resubscribed` that did not fit yet.
    pub(super) resubscribed: bool,
}

impl Outlet {
    /// Hands over the owed notices; false if the receiver is still full.
    pub(super) fn flush(&mut self, counters: &Counters) -> bool {
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

    pub(super) fn put(&mut self, d: Delivery, counters: &Counters) -> bool {
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

    pub(super) fn deliver(&mut self, d: Delivery, counters: &Counters) {
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

    pub(super) fn owes(&self) -> bool {
        self.resubscribed || self.lost > 0
    }
}

/// The channels subscribed on the current connection, as far as the
/// subscriber task knows.
#[derive(Default)]
pub(super) struct Confirmed(pub(super) HashSet<String>);

/// What the handles and the tasks share.
pub(super) struct Shared {
    pub(super) names: Names,
    /// The topics wanted, with their local subscriber counts.
    pub(super) wanted: Mutex<HashMap<String, usize>>,
    pub(super) confirmed: watch::Sender<Confirmed>,
    /// Wakes the subscriber task (a change of `wanted`, a disconnection,
    /// a notice owed).
    pub(super) wake: Notify,
    /// `wanted` changed since the subscriber task last looked.
    pub(super) dirty: AtomicBool,
    /// The connection generation whose disconnection counts.
    pub(super) epoch: AtomicU64,
    pub(super) disconnected: AtomicBool,
    pub(super) outlet: Mutex<Outlet>,
    pub(super) counters: Counters,
}

pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding one of these locks leaves consistent data
    // (counts and a queue sender): go on with it.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    pub(super) fn deliver(&self, d: Delivery) {
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
    pub(super) fn push(&self, epoch: u64, info: PushInfo) {
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

    pub(super) fn read_message(&self, data: Vec<Value>) -> Option<Delivery> {
        let mut data = data.into_iter();
        let (Some(Value::BulkString(channel)), Some(Value::BulkString(payload)), None) =
            (data.next(), data.next(), data.next())
        else {
            return None;
        };
        let payload = Bytes::from(payload);
        Some(match self.names.read(&channel)? {
            Source::Node => Delivery::Node { payload },
            Source::Topic(topic) => Delivery::Topic { topic, payload },
        })
    }

    /// Every channel wanted now: this node's and the wanted topics'.
    pub(super) fn wanted_channels(&self) -> HashSet<String> {
        let wanted = lock(&self.wanted);
        let mut all: HashSet<String> = wanted.keys().map(|t| self.names.topic(t)).collect();
        all.insert(self.names.own.clone());
        all
    }

    pub(super) fn stats(&self) -> BusStats {
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
pub(super) struct Outgoing {
    pub(super) channel: String,
    pub(super) payload: Bytes,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Names {
        Names {
            prefix: "p".into(),
            own: "p:node:n1".into(),
            topic_start: "p:topic:".into(),
        }
    }

    #[test]
    fn channel_names_round_trip() {
        let n = names();
        assert_eq!(n.topic("abc"), "p:topic:abc");
        assert_eq!(n.node("n2"), "p:node:n2");
        assert!(matches!(n.read(b"p:node:n1"), Some(Source::Node)));
        assert!(matches!(n.read(b"p:topic:abc"), Some(Source::Topic(t)) if t == "abc"));
        for bad in [
            &b"p:node:n2"[..],
            b"p:topic:",
            b"p:topic:a}b",
            b"q:topic:abc",
            b"p:topic:a b",
            b"p:topic:\xff",
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
