//! Rapfi's dialect through the bridge, in the four games the README shows
//! a bot author (a casual free-style game, a renju RIF game, a Swap2
//! gomoku game and a rated queue game), each started with the README's
//! own command lines, nothing added, against a real server: the engine is
//! `examples/rapfi_stand_in.rs`, which speaks as Rapfi 0.43.02 was
//! recorded speaking (its hash table sized to the memory it is told, its
//! ERROR lines, its fields in positions, its N best in MESSAGE lines). In
//! the RIF and Swap2 games both seats are engines, so whoever draws which
//! seat, the engine makes the swap decision, the fifth-move offers and
//! Swap2's opening; the record shows what it chose.

use crate::common;

use std::path::PathBuf;
use std::process::{Child, Command};
use std::time::Duration;

use common::{BIN, Lines, register, server, stderr_of, tengen_in, text, wait};
use tempfile::TempDir;
use tengen_client::engine::{Engine, EngineSpec, Log, Note};
use tengen_client::piskvork::NoteKind;

const GAME_TIME: Duration = Duration::from_secs(300);

/// The stand-in, built beside `tengen` by `cargo test`.
fn stand_in() -> PathBuf {
    let path = std::path::Path::new(BIN)
        .parent()
        .unwrap()
        .join("examples/rapfi_stand_in");
    assert!(
        path.exists(),
        "{} is missing: cargo build -p tengen-cli --example rapfi_stand_in",
        path.display()
    );
    path
}

/// The README's `tengen engine` command line that contains `has`, its
/// words after `tengen`, with the stand-in for `./pbrain-rapfi` and `ROOM`
/// replaced by `room`.
fn readme_command(has: &str, room: &str) -> Vec<String> {
    let readme = include_str!("../../README.md");
    let line = readme
        .lines()
        .find(|l| l.starts_with("tengen engine") && l.contains(has) && l.contains("./pbrain-rapfi"))
        .unwrap_or_else(|| panic!("no `tengen engine ... {has}` line in the README"));
    let line = line.split(" #").next().unwrap();
    line.split_whitespace()
        .skip(1)
        .map(|w| match w {
            "./pbrain-rapfi" => stand_in().display().to_string(),
            "ROOM" => room.to_string(),
            w => w.to_string(),
        })
        .collect()
}

fn spawn(cmd: Command) -> (Child, Lines) {
    let mut cmd = cmd;
    let mut child = cmd.spawn().unwrap();
    let out = Lines::new(child.stdout.take().unwrap());
    (child, out)
}

fn run(url: &str, dir: &std::path::Path, words: &[String]) -> (Child, Lines) {
    let args: Vec<&str> = words.iter().map(String::as_str).collect();
    spawn(tengen_in(url, dir, &args))
}

/// What a finished `tengen` said.
struct Done {
    out: Vec<String>,
    err: String,
}

fn finish(mut child: Child, mut out: Lines, what: &str) -> Done {
    let status = wait(&mut child, GAME_TIME, what);
    let d = Done {
        out: out.rest(Duration::from_secs(5)),
        err: stderr_of(&mut child),
    };
    assert!(status.success(), "{what}: {}\n{:#?}", d.err, d.out);
    d
}

fn room_of(out: &mut Lines) -> String {
    loop {
        let line = out.next(Duration::from_secs(60)).expect("a room line");
        if let Some(room) = line.strip_prefix("room: ") {
            return room.to_string();
        }
    }
}

fn result_line(d: &Done) -> &str {
    d.out
        .iter()
        .find(|l| l.starts_with("result: "))
        .unwrap_or_else(|| panic!("no result in {:#?}", d.out))
}

fn table_of(d: &Done) -> String {
    d.out
        .iter()
        .find_map(|l| l.strip_prefix("table "))
        .and_then(|l| l.split(':').next())
        .unwrap_or_else(|| panic!("{:#?}", d.out))
        .to_string()
}

