//! Telling every node of a moderation change, and doing there what it
//! implies. With several nodes on one Redis, each node subscribes to the
//! `moderation` topic of the cluster bus on a bus connection of its own
//! (so that moderation never competes with table traffic in the node
//! actor's queue); `tengen-server admin --redis` publishes on the same
//! channel (`PREFIX:topic:moderation`). A message only names what changed;
//! the receiver reads the store, which is the truth, so a lost or
//! repeated message is harmless but for its delay (and a node that missed
//! messages while its bus was down reloads the address bans then; a
//! standing is read again at each login anyway).

use tengen_protocol::CloseCode;
use tengen_store::Store;
use tokio::sync::watch;

use super::state::{Moderation, unix_ms};
use super::wire::{News, TOPIC};
use crate::cluster::bus::{Bus, BusConfig, Delivery};
use crate::sessions::Sessions;

/// Does what `news` implies on this node: the standing read again and
/// noted (a ban in force closes the account's sessions here), or the
/// address bans read again.
pub async fn apply(m: &Moderation, store: &dyn Store, sessions: &Sessions, news: &News) {
    match news {
        News::Standing { name } => match store.standing(name).await {
            Ok(Some(standing)) => {
                let banned = standing.ban.as_ref().is_some_and(|b| b.active(unix_ms()));
                m.book.set(standing);
                if banned {
                    close_sessions(sessions, name);
                }
            }
            Ok(None) => {}
            Err(e) => tracing::warn!(error = %e, %name, "cannot read a changed standing"),
        },
        News::AddressBans => {
            if let Err(e) = m.addresses.reload(store).await {
                tracing::warn!(error = %e, "cannot read the address bans");
            }
        }
        // Commands for live rooms and games: `super::arbiter::heard`;
        // revoked logins: `crate::signout::recheck`.
        News::CloseRoom { .. } | News::AbortGame { .. } | News::Logout { .. } => {}
    }
}

/// Closes (4006) and forgets every session of the account `name` here.
pub fn close_sessions(sessions: &Sessions, name: &str) {
    for outbox in sessions.end_account(name) {
        outbox.close(CloseCode::Banned);
    }
}

/// What the listening task needs.
pub struct Listener {
    /// This node's lobby and tables (for the commands on live rooms and
    /// games).
    pub hosting: crate::hosting::Hosting,
    pub moderation: Moderation,
    pub store: std::sync::Arc<dyn Store>,
    pub sessions: Sessions,
    pub shutdown: watch::Receiver<bool>,
}

/// Connects this node's moderation bus, subscribes to [`TOPIC`], and
/// applies every message until shutdown.
pub async fn listen(config: BusConfig, l: Listener) -> Result<(), crate::cluster::bus::BusError> {
    let (bus, mut deliveries) = Bus::connect(config).await?;
    bus.subscribe_topic(TOPIC).await?;
    l.moderation.set_bus(bus.clone());
    let mut shutdown = l.shutdown;
    tokio::spawn(async move {
        let _bus = bus;
        loop {
            let delivery = tokio::select! {
                d = deliveries.recv() => d,
                _ = shutdown.wait_for(|s| *s) => None,
            };
            let news = match delivery {
                None => return,
                Some(Delivery::Topic { payload, .. }) => {
                    match rmp_serde::from_slice::<News>(&payload) {
                        Ok(n) => n,
                        Err(e) => {
                            tracing::warn!(error = %e, "unreadable moderation news");
                            continue;
                        }
                    }
                }
                // Messages may have been lost: the address bans are read
                // again (standings are read at every login).
                Some(Delivery::Resubscribed | Delivery::Lagged { .. }) => News::AddressBans,
                Some(Delivery::Node { .. }) => continue,
            };
            super::arbiter::heard(&l.hosting, &news);
            if let News::Logout { name, everywhere } = &news {
                crate::signout::recheck(&l.hosting, name, *everywhere).await;
            }
            apply(&l.moderation, &*l.store, &l.sessions, &news).await;
        }
    });
    Ok(())
}
