//! Our quick bot ([`crate::bot`]) as a Piskvork (Gomocup) engine: one
//! protocol line in, the lines to answer out.
//!
//! Why: anyone can try `tengen engine` without an outside engine, and any
//! Gomocup manager (Piskvork, a Gomocup judge) can run our bot. This module
//! is the protocol's state machine only; `tengen pbrain` reads standard
//! input into it and prints what it answers.
//!
//! Commands understood: `START N` (a board of N x N, 5 to 19; free-style
//! until `INFO rule` says otherwise), `RESTART`, `BEGIN`, `TURN x,y`,
//! `BOARD` … `x,y,1|2|3` … `DONE` (1 our stone, 2 the opponent's, 3 a
//! continuous game's mark, ignored), `TAKEBACK x,y`, `INFO key value`
//! (`timeout_turn`, `timeout_match`, `time_left` bound the thinking;
//! `rule` picks the rule set: 0 free-style, 1 exactly five, 4 renju;
//! `max_memory`, `game_type`, `evaluate`, `folder` are accepted and need
//! nothing), `ABOUT`, `END`. A command it does not know gets `UNKNOWN`,
//! a bad one `ERROR` with the reason, and changes nothing.
//!
//! Two opening extensions, answered with the built-in bot's own opening
//! judgement ([`crate::bot::decide`]) so that `tengen engine -- tengen
//! pbrain` exercises the bridge's extension path:
//! - `SWAP2BOARD` … `x,y` (or `x,y,field`, as Rapfi reads it) … `DONE`
//!   (Gomocup's Swap2; the stones black, white, black…): with none, three points `x1,y1 x2,y2 x3,y3`; with
//!   three, `SWAP`, one point (white 4) or two (white 4, black 5); with
//!   five, `SWAP` (keep black) or one point (take white, play 6 there).
//! - `YXBOARD` … `x,y,1|2` … `DONE` sets the board without a move (1 the
//!   side to move's stones); `YXNBEST N` then answers N points on one
//!   line: black's N fifth-move offers, no two equivalent.
//!
//! A move out of time is the first playable point, with a `MESSAGE`.
//!
//! Our colour is never told: the side to move with an even number of
//! stones on the board is black (no passes in this protocol). Every rule
//! question (five, forbidden point) is the referee's, through the bot.

use std::sync::mpsc;
use std::time::Duration;

use tengen_rules::game::RuleSet;
use tengen_rules::{Board, Color, Point};

use crate::bot::{Rules, choose_stone, quick_stone};
use crate::piskvork::{from_xy, rule_set_of, to_xy};

mod opening;

/// The name, version, author, country and site `ABOUT` gives.
pub const ABOUT: &str = concat!(
    "name=\"tengen\", version=\"",
    env!("CARGO_PKG_VERSION"),
    "\", author=\"The Tengen authors\", country=\"-\", www=\"-\""
);

/// The turn's limit when the manager says 0, "as fast as you can".
const FAST_MS: u64 = 100;
/// The turn's limit when the manager says nothing.
const DEFAULT_MS: u64 = 30_000;

/// What the caller does after a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Print these lines (maybe none) and read on.
    Reply(Vec<String>),
    /// `END`: exit.
    Quit,
}

/// The time limits the manager gave, in milliseconds (0 = none given).
#[derive(Clone, Copy, Debug, Default)]
struct Limits {
    timeout_turn: Option<u64>,
    timeout_match: u64,
    time_left: Option<u64>,
}

/// A brain between lines.
pub struct Brain {
    board: Option<Board>,
    rule_set: RuleSet,
    limits: Limits,
    /// Stones of a `BOARD` being read (`Err` once a line was bad).
    reading: Option<Result<Vec<(Point, bool)>, String>>,
    /// The block command being read (`BOARD`, `YXBOARD`, `SWAP2BOARD`).
    block: Block,
    seed: u64,
    /// The built-in bot at a level of its ladder, which then decides
    /// everything in place of the quick bot.
    level: Option<tengen_bot::Bot>,
}

impl Default for Brain {
    fn default() -> Self {
        Brain::new(1)
    }
}

impl Brain {
    /// A brain whose choices among equal points vary with `seed`.
    pub fn new(seed: u64) -> Brain {
        Brain {
            board: None,
            rule_set: RuleSet::Freestyle,
            limits: Limits::default(),
            reading: None,
            block: Block::Board,
            seed,
            level: None,
        }
    }

