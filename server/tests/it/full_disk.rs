//! A full disk, for real: the data directory on a small tmpfs that the
//! test mounts (as root: said and skipped otherwise; CI runs as root).
//! A game is played while another file takes all the space: moves are
//! refused with `unavailable`, `/healthz` answers 503 with the reason and
//! `/metrics` shows `tengen_store_up 0`; once the space is freed, moves
//! are accepted again within seconds, with no restart, `/healthz` is 200
//! again, and after a final restart every acknowledged move is there. The
//! same with the Redis store, its append-only file on the tmpfs: Redis
//! refuses writes (`MISCONF`) while it cannot write the file, and takes
//! them again by itself once it can.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::long_game::{LongGame, placed};
use tengen_protocol::ErrorCode;
use tengen_server::{RedisSettings, Server};
use tengen_store::testing::RedisServer;
use tengen_store::{EmbeddedStore, Store};

/// A tmpfs of `size` mounted on a directory of the test's own, unmounted
/// when dropped; `None` (the test is skipped) unless run as root.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(tag: &str, size: &str) -> Option<Tmpfs> {
        let uid = Command::new("id").arg("-u").output().expect("run `id -u`");
        if String::from_utf8_lossy(&uid.stdout).trim() != "0" {
            return None;
        }
        let dir = std::env::temp_dir().join(format!("tengen-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mounted = Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={size},mode=0700"),
                "tmpfs",
            ])
            .arg(&dir)
            .status()
            .unwrap();
        assert!(mounted.success(), "mount a tmpfs on {}", dir.display());
        Some(Tmpfs(dir))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
        let _ = std::fs::remove_dir(&self.0);
    }
}

/// Writes a file in `dir` until the disk is full; its path.
fn fill(dir: &Path) -> PathBuf {
    let path = dir.join("filler");
    let mut file = std::fs::File::create(&path).unwrap();
    let chunk = vec![0x5au8; 64 << 10];
    loop {
        if let Err(e) = file.write_all(&chunk).and_then(|()| file.sync_data()) {
            assert_eq!(e.raw_os_error(), Some(28), "ENOSPC, not {e}");
            // What is left is less than a chunk: take it too.
            let mut small = vec![0x5au8; 4096];
            while file
                .write_all(&small)
                .and_then(|()| file.sync_data())
                .is_ok()
            {}
            small.truncate(512);
            while file.write_all(&small).is_ok() {}
            return path;
        }
    }
}

fn get(server: &Server, path: &str) -> String {
    common::proc::http_get(&server.addr().to_string(), path).unwrap()
}

/// `/metrics`' line for the store gauge.
fn store_up(server: &Server) -> String {
    let page = get(server, "/metrics");
    page.lines()
        .find(|l| l.starts_with("tengen_store_up "))
        .unwrap_or_else(|| panic!("no tengen_store_up in {page}"))
        .to_owned()
}

