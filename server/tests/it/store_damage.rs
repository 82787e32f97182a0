//! Damage in the data directory, swept over what a real game left: the
//! `tengen-server` binary plays 40 moves of a game with real clients and
//! is killed (SIGKILL), and then, for every offset of the journal's
//! written part (8 bytes inverted there; every offset of one record, a
//! stride over the rest, which hits every record and every field) and for
//! a sample of the database's pages, the store opened on a copy either
//! gives back every acknowledged move or refuses to open, naming the
//! damaged file. Never fewer moves without a word. Each case opens the
//! store in-process, as the server's start does (its options, its
//! restore's read); the binary itself is run on one damaged copy: its
//! refusal, the files left as they were, `tengen-server salvage`, and the
//! game back with the moves that preceded the damage.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::long_game::{LongGame, placed};
use common::proc::{self, DataDir};
use tengen_client::Connection;
use tengen_protocol::{ClientMsg, Encoding, ServerMsg};
use tengen_store::embedded::{DB_FILE, JOURNAL_FILE, SECOND_FILE, record_spans};
use tengen_store::{EmbeddedStore, Store};

const MOVES: usize = 40;
const FILES: [&str; 3] = [DB_FILE, JOURNAL_FILE, SECOND_FILE];

/// The data directory a real game left when its server was killed, the
/// moves the server acknowledged, and the game's table.
async fn written() -> (DataDir, LongGame) {
    let dir = DataDir::new("damage");
    let server = proc::start(&dir.0);
    let mut game = LongGame::start(&server.url()).await;
    game.play(MOVES).await;
    server.kill();
    (dir, game)
}

fn copy_files(from: &Path, to: &Path) {
    for name in FILES {
        std::fs::copy(from.join(name), to.join(name)).unwrap();
    }
}

/// Inverts 8 bytes (fewer at the file's end) at `at` of `file`.
fn invert(file: &Path, at: usize) {
    let mut bytes = std::fs::read(file).unwrap();
    let end = (at + 8).min(bytes.len());
    bytes[at..end].iter_mut().for_each(|b| *b = !*b);
    std::fs::write(file, bytes).unwrap();
}

/// What a start on `dir` finds: the moves of `table`, or why the store
/// refused to open.
fn open(dir: &Path, table: &str) -> Result<Vec<String>, String> {
    let options = tengen_server::start::embedded_options(4 << 20);
    let store = EmbeddedStore::open_with(dir, &options).map_err(|e| e.to_string())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let found = runtime.block_on(store.live_tables());
    let tables = found.map_err(|e| e.to_string())?;
    let mut moves = Vec::new();
    for t in tables.iter().filter(|t| t.id == table) {
        moves = placed(&t.entries);
    }
    Ok(moves)
}

/// How the cases of a sweep came out.
#[derive(Debug, Default)]
struct Outcomes {
    whole: usize,
    refused: usize,
}

/// Opens a copy of `written` with 8 bytes inverted at each of `offsets`
/// of `file`, one case each.
fn sweep(written: &Path, file: &str, offsets: &[usize], game: &LongGame) -> Outcomes {
    let case = scratch();
    let mut outcomes = Outcomes::default();
    for &at in offsets {
        std::fs::create_dir_all(&case).unwrap();
        copy_files(written, &case);
        invert(&case.join(file), at);
        let before: Vec<Vec<u8>> = FILES
            .iter()
            .map(|f| std::fs::read(case.join(f)).unwrap())
            .collect();
        let table = game.table.as_str().to_owned();
        let dir = case.clone();
        let outcome = std::thread::spawn(move || open(&dir, &table))
            .join()
            .unwrap_or_else(|_| panic!("{file} damaged at {at}: the open panicked"));
        match outcome {
            Ok(moves) => {
                assert!(
                    moves.len() >= game.acked.len() && moves[..game.acked.len()] == game.acked[..],
                    "{file} damaged at {at}: {} of {} acknowledged moves came back, and the \
                     store opened without a word",
                    moves.len(),
                    game.acked.len()
                );
                outcomes.whole += 1;
            }
            Err(why) => {
                let named = case.join(file).display().to_string();
                assert!(
                    why.contains(&named),
                    "{file} damaged at {at}: refused without naming it: {why}"
                );
                for (f, bytes) in FILES.iter().zip(&before) {
                    assert!(
                        std::fs::read(case.join(f)).unwrap() == *bytes,
                        "{file} damaged at {at}: the refused start changed {f}"
                    );
                }
                let names: Vec<_> = std::fs::read_dir(&case)
                    .unwrap()
                    .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .filter(|n| !FILES.contains(&n.as_str()))
                    .collect();
                assert!(
                    names.iter().all(|n| n.ends_with(".lock") || n == "lock"),
                    "{file} damaged at {at}: the refused start left {names:?}"
                );
                outcomes.refused += 1;
            }
        }
        std::fs::remove_dir_all(&case).unwrap();
    }
    outcomes
}

