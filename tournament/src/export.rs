//! Exports: a text crosstable for people and a FIDE TRF-16 style file for
//! pairing programs and rating officers.
//!
//! Seats: the crosstable writes gomoku's colours, `b` for the first seat
//! (black, the opener) and `w` for the second. The TRF keeps FIDE's
//! meaning, where `w` is the side that moves first, so there `w` is our
//! first seat and `b` our second: a TRF reader pairs colours correctly.

use std::fmt::Write;

use crate::ledger::Entry;
use crate::model::{Outcome, PlayerId, Points, Seat};
use crate::tournament::{BoardContent, Tournament};

/// The result letter of a round, shared by both formats.
fn result_char(e: &Entry, bye: Points) -> char {
    match *e {
        Entry::Played {
            outcome: Outcome::Win,
            ..
        } => '1',
        Entry::Played {
            outcome: Outcome::Draw,
            ..
        } => '=',
        Entry::Played {
            outcome: Outcome::Loss,
            ..
        } => '0',
        Entry::ForfeitWin { .. } => '+',
        Entry::ForfeitLoss { .. } | Entry::DoubleForfeit { .. } => '-',
        Entry::Bye { points } if points == Points::ZERO => 'Z',
        Entry::Bye { points } if points >= bye => 'U',
        Entry::Bye { .. } => 'H',
        Entry::Absent => 'Z',
        Entry::Pending { .. } => ' ',
    }
}

fn seat_of(e: &Entry) -> Option<Seat> {
    match *e {
        Entry::Played { seat, .. } | Entry::Pending { seat, .. } => Some(seat),
        _ => None,
    }
}

/// The seat `p` was paired in for round `k` (0-based): game 1's seat of
/// their match, played or not.
fn scheduled_seat(t: &Tournament, k: usize, p: PlayerId) -> Option<Seat> {
    t.rounds()
        .get(k)?
        .boards
        .iter()
        .find_map(|b| match &b.content {
            BoardContent::Match(m) if m.players().contains(&p) => Some(m.seat_of(0, p)),
            _ => None,
        })
}

/// Points as "2.5" (whole and half points).
fn decimal(p: Points) -> String {
    format!("{}.{}", p.0 / 2, if p.0 % 2 == 1 { 5 } else { 0 })
}

/// One round of a crosstable line: the opponent's place in the table
/// (none for a bye or an absence), the seat held (none unless paired) and
/// the result letter (`1`, `=`, `0`, `+`, `-`, `U`, `H`, `Z`, or a space
/// while pending).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CrossCell {
    pub opponent: Option<usize>,
    pub seat: Option<Seat>,
    pub result: char,
}

impl CrossCell {
    /// As the text crosstable writes it: `4b1` (beat the 4th placed with
    /// black), `U` (a bye).
    pub fn text(&self) -> String {
        match self.opponent {
            Some(o) => {
                let seat = match self.seat {
                    Some(Seat::First) => "b",
                    Some(Seat::Second) => "w",
                    None => "",
                };
                format!("{o}{seat}{}", self.result)
            }
            None => self.result.to_string(),
        }
    }
}

/// One player's line of the crosstable, in standings order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrossLine {
    /// The standings' rank (tied players share one).
    pub rank: usize,
    pub player: PlayerId,
    pub name: String,
    pub rating: i32,
    /// One per round played or paired.
    pub rounds: Vec<CrossCell>,
    pub score: Points,
    /// The configured tie-breaks' values, in their order.
    pub tie_breaks: Vec<i64>,
}

/// The crosstable's lines: what both the text crosstable and a client's
/// table show.
pub fn cross_lines(t: &Tournament) -> Vec<CrossLine> {
    let st = t.standings();
    let records = t.records();
    let place = |p: PlayerId| st.iter().position(|s| s.player == p).map_or(0, |i| i + 1);
    let bye = t.settings().points.bye;
    st.iter()
        .map(|s| {
            let e = t.entrant(s.player).expect("a standing is an entrant");
            let rec = records
                .iter()
                .find(|r| r.player == s.player)
                .expect("a record per entrant");
            let rounds = rec
                .entries
                .iter()
                .map(|entry| CrossCell {
                    opponent: entry.opponent().map(place),
                    seat: entry.opponent().and(seat_of(entry)),
                    result: result_char(entry, bye),
                })
                .collect();
            CrossLine {
                rank: s.rank,
                player: s.player,
                name: e.name.clone(),
                rating: e.rating,
                rounds,
                score: s.score,
                tie_breaks: s.tie_breaks.clone(),
            }
        })
        .collect()
}

