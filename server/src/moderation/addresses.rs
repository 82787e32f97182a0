//! Banned address ranges as this node holds them: read from the store at
//! start and again whenever a moderator (here, on another node, or from
//! the command line) changes them, so that the check at each WebSocket
//! upgrade reads memory only.

use std::net::IpAddr;
use std::sync::{Arc, RwLock};

use tengen_store::{Store, StoreError};

use crate::cidr::Cidr;

/// A banned range and when its ban ends (Unix ms; `None`: never).
type Banned = (Cidr, Option<u64>);

/// The ranges and when each ban ends (shared, cheap to clone).
#[derive(Clone, Default)]
pub struct Addresses {
    ranges: Arc<RwLock<Vec<Banned>>>,
}

impl Addresses {
    /// Reads every banned range from the store (a stored range that does
    /// not parse is logged and skipped).
    pub async fn reload(&self, store: &dyn Store) -> Result<(), StoreError> {
        let bans = store.address_bans().await?;
        let mut ranges = Vec::with_capacity(bans.len());
        for b in bans {
            match b.range.parse::<Cidr>() {
                Ok(r) => ranges.push((r, b.ban.until_ms)),
                Err(e) => {
                    tracing::warn!(range = %b.range, error = %e, "a stored address ban is unreadable")
                }
            }
        }
        if let Ok(mut held) = self.ranges.write() {
            *held = ranges;
        }
        Ok(())
    }

    /// `ip` is in a range banned at `now_ms`.
    pub fn banned(&self, ip: IpAddr, now_ms: u64) -> bool {
        self.ranges.read().is_ok_and(|r| {
            r.iter()
                .any(|(range, until)| until.is_none_or(|u| now_ms < u) && range.contains(ip))
        })
    }
}
