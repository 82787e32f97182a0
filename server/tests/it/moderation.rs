//! Moderation through the real protocol: roles and who may do what, the
//! audit log, bans (sessions closed at once, logins refused with the
//! reason), mutes (a muted line reaches only its sender, event numbers
//! stay whole), blocks (players' and spectators' chat, challenges, the
//! matchmaker), reports, and
//! address bans at the WebSocket upgrade. The first admin is made with
//! `tengen-server admin` through the running server's admin socket.

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::moderation::{admin, moderate, refusal};
use common::*;
use tengen_client::{ClientError, Connection, Identity};
use tengen_protocol::{
    ClientMsg, Encoding, ErrorCode, ModRequest, ReportReason, Role, ServerMsg, TableId,
};
use tengen_rules::game::{GameConfig, RuleSet, Seat};
use tengen_server::Server;

/// A server on a data directory of the test's own (the admin socket
/// lives there).
async fn server_in(dir: &Path) -> Server {
    let dir = dir.to_path_buf();
    server_with(move |s| {
        s.data_dir = dir;
        s.matchmaking.interval = Duration::from_millis(100);
    })
    .await
}

fn mute(player: &str, minutes: u64) -> ModRequest {
    ModRequest::Mute {
        player: player.into(),
        reason: "flooding".into(),
        minutes,
    }
}

/// `name` made an admin from the command line, then `mods` made
/// moderators by that admin; the admin's connection.
async fn staff(server: &Server, dir: &Path, name: &str, mods: &[&str]) -> Connection {
    let mut boss = account(server, name).await;
    let (ok, answer) = admin(dir, &["role", name, "admin"]).await;
    assert!(ok, "{answer}");
    assert_eq!(answer["type"], "moderated");
    assert_eq!(answer["target"], name);
    for m in mods {
        let req = ModRequest::SetRole {
            player: (*m).into(),
            role: Role::Moderator,
            reason: "trusted".into(),
        };
        match moderate(&mut boss, req).await.unwrap() {
            ServerMsg::Moderated { action, target } => {
                assert_eq!(action, "set_role");
                assert_eq!(target, *m);
            }
            other => panic!("{other:?}"),
        }
    }
    boss
}

#[tokio::test]
async fn roles_decide_who_moderates_and_every_action_is_audited() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_in(dir.path()).await;
    let mut mo = account(&server, "Moe").await;
    let mut pat = account(&server, "Pat").await;
    let _ = account(&server, "Cyd").await;
    // Nobody has a role yet: a player may not moderate; a guest must log in.
    let e = refusal(moderate(&mut pat, mute("Cyd", 5)).await);
    assert_eq!(e.code, ErrorCode::Forbidden);
    let mut guest = client(&server, "gus", Encoding::Json).await;
    let e = refusal(moderate(&mut guest, mute("Cyd", 5)).await);
    assert_eq!(e.code, ErrorCode::LoginRequired);
    let mut ada = staff(&server, dir.path(), "Ada", &["Moe"]).await;
    // A moderator moderates, but does not give roles.
    assert!(matches!(
        moderate(&mut mo, mute("Cyd", 5)).await.unwrap(),
        ServerMsg::Moderated { .. }
    ));
    let req = ModRequest::SetRole {
        player: "Pat".into(),
        role: Role::Moderator,
        reason: "friend".into(),
    };
    assert_eq!(
        refusal(moderate(&mut mo, req).await).code,
        ErrorCode::Forbidden
    );
    // Bad input changes nothing: an unknown account, a zero-minute mute.
    let e = refusal(moderate(&mut mo, mute("Nobody", 5)).await);
    assert_eq!(e.code, ErrorCode::NotFound);
    let e = refusal(moderate(&mut mo, mute("Cyd", 0)).await);
    assert_eq!(e.code, ErrorCode::BadRequest);
    // The audit log, newest first: the mute, Mo's role, Ada's role.
    let ServerMsg::AuditLog { entries } =
        moderate(&mut ada, ModRequest::AuditLog { limit: Some(10) })
            .await
            .unwrap()
    else {
        panic!("an audit log")
    };
    let seen: Vec<(&str, &str, &str)> = entries
        .iter()
        .map(|e| (e.by.as_str(), e.action.as_str(), e.target.as_str()))
        .collect();
    assert_eq!(seen.len(), 3, "{seen:?}");
    assert_eq!(seen[0], ("Moe", "mute", "Cyd"));
    assert_eq!(seen[1], ("Ada", "set_role", "Moe moderator"));
    assert_eq!(seen[2].1, "set_role");
    assert!(seen[2].0.starts_with("cli:"), "{seen:?}");
    assert_eq!(entries[0].reason, "flooding");
    assert!(entries[0].at_ms >= entries[1].at_ms);
    // A player may not read it.
    let e = refusal(moderate(&mut pat, ModRequest::AuditLog { limit: None }).await);
    assert_eq!(e.code, ErrorCode::Forbidden);
}

