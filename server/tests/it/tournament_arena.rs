//! An arena run by the server: four scripted players (real clients over
//! WebSockets, `common::tournament_players`) in a short arena. Every game
//! is a real rated table; a finished player is paired again at once with
//! a free player close in score; a player who withdraws is paired no
//! more (the game they were seated at is forfeited); a player who is
//! gone loses the game they were paired for by absence and is paused
//! (paired no more until they come back); no game is paired
//! after the arena's time, and once the last one is over the arena is
//! finished with standings by score, then fewer games, then more wins.
//!
//! Which games are played depends on when each one ends, so the test
//! does not fix the pairings: it fixes every result (the earlier
//! entrant always wins) and checks each board against it, then checks
//! the standings against the points those results give.

use crate::common;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::proc::{self, DataDir};
use common::tournament_players::{Quirks, Script, login, spawn_player};
use tengen_client::Connection;
use tengen_protocol::{
    ClientMsg, ServerMsg, TournamentSpec, TournamentState, TournamentSystem, TournamentView,
};
use tengen_rules::game::{GameConfig, RuleSet, Seat, TimeControl};

const PLAYERS: [&str; 5] = ["ann", "bob", "cid", "dan", "eve"];
/// The arena's length: room for several rounds of re-pairing.
const ARENA_SECS: u32 = 12;

fn spec() -> TournamentSpec {
    TournamentSpec {
        name: "Test Arena".into(),
        system: TournamentSystem::Arena,
        rounds: None,
        games: None,
        config: GameConfig::free(RuleSet::Gomoku).with_time(TimeControl::Fischer {
            main_ms: 300_000,
            increment_ms: 5_000,
        }),
        rated: true,
        start_ms: None,
        entry: Default::default(),
        tie_breaks: None,
        wait_secs: Some(4),
        seed: Some(3),
        duration_secs: Some(ARENA_SECS),
        decider_time: None,
    }
}

fn seed(n: &str) -> usize {
    PLAYERS.iter().position(|p| *p == n).expect("a player")
}

/// The earlier entrant wins every game.
fn script() -> Script {
    Arc::new(|a: &str, b: &str, _, _| {
        if seed(a) < seed(b) {
            Some(Seat::First)
        } else {
            Some(Seat::Second)
        }
    })
}

async fn ask(c: &mut Connection, msg: ClientMsg) -> ServerMsg {
    c.request(msg).await.expect("an answer")
}

