//! The forbidden points `block` and `lose` rooms send with each event and
//! snapshot (`protocol/README.md`, `table_event`), through a real server;
//! `claim` rooms never send them. The web client draws them
//! (`web/tests/forbidden.test.mjs`).

use crate::common;

use std::time::Duration;

use tengen_protocol::{ClientMsg, Encoding, ServerMsg, TableEvent};
use tengen_rules::Forbidden;
use tengen_rules::game::{ForbiddenHandling, ForbiddenPoint, GameConfig, RuleSet};

/// Black H8 I8 J9 J10, white far away: black's J8 would make two threes.
const DOUBLE_THREE: [&str; 8] = ["H8", "A1", "I8", "A3", "J9", "A5", "J10", "A7"];

/// Plays `DOUBLE_THREE` in a renju room with `handling`; returns the table
/// and the last event the opener received.
async fn to_double_three(
    server: &tengen_server::Server,
    handling: ForbiddenHandling,
) -> (common::Table, TableEvent) {
    let mut config = GameConfig::free(RuleSet::Renju);
    config.forbidden = Some(handling);
    let mut t = common::table(server, config, Encoding::Json).await;
    let black = t.opener();
    for (i, p) in DOUBLE_THREE.iter().enumerate() {
        let seat = if i % 2 == 0 { black } else { black.other() };
        t.act_as(seat, common::place(p)).await;
    }
    let mut last = None;
    let conn = t.conn(black);
    while last.as_ref().is_none_or(|e: &TableEvent| e.seq < 8) {
        if let ServerMsg::TableEvent(e) = conn.next().await.expect("events").msg {
            last = Some(e);
        }
    }
    (t, last.expect("event 8"))
}

#[tokio::test]
async fn block_and_lose_rooms_send_black_s_forbidden_points_claim_rooms_never() {
    let server = common::server_with(|s| s.store_timeout = Duration::from_secs(30)).await;
    let j8 = ForbiddenPoint {
        point: "J8".parse().unwrap(),
        kind: Forbidden::DoubleThree,
    };
    for handling in [ForbiddenHandling::Block, ForbiddenHandling::Lose] {
        let (t, last) = to_double_three(&server, handling).await;
        assert!(last.forbidden.contains(&j8), "{handling:?}: {last:?}");
        // A spectator arriving now gets them in the snapshot.
        let mut carol = common::client(&server, "carol", Encoding::Json).await;
        match carol
            .request(ClientMsg::Watch {
                table: t.table.clone(),
                since: None,
            })
            .await
            .expect("snapshot")
        {
            ServerMsg::TableSnapshot(s) => assert!(s.forbidden.contains(&j8), "{s:?}"),
            other => panic!("unexpected {other:?}"),
        }
    }
    let (_, last) = to_double_three(&server, ForbiddenHandling::Claim).await;
    assert!(last.forbidden.is_empty(), "{last:?}");
}
