//! Bringing live games back after a restart.
//!
//! At start the server reads every live table from the store and rebuilds
//! each one by feeding its log to a fresh referee: the same position, the
//! same results of every accepted input, and so the same events, which are
//! numbered again from 1 to give the same `seq` and refill the replay log.
//! Game time resumes where the last accepted input left it (the time the
//! server was down is not charged) and stands still ([`Restored`]) until
//! both players are back or the restart grace has passed; a player still
//! away then gets the usual abandonment countdown. A correspondence game
//! instead resumes at the wall-clock time since its table was created, so
//! its deadlines (dates, days away) stay where they were, and it neither
//! waits for its players nor counts down to abandonment (docs/rules.md §7).
//! Its deadline is an ordinary timer of the table's select loop, however
//! many days away.
//!
//! The players' sessions come back with their resume tokens (kept in the
//! table's metadata), so a client reconnects exactly as after a dropped
//! connection: `hello` with its token, then `watch` with its last `seq`.
//! The lobby gets the room back as `playing`.
//!
//! [`Restored`]: tengen_protocol::PauseReason::Restored

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use tengen_protocol::{Players, RoomInfo, RoomStatus, TableEvent, TableId};
use tengen_rules::game::{Game, Seat};
use tengen_store::{Acquired, Lease, LiveTable, Store, StoreError};

use super::meta::{META_VERSION, TableMeta, decode_entries};
use super::{Start, Table};
use crate::msg::lobby::{LobbyCmd, LobbyHandle};
use crate::msg::table::Directory;
use crate::outbound;
use crate::sessions::Session;
use crate::sessions::Sessions;
use crate::settings::Settings;

/// Why a stored table could not be restored.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    #[error("the store could not be read: {0}")]
    Store(#[from] StoreError),
    #[error("table {table}: {why}")]
    Table { table: String, why: String },
}

/// What bringing a table back here needs: the server's store, settings,
/// lobby, table directory and sessions.
#[derive(Clone)]
pub struct Hosting {
    pub store: Arc<dyn Store>,
    pub settings: Arc<Settings>,
    pub lobby: LobbyHandle,
    pub directory: Directory,
    pub sessions: Sessions,
}

/// Restores every live table in the store that no other node runs (holds
/// a lease on); returns how many. A table that cannot be restored is left
/// in the store untouched and logged; the others still come back.
pub async fn restore_all(h: &Hosting) -> Result<usize, RestoreError> {
    let Hosting {
        store, settings, ..
    } = h;
    let live = store.live_tables().await?;
    // Leases first, many in flight: with Redis each is a round trip.
    let leased: Vec<(LiveTable, Option<Lease>)> = futures_util::stream::iter(live)
        .map(|t| async move {
            let lease = lease_for(store, settings, &t.id).await;
            (t, lease)
        })
        .buffer_unordered(64)
        .collect()
        .await;
    let mut restored = 0;
    for (t, lease) in leased {
        let Some(lease) = lease else { continue };
        if restore_one(t, lease, h).await {
            restored += 1;
        }
    }
    Ok(restored)
}

/// Takes over the live tables nobody holds a lease on (a dead node's),
/// skipping those this node runs; returns how many it took.
pub async fn take_over(h: &Hosting) -> Result<usize, RestoreError> {
    let Hosting {
        store,
        settings,
        directory,
        ..
    } = h;
    let mut taken = 0;
    for id in store.unleased_tables().await? {
        let Ok(table) = id.parse::<TableId>() else {
            continue;
        };
        if directory.get(&table).is_some() {
            continue;
        }
        let Some(lease) = lease_for(store, settings, &id).await else {
            continue;
        };
        // Read after the lease is ours: nobody appends any more.
        let t = match store.live_table(&id).await {
            Ok(Some(t)) => t,
            Ok(None) => {
                let _ = store.release_lease(&id, &lease).await;
                continue;
            }
            Err(e) => {
                let _ = store.release_lease(&id, &lease).await;
                return Err(e.into());
            }
        };
        tracing::warn!(table = %id, node = %settings.node, epoch = lease.epoch, "taking over a table whose node is gone");
        if restore_one(t, lease, h).await {
            taken += 1;
        }
    }
    Ok(taken)
}

