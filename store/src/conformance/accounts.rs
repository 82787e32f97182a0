//! Checks of accounts and login tokens.

use std::sync::Arc;

use super::helpers::{expect_err, finished, ok, same};
use crate::{Account, AuthToken, Store, StoreError};

fn account(name: &str, hash: &str) -> Account {
    Account {
        name: name.to_owned(),
        password_hash: format!("$argon2id$v=19$m=19456,t=2,p=1${hash}"),
        created_ms: 1_700_000_000_000,
        bot: false,
        bot_filters: None,
    }
}

/// Accounts are found under any case of their name, keep the case they
/// were registered with, and a name taken in any case is `Exists`.
pub async fn accounts(store: Arc<dyn Store>) {
    let store = &*store;
    same(
        ok(store.account("Ann").await, "account Ann"),
        None,
        "no account yet",
    );
    let ann = account("Ann", "aaaa");
    ok(store.create_account(&ann).await, "create Ann");
    for name in ["Ann", "ann", "ANN", "aNn"] {
        same(
            ok(store.account(name).await, "account"),
            Some(ann.clone()),
            &format!("the account asked as {name}"),
        );
    }
    for name in ["Ann", "ann", "ANN"] {
        expect_err!(
            store.create_account(&account(name, "bbbb")).await,
            Exists,
            "register {name} when Ann is taken"
        );
    }
    same(
        ok(store.account("ann").await, "account ann"),
        Some(ann.clone()),
        "Ann after the refused registrations",
    );
    // Names that extend one another, and non-ASCII case.
    let anna = account("Anna", "cccc");
    ok(store.create_account(&anna).await, "create Anna");
    same(
        ok(store.account("anna").await, "account anna"),
        Some(anna),
        "Anna",
    );
    same(
        ok(store.account("An").await, "account An"),
        None,
        "a prefix of a name",
    );
    let eve = account("Ève", "dddd");
    ok(store.create_account(&eve).await, "create Ève");
    same(
        ok(store.account("ÈVE").await, "account ÈVE"),
        Some(eve.clone()),
        "Ève as ÈVE",
    );
    expect_err!(
        store.create_account(&account("ève", "eeee")).await,
        Exists,
        "register ève"
    );
}

/// Tasks racing to register one name in different cases: exactly one
/// succeeds, the rest get `Exists`.
pub async fn racing_accounts(store: Arc<dyn Store>) {
    let names = ["Kai", "kai", "KAI", "kAi", "KaI", "kaI"];
    let mut tasks = Vec::new();
    for name in names {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let mine = account(name, name);
            match store.create_account(&mine).await {
                Ok(()) => Some(mine),
                Err(StoreError::Exists(_)) => None,
                Err(e) => panic!("racing create_account: expected Ok or Exists, got {e:?}"),
            }
        }));
    }
    let mut winners = Vec::new();
    for task in tasks {
        winners.extend(task.await.expect("a racing task panicked"));
    }
    same(winners.len(), 1, "accounts registered by the racers");
    same(
        ok(store.account("KAI").await, "account KAI"),
        Some(winners.remove(0)),
        "the winner's account",
    );
}

/// Tokens are stored (expired ones too) and revoked; revoking an unknown
/// token is fine.
pub async fn tokens(store: Arc<dyn Store>) {
    let store = &*store;
    let token = |hex: &str, account: &str, expires_ms| AuthToken {
        token: hex.to_owned(),
        account: account.to_owned(),
        expires_ms,
    };
    let live = token("0123456789abcdef0123456789abcdef", "Ann", u64::MAX);
    let expired = token("fedcba9876543210fedcba9876543210", "Bob", 1);
    let other = token("0123456789abcdef0123456789abcdee", "Ann", 5_000);
    same(
        ok(store.token(&live.token).await, "token"),
        None,
        "no token yet",
    );
    for t in [&live, &expired, &other] {
        ok(store.put_token(t).await, "put_token");
    }
    same(
        ok(store.token(&live.token).await, "token"),
        Some(live.clone()),
        "a stored token",
    );
    same(
        ok(store.token(&expired.token).await, "token"),
        Some(expired.clone()),
        "an expired token is still returned",
    );
    same(
        ok(store.token("0123").await, "token"),
        None,
        "a prefix of a token",
    );

    ok(store.revoke_token(&live.token).await, "revoke");
    same(
        ok(store.token(&live.token).await, "token"),
        None,
        "a revoked token",
    );
    same(
        ok(store.token(&other.token).await, "token"),
        Some(other.clone()),
        "another token of the same account after the revoke",
    );
    ok(store.revoke_token(&live.token).await, "revoke again");
    ok(
        store.revoke_token("not a token").await,
        "revoke an unknown token",
    );
}

