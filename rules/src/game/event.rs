//! What the machine reports: events after an accepted input, moves as they
//! stand in the game's history, and the final result.
//!
//! Events are what the server broadcasts to players and spectators, so they
//! carry enough to render the game without any other state (colours, move
//! numbers, clocks), and, in `claim` rooms, nothing that reveals whether a
//! black stone was forbidden before white claims it or the game ends.

use serde::{Deserialize, Serialize};

use super::action::Seat;
use super::clock::ClockSnapshot;
use super::opening_rule::{OfferSet, TaraguchiOption};
use crate::forbidden::Forbidden;
use crate::point::{Color, Point};

/// One move of the game: a stone or a pass. Move numbers count both, from 1;
/// black's are odd, white's even (in twin rooms every stone is a move and
/// turns are of two: black 1, white 2–3, black 4–5, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Move {
    pub number: u32,
    pub seat: Seat,
    pub color: Color,
    /// `null` for a pass.
    pub point: Option<Point>,
    /// The board the stone is on: 0 or 1 in twin rooms, 0 (left out on the
    /// wire) everywhere else.
    #[serde(default, skip_serializing_if = "super::action::is_zero")]
    pub board: u8,
}

/// A black stone that was forbidden when it was played, revealed when a
/// `claim` game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ForbiddenStone {
    pub move_number: u32,
    pub point: Point,
    pub kind: Forbidden,
}

/// Who won, if anyone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    /// `seat` won, holding `color` at the end.
    Win {
        seat: Seat,
        color: Color,
    },
    Draw,
    /// Cancelled: no winner, unrated.
    Aborted,
}

/// Why the game ended. Where a seat is named it is the one the reason is
/// about (the loser, or the seat that aborted).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ResultReason {
    /// The winner made a winning line (the stones of the line).
    Five {
        line: Vec<Point>,
    },
    /// White claimed black's forbidden move.
    ForbiddenClaimed {
        point: Point,
        forbidden: Forbidden,
    },
    /// Black played a forbidden move in a `lose` room.
    ForbiddenPlayed {
        point: Point,
        forbidden: Forbidden,
    },
    /// `seat` ran out of time.
    Time {
        seat: Seat,
    },
    Resignation {
        seat: Seat,
    },
    /// `seat` left the game: it was away past the grace and its opponent
    /// claimed the win, or the server gave it where nobody could claim
    /// (docs/rules.md §4), or it withdrew from the tournament.
    Abandonment {
        seat: Seat,
    },
    /// `seat` was away past the grace and its opponent called the game a
    /// draw.
    DrawCalled {
        seat: Seat,
    },
    /// Both players were away past the grace in an untimed game: drawn.
    BothAway,
    /// `seat` committed its second violation (false claims).
    Violations {
        seat: Seat,
    },
    DrawAgreed,
    BothPassed,
    BoardFull,
    /// Every overtime stone of the eight-stone overtime was played without
    /// a result.
    OvertimeSpent,
    /// Twin rooms: the winner's turn completed a five on each board
    /// (`lines[0]` on board 0, `lines[1]` on board 1).
    TwinFives {
        lines: [Vec<Point>; 2],
    },
    /// Twin rooms: `seat`'s turn completed a five on board `board` only,
    /// and so lost (`line`, its stones).
    OneBoardFive {
        seat: Seat,
        board: u8,
        line: Vec<Point>,
    },
    /// Aborted by `seat`, or by the server (`seat: null`).
    Aborted {
        seat: Option<Seat>,
    },
    /// An arbiter (a moderator) aborted the game: no winner, unrated.
    Arbiter,
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GameResult {
    pub outcome: Outcome,
    pub reason: ResultReason,
}

impl GameResult {
    /// The winning seat, if any.
    pub fn winner(&self) -> Option<Seat> {
        match self.outcome {
            Outcome::Win { seat, .. } => Some(seat),
            Outcome::Draw | Outcome::Aborted => None,
        }
    }

    /// The winning colour, if any.
    pub fn winner_color(&self) -> Option<Color> {
        match self.outcome {
            Outcome::Win { color, .. } => Some(color),
            Outcome::Draw | Outcome::Aborted => None,
        }
    }

