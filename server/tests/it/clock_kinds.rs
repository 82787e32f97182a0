//! The eight-stone overtime and correspondence clocks through the real
//! server (docs/rules.md §7): the server's own timers flag, draw and spend
//! vacation; a correspondence player may close the connection for longer
//! than any live grace; and a correspondence game restarted from its log
//! keeps its deadline.

use crate::common;

use std::time::{Duration, Instant};

use common::proc::{self, DataDir};
use common::scripted::new_game_with;
use common::*;
use tengen_client::Connection;
use tengen_protocol::{ClientMsg, Encoding, ServerMsg, TableEvent, TableId, TableSnapshot};
use tengen_rules::game::config::DAY_MS;
use tengen_rules::game::{
    ClockSnapshot, Event, GameConfig, GameResult, Outcome, ResultReason, RuleSet, Seat, SeatClock,
    TimeControl,
};

fn config(time: TimeControl) -> GameConfig {
    GameConfig::free(RuleSet::Gomoku).with_time(time)
}

/// The clocks of the move with `seq`, read from `c`'s events.
async fn moved_clocks(c: &mut Connection, seq: u64) -> ClockSnapshot {
    loop {
        let e: TableEvent = next_event(c).await;
        if let (true, Event::Moved { clocks, .. }) = (e.seq == seq, e.event) {
            return clocks.expect("a timed game");
        }
    }
}

async fn game_over(c: &mut Connection) -> GameResult {
    loop {
        if let Event::GameOver { result, .. } = next_event(c).await.event {
            return result;
        }
    }
}

/// Watches `table` (a player after a resume) and returns the snapshot.
async fn watch(c: &mut Connection, table: &TableId) -> TableSnapshot {
    match c
        .request(ClientMsg::Watch {
            table: table.clone(),
            since: None,
        })
        .await
        .expect("a snapshot")
    {
        ServerMsg::TableSnapshot(s) => *s,
        other => panic!("{other:?}"),
    }
}

fn in_overtime(c: SeatClock, stones_left: u32) -> bool {
    c.main_ms == 0 && c.period_moves == stones_left && c.period_ms == 3_000
}

/// Black's second of main time runs out on black's turn: black's move is
/// its one overtime stone, and white is in overtime too, its own main time
/// gone. Returns the table and black's seat. (Times leave room for a busy
/// machine: the first two stones well within the main time, the overtime
/// stone well within its 3 s.)
async fn into_overtime(server: &tengen_server::Server) -> (Table, Seat) {
    let mut t = table(
        server,
        config(TimeControl::eight_stone(1_000, 3_000, 1)),
        Encoding::Json,
    )
    .await;
    let b = t.opener();
    t.act_as(b, place("H8")).await;
    t.act_as(b.other(), place("A1")).await;
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    let seq = t.act_as(b, place("H9")).await;
    let clocks = moved_clocks(t.conn(b), seq).await;
    assert!(in_overtime(clocks.seat(b), 0), "{clocks:?}");
    assert!(in_overtime(clocks.seat(b.other()), 1), "{clocks:?}");
    (t, b)
}

#[tokio::test]
async fn eight_stone_overtime_draws_after_the_last_stone_and_a_late_move_loses() {
    let server = server().await;
    // White plays its one overtime stone: every stone is down, a draw.
    let (mut t, b) = into_overtime(&server).await;
    t.act_as(b.other(), place("A2")).await;
    let result = game_over(t.conn(b)).await;
    assert_eq!(result.outcome, Outcome::Draw);
    assert_eq!(result.reason, ResultReason::OvertimeSpent);
    // White never plays its overtime stone: the server flags it.
    let (mut t, b) = into_overtime(&server).await;
    let started = Instant::now();
    let result = game_over(t.conn(b)).await;
    assert_eq!(result.reason, ResultReason::Time { seat: b.other() });
    assert_eq!(result.winner(), Some(b));
    let took = started.elapsed();
    assert!(took >= Duration::from_millis(2_800), "{took:?}");
}

