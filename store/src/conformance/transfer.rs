//! Checks of export and import (moving a community between stores).

use std::sync::Arc;

use super::helpers::{as_stored, entry, expect_err, finished, ok, point, rating, same, update};
use crate::{Account, AuthToken, Item, LiveTable, Store, name_key};

/// An item's identity: what an import replaces.
fn key(item: &Item) -> (u8, String) {
    match item {
        Item::Account(a) => (0, name_key(&a.name)),
        Item::Token(t) => (1, t.token.clone()),
        Item::Rating { rating, .. } => (
            2,
            format!("{}\u{0}{}", rating.family, name_key(&rating.player)),
        ),
        Item::Game(g) => (3, g.id.clone()),
        Item::Live(t) => (4, t.id.clone()),
    }
}

/// The whole export, `limit` items a page: every item once (an item given
/// twice must be the same both times), sorted by kind and key. Also checks the
/// sections come in order.
pub async fn export_all(store: &dyn Store, limit: usize) -> Vec<Item> {
    let mut items: Vec<Item> = Vec::new();
    let mut cursor = None;
    let mut pages = 0;
    let mut last_section = 0;
    loop {
        let page = ok(store.export(cursor.as_ref(), limit).await, "export");
        pages += 1;
        assert!(pages < 10_000, "the export does not end");
        for item in page.items {
            let (section, _) = key(&item);
            assert!(
                section >= last_section,
                "export sections out of order: {item:?} after section {last_section}"
            );
            last_section = section;
            match items.iter().find(|i| key(i) == key(&item)) {
                Some(seen) => same(seen, &item, "an item exported twice"),
                None => items.push(item),
            }
        }
        match page.next {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    items.sort_by_key(key);
    items
}

fn account(name: &str) -> Account {
    Account {
        name: name.to_owned(),
        password_hash: format!("$argon2id$v=19$m=19456,t=2,p=1${name}"),
        created_ms: 1_700_000_000_000,
        bot: false,
        bot_filters: None,
    }
}

fn token(hex: &str, account: &str) -> AuthToken {
    AuthToken {
        token: hex.to_owned(),
        account: account.to_owned(),
        expires_ms: 1_800_000_000_000,
    }
}

/// An export gives everything the store holds (and nothing it no longer
/// holds), in pages of any size; an empty store exports nothing.
pub async fn export_everything(store: Arc<dyn Store>) {
    let store = &*store;
    same(
        export_all(store, 5).await,
        vec![],
        "an empty store's export",
    );

    let mut want = Vec::new();
    for name in ["Ann", "Bob", "Ève"] {
        ok(store.create_account(&account(name)).await, "create account");
        want.push(Item::Account(account(name)));
    }
    for (hex, who) in [("00ff", "Ann"), ("01ff", "Bob")] {
        ok(store.put_token(&token(hex, who)).await, "put token");
        // Exported as kept: the digest, never the token.
        want.push(Item::Token(token(&crate::token_digest(hex), who)));
    }
    ok(store.put_token(&token("02ff", "Bob")).await, "put token");
    ok(store.revoke_token("02ff").await, "revoke token");

    let first = vec![
        update("Ann", "renju", 0, "g1", 1000, 1600.5),
        update("Bob", "renju", 0, "g1", 1000, 1400.25),
    ];
    let second = vec![update("Ann", "renju", 1, "g2", 2000, 1650.0)];
    let gomoku = vec![update("Ève", "gomoku", 0, "g3", 3000, 1500.125)];
    ok(store.create_table("g1", b"m1").await, "create g1");
    ok(store.append("g1", 0, &[entry("g1", 0)]).await, "append g1");
    for game in [
        finished("g1", &["Ann", "Bob"], 1000, first.clone()),
        finished("g2", &["Ann", "Cid"], 2000, second.clone()),
        finished("g3", &["Ève", "Bob"], 3000, gomoku.clone()),
        finished("g4", &["Bob", "Cid"], 4000, vec![]),
    ] {
        ok(store.finish_game(&game).await, "finish");
        want.push(Item::Game(as_stored(&game)));
    }
    want.push(Item::Rating {
        rating: second[0].rating.clone(),
        history: vec![first[0].history.clone(), second[0].history.clone()],
    });
    want.push(Item::Rating {
        rating: first[1].rating.clone(),
        history: vec![first[1].history.clone()],
    });
    want.push(Item::Rating {
        rating: gomoku[0].rating.clone(),
        history: vec![gomoku[0].history.clone()],
    });

    for t in 0..7u64 {
        let id = format!("live{t}");
        ok(store.create_table(&id, id.as_bytes()).await, "create");
        let entries: Vec<_> = (0..t * 2).map(|i| entry(&id, i)).collect();
        ok(store.append(&id, 0, &entries).await, "append");
        want.push(Item::Live(LiveTable {
            id,
            meta: format!("live{t}").into_bytes(),
            entries,
        }));
    }
    ok(store.create_table("gone", b"x").await, "create gone");
    ok(store.discard_table("gone").await, "discard gone");
    want.sort_by_key(key);

    for limit in [1, 3, 1000] {
        same(
            export_all(store, limit).await,
            want.clone(),
            &format!("the export in pages of {limit}"),
        );
    }
}

/// An import puts items as they are, replacing what has the same key;
/// the imported data then works like any other (appends, finishes with
/// rating conditions); importing an export again changes nothing; a live
/// table whose id is a finished game's is refused, with nothing written.
pub async fn import_items(store: Arc<dyn Store>) {
    let store = &*store;
    ok(store.create_account(&account("Ann")).await, "create Ann");
    let setup = vec![update("Ann", "renju", 0, "s1", 100, 1510.0)];
    ok(
        store
            .finish_game(&finished("s1", &["Ann", "Bob"], 100, setup))
            .await,
        "finish s1",
    );

    let cid_rating = rating("Cid", "renju", 2, 1555.5);
    let cid_history = vec![
        point("x1", 10, "Ann", 1.0, 1520.0),
        point("x2", 20, "Bob", 0.5, 1555.5),
    ];
    let ann_rating = rating("Ann", "renju", 5, 1700.0);
    let ann_history: Vec<_> = (0..5)
        .map(|i| point(&format!("y{i}"), 30 + i, "Bob", 1.0, 1600.0 + i as f64))
        .collect();
    let game = finished("x1", &["Cid", "Ann"], 10, vec![]);
    let log: Vec<_> = (0..3).map(|i| entry("imp", i)).collect();
    let items = vec![
        Item::Account(account("Cid")),
        Item::Token(token("abcd", "Cid")),
        Item::Rating {
            rating: cid_rating.clone(),
            history: cid_history.clone(),
        },
        Item::Rating {
            rating: ann_rating.clone(),
            history: ann_history.clone(),
        },
        Item::Game(game.clone()),
        Item::Live(LiveTable {
            id: "imp".into(),
            meta: b"imported".to_vec(),
            entries: log.clone(),
        }),
    ];
    ok(store.import(&items).await, "import");
    ok(store.import(&items).await, "import again");

    same(
        ok(store.account("CID").await, "account"),
        Some(account("Cid")),
        "an imported account",
    );
    same(
        ok(store.token("abcd").await, "token"),
        Some(token("abcd", "Cid")),
        "an imported token",
    );
    same(
        ok(store.rating("cid", "renju").await, "rating"),
        Some(cid_rating.clone()),
        "an imported rating",
    );
    same(
        ok(store.rating_history("Cid", "renju").await, "history"),
        cid_history,
        "an imported history",
    );
    same(
        ok(store.rating("Ann", "renju").await, "rating"),
        Some(ann_rating.clone()),
        "a rating replaced by an import",
    );
    same(
        ok(store.rating_history("Ann", "renju").await, "history"),
        ann_history,
        "a history replaced by an import",
    );
    same(
        ok(store.game("x1").await, "game"),
        Some(game),
        "an imported game",
    );
    same(
        ok(store.games_of("ann", None, 10).await, "games_of")
            .into_iter()
            .map(|g| g.id)
            .collect::<Vec<_>>(),
        vec!["s1".to_string(), "x1".to_string()],
        "an imported game in a player's history",
    );
    same(
        ok(store.live_table("imp").await, "live_table").map(|t| (t.meta, t.entries)),
        Some((b"imported".to_vec(), log.clone())),
        "an imported live table",
    );

    // The imported state works like any other.
    expect_err!(
        store.append("imp", 2, &[entry("imp", 9)]).await,
        Conflict,
        "an append to an imported log at the wrong length"
    );
    ok(
        store.append("imp", 3, &[entry("imp", 3)]).await,
        "append to an imported table",
    );
    expect_err!(
        store
            .finish_game(&finished(
                "imp",
                &["Ann", "Cid"],
                50,
                vec![update("Ann", "renju", 1, "imp", 50, 1.0)]
            ))
            .await,
        Conflict,
        "a finish expecting the rating's count before the import"
    );
    ok(
        store
            .finish_game(&finished(
                "imp",
                &["Ann", "Cid"],
                50,
                vec![
                    update("Ann", "renju", 5, "imp", 50, 1710.0),
                    update("Cid", "renju", 2, "imp", 50, 1540.0),
                ],
            ))
            .await,
        "finish an imported table with the imported counts",
    );
    same(
        ok(store.live_table("imp").await, "live_table"),
        None,
        "imp after its finish",
    );
    same(
        ok(store.rating_history("Cid", "renju").await, "history").len(),
        3,
        "Cid's history after the finish",
    );

    // A whole export imported again changes nothing.
    let before = export_all(store, 4).await;
    ok(store.import(&before).await, "import the export");
    same(
        export_all(store, 4).await,
        before.clone(),
        "after importing the export",
    );

    // A live table under a finished game's id: refused, nothing written.
    expect_err!(
        store
            .import(&[
                Item::Account(account("Dee")),
                Item::Live(LiveTable {
                    id: "s1".into(),
                    meta: b"m".to_vec(),
                    entries: vec![],
                }),
            ])
            .await,
        Exists,
        "importing a finished game's id as a live table"
    );
    same(
        ok(store.account("Dee").await, "account Dee"),
        None,
        "the refused import wrote nothing",
    );
    same(
        export_all(store, 4).await,
        before,
        "after the refused import",
    );
}