/// Two accounts at a new table: (creator, joiner, table).
async fn seated(server: &Server, a: &str, b: &str) -> (Connection, Connection, TableId) {
    let mut first = account(server, a).await;
    let mut second = account(server, b).await;
    let room = create_room(&mut first, GameConfig::new(RuleSet::Gomoku), true).await;
    assert!(matches!(
        second.request(ClientMsg::JoinRoom { room }).await,
        Ok(ServerMsg::Joined { .. })
    ));
    let s1 = snapshot_push(&mut first).await;
    let s2 = snapshot_push(&mut second).await;
    assert_eq!(s1.table, s2.table);
    (first, second, s1.table)
}

/// What a connection received until its `ping` came back: chat texts and
/// table event numbers.
async fn drain(c: &mut Connection) -> (Vec<String>, Vec<u64>) {
    let id = c.send(ClientMsg::Ping).await.unwrap();
    let (mut chats, mut seqs) = (Vec::new(), Vec::new());
    loop {
        let f = c.next().await.unwrap();
        if f.id == Some(id) {
            return (chats, seqs);
        }
        match f.msg {
            ServerMsg::Chat { text, .. } => chats.push(text),
            ServerMsg::TableEvent(e) => seqs.push(e.seq),
            _ => {}
        }
    }
}

fn say(table: &TableId, text: &str) -> ClientMsg {
    ClientMsg::Chat {
        table: table.clone(),
        text: text.into(),
    }
}

#[tokio::test]
async fn a_muted_players_chat_reaches_only_them_and_event_numbers_stay_whole() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_in(dir.path()).await;
    let mut mo = staff(&server, dir.path(), "Moe", &[]).await;
    let (mut ann, mut bob, table) = seated(&server, "Ann", "Bob").await;
    assert!(matches!(
        ann.request(say(&table, "hello")).await,
        Ok(ServerMsg::Chat { .. })
    ));
    assert_eq!(drain(&mut bob).await.0, vec!["hello".to_string()]);
    assert!(matches!(
        moderate(&mut mo, mute("ann", 10)).await,
        Ok(ServerMsg::Moderated { .. })
    ));
    // Ann sees her own line as usual; Bob gets nothing.
    match ann.request(say(&table, "you fool")).await.unwrap() {
        ServerMsg::Chat { text, from, .. } => {
            assert_eq!(text, "you fool");
            assert_eq!(from.name, "Ann");
        }
        other => panic!("{other:?}"),
    }
    // Moves around the muted line: Bob's event numbers have no gap.
    let snap = snapshot_of(&mut bob, &table).await;
    let ann_black = snap.snapshot.black == Seat::First;
    for (n, p) in ["H8", "A1", "H9"].into_iter().enumerate() {
        let black_moves = n % 2 == 0;
        let mover = if black_moves == ann_black {
            &mut ann
        } else {
            &mut bob
        };
        act(mover, &table, place(p)).await;
    }
    assert!(ann.request(say(&table, "still muted")).await.is_ok());
    let (chats, seqs) = drain(&mut bob).await;
    assert!(chats.is_empty(), "Bob heard {chats:?}");
    assert_eq!(
        seqs,
        vec![1, 2, 3],
        "Bob's events are numbered without a gap"
    );
    let (_, ann_seqs) = drain(&mut ann).await;
    assert_eq!(ann_seqs, vec![1, 2, 3]);
    // Bob still talks to Ann; unmuted, Ann is heard again.
    assert!(bob.request(say(&table, "calm down")).await.is_ok());
    assert_eq!(drain(&mut ann).await.0, vec!["calm down".to_string()]);
    let unmute = ModRequest::Unmute {
        player: "Ann".into(),
        reason: "served".into(),
    };
    assert!(moderate(&mut mo, unmute).await.is_ok());
    // (Past the chat's burst of three: one line a second.)
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert!(ann.request(say(&table, "sorry")).await.is_ok());
    assert_eq!(drain(&mut bob).await.0, vec!["sorry".to_string()]);
}

