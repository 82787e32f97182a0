//! Whole events through the `Tournament` value: a Swiss with a bye, a
//! withdrawal and a stored-and-restored state; a double round robin; a
//! knockout with byes and deciders; and the refusals (typed errors that
//! change nothing).

use tengen_tournament::ledger::Entry;
use tengen_tournament::{
    BoardContent, Decider, GameRef, GameResult, MatchError, MatchFormat, MatchLength, PlayerId,
    PointSystem, Points, Recorded, Seat, Settings, System, TieBreak, Tournament, TournamentError,
};

fn settings(system: System) -> Settings {
    Settings {
        system,
        points: PointSystem::default(),
        tie_breaks: vec![
            TieBreak::Buchholz,
            TieBreak::SonnebornBerger,
            TieBreak::Wins,
        ],
    }
}

fn entered(system: System, n: u64) -> Tournament {
    let mut t = Tournament::new(settings(system)).unwrap();
    for i in 1..=n {
        t.join(PlayerId(i), &format!("P{i}"), 2000 - i as i32 * 10)
            .unwrap();
    }
    t
}

/// Records every pending single game of round `r`: the better seed wins
/// (lower id), or a draw when `draw_all`.
fn play_round(t: &mut Tournament, r: usize, draw_all: bool) {
    let boards = t.rounds()[r - 1].boards.clone();
    for b in boards {
        if let BoardContent::Match(m) = b.content {
            if m.is_over() {
                continue;
            }
            let [f, s] = m.players();
            let result = if draw_all {
                GameResult::Draw
            } else if f < s {
                GameResult::Win(Seat::First)
            } else {
                GameResult::Win(Seat::Second)
            };
            record(t, (r, b.number, 0), result);
        }
    }
}

/// Records a result that must be new: (round, board, game).
fn record(t: &mut Tournament, (round, board, game): (usize, usize, usize), result: GameResult) {
    let g = GameRef { round, board, game };
    assert_eq!(t.record_result(g, result), Ok(Recorded::Applied));
}

#[test]
fn a_swiss_runs_with_a_bye_a_withdrawal_and_a_restore() {
    let mut t = entered(System::Swiss { rounds: 4 }, 7);
    assert_eq!(
        t.pair_next_round(1, 1).err(),
        Some(TournamentError::NotStarted)
    );
    t.start(42).unwrap();
    assert_eq!(
        t.join(PlayerId(99), "late", 1500),
        Err(TournamentError::AlreadyStarted)
    );
    let r1 = t.pair_next_round(1, 42).unwrap().clone();
    assert_eq!(r1.boards.len(), 4, "three games and a bye");
    let bye = r1.boards.iter().find_map(|b| match b.content {
        BoardContent::Bye { player, points } => Some((player, points)),
        _ => None,
    });
    assert_eq!(
        bye,
        Some((PlayerId(7), Points::ONE)),
        "the lowest seed gets the bye"
    );
    assert_eq!(
        t.pair_next_round(1, 42).err(),
        Some(TournamentError::AlreadyPaired(1))
    );
    assert_eq!(
        t.pair_next_round(2, 42).err(),
        Some(TournamentError::RoundIncomplete(1))
    );
    assert_eq!(
        t.pair_next_round(3, 42).err(),
        Some(TournamentError::WrongRound { got: 3, next: 2 })
    );
    play_round(&mut t, 1, false);
    assert!(t.round_complete(1));
    // Recording the same result again counts once; a different one is refused.
    let g = GameRef {
        round: 1,
        board: 1,
        game: 0,
    };
    let [f, s] = match &t.rounds()[0].boards[0].content {
        BoardContent::Match(m) => m.players(),
        _ => panic!("board 1 is a game"),
    };
    let recorded = if f < s {
        GameResult::Win(Seat::First)
    } else {
        GameResult::Win(Seat::Second)
    };
    let before = t.standings();
    assert_eq!(t.record_result(g, recorded), Ok(Recorded::AlreadyRecorded));
    assert_eq!(
        t.record_result(g, GameResult::Draw),
        Err(TournamentError::Match(MatchError::Conflict(0)))
    );
    assert_eq!(
        t.standings(),
        before,
        "a replayed or refused result changes nothing"
    );
    assert_eq!(
        t.record_result(
            GameRef {
                round: 1,
                board: 9,
                game: 0
            },
            GameResult::Draw
        ),
        Err(TournamentError::NoSuchGame(GameRef {
            round: 1,
            board: 9,
            game: 0
        }))
    );

    t.pair_next_round(2, 7).unwrap();
    // Store and restore mid-round: the restored value is the same and goes on the same.
    let json = serde_json::to_string(&t).unwrap();
    let mut restored: Tournament = serde_json::from_str(&json).unwrap();
    assert_eq!(restored, t);
    // Player 2 withdraws during round 2: their game is forfeited.
    t.withdraw(PlayerId(2)).unwrap();
    restored.withdraw(PlayerId(2)).unwrap();
    assert_eq!(
        t.withdraw(PlayerId(2)),
        Err(TournamentError::AlreadyWithdrawn(PlayerId(2)))
    );
    play_round(&mut t, 2, false);
    play_round(&mut restored, 2, false);
    let rec2 = t
        .records()
        .into_iter()
        .find(|r| r.player == PlayerId(2))
        .unwrap();
    assert!(
        matches!(rec2.entries[0], Entry::Played { .. } | Entry::Bye { .. }),
        "past kept"
    );
    assert!(matches!(rec2.entries[1], Entry::ForfeitLoss { .. }));
    for r in 3..=4 {
        t.pair_next_round(r, r as u64).unwrap();
        restored.pair_next_round(r, r as u64).unwrap();
        play_round(&mut t, r, r == 4);
        play_round(&mut restored, r, r == 4);
        let paired: Vec<PlayerId> = t
            .records()
            .iter()
            .filter(|x| x.entries[r - 1] != Entry::Absent)
            .map(|x| x.player)
            .collect();
        assert!(
            !paired.contains(&PlayerId(2)),
            "a withdrawn player is not paired"
        );
        assert_eq!(paired.len(), 6);
    }
    assert_eq!(restored, t);
    assert!(t.finished());
    assert_eq!(
        t.pair_next_round(5, 0).err(),
        Some(TournamentError::Finished)
    );
    // Scores add up: 3 games (a forfeit among them) and a 1-point bye in
    // each of rounds 1-2, 3 games in each of rounds 3-4.
    let total: u32 = t.standings().iter().map(|s| s.score.0).sum();
    assert_eq!(total, 2 * (3 + 1) + 2 * (3 + 1) + 2 * 3 + 2 * 3);
}

