//! The Redis store of a test's own `redis-server`, as the tests read it.

use std::time::{Duration, Instant};

use tengen_store::testing::RedisServer;
use tengen_store::{RedisOptions, RedisStore, Store};

/// A store on `redis` under `prefix` (what the server under test writes).
pub async fn store(redis: &RedisServer, prefix: &str) -> RedisStore {
    RedisStore::connect(
        &redis.url(),
        RedisOptions {
            prefix: prefix.into(),
            ..RedisOptions::default()
        },
    )
    .await
    .expect("the test connects to Redis")
}

/// Waits until `node` holds the lease of `table` (a takeover); panics once
/// `within` has passed since `since`.
pub async fn lease_moves_to(
    check: &dyn Store,
    table: &str,
    node: &str,
    since: Instant,
    within: Duration,
) {
    loop {
        let lease = check.lease(table).await.unwrap();
        if lease.as_ref().is_some_and(|l| l.node == node) {
            return;
        }
        assert!(
            since.elapsed() < within,
            "{node} has not taken {table} over: {lease:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
