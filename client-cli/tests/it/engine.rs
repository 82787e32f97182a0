//! `tengen engine -- CMD` against a real server (in-process): engines that
//! misbehave on purpose (tests/engines/misbehave.sh) are restarted once
//! with the board and, failing again, resign; one that recovers after the
//! restart plays on to the end; two `tengen engine -- tengen pbrain`
//! accounts play two rated free-style games in a row, and two guests a
//! renju game through the RIF opening and a gomoku game through the swap
//! after three (zone stones and decisions the bot's), every move checked against the server's stored record; an
//! engine plays on through a cut network and a server restart.

use crate::common;

use std::process::{Child, Command, ExitStatus};
use std::time::Duration;

use common::{
    BIN, Lines, cut_then_restart, moves, proxied_server, register, server, stderr_of, tengen,
    tengen_in, text, wait,
};
use tempfile::TempDir;

const GAME_TIME: Duration = Duration::from_secs(240);
const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/misbehave.sh");
const NO_EXT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/engines/no_extensions.sh"
);
const ROOM: &[&str] = &["--rules", "freestyle", "--time", "5+3"];

/// The next room a `--create` announces (`room: ID`): its id.
fn room_of(out: &mut Lines) -> String {
    loop {
        let line = out.next(Duration::from_secs(60)).expect("a room line");
        if let Some(room) = line.strip_prefix("room: ") {
            return room.to_string();
        }
    }
}

fn spawn(url: &str, args: &[&str]) -> (Child, Lines) {
    let mut child = tengen(url, args).spawn().unwrap();
    let out = Lines::new(child.stdout.take().unwrap());
    (child, out)
}

/// A game between `tengen bot` and `tengen engine -- CMD` (with a short
/// turn cap, logging every line sent to the engine): the engine creates
/// the room when `engine_creates`, else the bot. The bot's process and
/// output, then the engine's.
fn pair(url: &str, seed: u64, engine_creates: bool, cmd: &[&str]) -> [(Child, Lines); 2] {
    let seed = seed.to_string();
    let bot = vec!["bot", "--name", "opp", "--seed", &seed];
    let engine = vec!["engine", "--name", "eng", "--max-turn-ms", "1500", "-v"];
    let (mut creator, mut joiner) = if engine_creates {
        (engine, bot)
    } else {
        (bot, engine)
    };
    creator.push("--create");
    creator.extend_from_slice(ROOM);
    if creator[0] == "engine" {
        creator.push("--");
        creator.extend_from_slice(cmd);
    }
    let (c, mut c_out) = spawn(url, &creator);
    let room = room_of(&mut c_out);
    joiner.extend_from_slice(&["--join", &room]);
    if joiner[0] == "engine" {
        joiner.push("--");
        joiner.extend_from_slice(cmd);
    }
    let j = spawn(url, &joiner);
    if engine_creates {
        [j, (c, c_out)]
    } else {
        [(c, c_out), j]
    }
}

/// What a finished `tengen` process said.
struct Done {
    status: ExitStatus,
    out: Vec<String>,
    err: String,
}

fn finish(mut child: Child, mut out: Lines, what: &str) -> Done {
    let status = wait(&mut child, GAME_TIME, what);
    Done {
        status,
        out: out.rest(Duration::from_secs(5)),
        err: stderr_of(&mut child),
    }
}

/// The moves of a finished game as the server stored them (renju
/// notation), from `tengen record GAME`.
fn stored(mut record: Command) -> Vec<String> {
    let rec = record.args(["--format", "renju"]).output().unwrap();
    assert!(rec.status.success(), "{}", text(&rec.stderr));
    common::stored_moves(&text(&rec.stdout))
}

/// The points of the move lines, lower case (renju notation), in order.
fn move_points(out: &[String]) -> Vec<String> {
    moves(out)
        .iter()
        .map(|l| l.split(' ').nth(2).unwrap().to_ascii_lowercase())
        .collect()
}

fn result_line(out: &[String]) -> &str {
    out.iter()
        .find(|l| l.starts_with("result: "))
        .unwrap_or_else(|| panic!("no result in {out:#?}"))
}

