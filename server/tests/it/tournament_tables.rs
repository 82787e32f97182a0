//! Tournaments played on real tables: every game of a round starts as a
//! table when the round is paired, its players hear `matched` (with the
//! tournament game) and play it over real WebSockets, and its end
//! reports the result to the director, which pairs the next round. A
//! six-player Swiss (a restart, an absence, a withdrawal), an
//! eight-player knockout of best-of-3 matches (a withdrawal mid-match),
//! a game lost by the abort rule, and players on a node that does not
//! direct.
//!
//! The players are scripted clients (`common::tournament_players`): the
//! test chooses each game's winner (or a draw) and the two clients play
//! moves that reach it. Lots come
//! from the tournament's `seed`, and every account starts at the same
//! rating, so seeding is the join order and the pairings are fixed: the
//! expectations below were worked out by hand from them.

use crate::common;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::proc::{self, DataDir};
use common::tournament_players::{Quirks, Script, login, spawn_player};
use tengen_client::Connection;
use tengen_protocol::{
    ClientMsg, Encoding, ServerMsg, TournamentSpec, TournamentState, TournamentSystem,
    TournamentView,
};
use tengen_rules::game::{GameConfig, RuleSet, Seat, TimeControl};

fn config() -> GameConfig {
    GameConfig::free(RuleSet::Gomoku).with_time(TimeControl::Fischer {
        main_ms: 300_000,
        increment_ms: 5_000,
    })
}

fn spec(name: &str, system: TournamentSystem) -> TournamentSpec {
    TournamentSpec {
        name: name.into(),
        system,
        rounds: None,
        games: None,
        config: config(),
        rated: true,
        start_ms: None,
        entry: Default::default(),
        tie_breaks: None,
        wait_secs: Some(4),
        seed: Some(7),
        duration_secs: None,
        decider_time: None,
    }
}

async fn show(c: &mut Connection, t: &str) -> TournamentView {
    match c
        .request(ClientMsg::Tournament {
            tournament: t.into(),
        })
        .await
    {
        Ok(ServerMsg::TournamentInfo { tournament }) => *tournament,
        other => panic!("{other:?}"),
    }
}

