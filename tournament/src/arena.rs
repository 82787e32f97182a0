//! The arena: a fixed time window in which a player whose game ends is
//! paired again at once with a waiting player close in score, never with
//! the opponent they just played. Times are milliseconds the caller
//! passes in (the engine reads no clock). The pairing is a pure function,
//! `pair_waiting`; `Arena` keeps the games and standings around it.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::matches::Recorded;
use crate::model::{GameResult, PlayerId, PointSystem, Points, Seat};

/// The arena's window: pairing from `start_ms` until before `end_ms`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Window {
    pub start_ms: u64,
    pub end_ms: u64,
}

impl Window {
    pub fn open_at(&self, now_ms: u64) -> bool {
        (self.start_ms..self.end_ms).contains(&now_ms)
    }
}

/// One player's arena standing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaEntry {
    pub player: PlayerId,
    pub score: Points,
    pub games: u32,
    pub first_seat_games: u32,
    /// The opponent of their latest game.
    pub last_opponent: Option<PlayerId>,
}

/// One arena game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaGame {
    pub id: u64,
    pub first: PlayerId,
    pub second: PlayerId,
    pub result: Option<GameResult>,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ArenaError {
    #[error("the window must end after it starts")]
    BadWindow,
    #[error("the arena is not open at {0} ms")]
    Closed(u64),
    #[error("{0} has not joined the arena")]
    UnknownPlayer(PlayerId),
    #[error("{0} is still playing")]
    Busy(PlayerId),
    #[error("{0} is listed twice")]
    Duplicate(PlayerId),
    #[error("no arena game {0}")]
    NoSuchGame(u64),
    #[error("arena game {0} already has a different result")]
    Conflict(u64),
}

/// Pairs the waiting players: the highest-scored waiting player meets the
/// closest in score below them who is not their last opponent (seats: the
/// one who has opened less opens; if equal, the lower-placed). A player
/// whose only possible partner is their last opponent keeps waiting.
/// Returns (first seat, second seat) pairs.
pub fn pair_waiting(
    window: &Window,
    now_ms: u64,
    waiting: &[PlayerId],
    standings: &[ArenaEntry],
) -> Result<Vec<(PlayerId, PlayerId)>, ArenaError> {
    if !window.open_at(now_ms) {
        return Err(ArenaError::Closed(now_ms));
    }
    let mut queue: Vec<&ArenaEntry> = Vec::with_capacity(waiting.len());
    for (i, p) in waiting.iter().enumerate() {
        if waiting[..i].contains(p) {
            return Err(ArenaError::Duplicate(*p));
        }
        queue.push(
            standings
                .iter()
                .find(|e| e.player == *p)
                .ok_or(ArenaError::UnknownPlayer(*p))?,
        );
    }
    queue.sort_by(|a, b| b.score.cmp(&a.score).then(a.player.cmp(&b.player)));
    let mut taken = vec![false; queue.len()];
    let mut pairs = Vec::new();
    for i in 0..queue.len() {
        if taken[i] {
            continue;
        }
        let a = queue[i];
        let partner = (i + 1..queue.len()).find(|&j| {
            let b = queue[j];
            !taken[j] && a.last_opponent != Some(b.player) && b.last_opponent != Some(a.player)
        });
        if let Some(j) = partner {
            taken[i] = true;
            taken[j] = true;
            let b = queue[j];
            pairs.push(if a.first_seat_games < b.first_seat_games {
                (a.player, b.player)
            } else {
                (b.player, a.player)
            });
        }
    }
    Ok(pairs)
}

/// An arena's state: its window, points, standings and games.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arena {
    window: Window,
    points: PointSystem,
    entries: Vec<ArenaEntry>,
    games: Vec<ArenaGame>,
}

impl Arena {
    pub fn new(window: Window, points: PointSystem) -> Result<Arena, ArenaError> {
        if window.end_ms <= window.start_ms {
            return Err(ArenaError::BadWindow);
        }
        Ok(Arena {
            window,
            points,
            entries: Vec::new(),
            games: Vec::new(),
        })
    }

    /// Joins a player (joining twice is harmless).
    pub fn join(&mut self, player: PlayerId) {
        if !self.entries.iter().any(|e| e.player == player) {
            self.entries.push(ArenaEntry {
                player,
                score: Points::ZERO,
                games: 0,
                first_seat_games: 0,
                last_opponent: None,
            });
        }
    }

    pub fn games(&self) -> &[ArenaGame] {
        &self.games
    }

