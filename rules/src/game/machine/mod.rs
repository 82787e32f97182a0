//! The game state machine: one table's game, from the first action to the
//! result (docs/rules.md §3–§5, §7).
//!
//! A table actor hands every input to [`Game`] and gets back either the
//! events to broadcast or a typed refusal that changed nothing. Each input
//! handler first checks everything that could refuse it and only then
//! changes state, so a refusal never leaves a half-applied action behind.
//!
//! What the machine is waiting for is derived, not stored: the colour to
//! move follows from the number of moves (black's are odd), the seat from
//! the current colour assignment, and the swap decision from the opening
//! and the move count. The opening rules' steps are derived the same way,
//! from the stones placed and the decisions taken (`openings`).
//!
//! A seat's clock runs while the machine waits for it. It is pressed (the
//! seat charged, less its lag credit, and given the move bonus: Fischer
//! increment, byo-yomi move count) when the turn passes to the other seat,
//! once however many actions the turn took: RIF's opener laying three
//! stones, or white keeping a fifth and playing 6, is one turn. Knowledge that must stay hidden in `claim` rooms
//! (whether black's last stone was forbidden) lives in [`Notes`], which no
//! event, prompt or snapshot exposes before the game ends.

mod absence;
mod arbiter;
mod claims;
mod handlers;
mod opening_handlers;
mod openings;
mod replay;
mod takeback;
mod twin;

use openings::OpeningFacts;
pub use openings::OpeningProgress;

use serde::{Deserialize, Serialize};

use super::action::{Action, ActionKind, Prompt, Seat, Task};
use super::clock::{ClockSnapshot, Clocks};
use super::config::{ConfigError, ForbiddenHandling, GameConfig, Millis, Opening};
use super::draw::Draws;
use super::error::GameError;
use super::event::{Event, ForbiddenStone, GameResult, Move, Outcome, ResultReason};
use super::record::{GameRecord, Input, RECORD_VERSION, RecordEntry};
use super::takebacks::Takebacks;
use crate::board::{Board, Variant};
use crate::forbidden::Forbidden;
use crate::point::{Color, Point};

/// What the referee knows and, in `claim` rooms, must not tell yet. Its
/// `Debug` form is redacted, so that not even a log line of the game lets
/// on.
#[derive(Clone, Default, PartialEq, Eq)]
struct Notes {
    /// Black's last stone, if it was forbidden and white has not acted
    /// since it was played.
    claimable: Option<(Point, Forbidden)>,
    /// Every black stone that was forbidden when played (overlines stay
    /// claimable until the end).
    forbidden: Vec<ForbiddenStone>,
}

impl std::fmt::Debug for Notes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Notes { .. }")
    }
}

/// The public state of a game, for a client that (re)joins: everything a
/// player or spectator may know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Snapshot {
    pub config: GameConfig,
    pub opener: Seat,
    /// The seat holding black now.
    pub black: Seat,
    pub moves: Vec<Move>,
    /// Whether the latest swap option was taken, once one was decided
    /// (`null` before, or when the opening has none).
    pub swapped: Option<bool>,
    pub prompt: Option<Prompt>,
    pub clocks: Option<ClockSnapshot>,
    /// The seat whose draw offer awaits an answer.
    pub draw_offer: Option<Seat>,
    /// Draw offers made so far, indexed by seat (first, second).
    pub offers: [u32; 2],
    /// Violations so far, indexed by seat.
    pub violations: [u32; 2],
    pub result: Option<GameResult>,
    /// Revealed once a `claim` game is over.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forbidden: Vec<ForbiddenStone>,
    /// The opening rule's decisions so far (empty for the free openings).
    #[serde(default, skip_serializing_if = "OpeningProgress::is_empty")]
    pub opening: OpeningProgress,
    /// The seat whose takeback request awaits an answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub takeback: Option<Seat>,
}

