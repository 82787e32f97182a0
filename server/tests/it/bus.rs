//! The cluster bus (`tengen_server::cluster::bus`) against a real
//! `redis-server` that each test starts on a free port
//! (`tengen_store::testing`): two buses as two nodes, topics and
//! their reference counts, ordering, Redis killed and restarted under the
//! buses, and a receiver that does not keep up.

use std::time::{Duration, Instant};

use bytes::Bytes;
use tengen_server::cluster::bus::{Bus, BusConfig, BusError, Delivery};
use tengen_store::testing::{RedisServer, unique_prefix};
use tokio::sync::mpsc::Receiver;

const WITHIN: Duration = Duration::from_secs(10);

async fn bus(redis: &RedisServer, prefix: &str, node: &str) -> (Bus, Receiver<Delivery>) {
    bus_with(redis, prefix, node, |_| {}).await
}

async fn bus_with(
    redis: &RedisServer,
    prefix: &str,
    node: &str,
    f: impl FnOnce(&mut BusConfig),
) -> (Bus, Receiver<Delivery>) {
    // `TENGEN_LOG=debug cargo test --test it bus:: -- --nocapture` shows the
    // bus's own account of reconnects.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_env("TENGEN_LOG"))
        .with_test_writer()
        .try_init();
    let mut config = BusConfig::new(redis.url(), prefix, node);
    f(&mut config);
    Bus::connect(config).await.expect("the bus connects")
}

/// The next delivery, within 10 s.
async fn next(rx: &mut Receiver<Delivery>) -> Delivery {
    tokio::time::timeout(WITHIN, rx.recv())
        .await
        .expect("a delivery within 10 s")
        .expect("the bus is running")
}

/// Nothing delivered within `wait`.
async fn quiet(rx: &mut Receiver<Delivery>, wait: Duration) {
    if let Ok(d) = tokio::time::timeout(wait, rx.recv()).await {
        panic!("expected nothing, got {d:?}");
    }
}

fn node_msg(s: &str) -> Delivery {
    Delivery::Node {
        payload: Bytes::from(s.to_owned()),
    }
}

fn topic_msg(topic: &str, s: &str) -> Delivery {
    Delivery::Topic {
        topic: topic.into(),
        payload: Bytes::from(s.to_owned()),
    }
}

fn b(s: &str) -> Bytes {
    Bytes::from(s.to_owned())
}

