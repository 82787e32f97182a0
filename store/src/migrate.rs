//! Moving a community from one store to another (the embedded store to
//! Redis, for `tengen-server migrate`): every item of the source's export,
//! page by page, imported into the destination; then what moderation and
//! the tournament director keep, which the export's pages do not carry,
//! through the same reads and writes the server uses ([`carry`]): each
//! account's standing (its role, ban, mute, blocks and fair-play record),
//! the audit log (oldest first, entries the destination has already left
//! out, so that a migration run again adds none twice), the reports, the
//! banned address ranges and the tournaments. Bot filters travel with
//! their accounts. Last the tallies and documents (the opening explorer,
//! puzzles, exercises: `crate::study`), page by page through their own
//! export.

use std::collections::HashSet;

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
    pub standings: u64,
    pub audit_entries: u64,
    pub reports: u64,
    pub address_bans: u64,
    pub tournaments: u64,
    /// Tallies' keys, lists and tokens, documents and scores.
    pub study_items: u64,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} accounts, {} tokens, {} ratings with {} history points, {} finished games, {} live games with {} log entries, {} standings, {} audit entries, {} reports, {} address bans, {} tournaments, {} explorer and puzzle items",
            self.accounts,
            self.tokens,
            self.ratings,
            self.history_points,
            self.games,
            self.live_tables,
            self.live_entries,
            self.standings,
            self.audit_entries,
            self.reports,
            self.address_bans,
            self.tournaments,
            self.study_items
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
    let mut names = Vec::new();
    loop {
        let page = from.export(cursor.as_ref(), PAGE).await?;
        to.import(&page.items).await?;
        for item in &page.items {
            match item {
                Item::Account(a) => {
                    report.accounts += 1;
                    names.push(a.name.clone());
                }
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
            None => break,
        }
    }
    carry(from, to, &names, &mut report).await?;
    carry_study(from, to, &mut report).await?;
    tracing::info!(moved = %report, "migrating");
    Ok(report)
}

/// Copies the tallies and documents of `from` into `to`, a page at a time.
pub async fn carry_study(
    from: &dyn Store,
    to: &dyn Store,
    report: &mut Report,
) -> Result<(), StoreError> {
    let mut cursor = None;
    loop {
        let page = from.export_study(cursor.as_ref(), PAGE).await?;
        to.import_study(&page.items).await?;
        report.study_items += page.items.len() as u64;
        match page.next {
            Some(next) => cursor = Some(next),
            None => return Ok(()),
        }
    }
}

/// Copies the moderation data and the tournaments of `from` into `to`
/// (`names`: the accounts whose standings go).
pub async fn carry(
    from: &dyn Store,
    to: &dyn Store,
    names: &[String],
    report: &mut Report,
) -> Result<(), StoreError> {
    for name in names {
        let Some(mut standing) = from.standing(name).await? else {
            continue;
        };
        // Written over whatever the destination holds (its version).
        standing.version = to.standing(name).await?.map_or(0, |s| s.version);
        to.put_standing(&standing).await?;
        report.standings += 1;
    }
    let key = |e: &crate::AuditEntry| {
        (
            e.at_ms,
            e.by.clone(),
            e.action.clone(),
            e.target.clone(),
            e.reason.clone(),
        )
    };
    let there: HashSet<_> = to.audit_log(usize::MAX).await?.iter().map(key).collect();
    for entry in from.audit_log(usize::MAX).await?.iter().rev() {
        if !there.contains(&key(entry)) {
            to.append_audit(entry).await?;
            report.audit_entries += 1;
        }
    }
    for r in from.reports().await? {
        to.put_report(&r).await?;
        report.reports += 1;
    }
    for ban in from.address_bans().await? {
        to.put_address_ban(&ban).await?;
        report.address_bans += 1;
    }
    for (id, state) in from.tournaments().await? {
        to.put_tournament(&id, &state).await?;
        report.tournaments += 1;
    }
    Ok(())
}
