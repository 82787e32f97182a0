//! The crosstable and the TRF export of a small Swiss, read back by
//! their columns.

use crate::common;

use tengen_tournament::export::{crosstable, trf};
use tengen_tournament::swiss::{SwissRound, pair_round};
use tengen_tournament::{
    BoardContent, GameRef, GameResult, PlayerId, PointSystem, Points, Seat, Settings, System,
    TieBreak, Tournament,
};

/// Four players, one round played (the better seed wins), round 2 paired.
fn event() -> (Tournament, Seat) {
    let mut t = Tournament::new(Settings {
        system: System::Swiss { rounds: 3 },
        points: PointSystem::default(),
        tie_breaks: vec![TieBreak::Buchholz, TieBreak::Wins],
    })
    .unwrap();
    for (i, name) in ["Ann", "Bo", "Cy", "Di"].iter().enumerate() {
        t.join(PlayerId(i as u64 + 1), name, 2100 - 100 * i as i32)
            .unwrap();
    }
    t.start(0).unwrap();
    let r1 = t.pair_next_round(1, 11).unwrap().clone();
    let mut seat_of_1 = Seat::First;
    for b in &r1.boards {
        let BoardContent::Match(m) = &b.content else {
            panic!("no bye with four")
        };
        let [f, s] = m.players();
        if f == PlayerId(1) || s == PlayerId(1) {
            seat_of_1 = m.seat_of(0, PlayerId(1));
        }
        let result = GameResult::Win(if f < s { Seat::First } else { Seat::Second });
        t.record_result(
            GameRef {
                round: 1,
                board: b.number,
                game: 0,
            },
            result,
        )
        .unwrap();
    }
    t.pair_next_round(2, 12).unwrap();
    (t, seat_of_1)
}

#[test]
fn trf_lines_have_fide_columns() {
    let (t, seat) = event();
    let text = trf(&t, "Test Open");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "012 Test Open");
    assert_eq!(lines[1], "XXR 3");
    let ann = lines[2];
    assert_eq!(&ann[0..8], "001    1");
    assert_eq!(ann[14..47].trim_end(), "Ann");
    assert_eq!(&ann[48..52], "2100");
    assert_eq!(&ann[80..84], " 1.0");
    assert_eq!(&ann[85..89], "   1", "Ann and Bo share first place");
    // Round 1: beat number 3 (top half v bottom half); w = the first seat.
    assert_eq!(&ann[91..95], "   3");
    assert_eq!(&ann[96..97], if seat == Seat::First { "w" } else { "b" });
    assert_eq!(&ann[98..99], "1");
    // Round 2 is paired, not played: an opponent, a colour, no result.
    assert_ne!(&ann[101..105], "0000");
    assert_eq!(&ann[108..109], " ");
    let di = lines[5];
    assert_eq!((&di[4..8], &di[80..84], &di[98..99]), ("   4", " 0.0", "0"));
}

#[test]
fn the_crosstable_lists_places_seats_and_results() {
    let (t, seat) = event();
    let text = crosstable(&t);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].contains("Name") && lines[0].contains("Buch") && lines[0].contains("Wins"));
    assert!(lines[1].starts_with("  1  Ann"));
    assert!(
        lines[2].starts_with("     Bo"),
        "a shared place is written once: {}",
        lines[2]
    );
    // Ann beat Cy, placed 3rd; b = black, the first seat.
    let cell = format!("3{}1", if seat == Seat::First { "b" } else { "w" });
    assert!(
        lines[1].split_whitespace().any(|c| c == cell),
        "{} in {}",
        cell,
        lines[1]
    );
    assert!(lines[1].contains(" 1.0"));
}

