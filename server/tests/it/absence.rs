//! A player away from the table, through real sockets (docs/rules.md §4):
//! the absent player's clock runs on; after the grace the opponent may
//! claim the win or call a draw, or wait, and nothing else ends the game
//! but the clock; where nobody is there to claim the server gives the win;
//! two players away abort an unbegun game and draw an untimed one.

use crate::common;

use std::time::Duration;

use common::*;
use tengen_client::{ClientError, Connection};
use tengen_protocol::{AfterGrace, ClientMsg, Encoding, ErrorCode, ServerMsg, TableId};
use tengen_rules::game::{
    Event, GameConfig, GameResult, Outcome, ResultReason, RuleSet, Seat, TimeControl,
};

const GRACE: Duration = Duration::from_millis(300);

async fn short_grace() -> tengen_server::Server {
    server_with(|s| {
        s.abandon_grace_min = GRACE;
        s.abandon_grace_max = GRACE;
    })
    .await
}

/// The next `player_status`: (seat, connected, grace_ms, after_grace).
async fn status(c: &mut Connection) -> (Seat, bool, Option<u64>, Option<AfterGrace>) {
    loop {
        if let ServerMsg::PlayerStatus {
            seat,
            connected,
            grace_ms,
            after_grace,
            ..
        } = c.next().await.expect("a message").msg
        {
            return (seat, connected, grace_ms, after_grace);
        }
    }
}

/// The game's result, from the next `game_over` a connection receives.
async fn game_over(c: &mut Connection) -> GameResult {
    loop {
        if let ServerMsg::TableEvent(e) = c.next().await.expect("a message").msg
            && let Event::GameOver { result, .. } = e.event
        {
            return result;
        }
    }
}

/// Drops `seat`'s connection (as a closed tab does).
async fn drop_player(server: &tengen_server::Server, t: &mut Table, seat: Seat) {
    let dead = Connection::open(&url(server), Encoding::Json)
        .await
        .unwrap();
    drop(std::mem::replace(t.conn(seat), dead));
}

async fn spectator(server: &tengen_server::Server, table: &TableId) -> Connection {
    let mut sam = client(server, "sam", Encoding::Json).await;
    watch_snapshot(&mut sam, table).await;
    sam
}

async fn claim(c: &mut Connection, table: &TableId, draw: bool) -> Result<ServerMsg, ClientError> {
    c.request(ClientMsg::ClaimAbsence {
        table: table.clone(),
        draw,
    })
    .await
}

fn two_minutes() -> GameConfig {
    GameConfig::free(RuleSet::Gomoku).with_time(TimeControl::SuddenDeath { main_ms: 120_000 })
}

