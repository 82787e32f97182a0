//! A table as a client sees it, built only from what the server sends.
//!
//! The terminal client, the load generator and the tests all need the same
//! thing: the state of a game they play or watch. They get a
//! `table_snapshot` once and then a stream of `table_event`s, and
//! [`TableView`] folds that stream into a value (board, moves, colours,
//! prompt, clocks, draw offer, violations, result, the opening's decisions).
//!
//! Why it holds no rule logic: the referee (`tengen-rules`, run by the
//! server) is the only authority, and every event says what changed and
//! carries the prompt that follows, so a client never needs to work out
//! whose turn it is, what that seat may do, whether a stone is forbidden or
//! when a swap comes. A view that re-derived any of it could disagree with
//! the server; this one only records what it is told. The single bit of
//! arithmetic it does is counting the running clock down between events
//! ([`TableView::clock_now`]), with the rules crate's own clock arithmetic
//! ([`tengen_rules::game::SeatClock::run`]) so a countdown shows what the server's clock shows.
//!
//! Why `seq` matters: a table's events are numbered 1, 2, 3 ... with no
//! gaps and no repeats (`protocol/README.md`, "Order of messages"). An
//! event at or below the view's `seq` is a repeat and changes nothing
//! ([`Applied::Duplicate`]); one beyond the next is a gap
//! ([`ViewError::Gap`]): some event was missed, and the caller asks for a
//! `snapshot` and [`TableView::reset`]s. An event that does not fit the
//! state (a move numbered out of order, a stone on an occupied point) is
//! refused the same way ([`ViewError::Inconsistent`]) and changes nothing.
//!
//! Time is never read here: every call that depends on it takes the
//! caller's [`Instant`] (when the message arrived, or "now" for a
//! countdown), so the view is as reproducible as the referee.

use std::time::Instant;

use tengen_protocol::{
    PauseReason, Players, RoomId, ServerMsg, TableEvent, TableId, TableSnapshot,
};
use tengen_rules::Board;
use tengen_rules::game::{
    ClockSnapshot, Event, ForbiddenStone, GameConfig, GameResult, Millis, Move, OfferSet,
    OpeningProgress, Prompt, Seat, Snapshot,
};
use tengen_rules::{Color, Point};

/// Why an event or snapshot was not applied. The view is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    /// Events were missed between the view's `seq` (`have`) and this one
    /// (`got`): ask the server for a `snapshot` and [`TableView::reset`].
    #[error("missed events: have seq {have}, got {got}; ask for a snapshot")]
    Gap { have: u64, got: u64 },
    /// The message is about another table.
    #[error("this view is of table {expected}, the message of table {got}")]
    WrongTable { expected: TableId, got: TableId },
    /// The event (or snapshot) contradicts the view: ask for a snapshot.
    #[error("seq {seq} does not fit the view: {reason}; ask for a snapshot")]
    Inconsistent { seq: u64, reason: String },
}

/// What [`TableView::apply`] did with an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applied {
    /// The next event: the view now includes it.
    New,
    /// Already included (`seq` at or below the view's): ignored.
    Duplicate,
}

/// What [`TableView::handle`] did with a server message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Update {
    /// A `table_event` of this table, applied or ignored as a duplicate.
    Event(Applied),
    /// A `table_snapshot` of this table replaced the state.
    Reset,
    /// The spectator count changed.
    Spectators,
    /// The clocks stopped or run again (`table_paused`).
    Paused,
    /// Not about this table's state (another table, a reply, the lobby).
    Ignored,
}

