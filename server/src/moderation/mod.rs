//! Moderation: roles, the audit log, bans and mutes, players' blocks and
//! reports, banned address ranges, and what moderators do to rooms,
//! games and ratings. One concern per file:
//!
//! - [`book`], the standings this node holds in memory for checks that
//!   cannot wait (a chat line, a pairing);
//! - [`standing`], changing a stored standing without losing a
//!   concurrent change;
//! - [`audit`], the audit log's writer;
//! - [`gate`], the checks at the door: a banned account's login, a
//!   banned address's WebSocket upgrade;
//! - [`addresses`], the banned ranges as this node holds them, and
//!   [`cidr`], what a range is;
//! - [`news`], telling every node of a change (Redis pub/sub), and doing
//!   what it implies there (a ban closes the account's sessions);
//! - [`actions`], the `moderate` requests;
//! - [`players`], `block`, `unblock` and `report`;
//! - [`chat`], what a mute and a block do to table chat and challenges;
//! - [`admin`], `tengen-server admin`: the same actions from the command
//!   line, against the store directly or through a running server's
//!   [`socket`].
//!
//! Why its own tree: moderation cuts across accounts, tables, the lobby
//! and the matchmaker, but owns nothing of theirs; each of them makes one
//! small call here.

pub mod actions;
pub mod addresses;
pub mod admin;
pub mod audit;
pub mod book;
pub mod chat;
pub mod cidr;
pub mod gate;
pub mod news;
pub mod players;
pub mod socket;
pub mod standing;

use std::sync::{Arc, OnceLock};

use crate::cluster::bus::Bus;

/// What moderation shares on a node (cheap to clone): the standings and
/// banned ranges held in memory, and the bus to tell other nodes.
#[derive(Clone)]
pub struct Moderation {
    pub book: book::Book,
    pub addresses: addresses::Addresses,
    /// Set once the node's moderation bus is up (several nodes only).
    bus: Arc<OnceLock<Bus>>,
    /// The bound on moderation tasks ([`actions::IN_FLIGHT`]).
    pub permits: Arc<tokio::sync::Semaphore>,
}

impl Default for Moderation {
    fn default() -> Moderation {
        Moderation {
            book: Default::default(),
            addresses: Default::default(),
            bus: Default::default(),
            permits: actions::permits(),
        }
    }
}

impl Moderation {
    /// Tells every other node of `news` (nothing with one node).
    pub fn announce(&self, news: &news::News) {
        if let Some(bus) = self.bus.get() {
            news::publish(bus, news);
        }
    }
}

/// Starts moderation on a node: reads the banned ranges, makes the
/// `--admin` accounts admins (audited), and opens the way other nodes and
/// `tengen-server admin` reach this one: the moderation topic of the bus
/// with Redis, the admin socket in the data directory otherwise.
pub async fn start(
    hosting: &crate::hosting::Hosting,
    shutdown: tokio::sync::watch::Receiver<bool>,
) -> Result<(), crate::StartError> {
    let failed = |e: String| crate::StartError::Moderation(e);
    let store = &*hosting.store;
    let m = &hosting.moderation;
    m.addresses
        .reload(store)
        .await
        .map_err(|e| failed(e.to_string()))?;
    for name in &hosting.settings.admins {
        let ctx = actions::Ctx {
            m,
            store,
            sessions: &hosting.sessions,
            by: "cli:--admin",
        };
        let req = tengen_protocol::ModRequest::SetRole {
            player: name.clone(),
            role: tengen_protocol::Role::Admin,
            reason: "--admin at start".into(),
        };
        if let Err(e) = ctx.act(req).await {
            return Err(failed(format!("--admin {name}: {}", e.message)));
        }
    }
    let settings = &hosting.settings;
    match &settings.redis {
        Some(redis) => {
            let mut config = crate::cluster::bus::BusConfig::new(
                redis.url.clone(),
                redis.prefix.clone(),
                format!("{}-moderation", settings.node),
            );
            config.ca_file = redis.ca_file.clone();
            let listener = news::Listener {
                moderation: m.clone(),
                store: hosting.store.clone(),
                sessions: hosting.sessions.clone(),
                shutdown,
            };
            news::listen(config, listener)
                .await
                .map_err(|e| failed(e.to_string()))
        }
        None => socket::serve(hosting.clone(), &settings.data_dir, shutdown)
            .map_err(|e| failed(format!("the admin socket: {e}"))),
    }
}
