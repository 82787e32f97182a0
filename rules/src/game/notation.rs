//! Stone-list formats: renju notation and Piskvork PSQ, and reading any of
//! the three record formats.
//!
//! These formats list only stones (and, in renju notation, passes), so they
//! carry no seats, swaps, offers, claims or result. An imported stone list
//! is taken as a free-opening, untimed game of a given rule set and played
//! through the machine, which yields a full [`GameRecord`] (and refuses an
//! illegal list, naming the move).
//!
//! Opening decisions are not moves and leave no trace in these formats: a
//! swap, a declaration or Taraguchi's option writes nothing; black's
//! fifth-move offers write only the fifth that white kept, as move 5, where
//! the `keep_fifth` action stands (a single offer, kept at once, where it
//! was offered); Swap2's `place_two` writes its two stones, white 4 then
//! black 5. The whole offer set is only in the JSON record.
//!
//! - **Renju notation**: moves in order, lower case, separated by spaces:
//!   `h8 i9 j10 pass k11`. On input either case is accepted, commas count
//!   as spaces, and move numbers (`1.`) are skipped.
//! - **PSQ** (the Piskvork/Gomocup format): a header line
//!   `Piskvorky 15x15, 11:11, 0` (board width x height, then two fields we
//!   write as shown and ignore), then one line `x,y,ms` per stone, 1-based,
//!   `x` the column from the left and `y` the row *from the top*
//!   (Piskvork's screen orientation, so a game looks the same there), `ms`
//!   the time the move took; then trailer lines: the two players' names
//!   (the one who started as black first) and `-1`. Reading stops at the
//!   first line that is not `x,y[,ms]`. PSQ has no passes: a game with a pass
//!   cannot be written as PSQ.
//! - **Twin rooms** (two boards, docs/rules.md §9): in renju notation
//!   every stone carries its board's number, 1 or 2, before a colon:
//!   `1:j10 2:k10 2:k11`; reading a twin game needs those prefixes. PSQ
//!   has no boards: a twin game is neither written nor read as PSQ.

use super::action::{Action, Seat};
use super::config::{ConfigError, GameConfig, Millis, RuleSet};
use super::error::GameError;
use super::event::Move;
use super::machine::Game;
use super::record::{GameRecord, Input};
use crate::point::{MAX_SIZE, Point, STANDARD_SIZE};

/// Why a text could not be imported.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    #[error("not a valid record: {0}")]
    Json(String),
    #[error("'{token}' (token {index}) is neither a point nor 'pass'")]
    Token { index: usize, token: String },
    #[error("not a PSQ header: '{0}' (expected like 'Piskvorky 15x15, 11:11, 0')")]
    PsqHeader(String),
    #[error("PSQ line {line}: '{text}' is off the {size}x{size} board")]
    PsqPoint { line: usize, text: String, size: u8 },
    #[error("{0}")]
    Config(#[from] ConfigError),
    #[error("PSQ has no boards: a twin game cannot be read from it")]
    PsqTwoBoards,
    #[error(
        "'{token}' (token {index}) does not name its board: twin stones are written 1:j10 or 2:j10"
    )]
    TwinToken { index: usize, token: String },
    #[error("move {move_number} ({token}) is illegal: {error}")]
    Illegal {
        move_number: usize,
        token: String,
        error: GameError,
    },
}

/// Why a game could not be written in a format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    #[error("PSQ cannot record a pass (move {0})")]
    PassInPsq(u32),
    #[error("PSQ has no boards: a twin game cannot be written as PSQ")]
    TwoBoardsInPsq,
    /// A record read from elsewhere (not replayed) may hold anything.
    #[error("move {0} is off the board")]
    OffBoard(u32),
}

/// One stone or pass in renju notation; `twin` prefixes the board's number.
fn token(point: Option<Point>, board: u8, twin: bool) -> String {
    match point {
        None => "pass".to_string(),
        Some(p) if twin => format!("{}:{}", board + 1, p.to_lower()),
        Some(p) => p.to_lower(),
    }
}

