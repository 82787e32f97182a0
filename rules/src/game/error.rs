//! Why the machine refused an input.
//!
//! Every refusal is one of these and leaves the game exactly as it was, so
//! the server can send the error to the player and carry on. The variants
//! are part of the wire protocol (serialized with a snake_case `code`).

use serde::{Deserialize, Serialize};

use super::action::{Seat, Task};
use super::config::Millis;
use crate::forbidden::Forbidden;
use crate::point::Point;

#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "code", rename_all = "snake_case")]
#[non_exhaustive]
pub enum GameError {
    #[error("the game is over")]
    GameOver,
    #[error("{seat} seat's time ran out")]
    TimeUp { seat: Seat },
    #[error("time went backwards: {now} ms is before the last input at {last} ms")]
    TimeWentBackwards { now: Millis, last: Millis },
    #[error("it is not your turn to do that")]
    NotYourTurn,
    #[error("{point} is off the board")]
    OffBoard { point: Point },
    #[error("{point} is occupied")]
    Occupied { point: Point },
    #[error("this stone must be placed within the central {within}x{within} square")]
    OutsideZone { within: u8 },
    #[error("{point} is forbidden for black ({kind})")]
    ForbiddenPoint { point: Point, kind: Forbidden },
    #[error("no pass before five stones stand on the board")]
    PassNotAllowed,
    #[error("decide first whether to swap or keep your colour")]
    SwapDecisionPending,
    #[error("there is no swap to decide")]
    NoSwapDecision,
    #[error("a draw may only be offered with your move, before the opponent acts")]
    OfferNotAllowed,
    #[error("you already have a draw offer pending")]
    OfferPending,
    #[error("you may not have made more than two draw offers more than your opponent")]
    OfferLimit,
    #[error("no more draw offers: this room allows {max} per player")]
    OfferCap { max: u32 },
    #[error("there is no draw offer to answer")]
    NoDrawOffer,
    #[error("forbidden-move claims are off in this room")]
    ClaimsDisabled,
    #[error("only white may claim a forbidden move")]
    ClaimByBlack,
    #[error("the game can no longer be aborted: both players have acted")]
    AbortNotAllowed,
    #[error("that is not what the game waits for now: {}", task.name())]
    WrongAction { task: Task },
    #[error("no pass during the opening")]
    PassDuringOpening,
    #[error("declare between 1 and {max} fifth-move offers, not {count}")]
    OfferCountOutOfRange { count: u8, max: u8 },
    #[error("{expected} fifth-move offers are due, not {got}")]
    WrongOfferCount { expected: u8, got: u8 },
    #[error("{point} is offered twice")]
    RepeatedOffer { point: Point },
    #[error("{first} and {second} are the same offer: the positions they make are symmetric")]
    EquivalentOffers { first: Point, second: Point },
    #[error("{point} is not one of black's offers")]
    NotAnOffer { point: Point },
    #[error("{point} would make a five before the colours are settled")]
    OpeningFive { point: Point },
    #[error("there is no board {board} here (boards are numbered from 0; {boards} in this room)")]
    NoSuchBoard { board: u8, boards: u8 },
    #[error("no pass in twin rooms: a turn is one stone or two (end_turn after the first)")]
    NoPassInTwin,
    #[error("{point} is not a black stone: a claim names black's forbidden stone")]
    ClaimNotBlackStone { point: Point },
    #[error(
        "no claim is possible now: black's last stone cannot be forbidden and no black overline stands"
    )]
    ClaimNotPossible,
    #[error("a turn ends after its first stone only (twin rooms)")]
    TurnCannotEnd,
    #[error("takebacks are off in this game (rated and tournament games have none)")]
    TakebacksOff,
    #[error("you have no move to take back")]
    NothingToTakeBack,
    #[error("a takeback request is pending")]
    TakebackPending,
    #[error("your takeback request was declined: ask again after the next move")]
    TakebackDeclinedAlready,
    #[error("there is no takeback request to answer")]
    NoTakebackRequest,
}
