//! The organiser's tie-break order: the same results ranked under two
//! orders rank the tied players differently, in the standings, the
//! crosstable and the TRF export alike; a system's default order applies
//! when none is given; a list with a repeat or too many entries is refused
//! with a typed error before the event exists.

use tengen_tournament::export::{crosstable, trf};
use tengen_tournament::{
    BoardContent, GameRef, GameResult, MAX_TIE_BREAKS, PlayerId, PointSystem, Seat, Settings,
    System, TieBreak, TieBreakError, Tournament, TournamentError,
};

/// The result of the game between `a` and `b`, from `a`'s side, in a
/// four-player round robin worked by hand:
///
/// | game   | result     |
/// |--------|------------|
/// | 1 v 2  | 1 wins     |
/// | 1 v 3  | 1 wins     |
/// | 1 v 4  | 4 wins     |
/// | 2 v 3  | draw       |
/// | 2 v 4  | draw       |
/// | 3 v 4  | 3 wins     |
///
/// Scores: 1 has 2, 3 and 4 have 1½ each, 2 has 1. Between 3 and 4:
/// one win each; Sonneborn-Berger 3 = 1½ (beat 4) + ½·1 (drew 2) = 2,
/// 4 = 2 (beat 1) + ½·1 = 2½, so SB puts 4 first; the direct encounter
/// (3 beat 4) puts 3 first.
fn score_of(a: u64, b: u64) -> f32 {
    let (lo, hi, flip) = if a < b { (a, b, false) } else { (b, a, true) };
    let lo_scores = match (lo, hi) {
        (1, 2) | (1, 3) | (3, 4) => 1.0,
        (1, 4) => 0.0,
        _ => 0.5,
    };
    if flip { 1.0 - lo_scores } else { lo_scores }
}

fn played_out(order: Option<Vec<TieBreak>>) -> Tournament {
    let system = System::RoundRobin { double: false };
    let mut t = Tournament::new(Settings::new(system, PointSystem::default(), order)).unwrap();
    for (i, name) in ["One", "Two", "Three", "Four"].iter().enumerate() {
        t.join(PlayerId(i as u64 + 1), name, 2000 - 10 * i as i32)
            .unwrap();
    }
    t.start(7).unwrap();
    for r in 1..=t.total_rounds() {
        let boards = t.pair_next_round(r, r as u64).unwrap().boards.clone();
        for b in boards {
            let BoardContent::Match(m) = b.content else {
                continue;
            };
            let [f, s] = m.players();
            let result = match score_of(f.0, s.0) {
                1.0 => GameResult::Win(Seat::First),
                0.0 => GameResult::Win(Seat::Second),
                _ => GameResult::Draw,
            };
            let game = GameRef {
                round: r,
                board: b.number,
                game: 0,
            };
            t.record_result(game, result).unwrap();
        }
    }
    assert!(t.finished());
    t
}

/// Names in standings order with their ranks.
fn ranking(t: &Tournament) -> Vec<(usize, String)> {
    t.standings()
        .iter()
        .map(|s| (s.rank, t.entrant(s.player).unwrap().name.clone()))
        .collect()
}

/// The rank the TRF export gives a player (columns 86-89).
fn trf_rank(t: &Tournament, name: &str) -> String {
    trf(t, "Order")
        .lines()
        .find(|l| l.starts_with("001") && l[14..47].trim_end() == name)
        .map(|l| l[85..89].trim().to_owned())
        .unwrap()
}

#[test]
fn sonneborn_berger_first_ranks_four_above_three() {
    let t = played_out(Some(vec![
        TieBreak::SonnebornBerger,
        TieBreak::DirectEncounter,
    ]));
    let r = ranking(&t);
    let names: Vec<&str> = r.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(names, ["One", "Four", "Three", "Two"]);
    assert_eq!(r[1].0, 2);
    assert_eq!(r[2].0, 3);
    let four = &t.standings()[1];
    // SB 2½ = 10 quarters, then the direct encounter is not reached
    // (the pair is split already), so it stays 0.
    assert_eq!(four.tie_breaks, vec![10, 0]);
    let header = crosstable(&t).lines().next().unwrap().to_owned();
    let (sb, de) = (header.find(" SB").unwrap(), header.find(" DE").unwrap());
    assert!(sb < de, "{header}");
    assert_eq!(trf_rank(&t, "Four"), "2");
    assert_eq!(trf_rank(&t, "Three"), "3");
}

#[test]
fn direct_encounter_first_ranks_three_above_four() {
    let t = played_out(Some(vec![
        TieBreak::DirectEncounter,
        TieBreak::SonnebornBerger,
    ]));
    let names: Vec<String> = ranking(&t).into_iter().map(|(_, n)| n).collect();
    assert_eq!(names, ["One", "Three", "Four", "Two"]);
    let three = &t.standings()[1];
    // Three scored 1 (4 quarters) against Four.
    assert_eq!(three.tie_breaks[0], 4);
    let header = crosstable(&t).lines().next().unwrap().to_owned();
    assert!(header.find(" DE").unwrap() < header.find(" SB").unwrap());
    assert_eq!(trf_rank(&t, "Three"), "2");
    assert_eq!(trf_rank(&t, "Four"), "3");
}

#[test]
fn wins_alone_leave_three_and_four_sharing_a_place() {
    let t = played_out(Some(vec![TieBreak::Wins]));
    let r = ranking(&t);
    assert_eq!((r[1].0, r[2].0), (2, 2), "{r:?}");
    assert_eq!(trf_rank(&t, "Three"), "2");
    assert_eq!(trf_rank(&t, "Four"), "2");
}

#[test]
fn without_an_order_each_system_uses_its_default() {
    let rr = played_out(None);
    assert_eq!(
        rr.settings().tie_breaks,
        [
            TieBreak::SonnebornBerger,
            TieBreak::DirectEncounter,
            TieBreak::Wins
        ]
    );
    assert_eq!(ranking(&rr)[1].1, "Four");
    let swiss = Settings::new(System::Swiss { rounds: 3 }, PointSystem::default(), None);
    assert_eq!(
        swiss.tie_breaks,
        [
            TieBreak::Buchholz,
            TieBreak::SonnebornBerger,
            TieBreak::Wins
        ]
    );
}

#[test]
fn a_repeated_or_overlong_order_is_refused() {
    let system = System::Swiss { rounds: 3 };
    let repeat = vec![TieBreak::Wins, TieBreak::Buchholz, TieBreak::Wins];
    let got = Tournament::new(Settings::new(system, PointSystem::default(), Some(repeat)));
    assert_eq!(
        got.unwrap_err(),
        TournamentError::TieBreaks(TieBreakError::Repeated(TieBreak::Wins))
    );
    let long = vec![TieBreak::Wins; MAX_TIE_BREAKS + 1];
    let got = Tournament::new(Settings::new(system, PointSystem::default(), Some(long)));
    assert_eq!(
        got.unwrap_err(),
        TournamentError::TieBreaks(TieBreakError::TooMany {
            max: MAX_TIE_BREAKS,
            got: MAX_TIE_BREAKS + 1
        })
    );
    let all = vec![
        TieBreak::FirstSeatGames,
        TieBreak::Wins,
        TieBreak::DirectEncounter,
        TieBreak::SonnebornBerger,
        TieBreak::MedianBuchholz,
        TieBreak::Buchholz,
    ];
    assert_eq!(all.len(), MAX_TIE_BREAKS);
    let t = Tournament::new(Settings::new(
        system,
        PointSystem::default(),
        Some(all.clone()),
    ));
    assert_eq!(t.unwrap().settings().tie_breaks, all);
}