/// A directory for the cases: in memory where there is one (the cases
/// sync their files, and a disk would make the sweep slow).
fn scratch() -> PathBuf {
    let base = Path::new("/dev/shm");
    let base = if base.is_dir() {
        base.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    base.join(format!("tengen-damage-case-{}", std::process::id()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn damage_is_refused_naming_the_file_or_harmless() {
    let (dir, game) = written().await;
    assert_eq!(game.acked.len(), MOVES);
    // On a copy: an open replays the journal and takes a checkpoint.
    let whole = DataDir::new("undamaged");
    std::fs::create_dir_all(&whole.0).unwrap();
    copy_files(&dir.0, &whole.0);
    let (path, table) = (whole.0.clone(), game.table.as_str().to_owned());
    let undamaged = std::thread::spawn(move || open(&path, &table))
        .join()
        .unwrap();
    assert_eq!(
        undamaged.as_deref(),
        Ok(&game.acked[..]),
        "undamaged, every move is back"
    );
    let started = Instant::now();

    // The journal: every offset of one record in the middle, and a stride
    // of 13 over everything written, which lands in every record many
    // times (a move's record is about 250 bytes).
    let journal = std::fs::read(dir.0.join(JOURNAL_FILE)).unwrap();
    let found = record_spans(&journal);
    assert!(found.len() > MOVES, "{} records", found.len());
    let (at, len) = found[found.len() / 2];
    let written_end = found.last().map(|(at, len)| at + len).unwrap();
    let mut offsets: Vec<usize> = (at..at + len).collect();
    offsets.extend((0..written_end).step_by(13));
    offsets.extend(written_end..written_end + 64);
    let journal_outcomes = sweep(&dir.0, JOURNAL_FILE, &offsets, &game);
    // Damage to a written record is always found; past them it is harmless.
    assert!(journal_outcomes.refused >= len, "{journal_outcomes:?}");
    assert!(journal_outcomes.whole >= 64, "{journal_outcomes:?}");

    // The database: its pages (4 KiB; a sample of 48 of a larger file),
    // each at its start and inside it.
    let pages = std::fs::metadata(dir.0.join(DB_FILE)).unwrap().len() as usize / 4096;
    let step = (pages / 48).max(1);
    let offsets: Vec<usize> = (0..pages)
        .step_by(step)
        .flat_map(|p| [p * 4096, p * 4096 + 1500])
        .collect();
    let db_outcomes = sweep(&dir.0, DB_FILE, &offsets, &game);
    assert!(db_outcomes.refused > 0, "{db_outcomes:?}");
    eprintln!(
        "journal: {} cases ({journal_outcomes:?}); database: {} pages, {} cases \
         ({db_outcomes:?}); {:?}",
        journal_outcomes.whole + journal_outcomes.refused,
        pages,
        offsets.len(),
        started.elapsed()
    );

    // The binary, on one damaged copy: refused, named, nothing changed.
    let case = DataDir::new("damaged");
    std::fs::create_dir_all(&case.0).unwrap();
    copy_files(&dir.0, &case.0);
    let (at, len) = found[found.len() / 2];
    invert(&case.0.join(JOURNAL_FILE), at + len / 2);
    let before = std::fs::read(case.0.join(JOURNAL_FILE)).unwrap();
    let failed = proc::try_start(&case.0)
        .err()
        .expect("the server refuses to start");
    assert!(!failed.status.success());
    let named = case.0.join(JOURNAL_FILE).display().to_string();
    for said in [
        named.as_str(),
        &format!("offset {at}"),
        "intact commits follow",
        "salvage",
    ] {
        assert!(
            failed.stderr.contains(said),
            "{said:?} in {}",
            failed.stderr
        );
    }
    assert!(!failed.stderr.contains("panicked"), "{}", failed.stderr);
    assert_eq!(
        std::fs::read(case.0.join(JOURNAL_FILE)).unwrap(),
        before,
        "the journal is left as it was"
    );

    // The operator salvages: a copy kept, what preceded the damage kept.
    let out = Command::new(env!("CARGO_BIN_EXE_tengen-server"))
        .args(["salvage", "--data-dir"])
        .arg(&case.0)
        .env("TENGEN_LOG", "warn")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let kept = found.len() / 2;
    let lost = found.len() - kept;
    assert!(said.contains(&format!("kept {kept} commits")), "{said}");
    assert!(said.contains(&format!("lost {lost} commits")), "{said}");
    let copy = said
        .lines()
        .find_map(|l| l.strip_prefix("the files as they were are in "))
        .expect("where the copy is");
    assert_eq!(
        std::fs::read(Path::new(copy).join(JOURNAL_FILE)).unwrap(),
        before
    );

    // The server starts again, with the moves that preceded the damage.
    let server = proc::start(&case.0);
    let (mut c, w) = Connection::reconnect(
        &server.url(),
        Encoding::Json,
        Some(&game.name[0]),
        &game.token[0],
        Duration::from_secs(10),
    )
    .await
    .unwrap();
    assert!(w.resumed);
    let snap = match c
        .request(ClientMsg::Snapshot {
            table: game.table.clone(),
        })
        .await
        .unwrap()
    {
        ServerMsg::TableSnapshot(s) => *s,
        other => panic!("{other:?}"),
    };
    let back: Vec<String> = snap
        .snapshot
        .moves
        .iter()
        .filter_map(|m| m.point.map(|p| p.to_string()))
        .collect();
    assert!(!back.is_empty() && back.len() < MOVES);
    assert_eq!(back[..], game.acked[..back.len()]);
    let (status, _, _) = server.terminate();
    assert!(status.success());
}