#[tokio::test]
async fn a_ban_closes_every_session_and_refuses_logins_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_in(dir.path()).await;
    let mut mo = staff(&server, dir.path(), "Moe", &[]).await;
    let mut cy = account(&server, "Cyd").await;
    // Cy's second connection, by login token.
    let token = match cy
        .request(ClientMsg::Login {
            name: "Cyd".into(),
            password: "long enough".into(),
        })
        .await
        .unwrap()
    {
        ServerMsg::LoggedIn(l) => l.token,
        other => panic!("{other:?}"),
    };
    let who = Identity {
        name: None,
        login: Some(token.clone()),
    };
    let (mut cy2, _) = Connection::connect_as(&url(&server), Encoding::MsgPack, &who, None)
        .await
        .unwrap();
    let ban = ModRequest::Ban {
        player: "cyd".into(),
        reason: "cheating".into(),
        minutes: Some(60),
    };
    assert!(matches!(
        moderate(&mut mo, ban).await,
        Ok(ServerMsg::Moderated { .. })
    ));
    for c in [&mut cy, &mut cy2] {
        match c.next_matching(|_| false).await {
            Err(ClientError::Closed { code, .. }) => assert_eq!(code, 4006),
            other => panic!("expected a close, got {other:?}"),
        }
    }
    // A login and a hello with the token are refused, saying why and until when.
    let mut again = client(&server, "cy-again", Encoding::Json).await;
    let e = refusal(
        again
            .request(ClientMsg::Login {
                name: "Cyd".into(),
                password: "long enough".into(),
            })
            .await,
    );
    assert_eq!(e.code, ErrorCode::Banned);
    let ban = e.ban.expect("the ban's details");
    assert_eq!(ban.reason, "cheating");
    let until = ban.until_ms.expect("a timed ban");
    let now = tengen_server::accounts::unix_ms();
    assert!(
        until > now + 59 * 60_000 && until <= now + 60 * 60_000,
        "{until}"
    );
    match Connection::connect_as(&url(&server), Encoding::Json, &who, None).await {
        Err(ClientError::Refused(e)) => assert_eq!(e.code, ErrorCode::Banned),
        other => panic!("expected a refusal, got {:?}", other.map(|_| ())),
    }
    // Unbanned, Cy logs in again.
    let unban = ModRequest::Unban {
        player: "Cyd".into(),
        reason: "appeal".into(),
    };
    assert!(moderate(&mut mo, unban).await.is_ok());
    assert!(matches!(
        again
            .request(ClientMsg::Login {
                name: "Cyd".into(),
                password: "long enough".into(),
            })
            .await,
        Ok(ServerMsg::LoggedIn(_))
    ));
}

async fn queue(c: &mut Connection, config: &GameConfig) {
    let q = ClientMsg::Queue {
        config: config.clone(),
        bots: false,
    };
    assert!(matches!(c.request(q).await, Ok(ServerMsg::Queued { .. })));
}

