//! The embedded store's online backup: taken while tables keep
//! appending, the copy holds every write answered before it was asked
//! for (and no half of any), opens as a store, and spans several of the
//! copy's commits (its tables are written in bounded chunks), the
//! explorer's and puzzles' tables with the rest; a bad
//! destination is refused, naming it, with nothing created.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use tengen_store::conformance::export_study_all;
use tengen_store::{BackupError, EmbeddedStore, FinishedGame, Store};

const FINISHED: usize = 300;
const TABLES: usize = 4;

fn game(i: usize) -> FinishedGame {
    FinishedGame {
        id: format!("g{i:05}"),
        players: vec![format!("ann{}", i % 7), format!("bob{}", i % 11)],
        finished_ms: 1_700_000_000_000 + i as u64,
        // 20 KiB each: the copy of the records takes more than one chunk.
        record: vec![(i % 251) as u8; 20 << 10],
        ratings: Vec::new(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_while_tables_append_opens_with_every_answered_write() {
    let root = tempfile::tempdir().unwrap();
    let (src, dest) = (root.path().join("src"), root.path().join("copy"));
    let store = Arc::new(EmbeddedStore::open(&src).unwrap());
    for i in 0..FINISHED {
        store.finish_game(&game(i)).await.unwrap();
    }
    // The opening explorer's tallies, puzzles and their indexes.
    super::migrate::fill_study(store.as_ref()).await;
    let study = export_study_all(store.as_ref(), 1000).await;
    assert!(!study.is_empty());
    let stop = Arc::new(AtomicBool::new(false));
    let mut writers = Vec::new();
    let mut answered = Vec::new();
    for t in 0..TABLES {
        let id = format!("live{t}");
        store.create_table(&id, b"meta").await.unwrap();
        let count = Arc::new(AtomicU64::new(0));
        answered.push(count.clone());
        let (store, stop) = (store.clone(), stop.clone());
        writers.push(tokio::spawn(async move {
            let mut n = 0u64;
            while !stop.load(Ordering::Relaxed) {
                store
                    .append(&id, n, &[format!("{id}:{n}").into_bytes()])
                    .await
                    .unwrap();
                n += 1;
                count.store(n, Ordering::SeqCst);
            }
        }));
    }
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;

    let before: Vec<u64> = answered.iter().map(|c| c.load(Ordering::SeqCst)).collect();
    let backup = store.backup(&dest).await.unwrap();
    let after: Vec<u64> = answered.iter().map(|c| c.load(Ordering::SeqCst)).collect();
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    stop.store(true, Ordering::Relaxed);
    for w in writers {
        w.await.unwrap();
    }
    assert_eq!(backup.finished_games, FINISHED as u64);
    assert_eq!(backup.live_tables, TABLES as u64);
    assert!(backup.bytes > (FINISHED as u64) * (20 << 10));

    // Refused, naming the path, creating nothing.
    match store.backup(&dest).await {
        Err(e @ BackupError::Exists(_)) => {
            assert!(e.to_string().contains(&dest.display().to_string()))
        }
        other => panic!("{other:?}"),
    }
    let inside = src.join("b");
    assert!(matches!(
        store.backup(&inside).await,
        Err(BackupError::InsideStore { .. })
    ));
    assert!(!inside.exists());
    assert!(matches!(
        store.backup(&root.path().join("no/such/dir")).await,
        Err(BackupError::NoParent(_))
    ));
    let names: Vec<String> = std::fs::read_dir(root.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "only the store and the copy: {names:?}");
    let live_src = store.live_tables().await.unwrap();
    drop(store);

    let copy = EmbeddedStore::open(&dest).unwrap();
    assert_eq!(copy.replayed(), 0);
    for i in [0, FINISHED / 2, FINISHED - 1] {
        assert_eq!(
            copy.game(&game(i).id).await.unwrap().unwrap().record,
            game(i).record
        );
    }
    assert_eq!(
        copy.games_of("ann3", None, 1000).await.unwrap().len(),
        (0..FINISHED).filter(|i| i % 7 == 3).count()
    );
    assert_eq!(export_study_all(&copy, 1000).await, study);
    let live = copy.live_tables().await.unwrap();
    assert_eq!(live.len(), TABLES);
    for (t, table) in live.iter().enumerate() {
        let n = table.entries.len() as u64;
        assert!(
            // One append a table may be in flight: written, its answer
            // not yet counted.
            (before[t]..=after[t] + 1).contains(&n),
            "{}: {n} entries, {} answered before the backup, {} after",
            table.id,
            before[t],
            after[t]
        );
        assert_eq!(table.entries[..], live_src[t].entries[..n as usize]);
    }
    // The copy takes writes: a live table goes on where the copy left it.
    let n = live[0].entries.len() as u64;
    copy.append(&live[0].id, n, &[b"next".to_vec()])
        .await
        .unwrap();
}