/// A `hello` resumes `token`, which this node does not know. On a shared
/// store its session may sit at tables whose node died: this takes over
/// those whose lease has lapsed (the session comes back with them, so the
/// hello resumes it). `Err` names a node that still holds one of them: it
/// may be gone without its lease having lapsed yet, so the player should
/// try again shortly (within the lease's term).
pub async fn claim_seats(token: &str, h: &Hosting) -> Result<(), String> {
    let Hosting {
        store,
        settings,
        directory,
        sessions,
        ..
    } = h;
    let ids = match store.seat_tables(token).await {
        Ok(ids) => ids,
        Err(e) => {
            tracing::warn!(error = %e, "could not read the seat index");
            return Ok(());
        }
    };
    let mut held_by = None;
    for id in ids {
        let Ok(table) = id.parse::<TableId>() else {
            continue;
        };
        if directory.get(&table).is_some() {
            continue;
        }
        match store.lease(&id).await {
            Ok(Some(lease)) if lease.node != settings.node => {
                // Run by a node that is alive: the session comes back here
                // and its commands go there (`crate::cluster`). Else that
                // node died and its lease has not lapsed yet.
                let alive = store
                    .lease(&crate::cluster::leases::alive_id(&lease.node))
                    .await
                    .is_ok_and(|l| l.is_some());
                if !(alive && seat_here(store, sessions, token, &id).await) {
                    held_by = Some(lease.node);
                }
                continue;
            }
            Ok(_) => {}
            Err(_) => continue,
        }
        let Some(lease) = lease_for(store, settings, &id).await else {
            continue;
        };
        match store.live_table(&id).await {
            Ok(Some(t)) => {
                tracing::warn!(table = %id, node = %settings.node, epoch = lease.epoch, "taking over a table for a returning player (its node is gone)");
                restore_one(t, lease, h).await;
            }
            _ => {
                // Finished (or unreadable now): not a table to take.
                let _ = store.release_lease(&id, &lease).await;
            }
        }
    }
    match held_by {
        Some(node) if sessions.token_known(token) => {
            tracing::debug!(%node, "a returning player's other table is still held elsewhere");
            Ok(())
        }
        Some(node) => Err(node),
        None => Ok(()),
    }
}

/// Brings back here the session `token` holds at table `id` (run by
/// another node), from the table's stored seats; false if it sits there
/// no more.
async fn seat_here(store: &Arc<dyn Store>, sessions: &Sessions, token: &str, id: &str) -> bool {
    let Ok(Some(t)) = store.live_table(id).await else {
        return false;
    };
    let Ok(meta) = serde_json::from_slice::<TableMeta>(&t.meta) else {
        return false;
    };
    let Ok(table) = id.parse::<TableId>() else {
        return false;
    };
    match meta.seats.iter().find(|s| s.token == token) {
        Some(seat) => {
            sessions.restore(token, &seat.session, &seat.player, &table);
            true
        }
        None => false,
    }
}

/// Runs [`take_over`] every `settings.takeover_every` until shutdown.
pub fn spawn_takeover(h: Hosting, mut shutdown: tokio::sync::watch::Receiver<bool>) {
    let Some(every) = h.settings.takeover_every else {
        return;
    };
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                _ = shutdown.wait_for(|s| *s) => return,
            }
            let scan = take_over(&h);
            match tokio::time::timeout(every * 10, scan).await {
                Ok(Ok(0)) => {}
                Ok(Ok(n)) => tracing::info!(tables = n, "took over tables of a node that is gone"),
                Ok(Err(e)) => tracing::warn!(error = %e, "could not look for tables to take over"),
                Err(_) => tracing::warn!("looking for tables to take over timed out"),
            }
        }
    });
}

/// This node's lease on table `id`, if it can take it now.
async fn lease_for(store: &Arc<dyn Store>, settings: &Settings, id: &str) -> Option<Lease> {
    match store
        .acquire_lease(id, &settings.node, settings.lease_ttl)
        .await
    {
        Ok(Acquired::Ours(lease)) => Some(lease),
        Ok(Acquired::Held(by)) => {
            tracing::debug!(table = %id, holder = %by.node, "table run by another node");
            None
        }
        Err(e) => {
            tracing::warn!(table = %id, error = %e, "could not take the table's lease; left for later");
            None
        }
    }
}

/// Rebuilds and starts one table under `lease`; false (lease given back,
/// table left in the store) if it cannot be rebuilt.
async fn restore_one(t: LiveTable, lease: Lease, h: &Hosting) -> bool {
    let Hosting {
        store, settings, ..
    } = h;
    let id = t.id.clone();
    match rebuild(t, settings) {
        Ok(r) => {
            start(r, lease, h);
            true
        }
        Err(why) => {
            tracing::error!(table = %id, %why, "live table NOT restored (left in the store)");
            let _ = store.release_lease(&id, &lease).await;
            false
        }
    }
}

/// A table rebuilt from the store, not yet started.
struct Rebuilt {
    id: TableId,
    meta: TableMeta,
    game: Game,
    log: Vec<TableEvent>,
    entries: usize,
}

