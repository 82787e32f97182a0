//! When a table may move to this node, and what a returning player is
//! told while it moves.
//!
//! Why a module of its own: a live table changes node only when its node
//! is gone, and the store cannot say that by itself. A table whose lease
//! lapsed may belong to a node that died, or to a node that is alive but
//! could not renew while the store itself was down; after an outage of
//! the store *every* lease has lapsed. Taking such a table would move a
//! live game for nothing (its node, which still holds the events its
//! clients saw, steps down and closes them). So a node takes over an
//! unleased table only once the store has answered it without a failure
//! for [`Settings::takeover_grace`] (longer than the table's own node
//! needs to take its lease back: a retry every half second, each within
//! the store's timeout). A node whose store never failed takes a dead
//! node's tables as soon as their leases lapse.
//!
//! A player who resumes at this node while one of their tables moves
//! (its lease still held by a node that is gone or does not answer, or
//! unleased and not yet taken) is refused with `unavailable` and
//! `retry_after_ms` ([`Moving`]); never `not_found` while the table is
//! live. A player whose table runs on another live node has the session
//! brought back here from the table's stored seats, so that the `welcome`
//! lists the table.
//!
//! [`Settings::takeover_grace`]: crate::settings::Settings::takeover_grace

use std::sync::Arc;

use tengen_protocol::TableId;
use tengen_store::Store;

use super::meta::TableMeta;
use super::restore::{lease_for, restore_one};
use crate::hosting::Hosting;
use crate::sessions::Sessions;

/// A returning player's seat at a table that another node runs: the
/// session comes back here with it ([`Remote::seat`]) once that node has
/// answered a probe.
pub struct Remote {
    /// The node running the table.
    pub node: String,
    table: TableId,
    session: tengen_protocol::SessionId,
    player: tengen_protocol::Player,
}

impl Remote {
    /// Brings the session of `token` back here, seated at the table.
    pub fn seat(&self, sessions: &Sessions, token: &str) {
        sessions.restore(token, &self.session, &self.player, &self.table);
    }
}

/// A returning player's table is moving between nodes: try again shortly.
#[derive(Debug)]
pub struct Moving {
    /// The node that held it, when known.
    pub node: Option<String>,
    /// Being taken over (or brought up) by a node right now, not waiting
    /// for a lease to lapse or the store to steady: try again at once.
    pub soon: bool,
}

impl Moving {
    /// Of two tables moving, the one to wait for longer.
    fn longer(self, other: Option<Moving>) -> Moving {
        match other {
            Some(o) if !o.soon => o,
            _ => self,
        }
    }
}

/// Whether node `node` holds its liveness lease (an error cannot tell: the
/// node is taken as alive).
pub async fn node_alive(store: &Arc<dyn Store>, node: &str) -> bool {
    !matches!(
        store.lease(&crate::cluster::leases::alive_id(node)).await,
        Ok(None)
    )
}

/// A `hello` resumes `token` on a shared store. Each live table where its
/// session sits that this node does not run is, by its lease:
/// - run by another live node: the seat, from the table's stored seats,
///   is returned, for the caller to check that the node answers and then
///   bring the session back here ([`Remote::seat`]; its commands are
///   routed there);
/// - held by a node that is gone (its liveness lease lapsed) or by this
///   node while the table is not up here yet: [`Moving`];
/// - unleased: taken over here, unless the store failed within the
///   takeover grace (its own node may be about to take it back): then
///   [`Moving`].
///
/// When the store cannot be read, a session this node does not know is
/// [`Moving`] too (it would otherwise open afresh, without its seats).
pub async fn claim_seats(token: &str, h: &Hosting) -> Result<Vec<Remote>, Moving> {
    let Hosting {
        store,
        settings,
        directory,
        takeovers,
        ..
    } = h;
    let ids = match store.seat_tables(&tengen_store::token_digest(token)).await {
        Ok(ids) => ids,
        Err(e) => {
            takeovers.store_failed();
            tracing::warn!(error = %e, "could not read the seat index");
            // A session this node knows is resumed as it is; another
            // could lose its seats to a fresh session: try again.
            return match h.sessions.token_known(token) {
                true => Ok(Vec::new()),
                false => Err(Moving {
                    node: None,
                    soon: false,
                }),
            };
        }
    };
    let mut remote = Vec::new();
    let mut moving: Option<Moving> = None;
    for id in ids {
        let Ok(table) = id.parse::<TableId>() else {
            continue;
        };
        if directory.get(&table).is_some() {
            continue;
        }
        match store.lease(&id).await {
            Ok(Some(lease)) if lease.node != settings.node => {
                if !node_alive(store, &lease.node).await {
                    let gone = Moving {
                        node: Some(lease.node),
                        soon: false,
                    };
                    moving = Some(gone.longer(moving));
                } else if let Some((session, player)) = stored_seat(store, token, &id).await {
                    remote.push(Remote {
                        node: lease.node,
                        table,
                        session,
                        player,
                    });
                }
                continue;
            }
            Ok(Some(_)) => {
                // Ours, but not up here: being taken over or closing.
                if live(store, &id).await {
                    moving = Some(soon().longer(moving));
                }
                continue;
            }
            Ok(None) => {}
            Err(_) => {
                takeovers.store_failed();
                continue;
            }
        }
        // The store failed lately: its own node may be about to take it
        // back. Or another player of the table is taking it over here now.
        let calm = takeovers.calm_for(settings.takeover_grace());
        if !calm || !takeovers.begin(&id) {
            if live(store, &id).await {
                let m = Moving {
                    node: None,
                    soon: calm,
                };
                moving = Some(m.longer(moving));
            }
            continue;
        }
        let taken = take_for_player(&id, h).await;
        takeovers.end(&id);
        if !taken && live(store, &id).await {
            // Another node took it first: it is there at the next try.
            moving = Some(soon().longer(moving));
        }
    }
    match moving {
        Some(m) => Err(m),
        None => Ok(remote),
    }
}

fn soon() -> Moving {
    Moving {
        node: None,
        soon: true,
    }
}

/// Takes the unleased table `id` over for a returning player; false if
/// another node took it first.
async fn take_for_player(id: &str, h: &Hosting) -> bool {
    let Some(lease) = lease_for(&h.store, &h.settings, id).await else {
        return false;
    };
    match h.store.live_table(id).await {
        Ok(Some(t)) => {
            tracing::info!(table = %id, node = %h.settings.node, epoch = lease.epoch, "taking over a table for a returning player (its node is gone)");
            restore_one(t, lease, h).await;
        }
        _ => {
            // Finished (or unreadable now): not a table to take.
            let _ = h.store.release_lease(id, &lease).await;
        }
    }
    true
}

/// Whether table `id` is live in the store (an error counts as live: the
/// caller then says "try again", never "gone").
async fn live(store: &Arc<dyn Store>, id: &str) -> bool {
    !matches!(store.live_table(id).await, Ok(None))
}

/// The seat `token` holds at live table `id` (its session and player),
/// from the table's stored seats; `None` if it sits there no more.
async fn stored_seat(
    store: &Arc<dyn Store>,
    token: &str,
    id: &str,
) -> Option<(tengen_protocol::SessionId, tengen_protocol::Player)> {
    let t = store.live_table(id).await.ok()??;
    let meta = serde_json::from_slice::<TableMeta>(&t.meta).ok()?;
    let digest = tengen_store::token_digest(token);
    let seat = meta.seats.iter().find(|s| s.token == digest)?;
    Some((seat.session.clone(), seat.player.clone()))
}