    /// A brain that plays as the built-in bot at `level` of its ladder,
    /// thinking for the time the manager gives.
    pub fn with_level(seed: u64, level: tengen_bot::Level) -> Brain {
        Brain {
            level: Some(tengen_bot::Bot::new(level, seed)),
            ..Brain::new(seed)
        }
    }

    /// The time a levelled bot may take now.
    fn time_budget(&self) -> tengen_bot::TimeBudget {
        let l = self.limits;
        tengen_bot::TimeBudget {
            turn_ms: self.budget().as_millis() as u64,
            left_ms: match l.time_left {
                Some(left) if l.timeout_match > 0 => left,
                _ => u64::MAX,
            },
            increment_ms: 0,
        }
    }

    /// The answer to one line of the manager's.
    pub fn handle(&mut self, line: &str) -> Step {
        let line = line.trim();
        if self.reading.is_some() {
            return Step::Reply(self.board_line(line));
        }
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        let out = match word.to_ascii_uppercase().as_str() {
            "" => Vec::new(),
            "END" => return Step::Quit,
            "ABOUT" => vec![ABOUT.to_string()],
            "START" => self.start(rest),
            "RESTART" => self.restart(),
            "INFO" => self.info(rest),
            "BEGIN" => self.begin(),
            "TURN" => self.turn(rest),
            "TAKEBACK" => self.takeback(rest),
            "BOARD" => self.open_block(Block::Board),
            "YXBOARD" => self.open_block(Block::YxBoard),
            "SWAP2BOARD" => self.open_block(Block::Swap2),
            "YXNBEST" => self.nbest(rest),
            "RECTSTART" => vec!["ERROR rectangular boards are not supported".into()],
            _ => vec![format!("UNKNOWN {word}: not a command this brain knows")],
        };
        Step::Reply(out)
    }

    fn start(&mut self, rest: &str) -> Vec<String> {
        match rest.parse::<u8>().ok().and_then(|n| Board::new(n).ok()) {
            Some(b) => {
                self.board = Some(b);
                vec!["OK".into()]
            }
            None => vec![format!("ERROR unsupported size '{rest}' (5 to 19)")],
        }
    }

    fn restart(&mut self) -> Vec<String> {
        match &self.board {
            Some(b) => {
                self.board = Board::new(b.size()).ok();
                vec!["OK".into()]
            }
            None => vec![no_board()],
        }
    }

    fn info(&mut self, rest: &str) -> Vec<String> {
        let (key, value) = rest.split_once(' ').unwrap_or((rest, ""));
        let value = value.trim();
        let number = || value.parse::<i64>().ok().map(|v| v.max(0) as u64);
        let bad = || vec![format!("ERROR INFO {key}: bad value '{value}'")];
        match key.to_ascii_lowercase().as_str() {
            "timeout_turn" => match number() {
                Some(v) => self.limits.timeout_turn = Some(v),
                None => return bad(),
            },
            "timeout_match" => match number() {
                Some(v) => self.limits.timeout_match = v,
                None => return bad(),
            },
            "time_left" => match number() {
                Some(v) => self.limits.time_left = Some(v),
                None => return bad(),
            },
            "rule" => match number().and_then(|v| rule_set_of(v as u32)) {
                Some(r) => self.rule_set = r,
                None => {
                    return vec![format!(
                        "ERROR INFO rule {value}: not a rule this brain plays"
                    )];
                }
            },
            // Accepted; the quick bot needs none of them.
            _ => {}
        }
        Vec::new()
    }

    fn begin(&mut self) -> Vec<String> {
        match &self.board {
            None => vec![no_board()],
            Some(b) if b.stone_count() > 0 => vec!["ERROR BEGIN on a board with stones".into()],
            Some(_) => self.reply_move(),
        }
    }

    fn turn(&mut self, rest: &str) -> Vec<String> {
        let Some(board) = self.board.as_mut() else {
            return vec![no_board()];
        };
        let p = match from_xy(rest, board.size()) {
            Ok(p) => p,
            Err(e) => return vec![format!("ERROR TURN: {e}")],
        };
        let theirs = to_move(board);
        if let Err(e) = board.place(p, theirs) {
            return vec![format!("ERROR TURN {rest}: {e}")];
        }
        self.reply_move()
    }

