//! The tournament director: one actor for every tournament, running on
//! the one node that holds the `tournaments` lease (with a single node,
//! always that node). It owns the events and their watchers; it creates
//! events, takes entries and withdrawals, starts events (at their start
//! time or at the organiser's word), records results and pairs each next
//! round as soon as the last one is complete: always by calling the
//! engine, which pairs and scores.
//!
//! Durability: every change is stored whole (`Store::put_tournament`)
//! before anyone hears of it; a failed write puts the event back as it
//! was and answers `unavailable`. When this node takes the lease (at
//! start, or from a node that died or stopped), it reads every event back
//! from the store, so a restart loses nothing and the engine's refusals
//! of a second pairing or a second result keep a replayed request from
//! counting twice. A node that loses the lease stops directing at once
//! and answers `unavailable` until it takes the lease again.
//!
//! The director awaits the store itself (one write at a time, bounded by
//! the store timeout): tournament requests are rare, and answering only
//! once the change is durable is the point. Its mailbox is bounded; a full
//! one answers `unavailable` at the connection.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tengen_protocol::{Envelope, ErrorBody, ErrorCode, RequestId, ServerMsg};
use tengen_store::{Acquired, Lease, Store, StoreError};
use tokio::sync::watch;

use super::event::Event;
use super::view;
use crate::hosting::Hosting;
use crate::mailbox::Inbox;
use crate::msg::tournament::{DirectorCmd, DirectorHandle};
use crate::sessions::Session;

/// The lease whose holder directs every tournament.
pub const LEASE: &str = "tournaments";
/// How many requests the mailbox holds.
const MAILBOX: usize = 1024;
/// How many table notices it holds beside them.
const NOTICES: usize = 4096;
/// The most events kept (a create beyond it is refused).
pub const MAX_EVENTS: usize = 1000;
/// The most watchers of one event.
pub(super) const MAX_WATCHERS: usize = 1024;
/// The most sessions remembered for seating ([`Director::known`]).
pub(super) const MAX_KNOWN: usize = 4096;
/// How often the due games are looked after (seated again, waited for,
/// their tables' records looked up).
const GAMES_EVERY: Duration = Duration::from_millis(500);

pub(super) struct Director {
    pub(super) store: Arc<dyn Store>,
    /// The lobby to seat games in, the table directory, the settings.
    pub(super) hosting: Hosting,
    node: String,
    ttl: Duration,
    pub(super) timeout: Duration,
    /// The lease, while this node directs.
    pub(super) lease: Option<Lease>,
    pub(super) events: HashMap<String, Event>,
    pub(super) watchers: HashMap<String, Vec<Session>>,
    /// The session each player (by name key) last made a request on: how
    /// a player connected to another node is seated (its relay here).
    pub(super) known: HashMap<String, Session>,
    /// When each sent game's table was last looked up in the store.
    pub(super) polled: HashMap<tengen_protocol::TableId, std::time::Instant>,
}

/// The director's mailbox (made before the director: tables restored at
/// the start hold it).
pub fn mailbox() -> (DirectorHandle, Inbox<DirectorCmd>) {
    crate::mailbox::mailbox(MAILBOX, NOTICES)
}

/// Starts this node's director on `rx`, the inbox of `hosting.tournaments`
/// (it directs once it holds the lease).
pub fn spawn(hosting: &Hosting, rx: Inbox<DirectorCmd>, shutdown: watch::Receiver<bool>) {
    let settings = &hosting.settings;
    let d = Director {
        store: hosting.store.clone(),
        hosting: hosting.clone(),
        node: settings.node.clone(),
        ttl: settings.lease_ttl,
        timeout: settings.store_timeout,
        lease: None,
        events: HashMap::new(),
        watchers: HashMap::new(),
        known: HashMap::new(),
        polled: HashMap::new(),
    };
    tokio::spawn(d.run(rx, shutdown));
}

pub(super) fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

pub(super) fn reply(session: &Session, id: Option<RequestId>, msg: ServerMsg) {
    session.outbox.send_msg(&Envelope::with_id(id, msg));
}

pub(super) fn not_found() -> ErrorBody {
    ErrorBody::new(ErrorCode::NotFound, "no such tournament")
}