/// The seat the engine played (`table X: engine plays the first seat`).
fn engine_seat(out: &[String]) -> &str {
    let l = out
        .iter()
        .find(|l| l.contains(": engine plays the "))
        .unwrap_or_else(|| panic!("{out:#?}"));
    l.split(" plays the ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
}

/// Waits for a game of `bot` against `engine` that the engine's bridge
/// resigns (`what` failed): the engine exits 1, the bot 0, and both say
/// the engine's seat resigned. The engine's output.
fn resigned(bot: (Child, Lines), engine: (Child, Lines), what: &str) -> Done {
    let e = finish(engine.0, engine.1, what);
    let b = finish(bot.0, bot.1, "the bot");
    assert_eq!(e.status.code(), Some(1), "{what}: {}", e.err);
    assert!(b.status.success(), "{what}: {}", b.err);
    let seat = engine_seat(&e.out);
    let result = result_line(&e.out);
    assert!(
        result.ends_with(&format!("{seat} seat resigned")),
        "{what}: {result}\n{}",
        e.err
    );
    assert_eq!(result, result_line(&b.out), "{what}");
    e
}

#[test]
fn an_engine_failing_twice_resigns_and_takes_no_more_games() {
    let url = server();
    let mut runs = Vec::new();
    for (i, mode) in ["sleep", "garbage", "occupied", "exit"]
        .into_iter()
        .enumerate()
    {
        let [bot, eng] = pair(&url, i as u64, i % 2 == 0, &["sh", SCRIPT, mode]);
        runs.push((mode, bot, eng));
    }
    for (mode, (bot, bot_out), (eng, eng_out)) in runs {
        let e = resigned((bot, bot_out), (eng, eng_out), mode);
        // Restarted once, given the board, failed again.
        let restarts = e.err.matches("restarting the engine").count();
        assert_eq!(restarts, 1, "{mode}: {}", e.err);
        assert_eq!(e.err.matches("engine <- START 15").count(), 2, "{mode}");
        assert!(
            e.err.contains("failed twice in this game: resigning"),
            "{mode}: {}",
            e.err
        );
        assert!(e.err.contains("no more games"), "{mode}: {}", e.err);
        let why = match mode {
            "sleep" => "no answer from the engine within",
            "garbage" => "I think, therefore I am",
            "occupied" => "occupied",
            _ => "the engine exited",
        };
        assert!(e.err.contains(why), "{mode}: {}", e.err);
    }
}

#[test]
fn an_engine_failing_once_is_restarted_with_the_board_and_plays_on() {
    let url = server();
    let marks = TempDir::new().unwrap();
    let mut runs = Vec::new();
    for (i, mode) in ["sleep", "occupied", "exit"].into_iter().enumerate() {
        let mark = marks.path().join(mode);
        let cmd = ["sh", SCRIPT, mode, mark.to_str().unwrap(), BIN, "pbrain"];
        let [bot, eng] = pair(&url, 10 + i as u64, i % 2 == 1, &cmd);
        runs.push((mode, bot, eng));
    }
    for (mode, (bot, bot_out), (eng, eng_out)) in runs {
        let e = finish(eng, eng_out, mode);
        let b = finish(bot, bot_out, "the bot");
        assert!(e.status.success(), "{mode}: {}", e.err);
        assert!(b.status.success(), "{mode}: {}", b.err);
        assert_eq!(e.err.matches("restarting the engine").count(), 1, "{mode}");
        assert!(!e.err.contains("failed twice"), "{mode}: {}", e.err);
        // After the restart the engine was told the game by BOARD.
        let after = e.err.split("restarting the engine").nth(1).unwrap();
        assert!(after.contains("engine <- BOARD"), "{mode}: {after}");
        let result = result_line(&e.out);
        assert_eq!(result, result_line(&b.out), "{mode}");
        assert!(result.contains("in a row"), "{mode}: {result}");
        // The same moves on both sides (the bot prints them live).
        assert_eq!(move_points(&e.out), move_points(&b.out), "{mode}");
        assert!(move_points(&e.out).len() >= 9, "{mode}");
    }
}

#[test]
fn two_pbrain_engines_play_rated_freestyle_games_matching_the_record() {
    let url = server();
    let (a, b) = (TempDir::new().unwrap(), TempDir::new().unwrap());
    let names = ["rapfish", "yixinish"];
    register(&url, a.path(), names[0]);
    register(&url, b.path(), names[1]);
    let mut runs = Vec::new();
    for (dir, seed) in [(&a, "1"), (&b, "2")] {
        let args = [
            "engine",
            "--queue",
            "--rules",
            "freestyle",
            "--time",
            "5+3",
            "--games",
            "2",
            "-v",
            "--",
            BIN,
            "pbrain",
            "--seed",
            seed,
        ];
        let mut child = tengen_in(&url, dir.path(), &args).spawn().unwrap();
        let out = Lines::new(child.stdout.take().unwrap());
        runs.push((child, out));
    }
    let mut done = Vec::new();
    for (child, out) in runs {
        let d = finish(child, out, "an engine");
        assert!(d.status.success(), "{}", d.err);
        done.push(d);
    }
    // Each process's output, a game at a time (each starts with `queued:`).
    let games = |out: &[String]| -> Vec<Vec<String>> {
        let mut games: Vec<Vec<String>> = Vec::new();
        for l in out {
            if l.starts_with("queued: freestyle") {
                games.push(Vec::new());
            }
            games.last_mut().expect("queued first").push(l.clone());
        }
        games
    };
    let (g1, g2) = (games(&done[0].out), games(&done[1].out));
    assert_eq!((g1.len(), g2.len()), (2, 2), "{:#?}", done[0].out);
    let mut own_moves = [0, 0];
    for (o1, o2) in g1.iter().zip(&g2) {
        assert_eq!(result_line(o1), result_line(o2));
        assert!(result_line(o1).contains("in a row"), "{o1:#?}");
        let table = o1
            .iter()
            .find_map(|l| l.strip_prefix("matched with yixinish at table "))
            .unwrap_or_else(|| panic!("{o1:#?}"))
            .to_string();
        let moves = moves(o1);
        assert!(moves.len() >= 9, "{o1:#?}");
        for (i, name) in names.iter().enumerate() {
            own_moves[i] += moves
                .iter()
                .filter(|l| l.ends_with(&format!("({name})")))
                .count();
        }
        // Every move, in order, is the server's stored record.
        let played = move_points(o1);
        assert_eq!(
            played,
            stored(tengen_in(&url, a.path(), &["record", &table]))
        );
    }
    for (d, own) in done.iter().zip(own_moves) {
        assert!(!d.err.contains("engine failed"), "{}", d.err);
        // Every stone of ours was the engine's, and the second game began
        // with RESTART on the same engine.
        assert_eq!(d.err.matches("(engine)").count(), own, "{}", d.err);
        assert_eq!(d.err.matches("engine <- START 15").count(), 1, "{}", d.err);
        assert_eq!(d.err.matches("engine <- RESTART").count(), 1, "{}", d.err);
    }
}

/// Two guests' `tengen engine -- [WRAP...] tengen pbrain` play a game in
/// a room made with `room`; both agree on every move and the result, and
/// the moves are the server's stored record. The moves, and both engines'
/// standard error.
fn guest_engines(url: &str, room: &[&str], wrap: &[&str]) -> (Vec<String>, String) {
    let engine = |first: &[&str], seed: &str| {
        let mut args = vec!["engine", "-v", "--max-turn-ms", "1500"];
        args.extend_from_slice(first);
        args.push("--");
        args.extend_from_slice(wrap);
        args.extend_from_slice(&[BIN, "pbrain", "--seed", seed]);
        spawn(url, &args)
    };
    let mut create = vec!["--create", "--name", "ann"];
    create.extend_from_slice(room);
    let (c, mut c_out) = engine(&create, "3");
    let id = room_of(&mut c_out);
    let j = engine(&["--join", &id, "--name", "bob"], "4");
    let mut done = Vec::new();
    for (child, out) in [(c, c_out), j] {
        let d = finish(child, out, "an engine");
        assert!(d.status.success(), "{}", d.err);
        assert!(!d.err.contains("engine failed"), "{}", d.err);
        done.push(d);
    }
    assert_eq!(result_line(&done[0].out), result_line(&done[1].out));
    let played = move_points(&done[0].out);
    assert_eq!(played, move_points(&done[1].out));
    let table = done[0]
        .out
        .iter()
        .find_map(|l| l.strip_prefix("table "))
        .and_then(|l| l.split(':').next())
        .unwrap()
        .to_string();
    assert_eq!(played, stored(tengen(url, &["record", &table])));
    (played, format!("{}{}", done[0].err, done[1].err))
}

#[test]
fn two_pbrain_engines_play_renju_through_rif_and_gomoku_through_a_swap() {
    let url = server();
    let rif = ["--rules", "renju", "--opening", "rif", "--time", "5+3"];
    let (played, both) = guest_engines(&url, &rif, &[]);
    assert_eq!(played[0], "h8", "RIF: black 1 in the centre");
    // The zone stones were the bot's; the swap decision the engine's
    // (SWAP2BOARD after three stones), black's two fifth-move offers too
    // (YXNBEST); the engines placed the stones after them, given the board
    // by BOARD.
    assert!(
        both.contains("played Swap (engine SWAP2BOARD)")
            || both.contains("played Keep (engine SWAP2BOARD)"),
        "{both}"
    );
    assert_eq!(both.matches("engine <- YXNBEST 2").count(), 1, "{both}");
    assert!(
        both.contains("played OfferFifths") && both.contains("(engine YXNBEST)"),
        "{both}"
    );
    assert!(!both.contains("does not answer"), "{both}");
    assert!(both.contains("(engine)"), "{both}");
    assert!(both.contains("engine <- BOARD"), "{both}");
    assert!(both.contains("engine <- INFO rule 4"), "{both}");
    // Gomoku swaps after three: the opener's engine lays all three.
    let gomoku = ["--rules", "gomoku", "--time", "5+3"];
    let (played, both) = guest_engines(&url, &gomoku, &[]);
    assert!(played.len() >= 9);
    assert!(
        both.contains("played Swap") || both.contains("played Keep"),
        "{both}"
    );
    assert!(both.contains("engine <- INFO rule 1"), "{both}");
}

#[test]
fn swap2_decisions_are_the_engines_by_swap2board() {
    let url = server();
    let room = ["--rules", "gomoku", "--opening", "swap2", "--time", "5+3"];
    let (played, both) = guest_engines(&url, &room, &[]);
    assert!(played.len() >= 5, "{played:?}");
    // The opener's three stones came from one SWAP2BOARD answer, the
    // second player's choice from another.
    assert!(both.contains("engine <- SWAP2BOARD"), "{both}");
    let by_swap2 = both.matches("(engine SWAP2BOARD)").count();
    assert!(by_swap2 >= 4, "{both}");
    assert_eq!(
        both.lines()
            .filter(|l| l.starts_with("played Place") && l.ends_with("(engine SWAP2BOARD)"))
            .take(3)
            .count(),
        3,
        "{both}"
    );
    assert!(
        ["Swap (engine", "Place { point", "PlaceTwo"]
            .iter()
            .any(|a| both.contains(&format!("played {a}"))),
        "{both}"
    );
    assert!(!both.contains("does not answer"), "{both}");
}

#[test]
fn an_engine_without_the_extensions_gets_the_bots_openings() {
    let url = server();
    let wrap = ["sh", NO_EXT];
    let room = ["--rules", "gomoku", "--opening", "swap2", "--time", "5+3"];
    let (played, both) = guest_engines(&url, &room, &wrap);
    assert!(played.len() >= 5, "{played:?}");
    // Asked once each (the opener at its first stone, the second player at
    // its choice), then never again in the game.
    assert_eq!(
        both.matches("engine does not answer SWAP2BOARD").count(),
        2,
        "{both}"
    );
    assert!(!both.contains("(engine SWAP2BOARD)"), "{both}");
    assert!(both.contains("(bot)"), "{both}");
    let rif = ["--rules", "renju", "--opening", "rif", "--time", "5+3"];
    let (_, both) = guest_engines(&url, &rif, &wrap);
    assert_eq!(
        both.matches("engine does not answer YXNBEST").count(),
        1,
        "{both}"
    );
    assert!(both.contains("played OfferFifths"), "{both}");
    assert!(!both.contains("(engine YXNBEST)"), "{both}");
}

#[test]
fn an_engine_silent_on_swap2board_is_restarted_and_gets_the_bots_choices() {
    let url = server();
    let wrap = ["env", "SILENT=1", "sh", NO_EXT];
    let room = ["--rules", "gomoku", "--opening", "swap2", "--time", "5+3"];
    let (played, both) = guest_engines(&url, &room, &wrap);
    assert!(played.len() >= 5, "{played:?}");
    let timed_out = "engine does not answer SWAP2BOARD (no answer from the engine";
    assert_eq!(both.matches(timed_out).count(), 2, "{both}");
    // Each engine started once for the game and once after its timeout.
    assert_eq!(both.matches("engine <- START").count(), 4, "{both}");
    assert!(!both.contains("(engine SWAP2BOARD)"), "{both}");
}

#[test]
fn an_engine_plays_on_through_a_cut_network_and_a_server_restart() {
    let data = TempDir::new().unwrap();
    let (s, server, proxy) = proxied_server(data.path());
    let url = proxy.url();
    let mut create = vec![
        "engine", "-v", "--create", "--name", "eng", "--time", "10+5",
    ];
    create.extend_from_slice(&["--", BIN, "pbrain"]);
    let (eng, mut eng_out) = spawn(&url, &create);
    let room = room_of(&mut eng_out);
    let bot = ["bot", "--think-ms", "60", "--join", &room, "--name", "opp"];
    let (bot, mut bot_out) = spawn(&url, &bot);
    // The engine's moves are printed at the end; the bot's live.
    let server = cut_then_restart(&mut bot_out, &proxy, server, s);
    let e = finish(eng, eng_out, "the engine");
    let b = finish(bot, bot_out, "the bot");
    assert!(e.status.success(), "{}", e.err);
    assert!(b.status.success(), "{}", b.err);
    assert!(e.err.matches("connection lost").count() >= 2, "{}", e.err);
    assert!(!e.err.contains("forgotten"), "{}", e.err);
    assert!(!e.err.contains("engine failed"), "{}", e.err);
    // Told the whole board after the first drop, never restarted.
    let after = e.err.split("connection lost").nth(1).unwrap();
    assert!(after.contains("engine <- BOARD"), "{after}");
    assert_eq!(e.err.matches("engine <- START").count(), 1);
    assert_eq!(result_line(&e.out), result_line(&b.out));
    // Every move once, in order, the same for both.
    assert_eq!(move_points(&e.out), move_points(&b.out));
    assert!(move_points(&e.out).len() > 10);
    server.stop();
}

#[test]
fn the_help_states_the_policies() {
    let out = tengen("ws://127.0.0.1:9/ws", &["engine", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = text(&out.stdout);
    for policy in ["stones", "openings", "claims", "draws", "pass", "resign"] {
        assert!(
            help.lines().any(|l| l.trim_start().starts_with(policy)),
            "{policy}: {help}"
        );
    }
    assert!(
        help.contains("tengen engine --create -- tengen pbrain"),
        "{help}"
    );
    for ext in ["SWAP2BOARD", "YXNBEST N"] {
        assert!(help.contains(ext), "{ext}: {help}");
    }
    let out = tengen("ws://127.0.0.1:9/ws", &["pbrain", "--help"])
        .output()
        .unwrap();
    assert!(
        text(&out.stdout).contains("H8 is\n7,7 on 15x15"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn an_engine_creates_a_room_per_game_and_goes_on() {
    let url = server();
    let mut create = vec!["engine", "-v", "--create", "--games", "2", "--name", "eng"];
    create.extend_from_slice(ROOM);
    create.extend_from_slice(&["--", BIN, "pbrain"]);
    let (eng, mut eng_out) = spawn(&url, &create);
    let mut bots = Vec::new();
    for seed in ["5", "6"] {
        let room = room_of(&mut eng_out);
        let bot = ["bot", "--join", &room, "--name", "opp", "--seed", seed];
        let (b, b_out) = spawn(&url, &bot);
        bots.push(finish(b, b_out, "a bot"));
    }
    let e = finish(eng, eng_out, "the engine");
    assert!(e.status.success(), "{}", e.err);
    let results: Vec<&String> = e.out.iter().filter(|l| l.starts_with("result: ")).collect();
    assert_eq!(results.len(), 2, "{:#?}", e.out);
    for (b, r) in bots.iter().zip(results) {
        assert!(b.status.success(), "{}", b.err);
        assert_eq!(result_line(&b.out), r);
    }
    assert_eq!(e.err.matches("engine <- RESTART").count(), 1, "{}", e.err);
}

#[test]
fn a_hanging_engine_on_a_short_clock_resigns_before_its_flag_falls() {
    let url = server();
    // Sudden death, 12 s each: the first wait is the 10 s cap, the retry
    // gets what the clock has left less the margin.
    let mut create = vec!["bot", "--create", "--name", "opp", "--rules", "freestyle"];
    create.extend_from_slice(&["--time", "12s"]);
    let (bot, mut bot_out) = spawn(&url, &create);
    let room = room_of(&mut bot_out);
    let engine = [
        "engine", "-v", "--join", &room, "--name", "eng", "--", "sh", SCRIPT, "sleep",
    ];
    let (eng, eng_out) = spawn(&url, &engine);
    let e = resigned((bot, bot_out), (eng, eng_out), "sleep");
    assert!(
        e.err.contains("engine <- INFO timeout_turn 10000"),
        "{}",
        e.err
    );
    let retry = e.err.split("restarting the engine").nth(1).unwrap();
    let turn: u64 = retry
        .split("engine <- INFO timeout_turn ")
        .nth(1)
        .and_then(|t| t.lines().next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("{retry}"));
    assert!(turn < 1_600, "the clock's remainder, not the cap: {turn}");
}
