//! `tengen analyze` as a process: standard input in, standard output and
//! exit status out.
//!
//! Every position below is small enough to check by hand; the comment next
//! to it gives the reasoning. Boards are 15 x 15, columns A..O left to right,
//! rows 1..15 bottom to top.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use tengen_rules::{Board, Point};

const BIN: &str = env!("CARGO_BIN_EXE_tengen");

/// Runs `tengen` with `args`, feeding `input` on standard input.
fn run(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tengen starts");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Write from another thread so a large input cannot dead-lock against
    // a full output pipe.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("tengen runs");
    writer.join().unwrap();
    assert!(
        out.stderr.is_empty(),
        "nothing on stderr, got {:?}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `tengen analyze` on `input`: the output lines and the exit code.
fn analyze(input: &str) -> (Vec<String>, i32) {
    analyze_bytes(input.as_bytes())
}

fn analyze_bytes(input: &[u8]) -> (Vec<String>, i32) {
    let out = run(&["analyze"], input);
    let text = String::from_utf8(out.stdout).expect("output is UTF-8");
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "every output line ends in a newline: {text:?}"
    );
    let lines = text.lines().map(str::to_string).collect();
    (lines, out.status.code().expect("exited normally"))
}

/// The answer to a single good line.
fn one(line: &str) -> String {
    let (out, code) = analyze(&format!("{line}\n"));
    assert_eq!(code, 0, "{line:?} is a good line");
    assert_eq!(out.len(), 1, "one line out for {line:?}: {out:?}");
    out.into_iter().next().unwrap()
}

// ---------------------------------------------------------------- shapes

#[test]
fn double_three() {
    // Row 8: F8 G8 + H8 is a solid three with E8, I8 (and D8, J8) empty:
    // E8 or I8 makes a straight four. Column H: H8 + H9 H10 likewise, with
    // H7, H11 (and H6, H12) empty. Two live threes through H8. No other
    // point has two black stones in two of its lines at once, so nothing
    // else is forbidden.
    assert_eq!(one("F8,G8,H9,H10;"), "H8=double-three");
    // A white stone at D8 leaves the row three live (I8 still makes the
    // straight four F8-I8 with E8 and J8 empty).
    assert_eq!(one("F8,G8,H9,H10;D8"), "H8=double-three");
    // White on E8 or I8 leaves only a rush four to make in the row: one
    // live three, so H8 is legal.
    assert_eq!(one("F8,G8,H9,H10;E8"), "");
    assert_eq!(one("F8,G8,H9,H10;I8"), "");
}

#[test]
fn double_four() {
    // H8 makes E8-H8 in the row and H5-H8 in the column: two fours. D8 or
    // H4 would make only one four each.
    assert_eq!(one("E8,F8,G8,H5,H6,H7;"), "H8=double-four");
    // Two fours on one line: D8 . F8 [G8] H8 . J8; after G8 both E8
    // (D8-H8) and I8 (F8-J8) make exactly five.
    assert_eq!(one("D8,F8,H8,J8;"), "G8=double-four");
}

#[test]
fn overline() {
    // F8 joins C8-E8 and G8-I8 into seven in a row. B8 or J8 makes a
    // single four (the other end would be an overline), which is legal.
    assert_eq!(one("C8,D8,E8,G8,H8,I8;"), "F8=overline");
}

#[test]
fn several_points_in_row_then_column_order() {
    // Four independent shapes far apart: the answers of the separate
    // positions, merged in order of row 1..15, then column A..O.
    assert_eq!(one("B2,C2,D2,F2,G2,H2;"), "E2=overline");
    assert_eq!(one("K8,L8,M9,M10;"), "M8=double-three");
    assert_eq!(one("D13,F13,H13,J13;"), "G13=double-four");
    // Listed in scrambled order on purpose.
    let all = "J13,M10,H10,B2,G8,D13,H2,K8,F2,L8,M9,C2,F13,H13,D2,F8,G2,H9;";
    assert_eq!(
        one(all),
        "E2=overline H8=double-three M8=double-three G13=double-four"
    );
}

/// A small deterministic generator, so the test needs no extra crate.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn random_dense_positions_match_the_referee_in_order() {
    // 300 random positions of 40-80 stones: the command's answer is exactly
    // the referee's map, in strictly increasing (row, column) order.
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut input = String::new();
    let mut expected = Vec::new();
    let mut total_points = 0;
    for _ in 0..300 {
        let mut all: Vec<Point> = (0..15)
            .flat_map(|y| (0..15).map(move |x| Point::new(x, y)))
            .collect();
        for i in (1..all.len()).rev() {
            all.swap(i, rng.below(i + 1));
        }
        let n = 40 + rng.below(41);
        let (black, white) = all[..n].split_at(n.div_ceil(2));
        let show = |ps: &[Point]| {
            ps.iter()
                .enumerate()
                // Mix the cases and the spacing the format allows.
                .map(|(i, p)| match i % 3 {
                    0 => p.to_string(),
                    1 => format!(" {} ", p.to_lower()),
                    _ => format!("{p}  "),
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        input.push_str(&format!("{};{}\n", show(black), show(white)));
        let board = Board::with_stones(15, black, white).unwrap();
        let map = board.forbidden_points();
        for pair in map.windows(2) {
            let (a, b) = (pair[0].0, pair[1].0);
            assert!((a.y, a.x) < (b.y, b.x), "referee order: {a} before {b}");
        }
        total_points += map.len();
        expected.push(
            map.iter()
                .map(|(p, k)| format!("{p}={}", k.name()))
                .collect::<Vec<_>>()
                .join(" "),
        );
    }
    assert!(
        total_points > 100,
        "the sample has forbidden points to order"
    );
    let (out, code) = analyze(&input);
    assert_eq!(code, 0);
    assert_eq!(out, expected);
    for line in &out {
        let points: Vec<Point> = line
            .split(' ')
            .filter(|t| !t.is_empty())
            .map(|t| t.split_once('=').unwrap().0.parse().unwrap())
            .collect();
        for pair in points.windows(2) {
            assert!((pair[0].y, pair[0].x) < (pair[1].y, pair[1].x), "{line}");
        }
    }
}

// ------------------------------------------------------ lines and formats

#[test]
fn empty_and_blank_lines_give_empty_lines() {
    let (out, code) = analyze("\n;\n   \n \t ; \nF8,G8,H9,H10;\n\n");
    assert_eq!(code, 0);
    assert_eq!(out, ["", "", "", "", "H8=double-three", ""]);
}

#[test]
fn no_forbidden_point_gives_an_empty_line() {
    assert_eq!(one("H8,I9,J10;G7,H9"), "");
    assert_eq!(one(";H8,I8,J8,K8,G9,G10"), "", "white is never forbidden");
}

#[test]
fn either_case_spaces_crlf_and_no_final_newline() {
    let (out, code) = analyze(" f8 ,G8, h9,H10 ; \r\nc8,D8,e8,G8,h8,I8;");
    assert_eq!(code, 0);
    assert_eq!(out, ["H8=double-three", "F8=overline"]);
}

#[test]
fn no_input_no_output() {
    assert_eq!(analyze(""), (vec![], 0));
}

// ------------------------------------------------------------ bad lines

/// Feeds `bad` as line 2 between two good lines, and checks that it alone
/// becomes an error naming line 2 and containing `needle`, and that the
/// status is 2.
fn check_bad(bad: &[u8], needle: &str) {
    let mut input = b"F8,G8,H9,H10;\n".to_vec();
    input.extend_from_slice(bad);
    input.extend_from_slice(b"\nC8,D8,E8,G8,H8,I8;\n");
    let (out, code) = analyze_bytes(&input);
    assert_eq!(code, 2, "bad line {bad:?}");
    assert_eq!(out.len(), 3, "one line out per line in: {out:?}");
    assert_eq!(out[0], "H8=double-three");
    assert!(
        out[1].starts_with("error: line 2: ") && out[1].contains(needle),
        "{bad:?} gave {:?}, expected it to mention {needle:?}",
        out[1]
    );
    assert_eq!(out[2], "F8=overline", "the line after an error is answered");
}

#[test]
fn unknown_points() {
    check_bad(b"Z9;", "'Z9'");
    check_bad(b"H8,I0;", "'I0' is not a point");
    check_bad(b"H8;XX", "white: 'XX' is not a point");
    check_bad(b"H8 I9;", "'H8 I9' is not a point");
    check_bad(b"8H;", "'8H' is not a point");
}

#[test]
fn points_off_the_board() {
    check_bad(b"P1;", "black: 'P1' is off the 15x15 board");
    check_bad(b";H8,A16", "white: 'A16' is off the 15x15 board");
    check_bad(b"S19;", "'S19' is off the 15x15 board");
}

#[test]
fn stones_listed_twice() {
    check_bad(b"H8,I9,h8;", "black: 'h8' is already listed for black");
    check_bad(b";G7,G7", "white: 'G7' is already listed for white");
    check_bad(b"H8;I9,H8", "white: 'H8' is already listed for black");
}

#[test]
fn semicolons() {
    check_bad(b"H8,I9", "no ';'");
    check_bad(b"H8;I9;J10", "more than one ';'");
    check_bad(b";;", "more than one ';'");
}

#[test]
fn empty_points_and_garbage() {
    check_bad(b"H8,,I9;", "empty point");
    check_bad(b"H8,;", "empty point");
    check_bad(b";,H8", "empty point");
    check_bad(b"hello, world", "no ';'");
    check_bad(b"\x1b[2J;", r"'\u{1b}[2J' is not a point");
    check_bad(b"\0;", "is not a point");
    check_bad(
        format!("{};", "Q".repeat(10_000)).as_bytes(),
        "is not a point",
    );
}

#[test]
fn bytes_that_are_not_utf8() {
    check_bad(b"H8,\xff\xfe;", "not UTF-8");
    check_bad(b"\xc3;", "byte 0xC3 at byte offset 0");
}

#[test]
fn exit_status_is_two_even_if_only_an_early_line_was_bad() {
    let (out, code) = analyze("P1;\nF8,G8,H9,H10;\n;\n");
    assert_eq!(code, 2);
    assert_eq!(out.len(), 3);
    assert!(out[0].starts_with("error: line 1: "));
    assert_eq!(out[1..], ["H8=double-three", ""]);
}

// ------------------------------------------------------------ co-process

/// Reads one line from the child's output, failing after a while instead of
/// hanging the test run if the line never comes.
fn read_line_within(rx: &mpsc::Receiver<String>, child: &mut Child) -> String {
    match rx.recv_timeout(Duration::from_secs(20)) {
        Ok(line) => line,
        Err(_) => {
            let _ = child.kill();
            panic!("no answer line while standard input was still open: not flushed per line");
        }
    }
}

#[test]
fn answers_each_line_before_input_ends() {
    let mut child = Command::new(BIN)
        .arg("analyze")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let reader = thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });

    stdin.write_all(b"F8,G8,H9,H10;\n").unwrap();
    stdin.flush().unwrap();
    assert_eq!(read_line_within(&rx, &mut child), "H8=double-three");
    stdin.write_all(b"Z9;\n").unwrap();
    stdin.flush().unwrap();
    assert!(read_line_within(&rx, &mut child).starts_with("error: line 2: "));
    stdin.write_all(b"\n").unwrap();
    stdin.flush().unwrap();
    assert_eq!(read_line_within(&rx, &mut child), "");

    drop(stdin);
    let status = child.wait().unwrap();
    reader.join().unwrap();
    assert_eq!(status.code(), Some(2));
}

// --------------------------------------------------------------- --moves

fn moves(list: &str) -> (Vec<String>, i32) {
    let out = run(&["analyze", "--moves", list], b"ignored;\n");
    let text = String::from_utf8(out.stdout).unwrap();
    (
        text.lines().map(str::to_string).collect(),
        out.status.code().unwrap(),
    )
}

#[test]
fn moves_with_a_black_win() {
    // Black H8 I9 J10 K11 L12 on the diagonal; white's H9-H12 is only four.
    // G7 and M13 would lengthen black's five into an overline.
    let (out, code) = moves("h8 h9 i9 h10 j10 h11 k11 h12 l12");
    assert_eq!(code, 0);
    assert_eq!(
        out,
        [
            "G7=overline M13=overline",
            "winner: black (H8 I9 J10 K11 L12)"
        ]
    );
}

#[test]
fn moves_with_a_white_win_and_mixed_separators() {
    // White A2-A6 in column A; black's scattered stones make nothing.
    let (out, code) = moves("H8, A2,C9 ,A3  E11,A4,M3 A5 , K13 A6");
    assert_eq!(code, 0);
    assert_eq!(out, ["", "winner: white (A2 A3 A4 A5 A6)"]);
}

#[test]
fn white_overline_wins_black_overline_does_not() {
    // White fills A2-A4 and A6-A7, then A5: six in a row, a win for white.
    let (out, code) = moves("H8 A2 J10 A3 L12 A4 N14 A6 C13 A7 K4 A5");
    assert_eq!(code, 0);
    assert_eq!(out[1], "winner: white (A2 A3 A4 A5 A6 A7)");
    // Black C8 D8 E8 G8 H8 I8 then F8: seven in a row, forbidden, so no
    // win (the move itself is accepted). B8 and J8 would now make eight.
    let (out, code) = moves("C8 A1 D8 A3 E8 A5 G8 A7 H8 A9 I8 A11 F8");
    assert_eq!(code, 0);
    assert_eq!(out, ["B8=overline J8=overline", "winner: none"]);
}

#[test]
fn moves_without_a_winner() {
    let (out, code) = moves("f8 a1 g8 a3 h9 a5 h10");
    assert_eq!(code, 0);
    assert_eq!(out, ["H8=double-three", "winner: none"]);
    let (out, code) = moves("");
    assert_eq!(code, 0);
    assert_eq!(out, ["", "winner: none"]);
}

#[test]
fn bad_moves() {
    for (list, expected) in [
        ("h8 h9 z9", "error: move 3 (z9) is off the 15x15 board"),
        ("h8 p1", "error: move 2 (p1) is off the 15x15 board"),
        ("h8 a16", "error: move 2 (a16) is off the 15x15 board"),
        ("h8 h9 9i", "error: move 3 (9i) is not a point"),
        ("h8 h9 i9 h8", "error: move 4 (H8) is on an occupied point"),
        (
            "h8 h9 i9 h10 j10 h11 k11 h12 l12 a1",
            "error: move 10 (A1) comes after the game was won (black won at move 9)",
        ),
    ] {
        let (out, code) = moves(list);
        assert_eq!(code, 2, "{list}");
        assert_eq!(out.len(), 1, "{list}: {out:?}");
        assert!(out[0].starts_with(expected), "{list}: {:?}", out[0]);
    }
}

// ------------------------------------------------------------------ help

#[test]
fn help_documents_the_formats() {
    let out = run(&["analyze", "--help"], b"");
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "BLACK;WHITE",
        "H8,I9,J10;G7,H9",
        "POINT=KIND",
        "double-three",
        "double-four",
        "overline",
        "error: line N",
        "winner: black (H8 I9 J10 K11 L12)",
        "winner: none",
        "--moves",
    ] {
        assert!(help.contains(needle), "help lacks {needle:?}");
    }
}

#[test]
fn the_help_examples_are_true() {
    let (out, code) = analyze("F8,G8,H9,H10;\n\nH8;h8\nC8,D8,E8,G8,H8,I8;\n");
    assert_eq!(code, 2);
    assert_eq!(
        out,
        [
            "H8=double-three",
            "",
            "error: line 3: white: 'h8' is already listed for black",
            "F8=overline",
        ]
    );
    let (out, code) = moves("h8 h9 i9 h10 j10 h11 k11 h12 l12");
    assert_eq!((out.len(), code), (2, 0));
}
