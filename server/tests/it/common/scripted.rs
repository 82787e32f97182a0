//! Scripted games for the durability tests (embedded and Redis): several
//! games played part-way by real clients, resumed with their tokens after
//! a restart, finished, and their records checked in the store.

use std::time::Duration;

use tengen_client::Connection;
use tengen_protocol::{ClientMsg, Encoding, PauseReason, ServerMsg, TableId, TableSnapshot};
use tengen_rules::game::{
    Action, ClockSnapshot, Event, GameConfig, GameRecord, RuleSet, Seat, TimeControl,
};
use tengen_store::Store;

/// Black makes five down the H file; white plays along the bottom edge.
pub const BLACK: [&str; 5] = ["H8", "H9", "H10", "H11", "H12"];
pub const WHITE: [&str; 4] = ["A1", "A2", "A3", "A4"];

pub fn config() -> GameConfig {
    GameConfig::free(RuleSet::Gomoku).with_time(TimeControl::Fischer {
        main_ms: 300_000,
        increment_ms: 5_000,
    })
}

/// The `n`th ply of the script: (black?, point).
pub fn ply(n: usize) -> (bool, &'static str) {
    if n.is_multiple_of(2) {
        (true, BLACK[n / 2])
    } else {
        (false, WHITE[n / 2])
    }
}

pub struct Game {
    pub name: [String; 2],
    pub conn: [Connection; 2],
    pub token: [String; 2],
    pub table: TableId,
    pub opener: Seat,
    pub played: usize,
    /// The `seq` of the last accepted move and the clocks it reported.
    pub seq: u64,
    pub clocks: Option<ClockSnapshot>,
}

impl Game {
    pub fn seat_for(&self, black: bool) -> Seat {
        if black {
            self.opener
        } else {
            self.opener.other()
        }
    }

    /// Plays the script's next ply; returns whether the game ended.
    pub async fn play_next(&mut self) -> bool {
        let (black, point) = ply(self.played);
        let seat = self.seat_for(black);
        let c = &mut self.conn[seat.index()];
        let reply = c
            .request(ClientMsg::Act {
                table: self.table.clone(),
                action: Action::place(point.parse().unwrap()),
            })
            .await;
        let seq = match reply {
            Ok(ServerMsg::Acted { seq, .. }) => seq,
            other => panic!("{point}: {other:?}"),
        };
        let mut over = false;
        loop {
            let f = c
                .next_matching(|m| matches!(m, ServerMsg::TableEvent(_)))
                .await
                .unwrap();
            let ServerMsg::TableEvent(te) = f.msg else {
                unreachable!()
            };
            if let Event::Moved { clocks, .. } = &te.event {
                self.clocks = *clocks;
            }
            over |= matches!(te.event, Event::GameOver { .. });
            if te.seq == seq {
                break;
            }
        }
        self.played += 1;
        self.seq = seq;
        over
    }
}

pub async fn connect(url: &str, name: &str) -> (Connection, String, String) {
    let (c, w) = Connection::connect(url, Encoding::Json, Some(name))
        .await
        .unwrap();
    (c, w.player.name, w.resume_token.expect("a resume token"))
}

pub async fn snapshot_push(c: &mut Connection) -> TableSnapshot {
    match c
        .next_matching(|m| matches!(m, ServerMsg::TableSnapshot(_)))
        .await
        .unwrap()
        .msg
    {
        ServerMsg::TableSnapshot(s) => *s,
        _ => unreachable!(),
    }
}

pub async fn new_game(url: &str, i: usize) -> Game {
    new_game_with(url, i, config()).await
}

/// A new game of `config` between `ann{i}` (first seat) and `bob{i}`.
pub async fn new_game_with(url: &str, i: usize, config: GameConfig) -> Game {
    let (mut a, an, at) = connect(url, &format!("ann{i}")).await;
    let (mut b, bn, bt) = connect(url, &format!("bob{i}")).await;
    let room = match a
        .request(ClientMsg::CreateRoom {
            rated: false,
            config,
            public: true,
            name: Some(format!("game {i}")),
            chat: true,
        })
        .await
        .unwrap()
    {
        ServerMsg::RoomCreated { room, .. } => room,
        other => panic!("{other:?}"),
    };
    b.request(ClientMsg::JoinRoom { room }).await.unwrap();
    let snap = snapshot_push(&mut a).await;
    snapshot_push(&mut b).await;
    Game {
        name: [an, bn],
        conn: [a, b],
        token: [at, bt],
        table: snap.table,
        opener: snap.snapshot.opener,
        played: 0,
        seq: 0,
        clocks: None,
    }
}

