//! The input handlers of the opening rules' own actions: declaring the
//! number of fifth-move offers, offering fifths, keeping one, Taraguchi's
//! option and two stones at once (Swap2, Super Sakata) (docs/rules.md §6).
//!
//! As in `handlers`, every check that could refuse an input comes first and
//! changes nothing; then the decision is recorded in the opening facts, and
//! [`super::openings::step`] works out what comes next. Stones and swaps
//! share the ordinary handlers (`place`, `decide_swap`), which consult the
//! same steps.

use super::Game;
use super::openings::{OpeningProgress, Step, color_of_move, step};
use crate::game::action::{Seat, Task};
use crate::game::config::{ForbiddenHandling, Millis};
use crate::game::error::GameError;
use crate::game::event::{Event, Move};
use crate::game::opening_rule::{OfferSet, TaraguchiOption};
use crate::opening::CentralSquare;
use crate::opening::{OfferError, check_offers, recognize_52};
use crate::point::{Color, Point};

impl Game {
    /// After black 3 in a renju opening rule: names the opening the three
    /// stones form, one of the 26 or (black 3 in the 7x7, the Yamaguchi
    /// forms with 52) of their extensions; with the zones of these rules
    /// they always form one.
    pub(super) fn note_opening_formed(&mut self, events: &mut Vec<Event>) {
        let renju_rule = self.config.opening.is_renju_only();
        if !renju_rule || self.moves.len() != 3 {
            return;
        }
        let [b1, w2, b3] = [0, 1, 2].map(|i| self.moves[i].point);
        let (Some(b1), Some(w2), Some(b3)) = (b1, w2, b3) else {
            return;
        };
        if let Some(o) = recognize_52(b1, w2, b3) {
            self.facts.canonical = Some(o);
            events.push(Event::OpeningFormed {
                code: o.code.to_string(),
                name: o.romanized.to_string(),
                chinese: o.chinese.to_string(),
            });
        }
    }

    pub(super) fn declare_offers(
        &mut self,
        seat: Seat,
        count: u8,
        now: Millis,
        credit: Millis,
    ) -> Result<Vec<Event>, GameError> {
        let max = match self.check_task(seat)? {
            Task::DeclareOffers { max } => max,
            task => return Err(GameError::WrongAction { task }),
        };
        if count == 0 || count > max {
            return Err(GameError::OfferCountOutOfRange { count, max });
        }
        let mut events = self.begin(Some(seat), now);
        self.facts.declared = Some(count);
        self.end_turn(seat, now, credit);
        events.push(Event::OffersDeclared {
            seat,
            count,
            clocks: self.clocks.snapshot(now),
        });
        Ok(events)
    }

    /// Black's fifth-move offers: the right number, on the board, on empty
    /// points, no point twice, no two equivalent, and (in `block` rooms)
    /// none forbidden. They are one move; with a single offer there is
    /// nothing to choose and it stands as black 5 at once.
    pub(super) fn offer_fifths(
        &mut self,
        seat: Seat,
        points: OfferSet,
        now: Millis,
        credit: Millis,
    ) -> Result<Vec<Event>, GameError> {
        let count = match self.check_task(seat)? {
            Task::OfferFifths { count } => count,
            task => return Err(GameError::WrongAction { task }),
        };
        if points.len() != count as usize {
            return Err(GameError::WrongOfferCount {
                expected: count,
                got: points.len() as u8,
            });
        }
        let size = self.board.size();
        if let Some(&point) = points.as_slice().iter().find(|p| !p.on_board(size)) {
            return Err(GameError::OffBoard { point });
        }
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for (p, c) in self.board.stones() {
            match c {
                Color::Black => black.push(p),
                Color::White => white.push(p),
            }
        }
        check_offers(&black, &white, points.as_slice()).map_err(|e| match e {
            OfferError::Occupied(point) => GameError::Occupied { point },
            OfferError::Repeated(point) => GameError::RepeatedOffer { point },
            OfferError::Equivalent(first, second) => GameError::EquivalentOffers { first, second },
        })?;
        if self.handling == Some(ForbiddenHandling::Block) {
            for &point in points.as_slice() {
                if let Some(kind) = self.board.forbidden(point) {
                    return Err(GameError::ForbiddenPoint { point, kind });
                }
            }
        }

        let mut events = self.begin(Some(seat), now);
        self.decline_by_move(seat, &mut events);
        self.facts.offers = Some(points);
        let at = events.len();
        let ended = if count == 1 {
            self.put_fifth(seat, seat, points.as_slice()[0], now, credit, &mut events)
        } else {
            self.end_turn(seat, now, credit);
            false
        };
        let offered = Event::FifthsOffered {
            seat,
            points,
            clocks: self.clocks.snapshot(now),
        };
        events.insert(at, offered);
        if !ended {
            self.after_move(seat, false, now, &mut events);
        }
        Ok(events)
    }

