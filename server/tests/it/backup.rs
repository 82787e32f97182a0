//! Online backups, end to end: the `tengen-server` binary serving games
//! from a data directory, `tengen-server backup DEST` run while several
//! games move continuously, and a second server started on the copy.
//! Every game finished before the backup is there with its full record;
//! every live game is there as it was when the backup was taken (its
//! moves a prefix of what was played, at least everything acknowledged
//! before the command ran, at most what was acknowledged when it
//! returned and the one move in flight), and its players resume it on the second server and play on.
//! A destination that exists or lies inside the data directory is refused,
//! naming it, and nothing is created.

use crate::common;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use common::long_game::{LongGame, placed};
use common::proc::{self, DataDir};
use common::scripted::new_game;
use tengen_client::Connection;
use tengen_protocol::{ClientMsg, Encoding, ServerMsg};
use tengen_rules::game::GameRecord;
use tengen_store::{EmbeddedStore, Store};

/// Games finished before the backup, and games moving during it.
const FINISHED: usize = 3;
const MOVING: usize = 4;

/// `tengen-server backup ARGS`: success, stdout and stderr. Waited for
/// off the runtime, which serves the clients that keep moving.
async fn backup(args: Vec<String>) -> (bool, String, String) {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_tengen-server"));
    cmd.arg("backup").args(args).env_remove("TENGEN_DATA_DIR");
    let out = tokio::task::spawn_blocking(move || cmd.output())
        .await
        .unwrap()
        .expect("tengen-server backup runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn args(dest: &Path, dir: &Path) -> Vec<String> {
    vec![
        dest.display().to_string(),
        "--data-dir".into(),
        dir.display().to_string(),
    ]
}

/// A game that moves until `stop`, its acknowledged plies counted in
/// `acked` as they come.
fn keep_moving(
    mut g: LongGame,
    acked: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
) -> tokio::task::JoinHandle<LongGame> {
    tokio::spawn(async move {
        while !stop.load(Ordering::Relaxed) && g.acked.len() < 150 {
            g.play(1).await;
            acked.store(g.acked.len(), Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        g
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_under_load_starts_a_server_with_every_game() {
    let dir = DataDir::new("backup-src");
    let copy = DataDir::new("backup-copy");
    let server = proc::start(&dir.0);
    let url = server.url();

    let mut finished = Vec::new();
    for i in 0..FINISHED {
        let mut g = new_game(&url, 10 + i).await;
        while !g.play_next().await {}
        finished.push(g);
    }
    let mut movers = Vec::new();
    let stop = Arc::new(AtomicBool::new(false));
    for i in 0..MOVING {
        let mut g = LongGame::start_nth(&url, 20 + i).await;
        g.play(4).await;
        let acked = Arc::new(AtomicUsize::new(g.acked.len()));
        movers.push((acked.clone(), keep_moving(g, acked, stop.clone())));
    }
    // Every game is moving.
    tokio::time::sleep(Duration::from_millis(300)).await;

    let before: Vec<usize> = movers
        .iter()
        .map(|(a, _)| a.load(Ordering::SeqCst))
        .collect();
    let (ok, out, err) = backup(args(&copy.0, &dir.0)).await;
    let after: Vec<usize> = movers
        .iter()
        .map(|(a, _)| a.load(Ordering::SeqCst))
        .collect();
    assert!(ok, "the backup succeeded: {out} {err}");
    assert!(
        out.contains(&format!(
            "copied {FINISHED} finished games, {MOVING} live games"
        )),
        "{out}"
    );
    // The games moved on while it was taken, and go on.
    tokio::time::sleep(Duration::from_millis(200)).await;
    stop.store(true, Ordering::Relaxed);
    let mut games = Vec::new();
    for (_, task) in movers {
        games.push(task.await.unwrap());
    }
    for (g, b) in games.iter().zip(&before) {
        assert!(
            g.acked.len() > *b + 5,
            "the game kept moving: {b} then {}",
            g.acked.len()
        );
    }

    // Refused, naming the path, with nothing created: a destination that
    // exists, one inside the data directory.
    let (ok, _, err) = backup(args(&copy.0, &dir.0)).await;
    assert!(!ok);
    assert!(
        err.contains(&copy.0.display().to_string()) && err.contains("already exists"),
        "{err}"
    );
    let inside = dir.0.join("backups");
    let (ok, _, err) = backup(args(&inside, &dir.0)).await;
    assert!(!ok);
    assert!(
        err.contains("inside the store's own directory") && err.contains("backups"),
        "{err}"
    );
    assert!(
        !inside.exists(),
        "nothing was created in the data directory"
    );
    let parent = copy.0.parent().unwrap();
    let leftovers: Vec<_> = std::fs::read_dir(parent)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".partial-"))
        .filter(|e| e.file_name().to_string_lossy().contains("backup-copy"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "no partial copy is left: {leftovers:?}"
    );

    // The copy, as files: the server's user's alone, and no journal to
    // replay.
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&copy.0), 0o700);
        assert_eq!(mode(&copy.0.join("tengen.redb")), 0o600);
    }
    {
        let store = EmbeddedStore::open(&copy.0).expect("the copy opens as a store");
        assert_eq!(store.replayed(), 0);
        for g in &finished {
            let stored = store
                .game(g.table.as_str())
                .await
                .unwrap()
                .expect("a finished game");
            let record =
                GameRecord::from_json(std::str::from_utf8(&stored.record).unwrap()).unwrap();
            assert_eq!(record.replay().unwrap().moves().len(), 9, "its full record");
        }
        let live = store.live_tables().await.unwrap();
        assert_eq!(live.len(), MOVING, "every live game, and no other");
        for (i, g) in games.iter().enumerate() {
            let t = live
                .iter()
                .find(|t| t.id == g.table.as_str())
                .expect("the live game is in the copy");
            let moves = placed(&t.entries);
            assert_eq!(
                moves[..],
                g.acked[..moves.len()],
                "a prefix of what was played"
            );
            // At most one move a game is in flight: stored, its
            // acknowledgement not yet counted.
            assert!(
                (before[i]..=after[i] + 1).contains(&moves.len()),
                "as of the backup: {} moves, {} acknowledged before it and {} after",
                moves.len(),
                before[i],
                after[i]
            );
        }
    }
    server.kill();

    // A second server on the copy: the live games resume there, as of
    // the backup, and go on.
    let second = proc::start(&copy.0);
    let url = second.url();
    for mut g in games {
        let mut conns = Vec::new();
        for i in 0..2 {
            let (mut c, w) = Connection::reconnect(
                &url,
                Encoding::Json,
                Some(&g.name[i]),
                &g.token[i],
                Duration::from_secs(10),
            )
            .await
            .unwrap();
            assert!(w.resumed, "{} resumes on the copy", g.name[i]);
            let seq = match c
                .request(ClientMsg::Watch {
                    table: g.table.clone(),
                    since: Some(0),
                })
                .await
                .unwrap()
            {
                ServerMsg::Replayed { seq, .. } => seq,
                other => panic!("{other:?}"),
            };
            assert!(seq > 0);
            conns.push(c);
        }
        g.conn = conns.try_into().ok().unwrap();
        let snap = match g.conn[0]
            .request(ClientMsg::Snapshot {
                table: g.table.clone(),
            })
            .await
            .unwrap()
        {
            ServerMsg::TableSnapshot(s) => *s,
            other => panic!("{other:?}"),
        };
        let at = snap.snapshot.moves.len();
        assert!(at <= g.acked.len());
        g.acked.truncate(at);
        g.play_within(Duration::from_secs(10)).await;
    }
    let (status, _, _) = second.terminate();
    assert!(status.success());
}
