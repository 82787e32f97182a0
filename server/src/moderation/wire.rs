//! What a node tells the others about moderation, on the cluster bus's
//! `moderation` topic (`PREFIX:topic:moderation`): only what changed, in
//! MessagePack. `tengen-server admin --redis` publishes the same bytes.

use bytes::Bytes;
use serde::{Deserialize, Serialize};

use crate::cluster::bus::Bus;

/// The bus topic.
pub const TOPIC: &str = "moderation";

/// What changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum News {
    /// An account's standing (a ban, a mute, a role, its blocks).
    Standing { name: String },
    /// The banned address ranges.
    AddressBans,
    /// Not a change but a command (from `tengen-server admin --redis`,
    /// which reaches no lobby or table itself), audited already: the node
    /// holding room `room` closes it (`by`, for the logs; `reason`, told
    /// to everyone there).
    CloseRoom {
        room: String,
        by: String,
        reason: String,
    },
    /// Likewise: the node running table `table` aborts its game.
    AbortGame {
        table: String,
        by: String,
        reason: String,
    },
    /// Login tokens of the account `name` were revoked (`logout`; with
    /// `everywhere`, all of them): each node ends the sessions whose token
    /// the store no longer accepts (`crate::signout`).
    Logout { name: String, everywhere: bool },
}

impl News {
    /// The bytes on the bus (MessagePack, as between nodes).
    pub fn encode(&self) -> Vec<u8> {
        rmp_serde::to_vec_named(self).unwrap_or_default()
    }
}

/// Publishes `news` (never waits; a full queue drops it, logged).
pub fn publish(bus: &Bus, news: &News) {
    if !bus.publish_topic(TOPIC, Bytes::from(news.encode())) {
        tracing::warn!(?news, "moderation news dropped (bus queue full)");
    }
}
