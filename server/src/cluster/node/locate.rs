//! Finding the node that runs a table, and probing other nodes (see the
//! [parent module](super)).
//!
//! Why: a command for a table this node does not run goes to the table's
//! lease holder, but the lease alone can mislead in both directions. A
//! node killed a moment ago still holds its leases (and its liveness
//! lease) for up to their term, and a table whose lease lapsed may be live
//! all the same: its node is taking it back after an outage of the store,
//! or another node is about to take it over. So the lookup asks the
//! holder whether it is there (a `Ping` over the bus, answered at once by
//! its actor), and before it says `not_found` it checks that the table is
//! not live in the store. Whatever is moving is answered `unavailable`
//! with `retry_after_ms`: the client tries again, and by then the table
//! runs somewhere.

use std::sync::Arc;
use std::time::Duration;

use tengen_protocol::TableId;
use tengen_store::Store;
use tokio::sync::oneshot;

use super::Node;
use crate::cluster::wire::Body;
use crate::msg::node::{NodeHandle, probe};
use crate::table::failover::node_alive;

/// Probes waiting for an answer, at most.
const MAX_PROBES: usize = 4096;

/// What a lookup needs, copied off the actor.
pub(super) struct Lookup {
    pub(super) store: Arc<dyn Store>,
    pub(super) me: String,
    pub(super) timeout: Duration,
    pub(super) probe_wait: Duration,
    pub(super) node: NodeHandle,
}

impl Lookup {
    /// The node running `table`: `Ok(None)` when no table of that id is
    /// live; `Err` (why, to be answered `unavailable` with a time to try
    /// again) while it moves or the store does not answer.
    pub(super) async fn owner(self, table: &TableId) -> Result<Option<String>, String> {
        let id = table.as_str();
        let lease = match tokio::time::timeout(self.timeout, self.store.lease(id)).await {
            Ok(Ok(lease)) => lease,
            Ok(Err(e)) => return Err(format!("the store did not answer ({e}); try again")),
            Err(_) => return Err("the store did not answer; try again".into()),
        };
        if let Some(l) = lease.filter(|l| l.node != self.me) {
            let alive = tokio::time::timeout(self.timeout, node_alive(&self.store, &l.node))
                .await
                .unwrap_or(true);
            if alive && probe(&self.node, &l.node, self.probe_wait).await {
                return Ok(Some(l.node));
            }
            return Err(format!(
                "table {table} is moving: its node {} does not answer; try again",
                l.node
            ));
        }
        // Nobody's (or this node's while it is not up here): live or gone?
        match tokio::time::timeout(self.timeout, self.store.live_table(id)).await {
            Ok(Ok(None)) => Ok(None),
            Ok(Ok(Some(_))) => Err(format!(
                "table {table} is moving to another node; try again"
            )),
            _ => Err("the store did not answer; try again".into()),
        }
    }
}

impl Node {
    /// What a lookup of a table's node needs.
    pub(super) fn lookup(&self) -> Lookup {
        Lookup {
            store: self.hosting.store.clone(),
            me: self.hosting.settings.node.clone(),
            timeout: self.hosting.settings.store_timeout,
            probe_wait: self.hosting.settings.probe_wait(),
            node: self.tx.clone(),
        }
    }

    /// Asks `node` whether it is there; `reply` is answered by its `Pong`.
    pub(super) fn probe(&mut self, node: String, reply: oneshot::Sender<()>) {
        if node == self.hosting.settings.node {
            let _ = reply.send(());
            return;
        }
        if self.probes.len() >= MAX_PROBES {
            self.probes.retain(|_, r| !r.is_closed());
            if self.probes.len() >= MAX_PROBES {
                return; // unanswered: taken as not there, for now
            }
        }
        self.next_probe += 1;
        let nonce = self.next_probe;
        if self.publish(&node, Body::Ping { nonce }) {
            self.probes.insert(nonce, reply);
        }
    }

    /// `from` answered probe `nonce`.
    pub(super) fn pong(&mut self, nonce: u64) {
        if let Some(reply) = self.probes.remove(&nonce) {
            let _ = reply.send(());
        }
    }

    /// Forgets the probes nobody waits for any more (each tick).
    pub(super) fn forget_probes(&mut self) {
        self.probes.retain(|_, r| !r.is_closed());
    }
}
