//! `tengen replay` as a process: each record format in, moves + board +
//! result out, and the error paths.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use tengen_rules::game::{Action, Game, GameConfig, RuleSet, Seat, TimeControl};

fn replay(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .arg("replay")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tengen runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn renju_notation_ending_in_a_five() {
    let o = replay(&["-"], "h8 h9 i8 i9 j8 j9 k8 k9 l8\n");
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(
        out.starts_with(
            "record: renju notation, rule set renju, 15x15\n1. black H8\n2. white H9\n"
        ),
        "{out}"
    );
    assert!(out.contains("\n9. black L8\n"), "{out}");
    assert!(
        out.contains(" 8  . . . . . . . X X X X X . . . 8\n"),
        "final board: {out}"
    );
    assert!(
        out.ends_with("result: black (first seat) wins: 5 in a row (H8 I8 J8 K8 L8)\n"),
        "{out}"
    );
}

#[test]
fn rule_set_decides_overlines() {
    // Black's sixth stone in a row: a win in free-style, nothing in renju
    // (an overline is forbidden for black; in a claim room it stands until
    // white claims it), nothing in standard gomoku.
    let moves = "h8 a1 i8 c1 j8 e1 k8 g1 m8 i1 l8\n";
    let free = stdout(&replay(&["-", "--rule", "freestyle"], moves));
    assert!(
        free.ends_with("wins: 6 in a row (H8 I8 J8 K8 L8 M8)\n"),
        "{free}"
    );
    let gomoku = stdout(&replay(&["-", "--rule", "gomoku"], moves));
    assert!(
        gomoku.ends_with("result: none (the game is not over; white to move)\n"),
        "{gomoku}"
    );
    let renju = stdout(&replay(&["-"], moves));
    assert!(
        renju.ends_with("result: none (the game is not over; white to move)\n"),
        "{renju}"
    );
}

#[test]
fn psq_file() {
    let dir = std::env::temp_dir().join(format!("tengen-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.psq");
    // PSQ rows count from the top: H8 is (8, 8), I9 is (9, 7), J10 (10, 6).
    std::fs::write(
        &path,
        "Piskvorky 15x15, 11:11, 0\n8,8,100\n8,7,50\n9,8,10\n9,7,10\n10,8,10\n10,7,10\n11,8,10\n11,7,10\n12,8,10\nalice\nbob\n-1\n",
    )
    .unwrap();
    let o = replay(&[path.to_str().unwrap()], "");
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.starts_with(
            "record: PSQ, rule set renju, 15x15\n1. black H8\n2. white H9\n3. black I8\n"
        ),
        "{out}"
    );
    assert!(
        out.ends_with("wins: 5 in a row (H8 I8 J8 K8 L8)\n"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn json_record_with_swap_resignation_and_clocks() {
    let config =
        GameConfig::new(RuleSet::Gomoku).with_time(TimeControl::SuddenDeath { main_ms: 60_000 });
    let mut g = Game::new(config, Seat::First, 0).unwrap();
    let place = |p: &str| Action::Place {
        point: p.parse().unwrap(),
        board: 0,
        offer_draw: false,
    };
    g.apply(Seat::First, place("H8"), 1_000).unwrap();
    g.apply(Seat::Second, place("H9"), 2_000).unwrap();
    g.apply(Seat::First, place("J10"), 3_000).unwrap();
    g.apply(Seat::Second, Action::Swap, 4_000).unwrap();
    g.apply(Seat::First, place("G7"), 5_000).unwrap();
    g.apply(Seat::Second, Action::Resign, 6_000).unwrap();
    let json = g.record().to_json();
    let o = replay(&["-"], &json);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.starts_with("record: JSON game record, rule set gomoku, 15x15\n"),
        "{out}"
    );
    assert!(
        out.contains("3. black J10\n   second seat swaps (takes black)\n4. white G7\n"),
        "{out}"
    );
    assert!(
        out.ends_with("result: white (first seat) wins: second seat resigned\n"),
        "{out}"
    );

    // A record whose result was tampered with is refused by the referee.
    let tampered = json.replacen("\"resignation\"", "\"abandonment\"", 1);
    assert_ne!(tampered, json);
    let o = replay(&["-"], &tampered);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).starts_with("error: "), "{}", stdout(&o));
}

#[test]
fn errors_name_the_move() {
    let cases = [
        (
            "h8 h9 i8 zz",
            "error: 'zz' (token 4) is neither a point nor 'pass'\n",
        ),
        (
            "h8 h9 i8 h9",
            "error: move 4 (h9) is illegal: H9 is occupied\n",
        ),
        (
            "h8 h9 i8 i9 j8 j9 k8 k9 l8 l9",
            "error: move 10 (l9) is illegal: the game is over\n",
        ),
        (
            "Piskvorky 15x15, 11:11, 0\n16,1,0\n",
            "error: PSQ line 2: '16,1,0' is off the 15x15 board\n",
        ),
        ("{\"version\": 1}", ""),
    ];
    for (input, expected) in cases {
        let o = replay(&["-"], input);
        assert_eq!(o.status.code(), Some(2), "{input}");
        let out = stdout(&o);
        assert!(out.starts_with("error: "), "{input}: {out}");
        if !expected.is_empty() {
            assert_eq!(out, expected, "{input}");
        }
    }
    let o = replay(&["/nonexistent/tengen-record"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("reading /nonexistent/tengen-record"));
}

#[test]
fn a_twin_game_in_renju_notation_shows_both_boards() {
    // Black to fours on both boards, then both closed in one turn.
    let moves = "1:a10 1:a1 2:a1 1:b10 2:a10 1:a2 2:a2 1:c10 2:b10 1:a3 2:a3 \
                 1:d10 2:c10 1:a5 2:a5 2:e10 1:s1 1:a7 2:a7 1:e10 2:d10\n";
    let o = replay(&["-", "--rule", "twin"], moves);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(
        out.contains("\n2. white A1 on board 1\n3. white A1 on board 2\n"),
        "{out}"
    );
    assert!(
        out.contains("board 1\n") && out.contains("board 2\n"),
        "{out}"
    );
    assert!(
        out.ends_with("result: black (first seat) wins: a five on both boards in one turn (A10 B10 C10 D10 E10 on board 1, A10 B10 C10 D10 E10 on board 2)\n"),
        "{out}"
    );
    // Without board numbers the stones cannot be read as a twin game.
    let o = replay(&["-", "--rule", "twin"], "a10 a1\n");
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
}
