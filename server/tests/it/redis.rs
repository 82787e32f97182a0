//! The server on the Redis store, against a real `redis-server` that each
//! test starts on a free port (`tengen_store::testing`): Redis restarted
//! under a game in progress, the server killed and started again on
//! Redis, the persistence warning, and the `migrate` command.

use crate::common;

use std::time::Duration;

use common::proc::{self, DataDir};
use common::redis::store;
use common::scripted::{self, games_part_way, resume_and_finish};
use tengen_client::{ClientError, Connection};
use tengen_protocol::{ClientMsg, Encoding, ErrorCode, PauseReason, ServerMsg, TableId};
use tengen_rules::game::{ClockSnapshot, GameConfig, GameRecord, RuleSet, TimeControl};
use tengen_server::RedisSettings;
use tengen_store::testing::RedisServer;
use tengen_store::{RedisOptions, RedisStore, Store};

/// The next `table_paused` push, within 15 s.
async fn paused_push(c: &mut Connection) -> (Option<PauseReason>, Option<ClockSnapshot>) {
    let f = tokio::time::timeout(
        Duration::from_secs(15),
        c.next_matching(|m| matches!(m, ServerMsg::TablePaused { .. })),
    )
    .await
    .expect("a table_paused push within 15 s")
    .unwrap();
    match f.msg {
        ServerMsg::TablePaused { paused, clocks, .. } => (paused, clocks),
        _ => unreachable!(),
    }
}

async fn moves_in_snapshot(c: &mut Connection, table: &TableId) -> (usize, Option<PauseReason>) {
    match c
        .request(ClientMsg::Snapshot {
            table: table.clone(),
        })
        .await
        .unwrap()
    {
        ServerMsg::TableSnapshot(s) => (s.snapshot.moves.len(), s.paused),
        other => panic!("{other:?}"),
    }
}

/// Redis killed under a game: the table refuses the next move with
/// `unavailable` and pauses its clocks (`table_paused`, reason `store`);
/// Redis started again on the same port and directory: the table thaws
/// by itself, the game goes on to the end, and every accepted move is in
/// Redis (the live log, then the record). The server never crashes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_goes_on_while_redis_restarts() {
    let mut redis = RedisServer::start();
    let url = redis.url();
    let server = common::server_with(|s| {
        s.redis = Some(RedisSettings {
            url,
            prefix: "restart".into(),
            ca_file: None,
        });
    })
    .await;
    let config =
        GameConfig::free(RuleSet::Gomoku).with_time(TimeControl::SuddenDeath { main_ms: 120_000 });
    let mut t = common::table(&server, config, Encoding::Json).await;
    let black = t.opener();
    let white = black.other();
    let table = t.table.clone();
    t.act_as(black, common::place(scripted::BLACK[0])).await;
    t.act_as(white, common::place(scripted::WHITE[0])).await;

    redis.kill();
    let refused = t
        .conn(black)
        .request(ClientMsg::Act {
            table: table.clone(),
            action: common::place(scripted::BLACK[1]),
        })
        .await;
    match refused {
        Err(ClientError::Refused(e)) => assert_eq!(e.code, ErrorCode::Unavailable),
        other => panic!("a move while Redis is down: {other:?}"),
    }
    let (reason, stopped) = paused_push(t.conn(black)).await;
    assert_eq!(reason, Some(PauseReason::Store));
    assert_eq!(paused_push(t.conn(white)).await, (reason, stopped));
    assert_eq!(
        moves_in_snapshot(t.conn(white), &table).await,
        (2, Some(PauseReason::Store)),
        "the refused move did not happen"
    );
    // The server still serves meanwhile.
    let healthz = proc::http_get(&server.addr().to_string(), "/healthz").unwrap();
    assert!(healthz.starts_with("HTTP/1.1 200"), "{healthz}");

    redis.restart();
    let (reason, clocks) = paused_push(t.conn(black)).await;
    assert_eq!(reason, None, "the table thawed");
    assert_eq!(
        clocks, stopped,
        "the clocks stood still while Redis was away"
    );
    assert_eq!(paused_push(t.conn(white)).await.0, None);

    // The game goes on; each accepted move is in Redis's log.
    let check = store(&redis, "restart").await;
    for n in 2..9 {
        let (is_black, point) = scripted::ply(n);
        let seat = if is_black { black } else { white };
        t.act_as(seat, common::place(point)).await;
        if n < 8 {
            let live = check
                .live_table(table.as_str())
                .await
                .unwrap()
                .expect("the table is live in Redis");
            assert_eq!(live.entries.len(), n + 1, "the log in Redis after ply {n}");
        }
    }
    // The finished game's record, with every move, replaces the log.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let stored = loop {
        if let Some(g) = check.game(table.as_str()).await.unwrap() {
            break g;
        }
        assert!(std::time::Instant::now() < deadline, "no record in Redis");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let record = GameRecord::from_json(std::str::from_utf8(&stored.record).unwrap()).unwrap();
    let game = record.replay().expect("the record replays");
    assert_eq!(game.moves().len(), 9);
    assert_eq!(game.result().unwrap().winner(), Some(black));
    assert_eq!(check.live_table(table.as_str()).await.unwrap(), None);
}

