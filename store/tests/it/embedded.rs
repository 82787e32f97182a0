//! The embedded store: the conformance suite, and what only a file has
//! (reopening, damaged files, locking, schema versions).

use std::path::Path;
use std::sync::Arc;

use tengen_store::embedded::{DB_FILE, SCHEMA_VERSION, set_schema_version_for_tests};
use tengen_store::{
    Account, AuthToken, EmbeddedStore, FinishedGame, HistoryPoint, Rating, RatingUpdate, Store,
    StoreError, conformance,
};

fn open(dir: &Path) -> EmbeddedStore {
    EmbeddedStore::open(dir).unwrap_or_else(|e| panic!("open {}: {e}", dir.display()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn conformance_suite() {
    let root = tempfile::tempdir().unwrap();
    let mut n = 0;
    conformance::run_all(|| {
        n += 1;
        let store = Arc::new(open(&root.path().join(n.to_string()))) as Arc<dyn Store>;
        async move { store }
    })
    .await;
}

/// The suite on a current-thread runtime too: the store must not need a
/// worker free to make progress.
#[tokio::test]
async fn conformance_suite_current_thread() {
    let root = tempfile::tempdir().unwrap();
    let mut n = 0;
    conformance::run_all(|| {
        n += 1;
        let store = Arc::new(open(&root.path().join(n.to_string()))) as Arc<dyn Store>;
        async move { store }
    })
    .await;
}

fn rating(player: &str, games: u32) -> Rating {
    Rating {
        player: player.into(),
        family: "renju".into(),
        rating: 1500.0 + 1.0 / 3.0,
        deviation: 290.123_456_789,
        volatility: 0.06,
        games,
        wins: games,
        draws: 0,
        losses: 0,
        opponents: vec!["Bob".into()],
        recent_ms: vec![7],
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn everything_survives_a_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let account = Account {
        name: "Ann".into(),
        password_hash: "$argon2id$x".into(),
        created_ms: 3,
        bot: false,
        bot_filters: None,
    };
    let token = AuthToken {
        token: "ab".repeat(16),
        account: "Ann".into(),
        expires_ms: 99,
    };
    let game = FinishedGame {
        id: "g".into(),
        players: vec!["Ann".into(), "Bob".into()],
        finished_ms: 1234,
        record: b"record".to_vec(),
        ratings: vec![RatingUpdate {
            expected_games: 0,
            rating: rating("Ann", 1),
            history: HistoryPoint {
                game: "g".into(),
                at_ms: 1234,
                opponent: "Bob".into(),
                score: 0.5,
                rating: 1500.0 + 1.0 / 3.0,
                deviation: 290.123_456_789,
                volatility: 0.06,
            },
        }],
    };
    {
        let store = open(dir.path());
        store.create_table("t", b"meta").await.unwrap();
        store
            .append("t", 0, &[b"one".to_vec(), b"two".to_vec()])
            .await
            .unwrap();
        store.create_account(&account).await.unwrap();
        store.put_token(&token).await.unwrap();
        store.finish_game(&game).await.unwrap();
        let stats = store.write_stats();
        assert_eq!(stats.requests, 5, "{stats:?}");
        assert!(stats.batches >= 1 && stats.batches <= 5, "{stats:?}");
    }
    let store = open(dir.path());
    let tables = store.live_tables().await.unwrap();
    assert_eq!(tables.len(), 1);
    assert_eq!(tables[0].entries, vec![b"one".to_vec(), b"two".to_vec()]);
    assert_eq!(store.account("ann").await.unwrap(), Some(account));
    assert_eq!(store.token(&token.token).await.unwrap(), Some(token));
    let stored = store.game("g").await.unwrap().unwrap();
    assert_eq!(stored.record, game.record);
    assert_eq!(
        store.rating("ANN", "renju").await.unwrap(),
        Some(game.ratings[0].rating.clone()),
        "ratings come back bit-exact"
    );
    assert_eq!(
        store.rating_history("Ann", "renju").await.unwrap(),
        vec![game.ratings[0].history.clone()]
    );
    assert_eq!(store.games_of("bob", None, 5).await.unwrap().len(), 1);
    // Still writable, and the append condition holds across the reopen.
    assert!(matches!(
        store.append("t", 0, &[b"x".to_vec()]).await,
        Err(StoreError::Conflict(_))
    ));
    store.append("t", 2, &[b"three".to_vec()]).await.unwrap();
}

#[test]
fn a_garbage_file_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DB_FILE);
    for garbage in [
        b"not a database at all, just some bytes\n".repeat(300),
        vec![0xAB; 3],
        vec![0; 8192],
    ] {
        std::fs::write(&path, &garbage).unwrap();
        match EmbeddedStore::open(dir.path()) {
            Err(StoreError::Corrupt(m)) => {
                assert!(m.contains(&path.display().to_string()), "{m}")
            }
            Err(e) => panic!("expected Corrupt, got {e:?}"),
            Ok(_) => panic!("a garbage file opened as a store"),
        }
        assert!(
            std::fs::read(&path).unwrap() == garbage,
            "the garbage file changed"
        );
    }
}

#[test]
fn a_redb_file_of_something_else_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DB_FILE);
    {
        let db = redb::Database::create(&path).unwrap();
        let txn = db.begin_write().unwrap();
        let def: redb::TableDefinition<&str, u64> = redb::TableDefinition::new("other");
        txn.open_table(def).unwrap().insert("k", 1).unwrap();
        txn.commit().unwrap();
    }
    let before = std::fs::read(&path).unwrap();
    assert!(matches!(
        EmbeddedStore::open(dir.path()),
        Err(StoreError::Corrupt(_))
    ));
    assert!(std::fs::read(&path).unwrap() == before, "the file changed");
}

