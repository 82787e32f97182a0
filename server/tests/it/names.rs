//! Names that cannot pass for someone else's, through the real server:
//! with `carol` registered, guest names made to look like it (a Cyrillic
//! letter, a zero-width space, a right-to-left override, a combining
//! accent, a byte-order mark, capitals, digits for letters) and the
//! server's own `guest-1` get `guest-<n>` or are refused; accounts and
//! rooms and tournaments cannot be named like another account; names in
//! one script (Chinese, Japanese with kanji and kana, Korean, Cyrillic)
//! pass. Accounts stored before the check keep their names, can log in,
//! and are listed for moderators (`moderate lookalikes` and
//! `tengen-server admin lookalikes`).

use crate::common;

use std::path::Path;

use argon2::Argon2;
use argon2::password_hash::PasswordHasher;
use common::proc::{DataDir, admin};
use common::*;
use tengen_client::{ClientError, Connection};
use tengen_protocol::{
    ClientMsg, Encoding, ErrorCode, Hello, ModRequest, PROTOCOL_VERSION, ServerMsg,
};
use tengen_rules::game::{GameConfig, RuleSet};
use tengen_store::{Account, EmbeddedStore, Store};

const PASSWORD: &str = "a long password";

async fn register(c: &mut Connection, name: &str) -> Result<ServerMsg, ClientError> {
    c.request(ClientMsg::Register {
        name: name.into(),
        password: PASSWORD.into(),
    })
    .await
}

/// What a `hello` asking for the guest name `name` gets: the name given,
/// or the refusal's code.
async fn guest(url: &str, name: &str) -> Result<String, ErrorCode> {
    let mut c = Connection::open(url, Encoding::Json).await.unwrap();
    let hello = ClientMsg::Hello(Hello {
        version: PROTOCOL_VERSION,
        client: None,
        name: Some(name.into()),
        resume: None,
        token: None,
    });
    match c.request(hello).await {
        Ok(ServerMsg::Welcome(w)) => {
            assert!(w.player.guest);
            Ok(w.player.name)
        }
        Err(ClientError::Refused(e)) => Err(e.code),
        other => panic!("{name:?}: {other:?}"),
    }
}

fn server_given(name: &Result<String, ErrorCode>) -> bool {
    name.as_ref().is_ok_and(|n| {
        n.strip_prefix("guest-")
            .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
    })
}

#[tokio::test]
async fn guest_names_made_to_look_like_an_account_are_not_given() {
    let server = server().await;
    let url = url(&server);
    let mut c = client(&server, "someone", Encoding::Json).await;
    assert!(matches!(
        register(&mut c, "carol").await,
        Ok(ServerMsg::Registered(_))
    ));
    // The cases as reported: each was accepted as it was.
    let refused = [
        ("\u{441}arol", "a Cyrillic с among Latin letters"),
        ("car\u{200B}ol", "a zero-width space"),
        ("\u{202E}lorac", "a right-to-left override (shows as carol)"),
        ("\u{FEFF}carol", "a byte-order mark"),
    ];
    for (name, what) in refused {
        assert_eq!(
            guest(&url, name).await,
            Err(ErrorCode::BadRequest),
            "{what}"
        );
    }
    for (name, what) in [
        ("carol\u{301}", "a combining accent (NFKC: caroĺ)"),
        ("carol\u{335}", "a combining stroke"),
        ("guest-1", "the server's own pattern"),
        ("Carol", "capitals"),
        ("caroI", "a capital I for the l"),
        ("car0l", "a zero for the o"),
        (
            "\u{FF43}\u{FF41}\u{FF52}\u{FF4F}\u{FF4C}",
            "fullwidth letters",
        ),
    ] {
        let given = guest(&url, name).await;
        assert!(server_given(&given), "{what}: {given:?}");
        assert_ne!(given, Ok("guest-1".into()), "{what}");
    }
    // Names in one script pass as they are (NFKC), however far they are
    // from ASCII.
    for name in [
        "\u{5F20}\u{4F1F}",
        "\u{5C71}\u{7530}\u{30BF}\u{30ED}\u{30A6}",
        "\u{305F}\u{306A}\u{304B}\u{592A}\u{90CE}",
        "\u{AE40}\u{BBFC}\u{C218}",
        "\u{421}\u{435}\u{440}\u{433}\u{435}\u{439}",
        "Jos\u{E9}",
        "\u{674E} Lee",
        "karol",
    ] {
        assert_eq!(guest(&url, name).await, Ok(name.to_string()));
    }
    assert_eq!(
        guest(&url, "Ivan_\u{418}\u{432}\u{430}\u{43D}").await,
        Err(ErrorCode::BadRequest),
        "two scripts"
    );
}

