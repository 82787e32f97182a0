//! Each seat's quota of lag credit (lag compensation is
//! `super::super::lag`).

use tengen_rules::game::{Millis, Seat};

/// A seat's quota starts full and never exceeds this.
pub const QUOTA_MAX_MS: Millis = 500;

/// Added to the mover's quota after each of its moves.
pub const QUOTA_GAIN_MS: Millis = 100;

/// Each seat's quota of lag credit.
pub(crate) struct Quotas {
    pub(crate) quota: [Millis; 2],
}

impl Default for Quotas {
    fn default() -> Quotas {
        Quotas {
            quota: [QUOTA_MAX_MS; 2],
        }
    }
}

impl Quotas {
    /// What `seat` may be credited of `lag`: at most its quota and `cap`.
    pub(crate) fn credit(&self, seat: Seat, lag: Millis, cap: Millis) -> Millis {
        lag.min(self.quota[seat.index()]).min(cap)
    }

    /// `seat`'s quota pays for the `granted` credit, then refills for the
    /// move.
    pub(crate) fn settle(&mut self, seat: Seat, granted: Millis) {
        let q = &mut self.quota[seat.index()];
        *q = (q.saturating_sub(granted) + QUOTA_GAIN_MS).min(QUOTA_MAX_MS);
    }
}
