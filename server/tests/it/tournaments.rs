//! Tournaments over real WebSockets against the real binary, their
//! results recorded by the organiser as an arbiter (`tournament_result`;
//! the games on real tables are `tournament_tables.rs`): a six-player
//! Swiss run to the end by its organiser's result reports, with the
//! server killed (SIGKILL) and started again in the middle of round 1 and
//! a player withdrawing in the last round; the final scores and Buchholz
//! values are checked against values worked out from the games played.
//! And on two nodes sharing Redis: a request on the node that does not
//! direct is answered by the one that does, and the director moves to
//! the node that survives, with every event. And an eight-player knockout of best-of-3
//! matches, paired by the standard bracket, played to its champion.

use crate::common;

use std::collections::HashMap;

use common::proc::{self, DataDir};
use tengen_client::{ClientError, Connection};
use tengen_protocol::{
    ClientMsg, Encoding, ErrorCode, ReportedResult, ServerMsg, TournamentSpec, TournamentState,
    TournamentSystem, TournamentView,
};
use tengen_rules::game::{GameConfig, RuleSet};
use tengen_store::testing::RedisServer;

const PLAYERS: [&str; 6] = ["ann", "bob", "cid", "dan", "eve", "fay"];

async fn connect(url: &str, name: &str) -> Connection {
    let (c, _) = Connection::connect(url, Encoding::Json, Some(&format!("{name}-g")))
        .await
        .expect("connects");
    c
}

/// Registers (`new`) or logs in as `name`.
async fn account(url: &str, name: &str, new: bool) -> Connection {
    let mut c = connect(url, name).await;
    let (name, password) = (name.to_owned(), "long enough".to_owned());
    let msg = match new {
        true => ClientMsg::Register { name, password },
        false => ClientMsg::Login { name, password },
    };
    match c.request(msg).await {
        Ok(ServerMsg::Registered(_) | ServerMsg::LoggedIn(_)) => c,
        other => panic!("{other:?}"),
    }
}

