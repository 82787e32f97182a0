//! One tournament as the server keeps it: the request that created it,
//! its organiser, the player names behind the engine's ids, and the
//! engine's whole state (`tengen_tournament::Tournament`). Why here: the
//! director changes an event only through these methods, each a call of
//! the engine (which pairs and scores; nothing here does) or a check of
//! the entry rules, and stores the value (serde JSON) after each change.

use serde::{Deserialize, Serialize};
use tengen_protocol::{
    ErrorBody, ErrorCode, ReportedResult, TableId, TieBreakName, TournamentGame, TournamentSpec,
    TournamentState, TournamentSystem,
};
use tengen_rules::game::GameConfig;
use tengen_store::name_key;
use tengen_tournament::model::mix_lot;
use tengen_tournament::{
    BoardContent, Decider, GameKind, GameRef, GameResult, MatchFormat, MatchLength, MatchState,
    PlayerId, PointSystem, Seat, Settings, System, TieBreak, Tournament, TournamentError,
};

/// The most players one event takes.
pub const MAX_PLAYERS: usize = 256;

/// A stored event (the store's bytes are this, as JSON).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Event {
    pub id: String,
    pub organiser: String,
    pub created_ms: u64,
    pub spec: TournamentSpec,
    /// Player names by engine id (`PlayerId(i)` is `names[i]`); a name
    /// stays once it has entered (a re-entry reuses its id).
    pub names: Vec<String>,
    pub engine: Tournament,
    /// The games due now (each board's next game in the current round)
    /// and the tables they were sent to ([`super::games`]).
    #[serde(default)]
    pub live: Vec<LiveGame>,
    /// An arena's free players (engine id) and since when they are free
    /// (Unix ms): their patience for a rematch (see the `arena` module).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub free_since: Vec<(u64, u64)>,
    /// An arena's players paused after losing a game by absence (engine
    /// ids): not paired until they make a tournament request again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paused: Vec<u64>,
    /// The next round cannot be paired (no pairing satisfies the rules):
    /// the event waits for the organiser to pair it by hand or end it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stalled: Option<Stall>,
}

/// A round no legal pairing exists for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stall {
    pub round: u32,
    pub reason: String,
}

/// A game that is due: sent to a table, or waiting for its players.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LiveGame {
    pub at: TournamentGame,
    /// Names: the first seat (the opener as paired), the second.
    pub players: [String; 2],
    /// When it became due (Unix ms): the wait for absent players counts
    /// from here.
    pub due_ms: u64,
    /// The table it was sent to; `None` while its players are awaited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<TableId>,
    /// When it was last sent to a table (Unix ms).
    #[serde(default)]
    pub sent_ms: u64,
    /// Who was absent at the last try, by seat.
    #[serde(default)]
    pub absent: [bool; 2],
}

fn refuse(code: ErrorCode, message: impl Into<String>) -> ErrorBody {
    ErrorBody::new(code, message)
}

/// The engine's settings for a request (`invalid_config` when the
/// engine cannot run it).
pub fn settings(spec: &TournamentSpec) -> Result<Settings, ErrorBody> {
    let system = match spec.system {
        TournamentSystem::Swiss => System::Swiss {
            rounds: spec.rounds.unwrap_or(0),
        },
        TournamentSystem::RoundRobin => System::RoundRobin { double: false },
        TournamentSystem::DoubleRoundRobin => System::RoundRobin { double: true },
        TournamentSystem::Knockout => System::Knockout {
            format: MatchFormat {
                length: MatchLength::BestOf(spec.games.unwrap_or(1)),
                decider: match spec.decider_time {
                    Some(_) => Decider::FasterGame,
                    None => Decider::ExtraGame,
                },
            },
        },
        TournamentSystem::Arena => System::Arena {
            secs: spec.duration_secs.unwrap_or(0),
        },
    };
    let tie_breaks = spec
        .tie_breaks
        .as_ref()
        .map(|order| order.iter().map(|t| tie_break(*t)).collect());
    Ok(Settings::new(system, PointSystem::default(), tie_breaks))
}

/// The engine's tie-break for its wire name.
fn tie_break(name: TieBreakName) -> TieBreak {
    match name {
        TieBreakName::Buchholz => TieBreak::Buchholz,
        TieBreakName::MedianBuchholz => TieBreak::MedianBuchholz,
        TieBreakName::SonnebornBerger => TieBreak::SonnebornBerger,
        TieBreakName::DirectEncounter => TieBreak::DirectEncounter,
        TieBreakName::Wins => TieBreak::Wins,
        TieBreakName::FirstSeatGames => TieBreak::FirstSeatGames,
    }
}

