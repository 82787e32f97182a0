//! Migration round trip: an embedded store filled through the trait,
//! migrated into a real Redis, one node or a three-primary cluster
//! (`tengen_store::testing`), and everything
//! read back from Redis: the whole export compared, and the reads the
//! server makes.

use std::sync::Arc;

use tengen_store::conformance::{export_all, export_study_all};
use tengen_store::migrate::{MigrateError, migrate};
use tengen_store::testing::{RedisCluster, RedisServer};
use tengen_store::{
    Account, AddressBan, AuditEntry, AuthToken, EmbeddedStore, FinishedGame, HistoryPoint, Playban,
    Rating, RatingUpdate, RedisOptions, RedisStore, Report, ReportClosed, Sanction, Standing,
    Store,
};
use tengen_store::{CountAdd, DocPut, ListPush, ScorePut, Tally};

fn rating(player: &str, family: &str, games: u32) -> Rating {
    Rating {
        player: player.into(),
        family: family.into(),
        rating: 1500.0 + f64::from(games) / 3.0,
        deviation: 350.0 / (1.0 + f64::from(games)),
        volatility: 0.06,
        games,
        wins: games,
        draws: 0,
        losses: 0,
        opponents: vec!["someone".into()],
        recent_ms: vec![u64::from(games)],
    }
}

