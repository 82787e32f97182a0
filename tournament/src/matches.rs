//! A match between two players: one game, a best-of-N or a fixed number
//! of games, the opener alternating game by game (game 1 by lot), the
//! score kept in half points, ending as soon as it is decided, and a tie
//! after the regular games going to the configured decider. Every system
//! plays its pairings as matches (a Swiss or round-robin pairing is a
//! one-game match whose opener the pairing chose), so one state machine
//! judges them all.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::model::{GameResult, PlayerId, Seat};

/// How many regular games a match has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MatchLength {
    /// Best of N (N odd: 1, 3, 5, ...): over once a player has more than
    /// N/2 points, or once the other cannot catch up.
    BestOf(u8),
    /// N games (even counts too, 2 or 4, so both open equally often); over
    /// as soon as the trailing player cannot catch up.
    Fixed(u8),
}

impl MatchLength {
    pub fn games(self) -> u8 {
        match self {
            MatchLength::BestOf(n) | MatchLength::Fixed(n) => n,
        }
    }
}

/// What a tie after the regular games leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Decider {
    /// The tie stands: the match is drawn (round robins, Swiss games).
    None,
    /// One more game at the same time control; repeated while drawn
    /// (sudden death), the opener still alternating.
    ExtraGame,
    /// One more game at a faster time control (which one is the
    /// server's setting); repeated while drawn.
    FasterGame,
}

/// The format of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchFormat {
    pub length: MatchLength,
    pub decider: Decider,
}

impl MatchFormat {
    /// One game whose tie stands: a Swiss or round-robin pairing.
    pub const SINGLE: MatchFormat = MatchFormat {
        length: MatchLength::Fixed(1),
        decider: Decider::None,
    };

    /// Checks the format: at least one game, a best-of count odd.
    pub fn validate(self) -> Result<(), MatchError> {
        match self.length {
            MatchLength::BestOf(n) if n == 0 || n % 2 == 0 => Err(MatchError::BadLength(n)),
            MatchLength::Fixed(0) => Err(MatchError::BadLength(0)),
            _ => Ok(()),
        }
    }
}

/// Which kind of game is to be played next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameKind {
    Regular,
    /// A tie-break game; `faster` says it is at the faster time control.
    Decider {
        faster: bool,
    },
}

/// Where a match stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MatchState {
    /// Game `game` (0-based) is to be played, `opener` in the first seat.
    Playing {
        game: usize,
        opener: PlayerId,
        kind: GameKind,
    },
    /// Won by this player (over the board or by the other's forfeit).
    Won(PlayerId),
    /// Drawn: a tie with no decider.
    Drawn,
}

/// What `Match::record` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recorded {
    /// The result was new and is now counted.
    Applied,
    /// The same result was already recorded for that game: nothing changed.
    AlreadyRecorded,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MatchError {
    #[error("a match needs at least one game and a best-of count must be odd (got {0})")]
    BadLength(u8),
    #[error("a player cannot meet themself")]
    SamePlayer,
    #[error("game {got} cannot be recorded yet: game {next} is next")]
    OutOfOrder { got: usize, next: usize },
    #[error("game {0} already has a different result")]
    Conflict(usize),
    #[error("the match is over")]
    Over,
    #[error("{0} does not play in this match")]
    NotInMatch(PlayerId),
}

/// One match's state. Serialisable: the server stores it and restores it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match {
    players: [PlayerId; 2],
    format: MatchFormat,
    /// Who opened game 1.
    first_opener: PlayerId,
    games: Vec<GameResult>,
    /// Set when a player forfeited the whole match (withdrawal, no-show).
    forfeited_by: Option<PlayerId>,
}

impl Match {
    /// A match whose first opener is chosen by the caller (a pairing's
    /// colour allocation).
    pub fn new(
        first: PlayerId,
        second: PlayerId,
        format: MatchFormat,
    ) -> Result<Match, MatchError> {
        format.validate()?;
        if first == second {
            return Err(MatchError::SamePlayer);
        }
        Ok(Match {
            players: [first, second],
            format,
            first_opener: first,
            games: Vec::new(),
            forfeited_by: None,
        })
    }

