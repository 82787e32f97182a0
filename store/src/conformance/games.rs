//! Checks of finished games, their history index and their ratings.

use std::sync::Arc;

use super::helpers::{as_stored, entry, expect_err, finished, live_table, ok, same, update};
use crate::{GameRef, Store};

/// Finishing a game stores its record, removes its live table and refuses
/// a second finish of the same id.
pub async fn finish_game(store: Arc<dyn Store>) {
    let store = &*store;
    ok(store.create_table("g1", b"meta").await, "create g1");
    ok(
        store
            .append("g1", 0, &[entry("g1", 0), entry("g1", 1)])
            .await,
        "append to g1",
    );
    ok(store.create_table("g10", b"meta").await, "create g10");
    let game = finished("g1", &["Ann", "Bob"], 1_700_000_000_000, vec![]);
    ok(store.finish_game(&game).await, "finish g1");
    same(
        live_table(store, "g1").await,
        None,
        "g1's live table after the finish",
    );
    assert!(
        live_table(store, "g10").await.is_some(),
        "g10 was removed with g1"
    );
    same(
        ok(store.game("g1").await, "game g1"),
        Some(as_stored(&game)),
        "g1's record",
    );
    same(ok(store.game("g").await, "game g"), None, "an unknown game");

    let again = finished("g1", &["Cid", "Dee"], 1_700_000_000_001, vec![]);
    expect_err!(store.finish_game(&again).await, Exists, "finish g1 again");
    same(
        ok(store.game("g1").await, "game g1"),
        Some(as_stored(&game)),
        "g1 after the refused finish",
    );
    same(
        ok(store.games_of("cid", None, 10).await, "games_of cid"),
        vec![],
        "the refused finish indexed nothing",
    );

    // A game with no live table (never created, or restored elsewhere).
    let loose = finished("g2", &["Ann", "Eve"], 1_700_000_000_005, vec![]);
    ok(
        store.finish_game(&loose).await,
        "finish g2, which was not live",
    );
    same(
        ok(store.game("g2").await, "game g2"),
        Some(as_stored(&loose)),
        "g2's record",
    );
}

