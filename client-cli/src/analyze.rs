//! `tengen analyze`: renju forbidden points (and winners) of positions,
//! offline.
//!
//! Why this exists: the referee in `tengen-rules` is the one place the renju
//! rules live, and people and programs need to ask it about a position
//! without a server. A player checks a game record (`--moves`); a bot, a test
//! harness or another judge runs `tengen analyze` as a co-process and gets
//! one answer line for every question line, which also lets anyone compare
//! our judge with another one, position by position. It is also the quickest
//! way to see the referee work on a fresh checkout.
//!
//! # Formats
//!
//! **Input** (standard input), one position per line: `BLACK;WHITE`, each
//! side a comma-separated list of points, either side possibly empty, e.g.
//! `H8,I9,J10;G7,H9`. A point is a column letter `A`..`O` and a row number
//! `1`..`15` of the 15 x 15 board, in either case; spaces around points are
//! ignored, and a line may end in LF or CRLF. Stone counts are not checked:
//! any position that can be set up is analyzed.
//!
//! **Output**, exactly one line per input line, flushed at once (so the
//! command works as a co-process):
//!
//! ```text
//! POINT=KIND POINT=KIND ...
//! ```
//!
//! the empty points where a black stone would be forbidden, whoever is to
//! move; `KIND` is `overline`, `double-four` or `double-three` (the first of
//! these that applies); points in upper case, ordered by row 1 to 15, then
//! column A to O, separated by single spaces. No forbidden point gives an
//! empty line, and so does an empty (or blank) input line. A bad line gives
//!
//! ```text
//! error: line N: WHAT
//! ```
//!
//! in its place (`WHAT` names the side and quotes the offending token), the
//! following lines are still answered, and the exit status is 2 at the end.
//!
//! **`--moves "h8 h9 i9 ..."`**: the moves, black first and then
//! alternating, separated by spaces and/or commas, are played on an empty
//! board, and two lines are printed: the forbidden-points line above for the
//! final position, then `winner: black (H8 I9 J10 K11 L12)` (the colour and
//! the stones of its winning line, in order along the line) or
//! `winner: none`, under renju rules (black wins with exactly five, white
//! with five or more). A bad move prints one line, `error: move N (TOKEN)
//! ...`, and exits with status 2; so does any move after the one that won
//! (`error: move N (X) comes after the game was won ...`). A black move on a
//! forbidden point is accepted: whether it loses depends on the room's rule
//! (claim, lose or block), which a bare move list does not say.
//!
//! **`--vcf`, `--vct`**: instead of the forbidden points, each position's
//! line answers whether the attacker (`--attacker`, else the side to move:
//! black when both sides have as many stones) has a forced win by fours
//! (VCF) or by threes and fours (VCT), under `--rule` (default renju):
//!
//! ```text
//! vcf black 3: h8 h9 i9 i10 j9; vct black 2: ...
//! ```
//!
//! `N: SEQ` is the shortest win found, `N` its length in attacker moves and
//! `SEQ` the attacker's and the defender's moves in turn (renju notation),
//! ending with the five or the four that cannot be stopped; `none` when
//! there is none (a VCT: none of at most `--vct-depth` moves), `unknown`
//! when the node budget (`--nodes`, per search) ran out first. With
//! `--moves`, these come as one more line after the winner line (none when
//! the game is already won).
//!
//! **Exit status**: 0 when every line (or move) was good, 2 when some was
//! bad, 1 on an I/O error.

use std::fmt::{self, Write as _};
use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use tengen_rules::game::RuleSet;
use tengen_rules::{Board, Color, Forbidden, Point, PointError, STANDARD_SIZE, Variant};

use crate::wins::{AnalyzeBudgets, Side, answer, side_to_move};

/// Renju is played on the standard board only.
const SIZE: u8 = STANDARD_SIZE;

/// Exit status for bad input (a bad line or a bad move).
const BAD_INPUT: u8 = 2;

/// Quoted tokens in error messages are cut to this many characters.
const MAX_TOKEN_CHARS: usize = 24;

const LONG_ABOUT: &str = "\
Print the renju forbidden points for black: for each position read from
standard input, or for the position after a move sequence (--moves).

INPUT (standard input), one position per line:
    BLACK;WHITE
  each side a comma-separated list of points, either side may be empty:
    H8,I9,J10;G7,H9
  A point is a column letter A-O and a row number 1-15 (15x15 board), in
  either case; spaces around points are ignored; lines may end in LF or CRLF.
  Stone counts are not checked.