    /// A match whose game-1 opener is drawn by lot: `lot` is a random value
    /// the caller drew; its lowest bit picks `a` (0) or `b` (1).
    pub fn by_lot(
        a: PlayerId,
        b: PlayerId,
        format: MatchFormat,
        lot: u64,
    ) -> Result<Match, MatchError> {
        if lot & 1 == 0 {
            Match::new(a, b, format)
        } else {
            Match::new(b, a, format)
        }
    }

    pub fn players(&self) -> [PlayerId; 2] {
        self.players
    }

    pub fn format(&self) -> MatchFormat {
        self.format
    }

    pub fn games(&self) -> &[GameResult] {
        &self.games
    }

    pub fn forfeited_by(&self) -> Option<PlayerId> {
        self.forfeited_by
    }

    /// The opener (first seat) of game `index` (0-based): game 1's opener,
    /// then alternating.
    pub fn opener_of(&self, index: usize) -> PlayerId {
        let [a, b] = self.players;
        let other = if self.first_opener == a { b } else { a };
        if index.is_multiple_of(2) {
            self.first_opener
        } else {
            other
        }
    }

    /// The seat `player` held in game `index`.
    pub fn seat_of(&self, index: usize, player: PlayerId) -> Seat {
        if self.opener_of(index) == player {
            Seat::First
        } else {
            Seat::Second
        }
    }

    /// The score of each player (in half points, win 2 and draw 1), in the
    /// order of `players()`.
    pub fn score(&self) -> [u32; 2] {
        let mut s = [0u32; 2];
        for (i, r) in self.games.iter().enumerate() {
            for (k, p) in self.players.iter().enumerate() {
                s[k] += r.halves_for(self.seat_of(i, *p));
            }
        }
        s
    }

    /// The match's current state.
    pub fn state(&self) -> MatchState {
        if let Some(loser) = self.forfeited_by {
            return MatchState::Won(self.other(loser));
        }
        let [sa, sb] = self.score();
        let n = usize::from(self.format.length.games());
        let played = self.games.len();
        if played < n {
            // Each remaining regular game can swing 2 halves.
            let left = 2 * (n - played) as u32;
            if sa > sb + left {
                return MatchState::Won(self.players[0]);
            }
            if sb > sa + left {
                return MatchState::Won(self.players[1]);
            }
            return self.next(played, GameKind::Regular);
        }
        if sa != sb {
            let w = if sa > sb {
                self.players[0]
            } else {
                self.players[1]
            };
            return MatchState::Won(w);
        }
        match self.format.decider {
            Decider::None => MatchState::Drawn,
            Decider::ExtraGame => self.next(played, GameKind::Decider { faster: false }),
            Decider::FasterGame => self.next(played, GameKind::Decider { faster: true }),
        }
    }

    fn next(&self, game: usize, kind: GameKind) -> MatchState {
        MatchState::Playing {
            game,
            opener: self.opener_of(game),
            kind,
        }
    }

    pub fn is_over(&self) -> bool {
        !matches!(self.state(), MatchState::Playing { .. })
    }

    /// The winner, once decided.
    pub fn winner(&self) -> Option<PlayerId> {
        match self.state() {
            MatchState::Won(p) => Some(p),
            _ => None,
        }
    }

    fn other(&self, p: PlayerId) -> PlayerId {
        if self.players[0] == p {
            self.players[1]
        } else {
            self.players[0]
        }
    }

    /// Records game `index`'s result (in seat terms of that game).
    /// Recording a result already recorded is harmless; a different result
    /// for a recorded game, a game out of order or after the end is refused
    /// and changes nothing.
    pub fn record(&mut self, index: usize, result: GameResult) -> Result<Recorded, MatchError> {
        if let Some(prev) = self.games.get(index) {
            return if *prev == result {
                Ok(Recorded::AlreadyRecorded)
            } else {
                Err(MatchError::Conflict(index))
            };
        }
        match self.state() {
            MatchState::Playing { game, .. } if game == index => {
                self.games.push(result);
                Ok(Recorded::Applied)
            }
            MatchState::Playing { game, .. } => Err(MatchError::OutOfOrder {
                got: index,
                next: game,
            }),
            _ => Err(MatchError::Over),
        }
    }

