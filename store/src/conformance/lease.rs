//! Checks of table leases: one holder at a time, epochs that only grow,
//! lapsing, and appends that only the holder can make.

use std::sync::Arc;
use std::time::Duration;

use super::helpers::{entry, expect_err, finished, live_table, ok, same};
use crate::{Acquired, Lease, Store};

const LONG: Duration = Duration::from_secs(30);
// Long enough that a loaded machine's slow round trip (TLS to Redis while
// the whole workspace builds) stays well inside the margins below.
const SHORT: Duration = Duration::from_secs(1);

#[track_caller]
fn ours(acquired: Acquired, what: &str) -> Lease {
    match acquired {
        Acquired::Ours(lease) => lease,
        Acquired::Held(by) => panic!("{what}: expected the lease, but {by:?} holds it"),
    }
}

async fn lapse() {
    tokio::time::sleep(SHORT * 2).await;
}

/// A lease has one holder; another node is told who; a release frees it
/// and the next taker gets a greater epoch; only the holder's release
/// counts.
pub async fn lease_is_exclusive(store: Arc<dyn Store>) {
    let store = &*store;
    same(
        ok(store.lease("t1").await, "lease of t1"),
        None,
        "no lease yet",
    );
    let a = ours(
        ok(
            store.acquire_lease("t1", "node-a", LONG).await,
            "a takes t1",
        ),
        "a takes t1",
    );
    same(a.node.as_str(), "node-a", "the holder");
    same(
        ok(
            store.acquire_lease("t1", "node-b", LONG).await,
            "b tries t1",
        ),
        Acquired::Held(a.clone()),
        "b finds a's lease",
    );
    same(
        ok(store.lease("t1").await, "lease of t1"),
        Some(a.clone()),
        "a holds t1",
    );
    // A release by anyone else is nothing.
    let forged = Lease {
        node: "node-b".into(),
        epoch: a.epoch,
    };
    ok(store.release_lease("t1", &forged).await, "b releases t1");
    same(
        ok(store.lease("t1").await, "lease of t1"),
        Some(a.clone()),
        "a still holds t1",
    );
    // Leases of other tables are their own.
    ours(
        ok(
            store.acquire_lease("t2", "node-b", LONG).await,
            "b takes t2",
        ),
        "b takes t2",
    );
    ok(store.release_lease("t1", &a).await, "a releases t1");
    same(ok(store.lease("t1").await, "lease of t1"), None, "t1 free");
    let b = ours(
        ok(
            store.acquire_lease("t1", "node-b", LONG).await,
            "b takes t1",
        ),
        "b takes t1",
    );
    assert!(b.epoch > a.epoch, "epochs grow: {a:?} then {b:?}");
    expect_err!(
        store.renew_lease("t1", &a, LONG).await,
        LeaseLost,
        "a renews a released lease"
    );
    ok(store.renew_lease("t1", &b, LONG).await, "b renews t1");
    // A node restarted under its name takes its lease back, under a new
    // epoch: its earlier incarnation can write no more.
    ok(store.create_table("t1", b"meta").await, "create t1");
    let b2 = ours(
        ok(store.acquire_lease("t1", "node-b", LONG).await, "b again"),
        "b again",
    );
    assert!(b2.epoch > b.epoch, "epochs grow: {b:?} then {b2:?}");
    expect_err!(
        store.append_leased("t1", &b, 0, &[entry("t1", 0)]).await,
        LeaseLost,
        "b's earlier incarnation appends"
    );
    expect_err!(
        store.renew_lease("t1", &b, LONG).await,
        LeaseLost,
        "b's old epoch renews"
    );
    ok(
        store.append_leased("t1", &b2, 0, &[entry("t1", 0)]).await,
        "b appends",
    );
}

