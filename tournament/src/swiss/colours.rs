//! Colour (opener) preferences and allocation by the Dutch system's rules
//! (FIDE C.04.3, A.6 and E): a player's preference comes from the seats
//! of the games they played (unplayed rounds do not count); the absolute
//! rules are that the difference between first- and second-seat games
//! never goes past ±2 and nobody takes the same seat three times running.

use serde::{Deserialize, Serialize};

use crate::model::Seat;

/// How much a player wants a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Strength {
    /// Mild: the difference is 0; alternate from the last game.
    Mild,
    /// Strong: the difference is ±1.
    Strong,
    /// Absolute: the difference is ±2 or the last two games had the same
    /// seat; the other seat would break an absolute rule.
    Absolute,
}

/// A seat preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Preference {
    pub seat: Seat,
    pub strength: Strength,
}

/// The preference given the seats of the played games, oldest first;
/// `None` before any played game.
pub fn preference(seats: &[Seat]) -> Option<Preference> {
    let last = *seats.last()?;
    let diff = seat_difference(seats);
    let streak = seats.len() >= 2 && seats[seats.len() - 2] == last;
    let (seat, strength) = if diff > 1 {
        (Seat::Second, Strength::Absolute)
    } else if diff < -1 {
        (Seat::First, Strength::Absolute)
    } else if streak {
        (last.other(), Strength::Absolute)
    } else if diff == 1 {
        (Seat::Second, Strength::Strong)
    } else if diff == -1 {
        (Seat::First, Strength::Strong)
    } else {
        (last.other(), Strength::Mild)
    };
    Some(Preference { seat, strength })
}

/// First-seat games minus second-seat games.
pub fn seat_difference(seats: &[Seat]) -> i32 {
    seats
        .iter()
        .map(|s| if *s == Seat::First { 1 } else { -1 })
        .sum()
}

/// Whether two players may meet at all as far as seats go: not when both
/// must take the same seat.
pub fn compatible(a: Option<Preference>, b: Option<Preference>) -> bool {
    !matches!((a, b), (Some(x), Some(y))
        if x.strength == Strength::Absolute && y.strength == Strength::Absolute && x.seat == y.seat)
}

/// How badly a pairing of `a` with `b` serves their preferences: 0 when
/// both can have their seat, 1 when only a mild or one strong wish is
/// denied, 2 when a strong one is. Absolute clashes are excluded before.
pub fn clash(a: Option<Preference>, b: Option<Preference>) -> u32 {
    match (a, b) {
        (Some(x), Some(y)) if x.seat == y.seat => {
            if x.strength.min(y.strength) >= Strength::Strong {
                2
            } else {
                1
            }
        }
        _ => 0,
    }
}

/// Who opens when `hi` (the higher-ranked) meets `lo` (FIDE C.04.3 E):
/// both preferences if they agree; else the stronger one; if equally
/// strong, alternate from the latest round in which their seats differed;
/// else the higher-ranked player's. With no preferences at all the
/// higher-ranked player takes `default_for_hi`. Returns true when `hi`
/// takes the first seat.
pub fn hi_opens(hi_seats: &[Seat], lo_seats: &[Seat], default_for_hi: Seat) -> bool {
    let (ph, pl) = (preference(hi_seats), preference(lo_seats));
    let seat_for_hi = match (ph, pl) {
        (None, None) => default_for_hi,
        (Some(h), None) => h.seat,
        (None, Some(l)) => l.seat.other(),
        (Some(h), Some(l)) if h.seat != l.seat => h.seat,
        (Some(h), Some(l)) if h.strength != l.strength => {
            if h.strength > l.strength {
                h.seat
            } else {
                l.seat.other()
            }
        }
        (Some(h), Some(_)) => last_difference(hi_seats, lo_seats)
            .map(|(hs, _)| hs.other())
            .unwrap_or(h.seat),
    };
    seat_for_hi == Seat::First
}

/// The seats of the two players in the latest game index (counted from
/// the end of each played history) where they differed.
fn last_difference(a: &[Seat], b: &[Seat]) -> Option<(Seat, Seat)> {
    a.iter()
        .rev()
        .zip(b.iter().rev())
        .find(|(x, y)| x != y)
        .map(|(x, y)| (*x, *y))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Seat::{First as F, Second as S};

    #[test]
    fn preferences_follow_the_difference_and_the_streak() {
        assert_eq!(preference(&[]), None);
        assert_eq!(
            preference(&[F]).unwrap(),
            Preference {
                seat: S,
                strength: Strength::Strong
            }
        );
        assert_eq!(
            preference(&[F, S]).unwrap(),
            Preference {
                seat: F,
                strength: Strength::Mild
            }
        );
        assert_eq!(preference(&[S, F, F]).unwrap().strength, Strength::Absolute);
        assert_eq!(
            preference(&[F, S, F, F]).unwrap(),
            Preference {
                seat: S,
                strength: Strength::Absolute
            }
        );
        assert_eq!(preference(&[S, F, S, F]).unwrap().strength, Strength::Mild);
    }

    #[test]
    fn allocation_honours_the_stronger_wish_then_alternates() {
        // hi wants S strongly, lo mildly wants S: hi gets S.
        assert!(!hi_opens(&[F], &[F, S, F], F));
        // Both strong for F: back from their latest games, they first
        // differed when hi was second and lo first, so now hi opens.
        assert!(hi_opens(&[S, F, S], &[S, S, F, F, S], S));
        // No preferences: the default.
        assert!(hi_opens(&[], &[], F));
        assert!(!compatible(preference(&[F, F]), preference(&[S, F, F])));
        assert!(compatible(preference(&[F, F]), preference(&[S, F])));
    }
}
