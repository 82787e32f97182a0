//! The `churn` scenario: `games`, with every player and spectator dropping
//! its connection at random moments mid-game and resuming it
//! (`protocol/README.md`, "Reconnecting").
//!
//! Why it exists: resuming is the server's promise that a lost connection
//! loses nothing: the session, its seat and every table event survive it.
//! The other scenarios never drop a connection, so they cannot show that the
//! promise holds under load, nor what it costs. This one does, and counts a
//! broken promise (an event missing after a resume, or delivered twice) as
//! an error, like any other.
//!
//! How a drop happens: each connection draws its drop times from an
//! exponential distribution with mean `--drop-every` (seeded by `--seed`,
//! so a run can be repeated). When one is due, the [`Link`] drops its
//! [`Connection`] (the socket ends without a close frame, as when a network
//! dies: the server sees a lost connection), connects again with
//! `hello.resume`, checks that the session came back (`resumed`), sends
//! `watch` with `since` (the last `seq` it had) and reads up to the
//! `replayed` reply: the missed events come before it. That instant is the
//! resume time, drop → caught up. Drops happen only mid-game (players:
//! between their seat's snapshot and `game_over`; spectators: while they
//! watch a table), since a dropped connection cancels a waiting room.
//!
//! Why not the client library's `Session`: it reconnects only when the
//! network drops it, and it filters duplicates away, which is the very
//! thing measured here. The `Link` does the same steps by hand (the
//! lower-level `Connection::reconnect` and `watch since`) and checks every
//! `seq` itself.
//!
//! What the latencies mean here: a move replayed after a resume is counted
//! in the resume time, not in the → opponent / → spectators latencies; a
//! move that fell due while its player was away is due again from the
//! moment the player is caught up (the away time is the resume time, not
//! the server's latency). A move sent just before a drop may or may not
//! have reached the server: the player sends it again only if the table,
//! once caught up, still asks it to move.

use std::sync::Arc;
use std::time::Duration;

use tengen_client::ClientError;
use tengen_protocol::{ClientMsg, ErrorCode, RoomId, ServerMsg, TableId};
use tengen_rules::game::{Action, Event, Prompt, Seat, Task};
use tokio::sync::{mpsc, watch};
use tokio::time::sleep_until;

use crate::connect::request_patiently;
use crate::resume::{Got, Link};
use crate::run::{Ctx, DueBook, kind};
use crate::stats::{OPPONENT, SEND_LAG, SPECTATORS};

/// Starts every task of this process's game slots.
pub fn spawn_all(ctx: &Arc<Ctx>) -> Vec<tokio::task::JoinHandle<()>> {
    let mut tasks = Vec::new();
    for n in ctx.plan.slots.clone() {
        let (tx, rx) = watch::channel(None);
        let slot = Slot {
            n,
            due: Arc::new(DueBook::mem()),
            tables: rx,
            tables_tx: Arc::new(tx),
        };
        let (room_tx, room_rx) = mpsc::channel(1);
        let (a, b) = (slot.clone(), slot.clone());
        let (c1, c2) = (ctx.clone(), ctx.clone());
        tasks.push(tokio::spawn(async move {
            a.player(&c1, Seat::First, Rooms::Create(room_tx)).await
        }));
        tasks.push(tokio::spawn(async move {
            b.player(&c2, Seat::Second, Rooms::Join(room_rx)).await
        }));
        for k in 0..ctx.plan.spectators {
            let (s, c) = (slot.clone(), ctx.clone());
            tasks.push(tokio::spawn(async move { s.spectator(&c, k).await }));
        }
    }
    tasks
}

/// How a player gets its room.
enum Rooms {
    Create(mpsc::Sender<RoomId>),
    Join(mpsc::Receiver<RoomId>),
}

/// What the tasks of one game slot share.
#[derive(Clone)]
struct Slot {
    n: usize,
    due: Arc<DueBook>,
    tables: watch::Receiver<Option<TableId>>,
    tables_tx: Arc<watch::Sender<Option<TableId>>>,
}

/// A move this player is due to send.
struct Due {
    table: TableId,
    number: u32,
    at_us: u64,
}

impl Slot {
    /// A player: game after game until the deadline, dropping mid-game.
    async fn player(self, ctx: &Ctx, me: Seat, mut rooms: Rooms) {
        let who = if me == Seat::First { "a" } else { "b" };
        let seed = (self.n as u64) << 8 | u64::from(me == Seat::Second);
        let link = Link::open(ctx, ctx.plan.url(self.n), format!("{who}{}", self.n), seed).await;
        ctx.settled();
        let Some(mut link) = link else { return };
        loop {
            match self.game(ctx, &mut link, me, &mut rooms).await {
                Ok(true) => continue,
                Ok(false) => break,
                Err(e) => return ctx.error(kind(&e)),
            }
        }
        link.close().await;
    }

