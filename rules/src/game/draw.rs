//! Draw-offer bookkeeping (docs/rules.md §5).
//!
//! Kept apart from the machine because its rules are self-contained and
//! fiddly: an offer goes only with one's own move (as part of it, or right
//! after it before the opponent acts); a player's offers may exceed the
//! opponent's by at most [`MAX_OFFER_LEAD`]; a room may cap offers per
//! player; and an offer may lapse after the room's answer time. A lapse is
//! a matter of time only: an offer whose answer time has passed is treated
//! as gone at once, and the machine reports the lapse with the next input
//! (or [`crate::game::Game::tick`]).

use super::action::Seat;
use super::config::{DrawPolicy, MAX_OFFER_LEAD, Millis};
use super::error::GameError;

/// An offer waiting for an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pending {
    pub seat: Seat,
    pub at: Millis,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Draws {
    /// Offers made so far, per seat.
    pub offers: [u32; 2],
    pub pending: Option<Pending>,
    /// The seat that has just moved, while its opponent has not acted
    /// since: the only seat that may offer separately.
    pub may_offer: Option<Seat>,
}

impl Draws {
    /// When the pending offer lapses, if it can.
    pub fn lapse_at(&self, policy: &DrawPolicy) -> Option<Millis> {
        let p = self.pending?;
        policy.answer_ms.map(|ms| p.at + ms)
    }

    /// The seat whose offer stands at `now` (not lapsed).
    pub fn standing(&self, policy: &DrawPolicy, now: Millis) -> Option<Seat> {
        let p = self.pending?;
        match self.lapse_at(policy) {
            Some(at) if now >= at => None,
            _ => Some(p.seat),
        }
    }

    /// The offerer of a pending offer that has lapsed by `now`.
    pub fn lapsed(&self, policy: &DrawPolicy, now: Millis) -> Option<Seat> {
        let p = self.pending?;
        self.standing(policy, now).is_none().then_some(p.seat)
    }

    /// Whether `seat` may make one more offer under the limits (the lead
    /// over the opponent and the room's cap).
    pub fn check_limits(&self, seat: Seat, policy: &DrawPolicy) -> Result<(), GameError> {
        let mine = self.offers[seat.index()] + 1;
        match policy.max_offers {
            Some(max) if mine > max => return Err(GameError::OfferCap { max }),
            _ => {}
        }
        if mine > self.offers[seat.other().index()] + MAX_OFFER_LEAD {
            return Err(GameError::OfferLimit);
        }
        Ok(())
    }

    /// Whether `seat` may offer now as a separate action.
    pub fn check_separate(
        &self,
        seat: Seat,
        policy: &DrawPolicy,
        now: Millis,
    ) -> Result<(), GameError> {
        if self.may_offer != Some(seat) {
            return Err(GameError::OfferNotAllowed);
        }
        if self.standing(policy, now) == Some(seat) {
            return Err(GameError::OfferPending);
        }
        self.check_limits(seat, policy)
    }

    /// Records an offer by `seat` at `now` (checked by the caller); returns
    /// its count of offers.
    pub fn offer(&mut self, seat: Seat, now: Millis) -> u32 {
        self.offers[seat.index()] += 1;
        self.pending = Some(Pending { seat, at: now });
        self.offers[seat.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lead_and_cap() {
        let open = DrawPolicy::default();
        let mut d = Draws::default();
        assert_eq!(d.check_limits(Seat::First, &open), Ok(()));
        d.offers = [2, 0];
        assert_eq!(
            d.check_limits(Seat::First, &open),
            Err(GameError::OfferLimit)
        );
        d.offers = [2, 1];
        assert_eq!(d.check_limits(Seat::First, &open), Ok(()));
        let capped = DrawPolicy {
            max_offers: Some(2),
            answer_ms: None,
        };
        assert_eq!(
            d.check_limits(Seat::First, &capped),
            Err(GameError::OfferCap { max: 2 })
        );
        assert_eq!(d.check_limits(Seat::Second, &capped), Ok(()));
    }

    #[test]
    fn lapse_is_a_matter_of_time() {
        let policy = DrawPolicy {
            max_offers: None,
            answer_ms: Some(30_000),
        };
        let mut d = Draws::default();
        d.offer(Seat::Second, 1_000);
        assert_eq!(d.lapse_at(&policy), Some(31_000));
        assert_eq!(d.standing(&policy, 30_999), Some(Seat::Second));
        assert_eq!(d.standing(&policy, 31_000), None);
        assert_eq!(d.lapsed(&policy, 31_000), Some(Seat::Second));
        assert_eq!(d.lapsed(&policy, 30_000), None);
        assert_eq!(
            d.standing(&DrawPolicy::default(), u64::MAX),
            Some(Seat::Second)
        );
    }
}
