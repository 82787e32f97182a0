//! Post-game analysis through the real server: two guests play a renju
//! game in which black misses a VCF, and a third client asks for its
//! analysis; unknown and running games are `not_found`; more analyses at
//! once than the server's slots get `unavailable` with `retry_after_ms`.

use crate::common;

use std::time::{Duration, Instant};

use common::*;
use tengen_client::{ClientError, Connection};
use tengen_protocol::{ClientMsg, Encoding, ErrorCode, GameAnalysis, ServerMsg, TableId};
use tengen_rules::Color;
use tengen_rules::game::{Action, GameConfig, RuleSet};
use tengen_server::Server;
use tokio_tungstenite::tungstenite::Message;

/// Black's open three h8-h10 at move 7 (white far away on the edge): h7
/// or h11 makes an open four. Black plays b14 instead, white blocks h11,
/// black plays c14, and white resigns.
const MISSED: [&str; 9] = ["H8", "A1", "H9", "A3", "H10", "A5", "B14", "H11", "C14"];

/// Plays `MISSED` at a new table and has white resign: the game's id.
async fn missed_vcf_game(server: &Server) -> TableId {
    let mut t = table(server, GameConfig::free(RuleSet::Renju), Encoding::Json).await;
    let black = t.opener();
    for (i, p) in MISSED.iter().enumerate() {
        let seat = if i % 2 == 0 { black } else { black.other() };
        t.act_as(seat, place(p)).await;
    }
    t.act_as(black.other(), Action::Resign).await;
    t.table
}

async fn analyze(c: &mut Connection, game: &TableId, vct: bool) -> Result<ServerMsg, ClientError> {
    c.request(ClientMsg::AnalyzeGame {
        game: game.clone(),
        vct,
    })
    .await
}

/// Sends `n` requests for the analysis with VCTs, without waiting.
async fn send_analyses(c: &mut Connection, game: &TableId, n: usize) {
    for _ in 0..n {
        let msg = ClientMsg::AnalyzeGame {
            game: game.clone(),
            vct: true,
        };
        c.send(msg).await.unwrap();
    }
}