    /// One game; false at the deadline (or when the other player is gone).
    async fn game(
        &self,
        ctx: &Ctx,
        link: &mut Link<'_>,
        me: Seat,
        rooms: &mut Rooms,
    ) -> Result<bool, ClientError> {
        let room = match rooms {
            Rooms::Create(tx) => {
                let room = tokio::select! {
                    r = create_room(link) => r?,
                    _ = sleep_until(ctx.deadline) => return Ok(false),
                };
                if tx.send(room.clone()).await.is_err() {
                    return Ok(false);
                }
                room
            }
            Rooms::Join(rx) => {
                let room = tokio::select! {
                    r = rx.recv() => match r { Some(r) => r, None => return Ok(false) },
                    _ = sleep_until(ctx.deadline) => return Ok(false),
                };
                tokio::select! {
                    r = request_patiently(ctx, link.conn(), ClientMsg::JoinRoom { room: room.clone() }) => { r?; }
                    _ = sleep_until(ctx.deadline) => return Ok(false),
                }
                room
            }
        };
        let snap = tokio::select! {
            f = link.conn().next_matching(|m| matches!(m, ServerMsg::TableSnapshot(_))) => f?,
            _ = sleep_until(ctx.deadline) => return Ok(false),
        };
        let ServerMsg::TableSnapshot(snap) = snap.msg else {
            unreachable!("matched a snapshot")
        };
        let table = snap.table.clone();
        link.follow = Some((table.clone(), snap.seq));
        link.replayed_to = 0;
        link.take_dropped();
        if me == Seat::First {
            self.due.start(&table, ctx.plan.script.len());
            let _ = self.tables_tx.send(Some(table.clone()));
            ctx.stats().games_started += 1;
        }
        let now = ctx.clock.now_us();
        let mut prompt = snap.snapshot.prompt.clone();
        let mut next = prompt
            .as_ref()
            .and_then(|p| self.my_move(ctx, me, &table, p, now));
        link.armed = true;
        let end = self.play(ctx, link, me, &mut prompt, &mut next).await;
        link.armed = false;
        if !end? {
            return Ok(false);
        }
        if me == Seat::First {
            ctx.stats().games_completed += 1;
        }
        // A finished room keeps its players until they leave, unless a
        // connection of theirs ended after the game did (then it is left).
        let dropped = link.take_dropped();
        match request_patiently(ctx, link.conn(), ClientMsg::LeaveRoom { room }).await {
            Err(ClientError::Refused(e))
                if dropped && matches!(e.code, ErrorCode::NotFound | ErrorCode::NotAPlayer) => {}
            r => {
                r?;
            }
        }
        Ok(true)
    }

    /// Plays to `game_over` (true) or the deadline (false).
    async fn play(
        &self,
        ctx: &Ctx,
        link: &mut Link<'_>,
        me: Seat,
        prompt: &mut Option<Prompt>,
        next: &mut Option<Due>,
    ) -> Result<bool, ClientError> {
        loop {
            let wake = next.as_ref().map(|d| ctx.clock.instant(d.at_us).into());
            match link.next(wake, None).await? {
                Got::Deadline => return Ok(false),
                Got::Changed => {} // players watch no channel
                Got::Wake => {
                    let due = next.take().expect("a wake is for a due move");
                    let point = ctx.plan.script.point(due.number).ok_or_else(|| {
                        ClientError::Unexpected(format!("move {} past the script", due.number))
                    })?;
                    self.due.set(due.number, due.at_us);
                    link.send(ClientMsg::Act {
                        table: due.table.clone(),
                        action: Action::place(point),
                    })
                    .await?;
                    let lag = ctx.clock.now_us().saturating_sub(due.at_us);
                    let mut s = ctx.stats();
                    s.moves += 1;
                    s.record(SEND_LAG, lag);
                }
                Got::CaughtUp => {
                    let now = ctx.clock.now_us();
                    match next {
                        // Fell due while away: due from now.
                        Some(d) => d.at_us = d.at_us.max(now),
                        // Sent before the drop and not applied: again.
                        None => {
                            let table = link.follow.as_ref().map(|f| f.0.clone());
                            *next = table
                                .zip(prompt.as_ref())
                                .and_then(|(t, p)| self.my_move(ctx, me, &t, p, now))
                                .map(|d| Due { at_us: now, ..d });
                        }
                    }
                }
                Got::Frame(frame, replayed) => {
                    let now = ctx.clock.now_us();
                    match frame.msg {
                        ServerMsg::TableEvent(te) => {
                            match &te.event {
                                Event::Moved { mv, .. } if mv.seat != me && !replayed => {
                                    if let Some(due) = self.due.get(&te.table, mv.number) {
                                        ctx.stats().record(OPPONENT, now.saturating_sub(due));
                                    }
                                }
                                Event::GameOver { .. } => return Ok(true),
                                _ => {}
                            }
                            *prompt = te.prompt.clone();
                            *next = te
                                .prompt
                                .as_ref()
                                .and_then(|p| self.my_move(ctx, me, &te.table, p, now));
                        }
                        ServerMsg::TableSnapshot(s) => {
                            if s.snapshot.result.is_some() {
                                return Ok(true);
                            }
                            *prompt = s.snapshot.prompt.clone();
                            *next = prompt
                                .as_ref()
                                .and_then(|p| self.my_move(ctx, me, &s.table, p, now));
                        }
                        ServerMsg::Error(e) => return Err(ClientError::Refused(e)),
                        _ => {}
                    }
                }
            }
        }
    }