/// Checks an engine's side of a game: the stand-in ran, was told 768 MiB
/// under the default cap and allocated them (no ERROR), never failed and
/// answered every extension it was asked.
fn engine_side(d: &Done) {
    assert!(
        d.err
            .contains("engine Message: Load config from config.toml"),
        "{}",
        d.err
    );
    assert!(!d.err.contains("engine Error:"), "{}", d.err);
    assert!(!d.err.contains("engine failed"), "{}", d.err);
    assert!(!d.err.contains("does not answer"), "{}", d.err);
}

/// The stored record of `table` as JSON text without white space, and its
/// moves.
fn record(url: &str, dir: &std::path::Path, table: &str) -> (String, Vec<String>) {
    let json = tengen_in(url, dir, &["record", table]).output().unwrap();
    assert!(json.status.success(), "{}", text(&json.stderr));
    let renju = tengen_in(url, dir, &["record", table, "--format", "renju"])
        .output()
        .unwrap();
    // The game in renju notation: tag lines, then numbered moves with the
    // opening's decisions in braces.
    let mut movetext = String::new();
    let mut depth = 0;
    for c in text(&renju.stdout)
        .lines()
        .filter(|l| !l.starts_with('['))
        .flat_map(|l| l.chars().chain(['\n']))
    {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 => movetext.push(c),
            _ => {}
        }
    }
    let moves = movetext
        .split_whitespace()
        .filter(|w| !w.ends_with('.'))
        .map(str::to_string)
        .collect();
    let compact = text(&json.stdout)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    (compact, moves)
}

fn move_points(d: &Done) -> Vec<String> {
    common::moves(&d.out)
        .iter()
        .map(|l| l.split(' ').nth(2).unwrap().to_ascii_lowercase())
        .collect()
}

/// Two seats from README lines at one room: the creator's command (with
/// `create`), then the joiner's. Both done, the same result, the moves
/// the server stored; the record's JSON.
fn room_game(url: &str, create: &str, join: &[String]) -> (Done, Done, String, Vec<String>) {
    let dir = TempDir::new().unwrap();
    let (c, mut c_out) = run(url, dir.path(), &readme_command(create, ""));
    let room = room_of(&mut c_out);
    let join: Vec<String> = join
        .iter()
        .map(|w| if w == "ROOM" { room.clone() } else { w.clone() })
        .collect();
    let (j, j_out) = run(url, dir.path(), &join);
    let a = finish(c, c_out, create);
    let b = finish(j, j_out, "the joiner");
    assert_eq!(result_line(&a), result_line(&b));
    let table = table_of(&a);
    let (json, stored) = record(url, dir.path(), &table);
    assert_eq!(move_points(&a), stored, "{:#?}", a.out);
    (a, b, json, stored)
}

#[test]
fn a_casual_free_style_game_from_the_readme() {
    let url = server();
    let join = ["bot", "--join", "ROOM"].map(String::from);
    let (engine, _, _, stored) = room_game(&url, "--create --rules freestyle --time 5+3", &join);
    engine_side(&engine);
    assert!(stored.len() >= 9, "{stored:?}");
}

