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

/// The most Swiss rounds `players` can play: no two meet twice, so an
/// even field has n - 1 rounds, an odd one n (each player's bye once).
pub fn max_swiss_rounds(players: usize) -> usize {
    if players.is_multiple_of(2) {
        players.saturating_sub(1)
    } else {
        players
    }
}

use crate::ledger::Record;
use crate::matches::{Decider, Match, MatchFormat, Recorded};
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
            ended_after: None,
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
        if let System::Swiss { rounds } = self.settings.system {
            let (rounds, players) = (rounds as usize, self.entrants.len());
            let max = max_swiss_rounds(players);
            if rounds > max {
                return Err(TournamentError::TooManyRounds {
                    rounds,
                    players,
                    max,
                });
            }
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

    /// The number of rounds the event will have (0 before the start; the
    /// rounds played if the organiser ended it early).
    pub fn total_rounds(&self) -> usize {
        if !self.started {
            return 0;
        }
        if let Some(n) = self.ended_after {
            return n;
        }
        pairing::total_rounds(self.settings.system, self.entrants.len())
    }

    /// Why this Swiss may not pair all its rounds with the players entered
    /// now, if it may not: too many rounds for the field (the start is
    /// refused), or so many that a round with no legal pairing is likely
    /// (more rounds than half the players). `None` for other systems.
    pub fn rounds_warning(&self) -> Option<String> {
        let System::Swiss { rounds } = self.settings.system else {
            return None;
        };
        let (rounds, players) = (rounds as usize, self.entrants.len());
        if players < 2 {
            return None;
        }
        let max = max_swiss_rounds(players);
        if rounds > max {
            Some(format!(
                "{players} players cannot play {rounds} Swiss rounds: no two may meet twice, so {max} is the most"
            ))
        } else if 2 * rounds > players {
            Some(format!(
                "{rounds} rounds for {players} players: a Swiss this long for its field may reach a round that no legal pairing exists for; the organiser can then end the event or pair that round by hand"
            ))
        } else {
            None
        }
    }

    /// Ends the event now (the organiser's call, e.g. when no legal
    /// pairing exists for the next round): no more rounds, the standings
    /// are final. The current round must be complete.
    pub fn end(&mut self) -> Result<(), TournamentError> {
        if !self.started || self.arena.is_some() {
            return Err(TournamentError::NotStarted);
        }
        if self.finished() {
            return Err(TournamentError::Finished);
        }
        if let Some(last) = self.rounds.last()
            && !last.complete()
        {
            return Err(TournamentError::RoundIncomplete(last.number));
        }
        self.ended_after = Some(self.rounds.len());
        Ok(())
    }

    /// Pairs Swiss round `round` by hand (the organiser's pairing, e.g.
    /// when no legal pairing exists): `boards` as (first seat, second
    /// seat), and the bye. Every player still in the event must be placed
    /// once; the pairing rules are the organiser's to keep or break.
    pub fn pair_by_hand(
        &mut self,
        round: usize,
        boards: &[(PlayerId, PlayerId)],
        bye: Option<PlayerId>,
    ) -> Result<&Round, TournamentError> {
        if !matches!(self.settings.system, System::Swiss { .. }) {
            return Err(TournamentError::BadSettings(
                "only a Swiss round is paired by hand",
            ));
        }
        let next = self.due(round)?;
        let bad = |m: String| Err(TournamentError::BadPairing(m));
        let mut placed: Vec<PlayerId> = boards.iter().flat_map(|&(a, b)| [a, b]).collect();
        placed.extend(bye);
        let active: Vec<PlayerId> = self.active().map(|e| e.id).collect();
        for p in &placed {
            if !active.contains(p) {
                return bad(format!("{p} is not a player still in the event"));
            }
        }
        let mut sorted = placed.clone();
        sorted.sort();
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return bad(format!("{} is placed twice", w[0]));
        }
        if let Some(p) = active.iter().find(|p| !placed.contains(p)) {
            return bad(format!("{p} is not placed"));
        }
        let mut contents = Vec::with_capacity(boards.len() + 1);
        for &(a, b) in boards {
            contents.push(BoardContent::Match(Match::new(a, b, MatchFormat::SINGLE)?));
        }
        if let Some(p) = bye {
            contents.push(BoardContent::Bye {
                player: p,
                points: self.settings.points.bye,
            });
        }
        let boards = contents
            .into_iter()
            .enumerate()
            .map(|(i, content)| Board {
                number: i + 1,
                content,
            })
            .collect();
        self.rounds.push(Round {
            number: next,
            boards,
        });
        Ok(&self.rounds[next - 1])
    }

    /// Whether the event is over: every round paired and complete (a
    /// knockout: the final decided).
    pub fn finished(&self) -> bool {
        if matches!(self.settings.system, System::Arena { .. }) {
            return self.arena.as_ref().is_some_and(|a| a.closed());
        }
        if self.ended_after.is_some() {
            return true;
        }
        self.started
            && self.rounds.len() == self.total_rounds()
            && self.rounds.last().is_none_or(Round::complete)
    }

    /// Whether round `round` (1-based) is paired and complete.
    pub fn round_complete(&self, round: usize) -> bool {
        round >= 1 && self.rounds.get(round - 1).is_some_and(Round::complete)
    }

    /// Checks that round `round` (1-based) may be paired now: the event
    /// started, not over, the round the next one, the last one complete.
    fn due(&self, round: usize) -> Result<usize, TournamentError> {
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
        Ok(next)
    }

    /// Pairs round `round` (1-based), which must be the next one; pairing
    /// a round already paired is refused (`AlreadyPaired`), so a replayed
    /// call changes nothing. `lot` is a random value the caller drew (it
    /// decides seats where the rules leave them to lot).
    pub fn pair_next_round(&mut self, round: usize, lot: u64) -> Result<&Round, TournamentError> {
        let next = self.due(round)?;
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