/// One table's public state as the server has described it so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableView {
    table: TableId,
    room: RoomId,
    seat: Option<Seat>,
    players: Players,
    spectators: u32,
    seq: u64,
    config: GameConfig,
    opener: Seat,
    black: Seat,
    swapped: Option<bool>,
    board: Board,
    /// The second board of a twin room (docs/rules.md §9).
    second: Option<Board>,
    moves: Vec<Move>,
    /// Fifth-move offers made and not yet resolved into move 5.
    pending_fifths: Option<OfferSet>,
    opening: OpeningProgress,
    prompt: Option<Prompt>,
    clocks: Option<ClockSnapshot>,
    /// When the message carrying `clocks` arrived.
    clocks_at: Instant,
    /// Why the clocks stand still, if they do.
    paused: Option<PauseReason>,
    draw_offer: Option<Seat>,
    offers: [u32; 2],
    violations: [u32; 2],
    result: Option<GameResult>,
    forbidden: Vec<ForbiddenStone>,
    /// The seat whose takeback request awaits an answer.
    takeback: Option<Seat>,
    last_event: Option<Event>,
}

impl TableView {
    /// A view from a `table_snapshot` that arrived at `received_at`.
    pub fn new(snapshot: &TableSnapshot, received_at: Instant) -> Result<TableView, ViewError> {
        let s = &snapshot.snapshot;
        let bad = |reason: String| ViewError::Inconsistent {
            seq: snapshot.seq,
            reason,
        };
        let mut board = Board::new(s.config.board_size).map_err(|e| bad(e.to_string()))?;
        let mut second = (s.config.rule_set.boards() == 2).then(|| board.clone());
        for (i, mv) in s.moves.iter().enumerate() {
            if mv.number as usize != i + 1 {
                return Err(bad(format!(
                    "move {} listed as number {}",
                    i + 1,
                    mv.number
                )));
            }
            if let Some(p) = mv.point {
                let on = match mv.board {
                    0 => Some(&mut board),
                    1 => second.as_mut(),
                    _ => None,
                };
                on.ok_or_else(|| bad(format!("move {}: no board {}", mv.number, mv.board)))?
                    .place(p, mv.color)
                    .map_err(|e| bad(format!("move {}: {e}", mv.number)))?;
            }
        }
        // Offers are pending until one of them stands as move 5: none of
        // them is on the board yet.
        let pending_fifths = s
            .opening
            .fifth_offers
            .filter(|o| o.as_slice().iter().all(|&p| board.get(p).is_none()));
        Ok(TableView {
            table: snapshot.table.clone(),
            room: snapshot.room.clone(),
            seat: snapshot.seat,
            players: snapshot.players.clone(),
            spectators: snapshot.spectators,
            seq: snapshot.seq,
            config: s.config.clone(),
            opener: s.opener,
            black: s.black,
            swapped: s.swapped,
            board,
            second,
            moves: s.moves.clone(),
            pending_fifths,
            opening: s.opening.clone(),
            prompt: s.prompt.clone(),
            clocks: s.clocks,
            clocks_at: received_at,
            paused: snapshot.paused,
            draw_offer: s.draw_offer,
            offers: s.offers,
            violations: s.violations,
            result: s.result.clone(),
            forbidden: s.forbidden.clone(),
            takeback: s.takeback,
            last_event: None,
        })
    }

    /// Replaces the whole state with a fresh `table_snapshot` of the same
    /// table (after a [`ViewError::Gap`], or whenever the server sends one).
    /// On error the view is unchanged.
    pub fn reset(
        &mut self,
        snapshot: &TableSnapshot,
        received_at: Instant,
    ) -> Result<(), ViewError> {
        self.check_table(&snapshot.table)?;
        *self = TableView::new(snapshot, received_at)?;
        Ok(())
    }

    /// Applies the table's next event, received at `received_at`. A repeat
    /// is ignored; a gap, another table's event or an event that does not
    /// fit is refused and changes nothing.
    pub fn apply(&mut self, ev: &TableEvent, received_at: Instant) -> Result<Applied, ViewError> {
        self.check_table(&ev.table)?;
        if ev.seq <= self.seq {
            return Ok(Applied::Duplicate);
        }
        if ev.seq != self.seq + 1 {
            return Err(ViewError::Gap {
                have: self.seq,
                got: ev.seq,
            });
        }
        self.check_fits(&ev.event)
            .map_err(|reason| ViewError::Inconsistent {
                seq: ev.seq,
                reason,
            })?;
        self.absorb(&ev.event, received_at);
        self.prompt = ev.prompt.clone();
        self.seq = ev.seq;
        self.last_event = Some(ev.event.clone());
        Ok(Applied::New)
    }

