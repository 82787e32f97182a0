//! The table actor: one tokio task per game, the only owner of the referee's
//! `Game` and its clocks.
//!
//! It applies actions in arrival order, stamps every event with the table's
//! next `seq` (from 1), encodes each event once per encoding in use and
//! queues the same bytes to every subscriber (the two players and the
//! spectators). Time is the server's monotonic clock, read here and passed
//! to the pure machine as milliseconds since the table started. An action
//! is judged at the game time it came in, and its events go out at that
//! same game time: the table's wait (the mailbox, the store's commit) is
//! charged to nobody, and the clocks in an event are exact as it leaves.
//! Every timer is a deadline in the select loop, never a poll: the flag at
//! the exact instant a clock runs out (`Game::next_deadline`, which also
//! covers draw-offer lapses), the abort of a game whose first moves never
//! come, the coalesced spectator count, and the table's end some time after
//! the game's.
//!
//! Actor: owns one game (its referee state, seats, clocks and log);
//! receives [`TableCmd`] (clients' [`TableRequest`]s from this node or
//! another, connection notices, the lobby's rematch news, the stop);
//! sends events and snapshots to its players' and spectators' outboxes,
//! appends to the store, and tells the lobby when it finishes or closes.
//!
//! The state is split by concern: each part a type in its own file under
//! `parts` (leaves, which know nothing of the table) holding the fields
//! only that concern changes, and each concern run by a file of its own:
//! [`fanout`] (spectators and what goes out), [`fans`] (what goes out to
//! other nodes' spectators, once per node), [`resume`] (replay),
//! [`durable`] (what the store has confirmed; the freeze),
//! [`lease`] (this node's hold on the table), [`deadlines`] (the timers
//! and what falls due), [`lag`] (lag-compensation quotas), [`social`]
//! (chat and rematch), [`absence`] (an away player's grace, and the
//! opponent's claim).
//!
//! What the table sends is only what the machine reports (events, prompts,
//! snapshots): in `claim` rooms the machine keeps whether black's last stone
//! was forbidden to itself, so no connection can learn it early.

use std::time::Instant;

use tengen_protocol::{
    Envelope, ErrorBody, ErrorCode, PauseReason, RequestId, ServerFrame, ServerMsg, SessionId,
    TableId,
};
use tengen_rules::game::{Action, ActionKind, Game, GameError, Millis, Seat};
use tokio::time::sleep_until;

use crate::hosting::Hosting;
use crate::msg::lobby::LobbyCmd;
use crate::msg::table::{TableAsk, TableCmd, TableRequest};
use crate::outbound::{Outbox, Shared};
use crate::sessions::Session;

mod absence;
mod arbiter;
mod deadlines;
mod durable;
pub mod failover;
mod fanout;
mod fans;
mod lag;
mod lease;
mod meta;
mod parts;
pub mod restore;
mod resume;
mod social;

pub use meta::{
    META_VERSION, SeatMeta, TableMeta, decode_entries, encode_entries, unix_ms, upgrade_stored,
};
pub use parts::QUOTA_MAX_MS;

/// Everything a table needs to start: what the store keeps of it, its
/// players' sessions (by seat, first and second), and the node's handles.
pub struct Start {
    pub id: TableId,
    pub meta: TableMeta,
    pub seats: [Session; 2],
    pub hosting: Hosting,
}

struct Seated {
    session: Session,
    /// Whether the player's connection gets this table's events.
    subscribed: bool,
    /// Whether the player's connection is lost ([`absence`]).
    away: bool,
    /// While away in a game that counts a grace: when the grace ends.
    away_until: Option<Instant>,
    /// Whether the grace has ended (and what follows it was settled).
    grace_over: bool,
    /// Whether this player asked for a rematch.
    rematch: bool,
}

/// The actor's state: the game and its seats, and one part per concern,
/// each defined (with what it alone decides) in its own file.
struct Table {
    id: TableId,
    game: Game,
    started: Instant,
    seats: [Seated; 2],
    /// The store, settings, lobby, table directory and sessions.
    hosting: Hosting,
    /// What the store keeps of the table besides its log: its room, rule
    /// set, players and options.
    meta: TableMeta,
    /// The spectators and their coalesced count ([`fanout`]).
    subs: parts::Subscribers,
    /// The events sent so far and the latest kept for replay ([`resume`]).
    events: parts::EventLog,
    /// What the store has confirmed ([`durable`]).
    durable: parts::Durability,
    /// Whether and why game time stands still ([`durable`]).
    freeze: parts::Freeze,
    /// This node's lease on the table ([`lease`]).
    tenure: parts::Tenure,
    /// The first-move abort and the table's close ([`deadlines`]).
    timers: parts::Timers,
    /// Each seat's lag-compensation quota ([`lag`]).
    lag: parts::Quotas,
    /// Chat rates ([`social`]).
    social: parts::ChatRates,
    /// The rematch's table, once the lobby started it ([`social`]).
    rematched: Option<TableId>,
}

