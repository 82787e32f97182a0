//! Text formats: renju notation and Piskvork PSQ, and reading any of the
//! three record formats.
//!
//! The move lists carry stones (and, in renju notation, passes); an
//! imported list is taken as a free-opening, untimed game of a given rule
//! set and played through the machine, which yields a full [`GameRecord`]
//! (and refuses an illegal list, naming the move).
//!
//! - **Renju notation**: moves in order, lower case, separated by spaces:
//!   `h8 i9 j10 pass k11`. On input either case is accepted, commas count
//!   as spaces, and move numbers (`1.`) are skipped.
//! - **A game in renju notation** ([`GameRecord::to_renju_text`]), as
//!   renju players keep one: a header of tags in the PGN manner, one a
//!   line (`[Black "alice"]`), then the numbered moves with the opening's
//!   decisions in braces after the move they follow:
//!
//!   ```text
//!   [Game "renju"]
//!   [Rule "rif"]
//!   [Forbidden "claim"]
//!   [Date "2026.05.02"]
//!   [Black "bob"]
//!   [White "alice"]
//!   [Opening "I1 Chosei 长星"]
//!   [Alt "k11 g7"]
//!   [Result "white wins"]
//!   [Termination "white claimed black's forbidden move I8 (double-three)"]
//!
//!   1. h8 2. i9 3. j10 {swap} 4. i7 5. k11 {5th-move offers: k11 g7}
//!   6. ...
//!   ```
//!
//!   Tags: `Game` (the rule set), `Rule` (the opening rule, as a room
//!   names it), `Forbidden` (renju), `TimeControl` (its compact form,
//!   `5+3`), `Event` (a tournament
//!   game's event and round), `Date` (the start, UTC), `Black` and
//!   `White` (who held each colour at the end, after any swap), `Opening`
//!   (the canonical opening the first three stones form, in the renju
//!   opening rules: its code and names), `Alt` (black's fifth-move offers,
//!   "alternatives" in renju records; the one kept stands as move 5),
//!   `Result` (`black wins`, `white wins`, `draw`, `aborted`) and
//!   `Termination` (why, in words: a claimed forbidden move names its
//!   point and kind). In braces after a move: `swap` or `no swap` (the
//!   swap option after it), the number of fifth-move offers declared,
//!   the offers made (`5th-move offers: ...`, after move 5, the one
//!   kept), Taraguchi's option, `draw offered`, a false claim and the
//!   point it named. Moves taken back are not listed.
//!   A reader skips the tag lines and everything in braces (so the plain
//!   list is still read as before); a `Game` tag names the rule set to
//!   replay in.
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
//!   `1:j10 2:k10 2:k11`, and `end` follows the first stone of a turn of
//!   one stone (`1:j10 2:k10 end 2:k11 1:k9`); reading a twin game needs
//!   those prefixes. PSQ has no boards: a twin game is neither written nor
//!   read as PSQ.

use super::action::{Action, Seat};
use super::config::{ConfigError, GameConfig, Millis, RuleSet};
use super::error::GameError;
use super::event::{Event, Move, Outcome};
use super::machine::Game;
use super::opening_rule::TaraguchiOption;
use super::record::{GameRecord, Input};
use crate::point::{Color, MAX_SIZE, Point, STANDARD_SIZE};

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
        let action = match point {
            Some(p) => Action::place_on(*board, *p),
            None if token.eq_ignore_ascii_case(END_TURN) => Action::EndTurn,
            None => Action::pass(),
        };
        game.apply(seat, action, now)
            .map_err(|error| ImportError::Illegal {
                move_number: i + 1,
                token: token.clone(),
                error,
            })?;
    }
    Ok(game.record())
}

/// A listed stone (`None`: a pass, or `end` in twin rooms) with its
/// board, the time it took and its text.
type ListedMove = (Option<Point>, u8, Millis, String);

/// The token that ends a twin turn after its first stone.
const END_TURN: &str = "end";

/// The text of renju notation without its tag lines and brace comments,
/// and the rule set a `Game` tag names, if any.
fn strip_annotations(text: &str) -> (String, Option<RuleSet>) {
    let mut rule_set = None;
    let mut moves = String::new();
    for line in text.lines() {
        let t = line.trim();
        if let Some(tag) = t.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            if let Some((name, value)) = tag.split_once(char::is_whitespace)
                && name == "Game"
            {
                rule_set = value.trim().trim_matches('"').parse().ok();
            }
            continue;
        }
        moves.push_str(line);
        moves.push('\n');
    }
    let mut out = String::with_capacity(moves.len());
    let mut depth = 0usize;
    for c in moves.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ if depth > 0 => {}
            c => out.push(c),
        }
        if depth > 0 && c == '{' {
            out.push(' ');
        }
    }
    (out, rule_set)
}

