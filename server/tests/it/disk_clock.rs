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
//!
//! And on a slow disk: the real journal's every sync made 40 ms longer
//! (the store's test-only [`SLOW_SYNC_ENV`]), no reply may be charged more
//! than a few ms beyond what it took, not one.

use std::time::{Duration, Instant};

use tengen_client::Connection;
use tengen_protocol::{ClientMsg, ServerMsg, TableId};
use tengen_rules::game::{Action, Event, GameConfig, RuleSet, Seat, TimeControl};

use crate::common::long_game::point;
use tengen_store::embedded::SLOW_SYNC_ENV;

use crate::common::proc::{DataDir, Proc, start, start_env};
use crate::common::scripted::new_game_with;

/// Plies in the game on the disk as it is.
const PLIES: usize = 80;

/// Plies in the game on the slowed disk (each takes a sync or more).
const SLOW_PLIES: usize = 40;

/// What the slowed disk adds to every sync of the journal.
const SLOW_SYNC_MS: &str = "40";

/// What a reply on the slowed disk may be charged beyond the time it took:
/// half a sync. A sync charged (the mover's, or one queued ahead of it)
/// is over it on every move it touches; a busy machine's scheduling
/// (2 cores shared with builds: up to 6 ms seen) is not.
const SLOW_MARGIN_MS: u64 = 20;

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
/// the moment each of the opponent's moves arrives, until `plies` moves.
async fn play(
    mut c: Connection,
    table: TableId,
    seat: Seat,
    opener: Seat,
    plies: usize,
) -> Vec<Reply> {
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
    while seen < plies {
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
            if seen < plies {
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

/// Plays a sudden-death game of `plies` plies on `server` with two
/// clients replying at once: every reply, in the order of the plies
/// (printed).
async fn replies_at_once(server: &Proc, plies: usize) -> Vec<Reply> {
    let config =
        GameConfig::free(RuleSet::Gomoku).with_time(TimeControl::SuddenDeath { main_ms: 300_000 });
    let g = new_game_with(&server.url(), 0, config).await;
    let [a, b] = g.conn;
    let first = tokio::spawn(play(a, g.table.clone(), Seat::First, g.opener, plies));
    let second = tokio::spawn(play(b, g.table.clone(), Seat::Second, g.opener, plies));
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
    assert_eq!(replies.len(), plies - 1);
    replies
}

/// Whether `r` was charged more than `margin_ms` beyond what it took.
fn overcharged(r: &Reply, margin_ms: u64) -> bool {
    r.charged_ms > r.took.as_millis() as u64 + margin_ms
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_replying_at_once_is_charged_only_its_reply() {
    let dir = DataDir::in_dir(
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")),
        "disk-clock",
    );
    let server = start(&dir.0);
    let replies = replies_at_once(&server, PLIES).await;
    // What the server may charge beyond the reply is the way there and
    // back: the writer's turn to write the event, loopback, the client's
    // turn to read it. A few ms on a quiet machine; a busy one delays a
    // few moves more. What must not be charged (the disk's syncs, a frame
    // held back by the kernel) is charged on most of a player's moves: so
    // each player's replies are judged together.
    for seat in Seat::BOTH {
        let mine: Vec<_> = replies.iter().filter(|r| r.seat == seat).collect();
        let over: Vec<_> = mine.iter().filter(|r| overcharged(r, MARGIN_MS)).collect();
        assert!(
            over.len() * 2 < mine.len(),
            "{} of {seat:?}'s {} replies were charged more than {MARGIN_MS} ms over what they took: {over:?}",
            over.len(),
            mine.len()
        );
    }
}

/// The disk's time is nobody's on every move: with each journal sync 40 ms
/// longer (far longer than any reply here), not one reply may be charged
/// a sync, the mover's or one queued ahead of it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_slow_disk_no_reply_is_charged_a_sync() {
    let dir = DataDir::in_dir(
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")),
        "slow-disk-clock",
    );
    let server = start_env(&dir.0, &[(SLOW_SYNC_ENV, SLOW_SYNC_MS)]);
    let replies = replies_at_once(&server, SLOW_PLIES).await;
    // The disk is slowed indeed: every move took a sync to come back.
    let fastest = replies.iter().map(|r| r.round).min().unwrap();
    assert!(
        fastest >= Duration::from_millis(40),
        "a move came back without waiting for a slowed sync ({fastest:?})"
    );
    let over: Vec<_> = replies
        .iter()
        .filter(|r| overcharged(r, SLOW_MARGIN_MS))
        .collect();
    assert!(
        over.is_empty(),
        "{} of {} replies were charged more than {SLOW_MARGIN_MS} ms over what they took: {over:?}",
        over.len(),
        replies.len()
    );
}
