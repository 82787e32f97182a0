//! Swiss pairing by the Dutch system: FIDE Handbook C.04.3, the edition
//! applied from 1 February 2026 (with C.04.1 and C.04.2 of the same
//! date). `dutch` pairs the brackets from the top down by the criteria
//! C1 to C21 in their order, as bbpPairings does; `colours` holds the
//! preferences and the allocation of seats (article 5). When no pairing
//! satisfies the absolute criteria the round is refused with a typed
//! error, so the organiser can end the event or pair it by hand.

mod colours;
mod dutch;
mod player;
mod wide;

pub use colours::{Preference, Strength, preference, seat_difference};
pub use player::{Float, SwissPlayer};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::model::{PlayerId, Points, Seat};
use colours::{Colours, seat_for};

/// One round's pairing: boards (first seat, second seat) in board order,
/// and the bye.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissPairing {
    pub boards: Vec<(PlayerId, PlayerId)>,
    pub bye: Option<PlayerId>,
}

/// The round being paired, beyond its players.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SwissRound {
    /// The round's number (1-based).
    pub number: usize,
    /// The event's number of rounds: the last round lets topscorers
    /// (above half the points so far) break the seat rules (C3).
    pub of: usize,
    /// What a win is worth (the most a round can give).
    pub win: Points,
    /// The initial colour, drawn by lot before round 1 (5.1): the seat
    /// the top seed takes in round 1.
    pub initial: Seat,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SwissError {
    #[error("fewer than two players to pair")]
    TooFewPlayers,
    #[error("the same player is listed twice: {0}")]
    Duplicate(PlayerId),
    #[error("no pairing respects the absolute rules (no rematch, seats, one bye each)")]
    NoLegalPairing,
}

/// Pairs one round.
pub fn pair_round(players: &[SwissPlayer], round: SwissRound) -> Result<SwissPairing, SwissError> {
    if players.len() < 2 {
        return Err(SwissError::TooFewPlayers);
    }
    let mut ids: Vec<PlayerId> = players.iter().map(|p| p.id).collect();
    ids.sort();
    if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
        return Err(SwissError::Duplicate(w[0]));
    }
    let cx = dutch::Context {
        played_rounds: round.number.saturating_sub(1) as u32,
        last_round: round.number >= round.of,
        round_max: round.win.0,
    };
    let mates = dutch::pair(players, &cx).ok_or(SwissError::NoLegalPairing)?;
    // Higher in the order: more points, then the lower pairing number.
    let above = |a: &SwissPlayer, b: &SwissPlayer| (b.score, a.rank) < (a.score, b.rank);
    let mut bye = None;
    let mut pairs: Vec<(&SwissPlayer, &SwissPlayer)> = Vec::new();
    for (i, m) in mates.iter().enumerate() {
        match *m {
            None => bye = Some(players[i].id),
            Some(j) if above(&players[i], &players[j]) => pairs.push((&players[i], &players[j])),
            Some(_) => {}
        }
    }
    // Board order: the higher player's score, then the lower player's,
    // then the higher player's pairing number.
    pairs.sort_by(|(h1, l1), (h2, l2)| {
        (h2.score, l2.score, h1.rank).cmp(&(h1.score, l1.score, h2.rank))
    });
    let boards = pairs
        .into_iter()
        .map(|(h, l)| {
            let seat = seat_for(
                (&Colours::of(&h.seats), &h.seats),
                (&Colours::of(&l.seats), &l.seats),
                true,
                h.rank % 2 == 0,
                round.initial,
            );
            if seat == Seat::First {
                (h.id, l.id)
            } else {
                (l.id, h.id)
            }
        })
        .collect();
    Ok(SwissPairing { boards, bye })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh(n: usize) -> Vec<SwissPlayer> {
        (0..n)
            .map(|i| SwissPlayer::new(PlayerId(i as u64 + 1), i))
            .collect()
    }

    fn round(number: usize) -> SwissRound {
        SwissRound {
            number,
            of: 9,
            win: Points::ONE,
            initial: Seat::First,
        }
    }

    #[test]
    fn round_one_pairs_top_half_against_bottom_half_with_alternating_seats() {
        let p = pair_round(&fresh(8), round(1)).unwrap();
        let ids = |a: u64, b: u64| (PlayerId(a), PlayerId(b));
        assert_eq!(p.boards, vec![ids(1, 5), ids(6, 2), ids(3, 7), ids(8, 4)]);
        assert_eq!(p.bye, None);
    }

    #[test]
    fn an_odd_field_gives_the_bye_to_the_lowest_ranked_eligible_player() {
        let mut players = fresh(5);
        players[4].bye_barred = true;
        let p = pair_round(&players, round(1)).unwrap();
        assert_eq!(p.bye, Some(PlayerId(4)));
        assert_eq!(p.boards.len(), 2);
    }

    #[test]
    fn no_legal_pairing_is_a_typed_error() {
        let mut players = fresh(2);
        players[0].opponents.push(PlayerId(2));
        players[1].opponents.push(PlayerId(1));
        assert_eq!(
            pair_round(&players, round(2)),
            Err(SwissError::NoLegalPairing)
        );
        assert_eq!(
            pair_round(&players[..1], round(2)),
            Err(SwissError::TooFewPlayers)
        );
    }
}