impl Director {
    async fn run(mut self, mut rx: Inbox<DirectorCmd>, mut shutdown: watch::Receiver<bool>) {
        let mut tick = tokio::time::interval((self.ttl / 3).max(Duration::from_millis(100)));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut games = tokio::time::interval(GAMES_EVERY);
        games.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                _ = tick.tick() => self.tick().await,
                _ = games.tick(), if self.lease.is_some() => self.look_after_games().await,
                r = shutdown.changed() => {
                    if r.is_err() || *shutdown.borrow() {
                        break;
                    }
                }
            }
        }
        // Stopping: another node may direct at once.
        if let Some(lease) = self.lease.take() {
            let _ = self.store.release_lease(LEASE, &lease).await;
        }
    }

    pub(super) async fn timed<T>(
        &self,
        f: impl Future<Output = tengen_store::Result<T>>,
    ) -> Option<T> {
        match tokio::time::timeout(self.timeout, f).await {
            Ok(Ok(v)) => Some(v),
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "tournament store call failed");
                None
            }
            Err(_) => None,
        }
    }

    /// Keeps (or takes) the lease, then starts what is due.
    async fn tick(&mut self) {
        match self.lease.clone() {
            Some(lease) => {
                let r = tokio::time::timeout(
                    self.timeout,
                    self.store.renew_lease(LEASE, &lease, self.ttl),
                )
                .await;
                if let Ok(Err(StoreError::LeaseLost(_))) = r {
                    tracing::warn!("another node directs the tournaments now");
                    self.lease = None;
                    self.events.clear();
                    self.watchers.clear();
                    self.polled.clear();
                    return;
                }
            }
            None => {
                let store = self.store.clone();
                let got = self
                    .timed(store.acquire_lease(LEASE, &self.node, self.ttl))
                    .await;
                let Some(Acquired::Ours(lease)) = got else {
                    return;
                };
                let Some(stored) = self.timed(store.tournaments()).await else {
                    let _ = store.release_lease(LEASE, &lease).await;
                    return;
                };
                self.events.clear();
                for (id, bytes) in stored {
                    match serde_json::from_slice::<Event>(&bytes) {
                        Ok(e) => {
                            self.events.insert(id, e);
                        }
                        Err(e) => {
                            tracing::error!(tournament = %id, error = %e, "unreadable tournament")
                        }
                    }
                }
                tracing::info!(events = self.events.len(), "directing the tournaments");
                self.lease = Some(lease);
            }
        }
        self.start_due().await;
    }

    /// Starts the open events whose start time has come.
    async fn start_due(&mut self) {
        let now = unix_ms();
        let due: Vec<String> = self
            .events
            .values()
            .filter(|e| !e.engine.started() && e.spec.start_ms.is_some_and(|t| t <= now))
            .map(|e| e.id.clone())
            .collect();
        for id in due {
            let r = self.change(&id, |e| e.start(now)).await;
            if r.is_ok() {
                self.seat_games(&id).await;
            }
            if let Err(e) = r {
                tracing::info!(tournament = %id, error = %e.message, "not started at its start time");
                // Too few players: it waits for the organiser.
                if let Some(ev) = self.events.get_mut(&id) {
                    ev.spec.start_ms = None;
                }
            }
        }
    }

    /// Applies `f` to event `id`, stores the result, and tells the
    /// watchers; on a refusal or a failed write the event is unchanged.
    pub(super) async fn change(
        &mut self,
        id: &str,
        f: impl FnOnce(&mut Event) -> Result<(), ErrorBody>,
    ) -> Result<(), ErrorBody> {
        let Some(event) = self.events.get(id) else {
            return Err(not_found());
        };
        let mut next = event.clone();
        f(&mut next)?;
        self.save(next).await
    }

    pub(super) async fn save(&mut self, event: Event) -> Result<(), ErrorBody> {
        let bytes = serde_json::to_vec(&event)
            .map_err(|e| ErrorBody::new(ErrorCode::Internal, e.to_string()))?;
        let store = self.store.clone();
        let lease = self.lease.clone();
        let durable = async {
            // Only the lease's holder writes (checked just before).
            if let Some(lease) = &lease {
                store.renew_lease(LEASE, lease, self.ttl).await?;
            }
            store.put_tournament(&event.id, &bytes).await
        };
        if self.timed(durable).await.is_none() {
            return Err(ErrorBody::new(
                ErrorCode::Unavailable,
                "the tournament could not be stored; try again",
            ));
        }
        let id = event.id.clone();
        let stalled = event
            .stalled
            .clone()
            .filter(|_| self.events.get(&id).is_none_or(|old| old.stalled.is_none()));
        self.events.insert(id.clone(), event);
        self.push(&id);
        if let Some(stall) = stalled {
            self.tell_stalled(&id, stall);
        }
        Ok(())
    }

    /// Tells the organiser and the players (those known on this node) that
    /// the event's next round cannot be paired.
    fn tell_stalled(&mut self, id: &str, stall: super::event::Stall) {
        let Some(event) = self.events.get(id) else {
            return;
        };
        tracing::warn!(tournament = %id, round = stall.round, "round cannot be paired: the organiser decides");
        let msg = Envelope::push(ServerMsg::TournamentStalled {
            tournament: id.to_owned(),
            round: stall.round,
            reason: stall.reason,
        });
        let mut names: Vec<String> = event
            .engine
            .entrants()
            .iter()
            .filter(|e| e.withdrawn_after.is_none())
            .map(|e| tengen_store::name_key(&e.name))
            .collect();
        names.push(tengen_store::name_key(&event.organiser));
        names.sort();
        names.dedup();
        for key in names {
            if let Some(s) = self.known.get(&key) {
                s.outbox.send_msg(&msg);
            }
        }
    }

    /// Sends the event to its watchers (dropping the ones gone).
    fn push(&mut self, id: &str) {
        let (Some(event), Some(watchers)) = (self.events.get(id), self.watchers.get_mut(id)) else {
            return;
        };
        let msg = Envelope::push(ServerMsg::TournamentUpdate {
            tournament: Box::new(view::view(event)),
        });
        watchers.retain(|s| s.outbox.send_msg(&msg));
    }

    async fn handle(&mut self, cmd: DirectorCmd) {
        match cmd {
            DirectorCmd::Request(cmd) => self.request(*cmd).await,
            DirectorCmd::Absent {
                game,
                table,
                absent,
            } => self.absent(game, table, absent).await,
            DirectorCmd::Over { game, table } => self.over(game, table).await,
        }
    }
}