/// A lease not renewed lapses: anyone may take it (with a greater epoch),
/// and from then on the old holder can neither renew it nor append.
pub async fn lease_lapses(store: Arc<dyn Store>) {
    let store = &*store;
    let a = ours(
        ok(
            store.acquire_lease("t1", "node-a", SHORT).await,
            "a takes t1",
        ),
        "a takes t1",
    );
    ok(store.create_table("t1", b"meta").await, "create t1");
    ok(
        store.append_leased("t1", &a, 0, &[entry("t1", 0)]).await,
        "a appends",
    );
    // Renewing keeps it past its first term.
    tokio::time::sleep(SHORT / 2).await;
    ok(store.renew_lease("t1", &a, SHORT).await, "a renews");
    // Past the first term, well inside the renewed one.
    tokio::time::sleep(SHORT * 3 / 5).await;
    same(
        ok(store.lease("t1").await, "lease of t1"),
        Some(a.clone()),
        "renewed lease held",
    );
    lapse().await;
    same(
        ok(store.lease("t1").await, "lease of t1"),
        None,
        "a's lease lapsed",
    );
    let b = ours(
        ok(
            store.acquire_lease("t1", "node-b", LONG).await,
            "b takes t1",
        ),
        "b takes t1",
    );
    assert!(b.epoch > a.epoch, "epochs grow: {a:?} then {b:?}");
    expect_err!(
        store.append_leased("t1", &a, 1, &[entry("t1", 1)]).await,
        LeaseLost,
        "a appends while b holds the lease"
    );
    expect_err!(
        store.renew_lease("t1", &a, LONG).await,
        LeaseLost,
        "a renews the lease b took"
    );
    // Same node name, old epoch: still not the holder.
    let stale = Lease {
        node: "node-b".into(),
        epoch: a.epoch,
    };
    expect_err!(
        store
            .append_leased("t1", &stale, 1, &[entry("t1", 1)])
            .await,
        LeaseLost,
        "an append under an old epoch"
    );
    same(
        live_table(store, "t1").await.map(|t| t.entries),
        Some(vec![entry("t1", 0)]),
        "t1's log holds only what the holders wrote",
    );
    ok(
        store.append_leased("t1", &b, 1, &[entry("t1", 1)]).await,
        "b appends",
    );
}

/// A lease that lapsed while no other node took the table is still its
/// holder's (a node that was merely slow keeps its tables): it appends,
/// and a renewal sets the lease again under the same epoch. Released, it
/// is not the holder's any more.
pub async fn lapsed_lease_is_the_holders_until_taken(store: Arc<dyn Store>) {
    let store = &*store;
    let a = ours(
        ok(
            store.acquire_lease("t2", "node-a", SHORT).await,
            "a takes t2",
        ),
        "a takes t2",
    );
    ok(store.create_table("t2", b"meta").await, "create t2");
    lapse().await;
    same(
        ok(store.lease("t2").await, "lease of t2"),
        None,
        "a's lease lapsed",
    );
    ok(
        store.append_leased("t2", &a, 0, &[entry("t2", 0)]).await,
        "a appends after a lapse nobody took",
    );
    ok(
        store.renew_lease("t2", &a, LONG).await,
        "a renews after a lapse nobody took",
    );
    same(
        ok(store.lease("t2").await, "lease of t2"),
        Some(a.clone()),
        "the renewed lease is a's, same epoch",
    );
    ok(store.release_lease("t2", &a).await, "a releases t2");
    expect_err!(
        store.renew_lease("t2", &a, LONG).await,
        LeaseLost,
        "a renews a released lease"
    );
    expect_err!(
        store.append_leased("t2", &a, 1, &[entry("t2", 1)]).await,
        LeaseLost,
        "a appends under a released lease"
    );
    same(
        live_table(store, "t2").await.map(|t| t.entries),
        Some(vec![entry("t2", 0)]),
        "t2's log holds what a wrote while it held the lease",
    );
}