    fn takeback(&mut self, rest: &str) -> Vec<String> {
        let Some(board) = self.board.as_mut() else {
            return vec![no_board()];
        };
        match from_xy(rest, board.size()) {
            Ok(p) if board.get(p).is_some() => {
                board.remove(p);
                vec!["OK".into()]
            }
            Ok(_) => vec![format!("ERROR TAKEBACK {rest}: no stone there")],
            Err(e) => vec![format!("ERROR TAKEBACK: {e}")],
        }
    }

    /// The start of a block of stones up to `DONE`.
    fn open_block(&mut self, block: Block) -> Vec<String> {
        match self.board {
            Some(_) => {
                self.block = block;
                self.reading = Some(Ok(Vec::new()));
                Vec::new()
            }
            None => vec![no_board()],
        }
    }

    /// One line inside `BOARD`, `YXBOARD` or `SWAP2BOARD`.
    fn board_line(&mut self, line: &str) -> Vec<String> {
        let size = self.board.as_ref().map_or(15, Board::size);
        if line.eq_ignore_ascii_case("DONE") {
            let stones = self.reading.take().expect("reading a board");
            let name = self.block.name();
            let done = match self.block {
                Block::Swap2 => stones.and_then(|s| self.swap2(&s)),
                Block::YxBoard => stones.and_then(|s| self.set_board(&s)).map(|()| Vec::new()),
                Block::Board => stones
                    .and_then(|s| self.set_board(&s))
                    .map(|()| self.reply_move()),
            };
            return done.unwrap_or_else(|e| vec![format!("ERROR {name}: {e}")]);
        }
        let Some(Ok(stones)) = self.reading.as_mut() else {
            return Vec::new();
        };
        if self.block == Block::Swap2 {
            // Colours alternate from black; `true` marks black. A line is
            // `x,y` (Gomocup's form) or `x,y,field` as in `BOARD` (Rapfi's,
            // which the bridge sends); the field changes nothing here.
            let black = stones.len().is_multiple_of(2);
            let xy = match line.rsplit_once(',') {
                Some((xy, _)) if line.matches(',').count() == 2 => xy,
                _ => line,
            };
            match from_xy(xy, size) {
                Ok(p) => stones.push((p, black)),
                Err(e) => self.reading = Some(Err(e.to_string())),
            }
            return Vec::new();
        }
        let parsed = line
            .rsplit_once(',')
            .ok_or_else(|| format!("'{line}': expected x,y,field"))
            .and_then(|(xy, field)| {
                let p = from_xy(xy, size).map_err(|e| e.to_string())?;
                match field.trim() {
                    "1" => Ok(Some((p, true))),
                    "2" => Ok(Some((p, false))),
                    "3" => Ok(None),
                    f => Err(format!("'{f}' is not a field (1, 2 or 3)")),
                }
            });
        match parsed {
            Ok(Some(s)) => stones.push(s),
            Ok(None) => {}
            Err(e) => self.reading = Some(Err(e)),
        }
        Vec::new()
    }