OUTPUT, exactly one line per input line, flushed at once:
    POINT=KIND POINT=KIND ...
  the empty points where a black stone would be forbidden (whoever is to
  move). KIND is overline, double-four or double-three (the first of these
  that applies). Points are upper case, ordered by row 1 to 15, then column
  A to O, separated by single spaces. No forbidden point -> an empty line;
  an empty (or blank) input line -> an empty line.
  A bad line (a token that is not a point, a point off the board, a stone
  listed twice, no ';' or more than one, bytes that are not UTF-8) prints
    error: line N: WHAT
  in its place; the following lines are still answered.

  $ printf 'F8,G8,H9,H10;\\n\\nH8;h8\\nC8,D8,E8,G8,H8,I8;\\n' | tengen analyze
  H8=double-three

  error: line 3: white: 'h8' is already listed for black
  F8=overline

WITH --moves, the moves (black first, then alternating; separated by spaces
and/or commas) are played on an empty board and two lines are printed: the
forbidden-points line of the final position, then who has won under renju
rules (black: exactly five; white: five or more), with the winning line:
    winner: black (H8 I9 J10 K11 L12)
  or
    winner: none
  A bad move (not a point, off the board, on an occupied point, or any move
  after the winning one) prints a single line
    error: move N (TOKEN) ...
  instead. A black move on a forbidden point is accepted (whether it loses
  depends on the room's rule, which a move list does not say).

  $ tengen analyze --moves 'h8 h9 i9 h10 j10 h11 k11 h12 l12'
  G7=overline M13=overline
  winner: black (H8 I9 J10 K11 L12)

FORCED WINS (--vcf, --vct): instead of the forbidden points, each line
answers whether the attacker (--attacker, else the side to move: black when
both sides have as many stones) has a VCF (a win by continuous fours) or a
VCT (by threes and fours), under --rule (renju unless told):
    vcf black 3: h8 h9 i9 i10 j9; vct black 2: ...
  N: SEQ is the shortest win found: N its length in attacker moves, SEQ the
  attacker's and defender's moves in turn in renju notation, ending with
  the five or the four that cannot be stopped; `none` when there is none
  (for a VCT: none of at most --vct-depth moves), `unknown` when the node
  budget (--nodes, per search) ran out first. Renju is judged exactly:
  black never plays a forbidden point, and a black defence on a forbidden
  point is no defence. With --moves the answer is a third line (none when
  the game is already won).

  $ echo 'H8,I8,J8;A1,A2,A3' | tengen analyze --vcf --vct
  vcf black 1: g8; vct black 1: g8
  $ echo 'A1,O1,A15,O15;G8,H8,I9,I10' | tengen analyze --vcf --vct --attacker white
  vcf white none; vct white 2: i8 i6 i11
  $ tengen analyze --vcf --moves 'h8 a1 i8 a2 j8 a3'

  winner: none
  vcf black 1: g8

EXIT STATUS: 0 when every line (or move) was good, 2 when some was bad,
1 on an I/O error.";

/// `tengen analyze` options.
#[derive(clap::Args)]
#[command(
    about = "Renju forbidden points (and winners) of positions, offline",
    long_about = LONG_ABOUT
)]
pub struct Args {
    /// Analyze the position after these moves (black first, alternating;
    /// separated by spaces and/or commas) instead of reading standard input,
    /// and also print the winner.
    #[arg(long, value_name = "MOVES")]
    moves: Option<String>,
    /// Answer whether the attacker has a VCF (victory by continuous fours)
    /// instead of listing forbidden points.
    #[arg(long)]
    vcf: bool,
    /// Answer whether the attacker has a VCT (victory by continuous threes
    /// and fours) instead of listing forbidden points.
    #[arg(long)]
    vct: bool,
    /// The attacker for --vcf/--vct (default: the side to move).
    #[arg(long, value_enum, value_name = "COLOR")]
    attacker: Option<Side>,
    /// Rule set for --vcf/--vct: renju, gomoku or freestyle.
    #[arg(long, default_value = "renju")]
    rule: RuleSet,
    #[command(flatten)]
    budgets: AnalyzeBudgets,
}

impl Args {
    /// The forced-win question for `board`, if one was asked.
    fn solve(&self, board: &Board) -> Option<String> {
        (self.vcf || self.vct).then(|| {
            let attacker = self
                .attacker
                .map_or_else(|| side_to_move(board), Color::from);
            answer(
                board,
                attacker,
                self.rule.variant(),
                (self.vcf, self.vct),
                &self.budgets.into(),
            )
        })
    }
}

/// Runs `tengen analyze`.
pub fn run(args: &Args) -> Result<ExitCode> {
    let stdout = io::stdout().lock();
    let mut out = BufWriter::new(stdout);
    let good = match &args.moves {
        Some(moves) => analyze_moves(moves, args, &mut out)?,
        None => analyze_stream(io::stdin().lock(), args, &mut out)?,
    };
    out.flush().context("writing standard output")?;
    Ok(if good {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(BAD_INPUT)
    })
}