/// Rating updates are applied with their history, conditional on the
/// stored game count; names are case-insensitive, families distinct.
pub async fn finish_game_ratings(store: Arc<dyn Store>) {
    let store = &*store;
    same(
        ok(store.rating("Ann", "renju").await, "rating"),
        None,
        "no rating yet",
    );
    same(
        ok(store.ratings("renju").await, "ratings"),
        vec![],
        "no ratings yet",
    );
    same(
        ok(store.rating_history("Ann", "renju").await, "history"),
        vec![],
        "no history yet",
    );

    let first = vec![
        update("Ann", "renju", 0, "r1", 1000, 1662.5),
        update("Bob", "renju", 0, "r1", 1000, 1337.5),
    ];
    ok(
        store
            .finish_game(&finished("r1", &["Ann", "Bob"], 1000, first.clone()))
            .await,
        "finish r1",
    );
    same(
        ok(store.rating("ann", "renju").await, "rating ann"),
        Some(first[0].rating.clone()),
        "Ann's rating after r1, asked as ann",
    );
    same(
        ok(store.rating("BOB", "renju").await, "rating BOB"),
        Some(first[1].rating.clone()),
        "Bob's rating after r1, asked as BOB",
    );

    // Another family, whose name extends the first: separate ratings.
    let other = vec![update("Ann", "renju-blitz", 0, "x1", 1500, 1500.25)];
    ok(
        store
            .finish_game(&finished("x1", &["Ann", "Cid"], 1500, other.clone()))
            .await,
        "finish x1",
    );

    let second = vec![
        update("ANN", "renju", 1, "r2", 2000, 1700.125),
        update("bob", "renju", 1, "r2", 2000, 1300.0),
    ];
    ok(
        store
            .finish_game(&finished("r2", &["ANN", "bob"], 2000, second.clone()))
            .await,
        "finish r2",
    );
    same(
        ok(store.rating("Ann", "renju").await, "rating Ann"),
        Some(second[0].rating.clone()),
        "Ann's rating after r2",
    );
    same(
        ok(store.rating("Ann", "renju-blitz").await, "rating Ann blitz"),
        Some(other[0].rating.clone()),
        "Ann's blitz rating",
    );
    same(
        ok(store.rating("Ann", "gomoku").await, "rating gomoku"),
        None,
        "a family with no games",
    );
    same(
        ok(store.rating("Cid", "renju-blitz").await, "rating Cid"),
        None,
        "a player with no update",
    );

    let mut all = ok(store.ratings("renju").await, "ratings renju");
    all.sort_by(|a, b| a.player.cmp(&b.player));
    let mut want = vec![second[0].rating.clone(), second[1].rating.clone()];
    want.sort_by(|a, b| a.player.cmp(&b.player));
    same(all, want, "the renju ratings");
    same(
        ok(store.ratings("renju-blitz").await, "ratings blitz"),
        vec![other[0].rating.clone()],
        "the renju-blitz ratings",
    );
    same(
        ok(store.ratings("renj").await, "ratings renj"),
        vec![],
        "a family's prefix",
    );

    same(
        ok(store.rating_history("aNN", "renju").await, "history Ann"),
        vec![first[0].history.clone(), second[0].history.clone()],
        "Ann's renju history, oldest first",
    );
    same(
        ok(
            store.rating_history("Ann", "renju-blitz").await,
            "history Ann blitz",
        ),
        vec![other[0].history.clone()],
        "Ann's blitz history",
    );
    same(
        ok(store.rating_history("Cid", "renju").await, "history Cid"),
        vec![],
        "Cid's history",
    );

    // A stale expectation: Conflict.
    let stale = vec![update("Bob", "renju", 1, "r3", 3000, 1.0)];
    expect_err!(
        store
            .finish_game(&finished("r3", &["Bob", "Dee"], 3000, stale))
            .await,
        Conflict,
        "an update expecting 1 game when Bob has 2"
    );
    let fresh = vec![update("Dee", "renju", 1, "r4", 3000, 1.0)];
    expect_err!(
        store
            .finish_game(&finished("r4", &["Dee", "Bob"], 3000, fresh))
            .await,
        Conflict,
        "an update expecting 1 game when Dee has no rating"
    );
}

/// A finish whose rating update conflicts writes nothing at all: no
/// record, no index, no rating or history, and the live table stays.
pub async fn finish_game_rating_conflict_is_atomic(store: Arc<dyn Store>) {
    let store = &*store;
    let setup = vec![update("Ann", "gomoku", 0, "a0", 100, 1550.0)];
    ok(
        store
            .finish_game(&finished("a0", &["Ann", "Zed"], 100, setup.clone()))
            .await,
        "finish a0",
    );

    ok(store.create_table("a1", b"meta").await, "create a1");
    let log = vec![entry("a1", 0), entry("a1", 1), entry("a1", 2)];
    ok(store.append("a1", 0, &log).await, "append to a1");
    let game = |ann_expects: u32| {
        finished(
            "a1",
            &["Bob", "Ann"],
            200,
            vec![
                update("Bob", "gomoku", 0, "a1", 200, 1600.0),
                update("Ann", "gomoku", ann_expects, "a1", 200, 1450.0),
            ],
        )
    };
    expect_err!(
        store.finish_game(&game(0)).await,
        Conflict,
        "finish a1 with Ann's stale count"
    );

    same(
        ok(store.game("a1").await, "game a1"),
        None,
        "a1's record after the conflict",
    );
    same(
        live_table(store, "a1").await.map(|t| (t.meta, t.entries)),
        Some((b"meta".to_vec(), log.clone())),
        "a1's live table after the conflict",
    );
    same(
        ok(store.rating("Bob", "gomoku").await, "rating Bob"),
        None,
        "Bob's rating after the conflict",
    );
    same(
        ok(store.rating_history("Bob", "gomoku").await, "history Bob"),
        vec![],
        "Bob's history",
    );
    same(
        ok(store.rating("Ann", "gomoku").await, "rating Ann"),
        Some(setup[0].rating.clone()),
        "Ann's rating after the conflict",
    );
    same(
        ok(store.rating_history("Ann", "gomoku").await, "history Ann"),
        vec![setup[0].history.clone()],
        "Ann's history after the conflict",
    );
    same(
        ok(store.games_of("Bob", None, 10).await, "games_of Bob"),
        vec![],
        "Bob's games",
    );
    same(
        ok(store.games_of("Ann", None, 10).await, "games_of Ann").len(),
        1,
        "Ann's games after the conflict",
    );

    // The same game with the right count goes through, all of it.
    let good = game(1);
    ok(
        store.finish_game(&good).await,
        "finish a1 with the right counts",
    );
    same(
        ok(store.game("a1").await, "game a1"),
        Some(as_stored(&good)),
        "a1's record",
    );
    same(
        live_table(store, "a1").await,
        None,
        "a1's live table after the finish",
    );
    same(
        ok(store.rating("ann", "gomoku").await, "rating Ann"),
        Some(good.ratings[1].rating.clone()),
        "Ann's rating after a1",
    );
    same(
        ok(store.rating_history("Bob", "gomoku").await, "history Bob"),
        vec![good.ratings[0].history.clone()],
        "Bob's history after a1",
    );
}

