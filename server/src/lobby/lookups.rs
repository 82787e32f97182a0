//! The challenges waiting while their player is looked for on the other
//! nodes ([`super::find`] asks and handles the answers): what each asked,
//! which nodes have yet to answer, and until when. A leaf that knows no
//! lobby, so that the lobby can hold it (and the modules that handle
//! challenges can name what a challenge asks) without a module cycle.

use std::collections::{BTreeSet, HashMap};
use std::time::Instant;

use tengen_protocol::RequestId;
use tengen_rules::game::GameConfig;

use crate::sessions::Session;

/// What a `challenge` asks.
pub(super) struct ChallengeAsk {
    pub(super) player: String,
    pub(super) config: GameConfig,
    pub(super) chat: bool,
    pub(super) rated: bool,
}

/// A challenge whose player is being looked for.
pub(super) struct Finding {
    pub(super) session: Session,
    pub(super) id: Option<RequestId>,
    pub(super) ask: ChallengeAsk,
    /// The nodes that have not answered yet.
    pub(super) waiting: BTreeSet<String>,
    pub(super) until: Instant,
}

/// The lookups waiting for answers, by nonce.
#[derive(Default)]
pub(super) struct Finds {
    pending: HashMap<u64, Finding>,
}

impl Finds {
    pub(super) fn len(&self) -> usize {
        self.pending.len()
    }

    pub(super) fn insert(&mut self, nonce: u64, finding: Finding) {
        self.pending.insert(nonce, finding);
    }

    /// Node `from` has nobody for lookup `nonce`: the lookup, once every
    /// node it waited for said so.
    pub(super) fn nobody_at(&mut self, nonce: u64, from: &str) -> Option<Finding> {
        let f = self.pending.get_mut(&nonce)?;
        f.waiting.remove(from);
        if f.waiting.is_empty() {
            self.pending.remove(&nonce)
        } else {
            None
        }
    }

    /// Lookup `nonce`, answered (`None`: answered already, or given up).
    pub(super) fn take(&mut self, nonce: u64) -> Option<Finding> {
        self.pending.remove(&nonce)
    }

    /// The lookups whose time is up at `now`.
    pub(super) fn expired(&mut self, now: Instant) -> Vec<Finding> {
        let late: Vec<u64> = self
            .pending
            .iter()
            .filter(|(_, f)| f.until <= now)
            .map(|(n, _)| *n)
            .collect();
        late.iter().filter_map(|n| self.pending.remove(n)).collect()
    }
}