#[test]
fn a_double_round_robin_meets_everyone_twice_with_seats_swapped() {
    let mut t = entered(System::RoundRobin { double: true }, 5);
    t.start(9).unwrap();
    assert_eq!(t.total_rounds(), 10);
    for r in 1..=10 {
        t.pair_next_round(r, 0).unwrap();
        play_round(&mut t, r, false);
    }
    assert!(t.finished());
    for rec in t.records() {
        let rests = rec
            .entries
            .iter()
            .filter(|e| matches!(e, Entry::Bye { .. }))
            .count();
        assert_eq!(rests, 2, "one rest per cycle");
        for o in 1..=5u64 {
            let games: Vec<Seat> = rec
                .entries
                .iter()
                .filter_map(|e| match *e {
                    Entry::Played { opponent, seat, .. } if opponent == PlayerId(o) => Some(seat),
                    _ => None,
                })
                .collect();
            if PlayerId(o) != rec.player {
                assert_eq!(games.len(), 2);
                assert_ne!(games[0], games[1], "seats swapped in the second cycle");
            }
        }
    }
    // The better seed always won: 4 wins per cycle for player 1, none for 5.
    let st = t.standings();
    assert_eq!((st[0].player, st[0].score), (PlayerId(1), Points(16)));
    assert_eq!((st[4].player, st[4].score), (PlayerId(5), Points(0)));
}

#[test]
fn a_knockout_gives_byes_to_the_top_seeds_and_plays_deciders() {
    let fmt = MatchFormat {
        length: MatchLength::BestOf(3),
        decider: Decider::ExtraGame,
    };
    let mut t = entered(System::Knockout { format: fmt }, 6);
    t.start(3).unwrap();
    assert_eq!(t.total_rounds(), 3);
    let r1 = t.pair_next_round(1, 5).unwrap().clone();
    let byes: Vec<PlayerId> = r1
        .boards
        .iter()
        .filter_map(|b| match b.content {
            BoardContent::Bye { player, .. } => Some(player),
            _ => None,
        })
        .collect();
    assert_eq!(byes, vec![PlayerId(1), PlayerId(2)]);
    // Board 2 is 4 v 5: three draws and a decider won by the opener.
    let m = match &r1.boards[1].content {
        BoardContent::Match(m) => m.clone(),
        _ => panic!("board 2 is a match"),
    };
    let mut pair = m.players();
    pair.sort();
    assert_eq!(pair, [PlayerId(4), PlayerId(5)]);
    for g in 0..3 {
        record(&mut t, (1, 2, g), GameResult::Draw);
    }
    let decider_opener = m.opener_of(3);
    record(&mut t, (1, 2, 3), GameResult::Win(Seat::First));
    // Board 4 is 3 v 6: whoever opens game 1 wins two straight.
    record(&mut t, (1, 4, 0), GameResult::Win(Seat::First));
    record(&mut t, (1, 4, 1), GameResult::Win(Seat::Second));
    assert!(t.round_complete(1));
    let r2 = t.pair_next_round(2, 8).unwrap().clone();
    let players: Vec<[PlayerId; 2]> = r2
        .boards
        .iter()
        .map(|b| match &b.content {
            BoardContent::Match(m) => {
                let mut p = m.players();
                p.sort();
                p
            }
            _ => panic!("no byes in round 2"),
        })
        .collect();
    assert_eq!(players[0], {
        let mut p = [PlayerId(1), decider_opener];
        p.sort();
        p
    });
    assert!(players[1].contains(&PlayerId(2)));
    // Withdrawing forfeits the match: the opponent goes through.
    t.withdraw(PlayerId(1)).unwrap();
    let opp = players[0].into_iter().find(|p| *p != PlayerId(1)).unwrap();
    for b in r2.boards.iter().skip(1) {
        record(&mut t, (2, b.number, 0), GameResult::Win(Seat::First));
        record(&mut t, (2, b.number, 1), GameResult::Win(Seat::Second));
    }
    let r3 = t.pair_next_round(3, 1).unwrap().clone();
    assert_eq!(r3.boards.len(), 1, "the final");
    match &r3.boards[0].content {
        BoardContent::Match(m) => assert!(m.players().contains(&opp)),
        _ => panic!("the final is a match"),
    }
    assert!(!t.finished());
}

