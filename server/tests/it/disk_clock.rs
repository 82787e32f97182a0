//! The disk's time is nobody's: a player who replies the moment the
//! opponent's move reaches it is charged the time it took to reply, not
//! the time the server spent storing moves (its own, or the opponent's).
//!
//! Everything is real: the server binary on a data directory on a real
//! filesystem (under the target directory, not a tmpfs, so that every
//! commit is an fsync), and two outside WebSocket clients over loopback
//! that answer each `moved` event at once. Each client measures its own
//! reply (from reading the opponent's move to having sent its own) and
//! reads what it was charged from the clocks in the events.
//!
//! Without `TCP_NODELAY` on the server's sockets, every other move of such
//! a game was charged 40 ms: the opponent's move waited in the kernel
//! behind the mover's `acted` until the client's delayed ACK.

use std::time::{Duration, Instant};

use tengen_client::Connection;
use tengen_protocol::{ClientMsg, ServerMsg, TableId};
use tengen_rules::game::{Action, Event, GameConfig, RuleSet, Seat, TimeControl};

use crate::common::long_game::point;
use crate::common::proc::{DataDir, start};
use crate::common::scripted::new_game_with;

/// Plies in the game.
const PLIES: usize = 80;

/// What a reply may be charged beyond the time it took.
const MARGIN_MS: u64 = 5;

/// One reply: how long the client took, and what its clock lost for it.
#[derive(Debug)]
struct Reply {
    seat: Seat,
    ply: usize,
    took: Duration,
    charged_ms: u64,
    /// From reading the opponent's move to reading its own.
    round: Duration,
}

/// Plays `seat`'s side: its first move at once if it opens, then a reply
/// the moment each of the opponent's moves arrives, until `PLIES` moves.
async fn play(mut c: Connection, table: TableId, seat: Seat, opener: Seat) -> Vec<Reply> {
    let act = |n: usize| ClientMsg::Act {
        table: table.clone(),
        action: Action::place(point(n).parse().unwrap()),
    };
    if seat == opener {
        c.send(act(0)).await.unwrap();
    }
    let mut seen = 0;
    let mut replies = Vec::new();
    // The reply in flight: when the opponent's move was read, when the
    // answer was sent, and this seat's clock as that move showed it.
    let mut pending: Option<(Instant, Instant, u64)> = None;
    while seen < PLIES {
        let frame = c.next().await.unwrap();
        let read = Instant::now();
        let ServerMsg::TableEvent(e) = frame.msg else {
            continue;
        };
        let Event::Moved { mv, clocks } = e.event else {
            continue;
        };
        let clock = clocks.expect("a timed game").seat(seat).main_ms;
        seen += 1;
        if mv.seat != seat {
            if seen < PLIES {
                c.send(act(seen)).await.unwrap();
                pending = Some((read, Instant::now(), clock));
            }
        } else if let Some((got, sent, before)) = pending.take() {
            replies.push(Reply {
                seat,
                ply: seen,
                took: sent - got,
                charged_ms: before - clock,
                round: read - got,
            });
        }
    }
    replies
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_replying_at_once_is_charged_only_its_reply() {
    let dir = DataDir::in_dir(
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")),
        "disk-clock",
    );
    let server = start(&dir.0);
    let config =
        GameConfig::free(RuleSet::Gomoku).with_time(TimeControl::SuddenDeath { main_ms: 300_000 });
    let g = new_game_with(&server.url(), 0, config).await;
    let [a, b] = g.conn;
    let first = tokio::spawn(play(a, g.table.clone(), Seat::First, g.opener));
    let second = tokio::spawn(play(b, g.table.clone(), Seat::Second, g.opener));
    let mut replies = first.await.unwrap();
    replies.extend(second.await.unwrap());
    replies.sort_by_key(|r| r.ply);
    for r in &replies {
        eprintln!(
            "ply {:2} ({:?}): replied in {:>8.3} ms, charged {:3} ms, round trip {:>8.3} ms",
            r.ply,
            r.seat,
            r.took.as_secs_f64() * 1e3,
            r.charged_ms,
            r.round.as_secs_f64() * 1e3
        );
    }
    assert_eq!(replies.len(), PLIES - 1);
    // What the server may charge beyond the reply is the way there and
    // back: the writer's turn to write the event, loopback, the client's
    // turn to read it. A few ms on a quiet machine; a busy one delays a
    // few moves more. What must not be charged (the disk's syncs, a frame
    // held back by the kernel) is charged on most of a player's moves: so
    // each player's replies are judged together.
    for seat in Seat::BOTH {
        let mine: Vec<_> = replies.iter().filter(|r| r.seat == seat).collect();
        let over: Vec<_> = mine
            .iter()
            .filter(|r| r.charged_ms > r.took.as_millis() as u64 + MARGIN_MS)
            .collect();
        assert!(
            over.len() * 2 < mine.len(),
            "{} of {seat:?}'s {} replies were charged more than {MARGIN_MS} ms over what they took: {over:?}",
            over.len(),
            mine.len()
        );
    }
}