    /// The spectator count from a `spectators` push.
    pub fn set_spectators(&mut self, count: u32) {
        self.spectators = count;
    }

    /// Routes a server message: this table's snapshots, events and
    /// spectator counts update the view; anything else is
    /// [`Update::Ignored`].
    pub fn handle(&mut self, msg: &ServerMsg, received_at: Instant) -> Result<Update, ViewError> {
        if msg.table() != Some(&self.table) {
            return Ok(Update::Ignored);
        }
        match msg {
            ServerMsg::TableSnapshot(s) => self.reset(s, received_at).map(|()| Update::Reset),
            ServerMsg::TableEvent(ev) => self.apply(ev, received_at).map(Update::Event),
            ServerMsg::Spectators { count, .. } => {
                self.set_spectators(*count);
                Ok(Update::Spectators)
            }
            ServerMsg::TablePaused { paused, clocks, .. } => {
                self.paused = *paused;
                self.clocks = *clocks;
                self.clocks_at = received_at;
                Ok(Update::Paused)
            }
            _ => Ok(Update::Ignored),
        }
    }

    fn check_table(&self, table: &TableId) -> Result<(), ViewError> {
        if *table == self.table {
            Ok(())
        } else {
            Err(ViewError::WrongTable {
                expected: self.table.clone(),
                got: table.clone(),
            })
        }
    }

    /// Bookkeeping checks only (numbering, free points): whether `event`
    /// can be recorded at all, not whether the referee should have allowed
    /// it.
    fn check_fits(&self, event: &Event) -> Result<(), String> {
        if let Event::TakenBack { undone, .. } = event {
            let tail = self.moves.len().checked_sub(undone.len());
            if tail.is_none_or(|t| self.moves[t..] != undone[..]) {
                return Err("the moves taken back are not the last ones".into());
            }
        }
        if let Event::Moved { mv, .. } = event {
            let next = self.moves.len() + 1;
            if mv.number as usize != next {
                return Err(format!("move {} arrived, move {next} expected", mv.number));
            }
            if let Some(p) = mv.point {
                self.board_at(mv.board)
                    .ok_or_else(|| format!("move {}: no board {}", mv.number, mv.board))?
                    .check_place(p)
                    .map_err(|e| format!("move {}: {e}", mv.number))?;
            }
        }
        Ok(())
    }

