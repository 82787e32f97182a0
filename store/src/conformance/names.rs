//! Checks of the accounts' index by what their names look like.

use std::sync::Arc;

use super::helpers::{expect_err, ok, same};
use crate::{Account, Item, Store};

fn account(name: &str) -> Account {
    Account {
        name: name.to_owned(),
        password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".into(),
        created_ms: 1_700_000_000_000,
        bot: false,
        bot_filters: None,
    }
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|n| n.to_string()).collect()
}

/// An account is found by any name that looks like its own (the same
/// [`crate::name_skeleton`]), from its creation or its import on; the
/// groups of accounts whose names look alike are listed, bounded.
pub async fn accounts_by_skeleton(store: Arc<dyn Store>) {
    let store = &*store;
    same(
        ok(store.accounts_like("carol").await, "like carol"),
        Vec::<String>::new(),
        "no account yet",
    );
    ok(
        store.create_account(&account("carol")).await,
        "create carol",
    );
    for alike in [
        "carol",
        "CAROL",
        "\u{441}arol",
        "car\u{200B}ol",
        "caro\u{13A}",
    ] {
        same(
            ok(store.accounts_like(alike).await, "like"),
            names(&["carol"]),
            &format!("{alike:?} looks like carol"),
        );
    }
    same(
        ok(store.accounts_like("karol").await, "like karol"),
        Vec::<String>::new(),
        "karol does not",
    );
    same(
        ok(store.lookalike_accounts(10).await, "lookalikes"),
        Vec::<Vec<String>>::new(),
        "one account looks like nobody else",
    );
    // Another name key, the same skeleton (capital I for l): both found,
    // and listed as a group; a refused registration adds nobody.
    ok(
        store.create_account(&account("CAROI")).await,
        "create CAROI",
    );
    expect_err!(
        store.create_account(&account("Carol")).await,
        Exists,
        "Carol when carol is taken"
    );
    ok(store.create_account(&account("Mike")).await, "create Mike");
    ok(
        store.create_account(&account("rnike")).await,
        "create rnike",
    );
    ok(store.create_account(&account("zed")).await, "create zed");
    same(
        ok(store.accounts_like("car0l").await, "like car0l"),
        names(&["CAROI", "carol"]),
        "both carols",
    );
    same(
        ok(store.lookalike_accounts(10).await, "lookalikes"),
        vec![names(&["CAROI", "carol"]), names(&["Mike", "rnike"])],
        "the groups, in skeleton order",
    );
    same(
        ok(store.lookalike_accounts(1).await, "one lookalike group"),
        vec![names(&["CAROI", "carol"])],
        "at most the limit",
    );
    // An imported account is indexed as a created one.
    ok(
        store.import(&[Item::Account(account("Car0l"))]).await,
        "import Car0l",
    );
    same(
        ok(store.accounts_like("carol").await, "like carol"),
        names(&["CAROI", "Car0l", "carol"]),
        "the imported one too",
    );
}
