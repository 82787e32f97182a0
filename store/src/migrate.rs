//! Moving a community from one store to another (the embedded store to
//! Redis, for `tengen-server migrate`): every item of the source's export,
//! page by page, imported into the destination.

use crate::{Item, Store, StoreError};

/// Items per page: a page is all the migration holds in memory.
pub const PAGE: usize = 500;

/// What a migration moved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub accounts: u64,
    pub tokens: u64,
    pub ratings: u64,
    pub history_points: u64,
    pub games: u64,
    pub live_tables: u64,
    pub live_entries: u64,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} accounts, {} tokens, {} ratings with {} history points, {} finished games, {} live games with {} log entries",
            self.accounts,
            self.tokens,
            self.ratings,
            self.history_points,
            self.games,
            self.live_tables,
            self.live_entries
        )
    }
}

/// Why a migration stopped.
#[derive(Debug, thiserror::Error)]
pub enum MigrateError {
    /// The destination already holds data (and `force` was not given).
    #[error(
        "{0} is not empty; migrate into an empty one (another prefix or database), or force it"
    )]
    NotEmpty(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Copies everything in `from` into `to`: accounts, tokens, ratings with
/// their histories, finished games and live games. Refuses a destination
/// that holds anything unless `force` (then items with the same keys are
/// replaced and the rest is left). `from` should not be in use meanwhile
/// (stop the server first): writes made during the copy may be missed.
/// Importing is idempotent, so a migration that failed half-way can be run
/// again with `force`.
pub async fn migrate(
    from: &dyn Store,
    to: &dyn Store,
    force: bool,
) -> Result<Report, MigrateError> {
    if !force && !to.export(None, 1).await?.items.is_empty() {
        return Err(MigrateError::NotEmpty(to.describe()));
    }
    let mut report = Report::default();
    let mut cursor = None;
    loop {
        let page = from.export(cursor.as_ref(), PAGE).await?;
        to.import(&page.items).await?;
        for item in &page.items {
            match item {
                Item::Account(_) => report.accounts += 1,
                Item::Token(_) => report.tokens += 1,
                Item::Rating { history, .. } => {
                    report.ratings += 1;
                    report.history_points += history.len() as u64;
                }
                Item::Game(_) => report.games += 1,
                Item::Live(table) => {
                    report.live_tables += 1;
                    report.live_entries += table.entries.len() as u64;
                }
            }
        }
        tracing::info!(moved = %report, "migrating");
        match page.next {
            Some(next) => cursor = Some(next),
            None => return Ok(report),
        }
    }
}