    /// Records what `event` says happened (checked by `check_fits`).
    fn absorb(&mut self, event: &Event, at: Instant) {
        let mut clocks = |c: &Option<ClockSnapshot>| {
            self.clocks = *c;
            self.clocks_at = at;
        };
        match event {
            Event::Moved { mv, clocks: c } => {
                clocks(c);
                if let Some(p) = mv.point {
                    let on = match mv.board {
                        0 => &mut self.board,
                        _ => self.second.as_mut().expect("checked: the board exists"),
                    };
                    on.place(p, mv.color).expect("checked: free point");
                    // A single offer stands as move 5 at once.
                    if self.pending_fifths.is_some_and(|o| o.contains(p)) {
                        self.pending_fifths = None;
                    }
                }
                self.moves.push(*mv);
            }
            Event::SwapDecided {
                swapped,
                black,
                clocks: c,
                ..
            } => {
                clocks(c);
                self.swapped = Some(*swapped);
                self.black = *black;
            }
            Event::OpeningFormed {
                code,
                name,
                chinese,
            } => {
                self.opening.canonical = Some(code.clone());
                self.opening.canonical_name = Some(name.clone());
                self.opening.canonical_chinese = Some(chinese.clone());
            }
            Event::OffersDeclared {
                count, clocks: c, ..
            } => {
                clocks(c);
                self.opening.declared_offers = Some(*count);
            }
            Event::FifthsOffered {
                points, clocks: c, ..
            } => {
                clocks(c);
                self.opening.fifth_offers = Some(*points);
                self.pending_fifths = Some(*points);
            }
            // The kept offer arrives as move 5 in the `Moved` that follows.
            Event::FifthKept { .. } => self.pending_fifths = None,
            Event::OptionChosen {
                option, clocks: c, ..
            } => {
                clocks(c);
                self.opening.option = Some(*option);
            }
            Event::DrawOffered { seat, offers } => {
                self.draw_offer = Some(*seat);
                self.offers[seat.index()] = *offers;
            }
            // An accepted offer is answered too; the `GameOver` follows.
            Event::DrawDeclined { .. }
            | Event::DrawOfferLapsed { .. }
            | Event::DrawAccepted { .. } => self.draw_offer = None,
            // The `GameOver` that follows carries the result.
            Event::ClaimUpheld { .. } => {}
            Event::Violation { seat, count, .. } => self.violations[seat.index()] = *count,
            Event::TurnEnded { clocks: c, .. } => clocks(c),
            Event::TakebackRequested { seat } => self.takeback = Some(*seat),
            Event::TakebackDeclined { .. } => self.takeback = None,
            Event::TakenBack {
                undone, clocks: c, ..
            } => {
                clocks(c);
                self.takeback = None;
                self.draw_offer = None;
                for mv in undone.iter().rev() {
                    if let Some(p) = mv.point {
                        let on = match mv.board {
                            0 => Some(&mut self.board),
                            _ => self.second.as_mut(),
                        };
                        on.map(|b| b.remove(p));
                    }
                }
                let keep = self.moves.len() - undone.len();
                self.moves.truncate(keep);
            }
            Event::GameOver {
                result,
                clocks: c,
                forbidden,
            } => {
                clocks(c);
                self.result = Some(result.clone());
                self.forbidden = forbidden.clone();
                self.draw_offer = None;
                self.takeback = None;
            }
            // An event of a later version: its content is unknown here, but
            // its `seq` and prompt still count (`apply` records them).
            _ => {}
        }
    }

    // ---- reading -----------------------------------------------------------

    pub fn table(&self) -> &TableId {
        &self.table
    }

    pub fn room(&self) -> &RoomId {
        &self.room
    }

    /// Your seat, or `None` when you watch.
    pub fn seat(&self) -> Option<Seat> {
        self.seat
    }

    pub fn is_spectator(&self) -> bool {
        self.seat.is_none()
    }

    pub fn players(&self) -> &Players {
        &self.players
    }

    pub fn spectators(&self) -> u32 {
        self.spectators
    }

    /// The `seq` of the last event included (0: none yet).
    pub fn seq(&self) -> u64 {
        self.seq
    }

    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// The seat that started as black.
    pub fn opener(&self) -> Seat {
        self.opener
    }

    /// The seat holding black now.
    pub fn black(&self) -> Seat {
        self.black
    }

    /// The seat holding `color` now.
    pub fn seat_of(&self, color: Color) -> Seat {
        match color {
            Color::Black => self.black,
            Color::White => self.black.other(),
        }
    }

    /// Whether the latest swap option was taken (`None` before one was
    /// decided, or without one).
    pub fn swapped(&self) -> Option<bool> {
        self.swapped
    }

    /// The stones on the board: every move's stone, fifth-move offers not
    /// included until one stands as move 5.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Board `index`: 0 is [`TableView::board`], 1 a twin room's second
    /// board; `None` for a board the room does not have.
    pub fn board_at(&self, index: u8) -> Option<&Board> {
        match index {
            0 => Some(&self.board),
            1 => self.second.as_ref(),
            _ => None,
        }
    }

