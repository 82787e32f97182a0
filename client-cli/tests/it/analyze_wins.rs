//! `tengen analyze --vcf/--vct` and `tengen replay --analyze` as processes.
//! Each position is small enough to check by hand; the comments give the
//! reasoning.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `tengen` with `args` and `input` on standard input: the output
/// lines and the exit code.
fn tengen(args: &[&str], input: &str) -> (Vec<String>, i32) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tengen starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    (
        text.lines().map(str::to_string).collect(),
        out.status.code().unwrap(),
    )
}

#[test]
fn an_open_three_is_a_one_move_vcf_for_the_side_to_move() {
    // Black H8 I8 J8 open, black to move (three stones each): G8 or K8
    // makes an open four. White's A1 A2 A3 is a three in the corner's
    // edge: nothing for white in one move.
    let (out, code) = tengen(&["analyze", "--vcf", "--vct"], "H8,I8,J8;A1,A2,A3\n\n");
    assert_eq!(code, 0);
    assert_eq!(out.len(), 2, "one line per input line: {out:?}");
    let (vcf, vct) = out[0].split_once("; ").unwrap();
    assert!(
        vcf == "vcf black 1: g8" || vcf == "vcf black 1: k8",
        "{vcf}"
    );
    assert!(vct.starts_with("vct black 1: "), "{vct}");
    assert_eq!(out[1], "", "a blank line gets a blank answer");
}

#[test]
fn a_double_three_is_a_vct_not_a_vcf() {
    // White G8 H8 and I9 I10: I8 makes two open threes.
    let input = "A1,O1,A15,O15;G8,H8,I9,I10\n";
    let (out, _) = tengen(&["analyze", "--vcf", "--vct", "--attacker", "white"], input);
    let (vcf, vct) = out[0].split_once("; ").unwrap();
    assert_eq!(vcf, "vcf white none");
    assert!(vct.starts_with("vct white 2: i8 "), "{vct}");
    assert_eq!(vct.split(' ').count(), 3 + 3, "{vct}");
    // With one node the search cannot finish.
    let (out, _) = tengen(
        &["analyze", "--vct", "--attacker", "white", "--nodes", "1"],
        input,
    );
    assert_eq!(out, ["vct white unknown"]);
}

#[test]
fn renju_forbidden_defence_and_the_rule_option() {
    // H8 is a double four for black (E8 F8 G8 / H5 H6 H7, D8 and H4 white),
    // so white's F10 (four G9 . I7 J6 needing H8; K5 black) wins at once in
    // renju; in gomoku black blocks at H8.
    let input = "E8,F8,G8,H5,H6,H7,K5;D8,H4,G9,I7,J6\n";
    let (out, _) = tengen(&["analyze", "--vcf", "--attacker", "white"], input);
    assert_eq!(out, ["vcf white 1: f10"]);
    let (out, _) = tengen(
        &[
            "analyze",
            "--vcf",
            "--attacker",
            "white",
            "--rule",
            "gomoku",
        ],
        input,
    );
    assert_ne!(out, ["vcf white 1: f10"]);
    assert!(out[0].starts_with("vcf white "), "{out:?}");
}

#[test]
fn moves_get_a_third_line_unless_the_game_is_won() {
    let (out, code) = tengen(&["analyze", "--vcf", "--moves", "h8 a1 i8 a2 j8 a3"], "");
    assert_eq!(code, 0);
    assert_eq!(out.len(), 3, "{out:?}");
    assert_eq!(out[1], "winner: none");
    assert!(
        out[2] == "vcf black 1: g8" || out[2] == "vcf black 1: k8",
        "{out:?}"
    );
    let (out, _) = tengen(
        &["analyze", "--vcf", "--moves", "h8 a1 i8 a2 j8 a3 k8 a4 l8"],
        "",
    );
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(out[1].starts_with("winner: black"), "{out:?}");
}

#[test]
fn replay_analyze_marks_missed_and_kept_wins() {
    // Move 7: black had the open four (G8 or K8) and played B15.
    let (out, code) = tengen(
        &["replay", "--analyze", "-"],
        "h8 a1 i8 a2 j8 a3 b15 a4 a5\n",
    );
    assert_eq!(code, 0);
    let at = out
        .iter()
        .position(|l| l.starts_with("analysis: "))
        .unwrap();
    let lines = &out[at + 1..];
    assert_eq!(lines.len(), 9, "{lines:?}");
    assert_eq!(lines[0], "1. black H8: -");
    assert!(
        lines[6] == "7. black B15: vcf 1 (g8) missed"
            || lines[6] == "7. black B15: vcf 1 (k8) missed",
        "{lines:?}"
    );
    // White's double three at move 10 (F4: D4 E4 F4 and F4 F5 F6), found
    // with --vct and kept.
    let (out, _) = tengen(
        &["replay", "--analyze", "--vct", "-"],
        "h8 d4 o15 e4 a15 f5 o1 f6 a11 f4\n",
    );
    let last = out.last().unwrap();
    assert!(last.starts_with("10. white F4: vct 2 (f4 "), "{last}");
    assert!(last.ends_with(") kept"), "{last}");
}
