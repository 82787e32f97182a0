//! Lag compensation with a real slow link: a TCP proxy on loopback delays
//! every byte between one player and the server by a fixed amount each
//! way. The slow player is credited part of its lag, and never more than
//! its quota allows.

use crate::common;

use std::time::Duration;

use common::*;
use tengen_client::Connection;
use tengen_protocol::{ClientMsg, Encoding, ServerMsg, TableId};
use tengen_rules::game::{Event, GameConfig, RuleSet, Seat, TimeControl};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::time::Instant;

/// One-way delay of the slow link.
const DELAY: Duration = Duration::from_millis(150);

/// Copies `from` to `to`, each chunk delivered `DELAY` after it was read.
fn delayed_pipe(mut from: tokio::net::tcp::OwnedReadHalf, mut to: tokio::net::tcp::OwnedWriteHalf) {
    let (tx, mut rx) = mpsc::unbounded_channel::<(Instant, Vec<u8>)>();
    tokio::spawn(async move {
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            match from.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if tx
                        .send((Instant::now() + DELAY, buf[..n].to_vec()))
                        .is_err()
                    {
                        break;
                    }
                }
            }
        }
    });
    tokio::spawn(async move {
        while let Some((at, bytes)) = rx.recv().await {
            tokio::time::sleep_until(at).await;
            if to.write_all(&bytes).await.is_err() {
                break;
            }
        }
        let _ = to.shutdown().await;
    });
}

/// A proxy to `target` that delays both directions; returns its address.
async fn slow_link(target: std::net::SocketAddr) -> std::net::SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let Ok(server) = TcpStream::connect(target).await else {
                continue;
            };
            let (cr, cw) = client.into_split();
            let (sr, sw) = server.into_split();
            delayed_pipe(cr, sw);
            delayed_pipe(sr, cw);
        }
    });
    addr
}

/// Points that never make five: every other column, rows far apart.
fn stones(rows: [u8; 3]) -> Vec<String> {
    rows.iter()
        .flat_map(|&y| {
            (0..15u8)
                .step_by(2)
                .map(move |x| tengen_rules::Point::new(x, y).to_string())
        })
        .collect()
}

/// Reads events until the move numbered `n` arrives; returns its clocks'
/// remaining main time for `seat`.
async fn main_ms_after_move(c: &mut Connection, n: u32, seat: Seat) -> u64 {
    loop {
        let f = c.next().await.unwrap();
        if let ServerMsg::TableEvent(e) = f.msg
            && let Event::Moved { mv, clocks } = e.event
            && mv.number == n
        {
            return clocks.expect("a timed game").seat(seat).main_ms;
        }
    }
}

#[tokio::test]
async fn a_slow_player_is_credited_within_its_quota() {
    let server = server().await;
    let slow_addr = slow_link(server.addr()).await;
    let fast_url = url(&server);
    let slow_url = format!("ws://{slow_addr}/ws");
    let (mut slow, _) = Connection::connect(&slow_url, Encoding::Json, Some("slow"))
        .await
        .unwrap();
    let (mut fast, _) = Connection::connect(&fast_url, Encoding::Json, Some("fast"))
        .await
        .unwrap();
    let config = GameConfig::new(RuleSet::Freestyle)
        .with_time(TimeControl::SuddenDeath { main_ms: 600_000 });
    let room = create_room(&mut fast, config, false).await;
    slow.request(ClientMsg::JoinRoom { room }).await.unwrap();
    let snap = snapshot_push(&mut slow).await;
    snapshot_push(&mut fast).await;
    let table: TableId = snap.table.clone();
    // The slow player sits second; let the server measure its lag (it pings
    // at once on connecting) before the game gets going.
    tokio::time::sleep(Duration::from_millis(800)).await;
    let slow_seat = Seat::Second;
    let slow_is_black = snap.snapshot.opener == slow_seat;
    let (slow_stones, fast_stones) = (stones([0, 2, 4]), stones([14, 12, 10]));
    let moves = 16u32;
    let mut charged = Vec::new();
    let mut slow_left = 600_000u64;
    let mut next_move = 1u32;
    let mut si = 0;
    let mut fi = 0;
    while charged.len() < moves as usize {
        let slow_turn = (next_move % 2 == 1) == slow_is_black;
        if slow_turn {
            // The slow player answers at once when the move reaches it.
            let seq_move = next_move;
            let _ = slow
                .send(ClientMsg::Act {
                    table: table.clone(),
                    action: place(&slow_stones[si]),
                })
                .await
                .unwrap();
            si += 1;
            let left = main_ms_after_move(&mut fast, seq_move, slow_seat).await;
            if seq_move > 1 {
                charged.push(slow_left - left);
            }
            slow_left = left;
            // Wait until the slow player has seen its own move.
            main_ms_after_move(&mut slow, seq_move, slow_seat).await;
        } else {
            act(&mut fast, &table, place(&fast_stones[fi])).await;
            fi += 1;
            // The slow side's clock starts now; its answer goes out when the
            // move reaches it (DELAY later) and arrives DELAY after that.
            main_ms_after_move(&mut slow, next_move, slow_seat).await;
        }
        next_move += 1;
    }
    // Without credit every answer would cost at least the 2 x DELAY the
    // link takes; with it the slow player pays less ...
    eprintln!("charged per slow move (ms): {charged:?}");
    let m = charged.len() as u64;
    let total: u64 = charged.iter().sum();
    let floor = 2 * DELAY.as_millis() as u64;
    assert!(total < m * floor, "credited: {charged:?}");
    // ... but never more credit than its quota holds: 500 ms to start with
    // and 100 ms per move (and per move no more than its lag, ~DELAY).
    assert!(
        total + 500 + 100 * m >= m * floor,
        "within the quota: {charged:?}"
    );
    for c in &charged {
        assert!(
            *c + DELAY.as_millis() as u64 + 40 >= floor,
            "per move at most its lag: {charged:?}"
        );
    }
}