    /// Every move so far (stones and passes), in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn last_move(&self) -> Option<&Move> {
        self.moves.last()
    }

    /// Black's fifth-move offers while white has yet to keep one (shown
    /// beside the board, not on it).
    pub fn pending_fifths(&self) -> Option<&[Point]> {
        self.pending_fifths.as_ref().map(OfferSet::as_slice)
    }

    /// The opening rule's decisions so far (canonical opening, declared
    /// number of offers, the offers made, Taraguchi's option).
    pub fn opening(&self) -> &OpeningProgress {
        &self.opening
    }

    /// What the referee waits for (`None` once the game is over).
    pub fn prompt(&self) -> Option<&Prompt> {
        self.prompt.as_ref()
    }

    /// Whether the prompt is addressed to your seat.
    pub fn my_turn(&self) -> bool {
        self.seat
            .is_some_and(|s| self.prompt.as_ref().is_some_and(|p| p.seat == s))
    }

    /// Both clocks exactly as the server last sent them (`None` untimed).
    pub fn clocks(&self) -> Option<&ClockSnapshot> {
        self.clocks.as_ref()
    }

    /// When the message carrying [`TableView::clocks`] arrived.
    pub fn clocks_received_at(&self) -> Instant {
        self.clocks_at
    }

    /// Both clocks as of `now`: the running seat's counted down by the time
    /// since the last figures arrived (at zero once run out), the other
    /// as sent. For display only: a flag is the server's to call, and
    /// arrives as `game_over`.
    pub fn clock_now(&self, now: Instant) -> Option<ClockSnapshot> {
        let c = self.clocks?;
        if self.paused.is_some() {
            return Some(c);
        }
        let elapsed = now.saturating_duration_since(self.clocks_at).as_millis();
        let elapsed = Millis::try_from(elapsed).unwrap_or(Millis::MAX);
        Some(c.advanced(self.config.time, elapsed))
    }

    /// Why the table's clocks stand still (`None` while they run).
    pub fn paused(&self) -> Option<PauseReason> {
        self.paused
    }

    /// The seat whose draw offer awaits an answer.
    pub fn draw_offer(&self) -> Option<Seat> {
        self.draw_offer
    }

    /// Draw offers `seat` has made so far.
    pub fn offers(&self, seat: Seat) -> u32 {
        self.offers[seat.index()]
    }

    /// The seat whose takeback request awaits an answer.
    pub fn takeback(&self) -> Option<Seat> {
        self.takeback
    }

    /// Violations (false claims) of `seat` so far.
    pub fn violations(&self, seat: Seat) -> u32 {
        self.violations[seat.index()]
    }

    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// In `claim` rooms, once the game is over: every black stone that was
    /// forbidden when played (empty before the end).
    pub fn forbidden(&self) -> &[ForbiddenStone] {
        &self.forbidden
    }

    /// The last event applied (`None` right after a snapshot), for a UI to
    /// say what just happened.
    pub fn last_event(&self) -> Option<&Event> {
        self.last_event.as_ref()
    }

    /// The state in the referee's own form, clocks as last sent.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            config: self.config.clone(),
            opener: self.opener,
            black: self.black,
            moves: self.moves.clone(),
            swapped: self.swapped,
            prompt: self.prompt.clone(),
            clocks: self.clocks,
            draw_offer: self.draw_offer,
            offers: self.offers,
            violations: self.violations,
            result: self.result.clone(),
            forbidden: self.forbidden.clone(),
            opening: self.opening.clone(),
            takeback: self.takeback,
        }
    }

    /// [`TableView::snapshot`] with the clocks as of `now`
    /// ([`TableView::clock_now`]).
    pub fn snapshot_at(&self, now: Instant) -> Snapshot {
        Snapshot {
            clocks: self.clock_now(now),
            ..self.snapshot()
        }
    }
}
