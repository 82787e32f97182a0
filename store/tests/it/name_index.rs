//! The index of account names by skeleton is built for a community stored
//! before it existed: in the embedded store when the data directory is
//! opened, in the Redis store when a node connects.

use std::path::Path;

use tengen_store::testing::{RedisServer, unique_prefix};
use tengen_store::{Account, EmbeddedStore, RedisOptions, RedisStore, Store};

fn account(name: &str) -> Account {
    Account {
        name: name.to_owned(),
        password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".into(),
        created_ms: 1_700_000_000_000,
        bot: false,
        bot_filters: None,
    }
}

async fn register(store: &dyn Store, names: &[&str]) {
    for name in names {
        store.create_account(&account(name)).await.unwrap();
    }
}

async fn expect_index(store: &dyn Store) {
    assert_eq!(
        store.accounts_like("\u{441}arol").await.unwrap(),
        ["CAROI", "carol"]
    );
    assert_eq!(
        store.lookalike_accounts(10).await.unwrap(),
        vec![vec!["CAROI".to_string(), "carol".to_string()]]
    );
}

fn open(dir: &Path) -> EmbeddedStore {
    EmbeddedStore::open(dir).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_embedded_store_indexes_older_accounts_when_opened() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = open(dir.path());
        register(&store, &["carol", "CAROI", "dave"]).await;
    }
    // As written by a build without the index.
    tengen_store::embedded::forget_name_index_for_tests(dir.path()).unwrap();
    {
        let store = open(dir.path());
        expect_index(&store).await;
    }
    // Built once: the next open finds it as it was left.
    let store = open(dir.path());
    expect_index(&store).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_redis_store_indexes_older_accounts_when_connected() {
    let redis = RedisServer::start();
    let options = || RedisOptions {
        prefix: unique_prefix("names"),
        ..RedisOptions::default()
    };
    let options = options();
    let store = RedisStore::connect(&redis.url(), options.clone())
        .await
        .unwrap();
    register(&store, &["carol", "CAROI", "dave"]).await;
    // As written by a build without the index.
    let client = redis::Client::open(redis.url()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{}:*", options.prefix))
        .query_async(&mut conn)
        .await
        .unwrap();
    let index: Vec<&String> = keys
        .iter()
        .filter(|k| k.contains(":{s:") || k.ends_with(":name_skeletons"))
        .collect();
    assert_eq!(index.len(), 3, "{keys:?}");
    let _: () = redis::cmd("DEL")
        .arg(&index)
        .query_async(&mut conn)
        .await
        .unwrap();
    assert!(store.accounts_like("carol").await.unwrap().is_empty());
    drop(store);
    let store = RedisStore::connect(&redis.url(), options).await.unwrap();
    expect_index(&store).await;
}