    /// White keeps the offer at `point` as black 5 and goes on to play 6.
    pub(super) fn keep_fifth(
        &mut self,
        seat: Seat,
        point: Point,
        now: Millis,
        credit: Millis,
    ) -> Result<Vec<Event>, GameError> {
        let offers = match self.check_task(seat)? {
            Task::KeepFifth { offers } => offers,
            task => return Err(GameError::WrongAction { task }),
        };
        if !offers.contains(point) {
            return Err(GameError::NotAnOffer { point });
        }
        let mut events = self.begin(Some(seat), now);
        events.push(Event::FifthKept {
            seat,
            kept: point,
            removed: offers
                .as_slice()
                .iter()
                .copied()
                .filter(|&p| p != point)
                .collect(),
        });
        let offerer = self.seat_of(Color::Black);
        self.put_fifth(seat, offerer, point, now, credit, &mut events);
        Ok(events)
    }

    /// Puts the chosen fifth on the board as black's move 5, offered by
    /// `offerer`, in `mover`'s turn, and ends the turn if the other seat
    /// plays next (a single offer: black's turn ends; a kept one: white
    /// plays on). Returns whether the game ended (only a forbidden fifth in
    /// a `lose` room could end it; `block` rooms refused it as an offer).
    fn put_fifth(
        &mut self,
        mover: Seat,
        offerer: Seat,
        point: Point,
        now: Millis,
        credit: Millis,
        events: &mut Vec<Event>,
    ) -> bool {
        let forbidden = self.handling.and_then(|_| self.board.forbidden(point));
        self.board
            .place(point, Color::Black)
            .expect("offers were checked: on board and empty");
        events.push(self.push_move_as(mover, offerer, Color::Black, point, now, credit));
        self.notes.claimable = None;
        self.settle_stone(Color::Black, point, forbidden, now, events)
    }

    /// [`Game::push_move`] for a stone that `owner` put down while `mover`
    /// acts (a kept fifth): the move is `owner`'s, the turn `mover`'s.
    fn push_move_as(
        &mut self,
        mover: Seat,
        owner: Seat,
        color: Color,
        point: Point,
        now: Millis,
        credit: Millis,
    ) -> Event {
        let mv = Move {
            number: self.moves.len() as u32 + 1,
            seat: owner,
            color,
            point: Some(point),
            board: 0,
        };
        self.moves.push(mv);
        self.end_turn(mover, now, credit);
        Event::Moved {
            mv,
            clocks: self.clocks.snapshot(now),
        }
    }

    pub(super) fn choose_option(
        &mut self,
        seat: Seat,
        option: TaraguchiOption,
        now: Millis,
        credit: Millis,
    ) -> Result<Vec<Event>, GameError> {
        match self.check_task(seat)? {
            Task::ChooseOption { .. } => {}
            task => return Err(GameError::WrongAction { task }),
        }
        let mut events = self.begin(Some(seat), now);
        self.facts.option = Some(option);
        self.end_turn(seat, now, credit);
        events.push(Event::OptionChosen {
            seat,
            option,
            clocks: self.clocks.snapshot(now),
        });
        Ok(events)
    }