#[tokio::test]
async fn a_dropped_player_with_time_left_is_not_lost_until_the_opponent_claims() {
    let server = short_grace().await;
    let mut t = table(&server, two_minutes(), Encoding::Json).await;
    let mut sam = spectator(&server, &t.table).await;
    let black = t.opener();
    let white = black.other();
    t.act_as(black, place("H8")).await;
    t.act_as(white, place("A1")).await;
    // Black, to move, closes its tab.
    drop_player(&server, &mut t, black).await;
    assert_eq!(
        status(&mut sam).await,
        (black, false, Some(300), Some(AfterGrace::Claim))
    );
    // No claim before the grace is over.
    let table = t.table.clone();
    match claim(t.conn(white), &table, false).await {
        Err(ClientError::Refused(e)) => assert_eq!(e.code, ErrorCode::NotAbsent),
        other => panic!("{other:?}"),
    }
    // The grace ends: the opponent may claim now; the game goes on.
    assert_eq!(
        status(&mut sam).await,
        (black, false, Some(0), Some(AfterGrace::Claim))
    );
    tokio::time::sleep(Duration::from_secs(1)).await;
    let snap = snapshot_of(&mut sam, &table).await;
    assert_eq!(snap.snapshot.result, None, "not lost while its clock runs");
    let clocks = snap.snapshot.clocks.unwrap();
    assert_eq!(clocks.running, Some(black));
    assert!(
        clocks.seat(black).main_ms < 120_000 - 1_000,
        "its clock ran on"
    );
    assert_eq!(snap.away.len(), 1);
    assert_eq!(snap.away[0].grace_ms, Some(0));
    // The opponent claims the win: that ends it.
    match claim(t.conn(white), &table, false).await {
        Ok(ServerMsg::Acted { .. }) => {}
        other => panic!("{other:?}"),
    }
    let result = game_over(&mut sam).await;
    assert_eq!(result.reason, ResultReason::Abandonment { seat: black });
    assert_eq!(result.winner(), Some(white));
    // The record keeps it.
    tokio::time::sleep(Duration::from_millis(200)).await;
    match sam
        .request(ClientMsg::GameRecord {
            game: table.clone(),
            format: tengen_protocol::RecordFormat::Json,
        })
        .await
    {
        Ok(ServerMsg::GameRecord(r)) => {
            let r = r.record.unwrap();
            assert_eq!(r.result.unwrap().reason, result.reason);
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn the_opponent_may_call_a_draw_instead() {
    let server = short_grace().await;
    let mut t = table(&server, two_minutes(), Encoding::Json).await;
    let black = t.opener();
    let white = black.other();
    t.act_as(black, place("H8")).await;
    t.act_as(white, place("A1")).await;
    t.act_as(black, place("J10")).await;
    // White, to move, drops; its grace runs out.
    drop_player(&server, &mut t, white).await;
    assert_eq!(
        status(t.conn(black)).await,
        (white, false, Some(300), Some(AfterGrace::Claim))
    );
    assert_eq!(status(t.conn(black)).await.2, Some(0));
    // Black calls the game a draw.
    let table = t.table.clone();
    match claim(t.conn(black), &table, true).await {
        Ok(ServerMsg::Acted { .. }) => {}
        other => panic!("{other:?}"),
    }
    let snap = snapshot_of(t.conn(black), &table).await;
    let result = snap.snapshot.result.unwrap();
    assert_eq!(result.outcome, Outcome::Draw);
    assert_eq!(result.reason, ResultReason::DrawCalled { seat: white });
}

#[tokio::test]
async fn where_nobody_can_claim_the_win_is_given_after_the_grace() {
    let server = short_grace().await;
    // A bot account's opponent leaves: the bot cannot claim.
    let mut robo = account(&server, "robo").await;
    match robo.request(ClientMsg::BecomeBot).await {
        Ok(ServerMsg::BecameBot { .. }) => {}
        other => panic!("{other:?}"),
    }
    let room = create_room(&mut robo, two_minutes(), true).await;
    let mut ann = client(&server, "ann", Encoding::Json).await;
    ann.request(ClientMsg::JoinRoom { room }).await.unwrap();
    let snap = snapshot_push(&mut robo).await;
    let ann_seat = snap.seat.unwrap().other();
    assert!(snap.players.seat(snap.seat.unwrap()).unwrap().bot);
    drop(ann);
    let (seat, connected, grace, after) = status(&mut robo).await;
    assert_eq!(
        (seat, connected, grace, after),
        (ann_seat, false, Some(300), Some(AfterGrace::Win))
    );
    let result = game_over(&mut robo).await;
    assert_eq!(result.reason, ResultReason::Abandonment { seat: ann_seat });
}

#[tokio::test]
async fn both_away_abort_an_unbegun_game_and_draw_an_untimed_one() {
    let server = short_grace().await;
    // Timed, one move: aborted once both graces are over.
    let mut t = table(&server, two_minutes(), Encoding::Json).await;
    let mut sam = spectator(&server, &t.table).await;
    t.act_as(t.opener(), place("H8")).await;
    let first = t.opener();
    drop_player(&server, &mut t, first).await;
    assert_eq!(status(&mut sam).await.3, Some(AfterGrace::Claim));
    drop_player(&server, &mut t, first.other()).await;
    // The second departure changes what follows the first's grace too.
    let mut told = Vec::new();
    for _ in 0..2 {
        let s = status(&mut sam).await;
        told.push((s.0, s.3));
    }
    assert!(told.contains(&(first, Some(AfterGrace::Abort))), "{told:?}");
    assert!(
        told.contains(&(first.other(), Some(AfterGrace::Abort))),
        "{told:?}"
    );
    let result = game_over(&mut sam).await;
    assert_eq!(result.outcome, Outcome::Aborted);

    // Untimed, three moves: drawn once both graces are over.
    let mut t = table(&server, GameConfig::free(RuleSet::Gomoku), Encoding::Json).await;
    let mut sam = spectator(&server, &t.table).await;
    let b = t.opener();
    t.act_as(b, place("H8")).await;
    t.act_as(b.other(), place("A1")).await;
    t.act_as(b, place("J10")).await;
    drop_player(&server, &mut t, b).await;
    drop_player(&server, &mut t, b.other()).await;
    let result = game_over(&mut sam).await;
    assert_eq!(
        (result.outcome, result.reason),
        (Outcome::Draw, ResultReason::BothAway)
    );
}
