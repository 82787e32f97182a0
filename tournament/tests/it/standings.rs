//! Tie-breaks on small hand-worked events; every expected value below was
//! computed by hand from the definitions in `docs/tournaments.md` (values
//! in quarter points for Buchholz and Sonneborn-Berger).

use tengen_tournament::ledger::{Entry, Record};
use tengen_tournament::standings::standings;
use tengen_tournament::{Outcome, PlayerId, PointSystem, Points, Seat, TieBreak};

const P: fn(u64) -> PlayerId = PlayerId;

fn played(o: u64, seat: Seat, outcome: Outcome) -> Entry {
    Entry::Played {
        opponent: P(o),
        seat,
        outcome,
    }
}

fn record(id: u64, entries: Vec<Entry>) -> Record {
    Record {
        player: P(id),
        entries,
    }
}

/// Five players, three rounds, with byes, a forfeit and absences:
///
/// | round | games                              | byes / unplayed          |
/// |-------|------------------------------------|--------------------------|
/// | 1     | 1 beats 2 (1 first), 4 beats 5     | 3 bye                    |
/// | 2     | 3 (first) draws 1                  | 2 bye, 4 wins 5 by forfeit |
/// | 3     | 2 (first) beats 3                  | 1 bye, 4 and 5 absent    |
fn swiss_like() -> Vec<Record> {
    use Outcome::*;
    use Seat::*;
    let bye = Entry::Bye {
        points: Points::ONE,
    };
    vec![
        record(1, vec![played(2, First, Win), played(3, Second, Draw), bye]),
        record(2, vec![played(1, Second, Loss), bye, played(3, First, Win)]),
        record(
            3,
            vec![bye, played(1, First, Draw), played(2, Second, Loss)],
        ),
        record(
            4,
            vec![
                played(5, First, Win),
                Entry::ForfeitWin { opponent: P(5) },
                Entry::Absent,
            ],
        ),
        record(
            5,
            vec![
                played(4, Second, Loss),
                Entry::ForfeitLoss { opponent: P(4) },
                Entry::Absent,
            ],
        ),
    ]
}

#[test]
fn buchholz_counts_unplayed_rounds_as_fide_does() {
    // Adjusted scores (unplayed rounds as draws), in quarters: 1: 8,
    // 2: 6, 3: 4, 4: 8, 5: 4. Own unplayed rounds add the own score.
    let order = [
        TieBreak::Buchholz,
        TieBreak::MedianBuchholz,
        TieBreak::SonnebornBerger,
        TieBreak::Wins,
        TieBreak::FirstSeatGames,
    ];
    let st = standings(&swiss_like(), &PointSystem::default(), &order);
    let row = |id: u64| st.iter().find(|s| s.player == P(id)).unwrap();
    // Player 1: Buchholz 6 (v 2) + 4 (v 3) + 10 (bye: own 2½) = 20;
    // median drops 4 and 10: 6; SB: beat 2 (6) + half of 3 (2) = 8.
    assert_eq!(row(1).tie_breaks, vec![20, 6, 8, 1, 1]);
    // Player 2: 8 (v 1) + 8 (bye: own 2) + 4 (v 3); median 8; SB 4.
    assert_eq!(row(2).tie_breaks, vec![20, 8, 4, 1, 1]);
    // Player 3: 6 (bye: own 1½) + 8 + 6; median 6; SB half of 1's 8.
    assert_eq!(row(3).tie_breaks, vec![20, 6, 4, 0, 1]);
    // Player 4: 4 (v 5) + 8 (forfeit: own 2) + 8 (absent: own 2).
    assert_eq!(row(4).tie_breaks, vec![20, 8, 4, 1, 1]);
    // Player 5: 8 (v 4) + 0 + 0.
    assert_eq!(row(5).tie_breaks, vec![8, 0, 0, 0, 0]);
    let ranks: Vec<(u64, usize, Points)> =
        st.iter().map(|s| (s.player.0, s.rank, s.score)).collect();
    assert_eq!(
        ranks,
        vec![
            (1, 1, Points(5)),
            (2, 2, Points(4)),
            (4, 2, Points(4)),
            (3, 4, Points(3)),
            (5, 5, Points(0)),
        ]
    );
    assert_eq!(TieBreak::Buchholz.format(20), "5");
    assert_eq!(TieBreak::SonnebornBerger.format(9), "2.25");
}

/// A four-player round robin where everyone ends on 1½:
/// round 1: 1 (first) beats 2, 3 (first) draws 4; round 2: 3 (first)
/// draws 1, 4 (first) loses to 2; round 3: 1 (first) loses to 4,
/// 2 (first) draws 3.
fn all_tied() -> Vec<Record> {
    use Outcome::*;
    use Seat::*;
    let table = [
        (1, [(2, First, Win), (3, Second, Draw), (4, First, Loss)]),
        (2, [(1, Second, Loss), (4, Second, Win), (3, First, Draw)]),
        (3, [(4, First, Draw), (1, First, Draw), (2, Second, Draw)]),
        (4, [(3, Second, Draw), (2, First, Loss), (1, Second, Win)]),
    ];
    table
        .into_iter()
        .map(|(id, games)| record(id, games.map(|(o, s, r)| played(o, s, r)).to_vec()))
        .collect()
}

#[test]
fn direct_encounter_splits_only_the_players_still_tied() {
    let order = [TieBreak::FirstSeatGames, TieBreak::DirectEncounter];
    let st = standings(&all_tied(), &PointSystem::default(), &order);
    // First-seat games: 1 and 3 have two, 2 and 4 one. Among {1, 3}
    // their one game was drawn (2 quarters each): still tied. Among
    // {2, 4}, 2 won their game: 4 quarters to 0.
    let got: Vec<(u64, usize, Vec<i64>)> = st
        .iter()
        .map(|s| (s.player.0, s.rank, s.tie_breaks.clone()))
        .collect();
    assert_eq!(
        got,
        vec![
            (1, 1, vec![2, 2]),
            (3, 1, vec![2, 2]),
            (2, 3, vec![1, 4]),
            (4, 4, vec![1, 0]),
        ]
    );
}

#[test]
fn direct_encounter_separates_nobody_when_the_tied_have_not_all_met() {
    // In the Swiss-like event 2 and 4 are tied on 2 and never met.
    let st = standings(
        &swiss_like(),
        &PointSystem::default(),
        &[TieBreak::DirectEncounter],
    );
    let row = |id: u64| st.iter().find(|s| s.player == P(id)).unwrap().clone();
    assert_eq!((row(2).rank, row(4).rank), (2, 2));
    assert_eq!(row(2).tie_breaks, vec![0]);
}