#[test]
fn a_renju_rif_game_with_the_engine_deciding_the_swap_and_offering_fifths() {
    let url = server();
    let join = readme_command("--join ROOM", "ROOM");
    let (a, b, json, _) = room_game(&url, "--opening rif", &join);
    engine_side(&a);
    engine_side(&b);
    // Tentative white's engine answered SWAP2BOARD after three stones with
    // SWAP (the stand-in's Rapfi found white's value below zero): the
    // colours were swapped. The new black's engine offered the two fifth
    // moves by YXNBEST, read from its MESSAGE (k) lines.
    assert!(json.contains(r#""type":"swap""#), "{json}");
    assert!(json.contains(r#""type":"offer_fifths""#), "{json}");
    let both = format!("{}{}", a.err, b.err);
    assert!(both.contains("engine Message: (2) "), "{both}");
}

#[test]
fn a_swap2_gomoku_game_with_the_engines_deciding() {
    let url = server();
    let join = readme_command("--join ROOM", "ROOM");
    let (a, b, json, stored) = room_game(&url, "--opening swap2", &join);
    engine_side(&a);
    engine_side(&b);
    // The opener's engine laid Rapfi's first opening (6,7 6,4 4,2), the
    // second player's took black.
    assert_eq!(stored[..3], ["g8", "g11", "e13"], "{stored:?}");
    assert!(json.contains(r#""type":"swap""#), "{json}");
}

#[test]
fn a_rated_queue_game_from_the_readme() {
    let url = server();
    let mut runs = Vec::new();
    let dirs = [TempDir::new().unwrap(), TempDir::new().unwrap()];
    for (i, dir) in dirs.iter().enumerate() {
        register(&url, dir.path(), &format!("my-engine{i}"));
        let out = tengen_in(&url, dir.path(), &["become-bot", "--yes"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        runs.push(run(
            &url,
            dir.path(),
            &readme_command("--queue freestyle 3+2", ""),
        ));
    }
    let mut done = Vec::new();
    for (child, out) in runs {
        done.push(finish(child, out, "a queued engine"));
    }
    for d in &done {
        engine_side(d);
        assert!(
            d.out.iter().any(|l| l.starts_with("queued: freestyle")),
            "{:#?}",
            d.out
        );
    }
    assert_eq!(result_line(&done[0]), result_line(&done[1]));
    let table = table_of(&done[0]);
    let (_, stored) = record(&url, dirs[0].path(), &table);
    assert_eq!(move_points(&done[0]), stored);
    // Rated: both profiles show it (stored just after the game's end).
    for (i, dir) in dirs.iter().enumerate() {
        let name = format!("my-engine{i}");
        let end = std::time::Instant::now() + Duration::from_secs(20);
        loop {
            let out = tengen_in(&url, dir.path(), &["profile", &name])
                .output()
                .unwrap();
            let prof = text(&out.stdout);
            if prof.contains(&table) {
                break;
            }
            assert!(std::time::Instant::now() < end, "{name}: {prof}");
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

/// The failure the README's default used to meet: told as much memory as
/// its cap, the engine's hash table does not fit, it says ERROR unasked,
/// makes a smaller one and moves; the ERROR is not its move.
#[tokio::test]
async fn an_engine_told_its_whole_cap_complains_and_still_moves() {
    let notes = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let n = notes.clone();
    let log: Log = std::sync::Arc::new(move |note| n.lock().unwrap().push(note));
    let spec = EngineSpec {
        max_memory: Some(1 << 30),
        ..EngineSpec::new(stand_in(), Vec::new())
    };
    let mut e = Engine::spawn(&spec, log).unwrap();
    e.send("START 15").await.unwrap();
    e.expect_ok(Duration::from_secs(10)).await.unwrap();
    e.send("INFO max_memory 1073741824").await.unwrap();
    e.send("BEGIN").await.unwrap();
    let p = e.expect_point(15, Duration::from_secs(10)).await.unwrap();
    assert_eq!(p.to_string(), "H8");
    {
        let notes = notes.lock().unwrap();
        assert!(notes.contains(&Note::Engine(
            NoteKind::Error,
            "Failed to allocate 1048576 KB for transposition table.".into()
        )));
        assert!(notes.contains(&Note::Engine(
            NoteKind::Message,
            "Allocated 524288 KB for transposition table.".into()
        )));
    }
    // Told the default (the cap less a quarter), it allocates them.
    e.send(&format!(
        "INFO max_memory {}",
        tengen_client::engine::told_memory(1 << 30)
    ))
    .await
    .unwrap();
    e.send("TURN 8,8").await.unwrap();
    e.expect_point(15, Duration::from_secs(10)).await.unwrap();
    let notes = notes.lock().unwrap();
    let errors = notes
        .iter()
        .filter(|n| matches!(n, Note::Engine(NoteKind::Error, _)))
        .count();
    assert_eq!(errors, 1);
}
