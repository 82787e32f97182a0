//! `tengen` against a real server: two `tengen bot` processes play whole
//! games to the end (one `--create`s, printing the room id, the other
//! `--join`s), both exit 0 and report the same moves and result; the lobby
//! lists the waiting room in plain text; bad input gets clear errors, and a
//! board without a terminal to draw on is an error, not a panic.

use crate::common;

use std::time::Duration;

use common::{Lines, moves, server, stderr_of, tengen, wait};

const GAME_TIME: Duration = Duration::from_secs(180);

/// One bot-vs-bot game in a room made with `room_args`; returns the two
/// outputs (creator's, joiner's).
fn bot_game(url: &str, room_args: &[&str], seeds: (u64, u64)) -> (Vec<String>, Vec<String>) {
    let s1 = seeds.0.to_string();
    let mut args = vec!["bot", "--create", "--name", "ann", "--seed", &s1];
    args.extend_from_slice(room_args);
    let mut creator = tengen(url, &args).spawn().unwrap();
    let mut out1 = Lines::new(creator.stdout.take().unwrap());
    let first = out1.next(Duration::from_secs(20)).unwrap_or_else(|| {
        panic!("no room line; stderr: {}", stderr_of(&mut creator));
    });
    let room = first
        .strip_prefix("room: ")
        .unwrap_or_else(|| panic!("first line: {first}"))
        .to_string();

    // While it waits, the lobby lists it (plain text: stdout is a pipe).
    let lobby = tengen(url, &["lobby", "--once"]).output().unwrap();
    assert!(lobby.status.success());
    let listed = String::from_utf8(lobby.stdout).unwrap();
    let line = listed
        .lines()
        .find(|l| l.starts_with(&room))
        .unwrap_or_else(|| panic!("room {room} not listed:\n{listed}"));
    assert!(line.contains("waiting") && line.contains("ann"), "{line}");

    let s2 = seeds.1.to_string();
    let mut joiner = tengen(
        url,
        &["bot", "--join", &room, "--name", "bob", "--seed", &s2],
    )
    .spawn()
    .unwrap();
    let mut out2 = Lines::new(joiner.stdout.take().unwrap());
    let st2 = wait(&mut joiner, GAME_TIME, "the joining bot");
    let st1 = wait(&mut creator, GAME_TIME, "the creating bot");
    let (o1, o2) = (
        out1.rest(Duration::from_secs(5)),
        out2.rest(Duration::from_secs(5)),
    );
    assert!(
        st1.success(),
        "creator: {st1}; {o1:#?} {}",
        stderr_of(&mut creator)
    );
    assert!(
        st2.success(),
        "joiner: {st2}; {o2:#?} {}",
        stderr_of(&mut joiner)
    );
    (o1, o2)
}

fn result_line(out: &[String]) -> &str {
    out.iter()
        .rev()
        .find(|l| l.starts_with("result: "))
        .unwrap_or_else(|| panic!("no result line: {out:#?}"))
}

#[test]
fn two_bots_play_a_renju_game_to_the_end() {
    let url = server();
    let (o1, o2) = bot_game(&url, &["--time", "5+3"], (1, 2));
    assert_eq!(result_line(&o1), result_line(&o2));
    assert_eq!(moves(&o1), moves(&o2));
    assert!(moves(&o1).len() >= 9, "a real game: {o1:#?}");
    assert!(moves(&o1)[0].starts_with("1. black H8 "), "{o1:#?}");
    assert!(o1[1].starts_with("table "), "{o1:#?}");
}

