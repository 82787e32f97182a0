//! A table's lease: which node runs it.
//!
//! Several nodes can share one store. A table is run by exactly one of
//! them, the holder of its lease in the store; every append to its log is
//! conditional on that lease ([`tengen_store::Store::append_leased`]), so
//! a node that lost the lease can never write, however late it notices.
//! The table takes its lease before it creates itself in the store (no
//! other node ever sees it unleased) and renews it every third of its
//! term. When the node dies, the renewals stop, the lease lapses, and
//! another node takes the table over from its stored log
//! ([`super::restore::take_over`]).
//!
//! When a renewal finds the lease gone, the table tries to take it again:
//! if nobody took it meanwhile and the stored log is exactly what this
//! table wrote (nobody else appended), it carries on under a new epoch
//! (the store was out of reach for longer than the term, say). Otherwise
//! another node runs the game now: this table *steps down*. It writes
//! nothing more and closes its players' and spectators' connections with
//! 1012 (restarting), so that they reconnect and resume where the game
//! goes on. A single node on the embedded store takes and renews leases
//! the same way (in memory, cheaply), so there is one code path.

use std::time::{Duration, Instant};

use tengen_protocol::CloseCode;
use tengen_store::{Acquired, Lease, StoreError};

use super::Table;
use super::durable::within;

/// How soon a renewal that could not reach the store is tried again.
const RETRY: Duration = Duration::from_millis(500);

/// This node's hold on the table.
#[derive(Default)]
pub(super) struct Tenure {
    /// The lease, once taken.
    pub(super) lease: Option<Lease>,
    /// When the lease is renewed next.
    pub(super) renew_at: Option<Instant>,
    /// Another node runs the game now: this table writes nothing more and
    /// closes.
    pub(super) stepped_down: bool,
}

impl Table {
    /// Takes the lease of a table about to be created (or taken over).
    pub(super) async fn take_lease(&mut self) -> Result<(), StoreError> {
        if self.tenure.lease.is_some() {
            return Ok(());
        }
        let acquire = self.hosting.store.acquire_lease(
            self.id.as_str(),
            &self.hosting.settings.node,
            self.hosting.settings.lease_ttl,
        );
        match within(self.hosting.settings.store_timeout, acquire).await? {
            Acquired::Ours(lease) => {
                self.tenure.lease = Some(lease);
                self.tenure.renew_at = Some(Instant::now() + self.hosting.settings.lease_ttl / 3);
                Ok(())
            }
            Acquired::Held(by) => Err(StoreError::LeaseLost(format!(
                "table {} is run by node {} (epoch {})",
                self.id, by.node, by.epoch
            ))),
        }
    }

    /// Renews the lease (due every third of its term).
    pub(super) async fn renew_lease(&mut self) {
        let Some(lease) = self.tenure.lease.clone() else {
            // Lost while the store was out of reach: take it again.
            return self.lease_lapsed().await;
        };
        let ttl = self.hosting.settings.lease_ttl;
        let renew = self
            .hosting
            .store
            .renew_lease(self.id.as_str(), &lease, ttl);
        match within(self.hosting.settings.store_timeout, renew).await {
            Ok(()) => self.tenure.renew_at = Some(Instant::now() + ttl / 3),
            Err(StoreError::LeaseLost(_)) => self.lease_lapsed().await,
            Err(e) => {
                tracing::warn!(table = %self.id, error = %e, "could not renew the table's lease; retrying");
                self.tenure.renew_at = Some(Instant::now() + RETRY);
            }
        }
    }

    /// The lease is gone: take it again if the game is still exactly
    /// ours, else step down.
    async fn lease_lapsed(&mut self) {
        self.tenure.lease = None;
        if self.durable.finish_stored {
            // Nothing is written any more: the lease only told other
            // nodes where the finished table stays. Let it go.
            self.tenure.renew_at = None;
            return;
        }
        if let Err(e) = self.take_lease().await {
            return match e {
                StoreError::LeaseLost(why) => self.step_down(&why),
                e => {
                    tracing::warn!(table = %self.id, error = %e, "lease lapsed and the store is unreachable; retrying");
                    self.tenure.renew_at = Some(Instant::now() + RETRY);
                }
            };
        }
        let stored = within(
            self.hosting.settings.store_timeout,
            self.hosting.store.live_table(self.id.as_str()),
        )
        .await;
        match stored {
            Ok(Some(t)) if t.entries.len() == self.durable.logged => {
                tracing::warn!(table = %self.id, "the table's lease had lapsed; taken again");
            }
            Ok(_) => {
                if let Some(lease) = self.tenure.lease.take() {
                    let _ = self
                        .hosting
                        .store
                        .release_lease(self.id.as_str(), &lease)
                        .await;
                }
                self.step_down("the stored game changed while the lease had lapsed");
            }
            Err(e) => {
                tracing::warn!(table = %self.id, error = %e, "could not check the stored log; retrying");
                self.tenure.lease = None;
                self.tenure.renew_at = Some(Instant::now() + RETRY);
            }
        }
    }

    /// Another node runs this game now: write nothing more, and send
    /// everyone here to reconnect (they resume wherever the game is).
    pub(super) fn step_down(&mut self, why: &str) {
        if self.tenure.stepped_down {
            return;
        }
        tracing::warn!(table = %self.id, node = %self.hosting.settings.node, why, "lost the table's lease; stepping down");
        crate::metrics::error("lease_lost");
        self.tenure.stepped_down = true;
        self.tenure.lease = None;
        self.tenure.renew_at = None;
        self.durable.retry_at = None;
        for s in &mut self.seats {
            if s.subscribed {
                s.session.outbox.close(CloseCode::ServiceRestart);
                s.subscribed = false;
            }
        }
        for (_, o) in self.subs.spectators.drain() {
            o.close(CloseCode::ServiceRestart);
        }
    }

    /// The server is stopping: give the lease up and stop. Everything
    /// accepted is in the store already; the game goes on from its log at
    /// the node that takes it (or at the next start).
    pub(super) async fn handover(&mut self) {
        tracing::debug!(table = %self.id, "handing the table over");
        self.tenure.stepped_down = true;
        self.durable.retry_at = None;
        if let Some(lease) = self.tenure.lease.take() {
            let release = self.hosting.store.release_lease(self.id.as_str(), &lease);
            let _ = within(self.hosting.settings.store_timeout, release).await;
        }
        self.tenure.renew_at = None;
    }

    /// Gives the lease up as the table closes, its finished game stored.
    pub(super) async fn release_lease(&mut self) {
        self.tenure.renew_at = None;
        if let Some(lease) = self.tenure.lease.take() {
            let release = self.hosting.store.release_lease(self.id.as_str(), &lease);
            if let Err(e) = within(self.hosting.settings.store_timeout, release).await {
                tracing::debug!(table = %self.id, error = %e, "lease not released (it lapses)");
            }
        }
    }
}
