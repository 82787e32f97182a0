//! What players can do and what the machine asks of them: seats, actions
//! and prompts.
//!
//! These are the machine's input vocabulary and part of the wire protocol
//! (the server forwards them as they are), so they live apart from the
//! machine and change only by adding variants.

use serde::{Deserialize, Serialize};

use super::opening_rule::{OfferSet, TaraguchiOption};
use crate::point::{Color, Point};

/// A player's place at the table. Colours belong to seats only for a while:
/// they are assigned at the start (the *opener* starts as black) and change
/// hands when a swap is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    First,
    Second,
}

impl Seat {
    pub const BOTH: [Seat; 2] = [Seat::First, Seat::Second];

    /// The other seat.
    pub fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }

    /// 0 for the first seat, 1 for the second (for per-seat arrays).
    pub fn index(self) -> usize {
        self as usize
    }
}

impl std::fmt::Display for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Seat::First => "first",
            Seat::Second => "second",
        })
    }
}

/// Something a seat asks the machine to do (docs/rules.md §3–§5). Unknown
/// fields are rejected on input, for every action (read through
/// [`WireAction`]); `offer_draw` may be left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(
    tag = "type",
    rename_all = "snake_case",
    deny_unknown_fields,
    from = "WireAction"
)]
#[non_exhaustive]
pub enum Action {
    /// Place a stone of the colour to move; `offer_draw` offers a draw with
    /// the move. `board` is the board's index, 0 or 1 in twin rooms (two
    /// boards, docs/rules.md §9); it is 0, and left out on the wire,
    /// everywhere else.
    Place {
        point: Point,
        #[serde(default, skip_serializing_if = "is_zero")]
        board: u8,
        #[serde(default, skip_serializing_if = "is_false")]
        offer_draw: bool,
    },
    /// Pass instead of placing (not before five stones stand); counts as a
    /// move.
    Pass {
        #[serde(default, skip_serializing_if = "is_false")]
        offer_draw: bool,
    },
    /// Take the other colour when a swap is offered (counts as a move).
    Swap,
    /// Keep one's colour when a swap is offered.
    Keep,
    /// Declare how many fifth-move offers black will make (Yamaguchi's
    /// opener, Soosõrv's and Jonsson's white).
    DeclareOffers {
        count: u8,
    },
    /// Black's fifth-move offers, all at once (they count as one move).
    OfferFifths {
        points: OfferSet,
    },
    /// White keeps the offer at `point` as black 5; the others are removed.
    KeepFifth {
        point: Point,
    },
    /// Taraguchi's choice after move 4.
    ChooseOption {
        option: TaraguchiOption,
    },
    /// Swap2: the second player places white 4 and black 5 at once (the
    /// opener then chooses the colour); Super Sakata's option (c): the
    /// chooser places a white and a black stone (the other seat then
    /// chooses).
    PlaceTwo {
        white: Point,
        black: Point,
    },
    /// Offer a draw right after one's own move, before the opponent acts.
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    /// White claims that black's stone at `point` is forbidden (claim
    /// rooms only, docs/rules.md §3): black's last stone while white has
    /// not moved since, or any black stone that made an overline. A claim
    /// names its point; `point` is absent only in records from before
    /// claims named it, read as "the stone the referee finds" (black's
    /// last, else any overline).
    ClaimForbidden {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        point: Option<Point>,
    },
    /// Twin rooms (docs/rules.md §9): end the turn after its first stone
    /// (a turn is one stone or two, the player's choice). Counts as the
    /// move that presses the clock.
    EndTurn,
    /// Ask the opponent to take back one's last move (rooms that allow
    /// takebacks: casual ones); the opponent's later moves, if any, go too.
    RequestTakeback,
    /// Agree to the opponent's takeback request: the moves go.
    AcceptTakeback,
    /// Refuse the opponent's takeback request.
    DeclineTakeback,
    Resign,
    /// Cancel the game, unrated (while at least one seat has not acted).
    Abort,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Board 0, the only board outside twin rooms, is left out on the wire.
pub(crate) fn is_zero(b: &u8) -> bool {
    *b == 0
}

/// [`Action`] as it is read. serde ignores `deny_unknown_fields` for the
/// unit variants of an internally tagged enum, so `{"type":"resign",
/// "seat":"first"}` would be read as a plain resignation; here every
/// variant has braces, and any field it does not have is refused.
#[derive(Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum WireAction {
    Place {
        point: Point,
        #[serde(default)]
        board: u8,
        #[serde(default)]
        offer_draw: bool,
    },
    Pass {
        #[serde(default)]
        offer_draw: bool,
    },
    Swap {},
    Keep {},
    DeclareOffers {
        count: u8,
    },
    OfferFifths {
        points: OfferSet,
    },
    KeepFifth {
        point: Point,
    },
    ChooseOption {
        option: TaraguchiOption,
    },
    PlaceTwo {
        white: Point,
        black: Point,
    },
    OfferDraw {},
    AcceptDraw {},
    DeclineDraw {},
    ClaimForbidden {
        #[serde(default)]
        point: Option<Point>,
    },
    EndTurn {},
    RequestTakeback {},
    AcceptTakeback {},
    DeclineTakeback {},
    Resign {},
    Abort {},
}