fn refusal(r: Result<ServerMsg, ClientError>) -> tengen_protocol::ErrorBody {
    match r {
        Err(ClientError::Refused(e)) => e,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// The analysis, once the finished game is in the store (it is written
/// just after the game ends).
async fn analysis_of(c: &mut Connection, game: &TableId, vct: bool) -> GameAnalysis {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match analyze(c, game, vct).await {
            Ok(ServerMsg::GameAnalysis(a)) => return a,
            Err(ClientError::Refused(e))
                if e.code == ErrorCode::NotFound && Instant::now() < deadline =>
            {
                tokio::time::sleep(Duration::from_millis(50)).await
            }
            other => panic!("{other:?}"),
        }
    }
}

#[tokio::test]
async fn a_missed_vcf_is_marked_with_its_line() {
    let server = server().await;
    let game = missed_vcf_game(&server).await;
    let mut carol = client(&server, "carol", Encoding::Json).await;
    let a = analysis_of(&mut carol, &game, false).await;
    assert_eq!(a.game, game);
    assert!(!a.vct);
    assert!(a.undecided.is_empty(), "{a:?}");
    assert_eq!(a.moves.len(), 1, "only move 7 had a forced win: {a:?}");
    let m = &a.moves[0];
    assert_eq!(m.number, 7);
    assert_eq!(m.color, Color::Black);
    assert_eq!(m.played, "b14");
    assert_eq!(m.kept, Some(false));
    assert!(matches!(m.vcf.as_deref(), Some("h7" | "h11")), "{m:?}");
    assert_eq!(m.vct, None);

    // With VCTs too, over MessagePack: the VCF is still what move 7 missed
    // (a VCF is a VCT, and is reported as such), and every other move
    // listed had a VCT it kept or missed.
    let mut dave = client(&server, "dave", Encoding::MsgPack).await;
    let b = analysis_of(&mut dave, &game, true).await;
    assert!(b.vct);
    let seven = b.moves.iter().find(|m| m.number == 7).expect("move 7");
    assert_eq!(seven, m);
    for other in b.moves.iter().filter(|m| m.number != 7) {
        assert!(other.vcf.is_none() && other.vct.is_some(), "{other:?}");
    }
}

#[tokio::test]
async fn unknown_running_and_malformed_games_are_refused() {
    let server = server().await;
    let mut c = client(&server, "carol", Encoding::Json).await;
    let unknown: TableId = "0rgcyfb9b6qv0".parse().unwrap();
    let e = refusal(analyze(&mut c, &unknown, false).await);
    assert_eq!(e.code, ErrorCode::NotFound);

    // A game still running has no record yet.
    let t = table(&server, GameConfig::free(RuleSet::Renju), Encoding::Json).await;
    let e = refusal(analyze(&mut c, &t.table, true).await);
    assert_eq!(e.code, ErrorCode::NotFound);

    // A malformed id is a bad request, and the connection stays.
    let raw = r#"{"type":"analyze_game","game":"not an id!","id":5}"#;
    c.send_raw(Message::Text(raw.into())).await.unwrap();
    let reply = c
        .next_matching(|m| matches!(m, ServerMsg::Error(_)))
        .await
        .unwrap();
    match reply.msg {
        ServerMsg::Error(e) => assert_eq!(e.code, ErrorCode::BadRequest, "{e:?}"),
        _ => unreachable!(),
    }
    assert!(matches!(
        c.request(ClientMsg::Ping).await,
        Ok(ServerMsg::Pong { .. })
    ));
}

#[tokio::test]
async fn analyses_beyond_the_slots_are_unavailable() {
    let retry = Duration::from_millis(750);
    let server = server_with(|s| {
        s.analysis.slots = 1;
        s.analysis.retry_after = retry;
    })
    .await;
    let game = missed_vcf_game(&server).await;
    let mut first = client(&server, "carol", Encoding::Json).await;
    let expected = analysis_of(&mut first, &game, true).await;

    // Three clients send four requests each at once: with one slot, the
    // ones that find it taken are refused at once, the others answered.
    let mut clients = Vec::new();
    for name in ["dave", "erin", "fay"] {
        clients.push(client(&server, name, Encoding::Json).await);
    }
    let (mut answered, mut refused) = (0, 0);
    for _ in 0..10 {
        for c in &mut clients {
            send_analyses(c, &game, 4).await;
        }
        for c in &mut clients {
            for _ in 0..4 {
                let reply = c
                    .next_matching(|m| {
                        matches!(m, ServerMsg::GameAnalysis(_) | ServerMsg::Error(_))
                    })
                    .await
                    .unwrap();
                match reply.msg {
                    ServerMsg::GameAnalysis(a) => {
                        assert_eq!(a, expected);
                        answered += 1;
                    }
                    ServerMsg::Error(e) => {
                        assert_eq!(e.code, ErrorCode::Unavailable, "{e:?}");
                        assert_eq!(e.retry_after_ms, Some(retry.as_millis() as u64));
                        refused += 1;
                    }
                    _ => unreachable!(),
                }
            }
        }
        if refused > 0 {
            break;
        }
    }
    assert!(
        answered > 0 && refused > 0,
        "{answered} answered, {refused} refused"
    );

    // Once the slot is free again, the same request is answered.
    let again = analysis_of(&mut first, &game, true).await;
    assert_eq!(again, expected);
}

#[tokio::test]
async fn a_connection_has_at_most_four_requests_running() {
    let server = server_with(|s| s.analysis.slots = 8).await;
    let game = missed_vcf_game(&server).await;
    let mut c = client(&server, "carol", Encoding::Json).await;
    analysis_of(&mut c, &game, false).await;
    let mut limited = 0;
    for _ in 0..10 {
        send_analyses(&mut c, &game, 12).await;
        for _ in 0..12 {
            let reply = c
                .next_matching(|m| matches!(m, ServerMsg::GameAnalysis(_) | ServerMsg::Error(_)))
                .await
                .unwrap();
            if let ServerMsg::Error(e) = reply.msg {
                assert_eq!(e.code, ErrorCode::RateLimited, "{e:?}");
                limited += 1;
            }
        }
        if limited > 0 {
            break;
        }
    }
    assert!(limited > 0, "twelve at once were all answered");
}
