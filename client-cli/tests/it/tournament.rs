//! `tengen tournament` against a real server (in-process): an organiser
//! creates a Swiss, two players join, one withdraws and comes back, the
//! organiser starts it, and `show`, `list` and `export` print what the
//! server keeps. And two `tengen bot --tournament` processes play a
//! tournament's games to its end.

use crate::common;

use std::process::Output;
use std::time::Duration;

use common::{Lines, register, server, stderr_of, tengen_in, text, until, wait};
use tempfile::TempDir;

fn ok(out: Output) -> String {
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

/// The id in `created ID (NAME)`.
fn created_id(said: &str) -> String {
    said.strip_prefix("created ")
        .and_then(|s| s.split_whitespace().next())
        .unwrap_or_else(|| panic!("{said}"))
        .to_owned()
}

#[test]
fn create_join_withdraw_start_show_and_export() {
    let url = server();
    let dirs: Vec<TempDir> = (0..4).map(|_| TempDir::new().unwrap()).collect();
    for (d, name) in dirs.iter().zip(["olga", "ann", "bob", "cid"]) {
        register(&url, d.path(), name);
    }
    let run = |i: usize, args: &[&str]| tengen_in(&url, dirs[i].path(), args).output().unwrap();
    let said = ok(run(
        0,
        &[
            "tournament",
            "create",
            "Friday Swiss",
            "gomoku",
            "5+3",
            "--rounds",
            "1",
        ],
    ));
    let id = created_id(&said);
    for i in 1..=3 {
        assert_eq!(
            ok(run(i, &["tournament", "join", &id])),
            format!("joined {id}\n")
        );
    }
    // Joining twice is refused, with the server's word for it.
    let again = run(1, &["tournament", "join", &id]);
    assert!(!again.status.success());
    assert!(
        text(&again.stderr).contains("already"),
        "{}",
        text(&again.stderr)
    );
    ok(run(3, &["tournament", "withdraw", &id]));
    let list = ok(run(1, &["tournament", "list"]));
    assert!(
        list.contains(&id) && list.contains("Friday Swiss") && list.contains("open"),
        "{list}"
    );
    // Only the organiser starts it.
    assert!(!run(1, &["tournament", "start", &id]).status.success());
    assert_eq!(
        ok(run(0, &["tournament", "start", &id])),
        format!("started {id}\n")
    );
    let shown = ok(run(2, &["tournament", "show", &id]));
    assert!(shown.contains("running"), "{shown}");
    assert!(shown.contains("round 1"), "{shown}");
    assert!(
        !shown.contains("cid"),
        "cid withdrew before the start: {shown}"
    );
    assert!(shown.contains("ann") && shown.contains("bob"), "{shown}");
    let trf = ok(run(2, &["tournament", "export", &id, "--trf"]));
    assert!(trf.contains("012 Friday Swiss"), "{trf}");
    assert_eq!(trf.lines().filter(|l| l.starts_with("001")).count(), 2);
}

/// `--tie-breaks` sets the event's order: `show` lists each player's
/// tie-breaks in it; an unknown name or a repeat is refused before
/// anything is sent.
#[test]
fn create_with_a_tie_break_order() {
    let url = server();
    let dirs: Vec<TempDir> = (0..3).map(|_| TempDir::new().unwrap()).collect();
    for (d, name) in dirs.iter().zip(["tia", "uma", "vic"]) {
        register(&url, d.path(), name);
    }
    let run = |i: usize, args: &[&str]| tengen_in(&url, dirs[i].path(), args).output().unwrap();
    let create = |order: &str| {
        run(
            0,
            &[
                "tournament",
                "create",
                "Ordered",
                "gomoku",
                "5+3",
                "--system",
                "round_robin",
                "--tie-breaks",
                order,
            ],
        )
    };
    let unknown = create("wins,coin_toss");
    assert!(!unknown.status.success());
    assert!(text(&unknown.stderr).contains("coin_toss"));
    let twice = create("wins,wins");
    assert!(!twice.status.success());
    assert!(
        text(&twice.stderr).contains("twice"),
        "{}",
        text(&twice.stderr)
    );
    let said = ok(create("first_seat_games,median_buchholz,wins"));
    let id = created_id(&said);
    for i in 1..=2 {
        ok(run(i, &["tournament", "join", &id]));
    }
    ok(run(0, &["tournament", "start", &id]));
    let shown = ok(run(1, &["tournament", "show", &id]));
    let line = shown
        .lines()
        .find(|l| l.contains("uma") && l.contains("1st"))
        .unwrap_or_else(|| panic!("no standings line for uma: {shown}"));
    let at = |label: &str| {
        line.find(label)
            .unwrap_or_else(|| panic!("{label}: {line}"))
    };
    assert!(
        at("1st") < at("MBuch") && at("MBuch") < at("Wins"),
        "{line}"
    );
    assert!(!line.contains("SB"), "{line}");
}

/// `--system arena --minutes N` creates an arena of N minutes (`show`
/// says so); without `--minutes` it is refused before anything is sent.
#[test]
fn create_an_arena() {
    let url = server();
    let dir = TempDir::new().unwrap();
    register(&url, dir.path(), "ada");
    let run = |args: &[&str]| tengen_in(&url, dir.path(), args).output().unwrap();
    let base = [
        "tournament",
        "create",
        "Blitz",
        "gomoku",
        "3+2",
        "--system",
        "arena",
    ];
    let missing = run(&base);
    assert!(!missing.status.success());
    assert!(
        text(&missing.stderr).contains("duration"),
        "{}",
        text(&missing.stderr)
    );
    let said = ok(run(&[&base[..], &["--minutes", "30"]].concat()));
    let id = created_id(&said);
    let shown = ok(run(&["tournament", "show", &id]));
    assert!(shown.contains("Arena"), "{shown}");
    assert!(shown.contains("arena: 30 min"), "{shown}");
}

/// Two `tengen bot --tournament` processes enter a double round robin,
/// play both its games on the tables the server seats them at (each game
/// announced by `matched`), and exit when the tournament is over.
#[test]
fn bots_play_a_tournament_to_its_end() {
    let url = server();
    let dirs: Vec<TempDir> = (0..3).map(|_| TempDir::new().unwrap()).collect();
    for (d, name) in dirs.iter().zip(["olga", "ann", "bob"]) {
        register(&url, d.path(), name);
    }
    let run = |i: usize, args: &[&str]| tengen_in(&url, dirs[i].path(), args);
    let create = [
        "tournament",
        "create",
        "Bots' Double",
        "gomoku",
        "5+3",
        "--system",
        "double_round_robin",
        "--seed",
        "3",
    ];
    let said = ok(run(0, &create).output().unwrap());
    let id = said
        .strip_prefix("created ")
        .and_then(|s| s.split_whitespace().next())
        .unwrap_or_else(|| panic!("{said}"))
        .to_owned();
    let mut bots = Vec::new();
    for i in [1, 2] {
        let mut child = run(i, &["bot", "--tournament", &id]).spawn().unwrap();
        let mut lines = Lines::new(child.stdout.take().unwrap());
        until(&mut lines, "entry", |l| l == "entered the tournament");
        bots.push((child, lines));
    }
    ok(run(0, &["tournament", "start", &id]).output().unwrap());
    for (child, lines) in &mut bots {
        let status = wait(child, Duration::from_secs(90), "a tournament bot");
        let out = lines.rest(Duration::from_secs(1));
        assert!(status.success(), "{out:#?} {}", stderr_of(child));
        assert_eq!(
            out.iter().filter(|l| l.starts_with("matched with")).count(),
            2,
            "{out:#?}"
        );
        assert_eq!(
            out.last().map(String::as_str),
            Some(&*format!("tournament {id} is over"))
        );
    }
    let shown = ok(run(1, &["tournament", "show", &id]).output().unwrap());
    assert!(shown.contains("finished"), "{shown}");
}

/// Four `tengen bot --tournament` processes in a knockout: one withdraws
/// at the start (by `tengen tournament withdraw`), one loses its first
/// match, two play the final. Each leaves as soon as no game will come:
/// withdrawn, out, or the event over.
#[test]
fn tournament_bots_leave_when_withdrawn_out_or_over() {
    let url = server();
    let names = ["kora", "kb1", "kb2", "kb3", "kb4"];
    let dirs: Vec<TempDir> = names.iter().map(|_| TempDir::new().unwrap()).collect();
    for (d, name) in dirs.iter().zip(names) {
        register(&url, d.path(), name);
    }
    let run = |i: usize, args: &[&str]| tengen_in(&url, dirs[i].path(), args);
    let create = [
        "tournament",
        "create",
        "Bots' Knockout",
        "gomoku",
        "5+3",
        "--system",
        "knockout",
        "--games",
        "1",
        "--seed",
        "5",
    ];
    let id = created_id(&ok(run(0, &create).output().unwrap()));
    let mut bots = Vec::new();
    for i in 1..=4 {
        let mut child = run(i, &["bot", "--tournament", &id]).spawn().unwrap();
        let mut lines = Lines::new(child.stdout.take().unwrap());
        until(&mut lines, "entry", |l| l == "entered the tournament");
        bots.push((child, lines));
    }
    ok(run(0, &["tournament", "start", &id]).output().unwrap());
    ok(run(4, &["tournament", "withdraw", &id]).output().unwrap());
    let mut last = Vec::new();
    for (child, lines) in &mut bots {
        let status = wait(child, Duration::from_secs(120), "a tournament bot");
        let out = lines.rest(Duration::from_secs(1));
        assert!(status.success(), "{out:#?} {}", stderr_of(child));
        last.push(out.last().cloned().unwrap_or_default());
    }
    assert_eq!(
        last[3],
        format!("withdrawn from tournament {id}"),
        "{last:?}"
    );
    let over = format!("tournament {id} is over");
    let out = format!("out of tournament {id}");
    assert_eq!(last.iter().filter(|l| **l == over).count(), 2, "{last:?}");
    assert_eq!(last.iter().filter(|l| **l == out).count(), 1, "{last:?}");
    let shown = ok(run(1, &["tournament", "show", &id]).output().unwrap());
    assert!(shown.contains("finished"), "{shown}");
}