/// How many connections Redis counts as subscribed to `channel`.
async fn numsub(redis: &RedisServer, channel: &str) -> i64 {
    let client = redis::Client::open(redis.url()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let (_, n): (String, i64) = redis::cmd("PUBSUB")
        .arg("NUMSUB")
        .arg(channel)
        .query_async(&mut conn)
        .await
        .unwrap();
    n
}

/// Waits until `cond` holds (checked every 20 ms), within 10 s.
async fn until(what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = Instant::now() + WITHIN;
    while !cond() {
        assert!(Instant::now() < deadline, "not within 10 s: {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_exchange_node_messages_both_ways() {
    let redis = RedisServer::start();
    let prefix = unique_prefix("bus");
    let (a, mut a_rx) = bus(&redis, &prefix, "node-a").await;
    let (b_bus, mut b_rx) = bus(&redis, &prefix, "node-b").await;
    assert_eq!(a.node(), "node-a");
    assert_eq!(numsub(&redis, &format!("{prefix}:node:node-a")).await, 1);

    assert!(a.publish_node("node-b", b("command")));
    assert_eq!(next(&mut b_rx).await, node_msg("command"));
    assert!(b_bus.publish_node("node-a", b("reply")));
    assert_eq!(next(&mut a_rx).await, node_msg("reply"));
    // To itself too (a connection on the owner's own node).
    assert!(a.publish_node("node-a", b("self")));
    assert_eq!(next(&mut a_rx).await, node_msg("self"));
    // A node nobody runs: published, heard by no one.
    assert!(a.publish_node("node-c", b("void")));
    quiet(&mut a_rx, Duration::from_millis(200)).await;
    quiet(&mut b_rx, Duration::from_millis(1)).await;

    // Empty and binary payloads are carried as they are.
    let binary = Bytes::from((0..=255u8).collect::<Vec<_>>());
    assert!(a.publish_node("node-b", Bytes::new()));
    assert!(a.publish_node("node-b", binary.clone()));
    assert_eq!(
        next(&mut b_rx).await,
        Delivery::Node {
            payload: Bytes::new()
        }
    );
    assert_eq!(next(&mut b_rx).await, Delivery::Node { payload: binary });

    // Counted once Redis confirms the batch (a moment after delivery).
    until("5 published", || a.stats().published == 5).await;
    let stats = a.stats();
    assert_eq!(stats.publish_dropped + stats.publish_failed, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn topic_messages_reach_only_subscribers_and_subscriptions_are_counted() {
    let redis = RedisServer::start();
    let prefix = unique_prefix("bus");
    let (a, mut a_rx) = bus(&redis, &prefix, "a").await;
    let (b_bus, mut b_rx) = bus(&redis, &prefix, "b").await;
    let channel = format!("{prefix}:topic:t1");

    // Two local subscribers of t1 on node a: one Redis subscription.
    a.subscribe_topic("t1").await.unwrap();
    a.subscribe_topic("t1").await.unwrap();
    assert_eq!(a.watchers("t1"), 2);
    assert!(a.is_subscribed("t1"));
    assert!(!b_bus.is_subscribed("t1"));
    assert_eq!(numsub(&redis, &channel).await, 1);

    // From b (not subscribed): a gets it once, b not at all. b's own node
    // message, published after it on the same connection, is the fence.
    assert!(b_bus.publish_topic("t1", b("e1")));
    assert!(b_bus.publish_node("b", b("fence")));
    assert_eq!(next(&mut a_rx).await, topic_msg("t1", "e1"));
    assert_eq!(next(&mut b_rx).await, node_msg("fence"));
    // Another topic: nobody hears it.
    assert!(b_bus.publish_topic("t2", b("other")));
    assert!(b_bus.publish_node("a", b("fence-a")));
    assert_eq!(next(&mut a_rx).await, node_msg("fence-a"));

    // One subscriber leaves: still subscribed.
    a.unsubscribe_topic("t1");
    assert_eq!(a.watchers("t1"), 1);
    assert!(b_bus.publish_topic("t1", b("e2")));
    assert_eq!(next(&mut a_rx).await, topic_msg("t1", "e2"));
    assert_eq!(numsub(&redis, &channel).await, 1);

    // b subscribes as well: both hear it.
    b_bus.subscribe_topic("t1").await.unwrap();
    assert_eq!(numsub(&redis, &channel).await, 2);
    assert!(a.publish_topic("t1", b("e3")));
    assert_eq!(next(&mut a_rx).await, topic_msg("t1", "e3"));
    assert_eq!(next(&mut b_rx).await, topic_msg("t1", "e3"));

    // The last subscriber on a leaves: the subscription goes.
    a.unsubscribe_topic("t1");
    assert_eq!(a.watchers("t1"), 0);
    until("a's t1 subscription removed", || !a.is_subscribed("t1")).await;
    assert_eq!(numsub(&redis, &channel).await, 1);
    assert!(b_bus.publish_topic("t1", b("e4")));
    assert!(b_bus.publish_node("a", b("fence-a2")));
    assert_eq!(next(&mut b_rx).await, topic_msg("t1", "e4"));
    assert_eq!(next(&mut a_rx).await, node_msg("fence-a2"));
    // An extra unsubscribe changes nothing.
    a.unsubscribe_topic("t1");
    a.unsubscribe_topic("never");
    assert_eq!(a.watchers("t1"), 0);

    // Back again, and gone again at once: no subscription is left behind.
    a.subscribe_topic("t1").await.unwrap();
    assert!(a.is_subscribed("t1"));
    a.unsubscribe_topic("t1");
    until("a's t1 subscription removed again", || {
        !a.is_subscribed("t1")
    })
    .await;
    assert_eq!(numsub(&redis, &channel).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_ids_are_refused_without_harm() {
    let redis = RedisServer::start();
    let prefix = unique_prefix("bus");
    for node in ["", "a:b", "a}b", "a b", &"x".repeat(65)] {
        let err = Bus::connect(BusConfig::new(redis.url(), &prefix, node))
            .await
            .unwrap_err();
        assert!(matches!(err, BusError::BadId { .. }), "{err}");
    }
    let err = Bus::connect(BusConfig::new(redis.url(), "{x}", "n"))
        .await
        .unwrap_err();
    assert!(matches!(err, BusError::BadPrefix), "{err}");
    let err = Bus::connect(BusConfig::new("nonsense://x", &prefix, "n"))
        .await
        .unwrap_err();
    assert!(matches!(err, BusError::Url { .. }), "{err}");

    let (a, mut rx) = bus(&redis, &prefix, "a").await;
    assert!(!a.publish_node("a}", b("x")));
    assert!(!a.publish_topic("", b("x")));
    assert!(matches!(
        a.subscribe_topic("t}1").await,
        Err(BusError::BadId { .. })
    ));
    assert_eq!(a.watchers("t}1"), 0);
    // Still working.
    assert!(a.publish_node("a", b("ok")));
    assert_eq!(next(&mut rx).await, node_msg("ok"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_messages_on_one_channel_keep_their_order() {
    const N: usize = 3000;
    let redis = RedisServer::start();
    let prefix = unique_prefix("bus");
    let (a, _a_rx) = bus(&redis, &prefix, "a").await;
    // Room for everything: this test is about order, not about a slow
    // receiver (that is below).
    let (b_bus, mut b_rx) = bus_with(&redis, &prefix, "b", |c| c.delivery_queue = 2 * N).await;
    b_bus.subscribe_topic("t").await.unwrap();

    // Interleaved on two channels; each must come in order.
    let reader = tokio::spawn(async move {
        let (mut node, mut table) = (0usize, 0usize);
        while node < N || table < N {
            match next(&mut b_rx).await {
                Delivery::Node { payload } => {
                    assert_eq!(payload, Bytes::from(format!("n{node}")));
                    node += 1;
                }
                Delivery::Topic { topic: t, payload } => {
                    assert_eq!(t, "t");
                    assert_eq!(payload, Bytes::from(format!("t{table}")));
                    table += 1;
                }
                other => panic!("{other:?}"),
            }
        }
    });
    // A full publish queue refuses (the message is not queued), so
    // retrying a refused message keeps the order.
    for i in 0..N {
        while !a.publish_node("b", Bytes::from(format!("n{i}"))) {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        while !a.publish_topic("t", Bytes::from(format!("t{i}"))) {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }
    tokio::time::timeout(Duration::from_secs(30), reader)
        .await
        .expect("every message within 30 s")
        .unwrap();
    assert_eq!(b_bus.stats().delivery_dropped, 0);
    until("all published", || a.stats().published == 2 * N as u64).await;
}

/// Publishes `tag-i` with growing i (every 100 ms) until one arrives, and
/// returns it: the first publishes after a restart may be lost.
async fn publish_until_heard(
    publish: impl Fn(Bytes) -> bool,
    rx: &mut Receiver<Delivery>,
    tag: &str,
) -> Delivery {
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut i = 0;
    loop {
        assert!(Instant::now() < deadline, "{tag}: nothing arrived in 20 s");
        publish(Bytes::from(format!("{tag}-{i}")));
        i += 1;
        match tokio::time::timeout(Duration::from_millis(100), rx.recv()).await {
            Ok(Some(d)) => return d,
            Ok(None) => panic!("the bus stopped"),
            Err(_) => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_redis_is_reported_and_messages_flow_again() {
    let mut redis = RedisServer::start();
    let prefix = unique_prefix("bus");
    let (a, mut a_rx) = bus(&redis, &prefix, "a").await;
    let (b_bus, mut b_rx) = bus(&redis, &prefix, "b").await;
    b_bus.subscribe_topic("t").await.unwrap();
    a.subscribe_topic("u").await.unwrap();
    a.subscribe_topic("w").await.unwrap();
    assert!(a.publish_topic("t", b("before")));
    assert_eq!(next(&mut b_rx).await, topic_msg("t", "before"));

    redis.kill();
    // While Redis is down nothing waits: publishing queues (and the
    // batch fails, counted), subscribing fails within the timeout but
    // stays wanted.
    let start = Instant::now();
    for i in 0..100 {
        a.publish_node("b", Bytes::from(format!("lost-{i}")));
    }
    assert!(start.elapsed() < Duration::from_millis(100));
    assert!(matches!(
        b_bus.subscribe_topic("v").await,
        Err(BusError::Unavailable(_))
    ));
    assert_eq!(b_bus.watchers("v"), 1);
    // And the last watcher of w leaves while Redis is down.
    a.unsubscribe_topic("w");
    tokio::time::sleep(Duration::from_millis(500)).await;
    redis.restart();

    // Each bus says its subscriptions were made again.
    resubscribed(&mut a_rx).await;
    resubscribed(&mut b_rx).await;
    assert!(a.stats().resubscribed >= 1);
    assert!(b_bus.stats().resubscribed >= 1);
    assert!(b_bus.is_subscribed("t"));
    assert!(b_bus.is_subscribed("v"));
    assert!(a.is_subscribed("u"));
    assert!(!a.is_subscribed("w"));

    // Node channels and topics work again, both ways, in order. The first
    // publishes may go to a connection that is not back yet.
    let heard = publish_until_heard(|p| a.publish_node("b", p), &mut b_rx, "node").await;
    assert!(matches!(heard, Delivery::Node { .. }), "{heard:?}");
    let heard = publish_until_heard(|p| b_bus.publish_topic("u", p), &mut a_rx, "table").await;
    assert!(
        matches!(heard, Delivery::Topic { ref topic, .. } if topic == "u"),
        "{heard:?}"
    );
    // Drain stragglers of the probing above.
    quiet_drain(&mut a_rx).await;
    quiet_drain(&mut b_rx).await;
    for i in 0..50 {
        assert!(a.publish_topic("t", Bytes::from(format!("t{i}"))));
        assert!(a.publish_topic("v", Bytes::from(format!("v{i}"))));
        assert!(b_bus.publish_node("a", Bytes::from(format!("n{i}"))));
    }
    for i in 0..50 {
        assert_eq!(next(&mut b_rx).await, topic_msg("t", &format!("t{i}")));
        assert_eq!(next(&mut b_rx).await, topic_msg("v", &format!("v{i}")));
        assert_eq!(next(&mut a_rx).await, node_msg(&format!("n{i}")));
    }
    assert!(a.stats().publish_failed >= 1);
    assert_eq!(
        numsub(&redis, &format!("{prefix}:topic:t")).await,
        1,
        "one subscription, not two, after the crate's and the bus's resubscription"
    );
    // What was left while Redis was down is not subscribed again (the
    // crate's resubscription would restore it; the bus removes it).
    assert_eq!(numsub(&redis, &format!("{prefix}:topic:w")).await, 0);
    assert_eq!(numsub(&redis, &format!("{prefix}:topic:u")).await, 1);
}

/// Waits for `Resubscribed`, skipping messages published during the
/// outage (a batch may land once Redis is back, even before the notice).
async fn resubscribed(rx: &mut Receiver<Delivery>) {
    loop {
        match tokio::time::timeout(Duration::from_secs(20), rx.recv()).await {
            Ok(Some(Delivery::Resubscribed)) => return,
            Ok(Some(Delivery::Node { payload })) if payload.starts_with(b"lost-") => {}
            other => panic!("expected Resubscribed within 20 s, got {other:?}"),
        }
    }
}

/// Takes whatever is delivered until 300 ms pass quietly.
async fn quiet_drain(rx: &mut Receiver<Delivery>) {
    while let Ok(Some(d)) = tokio::time::timeout(Duration::from_millis(300), rx.recv()).await {
        assert!(
            matches!(d, Delivery::Node { .. } | Delivery::Topic { .. }),
            "{d:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_receiver_drops_rather_than_blocks_and_reports_the_gap() {
    let redis = RedisServer::start();
    let prefix = unique_prefix("bus");
    let (a, _a_rx) = bus(&redis, &prefix, "a").await;
    let (b_bus, mut b_rx) = bus_with(&redis, &prefix, "b", |c| c.delivery_queue = 4).await;
    b_bus.subscribe_topic("t").await.unwrap();

    for i in 0..20 {
        assert!(a.publish_node("b", Bytes::from(format!("m{i}"))));
    }
    until("16 deliveries dropped", || {
        b_bus.stats().delivery_dropped == 16
    })
    .await;
    // The bus still works while its receiver is full: subscriptions too.
    b_bus.subscribe_topic("t2").await.unwrap();

    for i in 0..4 {
        assert_eq!(next(&mut b_rx).await, node_msg(&format!("m{i}")));
    }
    // The gap is reported without waiting for another message.
    assert_eq!(next(&mut b_rx).await, Delivery::Lagged { dropped: 16 });
    quiet(&mut b_rx, Duration::from_millis(200)).await;

    // And then messages flow again.
    assert!(a.publish_topic("t", b("after")));
    assert_eq!(next(&mut b_rx).await, topic_msg("t", "after"));
    until("6 delivered", || b_bus.stats().delivered == 6).await;
    assert_eq!(b_bus.stats().delivery_dropped, 16);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_publish_queue_refuses_at_once() {
    let mut redis = RedisServer::start();
    let prefix = unique_prefix("bus");
    let (a, _a_rx) = bus_with(&redis, &prefix, "a", |c| c.publish_queue = 8).await;
    // With Redis gone the publisher is stuck on its first batch for up to
    // the command timeout; the queue fills and refuses the rest.
    redis.kill();
    let start = Instant::now();
    let accepted = (0..1000)
        .filter(|i| a.publish_node("a", Bytes::from(format!("{i}"))))
        .count();
    assert!(start.elapsed() < Duration::from_millis(200));
    assert!(accepted < 1000, "{accepted}");
    assert_eq!(a.stats().publish_dropped, 1000 - accepted as u64);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_bus_sends_what_it_queued_and_unsubscribes() {
    let redis = RedisServer::start();
    let prefix = unique_prefix("bus");
    let (a, mut a_rx) = bus(&redis, &prefix, "a").await;
    let (b_bus, _b_rx) = bus(&redis, &prefix, "b").await;
    b_bus.subscribe_topic("t").await.unwrap();
    let clone = b_bus.clone();
    for i in 0..100 {
        assert!(b_bus.publish_node("a", Bytes::from(format!("m{i}"))));
    }
    drop(b_bus);
    // A clone keeps it running.
    assert!(clone.is_subscribed("t"));
    drop(clone);
    for i in 0..100 {
        assert_eq!(next(&mut a_rx).await, node_msg(&format!("m{i}")));
    }
    let node_b = format!("{prefix}:node:b");
    let deadline = Instant::now() + WITHIN;
    while numsub(&redis, &node_b).await != 0 {
        assert!(Instant::now() < deadline, "b's subscriptions outlive it");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(numsub(&redis, &format!("{prefix}:topic:t")).await, 0);
    assert_eq!(a.stats().malformed, 0);
}
