//! The game state machine: one table's game, from the first action to the
//! result (RULES.md §3–§5, §7).
//!
//! A table actor hands every input to [`Game`] and gets back either the
//! events to broadcast or a typed refusal that changed nothing. Each input
//! handler first checks everything that could refuse it and only then
//! changes state, so a refusal never leaves a half-applied action behind.
//!
//! What the machine is waiting for is derived, not stored: the colour to
//! move follows from the number of moves (black's are odd), the seat from
//! the current colour assignment, and the swap decision from the opening
//! and the move count. Knowledge that must stay hidden in `claim` rooms
//! (whether black's last stone was forbidden) lives in [`Notes`], which no
//! event, prompt or snapshot exposes before the game ends.

use serde::{Deserialize, Serialize};

use super::action::{Action, ActionKind, Prompt, Seat, Task};
use super::clock::{ClockSnapshot, Clocks};
use super::config::{ConfigError, ForbiddenHandling, GameConfig, Millis, Opening};
use super::draw::Draws;
use super::error::GameError;
use super::event::{Event, ForbiddenStone, GameResult, Move, Outcome, ResultReason, ViolationKind};
use super::record::{GameRecord, Input, RECORD_VERSION, RecordEntry};
use crate::board::{Board, Variant};
use crate::forbidden::Forbidden;
use crate::point::{Color, Point};

/// What the referee knows and, in `claim` rooms, must not tell yet.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Notes {
    /// Black's last stone, if it was forbidden and white has not acted
    /// since it was played.
    claimable: Option<(Point, Forbidden)>,
    /// Every black stone that was forbidden when played (overlines stay
    /// claimable until the end).
    forbidden: Vec<ForbiddenStone>,
}