/// Reads renju notation as a free-opening game of `rule_set` (on 19 x 19
/// if a free-style game goes beyond the standard board; twin stones name
/// their board, `2:j10`). Tag lines and brace comments
/// ([`GameRecord::to_renju_text`]) are skipped; a `Game` tag's rule set
/// wins over `rule_set`.
pub fn from_renju_notation(text: &str, rule_set: RuleSet) -> Result<GameRecord, ImportError> {
    let (text, tagged) = strip_annotations(text);
    let rule_set = tagged.unwrap_or(rule_set);
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
        if token.eq_ignore_ascii_case("pass") || (twin && token.eq_ignore_ascii_case(END_TURN)) {
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
/// notation (a plain list or a game with tags); the last two are played
/// as free-opening games of `rule_set` (or a renju text's `Game` tag).
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
    /// board's number, `end` after a one-stone turn; moves taken back are
    /// not listed). A record that does not replay is listed from its
    /// actions as they stand.
    pub fn renju_notation(&self) -> String {
        if let Ok(game) = self.replay() {
            return game.renju_notation();
        }
        let twin = self.config.rule_set == RuleSet::Twin;
        let mut out = Vec::new();
        for e in &self.entries {
            if let Input::Act { action, .. } = e.input {
                let board = match action {
                    Action::Place { board, .. } => board,
                    _ => 0,
                };
                if action == Action::EndTurn {
                    out.push(END_TURN.to_string());
                }
                out.extend(moves_of(&action).into_iter().map(|m| token(m, board, twin)));
            }
        }
        out.join(" ")
    }

    /// The stones as PSQ.
    pub fn to_psq(&self) -> Result<String, ExportError> {
        psq(self)
    }

    /// The game as renju players keep it: the tags (rule set, opening
    /// rule, date, players by colour, the canonical opening, the fifth-move
    /// offers, result and termination), then the numbered moves with the
    /// opening's decisions in braces (see the module documentation). A
    /// record that does not replay gets its tags and its plain moves.
    pub fn to_renju_text(&self) -> String {
        let mut notes = Notes {
            twin: self.config.rule_set == RuleSet::Twin,
            ..Notes::default()
        };
        let replayed = self.replay_with(|_, events| notes.take(events));
        let mut tags: Vec<(&str, String)> = vec![("Game", self.config.rule_set.to_string())];
        if self.config.opening != super::config::Opening::Free {
            tags.push(("Rule", self.config.opening.to_string()));
        }
        if let Some(handling) = self.config.forbidden_handling() {
            tags.push(("Forbidden", handling_name(handling).to_string()));
        }
        tags.push(("TimeControl", self.config.time.to_string()));
        if let Some(t) = self.tags.get("tournament") {
            let round = self.tags.get("tournament_round").map(String::as_str);
            let event = match round {
                Some(r) => format!("tournament {t}, round {r}"),
                None => format!("tournament {t}"),
            };
            tags.push(("Event", event));
        }
        if let Some(date) = self
            .tags
            .get("started_unix_ms")
            .and_then(|ms| ms.parse().ok())
        {
            tags.push(("Date", date_text(date)));
        }
        let name = |seat: Seat| {
            self.tags
                .get(&seat.to_string())
                .cloned()
                .unwrap_or_else(|| format!("{seat} seat"))
        };
        let black = match &replayed {
            Ok(game) => game.seat_of(Color::Black),
            Err(_) => self.opener,
        };
        tags.push(("Black", name(black)));
        tags.push(("White", name(black.other())));
        if let Ok(game) = &replayed {
            let o = game.opening_progress();
            if let (Some(code), Some(en), Some(zh)) =
                (o.canonical, o.canonical_name, o.canonical_chinese)
            {
                tags.push(("Opening", format!("{code} {en} {zh}")));
            }
            if let Some(offers) = o.fifth_offers {
                let list: Vec<String> = offers.as_slice().iter().map(|p| p.to_lower()).collect();
                tags.push(("Alt", list.join(" ")));
            }
        }
        if let Some(r) = &self.result {
            let result = match r.outcome {
                Outcome::Win { color, .. } => format!("{color} wins"),
                Outcome::Draw => "draw".to_string(),
                Outcome::Aborted => "aborted".to_string(),
            };
            tags.push(("Result", result));
            let why = r.describe();
            let why = why.split_once(": ").map_or(why.as_str(), |(_, w)| w);
            let why = Seat::BOTH.into_iter().fold(why.to_string(), |w, seat| {
                w.replace(&format!("{seat} seat"), &name(seat))
            });
            tags.push(("Termination", why));
        }
        let mut out = String::new();
        for (k, v) in &tags {
            out.push_str(&format!("[{k} \"{}\"]\n", v.replace('"', "'")));
        }
        out.push('\n');
        let moves = match replayed {
            Ok(_) => notes.text(),
            Err(_) => self.renju_notation(),
        };
        out.push_str(&wrap(&moves, 78));
        out.push('\n');
        out
    }
}

/// The name of a forbidden-move handling, as rooms name it.
fn handling_name(h: super::config::ForbiddenHandling) -> &'static str {
    match h {
        super::config::ForbiddenHandling::Claim => "claim",
        super::config::ForbiddenHandling::Lose => "lose",
        super::config::ForbiddenHandling::Block => "block",
    }
}

