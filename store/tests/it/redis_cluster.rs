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

/// What a run of appends saw: how many were acknowledged, and how many
/// failed (unavailable while the primary was gone).
struct Appended {
    acknowledged: u64,
    refused: u64,
}

/// Appends one entry at a time to table `id` (entry N reads `eN`), until
/// `stop` says so and at least `at_least` are acknowledged. After a
/// failed append the table is read again and the run goes on from its
/// length (the failed append may or may not have been written).
async fn append_run(
    store: RedisStore,
    id: &'static str,
    stop: Arc<std::sync::atomic::AtomicBool>,
    at_least: u64,
    acknowledged: Arc<std::sync::atomic::AtomicU64>,
) -> Appended {
    use std::sync::atomic::Ordering;
    let mut at = 0u64;
    let mut refused = 0;
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if stop.load(Ordering::Acquire) && acknowledged.load(Ordering::Acquire) >= at_least {
            break;
        }
        assert!(Instant::now() < deadline, "the appends did not go on");
        match store.append(id, at, &[format!("e{at}").into_bytes()]).await {
            Ok(()) => {
                at += 1;
                acknowledged.fetch_max(at, Ordering::AcqRel);
            }
            Err(StoreError::Unavailable(_)) | Err(StoreError::Conflict(_)) => {
                refused += 1;
                tokio::time::sleep(Duration::from_millis(50)).await;
                if let Ok(Some(table)) = store.live_table(id).await {
                    at = table.entries.len() as u64;
                }
            }
            Err(e) => panic!("append {at}: {e}"),
        }
    }
    Appended {
        acknowledged: acknowledged.load(Ordering::Acquire),
        refused,
    }
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
        "{} entries stored, {acknowledged} acknowledged: acknowledged appends were lost",
        table.entries.len()
    );
    for (i, entry) in table.entries.iter().enumerate() {
        assert_eq!(entry, &format!("e{i}").into_bytes(), "entry {i}");
    }
}

/// A cluster primary killed mid-way through a run of appends: its replica
/// is promoted, nothing acknowledged is lost (each append waited for the
/// replica, `WAIT 1`), and appends go on once the killed node is back as
/// a replica of the promoted one (until then, with no replica to copy
/// to, they fail as unavailable rather than be acknowledged unreplicated).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cluster_primary_killed_mid_appends_loses_nothing_acknowledged() {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    let mut cluster = RedisCluster::start();
    let prefix = unique_prefix("failover");
    let store = connect(&cluster.url(), &prefix).await;
    store.create_table("t", b"meta").await.unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let acknowledged = Arc::new(AtomicU64::new(0));
    let run = tokio::spawn(append_run(
        store.clone(),
        "t",
        stop.clone(),
        0,
        acknowledged.clone(),
    ));
    let deadline = Instant::now() + Duration::from_secs(30);
    while acknowledged.load(Ordering::Acquire) < 200 {
        assert!(Instant::now() < deadline, "the appends did not start");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let key = format!("{prefix}:{{t:t}}:log");
    let killed = tokio::task::block_in_place(|| cluster.fail_primary_of(&key));
    let at_failover = acknowledged.load(Ordering::Acquire);
    tokio::task::block_in_place(|| cluster.restart(killed));
    let deadline = Instant::now() + Duration::from_secs(30);
    while acknowledged.load(Ordering::Acquire) < at_failover + 200 {
        assert!(
            Instant::now() < deadline,
            "appends did not go on after the failover ({} acknowledged, {at_failover} at it)",
            acknowledged.load(Ordering::Acquire)
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    stop.store(true, Ordering::Release);
    let appended = run.await.unwrap();
    eprintln!(
        "cluster failover: {} appends acknowledged ({at_failover} before the kill), {} refused meanwhile",
        appended.acknowledged, appended.refused
    );
    assert!(appended.refused > 0, "the failover was not noticed");
    check_log(&store, "t", appended.acknowledged).await;
    // A store connected afresh sees the same.
    check_log(
        &connect(&cluster.url(), &prefix).await,
        "t",
        appended.acknowledged,
    )
    .await;
}

/// Sentinel: the primary killed mid-way through a run of appends; the
/// store follows the replica the sentinels promote, nothing acknowledged
/// is lost, and appends go on (once the old primary is back as the new
/// one's replica).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sentinel_failover_mid_appends_loses_nothing_acknowledged() {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    let mut sentinels = RedisSentinels::start();
    let prefix = unique_prefix("sentinel");
    let store = connect(&sentinels.url(), &prefix).await;
    store.create_table("t", b"meta").await.unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let acknowledged = Arc::new(AtomicU64::new(0));
    let run = tokio::spawn(append_run(
        store.clone(),
        "t",
        stop.clone(),
        0,
        acknowledged.clone(),
    ));
    let deadline = Instant::now() + Duration::from_secs(30);
    while acknowledged.load(Ordering::Acquire) < 200 {
        assert!(Instant::now() < deadline, "the appends did not start");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let killed = tokio::task::block_in_place(|| sentinels.fail_primary());
    let at_failover = acknowledged.load(Ordering::Acquire);
    tokio::task::block_in_place(|| sentinels.restart(killed));
    let deadline = Instant::now() + Duration::from_secs(30);
    while acknowledged.load(Ordering::Acquire) < at_failover + 200 {
        assert!(
            Instant::now() < deadline,
            "appends did not go on after the failover ({} acknowledged, {at_failover} at it)",
            acknowledged.load(Ordering::Acquire)
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    stop.store(true, Ordering::Release);
    let appended = run.await.unwrap();
    eprintln!(
        "sentinel failover: {} appends acknowledged ({at_failover} before the kill), {} refused meanwhile",
        appended.acknowledged, appended.refused
    );
    assert!(appended.refused > 0, "the failover was not noticed");
    check_log(&store, "t", appended.acknowledged).await;
    check_log(
        &connect(&sentinels.url(), &prefix).await,
        "t",
        appended.acknowledged,
    )
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
