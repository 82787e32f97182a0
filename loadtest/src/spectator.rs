//! A spectator of the `games`, `fanout` and `soak` scenarios.
//!
//! Why it is its own module: a spectator's life differs from a player's.
//! It follows every new table of its game slot (or, in fan-out, the one
//! table everyone watches), checks that each table's events arrive in
//! order with none lost or doubled ([`Follow`]), and measures how late
//! each move reaches it from the move's due time. In the soak it leaves
//! after each game and a new connection takes its place, watching what it
//! still watched. In `games`, a connection the server ends (a restart)
//! comes back ([`Rejoin`]) and watches its tables again from their last
//! `seq`. Against the bare relay the same code receives the forwarded
//! events.

use std::sync::Arc;
use std::time::Duration;

use tengen_client::{ClientError, Connection};
use tengen_protocol::{ClientMsg, ErrorCode, ServerMsg, TableEvent, TableId};
use tengen_rules::game::Event;
use tokio::sync::{Barrier, watch};
use tokio::time::sleep_until;

use crate::connect::{connect, connect_welcome};
use crate::follow::Follow;
use crate::rejoin::{self, Rejoin, lost};
use crate::run::{Ctx, DueBook, Scenario, Target, kind};
use crate::stats::{RESUME, SPECTATORS};

/// What a spectator shares with its game slot.
pub struct Spectator {
    /// The slot's number.
    pub slot: usize,
    /// The spectator's number in its slot.
    pub k: usize,
    /// Each move's due time (the latency is measured from it).
    pub due: Arc<DueBook>,
    /// The slot's current table, as its creator announces it.
    pub tables: watch::Receiver<Option<TableId>>,
    /// Relay only: everyone of the slot has said hello.
    pub all_in: Arc<Barrier>,
    /// The spectator's name (a new connection in the soak adds a
    /// generation to it).
    pub name: String,
}

/// Why a spectator stopped following its tables.
enum Stop {
    /// The deadline, or the slot ended: a clean close.
    Done,
    /// An error, counted in the stats; the connection is dropped.
    Failed(String),
}

/// What a running spectator holds.
struct Watching<'a> {
    ctx: &'a Ctx,
    url: &'a str,
    /// Watching through another node than its game's.
    other_node: bool,
    fanout: bool,
    soak: bool,
    server: bool,
    follow: Follow,
    generation: u32,
    /// `games`: how to come back after a restart.
    rejoin: Option<Rejoin>,
}

impl Spectator {
    /// Connects, watches, and follows until the deadline.
    pub async fn run(mut self, ctx: &Ctx) {
        // Spectator k of slot n sits on the URL after the players' (n), so
        // with several nodes the first spectator of each game watches
        // through another node than the one its game runs on. Fan-out's
        // spectators are spread over the nodes other than the players'.
        let fanout = ctx.plan.scenario == Scenario::Fanout;
        let nodes = ctx.plan.urls.len();
        let url_index = if fanout && nodes > 1 {
            1 + self.k % (nodes - 1)
        } else {
            self.slot + self.k + 1
        };
        let url = ctx.plan.url(url_index);
        let mut w = Watching {
            ctx,
            url,
            other_node: url != ctx.plan.url(self.slot),
            fanout,
            soak: ctx.plan.scenario == Scenario::Soak,
            server: ctx.plan.target == Target::Server,
            follow: Follow::default(),
            generation: 0,
            rejoin: None,
        };
        let Some((mut conn, welcome)) = connect_welcome(ctx, url, &self.name).await else {
            ctx.settled();
            if ctx.plan.target == Target::Relay && !fanout {
                self.all_in.wait().await;
            }
            return;
        };
        w.rejoin = rejoin::applies(&ctx.plan).then(|| Rejoin::new(url_index, &self.name, &welcome));
        if let Err(why) = self.start(&mut w, &mut conn).await {
            return ctx.error(why);
        }
        match self.follow(&mut w, &mut conn).await {
            Stop::Done => {
                let _ = tokio::time::timeout(Duration::from_secs(1), conn.close()).await;
            }
            Stop::Failed(why) => ctx.error(why),
        }
    }

