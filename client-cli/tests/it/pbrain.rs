//! `tengen pbrain` as a child process driven by Piskvork protocol lines,
//! as a Gomocup manager would: every answer a legal point in the
//! protocol's format, in time; bad input answered by `ERROR` or `UNKNOWN`
//! without changing the board.

use crate::common;

use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use common::{BIN, Lines, wait};
use tengen_client::piskvork::from_xy;
use tengen_rules::{Board, Color, Point};

/// A generous bound for a debug build on a busy machine; the brain's own
/// bound (the turn time) is checked separately.
const ANSWER: Duration = Duration::from_secs(20);

struct Brain {
    child: Child,
    stdin: ChildStdin,
    out: Lines,
}

impl Brain {
    fn start() -> Brain {
        let mut child = Command::new(BIN)
            .args(["pbrain", "--seed", "7"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let out = Lines::new(child.stdout.take().unwrap());
        Brain { child, stdin, out }
    }

    fn send(&mut self, lines: &[&str]) {
        for l in lines {
            writeln!(self.stdin, "{l}").unwrap();
        }
        self.stdin.flush().unwrap();
    }

    fn answer(&mut self) -> String {
        self.out.next(ANSWER).expect("an answer")
    }

    /// Sends `lines`, expects a point (after any `MESSAGE` or `DEBUG`
    /// lines, as a manager reads them) and plays it for `me` on `board`.
    fn ask_point(&mut self, lines: &[&str], board: &mut Board, me: Color) -> Point {
        self.send(lines);
        let mut a = self.answer();
        while a.starts_with("MESSAGE ") || a.starts_with("DEBUG ") {
            a = self.answer();
        }
        let p = from_xy(&a, board.size()).unwrap_or_else(|e| panic!("{a}: {e}"));
        board.place(p, me).unwrap_or_else(|e| panic!("{a}: {e}"));
        p
    }

    /// No line within a short while (INFO and BOARD lines get no answer).
    fn silent(&mut self) {
        assert_eq!(self.out.next(Duration::from_millis(300)), None);
    }

    fn end(mut self) {
        self.send(&["END"]);
        let st = wait(&mut self.child, Duration::from_secs(10), "pbrain after END");
        assert!(st.success());
    }
}

fn xy(p: Point, size: u8) -> String {
    tengen_client::piskvork::to_xy(p, size)
}

#[test]
fn about_start_begin_turn_and_end() {
    let mut b = Brain::start();
    b.send(&["ABOUT"]);
    let about = b.answer();
    assert!(about.starts_with("name=\"tengen\", version=\""), "{about}");
    for key in ["author=", "country=", "www="] {
        assert!(about.contains(key), "{about}");
    }
    b.send(&["START 15"]);
    assert_eq!(b.answer(), "OK");
    b.send(&[
        "INFO timeout_turn 2000",
        "INFO timeout_match 60000",
        "INFO time_left 60000",
    ]);
    b.send(&[
        "INFO max_memory 83886080",
        "INFO game_type 1",
        "INFO rule 0",
    ]);
    b.send(&["INFO evaluate 7,7", "INFO folder /tmp"]);
    b.silent();
    let mut board = Board::new(15).unwrap();
    let first = b.ask_point(&["BEGIN"], &mut board, Color::Black);
    assert_eq!(first, Point::center(15), "an empty board: the centre");
    // Ten turns: each answer a free point, in time.
    for _ in 0..10 {
        let theirs = board.points().find(|&p| board.is_empty_point(p)).unwrap();
        board.place(theirs, Color::White).unwrap();
        let started = Instant::now();
        b.ask_point(
            &[&format!("TURN {}", xy(theirs, 15))],
            &mut board,
            Color::Black,
        );
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "within timeout_turn"
        );
    }
    b.end();
}

#[test]
fn board_restart_and_a_19_board() {
    let mut b = Brain::start();
    b.send(&["START 19"]);
    assert_eq!(b.answer(), "OK");
    let mut board = Board::new(19).unwrap();
    // The opponent has four in a row on the top edge (A19..D19 is 0,0 ..
    // 3,0): we are white (three stones... no: five given, we are black).
    let ours = ["9,9", "9,10"];
    let theirs = ["0,0", "1,0", "2,0", "3,0"];
    let mut lines = vec!["BOARD".to_string()];
    for (i, t) in theirs.iter().enumerate() {
        lines.push(format!("{t},2"));
        board.place(from_xy(t, 19).unwrap(), Color::White).unwrap();
        if let Some(o) = ours.get(i) {
            lines.push(format!("{o},1"));
            board.place(from_xy(o, 19).unwrap(), Color::Black).unwrap();
        }
    }
    // Four white, two black: white moved last, so we (to move) are...
    // six stones, even: black to move, and black must block at 4,0.
    lines.push("DONE".into());
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let p = b.ask_point(&lines, &mut board, Color::Black);
    assert_eq!(xy(p, 19), "4,0", "the only block of the open end");
    // RESTART: an empty board again, BEGIN opens in the centre of 19x19.
    b.send(&["RESTART"]);
    assert_eq!(b.answer(), "OK");
    let mut board = Board::new(19).unwrap();
    let p = b.ask_point(&["BEGIN"], &mut board, Color::Black);
    assert_eq!(xy(p, 19), "9,9");
    b.end();
}

#[test]
fn renju_black_never_plays_a_forbidden_point() {
    let mut b = Brain::start();
    b.send(&["START 15", "INFO rule 4"]);
    assert_eq!(b.answer(), "OK");
    // Black (us, to move with 6 stones) has a double-three point at H8:
    // F8 G8 . and H6 H7 . with open ends; white stones far away.
    let mut board = Board::new(15).unwrap();
    let ours = ["F8", "G8", "H6", "H7"];
    let theirs = ["A1", "A3", "A5", "A7"];
    let mut lines = vec!["BOARD".to_string()];
    for (o, t) in ours.iter().zip(theirs) {
        let (o, t): (Point, Point) = (o.parse().unwrap(), t.parse().unwrap());
        board.place(o, Color::Black).unwrap();
        board.place(t, Color::White).unwrap();
        lines.push(format!("{},1", xy(o, 15)));
        lines.push(format!("{},2", xy(t, 15)));
    }
    lines.push("DONE".into());
    let h8: Point = "H8".parse().unwrap();
    assert!(board.forbidden(h8).is_some(), "the test's premise");
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let p = b.ask_point(&lines, &mut board, Color::Black);
    assert_ne!(p, h8);
    b.end();
}

#[test]
fn bad_input_gets_error_or_unknown_and_changes_nothing() {
    let mut b = Brain::start();
    b.send(&["TURN 7,7"]);
    assert!(b.answer().starts_with("ERROR "), "no board yet");
    b.send(&["START 3"]);
    assert!(b.answer().starts_with("ERROR "));
    b.send(&["START 15"]);
    assert_eq!(b.answer(), "OK");
    b.send(&["FROBNICATE"]);
    assert!(b.answer().starts_with("UNKNOWN "));
    // Swap2 with a stone count it never asks about: one ERROR once the
    // block is over; an extension's count out of range the same.
    b.send(&["SWAP2BOARD", "7,7", "DONE"]);
    assert!(b.answer().starts_with("ERROR SWAP2BOARD"));
    b.send(&["YXNBEST 11"]);
    assert!(b.answer().starts_with("ERROR YXNBEST"));
    b.silent();
    for bad in ["TURN 15,0", "TURN seven", "TURN 7"] {
        b.send(&[bad]);
        let a = b.answer();
        assert!(a.starts_with("ERROR "), "{bad}: {a}");
    }
    b.send(&["INFO rule 8"]);
    assert!(b.answer().starts_with("ERROR "), "caro is not ours");
    b.send(&["BOARD", "7,7,2", "7,7,1", "DONE"]);
    assert!(b.answer().starts_with("ERROR "), "a point given twice");
    b.send(&["BOARD", "7,7,5", "DONE"]);
    assert!(b.answer().starts_with("ERROR "), "a bad field");
    // Nothing of that stuck: the board is still empty, so the opponent's
    // centre stone is taken and we answer next to it.
    let mut board = Board::new(15).unwrap();
    board.place(Point::center(15), Color::Black).unwrap();
    let p = b.ask_point(&["TURN 7,7"], &mut board, Color::White);
    assert_ne!(p, Point::center(15));
    b.send(&["TURN 7,7"]);
    assert!(b.answer().starts_with("ERROR "), "an occupied point");
    b.end();
}

#[test]
fn a_tight_turn_time_is_kept() {
    let mut b = Brain::start();
    b.send(&["START 19", "INFO timeout_turn 200", "INFO rule 0"]);
    assert_eq!(b.answer(), "OK");
    let mut board = Board::new(19).unwrap();
    let mut me = Color::Black;
    b.ask_point(&["BEGIN"], &mut board, me);
    me = Color::Black;
    for _ in 0..15 {
        let theirs = tengen_client::bot::quick_stone(
            &board,
            me.opponent(),
            tengen_client::bot::Rules {
                variant: tengen_rules::Variant::Freestyle,
            },
        )
        .unwrap();
        board.place(theirs, me.opponent()).unwrap();
        let started = Instant::now();
        b.ask_point(&[&format!("TURN {}", xy(theirs, 19))], &mut board, me);
        // The turn time and the pipe's and process's overhead.
        assert!(
            started.elapsed() < Duration::from_millis(200 + 300),
            "{:?}",
            started.elapsed()
        );
    }
    b.end();
}
