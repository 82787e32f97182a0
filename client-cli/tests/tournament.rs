//! `tengen tournament` against a real server (in-process): an organiser
//! creates a Swiss, two players join, one withdraws and comes back, the
//! organiser starts it, and `show`, `list` and `export` print what the
//! server keeps.

mod common;

use std::process::Output;

use common::{register, server, tengen_in, text};
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
            "3",
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