/// A finish whose updates span two families, the later of which (in any
/// order) conflicts, writes nothing in either family.
pub async fn finish_game_conflict_in_a_later_family(store: Arc<dyn Store>) {
    let store = &*store;
    let setup = vec![update("Ann", "gomoku", 0, "m0", 100, 1550.0)];
    ok(
        store
            .finish_game(&finished("m0", &["Ann", "Zed"], 100, setup.clone()))
            .await,
        "finish m0",
    );
    ok(store.create_table("m1", b"meta").await, "create m1");
    for (family, other) in [("freestyle", "Bob"), ("renju", "Cid")] {
        // `freestyle` sorts before `gomoku`, `renju` after it.
        let game = finished(
            "m1",
            &[other, "Ann"],
            200,
            vec![
                update(other, family, 0, "m1", 200, 1600.0),
                update("Ann", "gomoku", 0, "m1", 200, 1450.0),
            ],
        );
        expect_err!(
            store.finish_game(&game).await,
            Conflict,
            "finish m1 with {other}'s {family} update and Ann's stale gomoku count"
        );
        same(
            ok(store.rating(other, family).await, "rating"),
            None,
            &format!("{other}'s {family} rating after the conflict"),
        );
        same(
            ok(store.rating_history(other, family).await, "history"),
            vec![],
            &format!("{other}'s {family} history after the conflict"),
        );
        same(
            ok(store.games_of(other, None, 10).await, "games_of"),
            vec![],
            &format!("{other}'s games after the conflict"),
        );
    }
    same(
        ok(store.game("m1").await, "game m1"),
        None,
        "m1's record after the conflicts",
    );
    assert!(
        live_table(store, "m1").await.is_some(),
        "m1's live table went with a conflicting finish"
    );
    same(
        ok(store.rating_history("Ann", "gomoku").await, "history Ann"),
        vec![setup[0].history.clone()],
        "Ann's gomoku history after the conflicts",
    );
    // Both families at the right counts: all of it.
    let good = finished(
        "m1",
        &["Bob", "Ann"],
        200,
        vec![
            update("Bob", "freestyle", 0, "m1", 200, 1600.0),
            update("Ann", "gomoku", 1, "m1", 200, 1450.0),
        ],
    );
    ok(
        store.finish_game(&good).await,
        "finish m1 at the right counts",
    );
    same(
        ok(store.rating("Bob", "freestyle").await, "rating Bob"),
        Some(good.ratings[0].rating.clone()),
        "Bob's freestyle rating",
    );
    same(
        ok(store.rating("Ann", "gomoku").await, "rating Ann"),
        Some(good.ratings[1].rating.clone()),
        "Ann's gomoku rating",
    );
    same(
        live_table(store, "m1").await,
        None,
        "m1's live table after the finish",
    );
}

