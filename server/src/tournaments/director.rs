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

use tengen_protocol::{
    ClientMsg, Envelope, ErrorBody, ErrorCode, RequestId, ServerMsg, TableId, TournamentSpec,
};
use tengen_store::{Acquired, Lease, Store, StoreError};
use tengen_tournament::GameRef;
use tokio::sync::watch;

use super::event::{Entrant, Event};
use super::view;
use crate::msg::tournament::{DirectorHandle, TournamentCmd};
use crate::sessions::Session;

/// The lease whose holder directs every tournament.
pub const LEASE: &str = "tournaments";
/// How many requests the mailbox holds.
const MAILBOX: usize = 1024;
/// The most events kept (a create beyond it is refused).
pub const MAX_EVENTS: usize = 1000;
/// The most watchers of one event.
const MAX_WATCHERS: usize = 1024;

struct Director {
    store: Arc<dyn Store>,
    node: String,
    ttl: Duration,
    timeout: Duration,
    /// The lease, while this node directs.
    lease: Option<Lease>,
    events: HashMap<String, Event>,
    watchers: HashMap<String, Vec<Session>>,
}

/// Starts this node's director (it directs once it holds the lease).
pub fn spawn(
    store: Arc<dyn Store>,
    node: String,
    ttl: Duration,
    timeout: Duration,
    shutdown: watch::Receiver<bool>,
) -> DirectorHandle {
    let (handle, rx) = crate::mailbox::mailbox(MAILBOX, 0);
    let d = Director {
        store,
        node,
        ttl,
        timeout,
        lease: None,
        events: HashMap::new(),
        watchers: HashMap::new(),
    };
    tokio::spawn(d.run(rx, shutdown));
    handle
}

fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

fn reply(session: &Session, id: Option<RequestId>, msg: ServerMsg) {
    session.outbox.send_msg(&Envelope::with_id(id, msg));
}

fn not_found() -> ErrorBody {
    ErrorBody::new(ErrorCode::NotFound, "no such tournament")
}

