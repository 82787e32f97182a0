//! What moderation shares on a node: [`Moderation`], carried in
//! `Hosting` (the standings and banned ranges held in memory, the bus to
//! tell other nodes, the bound on moderation tasks), and the wall clock
//! moderation's dates are read from. A leaf: it names no actor.

use std::sync::{Arc, OnceLock};

use crate::cluster::bus::Bus;

use super::{addresses, book, wire};

/// What moderation shares on a node (cheap to clone): the standings and
/// banned ranges held in memory, and the bus to tell other nodes.
#[derive(Clone)]
pub struct Moderation {
    pub book: book::Book,
    pub addresses: addresses::Addresses,
    /// Set once the node's moderation bus is up (several nodes only).
    bus: Arc<OnceLock<Bus>>,
    /// The bound on moderation tasks ([`IN_FLIGHT`]).
    pub permits: Arc<tokio::sync::Semaphore>,
}

impl Default for Moderation {
    fn default() -> Moderation {
        Moderation {
            book: Default::default(),
            addresses: Default::default(),
            bus: Default::default(),
            permits: Arc::new(tokio::sync::Semaphore::new(IN_FLIGHT)),
        }
    }
}

impl Moderation {
    /// Tells every other node of `news` (nothing with one node).
    pub fn announce(&self, news: &wire::News) {
        if let Some(bus) = self.bus.get() {
            wire::publish(bus, news);
        }
    }

    /// Sets the bus (once, when this node's moderation bus is up).
    pub(super) fn set_bus(&self, bus: Bus) {
        let _ = self.bus.set(bus);
    }
}

/// Moderation requests (and blocks and reports) running at once on a node.
pub const IN_FLIGHT: usize = 32;

/// Now, in Unix milliseconds (when sanctions end, audit dates).
pub fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}
