//! Whether the store takes writes now: what `/healthz` answers and the
//! `tengen_store_up` gauge shows.
//!
//! Why: while the store refuses writes (a full disk, a failing device,
//! Redis out of reach or refusing writes), every move on this node is
//! refused, so a load balancer must send players elsewhere, and an
//! operator must see it. The store says so at once when it knows
//! ([`Store::refusing`]: the embedded store from its I/O error until it
//! has opened its files again); otherwise a probe write ([`Store::ping`])
//! every [`PROBE_EVERY`] tells. A probe that is merely slow while the
//! store is completing other writes is the store behind, not down.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tengen_store::Store;
use tokio::sync::watch;

use crate::metrics::STORE_UP;

/// How often the store is probed.
pub const PROBE_EVERY: Duration = Duration::from_secs(1);

/// Why the store refused the last probe, if it did.
#[derive(Clone, Default)]
pub struct StoreHealth(Arc<Mutex<Option<String>>>);

impl StoreHealth {
    /// Why the store refuses writes now, if it does.
    pub fn refusing(&self, store: &dyn Store) -> Option<String> {
        store.refusing().or_else(|| {
            self.0
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone()
        })
    }

    fn set(&self, why: Option<String>) {
        metrics::gauge!(STORE_UP).set(if why.is_none() { 1.0 } else { 0.0 });
        let mut last = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        match (&*last, &why) {
            (None, Some(why)) => tracing::warn!("the store refuses writes: {why}"),
            (Some(_), None) => tracing::info!("the store takes writes again"),
            _ => {}
        }
        *last = why;
    }
}

/// Probes `store` every [`PROBE_EVERY`] (each probe given `timeout`) until
/// shutdown, keeping `health` and the gauge current.
pub fn spawn(
    store: Arc<dyn Store>,
    health: StoreHealth,
    timeout: Duration,
    mut shutdown: watch::Receiver<bool>,
) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(PROBE_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                _ = shutdown.wait_for(|s| *s) => return,
            }
            let why = match store.refusing() {
                Some(why) => Some(why),
                None => probe(store.as_ref(), timeout).await,
            };
            health.set(why);
        }
    });
}

/// Why a probe write failed, if it did.
async fn probe(store: &dyn Store, timeout: Duration) -> Option<String> {
    match tokio::time::timeout(timeout, store.ping()).await {
        Ok(Ok(())) => None,
        Ok(Err(e)) => Some(e.to_string()),
        Err(_) if store.last_progress().is_some_and(|t| t.elapsed() < timeout) => None,
        Err(_) => Some(format!("no answer to a probe write within {timeout:?}")),
    }
}