#[tokio::test]
async fn correspondence_spends_vacation_before_the_flag() {
    let server = server().await;
    let mut t = table(
        &server,
        config(TimeControl::Correspondence {
            move_ms: 1_000,
            vacation_ms: 1_500,
        }),
        Encoding::Json,
    )
    .await;
    let b = t.opener();
    let w = b.other();
    t.act_as(b, place("H8")).await;
    // White is 600 ms past its move time: vacation pays for them (less
    // the lag credit the server grants, a few ms on loopback).
    tokio::time::sleep(Duration::from_millis(1_600)).await;
    let seq = t.act_as(w, place("A1")).await;
    let clocks = moved_clocks(t.conn(w), seq).await;
    let c = clocks.seat(w);
    assert_eq!(c.main_ms, 1_000, "the next move has its full time");
    assert!((1..=1_100).contains(&c.vacation_ms), "{c:?}");
    assert_eq!(clocks.seat(b).vacation_ms, 1_500, "black's is untouched");
    // Black never moves: 1 s and then its 1.5 s of vacation.
    let started = Instant::now();
    let result = game_over(t.conn(w)).await;
    assert_eq!(result.reason, ResultReason::Time { seat: b });
    let took = started.elapsed();
    assert!(took >= Duration::from_millis(2_400), "{took:?}");
}

#[tokio::test]
async fn a_correspondence_player_may_leave_for_longer_than_any_live_grace() {
    let server = server_with(|s| {
        s.abandon_grace_min = Duration::from_millis(200);
        s.abandon_grace_max = Duration::from_millis(200);
        s.first_move_timeout = Duration::from_millis(200);
        s.resume_grace = Duration::from_millis(200);
    })
    .await;
    let u = url(&server);
    let corr = config(TimeControl::Correspondence {
        move_ms: DAY_MS,
        vacation_ms: 0,
    });
    let mut g = new_game_with(&u, 0, corr).await;
    let b = g.opener;
    let w = b.other();
    // Black's first move comes after the live first-move limit: no abort.
    tokio::time::sleep(Duration::from_millis(400)).await;
    act(&mut g.conn[b.index()], &g.table, place("H8")).await;
    // White closes the connection: no countdown.
    let dead = std::mem::replace(
        &mut g.conn[w.index()],
        Connection::open(&u, Encoding::Json).await.unwrap(),
    );
    drop(dead);
    let status = player_status(&mut g.conn[b.index()]).await;
    assert_eq!(status, (false, None, w));
    // Past the abandonment grace and the session grace, white comes back
    // to the same seat and plays on.
    tokio::time::sleep(Duration::from_millis(800)).await;
    let (mut back, welcome) = Connection::connect_resuming(
        &u,
        Encoding::Json,
        Some(&g.name[w.index()]),
        Some(&g.token[w.index()]),
    )
    .await
    .unwrap();
    assert!(welcome.resumed, "the seated session was kept");
    assert_eq!(welcome.tables, vec![g.table.clone()]);
    let snap = watch(&mut back, &g.table).await;
    assert_eq!(snap.snapshot.result, None, "no abandonment");
    assert_eq!(snap.seat, Some(w));
    act(&mut back, &g.table, place("A1")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_correspondence_game_keeps_its_deadline() {
    let dir = DataDir::new("correspondence");
    let server = proc::start(&dir.0);
    let corr = config(TimeControl::Correspondence {
        move_ms: 8_000,
        vacation_ms: 0,
    });
    let mut g = new_game_with(&server.url(), 0, corr).await;
    let b = g.opener;
    let w = b.other();
    act(&mut g.conn[b.index()], &g.table, place("H8")).await;
    // White's turn began here; its deadline is 8 s from now, and stays so
    // through a crash and a restart (which may take seconds on a busy
    // machine).
    let turn = Instant::now();
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    server.kill();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let server = proc::start(&dir.0);
    let (mut white, welcome) = Connection::connect_resuming(
        &server.url(),
        Encoding::Json,
        Some(&g.name[w.index()]),
        Some(&g.token[w.index()]),
    )
    .await
    .unwrap();
    assert!(welcome.resumed);
    let snap = watch(&mut white, &g.table).await;
    assert_eq!(snap.paused, None, "a correspondence game does not wait");
    let clocks = snap.snapshot.clocks.unwrap();
    assert_eq!(clocks.running, Some(w));
    let left = clocks.seat(w).main_ms;
    let spent = turn.elapsed().as_millis() as u64;
    assert!(
        left <= 8_000 - 1_400 && left + spent >= 7_900,
        "{left} ms left after {spent} ms"
    );
    let result = tokio::time::timeout(Duration::from_secs(20), game_over(&mut white))
        .await
        .expect("the flag falls at the old deadline");
    assert_eq!(result.reason, ResultReason::Time { seat: w });
    let took = turn.elapsed();
    assert!(
        took >= Duration::from_millis(7_900) && took < Duration::from_millis(11_000),
        "{took:?}"
    );
    let (status, _, _) = server.terminate();
    assert!(status.success());
}
