//! The Redis store's finish outbox and live-index sweep against a real
//! one-node Redis Cluster (`tengen_store::testing`): a finish interrupted
//! after every one of its steps is rolled forward (or cleanly abandoned)
//! by the next finish of the game or by `live_tables`, with everything
//! written exactly once and nothing left behind; finishes blocked by a
//! crashed one help it along; stale ids leave the live index, but never
//! a table being created.

use std::time::Duration;

use tengen_store::testing::{RedisServer, unique_prefix};
use tengen_store::{
    FinishedGame, HistoryPoint, Rating, RatingUpdate, RedisOptions, RedisStore, Store, StoreError,
};

async fn connect(redis: &RedisServer, prefix: &str) -> RedisStore {
    RedisStore::connect(
        &redis.url(),
        RedisOptions {
            prefix: prefix.to_owned(),
            stale_after: Duration::from_millis(300),
            ..RedisOptions::default()
        },
    )
    .await
    .unwrap_or_else(|e| panic!("connect to {}: {e}", redis.url()))
}

async fn raw(redis: &RedisServer) -> redis::aio::MultiplexedConnection {
    redis::Client::open(redis.url())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap()
}

async fn cmd<T: redis::FromRedisValue>(
    conn: &mut redis::aio::MultiplexedConnection,
    args: &[&str],
) -> T {
    let mut c = redis::cmd(args[0]);
    for a in &args[1..] {
        c.arg(*a);
    }
    c.query_async(conn)
        .await
        .unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

fn update(player: &str, family: &str, expected: u32, game: &str, value: f64) -> RatingUpdate {
    RatingUpdate {
        expected_games: expected,
        rating: Rating {
            player: player.into(),
            family: family.into(),
            rating: value,
            deviation: 200.0,
            volatility: 0.06,
            games: expected + 1,
            wins: expected + 1,
            draws: 0,
            losses: 0,
            opponents: vec!["x".into()],
            recent_ms: vec![1],
        },
        history: HistoryPoint {
            game: game.into(),
            at_ms: 1,
            opponent: "x".into(),
            score: 1.0,
            rating: value,
            deviation: 200.0,
            volatility: 0.06,
        },
    }
}

fn game(id: &str, players: &[&str], record: &str, ratings: Vec<RatingUpdate>) -> FinishedGame {
    FinishedGame {
        id: id.into(),
        players: players.iter().map(|p| p.to_string()).collect(),
        finished_ms: 2000,
        record: record.as_bytes().to_vec(),
        ratings,
    }
}

/// Nothing of a finish is left behind: no stage, no reservation, no
/// applied nonce, and the id has left the live index.
async fn nothing_left(conn: &mut redis::aio::MultiplexedConnection, prefix: &str, id: &str) {
    let stage: bool = cmd(conn, &["EXISTS", &format!("{prefix}:{{t:{id}}}:finishing")]).await;
    assert!(!stage, "{prefix}: the stage of {id} is left");
    for family in ["renju", "gomoku", "freestyle"] {
        for what in ["pending", "applied"] {
            let n: u64 = cmd(conn, &["HLEN", &format!("{prefix}:{{f:{family}}}:{what}")]).await;
            assert_eq!(n, 0, "{prefix}: {family}'s {what} is not empty");
        }
    }
    let indexed: bool = cmd(conn, &["SISMEMBER", &format!("{prefix}:live"), id]).await;
    assert!(!indexed, "{prefix}: {id} is still in the live index");
}

/// A finish stopped after each of its steps (as if its process died
/// there), then recovered by a second finish of the same game (with
/// another record) or by the `live_tables` sweep: the game ends exactly
/// once, with each rating update and history point applied once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finish_interrupted_anywhere_is_rolled_forward_once() {
    let redis = RedisServer::start_cluster();
    let mut conn = raw(&redis).await;
    let mut completed_at = None;
    for steps in 0..40u32 {
        for by_sweep in [false, true] {
            let prefix = unique_prefix("outbox");
            let store = connect(&redis, &prefix).await;
            let before = vec![
                update("Ann", "renju", 0, "m0", 1510.0),
                update("Bob", "renju", 0, "m0", 1490.0),
            ];
            let mut m0 = game("m0", &["Ann", "Bob"], "m0", before.clone());
            m0.finished_ms = 1000;
            store.finish_game(&m0).await.unwrap();
            // Every other run: a game with no live table.
            let has_table = steps % 2 == 0;
            if has_table {
                store.create_table("g", b"meta").await.unwrap();
                store.append("g", 0, &[b"e0".to_vec()]).await.unwrap();
            }
            let updates = vec![
                update("Ann", "renju", 1, "g", 1520.0),
                update("Bob", "renju", 1, "g", 1480.0),
            ];
            let first = game("g", &["Ann", "Bob"], "first", updates.clone());
            let second = game("g", &["Ann", "Bob"], "second", updates.clone());
            let interrupted = store.finish_game_interrupted(&first, steps).await;
            match &interrupted {
                Ok(()) => {
                    completed_at.get_or_insert(steps);
                }
                Err(StoreError::Unavailable(_)) => {}
                Err(e) => panic!("steps {steps}: {e:?}"),
            }
            if by_sweep {
                let live = store.live_tables().await.unwrap();
                let finished = store.game("g").await.unwrap().is_some();
                assert_eq!(
                    live.iter().any(|t| t.id == "g"),
                    has_table && !finished,
                    "steps {steps}: g live after the sweep"
                );
                if !finished {
                    store.finish_game(&second).await.unwrap();
                }
            } else {
                match store.finish_game(&second).await {
                    Ok(()) | Err(StoreError::Exists(_)) => {}
                    Err(e) => panic!("steps {steps}: the second finish: {e:?}"),
                }
            }
            let stored = store.game("g").await.unwrap().expect("g is finished");
            assert!(
                stored.record == b"first" || stored.record == b"second",
                "steps {steps}: {:?}",
                stored.record
            );
            if interrupted.is_ok() {
                assert_eq!(stored.record, b"first");
            }
            for (i, player) in ["Ann", "Bob"].into_iter().enumerate() {
                assert_eq!(
                    store.rating(player, "renju").await.unwrap(),
                    Some(updates[i].rating.clone()),
                    "steps {steps}, sweep {by_sweep}: {player}'s rating"
                );
                assert_eq!(
                    store.rating_history(player, "renju").await.unwrap(),
                    vec![before[i].history.clone(), updates[i].history.clone()],
                    "steps {steps}, sweep {by_sweep}: {player}'s history"
                );
                let games: Vec<String> = store
                    .games_of(player, None, 10)
                    .await
                    .unwrap()
                    .into_iter()
                    .map(|g| g.id)
                    .collect();
                assert_eq!(games, ["g", "m0"], "steps {steps}: {player}'s games");
            }
            assert!(store.live_table("g").await.unwrap().is_none());
            assert!(store.live_tables().await.unwrap().is_empty());
            // Stopped between the stage's drop and the SREM, the sweep
            // drops the id once it has stayed stale.
            let indexed: bool =
                cmd(&mut conn, &["SISMEMBER", &format!("{prefix}:live"), "g"]).await;
            if indexed {
                assert!(
                    by_sweep && steps == 12,
                    "steps {steps}: g left in the index"
                );
                tokio::time::sleep(Duration::from_millis(400)).await;
                assert!(store.live_tables().await.unwrap().is_empty());
            }
            nothing_left(&mut conn, &prefix, "g").await;
        }
        if completed_at.is_some() {
            break;
        }
    }
    // SADD, STAGE, RESERVE, DECIDE, 2 HISTORY, APPLY, COMMIT, FORGET,
    // 2 ZADD, DROP, SREM: every step was interrupted once.
    assert_eq!(completed_at, Some(13));
}

