//! [`Bus`]: the handle the rest of the server holds, and its operations.

use super::conn::*;
use super::shared::*;
use super::subscriber::*;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use tokio::sync::{Notify, mpsc, watch};
use tokio::task::JoinHandle;

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
            topic_start: format!("{}:topic:", config.prefix),
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
        valid_id(node) && self.enqueue(self.inner.shared.names.node(node), payload)
    }

    /// Sends `payload` to topic `topic`'s channel. Never waits, as
    /// [`Bus::publish_node`].
    pub fn publish_topic(&self, topic: &str, payload: Bytes) -> bool {
        valid_id(topic) && self.enqueue(self.inner.shared.names.topic(topic), payload)
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

    /// Adds a local subscriber of topic `topic`: the first one makes the
    /// Redis subscription. Returns once the subscription is in effect, so
    /// anything published to the topic from then on is delivered (or a
    /// notice says it may not have been).
    ///
    /// On `Err(Unavailable)` (Redis did not confirm within
    /// [`COMMAND_TIMEOUT`]) the watcher is still counted, and the
    /// subscription will be made when Redis is back, announced by
    /// [`Delivery::Resubscribed`]; pair every call with
    /// [`Bus::unsubscribe_topic`] either way. A bad id is refused and not
    /// counted.
    pub async fn subscribe_topic(&self, topic: &str) -> Result<(), BusError> {
        check_id("topic", topic)?;
        let shared = &self.inner.shared;
        let channel = shared.names.topic(topic);
        *lock(&shared.wanted).entry(topic.to_owned()).or_insert(0) += 1;
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
                "the subscription to topic {topic} was not confirmed within {COMMAND_TIMEOUT:?}"
            ))),
        }
    }

    /// Removes a local subscriber of topic `topic`: the last one removes the
    /// Redis subscription (in the background; a message already on its way
    /// may still be delivered). Never waits. Unknown topics are ignored.
    pub fn unsubscribe_topic(&self, topic: &str) {
        let shared = &self.inner.shared;
        let mut wanted = lock(&shared.wanted);
        if let Some(n) = wanted.get_mut(topic) {
            *n -= 1;
            if *n == 0 {
                wanted.remove(topic);
                drop(wanted);
                shared.dirty.store(true, Ordering::Release);
                shared.wake.notify_one();
            }
        }
    }

    /// How many local subscribers topic `topic` has.
    pub fn watchers(&self, topic: &str) -> usize {
        lock(&self.inner.shared.wanted)
            .get(topic)
            .copied()
            .unwrap_or(0)
    }

    /// Whether the subscriber task has confirmed topic `topic`'s
    /// subscription on the current connection.
    pub fn is_subscribed(&self, topic: &str) -> bool {
        let channel = self.inner.shared.names.topic(topic);
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
