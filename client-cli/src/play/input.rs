//! Keys to actions: what a key press means, given what the referee waits
//! for.
//!
//! Why apart from the event loop: the meaning of Enter depends on the
//! prompt (place a stone, mark a fifth-move offer, keep one of black's
//! offers, confirm a number), and that mapping is the part of the board a
//! player can get wrong without noticing. Here it is a pure function of the
//! key, the [`TableView`] and the local UI state ([`Local`]), so every
//! prompt's keys are unit-tested without a terminal or a server.
//!
//! The client never decides whether an action is allowed: keys that make
//! sense at all send their action and the referee answers (a refusal shows
//! in the status line). Only what needs local state is handled here:
//! the cursor (and, in twin rooms, the board it is on: Tab or `b`
//! switches), offer points being marked, a number being typed, two stones
//! at once (Swap2, Super Sakata's option (c)), the second press that
//! confirms resigning or quitting, and which answer `a`/`x` give (the
//! opponent's draw offer, else its takeback request) and `d` (a draw offer,
//! or, while the opponent is away past its grace, calling a draw; `w`
//! then claims the win). A claim (`c`) names the black stone under the
//! cursor, else black's last stone.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use tengen_client::view::TableView;
use tengen_rules::game::{Action, ActionKind, OfferSet, TaraguchiOption, Task};
use tengen_rules::{Color, Point};

/// What the event loop should do after a key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Nothing to send (the local state may have changed: redraw).
    None,
    /// Send this action to the table.
    Send(Action),
    /// Say this in the status line.
    Say(String),
    /// Offer (or accept) a rematch of the finished game.
    Rematch,
    /// The opponent is away past its grace: claim the win, or (`draw`)
    /// call the game a draw.
    ClaimAbsence { draw: bool },
    /// Leave the board.
    Quit,
}

/// A key that must be pressed twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Confirm {
    Resign,
    Quit,
}

/// The board's local state: what the player is doing that the server does
/// not know yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Local {
    pub cursor: Point,
    /// The board the cursor is on: 0, or 1 in twin rooms.
    pub board: u8,
    /// Show move numbers instead of stones.
    pub numbers: bool,
    /// Fifth-move offers marked so far (`offer_fifths`).
    pub marked: Vec<Point>,
    /// A number being typed (`declare_offers`).
    pub digits: String,
    /// Placing two stones, white then black (Swap2's white 4 and black 5,
    /// Super Sakata's option (c)); the first once chosen.
    pub two: Option<Option<Point>>,
    /// A key waiting for its second press.
    pub confirm: Option<Confirm>,
    /// Whether the opponent is away past its grace and a claim is open
    /// (the event loop keeps it from the `player_status` pushes).
    pub absence_claim: bool,
}

impl Local {
    pub fn new(size: u8) -> Local {
        Local {
            cursor: Point::center(size),
            board: 0,
            numbers: false,
            marked: Vec::new(),
            digits: String::new(),
            two: None,
            confirm: None,
            absence_claim: false,
        }
    }

    /// Forgets half-made answers (a new prompt arrived, or Esc).
    pub fn clear(&mut self) {
        self.marked.clear();
        self.digits.clear();
        self.two = None;
        self.confirm = None;
    }

