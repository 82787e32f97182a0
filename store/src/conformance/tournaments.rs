//! Checks of tournament states: stored whole, replaced whole, listed in
//! id order, and concurrent writes of different events all kept.

use std::sync::Arc;

use super::helpers::{ok, same};
use crate::Store;

/// A state is read back byte for byte (any bytes, large ones too), a
/// second put replaces it, an unknown id is `None`, and the list is every
/// event in id order.
pub async fn tournaments(store: Arc<dyn Store>) {
    let store = &*store;
    same(ok(store.tournaments().await, "list"), vec![], "none yet");
    same(ok(store.tournament("t1").await, "get"), None, "unknown");
    let binary: Vec<u8> = (0..=255u8).cycle().take(70_000).collect();
    ok(store.put_tournament("t2", &binary).await, "put t2");
    ok(store.put_tournament("t1", b"first").await, "put t1");
    same(
        ok(store.tournament("t1").await, "get t1"),
        Some(b"first".to_vec()),
        "t1 as stored",
    );
    same(
        ok(store.tournament("t2").await, "get t2"),
        Some(binary.clone()),
        "t2's 70,000 bytes as stored",
    );
    ok(store.put_tournament("t1", b"second").await, "replace t1");
    same(
        ok(store.tournaments().await, "list"),
        vec![
            ("t1".to_owned(), b"second".to_vec()),
            ("t2".to_owned(), binary),
        ],
        "both, in id order, t1 replaced",
    );
    same(
        ok(store.tournament("t3").await, "get t3"),
        None,
        "still unknown",
    );
}

/// Puts of many events at once all land, each with its last state.
pub async fn racing_tournament_puts(store: Arc<dyn Store>) {
    let mut tasks = Vec::new();
    for i in 0..16u32 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            for n in 0..4u32 {
                let state = format!("event {i} state {n}");
                ok(
                    store
                        .put_tournament(&format!("e{i:02}"), state.as_bytes())
                        .await,
                    "put",
                );
            }
        }));
    }
    for t in tasks {
        t.await.expect("a writer panicked");
    }
    let all = ok(store.tournaments().await, "list");
    same(all.len(), 16, "every event");
    for (i, (id, state)) in all.iter().enumerate() {
        same(id.clone(), format!("e{i:02}"), "id order");
        same(
            state.clone(),
            format!("event {i} state 3").into_bytes(),
            "each event's last state",
        );
    }
}