fn rebuild(t: LiveTable, settings: &Settings) -> Result<Rebuilt, String> {
    let meta: TableMeta =
        serde_json::from_slice(&t.meta).map_err(|e| format!("unreadable metadata: {e}"))?;
    if meta.version != META_VERSION {
        return Err(format!(
            "metadata version {} (this build reads {META_VERSION})",
            meta.version
        ));
    }
    let id: TableId =
        t.id.parse()
            .map_err(|e| format!("bad table id {:?}: {e}", t.id))?;
    let entries = decode_entries(&t.entries).map_err(|e| format!("unreadable log entry: {e}"))?;
    let mut game = Game::new(meta.config.clone(), meta.opener, 0)
        .map_err(|e| format!("invalid configuration: {e}"))?;
    let mut log: Vec<TableEvent> = Vec::new();
    let mut seq = 0;
    for (i, e) in entries.iter().enumerate() {
        let events = game
            .feed(&e.input, e.at)
            .map_err(|err| format!("log entry {i} was refused on replay: {err}"))?;
        let prompt = game.prompt(e.at);
        let mut stamped = TableEvent::stamp(&id, seq, events, prompt.as_ref());
        // As they were sent: with the forbidden points of block/lose rooms.
        let forbidden = game.forbidden_points_shown(e.at);
        for te in &mut stamped {
            te.forbidden.clone_from(&forbidden);
        }
        seq += stamped.len() as u64;
        log.extend(stamped);
    }
    let keep = settings.event_log.max(1);
    if log.len() > keep {
        log.drain(..log.len() - keep);
    }
    Ok(Rebuilt {
        id,
        meta,
        game,
        log,
        entries: entries.len(),
    })
}

fn start(r: Rebuilt, lease: Lease, h: &Hosting) {
    let Hosting {
        store,
        settings,
        lobby,
        directory,
        sessions,
    } = h;
    let now = Instant::now();
    let seats = [0, 1].map(|i| {
        let m = &r.meta.seats[i];
        sessions.restore(&m.token, &m.session, &m.player, &r.id);
        Session {
            id: m.session.clone(),
            player: m.player.clone(),
            outbox: outbound::detached(),
        }
    });
    let room_seats = match r.meta.room_first {
        Seat::First => [seats[0].clone(), seats[1].clone()],
        Seat::Second => [seats[1].clone(), seats[0].clone()],
    };
    let over = r.game.is_over();
    let info = RoomInfo {
        room: r.meta.room.clone(),
        name: r.meta.room_name.clone(),
        config: r.meta.config.clone(),
        players: Players {
            first: Some(room_seats[0].player.clone()),
            second: Some(room_seats[1].player.clone()),
        },
        status: if over {
            RoomStatus::Finished
        } else {
            RoomStatus::Playing
        },
        table: Some(r.id.clone()),
        spectators: 0,
        chat: r.meta.chat,
        rated: r.meta.rated,
    };
    lobby.notify(LobbyCmd::Restored {
        info,
        public: r.meta.public,
        seats: room_seats,
    });
    let started = now
        .checked_sub(Duration::from_millis(resumed_game_time(&r)))
        .unwrap_or(now);
    let correspondence = r.meta.config.time.is_correspondence();
    let begin = Start {
        id: r.id.clone(),
        room: r.meta.room.clone(),
        config: r.meta.config.clone(),
        chat: r.meta.chat,
        room_name: r.meta.room_name.clone(),
        public: r.meta.public,
        rated: r.meta.rated,
        opener: r.meta.opener,
        seats,
        room_first: r.meta.room_first,
        settings: settings.clone(),
        lobby: lobby.clone(),
        directory: directory.clone(),
        sessions: sessions.clone(),
        store: store.clone(),
    };
    let mut table = Table::assemble(begin, r.game, r.meta, started);
    table.created = true;
    table.lease = Some(lease);
    table.lease_renew_at = Some(now + settings.lease_ttl / 3);
    table.logged = r.entries;
    table.seq = r.log.last().map_or(0, |e| e.seq);
    table.log = r.log.into();
    if over {
        table.close_at = Some(now + settings.finished_table_linger);
    } else if !correspondence {
        table.restoring = Some(now + settings.restore_grace);
        // Frozen from the instant game time stopped.
        table.frozen_since = Some(now);
    }
    table.launch();
}

/// The game time a restored table resumes at. Live controls continue from
/// the last accepted input: the time the server was down is nobody's. A
/// correspondence game's deadlines are dates (docs/rules.md §7): its game
/// time is the wall-clock time since the table was created (never before
/// the last input), so a restart neither resets the turn's clock nor
/// moves its deadline.
fn resumed_game_time(r: &Rebuilt) -> u64 {
    let last_at = r.game.entries().last().map_or(0, |e| e.at);
    if r.meta.config.time.is_correspondence() {
        let since_created = super::meta::unix_ms().saturating_sub(r.meta.created_ms);
        last_at.max(since_created)
    } else {
        last_at
    }
}

impl Table {
    /// The restart grace is over: a player who is still not back gets the
    /// abandonment countdown, as after any lost connection.
    pub(super) fn away_after_restore(&mut self) {
        if self.game.is_over() || self.game.config().time.is_correspondence() {
            return;
        }
        let grace = self.settings.abandon_grace(&self.game.config().time);
        for seat in Seat::BOTH {
            let s = &mut self.seats[seat.index()];
            if !s.subscribed && s.away_until.is_none() {
                s.away_until = Some(Instant::now() + grace);
                self.send_player_status(seat, false, Some(grace.as_millis() as u64));
            }
        }
    }
}