    /// The board of a `BOARD` command: we are to move, so we are black
    /// with an even number of stones.
    fn set_board(&mut self, stones: &[(Point, bool)]) -> Result<(), String> {
        let size = self.board.as_ref().map_or(15, Board::size);
        let mine = if stones.len().is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        };
        let mut b = Board::new(size).map_err(|e| e.to_string())?;
        for &(p, own) in stones {
            let c = if own { mine } else { mine.opponent() };
            b.place(p, c)
                .map_err(|e| format!("{}: {e}", to_xy(p, size)))?;
        }
        self.board = Some(b);
        Ok(())
    }

    /// Our stone on the board now, placed and printed.
    fn reply_move(&mut self) -> Vec<String> {
        if self.level.is_some() {
            return self.level_move();
        }
        let budget = self.budget();
        let board = self.board.as_mut().expect("a board");
        let me = to_move(board);
        let rules = Rules {
            variant: self.rule_set.variant(),
        };
        let seed = self.seed ^ board.stone_count() as u64;
        let (p, late) = think(board, me, rules, seed, budget);
        let mut out = Vec::new();
        if late {
            out.push(format!(
                "MESSAGE no time to think ({budget:?}): the first playable point"
            ));
        }
        match p {
            Some(p) => {
                board.place(p, me).ok();
                out.push(to_xy(p, board.size()));
            }
            None => out.push("ERROR no point left to play".into()),
        }
        out
    }

    /// The levelled bot's stone on the board now, placed and printed.
    fn level_move(&mut self) -> Vec<String> {
        let board = self.board.as_ref().expect("a board");
        let me = to_move(board);
        let task = tengen_rules::game::Task::Place {
            color: me,
            move_number: board.stone_count() as u32 + 1,
            within: None,
        };
        let board = board.clone();
        match self.decide(&board, tengen_rules::game::Opening::Free, task) {
            tengen_rules::game::Action::Place { point, .. } => {
                let b = self.board.as_mut().expect("a board");
                b.place(point, me).ok();
                vec![to_xy(point, b.size())]
            }
            _ => vec!["ERROR no point left to play".into()],
        }
    }

    /// How long this move may think: a tenth under the turn's limit and
    /// the match's time left, less a little for printing. A turn limit of
    /// 0 ("as fast as you can") is [`FAST_MS`]; none given, [`DEFAULT_MS`].
    fn budget(&self) -> Duration {
        let l = self.limits;
        let mut ms = match l.timeout_turn {
            Some(0) => FAST_MS,
            Some(t) => t,
            None => DEFAULT_MS,
        };
        if l.timeout_match > 0
            && let Some(left) = l.time_left
        {
            ms = ms.min(left);
        }
        Duration::from_millis((ms * 9 / 10).saturating_sub(10))
    }
}

/// The block command whose stones are being read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Block {
    Board,
    YxBoard,
    Swap2,
}

impl Block {
    fn name(self) -> &'static str {
        match self {
            Block::Board => "BOARD",
            Block::YxBoard => "YXBOARD",
            Block::Swap2 => "SWAP2BOARD",
        }
    }
}

fn no_board() -> String {
    "ERROR no board: send START first".into()
}

/// The colour to move: black after an even number of stones.
fn to_move(board: &Board) -> Color {
    if board.stone_count().is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    }
}

/// The bot's stone, thought about for at most `budget`; past it, the
/// first playable point near the stones instead.
/// The point, and whether the time ran out first.
fn think(
    board: &Board,
    me: Color,
    rules: Rules,
    seed: u64,
    budget: Duration,
) -> (Option<Point>, bool) {
    if budget.is_zero() {
        // No time at all: the quick stone (a search thread could win the
        // race against a zero timeout on an easy board, by chance).
        return (quick_stone(board, me, rules), true);
    }
    let (tx, rx) = mpsc::sync_channel(1);
    let copy = board.clone();
    std::thread::spawn(move || {
        let _ = tx.send(choose_stone(&copy, me, rules, None, seed));
    });
    match rx.recv_timeout(budget) {
        Ok(p) => (p, false),
        Err(_) => (quick_stone(board, me, rules), true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The brain's answer lines to `l`.
    pub(super) fn lines(b: &mut Brain, l: &str) -> Vec<String> {
        match b.handle(l) {
            Step::Reply(v) => v,
            Step::Quit => panic!("quit"),
        }
    }

    #[test]
    fn a_zero_budget_still_answers_a_playable_point() {
        let mut board = Board::new(15).unwrap();
        board.place(Point::center(15), Color::Black).unwrap();
        let rules = Rules {
            variant: RuleSet::Renju.variant(),
        };
        let (p, late) = think(&board, Color::White, rules, 1, Duration::ZERO);
        assert!(board.is_empty_point(p.unwrap()));
        assert!(late);
    }

    #[test]
    fn board_colours_follow_the_stone_count() {
        let mut b = Brain::new(3);
        assert_eq!(lines(&mut b, "START 15"), ["OK"]);
        for l in ["BOARD", "7,7,2", "8,8,1", "7,8,2"] {
            assert!(lines(&mut b, l).is_empty());
        }
        let answer = lines(&mut b, "DONE");
        assert_eq!(answer.len(), 1);
        let board = b.board.as_ref().unwrap();
        // Three stones given: we are white, the opponent black.
        assert_eq!(board.get(Point::new(7, 7)), Some(Color::Black));
        assert_eq!(board.get(Point::new(8, 6)), Some(Color::White));
        let ours = from_xy(&answer[0], 15).unwrap();
        assert_eq!(board.get(ours), Some(Color::White));
    }
}