/// A store keeps tokens only as their digests: a login token's digest
/// (what anyone reading the data finds) logs nobody in, the seat index
/// answers for a resume token or its digest alike, and nothing an export
/// gives holds a token.
pub async fn tokens_at_rest(store: Arc<dyn Store>) {
    let store = &*store;
    let login = AuthToken {
        token: "5c0559a61a3599b32a2fa7e0766b2784".into(),
        account: "Ann".into(),
        expires_ms: u64::MAX,
    };
    let resume = "9ab2e0c5f3d1a7b4c6e8f0a2b4c6d8e0";
    ok(store.put_token(&login).await, "put_token");
    ok(store.create_table("t1", b"m").await, "create t1");
    ok(store.index_seat(resume, "t1").await, "index_seat");
    let digest = crate::token_digest(&login.token);
    same(
        ok(store.token(&digest).await, "token"),
        None,
        "the digest of a stored token, as a token",
    );
    same(
        ok(store.seat_tables(resume).await, "seats"),
        vec!["t1".to_string()],
        "the tables of a resume token",
    );
    same(
        ok(
            store.seat_tables(&crate::token_digest(resume)).await,
            "seats",
        ),
        vec!["t1".to_string()],
        "the tables of a resume token, asked by its digest",
    );
    same(
        ok(store.token(&login.token).await, "token").map(|t| t.token),
        Some(login.token.clone()),
        "the token itself",
    );
    let exported = super::transfer::export_all(store, 100).await;
    let shown = format!("{exported:?}");
    assert!(
        !shown.contains(&login.token) && !shown.contains(resume),
        "an export holds a token: {shown}"
    );
    assert!(
        shown.contains(&digest),
        "the export lacks the token's digest"
    );
}

/// An account becomes a bot once, for good, and only before any game of
/// its name is stored; a refusal changes nothing.
pub async fn bots(store: Arc<dyn Store>) {
    let store = &*store;
    expect_err!(store.make_bot("Nobody").await, NotFound, "make_bot Nobody");
    let robo = account("Robo", "aaaa");
    ok(store.create_account(&robo).await, "create Robo");
    ok(store.make_bot("robo").await, "make_bot robo");
    let bot = Account {
        bot: true,
        ..robo.clone()
    };
    for name in ["Robo", "ROBO"] {
        same(
            ok(store.account(name).await, "account"),
            Some(bot.clone()),
            &format!("Robo asked as {name} after make_bot"),
        );
    }
    ok(store.make_bot("Robo").await, "make_bot Robo again");
    same(
        ok(store.account("Robo").await, "account"),
        Some(bot),
        "a bot made a bot again",
    );

    let ann = account("Ann", "bbbb");
    ok(store.create_account(&ann).await, "create Ann");
    let game = finished("g1", &["ann", "Bob"], 1_700_000_000_000, vec![]);
    ok(store.finish_game(&game).await, "finish g1");
    expect_err!(
        store.make_bot("Ann").await,
        Conflict,
        "make_bot Ann after a game"
    );
    same(
        ok(store.account("Ann").await, "account Ann"),
        Some(ann),
        "Ann after the refused make_bot",
    );
}

/// A bot's filters are kept with its account (any case of its name), the
/// last set wins; a person or an unknown name is refused and changes
/// nothing.
pub async fn bot_filters(store: Arc<dyn Store>) {
    let store = &*store;
    expect_err!(
        store.set_bot_filters("Nobody", "{}").await,
        NotFound,
        "filters of Nobody"
    );
    let ann = account("Ann", "aaaa");
    ok(store.create_account(&ann).await, "create Ann");
    expect_err!(
        store.set_bot_filters("ann", "{}").await,
        Conflict,
        "filters of a person"
    );
    same(
        ok(store.account("Ann").await, "account Ann"),
        Some(ann),
        "Ann after refused filters",
    );
    let robo = account("Robo", "bbbb");
    ok(store.create_account(&robo).await, "create Robo");
    ok(store.make_bot("Robo").await, "make_bot Robo");
    let first = r#"{"rule_sets":["renju"]}"#;
    ok(
        store.set_bot_filters("ROBO", first).await,
        "filters of ROBO",
    );
    let second = r#"{"rated":false}"#;
    ok(store.set_bot_filters("robo", second).await, "filters again");
    let kept = ok(store.account("Robo").await, "account Robo").expect("Robo");
    same(
        kept.bot_filters.as_deref(),
        Some(second),
        "the last filters",
    );
    assert!(kept.bot, "still a bot");
    same(kept.name, "Robo".to_owned(), "the name as registered");
}