#[test]
fn an_empty_file_becomes_a_store() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(DB_FILE), b"").unwrap();
    open(dir.path());
    open(dir.path());
}

#[test]
fn a_data_dir_that_is_a_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("data");
    std::fs::write(&file, b"precious").unwrap();
    match EmbeddedStore::open(&file) {
        Err(StoreError::Unavailable(m)) => {
            assert!(m.contains(&file.display().to_string()), "{m}")
        }
        Err(e) => panic!("expected Unavailable, got {e:?}"),
        Ok(_) => panic!("a file opened as a data directory"),
    }
    assert!(std::fs::read(&file).unwrap() == b"precious");
}

#[test]
fn a_missing_dir_is_created() {
    let dir = tempfile::tempdir().unwrap();
    let nested = dir.path().join("a/b/data");
    let store = open(&nested);
    assert!(nested.join(DB_FILE).is_file());
    assert!(
        store.describe().contains("a/b/data"),
        "{}",
        store.describe()
    );
}

#[test]
fn another_schema_version_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    drop(open(dir.path()));
    set_schema_version_for_tests(dir.path(), SCHEMA_VERSION + 1).unwrap();
    let before = std::fs::read(dir.path().join(DB_FILE)).unwrap();
    match EmbeddedStore::open(dir.path()) {
        Err(StoreError::Version { found, supported }) => {
            assert_eq!((found, supported), (SCHEMA_VERSION + 1, SCHEMA_VERSION))
        }
        Err(e) => panic!("expected Version, got {e:?}"),
        Ok(_) => panic!("a newer schema opened"),
    }
    assert!(
        std::fs::read(dir.path().join(DB_FILE)).unwrap() == before,
        "the file changed"
    );
    set_schema_version_for_tests(dir.path(), SCHEMA_VERSION).unwrap();
    open(dir.path());
}

#[test]
fn a_second_open_of_one_dir_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let first = open(dir.path());
    match EmbeddedStore::open(dir.path()) {
        Err(StoreError::Unavailable(m)) => {
            assert!(m.contains("already open"), "{m}");
            assert!(m.contains(DB_FILE), "{m}");
        }
        Err(e) => panic!("expected Unavailable, got {e:?}"),
        Ok(_) => panic!("one data directory opened twice"),
    }
    drop(first);
    open(dir.path());
}

