//! Checks of the live-table log: create, append, restore, discard.

use std::sync::Arc;

use super::helpers::{entry, expect_err, finished, live_table, ok, same};
use crate::{LiveTable, Store, StoreError};

/// `ping` succeeds and `describe` says something.
pub async fn ping_and_describe(store: Arc<dyn Store>) {
    ok(store.ping().await, "ping");
    assert!(!store.describe().is_empty(), "describe is empty");
}

/// A created table is live with its metadata and an empty log; a second
/// create of the same id (live or finished) is `Exists`.
pub async fn create_table(store: Arc<dyn Store>) {
    let store = &*store;
    ok(store.create_table("t1", b"meta of t1").await, "create t1");
    same(
        live_table(store, "t1").await,
        Some(LiveTable {
            id: "t1".into(),
            meta: b"meta of t1".to_vec(),
            entries: vec![],
        }),
        "t1 after create",
    );
    expect_err!(
        store.create_table("t1", b"other").await,
        Exists,
        "create t1 again"
    );
    same(
        live_table(store, "t1").await.map(|t| t.meta),
        Some(b"meta of t1".to_vec()),
        "t1's meta after the refused create",
    );

    ok(
        store
            .finish_game(&finished("t2", &["a", "b"], 5, vec![]))
            .await,
        "finish t2",
    );
    expect_err!(
        store.create_table("t2", b"x").await,
        Exists,
        "create a table whose id is a finished game"
    );
    same(live_table(store, "t2").await, None, "t2 is not live");

    // Ids that are prefixes of one another are distinct tables.
    ok(store.create_table("t", b"").await, "create t");
    ok(store.create_table("t10", b"m").await, "create t10");
    let mut ids: Vec<String> = ok(store.live_tables().await, "live_tables")
        .into_iter()
        .map(|t| t.id)
        .collect();
    ids.sort();
    same(ids, vec!["t".into(), "t1".into(), "t10".into()], "live ids");
}

/// Appends at the right length land in order.
pub async fn append(store: Arc<dyn Store>) {
    let store = &*store;
    ok(store.create_table("a", b"m").await, "create a");
    ok(store.create_table("a1", b"m").await, "create a1");
    let mut want = Vec::new();
    for i in 0..3 {
        want.push(entry("a", i));
    }
    ok(store.append("a", 0, &want[..2]).await, "append 2 at 0");
    ok(store.append("a", 2, &want[2..]).await, "append 1 at 2");
    ok(store.append("a", 3, &[]).await, "append nothing at 3");
    // Any bytes, empty or large.
    let odd = vec![vec![], vec![0, 255, 0, 10, 13], vec![7; 64 * 1024]];
    ok(store.append("a", 3, &odd).await, "append odd entries at 3");
    want.extend(odd);
    ok(
        store.append("a1", 0, &[b"x".to_vec()]).await,
        "append to a1",
    );
    same(
        live_table(store, "a").await.map(|t| t.entries),
        Some(want),
        "a's log",
    );
    same(
        live_table(store, "a1").await.map(|t| t.entries),
        Some(vec![b"x".to_vec()]),
        "a1's log",
    );
}

/// Appends at another length, to unknown, discarded or finished tables,
/// are refused and change nothing.
pub async fn append_refusals(store: Arc<dyn Store>) {
    let store = &*store;
    ok(store.create_table("r", b"m").await, "create r");
    let first = vec![entry("r", 0), entry("r", 1)];
    ok(store.append("r", 0, &first).await, "append 2 at 0");
    let stray = vec![entry("r", 99)];
    for at in [0, 1, 3, 100, u64::MAX] {
        expect_err!(
            store.append("r", at, &stray).await,
            Conflict,
            "append at {at} to a log of 2"
        );
    }
    expect_err!(
        store.append("r", 0, &first).await,
        Conflict,
        "appending the same entries again at 0"
    );
    expect_err!(
        store.append("r", 1, &[]).await,
        Conflict,
        "empty append at 1 to a log of 2"
    );
    same(
        live_table(store, "r").await.map(|t| t.entries),
        Some(first.clone()),
        "r's log after the refused appends",
    );

    expect_err!(
        store.append("nope", 0, &stray).await,
        NotFound,
        "append to an unknown table"
    );
    ok(store.discard_table("r").await, "discard r");
    expect_err!(
        store.append("r", 2, &stray).await,
        NotFound,
        "append to a discarded table"
    );

    ok(store.create_table("f", b"m").await, "create f");
    ok(
        store
            .finish_game(&finished("f", &["a", "b"], 1, vec![]))
            .await,
        "finish f",
    );
    expect_err!(
        store.append("f", 0, &stray).await,
        NotFound,
        "append to a finished game"
    );
    same(
        live_table(store, "nope").await,
        None,
        "the unknown table after the append",
    );
}