impl From<WireAction> for Action {
    fn from(w: WireAction) -> Action {
        match w {
            WireAction::Place {
                point,
                board,
                offer_draw,
            } => Action::Place {
                point,
                board,
                offer_draw,
            },
            WireAction::Pass { offer_draw } => Action::Pass { offer_draw },
            WireAction::Swap {} => Action::Swap,
            WireAction::Keep {} => Action::Keep,
            WireAction::DeclareOffers { count } => Action::DeclareOffers { count },
            WireAction::OfferFifths { points } => Action::OfferFifths { points },
            WireAction::KeepFifth { point } => Action::KeepFifth { point },
            WireAction::ChooseOption { option } => Action::ChooseOption { option },
            WireAction::PlaceTwo { white, black } => Action::PlaceTwo { white, black },
            WireAction::OfferDraw {} => Action::OfferDraw,
            WireAction::AcceptDraw {} => Action::AcceptDraw,
            WireAction::DeclineDraw {} => Action::DeclineDraw,
            WireAction::ClaimForbidden { point } => Action::ClaimForbidden { point },
            WireAction::EndTurn {} => Action::EndTurn,
            WireAction::RequestTakeback {} => Action::RequestTakeback,
            WireAction::AcceptTakeback {} => Action::AcceptTakeback,
            WireAction::DeclineTakeback {} => Action::DeclineTakeback,
            WireAction::Resign {} => Action::Resign,
            WireAction::Abort {} => Action::Abort,
        }
    }
}

/// The kind of an [`Action`], without its data: what a prompt lists as
/// allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ActionKind {
    Place,
    Pass,
    Swap,
    Keep,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    ClaimForbidden,
    Resign,
    Abort,
    DeclareOffers,
    OfferFifths,
    KeepFifth,
    ChooseOption,
    PlaceTwo,
    EndTurn,
    RequestTakeback,
    AcceptTakeback,
    DeclineTakeback,
}

impl Action {
    /// Whether this action can end its seat's turn and so press the clock
    /// (and be credited lag). Draw answers, claims, takeback requests and
    /// answers, resignations and aborts never do.
    pub fn may_press_clock(&self) -> bool {
        !matches!(
            self,
            Action::OfferDraw
                | Action::AcceptDraw
                | Action::DeclineDraw
                | Action::ClaimForbidden { .. }
                | Action::RequestTakeback
                | Action::AcceptTakeback
                | Action::DeclineTakeback
                | Action::Resign
                | Action::Abort
        )
    }

    pub fn kind(&self) -> ActionKind {
        match self {
            Action::Place { .. } => ActionKind::Place,
            Action::Pass { .. } => ActionKind::Pass,
            Action::Swap => ActionKind::Swap,
            Action::Keep => ActionKind::Keep,
            Action::OfferDraw => ActionKind::OfferDraw,
            Action::AcceptDraw => ActionKind::AcceptDraw,
            Action::DeclineDraw => ActionKind::DeclineDraw,
            Action::ClaimForbidden { .. } => ActionKind::ClaimForbidden,
            Action::EndTurn => ActionKind::EndTurn,
            Action::RequestTakeback => ActionKind::RequestTakeback,
            Action::AcceptTakeback => ActionKind::AcceptTakeback,
            Action::DeclineTakeback => ActionKind::DeclineTakeback,
            Action::Resign => ActionKind::Resign,
            Action::Abort => ActionKind::Abort,
            Action::DeclareOffers { .. } => ActionKind::DeclareOffers,
            Action::OfferFifths { .. } => ActionKind::OfferFifths,
            Action::KeepFifth { .. } => ActionKind::KeepFifth,
            Action::ChooseOption { .. } => ActionKind::ChooseOption,
            Action::PlaceTwo { .. } => ActionKind::PlaceTwo,
        }
    }

