//! A reader of FIDE TRF player lines for the tests: the fixed columns of
//! `001` lines, and the Swiss pairing's view of each player built from
//! them, the way the `Tournament` builds it from its records.

use tengen_tournament::swiss::{Float, SwissPlayer};
use tengen_tournament::{PlayerId, Points, Seat};

/// One round entry of a TRF player line: opponent (0 none), colour, result.
pub struct Entry {
    pub opp: u64,
    pub colour: char,
    pub result: char,
}

/// Parses the fixed columns of TRF `001` lines: pairing number (cols
/// 5-8), then from col 92 one 10-column entry per round.
pub fn parse(trf: &str) -> Vec<(u64, Vec<Entry>)> {
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

pub fn points(result: char) -> Points {
    match result {
        '1' | '+' | 'W' | 'F' | 'U' => Points::ONE,
        '=' | 'H' | 'D' => Points::HALF,
        _ => Points::ZERO,
    }
}

/// The players to pair in round `round` (1-based): those without an entry
/// for it yet (an entry already there is a known absence).
pub fn players_for(trf: &str, round: usize) -> Vec<SwissPlayer> {
    let all = parse(trf);
    let score_before = |id: u64, upto: usize| -> Points {
        let (_, es) = all.iter().find(|(i, _)| *i == id).unwrap();
        es.iter().take(upto).map(|e| points(e.result)).sum()
    };
    all.iter()
        .filter(|(_, es)| es.len() == round - 1)
        .map(|(id, es)| {
            let played = |e: &Entry| e.opp != 0 && matches!(e.result, '1' | '0' | '=');
            // How the player floated in round k (0-based): against a
            // player with another score, or scoring without playing.
            let float = |k: usize| -> Option<Float> {
                let e = es.get(k)?;
                if !played(e) {
                    return (points(e.result) > Points::ZERO).then_some(Float::Down);
                }
                let (mine, theirs) = (score_before(*id, k), score_before(e.opp, k));
                (mine != theirs).then_some(if mine > theirs {
                    Float::Down
                } else {
                    Float::Up
                })
            };
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
                    .filter(|e| played(e))
                    .map(|e| PlayerId(e.opp))
                    .collect(),
                bye_barred: es.iter().any(|e| matches!(e.result, 'U' | 'F' | '+')),
                floats: [
                    (round - 1).checked_sub(1).and_then(float),
                    (round - 1).checked_sub(2).and_then(float),
                ],
            }
        })
        .collect()
}

/// The initial colour: the seat pairing number 1 took in round 1 (`w` is
/// our first seat), where nobody had a preference.
#[allow(dead_code)] // not every test binary that shares this module uses it
pub fn initial(trf: &str) -> Seat {
    let all = parse(trf);
    match all
        .iter()
        .find(|(id, _)| *id == 1)
        .and_then(|(_, es)| es.first())
    {
        Some(e) if e.colour == 'b' => Seat::Second,
        _ => Seat::First,
    }
}