/// Many tables appended to at once, each by its own task one entry at a
/// time: every entry is there, in order.
pub async fn concurrent_appends(store: Arc<dyn Store>) {
    const TABLES: u64 = 64;
    const ENTRIES: u64 = 40;
    let mut tasks = Vec::new();
    for t in 0..TABLES {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let id = format!("c{t}");
            ok(store.create_table(&id, id.as_bytes()).await, "create");
            let mut at = 0;
            while at < ENTRIES {
                // Some tasks append two at a time.
                let n = if t % 3 == 0 && at + 2 <= ENTRIES {
                    2
                } else {
                    1
                };
                let entries: Vec<_> = (at..at + n).map(|i| entry(&id, i)).collect();
                ok(store.append(&id, at, &entries).await, "concurrent append");
                at += n;
            }
        }));
    }
    for task in tasks {
        task.await.expect("an appending task panicked");
    }
    let mut tables = ok(store.live_tables().await, "live_tables");
    same(
        tables.len() as u64,
        TABLES,
        "tables after the concurrent appends",
    );
    tables.sort_by(|a, b| a.id.cmp(&b.id));
    for table in tables {
        let want: Vec<_> = (0..ENTRIES).map(|i| entry(&table.id, i)).collect();
        same(&table.meta, &table.id.as_bytes().to_vec(), "a table's meta");
        same(table.entries, want, &format!("{}'s log", table.id));
    }
}

/// Tasks racing to append at the same length: exactly one wins each
/// round, the others get `Conflict`, and the log holds the winners.
pub async fn racing_appends(store: Arc<dyn Store>) {
    const RACERS: usize = 8;
    const ROUNDS: u64 = 10;
    ok(store.create_table("race", b"m").await, "create race");
    let mut want = Vec::new();
    for round in 0..ROUNDS {
        let mut tasks = Vec::new();
        for racer in 0..RACERS {
            let store = store.clone();
            tasks.push(tokio::spawn(async move {
                let mine = format!("round {round} racer {racer}").into_bytes();
                match store
                    .append("race", round, std::slice::from_ref(&mine))
                    .await
                {
                    Ok(()) => Some(mine),
                    Err(StoreError::Conflict(_)) => None,
                    Err(e) => panic!("racing append: expected Ok or Conflict, got {e:?}"),
                }
            }));
        }
        let mut winners = Vec::new();
        for task in tasks {
            if let Some(mine) = task.await.expect("a racing task panicked") {
                winners.push(mine);
            }
        }
        same(winners.len(), 1, &format!("winners of round {round}"));
        want.push(winners.remove(0));
    }
    same(
        live_table(&*store, "race").await.map(|t| t.entries),
        Some(want),
        "the raced log",
    );
}

/// `live_tables` returns every live table with every entry in order, and
/// nothing else (no discarded or finished table).
pub async fn live_tables_restore(store: Arc<dyn Store>) {
    let store = &*store;
    same(
        ok(store.live_tables().await, "live_tables"),
        vec![],
        "an empty store's live tables",
    );
    let mut want = Vec::new();
    for t in 0..30u64 {
        let id = format!("live-{t}");
        let meta = format!(r#"{{"rules":"renju","id":{t}}}"#).into_bytes();
        ok(store.create_table(&id, &meta).await, "create");
        let entries: Vec<_> = (0..t * 3).map(|i| entry(&id, i)).collect();
        for (at, chunk) in (0..).step_by(5).zip(entries.chunks(5)) {
            ok(store.append(&id, at, chunk).await, "append");
        }
        want.push(LiveTable { id, meta, entries });
    }
    for gone in ["live-3", "live-12"] {
        ok(store.discard_table(gone).await, "discard");
    }
    ok(
        store
            .finish_game(&finished("live-7", &["a", "b"], 9, vec![]))
            .await,
        "finish live-7",
    );
    want.retain(|t| !["live-3", "live-12", "live-7"].contains(&t.id.as_str()));
    want.sort_by(|a, b| a.id.cmp(&b.id));
    let mut got = ok(store.live_tables().await, "live_tables");
    got.sort_by(|a, b| a.id.cmp(&b.id));
    same(got.len(), want.len(), "how many tables are live");
    for (got, want) in got.into_iter().zip(want) {
        same(
            ok(store.live_table(&want.id).await, "live_table"),
            Some(want.clone()),
            "one live table, read alone",
        );
        same(got, want, "a restored table");
    }
    for gone in ["live-3", "live-7", "never"] {
        same(
            ok(store.live_table(gone).await, "live_table"),
            None,
            "a table that is not live",
        );
    }
}

/// A discarded table is gone (its id free again); discarding an unknown
/// table, or twice, is fine.
pub async fn discard_table(store: Arc<dyn Store>) {
    let store = &*store;
    ok(store.create_table("d", b"m").await, "create d");
    ok(store.append("d", 0, &[entry("d", 0)]).await, "append to d");
    ok(store.create_table("d2", b"m2").await, "create d2");
    ok(store.discard_table("d").await, "discard d");
    same(live_table(store, "d").await, None, "d after discard");
    same(
        live_table(store, "d2").await.map(|t| t.meta),
        Some(b"m2".to_vec()),
        "d2 after d's discard",
    );
    ok(store.discard_table("d").await, "discard d again");
    ok(
        store.discard_table("never").await,
        "discard an unknown table",
    );
    same(
        ok(store.game("d").await, "game d"),
        None,
        "a discarded table leaves no game",
    );
    ok(store.create_table("d", b"new").await, "create d again");
    same(
        live_table(store, "d").await,
        Some(LiveTable {
            id: "d".into(),
            meta: b"new".to_vec(),
            entries: vec![],
        }),
        "d created again starts empty",
    );
}