    /// A plain stone placement (on the only board, or board 0 of two).
    pub fn place(point: Point) -> Action {
        Action::place_on(0, point)
    }

    /// A plain stone placement on board `board` (0 or 1 in twin rooms).
    pub fn place_on(board: u8, point: Point) -> Action {
        Action::Place {
            point,
            board,
            offer_draw: false,
        }
    }

    /// A plain pass.
    pub fn pass() -> Action {
        Action::Pass { offer_draw: false }
    }

    /// A claim that black's stone at `point` is forbidden.
    pub fn claim(point: Point) -> Action {
        Action::ClaimForbidden { point: Some(point) }
    }
}

/// What the seat that must act is asked to do to move the game on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "task", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Task {
    /// Place one stone of `color` as move `move_number` (or pass, if the
    /// prompt allows it). `within`, when set, is the side of the square
    /// around the centre the stone must go in (1: the centre itself, as
    /// for renju's first move).
    Place {
        color: Color,
        move_number: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        within: Option<u8>,
    },
    /// Decide whether to take the other colour (swap) or keep one's own;
    /// `color` is the colour the deciding seat holds now.
    DecideSwap { color: Color },
    /// Declare how many fifth-move offers black will make, from 1 to `max`
    /// (Yamaguchi's opener after placing the opening, Soosõrv's white after
    /// placing 4).
    DeclareOffers { max: u8 },
    /// Place `count` black fifth-move offers at once, anywhere, no two of
    /// them equivalent ([`Action::OfferFifths`]); together they are move 5.
    OfferFifths { count: u8 },
    /// Keep one of black's `offers` as black 5 ([`Action::KeepFifth`]); the
    /// others are removed and the same seat then plays white 6.
    KeepFifth { offers: OfferSet },
    /// Taraguchi, after move 4: choose option `single` (a swap option, black
    /// 5 inside the 9x9 square, a swap option) or `offers` (`offers`
    /// fifth-move offers anywhere, white keeping one)
    /// ([`Action::ChooseOption`]).
    ChooseOption { offers: u8 },
    /// Swap2, after the opener's three stones: place white 4 and stay
    /// white ([`Action::Place`], or [`Action::Keep`] first), take black
    /// ([`Action::Swap`]: the opener then places white 4), or place white
    /// 4 and black 5 ([`Action::PlaceTwo`]: the opener then chooses the
    /// colour).
    Swap2Choice,
    /// Super Sakata, after black 5 and after each option (c): the seat that
    /// did not place the last two stones chooses. `color` is the colour it
    /// holds now; [`Action::Keep`] keeps it and [`Action::Swap`] takes the
    /// other, as for `decide_swap` (whoever then holds white plays the next
    /// stone: option (a) is taking white, option (b) taking black), or
    /// [`Action::PlaceTwo`] puts a white and then a black stone on any free
    /// points and hands the choice to the other seat (option (c)).
    SuperSakataChoice { color: Color },
}

impl Task {
    /// The task's name as on the wire (`place`, `decide_swap`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            Task::Place { .. } => "place",
            Task::DecideSwap { .. } => "decide_swap",
            Task::DeclareOffers { .. } => "declare_offers",
            Task::OfferFifths { .. } => "offer_fifths",
            Task::KeepFifth { .. } => "keep_fifth",
            Task::ChooseOption { .. } => "choose_option",
            Task::Swap2Choice => "swap2_choice",
            Task::SuperSakataChoice { .. } => "super_sakata_choice",
        }
    }
}