/// Another process holding the file: the lock is the OS's, not only this
/// process's bookkeeping.
#[test]
fn a_dir_open_in_another_process_is_refused() {
    if let Ok(dir) = std::env::var("TENGEN_STORE_HOLD_DIR") {
        // The child: hold the store until stdin closes.
        let _store = open(Path::new(&dir));
        println!("STORE-HELD");
        let mut line = String::new();
        let _ = std::io::stdin().read_line(&mut line);
        return;
    }
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "embedded::a_dir_open_in_another_process_is_refused",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("TENGEN_STORE_HOLD_DIR", dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while !line.contains("STORE-HELD") {
        line.clear();
        assert!(
            out.read_line(&mut line).unwrap() > 0,
            "the child ended before opening"
        );
    }
    let refused = EmbeddedStore::open(dir.path());
    drop(child.stdin.take());
    child.wait().unwrap();
    match refused {
        Err(StoreError::Unavailable(m)) => assert!(m.contains("already open"), "{m}"),
        Err(e) => panic!("expected Unavailable, got {e:?}"),
        Ok(_) => panic!("a store open in another process opened again"),
    }
    open(dir.path());
}

/// Concurrent writes share commits, and a refused write in a group does
/// not spoil the others.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_writes_are_grouped() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(open(dir.path()));
    for t in 0..200 {
        store.create_table(&format!("t{t}"), b"").await.unwrap();
    }
    let before = store.write_stats();
    let mut tasks = Vec::new();
    for t in 0..200 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            // Every other task also sends a stale append first.
            if t % 2 == 0 {
                let stale = store.append(&format!("t{t}"), 5, &[b"x".to_vec()]).await;
                assert!(matches!(stale, Err(StoreError::Conflict(_))), "{stale:?}");
            }
            for at in 0..5 {
                store
                    .append(&format!("t{t}"), at, &[vec![at as u8]])
                    .await
                    .unwrap();
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    let after = store.write_stats();
    let (batches, requests) = (
        after.batches - before.batches,
        after.requests - before.requests,
    );
    assert_eq!(requests, 1100);
    assert!(
        batches < requests / 2,
        "{batches} commits for {requests} writes"
    );
    let tables = store.live_tables().await.unwrap();
    assert!(
        tables
            .iter()
            .all(|t| t.entries == (0..5u8).map(|i| vec![i]).collect::<Vec<_>>())
    );
}

/// Finished and discarded tables' log entries are collected, in steps,
/// and the live tables keep theirs, in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn orphaned_log_entries_are_collected() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let log = |t: usize| -> Vec<Vec<u8>> {
        (0..1000u32)
            .map(|i| format!("{t}:{i}").into_bytes())
            .collect()
    };
    // 40 tables of 1,000 entries, appended interleaved.
    for t in 0..40 {
        store.create_table(&format!("t{t}"), b"m").await.unwrap();
    }
    for chunk in 0..4 {
        for t in 0..40 {
            let entries = &log(t)[chunk * 250..(chunk + 1) * 250];
            store
                .append(&format!("t{t}"), chunk as u64 * 250, entries)
                .await
                .unwrap();
        }
    }
    assert_eq!(store.log_stats().await.unwrap().entries, 40_000);
    // 30 of them end, and one id comes back as a new table.
    for t in 0..30 {
        if t % 2 == 0 {
            store.discard_table(&format!("t{t}")).await.unwrap();
        } else {
            let game = FinishedGame {
                id: format!("t{t}"),
                players: vec!["a".into(), "b".into()],
                finished_ms: t as u64,
                record: vec![],
                ratings: vec![],
            };
            store.finish_game(&game).await.unwrap();
        }
    }
    store.create_table("t0", b"again").await.unwrap();
    store.append("t0", 0, &[b"new".to_vec()]).await.unwrap();
    // A commit takes a step of 2Ki entries, at most one every 20 ms:
    // about 20 steps cover the log (bounded here at 400).
    let mut steps = 0;
    while store.log_stats().await.unwrap().orphans >= 4096 {
        steps += 1;
        assert!(steps < 400, "collection does not progress");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        store.ping().await.unwrap();
    }
    // Collection stops below 4,096 orphans; the count stays exact.
    let stats = store.log_stats().await.unwrap();
    assert!(stats.orphans < 4096, "{stats:?}");
    assert_eq!(stats.entries - stats.orphans, 10_001, "{stats:?}");
    let mut tables = store.live_tables().await.unwrap();
    tables.sort_by(|a, b| a.id.cmp(&b.id));
    assert_eq!(tables.len(), 11);
    assert_eq!(
        (tables[0].id.as_str(), &tables[0].entries),
        ("t0", &vec![b"new".to_vec()])
    );
    for table in &tables[1..] {
        let t: usize = table.id[1..].parse().unwrap();
        assert!(t >= 30, "{}", table.id);
        assert!(table.entries == log(t), "{}'s log", table.id);
    }
    // And the same after a reopen.
    drop(store);
    let store = open(dir.path());
    assert_eq!(store.live_tables().await.unwrap().len(), 11);
    assert_eq!(store.log_stats().await.unwrap(), stats);
}