/// Asks for the view until `done` holds (or panics after `secs`).
async fn until(
    c: &mut Connection,
    t: &str,
    secs: u64,
    what: &str,
    done: impl Fn(&TournamentView) -> bool,
) -> TournamentView {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let v = show(c, t).await;
        if done(&v) {
            return v;
        }
        assert!(Instant::now() < deadline, "{what}: {}", v.crosstable);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn create(org: &mut Connection, spec: TournamentSpec) -> String {
    match org
        .request(ClientMsg::CreateTournament { tournament: spec })
        .await
    {
        Ok(ServerMsg::TournamentCreated { tournament }) => tournament.id,
        other => panic!("{other:?}"),
    }
}

async fn join(c: &mut Connection, t: &str) {
    let join = ClientMsg::JoinTournament {
        tournament: t.into(),
    };
    assert!(matches!(
        c.request(join).await,
        Ok(ServerMsg::TournamentJoined { .. })
    ));
}

async fn start(org: &mut Connection, t: &str) {
    let start = ClientMsg::StartTournament {
        tournament: t.into(),
    };
    assert!(matches!(
        org.request(start).await,
        Ok(ServerMsg::TournamentStarted { .. })
    ));
}

/// Each board of each round as `first-second:results`.
fn boards(v: &TournamentView) -> Vec<Vec<String>> {
    v.rounds
        .iter()
        .map(|r| {
            r.boards
                .iter()
                .map(|b| {
                    format!(
                        "{}-{}:{}",
                        b.first,
                        b.second.as_deref().unwrap_or("bye"),
                        b.games.join(" ")
                    )
                })
                .collect()
        })
        .collect()
}

/// Each player's line of the standings: `rank name points tie-breaks`.
fn standings(v: &TournamentView) -> Vec<String> {
    v.standings
        .iter()
        .map(|s| {
            let tbs: Vec<String> = s
                .tie_breaks
                .iter()
                .map(|t| format!("{}={}", t.name, t.value))
                .collect();
            format!("{} {} {} {}", s.rank, s.name, s.points, tbs.join(" "))
        })
        .collect()
}

const SWISS: [&str; 6] = ["ann", "bob", "cid", "dan", "eve", "fay"];

/// The Swiss's games: the earlier entrant wins, except that bob and eve
/// draw.
fn swiss_script() -> Script {
    Arc::new(|a: &str, b: &str, _, _| {
        let seed = |n: &str| SWISS.iter().position(|p| *p == n).unwrap();
        if [a, b] == ["bob", "eve"] || [a, b] == ["eve", "bob"] {
            None
        } else if seed(a) < seed(b) {
            Some(Seat::First)
        } else {
            Some(Seat::Second)
        }
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_six_player_swiss_is_played_on_tables_through_a_restart_an_absence_and_a_withdrawal() {
    let dir = DataDir::new("swiss-tables");
    let server = proc::start(&dir.0);
    let url = server.url();
    let (mut org, _) = login(&url, "olga", true).await;
    let mut s = spec("Table Swiss", TournamentSystem::Swiss);
    s.rounds = Some(3);
    // eve must be back within the wait once round 3 is paired: room for
    // a loaded machine.
    s.wait_secs = Some(8);
    let t = create(&mut org, s).await;
    let mut players = Vec::new();
    let mut tokens = HashMap::new();
    for p in SWISS {
        let (mut c, token) = login(&url, p, true).await;
        join(&mut c, &t).await;
        tokens.insert(p, token);
        // ann stops after two stones in round 1: the server is killed
        // in the middle of her game.
        let quirks = Quirks {
            hold_after: (p == "ann").then_some(2),
            ..Quirks::default()
        };
        players.push(spawn_player(c, swiss_script(), quirks));
    }
    start(&mut org, &t).await;
    let v = until(&mut org, &t, 30, "round 1's other games", |v| {
        v.rounds[0].boards.iter().filter(|b| b.over).count() == 2
    })
    .await;
    let ann = v.rounds[0]
        .boards
        .iter()
        .find(|b| !b.over)
        .expect("ann's board");
    assert!(ann.first == "ann" || ann.second.as_deref() == Some("ann"));
    let ann_table = ann.table.clone().expect("ann's game is at a table");

    // SIGKILL in the middle of ann's game.
    server.kill();
    drop(players);
    drop(org);
    let server = proc::start(&dir.0);
    let url = server.url();
    let (mut org, _) = login(&url, "olga", false).await;
    let before = show(&mut org, &t).await;
    assert_eq!(before.rounds.len(), 1, "nothing paired twice");
    assert_eq!(before.rounds[0].boards.iter().filter(|b| b.over).count(), 2);
    // fay withdraws now: her round-1 result stays, she is paired no more.
    let (mut fay, _) = login(&url, "fay", false).await;
    let w = ClientMsg::WithdrawTournament {
        tournament: t.clone(),
    };
    assert!(matches!(
        fay.request(w).await,
        Ok(ServerMsg::TournamentWithdrawn { .. })
    ));
    // ann and her opponent come back to their table (their sessions
    // resumed); eve stays away until round 3.
    let mut players = Vec::new();
    for p in SWISS {
        if p == "eve" || p == "fay" {
            continue;
        }
        let (c, w) = Connection::connect_resuming(&url, Encoding::Json, Some(p), Some(&tokens[p]))
            .await
            .expect("connects");
        let (c, watch) = if w.resumed {
            assert_eq!(
                w.tables,
                std::slice::from_ref(&ann_table),
                "{p} sits at ann's table"
            );
            (c, w.tables)
        } else {
            drop(c);
            (login(&url, p, false).await.0, Vec::new())
        };
        let quirks = Quirks {
            watch,
            ..Quirks::default()
        };
        players.push(spawn_player(c, swiss_script(), quirks));
    }
    let v = until(&mut org, &t, 40, "round 2 played", |v| {
        v.rounds.len() == 3 || (v.rounds.len() == 2 && v.rounds[1].boards.iter().all(|b| b.over))
    })
    .await;
    // eve was away for round 2: she lost it by absence.
    let eve2 = v.rounds[1]
        .boards
        .iter()
        .find(|b| b.first == "eve" || b.second.as_deref() == Some("eve"))
        .expect("eve paired in round 2");
    let lost = if eve2.first == "eve" { "-+" } else { "+-" };
    assert_eq!(eve2.games, [lost], "eve forfeits round 2");
    let (c, _) = login(&url, "eve", false).await;
    players.push(spawn_player(c, swiss_script(), Quirks::default()));

    let v = until(&mut org, &t, 40, "the Swiss finished", |v| {
        v.summary.state == TournamentState::Finished
    })
    .await;
    assert!(v.players.iter().any(|p| p.name == "fay" && p.withdrawn));
    // The pairings, worked out by hand. Round 1: the top half meets the
    // bottom half (1-4, 2-5, 3-6); the top seed's seat by the seed's lot
    // (ann second), alternating down the boards. Round 2 (fay withdrawn,
    // five players): the bye to the lowest score (dan, 0); ann and cid
    // (1) cannot both meet their equals, since bob and eve (½) met in
    // round 1, so each meets one of them; ann opens, as her seat
    // alternates. Round 3: the bye to the lowest score that has missed
    // no round (bob ½; eve forfeited round 2); ann-cid (2) and eve-dan;
    // cid and eve open (they answered in their only game over the board,
    // ann and dan opened last).
    let want_boards = [
        vec!["dan-ann:0-1", "bob-eve:½-½", "fay-cid:0-1"],
        vec!["ann-bob:1-0", "cid-eve:+-", "dan-bye:"],
        vec!["cid-ann:0-1", "eve-dan:0-1", "bob-bye:"],
    ];
    assert_eq!(boards(&v), want_boards, "{}", v.crosstable);
    // Scores: ann 3; cid 1 + 1 (eve absent) + 0 = 2; dan 0 + 1 (bye) + 1
    // = 2; bob ½ + 0 + 1 (bye) = 1½; eve ½ + 0 + 0 = ½; fay 0.
    // Adjusted scores (an unplayed round counts ½): ann 3, cid 1½, dan
    // 1½, bob 1, eve 1, fay 1.
    // Buchholz (adjusted scores of the opponents; one's own unplayed
    // round counts one's own score): ann 1½+1+1½ = 4; cid 1+2+3 = 6;
    // dan 3+2+1 = 6; bob 1+3+1½ = 5½; eve 1+½+1½ = 3; fay 1½+0+0 = 1½.
    // Sonneborn-Berger (opponents beaten, half those drawn, over the
    // board): ann 1½+1+1½ = 4; cid 1 (fay); dan 1 (eve); bob ½ and eve
    // ½ (their draw); fay 0. Wins over the board: ann 3, cid 1, dan 1.
    // cid and dan are tied on everything: they share second place.
    let want_standings = [
        "1 ann 3 Buch=4 SB=4 Wins=3",
        "2 cid 2 Buch=6 SB=1 Wins=1",
        "2 dan 2 Buch=6 SB=1 Wins=1",
        "4 bob 1½ Buch=5.5 SB=0.5 Wins=0",
        "5 eve ½ Buch=3 SB=0.5 Wins=0",
        "6 fay 0 Buch=1.5 SB=0 Wins=0",
    ];
    assert_eq!(standings(&v), want_standings);
    let (status, _, _) = server.terminate();
    assert!(status.success());
}

const KO: [&str; 8] = ["kp1", "kp2", "kp3", "kp4", "kp5", "kp6", "kp7", "kp8"];

fn ko_seed(n: &str) -> usize {
    KO.iter().position(|p| *p == n).unwrap()
}

/// The knockout's games: the better seed wins, except game 1 of each
/// first-round match, which the worse seed wins (so a third game
/// decides).
fn ko_script() -> Script {
    Arc::new(|a: &str, b: &str, round, game| {
        let a_better = ko_seed(a) < ko_seed(b);
        let better_wins = !(round == 1 && game == 0);
        match a_better == better_wins {
            true => Some(Seat::First),
            false => Some(Seat::Second),
        }
    })
}

/// A board's games from the better seed's side, and the better seed.
fn from_better(b: &tengen_protocol::BoardView) -> (String, Vec<String>) {
    let second = b.second.clone().unwrap();
    if ko_seed(&b.first) < ko_seed(&second) {
        return (b.first.clone(), b.games.clone());
    }
    let flip = |g: &String| {
        match g.as_str() {
            "1-0" => "0-1",
            "0-1" => "1-0",
            "+-" => "-+",
            "-+" => "+-",
            other => other,
        }
        .to_owned()
    };
    (second, b.games.iter().map(flip).collect())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_eight_player_knockout_of_best_of_three_matches_is_played_on_tables_with_a_withdrawal() {
    let server = common::server().await;
    let url = common::url(&server);
    let (mut org, _) = login(&url, "kora", true).await;
    let mut s = spec("Table Knockout", TournamentSystem::Knockout);
    s.games = Some(3);
    let t = create(&mut org, s).await;
    let mut players = Vec::new();
    for p in KO {
        let (mut c, _) = login(&url, p, true).await;
        join(&mut c, &t).await;
        // kp2 withdraws when the second game of its semi-final starts.
        let quirks = Quirks {
            withdraw_at: (p == "kp2").then_some((2, 1)),
            ..Quirks::default()
        };
        players.push(spawn_player(c, ko_script(), quirks));
    }
    start(&mut org, &t).await;
    let v = until(&mut org, &t, 50, "the knockout finished", |v| {
        v.summary.state == TournamentState::Finished
    })
    .await;
    assert_eq!(v.rounds.len(), 3);
    let rounds: Vec<Vec<(String, Vec<String>)>> = v
        .rounds
        .iter()
        .map(|r| r.boards.iter().map(from_better).collect())
        .collect();
    let m = |p: &str, g: &[&str]| (p.to_owned(), g.iter().map(|s| s.to_string()).collect());
    // The standard bracket (1-8, 4-5, 2-7, 3-6); every first-round match
    // goes to a third game (the worse seed wins game 1, the better the
    // next two); in the semi-finals kp1 beats kp4 2-0, and kp2, having
    // won game 1 against kp3, withdraws: the rest of the match is
    // forfeited to kp3 (one mark for it), the game played kept. The
    // final: kp1 beats kp3 2-0.
    assert_eq!(
        rounds,
        [
            vec![
                m("kp1", &["0-1", "1-0", "1-0"]),
                m("kp4", &["0-1", "1-0", "1-0"]),
                m("kp2", &["0-1", "1-0", "1-0"]),
                m("kp3", &["0-1", "1-0", "1-0"]),
            ],
            vec![m("kp1", &["1-0", "1-0"]), m("kp2", &["1-0", "-+"])],
            vec![m("kp1", &["1-0", "1-0"])],
        ],
        "{}",
        v.crosstable
    );
    let opponents: Vec<Vec<[usize; 2]>> = v
        .rounds
        .iter()
        .map(|r| {
            r.boards
                .iter()
                .map(|b| {
                    let mut p = [ko_seed(&b.first), ko_seed(b.second.as_deref().unwrap())];
                    p.sort();
                    p
                })
                .collect()
        })
        .collect();
    assert_eq!(
        opponents,
        [
            vec![[0, 7], [3, 4], [1, 6], [2, 5]],
            vec![[0, 3], [1, 2]],
            vec![[0, 2]]
        ]
    );
    assert!(v.players.iter().any(|p| p.name == "kp2" && p.withdrawn));
    assert_eq!(v.standings[0].name, "kp1");
    // Rated games: the champion's rating went up.
    let profile = common::profile(&mut org, "kp1").await;
    assert!(
        profile.ratings.iter().any(|r| r.rating > 1500.0),
        "{profile:?}"
    );
}

/// Two nodes on one Redis: node-a directs the tournaments; two players
/// connected to node-b join through it (their requests sent to node-a)
/// and play a double round robin on tables node-a runs, their games
/// seated through node-b's connections.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_another_node_play_a_tournament_directed_elsewhere() {
    let redis = tengen_store::testing::RedisServer::start();
    let dirs = [DataDir::new("tt-a"), DataDir::new("tt-b")];
    let a = proc::start_node(&dirs[0].0, &redis.url(), "tt", "node-a", "2");
    let (mut org, _) = login(&a.url(), "nora", true).await;
    let mut s = spec("Two Nodes", TournamentSystem::DoubleRoundRobin);
    s.seed = Some(5);
    let t = loop {
        let msg = ClientMsg::CreateTournament {
            tournament: s.clone(),
        };
        match org.request(msg).await {
            Ok(ServerMsg::TournamentCreated { tournament }) => break tournament.id,
            // node-a takes the lease on its first tick.
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
            other => panic!("{other:?}"),
        }
    };
    let b = proc::start_node(&dirs[1].0, &redis.url(), "tt", "node-b", "2");
    let mut players = Vec::new();
    for p in ["nia", "nod"] {
        let (mut c, _) = login(&b.url(), p, true).await;
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let join = ClientMsg::JoinTournament {
                tournament: t.clone(),
            };
            match c.request(join).await {
                Ok(ServerMsg::TournamentJoined { .. }) => break,
                // node-b learns who directs on its first tick.
                Err(_) if Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(200)).await
                }
                other => panic!("{other:?}"),
            }
        }
        // nia wins every game.
        let script: Script = Arc::new(|a: &str, _: &str, _, _| match a {
            "nia" => Some(Seat::First),
            _ => Some(Seat::Second),
        });
        players.push(spawn_player(c, script, Quirks::default()));
    }
    start(&mut org, &t).await;
    let v = until(&mut org, &t, 40, "the two-node event finished", |v| {
        v.summary.state == TournamentState::Finished
    })
    .await;
    let played: Vec<String> = boards(&v).concat();
    assert_eq!(played.len(), 2, "{played:?}");
    assert!(
        played
            .iter()
            .all(|b| b == "nia-nod:1-0" || b == "nod-nia:0-1"),
        "{played:?}"
    );
    assert_eq!(v.standings[0].name, "nia");
    assert_eq!(v.standings[0].points, "2");
    a.kill();
    b.kill();
}

/// A player seated but never moving: the table aborts the game when the
/// first move does not come, and the abort rule scores it as that
/// player's loss by forfeit (not a game played).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_never_moves_loses_the_game_by_the_abort_rule() {
    let server = common::server_with(|s| s.first_move_timeout = Duration::from_secs(1)).await;
    let url = common::url(&server);
    let (mut org, _) = login(&url, "abby", true).await;
    let s = spec("Abort Rule", TournamentSystem::RoundRobin);
    let t = create(&mut org, s).await;
    let mut players = Vec::new();
    for p in ["idle", "keen"] {
        let (mut c, _) = login(&url, p, true).await;
        join(&mut c, &t).await;
        let quirks = Quirks {
            hold_after: (p == "idle").then_some(0),
            ..Quirks::default()
        };
        // keen would win anyway; idle never plays a stone.
        let script: Script = Arc::new(|a: &str, _: &str, _, _| match a {
            "keen" => Some(Seat::First),
            _ => Some(Seat::Second),
        });
        players.push(spawn_player(c, script, quirks));
    }
    start(&mut org, &t).await;
    let v = until(&mut org, &t, 30, "the aborted game scored", |v| {
        v.summary.state == TournamentState::Finished
    })
    .await;
    let b = &v.rounds[0].boards[0];
    let idle_lost = if b.first == "idle" { "-+" } else { "+-" };
    assert_eq!(b.games, [idle_lost], "{b:?}");
    assert_eq!(v.standings[0].name, "keen");
    assert_eq!(
        v.standings[0].tie_breaks.last().unwrap().value,
        "0",
        "no win over the board"
    );
}