/// Tries moves until the store refuses one (within 40 s): it must be
/// `unavailable`, and `/healthz` and the gauge must say so.
async fn refused_while_full(server: &Server, game: &mut LongGame) {
    let deadline = Instant::now() + Duration::from_secs(40);
    let refused = loop {
        match game.try_next().await {
            Ok(()) => {}
            Err(e) => break e,
        }
        assert!(Instant::now() < deadline, "the store never refused a move");
        tokio::time::sleep(Duration::from_millis(400)).await;
    };
    assert_eq!(refused.code, ErrorCode::Unavailable, "{refused:?}");
    let health = loop {
        let health = get(server, "/healthz");
        if health.starts_with("HTTP/1.1 503") || Instant::now() > deadline {
            break health;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(health.starts_with("HTTP/1.1 503"), "{health}");
    assert!(health.contains("the store refuses writes"), "{health}");
    // The gauge follows within a probe's interval.
    while store_up(server) != "tengen_store_up 0" {
        assert!(Instant::now() < deadline, "tengen_store_up stays 1");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Still refused a while later: nothing was freed.
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(
        game.try_next().await.map_err(|e| e.code),
        Err(ErrorCode::Unavailable)
    );
}

/// Once the space is freed: a move accepted within 10 s, `/healthz` 200
/// and the gauge 1 again, and more moves; says how long it took.
async fn back_once_freed(server: &Server, game: &mut LongGame, filler: &Path) -> Duration {
    std::fs::remove_file(filler).unwrap();
    let freed = Instant::now();
    game.play_within(Duration::from_secs(10)).await;
    let back = freed.elapsed();
    // `/healthz` and the gauge follow within a probe's interval.
    let deadline = Instant::now() + Duration::from_secs(5);
    while !get(server, "/healthz").starts_with("HTTP/1.1 200") {
        assert!(Instant::now() < deadline, "/healthz stays 503");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    while store_up(server) != "tengen_store_up 1" {
        assert!(Instant::now() < deadline, "tengen_store_up stays 0");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    game.play(4).await;
    back
}

/// The game's live log in `store` has every acknowledged move, in order.
async fn every_move_stored(store: &dyn Store, game: &LongGame) {
    let table = store
        .live_table(game.table.as_str())
        .await
        .unwrap()
        .expect("the game is live");
    assert_eq!(
        placed(&table.entries),
        game.acked,
        "every acknowledged move"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_refuses_moves_and_the_store_comes_back_without_a_restart() {
    let Some(tmpfs) = Tmpfs::mount("full-disk", "8m") else {
        eprintln!("skipped: mounting a tmpfs needs root");
        return;
    };
    let data = tmpfs.0.join("data");
    let server = common::server_on(&data, |_| {}).await;
    let mut game = LongGame::start(&common::url(&server)).await;
    game.play(6).await;
    assert!(get(&server, "/healthz").starts_with("HTTP/1.1 200"));

    let filler = fill(&tmpfs.0);
    // Appends go to the journal's space, written ahead; the writes that
    // need the database's fail. Moves go on until the store refuses.
    refused_while_full(&server, &mut game).await;
    let back = back_once_freed(&server, &mut game, &filler).await;
    eprintln!(
        "{} moves acknowledged; moves accepted again {back:?} after the space was freed",
        game.acked.len()
    );

    server.shutdown();
    server.wait().await.unwrap();
    let server = common::server_on(&data, |_| {}).await;
    assert_eq!(server.restored(), 1);
    server.shutdown();
    server.wait().await.unwrap();
    let store = EmbeddedStore::open(&data).unwrap();
    every_move_stored(&store, &game).await;
    drop(store);
    drop(tmpfs);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redis_that_cannot_write_its_file_is_unhealthy_until_it_can() {
    let Some(tmpfs) = Tmpfs::mount("full-redis", "16m") else {
        eprintln!("skipped: mounting a tmpfs needs root");
        return;
    };
    // `everysec`: Redis refuses writes (`MISCONF`) while it cannot write
    // its append-only file, and takes them again once it can (with
    // `always` it exits).
    let dir = tmpfs.0.to_string_lossy().into_owned();
    let redis = RedisServer::start_with_flags(&["--dir", &dir, "--appendfsync", "everysec"]);
    let settings = |s: &mut tengen_server::Settings| {
        s.redis = Some(RedisSettings {
            url: redis.url(),
            prefix: "full".into(),
            ca_file: None,
        })
    };
    let server = common::server_with(settings).await;
    let mut game = LongGame::start(&common::url(&server)).await;
    game.play(6).await;

    let filler = fill(&tmpfs.0);
    refused_while_full(&server, &mut game).await;
    let back = back_once_freed(&server, &mut game, &filler).await;
    eprintln!("Redis took writes again {back:?} after the space was freed");

    server.shutdown();
    server.wait().await.unwrap();
    let server = common::server_with(settings).await;
    let store = common::redis::store(&redis, "full").await;
    every_move_stored(&store, &game).await;
    server.shutdown();
    server.wait().await.unwrap();
    drop(redis);
    drop(tmpfs);
}
