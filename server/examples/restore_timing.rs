//! How long a start takes to restore many live games (BENCHMARKS.md).
//!
//! Fills a fresh data directory with `N` live renju games (default 5,000)
//! of `M` moves each (default 60, random legal moves with a Fischer clock,
//! every move through the real referee), closes the store, then starts the
//! server on it and reports how long `Server::start` took: opening the
//! store, reading every log, replaying every game through the referee and
//! starting its table actor.
//!
//! `cargo run --release -p tengen-server --example restore_timing -- 5000 60`

use std::sync::Arc;
use std::time::Instant;

use tengen_protocol::{Player, RoomId, SessionId, TableId};
use tengen_rules::game::{Action, Game, GameConfig, RuleSet, Seat, TimeControl};
use tengen_rules::{Board, Point};
use tengen_server::table::{META_VERSION, SeatMeta, TableMeta};
use tengen_server::{Server, Settings};
use tengen_store::{EmbeddedStore, Store};

/// A small deterministic generator (xorshift), so runs are comparable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn game(rng: &mut Rng, moves: usize) -> Game {
    let config = GameConfig::free(RuleSet::Renju).with_time(TimeControl::Fischer {
        main_ms: 600_000,
        increment_ms: 5_000,
    });
    let mut g = Game::new(config, Seat::First, 0).unwrap();
    let mut at = 0;
    let size = Board::new(15).expect("15 is a board size").size() as u64;
    while g.moves().len() < moves && !g.is_over() {
        let Some(seat) = g.to_act() else { break };
        // Time passes only for moves the referee accepts (a refused point,
        // taken or forbidden, is tried again at once).
        let think = 500 + rng.next() % 3_000;
        let p = Point::new((rng.next() % size) as u8, (rng.next() % size) as u8);
        if g.apply(seat, Action::place(p), at + think).is_ok() {
            at += think;
        }
    }
    g
}

fn meta(i: u64) -> TableMeta {
    let seat = |n: u64, name: &str| SeatMeta {
        session: SessionId::from_u64(n),
        player: Player {
            name: format!("{name}{i}"),
            guest: true,
            bot: false,
        },
        token: format!("{:032x}", n),
    };
    TableMeta {
        version: META_VERSION,
        room: RoomId::from_u64(i + 1),
        room_name: None,
        public: true,
        chat: true,
        rated: false,
        config: GameConfig::free(RuleSet::Renju).with_time(TimeControl::Fischer {
            main_ms: 600_000,
            increment_ms: 5_000,
        }),
        opener: Seat::First,
        seats: [seat(2 * i + 1, "ann"), seat(2 * i + 2, "bob")],
        room_first: Seat::First,
        created_ms: 0,
        tournament: None,
    }
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let tables: u64 = args.next().map_or(5_000, |a| a.parse().expect("tables"));
    let moves: usize = args.next().map_or(60, |a| a.parse().expect("moves"));
    let dir = std::env::temp_dir().join(format!("tengen-restore-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    {
        let store = Arc::new(EmbeddedStore::open(&dir).unwrap());
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let t0 = Instant::now();
        let mut entries_total = 0;
        let mut writes = Vec::new();
        for i in 0..tables {
            let id = TableId::from_u64(1_000_000 + i).to_string();
            let g = game(&mut rng, moves);
            let entries = tengen_server::table::encode_entries(g.entries());
            entries_total += entries.len();
            let meta = serde_json::to_vec(&meta(i)).unwrap();
            let store = store.clone();
            writes.push(tokio::spawn(async move {
                store.create_table(&id, &meta).await.unwrap();
                store.append(&id, 0, &entries).await.unwrap();
            }));
        }
        for w in writes {
            w.await.unwrap();
        }
        println!(
            "filled: {tables} live games, {entries_total} entries, in {:.2?}",
            t0.elapsed()
        );
    }
    let t0 = Instant::now();
    let server = Server::start(Settings {
        listen: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir.clone(),
        ..Settings::default()
    })
    .await
    .expect("the server starts");
    let took = t0.elapsed();
    println!(
        "restored {} live games in {:.3} s (Server::start, store open to listening)",
        server.restored(),
        took.as_secs_f64()
    );
    server.shutdown();
    let _ = server.wait().await;
    let _ = std::fs::remove_dir_all(&dir);
}
