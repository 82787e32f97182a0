//! Post-game analysis of records: for every move, the mover's VCF (and
//! VCT) before it, and whether the move played kept the win.

use crate::analysis_common;

use analysis_common::p;
use tengen_rules::analysis::{
    AnalysisError, Analyzer, Budget, Outcome, analyze_moves, analyze_record,
};
use tengen_rules::game::{RuleSet, from_renju_notation};
use tengen_rules::{Color, Point, Variant};

fn moves(text: &str) -> Vec<(Color, Option<Point>)> {
    text.split_whitespace()
        .enumerate()
        .map(|(i, t)| {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            (c, Some(p(t)))
        })
        .collect()
}

/// Black makes an open three (a threat, not yet a win), white ignores it,
/// black misses the open four (its VCF, not kept), white makes a four that
/// black must block (no VCF left for black then).
#[test]
fn a_missed_win_is_marked() {
    let record = from_renju_notation("h8 a1 i8 a2 j8 a3 b15 a4 a5", RuleSet::Renju).unwrap();
    let vct = Budget::new(500_000, 3);
    let a = analyze_record(&record, Budget::VCF_DEFAULT, Some(vct)).unwrap();
    assert_eq!(a.len(), 9);
    assert_eq!(
        (a[0].number, a[0].color, a[0].point),
        (1, Color::Black, Some(p("H8")))
    );
    // Move 5 (J8): a lone three is no forced win.
    assert_eq!(a[4].vcf, Outcome::None);
    assert_eq!(a[4].vcf_kept, None);
    assert_eq!(a[4].vct, Some(Outcome::None));
    assert_eq!(a[4].vct_kept, None);
    // Move 7 (B15): black had a one-move VCF (an open four) and threw it away.
    assert_eq!(a[6].vcf.attacker_moves(), Some(1));
    let first = a[6].vcf.line().unwrap()[0];
    assert!(first == p("G8") || first == p("K8"), "{first}");
    assert_eq!(a[6].vcf_kept, Some(false));
    assert_eq!(a[6].vct_kept, Some(false), "a VCF is a VCT");
    // Move 9: white's four must be blocked; black has no VCF any more.
    assert_eq!(a[8].vcf, Outcome::None);
    // White never had anything.
    for m in a.iter().filter(|m| m.color == Color::White) {
        assert_eq!(m.vcf, Outcome::None, "move {}", m.number);
    }
}

#[test]
fn a_kept_win_is_marked_kept() {
    let game = moves("h8 a1 i8 a2 j8 a3 k8 a4 g8");
    let a = analyze_moves(15, Variant::Renju, &game, Budget::VCF_DEFAULT, None).unwrap();
    assert_eq!(a[6].vcf_kept, Some(true), "K8 makes the open four");
    assert_eq!(a[8].vcf, Outcome::Win(vec![p("G8")]), "a five on offer");
    assert_eq!(a[8].vcf_kept, Some(true));
    assert!(a.iter().all(|m| m.vct.is_none()), "no VCT asked for");
}

/// White's double three (a VCT of two moves, no VCF) played, and the same
/// position with the chance let go.
#[test]
fn a_vct_kept_and_a_vct_missed() {
    let vct = Some(Budget::new(500_000, 3));
    let kept = moves("a15 g8 o15 h8 a11 i9 o11 i10 o1 i8");
    let a = analyze_moves(15, Variant::Renju, &kept, Budget::VCF_DEFAULT, vct).unwrap();
    assert_eq!(a[9].vcf, Outcome::None);
    assert_eq!(a[9].vct.as_ref().and_then(Outcome::attacker_moves), Some(2));
    assert_eq!(
        a[9].vct.as_ref().and_then(|o| o.line().map(|l| l[0])),
        Some(p("I8"))
    );
    assert_eq!(a[9].vct_kept, Some(true));
    let missed = moves("a15 g8 o15 h8 a11 i9 o11 i10 o1 c3");
    let a = analyze_moves(15, Variant::Renju, &missed, Budget::VCF_DEFAULT, vct).unwrap();
    assert_eq!(a[9].vct_kept, Some(false));
}

#[test]
fn bad_games_are_refused() {
    let after_win = moves("h8 a1 i8 a2 j8 a3 k8 a4 l8 a5");
    assert!(matches!(
        analyze_moves(15, Variant::Renju, &after_win, Budget::VCF_DEFAULT, None),
        Err(AnalysisError::AfterWin(10))
    ));
    let twice = moves("h8 h8");
    assert!(matches!(
        analyze_moves(15, Variant::Renju, &twice, Budget::VCF_DEFAULT, None),
        Err(AnalysisError::Move { number: 2, .. })
    ));
}

/// The analysis one move at a time, stopped part way (the analyser cloned
/// and carried on later), gives what the whole game's analysis gives; after
/// an error it stops.
#[test]
fn an_analysis_taken_one_move_at_a_time_is_the_same() {
    let vct = Some(Budget::new(500_000, 3));
    let game = moves("a15 g8 o15 h8 a11 i9 o11 i10 o1 c3");
    let whole = analyze_moves(15, Variant::Renju, &game, Budget::VCF_DEFAULT, vct).unwrap();
    let mut first =
        Analyzer::new(15, Variant::Renju, game.clone(), Budget::VCF_DEFAULT, vct).unwrap();
    let mut parts: Vec<_> = first.by_ref().take(4).map(Result::unwrap).collect();
    assert_eq!(first.remaining(), game.len() - 4);
    let later = first.clone();
    drop(first);
    parts.extend(later.map(Result::unwrap));
    assert_eq!(parts, whole);

    let after_win = moves("h8 a1 i8 a2 j8 a3 k8 a4 l8 a5");
    let mut a = Analyzer::new(15, Variant::Renju, after_win, Budget::VCF_DEFAULT, None).unwrap();
    assert_eq!(a.by_ref().take(9).filter(Result::is_ok).count(), 9);
    assert!(matches!(a.next(), Some(Err(AnalysisError::AfterWin(10)))));
    assert!(a.next().is_none());
    assert_eq!(a.remaining(), 0);
    let twice = moves("h8 h8 i8");
    let mut a = Analyzer::new(15, Variant::Renju, twice, Budget::VCF_DEFAULT, None).unwrap();
    assert!(a.next().unwrap().is_ok());
    assert!(matches!(
        a.next(),
        Some(Err(AnalysisError::Move { number: 2, .. }))
    ));
    assert!(a.next().is_none(), "nothing after an error");
}
