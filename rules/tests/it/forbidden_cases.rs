//! The 55 published renju positions of `data/renju-forbidden-cases.json`
//! (from the test suites of three independent open-source judges), each with
//! the complete set of forbidden points, or with the points its original test
//! asserted (`only_these_points_checked`).

use std::collections::BTreeMap;

use serde::Deserialize;
use tengen_rules::{Board, Forbidden, Point};

#[derive(Deserialize)]
struct Case {
    source: String,
    case: String,
    black: Vec<Point>,
    white: Vec<Point>,
    forbidden: BTreeMap<Point, String>,
    only_these_points_checked: Option<Vec<Point>>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("../data/renju-forbidden-cases.json");
    serde_json::from_str(text).expect("test data parses")
}

fn kind_matches(expected: &str, got: Forbidden) -> bool {
    expected == "forbidden" || expected == got.name()
}

#[test]
fn all_published_positions() {
    let cases = cases();
    assert_eq!(cases.len(), 55);
    let mut failures = Vec::new();
    for c in &cases {
        let board = Board::with_stones(15, &c.black, &c.white)
            .unwrap_or_else(|e| panic!("{}: bad position: {e}", c.case));
        let got: BTreeMap<Point, Forbidden> = board.forbidden_points().into_iter().collect();
        let checked: Vec<Point> = match &c.only_these_points_checked {
            Some(pts) => pts.clone(),
            None => board.points().collect(),
        };
        for p in checked {
            let ok = match (c.forbidden.get(&p), got.get(&p)) {
                (None, None) => true,
                (Some(e), Some(&g)) => kind_matches(e, g),
                _ => false,
            };
            // The single-point query must agree with the full map.
            assert_eq!(board.forbidden(p), got.get(&p).copied(), "{}: {p}", c.case);
            if !ok {
                failures.push(format!(
                    "{} ({}): {p}: expected {:?}, got {:?}",
                    c.case,
                    c.source,
                    c.forbidden.get(&p),
                    got.get(&p)
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
