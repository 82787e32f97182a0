//! Random Swiss events through the `Tournament` value, with withdrawals:
//! every round keeps the absolute rules (read back from the players'
//! records; the seat rules before the last round, where topscorers may
//! break them), replaying a round's pairing or its results changes nothing,
//! and a stored-and-restored tournament is the same value.

use proptest::prelude::*;
use tengen_tournament::ledger::Entry;
use tengen_tournament::swiss::{SwissError, seat_difference};
use tengen_tournament::{
    BoardContent, GameRef, GameResult, PlayerId, PointSystem, Recorded, Seat, Settings, System,
    TieBreak, Tournament, TournamentError,
};

fn check_absolute_rules(t: &Tournament, last_round: bool) {
    for rec in t.records() {
        let opponents = rec.played_opponents();
        for (i, o) in opponents.iter().enumerate() {
            assert!(!opponents[..i].contains(o), "{} met {o} twice", rec.player);
        }
        let byes = rec
            .entries
            .iter()
            .filter(|e| matches!(e, Entry::Bye { .. }))
            .count();
        assert!(byes <= 1, "{} had {byes} byes", rec.player);
        if last_round {
            continue;
        }
        let seats = rec.seats();
        assert!(
            seat_difference(&seats).abs() <= 2,
            "{} seats {seats:?}",
            rec.player
        );
        for w in seats.windows(3) {
            assert!(
                !(w[0] == w[1] && w[1] == w[2]),
                "{} three alike {seats:?}",
                rec.player
            );
        }
    }
}

fn result_of(code: u8) -> GameResult {
    match code % 4 {
        0 => GameResult::Win(Seat::First),
        1 => GameResult::Win(Seat::Second),
        2 => GameResult::Draw,
        _ => GameResult::Win(Seat::First),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn swiss_events_keep_the_rules_and_replay_idempotently(
        n in 8u64..=40,
        results in proptest::collection::vec(any::<u8>(), 32..128),
        leavers in proptest::collection::vec((1u64..=40, 1usize..=6), 0..4),
    ) {
        let mut t = Tournament::new(Settings {
            system: System::Swiss { rounds: 7 },
            points: PointSystem::default(),
            tie_breaks: vec![TieBreak::Buchholz, TieBreak::SonnebornBerger],
        }).unwrap();
        for i in 1..=n {
            t.join(PlayerId(i), &format!("P{i}"), 1500 + (i as i32 * 37) % 400).unwrap();
        }
        t.start(n).unwrap();
        let mut next = 0usize;
        for r in 1..=7usize {
            match t.pair_next_round(r, r as u64 * 31) {
                Ok(_) => {}
                Err(TournamentError::Pairing(SwissError::NoLegalPairing)) => break,
                Err(e) => panic!("round {r}: {e}"),
            }
            prop_assert_eq!(t.pair_next_round(r, 0).err(), Some(TournamentError::AlreadyPaired(r)));
            for &(p, when) in &leavers {
                if when == r && p <= n && t.entrant(PlayerId(p)).unwrap().withdrawn_after.is_none() {
                    t.withdraw(PlayerId(p)).unwrap();
                }
            }
            let boards = t.rounds()[r - 1].boards.clone();
            for b in boards {
                let BoardContent::Match(m) = b.content else { continue };
                if m.is_over() {
                    continue;
                }
                let g = GameRef { round: r, board: b.number, game: 0 };
                let res = result_of(results[next % results.len()]);
                next += 1;
                prop_assert_eq!(t.record_result(g, res), Ok(Recorded::Applied));
                let before = t.clone();
                prop_assert_eq!(t.record_result(g, res), Ok(Recorded::AlreadyRecorded));
                prop_assert_eq!(&t, &before);
            }
            prop_assert!(t.round_complete(r));
            check_absolute_rules(&t, r == 7);
            let json = serde_json::to_string(&t).unwrap();
            let back: Tournament = serde_json::from_str(&json).unwrap();
            prop_assert_eq!(&back, &t);
        }
    }
}
