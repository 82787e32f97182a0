//! Reads each entrant's round-by-round record off the rounds: a bye, a
//! game (played, forfeited or pending), a whole match for a knockout, or
//! absence.

use super::state::{BoardContent, Round, Tournament};
use crate::ledger::{Entry, Record};
use crate::matches::{Match, MatchFormat};
use crate::model::{GameResult, Outcome, PlayerId};

pub(super) fn build(t: &Tournament) -> Vec<Record> {
    t.entrants
        .iter()
        .map(|e| Record {
            player: e.id,
            entries: t.rounds.iter().map(|r| entry(r, e.id)).collect(),
        })
        .collect()
}

fn entry(round: &Round, p: PlayerId) -> Entry {
    for b in &round.boards {
        match &b.content {
            BoardContent::Bye { player, points } if *player == p => {
                return Entry::Bye { points: *points };
            }
            BoardContent::Match(m) if m.players().contains(&p) => return match_entry(m, p),
            _ => {}
        }
    }
    Entry::Absent
}

fn match_entry(m: &Match, p: PlayerId) -> Entry {
    let [a, b] = m.players();
    let opponent = if a == p { b } else { a };
    let seat = m.seat_of(0, p);
    // A one-game match with no decider (a Swiss or round-robin pairing) is
    // that game.
    if m.format() == MatchFormat::SINGLE
        && let Some(r) = m.games().first()
    {
        return match *r {
            GameResult::Win(_) | GameResult::Draw => Entry::Played {
                opponent,
                seat,
                outcome: r.outcome_for(seat),
            },
            GameResult::Forfeit(w) if w == seat => Entry::ForfeitWin { opponent },
            GameResult::Forfeit(_) => Entry::ForfeitLoss { opponent },
            GameResult::DoubleForfeit => Entry::DoubleForfeit { opponent },
        };
    }
    if !m.is_over() {
        return Entry::Pending { opponent, seat };
    }
    // A match counts as played only if it was decided over the board: a
    // withdrawal or a forfeited last game makes it a forfeit, whatever
    // was played before.
    let played = m.forfeited_by().is_none() && m.games().last().is_some_and(|g| g.played());
    match (m.winner(), played) {
        (Some(w), true) => Entry::Played {
            opponent,
            seat,
            outcome: if w == p { Outcome::Win } else { Outcome::Loss },
        },
        (None, true) => Entry::Played {
            opponent,
            seat,
            outcome: Outcome::Draw,
        },
        (Some(w), false) if w == p => Entry::ForfeitWin { opponent },
        (Some(_), false) => Entry::ForfeitLoss { opponent },
        (None, false) => Entry::DoubleForfeit { opponent },
    }
}