/// The moves (stones, `None` for a pass) that a recorded action added to
/// the game's moves list, in order.
fn moves_of(action: &Action) -> Vec<Option<Point>> {
    match *action {
        Action::Place { point, .. } | Action::KeepFifth { point } => vec![Some(point)],
        Action::Pass { .. } => vec![None],
        Action::OfferFifths { points } if points.len() == 1 => vec![Some(points.as_slice()[0])],
        Action::PlaceTwo { white, black } => vec![Some(white), Some(black)],
        _ => Vec::new(),
    }
}

/// The moves in renju notation: `h8 i9 j10 pass`.
pub fn renju_notation(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| token(m.point, m.board, false))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The stones of `record` as PSQ, each with the time its move took.
pub fn psq(record: &GameRecord) -> Result<String, ExportError> {
    if record.config.rule_set == RuleSet::Twin {
        return Err(ExportError::TwoBoardsInPsq);
    }
    let size = record.config.board_size;
    let mut out = format!("Piskvorky {size}x{size}, 11:11, 0\n");
    let mut last = record.start;
    let mut number = 0;
    for e in &record.entries {
        let Input::Act { action, .. } = e.input else {
            continue;
        };
        for mv in moves_of(&action) {
            number += 1;
            let Some(point) = mv else {
                return Err(ExportError::PassInPsq(number));
            };
            if !point.on_board(size) {
                return Err(ExportError::OffBoard(number));
            }
            // An unreplayed record's times may run backwards: 0 ms then.
            let took = e.at.saturating_sub(last);
            out.push_str(&format!("{},{},{took}\n", point.x + 1, size - point.y));
            last = e.at;
        }
    }
    let name = |seat: Seat| {
        record
            .tags
            .get(&seat.to_string())
            .cloned()
            .unwrap_or_else(|| format!("{seat} seat"))
    };
    out.push_str(&format!(
        "{}\n{}\n-1\n",
        name(record.opener),
        name(record.opener.other())
    ));
    Ok(out)
}

/// Plays `moves` (stones or passes, each with the time it took) as a
/// free-opening, untimed game of `config`, and returns its record.
fn play(config: GameConfig, moves: &[ListedMove]) -> Result<GameRecord, ImportError> {
    let mut game = Game::new(config, Seat::First, 0)?;
    let mut now = 0;
    for (i, (point, board, took, token)) in moves.iter().enumerate() {
        now += took;
        let seat = game.to_act().unwrap_or(Seat::First);
        let action = point.map_or_else(Action::pass, |p| Action::place_on(*board, p));
        game.apply(seat, action, now)
            .map_err(|error| ImportError::Illegal {
                move_number: i + 1,
                token: token.clone(),
                error,
            })?;
    }
    Ok(game.record())
}

/// A listed stone (`None`: a pass) with its board, the time it took and
/// its text.
type ListedMove = (Option<Point>, u8, Millis, String);

/// Reads renju notation as a free-opening game of `rule_set` (on 19 x 19
/// if a free-style game goes beyond the standard board; twin stones name
/// their board, `2:j10`).
pub fn from_renju_notation(text: &str, rule_set: RuleSet) -> Result<GameRecord, ImportError> {
    let twin = rule_set == RuleSet::Twin;
    let mut moves = Vec::new();
    let mut size = rule_set.default_size();
    let tokens = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty());
    for (index, token) in tokens.enumerate() {
        let number = token.strip_suffix('.').unwrap_or(token);
        if number.len() < token.len() && number.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        if token.eq_ignore_ascii_case("pass") {
            moves.push((None, 0, 0, token.to_string()));
            continue;
        }
        let (board, text) = match token.split_once(':') {
            Some(("1", rest)) if twin => (0, rest),
            Some(("2", rest)) if twin => (1, rest),
            _ if twin => {
                return Err(ImportError::TwinToken {
                    index: index + 1,
                    token: token.to_string(),
                });
            }
            _ => (0, token),
        };
        let p: Point = text.parse().map_err(|_| ImportError::Token {
            index: index + 1,
            token: token.to_string(),
        })?;
        if !p.on_board(STANDARD_SIZE) && rule_set == RuleSet::Freestyle {
            size = MAX_SIZE;
        }
        moves.push((Some(p), board, 0, token.to_string()));
    }
    play(GameConfig::free(rule_set).with_size(size), &moves)
}

