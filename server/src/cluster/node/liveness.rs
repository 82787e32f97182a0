//! The node's store work each tick, done off the actor.
//!
//! Every third of the lease term a node renews its liveness lease, takes
//! or renews the `matchmaker` lease (or learns who holds it), and checks
//! that the nodes it relays for or routes to are alive. Each is a store
//! round trip, and the node actor routes every relayed frame: were it to
//! wait on the store, a slow store would hold up every game played
//! across nodes. So the actor hands what it holds to a task
//! ([`work`]), goes on routing, and applies the task's [`Ticked`] report
//! when it comes back as a notice ([`Node::ticked`]). One tick's work runs
//! at a time; a tick that finds the last one still running skips its turn.

use std::time::{Duration, Instant};

use tengen_store::{Acquired, Lease, Store};

use super::{MARKS, Node};
use crate::cluster::leases::{MATCHMAKER, alive_id};
use crate::cluster::wire::{Body, NodeMsg};
use crate::msg::node::{NodeCmd, Ticked};

/// What the actor holds that the work needs.
pub(super) struct Held {
    pub(super) alive: Option<Lease>,
    pub(super) leading: Option<Lease>,
    pub(super) nodes: Vec<String>,
}

/// The store work of one tick.
pub(super) async fn work(
    store: std::sync::Arc<dyn Store>,
    me: String,
    ttl: Duration,
    held: Held,
) -> Ticked {
    let my_id = alive_id(&me);
    let renewed = match &held.alive {
        Some(lease) => store.renew_lease(&my_id, lease, ttl).await.is_ok(),
        None => false,
    };
    let alive = if renewed {
        Some(held.alive)
    } else {
        match store.acquire_lease(&my_id, &me, ttl).await {
            Ok(Acquired::Ours(lease)) => Some(Some(lease)),
            Ok(Acquired::Held(_)) => Some(None),
            Err(e) => {
                tracing::warn!(error = %e, "could not renew this node's liveness lease");
                None
            }
        }
    };
    let lead = lead(store.as_ref(), &me, ttl, held.leading).await;
    let started = Instant::now();
    let mut dead = Vec::new();
    for node in held.nodes {
        if started.elapsed() > Duration::from_secs(1) {
            break; // the rest next time
        }
        // An error cannot tell: the node is taken as alive.
        if let Ok(None) = store.lease(&alive_id(&node)).await {
            dead.push(node);
        }
    }
    let director = match store.lease(crate::tournaments::director::LEASE).await {
        Ok(lease) => Some(lease.map(|l| l.node)),
        Err(_) => None,
    };
    Ticked {
        alive,
        lead,
        dead,
        director,
    }
}

/// Renews the `matchmaker` lease if held, else takes it if free; returns
/// the lease held now and the node that runs the matchmaker.
async fn lead(
    store: &dyn Store,
    me: &str,
    ttl: Duration,
    mut leading: Option<Lease>,
) -> Option<(Option<Lease>, Option<String>)> {
    if let Some(lease) = &leading
        && store.renew_lease(MATCHMAKER, lease, ttl).await.is_err()
    {
        tracing::warn!("lost the matchmaker lease");
        leading = None;
    }
    if leading.is_some() {
        return Some((leading, Some(me.to_owned())));
    }
    match store.acquire_lease(MATCHMAKER, me, ttl).await {
        Ok(Acquired::Ours(lease)) => {
            tracing::info!(node = %me, "this node runs the matchmaker");
            Some((Some(lease), Some(me.to_owned())))
        }
        Ok(Acquired::Held(lease)) => Some((None, Some(lease.node))),
        Err(e) => {
            tracing::warn!(error = %e, "cannot tell which node runs the matchmaker");
            None
        }
    }
}

impl Node {
    /// Starts this tick's store work unless the last tick's still runs.
    pub(super) fn start_tick(&mut self) {
        self.mark_relays();
        self.unanswered();
        self.forget_probes();
        self.forget_fans();
        if self.ticking {
            return;
        }
        self.ticking = true;
        let mut nodes: std::collections::HashSet<String> =
            self.relays.keys().map(|(n, _)| n.clone()).collect();
        for r in self.routed.values() {
            nodes.extend(r.next.keys().cloned());
        }
        let held = Held {
            alive: self.alive.clone(),
            leading: self.leading.clone(),
            nodes: nodes.into_iter().collect(),
        };
        let (store, me, ttl) = (
            self.hosting.store.clone(),
            self.hosting.settings.node.clone(),
            self.hosting.settings.lease_ttl,
        );
        let own = self.tx.clone();
        tokio::spawn(async move {
            let report = work(store, me, ttl, held).await;
            own.notify(NodeCmd::Ticked(Box::new(report)));
        });
    }

    /// Applies what a tick's store work found.
    pub(super) fn ticked(&mut self, t: Ticked) {
        self.ticking = false;
        match t.alive {
            Some(alive) => self.alive = alive,
            None => self.hosting.takeovers.store_failed(),
        }
        if let Some(director) = t.director {
            self.director = director;
        }
        if let Some((leading, leader)) = t.lead {
            self.leading = leading;
            if leader != self.leader {
                let before = std::mem::replace(&mut self.leader, leader);
                if before.is_some() {
                    self.requeue_all(before.as_deref());
                }
            }
        }
        // After an outage of the store every liveness lease has lapsed,
        // though the nodes live: no node is taken for dead until the store
        // has been steady for the takeover grace (they renew meanwhile).
        if self
            .hosting
            .takeovers
            .calm_for(self.hosting.settings.takeover_grace())
        {
            for node in t.dead {
                self.node_died(&node);
            }
        }
    }
}

impl Node {
    /// Tells each relay's connection node how many messages the relay has
    /// sent, when that changed since the last tick: a loss of the last
    /// messages before a quiet spell shows too (numbering alone would
    /// show it only at the next message).
    pub(super) fn mark_relays(&mut self) {
        let me = self.hosting.settings.node.clone();
        for ((node, conn), relay) in &mut self.relays {
            let n = relay.sent.load(std::sync::atomic::Ordering::Acquire);
            // After any activity, marked for a few ticks (a mark can be
            // lost too); then quiet until the relay sends again.
            if n != relay.marked {
                relay.marked = n;
                relay.marks_left = MARKS;
            }
            if relay.marks_left > 0 {
                relay.marks_left -= 1;
                let msg = NodeMsg {
                    from: me.clone(),
                    body: Body::Mark { conn: *conn, n },
                };
                self.bus.publish_node(node, msg.encode());
            }
        }
    }

    fn node_died(&mut self, node: &str) {
        tracing::warn!(%node, "a node stopped renewing its liveness lease: its relays here go");
        let gone: Vec<(String, u64)> = self
            .relays
            .keys()
            .filter(|(n, _)| n == node)
            .cloned()
            .collect();
        for key in gone {
            if let Some(relay) = self.relays.remove(&key) {
                self.relay_gone(relay);
            }
        }
        let routed: Vec<u64> = self
            .routed
            .iter()
            .filter(|(_, r)| r.next.contains_key(node))
            .map(|(c, _)| *c)
            .collect();
        for conn in routed {
            self.resync(conn, "the node running its table died");
        }
        self.owners.retain(|_, n| n != node);
    }
}