/// Starts a table actor for a new game and registers it in the directory.
/// The table stores itself before it tells the players anything.
pub fn spawn(start: Start) -> Result<(), tengen_rules::game::ConfigError> {
    let game = Game::new(start.meta.config.clone(), start.meta.opener, 0)?;
    crate::metrics::game_started(&start.meta.config, start.meta.rated);
    let table = Table::assemble(start, game, Instant::now());
    table.launch();
    Ok(())
}

impl Table {
    /// A table for `game` (new, or restored with its entries), its clocks
    /// counting from `started`.
    fn assemble(start: Start, game: Game, started: Instant) -> Table {
        let [a, b] = start.seats;
        let seated = |session: Session| Seated {
            subscribed: !session.outbox.is_closed(),
            session,
            away: false,
            away_until: None,
            grace_over: false,
            rematch: false,
        };
        // While a seat has never acted, the game is aborted if it does not
        // (asked at the game's current time: a restored game's last input).
        let now_ms = game.entries().last().map_or(game.start(), |e| e.at);
        let first_action_due = game
            .to_act()
            .filter(|seat| game.allowed(*seat, now_ms).contains(&ActionKind::Abort))
            .filter(|_| !game.config().time.is_correspondence())
            .map(|_| Instant::now() + start.hosting.settings.first_move_timeout);
        Table {
            id: start.id,
            game,
            started,
            seats: [seated(a), seated(b)],
            hosting: start.hosting,
            meta: start.meta,
            subs: parts::Subscribers::default(),
            events: parts::EventLog::default(),
            durable: parts::Durability::default(),
            freeze: parts::Freeze::default(),
            tenure: parts::Tenure::default(),
            timers: parts::Timers {
                first_action_due,
                no_show: None,
                close_at: None,
            },
            lag: parts::Quotas::default(),
            social: parts::ChatRates::default(),
            rematched: None,
        }
    }

    /// Registers the table and starts its actor.
    fn launch(self) {
        // No notice queue (each would cost the table a channel block): the
        // lease keeper tries its `LeaseLost` again until it goes in.
        let (handle, rx) = crate::mailbox::mailbox(self.hosting.settings.table_mailbox, 0);
        self.hosting.directory.insert(self.id.clone(), handle);
        for s in &self.seats {
            self.hosting.sessions.seat(&s.session.id, &self.id, true);
            crate::moderation::chat::learn(&self.hosting, &s.session.player);
        }
        metrics::gauge!(crate::metrics::TABLES).increment(1.0);
        // Boxed: the task's future then holds a pointer where it would
        // hold the whole state twice (an `async fn`'s argument and the
        // local it is moved into each keep their own room).
        tokio::spawn(Box::new(self).run(rx));
    }
}

impl Table {
    /// Game time at `at`: milliseconds since the table started, not
    /// counting time spent frozen.
    fn now_ms(&self, at: Instant) -> Millis {
        let at = self.freeze.since.map_or(at, |f| f.min(at));
        at.saturating_duration_since(self.started).as_millis() as Millis
    }

    fn instant(&self, ms: Millis) -> Instant {
        self.started + std::time::Duration::from_millis(ms)
    }

    /// Game time when a request that came in at `received` is judged: its
    /// wait in the mailbox is not the player's, and nothing is judged
    /// before the game's last input.
    fn arrival_ms(&self, received: Instant) -> Millis {
        let last = self
            .game
            .entries()
            .last()
            .map_or(self.game.start(), |e| e.at);
        self.now_ms(received).max(last)
    }

    /// Game time goes back to `ms` now, if it went past it: what passed
    /// since is nobody's time (see [`Table::hold_clocks`]).
    fn resume_at(&mut self, ms: Millis) {
        let past = Instant::now().saturating_duration_since(self.instant(ms));
        self.hold_clocks(past);
    }

