//! A Swiss that reaches a round no legal pairing exists for, through the
//! real server: six players, four rounds, every game drawn (reported by
//! the organiser). The view warns of it from the entries on; after round
//! 3 the round cannot be paired, and the organiser and every player get a
//! `tournament_stalled` push; the view says so. The organiser pairs round
//! 4 by hand (a player left out is refused) and the event finishes (its
//! TRF export writes round 4's forfeit with the scheduled colours); a twin
//! event is ended instead, its standings final after three rounds. A
//! Swiss with more rounds than its field can play does not start.

use crate::common;

use tengen_client::{ClientError, Connection};
use tengen_protocol::{
    ClientMsg, ErrorCode, ReportedResult, ServerMsg, TournamentSpec, TournamentState,
    TournamentSystem, TournamentView,
};
use tengen_rules::game::{GameConfig, RuleSet};

const PLAYERS: [&str; 6] = ["sa1", "sa2", "sa3", "sa4", "sa5", "sa6"];

fn spec(rounds: u32) -> TournamentSpec {
    TournamentSpec {
        name: "Short Swiss".into(),
        system: TournamentSystem::Swiss,
        rounds: Some(rounds),
        games: None,
        config: GameConfig::new(RuleSet::Gomoku),
        rated: false,
        start_ms: None,
        entry: Default::default(),
        tie_breaks: None,
        wait_secs: None,
        seed: Some(7),
        decider_time: None,
        duration_secs: None,
    }
}

/// A request that waits out the rate limit: the organiser's burst of
/// reports is faster than the per-connection message rate allows.
async fn ask(c: &mut Connection, msg: ClientMsg) -> Result<ServerMsg, ClientError> {
    common::schema::assert_client_valid(&msg);
    loop {
        match c.request(msg.clone()).await {
            Err(ClientError::Refused(b)) if b.code == ErrorCode::RateLimited => {
                let wait = b.retry_after_ms.unwrap_or(50).max(5);
                tokio::time::sleep(std::time::Duration::from_millis(wait)).await;
            }
            other => return other,
        }
    }
}

async fn show(c: &mut Connection, t: &str) -> TournamentView {
    match ask(
        c,
        ClientMsg::Tournament {
            tournament: t.into(),
        },
    )
    .await
    {
        Ok(ServerMsg::TournamentInfo { tournament }) => *tournament,
        other => panic!("{other:?}"),
    }
}

