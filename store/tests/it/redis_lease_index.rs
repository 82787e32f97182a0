//! The Redis store's lease index against a real `redis-server`: tables
//! from before the index are found, a table the index never heard of is
//! found by its audit, and a query's cost does not grow with the live
//! tables (`INFO commandstats`).

use std::collections::HashMap;
use std::time::Duration;

use super::redis::{connect, raw};
use futures_util::{StreamExt, TryStreamExt, stream};
use tengen_store::testing::{RedisServer, unique_prefix};
use tengen_store::{Acquired, RedisStore, Store};

async fn unleased(store: &RedisStore) -> Vec<String> {
    let mut v = store.unleased_tables().await.unwrap();
    v.sort();
    v
}

/// Writes live table `id` as a build without the index did: its `meta`,
/// its id in `P:live`, and, with a holder, a lease of `ttl`.
async fn old_table(
    conn: &mut redis::aio::MultiplexedConnection,
    prefix: &str,
    id: &str,
    holder: Option<(&str, Duration)>,
) {
    let mut pipe = redis::pipe();
    pipe.cmd("SET")
        .arg(format!("{prefix}:{{t:{id}}}:meta"))
        .arg("m")
        .ignore()
        .cmd("SADD")
        .arg(format!("{prefix}:live"))
        .arg(id)
        .ignore();
    if let Some((node, ttl)) = holder {
        pipe.cmd("SET")
            .arg(format!("{prefix}:{{t:{id}}}:epoch"))
            .arg(1)
            .ignore()
            .cmd("SET")
            .arg(format!("{prefix}:{{t:{id}}}:lease"))
            .arg(format!("1 {node}"))
            .arg("PX")
            .arg(ttl.as_millis() as u64)
            .ignore();
    }
    let () = pipe.query_async(conn).await.unwrap();
}

/// A prefix written before the index (no index keys at all): the first
/// connect indexes its live tables, so an unleased one is answered at
/// once and a leased one as soon as its lease lapses.
#[tokio::test]
async fn tables_from_before_the_index_are_found() {
    let redis = RedisServer::start();
    let prefix = unique_prefix("before");
    let mut conn = raw(&redis).await;
    let () = redis::cmd("SET")
        .arg(format!("{prefix}:schema"))
        .arg(tengen_store::redis::SCHEMA_VERSION)
        .query_async(&mut conn)
        .await
        .unwrap();
    old_table(
        &mut conn,
        &prefix,
        "t1",
        Some(("node-old", Duration::from_millis(1500))),
    )
    .await;
    old_table(&mut conn, &prefix, "t2", None).await;
    let store = connect(&redis, &prefix).await;
    assert_eq!(unleased(&store).await, ["t2"]);
    tokio::time::sleep(Duration::from_millis(2000)).await;
    assert_eq!(unleased(&store).await, ["t1", "t2"]);
    let taken = store
        .acquire_lease("t1", "node-new", Duration::from_secs(30))
        .await
        .unwrap();
    assert!(matches!(taken, Acquired::Ours(_)), "{taken:?}");
    assert_eq!(unleased(&store).await, ["t2"]);
}

/// Tables the index never heard of (written by a node of the earlier
/// build while this one runs) are found by the audit of the live set.
#[tokio::test]
async fn a_table_the_index_never_heard_of_is_found_by_the_audit() {
    let redis = RedisServer::start();
    let prefix = unique_prefix("audit");
    let store = connect(&redis, &prefix).await;
    let mut conn = raw(&redis).await;
    old_table(
        &mut conn,
        &prefix,
        "t3",
        Some(("node-old", Duration::from_millis(1500))),
    )
    .await;
    old_table(&mut conn, &prefix, "t4", None).await;
    assert_eq!(unleased(&store).await, ["t4"]);
    tokio::time::sleep(Duration::from_millis(2000)).await;
    assert_eq!(unleased(&store).await, ["t3", "t4"]);
}

/// `INFO commandstats` as command → calls, without the test's own
/// `INFO` and `CONFIG`.
async fn calls(conn: &mut redis::aio::MultiplexedConnection) -> HashMap<String, u64> {
    let info: String = redis::cmd("INFO")
        .arg("commandstats")
        .query_async(conn)
        .await
        .unwrap();
    info.lines()
        .filter_map(|l| {
            let (name, rest) = l.strip_prefix("cmdstat_")?.split_once(':')?;
            let n = rest
                .strip_prefix("calls=")?
                .split(',')
                .next()?
                .parse()
                .ok()?;
            (name != "info" && name != "config").then(|| (name.to_owned(), n))
        })
        .collect()
}

/// With 3,000 live tables held by a node that renews them, a query makes
/// a bounded number of commands (the index's script and the audit's
/// slice), where the scan made one `EXISTS` pair a table; and it answers
/// the one table whose lease was released.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_query_costs_the_same_with_more_tables() {
    const TABLES: usize = 3000;
    const QUERIES: u64 = 5;
    let redis = RedisServer::start();
    let store = connect(&redis, &unique_prefix("cost")).await;
    let ttl = Duration::from_secs(60);
    let leases: Vec<(String, tengen_store::Lease)> = stream::iter(0..TABLES)
        .map(|i| {
            let store = &store;
            async move {
                let id = format!("t{i}");
                let Acquired::Ours(lease) = store.acquire_lease(&id, "node-a", ttl).await? else {
                    panic!("{id} is held");
                };
                store.create_table(&id, b"m").await?;
                Ok::<_, tengen_store::StoreError>((id, lease))
            }
        })
        .buffer_unordered(64)
        .try_collect()
        .await
        .unwrap();
    assert!(
        store
            .renew_leases(&leases, ttl)
            .await
            .unwrap()
            .iter()
            .all(|h| *h)
    );
    assert_eq!(unleased(&store).await, Vec::<String>::new());
    let (id, lease) = &leases[7];
    store.release_lease(id, lease).await.unwrap();

    let mut conn = raw(&redis).await;
    let () = redis::cmd("CONFIG")
        .arg("RESETSTAT")
        .query_async(&mut conn)
        .await
        .unwrap();
    for _ in 0..QUERIES {
        assert_eq!(unleased(&store).await, std::slice::from_ref(id));
    }
    let index: u64 = calls(&mut conn).await.values().sum();
    let () = redis::cmd("CONFIG")
        .arg("RESETSTAT")
        .query_async(&mut conn)
        .await
        .unwrap();
    for _ in 0..QUERIES {
        let mut found = store.unleased_tables_scanned().await.unwrap();
        found.sort();
        assert_eq!(found, std::slice::from_ref(id));
    }
    let scan: u64 = calls(&mut conn).await.values().sum();
    assert!(
        scan >= QUERIES * 2 * TABLES as u64,
        "the scan made {scan} commands"
    );
    assert!(
        index <= QUERIES * (TABLES as u64 / 3),
        "{QUERIES} queries of the index made {index} commands (the scan {scan})"
    );
}