#[test]
fn two_bots_play_through_an_opening_rule() {
    let url = server();
    let (o1, o2) = bot_game(
        &url,
        &[
            "--opening",
            "rif",
            "--forbidden",
            "block",
            "--time",
            "10+3x30s",
        ],
        (7, 8),
    );
    assert_eq!(result_line(&o1), result_line(&o2));
    assert_eq!(moves(&o1), moves(&o2));
    assert!(
        o1.iter().any(|l| l.contains("offers fifth moves")),
        "RIF's fifth-move offers: {o1:#?}"
    );
    let (g1, g2) = bot_game(
        &url,
        &[
            "--rules",
            "gomoku",
            "--opening",
            "swap2",
            "--time",
            "unlimited",
        ],
        (3, 4),
    );
    assert_eq!(result_line(&g1), result_line(&g2));
}

#[test]
fn an_empty_lobby_and_clear_errors() {
    let url = server();
    let lobby = tengen(&url, &["lobby", "--once"]).output().unwrap();
    assert!(lobby.status.success());
    let text = String::from_utf8(lobby.stdout).unwrap();
    assert!(text.starts_with("ROOM "), "{text}");
    assert!(text.contains("(no rooms)"), "{text}");
    // No game kept to take up.
    let out = tengen(&url, &["play"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("no game of yours to take up"), "{err}");
    // Command lines that cannot be read: status 2, from clap.
    for args in [
        &["queue", "chess", "5+3"][..],
        &["queue", "renju", "5+"],
        &["record", "x", "--format", "sgf"],
        &["leaderboard", "go"],
        &["login"],
    ] {
        let out = tengen(&url, args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    // Nothing to watch.
    let out = tengen(&url, &["watch"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("no live game"), "{err}");
    // A room that cannot be created is refused before connecting.
    let out = tengen(&url, &["create", "--rules", "gomoku", "--opening", "rif"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("cannot be created"), "{err}");
}

#[test]
fn a_server_that_is_not_there_is_an_error() {
    let out = tengen("ws://127.0.0.1:9/ws", &["lobby", "--once"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("cannot connect"), "{err}");
}

#[test]
fn ctrl_c_while_create_waits_withdraws_the_room() {
    let url = server();
    let mut creator = tengen(&url, &["create", "--name", "ann"]).spawn().unwrap();
    let mut out = Lines::new(creator.stdout.take().unwrap());
    let first = out.next(Duration::from_secs(20)).expect("room line");
    let room = first.strip_prefix("room: ").unwrap().to_string();
    let listed = |room: &str| {
        let lobby = tengen(&url, &["lobby", "--once"]).output().unwrap();
        String::from_utf8(lobby.stdout)
            .unwrap()
            .lines()
            .any(|l| l.starts_with(room))
    };
    assert!(listed(&room));
    let kill = std::process::Command::new("kill")
        .args(["-INT", &creator.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = wait(&mut creator, Duration::from_secs(20), "the creator");
    assert!(status.success(), "{status}: {}", stderr_of(&mut creator));
    let said = out.rest(Duration::from_secs(5));
    assert!(said.iter().any(|l| l == "room withdrawn"), "{said:#?}");
    assert!(!listed(&room), "the room is gone");
}

#[test]
fn the_board_without_a_terminal_is_an_error_not_a_panic() {
    let url = server();
    let mut creator = tengen(&url, &["create", "--name", "ann"]).spawn().unwrap();
    let mut out = Lines::new(creator.stdout.take().unwrap());
    let first = out.next(Duration::from_secs(20)).expect("room line");
    let room = first.strip_prefix("room: ").unwrap().to_string();
    // The game starts; neither side has a terminal to draw it on.
    let joiner = tengen(&url, &["join", &room]).output().unwrap();
    let status = wait(&mut creator, Duration::from_secs(20), "the creator");
    for (who, code, err) in [
        (
            "joiner",
            joiner.status.code(),
            String::from_utf8(joiner.stderr).unwrap(),
        ),
        ("creator", status.code(), stderr_of(&mut creator)),
    ] {
        assert_eq!(code, Some(1), "{who}: {err}");
        assert!(err.contains("needs a terminal"), "{who}: {err}");
        assert!(!err.contains("panicked"), "{who}: {err}");
    }
}