/// Many leases renewed in one call: each answered held or not.
pub async fn renew_many_leases(store: Arc<dyn Store>) {
    let store = &*store;
    same(
        ok(store.renew_leases(&[], LONG).await, "renewing none"),
        Vec::<bool>::new(),
        "no leases, no answers",
    );
    let take = async |id: &str, node: &str| {
        ours(
            ok(store.acquire_lease(id, node, LONG).await, "take"),
            "take",
        )
    };
    let a1 = take("t1", "node-a").await;
    let a2 = take("t2", "node-a").await;
    let b3 = take("t3", "node-b").await;
    ok(store.release_lease("t2", &a2).await, "a releases t2");
    let not_a3 = Lease {
        node: "node-a".into(),
        epoch: b3.epoch,
    };
    let asked = [
        ("t1".to_owned(), a1.clone()),
        ("t2".to_owned(), a2),
        ("t3".to_owned(), not_a3),
    ];
    same(
        ok(store.renew_leases(&asked, LONG).await, "renewing three"),
        vec![true, false, false],
        "held, released, another's",
    );
    same(
        ok(store.lease("t1").await, "lease of t1"),
        Some(a1),
        "t1 still a's",
    );
    same(
        ok(store.lease("t3").await, "lease of t3"),
        Some(b3),
        "t3 still b's",
    );
}

/// A leased append keeps every condition of a plain one.
pub async fn leased_append_refusals(store: Arc<dyn Store>) {
    let store = &*store;
    let a = ours(
        ok(
            store.acquire_lease("t1", "node-a", LONG).await,
            "a takes t1",
        ),
        "a takes t1",
    );
    expect_err!(
        store.append_leased("t1", &a, 0, &[entry("t1", 0)]).await,
        NotFound,
        "a leased append to a table not created yet"
    );
    ok(store.create_table("t1", b"meta").await, "create t1");
    ok(
        store
            .append_leased("t1", &a, 0, &[entry("t1", 0), entry("t1", 1)])
            .await,
        "a appends two",
    );
    expect_err!(
        store.append_leased("t1", &a, 1, &[entry("t1", 9)]).await,
        Conflict,
        "a leased append at the wrong length"
    );
    same(
        live_table(store, "t1").await.map(|t| t.entries),
        Some(vec![entry("t1", 0), entry("t1", 1)]),
        "t1 after the refusal",
    );
}

/// `unleased_tables` lists the live tables nobody holds: never taken,
/// released or lapsed; not finished or discarded ones.
pub async fn unleased_tables(store: Arc<dyn Store>) {
    let store = &*store;
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    let held = ours(
        ok(
            store.acquire_lease("held", "node-a", LONG).await,
            "take held",
        ),
        "take held",
    );
    ok(store.create_table("held", b"m").await, "create held");
    let short = ours(
        ok(
            store.acquire_lease("short", "node-a", SHORT).await,
            "take short",
        ),
        "take short",
    );
    ok(store.create_table("short", b"m").await, "create short");
    ok(store.create_table("free", b"m").await, "create free");
    ok(store.create_table("gone", b"m").await, "create gone");
    ok(store.discard_table("gone").await, "discard gone");
    ok(store.create_table("done", b"m").await, "create done");
    ok(
        store
            .finish_game(&finished("done", &["ann", "bob"], 5, vec![]))
            .await,
        "finish done",
    );
    same(
        sorted(ok(store.unleased_tables().await, "unleased")),
        vec!["free".to_string()],
        "unleased while two are held",
    );
    // A lease without a table is not a table.
    ours(
        ok(
            store.acquire_lease("none", "node-a", LONG).await,
            "take none",
        ),
        "take none",
    );
    lapse().await;
    same(
        sorted(ok(store.unleased_tables().await, "unleased")),
        vec!["free".to_string(), "short".to_string()],
        "unleased after short's lease lapsed",
    );
    // Nobody took it: its holder renews it, and it is leased again.
    ok(
        store.renew_lease("short", &short, LONG).await,
        "renew lapsed, untaken",
    );
    ok(store.release_lease("held", &held).await, "release held");
    same(
        sorted(ok(store.unleased_tables().await, "unleased")),
        vec!["free".to_string(), "held".to_string()],
        "unleased after short was renewed and held released",
    );
}

