//! Bringing live games back after a restart.
//!
//! At start the server reads every live table from the store and rebuilds
//! each one by feeding its log to a fresh referee: the same position, the
//! same results of every accepted input, and so the same events, which are
//! numbered again from 1 to give the same `seq` and refill the replay log.
//! Game time resumes where the last accepted input left it (the time the
//! server was down is not charged) and stands still ([`Restored`]) until
//! both players are back or the restart grace has passed; a player still
//! away then gets the usual grace, as after a lost connection. A correspondence game
//! instead resumes at the wall-clock time since its table was created, so
//! its deadlines (dates, days away) stay where they were, and it neither
//! waits for its players nor counts a grace (docs/rules.md §7).
//! Its deadline is an ordinary timer of the table's select loop, however
//! many days away.
//!
//! The players' sessions come back with their resume tokens (kept in the
//! table's metadata), so a client reconnects exactly as after a dropped
//! connection: `hello` with its token, then `watch` with its last `seq`.
//! The lobby gets the room back as `playing`.
//!
//! A finished game never comes back, whenever its node stopped: before
//! its record was stored (the log ends with the game over: the record is
//! stored now, with its rating updates, and the table never opens) or
//! after (the live table is gone from the store). Either way its players'
//! tokens open fresh sessions and the table is `not_found`; the game is in
//! the records. (Were it to come back only in the first case, a rematch
//! offer would survive a crash or not by chance.)
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
use crate::hosting::Hosting;
use crate::msg::lobby::LobbyCmd;
use crate::outbound;
use crate::sessions::Session;
use crate::settings::Settings;

/// Why a stored table could not be restored.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    #[error("the store could not be read: {0}")]
    Store(#[from] StoreError),
    #[error("table {table}: {why}")]
    Table { table: String, why: String },
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
/// skipping those this node runs; returns how many it took. Nothing is
/// taken until the store has answered this node without a failure for the
/// takeover grace: after an outage of the store alone, the tables' own
/// nodes take their leases back first (`super::failover`).
pub async fn take_over(h: &Hosting) -> Result<usize, RestoreError> {
    let Hosting {
        store,
        settings,
        takeovers,
        ..
    } = h;
    let unleased = store.unleased_tables().await.inspect_err(|_| {
        takeovers.store_failed();
    })?;
    let mut taken = 0;
    for id in unleased {
        if !takeovers.calm_for(settings.takeover_grace()) {
            tracing::debug!("the store failed lately: tables are left to their nodes for now");
            break;
        }
        if !takeovers.begin(&id) {
            continue;
        }
        let took = take_one(&id, h).await;
        takeovers.end(&id);
        if took? {
            taken += 1;
        }
    }
    Ok(taken)
}

/// Takes the unleased table `id` over, unless it runs here already or
/// another node took it first.
async fn take_one(id: &str, h: &Hosting) -> Result<bool, RestoreError> {
    let (store, settings) = (&h.store, &h.settings);
    let Ok(table) = id.parse::<TableId>() else {
        return Ok(false);
    };
    if h.directory.get(&table).is_some() {
        return Ok(false);
    }
    let Some(lease) = lease_for(store, settings, id).await else {
        return Ok(false);
    };
    // Read after the lease is ours: nobody appends any more.
    let t = match store.live_table(id).await {
        Ok(Some(t)) => t,
        Ok(None) => {
            let _ = store.release_lease(id, &lease).await;
            return Ok(false);
        }
        Err(e) => {
            h.takeovers.store_failed();
            let _ = store.release_lease(id, &lease).await;
            return Err(e.into());
        }
    };
    tracing::debug!(table = %id, node = %settings.node, epoch = lease.epoch, "taking over a table whose node is gone");
    Ok(restore_one(t, lease, h).await)
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
pub(super) async fn lease_for(
    store: &Arc<dyn Store>,
    settings: &Settings,
    id: &str,
) -> Option<Lease> {
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
pub(super) async fn restore_one(t: LiveTable, lease: Lease, h: &Hosting) -> bool {
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
        settings,
        lobby,
        sessions,
        ..
    } = h;
    let now = Instant::now();
    // A finished game does not come back: its record is stored (now, if
    // its node died before storing it) and the table closes at once.
    let over = r.game.is_over();
    let seats = [0, 1].map(|i| {
        let m = &r.meta.seats[i];
        if !over {
            sessions.restore(&m.token, &m.session, &m.player, &r.id);
        }
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
    let info = RoomInfo {
        room: r.meta.room.clone(),
        name: r.meta.room_name.clone(),
        config: r.meta.config.clone(),
        players: Players {
            first: Some(room_seats[0].player.clone()),
            second: Some(room_seats[1].player.clone()),
        },
        status: RoomStatus::Playing,
        table: Some(r.id.clone()),
        spectators: 0,
        chat: r.meta.chat,
        rated: r.meta.rated,
    };
    if !over {
        lobby.notify(LobbyCmd::Restored {
            info,
            public: r.meta.public,
            seats: room_seats,
        });
    }
    let started = now
        .checked_sub(Duration::from_millis(resumed_game_time(&r)))
        .unwrap_or(now);
    let correspondence = r.meta.config.time.is_correspondence();
    let (id, game, meta) = (r.id, r.game, r.meta);
    let begin = Start {
        id,
        meta,
        seats,
        hosting: h.clone(),
    };
    let mut table = Table::assemble(begin, game, started);
    table.durable.created = true;
    table.hold(lease);
    table.durable.logged = r.entries;
    table.events = super::parts::EventLog::restored(r.log);
    if over {
        tokio::spawn(Box::new(table).finish_unseen());
        return;
    }
    if !correspondence {
        table.freeze.restoring = Some(now + settings.restore_grace);
        // Frozen from the instant game time stopped.
        table.freeze.since = Some(now);
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
    /// A restored game that is over: its record is stored (unless it was
    /// already) and the lease given up, without the table ever opening.
    /// If the store refuses, the live table stays there with its lease
    /// lapsing, and the next takeover tries again.
    async fn finish_unseen(mut self: Box<Self>) {
        match self.store_finished().await {
            Ok(()) => {
                tracing::info!(table = %self.id, "a restored game was over: its record is stored, the table stays closed");
                self.release_lease().await;
            }
            Err(e) => {
                tracing::warn!(table = %self.id, error = %e, "a restored finished game could not be stored yet; it is taken up again later");
            }
        }
    }

    /// The restart grace is over: a player who is still not back gets the
    /// grace for coming back, as after any lost connection.
    pub(super) fn away_after_restore(&mut self) {
        if self.game.is_over() || self.game.config().time.is_correspondence() {
            return;
        }
        for seat in Seat::BOTH {
            let s = &self.seats[seat.index()];
            if !s.subscribed && !s.away {
                self.start_grace(seat);
            }
        }
    }
}