/// Plies played in each game before the server goes down.
pub const BEFORE: [usize; 3] = [2, 5, 8];

pub async fn games_part_way(url: &str) -> Vec<Game> {
    let mut games = Vec::new();
    for (i, n) in BEFORE.into_iter().enumerate() {
        let mut g = new_game(url, i).await;
        for _ in 0..n {
            assert!(!g.play_next().await);
        }
        games.push(g);
    }
    games
}

/// After the restart: both players come back with their tokens, find
/// every accepted move and the clocks as they were, and finish the game.
pub async fn resume_and_finish(url: &str, g: &mut Game) {
    let mut back = Vec::new();
    for seat in Seat::BOTH {
        let i = seat.index();
        let (c, w) = Connection::reconnect(
            url,
            Encoding::Json,
            Some(&g.name[i]),
            &g.token[i],
            Duration::from_secs(10),
        )
        .await
        .unwrap();
        assert!(w.resumed, "{}'s session is back", g.name[i]);
        assert_eq!(w.player.name, g.name[i]);
        assert_eq!(w.tables, vec![g.table.clone()]);
        back.push(c);
    }
    let [mut first, mut second]: [Connection; 2] = back.try_into().ok().unwrap();
    // The first seat replays from the start: exactly the accepted moves.
    match first
        .request(ClientMsg::Watch {
            table: g.table.clone(),
            since: Some(0),
        })
        .await
        .unwrap()
    {
        ServerMsg::Replayed { since: 0, seq, .. } => assert_eq!(seq, g.seq),
        other => panic!("{other:?}"),
    }
    let mut moves = Vec::new();
    let mut told_paused = None;
    while let Ok(f) = tokio::time::timeout(Duration::from_millis(50), first.next()).await {
        match f.unwrap().msg {
            ServerMsg::TableEvent(te) => {
                if let Event::Moved { mv, .. } = te.event {
                    moves.push(mv.point.map(|p| p.to_string()).unwrap_or_default());
                }
            }
            ServerMsg::TablePaused { paused, clocks, .. } => told_paused = Some((paused, clocks)),
            _ => {}
        }
    }
    // A replay (no snapshot) still says the clocks stand still, and where.
    assert_eq!(
        told_paused,
        Some((Some(tengen_protocol::PauseReason::Restored), g.clocks)),
        "table_paused after the replay"
    );
    let expected: Vec<String> = (0..g.played).map(|n| ply(n).1.to_string()).collect();
    assert_eq!(moves, expected, "every accepted move, in order");
    // The clocks stand where the last move left them while a player is
    // still away (the restart is not charged to anyone).
    tokio::time::sleep(Duration::from_millis(600)).await;
    let snap = match first
        .request(ClientMsg::Snapshot {
            table: g.table.clone(),
        })
        .await
        .unwrap()
    {
        ServerMsg::TableSnapshot(s) => *s,
        other => panic!("{other:?}"),
    };
    assert_eq!(snap.seq, g.seq);
    assert_eq!(snap.paused, Some(PauseReason::Restored));
    assert_eq!(snap.snapshot.clocks, g.clocks, "clocks as at the last move");
    // The second seat resumes from the last seq it saw: nothing missed.
    match second
        .request(ClientMsg::Watch {
            table: g.table.clone(),
            since: Some(g.seq),
        })
        .await
        .unwrap()
    {
        ServerMsg::Replayed { seq, .. } => assert_eq!(seq, g.seq),
        other => panic!("{other:?}"),
    }
    // Both back: the clocks run again.
    for c in [&mut first, &mut second] {
        let f = c
            .next_matching(|m| matches!(m, ServerMsg::TablePaused { .. }))
            .await
            .unwrap();
        assert!(
            matches!(f.msg, ServerMsg::TablePaused { paused: None, .. }),
            "{:?}",
            f.msg
        );
    }
    g.conn = [first, second];
    while !g.play_next().await {}
    assert_eq!(g.played, 9);
}

