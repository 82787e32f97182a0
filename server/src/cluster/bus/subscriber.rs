//! The bus's subscriber: the push handler that turns Redis's pushes into
//! deliveries, and the supervisor that resubscribes after a reconnect.

use super::conn::{open, ping, subscribe, unsubscribe};
use super::shared::*;
use redis::aio::ConnectionManager;
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use tokio::sync::watch;

/// The subscriber task: keeps Redis's subscriptions equal to what is
/// wanted, notices lost connections and brings them back.
pub(super) struct Subscriber {
    pub(super) shared: Arc<Shared>,
    pub(super) client: redis::Client,
    pub(super) conn: ConnectionManager,
    /// Every channel the current connection may hold: added before its
    /// `SUBSCRIBE` is sent, removed once its `UNSUBSCRIBE` is confirmed.
    /// The crate's own resubscription after a reconnect restores what it
    /// saw confirmed, which can include a channel no longer wanted; this
    /// is how the bus knows to remove it.
    pub(super) held: HashSet<String>,
    pub(super) stop: watch::Receiver<bool>,
}

impl Subscriber {
    pub(super) async fn run(mut self) {
        let mut keepalive =
            tokio::time::interval_at(tokio::time::Instant::now() + KEEPALIVE, KEEPALIVE);
        keepalive.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut healthy = true;
        loop {
            if *self.stop.borrow() {
                return;
            }
            if !healthy {
                if !self.recover().await {
                    return;
                }
                healthy = true;
                keepalive.reset();
            }
            if let Err(e) = self.reconcile().await {
                tracing::warn!(error = %e, "bus: changing subscriptions failed");
                healthy = false;
                continue;
            }
            let owes = lock(&self.shared.outlet).owes();
            let mut probe = false;
            tokio::select! {
                _ = self.shared.wake.notified() => {}
                _ = keepalive.tick() => probe = true,
                _ = tokio::time::sleep(NOTICE_RETRY), if owes => {}
                _ = self.stop.changed() => return,
            }
            lock(&self.shared.outlet).flush(&self.shared.counters);
            if self.shared.disconnected.swap(false, Ordering::AcqRel) {
                tracing::warn!("bus: the subscriber connection to Redis was lost");
                healthy = false;
            } else if probe && let Err(e) = ping(&mut self.conn).await {
                tracing::warn!(error = %e, "bus: Redis does not answer the keepalive");
                healthy = false;
            }
        }
    }

    /// Makes Redis's subscriptions what is wanted now, as long as the
    /// wanted tables keep changing. A channel leaves `confirmed` before its
    /// `UNSUBSCRIBE` and enters it after its `SUBSCRIBE`, so `confirmed`
    /// never claims too much.
    async fn reconcile(&mut self) -> Result<(), String> {
        while self.shared.dirty.swap(false, Ordering::AcqRel) {
            let wanted = self.shared.wanted_channels();
            let (add, remove) = {
                let confirmed = self.shared.confirmed.borrow();
                let add: Vec<String> = wanted.difference(&confirmed.0).cloned().collect();
                let remove: Vec<String> = confirmed.0.difference(&wanted).cloned().collect();
                (add, remove)
            };
            let done = self.change(add, remove).await;
            if done.is_err() {
                // Not done: the next attempt (after recovery) does it.
                self.shared.dirty.store(true, Ordering::Release);
            }
            done?;
        }
        Ok(())
    }

    async fn change(&mut self, add: Vec<String>, remove: Vec<String>) -> Result<(), String> {
        if !remove.is_empty() {
            self.shared.confirmed.send_modify(|c| {
                for ch in &remove {
                    c.0.remove(ch);
                }
            });
            unsubscribe(&mut self.conn, &remove).await?;
            for ch in &remove {
                self.held.remove(ch);
            }
        }
        if !add.is_empty() {
            self.held.extend(add.iter().cloned());
            subscribe(&mut self.conn, &add).await?;
            self.shared.confirmed.send_modify(|c| c.0.extend(add));
        }
        Ok(())
    }

    /// After a lost connection: probes until Redis answers (a fresh
    /// connection after a few failures), subscribes to everything wanted
    /// and drops what is held but no longer wanted, then delivers
    /// `Resubscribed`. False when the bus stops meanwhile.
    async fn recover(&mut self) -> bool {
        self.shared.confirmed.send_modify(|c| c.0.clear());
        let mut backoff = BACKOFF_MIN;
        let mut failures = 0u32;
        loop {
            if *self.stop.borrow() {
                return false;
            }
            self.shared.disconnected.store(false, Ordering::Release);
            if failures >= REBUILD_AFTER {
                self.rebuild().await;
                failures = 0;
            }
            // Anything wanted from now on is a change for `reconcile`.
            self.shared.dirty.store(false, Ordering::Release);
            let wanted: Vec<String> = self.shared.wanted_channels().into_iter().collect();
            let attempt = async {
                ping(&mut self.conn).await?;
                self.held.extend(wanted.iter().cloned());
                subscribe(&mut self.conn, &wanted).await?;
                let stale: Vec<String> = {
                    let keep: HashSet<&String> = wanted.iter().collect();
                    self.held
                        .iter()
                        .filter(|ch| !keep.contains(ch))
                        .cloned()
                        .collect()
                };
                if !stale.is_empty() {
                    unsubscribe(&mut self.conn, &stale).await?;
                    for ch in &stale {
                        self.held.remove(ch);
                    }
                }
                Ok::<_, String>(())
            }
            .await;
            match attempt {
                // Lost again meanwhile: start over.
                Ok(()) if self.shared.disconnected.load(Ordering::Acquire) => failures += 1,
                Ok(()) => {
                    self.shared.confirmed.send_modify(|c| c.0.extend(wanted));
                    self.shared.dirty.store(true, Ordering::Release);
                    bump(&self.shared.counters.resubscribed, 1);
                    tracing::info!("bus: reconnected to Redis and resubscribed");
                    self.shared.deliver(Delivery::Resubscribed);
                    return true;
                }
                Err(e) => {
                    failures += 1;
                    tracing::debug!(error = %e, failures, "bus: Redis still unavailable");
                }
            }
            tokio::select! {
                _ = tokio::time::sleep(backoff) => {}
                _ = self.stop.changed() => return false,
            }
            backoff = (backoff * 2).min(BACKOFF_MAX);
        }
    }

    /// Replaces the subscriber connection by a new one, of a new
    /// generation: the old one's disconnection no longer counts, and it
    /// holds nothing (dropping it closes it).
    async fn rebuild(&mut self) {
        let epoch = self.shared.epoch.load(Ordering::Acquire) + 1;
        match open(&self.client, Some((&self.shared, epoch))).await {
            Ok(conn) => {
                tracing::info!(epoch, "bus: new subscriber connection");
                self.shared.epoch.store(epoch, Ordering::Release);
                self.conn = conn;
                self.held.clear();
            }
            Err(e) => tracing::debug!(error = %e, "bus: no new subscriber connection yet"),
        }
    }
}
