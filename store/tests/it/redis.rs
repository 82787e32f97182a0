//! The Redis store against a real `redis-server` that the test starts on
//! a free port (`tengen_store::testing`): the conformance suite (each
//! check under a key prefix of its own), what only a server has (a Redis
//! that goes away and comes back, persistence, layout versions, bad
//! URLs), and the migration from the embedded store.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tengen_store::testing::{RedisServer, unique_prefix};
use tengen_store::{RedisOptions, RedisStore, Store, StoreError, conformance};

pub(crate) async fn connect(redis: &RedisServer, prefix: &str) -> RedisStore {
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

/// Runs `call` and checks it fails as `Unavailable` within the server's
/// 3 s store timeout.
async fn unavailable_promptly<T: std::fmt::Debug>(
    what: &str,
    call: impl std::future::Future<Output = tengen_store::Result<T>>,
) {
    let t0 = Instant::now();
    let result = tokio::time::timeout(Duration::from_secs(10), call)
        .await
        .unwrap_or_else(|_| panic!("{what}: still waiting after 10 s"));
    let took = t0.elapsed();
    assert!(
        matches!(result, Err(StoreError::Unavailable(_))),
        "{what} while Redis is down: {result:?}"
    );
    assert!(took < Duration::from_millis(2900), "{what} took {took:?}");
}

/// Redis killed: every call fails promptly as unavailable; Redis started
/// again on the same port and directory: the store reconnects by itself
/// and everything acknowledged before is still there (the append-only
/// file).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_going_away_and_coming_back() {
    let mut redis = RedisServer::start();
    let store = connect(&redis, "restart").await;
    store.create_table("t", b"meta").await.unwrap();
    let log: Vec<Vec<u8>> = (0..5).map(|i| format!("entry {i}").into_bytes()).collect();
    store.append("t", 0, &log).await.unwrap();

    redis.kill();
    unavailable_promptly("ping", store.ping()).await;
    unavailable_promptly("append", store.append("t", 5, &[b"x".to_vec()])).await;
    unavailable_promptly("live_table", store.live_table("t")).await;
    unavailable_promptly("live_tables", store.live_tables()).await;
    unavailable_promptly("account", store.account("ann")).await;
    unavailable_promptly("export", store.export(None, 10)).await;
    // Many at once: each still bounded.
    let t0 = Instant::now();
    let calls: Vec<_> = (0..50)
        .map(|i| {
            let store = store.clone();
            tokio::spawn(async move { store.append("t", 5 + i, &[b"y".to_vec()]).await })
        })
        .collect();
    for call in calls {
        assert!(matches!(
            call.await.unwrap(),
            Err(StoreError::Unavailable(_))
        ));
    }
    assert!(t0.elapsed() < Duration::from_secs(3), "{:?}", t0.elapsed());

    redis.restart();
    let deadline = Instant::now() + Duration::from_secs(10);
    while store.ping().await.is_err() {
        assert!(Instant::now() < deadline, "the store did not reconnect");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let table = store.live_table("t").await.unwrap().expect("t is live");
    assert_eq!(table.entries, log, "every acknowledged entry survived");
    store.append("t", 5, &[b"after".to_vec()]).await.unwrap();
    assert_eq!(
        store.live_table("t").await.unwrap().unwrap().entries.len(),
        6
    );
}

#[tokio::test]
async fn connecting_to_nothing_fails_promptly_and_bad_urls_are_refused() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let t0 = Instant::now();
    let result = RedisStore::connect(
        &format!("redis://127.0.0.1:{port}/"),
        RedisOptions::default(),
    )
    .await;
    assert!(
        matches!(result, Err(StoreError::Unavailable(_))),
        "{:?}",
        result.err()
    );
    assert!(t0.elapsed() < Duration::from_secs(3), "{:?}", t0.elapsed());

    for url in [
        "http://127.0.0.1:6379",
        "redis://",
        "not a url",
        "redis://h:99999999/",
    ] {
        let result = RedisStore::connect(url, RedisOptions::default()).await;
        assert!(
            matches!(
                result,
                Err(StoreError::Invalid(_)) | Err(StoreError::Unavailable(_))
            ),
            "{url}: {:?}",
            result.err()
        );
    }
    let redis = RedisServer::start();
    let result = RedisStore::connect(
        &redis.url(),
        RedisOptions {
            prefix: String::new(),
            ..RedisOptions::default()
        },
    )
    .await;
    assert!(
        matches!(result, Err(StoreError::Invalid(_))),
        "{:?}",
        result.err()
    );
    // A password is never shown.
    let result = RedisStore::connect(
        &format!("redis://user:s3cret@127.0.0.1:{}/", redis.port()),
        RedisOptions::default(),
    )
    .await;
    if let Err(e) = &result {
        assert!(!e.to_string().contains("s3cret"), "{e}");
    }
    if let Ok(store) = &result {
        assert!(!store.describe().contains("s3cret"), "{}", store.describe());
    }
}

