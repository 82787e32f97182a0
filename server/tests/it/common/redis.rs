//! The Redis store of a test's own `redis-server`, as the tests read it.

use tengen_store::testing::RedisServer;
use tengen_store::{RedisOptions, RedisStore};

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
