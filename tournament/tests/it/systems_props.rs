//! Random round robins and knockouts through the `Tournament` value, with
//! random results (draws, forfeits, deciders) and withdrawals: a round
//! robin pairs every two players once a cycle (seats swapped in the
//! second), a knockout eliminates each player at most once and ends with
//! one champion, and both finish after the expected number of rounds.

use proptest::prelude::*;
use tengen_tournament::ledger::Entry;
use tengen_tournament::{
    BoardContent, Decider, GameRef, GameResult, MatchFormat, MatchLength, MatchState, Outcome,
    PlayerId, PointSystem, Recorded, Seat, Settings, System, Tournament,
};

fn result_of(code: u8) -> GameResult {
    match code % 6 {
        0 | 1 => GameResult::Win(Seat::First),
        2 | 3 => GameResult::Win(Seat::Second),
        4 => GameResult::Draw,
        _ => GameResult::Forfeit(if code & 8 == 0 {
            Seat::First
        } else {
            Seat::Second
        }),
    }
}

/// Plays every unfinished match of round `r` to its end; a match's games
/// past the twentieth are decisive so sudden death ends.
fn play(t: &mut Tournament, r: usize, codes: &[u8], next: &mut usize) {
    let boards = t.rounds()[r - 1].boards.clone();
    for b in boards {
        let BoardContent::Match(mut m) = b.content else {
            continue;
        };
        while let MatchState::Playing { game, .. } = m.state() {
            let mut res = result_of(codes[*next % codes.len()]);
            *next += 1;
            if game >= 20 {
                res = GameResult::Win(Seat::First);
            }
            let g = GameRef {
                round: r,
                board: b.number,
                game,
            };
            assert_eq!(t.record_result(g, res), Ok(Recorded::Applied));
            assert_eq!(t.record_result(g, res), Ok(Recorded::AlreadyRecorded));
            m.record(game, res).unwrap();
        }
    }
}

fn new(system: System, n: u64) -> Tournament {
    let mut t = Tournament::new(Settings {
        system,
        points: PointSystem::default(),
        tie_breaks: vec![],
    })
    .unwrap();
    for i in 1..=n {
        t.join(PlayerId(i), &format!("P{i}"), 1000 + i as i32)
            .unwrap();
    }
    t.start(n * 7).unwrap();
    t
}

fn run(t: &mut Tournament, codes: &[u8], leavers: &[(u64, usize)]) {
    let mut next = 0;
    for r in 1..=t.total_rounds() {
        t.pair_next_round(r, r as u64).unwrap();
        for &(p, when) in leavers {
            let withdrawn = t.entrant(PlayerId(p)).map(|e| e.withdrawn_after.is_some());
            if when == r && withdrawn == Some(false) {
                t.withdraw(PlayerId(p)).unwrap();
            }
        }
        play(t, r, codes, &mut next);
        assert!(t.round_complete(r));
    }
    assert!(t.finished());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn round_robins_pair_everyone_once_a_cycle(
        n in 2u64..=12,
        double in any::<bool>(),
        codes in proptest::collection::vec(any::<u8>(), 16..64),
        leavers in proptest::collection::vec((1u64..=12, 1usize..=10), 0..3),
    ) {
        let mut t = new(System::RoundRobin { double }, n);
        run(&mut t, &codes, &leavers);
        let single = (n + n % 2 - 1) as usize;
        for rec in t.records() {
            for o in (1..=n).map(PlayerId).filter(|o| *o != rec.player) {
                let meetings: Vec<usize> = rec.entries.iter().enumerate()
                    .filter(|(_, e)| e.opponent() == Some(o)).map(|(i, _)| i).collect();
                prop_assert_eq!(meetings.len(), if double { 2 } else { 1 });
                prop_assert!(meetings[0] < single);
                if double {
                    prop_assert!(meetings[1] >= single);
                }
            }
        }
    }

    #[test]
    fn knockouts_end_with_one_champion(
        n in 2u64..=40,
        kind in 0u8..5,
        faster in any::<bool>(),
        codes in proptest::collection::vec(any::<u8>(), 16..64),
        leavers in proptest::collection::vec((1u64..=40, 1usize..=6), 0..3),
    ) {
        let length = [MatchLength::BestOf(1), MatchLength::BestOf(3), MatchLength::BestOf(5),
            MatchLength::Fixed(2), MatchLength::Fixed(4)][kind as usize];
        let decider = if faster { Decider::FasterGame } else { Decider::ExtraGame };
        let mut t = new(System::Knockout { format: MatchFormat { length, decider } }, n);
        prop_assert_eq!(t.total_rounds(), (n as usize).next_power_of_two().trailing_zeros() as usize);
        run(&mut t, &codes, &leavers);
        let last = t.rounds().last().unwrap();
        prop_assert_eq!(last.boards.len(), 1, "the final");
        let mut champions = 0;
        for rec in t.records() {
            let lost = rec.entries.iter().position(|e| matches!(e,
                Entry::Played { outcome: Outcome::Loss, .. } | Entry::ForfeitLoss { .. }));
            match lost {
                // Out once: never paired again.
                Some(i) => prop_assert!(rec.entries[i + 1..].iter().all(|e| *e == Entry::Absent)),
                None => champions += 1,
            }
        }
        prop_assert_eq!(champions, 1);
    }
}