#[tokio::test]
async fn accounts_rooms_and_tournaments_cannot_take_a_lookalike_name() {
    let server = server_with(|s| s.accounts.conn_burst = 20).await;
    let mut c = client(&server, "someone", Encoding::Json).await;
    assert!(matches!(
        register(&mut c, "carol").await,
        Ok(ServerMsg::Registered(_))
    ));
    let mut other = client(&server, "other", Encoding::Json).await;
    for name in ["caroI", "car0l", "CAROL"] {
        match register(&mut other, name).await {
            Err(ClientError::Refused(e)) => assert_eq!(e.code, ErrorCode::NameTaken, "{name}"),
            r => panic!("{name}: {r:?}"),
        }
    }
    for name in ["gue5t", "karol"] {
        assert!(
            matches!(
                register(&mut other, name).await,
                Ok(ServerMsg::Registered(_))
            ),
            "{name}"
        );
    }
    // carol, karol and a guest name rooms.
    let g = client(&server, "mallory", Encoding::Json).await;
    let mut who = [c, other, g];
    let (carol, karol, guest) = (0, 1, 2);
    let room = |name: &str| ClientMsg::CreateRoom {
        config: GameConfig::new(RuleSet::Gomoku),
        public: true,
        name: Some(name.into()),
        chat: true,
        rated: false,
    };
    for (by, name) in [
        (guest, "carol"),
        (guest, "\u{441}arol"),
        (guest, "guest-7"),
        (guest, "my room\u{202E}"),
        (karol, "CAROL"),
    ] {
        match who[by].request(room(name)).await {
            Err(ClientError::Refused(e)) => assert_eq!(e.code, ErrorCode::InvalidName, "{name:?}"),
            r => panic!("{name:?}: {r:?}"),
        }
    }
    // The creator's own name, and names that are not an account's (as
    // shown: NFKC).
    for (by, name, shown) in [
        (carol, "Carol", "Carol"),
        (guest, "carol's room", "carol's room"),
        (guest, "Guests welcome", "Guests welcome"),
        (
            karol,
            "\u{4E94}\u{76EE}\u{4E26}\u{3079}",
            "\u{4E94}\u{76EE}\u{4E26}\u{3079}",
        ),
        (karol, "\u{FF2B}arol", "Karol"),
    ] {
        let c = &mut who[by];
        let room = match c.request(room(name)).await {
            Ok(ServerMsg::RoomCreated { room, .. }) => room,
            r => panic!("{name:?}: {r:?}"),
        };
        let Ok(ServerMsg::Rooms { rooms, .. }) = c.request(ClientMsg::ListRooms).await else {
            panic!("rooms")
        };
        let listed = rooms.iter().find(|r| r.room == room).expect("listed");
        assert_eq!(listed.name.as_deref(), Some(shown));
        c.request(ClientMsg::CancelRoom { room }).await.unwrap();
    }
    // A tournament is named as a room is.
    let event = |name: &str| ClientMsg::CreateTournament {
        tournament: serde_json::from_value(serde_json::json!({
            "name": name,
            "system": "round_robin",
            "config": GameConfig::new(RuleSet::Gomoku),
        }))
        .unwrap(),
    };
    match who[karol].request(event("car0l")).await {
        Err(ClientError::Refused(e)) => assert_eq!(e.code, ErrorCode::InvalidName),
        r => panic!("{r:?}"),
    }
    match who[karol].request(event("Spring \u{FF33}wiss")).await {
        Ok(ServerMsg::TournamentCreated { tournament }) => {
            assert_eq!(tournament.name, "Spring Swiss")
        }
        r => panic!("{r:?}"),
    }
}

/// An account stored as it was before names were compared.
fn stored(name: &str) -> Account {
    let hash = Argon2::default()
        .hash_password(PASSWORD.as_bytes())
        .unwrap()
        .to_string();
    Account {
        name: name.into(),
        password_hash: hash,
        created_ms: 1_700_000_000_000,
        bot: false,
        bot_filters: None,
    }
}

async fn store_accounts(dir: &Path, names: &[&str]) {
    let store = EmbeddedStore::open(dir).unwrap();
    for name in names {
        store.create_account(&stored(name)).await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn accounts_that_collide_already_keep_their_names_and_are_listed() {
    let dir = DataDir::new("lookalikes");
    store_accounts(&dir.0, &["carol", "caroI", "Mike", "rnike", "zoe"]).await;
    let server = server_on(&dir.0, |s| s.admins = vec!["zoe".into()]).await;
    let url = url(&server);
    for name in ["carol", "caroI", "rnike"] {
        let mut c = client(&server, "visitor", Encoding::Json).await;
        let r = c
            .request(ClientMsg::Login {
                name: name.into(),
                password: PASSWORD.into(),
            })
            .await;
        match r {
            Ok(ServerMsg::LoggedIn(li)) => assert_eq!(li.player.name, name),
            other => panic!("{name}: {other:?}"),
        }
    }
    let (mut zoe, _) = Connection::connect(&url, Encoding::Json, Some("z"))
        .await
        .unwrap();
    zoe.request(ClientMsg::Login {
        name: "zoe".into(),
        password: PASSWORD.into(),
    })
    .await
    .unwrap();
    let expected = vec![
        vec!["caroI".to_string(), "carol".to_string()],
        vec!["Mike".to_string(), "rnike".to_string()],
    ];
    match zoe
        .request(ClientMsg::Moderate(ModRequest::Lookalikes))
        .await
    {
        Ok(ServerMsg::Lookalikes { groups }) => assert_eq!(groups, expected),
        other => panic!("{other:?}"),
    }
    // A player may not list them.
    let mut p = client(&server, "player", Encoding::Json).await;
    p.request(ClientMsg::Login {
        name: "carol".into(),
        password: PASSWORD.into(),
    })
    .await
    .unwrap();
    match p.request(ClientMsg::Moderate(ModRequest::Lookalikes)).await {
        Err(ClientError::Refused(e)) => assert_eq!(e.code, ErrorCode::Forbidden),
        other => panic!("{other:?}"),
    }
    // The operator's command, through the running server's socket.
    let dir_arg = dir.0.display().to_string();
    let (ok, answer) = admin(vec!["--data-dir".into(), dir_arg, "lookalikes".into()]).await;
    assert!(ok, "{answer}");
    assert_eq!(answer["type"], "lookalikes");
    assert_eq!(answer["groups"], serde_json::json!(expected));
}