    /// Handles one key press.
    pub fn key(&mut self, key: KeyEvent, view: &TableView) -> Command {
        let confirm = self.confirm.take();
        if key.modifiers.contains(KeyModifiers::CONTROL) {
            return match key.code {
                KeyCode::Char('c') | KeyCode::Char('d') => Command::Quit,
                _ => Command::None,
            };
        }
        let size = view.board().size();
        let step = |c: &mut Point, dx: i32, dy: i32| {
            if let Some(p) = c.offset(dx, dy, size) {
                *c = p;
            }
            Command::None
        };
        match key.code {
            KeyCode::Left | KeyCode::Char('h') => step(&mut self.cursor, -1, 0),
            KeyCode::Right | KeyCode::Char('l') => step(&mut self.cursor, 1, 0),
            KeyCode::Up | KeyCode::Char('k') => step(&mut self.cursor, 0, 1),
            KeyCode::Down | KeyCode::Char('j') => step(&mut self.cursor, 0, -1),
            KeyCode::Char('m') => {
                self.numbers = !self.numbers;
                Command::None
            }
            KeyCode::Tab | KeyCode::Char('b') if view.config().rule_set.boards() == 2 => {
                self.board = 1 - self.board.min(1);
                Command::None
            }
            KeyCode::Esc => {
                self.clear();
                Command::None
            }
            KeyCode::Char('q') => {
                if view.is_over() || view.is_spectator() || confirm == Some(Confirm::Quit) {
                    Command::Quit
                } else {
                    self.confirm = Some(Confirm::Quit);
                    Command::Say(
                        "quit while the game runs? your clock keeps running: q again to quit"
                            .into(),
                    )
                }
            }
            KeyCode::Char('e') if view.is_spectator() => {
                Command::Say("only the players can ask for a rematch".into())
            }
            KeyCode::Char('e') if !view.is_over() => {
                Command::Say("a rematch can be asked for once the game is over".into())
            }
            KeyCode::Char('e') => Command::Rematch,
            _ if view.is_spectator() => Command::Say("you are watching this game".into()),
            _ if view.is_over() => Command::Say("the game is over: q quits".into()),
            KeyCode::Char('r') => {
                if confirm == Some(Confirm::Resign) {
                    Command::Send(Action::Resign)
                } else {
                    self.confirm = Some(Confirm::Resign);
                    Command::Say("resign? r again to resign".into())
                }
            }
            KeyCode::Char('p') if Self::may(view, ActionKind::EndTurn) => {
                Command::Send(Action::EndTurn)
            }
            KeyCode::Char('p') => Command::Send(Action::pass()),
            KeyCode::Char('w') if self.absence_claim => Command::ClaimAbsence { draw: false },
            KeyCode::Char('d') if self.absence_claim => Command::ClaimAbsence { draw: true },
            KeyCode::Char('w') => Command::Say("your opponent is not away past the grace".into()),
            KeyCode::Char('d') => Command::Send(Action::OfferDraw),
            KeyCode::Char('a') | KeyCode::Char('x') => Self::answer(key.code, view),
            KeyCode::Char('u') => Command::Send(Action::RequestTakeback),
            KeyCode::Char('c') => self.claim(view),
            KeyCode::Char('s') => Command::Send(Action::Swap),
            KeyCode::Char('n') => Command::Send(Action::Keep),
            KeyCode::Enter | KeyCode::Char(' ') => self.enter(view),
            KeyCode::Char('f') => self.send_offers(view),
            KeyCode::Char('t') => self.toggle_two(view),
            KeyCode::Backspace => {
                self.digits.pop();
                Command::None
            }
            KeyCode::Char(d @ '0'..='9') => self.digit(d, view),
            _ => Command::None,
        }
    }

    /// Whether the prompt lets our seat do `kind` now (as the seat asked,
    /// or as the other seat).
    fn may(view: &TableView, kind: ActionKind) -> bool {
        let (Some(p), Some(me)) = (view.prompt(), view.seat()) else {
            return false;
        };
        let listed = if p.seat == me { &p.may } else { &p.other_may };
        listed.contains(&kind)
    }

    /// `a` accepts and `x` declines what the opponent asks: its draw offer,
    /// else its takeback request.
    fn answer(key: KeyCode, view: &TableView) -> Command {
        let accept = key == KeyCode::Char('a');
        let takeback =
            view.draw_offer().is_none() && view.takeback().is_some_and(|s| Some(s) != view.seat());
        Command::Send(match (takeback, accept) {
            (true, true) => Action::AcceptTakeback,
            (true, false) => Action::DeclineTakeback,
            (false, true) => Action::AcceptDraw,
            (false, false) => Action::DeclineDraw,
        })
    }

    /// `c` claims a forbidden stone, naming it: the black stone under the
    /// cursor, else black's last stone.
    fn claim(&self, view: &TableView) -> Command {
        let board = view.board_at(self.board).unwrap_or(view.board());
        let point = if board.get(self.cursor) == Some(Color::Black) {
            Some(self.cursor)
        } else {
            view.moves()
                .iter()
                .rev()
                .find(|m| m.color == Color::Black && m.point.is_some())
                .and_then(|m| m.point)
        };
        match point {
            Some(p) => Command::Send(Action::claim(p)),
            None => Command::Say("no black stone to claim".into()),
        }
    }

