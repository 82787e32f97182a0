//! The lease keeper: one task per node that keeps every table lease of
//! this node renewed, in one store call per third of the lease term.
//!
//! Actor: owns the set of this node's table leases; receives
//! [`KeeperCmd`] (a table took or gave up its lease; a renewal ended);
//! sends `TableCmd::LeaseLost` to a table whose lease another node took.
//!
//! Why not each table for itself: a table that renewed its own lease woke
//! up every third of the term and made a store call, so five thousand
//! tables made close to four thousand store calls a second, all on the
//! actors that also run the games. Here the renewals of the whole node go
//! in one call (one Redis pipeline; a loop in memory on the embedded
//! store), off the table actors, and the keeper's loop never waits for
//! the store (the call runs in its own task and reports back).
//!
//! A lease only counts as lost when another node has taken the table
//! ([`tengen_store::Store::renew_lease`]): a node that was slow, or a store
//! out of reach for a while, loses nothing by it. A renewal that fails
//! (the store down) is tried again at the next tick.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tengen_protocol::TableId;
use tengen_store::{Lease, Store, StoreError};
use tokio::sync::watch;

use crate::mailbox::Inbox;
use crate::msg::keeper::{KeeperCmd, KeeperHandle};
use crate::msg::table::{Directory, TableCmd};

/// Starts the keeper of this node's leases (renewed every `ttl / 3`, each
/// store call given `timeout`), with room in its mailbox for the notices
/// of `max_tables` tables.
pub fn spawn(
    store: Arc<dyn Store>,
    directory: Directory,
    ttl: Duration,
    timeout: Duration,
    max_tables: usize,
    shutdown: watch::Receiver<bool>,
) -> KeeperHandle {
    // Each table sends at most a `Hold` and a `Let` at a time, and one
    // renewal report is in flight.
    let (handle, rx) = crate::mailbox::mailbox(1, 2 * max_tables + 2);
    let keeper = Keeper {
        store,
        directory,
        ttl,
        timeout,
        tx: handle.clone(),
        held: HashMap::new(),
        renewing: false,
        lost: HashMap::new(),
    };
    tokio::spawn(keeper.run(rx, shutdown));
    handle
}

struct Keeper {
    store: Arc<dyn Store>,
    directory: Directory,
    ttl: Duration,
    timeout: Duration,
    tx: KeeperHandle,
    /// Every table lease this node holds.
    held: HashMap<TableId, Lease>,
    /// A renewal is running (the next tick waits for it).
    renewing: bool,
    /// Tables to tell that another node took their lease, until their
    /// mailbox takes the notice (a table's mailbox has no reserved room).
    lost: HashMap<TableId, Lease>,
}

impl Keeper {
    async fn run(mut self, mut rx: Inbox<KeeperCmd>, shutdown: watch::Receiver<bool>) {
        let every = self.ttl / 3;
        rx.serve(&mut self, every, shutdown, Self::handle, Self::renew)
            .await;
    }

    fn handle(&mut self, cmd: KeeperCmd) {
        let before = self.held.len();
        match cmd {
            KeeperCmd::Hold { table, lease } => {
                self.lost.remove(&table);
                self.held.insert(table, lease);
            }
            KeeperCmd::Let { table } => {
                self.held.remove(&table);
            }
            KeeperCmd::Renewed { asked, held } => self.renewed(asked, held),
        }
        // Counted by change, so that several servers in one process (tests)
        // add up.
        let held = metrics::gauge!(crate::metrics::LEASES_HELD);
        held.increment(self.held.len() as f64 - before as f64);
    }

    /// Tells the tables whose lease was taken, and renews every lease held,
    /// in one store call in its own task.
    fn renew(&mut self) {
        self.tell_lost();
        if self.renewing || self.held.is_empty() {
            return;
        }
        self.renewing = true;
        let asked: Vec<(TableId, Lease)> = self
            .held
            .iter()
            .map(|(t, l)| (t.clone(), l.clone()))
            .collect();
        let (store, ttl, timeout, tx) =
            (self.store.clone(), self.ttl, self.timeout, self.tx.clone());
        tokio::spawn(async move {
            let ids: Vec<(String, Lease)> = asked
                .iter()
                .map(|(t, l)| (t.as_str().to_owned(), l.clone()))
                .collect();
            let started = std::time::Instant::now();
            let held = match tokio::time::timeout(timeout, store.renew_leases(&ids, ttl)).await {
                Ok(held) => held,
                Err(_) => Err(StoreError::Unavailable(format!(
                    "no answer within {timeout:?}"
                ))),
            };
            metrics::histogram!(crate::metrics::STORE_CALL_SECONDS, "call" => "renew_leases")
                .record(started.elapsed().as_secs_f64());
            if let Err(e) = &held {
                crate::metrics::store_error(e);
            }
            tx.notify(KeeperCmd::Renewed { asked, held });
        });
    }

    /// A renewal ended: a table whose lease another node took hears of it
    /// (unless it let that lease go meanwhile).
    fn renewed(&mut self, asked: Vec<(TableId, Lease)>, held: tengen_store::Result<Vec<bool>>) {
        self.renewing = false;
        let held = match held {
            Ok(held) => held,
            Err(e) => {
                tracing::warn!(error = %e, leases = asked.len(), "could not renew this node's table leases; retrying at the next tick");
                crate::metrics::error("lease_renewal_failed");
                metrics::counter!(crate::metrics::LEASE_RENEWALS_FAILED).increment(1);
                return;
            }
        };
        for ((table, lease), still) in asked.into_iter().zip(held) {
            if still || self.held.get(&table) != Some(&lease) {
                continue;
            }
            self.held.remove(&table);
            tracing::warn!(%table, node = %lease.node, epoch = lease.epoch, "another node took the table's lease");
            self.lost.insert(table, lease);
        }
        self.tell_lost();
    }

    /// Hands each table whose lease was taken its notice; a full mailbox
    /// gets it at the next tick, a closed table never.
    fn tell_lost(&mut self) {
        let directory = &self.directory;
        self.lost.retain(|table, lease| match directory.get(table) {
            Some(h) => h
                .try_give(TableCmd::LeaseLost {
                    lease: lease.clone(),
                })
                .is_err(),
            None => false,
        });
    }
}
