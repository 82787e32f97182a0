//! Paced table starts, over real WebSockets: a wave of games starting at
//! once is spread out at the node's start rate, each game's clocks start
//! with its turn (the wait costs no player time), and a wave larger than
//! the backlog the server accepts refuses new rooms with a time to retry
//! while joins already made still start.

use crate::common;

use std::time::{Duration, Instant};

use common::{client, create_room, place, server_with, snapshot_of, snapshot_push};
use tengen_client::{ClientError, Connection};
use tengen_protocol::{ClientMsg, Encoding, ErrorCode, RoomId, ServerMsg};
use tengen_rules::game::{GameConfig, RuleSet, Seat, TimeControl};

const MAIN_MS: u64 = 60_000;

fn timed() -> GameConfig {
    GameConfig {
        time: TimeControl::SuddenDeath { main_ms: MAIN_MS },
        ..GameConfig::new(RuleSet::Freestyle)
    }
}

/// `n` rooms, each created by its own player, and their would-be joiners.
async fn rooms(server: &tengen_server::Server, n: usize) -> Vec<(Connection, Connection, RoomId)> {
    let mut out = Vec::new();
    for i in 0..n {
        let mut a = client(server, &format!("ann{i}"), Encoding::Json).await;
        let b = client(server, &format!("bob{i}"), Encoding::Json).await;
        let room = create_room(&mut a, timed(), true).await;
        out.push((a, b, room));
    }
    out
}

async fn join(b: &mut Connection, room: RoomId) {
    match b.request(ClientMsg::JoinRoom { room }).await {
        Ok(ServerMsg::Joined { seat, .. }) => assert_eq!(seat, Seat::Second),
        other => panic!("join: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wave_of_starts_is_spread_and_the_wait_costs_no_clock_time() {
    // A turn every 200 ms, one at once.
    let server = server_with(|s| s.table_start_rate = 5).await;
    let n = 8;
    let mut tables = rooms(&server, n).await;
    let t0 = Instant::now();
    // Every joiner joins at once.
    let joins = tables.iter_mut().map(|(_, b, room)| join(b, room.clone()));
    futures_util::future::join_all(joins).await;
    // Each game's opener moves as soon as its snapshot comes (all games
    // at once: a game read late would have its opener think meanwhile).
    let plays = tables.into_iter().map(|(mut a, mut b, _)| async move {
        let snap = snapshot_push(&mut a).await;
        let at = t0.elapsed();
        assert_eq!(snapshot_push(&mut b).await.table, snap.table);
        let opener = snap.snapshot.opener;
        let mover = if opener == Seat::First {
            &mut a
        } else {
            &mut b
        };
        common::act(mover, &snap.table, place("h8")).await;
        let after = snapshot_of(mover, &snap.table).await;
        let left = after
            .snapshot
            .clocks
            .expect("a timed game")
            .seat(opener)
            .main_ms;
        (at, left)
    });
    let mut started = futures_util::future::join_all(plays).await;
    for (at, left) in &started {
        // Charged, the wait would have cost the last games a second.
        assert!(
            left + 400 >= MAIN_MS,
            "the opener of the game started after {at:?} has {left} ms of {MAIN_MS} left"
        );
    }
    started.sort();
    let (first, last) = (started[0].0, started[n - 1].0);
    // Eight starts, two within the first turn and the rest 200 ms apart:
    // the last about 1.2 s after the joins.
    assert!(
        last >= Duration::from_millis(1000),
        "the last of {n} games started {last:?} after the joins (the first {first:?})"
    );
    assert!(last < Duration::from_secs(5), "{last:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wave_past_the_backlog_refuses_new_rooms_until_it_is_worked_off() {
    // A turn every 250 ms: 24 starts reach 5.75 s ahead (the backlog
    // allowed is 3 s; the margin is for a slow machine).
    let server = server_with(|s| {
        s.table_start_rate = 4;
        // Lag never sheds here (the test's own runtime may run late).
        s.shed_lag = Duration::from_secs(3600);
    })
    .await;
    let n = 24;
    let mut tables = rooms(&server, n).await;
    let joins = tables.iter_mut().map(|(_, b, room)| join(b, room.clone()));
    futures_util::future::join_all(joins).await;
    let mut late = client(&server, "late", Encoding::Json).await;
    let refused = late
        .request(ClientMsg::CreateRoom {
            rated: false,
            config: timed(),
            public: true,
            name: None,
            chat: true,
        })
        .await;
    let retry = match refused {
        Err(ClientError::Refused(e)) => {
            assert_eq!(e.code, ErrorCode::Unavailable, "{e:?}");
            e.retry_after_ms.expect("a time to retry")
        }
        other => panic!("a new room while {n} games wait to start: {other:?}"),
    };
    assert!((1000..=3750).contains(&retry), "retry after {retry} ms");
    // A connection is still taken, and every game joined does start.
    let _watcher = client(&server, "watcher", Encoding::Json).await;
    for (a, _, _) in tables.iter_mut() {
        snapshot_push(a).await;
    }
    // Worked off: new rooms again.
    create_room(&mut late, timed(), true).await;
}