/// The moves of a game as they are replayed, each with the decisions
/// written after it.
#[derive(Default)]
struct Notes {
    /// Per move: its token, what follows it in braces, and whether an
    /// `end` token follows (a twin turn of one stone).
    moves: Vec<(String, Vec<String>, bool)>,
    twin: bool,
    /// Fifth-move offers made and not yet resolved into move 5.
    offers: Option<String>,
}

impl Notes {
    fn note(&mut self, text: String) {
        if let Some(last) = self.moves.last_mut() {
            last.1.push(text);
        }
    }

    fn take(&mut self, events: &[Event]) {
        for e in events {
            match e {
                Event::Moved { mv, .. } => {
                    let twin = self.twin;
                    let mut notes = Vec::new();
                    if let Some(offers) = self.offers.take() {
                        notes.push(format!("5th-move offers: {offers}"));
                    }
                    self.moves
                        .push((token(mv.point, mv.board, twin), notes, false));
                }
                Event::SwapDecided { swapped, .. } => {
                    self.note(if *swapped { "swap" } else { "no swap" }.to_string())
                }
                Event::OffersDeclared { count, .. } => {
                    self.note(format!("{count} fifth-move offers declared"))
                }
                Event::FifthsOffered { points, .. } => {
                    let list: Vec<String> =
                        points.as_slice().iter().map(|p| p.to_lower()).collect();
                    self.offers = Some(list.join(" "));
                }
                Event::OptionChosen { option, .. } => self.note(match option {
                    TaraguchiOption::Single => "option: one fifth move".to_string(),
                    TaraguchiOption::Offers => "option: fifth-move offers".to_string(),
                }),
                Event::DrawOffered { .. } => self.note("draw offered".to_string()),
                Event::Violation { point: Some(p), .. } => {
                    self.note(format!("false claim at {}", p.to_lower()))
                }
                Event::Violation { point: None, .. } => self.note("false claim".to_string()),
                Event::TurnEnded { .. } => {
                    if let Some(last) = self.moves.last_mut() {
                        last.2 = true;
                    }
                }
                Event::TakenBack { undone, .. } => {
                    let keep = self.moves.len().saturating_sub(undone.len());
                    self.moves.truncate(keep);
                }
                _ => {}
            }
        }
    }

    /// `1. h8 2. i9 {swap} ...`
    fn text(&self) -> String {
        let mut parts = Vec::new();
        for (i, (token, notes, end)) in self.moves.iter().enumerate() {
            let mut part = format!("{}. {token}", i + 1);
            if *end {
                part.push(' ');
                part.push_str(END_TURN);
            }
            if !notes.is_empty() {
                part.push_str(&format!(" {{{}}}", notes.join("; ")));
            }
            parts.push(part);
        }
        parts.join(" ")
    }
}

/// `text` in lines of at most `width` characters, broken at spaces
/// outside braces and before a move number.
fn wrap(text: &str, width: usize) -> String {
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut depth = 0i32;
    for word in text.split(' ') {
        let starts_move = depth == 0 && word.ends_with('.');
        if !line.is_empty() && starts_move && line.chars().count() + 1 + word.len() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
        depth += word.matches('{').count() as i32 - word.matches('}').count() as i32;
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines.join("\n")
}

/// `2026.05.02`: the UTC date of a Unix time in milliseconds.
fn date_text(unix_ms: u64) -> String {
    let (year, month, day) = utc_date(unix_ms);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The UTC date (year, month, day) of a Unix time in milliseconds (civil
/// from days, after Howard Hinnant's algorithm): records are dated without
/// a calendar crate.
pub fn utc_date(unix_ms: u64) -> (i64, i64, i64) {
    let days = (unix_ms / 86_400_000) as i64 + 719_468;
    let era = days.div_euclid(146_097);
    let doe = days.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

impl Game {
    /// The moves so far in renju notation (twin stones with their board's
    /// number, and `end` after the first stone of a one-stone turn).
    pub fn renju_notation(&self) -> String {
        if self.config().rule_set == RuleSet::Twin {
            let mut tokens = Vec::new();
            for m in self.moves() {
                tokens.push(token(m.point, m.board, true));
                if self.turn_ended_after(m.number) {
                    tokens.push(END_TURN.to_string());
                }
            }
            tokens.join(" ")
        } else {
            renju_notation(self.moves())
        }
    }
}
