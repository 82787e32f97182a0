//! Hand-checked Dutch pairings of small brackets, worked out from the
//! rules (FIDE C.04.3) on paper: a transposition to honour seat
//! preferences, and a downfloater chosen and paired as the Dutch system
//! asks.

use tengen_tournament::swiss::{Float, SwissPlayer, SwissRound, pair_round};
use tengen_tournament::{PlayerId, Points, Seat};

use Seat::{First as F, Second as S};

const ROUND_TWO: SwissRound = SwissRound {
    number: 2,
    of: 5,
    win: Points::ONE,
    initial: Seat::First,
};

/// A player after round 1: id = pairing number, their score, their seat
/// and opponent.
fn after_one(id: u64, score: Points, seat: Seat, opponent: u64) -> SwissPlayer {
    SwissPlayer {
        id: PlayerId(id),
        rank: id as usize - 1,
        score,
        seats: vec![seat],
        opponents: vec![PlayerId(opponent)],
        bye_barred: false,
        floats: [None::<Float>, None],
    }
}

/// Players after round 1 from rows of (id, won, seat, opponent).
fn field(rows: &[(u64, bool, Seat, u64)]) -> Vec<SwissPlayer> {
    rows.iter()
        .map(|&(id, won, seat, opp)| {
            after_one(id, if won { Points::ONE } else { Points::ZERO }, seat, opp)
        })
        .collect()
}

fn boards(v: &[(u64, u64)]) -> Vec<(PlayerId, PlayerId)> {
    v.iter().map(|&(a, b)| (PlayerId(a), PlayerId(b))).collect()
}

#[test]
fn a_transposition_gives_both_players_of_each_board_their_seat() {
    // Round 1: 1-5, 6-2, 3-7, 8-4 (first seat first); 1-4 won. Round 2,
    // score group 1: {1, 2, 3, 4}: S1 = {1, 2}, S2 = {3, 4}. The plain
    // 1-3, 2-4 gives 1 and 3 (both opened) the same wish to answer, and
    // 2 and 4 the same wish to open; the first transposition, 1-4, 2-3,
    // satisfies all four. The same happens in group 0: 5-8, 6-7.
    let players = field(&[
        (1, true, F, 5),
        (2, true, S, 6),
        (3, true, F, 7),
        (4, true, S, 8),
        (5, false, S, 1),
        (6, false, F, 2),
        (7, false, S, 3),
        (8, false, F, 4),
    ]);
    let p = pair_round(&players, ROUND_TWO).unwrap();
    assert_eq!(p.boards, boards(&[(4, 1), (2, 3), (5, 8), (7, 6)]));
    assert_eq!(p.bye, None);
}

#[test]
fn an_odd_group_floats_its_lowest_player_to_the_top_of_the_next() {
    // Round 1: 1-4, 5-2, 3-6; 1, 2 and 3 won. Group 1 = {1, 2, 3} is odd:
    // S1 = {1}, S2 = {2, 3}: 1 meets 2 and 3, the lowest, floats down to
    // meet the highest of group 0 he has not met, 4; then 5-6. Seats:
    // each pair has one player due to open and one to answer.
    let players = field(&[
        (1, true, F, 4),
        (2, true, S, 5),
        (3, true, F, 6),
        (4, false, S, 1),
        (5, false, F, 2),
        (6, false, S, 3),
    ]);
    let p = pair_round(&players, ROUND_TWO).unwrap();
    assert_eq!(p.boards, boards(&[(2, 1), (4, 3), (6, 5)]));
}
