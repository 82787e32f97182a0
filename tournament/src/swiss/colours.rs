//! Colour (opener) preferences and allocation by the Dutch system (FIDE
//! C.04.3, 1.6-1.7 and article 5). A player's preference comes from the
//! seats of the games they played (unplayed rounds do not count, C.04.2
//! 3.4): *absolute* when the difference between first- and second-seat
//! games is past ±1 or the last two games had the same seat; *strong* at
//! ±1; *mild* at 0 (alternate from the last game); none before any game.

use serde::{Deserialize, Serialize};

use crate::model::Seat;

/// How much a player wants a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Strength {
    Mild,
    Strong,
    Absolute,
}

/// A seat preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Preference {
    pub seat: Seat,
    pub strength: Strength,
}

/// First-seat games minus second-seat games.
pub fn seat_difference(seats: &[Seat]) -> i32 {
    seats
        .iter()
        .map(|s| if *s == Seat::First { 1 } else { -1 })
        .sum()
}

/// What the colour rules read off one player's played seats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Colours {
    /// |first − second| of the games played.
    pub imbalance: u32,
    /// The seat of the last two games, when they had the same one.
    pub repeated: Option<Seat>,
    pub preference: Option<Preference>,
}

impl Colours {
    pub fn of(seats: &[Seat]) -> Colours {
        let diff = seat_difference(seats);
        let imbalance = diff.unsigned_abs();
        let fewer = if diff > 0 { Seat::Second } else { Seat::First };
        let last = seats.last().copied();
        let run = last.map_or(0, |l| seats.iter().rev().take_while(|s| **s == l).count());
        let repeated = last.filter(|_| run > 1);
        let preference = if imbalance > 1 {
            Some((fewer, Strength::Absolute))
        } else if let Some(r) = repeated {
            Some((r.other(), Strength::Absolute))
        } else if imbalance > 0 {
            Some((fewer, Strength::Strong))
        } else {
            last.map(|l| (l.other(), Strength::Mild))
        };
        Colours {
            imbalance,
            repeated,
            preference: preference.map(|(seat, strength)| Preference { seat, strength }),
        }
    }

    pub fn absolute(&self) -> bool {
        self.strength() == Some(Strength::Absolute)
    }

    pub fn strong(&self) -> bool {
        self.strength() == Some(Strength::Strong)
    }

    pub fn seat(&self) -> Option<Seat> {
        self.preference.map(|p| p.seat)
    }

    fn strength(&self) -> Option<Strength> {
        self.preference.map(|p| p.strength)
    }
}

/// The preference given the seats of the played games, oldest first;
/// `None` before any played game.
pub fn preference(seats: &[Seat]) -> Option<Preference> {
    Colours::of(seats).preference
}

/// Whether both can have their preferred seat (or one has none).
pub(super) fn agree(a: &Colours, b: &Colours) -> bool {
    match (a.seat(), b.seat()) {
        (Some(x), Some(y)) => x != y,
        _ => true,
    }
}

/// The seat `a` takes against `b` by the allocation rules (5.2): both
/// preferences if they agree; else the stronger one (both absolute: the
/// wider difference); else alternate from the latest round in which their
/// seats differed (played games, aligned from the last); else the
/// higher-ranked player's preference; else the higher-ranked player takes
/// the initial seat when their pairing number is odd, the other one when
/// it is even. `a_higher`: `a` ranks above `b` (score, then pairing
/// number); `higher_number_odd`: the higher-ranked player's pairing
/// number (1-based) is odd.
pub(super) fn seat_for(
    a: (&Colours, &[Seat]),
    b: (&Colours, &[Seat]),
    a_higher: bool,
    higher_number_odd: bool,
    initial: Seat,
) -> Seat {
    let ((ca, sa), (cb, sb)) = (a, b);
    if let Some(s) = neutral(ca, sa, cb, sb) {
        return s;
    }
    let higher = if a_higher { ca } else { cb };
    let for_higher = higher.seat().unwrap_or(if higher_number_odd {
        initial
    } else {
        initial.other()
    });
    if a_higher {
        for_higher
    } else {
        for_higher.other()
    }
}

/// Rules 5.2.1 to 5.2.3: the seat for `a`, or `None` when they leave it
/// to rank.
fn neutral(a: &Colours, sa: &[Seat], b: &Colours, sb: &[Seat]) -> Option<Seat> {
    if agree(a, b) {
        return a.seat().or(b.seat().map(Seat::other));
    }
    let (pa, pb) = (a.seat()?, b.seat()?);
    if a.absolute() && (a.imbalance > b.imbalance || !b.absolute()) {
        return Some(pa);
    }
    if b.absolute() && (b.imbalance > a.imbalance || !a.absolute()) {
        return Some(pb.other());
    }
    if a.strong() && !b.strong() {
        return Some(pa);
    }
    if b.strong() && !a.strong() {
        return Some(pb.other());
    }
    sa.iter()
        .rev()
        .zip(sb.iter().rev())
        .find(|(x, y)| x != y)
        .map(|(_, y)| *y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Seat::{First as F, Second as S};

    #[test]
    fn preferences_follow_the_difference_and_the_streak() {
        assert_eq!(preference(&[]), None);
        let p = |seat, strength| Some(Preference { seat, strength });
        assert_eq!(preference(&[F]), p(S, Strength::Strong));
        assert_eq!(preference(&[F, S]), p(F, Strength::Mild));
        assert_eq!(preference(&[S, F, F]), p(S, Strength::Absolute));
        assert_eq!(preference(&[F, S, F, F]), p(S, Strength::Absolute));
        assert_eq!(preference(&[S, F, S, F]), p(S, Strength::Mild));
    }

    fn seat(a: &[Seat], b: &[Seat], a_higher: bool) -> Seat {
        seat_for(
            (&Colours::of(a), a),
            (&Colours::of(b), b),
            a_higher,
            true,
            F,
        )
    }

    #[test]
    fn allocation_honours_the_stronger_wish_then_alternates_then_rank() {
        // a wants S strongly, b mildly wants S: a gets S.
        assert_eq!(seat(&[F], &[F, S, F], true), S);
        // Both strong for F; back from their latest games they first
        // differed when a was second and b first: now a opens.
        assert_eq!(seat(&[S, F, S], &[S, S, F, F, S], true), F);
        // Identical histories: the higher-ranked player's wish, whoever
        // has the lower pairing number.
        assert_eq!(seat(&[F], &[F], false), F);
        assert_eq!(seat(&[F], &[F], true), S);
        // No preferences: the higher-ranked player (odd number) takes the
        // initial seat.
        assert_eq!(seat(&[], &[], true), F);
        assert_eq!(seat(&[], &[], false), S);
    }
}