    /// Standings: score down, then fewer games (the same score in fewer
    /// games ranks higher), then id.
    pub fn standings(&self) -> Vec<ArenaEntry> {
        let mut s = self.entries.clone();
        s.sort_by(|a, b| {
            b.score
                .cmp(&a.score)
                .then(a.games.cmp(&b.games))
                .then(a.player.cmp(&b.player))
        });
        s
    }

    /// Pairs the waiting players (see `pair_waiting`) and starts their
    /// games. A player still in an unfinished game is refused.
    pub fn pair_waiting(
        &mut self,
        now_ms: u64,
        waiting: &[PlayerId],
    ) -> Result<Vec<ArenaGame>, ArenaError> {
        if let Some(p) = waiting.iter().find(|p| self.playing(**p)) {
            return Err(ArenaError::Busy(*p));
        }
        let pairs = pair_waiting(&self.window, now_ms, waiting, &self.entries)?;
        let mut started = Vec::with_capacity(pairs.len());
        for (first, second) in pairs {
            let game = ArenaGame {
                id: self.games.len() as u64,
                first,
                second,
                result: None,
            };
            self.games.push(game.clone());
            started.push(game);
        }
        Ok(started)
    }

    fn playing(&self, p: PlayerId) -> bool {
        self.games
            .iter()
            .any(|g| g.result.is_none() && (g.first == p || g.second == p))
    }

    /// Records a game's result; the same result again changes nothing.
    pub fn record(&mut self, game: u64, result: GameResult) -> Result<Recorded, ArenaError> {
        let g = self
            .games
            .get_mut(game as usize)
            .ok_or(ArenaError::NoSuchGame(game))?;
        match g.result {
            Some(r) if r == result => return Ok(Recorded::AlreadyRecorded),
            Some(_) => return Err(ArenaError::Conflict(game)),
            None => g.result = Some(result),
        }
        let (first, second) = (g.first, g.second);
        for (me, other, seat) in [(first, second, Seat::First), (second, first, Seat::Second)] {
            let pts = self.points.for_outcome(result.outcome_for(seat));
            if let Some(e) = self.entries.iter_mut().find(|e| e.player == me) {
                e.score += pts;
                e.games += 1;
                e.first_seat_games += u32::from(seat == Seat::First);
                e.last_opponent = Some(other);
            }
        }
        Ok(Recorded::Applied)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: Window = Window {
        start_ms: 1_000,
        end_ms: 61_000,
    };

    fn arena(n: u64) -> Arena {
        let mut a = Arena::new(W, PointSystem::default()).unwrap();
        (1..=n).for_each(|i| a.join(PlayerId(i)));
        a
    }

    #[test]
    fn finished_players_meet_the_closest_score_but_not_their_last_opponent() {
        let mut a = arena(4);
        let ids = [1, 2, 3, 4].map(PlayerId);
        let g = a.pair_waiting(1_000, &ids).unwrap();
        assert_eq!(g.len(), 2);
        // Game 0 is 1 v 2 (by id order, nobody has opened yet: 2 opens).
        assert_eq!((g[0].first, g[0].second), (PlayerId(2), PlayerId(1)));
        a.record(0, GameResult::Win(Seat::Second)).unwrap(); // 1 wins
        assert_eq!(
            a.record(0, GameResult::Win(Seat::Second)),
            Ok(Recorded::AlreadyRecorded)
        );
        assert_eq!(a.record(0, GameResult::Draw), Err(ArenaError::Conflict(0)));
        // 1 and 2 are free again; 3 and 4 still play.
        assert_eq!(
            a.pair_waiting(2_000, &[PlayerId(3)]),
            Err(ArenaError::Busy(PlayerId(3)))
        );
        assert!(
            a.pair_waiting(2_000, &[PlayerId(1), PlayerId(2)])
                .unwrap()
                .is_empty(),
            "no rematch"
        );
        a.record(1, GameResult::Draw).unwrap();
        let g = a.pair_waiting(3_000, &ids).unwrap();
        // 1 (1 point) meets 3 (½, closest below, not their last opponent).
        let pairs: Vec<(u64, u64)> = g.iter().map(|g| (g.first.0, g.second.0)).collect();
        assert_eq!(pairs, vec![(3, 1), (2, 4)]);
        assert_eq!(a.pair_waiting(61_000, &[]), Err(ArenaError::Closed(61_000)));
        assert_eq!(a.pair_waiting(999, &[]), Err(ArenaError::Closed(999)));
        assert_eq!(
            a.pair_waiting(3_000, &[PlayerId(9)]),
            Err(ArenaError::UnknownPlayer(PlayerId(9)))
        );
        assert_eq!(a.standings()[0].player, PlayerId(1));
    }
}
