//! Building a round's boards for each system from the tournament's state:
//! the Swiss asks the Dutch pairing, the round robin reads its Berger
//! table, the knockout follows its bracket. Withdrawn players' matches
//! are forfeited as they are made.

use super::records;
use super::state::{Board, BoardContent, Round, System, Tournament, TournamentError};
use crate::knockout;
use crate::ledger::Entry;
use crate::matches::{Match, MatchFormat};
use crate::model::{PlayerId, Points, Seat, mix_lot};
use crate::round_robin::{Board as RrBoard, berger_rounds, double_berger_rounds};
use crate::swiss::{Float, SwissPlayer, SwissRound, pair_round};

pub(super) fn total_rounds(system: System, players: usize) -> usize {
    match system {
        System::Swiss { rounds } => rounds as usize,
        System::RoundRobin { double } => {
            let single = players + players % 2 - 1;
            if double { 2 * single } else { single }
        }
        System::Knockout { .. } => knockout::rounds(players),
        System::Arena { .. } => 0,
    }
}

/// Shuffles the pairing numbers by lot (Fisher-Yates on the mixed lot).
pub(super) fn draw_numbers(numbers: &mut [PlayerId], lot: u64) {
    for i in (1..numbers.len()).rev() {
        let j = (mix_lot(lot, i as u64) % (i as u64 + 1)) as usize;
        numbers.swap(i, j);
    }
}

/// Forfeits `player`'s unfinished match in `round`.
pub(super) fn forfeit_in(round: &mut Round, player: PlayerId) {
    for b in &mut round.boards {
        if let BoardContent::Match(m) = &mut b.content
            && m.players().contains(&player)
        {
            // The player is in this match: forfeiting cannot fail.
            let _ = m.forfeit(player);
        }
    }
}

pub(super) fn pair(t: &Tournament, round: usize, lot: u64) -> Result<Vec<Board>, TournamentError> {
    let contents = match t.settings.system {
        System::Swiss { .. } => swiss(t, round, lot)?,
        System::RoundRobin { double } => round_robin(t, round, double)?,
        System::Knockout { format } => knockout_round(t, round, format, lot)?,
        System::Arena { .. } => {
            return Err(TournamentError::BadSettings("an arena has no rounds"));
        }
    };
    let boards = contents
        .into_iter()
        .enumerate()
        .map(|(i, content)| Board {
            number: i + 1,
            content,
        })
        .collect();
    let mut r = Round {
        number: round,
        boards,
    };
    for e in t.entrants.iter().filter(|e| e.withdrawn_after.is_some()) {
        forfeit_in(&mut r, e.id);
    }
    Ok(r.boards)
}

fn single(first: PlayerId, second: PlayerId) -> Result<BoardContent, TournamentError> {
    Ok(BoardContent::Match(Match::new(
        first,
        second,
        MatchFormat::SINGLE,
    )?))
}