/// One game at one table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    config: GameConfig,
    variant: Variant,
    handling: Option<ForbiddenHandling>,
    opener: Seat,
    start: Millis,
    black: Seat,
    board: Board,
    /// The second board, in twin rooms only (docs/rules.md §9).
    second: Option<Box<Board>>,
    moves: Vec<Move>,
    swapped: Option<bool>,
    facts: OpeningFacts,
    clocks: Clocks,
    draws: Draws,
    /// Twin rooms: the numbers of the stones after which a turn ended
    /// early (one-stone turns, [`Action::EndTurn`]).
    turn_ends: Vec<u32>,
    /// Takeback requests (handled in `takeback`).
    takebacks: Takebacks,
    /// How many moves stood when the opening rule was over (from then on
    /// play alternates and moves may be taken back).
    plain_from: Option<usize>,
    violations: [u32; 2],
    acted: [bool; 2],
    last_at: Millis,
    notes: Notes,
    result: Option<GameResult>,
    entries: Vec<RecordEntry>,
}

impl Game {
    /// A new game: `opener` starts as (tentative) black, and its clock
    /// starts at `start`.
    pub fn new(config: GameConfig, opener: Seat, start: Millis) -> Result<Game, ConfigError> {
        config.validate()?;
        let board = Board::new(config.board_size).expect("validated size");
        let second = (config.rule_set.boards() == 2).then(|| Box::new(board.clone()));
        let mut game = Game {
            variant: config.rule_set.variant(),
            handling: config.forbidden_handling(),
            clocks: Clocks::new(config.time, start, opener),
            config,
            opener,
            start,
            black: opener,
            board,
            second,
            moves: Vec::new(),
            swapped: None,
            facts: OpeningFacts::default(),
            draws: Draws::default(),
            turn_ends: Vec::new(),
            takebacks: Takebacks::default(),
            plain_from: None,
            violations: [0; 2],
            acted: [false; 2],
            last_at: start,
            notes: Notes::default(),
            result: None,
            entries: Vec::new(),
        };
        game.note_plain_play();
        Ok(game)
    }

    // ---- reading ---------------------------------------------------------

    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    pub fn opener(&self) -> Seat {
        self.opener
    }

    /// The instant the game (and the opener's clock) started.
    pub fn start(&self) -> Millis {
        self.start
    }

    /// The board (in twin rooms, board 0: see [`Game::board_at`]).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Board `index`: 0 is the only board, or the first of two in twin
    /// rooms, where 1 is the second; `None` for any other index.
    pub fn board_at(&self, index: u8) -> Option<&Board> {
        match index {
            0 => Some(&self.board),
            1 => self.second.as_deref(),
            _ => None,
        }
    }

    /// Every move so far (stones and passes).
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// The seat holding `color` now.
    pub fn seat_of(&self, color: Color) -> Seat {
        match color {
            Color::Black => self.black,
            Color::White => self.black.other(),
        }
    }