    /// Before the first event: the relay's barrier, or in fan-out the
    /// watch of the one table before the start signal.
    async fn start(&self, w: &mut Watching<'_>, conn: &mut Connection) -> Result<(), String> {
        let ctx = w.ctx;
        match (ctx.plan.target, &*self.due) {
            (Target::Relay, _) => {
                ctx.settled();
                if !w.fanout {
                    self.all_in.wait().await;
                }
            }
            (Target::Server, DueBook::File(f)) => {
                let table = loop {
                    if let Some(t) = f.table() {
                        break t;
                    }
                    if ctx.past_deadline() {
                        ctx.settled();
                        return Ok(());
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                };
                // A watch refused `unavailable` (the server shedding a burst
                // of them) is asked again after the time it gives, as a
                // client does.
                let watched = loop {
                    let r = tokio::select! {
                        r = conn.request(ClientMsg::Watch { table: table.clone(), since: None }) => r,
                        _ = sleep_until(ctx.deadline) => { ctx.settled(); return Ok(()); }
                    };
                    match r {
                        Err(ClientError::Refused(e)) if e.code == ErrorCode::Unavailable => {
                            ctx.stats().shed += 1;
                            let wait = Duration::from_millis(e.retry_after_ms.unwrap_or(200));
                            tokio::select! {
                                _ = tokio::time::sleep(wait) => {}
                                _ = sleep_until(ctx.deadline) => { ctx.settled(); return Ok(()); }
                            }
                        }
                        r => break r,
                    }
                };
                ctx.settled();
                match watched {
                    Ok(ServerMsg::TableSnapshot(snap)) => {
                        w.follow.tables.push((table, Some(snap.seq)))
                    }
                    Ok(_) => w.follow.tables.push((table, None)),
                    Err(e) => return Err(kind(&e)),
                }
            }
            (Target::Server, DueBook::Mem(_)) => ctx.settled(),
        }
        Ok(())
    }

    /// Follows the slot's tables until the deadline.
    async fn follow(&mut self, w: &mut Watching<'_>, conn: &mut Connection) -> Stop {
        let ctx = w.ctx;
        // The slot's players can be gone (their last game over) while this
        // spectator still has that game's last events to read: it follows
        // on until its games are over, not until they leave.
        let mut players_gone = false;
        loop {
            // After the deadline, with `--drain`, a spectator stays until
            // the games it watches are over.
            if ctx.past_deadline() && (!w.server || w.follow.tables.is_empty()) {
                return Stop::Done;
            }
            let frame = tokio::select! {
                f = conn.next() => f,
                changed = self.tables.changed(), if w.server && !w.fanout && !players_gone => {
                    if changed.is_err() {
                        players_gone = true;
                        continue;
                    }
                    let next = self.tables.borrow_and_update().clone();
                    if let Some(table) = next
                        && !w.follow.has(&table)
                    {
                        w.follow.tables.push((table.clone(), None));
                        if let Err(e) = conn.send(ClientMsg::Watch { table, since: None }).await {
                            return Stop::Failed(kind(&e));
                        }
                    }
                    continue;
                }
                _ = sleep_until(ctx.deadline), if !ctx.past_deadline() => continue,
                _ = sleep_until(ctx.finish_by) => return Stop::Done,
            };
            let frame = match frame {
                Ok(f) => f,
                Err(ClientError::Timeout(_)) if w.follow.tables.is_empty() || !w.server => {
                    continue;
                }
                Err(e) if w.rejoin.is_some() && lost(&e) => match self.resume(w, conn).await {
                    Ok(()) => continue,
                    Err(e) => return Stop::Failed(kind(&e)),
                },
                Err(e) => return Stop::Failed(kind(&e)),
            };
            match frame.msg {
                ServerMsg::TableSnapshot(snap) => {
                    if let Some(last) = w.follow.last_mut(&snap.table) {
                        *last = Some(snap.seq);
                    }
                }
                ServerMsg::TableEvent(te) => {
                    if let Err(stop) = self.event(w, conn, &te).await {
                        return stop;
                    }
                }
                ServerMsg::Error(e) => return Stop::Failed(format!("refused_{}", e.code.as_str())),
                _ => {}
            }
        }
    }

    /// One table event: checked, counted, timed; a finished game let go
    /// of (and in the soak, the connection replaced).
    async fn event(
        &self,
        w: &mut Watching<'_>,
        conn: &mut Connection,
        te: &TableEvent,
    ) -> Result<(), Stop> {
        let ctx = w.ctx;
        if w.server {
            let over = matches!(te.event, Event::GameOver { .. });
            {
                let mut s = ctx.stats();
                if w.follow.check(&te.table, te.seq, &mut s) {
                    s.spectator_events += 1;
                    if w.other_node {
                        s.spectator_events_other_node += 1;
                    }
                    if over {
                        s.spectator_games_over += 1;
                    }
                }
            }
            if over && w.soak {
                w.follow.tables.retain(|(t, _)| *t != te.table);
                return self.replace(w, conn).await;
            }
            if over && !w.fanout {
                // Done with it (a newer game may already be watched).
                w.follow.tables.retain(|(t, _)| *t != te.table);
                let unwatch = ClientMsg::Unwatch {
                    table: te.table.clone(),
                };
                if let Err(e) = conn.send(unwatch).await {
                    return Err(Stop::Failed(kind(&e)));
                }
            }
        }
        if let Event::Moved { mv, .. } = &te.event {
            let now = ctx.clock.now_us();
            if let Some(due) = self.due.get(&te.table, mv.number) {
                let us = now.saturating_sub(due);
                if w.fanout {
                    ctx.stats().spectator_got(mv.number, us);
                } else {
                    ctx.stats().record(SPECTATORS, us);
                }
            }
        }
        Ok(())
    }

    /// The connection ended (a restart): connects again with the session's
    /// token and watches every followed table again from the last `seq` it
    /// has (the missed events come first and are checked like any).
    async fn resume(&self, w: &mut Watching<'_>, conn: &mut Connection) -> Result<(), ClientError> {
        let started = std::time::Instant::now();
        let mut tries = 0;
        loop {
            match self.catch_up(w, conn, started).await {
                // Ended again (the node it came back to is stopping too).
                Err(e) if lost(&e) && tries < 3 => tries += 1,
                r => return r,
            }
        }
    }

    /// [`Spectator::resume`]'s one try.
    async fn catch_up(
        &self,
        w: &mut Watching<'_>,
        conn: &mut Connection,
        started: std::time::Instant,
    ) -> Result<(), ClientError> {
        let ctx = w.ctx;
        let rejoin = w.rejoin.as_mut().expect("a resume has a token");
        let (c, _) = rejoin.reconnect(ctx).await?;
        w.url = rejoin.url(ctx);
        *conn = c;
        for i in 0..w.follow.tables.len() {
            let (table, since) = w.follow.tables[i].clone();
            match rejoin::request(ctx, conn, ClientMsg::Watch { table, since }).await? {
                ServerMsg::Replayed { .. } => {}
                ServerMsg::TableSnapshot(snap) => {
                    if since.is_some() {
                        // The gap was older than the table keeps: a reset.
                        ctx.error("resume_snapshot");
                    }
                    w.follow.tables[i].1 = Some(snap.seq);
                }
                other => return Err(ClientError::Unexpected(other.type_name().into())),
            }
        }
        let mut s = ctx.stats();
        s.resumes += 1;
        s.record(RESUME, started.elapsed().as_micros() as u64);
        Ok(())
    }

    /// Soak: this spectator leaves; a new one comes and watches what it
    /// still watched (from their snapshots), and the next game.
    async fn replace(&self, w: &mut Watching<'_>, conn: &mut Connection) -> Result<(), Stop> {
        w.generation += 1;
        let name = format!("{}g{}", self.name, w.generation);
        let Some(c) = connect(w.ctx, w.url, &name).await else {
            // Counted by connect (or the deadline came); the old connection
            // is closed by the caller.
            return Err(Stop::Done);
        };
        let old = std::mem::replace(conn, c);
        let _ = tokio::time::timeout(Duration::from_secs(1), old.close()).await;
        for (table, last) in &mut w.follow.tables {
            *last = None;
            let watch = ClientMsg::Watch {
                table: table.clone(),
                since: None,
            };
            if let Err(e) = conn.send(watch).await {
                return Err(Stop::Failed(kind(&e)));
            }
        }
        Ok(())
    }
}