/// Answers every line of `input`, one output line each, flushing after each.
/// Returns whether every line was good.
pub(crate) fn analyze_stream(
    mut input: impl BufRead,
    args: &Args,
    out: &mut impl Write,
) -> Result<bool> {
    // Buffers reused for every line: no allocation per position.
    let mut raw = Vec::with_capacity(1024);
    let mut answer = String::with_capacity(1024);
    let mut found = Vec::with_capacity(64);
    let empty = Board::new(SIZE)?;
    let mut board = empty.clone();
    let mut all_good = true;
    let mut number = 0usize;
    loop {
        raw.clear();
        if input
            .read_until(b'\n', &mut raw)
            .context("reading standard input")?
            == 0
        {
            break;
        }
        number += 1;
        let bytes = raw.strip_suffix(b"\n").unwrap_or(&raw);
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        answer.clear();
        if let Err(err) = analyze_line(bytes, &empty, &mut board, &mut found, &mut answer, args) {
            all_good = false;
            answer.clear();
            let _ = write!(answer, "error: line {number}: {err}");
        }
        answer.push('\n');
        out.write_all(answer.as_bytes())
            .and_then(|()| out.flush())
            .context("writing standard output")?;
    }
    Ok(all_good)
}

/// What is wrong with one input line.
#[derive(Debug)]
enum LineError {
    NotUtf8 {
        byte: u8,
        offset: usize,
    },
    NoSemicolon,
    ExtraSemicolon,
    EmptyPoint(Color),
    NotAPoint(Color, String),
    OffBoard(Color, String),
    Twice {
        side: Color,
        token: String,
        first: Color,
    },
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::NotUtf8 { byte, offset } => write!(
                f,
                "not UTF-8 text: byte 0x{byte:02X} at byte offset {offset}"
            ),
            LineError::NoSemicolon => {
                f.write_str("no ';' between black and white stones (expected BLACK;WHITE)")
            }
            LineError::ExtraSemicolon => f.write_str("more than one ';' (expected BLACK;WHITE)"),
            LineError::EmptyPoint(side) => {
                write!(
                    f,
                    "{side}: empty point (two commas in a row, or a comma at an end)"
                )
            }
            LineError::NotAPoint(side, token) => write!(
                f,
                "{side}: '{token}' is not a point (expected a column A-O and a row 1-15, like H8)"
            ),
            LineError::OffBoard(side, token) => write!(
                f,
                "{side}: '{token}' is off the {SIZE}x{SIZE} board (columns A-O, rows 1-15)"
            ),
            LineError::Twice { side, token, first } => {
                write!(f, "{side}: '{token}' is already listed for {first}")
            }
        }
    }
}

/// Analyzes one line (without its line ending) into `answer`.
fn analyze_line(
    bytes: &[u8],
    empty: &Board,
    board: &mut Board,
    found: &mut Vec<(Point, Forbidden)>,
    answer: &mut String,
    args: &Args,
) -> Result<(), LineError> {
    let text = std::str::from_utf8(bytes).map_err(|e| LineError::NotUtf8 {
        byte: bytes[e.valid_up_to()],
        offset: e.valid_up_to(),
    })?;
    if text.trim().is_empty() {
        return Ok(());
    }
    let (black, white) = text.split_once(';').ok_or(LineError::NoSemicolon)?;
    if white.contains(';') {
        return Err(LineError::ExtraSemicolon);
    }
    // Copying the empty board (plain data, no heap) is a memcpy;
    // `Board::new` would rebuild the edge masks of every line, which
    // measured about a fifth of the whole per-line cost.
    board.clone_from(empty);
    place_side(board, black, Color::Black)?;
    place_side(board, white, Color::White)?;
    if let Some(solved) = args.solve(board) {
        answer.push_str(&solved);
        return Ok(());
    }
    board.forbidden_points_into(found);
    push_forbidden(answer, found);
    Ok(())
}

/// Appends the forbidden-points line (without a line ending).
fn push_forbidden(answer: &mut String, found: &[(Point, Forbidden)]) {
    for (i, &(p, kind)) in found.iter().enumerate() {
        if i > 0 {
            answer.push(' ');
        }
        push_point(answer, p);
        answer.push('=');
        answer.push_str(kind.name());
    }
}

/// Places one side's comma-separated stones.
fn place_side(board: &mut Board, list: &str, color: Color) -> Result<(), LineError> {
    if list.trim().is_empty() {
        return Ok(());
    }
    for token in list.split(',') {
        let token = token.trim();
        let p = match parse_point(token) {
            Ok(p) => p,
            Err(BadPoint::Empty) => return Err(LineError::EmptyPoint(color)),
            Err(BadPoint::NotAPoint) => return Err(LineError::NotAPoint(color, shown(token))),
            Err(BadPoint::OffBoard) => return Err(LineError::OffBoard(color, shown(token))),
        };
        // The point is on the board, so only an occupied point fails here.
        if board.place(p, color).is_err() {
            return Err(LineError::Twice {
                side: color,
                token: shown(token),
                first: board.get(p).unwrap_or(color),
            });
        }
    }
    Ok(())
}