/// The public state of a game, for a client that (re)joins: everything a
/// player or spectator may know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    pub config: GameConfig,
    pub opener: Seat,
    /// The seat holding black now.
    pub black: Seat,
    pub moves: Vec<Move>,
    /// Whether the swap was taken, once decided (`None` before, or when the
    /// opening has none).
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
    moves: Vec<Move>,
    swapped: Option<bool>,
    clocks: Clocks,
    draws: Draws,
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
        Ok(Game {
            variant: config.rule_set.variant(),
            handling: config.forbidden_handling(),
            clocks: Clocks::new(config.time, start, opener),
            config,
            opener,
            start,
            black: opener,
            board,
            moves: Vec::new(),
            swapped: None,
            draws: Draws::default(),
            violations: [0; 2],
            acted: [false; 2],
            last_at: start,
            notes: Notes::default(),
            result: None,
            entries: Vec::new(),
        })
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

    pub fn board(&self) -> &Board {
        &self.board
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
        if self.swap_pending() {
            let color = Color::White;
            return Some((self.seat_of(color), Task::DecideSwap { color }));
        }
        let color = if self.moves.len() % 2 == 0 {
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
        })
    }

    /// Every action kind `seat` may attempt at `now` (a particular action of
    /// that kind may still be refused, e.g. an occupied point). In `claim`
    /// rooms white may always claim: whether a claim would hold is not
    /// revealed.
    pub fn allowed(&self, seat: Seat, now: Millis) -> Vec<ActionKind> {
        let mut may = Vec::new();
        if self.precheck(now).is_err() {
            return may;
        }
        match self.task() {
            Some((s, Task::Place { .. })) if s == seat => {
                may.push(ActionKind::Place);
                if self.board.stone_count() >= 5 {
                    may.push(ActionKind::Pass);
                }
            }
            Some((s, Task::DecideSwap { .. })) if s == seat => {
                may.extend([ActionKind::Swap, ActionKind::Keep]);
            }
            _ => {}
        }
        let policy = &self.config.draw;
        if self.draws.check_separate(seat, policy, now).is_ok() {
            may.push(ActionKind::OfferDraw);
        }
        if self.draws.standing(policy, now) == Some(seat.other()) {
            may.extend([ActionKind::AcceptDraw, ActionKind::DeclineDraw]);
        }
        if self.handling == Some(ForbiddenHandling::Claim) && self.color_of(seat) == Color::White {
            may.push(ActionKind::ClaimForbidden);
        }
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

    /// Applies `seat`'s action at `now`. A move (stone, pass, swap) may be
    /// credited up to `lag_ms` of the time it took (the server's estimate of
    /// network lag), capped by the room and by the time actually elapsed.
    /// An input at or after the running seat's flag instant is refused with
    /// [`GameError::TimeUp`]: the server then calls [`Game::tick`].
    pub fn apply_with_lag(
        &mut self,
        seat: Seat,
        action: Action,
        now: Millis,
        lag_ms: Millis,
    ) -> Result<Vec<Event>, GameError> {
        self.precheck(now)?;
        let credit = self
            .clocks
            .credit(now, lag_ms, self.config.lag_credit_cap_ms);
        let events = match action {
            Action::Place { point, offer_draw } => {
                self.place(seat, point, offer_draw, now, credit)?
            }
            Action::Pass { offer_draw } => self.pass(seat, offer_draw, now, credit)?,
            Action::Swap | Action::Keep => {
                self.decide_swap(seat, action == Action::Swap, now, credit)?
            }
            Action::OfferDraw => self.offer_draw(seat, now)?,
            Action::AcceptDraw | Action::DeclineDraw => {
                self.answer_draw(seat, action == Action::AcceptDraw, now)?
            }
            Action::ClaimForbidden => self.claim(seat, now)?,
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
        let moved = matches!(
            action,
            Action::Place { .. } | Action::Pass { .. } | Action::Swap
        );
        let granted = if moved { credit } else { 0 };
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
    /// come back in time): the other seat wins.
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
            Input::Aborted => self.declare_aborted(at),
        }
    }

    // ---- checks ------------------------------------------------------------

    /// What refuses any input at `now`: the end, time running backwards, a
    /// flag that has fallen.
    fn precheck(&self, now: Millis) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        if now < self.last_at {
            return Err(GameError::TimeWentBackwards {
                now,
                last: self.last_at,
            });
        }
        if let Some(seat) = self.clocks.flagged(now) {
            return Err(GameError::TimeUp { seat });
        }
        Ok(())
    }

    /// `seat` must be the one asked to place a stone; returns its colour
    /// and zone.
    fn check_mover(&self, seat: Seat) -> Result<(Color, Option<u8>), GameError> {
        match self.task() {
            Some((s, Task::Place { color, within, .. })) if s == seat => Ok((color, within)),
            Some((s, Task::DecideSwap { .. })) if s == seat => Err(GameError::SwapDecisionPending),
            _ => Err(GameError::NotYourTurn),
        }
    }

    fn check_abort(&self) -> Result<(), GameError> {
        if self.acted[0] && self.acted[1] {
            Err(GameError::AbortNotAllowed)
        } else {
            Ok(())
        }
    }

    fn check_offer_with_move(&self, seat: Seat, offer: bool) -> Result<(), GameError> {
        if offer {
            self.draws.check_limits(seat, &self.config.draw)
        } else {
            Ok(())
        }
    }

    // ---- changes (called only once every check has passed) ----------------

    /// The common start of an accepted input by `seat` (or by the server):
    /// reports a lapsed offer, ends the opponent's right to offer
    /// separately, and, when white acts, ends the claim on black's last
    /// stone (RULES.md §3).
    fn begin(&mut self, seat: Option<Seat>, now: Millis) -> Vec<Event> {
        let mut events = Vec::new();
        self.settle_lapse(now, &mut events);
        if let Some(seat) = seat {
            if self.draws.may_offer == Some(seat.other()) {
                self.draws.may_offer = None;
            }
            if self.color_of(seat) == Color::White {
                self.notes.claimable = None;
            }
            self.acted[seat.index()] = true;
        }
        self.last_at = now;
        events
    }

    fn settle_lapse(&mut self, now: Millis, events: &mut Vec<Event>) {
        if let Some(seat) = self.draws.lapsed(&self.config.draw, now) {
            self.draws.pending = None;
            events.push(Event::DrawOfferLapsed { seat });
        }
    }

    /// A move by `seat` declines the opponent's standing offer.
    fn decline_by_move(&mut self, seat: Seat, events: &mut Vec<Event>) {
        if let Some(p) = self.draws.pending.take() {
            debug_assert_eq!(p.seat, seat.other());
            events.push(Event::DrawDeclined {
                seat,
                by_move: true,
            });
        }
    }

    fn log(&mut self, at: Millis, input: Input) {
        let clocks = self.clocks.snapshot(at);
        self.entries.push(RecordEntry { at, input, clocks });
    }

    fn finish(
        &mut self,
        outcome: Outcome,
        reason: ResultReason,
        now: Millis,
        events: &mut Vec<Event>,
    ) {
        self.clocks.stop(now);
        self.draws.pending = None;
        self.draws.may_offer = None;
        self.notes.claimable = None;
        let result = GameResult { outcome, reason };
        self.result = Some(result.clone());
        events.push(Event::GameOver {
            result,
            clocks: self.clocks.snapshot(now),
            forbidden: self.notes.forbidden.clone(),
        });
    }

    /// Records a move and starts the opponent's clock.
    fn push_move(
        &mut self,
        seat: Seat,
        color: Color,
        point: Option<Point>,
        now: Millis,
        credit: Millis,
    ) -> Event {
        let mv = Move {
            number: self.moves.len() as u32 + 1,
            seat,
            color,
            point,
        };
        self.moves.push(mv);
        self.clocks.press(now, credit, seat.other());
        Event::Moved {
            mv,
            clocks: self.clocks.snapshot(now),
        }
    }

    fn place(
        &mut self,
        seat: Seat,
        point: Point,
        offer: bool,
        now: Millis,
        credit: Millis,
    ) -> Result<Vec<Event>, GameError> {
        let (color, within) = self.check_mover(seat)?;
        let size = self.board.size();
        if !point.on_board(size) {
            return Err(GameError::OffBoard { point });
        }
        if self.board.get(point).is_some() {
            return Err(GameError::Occupied { point });
        }
        if let Some(w) = within {
            let c = Point::center(size);
            let r = (w / 2) as i32;
            if (point.x as i32 - c.x as i32).abs() > r || (point.y as i32 - c.y as i32).abs() > r {
                return Err(GameError::OutsideZone { within: w });
            }
        }
        self.check_offer_with_move(seat, offer)?;
        let forbidden = match (color, self.handling) {
            (Color::Black, Some(_)) => self.board.forbidden(point),
            _ => None,
        };
        if let (Some(kind), Some(ForbiddenHandling::Block)) = (forbidden, self.handling) {
            return Err(GameError::ForbiddenPoint { point, kind });
        }

        let mut events = self.begin(Some(seat), now);
        self.decline_by_move(seat, &mut events);
        self.board
            .place(point, color)
            .expect("checked: on board and empty");
        events.push(self.push_move(seat, color, Some(point), now, credit));
        if color == Color::Black {
            self.notes.claimable = None;
        }
        if let Some(kind) = forbidden {
            match self.handling {
                Some(ForbiddenHandling::Lose) => {
                    let outcome = Outcome::win(self.seat_of(Color::White), self);
                    self.finish(
                        outcome,
                        ResultReason::ForbiddenPlayed {
                            point,
                            forbidden: kind,
                        },
                        now,
                        &mut events,
                    );
                    return Ok(events);
                }
                _ => {
                    // Claim: the stone stands, and only the referee knows.
                    self.notes.claimable = Some((point, kind));
                    self.notes.forbidden.push(ForbiddenStone {
                        move_number: self.moves.len() as u32,
                        point,
                        kind,
                    });
                }
            }
        }
        if let Some(line) = self.board.winning_line(point, self.variant) {
            self.finish(
                Outcome::win(seat, self),
                ResultReason::Five { line },
                now,
                &mut events,
            );
        } else if self.board.is_full() {
            self.finish(Outcome::Draw, ResultReason::BoardFull, now, &mut events);
        } else {
            self.after_move(seat, offer, now, &mut events);
        }
        Ok(events)
    }

    fn pass(
        &mut self,
        seat: Seat,
        offer: bool,
        now: Millis,
        credit: Millis,
    ) -> Result<Vec<Event>, GameError> {
        let (color, _) = self.check_mover(seat)?;
        if self.board.stone_count() < 5 {
            return Err(GameError::PassNotAllowed);
        }
        self.check_offer_with_move(seat, offer)?;

        let both = self.moves.last().is_some_and(|m| m.point.is_none());
        let mut events = self.begin(Some(seat), now);
        self.decline_by_move(seat, &mut events);
        events.push(self.push_move(seat, color, None, now, credit));
        if both {
            self.finish(Outcome::Draw, ResultReason::BothPassed, now, &mut events);
        } else {
            self.after_move(seat, offer, now, &mut events);
        }
        Ok(events)
    }

    /// After a move that did not end the game: the mover may now offer a
    /// draw (and does, if it came with the move).
    fn after_move(&mut self, seat: Seat, offer: bool, now: Millis, events: &mut Vec<Event>) {
        self.draws.may_offer = Some(seat);
        if offer {
            let offers = self.draws.offer(seat, now);
            events.push(Event::DrawOffered { seat, offers });
        }
    }

    fn decide_swap(
        &mut self,
        seat: Seat,
        swap: bool,
        now: Millis,
        credit: Millis,
    ) -> Result<Vec<Event>, GameError> {
        match self.task() {
            Some((s, Task::DecideSwap { .. })) if s == seat => {}
            Some((s, _)) if s == seat => return Err(GameError::NoSwapDecision),
            _ => return Err(GameError::NotYourTurn),
        }
        let mut events = self.begin(Some(seat), now);
        self.swapped = Some(swap);
        if swap {
            // Taking black counts as a move: it declines a standing offer,
            // and the clock passes to the new white.
            self.decline_by_move(seat, &mut events);
            self.black = seat;
            self.clocks.press(now, credit, seat.other());
        }
        events.push(Event::SwapDecided {
            seat,
            swapped: swap,
            black: self.black,
            clocks: self.clocks.snapshot(now),
        });
        Ok(events)
    }

    fn offer_draw(&mut self, seat: Seat, now: Millis) -> Result<Vec<Event>, GameError> {
        self.draws.check_separate(seat, &self.config.draw, now)?;
        let mut events = self.begin(Some(seat), now);
        let offers = self.draws.offer(seat, now);
        events.push(Event::DrawOffered { seat, offers });
        Ok(events)
    }

    fn answer_draw(
        &mut self,
        seat: Seat,
        accept: bool,
        now: Millis,
    ) -> Result<Vec<Event>, GameError> {
        if self.draws.standing(&self.config.draw, now) != Some(seat.other()) {
            return Err(GameError::NoDrawOffer);
        }
        let mut events = self.begin(Some(seat), now);
        self.draws.pending = None;
        if accept {
            events.push(Event::DrawAccepted { seat });
            self.finish(Outcome::Draw, ResultReason::DrawAgreed, now, &mut events);
        } else {
            events.push(Event::DrawDeclined {
                seat,
                by_move: false,
            });
        }
        Ok(events)
    }

    fn claim(&mut self, seat: Seat, now: Millis) -> Result<Vec<Event>, GameError> {
        if self.handling != Some(ForbiddenHandling::Claim) {
            return Err(GameError::ClaimsDisabled);
        }
        if self.color_of(seat) != Color::White {
            return Err(GameError::ClaimByBlack);
        }
        // Judged before `begin`, which ends the claim on the last stone.
        let upheld = self.notes.claimable.or_else(|| {
            self.notes
                .forbidden
                .iter()
                .find(|s| s.kind == Forbidden::Overline)
                .map(|s| (s.point, s.kind))
        });
        let mut events = self.begin(Some(seat), now);
        if let Some((point, kind)) = upheld {
            events.push(Event::ClaimUpheld { seat, point, kind });
            self.finish(
                Outcome::win(seat, self),
                ResultReason::ForbiddenClaimed {
                    point,
                    forbidden: kind,
                },
                now,
                &mut events,
            );
        } else {
            let count = {
                let v = &mut self.violations[seat.index()];
                *v += 1;
                *v
            };
            events.push(Event::Violation {
                seat,
                kind: ViolationKind::FalseClaim,
                count,
            });
            if count >= 2 {
                self.finish(
                    Outcome::win(seat.other(), self),
                    ResultReason::Violations { seat },
                    now,
                    &mut events,
                );
            }
        }
        Ok(events)
    }
}

impl Outcome {
    /// A win for `seat`, with the colour it holds in `game`.
    fn win(seat: Seat, game: &Game) -> Outcome {
        Outcome::Win {
            seat,
            color: game.color_of(seat),
        }
    }
}