/// The finished games are in `store`, with every move, and no live log
/// is left. A table stores its finished game just after it sends
/// `game_over`, so the last finish may land a moment after the players
/// saw the end: the live logs are given a few seconds to go.
pub async fn check_records(store: &dyn Store, games: &[Game]) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        let live = store.live_tables().await.unwrap();
        if live.is_empty() {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "live tables left: {:?}",
            live.iter().map(|t| &t.id).collect::<Vec<_>>()
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    for g in games {
        let stored = store
            .game(g.table.as_str())
            .await
            .unwrap()
            .expect("the finished game is stored");
        let record = GameRecord::from_json(std::str::from_utf8(&stored.record).unwrap()).unwrap();
        let game = record.replay().expect("the record replays");
        assert_eq!(game.moves().len(), 9);
        let result = game.result().expect("a result");
        assert_eq!(
            result.winner(),
            Some(g.opener),
            "black (the opener) made five"
        );
        assert_eq!(record.tags.get("first"), Some(&g.name[0]));
        let mut players = stored.players.clone();
        players.sort();
        let mut names = g.name.to_vec();
        names.sort();
        assert_eq!(players, names);
    }
}

/// The `seq` of every table event `c` gets until a `game_over` (each
/// within 10 s): a spectator's view of the rest of a game.
pub async fn seqs_to_game_over(c: &mut Connection) -> Vec<u64> {
    let mut seqs = Vec::new();
    loop {
        let f = tokio::time::timeout(Duration::from_secs(10), c.next())
            .await
            .expect("the spectator hears the whole game")
            .unwrap();
        if let ServerMsg::TableEvent(te) = f.msg {
            seqs.push(te.seq);
            if matches!(te.event, Event::GameOver { .. }) {
                return seqs;
            }
        }
    }
}

/// A spectator of `table` at `url` from its start, resuming by itself
/// (the client library's `Session`): the `seq` of every table event it
/// gets until a `game_over`, each within 30 s, and its statistics then
/// (how often it reconnected).
pub async fn spectate(
    url: &str,
    table: &TableId,
) -> tokio::task::JoinHandle<(Vec<u64>, tengen_client::session::Stats)> {
    let (mut sam, _) = tengen_client::Session::connect(url, Encoding::Json, Some("sam"))
        .await
        .unwrap();
    sam.request(ClientMsg::Watch {
        table: table.clone(),
        since: Some(0),
    })
    .await
    .expect("the spectator watches");
    tokio::spawn(async move {
        let mut seqs = Vec::new();
        loop {
            match tokio::time::timeout(Duration::from_secs(30), sam.next()).await {
                Ok(Ok(tengen_client::Delivery::Frame(f))) => {
                    if let ServerMsg::TableEvent(te) = f.msg {
                        seqs.push(te.seq);
                        if matches!(te.event, Event::GameOver { .. }) {
                            return (seqs, sam.stats());
                        }
                    }
                }
                Ok(Ok(_)) => {}
                other => panic!("the spectator: {other:?} after {seqs:?}"),
            }
        }
    })
}

/// The player of `g` who plays black (or white) comes back at `url` with
/// its resume token and watches since the last move (`replayed`): its
/// connection there.
pub async fn rejoin(g: &Game, black: bool, url: &str) -> Connection {
    let k = g.seat_for(black).index();
    let (mut c, w) = Connection::reconnect(
        url,
        Encoding::Json,
        Some(&g.name[k]),
        &g.token[k],
        Duration::from_secs(10),
    )
    .await
    .unwrap();
    assert!(w.resumed, "{}'s session comes back at {url}", g.name[k]);
    assert_eq!(w.tables, vec![g.table.clone()]);
    match c
        .request(ClientMsg::Watch {
            table: g.table.clone(),
            since: Some(g.seq),
        })
        .await
    {
        Ok(ServerMsg::Replayed { seq, .. }) => assert_eq!(seq, g.seq),
        other => panic!("the player's watch at {url}: {other:?}"),
    }
    c
}

/// [`rejoin`], and the player plays through that node from now on.
pub async fn move_player(g: &mut Game, black: bool, url: &str) {
    let c = rejoin(g, black, url).await;
    g.conn[g.seat_for(black).index()] = c;
}

/// Plays `g` to its end: `spectator` ([`spectate`]) saw every event once,
/// in order, and was sent off to resume at least once meanwhile.
pub async fn finish_resynced(
    g: &mut Game,
    spectator: tokio::task::JoinHandle<(Vec<u64>, tengen_client::session::Stats)>,
) {
    while !g.play_next().await {}
    let (seqs, stats) = spectator.await.unwrap();
    assert_eq!(
        seqs,
        (1..=g.seq).collect::<Vec<_>>(),
        "every event once, in order"
    );
    assert!(
        stats.reconnects >= 1,
        "the spectator was sent off to resume: {stats:?}"
    );
}