/// Reads a PSQ game as a free-opening game of `rule_set`.
pub fn from_psq(text: &str, rule_set: RuleSet) -> Result<GameRecord, ImportError> {
    if rule_set == RuleSet::Twin {
        return Err(ImportError::PsqTwoBoards);
    }
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (_, header) = lines.next().unwrap_or((0, ""));
    let size = parse_psq_header(header)
        .ok_or_else(|| ImportError::PsqHeader(header.trim().to_string()))?;
    let mut moves = Vec::new();
    for (n, line) in lines {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let nums: Option<Vec<u64>> = fields.iter().map(|f| f.parse().ok()).collect();
        let Some(nums) = nums.filter(|v| v.len() == 2 || v.len() == 3) else {
            break;
        };
        let off = || ImportError::PsqPoint {
            line: n + 1,
            text: line.trim().to_string(),
            size,
        };
        let (x, y) = (nums[0], nums[1]);
        if x == 0 || y == 0 || x > size as u64 || y > size as u64 {
            return Err(off());
        }
        let p = Point::new(x as u8 - 1, size - y as u8);
        moves.push((Some(p), 0, nums.get(2).copied().unwrap_or(0), p.to_lower()));
    }
    play(GameConfig::free(rule_set).with_size(size), &moves)
}

/// The board size of a header like `Piskvorky 15x15, 11:11, 0`.
fn parse_psq_header(line: &str) -> Option<u8> {
    let rest = line.trim().strip_prefix("Piskvorky")?.trim_start();
    let dims = rest.split(',').next()?.trim();
    let (w, h) = dims.split_once(['x', 'X'])?;
    let (w, h): (u8, u8) = (w.trim().parse().ok()?, h.trim().parse().ok()?);
    (w == h).then_some(w)
}

/// Reads a record in any of the three formats: the JSON record (which
/// carries its own rule set), PSQ (a `Piskvorky` header), or renju
/// notation; the last two are played as free-opening games of `rule_set`.
pub fn import(text: &str, rule_set: RuleSet) -> Result<GameRecord, ImportError> {
    let t = text.trim_start();
    if t.starts_with('{') {
        GameRecord::from_json(t).map_err(|e| ImportError::Json(e.to_string()))
    } else if t.starts_with("Piskvorky") {
        from_psq(t, rule_set)
    } else {
        from_renju_notation(t, rule_set)
    }
}

impl GameRecord {
    /// The stones and passes in renju notation (twin stones with their
    /// board's number).
    pub fn renju_notation(&self) -> String {
        let twin = self.config.rule_set == RuleSet::Twin;
        let mut out = Vec::new();
        for e in &self.entries {
            if let Input::Act { action, .. } = e.input {
                let board = match action {
                    Action::Place { board, .. } => board,
                    _ => 0,
                };
                out.extend(moves_of(&action).into_iter().map(|m| token(m, board, twin)));
            }
        }
        out.join(" ")
    }

    /// The stones as PSQ.
    pub fn to_psq(&self) -> Result<String, ExportError> {
        psq(self)
    }
}

impl Game {
    /// The moves so far in renju notation (twin stones with their board's
    /// number).
    pub fn renju_notation(&self) -> String {
        if self.config().rule_set == RuleSet::Twin {
            let stones = self.moves().iter();
            let tokens: Vec<_> = stones.map(|m| token(m.point, m.board, true)).collect();
            tokens.join(" ")
        } else {
            renju_notation(self.moves())
        }
    }
}