/// The crosstable: one line per player in standings order, each round as
/// the opponent's place, the seat and the result (`4b1`: beat the 4th
/// placed with black), then score and tie-breaks.
pub fn crosstable(t: &Tournament) -> String {
    let lines = cross_lines(t);
    let rounds = t.rounds().len();
    let tbs = &t.settings().tie_breaks;
    let mut out = String::new();
    let _ = write!(out, "{:>3}  {:<24} {:>5}", "#", "Name", "Rtg");
    for r in 1..=rounds {
        let _ = write!(out, " {r:>5}");
    }
    let _ = write!(out, " {:>5}", "Pts");
    for tb in tbs {
        let _ = write!(out, " {:>6}", tb.label());
    }
    out.push('\n');
    for (i, l) in lines.iter().enumerate() {
        let shown = if i > 0 && lines[i - 1].rank == l.rank {
            String::new()
        } else {
            l.rank.to_string()
        };
        let _ = write!(out, "{:>3}  {:<24} {:>5}", shown, l.name, l.rating);
        for cell in &l.rounds {
            let _ = write!(out, " {:>5}", cell.text());
        }
        let _ = write!(out, " {:>5}", decimal(l.score));
        for (tb, v) in tbs.iter().zip(&l.tie_breaks) {
            let _ = write!(out, " {:>6}", tb.format(*v));
        }
        out.push('\n');
    }
    out
}

/// A TRF-16 style file: the event name (012), the number of rounds (XXR)
/// and one 001 line per player in pairing-number order, with the fixed
/// columns FIDE defines (number, name, rating, points, rank, then per
/// round the opponent's number, the colour and the result).
pub fn trf(t: &Tournament, event: &str) -> String {
    let st = t.standings();
    let records = t.records();
    let numbers = t.numbers();
    let number = |p: PlayerId| numbers.iter().position(|n| *n == p).map_or(0, |i| i + 1);
    let mut out = String::new();
    let _ = writeln!(out, "012 {}", event.replace(['\r', '\n'], " "));
    let _ = writeln!(out, "XXR {}", t.total_rounds());
    for (k, id) in numbers.iter().enumerate() {
        let e = t.entrant(*id).expect("a number per entrant");
        let s = st
            .iter()
            .find(|s| s.player == *id)
            .expect("a standing per entrant");
        let name: String = e.name.chars().take(33).collect();
        let _ = write!(
            out,
            "001 {:>4} {:1}{:>3} {:<33} {:>4} {:>3} {:>11} {:>10} {:>4} {:>4}",
            k + 1,
            "",
            "",
            name,
            e.rating.clamp(0, 9999),
            "",
            "",
            "",
            decimal(s.score),
            s.rank
        );
        let rec = records
            .iter()
            .find(|r| r.player == *id)
            .expect("a record per entrant");
        for (k, entry) in rec.entries.iter().enumerate() {
            // A forfeit keeps the seat it was scheduled in (TRF-16 writes
            // the colour with the `+`/`-` result).
            let colour = match seat_of(entry).or_else(|| scheduled_seat(t, k, *id)) {
                Some(Seat::First) => 'w',
                Some(Seat::Second) => 'b',
                None => '-',
            };
            // No opponent (a bye, an absence) is `0000`, as TRF-16 has it.
            let opp = entry
                .opponent()
                .map_or_else(|| "0000".to_owned(), |o| format!("{:>4}", number(o)));
            let res = result_char(entry, t.settings().points.bye);
            let _ = write!(out, "  {opp} {colour} {res}");
        }
        out.push('\n');
    }
    out
}