impl Director {
    async fn run(
        mut self,
        mut rx: crate::mailbox::Inbox<TournamentCmd>,
        mut shutdown: watch::Receiver<bool>,
    ) {
        let mut tick = tokio::time::interval((self.ttl / 3).max(Duration::from_millis(100)));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                _ = tick.tick() => self.tick().await,
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

    async fn timed<T>(&self, f: impl Future<Output = tengen_store::Result<T>>) -> Option<T> {
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
            let r = self.change(&id, |e| e.start(rand::random())).await;
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
    async fn change(
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

    async fn save(&mut self, event: Event) -> Result<(), ErrorBody> {
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
        self.events.insert(id.clone(), event);
        self.push(&id);
        Ok(())
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

    async fn handle(&mut self, cmd: TournamentCmd) {
        let TournamentCmd { session, id, msg } = cmd;
        if self.lease.is_none() {
            session.outbox.refuse(
                id,
                ErrorCode::Unavailable,
                "tournaments are directed by another node now (or not yet); try again",
            );
            return;
        }
        let out = self.request(&session, msg).await;
        match out {
            Ok(msg) => reply(&session, id, msg),
            Err(body) => {
                session.outbox.refuse_with(id, body);
            }
        }
    }

    async fn request(&mut self, s: &Session, msg: ClientMsg) -> Result<ServerMsg, ErrorBody> {
        let name = s.player.name.clone();
        match msg {
            ClientMsg::CreateTournament { tournament } => self.create(s, tournament).await,
            ClientMsg::Tournaments => {
                let mut list: Vec<&Event> = self.events.values().collect();
                list.sort_by(|a, b| b.created_ms.cmp(&a.created_ms).then(a.id.cmp(&b.id)));
                Ok(ServerMsg::TournamentList {
                    tournaments: list.into_iter().map(view::summary).collect(),
                })
            }
            ClientMsg::Tournament { tournament } => {
                let e = self.events.get(&tournament).ok_or_else(not_found)?;
                Ok(ServerMsg::TournamentInfo {
                    tournament: Box::new(view::view(e)),
                })
            }
            ClientMsg::JoinTournament { tournament } => {
                let e = self.events.get(&tournament).ok_or_else(not_found)?;
                let rating = self.rating_of(s, e).await?;
                let (guest, bot) = (s.player.guest, s.player.bot);
                self.change(&tournament, |e| {
                    e.join(Entrant {
                        name: &name,
                        guest,
                        bot,
                        rating,
                    })
                })
                .await?;
                Ok(ServerMsg::TournamentJoined { tournament })
            }
            ClientMsg::WithdrawTournament { tournament } => {
                let lot = rand::random();
                self.change(&tournament, |e| {
                    e.withdraw(&name)?;
                    e.pair_due(lot);
                    Ok(())
                })
                .await?;
                Ok(ServerMsg::TournamentWithdrawn { tournament })
            }
            ClientMsg::StartTournament { tournament } => {
                self.organiser(&tournament, &name)?;
                self.change(&tournament, |e| e.start(rand::random()))
                    .await?;
                Ok(ServerMsg::TournamentStarted { tournament })
            }
            ClientMsg::TournamentResult {
                tournament,
                round,
                board,
                game,
                result,
            } => {
                self.organiser(&tournament, &name)?;
                let at = GameRef {
                    round: round as usize,
                    board: board as usize,
                    game: game as usize,
                };
                let lot = rand::random();
                self.change(&tournament, |e| e.record(at, result, lot))
                    .await?;
                Ok(ServerMsg::TournamentRecorded { tournament })
            }
            ClientMsg::WatchTournament { tournament } => {
                let e = self.events.get(&tournament).ok_or_else(not_found)?;
                let watchers = self.watchers.entry(tournament.clone()).or_default();
                watchers.retain(|w| w.outbox.conn != s.outbox.conn || w.id != s.id);
                if watchers.len() >= MAX_WATCHERS {
                    return Err(ErrorBody::new(
                        ErrorCode::LimitReached,
                        "this tournament has too many watchers",
                    ));
                }
                watchers.push(s.clone());
                Ok(ServerMsg::TournamentInfo {
                    tournament: Box::new(view::view(e)),
                })
            }
            ClientMsg::UnwatchTournament { tournament } => {
                if let Some(w) = self.watchers.get_mut(&tournament) {
                    w.retain(|w| w.outbox.conn != s.outbox.conn || w.id != s.id);
                }
                Ok(ServerMsg::TournamentUnwatched { tournament })
            }
            ClientMsg::TournamentExport { tournament } => {
                let e = self.events.get(&tournament).ok_or_else(not_found)?;
                let (crosstable, trf) = view::export(e);
                Ok(ServerMsg::TournamentExported {
                    tournament,
                    crosstable,
                    trf,
                })
            }
            _ => Err(ErrorBody::new(
                ErrorCode::Internal,
                "not a tournament request",
            )),
        }
    }

    fn organiser(&self, id: &str, name: &str) -> Result<(), ErrorBody> {
        let e = self.events.get(id).ok_or_else(not_found)?;
        if tengen_store::name_key(&e.organiser) != tengen_store::name_key(name) {
            return Err(ErrorBody::new(
                ErrorCode::NotOrganiser,
                "only the tournament's organiser may do this",
            ));
        }
        Ok(())
    }

    async fn create(&mut self, s: &Session, spec: TournamentSpec) -> Result<ServerMsg, ErrorBody> {
        if s.player.guest {
            return Err(ErrorBody::new(
                ErrorCode::LoginRequired,
                "tournaments are organised by accounts: log in first",
            ));
        }
        if let Err(e) = spec.config.validate() {
            return Err(ErrorBody::new(ErrorCode::InvalidConfig, e.to_string()));
        }
        if self.events.len() >= MAX_EVENTS {
            return Err(ErrorBody::new(
                ErrorCode::LimitReached,
                "the server keeps no more tournaments",
            ));
        }
        let id = TableId::from_u64(rand::random()).to_string();
        let event = Event::new(id.clone(), s.player.name.clone(), unix_ms(), spec)?;
        let summary = view::summary(&event);
        self.save(event).await?;
        Ok(ServerMsg::TournamentCreated {
            tournament: summary,
        })
    }

    /// A player's rating in the event's rule family (the starting rating
    /// for guests and new accounts).
    async fn rating_of(&self, s: &Session, e: &Event) -> Result<i32, ErrorBody> {
        let start = crate::ratings::START.0.round() as i32;
        if s.player.guest {
            return Ok(start);
        }
        let family = tengen_protocol::RatingFamily::of(e.spec.config.rule_set);
        let store = self.store.clone();
        let name = s.player.name.clone();
        match self
            .timed(async move { store.rating(&name, family.as_str()).await })
            .await
        {
            Some(r) => Ok(r.map_or(start, |r| r.rating.round() as i32)),
            None => Err(ErrorBody::new(
                ErrorCode::Unavailable,
                "the ratings could not be read; try again",
            )),
        }
    }
}