    /// `player` forfeits the rest of the match (withdrawal): the other wins.
    /// Past games are kept. Forfeiting a finished match changes nothing.
    pub fn forfeit(&mut self, player: PlayerId) -> Result<(), MatchError> {
        if !self.players.contains(&player) {
            return Err(MatchError::NotInMatch(player));
        }
        if !self.is_over() {
            self.forfeited_by = Some(player);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: PlayerId = PlayerId(1);
    const B: PlayerId = PlayerId(2);

    fn bo(n: u8, decider: Decider) -> MatchFormat {
        MatchFormat {
            length: MatchLength::BestOf(n),
            decider,
        }
    }

    #[test]
    fn best_of_three_ends_after_two_wins_with_alternating_openers() {
        let mut m = Match::by_lot(A, B, bo(3, Decider::ExtraGame), 1).unwrap();
        assert_eq!(m.opener_of(0), B, "an odd lot gives b the first game");
        assert_eq!(m.opener_of(1), A);
        // Game 1: B opens and wins; game 2: A opens, B wins again.
        m.record(0, GameResult::Win(Seat::First)).unwrap();
        m.record(1, GameResult::Win(Seat::Second)).unwrap();
        assert_eq!(m.state(), MatchState::Won(B));
        assert_eq!(m.record(2, GameResult::Draw), Err(MatchError::Over));
    }

    #[test]
    fn a_tie_goes_to_the_decider_which_repeats_while_drawn() {
        let mut m = Match::new(A, B, bo(3, Decider::FasterGame)).unwrap();
        m.record(0, GameResult::Win(Seat::First)).unwrap(); // A
        m.record(1, GameResult::Win(Seat::First)).unwrap(); // B
        m.record(2, GameResult::Draw).unwrap();
        assert_eq!(
            m.state(),
            MatchState::Playing {
                game: 3,
                opener: B,
                kind: GameKind::Decider { faster: true }
            }
        );
        m.record(3, GameResult::Draw).unwrap();
        assert_eq!(
            m.state(),
            MatchState::Playing {
                game: 4,
                opener: A,
                kind: GameKind::Decider { faster: true }
            }
        );
        m.record(4, GameResult::Win(Seat::Second)).unwrap();
        assert_eq!(m.winner(), Some(B));
    }

    #[test]
    fn recording_twice_is_idempotent_and_conflicts_are_refused() {
        let mut m = Match::new(A, B, MatchFormat::SINGLE).unwrap();
        assert_eq!(
            m.record(1, GameResult::Draw),
            Err(MatchError::OutOfOrder { got: 1, next: 0 })
        );
        assert_eq!(m.record(0, GameResult::Draw), Ok(Recorded::Applied));
        assert_eq!(m.record(0, GameResult::Draw), Ok(Recorded::AlreadyRecorded));
        assert_eq!(
            m.record(0, GameResult::Win(Seat::First)),
            Err(MatchError::Conflict(0))
        );
        assert_eq!(m.score(), [1, 1]);
        assert_eq!(m.state(), MatchState::Drawn);
    }

    #[test]
    fn fixed_four_stops_once_the_trailer_cannot_catch_up() {
        let fmt = MatchFormat {
            length: MatchLength::Fixed(4),
            decider: Decider::None,
        };
        let mut m = Match::new(A, B, fmt).unwrap();
        m.record(0, GameResult::Win(Seat::First)).unwrap(); // A 1-0
        m.record(1, GameResult::Win(Seat::Second)).unwrap(); // A 2-0
        assert!(!m.is_over(), "2-0 with two to play is not decided");
        m.record(2, GameResult::Draw).unwrap(); // 2½-½ with one left
        assert_eq!(m.state(), MatchState::Won(A));
    }

    #[test]
    fn bad_formats_and_forfeits() {
        assert_eq!(
            Match::new(A, B, bo(4, Decider::None)),
            Err(MatchError::BadLength(4))
        );
        assert_eq!(
            Match::new(A, A, MatchFormat::SINGLE),
            Err(MatchError::SamePlayer)
        );
        let mut m = Match::new(A, B, bo(5, Decider::ExtraGame)).unwrap();
        m.record(0, GameResult::Win(Seat::First)).unwrap();
        assert_eq!(
            m.forfeit(PlayerId(9)),
            Err(MatchError::NotInMatch(PlayerId(9)))
        );
        m.forfeit(A).unwrap();
        assert_eq!(m.winner(), Some(B));
        assert_eq!(m.games().len(), 1, "past games are kept");
    }
}