/// A finish that crashed holding a player's rating: the next finish
/// touching that rating completes it (and then conflicts, its count being
/// stale); one that crashed after its abort, before letting go: the next
/// finish lets go for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finishes_help_the_crashed_finishes_in_their_way() {
    let redis = RedisServer::start_cluster();
    let mut conn = raw(&redis).await;
    let prefix = unique_prefix("help");
    let store = connect(&redis, &prefix).await;

    // g1 stops after SADD, STAGE, RESERVE: Ann's renju rating is held.
    let g1 = game(
        "g1",
        &["Ann", "Bob"],
        "g1",
        vec![update("Ann", "renju", 0, "g1", 1.0)],
    );
    assert!(store.finish_game_interrupted(&g1, 3).await.is_err());
    let held: u64 = cmd(
        &mut conn,
        &["HLEN", &format!("{prefix}:{{f:renju}}:pending")],
    )
    .await;
    assert_eq!(held, 1);
    let g2 = |expects| {
        game(
            "g2",
            &["Ann", "Cid"],
            "g2",
            vec![update("Ann", "renju", expects, "g2", 2.0)],
        )
    };
    match store.finish_game(&g2(0)).await {
        Err(StoreError::Conflict(_)) => {}
        other => panic!("g2 expecting 0 after g1: {other:?}"),
    }
    assert_eq!(store.game("g1").await.unwrap().unwrap().record, b"g1");
    store.finish_game(&g2(1)).await.unwrap();
    let history: Vec<String> = store
        .rating_history("Ann", "renju")
        .await
        .unwrap()
        .into_iter()
        .map(|p| p.game)
        .collect();
    assert_eq!(history, ["g1", "g2"]);
    nothing_left(&mut conn, &prefix, "g1").await;
    nothing_left(&mut conn, &prefix, "g2").await;

    // g3 reserves Bob's freestyle, conflicts on Ann's gomoku (Ann has no
    // gomoku rating), aborts, and stops before letting Bob go (SADD,
    // STAGE, RESERVE, RESERVE, DECIDE).
    let g3 = game(
        "g3",
        &["Bob", "Ann"],
        "g3",
        vec![
            update("Bob", "freestyle", 0, "g3", 3.0),
            update("Ann", "gomoku", 4, "g3", 3.0),
        ],
    );
    assert!(store.finish_game_interrupted(&g3, 5).await.is_err());
    assert!(store.game("g3").await.unwrap().is_none());
    let held: u64 = cmd(
        &mut conn,
        &["HLEN", &format!("{prefix}:{{f:freestyle}}:pending")],
    )
    .await;
    assert_eq!(held, 1, "Bob is still held by the abandoned g3");
    let g4 = game(
        "g4",
        &["Bob", "Dee"],
        "g4",
        vec![update("Bob", "freestyle", 0, "g4", 4.0)],
    );
    store.finish_game(&g4).await.unwrap();
    assert_eq!(
        store.rating("Bob", "freestyle").await.unwrap(),
        Some(g4.ratings[0].rating.clone())
    );
    assert!(store.game("g3").await.unwrap().is_none());
    nothing_left(&mut conn, &prefix, "g4").await;
    // The abandoned g3 left its id in the live index: the sweep drops it.
    assert!(store.live_tables().await.unwrap().is_empty());
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert!(store.live_tables().await.unwrap().is_empty());
    nothing_left(&mut conn, &prefix, "g3").await;
}