/// `games_of`: newest first, `limit`, `before_ms` strict, case-insensitive,
/// no mixing of players whose names extend one another.
pub async fn games_of_paging(store: Arc<dyn Store>) {
    let store = &*store;
    let times = [500u64, 100, 300, 400, 200, 600];
    for (i, ms) in times.iter().enumerate() {
        let opponent = if i % 2 == 0 { "Bob" } else { "Anna" };
        ok(
            store
                .finish_game(&finished(&format!("p{i}"), &["Ann", opponent], *ms, vec![]))
                .await,
            "finish",
        );
    }
    ok(
        store
            .finish_game(&finished("q", &["Anna", "Cid"], 350, vec![]))
            .await,
        "finish q",
    );

    let refs = |v: Vec<GameRef>| {
        v.into_iter()
            .map(|g| (g.id, g.finished_ms))
            .collect::<Vec<_>>()
    };
    let ann = |pairs: &[(usize, u64)]| {
        pairs
            .iter()
            .map(|(i, ms)| (format!("p{i}"), *ms))
            .collect::<Vec<_>>()
    };
    same(
        refs(ok(store.games_of("Ann", None, 100).await, "games_of Ann")),
        ann(&[(5, 600), (0, 500), (3, 400), (2, 300), (4, 200), (1, 100)]),
        "Ann's games, newest first",
    );
    same(
        refs(ok(store.games_of("aNN", None, 2).await, "games_of aNN")),
        ann(&[(5, 600), (0, 500)]),
        "Ann's first page of 2",
    );
    same(
        refs(ok(
            store.games_of("ann", Some(500), 2).await,
            "games_of ann",
        )),
        ann(&[(3, 400), (2, 300)]),
        "the page before 500 (strictly)",
    );
    same(
        refs(ok(
            store.games_of("ann", Some(301), 10).await,
            "games_of ann",
        )),
        ann(&[(2, 300), (4, 200), (1, 100)]),
        "the games before 301",
    );
    same(
        refs(ok(
            store.games_of("ann", Some(100), 10).await,
            "games_of ann",
        )),
        vec![],
        "the games before the oldest",
    );
    same(
        ok(store.games_of("Ann", None, 0).await, "games_of limit 0"),
        vec![],
        "limit 0",
    );
    same(
        ok(store.games_of("Nobody", None, 10).await, "games_of Nobody"),
        vec![],
        "an unknown player",
    );

    // Paging through one game at a time finds every game once.
    let mut paged = Vec::new();
    let mut before = None;
    loop {
        let page = ok(store.games_of("ANN", before, 1).await, "a page of 1");
        let Some(g) = page.into_iter().next() else {
            break;
        };
        before = Some(g.finished_ms);
        paged.push(g.id);
        assert!(paged.len() <= times.len(), "paging does not end");
    }
    same(paged.len(), times.len(), "games found paging one at a time");

    let anna = ok(store.games_of("anna", None, 10).await, "games_of anna");
    same(
        anna,
        vec![
            GameRef {
                id: "p5".into(),
                finished_ms: 600,
                players: vec!["Ann".into(), "Anna".into()],
            },
            GameRef {
                id: "p3".into(),
                finished_ms: 400,
                players: vec!["Ann".into(), "Anna".into()],
            },
            GameRef {
                id: "q".into(),
                finished_ms: 350,
                players: vec!["Anna".into(), "Cid".into()],
            },
            GameRef {
                id: "p1".into(),
                finished_ms: 100,
                players: vec!["Ann".into(), "Anna".into()],
            },
        ],
        "Anna's games (not Ann's), with their players as given",
    );
}
