//! The Dutch pairing's absolute rules over whole random tournaments: for
//! 8 to 64 players and random results, every round paired (as many as the
//! pairing finds legal, up to 15) has no rematch, at most one bye per
//! player (to a player without one), every seat difference within ±2 and
//! nobody in the same seat three games running; and the pairing does not
//! give up early.

use std::collections::HashMap;

use proptest::prelude::*;
use tengen_tournament::swiss::{Float, SwissError, SwissPlayer, pair_round, seat_difference};
use tengen_tournament::{PlayerId, Points, Seat};

/// Plays a Swiss of `n` players; `results` supplies each game's result
/// (0 first wins, 1 draw, 2 second wins). Returns the rounds paired.
fn run(n: usize, results: &[u8], max_rounds: usize) -> usize {
    let mut ps: Vec<SwissPlayer> = (0..n)
        .map(|i| SwissPlayer::new(PlayerId(i as u64 + 100), i))
        .collect();
    let index: HashMap<PlayerId, usize> = ps.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
    let mut byes = vec![0u32; n];
    let mut next = 0usize;
    for round in 0..max_rounds {
        let pairing = match pair_round(&ps, round as u64) {
            Ok(p) => p,
            Err(SwissError::NoLegalPairing) => return round,
            Err(e) => panic!("unexpected {e}"),
        };
        let mut seen = vec![false; n];
        for p in &mut ps {
            p.last_float = None;
        }
        let before: Vec<Points> = ps.iter().map(|p| p.score).collect();
        if let Some(b) = pairing.bye {
            let i = index[&b];
            assert!(!ps[i].had_bye, "round {round}: a second bye for {b}");
            byes[i] += 1;
            seen[i] = true;
            ps[i].had_bye = true;
            ps[i].unplayed_rounds += 1;
            ps[i].score += Points::ONE;
            ps[i].last_float = Some(Float::Down);
        }
        assert_eq!(
            pairing.boards.len(),
            n / 2,
            "round {round}: everyone paired"
        );
        for &(f, s) in &pairing.boards {
            let (fi, si) = (index[&f], index[&s]);
            assert!(!seen[fi] && !seen[si], "round {round}: a player twice");
            seen[fi] = true;
            seen[si] = true;
            assert!(
                !ps[fi].opponents.contains(&s),
                "round {round}: rematch {f} v {s}"
            );
            ps[fi].opponents.push(s);
            ps[si].opponents.push(f);
            ps[fi].seats.push(Seat::First);
            ps[si].seats.push(Seat::Second);
            let r = results[next % results.len()];
            next += 1;
            let (a, b) = match r {
                0 => (Points::ONE, Points::ZERO),
                1 => (Points::HALF, Points::HALF),
                _ => (Points::ZERO, Points::ONE),
            };
            ps[fi].score += a;
            ps[si].score += b;
            if before[fi] != before[si] {
                let (hi, lo) = if before[fi] > before[si] {
                    (fi, si)
                } else {
                    (si, fi)
                };
                ps[hi].last_float = Some(Float::Down);
                ps[lo].last_float = Some(Float::Up);
            }
        }
        assert!(seen.iter().all(|s| *s), "round {round}: someone left out");
        for p in &ps {
            let d = seat_difference(&p.seats);
            assert!(d.abs() <= 2, "round {round}: {} seat difference {d}", p.id);
            for w in p.seats.windows(3) {
                assert!(
                    !(w[0] == w[1] && w[1] == w[2]),
                    "round {round}: {} three alike",
                    p.id
                );
            }
        }
    }
    assert!(byes.iter().all(|b| *b <= 1));
    max_rounds
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn absolute_rules_hold_every_round(
        n in 8usize..=64,
        results in proptest::collection::vec(0u8..3, 64..256),
    ) {
        let rounds = (n - 1).min(15);
        let paired = run(n, &results, rounds);
        // A Swiss this size is normally run for about log2(n) + 2 rounds;
        // the pairing must get at least floor(log2 n) + 3 rounds far.
        let expected = (usize::BITS - n.leading_zeros()) as usize + 2;
        prop_assert!(paired >= expected.min(rounds), "only {paired} rounds for {n} players");
    }
}