fn swiss(t: &Tournament, round: usize, lot: u64) -> Result<Vec<BoardContent>, TournamentError> {
    let records = records::build(t);
    let done = t.rounds.len();
    let points = &t.settings.points;
    let record = |p: PlayerId| {
        records
            .iter()
            .find(|r| r.player == p)
            .expect("every entrant has a record")
    };
    // How `p` floated in round `k` (0-based): against a player with a
    // different score before it (FIDE C.04.3 1.4.2), or given the bye or
    // a win without playing (1.4.3).
    let float = |p: PlayerId, k: usize| -> Option<Float> {
        let entry = record(p).entries.get(k)?;
        match *entry {
            Entry::Played { opponent, .. } => {
                let mine = record(p).score_after(k, points);
                let theirs = record(opponent).score_after(k, points);
                (mine != theirs).then_some(if mine > theirs {
                    Float::Down
                } else {
                    Float::Up
                })
            }
            Entry::Bye { .. } | Entry::ForfeitWin { .. } => Some(Float::Down),
            _ => None,
        }
    };
    let players: Vec<SwissPlayer> = t
        .active()
        .map(|e| {
            let r = record(e.id);
            SwissPlayer {
                id: e.id,
                rank: t
                    .numbers
                    .iter()
                    .position(|n| *n == e.id)
                    .unwrap_or(usize::MAX),
                score: r.score(points),
                seats: r.seats(),
                opponents: r.played_opponents(),
                bye_barred: r
                    .entries
                    .iter()
                    .any(|x| matches!(x, Entry::Bye { .. } | Entry::ForfeitWin { .. })),
                floats: [
                    done.checked_sub(1).and_then(|k| float(e.id, k)),
                    done.checked_sub(2).and_then(|k| float(e.id, k)),
                ],
            }
        })
        .collect();
    let pairing = pair_round(
        &players,
        SwissRound {
            number: round,
            of: total_rounds(t.settings.system, t.entrants.len()),
            win: points.win.max(points.draw),
            initial: initial_seat(t, lot),
        },
    )?;
    let mut out = Vec::with_capacity(pairing.boards.len() + 1);
    for (f, s) in pairing.boards {
        out.push(single(f, s)?);
    }
    if let Some(p) = pairing.bye {
        out.push(BoardContent::Bye {
            player: p,
            points: points.bye,
        });
    }
    Ok(out)
}

/// The initial colour (FIDE C.04.3 5.1): drawn by lot for round 1, then
/// the seat the top seed took in round 1, where nobody had a preference.
pub(super) fn initial_seat(t: &Tournament, lot: u64) -> Seat {
    let drawn = if mix_lot(lot, 0) & 1 == 0 {
        Seat::First
    } else {
        Seat::Second
    };
    let Some(first) = t.rounds.first() else {
        return drawn;
    };
    let top = t.numbers[0];
    first
        .boards
        .iter()
        .find_map(|b| match &b.content {
            BoardContent::Match(m) if m.players().contains(&top) => Some(m.seat_of(0, top)),
            _ => None,
        })
        .unwrap_or(drawn)
}

fn round_robin(
    t: &Tournament,
    round: usize,
    double: bool,
) -> Result<Vec<BoardContent>, TournamentError> {
    let n = t.numbers.len();
    let table = if double {
        double_berger_rounds(n, true)
    } else {
        berger_rounds(n)
    };
    let boards: &[RrBoard] = table.get(round - 1).ok_or(TournamentError::Finished)?;
    let id = |k: usize| t.numbers[k - 1];
    boards
        .iter()
        .map(|b| match b.second {
            Some(s) => single(id(b.first), id(s)),
            None => Ok(BoardContent::Bye {
                player: id(b.first),
                points: Points::ZERO,
            }),
        })
        .collect()
}

fn knockout_round(
    t: &Tournament,
    round: usize,
    format: MatchFormat,
    lot: u64,
) -> Result<Vec<BoardContent>, TournamentError> {
    let entrants: Vec<Option<PlayerId>> = if round == 1 {
        knockout::first_round(t.numbers.len())
            .into_iter()
            .flat_map(|(a, b)| [Some(t.numbers[a - 1]), b.map(|b| t.numbers[b - 1])])
            .collect()
    } else {
        t.rounds[round - 2]
            .boards
            .iter()
            .map(|b| match &b.content {
                BoardContent::Match(m) => m.winner(),
                BoardContent::Bye { player, .. } => Some(*player),
            })
            .collect()
    };
    entrants
        .chunks(2)
        .enumerate()
        .map(
            |(i, pair)| match (pair[0], pair.get(1).copied().flatten()) {
                (Some(a), Some(b)) => Ok(BoardContent::Match(Match::by_lot(
                    a,
                    b,
                    format,
                    mix_lot(lot, i as u64),
                )?)),
                (Some(a), None) | (None, Some(a)) => Ok(BoardContent::Bye {
                    player: a,
                    points: Points::ZERO,
                }),
                (None, None) => Err(TournamentError::Finished),
            },
        )
        .collect()
}
