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

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::Store;

mod accounts;
mod games;
mod helpers;
mod lease;
mod live;
mod moderation;
mod names;
mod racing;
mod study;
mod tournaments;
mod transfer;

pub use accounts::*;
pub use games::*;
pub use lease::*;
pub use live::*;
pub use moderation::*;
pub use names::*;
pub use racing::*;
pub use study::*;
pub use tournaments::*;
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
    bots,
    bot_filters,
    tokens,
    accounts_by_skeleton,
    tokens_at_rest,
    export_everything,
    import_items,
    lease_is_exclusive,
    lease_lapses,
    lapsed_lease_is_the_holders_until_taken,
    finished_table_keeps_its_lease,
    renew_many_leases,
    leased_append_refusals,
    unleased_tables,
    unleased_when_renewals_stop,
    seat_index,
    standings,
    audit_log,
    reports_and_address_bans,
    tournaments,
    racing_tournament_puts,
    tallies,
    racing_tallies,
    documents,
    racing_doc_puts,
    study_export_import,
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
