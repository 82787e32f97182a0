//! Tokens at rest, through the real server: after registrations, logins,
//! hellos with a login token and a game between guests, no login token and
//! no resume token appears in any file of the data directory (while the
//! server runs and after it stopped), nor in any key or value in Redis;
//! the directory is 0700 and its files 0600; and the tokens still work
//! after a restart (the server finds sessions and logins by the digest).
//! A store the previous version left, with tokens as they are, is brought
//! up to date: by the server's start (the embedded store) and by
//! `tengen-server migrate` (into Redis); after that no token is left in
//! either, and the players' tokens still work.

use crate::common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

use common::long_game::LongGame;
use common::proc::DataDir;
use tengen_client::{Connection, Identity};
use tengen_protocol::{ClientMsg, Encoding, ServerMsg};
use tengen_server::{RedisSettings, Server};
use tengen_store::testing::RedisServer;
use tengen_store::{AuthToken, EmbeddedStore, Store, token_digest};

/// The tokens a community's players hold, as the server gave them.
struct Secrets {
    /// (account, login token)
    logins: Vec<(String, String)>,
    /// (guest name, resume token) of the two players of `game`.
    resumes: Vec<(String, String)>,
    game: LongGame,
}

impl Secrets {
    fn all(&self) -> Vec<&str> {
        let logins = self.logins.iter().map(|(_, t)| t.as_str());
        logins
            .chain(self.resumes.iter().map(|(_, t)| t.as_str()))
            .collect()
    }
}

/// Registers `cat`, logs in again (a second token), says `hello` with the
/// login token, and plays part of a game between two guests.
async fn community(server: &Server) -> Secrets {
    let url = common::url(server);
    let mut logins = Vec::new();
    let mut c = common::client(server, "cat-guest", Encoding::Json).await;
    match c
        .request(ClientMsg::Register {
            name: "cat".into(),
            password: "long enough".into(),
        })
        .await
        .unwrap()
    {
        ServerMsg::Registered(r) => logins.push(("cat".to_string(), r.token)),
        other => panic!("{other:?}"),
    }
    match c
        .request(ClientMsg::Login {
            name: "cat".into(),
            password: "long enough".into(),
        })
        .await
        .unwrap()
    {
        ServerMsg::LoggedIn(r) => logins.push(("cat".to_string(), r.token)),
        other => panic!("{other:?}"),
    }
    let (_, w) = login_hello(&url, &logins[0].1).await;
    assert_eq!(w.player.name, "cat");
    let mut game = LongGame::start(&url).await;
    game.play(6).await;
    let resumes = (0..2)
        .map(|i| (game.name[i].clone(), game.token[i].clone()))
        .collect();
    Secrets {
        logins,
        resumes,
        game,
    }
}

async fn login_hello(url: &str, token: &str) -> (Connection, tengen_protocol::Welcome) {
    let who = Identity {
        name: None,
        login: Some(token.to_owned()),
    };
    Connection::connect_as(url, Encoding::Json, &who, None)
        .await
        .unwrap()
}

/// The tokens still work: each login token opens the account, and each
/// guest's resume token brings the session back, seated at the game with
/// every move.
async fn tokens_work(url: &str, secrets: &Secrets) {
    for (account, token) in &secrets.logins {
        let (_, w) = login_hello(url, token).await;
        assert_eq!(&w.player.name, account, "the login token still logs in");
        assert!(!w.player.guest);
    }
    for (name, token) in &secrets.resumes {
        let (mut c, w) = Connection::reconnect(
            url,
            Encoding::Json,
            Some(name),
            token,
            Duration::from_secs(10),
        )
        .await
        .unwrap();
        assert!(w.resumed, "{name}'s resume token still resumes");
        assert_eq!(w.tables, vec![secrets.game.table.clone()]);
        match c
            .request(ClientMsg::Snapshot {
                table: secrets.game.table.clone(),
            })
            .await
            .unwrap()
        {
            ServerMsg::TableSnapshot(s) => {
                assert_eq!(s.snapshot.moves.len(), secrets.game.acked.len())
            }
            other => panic!("{other:?}"),
        }
    }
}

