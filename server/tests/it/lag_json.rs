//! `/lag.json`, the public lag page's figures: the moves real WebSocket
//! clients play are counted (and only the moves the server took), their
//! percentiles are ordered and above zero, and the live tables and
//! connections are this server's.

use crate::common;

use common::*;
use serde_json::Value;
use tengen_protocol::Encoding;
use tengen_rules::game::{GameConfig, GameError, RuleSet};

/// The status line, headers and JSON body of `GET /lag.json`.
async fn lag_json(server: &tengen_server::Server) -> (String, Value) {
    let out = http_get(server, "/lag.json").await;
    let (head, body) = out.split_once("\r\n\r\n").expect("a response");
    (head.to_owned(), serde_json::from_str(body).expect("JSON"))
}

fn figures(v: &Value, window: &str) -> [f64; 4] {
    ["p50_ms", "p90_ms", "p99_ms", "max_ms"].map(|k| {
        v[window][k]
            .as_f64()
            .unwrap_or_else(|| panic!("{window}.{k} in {v}"))
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_moves_played_are_counted_with_ordered_percentiles() {
    let server = server().await;
    let (head, empty) = lag_json(&server).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.contains("content-type: application/json"), "{head}");
    assert!(head.contains("cache-control: no-store"), "{head}");
    assert_eq!(empty["window_secs"], 300);
    for window in ["moves", "store_writes"] {
        assert_eq!(empty[window]["count"], 0, "{empty}");
        assert!(empty[window]["p50_ms"].is_null(), "{empty}");
    }
    assert_eq!(
        (empty["tables"].as_u64(), empty["connections"].as_u64()),
        (Some(0), Some(0))
    );

    // Two games of free-style, five moves each on the first, three on the
    // second; one move refused (an occupied point) is no move.
    let mut a = table(&server, GameConfig::new(RuleSet::Freestyle), Encoding::Json).await;
    let mut b = table(
        &server,
        GameConfig::new(RuleSet::Freestyle),
        Encoding::MsgPack,
    )
    .await;
    let mut seat = a.opener();
    for p in ["H8", "H9", "J8", "J9", "K8"] {
        a.act_as(seat, place(p)).await;
        seat = seat.other();
    }
    a.refused_as(
        seat,
        place("H8"),
        GameError::Occupied {
            point: "H8".parse().unwrap(),
        },
    )
    .await;
    let mut seat = b.opener();
    for p in ["A1", "O15", "B2"] {
        b.act_as(seat, place(p)).await;
        seat = seat.other();
    }

    let (_, lag) = lag_json(&server).await;
    assert_eq!(lag["moves"]["count"], 8, "{lag}");
    // Each move was stored before it was sent: a write each at least.
    assert!(lag["store_writes"]["count"].as_u64().unwrap() >= 8, "{lag}");
    for window in ["moves", "store_writes"] {
        let [p50, p90, p99, max] = figures(&lag, window);
        assert!(p50 > 0.0, "{window}: {lag}");
        assert!(p50 <= p90 && p90 <= p99 && p99 <= max, "{window}: {lag}");
    }
    assert_eq!(lag["tables"], 2, "{lag}");
    assert_eq!(lag["connections"], 4, "{lag}");

    // A resignation is an action handled as a move is; the players'
    // connections closed are no longer counted.
    a.act_as(a.opener(), tengen_rules::game::Action::Resign)
        .await;
    drop(a);
    for _ in 0..100 {
        let (_, lag) = lag_json(&server).await;
        if lag["connections"] == 2 {
            assert_eq!(lag["moves"]["count"], 9, "{lag}");
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the closed connections are still counted");
}