    /// Two stones at once, white then black: Swap2's white 4 and black 5
    /// (the opener then chooses the colour), or Super Sakata's option (c)
    /// (the other seat then chooses).
    pub(super) fn place_two(
        &mut self,
        seat: Seat,
        white: Point,
        black: Point,
        now: Millis,
        credit: Millis,
    ) -> Result<Vec<Event>, GameError> {
        let sakata = match self.check_task(seat)? {
            Task::Swap2Choice => false,
            Task::SuperSakataChoice { .. } => true,
            task => return Err(GameError::WrongAction { task }),
        };
        let size = self.board.size();
        for point in [white, black] {
            if !point.on_board(size) {
                return Err(GameError::OffBoard { point });
            }
            if self.board.get(point).is_some() {
                return Err(GameError::Occupied { point });
            }
        }
        if white == black {
            return Err(GameError::Occupied { point: black });
        }
        if sakata {
            self.check_sakata_pair(white, black)?;
        }

        let mut events = self.begin(Some(seat), now);
        self.decline_by_move(seat, &mut events);
        self.facts.placed_two = true;
        for (point, color) in [(white, Color::White), (black, Color::Black)] {
            self.board
                .place(point, color)
                .expect("checked: on board and empty");
            self.moves.push(Move {
                number: self.moves.len() as u32 + 1,
                seat,
                color,
                point: Some(point),
                board: 0,
            });
        }
        self.end_turn(seat, now, credit);
        let clocks = self.clocks.snapshot(now);
        let n = self.moves.len();
        for mv in &self.moves[n - 2..] {
            events.push(Event::Moved { mv: *mv, clocks });
        }
        // Swap2: five stones, three of them black, no forbidden moves: no
        // five is possible yet. Super Sakata: a five and a forbidden black
        // stone were refused above. The board cannot be full either.
        for (point, color) in [(white, Color::White), (black, Color::Black)] {
            if self.settle_stone(color, point, None, now, &mut events) {
                return Ok(events);
            }
        }
        self.after_move(seat, false, now, &mut events);
        Ok(events)
    }

    /// Super Sakata's option (c) (docs/rules.md §6): neither stone may
    /// make a five (nobody holds a colour for good yet, so a five could
    /// not say who won), and under renju the black stone, judged with the
    /// white one already down, may not be on a forbidden point in any
    /// room (the seat placing it need not end up holding black, so no
    /// claim or loss could fall on the right player).
    fn check_sakata_pair(&self, white: Point, black: Point) -> Result<(), GameError> {
        if self.board.makes_five(white, Color::White, self.variant) {
            return Err(GameError::OpeningFive { point: white });
        }
        let mut with = self.board.clone();
        with.place(white, Color::White)
            .expect("checked: on board and empty");
        if with.makes_five(black, Color::Black, self.variant) {
            return Err(GameError::OpeningFive { point: black });
        }
        if self.handling.is_some()
            && let Some(kind) = with.forbidden(black)
        {
            return Err(GameError::ForbiddenPoint { point: black, kind });
        }
        Ok(())
    }
}

impl Game {
    /// The opening step the machine waits for, if the opening is on.
    pub(super) fn opening_step(&self) -> Option<Step> {
        step(self.config.opening, &self.facts, self.moves.len())
    }

    /// The seat and prompt task of an opening step.
    pub(super) fn step_task(&self, step: Step) -> (Seat, Task) {
        let n = self.moves.len();
        match step {
            Step::Stone { by, zone } => (
                self.seat_of(by),
                Task::Place {
                    color: color_of_move(n + 1),
                    move_number: n as u32 + 1,
                    within: zone.map(CentralSquare::side),
                },
            ),
            Step::Swap { decider } => (self.seat_of(decider), Task::DecideSwap { color: decider }),
            Step::Declare { by, max } => (self.seat_of(by), Task::DeclareOffers { max }),
            Step::Offers { count } => (self.seat_of(Color::Black), Task::OfferFifths { count }),
            Step::KeepFifth(offers) => (self.seat_of(Color::White), Task::KeepFifth { offers }),
            Step::TaraguchiChoice { offers } => {
                (self.seat_of(Color::Black), Task::ChooseOption { offers })
            }
            Step::Swap2Choice => (self.seat_of(Color::White), Task::Swap2Choice),
            Step::SuperSakataChoice { chooser } => (
                self.seat_of(chooser),
                Task::SuperSakataChoice { color: chooser },
            ),
        }
    }

    /// Where the opening stands.
    pub fn opening_progress(&self) -> OpeningProgress {
        OpeningProgress {
            canonical: self.facts.canonical.map(|o| o.code.to_string()),
            canonical_name: self.facts.canonical.map(|o| o.romanized.to_string()),
            canonical_chinese: self.facts.canonical.map(|o| o.chinese.to_string()),
            declared_offers: self.facts.declared,
            fifth_offers: self.facts.offers,
            option: self.facts.option,
        }
    }

    /// Whether the opening rule still has a step to go (no pass then).
    pub fn in_opening(&self) -> bool {
        !self.is_over() && self.opening_step().is_some()
    }
}