/// Appends are answered once their journal record is synced and reach the
/// database later (with the next write of another kind, before a read of
/// live logs, past a thousand waiting entries, at a checkpoint): whatever
/// the order of the writes, every check counts them, and the logs come out
/// whole and in order, also after a reopen.
#[tokio::test]
async fn appends_waiting_for_the_database_count_for_every_check() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let e = |i: u64| i.to_le_bytes().to_vec();
    store.create_table("a", b"").await.unwrap();
    store.create_table("b", b"").await.unwrap();
    for i in 0..3 {
        store.append("a", i, &[e(i)]).await.unwrap();
    }
    // Checked against the waiting entries: a stale append, one past the
    // end and one to no table are refused.
    for at in [2, 4] {
        let r = store.append("a", at, &[e(at)]).await;
        assert!(matches!(r, Err(StoreError::Conflict(_))), "at {at}: {r:?}");
    }
    let r = store.append("nowhere", 0, &[e(0)]).await;
    assert!(matches!(r, Err(StoreError::NotFound(_))), "{r:?}");
    // A write of another kind: the waiting entries go first, and the
    // lengths are read from the database again after it.
    store.create_table("c", b"").await.unwrap();
    store.append("a", 3, &[e(3)]).await.unwrap();
    let r = store.append("a", 3, &[e(3)]).await;
    assert!(matches!(r, Err(StoreError::Conflict(_))), "{r:?}");
    // A discarded table's waiting entries become orphans; it takes no
    // more appends, and a new table of its id starts from nothing.
    for i in 0..5 {
        store.append("b", i, &[e(i)]).await.unwrap();
    }
    store.discard_table("b").await.unwrap();
    let r = store.append("b", 5, &[e(5)]).await;
    assert!(matches!(r, Err(StoreError::NotFound(_))), "{r:?}");
    store.create_table("b", b"again").await.unwrap();
    store.append("b", 0, &[e(100)]).await.unwrap();
    // Past the waiting limit, several times over, in groups of two.
    for i in (4..3004).step_by(2) {
        store.append("a", i, &[e(i), e(i + 1)]).await.unwrap();
    }
    let stats = store.log_stats().await.unwrap();
    assert_eq!((stats.entries, stats.orphans), (3004 + 5 + 1, 5));
    let check = |tables: Vec<tengen_store::LiveTable>| {
        let log = |id: &str| {
            tables
                .iter()
                .find(|t| t.id == id)
                .unwrap_or_else(|| panic!("{id} is live"))
                .entries
                .clone()
        };
        assert_eq!(log("a"), (0..3004).map(e).collect::<Vec<_>>());
        assert_eq!(log("b"), vec![e(100)]);
        assert_eq!(log("c"), Vec::<Vec<u8>>::new());
        assert_eq!(tables.len(), 3);
    };
    check(store.live_tables().await.unwrap());
    store.append("a", 3004, &[e(3004)]).await.unwrap();
    drop(store);
    let store = open(dir.path());
    let a = store.live_table("a").await.unwrap().unwrap();
    assert_eq!(a.entries.len(), 3005);
    assert_eq!(a.entries[3004], e(3004));
}

/// Damage that appears while the store is open (redb checks every page
/// at open only) and that a read runs into: that read is refused as
/// `Corrupt`, and the store goes on serving the rest.
#[tokio::test]
async fn damage_a_read_runs_into_refuses_that_read() {
    let dir = tempfile::tempdir().unwrap();
    let account = |name: &str, hash: &str| Account {
        name: name.into(),
        password_hash: hash.into(),
        created_ms: 1,
        bot: false,
        bot_filters: None,
    };
    {
        let store = open(dir.path());
        let zed = account("Zed", "$argon2id$a-hash-to-find-in-the-file");
        store.create_account(&zed).await.unwrap();
        store
            .create_account(&account("Amy", "$argon2id$x"))
            .await
            .unwrap();
    }
    // No page cache of redb's own: every read goes to the file.
    let options = tengen_store::embedded::EmbeddedOptions {
        cache_bytes: 0,
        ..Default::default()
    };
    let store = EmbeddedStore::open_with(dir.path(), &options).unwrap();
    assert!(store.account("zed").await.unwrap().is_some());
    let path = dir.path().join(DB_FILE);
    let mut bytes = std::fs::read(&path).unwrap();
    let marker = b"a-hash-to-find-in-the-file";
    let found: Vec<usize> = bytes
        .windows(marker.len())
        .enumerate()
        .filter(|(_, w)| w == marker)
        .map(|(at, _)| at)
        .collect();
    assert!(!found.is_empty(), "the value is in the file");
    // Each copy's string header before it (an older page's too): a byte
    // MessagePack never uses.
    for at in found {
        bytes[at - "$argon2id$".len() - 1] = 0xc1;
    }
    std::fs::write(&path, &bytes).unwrap();
    match store.account("zed").await {
        Err(StoreError::Corrupt(why)) => assert!(why.contains("account"), "{why}"),
        other => panic!("the damaged read answered {other:?}"),
    }
    assert!(
        store.account("amy").await.unwrap().is_some(),
        "the rest is served"
    );
}