async fn show(c: &mut Connection, t: &str) -> TournamentView {
    let tournament = t.to_owned();
    match ask(c, ClientMsg::Tournament { tournament }).await {
        ServerMsg::TournamentInfo { tournament } => *tournament,
        other => panic!("{other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_repairs_finished_players_until_its_time_is_up() {
    let server = common::server().await;
    let url = common::url(&server);
    let (mut org, _) = login(&url, "oona", true).await;

    // Bad arenas are refused with a typed error and create nothing.
    for bad in [None, Some(5), Some(13 * 3600)] {
        let mut s = spec();
        s.duration_secs = bad;
        let r = org
            .request(ClientMsg::CreateTournament { tournament: s })
            .await;
        assert!(r.is_err(), "{bad:?}: {r:?}");
    }
    let mut s = spec();
    s.system = TournamentSystem::Swiss;
    s.rounds = Some(3);
    let r = org
        .request(ClientMsg::CreateTournament { tournament: s })
        .await;
    assert!(r.is_err(), "duration_secs on a swiss: {r:?}");
    match ask(&mut org, ClientMsg::Tournaments).await {
        ServerMsg::TournamentList { tournaments } => assert!(tournaments.is_empty()),
        other => panic!("{other:?}"),
    }

    let t = match ask(&mut org, ClientMsg::CreateTournament { tournament: spec() }).await {
        ServerMsg::TournamentCreated { tournament } => tournament.id,
        other => panic!("{other:?}"),
    };
    let mut players = Vec::new();
    for p in PLAYERS {
        let (mut c, _) = login(&url, p, true).await;
        let join = ClientMsg::JoinTournament {
            tournament: t.clone(),
        };
        assert!(matches!(
            ask(&mut c, join).await,
            ServerMsg::TournamentJoined { .. }
        ));
        if p == "eve" {
            // eve leaves once entered: her first game waits for her, she
            // loses it by forfeit and is paused (never paired again, as
            // she never comes back).
            drop(c);
            continue;
        }
        // dan withdraws when seated at his third game.
        let quirks = Quirks {
            withdraw_at_match: (p == "dan").then_some(2),
            ..Quirks::default()
        };
        players.push(spawn_player(c, script(), quirks));
    }
    let started = Instant::now();
    let start = ClientMsg::StartTournament {
        tournament: t.clone(),
    };
    assert!(matches!(
        ask(&mut org, start).await,
        ServerMsg::TournamentStarted { .. }
    ));
    // At the start everyone free is paired: two games, eve (last by
    // score and entry) waits.
    let v = show(&mut org, &t).await;
    assert_eq!(v.summary.state, TournamentState::Running);
    assert_eq!(v.rounds[0].boards.len(), 2, "{:?}", v.rounds);

    let v = loop {
        let v = show(&mut org, &t).await;
        if v.summary.state == TournamentState::Finished {
            break v;
        }
        assert!(
            started.elapsed() < Duration::from_secs(u64::from(ARENA_SECS) + 20),
            "the arena does not end: {}",
            v.crosstable
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let boards = &v.rounds[0].boards;

    // Every game has the result the script chose; dan's last is his
    // withdrawal, a forfeit, and he is paired no more after it.
    let mut points: HashMap<&str, u32> = HashMap::new();
    let mut games: HashMap<&str, u32> = HashMap::new();
    let mut wins: HashMap<&str, u32> = HashMap::new();
    let mut dan_games = 0;
    let mut eve_games = 0;
    for b in boards {
        let (first, second) = (b.first.as_str(), b.second.as_deref().expect("no byes"));
        assert!(b.over, "{b:?}");
        let dans = first == "dan" || second == "dan";
        if dans {
            dan_games += 1;
            assert!(dan_games <= 3, "dan paired after withdrawing: {b:?}");
        }
        // dan's third game is forfeited by his withdrawal, eve's by her
        // absence.
        let eves = first == "eve" || second == "eve";
        if eves {
            eve_games += 1;
        }
        let forfeit = (dans && dan_games == 3) || eves;
        let winner = if seed(first) < seed(second) {
            first
        } else {
            second
        };
        let expected = match (winner == first, forfeit) {
            (true, false) => "1-0",
            (false, false) => "0-1",
            (true, true) => "+-",
            (false, true) => "-+",
        };
        assert_eq!(b.games, [expected], "{b:?}");
        *points.entry(winner).or_default() += 1;
        *wins.entry(winner).or_default() += 1;
        *games.entry(first).or_default() += 1;
        *games.entry(second).or_default() += 1;
    }
    assert_eq!(dan_games, 3, "dan's two games and the forfeited third");
    assert_eq!(eve_games, 1, "eve paused after her forfeit");
    assert!(
        boards.len() >= 6,
        "several rounds of re-pairing: {}",
        v.crosstable
    );

    // The standings: points, then fewer games, then more wins.
    let mut expected: Vec<&str> = PLAYERS.to_vec();
    let key = |p: &&str| {
        (
            std::cmp::Reverse(points.get(p).copied().unwrap_or(0)),
            games.get(p).copied().unwrap_or(0),
            std::cmp::Reverse(wins.get(p).copied().unwrap_or(0)),
        )
    };
    expected.sort_by_key(|p| (key(p), seed(p)));
    let got: Vec<(String, String, String, String)> = v
        .standings
        .iter()
        .map(|s| {
            (
                s.name.clone(),
                s.points.clone(),
                s.tie_breaks[0].value.clone(),
                s.tie_breaks[1].value.clone(),
            )
        })
        .collect();
    let want: Vec<(String, String, String, String)> = expected
        .iter()
        .map(|p| {
            (
                p.to_string(),
                points.get(p).copied().unwrap_or(0).to_string(),
                games.get(p).copied().unwrap_or(0).to_string(),
                wins.get(p).copied().unwrap_or(0).to_string(),
            )
        })
        .collect();
    assert_eq!(got, want, "{}", v.crosstable);
    assert_eq!(v.standings[0].name, "ann", "ann wins every game");
    assert!(v.players.iter().any(|p| p.name == "dan" && p.withdrawn));
    // The ends: no game starts after the arena's time (every board is
    // over and the arena finished within a game's length of it).
    assert!(started.elapsed() >= Duration::from_secs(u64::from(ARENA_SECS)));
    drop(players);
}

/// Whether every game of `v` is over with the result the script chose.
fn all_as_scripted(v: &TournamentView) {
    for b in &v.rounds[0].boards {
        let (first, second) = (b.first.as_str(), b.second.as_deref().expect("no byes"));
        let want = if seed(first) < seed(second) {
            "1-0"
        } else {
            "0-1"
        };
        assert_eq!(b.games, [want], "{b:?}");
    }
}

async fn until_finished(c: &mut Connection, t: &str, secs: u64) -> TournamentView {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let v = show(c, t).await;
        if v.summary.state == TournamentState::Finished {
            return v;
        }
        assert!(Instant::now() < deadline, "not finished: {}", v.crosstable);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Two players: after each game they are each other's last opponent, so
/// they wait (five seconds) for anyone else before their rematch. The
/// server is killed during such a wait; after the restart the arena
/// goes on from its stored state (the first game kept, not played
/// again), pairs them again and finishes on time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_goes_on_after_a_restart() {
    let dir = DataDir::new("arena-restart");
    let server = proc::start(&dir.0);
    let url = server.url();
    let (mut org, _) = login(&url, "olaf", true).await;
    let mut s = spec();
    s.name = "Restart Arena".into();
    s.duration_secs = Some(18);
    // Room for a slow restart before the players are back.
    s.wait_secs = Some(60);
    let t = match ask(&mut org, ClientMsg::CreateTournament { tournament: s }).await {
        ServerMsg::TournamentCreated { tournament } => tournament.id,
        other => panic!("{other:?}"),
    };
    let mut players = Vec::new();
    for p in ["ann", "bob"] {
        let (mut c, _) = login(&url, p, true).await;
        let join = ClientMsg::JoinTournament {
            tournament: t.clone(),
        };
        assert!(matches!(
            ask(&mut c, join).await,
            ServerMsg::TournamentJoined { .. }
        ));
        players.push(spawn_player(c, script(), Quirks::default()));
    }
    let start = ClientMsg::StartTournament {
        tournament: t.clone(),
    };
    assert!(matches!(
        ask(&mut org, start).await,
        ServerMsg::TournamentStarted { .. }
    ));
    let deadline = Instant::now() + Duration::from_secs(20);
    let first = loop {
        let v = show(&mut org, &t).await;
        if v.rounds[0].boards.first().is_some_and(|b| b.over) {
            break v;
        }
        assert!(Instant::now() < deadline, "{}", v.crosstable);
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(first.rounds[0].boards.len(), 1, "no rematch at once");

    server.kill();
    drop(players);
    drop(org);
    let server = proc::start(&dir.0);
    let url = server.url();
    let (mut org, _) = login(&url, "olaf", false).await;
    let mut players = Vec::new();
    for p in ["ann", "bob"] {
        let (c, _) = login(&url, p, false).await;
        players.push(spawn_player(c, script(), Quirks::default()));
    }
    let v = until_finished(&mut org, &t, 40).await;
    assert_eq!(
        v.rounds[0].boards[0], first.rounds[0].boards[0],
        "the first game kept as it was"
    );
    assert!(
        v.rounds[0].boards.len() >= 2,
        "paired again after the restart: {}",
        v.crosstable
    );
    all_as_scripted(&v);
    let n = v.rounds[0].boards.len().to_string();
    let lines: Vec<(&str, &str, &str)> = v
        .standings
        .iter()
        .map(|s| {
            (
                s.name.as_str(),
                s.points.as_str(),
                s.tie_breaks[0].value.as_str(),
            )
        })
        .collect();
    assert_eq!(
        lines,
        [("ann", n.as_str(), n.as_str()), ("bob", "0", n.as_str())]
    );
    drop(players);
}