/// Why a token is not a point of the board.
enum BadPoint {
    Empty,
    NotAPoint,
    OffBoard,
}

/// Parses a trimmed token as a point of the 15 x 15 board.
fn parse_point(token: &str) -> Result<Point, BadPoint> {
    match Point::parse_on(token, SIZE) {
        Ok(p) => Ok(p),
        Err(PointError::Empty) => Err(BadPoint::Empty),
        Err(PointError::Syntax(_)) => Err(BadPoint::NotAPoint),
        // A letter past the largest board (`Z9`) is off every board,
        // including this one.
        Err(PointError::OffBoard(..)) => Err(BadPoint::OffBoard),
    }
}

/// A token as shown inside quotes in a message: control characters and
/// quotes escaped, long tokens cut short.
fn shown(token: &str) -> String {
    let mut s = String::new();
    for (i, c) in token.chars().enumerate() {
        if i == MAX_TOKEN_CHARS {
            s.push('…');
            break;
        }
        s.extend(c.escape_debug());
    }
    s
}

/// Appends `p` in upper-case notation (`H8`) without going through `fmt`.
fn push_point(s: &mut String, p: Point) {
    s.push(char::from(b'A' + p.x));
    let row = p.y + 1;
    if row >= 10 {
        s.push(char::from(b'0' + row / 10));
    }
    s.push(char::from(b'0' + row % 10));
}

/// `--moves`: plays the moves and prints the two answer lines, or one error
/// line. Returns whether the moves were good.
pub(crate) fn analyze_moves(moves: &str, args: &Args, out: &mut impl Write) -> Result<bool> {
    match play_moves(moves) {
        Ok(board_and_winner) => {
            let (board, winner) = board_and_winner;
            let mut found = Vec::new();
            board.forbidden_points_into(&mut found);
            let mut answer = String::new();
            push_forbidden(&mut answer, &found);
            answer.push_str("\nwinner: ");
            match &winner {
                None => answer.push_str("none"),
                Some(w) => {
                    let _ = write!(answer, "{} (", w.color);
                    for (i, &p) in w.line.iter().enumerate() {
                        if i > 0 {
                            answer.push(' ');
                        }
                        push_point(&mut answer, p);
                    }
                    answer.push(')');
                }
            }
            if winner.is_none()
                && let Some(solved) = args.solve(&board)
            {
                answer.push('\n');
                answer.push_str(&solved);
            }
            writeln!(out, "{answer}").context("writing standard output")?;
            Ok(true)
        }
        Err(message) => {
            writeln!(out, "error: {message}").context("writing standard output")?;
            Ok(false)
        }
    }
}

/// Who won, with which line, at which move.
struct Win {
    color: Color,
    line: Vec<Point>,
    at: usize,
}

/// Plays `moves` on an empty board under renju rules. The error is the
/// message for the first bad move (without the `error: ` prefix).
fn play_moves(moves: &str) -> Result<(Board, Option<Win>), String> {
    let mut board = Board::new(SIZE).map_err(|e| e.to_string())?;
    // Which move put a stone on each point, for "occupied" messages.
    let mut played_at = vec![0usize; SIZE as usize * SIZE as usize];
    let mut winner: Option<Win> = None;
    let tokens = moves
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty());
    for (i, token) in tokens.enumerate() {
        let n = i + 1;
        let color = if n % 2 == 1 {
            Color::Black
        } else {
            Color::White
        };
        let p = match parse_point(token) {
            Ok(p) => p,
            Err(BadPoint::Empty) | Err(BadPoint::NotAPoint) => {
                return Err(format!(
                    "move {n} ({}) is not a point (expected a column A-O and a row 1-15, like H8)",
                    shown(token)
                ));
            }
            Err(BadPoint::OffBoard) => {
                return Err(format!(
                    "move {n} ({}) is off the {SIZE}x{SIZE} board (columns A-O, rows 1-15)",
                    shown(token)
                ));
            }
        };
        if let Some(w) = &winner {
            return Err(format!(
                "move {n} ({p}) comes after the game was won ({} won at move {})",
                w.color, w.at
            ));
        }
        let slot = p.y as usize * SIZE as usize + p.x as usize;
        if let Some(first) = board.get(p) {
            return Err(format!(
                "move {n} ({p}) is on an occupied point ({first} played {p} at move {})",
                played_at[slot]
            ));
        }
        board
            .place(p, color)
            .map_err(|e| format!("move {n} ({p}): {e}"))?;
        played_at[slot] = n;
        if let Some(line) = board.winning_line(p, Variant::Renju) {
            winner = Some(Win { color, line, at: n });
        }
    }
    Ok((board, winner))
}
