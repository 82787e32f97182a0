//! Swiss pairing by the Dutch system (FIDE C.04.3), done as bbpPairings
//! does it: one maximum-weight matching over every pair of players, each
//! pair's weight encoding the Dutch criteria in priority order, so the
//! best pairing by the first criterion wins, ties broken by the next, and
//! so on (see `weights`). The absolute criteria are not weights: a pair
//! that would break one (a rematch, two players who must both open or
//! both answer, a second bye) has no edge at all. The matching maximises
//! the number of pairs first, so a legal pairing is found whenever one
//! exists; when none does the round is refused with a typed error.

mod colours;
mod player;
mod weights;

pub use colours::{Preference, Strength, hi_opens, preference, seat_difference};
pub use player::{Float, SwissPlayer};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::model::{PlayerId, Seat, mix_lot};

/// One round's pairing: boards (first seat, second seat) in board order,
/// and the bye.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissPairing {
    pub boards: Vec<(PlayerId, PlayerId)>,
    pub bye: Option<PlayerId>,
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

/// Pairs one round. `lot` (a random value the caller drew) decides the top
/// seed's seat in a round where nobody has a preference (the first round);
/// the seats then alternate down the boards.
pub fn pair_round(players: &[SwissPlayer], lot: u64) -> Result<SwissPairing, SwissError> {
    if players.len() < 2 {
        return Err(SwissError::TooFewPlayers);
    }
    let mut ids: Vec<PlayerId> = players.iter().map(|p| p.id).collect();
    ids.sort();
    if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
        return Err(SwissError::Duplicate(w[0]));
    }
    // Order: score down, then pairing number.
    let mut order: Vec<&SwissPlayer> = players.iter().collect();
    order.sort_by(|a, b| b.score.cmp(&a.score).then(a.rank.cmp(&b.rank)));
    let mate = weights::solve(&order).ok_or(SwissError::NoLegalPairing)?;
    let initial = if mix_lot(lot, 0) & 1 == 0 {
        Seat::First
    } else {
        Seat::Second
    };
    let mut bye = None;
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for (i, m) in mate.iter().enumerate() {
        match m {
            None => bye = Some(order[i].id),
            Some(j) if i < *j => pairs.push((i, *j)),
            Some(_) => {}
        }
    }
    // Board order: the higher score of the pair, then the better-ranked
    // player (the order index already sorts both).
    pairs.sort_by_key(|&(i, j)| i.min(j));
    let boards = pairs
        .into_iter()
        .map(|(i, j)| {
            let (hi, lo) = if order[i].rank <= order[j].rank {
                (order[i], order[j])
            } else {
                (order[j], order[i])
            };
            // With no preferences, odd pairing numbers (rank 0, 2, ..)
            // take the initial seat, even ones the other (FIDE E.5).
            let default = if hi.rank % 2 == 0 {
                initial
            } else {
                initial.other()
            };
            if hi_opens(&hi.seats, &lo.seats, default) {
                (hi.id, lo.id)
            } else {
                (lo.id, hi.id)
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

    #[test]
    fn round_one_pairs_top_half_against_bottom_half_with_alternating_seats() {
        let p = pair_round(&fresh(8), 0).unwrap();
        let ids = |a: u64, b: u64| (PlayerId(a), PlayerId(b));
        let initial_first = mix_lot(0, 0) & 1 == 0;
        let expected = if initial_first {
            vec![ids(1, 5), ids(6, 2), ids(3, 7), ids(8, 4)]
        } else {
            vec![ids(5, 1), ids(2, 6), ids(7, 3), ids(4, 8)]
        };
        assert_eq!(p.boards, expected);
        assert_eq!(p.bye, None);
    }

    #[test]
    fn an_odd_field_gives_the_bye_to_the_lowest_ranked_without_one() {
        let mut players = fresh(5);
        players[4].had_bye = true;
        let p = pair_round(&players, 7).unwrap();
        assert_eq!(p.bye, Some(PlayerId(4)));
        assert_eq!(p.boards.len(), 2);
    }

    #[test]
    fn no_legal_pairing_is_a_typed_error() {
        let mut players = fresh(2);
        players[0].opponents.push(PlayerId(2));
        players[1].opponents.push(PlayerId(1));
        assert_eq!(pair_round(&players, 0), Err(SwissError::NoLegalPairing));
        assert_eq!(pair_round(&players[..1], 0), Err(SwissError::TooFewPlayers));
    }
}
