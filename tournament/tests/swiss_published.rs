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

use tengen_tournament::swiss::{Float, SwissPlayer, pair_round, seat_difference};
use tengen_tournament::{PlayerId, Points, Seat};

/// One round entry of a TRF player line: opponent (0 none), colour, result.
struct Entry {
    opp: u64,
    colour: char,
    result: char,
}

/// Parses the fixed columns of TRF `001` lines: pairing number (cols
/// 5-8), then from col 92 one 10-column entry per round.
fn parse(trf: &str) -> Vec<(u64, Vec<Entry>)> {
    trf.lines()
        .filter(|l| l.starts_with("001"))
        .map(|l| {
            let id = l[4..8].trim().parse().unwrap();
            let mut entries = Vec::new();
            let mut at = 91;
            while at + 8 <= l.len() {
                let e = &l[at..(at + 10).min(l.len())];
                entries.push(Entry {
                    opp: e[0..4].trim().parse().unwrap(),
                    colour: e.as_bytes()[5] as char,
                    result: e.as_bytes()[7] as char,
                });
                at += 10;
            }
            (id, entries)
        })
        .collect()
}

fn points(result: char) -> Points {
    match result {
        '1' | '+' | 'W' | 'F' | 'U' => Points::ONE,
        '=' | 'H' | 'D' => Points::HALF,
        _ => Points::ZERO,
    }
}

/// The players to pair in round `round` (1-based): those without an entry
/// for it yet (an entry already there is a known absence).
fn players_for(trf: &str, round: usize) -> Vec<SwissPlayer> {
    let all = parse(trf);
    let score_before = |id: u64, upto: usize| -> Points {
        let (_, es) = all.iter().find(|(i, _)| *i == id).unwrap();
        es.iter().take(upto).map(|e| points(e.result)).sum()
    };
    all.iter()
        .filter(|(_, es)| es.len() == round - 1)
        .map(|(id, es)| {
            let played = |e: &Entry| e.opp != 0 && matches!(e.result, '1' | '0' | '=');
            let last_float = es.last().and_then(|e| {
                let mine = score_before(*id, round - 2);
                if e.opp == 0 || !played(e) {
                    (points(e.result) > Points::ZERO).then_some(Float::Down)
                } else {
                    let theirs = score_before(e.opp, round - 2);
                    (mine != theirs).then_some(if mine > theirs {
                        Float::Down
                    } else {
                        Float::Up
                    })
                }
            });
            SwissPlayer {
                id: PlayerId(*id),
                rank: *id as usize - 1,
                score: es.iter().map(|e| points(e.result)).sum(),
                seats: es
                    .iter()
                    .filter(|e| played(e))
                    .map(|e| {
                        if e.colour == 'w' {
                            Seat::First
                        } else {
                            Seat::Second
                        }
                    })
                    .collect(),
                opponents: es
                    .iter()
                    .filter(|e| e.opp != 0)
                    .map(|e| PlayerId(e.opp))
                    .collect(),
                had_bye: es.iter().any(|e| matches!(e.result, 'U' | 'F' | '+')),
                unplayed_rounds: es.iter().filter(|e| !played(e)).count() as u32,
                last_float,
            }
        })
        .collect()
}

fn pairs(v: &[(u64, u64)]) -> Vec<(PlayerId, PlayerId)> {
    v.iter().map(|&(a, b)| (PlayerId(a), PlayerId(b))).collect()
}

#[test]
fn bbp_dutch_2025_c5_pairs_as_published() {
    // Expected (dutch_2025_C5.output.expected): 1-5, 3-2, bye 6.
    let players = players_for(include_str!("fixtures/bbp_dutch_2025_C5.trf"), 3);
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
    let players = players_for(include_str!("fixtures/bbp_dutch_2025_C9.trf"), 2);
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
    let players = players_for(include_str!("fixtures/bbp_issue_7.trf"), 15);
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