/// An id in the live index that is neither live nor finishing is dropped
/// on a read at least `stale_after` after a first read saw it so, not
/// sooner; an id whose table is created meanwhile stays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stale_ids_leave_the_live_index_but_creates_do_not() {
    let redis = RedisServer::start_cluster();
    let mut conn = raw(&redis).await;
    let prefix = unique_prefix("stale");
    let store = connect(&redis, &prefix).await;
    let live = format!("{prefix}:live");
    let stale = format!("{prefix}:stale");
    let members = |conn: &mut redis::aio::MultiplexedConnection| {
        let mut conn = conn.clone();
        let live = live.clone();
        async move {
            let mut ids: Vec<String> = cmd(&mut conn, &["SMEMBERS", &live]).await;
            ids.sort();
            ids
        }
    };

    store.create_table("t", b"m").await.unwrap();
    // A crash between a create's SADD and its script, twice.
    let _: u64 = cmd(&mut conn, &["SADD", &live, "ghost", "slow"]).await;
    let ids: Vec<String> = store
        .live_tables()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.id)
        .collect();
    assert_eq!(ids, ["t"]);
    assert_eq!(
        members(&mut conn).await,
        ["ghost", "slow", "t"],
        "first sighting"
    );
    let marked: u64 = cmd(&mut conn, &["HLEN", &stale]).await;
    assert_eq!(marked, 2);
    // Read again at once: too soon.
    store.live_tables().await.unwrap();
    assert_eq!(members(&mut conn).await, ["ghost", "slow", "t"], "too soon");

    // The slow create completes after all.
    store.create_table("slow", b"m").await.unwrap();
    tokio::time::sleep(Duration::from_millis(400)).await;
    let mut ids: Vec<String> = store
        .live_tables()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.id)
        .collect();
    ids.sort();
    assert_eq!(ids, ["slow", "t"]);
    assert_eq!(members(&mut conn).await, ["slow", "t"], "ghost dropped");
    let marked: u64 = cmd(&mut conn, &["HLEN", &stale]).await;
    assert_eq!(marked, 0, "no suspects left");

    // A discard that crashed before its SREM.
    let _: u64 = cmd(&mut conn, &["DEL", &format!("{prefix}:{{t:slow}}:meta")]).await;
    store.live_tables().await.unwrap();
    tokio::time::sleep(Duration::from_millis(400)).await;
    store.live_tables().await.unwrap();
    assert_eq!(members(&mut conn).await, ["t"]);
    // The id is free again, and a create indexes it.
    store.create_table("slow", b"m2").await.unwrap();
    assert_eq!(members(&mut conn).await, ["slow", "t"]);
}