/// A node's tables renewed together (as its lease keeper renews them)
/// are never listed while they are renewed, and all are once the
/// renewals stop and the leases lapse; a table another node took is
/// listed again only when that node's lease lapses in turn.
pub async fn unleased_when_renewals_stop(store: Arc<dyn Store>) {
    let store = &*store;
    let unleased = async || {
        let mut v = ok(store.unleased_tables().await, "unleased");
        v.sort();
        v
    };
    let ids = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut held = Vec::new();
    for id in ["r1", "r2", "r3"] {
        let lease = ours(
            ok(store.acquire_lease(id, "node-a", SHORT).await, "a takes"),
            "a takes",
        );
        ok(store.create_table(id, b"m").await, "create");
        held.push((id.to_owned(), lease));
    }
    for _ in 0..6 {
        same(
            ok(store.renew_leases(&held, SHORT).await, "a renews"),
            vec![true; 3],
            "a's renewals",
        );
        same(unleased().await, ids(&[]), "none listed while a renews");
        tokio::time::sleep(SHORT / 3).await;
    }
    lapse().await;
    same(
        unleased().await,
        ids(&["r1", "r2", "r3"]),
        "all listed once a stopped renewing",
    );
    let b1 = ours(
        ok(store.acquire_lease("r1", "node-b", SHORT).await, "b takes"),
        "b takes r1",
    );
    let b_held = [("r1".to_owned(), b1)];
    for _ in 0..4 {
        same(
            ok(store.renew_leases(&b_held, SHORT).await, "b renews"),
            vec![true],
            "b's renewal",
        );
        same(
            unleased().await,
            ids(&["r2", "r3"]),
            "r1 not listed while b renews it",
        );
        tokio::time::sleep(SHORT / 3).await;
    }
    lapse().await;
    same(
        unleased().await,
        ids(&["r1", "r2", "r3"]),
        "r1 listed again once b stopped renewing",
    );
}

/// The seat index answers which tables a resume token sits at.
pub async fn seat_index(store: Arc<dyn Store>) {
    let store = &*store;
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    same(
        ok(store.seat_tables("tok-a").await, "seats of tok-a"),
        Vec::<String>::new(),
        "an unknown token sits nowhere",
    );
    ok(store.create_table("t1", b"m").await, "create t1");
    ok(store.create_table("t2", b"m").await, "create t2");
    ok(store.index_seat("tok-a", "t1").await, "tok-a at t1");
    ok(store.index_seat("tok-a", "t2").await, "tok-a at t2");
    ok(store.index_seat("tok-a", "t1").await, "tok-a at t1 again");
    ok(store.index_seat("tok-b", "t1").await, "tok-b at t1");
    same(
        sorted(ok(store.seat_tables("tok-a").await, "seats of tok-a")),
        vec!["t1".to_string(), "t2".to_string()],
        "tok-a's tables, once each",
    );
    same(
        ok(store.seat_tables("tok-b").await, "seats of tok-b"),
        vec!["t1".to_string()],
        "tok-b's tables",
    );
}

/// A finished table's lease stays its holder's until released (its node
/// keeps renewing it while the finished table lingers): finishing the game
/// is not another node taking it.
pub async fn finished_table_keeps_its_lease(store: Arc<dyn Store>) {
    let store = &*store;
    let a = ours(
        ok(
            store.acquire_lease("f1", "node-a", LONG).await,
            "a takes f1",
        ),
        "a takes f1",
    );
    ok(store.create_table("f1", b"meta").await, "create f1");
    ok(
        store.append_leased("f1", &a, 0, &[entry("f1", 0)]).await,
        "a appends",
    );
    ok(
        store
            .finish_game(&finished("f1", &["Ann", "Bob"], 1000, vec![]))
            .await,
        "finish f1",
    );
    ok(
        store.renew_lease("f1", &a, LONG).await,
        "a renews f1's lease after the finish",
    );
    same(
        ok(store.lease("f1").await, "lease of f1"),
        Some(a.clone()),
        "f1's lease is still a's",
    );
    ok(store.release_lease("f1", &a).await, "a releases f1");
    same(ok(store.lease("f1").await, "lease of f1"), None, "released");
    expect_err!(
        store.renew_lease("f1", &a, LONG).await,
        LeaseLost,
        "a renews the released lease"
    );
}