/// The server binary on Redis, killed with SIGKILL part-way through three
/// games and started again (on another, empty data directory: the first
/// one was never even created). The players resume with their tokens,
/// find every accepted move and finish; the records are in Redis.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_restarts_on_redis() {
    let redis = RedisServer::start();
    let url = redis.url();
    let args = ["--redis", url.as_str(), "--redis-prefix", "proc"];
    let first_dir = DataDir::new("redis-first");
    let server = proc::start_with(&first_dir.0, &args);
    let mut games = games_part_way(&server.url()).await;
    server.kill();
    assert!(
        !first_dir.0.exists(),
        "the data directory is not used with --redis"
    );
    let second_dir = DataDir::new("redis-second");
    let server = proc::start_with(&second_dir.0, &args);
    for g in &mut games {
        resume_and_finish(&server.url(), g).await;
    }
    let (status, _, stderr) = server.terminate();
    assert!(status.success(), "{status:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    scripted::check_records(&store(&redis, "proc").await, &games).await;
}

async fn config_set(redis: &RedisServer, setting: &str, value: &str) {
    let mut conn = redis::Client::open(redis.url())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let () = redis::cmd("CONFIG")
        .arg("SET")
        .arg(setting)
        .arg(value)
        .query_async(&mut conn)
        .await
        .unwrap();
}

/// Without the append-only file, the server says loudly at start that an
/// accepted move can be lost; with it (and `appendfsync always`), it
/// does not warn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_without_the_append_only_file_is_warned_about() {
    let redis = RedisServer::start();
    let url = redis.url();
    let dir = DataDir::new("redis-warn");
    let server = proc::start_with(&dir.0, &["--redis", url.as_str()]);
    let (_, _, stderr) = server.terminate();
    assert!(!stderr.contains("does NOT hold"), "{stderr}");

    config_set(&redis, "appendonly", "no").await;
    let server = proc::start_with(&dir.0, &["--redis", url.as_str()]);
    let (status, _, stderr) = server.terminate();
    assert!(status.success());
    assert!(stderr.contains("WARN"), "{stderr}");
    assert!(
        stderr.contains("appendonly no") && stderr.contains("does NOT hold"),
        "{stderr}"
    );
}

/// A Redis that is not there: the server does not start, says why, and
/// does not panic.
#[test]
fn no_redis_no_start() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = DataDir::new("redis-none");
    let url = format!("redis://127.0.0.1:{port}/");
    let t0 = std::time::Instant::now();
    let failed = proc::try_start_with(&dir.0, &["--redis", &url])
        .err()
        .expect("refused");
    assert!(!failed.status.success());
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
    assert!(failed.stderr.contains(&url), "{}", failed.stderr);
    assert!(!failed.stderr.contains("panicked"), "{}", failed.stderr);
}

/// `tengen-server migrate`: a data directory's community into Redis;
/// a second run into the same prefix is refused unless `--force`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_migrate_command() {
    let dir = DataDir::new("migrate");
    {
        let embedded = tengen_store::EmbeddedStore::open(&dir.0).unwrap();
        embedded
            .create_account(&tengen_store::Account {
                name: "Alice".into(),
                password_hash: "$argon2id$x".into(),
                created_ms: 1,
                bot: false,
                bot_filters: None,
            })
            .await
            .unwrap();
        embedded
            .finish_game(&tengen_store::FinishedGame {
                id: "done".into(),
                players: vec!["Alice".into(), "guest-1".into()],
                finished_ms: 5,
                record: b"{}".to_vec(),
                ratings: vec![],
            })
            .await
            .unwrap();
    }
    let redis = RedisServer::start();
    let url = redis.url();
    let migrate = |force: bool| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_tengen-server"));
        cmd.arg("migrate")
            .arg("--from-data-dir")
            .arg(&dir.0)
            .args(["--to-redis", &url, "--redis-prefix", "moved"])
            .env_remove("TENGEN_REDIS")
            .env_remove("TENGEN_REDIS_PREFIX")
            .env_remove("TENGEN_REDIS_CA")
            .env("TENGEN_LOG", "warn");
        if force {
            cmd.arg("--force");
        }
        cmd.output().expect("the binary runs")
    };
    let out = migrate(false);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("migrated 1 accounts"), "{stdout}");
    assert!(stdout.contains("1 finished games"), "{stdout}");

    let again = migrate(false);
    assert!(!again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("not empty"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert!(migrate(true).status.success());

    let moved = store(&redis, "moved").await;
    assert_eq!(moved.account("alice").await.unwrap().unwrap().name, "Alice");
    assert_eq!(moved.games_of("Alice", None, 5).await.unwrap().len(), 1);

    // A missing data directory is an error, not an empty migration.
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_tengen-server"));
    let out = cmd
        .args([
            "migrate",
            "--from-data-dir",
            "/nonexistent/tengen",
            "--to-redis",
            &url,
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/tengen"));
}

/// The server over `rediss://` with a private CA (`--redis-ca`): a game's
/// moves land in Redis over TLS.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_over_tls() {
    let redis = RedisServer::start_tls();
    let url = redis.tls_url().unwrap();
    let ca = redis.ca_file().to_string_lossy().into_owned();
    let dir = DataDir::new("redis-tls");
    let server = proc::start_with(
        &dir.0,
        &["--redis", &url, "--redis-ca", &ca, "--redis-prefix", "tls"],
    );
    let mut game = scripted::new_game(&server.url(), 0).await;
    for _ in 0..3 {
        assert!(!game.play_next().await);
    }
    let check = RedisStore::connect(
        &url,
        RedisOptions {
            prefix: "tls".into(),
            ca_file: Some(redis.ca_file()),
            ..RedisOptions::default()
        },
    )
    .await
    .unwrap();
    let live = check
        .live_table(game.table.as_str())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(live.entries.len(), 3);
    let (status, _, stderr) = server.terminate();
    assert!(status.success(), "{stderr}");
}
