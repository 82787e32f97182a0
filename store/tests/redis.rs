//! The Redis store against a real `redis-server` that the test starts on
//! a free port (`tengen_store::testing`): the conformance suite (each
//! check under a key prefix of its own), what only a server has (a Redis
//! that goes away and comes back, persistence, layout versions, bad
//! URLs), and the migration from the embedded store.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tengen_store::testing::{RedisServer, unique_prefix};
use tengen_store::{RedisOptions, RedisStore, Store, StoreError, conformance};

async fn connect(redis: &RedisServer, prefix: &str) -> RedisStore {
    RedisStore::connect(
        &redis.url(),
        RedisOptions {
            prefix: prefix.to_owned(),
            ..RedisOptions::default()
        },
    )
    .await
    .unwrap_or_else(|e| panic!("connect to {}: {e}", redis.url()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn conformance_suite() {
    let redis = RedisServer::start();
    let redis = &redis;
    conformance::run_all(|| async move {
        Arc::new(connect(redis, &unique_prefix("conformance")).await) as Arc<dyn Store>
    })
    .await;
}

/// The suite on a current-thread runtime too.
#[tokio::test]
async fn conformance_suite_current_thread() {
    let redis = RedisServer::start();
    let redis = &redis;
    conformance::run_all(|| async move {
        Arc::new(connect(redis, &unique_prefix("conformance-ct")).await) as Arc<dyn Store>
    })
    .await;
}