pub(crate) async fn raw(redis: &RedisServer) -> redis::aio::MultiplexedConnection {
    redis::Client::open(redis.url())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap()
}

#[tokio::test]
async fn another_layout_version_is_refused() {
    let redis = RedisServer::start();
    drop(connect(&redis, "v").await);
    let mut conn = raw(&redis).await;
    let version: u32 = redis::cmd("GET")
        .arg("v:schema")
        .query_async(&mut conn)
        .await
        .unwrap();
    assert_eq!(version, tengen_store::redis::SCHEMA_VERSION);
    let () = redis::cmd("SET")
        .arg("v:schema")
        .arg(tengen_store::redis::SCHEMA_VERSION + 1)
        .query_async(&mut conn)
        .await
        .unwrap();
    let result = RedisStore::connect(
        &redis.url(),
        RedisOptions {
            prefix: "v".into(),
            ..RedisOptions::default()
        },
    )
    .await;
    match result {
        Err(StoreError::Version { found, supported }) => {
            assert_eq!(found, supported + 1);
        }
        other => panic!("{:?}", other.err()),
    }
}

#[tokio::test]
async fn persistence_is_read_from_the_server() {
    use tengen_store::redis::Fsync;
    let redis = RedisServer::start();
    let store = connect(&redis, "p").await;
    let p = store.persistence().await.unwrap();
    assert!(p.aof && p.fsync == Fsync::Always, "{p}");
    assert!(p.keeps_acknowledged_writes());
    assert_eq!(p.risk(), None);

    let mut conn = raw(&redis).await;
    for (setting, value) in [("appendfsync", "everysec"), ("appendonly", "no")] {
        let () = redis::cmd("CONFIG")
            .arg("SET")
            .arg(setting)
            .arg(value)
            .query_async(&mut conn)
            .await
            .unwrap();
    }
    let p = store.persistence().await.unwrap();
    assert!(!p.aof, "{p}");
    assert!(!p.keeps_acknowledged_writes());
    assert!(
        p.risk().unwrap().contains("does NOT hold"),
        "{:?}",
        p.risk()
    );
    let () = redis::cmd("CONFIG")
        .arg("SET")
        .arg("appendonly")
        .arg("yes")
        .query_async(&mut conn)
        .await
        .unwrap();
    let p = store.persistence().await.unwrap();
    assert_eq!(p.fsync, Fsync::EverySec);
    assert!(p.keeps_acknowledged_writes());
    assert!(p.risk().unwrap().contains("everysec"), "{:?}", p.risk());
}

/// `rediss://`: the conformance suite over TLS, trusting the test's own
/// CA; without that CA the connection is refused promptly; a CA file for
/// a plain URL, or one that cannot be read, is a configuration error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rediss_with_a_private_ca() {
    let redis = RedisServer::start_tls();
    let url = redis.tls_url().expect("a TLS port");
    // A TLS handshake on a machine busy with a build can take longer than
    // the default 2 s; this test is about trust, not speed.
    let options = |prefix: String| RedisOptions {
        prefix,
        ca_file: Some(redis.ca_file()),
        timeout: Duration::from_secs(10),
        ..RedisOptions::default()
    };
    {
        let (url, options) = (&url, &options);
        conformance::run_all(|| async move {
            let store = RedisStore::connect(url, options(unique_prefix("tls")))
                .await
                .unwrap_or_else(|e| panic!("connect to {url}: {e}"));
            Arc::new(store) as Arc<dyn Store>
        })
        .await;
    }

    let t0 = Instant::now();
    let untrusted = RedisStore::connect(&url, RedisOptions::default()).await;
    assert!(
        matches!(untrusted, Err(StoreError::Unavailable(_))),
        "{:?}",
        untrusted.err()
    );
    assert!(t0.elapsed() < Duration::from_secs(3), "{:?}", t0.elapsed());

    let plain = RedisStore::connect(&redis.url(), options("x".into())).await;
    assert!(
        matches!(plain, Err(StoreError::Invalid(_))),
        "{:?}",
        plain.err()
    );
    let missing = RedisStore::connect(
        &url,
        RedisOptions {
            ca_file: Some(redis.dir().join("no-such-ca.crt")),
            ..RedisOptions::default()
        },
    )
    .await;
    assert!(
        matches!(missing, Err(StoreError::Invalid(_))),
        "{:?}",
        missing.err()
    );
}