/// An 11-player Swiss with draws, a forfeit and a bye every round: after
/// each round, the TRF export read back (by the TRF reader the published
/// cases use) gives the Swiss pairing the same players, so it pairs the
/// next round exactly as the tournament does: the file carries every
/// opponent, seat, result, bye and forfeit the pairing needs.
#[test]
fn a_trf_export_read_back_pairs_the_next_round_as_the_tournament_does() {
    let mut t = Tournament::new(Settings {
        system: System::Swiss { rounds: 6 },
        points: PointSystem::default(),
        tie_breaks: vec![],
    })
    .unwrap();
    for i in 1..=11u64 {
        t.join(
            PlayerId(i),
            &format!("Player {i}"),
            1800 + (i as i32 * 53) % 300,
        )
        .unwrap();
    }
    t.start(5).unwrap();
    for r in 1..=6usize {
        let lot = 1000 + r as u64;
        if r > 1 {
            let file = trf(&t, "Read back");
            let players = common::trf::players_for(&file, r);
            let this = SwissRound {
                number: r,
                of: 6,
                win: Points::ONE,
                initial: common::trf::initial(&file),
            };
            let expected = pair_round(&players, this).unwrap();
            // The TRF names players by pairing number.
            let id = |p: PlayerId| t.numbers()[p.0 as usize - 1];
            let expected_boards: Vec<(PlayerId, PlayerId)> = expected
                .boards
                .iter()
                .map(|&(f, s)| (id(f), id(s)))
                .collect();
            let expected_bye = expected.bye.map(id);
            let round = t.pair_next_round(r, lot).unwrap();
            let mut ours = Vec::new();
            let mut bye = None;
            for b in &round.boards {
                match &b.content {
                    BoardContent::Match(m) => ours.push((m.players()[0], m.players()[1])),
                    BoardContent::Bye { player, .. } => bye = Some(*player),
                }
            }
            assert_eq!((ours, bye), (expected_boards, expected_bye), "round {r}");
        } else {
            t.pair_next_round(r, lot).unwrap();
        }
        let boards = t.rounds()[r - 1].boards.clone();
        for (k, b) in boards.iter().enumerate() {
            let BoardContent::Match(m) = &b.content else {
                continue;
            };
            let [f, s] = m.players();
            let result = match (r + k) % 5 {
                0 => GameResult::Draw,
                1 if r == 3 => GameResult::Forfeit(Seat::Second),
                1 | 2 => GameResult::Win(if f < s { Seat::First } else { Seat::Second }),
                _ => GameResult::Win(if f < s { Seat::Second } else { Seat::First }),
            };
            t.record_result(
                GameRef {
                    round: r,
                    board: b.number,
                    game: 0,
                },
                result,
            )
            .unwrap();
        }
    }
}

/// The result cell of round `round` (1-based) on a TRF 001 line: opponent,
/// colour, result.
fn cell(line: &str, round: usize) -> (String, char, char) {
    let at = 91 + 10 * (round - 1);
    let e = &line[at..at + 8];
    (
        e[0..4].trim().to_owned(),
        e.as_bytes()[5] as char,
        e.as_bytes()[7] as char,
    )
}

#[test]
fn a_forfeit_keeps_its_scheduled_colour_in_the_trf() {
    let (mut t, _) = event();
    let r2 = t.rounds()[1].clone();
    for b in &r2.boards {
        let BoardContent::Match(m) = &b.content else {
            continue;
        };
        t.record_result(
            GameRef {
                round: 2,
                board: b.number,
                game: 0,
            },
            GameResult::Forfeit(Seat::Second),
        )
        .unwrap();
        let _ = m;
    }
    let text = trf(&t, "Forfeits");
    let lines: Vec<&str> = text.lines().skip(2).collect();
    for b in &r2.boards {
        let BoardContent::Match(m) = &b.content else {
            continue;
        };
        let [f, s] = m.players();
        let number = |p: PlayerId| t.numbers().iter().position(|n| *n == p).unwrap() + 1;
        let (first, second) = (cell(lines[number(f) - 1], 2), cell(lines[number(s) - 1], 2));
        assert_eq!(
            first,
            (number(s).to_string(), 'w', '-'),
            "the first seat forfeited"
        );
        assert_eq!(
            second,
            (number(f).to_string(), 'b', '+'),
            "the second seat won by forfeit"
        );
    }
}

#[test]
fn a_knockout_final_won_by_forfeit_reads_as_a_forfeit() {
    use tengen_tournament::{Decider, MatchFormat, MatchLength};
    let format = MatchFormat {
        length: MatchLength::BestOf(3),
        decider: Decider::ExtraGame,
    };
    let mut t = Tournament::new(Settings::new(
        System::Knockout { format },
        PointSystem::default(),
        None,
    ))
    .unwrap();
    t.join(PlayerId(1), "Ann", 2000).unwrap();
    t.join(PlayerId(2), "Bo", 1900).unwrap();
    t.start(3).unwrap();
    t.pair_next_round(1, 4).unwrap();
    // Game 1 is played, then Bo withdraws: Ann wins the final by forfeit.
    t.record_result(
        GameRef {
            round: 1,
            board: 1,
            game: 0,
        },
        GameResult::Draw,
    )
    .unwrap();
    t.withdraw(PlayerId(2)).unwrap();
    assert!(t.finished());
    let text = trf(&t, "Final");
    let lines: Vec<&str> = text.lines().skip(2).collect();
    let BoardContent::Match(m) = &t.rounds()[0].boards[0].content else {
        panic!("a match")
    };
    let colour = |p: PlayerId| {
        if m.seat_of(0, p) == Seat::First {
            'w'
        } else {
            'b'
        }
    };
    assert_eq!(
        cell(lines[0], 1),
        ("2".to_owned(), colour(PlayerId(1)), '+')
    );
    assert_eq!(
        cell(lines[1], 1),
        ("1".to_owned(), colour(PlayerId(2)), '-')
    );
}