    /// One line for people: "black (second) wins: five in a row".
    pub fn describe(&self) -> String {
        let head = match self.outcome {
            Outcome::Win { seat, color } => format!("{color} ({seat} seat) wins"),
            Outcome::Draw => "draw".to_string(),
            Outcome::Aborted => "aborted".to_string(),
        };
        let why = match &self.reason {
            ResultReason::Five { line } => {
                format!("{} in a row ({})", line.len(), join_points(line))
            }
            ResultReason::ForbiddenClaimed { point, forbidden } => {
                format!("white claimed black's forbidden move {point} ({forbidden})")
            }
            ResultReason::ForbiddenPlayed { point, forbidden } => {
                format!("black played the forbidden move {point} ({forbidden})")
            }
            ResultReason::Time { seat } => format!("{seat} seat ran out of time"),
            ResultReason::Resignation { seat } => format!("{seat} seat resigned"),
            ResultReason::Abandonment { seat } => format!("{seat} seat abandoned the game"),
            ResultReason::DrawCalled { seat } => {
                format!("{seat} seat was away; the opponent called it a draw")
            }
            ResultReason::BothAway => "both players were away".to_string(),
            ResultReason::Violations { seat } => format!("{seat} seat's second violation"),
            ResultReason::DrawAgreed => "draw agreed".to_string(),
            ResultReason::BothPassed => "both players passed".to_string(),
            ResultReason::BoardFull => "the board is full".to_string(),
            ResultReason::OvertimeSpent => "every overtime stone was played".to_string(),
            ResultReason::TwinFives { lines } => format!(
                "a five on both boards in one turn ({} on board 1, {} on board 2)",
                join_points(&lines[0]),
                join_points(&lines[1])
            ),
            ResultReason::OneBoardFive { seat, board, line } => format!(
                "{seat} seat completed a five on board {} only ({})",
                board + 1,
                join_points(line)
            ),
            ResultReason::Aborted { seat: Some(s) } => format!("aborted by the {s} seat"),
            ResultReason::Aborted { seat: None } => "aborted by the server".to_string(),
            ResultReason::Arbiter => "aborted by a moderator".to_string(),
        };
        format!("{head}: {why}")
    }
}

fn join_points(line: &[Point]) -> String {
    line.iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Why an action was a violation (docs/rules.md §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ViolationKind {
    /// A forbidden-move claim that did not hold.
    FalseClaim,
}

/// Something that happened, in order. `clocks` is `null` in untimed games.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Event {
    /// A stone was placed, or (`point: null`) a move was passed.
    Moved {
        #[serde(flatten)]
        mv: Move,
        clocks: Option<ClockSnapshot>,
    },
    /// The swap decision: `swapped` tells whether `seat` took the other
    /// colour; `black` is the seat holding black from now on.
    SwapDecided {
        seat: Seat,
        swapped: bool,
        black: Seat,
        clocks: Option<ClockSnapshot>,
    },
    /// The first three stones form the canonical opening `code` (`D4`),
    /// `name` (romanised, `Kagetsu`), `chinese` (`花月`). Reported in the
    /// renju opening rules when black 3 is placed.
    OpeningFormed {
        code: String,
        name: String,
        chinese: String,
    },
    /// `seat` declared that black will offer `count` fifth moves.
    OffersDeclared {
        seat: Seat,
        count: u8,
        clocks: Option<ClockSnapshot>,
    },
    /// `seat` (holding black) offered these fifth moves; together they are
    /// move 5, which white now chooses.
    FifthsOffered {
        seat: Seat,
        points: OfferSet,
        clocks: Option<ClockSnapshot>,
    },
    /// `seat` (holding white) kept `kept` as black 5 and `removed` the
    /// others; a [`Event::Moved`] for move 5 follows.
    FifthKept {
        seat: Seat,
        kept: Point,
        removed: Vec<Point>,
    },
    /// `seat` (holding black) chose Taraguchi's `option`.
    OptionChosen {
        seat: Seat,
        option: TaraguchiOption,
        clocks: Option<ClockSnapshot>,
    },
    /// `seat` offered a draw; `offers` is its count of offers so far.
    DrawOffered { seat: Seat, offers: u32 },
    /// `seat` declined the opponent's offer, explicitly or (`by_move`) by
    /// making a move.
    DrawDeclined { seat: Seat, by_move: bool },
    /// `seat`'s offer was not answered in time.
    DrawOfferLapsed { seat: Seat },
    /// `seat` accepted the opponent's offer (a [`Event::GameOver`] follows).
    DrawAccepted { seat: Seat },
    /// White's claim held (a [`Event::GameOver`] follows).
    ClaimUpheld {
        seat: Seat,
        point: Point,
        kind: Forbidden,
    },
    /// `seat` committed a violation; `count` is its total in this game.
    /// For a false claim, `point` is the point it named (absent for a
    /// claim that named none, in records from before claims named it).
    Violation {
        seat: Seat,
        kind: ViolationKind,
        count: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        point: Option<Point>,
    },
    /// Twin rooms: `seat` ended its turn after one stone.
    TurnEnded {
        seat: Seat,
        clocks: Option<ClockSnapshot>,
    },
    /// `seat` asks to take back its last move (and the opponent's moves
    /// after it, if any).
    TakebackRequested { seat: Seat },
    /// The takeback request ended without a takeback: `seat` declined it,
    /// explicitly or (`by_move`) by making a move (the requester's own
    /// move withdraws it).
    TakebackDeclined { seat: Seat, by_move: bool },
    /// `seat`'s takeback request was accepted: `undone` are the moves
    /// taken off, in the order they were played (remove them from the
    /// end of the moves list); the prompt that comes with the event asks
    /// `seat` to move again. The clocks are not turned back.
    TakenBack {
        seat: Seat,
        undone: Vec<Move>,
        clocks: Option<ClockSnapshot>,
    },
    /// The game is over. In `claim` rooms `forbidden` lists every black
    /// stone that was forbidden when played (now it may be known).
    GameOver {
        result: GameResult,
        clocks: Option<ClockSnapshot>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        forbidden: Vec<ForbiddenStone>,
    },
}