/// The whole suite on a one-node Redis Cluster: cluster mode refuses any
/// script, transaction or multi-key command across slots (`CROSSSLOT`),
/// so this passing shows every operation of the layout is single-slot.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn conformance_suite_on_a_cluster_node() {
    let redis = RedisServer::start_cluster();
    // The node is in cluster mode: a script across two tags is refused.
    let mut conn = raw(&redis).await;
    let refused = redis::cmd("EVAL")
        .arg("return redis.call('EXISTS', KEYS[1], KEYS[2])")
        .arg(2)
        .arg("x:{t:1}:game")
        .arg("x:{p:ann}:games")
        .query_async::<redis::Value>(&mut conn)
        .await;
    assert!(
        matches!(&refused, Err(e) if e.code() == Some("CROSSSLOT")),
        "{refused:?}"
    );
    let redis = &redis;
    conformance::run_all(|| async move {
        Arc::new(connect(redis, &unique_prefix("cluster")).await) as Arc<dyn Store>
    })
    .await;
}

/// A prefix of the previous layout (tokens as they are, in key names and
/// values, and in a live table's metadata) is brought up to date at
/// connect: after it, no key or value holds a token, and the tokens work.
#[tokio::test]
async fn a_prefix_of_the_previous_layout_keeps_no_token_after_connect() {
    let redis = RedisServer::start();
    let mut conn = raw(&redis).await;
    let login = "0d1e2f3a4b5c6d7e8f90a1b2c3d4e5f6";
    let resume = "f6e5d4c3b2a1908f7e6d5c4b3a2f1e0d";
    let old = tengen_store::AuthToken {
        token: login.into(),
        account: "Ann".into(),
        expires_ms: 1_900_000_000_000,
    };
    let value = rmp_serde::to_vec_named(&old).unwrap();
    let meta = format!("{{\"seats\":[\"{resume}\"]}}");
    let mut setup = redis::pipe();
    setup
        .cmd("SET")
        .arg("old:schema")
        .arg(1)
        .ignore()
        .cmd("SET")
        .arg(format!("old:{{k:{login}}}:token"))
        .arg(value)
        .ignore()
        .cmd("SADD")
        .arg(format!("old:{{r:{resume}}}:tables"))
        .arg("t1")
        .ignore()
        .cmd("EXPIRE")
        .arg(format!("old:{{r:{resume}}}:tables"))
        .arg(3600)
        .ignore()
        .cmd("SET")
        .arg("old:{t:t1}:meta")
        .arg(meta)
        .ignore()
        .cmd("SADD")
        .arg("old:live")
        .arg("t1")
        .ignore();
    let () = setup.query_async(&mut conn).await.unwrap();

    fn upgrade(meta: &[u8]) -> Option<Vec<u8>> {
        let text = std::str::from_utf8(meta).ok()?;
        let token = text.split('"').nth(3)?;
        (!tengen_store::is_digest(token)).then(|| {
            text.replace(token, &tengen_store::token_digest(token))
                .into_bytes()
        })
    }
    let store = RedisStore::connect(
        &redis.url(),
        RedisOptions {
            prefix: "old".into(),
            upgrade_meta: Some(upgrade),
            ..RedisOptions::default()
        },
    )
    .await
    .unwrap();
    let found = store
        .token(login)
        .await
        .unwrap()
        .expect("the login token works");
    assert_eq!(
        (found.token.as_str(), found.account.as_str()),
        (login, "Ann")
    );
    assert_eq!(
        store.seat_tables(resume).await.unwrap(),
        vec!["t1".to_string()]
    );
    let table = store.live_table("t1").await.unwrap().expect("t1 is live");
    let digest = tengen_store::token_digest(resume);
    assert_eq!(
        table.meta,
        format!("{{\"seats\":[\"{digest}\"]}}").into_bytes()
    );

    let version: u32 = redis::cmd("GET")
        .arg("old:schema")
        .query_async(&mut conn)
        .await
        .unwrap();
    assert_eq!(version, tengen_store::redis::SCHEMA_VERSION);
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg("old:*")
        .query_async(&mut conn)
        .await
        .unwrap();
    for key in keys {
        assert!(!key.contains(login) && !key.contains(resume), "{key}");
        let dump: Option<Vec<u8>> = redis::cmd("DUMP")
            .arg(&key)
            .query_async(&mut conn)
            .await
            .unwrap();
        let dump = dump.unwrap_or_default();
        for token in [login, resume] {
            assert!(
                !dump.windows(token.len()).any(|w| w == token.as_bytes()),
                "{key} holds a token"
            );
        }
    }
    let ttl: i64 = redis::cmd("TTL")
        .arg(format!("old:{{r:{digest}}}:tables"))
        .query_async(&mut conn)
        .await
        .unwrap();
    assert!(ttl > 3000, "the seat index keeps its expiry ({ttl})");
}
