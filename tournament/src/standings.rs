//! Standings: score first, then the configured tie-breaks in order, each
//! splitting only the players still tied after the ones before it.
//!
//! Unplayed games (byes, forfeits, absences) follow FIDE's tie-break
//! regulations (C.07) in substance: an opponent's score enters Buchholz
//! and Sonneborn-Berger as an *adjusted* score in which each of their
//! unplayed rounds counts as a draw; a player's own unplayed round adds
//! to their Buchholz as if against a dummy opponent with the player's own
//! final score; Sonneborn-Berger, wins and first-seat games count games
//! played over the board only. Values are kept in quarter points so every
//! comparison is exact.

use serde::{Deserialize, Serialize};

use crate::ledger::{Entry, Record};
use crate::model::{PlayerId, PointSystem, Points};

/// A tie-break.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TieBreak {
    /// Sum of the opponents' (adjusted) scores.
    Buchholz,
    /// Buchholz without the highest and the lowest contribution.
    MedianBuchholz,
    /// Sonneborn-Berger (the Berger coefficient): the scores of the
    /// opponents beaten plus half those of the opponents drawn.
    SonnebornBerger,
    /// Points scored in games among the tied players, when all of them
    /// have met one another (otherwise it separates nobody).
    DirectEncounter,
    /// Games won over the board.
    Wins,
    /// Games played in the first seat (black, the opener): more ranks
    /// higher, as FIDE's "games with black" does.
    FirstSeatGames,
}

/// The most tie-breaks an event may list: each kind at most once.
pub const MAX_TIE_BREAKS: usize = 6;

/// Why an ordered list of tie-breaks was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TieBreakError {
    #[error("the tie-break {0:?} is listed twice")]
    Repeated(TieBreak),
    #[error("at most {max} tie-breaks, {got} given")]
    TooMany { max: usize, got: usize },
}

/// Checks an ordered list of tie-breaks: at most [`MAX_TIE_BREAKS`], none
/// twice (a repeat could never split anyone the first did not).
pub fn check_order(order: &[TieBreak]) -> Result<(), TieBreakError> {
    if order.len() > MAX_TIE_BREAKS {
        return Err(TieBreakError::TooMany {
            max: MAX_TIE_BREAKS,
            got: order.len(),
        });
    }
    for (i, tb) in order.iter().enumerate() {
        if order[..i].contains(tb) {
            return Err(TieBreakError::Repeated(*tb));
        }
    }
    Ok(())
}

impl TieBreak {
    /// A short label for tables.
    pub fn label(self) -> &'static str {
        match self {
            TieBreak::Buchholz => "Buch",
            TieBreak::MedianBuchholz => "MBuch",
            TieBreak::SonnebornBerger => "SB",
            TieBreak::DirectEncounter => "DE",
            TieBreak::Wins => "Wins",
            TieBreak::FirstSeatGames => "1st",
        }
    }

    /// Whether values are in quarter points (else plain counts).
    fn in_quarters(self) -> bool {
        !matches!(self, TieBreak::Wins | TieBreak::FirstSeatGames)
    }

    /// A value as text: points with .25 steps, or a count.
    pub fn format(self, value: i64) -> String {
        if !self.in_quarters() {
            return value.to_string();
        }
        match value % 4 {
            0 => format!("{}", value / 4),
            2 => format!("{}.5", value / 4),
            r => format!("{}.{}", value / 4, if r == 1 { "25" } else { "75" }),
        }
    }
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// 1-based; players tied on score and every tie-break share a rank.
    pub rank: usize,
    pub player: PlayerId,
    pub score: Points,
    /// Values of the configured tie-breaks, in their order.
    pub tie_breaks: Vec<i64>,
}

