//! The Redis store on the topologies that fail over, started for real by
//! the test (`tengen_store::testing`): a Redis Cluster of three primaries
//! with a replica each, and a primary with a replica under three
//! sentinels. The whole conformance suite runs on the cluster (its keys
//! spread over the three primaries, so export scans all of them); then a
//! primary is killed (SIGKILL) in the middle of a run of appends, and
//! every append the store acknowledged must still be there after its
//! replica took over, and appends must go on.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tengen_store::testing::{RedisCluster, RedisSentinels, unique_prefix};
use tengen_store::{RedisOptions, RedisStore, Store, StoreError, conformance};

async fn connect(url: &str, prefix: &str) -> RedisStore {
    RedisStore::connect(
        url,
        RedisOptions {
            prefix: prefix.to_owned(),
            ..RedisOptions::default()
        },
    )
    .await
    .unwrap_or_else(|e| panic!("connect to {url}: {e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn conformance_suite_on_a_three_primary_cluster() {
    let cluster = RedisCluster::start();
    let url = cluster.url();
    let url = &url;
    conformance::run_all(|| async move {
        Arc::new(connect(url, &unique_prefix("cluster3")).await) as Arc<dyn Store>
    })
    .await;
}

/// An export sees the keys of every primary: accounts whose keys fall in
/// the three primaries' slots all come out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn export_scans_every_primary() {
    let cluster = RedisCluster::start();
    let prefix = unique_prefix("export3");
    let store = connect(&cluster.url(), &prefix).await;
    let mut names = Vec::new();
    for i in 0..60 {
        let name = format!("player{i}");
        store
            .create_account(&tengen_store::Account {
                name: name.clone(),
                password_hash: "x".into(),
                created_ms: 1,
                bot: false,
                bot_filters: None,
            })
            .await
            .unwrap();
        names.push(name);
    }
    // The accounts are on more than one primary.
    let mut owners: Vec<usize> = names
        .iter()
        .filter_map(|n| cluster.primary_of(&format!("{prefix}:{{a:{n}}}:account")))
        .collect();
    owners.sort_unstable();
    owners.dedup();
    assert_eq!(owners.len(), 3, "the accounts spread over every primary");
    let mut exported = Vec::new();
    let mut cursor = None;
    loop {
        let page = store.export(cursor.as_ref(), 7).await.unwrap();
        for item in page.items {
            if let tengen_store::Item::Account(a) = item {
                exported.push(a.name);
            }
        }
        match page.next {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    exported.sort();
    exported.dedup();
    names.sort();
    assert_eq!(exported, names);
}

/// How many tables append at once in the failover tests: a node's load
/// rather than one writer (a stalled cluster connection was seen only
/// under load).
const TABLES: usize = 24;

/// Appends one entry at a time to table `id` (entry N reads `eN`) until
/// `stop`. After a failed append the table is read again and the run goes
/// on from its length (the failed append may or may not have been
/// written), which must hold every append acknowledged so far. How many
/// were acknowledged, and how many failed.
async fn append_run(
    store: RedisStore,
    id: String,
    stop: Arc<std::sync::atomic::AtomicBool>,
    total: Arc<std::sync::atomic::AtomicU64>,
) -> (u64, u64) {
    use std::sync::atomic::Ordering;
    let mut at = 0u64;
    let mut acknowledged = 0u64;
    let mut refused = 0;
    let deadline = Instant::now() + Duration::from_secs(120);
    while !stop.load(Ordering::Acquire) {
        assert!(Instant::now() < deadline, "the appends did not stop");
        match store
            .append(&id, at, &[format!("e{at}").into_bytes()])
            .await
        {
            Ok(()) => {
                at += 1;
                acknowledged = acknowledged.max(at);
                total.fetch_add(1, Ordering::AcqRel);
            }
            Err(StoreError::Unavailable(_)) | Err(StoreError::Conflict(_)) => {
                refused += 1;
                tokio::time::sleep(Duration::from_millis(50)).await;
                if let Ok(Some(table)) = store.live_table(&id).await {
                    at = table.entries.len() as u64;
                    assert!(
                        at >= acknowledged,
                        "table {id} holds {at} entries after a failover, but {acknowledged} \
                         appends were acknowledged: acknowledged appends were lost"
                    );
                }
            }
            Err(e) => panic!("append {at} to {id}: {e}"),
        }
    }
    (acknowledged, refused)
}

/// Every acknowledged entry is in the log, in its place.
async fn check_log(store: &RedisStore, id: &str, acknowledged: u64) {
    let table = store
        .live_table(id)
        .await
        .unwrap()
        .expect("the table is live");
    assert!(
        table.entries.len() as u64 >= acknowledged,
        "table {id}: {} entries stored, {acknowledged} acknowledged: acknowledged appends were lost",
        table.entries.len()
    );
    for (i, entry) in table.entries.iter().enumerate() {
        assert_eq!(
            entry,
            &format!("e{i}").into_bytes(),
            "table {id}, entry {i}"
        );
    }
}

/// Runs [`TABLES`] appenders, calls `fail` (which kills a primary, waits
/// for the promotion and brings the killed server back) once 200 appends
/// are acknowledged, lets them go on for 300 more, and checks every
/// table: nothing acknowledged lost. `url` connects afresh for the check.
async fn appends_through(url: &str, prefix: &str, fail: impl FnOnce()) {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    let store = connect(url, prefix).await;
    let stop = Arc::new(AtomicBool::new(false));
    let total = Arc::new(AtomicU64::new(0));
    let mut runs = Vec::new();
    for t in 0..TABLES {
        let id = format!("t{t}");
        store.create_table(&id, b"meta").await.unwrap();
        runs.push(tokio::spawn(append_run(
            store.clone(),
            id,
            stop.clone(),
            total.clone(),
        )));
    }
    let wait_for = |n: u64, what: &'static str| {
        let total = total.clone();
        async move {
            let deadline = Instant::now() + Duration::from_secs(40);
            while total.load(Ordering::Acquire) < n {
                assert!(
                    Instant::now() < deadline,
                    "{what} ({} acknowledged)",
                    total.load(Ordering::Acquire)
                );
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    };
    wait_for(200, "the appends did not start").await;
    let t0 = Instant::now();
    tokio::task::block_in_place(fail);
    let at_failover = total.load(Ordering::Acquire);
    wait_for(
        at_failover + 300,
        "appends did not go on after the failover",
    )
    .await;
    stop.store(true, Ordering::Release);
    let mut refused = 0;
    let fresh = connect(url, prefix).await;
    for (t, run) in runs.into_iter().enumerate() {
        let (acknowledged, failed) = run.await.unwrap();
        refused += failed;
        check_log(&store, &format!("t{t}"), acknowledged).await;
        check_log(&fresh, &format!("t{t}"), acknowledged).await;
    }
    eprintln!(
        "{} appends acknowledged on {TABLES} tables ({at_failover} when the failed server was back), {refused} \
         refused meanwhile, {:?} from the kill to 300 more",
        total.load(Ordering::Acquire),
        t0.elapsed()
    );
    assert!(refused > 0, "the failover was not noticed");
}

/// A cluster primary killed mid-way through appends to many tables: its
/// replica is promoted, nothing acknowledged is lost (each append waited
/// for a replica), and appends go on once the killed node is back as a
/// replica of the promoted one (until then, with no replica to copy to,
/// the promoted primary's appends fail as unavailable rather than be
/// acknowledged unreplicated).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cluster_primary_killed_mid_appends_loses_nothing_acknowledged() {
    let mut cluster = RedisCluster::start();
    let prefix = unique_prefix("failover");
    let url = cluster.url();
    // The primary of table t0.
    let key = format!("{prefix}:{{t:t0}}:log");
    appends_through(&url, &prefix, || {
        let killed = cluster.fail_primary_of(&key);
        cluster.restart(killed);
    })
    .await;
}

/// Sentinel: the primary killed mid-way through appends to many tables;
/// the store follows the replica the sentinels promote, nothing
/// acknowledged is lost, and appends go on (once the old primary is back
/// as the new one's replica).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sentinel_failover_mid_appends_loses_nothing_acknowledged() {
    let mut sentinels = RedisSentinels::start();
    let prefix = unique_prefix("sentinel");
    let url = sentinels.url();
    appends_through(&url, &prefix, || {
        let killed = sentinels.fail_primary();
        sentinels.restart(killed);
    })
    .await;
}

/// The URL forms: a cluster URL without hosts, or a sentinel URL without
/// the primary's name, is refused as invalid before anything connects.
#[tokio::test]
async fn cluster_and_sentinel_urls_are_checked() {
    for url in [
        "redis+cluster:///",
        "redis+sentinel://127.0.0.1:1/",
        "redis+cluster://127.0.0.1:1/3",
    ] {
        let result = RedisStore::connect(url, RedisOptions::default()).await;
        assert!(
            matches!(result, Err(StoreError::Invalid(_))),
            "{url}: {:?}",
            result.err()
        );
    }
}
