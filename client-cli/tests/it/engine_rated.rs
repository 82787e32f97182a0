//! The acceptance test of the engine bridge: rated games between two bot
//! accounts, each driven by `tengen engine -- tengen pbrain` (a real server
//! over loopback, real child processes), one accepting challenges
//! (`--accept-challenges --rated-only`), the other challenging it
//! (`--challenge NAME --rated`), under free-style, standard gomoku, and
//! renju with the RIF and the Yamaguchi openings — the four games at once.
//! Every move each bridge played is the server's stored record, and both
//! bots' profiles show the rated game.

use crate::common;

use std::process::Child;
use std::time::{Duration, Instant};

use common::{BIN, Lines, register, server, stderr_of, tengen_in, text, wait};
use tempfile::TempDir;

const GAME_TIME: Duration = Duration::from_secs(240);

fn become_bot(url: &str, dir: &TempDir) {
    let out = tengen_in(url, dir.path(), &["become-bot", "--yes"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// `tengen engine` as the account saved in `dir`, with `args` before `--`
/// and a fast pbrain after.
fn engine(url: &str, dir: &TempDir, args: &[&str], seed: &str) -> (Child, Lines) {
    let mut all = vec!["engine", "--games", "1", "--max-turn-ms", "1500", "-v"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--", BIN, "pbrain", "--seed", seed]);
    let mut child = tengen_in(url, dir.path(), &all).spawn().unwrap();
    let out = Lines::new(child.stdout.take().unwrap());
    (child, out)
}

/// The points of `out`'s move lines (`3. black H8 (engine)`), lower case.
fn points(out: &[String]) -> Vec<String> {
    common::moves(out)
        .iter()
        .map(|l| l.split(' ').nth(2).unwrap().to_ascii_lowercase())
        .collect()
}

/// One game under way: the accepting bot and the challenging bot.
struct Game {
    what: &'static str,
    dirs: [TempDir; 2],
    names: [String; 2],
    runs: Vec<(Child, Lines)>,
}

fn start(url: &str, i: usize, what: &'static str, room: &[&str]) -> Game {
    let names = [format!("acceptor{i}"), format!("challenger{i}")];
    let dirs = [TempDir::new().unwrap(), TempDir::new().unwrap()];
    for (dir, name) in dirs.iter().zip(&names) {
        register(url, dir.path(), name);
        become_bot(url, dir);
    }
    let seed = (2 * i).to_string();
    let (a, mut a_out) = engine(
        url,
        &dirs[0],
        &["--accept-challenges", "--rated-only", "--no-people"],
        &seed,
    );
    // The acceptor's filters are in force once it says it waits.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let line = a_out.next(Duration::from_secs(60)).expect("a line");
        if line == "waiting for challenges" {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "{what}: the acceptor never waited"
        );
    }
    let mut args = vec!["--challenge", names[0].as_str(), "--rated"];
    args.extend_from_slice(room);
    let seed = (2 * i + 1).to_string();
    let c = engine(url, &dirs[1], &args, &seed);
    Game {
        what,
        dirs,
        names,
        runs: vec![(a, a_out), c],
    }
}

fn finish(url: &str, g: Game) {
    let what = g.what;
    let mut outs = Vec::new();
    // The challenger first: if it could not challenge, its error shows.
    for (mut child, mut out) in g.runs.into_iter().rev() {
        let status = wait(&mut child, GAME_TIME, what);
        let lines = out.rest(Duration::from_secs(5));
        let err = stderr_of(&mut child);
        assert!(status.success(), "{what}: {err}\n{lines:#?}");
        assert!(!err.contains("engine failed"), "{what}: {err}");
        outs.push((lines, err));
    }
    let (acc, chal) = (&outs[1].0, &outs[0].0);
    assert!(
        acc.iter()
            .any(|l| l == &format!("accepted a rated challenge from {} [bot]", g.names[1])),
        "{what}: {acc:#?}"
    );
    let result = |o: &[String]| o.iter().find(|l| l.starts_with("result: ")).cloned();
    assert!(result(acc).is_some(), "{what}: {acc:#?}");
    assert_eq!(result(acc), result(chal), "{what}");
    let table = acc
        .iter()
        .find_map(|l| l.strip_prefix("table "))
        .and_then(|l| l.split(':').next())
        .unwrap_or_else(|| panic!("{what}: {acc:#?}"))
        .to_string();
    // Every move each bridge played, in order, is the stored record.
    let rec = tengen_in(
        url,
        g.dirs[0].path(),
        &["record", &table, "--format", "renju"],
    )
    .output()
    .unwrap();
    assert!(rec.status.success(), "{}", text(&rec.stderr));
    let stored = common::stored_moves(&text(&rec.stdout));
    assert!(stored.len() >= 5, "{what}: {stored:?}");
    assert_eq!(points(acc), stored, "{what}: the acceptor's moves");
    assert_eq!(points(chal), stored, "{what}: the challenger's moves");
    // Every stone of each bot's seat was its engine's (the bridge's log),
    // and each placed some.
    for ((out, err), name) in outs.iter().rev().zip(&g.names) {
        let own = common::moves(out)
            .iter()
            .filter(|l| l.ends_with(&format!("({name} [bot])")))
            .count();
        assert!(own > 0, "{what}: {out:#?}");
        assert!(err.contains("(engine)"), "{what}: {err}");
    }
    // The game is rated: both profiles show it.
    for (dir, name) in g.dirs.iter().zip(&g.names) {
        let out = tengen_in(url, dir.path(), &["profile", name])
            .output()
            .unwrap();
        let prof = text(&out.stdout);
        assert!(prof.contains(&table), "{what}: {name}: {prof}");
        assert!(!prof.contains("no rated games"), "{what}: {prof}");
    }
}

#[test]
fn bot_accounts_play_rated_challenges_through_the_bridge_under_four_rules() {
    let url = server();
    let time = ["--time", "3+2"];
    let rooms: [(&str, Vec<&str>); 4] = [
        ("free-style", vec!["--rules", "freestyle"]),
        ("gomoku", vec!["--rules", "gomoku"]),
        ("renju, RIF", vec!["--rules", "renju", "--opening", "rif"]),
        (
            "renju, Yamaguchi",
            vec!["--rules", "renju", "--opening", "yamaguchi"],
        ),
    ];
    let games: Vec<Game> = rooms
        .iter()
        .enumerate()
        .map(|(i, (what, room))| {
            let mut room = room.clone();
            room.extend_from_slice(&time);
            start(&url, i, what, &room)
        })
        .collect();
    for g in games {
        finish(&url, g);
    }
}
