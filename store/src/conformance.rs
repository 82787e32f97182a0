//! The conformance suite every [`crate::Store`] implementation passes.
//!
//! Each check is a public async function taking a fresh, empty store and
//! panicking, with a message naming what failed, when the store breaks the
//! contract in the [`Store`] documentation. [`CHECKS`] lists them all and
//! [`run_all`] runs each on a store of its own:
//!
//! ```no_run
//! # use std::sync::Arc;
//! # use tengen_store::{EmbeddedStore, Store};
//! # async fn conformance() {
//! let root = tempfile::tempdir().unwrap();
//! let mut n = 0;
//! tengen_store::conformance::run_all(|| {
//!     n += 1;
//!     let dir = root.path().join(n.to_string());
//!     async move { Arc::new(EmbeddedStore::open(&dir).unwrap()) as Arc<dyn Store> }
//! })
//! .await;
//! # }
//! ```
//!
//! Every check needs a store of its own with nothing in it (checks reuse
//! ids and names): a new directory for the embedded store, a new key
//! prefix or database for a server-backed one. The checks need a tokio
//! runtime (some spawn tasks to write concurrently) and pass on a
//! current-thread runtime as well as a multi-threaded one.

use std::fmt::Debug;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::{FinishedGame, HistoryPoint, Rating, RatingUpdate, Result, Store};

mod accounts;
mod games;
mod lease;
mod live;
mod racing;
mod transfer;

pub use accounts::*;
pub use games::*;
pub use lease::*;
pub use live::*;
pub use racing::*;
pub use transfer::*;

/// A check: takes a fresh store, panics on a breach of the contract.
pub type Check = fn(Arc<dyn Store>) -> Pin<Box<dyn Future<Output = ()> + Send>>;

macro_rules! checks {
    ($($name:ident),* $(,)?) => {
        /// Every check, by name.
        pub const CHECKS: &[(&str, Check)] = &[
            $((stringify!($name), |store| Box::pin($name(store)))),*
        ];
    };
}

checks!(
    ping_and_describe,
    create_table,
    append,
    append_refusals,
    concurrent_appends,
    racing_appends,
    live_tables_restore,
    discard_table,
    finish_game,
    finish_game_ratings,
    finish_game_rating_conflict_is_atomic,
    finish_game_conflict_in_a_later_family,
    racing_finish_game,
    racing_rated_finishes,
    games_of_paging,
    accounts,
    racing_accounts,
    tokens,
    export_everything,
    import_items,
    lease_is_exclusive,
    lease_lapses,
    leased_append_refusals,
    unleased_tables,
    seat_index,
);

/// Runs every check in [`CHECKS`], each on a new store from `make`.
pub async fn run_all<F, Fut>(mut make: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Arc<dyn Store>>,
{
    for (name, check) in CHECKS {
        eprintln!("conformance: {name}");
        let store = make().await;
        check(store).await;
    }
}

// --- helpers ---------------------------------------------------------

/// Unwraps an expected success, naming `what` if it failed.
#[track_caller]
fn ok<T>(result: Result<T>, what: &str) -> T {
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
use expect_err;

#[track_caller]
fn same<T: PartialEq + Debug>(got: T, want: T, what: &str) {
    assert!(got == want, "{what}:\n   got {got:?}\n  want {want:?}");
}

/// A log entry like the server's: a little JSON, distinct per (table, i).
fn entry(table: &str, i: u64) -> Vec<u8> {
    format!(
        r#"{{"table":"{table}","seq":{i},"action":{{"place":[7,{}]}}}}"#,
        i % 15
    )
    .into_bytes()
}

fn rating(player: &str, family: &str, games: u32, value: f64) -> Rating {
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

fn point(game: &str, at_ms: u64, opponent: &str, score: f64, value: f64) -> HistoryPoint {
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
fn update(
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

fn finished(
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
fn as_stored(game: &FinishedGame) -> FinishedGame {
    FinishedGame {
        ratings: Vec::new(),
        ..game.clone()
    }
}

/// The live table `id` with its log, if it is live.
async fn live(store: &dyn Store, id: &str) -> Option<crate::LiveTable> {
    ok(store.live_tables().await, "live_tables")
        .into_iter()
        .find(|t| t.id == id)
}
