//! The `Tournament` value: settings, the entry list, the rounds paired so
//! far and their results. It owns the rules of the event's life: players
//! join and leave freely before the start; after it a withdrawal forfeits
//! the remaining games and keeps the past; rounds are paired one at a
//! time, each only once and only after the previous one is complete; a
//! result recorded twice counts once. Every refusal is a typed error that
//! changes nothing, and the whole value is serde-serialisable, so the
//! server can store it and replay the same calls after a restart.

mod arena_play;
mod pairing;
mod records;
mod state;

pub use state::{
    Board, BoardContent, Entrant, GameRef, Round, Settings, System, Tournament, TournamentError,
};

use crate::ledger::Record;
use crate::matches::{Decider, Recorded};
use crate::model::{GameResult, PlayerId};
use crate::standings::{Standing, check_order, standings};

impl Tournament {
    pub fn new(settings: Settings) -> Result<Tournament, TournamentError> {
        check_order(&settings.tie_breaks)?;
        match settings.system {
            System::Swiss { rounds: 0 } => return Err(TournamentError::BadSettings("no rounds")),
            System::Arena { secs: 0 } => {
                return Err(TournamentError::BadSettings("an arena needs a duration"));
            }
            System::Knockout { format } => {
                format.validate()?;
                if format.decider == Decider::None {
                    return Err(TournamentError::BadSettings(
                        "a knockout match needs a decider",
                    ));
                }
            }
            _ => {}
        }
        Ok(Tournament {
            settings,
            entrants: Vec::new(),
            numbers: Vec::new(),
            rounds: Vec::new(),
            started: false,
            arena: None,
        })
    }

    /// Enters a player (before the start only).
    pub fn join(&mut self, id: PlayerId, name: &str, rating: i32) -> Result<(), TournamentError> {
        if self.started {
            return Err(TournamentError::AlreadyStarted);
        }
        if self.entrant(id).is_some() {
            return Err(TournamentError::DuplicatePlayer(id));
        }
        self.entrants.push(Entrant {
            id,
            name: name.to_owned(),
            rating,
            withdrawn_after: None,
        });
        Ok(())
    }

    /// Withdraws a player: before the start they simply leave; after it
    /// they are paired no more, their unfinished match of the current
    /// round is forfeited, and their past results stay.
    pub fn withdraw(&mut self, id: PlayerId) -> Result<(), TournamentError> {
        let Some(i) = self.entrants.iter().position(|e| e.id == id) else {
            return Err(TournamentError::UnknownPlayer(id));
        };
        if !self.started {
            self.entrants.remove(i);
            return Ok(());
        }
        if self.entrants[i].withdrawn_after.is_some() {
            return Err(TournamentError::AlreadyWithdrawn(id));
        }
        if let Some(arena) = &mut self.arena {
            arena.withdraw(id)?;
        }
        self.entrants[i].withdrawn_after = Some(self.rounds.len());
        if let Some(round) = self.rounds.last_mut() {
            pairing::forfeit_in(round, id);
        }
        Ok(())
    }

    /// Starts the tournament: fixes the seeding (rating down, then id)
    /// and the pairing numbers (a round robin's are drawn with `lot`, a
    /// random value the caller drew). An arena starts with
    /// `start_arena`, which needs the time.
    pub fn start(&mut self, lot: u64) -> Result<(), TournamentError> {
        if matches!(self.settings.system, System::Arena { .. }) {
            return Err(TournamentError::BadSettings("an arena starts at a time"));
        }
        self.seed(lot)
    }

    /// Fixes the seeding and marks the event started.
    fn seed(&mut self, lot: u64) -> Result<(), TournamentError> {
        if self.started {
            return Err(TournamentError::AlreadyStarted);
        }
        let min = 2;
        if self.entrants.len() < min {
            return Err(TournamentError::TooFewPlayers {
                min,
                got: self.entrants.len(),
            });
        }
        self.entrants
            .sort_by(|a, b| b.rating.cmp(&a.rating).then(a.id.cmp(&b.id)));
        self.numbers = self.entrants.iter().map(|e| e.id).collect();
        if matches!(self.settings.system, System::RoundRobin { .. }) {
            pairing::draw_numbers(&mut self.numbers, lot);
        }
        self.started = true;
        Ok(())
    }

    /// The number of rounds the event will have (0 before the start).
    pub fn total_rounds(&self) -> usize {
        if !self.started {
            return 0;
        }
        pairing::total_rounds(self.settings.system, self.entrants.len())
    }

    /// Whether the event is over: every round paired and complete (a
    /// knockout: the final decided).
    pub fn finished(&self) -> bool {
        if matches!(self.settings.system, System::Arena { .. }) {
            return self.arena.as_ref().is_some_and(|a| a.closed());
        }
        self.started
            && self.rounds.len() == self.total_rounds()
            && self.rounds.last().is_none_or(Round::complete)
    }

    /// Whether round `round` (1-based) is paired and complete.
    pub fn round_complete(&self, round: usize) -> bool {
        round >= 1 && self.rounds.get(round - 1).is_some_and(Round::complete)
    }

    /// Pairs round `round` (1-based), which must be the next one; pairing
    /// a round already paired is refused (`AlreadyPaired`), so a replayed
    /// call changes nothing. `lot` is a random value the caller drew (it
    /// decides seats where the rules leave them to lot).
    pub fn pair_next_round(&mut self, round: usize, lot: u64) -> Result<&Round, TournamentError> {
        if !self.started {
            return Err(TournamentError::NotStarted);
        }
        let next = self.rounds.len() + 1;
        if round < next {
            return Err(TournamentError::AlreadyPaired(round));
        }
        if round != next {
            return Err(TournamentError::WrongRound { got: round, next });
        }
        if next > self.total_rounds() {
            return Err(TournamentError::Finished);
        }
        if let Some(last) = self.rounds.last()
            && !last.complete()
        {
            return Err(TournamentError::RoundIncomplete(last.number));
        }
        let boards = pairing::pair(self, next, lot)?;
        self.rounds.push(Round {
            number: next,
            boards,
        });
        Ok(&self.rounds[next - 1])
    }

    /// Records a game's result. The same result recorded again is
    /// `AlreadyRecorded` and changes nothing; a different one is refused.
    pub fn record_result(
        &mut self,
        game: GameRef,
        result: GameResult,
    ) -> Result<Recorded, TournamentError> {
        let board = game
            .round
            .checked_sub(1)
            .and_then(|r| self.rounds.get_mut(r))
            .and_then(|r| game.board.checked_sub(1).and_then(|b| r.boards.get_mut(b)));
        match board.map(|b| &mut b.content) {
            Some(BoardContent::Match(m)) => Ok(m.record(game.game, result)?),
            _ => Err(TournamentError::NoSuchGame(game)),
        }
    }

    /// Each entrant's round-by-round record, in seeding order.
    pub fn records(&self) -> Vec<Record> {
        records::build(self)
    }

    /// The standings with the configured tie-breaks.
    pub fn standings(&self) -> Vec<Standing> {
        standings(
            &self.records(),
            &self.settings.points,
            &self.settings.tie_breaks,
        )
    }
}