fn refused(r: Result<ServerMsg, ClientError>) -> ErrorCode {
    match r {
        Err(ClientError::Refused(body)) => body.code,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

async fn create(org: &mut Connection, rounds: u32) -> String {
    match ask(
        org,
        ClientMsg::CreateTournament {
            tournament: spec(rounds),
        },
    )
    .await
    {
        Ok(ServerMsg::TournamentCreated { tournament }) => tournament.id,
        other => panic!("{other:?}"),
    }
}

async fn join_all(players: &mut [Connection], t: &str) {
    for c in players.iter_mut() {
        let join = ClientMsg::JoinTournament {
            tournament: t.into(),
        };
        assert!(matches!(
            ask(c, join).await,
            Ok(ServerMsg::TournamentJoined { .. })
        ));
    }
}

/// Reports every open board of the last round drawn (its first board as
/// `first_by_forfeit` when `forfeit`).
async fn report_round(org: &mut Connection, t: &str, forfeit: bool) -> u32 {
    let view = show(org, t).await;
    let round = view.rounds.last().unwrap();
    for b in round
        .boards
        .iter()
        .filter(|b| !b.over && b.second.is_some())
    {
        let result = if forfeit && b.board == 1 {
            ReportedResult::FirstByForfeit
        } else {
            ReportedResult::Draw
        };
        let msg = ClientMsg::TournamentResult {
            tournament: t.into(),
            round: round.round,
            board: b.board,
            game: 0,
            result,
        };
        assert!(matches!(
            ask(org, msg).await,
            Ok(ServerMsg::TournamentRecorded { .. })
        ));
    }
    round.round
}

/// Plays rounds 1-3 of event `t`, all drawn; the fourth cannot be paired.
async fn three_rounds(org: &mut Connection, t: &str) {
    let start = ClientMsg::StartTournament {
        tournament: t.into(),
    };
    assert!(matches!(
        ask(org, start).await,
        Ok(ServerMsg::TournamentStarted { .. })
    ));
    for r in 1..=3 {
        assert_eq!(report_round(org, t, false).await, r);
    }
}

async fn stalled_push(c: &mut Connection, t: &str) -> (u32, String) {
    let f = c
        .next_matching(
            |m| matches!(m, ServerMsg::TournamentStalled { tournament, .. } if tournament == t),
        )
        .await
        .expect("a tournament_stalled push");
    match f.msg {
        msg @ ServerMsg::TournamentStalled { .. } => {
            common::schema::assert_valid(&msg);
            let ServerMsg::TournamentStalled { round, reason, .. } = msg else {
                unreachable!()
            };
            (round, reason)
        }
        _ => unreachable!(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unpairable_round_is_told_and_paired_by_hand_or_ended() {
    let server = common::server().await;
    let mut org = common::account(&server, "stallorg").await;
    let mut players = Vec::new();
    for p in PLAYERS {
        players.push(common::account(&server, p).await);
    }

    // Too many rounds for the field: it does not start.
    let long = create(&mut org, 6).await;
    join_all(&mut players, &long).await;
    let view = show(&mut org, &long).await;
    assert!(
        view.warning.as_deref().unwrap().contains("5 is the most"),
        "{view:?}"
    );
    let start = ClientMsg::StartTournament {
        tournament: long.clone(),
    };
    assert_eq!(
        refused(ask(&mut org, start).await),
        ErrorCode::InvalidConfig
    );
    for c in players.iter_mut() {
        let leave = ClientMsg::WithdrawTournament {
            tournament: long.clone(),
        };
        assert!(ask(c, leave).await.is_ok());
    }

    // Four rounds for six: warned of, then stalled after round 3.
    let t = create(&mut org, 4).await;
    join_all(&mut players, &t).await;
    let view = show(&mut org, &t).await;
    assert!(
        view.warning
            .as_deref()
            .unwrap()
            .contains("4 rounds for 6 players"),
        "{view:?}"
    );
    three_rounds(&mut org, &t).await;
    let (round, reason) = stalled_push(&mut org, &t).await;
    assert_eq!(round, 4);
    assert!(reason.contains("no pairing"), "{reason}");
    for c in players.iter_mut() {
        assert_eq!(stalled_push(c, &t).await.0, 4);
    }
    let view = show(&mut org, &t).await;
    assert_eq!(view.summary.state, TournamentState::Running);
    assert_eq!(view.rounds.len(), 3);
    assert!(
        view.stalled
            .as_deref()
            .unwrap()
            .starts_with("round 4 cannot be paired")
    );

    // Only the organiser pairs by hand, and every player once.
    let pair = |boards: &[[&str; 2]]| ClientMsg::PairTournament {
        tournament: t.clone(),
        round: 4,
        boards: boards.iter().map(|b| b.map(String::from)).collect(),
        bye: None,
    };
    let all = [["sa1", "sa2"], ["sa3", "sa4"], ["sa5", "sa6"]];
    assert_eq!(
        refused(ask(&mut players[0], pair(&all)).await),
        ErrorCode::NotOrganiser
    );
    assert_eq!(
        refused(ask(&mut org, pair(&all[..2])).await),
        ErrorCode::InvalidConfig
    );
    let paired = ask(&mut org, pair(&all)).await.expect("paired by hand");
    assert!(matches!(
        paired,
        ServerMsg::TournamentPaired { round: 4, .. }
    ));
    common::schema::assert_valid(&paired);
    let view = show(&mut org, &t).await;
    assert!(view.stalled.is_none());
    let boards: Vec<[String; 2]> = view.rounds[3]
        .boards
        .iter()
        .map(|b| [b.first.clone(), b.second.clone().unwrap()])
        .collect();
    assert_eq!(boards, all.map(|b| b.map(String::from)));
    report_round(&mut org, &t, true).await;
    let view = show(&mut org, &t).await;
    assert_eq!(view.summary.state, TournamentState::Finished);

    // Round 4, board 1 was forfeited by its second seat: in the TRF the
    // scheduled colours with + and -.
    let first = view.rounds[3].boards[0].clone();
    let trf = match ask(
        &mut org,
        ClientMsg::TournamentExport {
            tournament: t.clone(),
        },
    )
    .await
    {
        Ok(ServerMsg::TournamentExported { trf, .. }) => trf,
        other => panic!("{other:?}"),
    };
    let line_of = |name: &str| {
        trf.lines()
            .find(|l| l.starts_with("001") && l[14..47].trim_end() == name)
            .unwrap()
            .to_owned()
    };
    let cell = |line: &str| line[121..129].to_owned();
    let (winner, loser) = (
        line_of(&first.first),
        line_of(first.second.as_deref().unwrap()),
    );
    assert!(cell(&winner).ends_with("w +"), "{winner}");
    assert!(cell(&loser).ends_with("b -"), "{loser}");

    // The twin event is ended instead: standings final after three rounds.
    let twin = create(&mut org, 4).await;
    join_all(&mut players, &twin).await;
    three_rounds(&mut org, &twin).await;
    assert_eq!(stalled_push(&mut org, &twin).await.0, 4);
    let end = ClientMsg::EndTournament {
        tournament: twin.clone(),
    };
    assert_eq!(
        refused(ask(&mut players[1], end.clone()).await),
        ErrorCode::NotOrganiser
    );
    let ended = ask(&mut org, end.clone()).await.expect("ended");
    assert!(matches!(ended, ServerMsg::TournamentEnded { .. }));
    common::schema::assert_valid(&ended);
    let view = show(&mut org, &twin).await;
    assert_eq!(view.summary.state, TournamentState::Finished);
    assert_eq!(view.summary.rounds, 3);
    assert!(view.stalled.is_none() && view.warning.is_none());
    assert_eq!(view.standings.len(), 6);
    assert!(
        view.standings.iter().all(|s| s.points == "1½"),
        "{:?}",
        view.standings
    );
}