#[tokio::test]
async fn a_block_keeps_chat_challenges_and_pairings_apart() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_in(dir.path()).await;
    let (mut ann, mut bob, table) = seated(&server, "Ann", "Bob").await;
    match ann
        .request(ClientMsg::Block {
            player: "BOB".into(),
        })
        .await
        .unwrap()
    {
        ServerMsg::Blocks { players } => assert_eq!(players, vec!["bob".to_string()]),
        other => panic!("{other:?}"),
    }
    let e = refusal(
        ann.request(ClientMsg::Block {
            player: "nobody".into(),
        })
        .await,
    );
    assert_eq!(e.code, ErrorCode::NotFound);
    // Bob's chat no longer reaches Ann; hers still reaches him.
    assert!(bob.request(say(&table, "hey")).await.is_ok());
    assert!(drain(&mut ann).await.0.is_empty());
    assert!(ann.request(say(&table, "bye")).await.is_ok());
    assert_eq!(drain(&mut bob).await.0, vec!["bye".to_string()]);
    // A challenge between them is refused, either way round.
    let challenge = |player: &str| ClientMsg::Challenge {
        player: player.into(),
        config: GameConfig::new(RuleSet::Gomoku),
        chat: true,
        rated: false,
    };
    let e = refusal(bob.request(challenge("Ann")).await);
    assert_eq!(e.code, ErrorCode::Blocked);
    let e = refusal(ann.request(challenge("Bob")).await);
    assert_eq!(e.code, ErrorCode::Blocked);
    // The matchmaker never pairs them, though they are alone in the queue
    // with equal ratings; Cid, queuing later, is paired with one of them.
    let (mut ann2, mut bob2) = (
        account(&server, "Ann2").await,
        account(&server, "Bob2").await,
    );
    drop((
        ann2.request(ClientMsg::Ping).await,
        bob2.request(ClientMsg::Ping).await,
    ));
    let login = |name: &str| ClientMsg::Login {
        name: name.into(),
        password: "long enough".into(),
    };
    assert!(ann2.request(login("Ann")).await.is_ok());
    assert!(bob2.request(login("Bob")).await.is_ok());
    let config = GameConfig::new(RuleSet::Renju);
    queue(&mut ann2, &config).await;
    queue(&mut bob2, &config).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    for c in [&mut ann2, &mut bob2] {
        let id = c.send(ClientMsg::Ping).await.unwrap();
        let f = c.next().await.unwrap();
        assert_eq!(f.id, Some(id), "not matched: {:?}", f.msg);
    }
    let mut cid = account(&server, "Cid").await;
    queue(&mut cid, &config).await;
    cid.timeout = Duration::from_secs(5);
    match cid
        .next_matching(|m| matches!(m, ServerMsg::Matched { .. }))
        .await
        .unwrap()
        .msg
    {
        ServerMsg::Matched { opponent, .. } => {
            assert!(["Ann", "Bob"].contains(&opponent.name.as_str()))
        }
        _ => unreachable!(),
    }
    // Unblocked, Ann hears Bob again.
    assert!(matches!(
        ann.request(ClientMsg::Unblock {
            player: "Bob".into()
        })
        .await,
        Ok(ServerMsg::Blocks { players }) if players.is_empty()
    ));
    assert!(bob.request(say(&table, "peace")).await.is_ok());
    assert_eq!(drain(&mut ann).await.0, vec!["peace".to_string()]);
}