/// An engine refusal as a typed error for the client.
pub fn engine_error(e: TournamentError) -> ErrorBody {
    let code = match e {
        TournamentError::AlreadyStarted | TournamentError::Finished => ErrorCode::TournamentClosed,
        TournamentError::TooFewPlayers { .. } => ErrorCode::TooFewPlayers,
        TournamentError::UnknownPlayer(_) | TournamentError::AlreadyWithdrawn(_) => {
            ErrorCode::NotJoined
        }
        TournamentError::DuplicatePlayer(_) => ErrorCode::AlreadyJoined,
        TournamentError::NoSuchGame(_) => ErrorCode::NotFound,
        TournamentError::BadSettings(_)
        | TournamentError::TieBreaks(_)
        | TournamentError::TooManyRounds { .. }
        | TournamentError::BadPairing(_) => ErrorCode::InvalidConfig,
        _ => ErrorCode::TournamentClosed,
    };
    refuse(code, e.to_string())
}

/// Who asks to join, as the director learnt it.
pub struct Entrant<'a> {
    pub name: &'a str,
    pub guest: bool,
    pub bot: bool,
    pub rating: i32,
}

impl Event {
    pub fn new(
        id: String,
        organiser: String,
        created_ms: u64,
        spec: TournamentSpec,
    ) -> Result<Event, ErrorBody> {
        let engine = Tournament::new(settings(&spec)?).map_err(engine_error)?;
        Ok(Event {
            id,
            organiser,
            created_ms,
            spec,
            names: Vec::new(),
            engine,
            live: Vec::new(),
            free_since: Vec::new(),
            paused: Vec::new(),
            stalled: None,
        })
    }

    pub fn state(&self) -> TournamentState {
        if self.engine.finished() {
            TournamentState::Finished
        } else if self.engine.started() {
            TournamentState::Running
        } else {
            TournamentState::Open
        }
    }

    pub fn name_of(&self, id: PlayerId) -> &str {
        self.names.get(id.0 as usize).map_or("?", String::as_str)
    }

    pub fn id_of(&self, name: &str) -> Option<PlayerId> {
        let key = name_key(name);
        self.names
            .iter()
            .position(|n| name_key(n) == key)
            .map(|i| PlayerId(i as u64))
    }

    /// Enters a player, after the entry limits.
    pub fn join(&mut self, who: Entrant<'_>) -> Result<(), ErrorBody> {
        if self.engine.started() {
            return Err(refuse(
                ErrorCode::TournamentClosed,
                "the tournament has started",
            ));
        }
        let entry = &self.spec.entry;
        let limit = |m: &str| Err(refuse(ErrorCode::EntryRefused, m));
        if who.guest && (self.spec.rated || entry.accounts_only) {
            return Err(refuse(
                ErrorCode::LoginRequired,
                "this tournament is for accounts: log in first",
            ));
        }
        if who.bot && !entry.bots {
            return limit("this tournament takes no bots");
        }
        if entry.min_rating.is_some_and(|lo| who.rating < lo) {
            return limit("your rating is below the tournament's minimum");
        }
        if entry.max_rating.is_some_and(|hi| who.rating > hi) {
            return limit("your rating is above the tournament's maximum");
        }
        let max = entry
            .max_players
            .map_or(MAX_PLAYERS, |m| (m as usize).min(MAX_PLAYERS));
        if self.engine.entrants().len() >= max {
            return limit("the tournament is full");
        }
        let id = match self.id_of(who.name) {
            Some(id) => id,
            None => {
                self.names.push(who.name.to_owned());
                PlayerId(self.names.len() as u64 - 1)
            }
        };
        self.engine
            .join(id, who.name, who.rating)
            .map_err(engine_error)
    }

    pub fn withdraw(&mut self, name: &str) -> Result<(), ErrorBody> {
        let Some(id) = self.id_of(name) else {
            return Err(refuse(ErrorCode::NotJoined, "you are not entered"));
        };
        if self.engine.finished() {
            return Err(refuse(
                ErrorCode::TournamentClosed,
                "the tournament is over",
            ));
        }
        self.engine.withdraw(id).map_err(engine_error)
    }

    /// A lot for draw number `index` (0 for the start, a round's number
    /// for its pairing): from the spec's `seed` if it has one (the
    /// pairings are then reproducible), else drawn at random.
    pub fn lot(&self, index: u64) -> u64 {
        match self.spec.seed {
            Some(seed) => mix_lot(seed, index),
            None => rand::random(),
        }
    }

    /// Starts the event at `now` (Unix ms) and pairs round 1 (an arena:
    /// every player).
    pub fn start(&mut self, now: u64) -> Result<(), ErrorBody> {
        if self.is_arena() {
            self.engine.start_arena(now).map_err(engine_error)?;
        } else {
            self.engine.start(self.lot(0)).map_err(engine_error)?;
        }
        self.pair_due();
        Ok(())
    }

