//! Checks of moderation data: standings (with their version check), the
//! audit log, reports and address bans.

use std::sync::Arc;

use super::helpers::{expect_err, ok, same};
use crate::{AddressBan, AuditEntry, Report, ReportClosed, Sanction, Standing, Store};

fn sanction(reason: &str, until_ms: Option<u64>) -> Sanction {
    Sanction {
        by: "Mod".into(),
        reason: reason.into(),
        since_ms: 1_000,
        until_ms,
    }
}

/// A standing is found under any case of its name; each write must carry
/// the version it read (a stale one is `Conflict` and writes nothing),
/// and is stored one version higher.
pub async fn standings(store: Arc<dyn Store>) {
    let store = &*store;
    same(
        ok(store.standing("Ann").await, "standing"),
        None,
        "none yet",
    );
    let mut ann = Standing::new("Ann");
    ann.role = "moderator".into();
    ann.blocks = vec!["bob".into()];
    ok(store.put_standing(&ann).await, "first write");
    let stored = ok(store.standing("aNN").await, "standing").expect("Ann's standing");
    same(stored.version, 1, "the version after one write");
    same(stored.role.as_str(), "moderator", "the role kept");
    same(
        stored.blocks.clone(),
        vec!["bob".to_string()],
        "blocks kept",
    );
    // A writer that read nothing (version 0) is too late now.
    let mut stale = Standing::new("ann");
    stale.ban = Some(sanction("late", None));
    expect_err!(store.put_standing(&stale).await, Conflict, "a stale write");
    let mut next = stored.clone();
    next.mute = Some(sanction("spam", Some(5_000)));
    ok(store.put_standing(&next).await, "second write");
    let stored = ok(store.standing("Ann").await, "standing").expect("Ann's standing");
    same(stored.version, 2, "the version after two writes");
    same(
        stored.mute.clone(),
        Some(sanction("spam", Some(5_000))),
        "the mute kept",
    );
    same(stored.ban.clone(), None, "the stale ban never written");
    expect_err!(store.put_standing(&next).await, Conflict, "version 1 again");
}

/// The audit log gives its latest entries newest first, as many as asked.
pub async fn audit_log(store: Arc<dyn Store>) {
    let store = &*store;
    same(ok(store.audit_log(10).await, "empty log").len(), 0, "empty");
    let entry = |n: u64| AuditEntry {
        at_ms: 1_000 + n,
        by: "Mod".into(),
        action: "mute".into(),
        target: format!("p{n}"),
        reason: format!("r{n}"),
    };
    for n in 0..5 {
        ok(store.append_audit(&entry(n)).await, "append");
    }
    let all = ok(store.audit_log(10).await, "log");
    same(all, (0..5).rev().map(entry).collect(), "all, newest first");
    let two = ok(store.audit_log(2).await, "log");
    same(two, vec![entry(4), entry(3)], "the latest two");
}

/// Reports are stored and replaced by id; address bans are stored,
/// replaced by range and lifted.
pub async fn reports_and_address_bans(store: Arc<dyn Store>) {
    let store = &*store;
    let mut report = Report {
        id: "r1".into(),
        at_ms: 5,
        by: "Ann".into(),
        player: "Bob".into(),
        game: Some("g1".into()),
        reason: "cheating".into(),
        text: "engine moves".into(),
        closed: None,
    };
    ok(store.put_report(&report).await, "report");
    same(
        ok(store.reports().await, "reports"),
        vec![report.clone()],
        "one",
    );
    report.closed = Some(ReportClosed {
        by: "Mod".into(),
        at_ms: 9,
        note: "warned".into(),
    });
    ok(store.put_report(&report).await, "close");
    same(ok(store.reports().await, "reports"), vec![report], "closed");

    same(ok(store.address_bans().await, "bans").len(), 0, "no bans");
    let ban = |range: &str, reason: &str| AddressBan {
        range: range.into(),
        ban: sanction(reason, None),
    };
    ok(store.put_address_ban(&ban("10.0.0.0/8", "a")).await, "ban");
    ok(
        store.put_address_ban(&ban("2001:db8::/32", "b")).await,
        "ban",
    );
    ok(
        store.put_address_ban(&ban("10.0.0.0/8", "c")).await,
        "again",
    );
    let mut bans = ok(store.address_bans().await, "bans");
    bans.sort_by(|a, b| a.range.cmp(&b.range));
    same(
        bans,
        vec![ban("10.0.0.0/8", "c"), ban("2001:db8::/32", "b")],
        "replaced by range",
    );
    ok(store.remove_address_ban("10.0.0.0/8").await, "lift");
    ok(
        store.remove_address_ban("192.0.2.0/24").await,
        "lift unknown",
    );
    same(
        ok(store.address_bans().await, "bans"),
        vec![ban("2001:db8::/32", "b")],
        "one left",
    );
}