/// Computes the standings. `records` are in seeding order (that order
/// settles complete ties, so the listing is stable).
pub fn standings(records: &[Record], points: &PointSystem, order: &[TieBreak]) -> Vec<Standing> {
    let scores: Vec<Points> = records.iter().map(|r| r.score(points)).collect();
    let adjusted: Vec<i64> = records.iter().map(|r| adjusted_score(r, points)).collect();
    let index = |p: PlayerId| records.iter().position(|r| r.player == p);
    let mut values = vec![vec![0i64; order.len()]; records.len()];
    let mut all: Vec<usize> = (0..records.len()).collect();
    all.sort_by(|a, b| scores[*b].cmp(&scores[*a]).then(a.cmp(b)));
    let mut groups = split(all, |i| i64::from(scores[i].0));
    for (k, tb) in order.iter().enumerate() {
        let mut next = Vec::new();
        for group in groups {
            if group.len() < 2 && *tb == TieBreak::DirectEncounter {
                next.push(group);
                continue;
            }
            for &i in &group {
                values[i][k] = match tb {
                    TieBreak::DirectEncounter => direct(records, &group, i, points),
                    _ => value(*tb, &records[i], &adjusted, scores[i], &index, points),
                };
            }
            let mut g = group;
            g.sort_by(|a, b| values[*b][k].cmp(&values[*a][k]).then(a.cmp(b)));
            next.extend(split(g, |i| values[i][k]));
        }
        groups = next;
    }
    let mut out = Vec::with_capacity(records.len());
    for group in groups {
        let rank = out.len() + 1;
        for i in group {
            out.push(Standing {
                rank,
                player: records[i].player,
                score: scores[i],
                tie_breaks: values[i].clone(),
            });
        }
    }
    out
}

/// Splits a sorted list into runs of equal key.
fn split(sorted: Vec<usize>, key: impl Fn(usize) -> i64) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    for i in sorted {
        match out.last_mut() {
            Some(g) if key(g[0]) == key(i) => g.push(i),
            _ => out.push(vec![i]),
        }
    }
    out
}

/// The score with each settled unplayed round counted as a draw, in
/// quarter points.
fn adjusted_score(r: &Record, points: &PointSystem) -> i64 {
    let halves: u32 = r
        .entries
        .iter()
        .filter(|e| e.settled())
        .map(|e| {
            if e.played() {
                e.points(points).0
            } else {
                points.draw.0
            }
        })
        .sum();
    2 * i64::from(halves)
}

fn value(
    tb: TieBreak,
    r: &Record,
    adjusted: &[i64],
    score: Points,
    index: &impl Fn(PlayerId) -> Option<usize>,
    points: &PointSystem,
) -> i64 {
    let own = 2 * i64::from(score.0);
    let opp = |p: PlayerId| index(p).map_or(0, |i| adjusted[i]);
    match tb {
        TieBreak::Buchholz | TieBreak::MedianBuchholz => {
            let mut parts: Vec<i64> = r
                .entries
                .iter()
                .filter(|e| e.settled())
                .map(|e| match *e {
                    Entry::Played { opponent, .. } => opp(opponent),
                    _ => own,
                })
                .collect();
            if tb == TieBreak::MedianBuchholz && parts.len() >= 3 {
                parts.sort_unstable();
                parts.pop();
                parts.remove(0);
            }
            parts.iter().sum()
        }
        TieBreak::SonnebornBerger => r
            .entries
            .iter()
            .map(|e| match *e {
                Entry::Played {
                    opponent, outcome, ..
                } => {
                    let got = i64::from(points.for_outcome(outcome).0);
                    let win = i64::from(points.win.0).max(1);
                    opp(opponent) * got / win
                }
                _ => 0,
            })
            .sum(),
        TieBreak::Wins => i64::from(r.wins()),
        TieBreak::FirstSeatGames => i64::from(r.first_seat_games()),
        TieBreak::DirectEncounter => 0,
    }
}

/// Points scored by `records[i]` against the rest of `group`, in quarter
/// points, if every two players of the group have met; 0 otherwise.
fn direct(records: &[Record], group: &[usize], i: usize, points: &PointSystem) -> i64 {
    let ids: Vec<PlayerId> = group.iter().map(|&g| records[g].player).collect();
    let all_met = group.iter().all(|&g| {
        let met = records[g].opponents();
        ids.iter()
            .all(|p| *p == records[g].player || met.contains(p))
    });
    if !all_met {
        return 0;
    }
    records[i]
        .entries
        .iter()
        .filter(|e| e.opponent().is_some_and(|o| ids.contains(&o)))
        .map(|e| 2 * i64::from(e.points(points).0))
        .sum()
}