    /// The actor's loop. The rare, large steps (storing the table, the
    /// finish, a deadline) are boxed so that the task's future is sized by
    /// the step every command takes, not by the largest one.
    async fn run(mut self: Box<Self>, mut rx: crate::mailbox::Inbox<TableCmd>) {
        tracing::debug!(table = %self.id, room = %self.meta.room, "table started");
        if !self.durable.created {
            // A new table: its turn to start first (`crate::pacing`), then
            // stored before anyone hears of it (a failure freezes it until
            // the store answers).
            self.wait_turn().await;
            Box::pin(self.probe()).await;
        }
        self.refreeze();
        for seat in Seat::BOTH {
            self.send_snapshot_to_seat(seat, None);
        }
        self.count_presence(false);
        loop {
            if self.tenure.stepped_down {
                break;
            }
            let deadline = self.next_deadline();
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                _ = sleep_until(deadline.unwrap_or_else(Instant::now).into()), if deadline.is_some() => {
                    if Box::pin(self.on_deadline(Instant::now())).await {
                        break;
                    }
                }
            }
            self.count_presence(false);
            if self.game.is_over()
                && !self.tenure.stepped_down
                && !self.durable.finish_stored
                && self.durable.retry_at.is_none()
            {
                let _ = Box::pin(self.store_finished()).await;
            }
        }
        if !self.tenure.stepped_down
            && self.game.is_over()
            && !self.durable.finish_stored
            && Box::pin(self.store_finished()).await.is_err()
        {
            tracing::error!(table = %self.id, "closing with the finished game unstored; the next start finishes it from the log");
        }
        // Kept until now (nothing is written after the finish) so that
        // other nodes find the finished table while it stays.
        if self.durable.finish_stored {
            Box::pin(self.release_lease()).await;
        }
        self.hosting.directory.remove(&self.id);
        if !self.tenure.stepped_down {
            self.rematch_expired();
        }
        for s in &self.seats {
            self.hosting.sessions.seat(&s.session.id, &self.id, false);
        }
        self.hosting.lobby.notify(LobbyCmd::TableClosed {
            room: self.meta.room.clone(),
            table: self.id.clone(),
        });
        metrics::gauge!(crate::metrics::TABLES).decrement(1.0);
        self.count_presence(true);
        tracing::debug!(table = %self.id, "table closed");
    }

    /// Waits for this new table's turn to start, if the node's starts are
    /// paced; its clocks (and the wait for a first move) count from the
    /// turn, so the wait costs neither player time.
    async fn wait_turn(&mut self) {
        let Some(turn) = self.hosting.pressure.starts().reserve(Instant::now()) else {
            return;
        };
        metrics::counter!(crate::metrics::TABLE_STARTS_PACED).increment(1);
        sleep_until(turn.into()).await;
        let waited = Instant::now().saturating_duration_since(self.started);
        self.started += waited;
        if let Some(due) = self.timers.first_action_due.as_mut() {
            *due += waited;
        }
    }

    async fn handle(&mut self, cmd: TableCmd) {
        match cmd {
            TableCmd::Request(ask) => self.request(*ask).await,
            TableCmd::Away { session, conn } => self.away(&session, conn),
            TableCmd::Gone { conn } => self.unwatch(conn, None),
            TableCmd::Handover => self.handover().await,
            TableCmd::LeaseLost { lease } => self.lease_lost(lease).await,
            TableCmd::Withdrawn { player } => self.withdrawn(&player).await,
            TableCmd::RematchStarted { rematch } => {
                self.rematched = Some(rematch.clone());
                let frame = Envelope::push(ServerMsg::RematchStarted {
                    table: self.id.clone(),
                    rematch,
                    room: self.meta.room.clone(),
                });
                self.send_spectators(&mut Shared::new(&frame));
            }
        }
    }

    /// A client's request, from a socket here or on another node alike.
    async fn request(&mut self, ask: TableAsk) {
        let TableAsk {
            session,
            id,
            request,
            received,
            via,
        } = ask;
        match request {
            TableRequest::Watch { since } => self.watch(&session, id, since, via.as_ref()),
            TableRequest::Unwatch => {
                let conn = session.outbox.conn;
                match self.capture_for(conn) {
                    Some((outbox, capture)) => {
                        self.unwatch(conn, Some((&outbox, id)));
                        self.send_addressed(conn, &capture);
                    }
                    None => self.unwatch(conn, Some((&session.outbox, id))),
                }
            }
            TableRequest::Act { action } => {
                self.act(&session.id, action, id, &session.outbox, received)
                    .await
            }
            TableRequest::Snapshot => {
                let conn = session.outbox.conn;
                if self.seat_of(&session.id).is_none() && !self.subs.spectators.contains_key(&conn)
                {
                    return self.wrong_table(&session.outbox, id);
                }
                match self.capture_for(conn) {
                    Some((outbox, capture)) => {
                        let msg = self.snapshot_msg(self.seat_of(&session.id));
                        outbox.send_msg(&Envelope::with_id(id, msg));
                        self.send_addressed(conn, &capture);
                    }
                    None => self.send_snapshot(&session, id),
                }
            }
            TableRequest::ClaimAbsence { draw } => {
                self.claim_absence(&session.id, &session.outbox, id, draw)
                    .await
            }
            TableRequest::Chat { text } => self.chat(&session, id, text),
            TableRequest::Record { format } => {
                let conn = session.outbox.conn;
                if self.seat_of(&session.id).is_none() && !self.subs.spectators.contains_key(&conn)
                {
                    return self.wrong_table(&session.outbox, id);
                }
                let reply = crate::records::render(&self.id, self.tagged_record(), format);
                match reply {
                    Ok(r) => {
                        let msg = Envelope::with_id(id, ServerMsg::GameRecord(r));
                        session.outbox.send_msg(&msg);
                    }
                    Err(body) => {
                        session.outbox.refuse_with(id, body);
                    }
                }
            }
            TableRequest::Rematch => self.rematch(&session, id),
            TableRequest::DeclineRematch => self.decline_rematch(&session, id),
            TableRequest::Arbiter { reason, close_room } => {
                self.arbiter(&session.outbox, id, reason, close_room).await
            }
        }
    }

    /// Subscribes `session`'s connection (as a player if it sits here, else
    /// a spectator) and sends a snapshot, or the events since `since`.
    /// A spectator of another node (`via`) gets the answer through its
    /// node's fan (`fans`).
    fn watch(
        &mut self,
        session: &Session,
        id: Option<RequestId>,
        since: Option<u64>,
        via: Option<&crate::msg::table::Via>,
    ) {
        let mut capture = None;
        // Its blocks count in chat here, wherever it logged in.
        crate::moderation::chat::learn(&self.hosting, &session.player);
        match self.seat_of(&session.id) {
            Some(seat) => {
                let s = &mut self.seats[seat.index()];
                s.session.outbox = session.outbox.clone();
                s.subscribed = true;
                self.back(seat);
                if self.freeze.restoring.is_some() && self.seats.iter().all(|s| s.subscribed) {
                    // Both players are back after a restart.
                    self.freeze.restoring = None;
                    self.refreeze();
                }
            }
            None => {
                let before = self.subs.spectators.len();
                self.subs
                    .spectators
                    .insert(session.outbox.conn, session.outbox.clone());
                self.subs
                    .who
                    .insert(session.outbox.conn, session.player.clone());
                if self.subs.spectators.len() != before {
                    self.spectators_changed();
                }
                match via {
                    Some(via) => {
                        capture = Some((self.watch_remote(&session.outbox, via), via));
                    }
                    None => {
                        self.subs.remote.remove(&session.outbox.conn);
                    }
                }
            }
        }
        let outbox = capture.as_ref().map_or(&session.outbox, |((o, _), _)| o);
        match since {
            Some(since) if self.events.replayable(since) && self.replay(outbox, id, since) => {
                // A snapshot says whether the clocks stand still; a replay
                // must too.
                if let Some(reason) = self.freeze.since.and(self.freeze.announced) {
                    self.send_paused_to(outbox, reason);
                }
            }
            _ => {
                let msg = self.snapshot_msg(self.seat_of(&session.id));
                outbox.send_msg(&Envelope::with_id(id, msg));
            }
        }
        if let Some(((_, inbox), via)) = capture {
            self.send_captured(&inbox, via);
        }
    }

    /// Connection `conn` stops receiving this table's events; `reply`: the
    /// outbox and request to answer (none when the connection is gone).
    fn unwatch(&mut self, conn: u64, reply: Option<(&Outbox, Option<RequestId>)>) {
        let seated = self
            .seats
            .iter()
            .any(|s| s.session.outbox.conn == conn && s.subscribed);
        if !seated && !self.subs.spectators.contains_key(&conn) {
            if let Some((o, id)) = reply {
                self.wrong_table(o, id);
            }
            return;
        }
        if self.subs.spectators.remove(&conn).is_some() {
            self.spectators_changed();
        }
        for s in &mut self.seats {
            if s.session.outbox.conn == conn {
                s.subscribed = false;
            }
        }
        if let Some((o, id)) = reply {
            o.send_msg(&Envelope::with_id(
                id,
                ServerMsg::Unwatched {
                    table: self.id.clone(),
                },
            ));
        }
    }

    /// `acted`: the reply to a request whose events went out, with the
    /// table's last `seq`.
    fn reply_acted(&self, outbox: &Outbox, id: Option<RequestId>) {
        outbox.send_msg(&Envelope::with_id(
            id,
            ServerMsg::Acted {
                table: self.id.clone(),
                seq: self.events.seq,
            },
        ));
    }

    /// A request only a player may make, from someone who is not one.
    fn refuse_non_player(&self, outbox: &Outbox, id: Option<RequestId>) {
        if !self.subs.spectators.contains_key(&outbox.conn) {
            return self.wrong_table(outbox, id);
        }
        outbox.refuse(
            id,
            ErrorCode::NotAPlayer,
            "spectators cannot act; only the two players can",
        );
    }

    fn wrong_table(&self, outbox: &Outbox, id: Option<RequestId>) {
        outbox.refuse(
            id,
            ErrorCode::WrongTable,
            format!("you neither sit at nor watch table {}", self.id),
        );
    }

    fn seat_of(&self, session: &SessionId) -> Option<Seat> {
        Seat::BOTH
            .into_iter()
            .find(|s| self.seats[s.index()].session.id == *session)
    }

    async fn act(
        &mut self,
        session: &SessionId,
        action: Action,
        id: Option<RequestId>,
        outbox: &Outbox,
        received: Instant,
    ) {
        let Some(seat) = self.seat_of(session) else {
            return self.refuse_non_player(outbox, id);
        };
        if action == (Action::ClaimForbidden { point: None }) {
            // Only records from before claims named their point hold one
            // without (docs/rules.md §3).
            let why = "a claim names the forbidden stone: claim_forbidden needs its point";
            outbox.refuse(id, ErrorCode::BadRequest, why);
            return;
        }
        if let Some(reason) = self.pause_reason() {
            crate::metrics::error("unavailable");
            let why = match reason {
                PauseReason::Store => {
                    "the server cannot save actions right now; the clocks are stopped, try again shortly"
                }
                PauseReason::Restored => {
                    "the game was restored after a restart; the clocks wait until both players are back"
                }
            };
            outbox.refuse(id, ErrorCode::Unavailable, why);
            return;
        }
        let ms = self.arrival_ms(received);
        let credit = self.credit_for(seat);
        match self.game.apply_with_lag(seat, action, ms, credit) {
            Ok(events) => {
                if self.persist().await.is_err() {
                    // Nothing was reported, and the game is as the store
                    // has it: the action did not happen.
                    outbox.refuse(id, ErrorCode::Unavailable, "the server could not save your action, so it did not happen; the clocks are stopped until it can");
                    return;
                }
                metrics::histogram!(crate::metrics::MOVE_DURABLE_SECONDS)
                    .record(received.elapsed().as_secs_f64());
                self.settle_quota(seat, &action);
                crate::metrics::action_taken(action.kind(), &events);
                // A correspondence game is never aborted for a slow first
                // move: its clock decides (docs/rules.md §7).
                if action.kind() != ActionKind::Resign
                    && !self.game.config().time.is_correspondence()
                {
                    self.timers.first_action_due = self
                        .game
                        .allowed(seat.other(), ms)
                        .contains(&ActionKind::Abort)
                        .then(|| Instant::now() + self.hosting.settings.first_move_timeout);
                }
                // The event goes out at the game time the action came in:
                // the table's wait (the store's commit, with the syncs
                // queued ahead of it) is nobody's time.
                self.resume_at(ms);
                self.broadcast(events, ms);
                self.reply_acted(outbox, id);
                let took = received.elapsed();
                metrics::histogram!(crate::metrics::MOVE_SECONDS).record(took.as_secs_f64());
                self.hosting.lag.record_move(took);
            }
            Err(e) => {
                // Too late even with its credit: the flag falls now.
                if matches!(e, GameError::TimeUp { .. }) {
                    let due = self.tick_guarded(ms);
                    if self.persist().await.is_ok() {
                        self.broadcast(due, ms);
                    }
                }
                crate::metrics::error("game");
                outbox.send_msg(&ServerFrame::error(id, ErrorBody::game(e)));
            }
        }
    }
}