    /// The move `prompt` asks of `me`, due one interval after `now`.
    fn my_move(&self, ctx: &Ctx, me: Seat, table: &TableId, p: &Prompt, now: u64) -> Option<Due> {
        match p.task {
            Task::Place { move_number, .. } if p.seat == me => Some(Due {
                table: table.clone(),
                number: move_number,
                at_us: now + ctx.plan.move_interval.as_micros() as u64,
            }),
            _ => None,
        }
    }

    /// A spectator: watches each new table of the slot, dropping while it
    /// watches.
    async fn spectator(mut self, ctx: &Ctx, k: usize) {
        let seed = (self.n as u64) << 8 | (k as u64 + 2);
        let url = ctx.plan.url(self.n + k + 1);
        let link = Link::open(ctx, url, format!("s{k}_{}", self.n), seed).await;
        ctx.settled();
        let Some(mut link) = link else { return };
        loop {
            let got = link.next(None, Some(&mut self.tables)).await;
            if let Ok(Got::Changed) = got {
                let Some(table) = self.tables.borrow_and_update().clone() else {
                    continue;
                };
                if let Err(e) = follow_new(&mut link, table).await {
                    return ctx.error(kind(&e));
                }
                continue;
            }
            match got {
                Ok(Got::Deadline) => break,
                Ok(Got::Frame(frame, replayed)) => match frame.msg {
                    ServerMsg::TableEvent(te) => match &te.event {
                        Event::Moved { mv, .. } if !replayed => {
                            if let Some(due) = self.due.get(&te.table, mv.number) {
                                let us = ctx.clock.now_us().saturating_sub(due);
                                ctx.stats().record(SPECTATORS, us);
                            }
                        }
                        Event::GameOver { .. } => link.armed = false, // mid-game only
                        _ => {}
                    },
                    ServerMsg::Error(e) => {
                        return ctx.error(format!("refused_{}", e.code.as_str()));
                    }
                    _ => {}
                },
                Ok(_) => {}
                Err(e) => return ctx.error(kind(&e)),
            }
        }
        link.close().await;
    }
}

/// A spectator leaves its table (the old table's late events are then not
/// checked) and watches the slot's new one.
async fn follow_new(link: &mut Link<'_>, table: TableId) -> Result<(), ClientError> {
    link.armed = false;
    if let Some((old, _)) = link.follow.take() {
        link.send(ClientMsg::Unwatch { table: old }).await?;
    }
    match link
        .request(ClientMsg::Watch { table, since: None })
        .await?
    {
        ServerMsg::TableSnapshot(s) => {
            link.follow = Some((s.table, s.seq));
            link.replayed_to = 0;
            link.armed = true;
            Ok(())
        }
        other => Err(ClientError::Unexpected(other.type_name().into())),
    }
}

/// Creates a room; a seat that the server has not freed yet (the last game
/// ended a moment ago) is asked again.
async fn create_room(link: &mut Link<'_>) -> Result<RoomId, ClientError> {
    let mut tries = 0;
    loop {
        let r = link
            .request(ClientMsg::CreateRoom {
                rated: false,
                config: crate::script::Script::config(),
                public: true,
                name: None,
                chat: true,
            })
            .await;
        match r {
            Ok(ServerMsg::RoomCreated { room, .. }) => return Ok(room),
            Ok(other) => return Err(ClientError::Unexpected(other.type_name().into())),
            Err(ClientError::Refused(e)) if e.code == ErrorCode::AlreadySeated && tries < 20 => {
                tries += 1;
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Err(e) => return Err(e),
        }
    }
}
