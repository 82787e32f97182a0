//! A table's lease: which node runs it.
//!
//! Several nodes can share one store. A table is run by exactly one of
//! them, the holder of its lease in the store; every append to its log is
//! conditional on that lease ([`tengen_store::Store::append_leased`]), so
//! a node that lost the lease can never write, however late it notices.
//! The table takes its lease before it creates itself in the store (no
//! other node ever sees it unleased); the node's lease keeper
//! (`crate::keeper`) renews the leases of all its tables together. When
//! the node dies, the renewals stop, the lease lapses, and another node
//! takes the table over from its stored log ([`super::restore::take_over`]).
//! A lease that lapsed while no other node took the table is still this
//! node's (the store says so), so a node that was merely slow keeps its
//! games.
//!
//! When the keeper reports that another node took the lease, the table
//! tries to take it again: if that node let it go meanwhile and the stored
//! log is exactly what this table wrote (nobody else appended), it carries
//! on under a new epoch. Otherwise another node runs the game now: this
//! table *steps down*. It writes nothing more and closes its players' and
//! spectators' connections with 1012 (restarting), so that they reconnect
//! and resume where the game goes on. A single node on the embedded store
//! takes its leases the same way (in memory, cheaply; nobody else can take
//! them there, so they never lapse), so there is one code path.

use std::time::{Duration, Instant};

use tengen_protocol::CloseCode;
use tengen_store::{Acquired, Lease, StoreError};

use super::Table;
use crate::msg::keeper::KeeperCmd;

/// How soon taking a lost lease again is retried when the store is out
/// of reach.
const RETRY: Duration = Duration::from_millis(500);

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
        match self.store_call("acquire_lease", acquire).await? {
            Acquired::Ours(lease) => {
                self.hold(lease);
                Ok(())
            }
            Acquired::Held(by) => Err(StoreError::LeaseLost(format!(
                "table {} is run by node {} (epoch {})",
                self.id, by.node, by.epoch
            ))),
        }
    }

    /// Holds `lease` from now on; the node's lease keeper renews it.
    pub(super) fn hold(&mut self, lease: Lease) {
        self.hosting.keeper.notify(KeeperCmd::Hold {
            table: self.id.clone(),
            lease: lease.clone(),
        });
        self.tenure.lease = Some(lease);
    }

    /// Stops holding the lease (the keeper stops renewing it); returns it.
    fn let_go(&mut self) -> Option<Lease> {
        let lease = self.tenure.lease.take()?;
        self.hosting.keeper.notify(KeeperCmd::Let {
            table: self.id.clone(),
        });
        Some(lease)
    }

    /// The keeper says another node took `lease`.
    pub(super) async fn lease_lost(&mut self, lease: Lease) {
        if self.tenure.lease.as_ref() == Some(&lease) {
            self.lease_lapsed().await;
        }
    }

    /// Taking a lost lease again is due (the store was out of reach).
    pub(super) async fn retry_lease(&mut self) {
        self.tenure.retry_at = None;
        self.lease_lapsed().await;
    }

    /// The lease is gone: take it again if the game is still exactly
    /// ours, else step down.
    async fn lease_lapsed(&mut self) {
        self.let_go();
        if self.durable.finish_stored {
            // Nothing is written any more: the lease only told other
            // nodes where the finished table stays. Let it go.
            return;
        }
        if let Err(e) = self.take_lease().await {
            return match e {
                StoreError::LeaseLost(why) => self.step_down(&why),
                e => {
                    tracing::warn!(table = %self.id, error = %e, "lease lost and the store is unreachable; retrying");
                    self.tenure.retry_at = Some(Instant::now() + RETRY);
                }
            };
        }
        let stored = self
            .store_call(
                "live_table",
                self.hosting.store.live_table(self.id.as_str()),
            )
            .await;
        match stored {
            Ok(Some(t)) if t.entries.len() == self.durable.logged => {
                tracing::warn!(table = %self.id, "the table's lease had been lost; taken again");
            }
            Ok(_) => {
                if let Some(lease) = self.let_go() {
                    let _ = self
                        .hosting
                        .store
                        .release_lease(self.id.as_str(), &lease)
                        .await;
                }
                self.step_down("the stored game changed while the lease was lost");
            }
            Err(e) => {
                tracing::warn!(table = %self.id, error = %e, "could not check the stored log; retrying");
                self.let_go();
                self.tenure.retry_at = Some(Instant::now() + RETRY);
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
        self.let_go();
        self.tenure.retry_at = None;
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
        self.tenure.retry_at = None;
        if let Some(lease) = self.let_go() {
            let release = self.hosting.store.release_lease(self.id.as_str(), &lease);
            let _ = self.store_call("release_lease", release).await;
        }
    }

    /// Gives the lease up as the table closes, its finished game stored.
    pub(super) async fn release_lease(&mut self) {
        self.tenure.retry_at = None;
        if let Some(lease) = self.let_go() {
            let release = self.hosting.store.release_lease(self.id.as_str(), &lease);
            if let Err(e) = self.store_call("release_lease", release).await {
                tracing::debug!(table = %self.id, error = %e, "lease not released (it lapses)");
            }
        }
    }
}