/// Which seat must act now and what it may do. The seat named here is the
/// one whose clock runs; `other_may` says what the other seat may do
/// meanwhile (resign, a draw offer after its move, a claim, a takeback
/// request or answer), as [`crate::game::Game::allowed`] gives it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Prompt {
    pub seat: Seat,
    #[serde(flatten)]
    pub task: Task,
    /// Every action kind this seat may attempt now.
    pub may: Vec<ActionKind>,
    /// Every action kind the other seat may attempt now. Judged on what
    /// both players see: in `claim` rooms `claim_forbidden` is listed once
    /// black's last stone could be forbidden (black has five stones or
    /// more and white has not moved since) or a black overline stands,
    /// whether or not the claim would hold.
    #[serde(default)]
    pub other_may: Vec<ActionKind>,
    /// In twin rooms (docs/rules.md §9), while a stone is due: how many
    /// stones the seat still places this turn, this one included (2 or 1).
    /// Left out everywhere else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stones_left: Option<u8>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_form_is_tagged_snake_case() {
        let a = Action::place("h8".parse().unwrap());
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            r#"{"type":"place","point":"H8"}"#
        );
        let b: Action =
            serde_json::from_str(r#"{"type":"place","point":"j10","offer_draw":true}"#).unwrap();
        assert_eq!(
            b,
            Action::Place {
                point: "J10".parse().unwrap(),
                board: 0,
                offer_draw: true
            }
        );
        let on_second = Action::place_on(1, "S19".parse().unwrap());
        let json = serde_json::to_string(&on_second).unwrap();
        assert_eq!(json, r#"{"type":"place","point":"S19","board":1}"#);
        assert_eq!(serde_json::from_str::<Action>(&json).unwrap(), on_second);
        assert_eq!(
            serde_json::from_str::<Action>(r#"{"type":"claim_forbidden"}"#).unwrap(),
            Action::ClaimForbidden { point: None }
        );
        let claim = Action::claim("I8".parse().unwrap());
        let json = serde_json::to_string(&claim).unwrap();
        assert_eq!(json, r#"{"type":"claim_forbidden","point":"I8"}"#);
        assert_eq!(serde_json::from_str::<Action>(&json).unwrap(), claim);
        assert!(serde_json::from_str::<Action>(r#"{"type":"place"}"#).is_err());
        assert!(serde_json::from_str::<Action>(r#"{"type":"undo"}"#).is_err());
        assert_eq!(serde_json::to_string(&Seat::Second).unwrap(), "\"second\"");
        assert_eq!(Seat::First.other(), Seat::Second);
        assert_eq!(Seat::Second.index(), 1);
    }

    #[test]
    fn every_action_refuses_a_field_it_does_not_have() {
        for (json, kind) in [
            (r#"{"type":"resign"}"#, ActionKind::Resign),
            (r#"{"type":"swap"}"#, ActionKind::Swap),
            (r#"{"type":"abort"}"#, ActionKind::Abort),
            (r#"{"type":"pass"}"#, ActionKind::Pass),
            (r#"{"type":"decline_draw"}"#, ActionKind::DeclineDraw),
        ] {
            assert_eq!(serde_json::from_str::<Action>(json).unwrap().kind(), kind);
        }
        for bad in [
            r#"{"type":"resign","seat":"first"}"#,
            r#"{"type":"offer_draw","x":true}"#,
            r#"{"type":"claim_forbidden","point":"H8","x":1}"#,
            r#"{"type":"end_turn","x":1}"#,
            r#"{"type":"request_takeback","x":1}"#,
            r#"{"type":"abort","reason":"bored"}"#,
            r#"{"type":"swap","x":1}"#,
            r#"{"type":"keep","x":null}"#,
            r#"{"type":"accept_draw","offer_draw":true}"#,
            r#"{"type":"pass","point":"H8"}"#,
            r#"{"type":"place","point":"H8","x":1}"#,
            r#"{"type":"declare_offers","count":2,"x":1}"#,
        ] {
            let err = serde_json::from_str::<Action>(bad).unwrap_err();
            assert!(err.to_string().contains("unknown field"), "{bad}: {err}");
        }
    }

    #[test]
    fn opening_actions_and_tasks_on_the_wire() {
        let offers = OfferSet::new(&["J10".parse().unwrap(), "G9".parse().unwrap()]).unwrap();
        let a = Action::OfferFifths { points: offers };
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            r#"{"type":"offer_fifths","points":["J10","G9"]}"#
        );
        let b: Action =
            serde_json::from_str(r#"{"type":"choose_option","option":"offers"}"#).unwrap();
        assert_eq!(
            b,
            Action::ChooseOption {
                option: TaraguchiOption::Offers
            }
        );
        let c: Action =
            serde_json::from_str(r#"{"type":"place_two","white":"h9","black":"j9"}"#).unwrap();
        assert_eq!(c.kind(), ActionKind::PlaceTwo);
        assert_eq!(
            serde_json::to_string(&Action::DeclareOffers { count: 3 }).unwrap(),
            r#"{"type":"declare_offers","count":3}"#
        );
        let t = Task::KeepFifth { offers };
        assert_eq!(
            serde_json::to_string(&t).unwrap(),
            r#"{"task":"keep_fifth","offers":["J10","G9"]}"#
        );
        assert_eq!(t.name(), "keep_fifth");
        assert_eq!(
            serde_json::to_string(&Task::Swap2Choice).unwrap(),
            r#"{"task":"swap2_choice"}"#
        );
    }
}
