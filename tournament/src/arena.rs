//! The arena: a fixed time window in which a player whose game ends is
//! paired again at once with a waiting player close in score, never with
//! the opponent they just played (unless both have waited long enough:
//! the caller says who has). Times are milliseconds the caller passes in
//! (the engine reads no clock). The pairing is a pure function,
//! `pair_waiting`; `Arena` keeps the games, withdrawals and standings
//! around it, and closes once its window is over and its last game done.

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
    /// Games won (over the board or by forfeit): the second tie-break.
    #[serde(default)]
    pub wins: u32,
    /// Withdrawn: paired no more, results kept.
    #[serde(default)]
    pub withdrawn: bool,
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
    #[error("{0} has withdrawn")]
    Withdrawn(PlayerId),
}

/// Pairs the waiting players: the highest-scored waiting player meets the
/// closest in score below them who is not their last opponent (seats: the
/// one who has opened less opens; if equal, the lower-placed). A player
/// whose only possible partner is their last opponent keeps waiting,
/// unless both are `patient` (they have waited long enough: the caller's
/// rule), when the rematch is made. Returns (first seat, second seat)
/// pairs; the same inputs always give the same pairs.
pub fn pair_waiting(
    window: &Window,
    now_ms: u64,
    waiting: &[PlayerId],
    patient: &[PlayerId],
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
        let entry = standings
            .iter()
            .find(|e| e.player == *p)
            .ok_or(ArenaError::UnknownPlayer(*p))?;
        if entry.withdrawn {
            return Err(ArenaError::Withdrawn(*p));
        }
        queue.push(entry);
    }
    queue.sort_by(|a, b| b.score.cmp(&a.score).then(a.player.cmp(&b.player)));
    let mut taken = vec![false; queue.len()];
    let mut pairs = Vec::new();
    for i in 0..queue.len() {
        if taken[i] {
            continue;
        }
        let a = queue[i];
        let rematch_ok =
            |b: &ArenaEntry| patient.contains(&a.player) && patient.contains(&b.player);
        let partner = (i + 1..queue.len()).find(|&j| {
            let b = queue[j];
            let rematch = a.last_opponent == Some(b.player) || b.last_opponent == Some(a.player);
            !taken[j] && (!rematch || rematch_ok(b))
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
    /// The window is over and its last game done: the standings are
    /// final.
    #[serde(default)]
    closed: bool,
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
            closed: false,
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
                wins: 0,
                withdrawn: false,
            });
        }
    }

    pub fn window(&self) -> Window {
        self.window
    }

    /// Withdraws a player: paired no more, their game in progress (if
    /// any) lost by forfeit, their past results kept. Returns the
    /// forfeited game's id.
    pub fn withdraw(&mut self, player: PlayerId) -> Result<Option<u64>, ArenaError> {
        let e = self
            .entries
            .iter_mut()
            .find(|e| e.player == player)
            .ok_or(ArenaError::UnknownPlayer(player))?;
        if e.withdrawn {
            return Err(ArenaError::Withdrawn(player));
        }
        e.withdrawn = true;
        let Some(g) = self.current_game(player) else {
            return Ok(None);
        };
        let (id, winner) = (
            g.id,
            if g.first == player {
                Seat::Second
            } else {
                Seat::First
            },
        );
        self.record(id, GameResult::Forfeit(winner))?;
        Ok(Some(id))
    }

    /// The game `player` is playing now.
    pub fn current_game(&self, player: PlayerId) -> Option<&ArenaGame> {
        self.games
            .iter()
            .find(|g| g.result.is_none() && (g.first == player || g.second == player))
    }

    /// The players who may be paired now: entered, not withdrawn, not
    /// playing (in standings order).
    pub fn free(&self) -> Vec<PlayerId> {
        self.standings()
            .into_iter()
            .filter(|e| !e.withdrawn && !self.playing(e.player))
            .map(|e| e.player)
            .collect()
    }

    /// Closes the arena if its window is over at `now_ms` and no game is
    /// being played; whether it is closed.
    pub fn close_if_over(&mut self, now_ms: u64) -> bool {
        if !self.closed
            && now_ms >= self.window.end_ms
            && self.games.iter().all(|g| g.result.is_some())
        {
            self.closed = true;
        }
        self.closed
    }

    pub fn closed(&self) -> bool {
        self.closed
    }

    pub fn games(&self) -> &[ArenaGame] {
        &self.games
    }

    /// Standings: score down, then fewer games (the same score in fewer
    /// games ranks higher), then more wins, then id (see
    /// [`Arena::tied`] for shared places).
    pub fn standings(&self) -> Vec<ArenaEntry> {
        let mut s = self.entries.clone();
        s.sort_by(|a, b| Arena::rank_order(a, b).then(a.player.cmp(&b.player)));
        s
    }

    fn rank_order(a: &ArenaEntry, b: &ArenaEntry) -> std::cmp::Ordering {
        b.score
            .cmp(&a.score)
            .then(a.games.cmp(&b.games))
            .then(b.wins.cmp(&a.wins))
    }

    /// Whether two entries share a place (equal score, games and wins).
    pub fn tied(a: &ArenaEntry, b: &ArenaEntry) -> bool {
        Arena::rank_order(a, b).is_eq()
    }

    /// Pairs the waiting players (see `pair_waiting`) and starts their
    /// games. A player still in an unfinished game is refused.
    pub fn pair_waiting(
        &mut self,
        now_ms: u64,
        waiting: &[PlayerId],
        patient: &[PlayerId],
    ) -> Result<Vec<ArenaGame>, ArenaError> {
        if let Some(p) = waiting.iter().find(|p| self.playing(**p)) {
            return Err(ArenaError::Busy(*p));
        }
        let pairs = pair_waiting(&self.window, now_ms, waiting, patient, &self.entries)?;
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
                e.wins += u32::from(result.outcome_for(seat) == crate::model::Outcome::Win);
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
        let g = a.pair_waiting(1_000, &ids, &[]).unwrap();
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
            a.pair_waiting(2_000, &[PlayerId(3)], &[]),
            Err(ArenaError::Busy(PlayerId(3)))
        );
        assert!(
            a.pair_waiting(2_000, &[PlayerId(1), PlayerId(2)], &[])
                .unwrap()
                .is_empty(),
            "no rematch"
        );
        a.record(1, GameResult::Draw).unwrap();
        let g = a.pair_waiting(3_000, &ids, &[]).unwrap();
        // 1 (1 point) meets 3 (½, closest below, not their last opponent).
        let pairs: Vec<(u64, u64)> = g.iter().map(|g| (g.first.0, g.second.0)).collect();
        assert_eq!(pairs, vec![(3, 1), (2, 4)]);
        assert_eq!(
            a.pair_waiting(61_000, &[], &[]),
            Err(ArenaError::Closed(61_000))
        );
        assert_eq!(a.pair_waiting(999, &[], &[]), Err(ArenaError::Closed(999)));
        assert_eq!(
            a.pair_waiting(3_000, &[PlayerId(9)], &[]),
            Err(ArenaError::UnknownPlayer(PlayerId(9)))
        );
        assert_eq!(a.standings()[0].player, PlayerId(1));
    }

    #[test]
    fn patient_players_rematch_withdrawn_ones_are_not_paired_and_it_closes() {
        let mut a = arena(3);
        let g = a
            .pair_waiting(1_000, &[PlayerId(1), PlayerId(2)], &[])
            .unwrap();
        assert_eq!(g.len(), 1);
        a.record(0, GameResult::Win(Seat::First)).unwrap();
        let both = [PlayerId(1), PlayerId(2)];
        assert!(
            a.pair_waiting(2_000, &both, &[PlayerId(1)])
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            a.pair_waiting(2_000, &both, &both).unwrap().len(),
            1,
            "a rematch"
        );
        // 3 withdraws while free; 1 withdraws mid-game: forfeited.
        assert_eq!(a.withdraw(PlayerId(3)), Ok(None));
        assert_eq!(
            a.pair_waiting(2_000, &[PlayerId(3)], &[]),
            Err(ArenaError::Withdrawn(PlayerId(3)))
        );
        assert_eq!(a.withdraw(PlayerId(1)), Ok(Some(1)));
        assert_eq!(a.free(), vec![PlayerId(2)], "only 2 is left to pair");
        assert!(!a.close_if_over(60_999));
        assert!(a.close_if_over(61_000));
        let s = a.standings();
        assert_eq!(
            (s[0].player, s[0].score, s[0].wins),
            (PlayerId(2), Points(4), 2)
        );
    }
}