/// Every regular file under `dir`, with its bytes.
fn files(dir: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            found.extend(files(&entry.path()));
        } else if kind.is_file() {
            found.push((entry.path(), std::fs::read(entry.path()).unwrap()));
        }
    }
    found
}

/// The secrets found in the files under `dir`: (file, secret).
fn found_in_files(dir: &Path, secrets: &[&str]) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (path, bytes) in files(dir) {
        for secret in secrets {
            if bytes.windows(secret.len()).any(|w| w == secret.as_bytes()) {
                found.push((path.display().to_string(), secret.to_string()));
            }
        }
    }
    found
}

/// The secrets found in any key or value in `redis`: (key, secret).
fn found_in_redis(redis: &RedisServer, secrets: &[&str]) -> Vec<(String, String)> {
    let client = redis::Client::open(redis.url()).unwrap();
    let mut conn = client.get_connection().unwrap();
    let keys: Vec<Vec<u8>> = redis::cmd("KEYS").arg("*").query(&mut conn).unwrap();
    let mut found = Vec::new();
    for key in keys {
        let kind: String = redis::cmd("TYPE").arg(&key).query(&mut conn).unwrap();
        let mut held = vec![key.clone()];
        let values: Vec<Vec<u8>> = match kind.as_str() {
            "string" => vec![redis::cmd("GET").arg(&key).query(&mut conn).unwrap()],
            "list" => redis::cmd("LRANGE")
                .arg(&key)
                .arg(0)
                .arg(-1)
                .query(&mut conn)
                .unwrap(),
            "set" => redis::cmd("SMEMBERS").arg(&key).query(&mut conn).unwrap(),
            "hash" => redis::cmd("HGETALL").arg(&key).query(&mut conn).unwrap(),
            "zset" => redis::cmd("ZRANGE")
                .arg(&key)
                .arg(0)
                .arg(-1)
                .query(&mut conn)
                .unwrap(),
            other => panic!("a {other} key in Redis"),
        };
        held.extend(values);
        for secret in secrets {
            if held
                .iter()
                .any(|b| b.windows(secret.len()).any(|w| w == secret.as_bytes()))
            {
                found.push((
                    String::from_utf8_lossy(&key).into_owned(),
                    secret.to_string(),
                ));
            }
        }
    }
    found
}

