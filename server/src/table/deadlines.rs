//! A table's timers: what falls due next (a flag with its lag grace, a
//! lapsed draw offer, the abort of a game whose first moves never come, an
//! away player's grace, the coalesced spectator count, the fans' marks, a store probe, the lease's
//! renewal, the end of the restart grace, the table's close) and what
//! happens when it does.

use std::time::Instant;

use tengen_rules::game::Seat;

use super::Table;

impl Table {
    pub(super) fn next_deadline(&self) -> Option<Instant> {
        let mut due = [
            self.subs.count_due,
            self.subs.mark_due,
            self.timers.close_at,
            self.durable.retry_at,
            self.freeze.restoring,
            self.tenure.retry_at,
        ];
        if self.freeze.since.is_some() {
            // Game time stands still: no flag, no abort, no abandonment.
            return due.into_iter().flatten().min();
        }
        // The flag is called only after the grace lag compensation allows.
        let game = match (self.game.next_deadline(), self.game.flag_at()) {
            (Some(next), Some(flag)) if next == flag => self.flag_deadline(),
            (next, _) => next.map(|ms| self.instant(ms)),
        };
        let away = self.grace_deadline();
        due[0] = [due[0], game, self.timers.first_action_due, away]
            .into_iter()
            .flatten()
            .min();
        due.into_iter().flatten().min()
    }

    /// Handles whatever is due at `now`; true when the table should close.
    pub(super) async fn on_deadline(&mut self, now: Instant) -> bool {
        if self.tenure.retry_at.is_some_and(|t| t <= now) {
            self.retry_lease().await;
            if self.tenure.stepped_down {
                return true;
            }
        }
        if self.subs.count_due.is_some_and(|t| t <= now) {
            self.subs.count_due = None;
            self.send_spectator_count();
        }
        if self.subs.mark_due.is_some_and(|t| t <= now) {
            self.send_marks(now);
        }
        if self.durable.retry_at.is_some_and(|t| t <= now) {
            self.probe().await;
        }
        if self.freeze.restoring.is_some_and(|t| t <= now) {
            self.freeze.restoring = None;
            self.refreeze();
            self.away_after_restore();
        }
        if self.freeze.since.is_some() {
            return self.timers.close_at.is_some_and(|t| t <= now);
        }
        let ms = self.now_ms(now);
        let events = self.tick_guarded(ms);
        if self.persist().await.is_ok() {
            self.broadcast(events, ms);
        }
        if self.timers.first_action_due.is_some_and(|t| t <= now) && self.freeze.since.is_none() {
            self.timers.first_action_due = None;
            let waited_for = self.game.to_act();
            if let Ok(events) = self.game.declare_aborted(ms)
                && self.persist().await.is_ok()
            {
                tracing::info!(table = %self.id, "aborted: a first move never came");
                self.timers.no_show = waited_for;
                self.broadcast(events, ms);
            }
        }
        if self.freeze.since.is_none() {
            self.graces_over(now).await;
        }
        self.timers.close_at.is_some_and(|t| t <= now)
    }

    /// A tournament player withdrew: their game here is lost by
    /// abandonment at once (unless the clocks stand still: then the
    /// abandonment countdown decides it later).
    pub(super) async fn withdrawn(&mut self, name: &str) {
        let Some(seat) = Seat::BOTH
            .into_iter()
            .find(|s| self.meta.seats[s.index()].player.name == name)
        else {
            return;
        };
        if self.meta.tournament.is_none() || self.game.is_over() || self.freeze.since.is_some() {
            return;
        }
        let ms = self.now_ms(Instant::now());
        if let Ok(events) = self.game.declare_abandoned(seat, ms)
            && self.persist().await.is_ok()
        {
            tracing::info!(table = %self.id, %seat, "lost by a tournament withdrawal");
            self.broadcast(events, ms);
        }
    }
}
