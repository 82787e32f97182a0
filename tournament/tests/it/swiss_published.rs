//! Published Dutch-system examples pair as published. The cases are the
//! bbpPairings project's test suite files `test/tests/dutch_2025_C5.input`
//! and `dutch_2025_C9.input` (FIDE TRF; named after the criteria of the
//! 2025 Dutch rules, C.04.3, they exercise), copied into `fixtures/` with
//! the expected pairings from the matching `.output.expected` files.
//! White in the TRF is our first seat (the side that moves first).
//!
//! Also from that suite, `test/tests/issue_7.input` (60 players, the last
//! round): it differs, first where the published pairing uses FIDE's
//! last-round exception for top scorers, which we do not implement (see
//! the test).

use crate::common;

use common::trf::players_for;
use tengen_tournament::swiss::{pair_round, seat_difference};
use tengen_tournament::{PlayerId, Points, Seat};

fn pairs(v: &[(u64, u64)]) -> Vec<(PlayerId, PlayerId)> {
    v.iter().map(|&(a, b)| (PlayerId(a), PlayerId(b))).collect()
}

#[test]
fn bbp_dutch_2025_c5_pairs_as_published() {
    // Expected (dutch_2025_C5.output.expected): 1-5, 3-2, bye 6.
    let players = players_for(include_str!("../fixtures/bbp_dutch_2025_C5.trf"), 3);
    assert_eq!(players.len(), 5, "player 4 is absent in round 3");
    let p = pair_round(&players, 0).unwrap();
    assert_eq!(p.boards, pairs(&[(1, 5), (3, 2)]));
    assert_eq!(p.bye, Some(PlayerId(6)));
    assert_eq!(
        players.iter().find(|p| p.id == PlayerId(2)).unwrap().score,
        Points::ONE
    );
}

#[test]
fn bbp_dutch_2025_c9_pairs_as_published() {
    // Expected (dutch_2025_C9.output.expected): 2-1, 3-5, bye 4: player 5
    // was absent in round 1, so the bye goes to 4, who has missed nothing.
    let players = players_for(include_str!("../fixtures/bbp_dutch_2025_C9.trf"), 2);
    let p = pair_round(&players, 0).unwrap();
    assert_eq!(p.boards, pairs(&[(2, 1), (3, 5)]));
    assert_eq!(p.bye, Some(PlayerId(4)));
}

#[test]
fn bbp_issue_7_pairs_legally_and_mostly_as_published() {
    // Round 15 of 15, 60 players (issue_7.input / .output.expected). The
    // published pairing uses FIDE's last-round exception for top scorers
    // (over 50 %): e.g. 7 v 10, where both must open by the absolute
    // rules (7's difference is -2, 10 answered twice running) and 10
    // answers a third time. We keep the absolute rules always, so that
    // board cannot be ours and the boards around it move; lower down our
    // weights also trade criteria differently from FIDE's bracket-by-
    // bracket procedure. 19 of the 30 published boards are ours exactly
    // (pair and seats). This test guards that count and checks that our
    // own pairing is legal.
    let players = players_for(include_str!("../fixtures/bbp_issue_7.trf"), 15);
    assert_eq!(players.len(), 60);
    let p = pair_round(&players, 0).unwrap();
    let published = pairs(&[
        (1, 15),
        (3, 2),
        (11, 17),
        (7, 10),
        (8, 14),
        (4, 6),
        (5, 12),
        (9, 16),
        (13, 25),
        (24, 22),
        (18, 29),
        (20, 23),
        (19, 33),
        (21, 38),
        (39, 26),
        (28, 36),
        (31, 40),
        (37, 35),
        (44, 46),
        (30, 32),
        (27, 48),
        (47, 42),
        (51, 55),
        (34, 50),
        (49, 45),
        (53, 58),
        (41, 59),
        (56, 43),
        (60, 52),
        (54, 57),
    ]);
    let same = p.boards.iter().filter(|b| published.contains(b)).count();
    assert!(same >= 19, "{same} boards as published");
    let find = |id: PlayerId| players.iter().find(|p| p.id == id).unwrap();
    let (seven, ten) = (find(PlayerId(7)), find(PlayerId(10)));
    assert_eq!(seat_difference(&seven.seats), -2, "7 must open");
    assert_eq!(
        &ten.seats[ten.seats.len() - 2..],
        &[Seat::Second, Seat::Second],
        "10 must open"
    );
    for &(f, s) in &p.boards {
        let (f, s) = (find(f), find(s));
        assert!(!f.opponents.contains(&s.id), "rematch {} v {}", f.id, s.id);
        for (pl, seat) in [(f, Seat::First), (s, Seat::Second)] {
            let mut seats = pl.seats.clone();
            seats.push(seat);
            assert!(seat_difference(&seats).abs() <= 2, "{}: {seats:?}", pl.id);
            assert!(
                !seats.ends_with(&[seat, seat, seat]),
                "{}: {seats:?}",
                pl.id
            );
        }
    }
}