/// The store in `dir`, once the server stopped just before has let it go.
async fn open_when_free(dir: &Path) -> EmbeddedStore {
    for _ in 0..50 {
        if let Ok(store) = EmbeddedStore::open(dir) {
            return store;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the store in {} stays open", dir.display());
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_token_in_the_data_directory_and_its_files_are_the_servers_users() {
    let dir = DataDir::new("tokens");
    let server = common::server_on(&dir.0, |_| {}).await;
    let secrets = community(&server).await;
    assert_eq!(
        found_in_files(&dir.0, &secrets.all()),
        vec![],
        "while it runs"
    );
    server.shutdown();
    server.wait().await.unwrap();
    assert_eq!(
        found_in_files(&dir.0, &secrets.all()),
        vec![],
        "after a stop"
    );
    assert_eq!(mode(&dir.0), 0o700);
    for (path, _) in files(&dir.0) {
        assert_eq!(mode(&path), 0o600, "{}", path.display());
    }

    // A directory and files an earlier version left readable by others
    // are made the server's user's alone at start.
    std::fs::set_permissions(&dir.0, std::fs::Permissions::from_mode(0o755)).unwrap();
    for (path, _) in files(&dir.0) {
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    let server = common::server_on(&dir.0, |_| {}).await;
    assert_eq!(mode(&dir.0), 0o700);
    for (path, _) in files(&dir.0) {
        assert_eq!(mode(&path), 0o600, "{}", path.display());
    }
    tokens_work(&common::url(&server), &secrets).await;
    server.shutdown();
    server.wait().await.unwrap();
}

/// A data directory as the previous version left it: its tokens as they
/// are, in the database (login tokens) and in the live table's stored
/// seats (resume tokens), and its journal in the previous format.
async fn previous_version(dir: &Path) -> Secrets {
    let server = common::server_on(dir, |_| {}).await;
    let secrets = community(&server).await;
    server.shutdown();
    server.wait().await.unwrap();
    {
        let store = open_when_free(dir).await;
        let id = secrets.game.table.as_str();
        let table = store.live_table(id).await.unwrap().unwrap();
        let mut meta = String::from_utf8(table.meta.clone()).unwrap();
        for (_, token) in &secrets.resumes {
            let digest = token_digest(token);
            assert!(meta.contains(&digest), "the seat keeps the digest");
            meta = meta.replace(&digest, token);
        }
        store.discard_table(id).await.unwrap();
        store.create_table(id, meta.as_bytes()).await.unwrap();
        store.append(id, 0, &table.entries).await.unwrap();
    }
    let plain: Vec<AuthToken> = secrets
        .logins
        .iter()
        .map(|(account, token)| AuthToken {
            token: token.clone(),
            account: account.clone(),
            expires_ms: u64::MAX,
        })
        .collect();
    tengen_store::embedded::as_previous_version(dir, &plain).unwrap();
    let left = found_in_files(dir, &secrets.all());
    let held: std::collections::HashSet<&String> = left.iter().map(|(_, s)| s).collect();
    assert_eq!(
        held.len(),
        4,
        "the previous version's files hold the tokens: {left:?}"
    );
    secrets
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_of_the_previous_version_keeps_no_token_once_the_server_started() {
    let dir = DataDir::new("tokens-upgrade");
    let secrets = previous_version(&dir.0).await;
    let server = common::server_on(&dir.0, |_| {}).await;
    assert_eq!(server.restored(), 1);
    assert_eq!(found_in_files(&dir.0, &secrets.all()), vec![]);
    tokens_work(&common::url(&server), &secrets).await;
    server.shutdown();
    server.wait().await.unwrap();
    assert_eq!(found_in_files(&dir.0, &secrets.all()), vec![]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_token_in_redis_from_a_server_or_a_migration() {
    let redis = RedisServer::start();
    let url = redis.url();
    let on_redis = |prefix: &str| {
        let (url, prefix) = (url.clone(), prefix.to_owned());
        move |s: &mut tengen_server::Settings| {
            s.redis = Some(RedisSettings {
                url: url.clone(),
                prefix: prefix.clone(),
                ca_file: None,
            })
        }
    };
    let server = common::server_with(on_redis("live")).await;
    let secrets = community(&server).await;
    assert_eq!(found_in_redis(&redis, &secrets.all()), vec![]);
    server.shutdown();
    server.wait().await.unwrap();

    // The previous version's data directory, moved into Redis.
    let dir = DataDir::new("tokens-migrate");
    let old = previous_version(&dir.0).await;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tengen-server"))
        .arg("migrate")
        .arg("--from-data-dir")
        .arg(&dir.0)
        .args(["--to-redis", &url, "--redis-prefix", "moved"])
        .env_remove("TENGEN_REDIS")
        .env_remove("TENGEN_REDIS_PREFIX")
        .env("TENGEN_LOG", "warn")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut all = secrets.all();
    all.extend(old.all());
    assert_eq!(found_in_redis(&redis, &all), vec![]);
    let server = common::server_with(on_redis("moved")).await;
    tokens_work(&common::url(&server), &old).await;
    server.shutdown();
    server.wait().await.unwrap();
    assert_eq!(found_in_redis(&redis, &all), vec![]);
}