/// A community: 700 accounts (more than a migration page), their tokens,
/// 300 rated games (ratings with histories in two families), unrated
/// games, and 40 live games with logs.
async fn fill(store: &dyn Store) {
    for i in 0..700 {
        let name = format!("Player{i}");
        store
            .create_account(&Account {
                name: name.clone(),
                password_hash: format!("$argon2id$hash{i}"),
                created_ms: 1_700_000_000_000 + i,
                bot: i == 0,
                bot_filters: (i == 0).then(|| r#"{"rated":false}"#.to_owned()),
            })
            .await
            .unwrap();
        store
            .put_token(&AuthToken {
                token: format!("{i:032x}"),
                account: name,
                expires_ms: 1_800_000_000_000,
            })
            .await
            .unwrap();
    }
    let mut games = std::collections::HashMap::<(String, &str), u32>::new();
    for g in 0..300u64 {
        let family = if g % 3 == 0 { "gomoku" } else { "renju" };
        let players = [
            format!("Player{}", g % 50),
            format!("Player{}", (g * 7 + 1) % 50),
        ];
        if players[0] == players[1] {
            continue;
        }
        let id = format!("game{g}");
        let mut ratings = Vec::new();
        for (p, other) in [(&players[0], &players[1]), (&players[1], &players[0])] {
            let n = games.entry((p.clone(), family)).or_default();
            ratings.push(RatingUpdate {
                expected_games: *n,
                rating: rating(p, family, *n + 1),
                history: HistoryPoint {
                    game: id.clone(),
                    at_ms: 1000 + g,
                    opponent: other.clone(),
                    score: 0.5,
                    rating: 1500.0 + g as f64,
                    deviation: 100.0,
                    volatility: 0.06,
                },
            });
            *n += 1;
        }
        store
            .finish_game(&FinishedGame {
                id,
                players: players.to_vec(),
                finished_ms: 1000 + g,
                record: format!("{{\"record\":{g}}}").into_bytes(),
                ratings,
            })
            .await
            .unwrap();
    }
    for g in 0..20u64 {
        store
            .finish_game(&FinishedGame {
                id: format!("casual{g}"),
                players: vec!["guest-1".into(), format!("Player{g}")],
                finished_ms: 5000 + g,
                record: vec![g as u8; 100],
                ratings: vec![],
            })
            .await
            .unwrap();
    }
    for t in 0..40u64 {
        let id = format!("live{t}");
        store.create_table(&id, id.as_bytes()).await.unwrap();
        let log: Vec<Vec<u8>> = (0..t).map(|i| format!("{id}/{i}").into_bytes()).collect();
        store.append(&id, 0, &log).await.unwrap();
    }
}

fn sanction(reason: &str, until_ms: Option<u64>) -> Sanction {
    Sanction {
        by: "Player3".into(),
        reason: reason.into(),
        since_ms: 1_700_000_000_000,
        until_ms,
    }
}

/// What moderation keeps, and the tournaments: standings of every kind
/// (a role, a ban, a mute, blocks, a fair-play record), the audit log,
/// open and closed reports, address bans and two tournaments.
async fn fill_moderation(store: &dyn Store) {
    let standings = [
        Standing {
            role: "moderator".into(),
            ..Standing::new("Player3")
        },
        Standing {
            ban: Some(sanction("engine use", None)),
            mute: Some(sanction("insults", Some(1_800_000_000_000))),
            ..Standing::new("Player7")
        },
        Standing {
            blocks: vec!["player7".into(), "player9".into()],
            playban: Playban {
                offences_ms: vec![1_700_000_000_000, 1_700_000_100_000],
                until_ms: 1_700_000_900_000,
                games: vec!["t1".into(), "t2".into()],
            },
            ..Standing::new("Player8")
        },
    ];
    for s in &standings {
        store.put_standing(s).await.unwrap();
    }
    for i in 0..5u64 {
        let entry = AuditEntry {
            at_ms: 1_700_000_000_000 + i,
            by: "Player3".into(),
            action: ["ban", "mute", "abort_game", "reset_rating", "close_room"][i as usize].into(),
            target: format!("target{i}"),
            reason: format!("reason {i}"),
        };
        store.append_audit(&entry).await.unwrap();
    }
    for (i, closed) in [(0, false), (1, true)] {
        let report = Report {
            id: format!("report{i}"),
            at_ms: 1_700_000_000_000 + i,
            by: "Player8".into(),
            player: "Player7".into(),
            game: (i == 1).then(|| "game1".into()),
            reason: "cheating".into(),
            text: "too strong".into(),
            closed: closed.then(|| ReportClosed {
                by: "Player3".into(),
                at_ms: 1_700_000_500_000,
                note: "warned".into(),
            }),
        };
        store.put_report(&report).await.unwrap();
    }
    for range in ["203.0.113.0/24", "2001:db8::/32"] {
        let ban = AddressBan {
            range: range.into(),
            ban: sanction("spam", None),
        };
        store.put_address_ban(&ban).await.unwrap();
    }
    for t in ["cup1", "cup2"] {
        store
            .put_tournament(t, format!("{{\"id\":\"{t}\"}}").as_bytes())
            .await
            .unwrap();
    }
}

/// An explorer's counters and latest games (more keys than a page, a
/// key with many fields), and puzzles with scores.
pub(crate) async fn fill_study(store: &dyn Store) {
    for g in 0..300u32 {
        let counts = (0..8u32)
            .map(|ply| CountAdd {
                key: vec![ply as u8, (g % (ply + 1)) as u8],
                field: g % 17,
                values: vec![1, i64::from(g), -1],
            })
            .collect();
        let pushes = vec![ListPush {
            key: vec![0, 0],
            item: g.to_le_bytes().to_vec(),
        }];
        let tally = Tally {
            token: format!("game{g}"),
            counts,
            pushes,
            keep: 8,
        };
        assert!(store.tally("explorer", &tally).await.unwrap());
    }
    for p in 0..40u32 {
        let id = format!("{p:016x}");
        store
            .put_docs(
                "puzzles",
                &[DocPut {
                    key: id.clone(),
                    expect: 0,
                    value: vec![p as u8; 50],
                }],
                &[ScorePut {
                    index: "rating".into(),
                    member: id,
                    score: Some(1000 + i64::from(p) * 25),
                }],
            )
            .await
            .unwrap();
    }
}

/// `to` holds the moderation data and tournaments `from` holds.
async fn same_moderation(from: &dyn Store, to: &dyn Store) {
    for name in ["Player3", "player7", "Player8", "Player9"] {
        let (a, b) = (
            from.standing(name).await.unwrap(),
            to.standing(name).await.unwrap(),
        );
        let strip = |s: Option<Standing>| s.map(|s| Standing { version: 0, ..s });
        assert_eq!(strip(a), strip(b), "{name}'s standing");
    }
    assert_eq!(
        from.audit_log(100).await.unwrap(),
        to.audit_log(100).await.unwrap()
    );
    let sorted = |mut v: Vec<Report>| {
        v.sort_by(|a, b| a.id.cmp(&b.id));
        v
    };
    assert_eq!(
        sorted(from.reports().await.unwrap()),
        sorted(to.reports().await.unwrap())
    );
    let bans = |mut v: Vec<AddressBan>| {
        v.sort_by(|a, b| a.range.cmp(&b.range));
        v
    };
    assert_eq!(
        bans(from.address_bans().await.unwrap()),
        bans(to.address_bans().await.unwrap())
    );
    assert_eq!(
        from.tournaments().await.unwrap(),
        to.tournaments().await.unwrap()
    );
}

async fn redis_store(url: &str, prefix: &str) -> RedisStore {
    RedisStore::connect(
        url,
        RedisOptions {
            prefix: prefix.into(),
            ..RedisOptions::default()
        },
    )
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_to_redis_and_back() {
    let redis = RedisServer::start();
    round_trip(&redis.url()).await;
}

/// The same into a Redis Cluster of three primaries: the export that
/// brings it back scans every primary.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_to_a_redis_cluster_and_back() {
    let cluster = RedisCluster::start();
    round_trip(&cluster.url()).await;
}

async fn round_trip(url: &str) {
    let dir = tempfile::tempdir().unwrap();
    let embedded = EmbeddedStore::open(&dir.path().join("from")).unwrap();
    fill(&embedded).await;
    fill_moderation(&embedded).await;
    fill_study(&embedded).await;
    let study = export_study_all(&embedded, 1000).await;
    let to = redis_store(url, "migrated").await;

    let report = migrate(&embedded, &to, false).await.unwrap();
    assert_eq!(report.accounts, 700);
    assert_eq!(report.tokens, 700);
    let rated = (0..300u64).filter(|g| g % 50 != (g * 7 + 1) % 50).count() as u64;
    assert_eq!(report.games, rated + 20);
    assert_eq!(report.history_points, 2 * rated);
    assert_eq!(report.live_tables, 40);
    assert_eq!(report.live_entries, (0..40).sum::<u64>());
    assert_eq!(
        (
            report.standings,
            report.audit_entries,
            report.reports,
            report.address_bans,
            report.tournaments
        ),
        (3, 5, 2, 2, 2)
    );
    assert_eq!(report.study_items, study.len() as u64);
    same_moderation(&embedded, &to).await;
    assert_eq!(export_study_all(&to, 1000).await, study);
    assert_eq!(
        to.scored("puzzles", "rating", 1500, 1600, 10)
            .await
            .unwrap(),
        embedded
            .scored("puzzles", "rating", 1500, 1600, 10)
            .await
            .unwrap()
    );

    let want = export_all(&embedded, 1000).await;
    assert_eq!(
        export_all(&to, 1000).await,
        want,
        "Redis holds exactly what was migrated"
    );

    // What the server reads, read from Redis.
    for name in ["player0", "PLAYER49", "Player699"] {
        assert_eq!(
            to.account(name).await.unwrap(),
            embedded.account(name).await.unwrap()
        );
        for family in ["renju", "gomoku"] {
            assert_eq!(
                to.rating(name, family).await.unwrap(),
                embedded.rating(name, family).await.unwrap()
            );
            assert_eq!(
                to.rating_history(name, family).await.unwrap(),
                embedded.rating_history(name, family).await.unwrap()
            );
        }
        assert_eq!(
            to.games_of(name, None, 1000).await.unwrap(),
            embedded.games_of(name, None, 1000).await.unwrap()
        );
    }
    let mut ratings = to.ratings("renju").await.unwrap();
    let mut want_ratings = embedded.ratings("renju").await.unwrap();
    ratings.sort_by(|a, b| a.player.cmp(&b.player));
    want_ratings.sort_by(|a, b| a.player.cmp(&b.player));
    assert_eq!(ratings, want_ratings);
    let mut live = to.live_tables().await.unwrap();
    let mut want_live = embedded.live_tables().await.unwrap();
    live.sort_by(|a, b| a.id.cmp(&b.id));
    want_live.sort_by(|a, b| a.id.cmp(&b.id));
    assert_eq!(live, want_live);
    assert_eq!(
        to.game("game1").await.unwrap(),
        embedded.game("game1").await.unwrap()
    );
    // The migrated live games go on in Redis.
    to.append("live3", 3, &[b"next".to_vec()]).await.unwrap();

    // Into a non-empty prefix: refused unless forced.
    match migrate(&embedded, &to, false).await {
        Err(MigrateError::NotEmpty(_)) => {}
        other => panic!("{other:?}"),
    }
    let again = migrate(&embedded, &to, true).await.unwrap();
    assert_eq!(
        export_all(&to, 1000).await,
        want,
        "a forced migration puts it all back"
    );
    assert_eq!(again.audit_entries, 0, "no audit entry twice");
    same_moderation(&embedded, &to).await;

    // And back, from Redis into a new embedded store.
    let back = Arc::new(EmbeddedStore::open(&dir.path().join("back")).unwrap());
    migrate(&to, back.as_ref(), false).await.unwrap();
    assert_eq!(export_all(back.as_ref(), 7).await, want);
    same_moderation(&embedded, back.as_ref()).await;
    assert_eq!(export_study_all(back.as_ref(), 7).await, study);
    // A migrated tally token is applied there already.
    let again = Tally {
        token: "game5".into(),
        counts: vec![],
        pushes: vec![],
        keep: 8,
    };
    assert!(!back.tally("explorer", &again).await.unwrap());
}
