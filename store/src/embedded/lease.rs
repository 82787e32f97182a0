//! The embedded store's table leases and seat index, kept in memory.
//!
//! Why in memory: redb locks its file, so exactly one process ever uses an
//! embedded store, and a lease is only about which *process* may write. A
//! restart starts with no lease held, which is right: the process that
//! held them is gone. Epochs start again at 1 after a restart for the same
//! reason (no writer of an earlier run is left to confuse with). The
//! check of a leased append and its write are not one atomic step here
//! (the write goes to the writer thread after the check), which is sound
//! because within one process the server never takes over a table it
//! still runs. The seat index ([`crate::Store::index_seat`]) is only read
//! when a node takes a table over, which one process never does, so
//! memory is enough for it too; a table's entries go when it ends.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::{Acquired, Lease, Result, StoreError};

#[derive(Default)]
pub(super) struct Leases {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    held: HashMap<String, (Lease, Instant)>,
    /// The last epoch given per table (kept while the table's lease is
    /// held or was held, so epochs only grow).
    epochs: HashMap<String, u64>,
    /// Resume token → the tables it sits at, and back (so a table that
    /// ends takes its entries along).
    seats: HashMap<String, Vec<String>>,
    seated: HashMap<String, Vec<String>>,
    /// Tables that ended (finished or discarded) while their lease was
    /// held: it stays theirs, as in Redis, until they release it (a
    /// finished table lingers and its node keeps renewing), and then they
    /// are forgotten.
    ended: std::collections::HashSet<String>,
}

fn poisoned<T>(_: T) -> StoreError {
    StoreError::Unavailable("the lease registry is poisoned".into())
}

impl Leases {
    pub fn acquire(&self, id: &str, node: &str, ttl: Duration) -> Result<Acquired> {
        let now = Instant::now();
        let mut inner = self.inner.lock().map_err(poisoned)?;
        if let Some((lease, until)) = inner.held.get(id)
            && *until > now
            && lease.node != node
        {
            return Ok(Acquired::Held(lease.clone()));
        }
        // A new incarnation of an id that ended is not ended.
        inner.ended.remove(id);
        let epoch = inner.epochs.entry(id.to_owned()).or_default();
        *epoch += 1;
        let lease = Lease {
            node: node.to_owned(),
            epoch: *epoch,
        };
        inner.held.insert(id.to_owned(), (lease.clone(), now + ttl));
        Ok(Acquired::Ours(lease))
    }

    /// Whether `lease` is still the holder's: held, or lapsed with nobody
    /// having taken the table since (its epoch is still the last given).
    /// Renews it to `ttl` from now if given.
    pub fn check(&self, id: &str, lease: &Lease, renew: Option<Duration>) -> Result<()> {
        let now = Instant::now();
        let mut inner = self.inner.lock().map_err(poisoned)?;
        let ours = match inner.held.get(id) {
            Some((held, _)) => held == lease,
            None => inner.epochs.get(id) == Some(&lease.epoch),
        };
        if !ours {
            return Err(StoreError::LeaseLost(format!(
                "table {id}'s lease of {} (epoch {}) is not held",
                lease.node, lease.epoch
            )));
        }
        if let Some(ttl) = renew {
            inner.held.insert(id.to_owned(), (lease.clone(), now + ttl));
        }
        Ok(())
    }

    /// Gives `lease` up: its epoch is passed, so the released lease is
    /// never the holder's again.
    pub fn release(&self, id: &str, lease: &Lease) -> Result<()> {
        let mut inner = self.inner.lock().map_err(poisoned)?;
        if inner.held.get(id).is_some_and(|(held, _)| held == lease) {
            inner.held.remove(id);
            if inner.ended.remove(id) {
                inner.epochs.remove(id);
            } else if let Some(epoch) = inner.epochs.get_mut(id) {
                *epoch += 1;
            }
        }
        Ok(())
    }

    pub fn holder(&self, id: &str) -> Result<Option<Lease>> {
        let now = Instant::now();
        let inner = self.inner.lock().map_err(poisoned)?;
        Ok(inner
            .held
            .get(id)
            .filter(|(_, until)| *until > now)
            .map(|(lease, _)| lease.clone()))
    }

    /// Whether anyone holds table `id`'s lease now.
    pub fn is_held(&self, id: &str) -> bool {
        self.holder(id).is_ok_and(|h| h.is_some())
    }

    /// A table ended (finished or discarded): its seats go now; its lease,
    /// if held, stays its holder's until released (as in Redis, whose
    /// finish leaves the lease alone), and then the table is forgotten
    /// (its epochs need not grow any more: its id is never live again,
    /// or, discarded, starts afresh).
    pub fn ended(&self, id: &str) {
        if let Ok(mut inner) = self.inner.lock() {
            if inner.held.contains_key(id) {
                inner.ended.insert(id.to_owned());
            } else {
                inner.epochs.remove(id);
            }
            for token in inner.seated.remove(id).unwrap_or_default() {
                if let Some(tables) = inner.seats.get_mut(&token) {
                    tables.retain(|t| t != id);
                    if tables.is_empty() {
                        inner.seats.remove(&token);
                    }
                }
            }
        }
    }

    pub fn index_seat(&self, token: &str, id: &str) -> Result<()> {
        let mut inner = self.inner.lock().map_err(poisoned)?;
        let tables = inner.seats.entry(token.to_owned()).or_default();
        if !tables.iter().any(|t| t == id) {
            tables.push(id.to_owned());
            inner
                .seated
                .entry(id.to_owned())
                .or_default()
                .push(token.to_owned());
        }
        Ok(())
    }

    pub fn seat_tables(&self, token: &str) -> Result<Vec<String>> {
        let inner = self.inner.lock().map_err(poisoned)?;
        Ok(inner.seats.get(token).cloned().unwrap_or_default())
    }
}