    /// Pairs the next round if the last one is complete and one is due
    /// (an arena: its free players, now); whether it paired.
    pub fn pair_due(&mut self) -> bool {
        if !self.engine.started() || self.engine.finished() {
            return false;
        }
        if self.is_arena() {
            return self.arena_step(crate::accounts::unix_ms());
        }
        let next = self.engine.rounds().len() + 1;
        if next > 1 && !self.engine.round_complete(next - 1) {
            return false;
        }
        match self.engine.pair_next_round(next, self.lot(next as u64)) {
            Ok(_) => true,
            Err(e) => {
                // No legal pairing (or any refusal): the event waits for
                // its organiser, who is told (see `Director::save`).
                tracing::warn!(tournament = %self.id, round = next, error = %e, "round not paired");
                self.stalled = Some(Stall {
                    round: next as u32,
                    reason: e.to_string(),
                });
                false
            }
        }
    }

    /// The organiser ends the event now: standings final.
    pub fn end(&mut self) -> Result<(), ErrorBody> {
        if self.is_arena() {
            return Err(refuse(
                ErrorCode::TournamentClosed,
                "an arena ends at its time",
            ));
        }
        self.engine.end().map_err(engine_error)?;
        self.stalled = None;
        Ok(())
    }

    /// The organiser pairs the next Swiss round by hand (names: first
    /// seat, second seat; the bye).
    pub fn pair_by_hand(
        &mut self,
        round: u32,
        boards: &[[String; 2]],
        bye: Option<&str>,
    ) -> Result<(), ErrorBody> {
        let id = |name: &str| {
            self.id_of(name)
                .ok_or_else(|| refuse(ErrorCode::InvalidConfig, format!("{name} is not entered")))
        };
        let boards = boards
            .iter()
            .map(|[a, b]| Ok((id(a)?, id(b)?)))
            .collect::<Result<Vec<_>, ErrorBody>>()?;
        let bye = bye.map(id).transpose()?;
        self.engine
            .pair_by_hand(round as usize, &boards, bye)
            .map_err(engine_error)?;
        self.stalled = None;
        Ok(())
    }

    /// Records a result reported by the organiser (then pairs the next
    /// round if this one is over).
    pub fn report(&mut self, game: GameRef, result: ReportedResult) -> Result<(), ErrorBody> {
        let result = match result {
            ReportedResult::First => GameResult::Win(Seat::First),
            ReportedResult::Second => GameResult::Win(Seat::Second),
            ReportedResult::Draw => GameResult::Draw,
            ReportedResult::FirstByForfeit => GameResult::Forfeit(Seat::First),
            ReportedResult::SecondByForfeit => GameResult::Forfeit(Seat::Second),
            ReportedResult::DoubleForfeit => GameResult::DoubleForfeit,
        };
        self.record(game, result)
    }

    /// Records a game's result (then pairs the next round if this one is
    /// over).
    pub fn record(&mut self, game: GameRef, result: GameResult) -> Result<(), ErrorBody> {
        // The same result again is `Recorded::AlreadyRecorded`: counted
        // once, and no error.
        if self.is_arena() {
            self.arena_record(game.round, game.board, game.game, result)?;
        } else {
            self.engine
                .record_result(game, result)
                .map_err(engine_error)?;
        }
        self.pair_due();
        Ok(())
    }

    /// The configuration game `at` is played with: the event's, or for
    /// a decider at the faster control, the event's with `decider_time`.
    pub fn config_for(&self, at: &TournamentGame) -> GameConfig {
        let config = self.spec.config.clone();
        let Some(fast) = self.spec.decider_time else {
            return config;
        };
        let board = self
            .engine
            .rounds()
            .get((at.round as usize).wrapping_sub(1))
            .and_then(|r| r.boards.get((at.board as usize).wrapping_sub(1)));
        match board.map(|b| &b.content) {
            Some(BoardContent::Match(m)) => match m.state() {
                MatchState::Playing {
                    game,
                    kind: GameKind::Decider { faster: true },
                    ..
                } if game == at.game as usize => config.with_time(fast),
                _ => config,
            },
            _ => config,
        }
    }

    /// The games due now: the next game of each board of the current
    /// round whose match is still being played, with its players (the
    /// opener first).
    pub fn due_games(&self) -> Vec<(TournamentGame, [String; 2])> {
        if self.is_arena() {
            return self.arena_due();
        }
        let Some(round) = self.engine.rounds().last() else {
            return Vec::new();
        };
        let mut due = Vec::new();
        for b in &round.boards {
            let BoardContent::Match(m) = &b.content else {
                continue;
            };
            let MatchState::Playing { game, opener, .. } = m.state() else {
                continue;
            };
            let [a, c] = m.players();
            let second = if a == opener { c } else { a };
            let at = TournamentGame {
                tournament: self.id.clone(),
                round: round.number as u32,
                board: b.number as u32,
                game: game as u32,
            };
            due.push((
                at,
                [
                    self.name_of(opener).to_owned(),
                    self.name_of(second).to_owned(),
                ],
            ));
        }
        due
    }
}