fn refused(r: Result<ServerMsg, ClientError>) -> ErrorCode {
    match r {
        Err(ClientError::Refused(body)) => body.code,
        other => panic!("expected a refusal, got {other:?}"),
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

fn spec() -> TournamentSpec {
    TournamentSpec {
        name: "Spring Swiss".into(),
        system: TournamentSystem::Swiss,
        rounds: Some(3),
        games: None,
        config: GameConfig::new(RuleSet::Gomoku),
        rated: false,
        start_ms: None,
        entry: Default::default(),
        tie_breaks: None,
        wait_secs: None,
        seed: None,
        duration_secs: None,
        decider_time: None,
    }
}

/// The scripted result of a game between `a` (first seat) and `b`: the
/// earlier entrant wins, except that bob and eve draw.
fn scripted(a: &str, b: &str) -> ReportedResult {
    let seed = |n: &str| PLAYERS.iter().position(|p| *p == n).unwrap();
    if [a, b] == ["bob", "eve"] || [a, b] == ["eve", "bob"] {
        ReportedResult::Draw
    } else if seed(a) < seed(b) {
        ReportedResult::First
    } else {
        ReportedResult::Second
    }
}

/// Reports every unfinished board of `round` (except `skip`'s).
async fn report_round(org: &mut Connection, t: &str, round: u32, skip: &[u32]) {
    let view = show(org, t).await;
    let r = &view.rounds[round as usize - 1];
    for b in &r.boards {
        if b.over || skip.contains(&b.board) {
            continue;
        }
        let second = b.second.as_deref().unwrap();
        let result = scripted(&b.first, second);
        let msg = ClientMsg::TournamentResult {
            tournament: t.into(),
            round,
            board: b.board,
            game: 0,
            result,
        };
        assert!(matches!(
            org.request(msg).await,
            Ok(ServerMsg::TournamentRecorded { .. })
        ));
    }
}

/// Scores and Buchholz in half points, worked out from the boards as the
/// tie-break rules say: an opponent counts with their score in which each
/// unplayed round of theirs is a draw; one's own unplayed round counts as
/// an opponent with one's own score.
fn expected(view: &TournamentView) -> HashMap<String, (u32, u32)> {
    // Per player, per round: (opponent if played over the board, halves).
    let mut games: HashMap<String, Vec<(Option<String>, u32)>> = HashMap::new();
    for r in &view.rounds {
        for b in &r.boards {
            let second = b.second.clone().unwrap();
            let (f, s, played) = match b.games[0].as_str() {
                "1-0" => (2, 0, true),
                "0-1" => (0, 2, true),
                "½-½" => (1, 1, true),
                "+-" => (2, 0, false),
                "-+" => (0, 2, false),
                other => panic!("unexpected result {other}"),
            };
            let opp = |o: &String| played.then(|| o.clone());
            games
                .entry(b.first.clone())
                .or_default()
                .push((opp(&second), f));
            games
                .entry(second.clone())
                .or_default()
                .push((opp(&b.first), s));
        }
    }
    let score = |p: &str| games[p].iter().map(|g| g.1).sum::<u32>();
    let adjusted = |p: &str| {
        games[p]
            .iter()
            .map(|(o, h)| if o.is_some() { *h } else { 1 })
            .sum::<u32>()
    };
    games
        .keys()
        .map(|p| {
            let buch = games[p]
                .iter()
                .map(|(o, _)| o.as_deref().map_or(score(p), adjusted))
                .sum();
            (p.clone(), (score(p), buch))
        })
        .collect()
}

fn halves(h: u32) -> (String, String) {
    let points = match (h / 2, h % 2) {
        (w, 0) => w.to_string(),
        (0, _) => "½".to_string(),
        (w, _) => format!("{w}½"),
    };
    let decimal = match h % 2 {
        0 => (h / 2).to_string(),
        _ => format!("{}.5", h / 2),
    };
    (points, decimal)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_six_player_swiss_survives_a_restart_and_a_withdrawal() {
    let dir = DataDir::new("swiss");
    let server = proc::start(&dir.0);
    let url = server.url();
    let mut guest = connect(&url, "visitor").await;
    let create = ClientMsg::CreateTournament { tournament: spec() };
    assert_eq!(
        refused(guest.request(create.clone()).await),
        ErrorCode::LoginRequired
    );
    let mut org = account(&url, "olga", true).await;
    let t = match org.request(create).await {
        Ok(ServerMsg::TournamentCreated { tournament }) => {
            assert_eq!(tournament.state, TournamentState::Open);
            tournament.id
        }
        other => panic!("{other:?}"),
    };
    let mut players = Vec::new();
    for p in PLAYERS {
        let mut c = account(&url, p, true).await;
        let join = ClientMsg::JoinTournament {
            tournament: t.clone(),
        };
        assert!(matches!(
            c.request(join.clone()).await,
            Ok(ServerMsg::TournamentJoined { .. })
        ));
        assert_eq!(refused(c.request(join).await), ErrorCode::AlreadyJoined);
        players.push(c);
    }
    let start = ClientMsg::StartTournament {
        tournament: t.clone(),
    };
    assert_eq!(
        refused(players[0].request(start.clone()).await),
        ErrorCode::NotOrganiser
    );
    assert!(matches!(
        org.request(start).await,
        Ok(ServerMsg::TournamentStarted { .. })
    ));
    let mut late = account(&url, "gus", true).await;
    let join = ClientMsg::JoinTournament {
        tournament: t.clone(),
    };
    assert_eq!(
        refused(late.request(join).await),
        ErrorCode::TournamentClosed
    );

    // Round 1, as the Dutch system pairs six equal seeds: the top half
    // meets the bottom half in order.
    let view = show(&mut org, &t).await;
    assert_eq!(view.summary.state, TournamentState::Running);
    assert_eq!(view.summary.rounds, 3);
    let mut pairs: Vec<[String; 2]> = view.rounds[0]
        .boards
        .iter()
        .map(|b| {
            let mut p = [b.first.clone(), b.second.clone().unwrap()];
            p.sort();
            p
        })
        .collect();
    pairs.sort();
    let want = [["ann", "dan"], ["bob", "eve"], ["cid", "fay"]];
    assert_eq!(pairs, want.map(|p| p.map(String::from)));
    let ann_board = view.rounds[0]
        .boards
        .iter()
        .find(|b| b.first == "ann" || b.second.as_deref() == Some("ann"))
        .unwrap()
        .board;
    let others: Vec<u32> = (1..=3).filter(|b| *b != ann_board).collect();
    report_round(&mut org, &t, 1, &others).await;

    // SIGKILL in the middle of round 1: the result recorded stays, the
    // others are still to come, and nothing is paired twice.
    server.kill();
    drop(players);
    let server = proc::start(&dir.0);
    let url = server.url();
    let mut org = account(&url, "olga", false).await;
    let before = show(&mut org, &t).await;
    assert_eq!(before.rounds.len(), 1);
    let done: Vec<bool> = before.rounds[0].boards.iter().map(|b| b.over).collect();
    assert_eq!(done.iter().filter(|d| **d).count(), 1);
    assert!(before.rounds[0].boards[ann_board as usize - 1].over);
    let mut watcher = account(&url, "wes", true).await;
    assert!(matches!(
        watcher
            .request(ClientMsg::WatchTournament {
                tournament: t.clone()
            })
            .await,
        Ok(ServerMsg::TournamentInfo { .. })
    ));
    report_round(&mut org, &t, 1, &[]).await;
    // The watcher hears of the change.
    let pushed = watcher
        .next_matching(|m| matches!(m, ServerMsg::TournamentUpdate { .. }))
        .await
        .unwrap();
    assert!(matches!(pushed.msg, ServerMsg::TournamentUpdate { .. }));
    // A result reported again counts once: still two rounds paired.
    let again = &show(&mut org, &t).await.rounds[0].boards[0];
    let msg = ClientMsg::TournamentResult {
        tournament: t.clone(),
        round: 1,
        board: 1,
        game: 0,
        result: scripted(&again.first, again.second.as_deref().unwrap()),
    };
    assert!(matches!(
        org.request(msg).await,
        Ok(ServerMsg::TournamentRecorded { .. })
    ));
    assert_eq!(show(&mut org, &t).await.rounds.len(), 2);

    report_round(&mut org, &t, 2, &[]).await;
    // Round 3: fay withdraws after the pairing; her game is forfeited.
    let mut fay = account(&url, "fay", false).await;
    assert!(matches!(
        fay.request(ClientMsg::WithdrawTournament {
            tournament: t.clone()
        })
        .await,
        Ok(ServerMsg::TournamentWithdrawn { .. })
    ));
    assert_eq!(
        refused(
            fay.request(ClientMsg::WithdrawTournament {
                tournament: t.clone()
            })
            .await
        ),
        ErrorCode::NotJoined
    );
    report_round(&mut org, &t, 3, &[]).await;

    let view = show(&mut org, &t).await;
    assert_eq!(view.summary.state, TournamentState::Finished);
    assert!(view.players.iter().any(|p| p.name == "fay" && p.withdrawn));
    let fay_board = view.rounds[2]
        .boards
        .iter()
        .find(|b| b.first == "fay" || b.second.as_deref() == Some("fay"))
        .unwrap();
    let fay_lost = if fay_board.first == "fay" { "-+" } else { "+-" };
    assert_eq!(fay_board.games, [fay_lost]);
    // Every two players met at most once.
    let mut met = std::collections::HashSet::new();
    for r in &view.rounds {
        for b in &r.boards {
            let mut p = [b.first.clone(), b.second.clone().unwrap()];
            p.sort();
            assert!(met.insert(p.clone()), "{p:?} met twice");
        }
    }
    // ann beat everyone; fay lost everything.
    assert_eq!(view.standings[0].name, "ann");
    assert_eq!(view.standings[0].points, "3");
    assert_eq!(view.standings.last().unwrap().name, "fay");
    let want = expected(&view);
    for s in &view.standings {
        let (score, buch) = want[&s.name];
        assert_eq!(s.points, halves(score).0, "{}'s points", s.name);
        assert_eq!(s.tie_breaks[0].name, "Buch");
        assert_eq!(
            s.tie_breaks[0].value,
            halves(buch).1,
            "{}'s Buchholz",
            s.name
        );
    }
    for w in view.standings.windows(2) {
        let (a, b) = (want[&w[0].name], want[&w[1].name]);
        assert!(a >= b, "standings order: {w:?}");
    }
    match org
        .request(ClientMsg::TournamentExport {
            tournament: t.clone(),
        })
        .await
    {
        Ok(ServerMsg::TournamentExported {
            crosstable, trf, ..
        }) => {
            assert!(crosstable.contains("ann"));
            assert!(trf.contains("012 Spring Swiss"));
            assert_eq!(trf.lines().filter(|l| l.starts_with("001")).count(), 6);
        }
        other => panic!("{other:?}"),
    }
    let (status, _, _) = server.terminate();
    assert!(status.success());
}

/// Asks until the answer is not `unavailable` (the director is moving).
async fn patiently(c: &mut Connection, msg: ClientMsg) -> Result<ServerMsg, ClientError> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        match c.request(msg.clone()).await {
            Err(ClientError::Refused(b))
                if b.code == ErrorCode::Unavailable && std::time::Instant::now() < deadline =>
            {
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
            }
            other => return other,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_director_moves_to_the_node_that_survives() {
    let redis = RedisServer::start();
    let dirs = [DataDir::new("td-a"), DataDir::new("td-b")];
    let a = proc::start_node(&dirs[0].0, &redis.url(), "td", "node-a", "2");
    let mut org = account(&a.url(), "olga", true).await;
    let create = ClientMsg::CreateTournament { tournament: spec() };
    let t = match patiently(&mut org, create).await {
        Ok(ServerMsg::TournamentCreated { tournament }) => tournament.id,
        other => panic!("{other:?}"),
    };
    let b = proc::start_node(&dirs[1].0, &redis.url(), "td", "node-b", "2");
    let mut ann = account(&b.url(), "ann", true).await;
    let join = ClientMsg::JoinTournament {
        tournament: t.clone(),
    };
    // node-a directs: node-b sends the request there (once it has
    // learnt who directs: until then it answers `unavailable`).
    assert!(matches!(
        patiently(&mut ann, join.clone()).await,
        Ok(ServerMsg::TournamentJoined { .. })
    ));
    a.kill();
    // node-b directs now, with the event as node-a stored it. (ann's
    // connection, which spoke to node-a, is closed with 1012 once node-b
    // sees node-a gone: she comes back.)
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        match ann.request(join.clone()).await {
            Err(ClientError::Refused(b)) if b.code == ErrorCode::AlreadyJoined => break,
            Err(ClientError::Refused(b)) if b.code == ErrorCode::Unavailable => {}
            Err(ClientError::Refused(b)) => panic!("{b:?}"),
            Ok(other) => panic!("{other:?}"),
            Err(_) => ann = account(&b.url(), "ann", false).await,
        }
        assert!(
            std::time::Instant::now() < deadline,
            "node-b never directed"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    let view = show(&mut ann, &t).await;
    assert_eq!(view.summary.organiser, "olga");
    assert_eq!(view.players.len(), 1);
    b.kill();
}

#[tokio::test]
async fn an_eight_player_knockout_of_best_of_three_matches_is_played_to_the_end() {
    let names = ["kp1", "kp2", "kp3", "kp4", "kp5", "kp6", "kp7", "kp8"];
    let seed = |n: &str| names.iter().position(|p| *p == n).unwrap();
    let server = common::server().await;
    let mut org = common::account(&server, "kora").await;
    let mut ko = spec();
    ko.system = TournamentSystem::Knockout;
    ko.rounds = None;
    ko.games = Some(3);
    let t = match org
        .request(ClientMsg::CreateTournament { tournament: ko })
        .await
    {
        Ok(ServerMsg::TournamentCreated { tournament }) => tournament.id,
        other => panic!("{other:?}"),
    };
    for n in names {
        let mut c = common::account(&server, n).await;
        let join = ClientMsg::JoinTournament {
            tournament: t.clone(),
        };
        assert!(matches!(
            c.request(join).await,
            Ok(ServerMsg::TournamentJoined { .. })
        ));
    }
    let start = ClientMsg::StartTournament {
        tournament: t.clone(),
    };
    assert!(matches!(
        org.request(start).await,
        Ok(ServerMsg::TournamentStarted { .. })
    ));
    // The standard bracket: the best seeds meet as late as possible.
    let view = show(&mut org, &t).await;
    let mut pairs: Vec<[usize; 2]> = view.rounds[0]
        .boards
        .iter()
        .map(|b| {
            let mut p = [seed(&b.first), seed(b.second.as_deref().unwrap())];
            p.sort();
            p
        })
        .collect();
    pairs.sort();
    assert_eq!(pairs, [[0, 7], [1, 6], [2, 5], [3, 4]]);
    // Each game: the better seed wins, whoever opens.
    for _ in 0..64 {
        let view = show(&mut org, &t).await;
        if view.summary.state == TournamentState::Finished {
            break;
        }
        let round = view.rounds.last().unwrap();
        for b in round.boards.iter().filter(|b| !b.over) {
            let g = b.games.len();
            let second = b.second.clone().unwrap();
            let (opener, other) = match g % 2 {
                0 => (b.first.as_str(), second.as_str()),
                _ => (second.as_str(), b.first.as_str()),
            };
            let result = match seed(opener) < seed(other) {
                true => ReportedResult::First,
                false => ReportedResult::Second,
            };
            let msg = ClientMsg::TournamentResult {
                tournament: t.clone(),
                round: round.round,
                board: b.board,
                game: g as u32,
                result,
            };
            assert!(matches!(
                org.request(msg).await,
                Ok(ServerMsg::TournamentRecorded { .. })
            ));
        }
    }
    let view = show(&mut org, &t).await;
    assert_eq!(view.summary.state, TournamentState::Finished);
    assert_eq!(view.rounds.len(), 3);
    // Every match was won 2-0 by the better seed: two games each, the
    // winner's results "1-0" from their side.
    for r in &view.rounds {
        for b in &r.boards {
            assert_eq!(b.games.len(), 2, "{b:?}");
            let first_better = seed(&b.first) < seed(b.second.as_deref().unwrap());
            let want = if first_better { "1-0" } else { "0-1" };
            assert!(b.games.iter().all(|g| g == want), "{b:?}");
        }
    }
    let last = &view.rounds[2].boards[0];
    let mut final_pair = [seed(&last.first), seed(last.second.as_deref().unwrap())];
    final_pair.sort();
    assert_eq!(final_pair, [0, 1], "the final: kp1 v kp2");
    assert_eq!(view.standings[0].name, "kp1");
}