#[test]
fn bad_settings_and_entries_are_refused() {
    let fmt = MatchFormat {
        length: MatchLength::BestOf(3),
        decider: Decider::None,
    };
    assert!(matches!(
        Tournament::new(settings(System::Knockout { format: fmt })),
        Err(TournamentError::BadSettings(_))
    ));
    assert!(Tournament::new(settings(System::Swiss { rounds: 0 })).is_err());
    let mut t = entered(System::Swiss { rounds: 3 }, 1);
    assert_eq!(
        t.join(PlayerId(1), "again", 1),
        Err(TournamentError::DuplicatePlayer(PlayerId(1)))
    );
    assert_eq!(
        t.start(0),
        Err(TournamentError::TooFewPlayers { min: 2, got: 1 })
    );
    t.withdraw(PlayerId(1)).unwrap();
    assert!(
        t.entrants().is_empty(),
        "before the start a withdrawal just leaves"
    );
    assert_eq!(
        t.withdraw(PlayerId(1)),
        Err(TournamentError::UnknownPlayer(PlayerId(1)))
    );
}

/// Six players, four rounds, every game drawn: after round 3 no legal
/// round 4 exists (each remaining pair has met or must take the same
/// seat). The pairing says so; the organiser can pair it by hand or end
/// the event with the standings final.
#[test]
fn an_unpairable_swiss_round_is_refused_then_paired_by_hand_or_ended() {
    let start = || {
        let mut t = Tournament::new(Settings::new(
            System::Swiss { rounds: 4 },
            PointSystem::default(),
            None,
        ))
        .unwrap();
        for i in 0..6u64 {
            t.join(PlayerId(i), &format!("p{i}"), 2000 - 10 * i as i32)
                .unwrap();
        }
        assert!(
            t.rounds_warning()
                .unwrap()
                .contains("4 rounds for 6 players")
        );
        t.start(7).unwrap();
        for r in 1..=3 {
            t.pair_next_round(r, r as u64).unwrap();
            for b in t.rounds()[r - 1].boards.clone() {
                t.record_result(
                    GameRef {
                        round: r,
                        board: b.number,
                        game: 0,
                    },
                    GameResult::Draw,
                )
                .unwrap();
            }
        }
        t
    };
    let mut t = start();
    assert_eq!(
        t.pair_next_round(4, 4).err(),
        Some(TournamentError::Pairing(
            tengen_tournament::swiss::SwissError::NoLegalPairing
        ))
    );
    assert!(!t.finished());
    // By hand: a rematch is the organiser's call; a player left out is not.
    let [a, b, c, d, e, f] = [0, 1, 2, 3, 4, 5].map(PlayerId);
    assert!(matches!(
        t.pair_by_hand(4, &[(a, b), (c, d)], Some(e)),
        Err(TournamentError::BadPairing(_))
    ));
    t.pair_by_hand(4, &[(a, b), (c, d), (e, f)], None).unwrap();
    for b in t.rounds()[3].boards.clone() {
        t.record_result(
            GameRef {
                round: 4,
                board: b.number,
                game: 0,
            },
            GameResult::Draw,
        )
        .unwrap();
    }
    assert!(t.finished());
    // Or ended: four rounds planned, three played, standings final.
    let mut t = start();
    t.end().unwrap();
    assert!(t.finished() && t.ended_early());
    assert_eq!(t.total_rounds(), 3);
    assert_eq!(
        t.pair_next_round(4, 4).err(),
        Some(TournamentError::Finished)
    );
    assert_eq!(t.end(), Err(TournamentError::Finished));
}

#[test]
fn a_swiss_with_more_rounds_than_its_field_allows_does_not_start() {
    let mut t = Tournament::new(Settings::new(
        System::Swiss { rounds: 4 },
        PointSystem::default(),
        None,
    ))
    .unwrap();
    for i in 0..4u64 {
        t.join(PlayerId(i), &format!("p{i}"), 2000).unwrap();
    }
    assert!(t.rounds_warning().unwrap().contains("3 is the most"));
    assert_eq!(
        t.start(1),
        Err(TournamentError::TooManyRounds {
            rounds: 4,
            players: 4,
            max: 3
        })
    );
    t.join(PlayerId(9), "p9", 1900).unwrap();
    assert!(t.start(1).is_ok(), "five players can play five rounds");
}
