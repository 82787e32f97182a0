//! A running game's record, asked with `game_record`: its table answers
//! (the store has nothing yet) with the record so far in each format, as
//! the stored one will read but without a result; for its players and
//! spectators only. Once over, the stored record is the same game with
//! its result.

use crate::common;

use std::time::Duration;

use common::*;
use tengen_client::{ClientError, Connection};
use tengen_protocol::{
    ClientMsg, Encoding, ErrorCode, RecordExport, RecordFormat, ServerMsg, TableId,
};
use tengen_rules::game::{Action, GameConfig, RuleSet};

async fn record(
    c: &mut Connection,
    game: &TableId,
    format: RecordFormat,
) -> Result<RecordExport, ClientError> {
    let ask = ClientMsg::GameRecord {
        game: game.clone(),
        format,
    };
    c.request(ask).await.map(|m| match m {
        ServerMsg::GameRecord(r) => r,
        other => panic!("{other:?}"),
    })
}

#[tokio::test]
async fn a_running_games_record_comes_from_its_table_without_a_result() {
    let server = server().await;
    let mut t = table(&server, GameConfig::free(RuleSet::Renju), Encoding::Json).await;
    let black = t.opener();
    t.act_as(black, place("H8")).await;
    t.act_as(black.other(), place("I9")).await;
    t.act_as(black, place("J10")).await;
    let game = t.table.clone();

    // Someone neither playing nor watching is refused; a spectator is not.
    let mut passer = client(&server, "passer", Encoding::Json).await;
    match record(&mut passer, &game, RecordFormat::Renju).await {
        Err(ClientError::Refused(e)) => assert_eq!(e.code, ErrorCode::WrongTable),
        other => panic!("{other:?}"),
    }
    watch_snapshot(&mut passer, &game).await;
    let text = record(&mut passer, &game, RecordFormat::Renju)
        .await
        .unwrap()
        .text
        .unwrap();
    for want in [
        "[Game \"renju\"]",
        "[Forbidden \"claim\"]",
        "[Date \"",
        "[Black \"",
        "[White \"",
    ] {
        assert!(text.contains(want), "{want} in {text}");
    }
    assert!(!text.contains("[Result"), "no result while it runs: {text}");
    assert!(text.trim_end().ends_with("1. h8 2. i9 3. j10"), "{text}");

    let psq = record(t.conn(black), &game, RecordFormat::Psq)
        .await
        .unwrap()
        .text
        .unwrap();
    assert_eq!(
        psq.lines()
            .skip(1)
            .filter(|l| l.split(',').count() == 3)
            .count(),
        3,
        "{psq}"
    );
    let json = record(t.conn(black), &game, RecordFormat::Json)
        .await
        .unwrap()
        .record
        .unwrap();
    assert!(json.result.is_none());
    assert_eq!(json.tags["table"], game.to_string());
    assert!(json.tags.contains_key("black") && json.tags.contains_key("started_unix_ms"));
    assert_eq!(json.renju_notation(), "h8 i9 j10");

    // Over: the stored record, the same game with its result.
    t.act_as(black.other(), Action::Resign).await;
    let done = loop {
        let r = record(&mut passer, &game, RecordFormat::Renju)
            .await
            .unwrap();
        let text = r.text.unwrap();
        if text.contains("[Result") {
            break text;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(done.contains("[Result \"black wins\"]"), "{done}");
    assert!(done.trim_end().ends_with("1. h8 2. i9 3. j10"), "{done}");
}