    /// The colour `seat` holds now.
    pub fn color_of(&self, seat: Seat) -> Color {
        if seat == self.black {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Offers made by `seat`, and its violations.
    pub fn offers(&self, seat: Seat) -> u32 {
        self.draws.offers[seat.index()]
    }

    pub fn violations(&self, seat: Seat) -> u32 {
        self.violations[seat.index()]
    }

    /// The seat whose draw offer stands at `now`.
    pub fn draw_offer(&self, now: Millis) -> Option<Seat> {
        self.draws.standing(&self.config.draw, now)
    }

    /// Both clocks as of `now` (`None` when untimed).
    pub fn clocks(&self, now: Millis) -> Option<ClockSnapshot> {
        self.clocks.snapshot(now)
    }

    /// When the seat to act runs out of time, if it can: the server sleeps
    /// until then and calls [`Game::tick`].
    pub fn flag_at(&self) -> Option<Millis> {
        if self.is_over() {
            None
        } else {
            self.clocks.flag_at()
        }
    }

    /// The next instant at which [`Game::tick`] has something to do: a
    /// flag, or a draw offer lapsing.
    pub fn next_deadline(&self) -> Option<Millis> {
        if self.is_over() {
            return None;
        }
        let lapse = self.draws.lapse_at(&self.config.draw);
        match (self.clocks.flag_at(), lapse) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The record of every accepted input so far.
    pub fn entries(&self) -> &[RecordEntry] {
        &self.entries
    }

    /// The game record so far (no tags: the server adds its own).
    pub fn record(&self) -> GameRecord {
        GameRecord {
            version: RECORD_VERSION,
            config: self.config.clone(),
            opener: self.opener,
            start: self.start,
            tags: Default::default(),
            entries: self.entries.clone(),
            result: self.result.clone(),
        }
    }

    /// Black stones that were forbidden when played, once the game is over
    /// (in `claim` rooms; empty before the end and in other rooms).
    pub fn revealed_forbidden(&self) -> &[ForbiddenStone] {
        if self.is_over() {
            &self.notes.forbidden
        } else {
            &[]
        }
    }

    fn swap_pending(&self) -> bool {
        self.config.opening == Opening::SwapAfterThree
            && self.moves.len() == 3
            && self.swapped.is_none()
    }

    /// The seat that must act and its task (`None` once over).
    pub fn task(&self) -> Option<(Seat, Task)> {
        if self.is_over() {
            return None;
        }
        if let Some(step) = self.opening_step() {
            return Some(self.step_task(step));
        }
        if self.swap_pending() {
            let color = Color::White;
            return Some((self.seat_of(color), Task::DecideSwap { color }));
        }
        let color = if self.second.is_some() {
            self.twin_color_due()
        } else if self.moves.len().is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        };
        let within =
            (self.config.rule_set.has_forbidden_moves() && self.moves.is_empty()).then_some(1);
        Some((
            self.seat_of(color),
            Task::Place {
                color,
                move_number: self.moves.len() as u32 + 1,
                within,
            },
        ))
    }

    /// The seat that must act (whose clock runs).
    pub fn to_act(&self) -> Option<Seat> {
        self.task().map(|(s, _)| s)
    }

    /// What the machine waits for, with what that seat may do at `now`.
    pub fn prompt(&self, now: Millis) -> Option<Prompt> {
        let (seat, task) = self.task()?;
        Some(Prompt {
            seat,
            task,
            may: self.allowed(seat, now),
            other_may: self.allowed(seat.other(), now),
            stones_left: self.stones_left(),
        })
    }

    /// Every action kind `seat` may attempt at `now` (a particular action of
    /// that kind may still be refused, e.g. an occupied point). In `claim`
    /// rooms white may claim whenever a claim could hold, judged on what
    /// both players see ([`Game::claim_open`]): whether it would hold is
    /// not revealed.
    pub fn allowed(&self, seat: Seat, now: Millis) -> Vec<ActionKind> {
        let mut may = Vec::new();
        if self.precheck(now).is_err() {
            return may;
        }
        match self.task() {
            Some((s, task)) if s == seat => match task {
                Task::Place { .. } => {
                    may.push(ActionKind::Place);
                    if self.board.stone_count() >= 5 && !self.in_opening() && self.second.is_none()
                    {
                        may.push(ActionKind::Pass);
                    }
                    if self.turn_may_end() {
                        may.push(ActionKind::EndTurn);
                    }
                }
                Task::DecideSwap { .. } => may.extend([ActionKind::Swap, ActionKind::Keep]),
                Task::DeclareOffers { .. } => may.push(ActionKind::DeclareOffers),
                Task::OfferFifths { .. } => may.push(ActionKind::OfferFifths),
                Task::KeepFifth { .. } => may.push(ActionKind::KeepFifth),
                Task::ChooseOption { .. } => may.push(ActionKind::ChooseOption),
                Task::Swap2Choice => may.extend([
                    ActionKind::Place,
                    ActionKind::Swap,
                    ActionKind::Keep,
                    ActionKind::PlaceTwo,
                ]),
                Task::SuperSakataChoice { .. } => {
                    may.extend([ActionKind::Swap, ActionKind::Keep, ActionKind::PlaceTwo])
                }
            },
            _ => {}
        }
        let policy = &self.config.draw;
        if self.draws.check_separate(seat, policy, now).is_ok() {
            may.push(ActionKind::OfferDraw);
        }
        if self.draws.standing(policy, now) == Some(seat.other()) {
            may.extend([ActionKind::AcceptDraw, ActionKind::DeclineDraw]);
        }
        if self.handling == Some(ForbiddenHandling::Claim)
            && self.color_of(seat) == Color::White
            && self.claim_open()
        {
            may.push(ActionKind::ClaimForbidden);
        }
        may.extend(self.takeback_actions(seat));
        may.push(ActionKind::Resign);
        if !(self.acted[0] && self.acted[1]) {
            may.push(ActionKind::Abort);
        }
        may
    }

    /// The public state as of `now`.
    pub fn snapshot(&self, now: Millis) -> Snapshot {
        Snapshot {
            config: self.config.clone(),
            opener: self.opener,
            black: self.black,
            moves: self.moves.clone(),
            swapped: self.swapped,
            prompt: self.prompt(now),
            clocks: self.clocks(now),
            draw_offer: self.draw_offer(now),
            offers: self.draws.offers,
            violations: self.violations,
            result: self.result.clone(),
            forbidden: self.revealed_forbidden().to_vec(),
            opening: self.opening_progress(),
            takeback: self.takebacks.pending,
        }
    }

    // ---- inputs ------------------------------------------------------------

    /// Applies `seat`'s action at `now`, with no lag credit.
    pub fn apply(
        &mut self,
        seat: Seat,
        action: Action,
        now: Millis,
    ) -> Result<Vec<Event>, GameError> {
        self.apply_with_lag(seat, action, now, 0)
    }

    /// Applies `seat`'s action at `now`. An action that ends the seat's turn
    /// (and so presses its clock) may be credited up to `lag_ms` of the time
    /// the turn took (the server's estimate of network lag), capped by the
    /// room and by the time actually elapsed; the record keeps the credit
    /// granted, zero when the clock was not pressed.
    /// An input at or after the running seat's flag instant is refused with
    /// [`GameError::TimeUp`] (the server then calls [`Game::tick`]), except
    /// a move of that seat whose lag credit puts it before the flag: the
    /// credit is the grace a laggy mover gets, never more than the room's
    /// cap nor than the time the move took.
    pub fn apply_with_lag(
        &mut self,
        seat: Seat,
        action: Action,
        now: Millis,
        lag_ms: Millis,
    ) -> Result<Vec<Event>, GameError> {
        // The credit counts only if the action may press the clock (end the
        // turn).
        let may_press = action.may_press_clock();
        let credit = if may_press && self.clocks.running() == Some(seat) {
            self.clocks
                .credit(now, lag_ms, self.config.lag_credit_cap_ms)
        } else {
            0
        };
        // A move of the seat on the clock is on time if it is once its lag
        // credit is taken off: that is the grace the credit allows (a server
        // delays its flag call by as much).
        self.precheck_with_credit(now, credit)?;
        // On time only thanks to the credit: the action must then end the
        // turn (a move that is credited); anything else is undone below.
        let late = self.clocks.flagged(now);
        let backup = late.map(|_| self.clone());
        let clock_before = (self.clocks.running(), self.clocks.since());
        let mut events = match action {
            Action::Place {
                point,
                board,
                offer_draw,
            } => self.place(seat, board, point, offer_draw, now, credit)?,
            Action::Pass { offer_draw } => self.pass(seat, offer_draw, now, credit)?,
            Action::Swap | Action::Keep => {
                self.decide_swap(seat, action == Action::Swap, now, credit)?
            }
            Action::DeclareOffers { count } => self.declare_offers(seat, count, now, credit)?,
            Action::OfferFifths { points } => self.offer_fifths(seat, points, now, credit)?,
            Action::KeepFifth { point } => self.keep_fifth(seat, point, now, credit)?,
            Action::ChooseOption { option } => self.choose_option(seat, option, now, credit)?,
            Action::PlaceTwo { white, black } => self.place_two(seat, white, black, now, credit)?,
            Action::OfferDraw => self.offer_draw(seat, now)?,
            Action::AcceptDraw | Action::DeclineDraw => {
                self.answer_draw(seat, action == Action::AcceptDraw, now)?
            }
            Action::ClaimForbidden { point } => self.claim(seat, point, now)?,
            Action::EndTurn => self.end_twin_turn(seat, now, credit)?,
            Action::RequestTakeback => self.request_takeback(seat, now)?,
            Action::AcceptTakeback | Action::DeclineTakeback => {
                self.answer_takeback(seat, action == Action::AcceptTakeback, now)?
            }
            Action::Resign => {
                let mut ev = self.begin(Some(seat), now);
                self.finish(
                    Outcome::win(seat.other(), self),
                    ResultReason::Resignation { seat },
                    now,
                    &mut ev,
                );
                ev
            }
            Action::Abort => {
                self.check_abort()?;
                let mut ev = self.begin(Some(seat), now);
                self.finish(
                    Outcome::Aborted,
                    ResultReason::Aborted { seat: Some(seat) },
                    now,
                    &mut ev,
                );
                ev
            }
        };
        let pressed = (self.clocks.running(), self.clocks.since()) != clock_before;
        if let (Some(seat), Some(backup)) = (late, backup)
            && !(may_press && pressed)
        {
            *self = backup;
            return Err(GameError::TimeUp { seat });
        }
        if pressed && !self.is_over() && self.clocks.overtime_spent() {
            // Every overtime stone is down and nobody won (docs/rules.md §7).
            self.finish(Outcome::Draw, ResultReason::OvertimeSpent, now, &mut events);
        }
        self.note_plain_play();
        let granted = if may_press && pressed { credit } else { 0 };
        self.log(
            now,
            Input::Act {
                seat,
                action,
                lag_credit_ms: granted,
            },
        );
        Ok(events)
    }

    /// Lets time act at `now`: the seat to act flags, or a draw offer
    /// lapses. Returns what happened (nothing, usually). Idempotent; a
    /// server may call it before every input.
    pub fn tick(&mut self, now: Millis) -> Vec<Event> {
        if self.is_over() || now < self.last_at {
            return Vec::new();
        }
        let mut events = Vec::new();
        if let Some(seat) = self.clocks.flagged(now) {
            self.finish(
                Outcome::win(seat.other(), self),
                ResultReason::Time { seat },
                now,
                &mut events,
            );
        } else {
            self.settle_lapse(now, &mut events);
        }
        if !events.is_empty() {
            self.last_at = now;
            self.log(now, Input::Tick);
        }
        events
    }

    /// The server declares that `seat` abandoned the game (left and did not
    /// come back in time, and its opponent claimed the win, or nobody was
    /// there to claim it): the other seat wins.
    pub fn declare_abandoned(&mut self, seat: Seat, now: Millis) -> Result<Vec<Event>, GameError> {
        self.precheck(now)?;
        let mut ev = self.begin(None, now);
        self.finish(
            Outcome::win(seat.other(), self),
            ResultReason::Abandonment { seat },
            now,
            &mut ev,
        );
        self.log(now, Input::Abandoned { seat });
        Ok(ev)
    }

    /// The server aborts the game (e.g. a side made no first move in time);
    /// allowed while at least one seat has not acted.
    pub fn declare_aborted(&mut self, now: Millis) -> Result<Vec<Event>, GameError> {
        self.precheck(now)?;
        self.check_abort()?;
        let mut ev = self.begin(None, now);
        self.finish(
            Outcome::Aborted,
            ResultReason::Aborted { seat: None },
            now,
            &mut ev,
        );
        self.log(now, Input::Aborted);
        Ok(ev)
    }

    /// Feeds a recorded input (how records are replayed and live games
    /// restored). A recorded tick that changes nothing is refused as
    /// [`GameError::GameOver`] when over, and otherwise yields no events.
    pub fn feed(&mut self, input: &Input, at: Millis) -> Result<Vec<Event>, GameError> {
        match *input {
            Input::Act {
                seat,
                action,
                lag_credit_ms,
            } => self.apply_with_lag(seat, action, at, lag_credit_ms),
            Input::Tick => {
                if self.is_over() {
                    return Err(GameError::GameOver);
                }
                Ok(self.tick(at))
            }
            Input::Abandoned { seat } => self.declare_abandoned(seat, at),
            Input::DrawCalled { seat } => self.declare_draw_called(seat, at),
            Input::BothAway => self.declare_both_away(at),
            Input::Aborted => self.declare_aborted(at),
            Input::ArbiterAborted => self.declare_arbiter_abort(at),
        }
    }
}