    /// The task addressed to us, if the prompt is ours.
    fn my_task(view: &TableView) -> Option<&Task> {
        view.prompt().filter(|_| view.my_turn()).map(|p| &p.task)
    }

    /// Enter: what it means depends on the task.
    fn enter(&mut self, view: &TableView) -> Command {
        let Some(task) = Self::my_task(view) else {
            return Command::Say("not your turn".into());
        };
        let at = self.cursor;
        match task {
            Task::Place { .. } => Command::Send(Action::place_on(self.board, at)),
            Task::Swap2Choice if self.two.is_none() => Command::Send(Action::place(at)),
            Task::SuperSakataChoice { .. } if self.two.is_none() => {
                Command::Say("s swaps, n keeps, t places two stones".into())
            }
            Task::Swap2Choice | Task::SuperSakataChoice { .. } => match self.two {
                Some(Some(white)) => {
                    self.two = None;
                    Command::Send(Action::PlaceTwo { white, black: at })
                }
                _ => {
                    self.two = Some(Some(at));
                    Command::Say(format!("white at {at}: now choose the black stone"))
                }
            },
            Task::OfferFifths { count } => {
                let count = *count as usize;
                if let Some(i) = self.marked.iter().position(|&p| p == at) {
                    self.marked.remove(i);
                    Command::None
                } else if self.marked.len() >= count {
                    Command::Say(format!(
                        "{count} offers marked: f sends them, Enter on a mark removes it"
                    ))
                } else if !view.board().is_empty_point(at) {
                    Command::Say(format!("{at} is occupied"))
                } else {
                    self.marked.push(at);
                    Command::None
                }
            }
            Task::KeepFifth { offers } => {
                if offers.contains(at) {
                    Command::Send(Action::KeepFifth { point: at })
                } else {
                    Command::Say(format!("move the cursor to one of the offers: {offers}"))
                }
            }
            Task::DeclareOffers { max } => match self.digits.parse::<u8>() {
                Ok(count) if (1..=*max).contains(&count) => {
                    self.digits.clear();
                    Command::Send(Action::DeclareOffers { count })
                }
                _ => {
                    self.digits.clear();
                    Command::Say(format!("type a number from 1 to {max}, then Enter"))
                }
            },
            Task::DecideSwap { .. } => Command::Say("s swaps, n keeps".into()),
            Task::ChooseOption { .. } => Command::Say("1: a single fifth, 2: offers".into()),
            _ => Command::Say("this client does not know this task: update tengen".into()),
        }
    }

    fn send_offers(&mut self, view: &TableView) -> Command {
        match Self::my_task(view) {
            Some(Task::OfferFifths { count }) if self.marked.len() == *count as usize => {
                match OfferSet::new(&self.marked) {
                    Ok(points) => {
                        self.marked.clear();
                        Command::Send(Action::OfferFifths { points })
                    }
                    Err(e) => Command::Say(format!("too many offers: {}", e.0)),
                }
            }
            Some(Task::OfferFifths { count }) => Command::Say(format!(
                "mark {count} points first ({} marked)",
                self.marked.len()
            )),
            _ => Command::Say("no fifth-move offers to make now".into()),
        }
    }

    fn toggle_two(&mut self, view: &TableView) -> Command {
        match Self::my_task(view) {
            Some(Task::Swap2Choice | Task::SuperSakataChoice { .. }) => {
                self.two = match self.two {
                    None => Some(None),
                    Some(_) => None,
                };
                Command::None
            }
            _ => Command::Say("two stones only at Swap2's or Super Sakata's choice".into()),
        }
    }

    fn digit(&mut self, d: char, view: &TableView) -> Command {
        match Self::my_task(view) {
            Some(Task::DeclareOffers { .. }) => {
                if self.digits.len() < 2 {
                    self.digits.push(d);
                }
                Command::None
            }
            Some(Task::ChooseOption { .. }) if d == '1' || d == '2' => {
                Command::Send(Action::ChooseOption {
                    option: if d == '1' {
                        TaraguchiOption::Single
                    } else {
                        TaraguchiOption::Offers
                    },
                })
            }
            _ => Command::None,
        }
    }
}

#[cfg(test)]
#[path = "input_tests.rs"]
mod tests;
