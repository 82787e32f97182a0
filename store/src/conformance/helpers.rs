//! What the checks share: unwrapping with a message, comparing, and the
//! sample values they store.

use std::fmt::Debug;

use crate::{FinishedGame, HistoryPoint, Rating, RatingUpdate, Result, Store};

/// Unwraps an expected success, naming `what` if it failed.
#[track_caller]
pub(super) fn ok<T>(result: Result<T>, what: &str) -> T {
    match result {
        Ok(value) => value,
        Err(e) => panic!("{what}: expected success, got the error {e:?}"),
    }
}

/// Fails unless `result` is the error `$variant`.
macro_rules! expect_err {
    ($result:expr, $variant:ident, $($what:tt)+) => {
        match $result {
            Err($crate::StoreError::$variant(_)) => {}
            other => panic!(
                "{}: expected StoreError::{}, got {:?}",
                format!($($what)+),
                stringify!($variant),
                other
            ),
        }
    };
}
pub(super) use expect_err;

#[track_caller]
pub(super) fn same<T: PartialEq + Debug>(got: T, want: T, what: &str) {
    assert!(got == want, "{what}:\n   got {got:?}\n  want {want:?}");
}

/// A log entry like the server's: a little JSON, distinct per (table, i).
pub(super) fn entry(table: &str, i: u64) -> Vec<u8> {
    format!(
        r#"{{"table":"{table}","seq":{i},"action":{{"place":[7,{}]}}}}"#,
        i % 15
    )
    .into_bytes()
}

pub(super) fn rating(player: &str, family: &str, games: u32, value: f64) -> Rating {
    Rating {
        player: player.to_owned(),
        family: family.to_owned(),
        rating: value,
        deviation: 350.0 - f64::from(games) * 10.1,
        volatility: 0.06 + f64::from(games) * 1e-9,
        games,
        wins: games / 2,
        draws: games % 2,
        losses: games - games / 2 - games % 2,
        opponents: vec!["someone".into()],
        recent_ms: (0..u64::from(games.min(7))).collect(),
    }
}

pub(super) fn point(
    game: &str,
    at_ms: u64,
    opponent: &str,
    score: f64,
    value: f64,
) -> HistoryPoint {
    HistoryPoint {
        game: game.to_owned(),
        at_ms,
        opponent: opponent.to_owned(),
        score,
        rating: value,
        deviation: 200.25,
        volatility: 0.059_999,
    }
}

/// A rating update taking `player` from `expected` games to one more.
pub(super) fn update(
    player: &str,
    family: &str,
    expected: u32,
    game: &str,
    at_ms: u64,
    value: f64,
) -> RatingUpdate {
    RatingUpdate {
        expected_games: expected,
        rating: rating(player, family, expected + 1, value),
        history: point(game, at_ms, "opponent", 1.0, value),
    }
}

pub(super) fn finished(
    id: &str,
    players: &[&str],
    finished_ms: u64,
    ratings: Vec<RatingUpdate>,
) -> FinishedGame {
    FinishedGame {
        id: id.to_owned(),
        players: players.iter().map(|p| p.to_string()).collect(),
        finished_ms,
        record: format!(r#"{{"game":"{id}","moves":[[7,7],[7,8]]}}"#).into_bytes(),
        ratings,
    }
}

/// `game` as [`Store::game`] returns it: without its rating updates.
pub(super) fn as_stored(game: &FinishedGame) -> FinishedGame {
    FinishedGame {
        ratings: Vec::new(),
        ..game.clone()
    }
}

/// The live table `id` with its log, if it is live.
pub(super) async fn live_table(store: &dyn Store, id: &str) -> Option<crate::LiveTable> {
    ok(store.live_tables().await, "live_tables")
        .into_iter()
        .find(|t| t.id == id)
}