#[tokio::test]
async fn a_block_hides_a_spectators_chat_from_a_spectating_blocker() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_in(dir.path()).await;
    let (_ann, _bob, table) = seated(&server, "Ann", "Bob").await;
    let mut watchers = Vec::new();
    for name in ["Sam", "Tom", "Uma"] {
        let mut c = account(&server, name).await;
        watch_snapshot(&mut c, &table).await;
        watchers.push(c);
    }
    let [sam, tom, uma] = &mut watchers[..] else {
        unreachable!()
    };
    let block = ClientMsg::Block {
        player: "Tom".into(),
    };
    assert!(matches!(
        sam.request(block).await,
        Ok(ServerMsg::Blocks { .. })
    ));
    // Tom's line reaches Uma, not Sam; Uma's reaches both.
    assert!(tom.request(say(&table, "psst")).await.is_ok());
    assert_eq!(drain(uma).await.0, vec!["psst".to_string()]);
    assert!(drain(sam).await.0.is_empty());
    assert!(uma.request(say(&table, "hush")).await.is_ok());
    assert_eq!(drain(sam).await.0, vec!["hush".to_string()]);
    assert_eq!(drain(tom).await.0, vec!["hush".to_string()]);
}

#[tokio::test]
async fn reports_queue_for_moderators_who_close_them() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_in(dir.path()).await;
    let mut mo = staff(&server, dir.path(), "Moe", &[]).await;
    let mut ann = account(&server, "Ann").await;
    let _bob = account(&server, "Bob").await;
    let report = |text: &str| ClientMsg::Report {
        player: "bob".into(),
        game: None,
        reason: ReportReason::ChatAbuse,
        text: text.into(),
    };
    let id = match ann.request(report("insults")).await.unwrap() {
        ServerMsg::Reported { report } => report,
        other => panic!("{other:?}"),
    };
    let long = "x".repeat(201);
    let e = refusal(ann.request(report(&long)).await);
    assert_eq!(e.code, ErrorCode::BadRequest);
    let e = refusal(ann.request(ClientMsg::Moderate(ModRequest::Reports)).await);
    assert_eq!(e.code, ErrorCode::Forbidden);
    let ServerMsg::Reports { reports } = moderate(&mut mo, ModRequest::Reports).await.unwrap()
    else {
        panic!("reports")
    };
    assert_eq!(reports.len(), 1);
    assert_eq!(reports[0].id, id);
    assert_eq!(reports[0].by, "Ann");
    assert_eq!(reports[0].player, "Bob");
    assert_eq!(reports[0].reason, ReportReason::ChatAbuse);
    let close = ModRequest::CloseReport {
        report: id.clone(),
        reason: "warned".into(),
    };
    assert!(moderate(&mut mo, close.clone()).await.is_ok());
    assert_eq!(
        refusal(moderate(&mut mo, close).await).code,
        ErrorCode::NotFound
    );
    assert!(matches!(
        moderate(&mut mo, ModRequest::Reports).await,
        Ok(ServerMsg::Reports { reports }) if reports.is_empty()
    ));
}

#[tokio::test]
async fn a_banned_address_range_cannot_connect() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_in(dir.path()).await;
    let mut mo = staff(&server, dir.path(), "Moe", &[]).await;
    let ban = |range: &str| ModRequest::BanAddress {
        range: range.into(),
        reason: "spam bots".into(),
        minutes: None,
    };
    let e = refusal(moderate(&mut mo, ban("127.0.0.1/8")).await);
    assert_eq!(e.code, ErrorCode::BadRequest, "host bits past the prefix");
    assert!(moderate(&mut mo, ban("10.0.0.0/8")).await.is_ok());
    assert!(
        Connection::connect(&url(&server), Encoding::Json, Some("ok"))
            .await
            .is_ok()
    );
    assert!(moderate(&mut mo, ban("127.0.0.0/8")).await.is_ok());
    match Connection::connect(&url(&server), Encoding::Json, Some("spam")).await {
        Err(ClientError::Ws(e)) => assert!(e.to_string().contains("403"), "{e}"),
        other => panic!("expected HTTP 403, got {:?}", other.map(|_| ())),
    }
    // The moderator's open connection lifts it.
    let lift = ModRequest::UnbanAddress {
        range: "127.0.0.0/8".into(),
        reason: "mistake".into(),
    };
    assert!(moderate(&mut mo, lift).await.is_ok());
    assert!(
        Connection::connect(&url(&server), Encoding::Json, Some("back"))
            .await
            .is_ok()
    );
}
