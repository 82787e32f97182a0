//! The tournament's types: settings, entrants, rounds and boards, the
//! errors, and the `Tournament` value's fields with its read-only
//! accessors. The life-cycle rules that change it are in the parent.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::arena::{Arena, ArenaError};
use crate::matches::{Match, MatchError, MatchFormat};
use crate::model::{PlayerId, PointSystem, Points};
use crate::standings::{TieBreak, TieBreakError};
use crate::swiss::SwissError;

/// The pairing system.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum System {
    /// Swiss (Dutch system) over a fixed number of rounds.
    Swiss { rounds: u32 },
    /// Round robin by the Berger tables; `double` plays it twice with
    /// the seats swapped (the first cycle's last two rounds exchanged).
    RoundRobin { double: bool },
    /// Single elimination of matches in this format (its decider must
    /// not be `Decider::None`: a knockout match needs a winner).
    Knockout { format: MatchFormat },
    /// An arena of `secs` seconds (`crate::arena`): no rounds; players
    /// are paired as they become free.
    Arena { secs: u32 },
}

impl System {
    /// The tie-breaks an event of this system uses when its organiser
    /// names none: a Swiss's players have not all met, so Buchholz
    /// (strength of opposition) leads; in a round robin or knockout
    /// everyone's opposition is alike, so the results against it lead.
    pub fn default_tie_breaks(self) -> Vec<TieBreak> {
        match self {
            System::Swiss { .. } => vec![
                TieBreak::Buchholz,
                TieBreak::SonnebornBerger,
                TieBreak::Wins,
            ],
            // An arena ranks by its own order (`Arena::standings`).
            System::Arena { .. } => Vec::new(),
            System::RoundRobin { .. } | System::Knockout { .. } => vec![
                TieBreak::SonnebornBerger,
                TieBreak::DirectEncounter,
                TieBreak::Wins,
            ],
        }
    }
}

/// The settings of a tournament.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub system: System,
    pub points: PointSystem,
    /// The tie-breaks in the order they apply (checked by
    /// `standings::check_order` when the tournament is made).
    pub tie_breaks: Vec<TieBreak>,
}

impl Settings {
    /// Settings with the system's default tie-breaks, or the given order.
    pub fn new(system: System, points: PointSystem, tie_breaks: Option<Vec<TieBreak>>) -> Settings {
        Settings {
            system,
            points,
            tie_breaks: tie_breaks.unwrap_or_else(|| system.default_tie_breaks()),
        }
    }
}

/// A player on the entry list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    pub id: PlayerId,
    pub name: String,
    pub rating: i32,
    /// Set on withdrawal after the start: the number of rounds paired
    /// then. The player is in no later round.
    pub withdrawn_after: Option<usize>,
}

/// What is on a board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum BoardContent {
    Match(Match),
    /// The round's bye, worth `points` (a Swiss bye is worth the
    /// configured bye points; a round-robin rest or a knockout bye none).
    Bye {
        player: PlayerId,
        points: Points,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// 1-based.
    pub number: usize,
    pub content: BoardContent,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// 1-based.
    pub number: usize,
    pub boards: Vec<Board>,
}

impl Round {
    /// Whether every match of the round is over.
    pub fn complete(&self) -> bool {
        self.boards.iter().all(|b| match &b.content {
            BoardContent::Match(m) => m.is_over(),
            BoardContent::Bye { .. } => true,
        })
    }
}

/// One game of a tournament: round and board (1-based), game within the
/// board's match (0-based; always 0 in a Swiss or round robin).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameRef {
    pub round: usize,
    pub board: usize,
    pub game: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TournamentError {
    #[error("the tournament has already started")]
    AlreadyStarted,
    #[error("the tournament has not started")]
    NotStarted,
    #[error("{0} is already entered")]
    DuplicatePlayer(PlayerId),
    #[error("{0} is not entered")]
    UnknownPlayer(PlayerId),
    #[error("{0} has already withdrawn")]
    AlreadyWithdrawn(PlayerId),
    #[error("at least {min} players are needed, {got} entered")]
    TooFewPlayers { min: usize, got: usize },
    #[error("bad settings: {0}")]
    BadSettings(&'static str),
    #[error("round {0} is already paired")]
    AlreadyPaired(usize),
    #[error("round {got} cannot be paired: round {next} is next")]
    WrongRound { got: usize, next: usize },
    #[error("round {0} is not complete")]
    RoundIncomplete(usize),
    #[error(
        "{players} players cannot play {rounds} Swiss rounds: no two may meet twice, so {max} is the most"
    )]
    TooManyRounds {
        rounds: usize,
        players: usize,
        max: usize,
    },
    #[error("a pairing by hand must place every player still in the event once: {0}")]
    BadPairing(String),
    #[error("the tournament is over")]
    Finished,
    #[error("no game at round {}, board {}", .0.round, .0.board)]
    NoSuchGame(GameRef),
    #[error(transparent)]
    Match(#[from] MatchError),
    #[error(transparent)]
    Pairing(#[from] SwissError),
    #[error(transparent)]
    TieBreaks(#[from] TieBreakError),
    #[error(transparent)]
    Arena(#[from] ArenaError),
}

/// A tournament's whole state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    pub(super) settings: Settings,
    /// In seeding order once started (rating down, then id).
    pub(super) entrants: Vec<Entrant>,
    /// Pairing numbers (round robins: drawn by lot at the start; other
    /// systems: the seeding order).
    pub(super) numbers: Vec<PlayerId>,
    pub(super) rounds: Vec<Round>,
    pub(super) started: bool,
    /// An arena's games and standings (from its start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) arena: Option<Arena>,
    /// Ended by the organiser after this many rounds (the standings are
    /// final), before the rounds planned were paired.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) ended_after: Option<usize>,
}

impl Tournament {
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn entrants(&self) -> &[Entrant] {
        &self.entrants
    }

    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    /// An arena's state, once started.
    pub fn arena(&self) -> Option<&Arena> {
        self.arena.as_ref()
    }

    pub fn started(&self) -> bool {
        self.started
    }

    /// Whether the organiser ended the event early.
    pub fn ended_early(&self) -> bool {
        self.ended_after.is_some()
    }

    /// Pairing numbers: `numbers()[0]` is number 1.
    pub fn numbers(&self) -> &[PlayerId] {
        &self.numbers
    }

    pub fn entrant(&self, id: PlayerId) -> Option<&Entrant> {
        self.entrants.iter().find(|e| e.id == id)
    }

    pub(super) fn active(&self) -> impl Iterator<Item = &Entrant> {
        self.entrants.iter().filter(|e| e.withdrawn_after.is_none())
    }
}
