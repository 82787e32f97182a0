//! The `games` and `fanout` scenarios: simulated players and spectators, one
//! lean task per connection on the client library's [`Connection`].
//!
//! Against the server a game slot is a creator (creates a room, then plays),
//! a joiner (joins it) and its spectators (watch each new table of the slot);
//! a finished game is replaced by a new one until the deadline. Against the
//! bare relay the same tasks say hello into a group named after the slot and
//! the mover sends the `table_event` the server would have sent, which the
//! relay forwards; the receiving side is the very same code. A player moves
//! `--move-interval` after the opponent's move arrived; that instant is the
//! move's due time, written in the [`DueBook`] before the move is sent, and
//! every latency is measured from it.

use std::sync::Arc;

use tengen_client::{ClientError, Connection};
use tengen_protocol::{
    ClientMsg, Envelope, ErrorCode, RecordFormat, RoomId, ServerFrame, ServerMsg, TableEvent,
    TableId, TableSnapshot, Welcome, encode_server,
};
use tengen_rules::Color;
use tengen_rules::game::{Action, ActionKind, Event, Move, Prompt, ResultReason, Seat, Task};
use tokio::sync::{Barrier, mpsc, watch};
use tokio::time::sleep_until;
use tokio_tungstenite::tungstenite::Message;

pub use crate::connect::{busy_retry_after, connect, connect_welcome, request_patiently};
use crate::follow::Follow;
use crate::rejoin::{self, Rejoin, lost};
use crate::run::{Ctx, DueBook, FanoutFile, Scenario, Target, kind};
use crate::script::Script;
use crate::spectator::Spectator;
use crate::stats::{OPPONENT, OPPONENT_STEADY, RESUME, SEND_LAG};

/// Starts every task of this process's game slots (or its fan-out share).
pub fn spawn_all(ctx: &Arc<Ctx>) -> anyhow::Result<Vec<tokio::task::JoinHandle<()>>> {
    let mut tasks = Vec::new();
    let fanout = ctx.plan.scenario == Scenario::Fanout;
    if fanout {
        let path = ctx
            .plan
            .fanout_file
            .as_ref()
            .ok_or_else(|| anyhow::anyhow!("fanout needs --fanout-file"))?;
        let book = Arc::new(DueBook::File(FanoutFile::open(path, false)?));
        let slot = Slot::new(0, book, 0);
        if ctx.plan.fanout_players {
            tasks.extend(slot.spawn_players(ctx));
        }
        for k in 0..ctx.plan.spectators {
            tasks.push(slot.spawn_spectator(ctx, k));
        }
    } else {
        for n in ctx.plan.slots.clone() {
            let relay = ctx.plan.target == Target::Relay;
            let parties = if relay { 2 + ctx.plan.spectators } else { 0 };
            let slot = Slot::new(n, Arc::new(DueBook::mem()), parties);
            tasks.extend(slot.spawn_players(ctx));
            for k in 0..ctx.plan.spectators {
                tasks.push(slot.spawn_spectator(ctx, k));
            }
        }
    }
    Ok(tasks)
}

/// What the tasks of one game slot share.
#[derive(Clone)]
struct Slot {
    n: usize,
    due: Arc<DueBook>,
    tables: watch::Receiver<Option<TableId>>,
    tables_tx: Arc<watch::Sender<Option<TableId>>>,
    /// Relay only: everyone of the slot has said hello.
    all_in: Arc<Barrier>,
}

impl Slot {
    /// Slot `n`; `parties` tasks meet at the relay's barrier (0: none).
    fn new(n: usize, due: Arc<DueBook>, parties: usize) -> Slot {
        let (tx, rx) = watch::channel(None);
        Slot {
            n,
            due,
            tables: rx,
            tables_tx: Arc::new(tx),
            all_in: Arc::new(Barrier::new(parties.max(1))),
        }
    }

    fn spawn_players(&self, ctx: &Arc<Ctx>) -> Vec<tokio::task::JoinHandle<()>> {
        let (room_tx, room_rx) = mpsc::channel(1);
        let a = self.clone();
        let b = self.clone();
        let (c1, c2) = (ctx.clone(), ctx.clone());
        vec![
            tokio::spawn(async move { a.creator(&c1, room_tx).await }),
            tokio::spawn(async move { b.joiner(&c2, room_rx).await }),
        ]
    }

    fn spawn_spectator(&self, ctx: &Arc<Ctx>, k: usize) -> tokio::task::JoinHandle<()> {
        let s = Spectator {
            slot: self.n,
            k,
            due: self.due.clone(),
            tables: self.tables.clone(),
            all_in: self.all_in.clone(),
            name: self.name(ctx, &format!("s{k}_")),
        };
        let ctx = ctx.clone();
        tokio::spawn(async move { s.run(&ctx).await })
    }

    fn name(&self, ctx: &Ctx, who: &str) -> String {
        match ctx.plan.target {
            Target::Server => format!("{who}{}", self.n),
            Target::Relay => format!("g{}", self.n),
        }
    }

    async fn creator(self, ctx: &Ctx, room_tx: mpsc::Sender<Handed>) {
        let name = self.name(ctx, "a");
        let conn = connect_welcome(ctx, ctx.plan.url(self.n), &name).await;
        ctx.settled();
        let Some((conn, welcome)) = conn else {
            return;
        };
        let mut p = Player::new(ctx, conn, Seat::First, &self);
        p.rejoin = rejoin::applies(&ctx.plan).then(|| Rejoin::new(self.n, &name, &welcome));
        match ctx.plan.target {
            Target::Server => loop {
                match p.server_game(&self, Some(&room_tx), None).await {
                    Ok(true) if p.replaced(&self, "a").await => continue,
                    Ok(_) => break,
                    Err(e) => return p.failed(&e),
                }
            },
            Target::Relay => {
                self.all_in.wait().await;
                self.wait_go(ctx).await;
                if let Err(e) = p.relay_games(&self).await {
                    ctx.error(kind(&e));
                }
            }
        }
        p.close().await;
    }

    async fn joiner(self, ctx: &Ctx, mut room_rx: mpsc::Receiver<Handed>) {
        let name = self.name(ctx, "b");
        let conn = connect_welcome(ctx, ctx.plan.url(self.n), &name).await;
        ctx.settled();
        let Some((conn, welcome)) = conn else {
            return;
        };
        let mut p = Player::new(ctx, conn, Seat::Second, &self);
        p.rejoin = rejoin::applies(&ctx.plan).then(|| Rejoin::new(self.n, &name, &welcome));
        match ctx.plan.target {
            Target::Server => loop {
                match p.server_game(&self, None, Some(&mut room_rx)).await {
                    Ok(true) if p.replaced(&self, "b").await => continue,
                    Ok(_) => break,
                    Err(e) => return p.failed(&e),
                }
            },
            Target::Relay => {
                self.all_in.wait().await;
                if let Err(e) = p.relay_games(&self).await {
                    ctx.error(kind(&e));
                }
            }
        }
        p.close().await;
    }

    /// Fan-out: the first move waits until every spectator of every process
    /// watches (the parent sets the file's start signal).
    async fn wait_go(&self, ctx: &Ctx) {
        if let DueBook::File(f) = &*self.due {
            while !f.go() && !ctx.past_deadline() {
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
        }
    }
}

/// How long a player that created or joined a room waits for its table
/// past the run's deadline.
const TABLE_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// A room the creator hands its joiner, and the URL (round-robin index)
/// it was created through: the lobby is per node, so the joiner joins
/// there.
type Handed = (RoomId, usize);

/// A result reason's name, for an error kind (`game_ended_abandonment`).
fn reason_name(r: &ResultReason) -> String {
    let debug = format!("{r:?}");
    let name = debug.split([' ', '{', '(']).next().unwrap_or_default();
    name.chars()
        .enumerate()
        .flat_map(|(i, c)| {
            let sep = (i > 0 && c.is_uppercase()).then_some('_');
            sep.into_iter().chain(c.to_lowercase())
        })
        .collect()
}

fn table_hash(t: &TableId) -> u64 {
    t.as_str().bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// A move this player is due to send.
struct Due {
    table: TableId,
    number: u32,
    at_us: u64,
}

/// One simulated player.
struct Player<'a> {
    ctx: &'a Ctx,
    conn: Connection,
    me: Seat,
    script: Arc<Script>,
    due_book: Arc<DueBook>,
    slot: usize,
    /// The table played and the last `seq` of it seen: a gap or a repeat
    /// in the player's own events is an error too.
    follow: Follow,
    /// Soak: how many times this seat's player was replaced.
    generation: u32,
    /// `games` against a server: how to come back after a restart.
    rejoin: Option<Rejoin>,
    /// Whether the connection came back during this game (its room may
    /// then be gone with the node it was on).
    rejoined: bool,
    /// The table's last prompt: after a resume, whether a move sent just
    /// before the connection ended is still to make.
    prompt: Option<Prompt>,
    /// The table's clocks stand (`table_paused`: restored after a restart
    /// until both players are back): moves wait.
    paused: bool,
    /// What the player is doing: told with a failure.
    doing: &'static str,
}

/// How a game ended for one player.
enum End {
    Completed,
    Deadline,
}

impl<'a> Player<'a> {
    /// Counts and tells a failure that ends this player, with where it was.
    fn failed(&self, e: &ClientError) {
        let (me, slot, rejoined) = (self.me, self.slot, self.rejoined);
        let at = self
            .follow
            .tables
            .last()
            .map(|(t, seq)| format!("{t} seq {seq:?}"));
        let doing = self.doing;
        let who = format_args!("slot {slot} {me:?} at {at:?} (rejoined {rejoined}) {doing}");
        self.ctx.failed(who, e);
    }

    fn new(ctx: &'a Ctx, conn: Connection, me: Seat, slot: &Slot) -> Player<'a> {
        Player {
            ctx,
            conn,
            me,
            script: ctx.plan.script.clone(),
            due_book: slot.due.clone(),
            slot: slot.n,
            follow: Follow::default(),
            generation: 0,
            rejoin: None,
            rejoined: false,
            prompt: None,
            paused: false,
            doing: "connecting",
        }
    }

    fn interval_us(&self) -> u64 {
        self.ctx.plan.move_interval.as_micros() as u64
    }

    /// One game against the server: a seat ([`Player::seat`]), the game
    /// played, the room left. False at the deadline.
    async fn server_game(
        &mut self,
        slot: &Slot,
        room_tx: Option<&mpsc::Sender<Handed>>,
        room_rx: Option<&mut mpsc::Receiver<Handed>>,
    ) -> Result<bool, ClientError> {
        let ctx = self.ctx;
        if ctx.past_deadline() {
            return Ok(false);
        }
        self.rejoined = false;
        let Some(snap) = self.seat(room_tx, room_rx).await? else {
            return Ok(false);
        };
        let now = ctx.clock.now_us();
        self.follow.tables = vec![(snap.table.clone(), Some(snap.seq))];
        self.prompt = snap.snapshot.prompt.clone();
        self.paused = snap.paused.is_some();
        if self.me == Seat::First {
            slot.due.start(&snap.table, self.script.len());
            let _ = slot.tables_tx.send(Some(snap.table.clone()));
            ctx.stats().games_started += 1;
        }
        slot.wait_go(ctx).await;
        self.doing = "playing";
        let mut next = snap
            .snapshot
            .prompt
            .as_ref()
            .and_then(|p| self.my_move(&snap.table, p, now));
        if next.is_some() {
            // The fan-out start signal may have kept us: due from now.
            if let Some(d) = next.as_mut() {
                d.at_us = d.at_us.max(ctx.clock.now_us());
            }
        }
        match self.play(next, false).await? {
            End::Completed => {
                if self.me == Seat::First {
                    ctx.stats().games_completed += 1;
                }
                self.leave(snap.room.clone()).await?;
                // Fan-out watches one game: its spectators do not follow a new one.
                Ok(ctx.plan.scenario != Scenario::Fanout)
            }
            End::Deadline => Ok(false),
        }
    }

    /// A seat at a new table, and its snapshot: the creator creates a room
    /// and hands its id over, the joiner joins it. A connection that ends
    /// on the way (a restart) comes back: seated (the game had started),
    /// the player watches its table; not, the room went with the
    /// connection, so the creator makes another and the joiner, refused the
    /// old one, takes the next. None at the deadline.
    async fn seat(
        &mut self,
        room_tx: Option<&mpsc::Sender<Handed>>,
        mut room_rx: Option<&mut mpsc::Receiver<Handed>>,
    ) -> Result<Option<Box<TableSnapshot>>, ClientError> {
        let ctx = self.ctx;
        loop {
            let asked = if let Some(tx) = room_tx {
                self.doing = "creating a room";
                let room = tokio::select! {
                    r = self.create_room() => r,
                    _ = sleep_until(ctx.deadline) => return Ok(None),
                };
                match room {
                    Ok(room) => {
                        let on = self.rejoin.as_ref().map_or(0, |r| r.on(ctx));
                        if tx.send((room, on)).await.is_err() {
                            return Ok(None); // the joiner is gone (and counted why)
                        }
                        Ok(())
                    }
                    Err(e) => Err(e),
                }
            } else if let Some(rx) = room_rx.as_deref_mut() {
                let (mut room, mut on) = tokio::select! {
                    r = rx.recv() => match r { Some(r) => r, None => return Ok(None) },
                    _ = sleep_until(ctx.deadline) => return Ok(None),
                };
                let mut seated_again = 0;
                loop {
                    // After a restart the two players may have come back
                    // through different nodes: the joiner goes to the room's.
                    if let Some(r) = self.rejoin.as_mut()
                        && r.on(ctx) != on
                    {
                        let (conn, _) = r.reconnect_to(ctx, on).await?;
                        self.conn = conn;
                    }
                    self.doing = "joining a room";
                    let join = ClientMsg::JoinRoom { room: room.clone() };
                    // Not cut at the deadline: a join that went through
                    // starts a game the creator plays.
                    let joined = tokio::select! {
                        r = request_patiently(ctx, &mut self.conn, join) => r.map(|_| ()),
                        _ = sleep_until(ctx.finish_by) => return Ok(None),
                    };
                    match joined {
                        // The room's node does not answer (it is stopping):
                        // again shortly, or the creator's next room.
                        Err(ClientError::Refused(e))
                            if self.rejoin.is_some() && e.code == ErrorCode::Unavailable =>
                        {
                            ctx.stats().shed += 1;
                            tokio::time::sleep(rejoin::AGAIN).await;
                            if let Ok(newer) = rx.try_recv() {
                                (room, on) = newer;
                            }
                            if ctx.past_deadline() {
                                return Ok(None);
                            }
                        }
                        // The seat of the game just left is still counted
                        // (across nodes, until its node's news comes): as
                        // `create_room` does, asked again for a moment.
                        Err(ClientError::Refused(e))
                            if e.code == ErrorCode::AlreadySeated && seated_again < 50 =>
                        {
                            seated_again += 1;
                            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                        }
                        r => break r,
                    }
                }
            } else {
                Ok(())
            };
            self.doing = "waiting for the table";
            // A room handed over or joined starts a table at once: its
            // snapshot is waited for past the deadline (within the drain),
            // or the other player would wait for a game this one left.
            let table_by = (tokio::time::Instant::now() + TABLE_WAIT)
                .max(ctx.deadline)
                .min(ctx.finish_by);
            let got = match asked {
                Ok(()) => tokio::select! {
                    f = self.conn.next_matching(|m| matches!(m, ServerMsg::TableSnapshot(_))) => f,
                    _ = sleep_until(table_by) => return Ok(None),
                },
                Err(e) => Err(e),
            };
            match got {
                Ok(f) => {
                    let ServerMsg::TableSnapshot(snap) = f.msg else {
                        unreachable!("matched a snapshot")
                    };
                    return Ok(Some(snap));
                }
                Err(e) if self.rejoin.is_some() && lost(&e) => {
                    if let Some(snap) = self.resume_seated().await? {
                        return Ok(Some(snap));
                    }
                }
                Err(ClientError::Refused(e))
                    if self.rejoin.is_some()
                        && room_rx.is_some()
                        && e.code == ErrorCode::NotFound => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Leaves a finished game's room (a room keeps its players until they
    /// leave); a connection that ended since has left it already.
    async fn leave(&mut self, room: RoomId) -> Result<(), ClientError> {
        loop {
            self.doing = "leaving the room";
            let leave = ClientMsg::LeaveRoom { room: room.clone() };
            let left = if self.rejoin.is_some() {
                rejoin::request(self.ctx, &mut self.conn, leave).await
            } else {
                request_patiently(self.ctx, &mut self.conn, leave).await
            };
            match left {
                Ok(_) => return Ok(()),
                Err(e) if self.rejoin.is_some() && lost(&e) => {
                    self.resume_seated().await?;
                }
                Err(ClientError::Refused(e))
                    if self.rejoined
                        && matches!(e.code, ErrorCode::NotFound | ErrorCode::NotAPlayer) =>
                {
                    return Ok(());
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Connects again with the session's token ([`Rejoin`]).
    async fn reconnect(&mut self) -> Result<Welcome, ClientError> {
        let rejoin = self
            .rejoin
            .as_mut()
            .ok_or_else(|| ClientError::Unexpected("a resume without a token".into()))?;
        let (conn, welcome) = rejoin.reconnect(self.ctx).await?;
        self.conn = conn;
        self.rejoined = true;
        Ok(welcome)
    }

    /// Between games: connects again; the table the session sits at whose
    /// game is still on, if any, watched afresh (its snapshot).
    async fn resume_seated(&mut self) -> Result<Option<Box<TableSnapshot>>, ClientError> {
        let started = std::time::Instant::now();
        let mut tries = 0;
        loop {
            match self.reseat(started).await {
                // Ended again (the node it came back to is stopping too).
                Err(e) if lost(&e) && tries < 3 => tries += 1,
                r => return r,
            }
        }
    }

    /// [`Player::resume_seated`]'s one try.
    async fn reseat(
        &mut self,
        started: std::time::Instant,
    ) -> Result<Option<Box<TableSnapshot>>, ClientError> {
        self.doing = "resuming between games";
        let welcome = self.reconnect().await?;
        let mut seat = None;
        for table in welcome.tables {
            let watch = ClientMsg::Watch {
                table: table.clone(),
                since: None,
            };
            match rejoin::request(self.ctx, &mut self.conn, watch).await? {
                ServerMsg::TableSnapshot(s) if s.snapshot.result.is_none() && seat.is_none() => {
                    seat = Some(s)
                }
                _ => {
                    self.conn.send(ClientMsg::Unwatch { table }).await?;
                }
            }
        }
        self.resumed(started);
        Ok(seat)
    }

    /// Mid-game: connects again, resumes the table from the last `seq`
    /// this player has (the events it missed come before the `replayed`
    /// reply and are played through like any: a move of the opponent's
    /// among them is timed from when it was due), then makes again the
    /// move a lost connection may have swallowed, if the table still asks
    /// it. `Some` when the game ended meanwhile.
    async fn resume_play(&mut self, next: &mut Option<Due>) -> Result<Option<End>, ClientError> {
        let started = std::time::Instant::now();
        let mut tries = 0;
        loop {
            match self.catch_up(next, started).await {
                // Ended again (the node it came back to is stopping too).
                Err(e) if lost(&e) && tries < 3 => tries += 1,
                r => return r,
            }
        }
    }

    /// [`Player::resume_play`]'s one try.
    async fn catch_up(
        &mut self,
        next: &mut Option<Due>,
        started: std::time::Instant,
    ) -> Result<Option<End>, ClientError> {
        self.doing = "resuming mid-game";
        if !self.reconnect().await?.resumed {
            self.ctx.error("resume_refused");
        }
        let Some((table, _)) = self.follow.tables.first().cloned() else {
            return Err(ClientError::Unexpected("no table to resume".into()));
        };
        let mut refusals = 0;
        loop {
            let since = self.follow.tables.first().and_then(|t| t.1);
            let id = self
                .conn
                .send(ClientMsg::Watch {
                    table: table.clone(),
                    since,
                })
                .await?;
            let reply = loop {
                let f = self.conn.next().await?;
                if f.id == Some(id) {
                    break f.msg;
                }
                if let Some(end) = self.on_frame(f, next, false)? {
                    self.resumed(started);
                    return Ok(Some(end));
                }
            };
            match reply {
                ServerMsg::Replayed { .. } => break,
                ServerMsg::TableSnapshot(s) => {
                    // The gap was older than the table keeps: a reset.
                    self.ctx.error("resume_snapshot");
                    self.follow.tables = vec![(s.table.clone(), Some(s.seq))];
                    if s.snapshot.result.is_some() {
                        return Ok(Some(End::Completed));
                    }
                    self.prompt = s.snapshot.prompt.clone();
                    self.paused = s.paused.is_some();
                    break;
                }
                // The table is moving between nodes, or restored and
                // waiting: asked again (for up to a minute).
                ServerMsg::Error(e) if e.code == ErrorCode::Unavailable && refusals < 240 => {
                    refusals += 1;
                    let wait = e.retry_after_ms.map(std::time::Duration::from_millis);
                    tokio::time::sleep(wait.unwrap_or(rejoin::AGAIN).min(rejoin::AGAIN * 20)).await;
                }
                // The game ended while this player was away (a finished
                // game's table never comes back): its record says how.
                ServerMsg::Error(e) if e.code == ErrorCode::NotFound => {
                    let end = self.ended_away(&table).await?;
                    self.resumed(started);
                    return Ok(Some(end));
                }
                ServerMsg::Error(e) => return Err(ClientError::Refused(e)),
                other => return Err(ClientError::Unexpected(other.type_name().into())),
            }
        }
        self.resumed(started);
        self.doing = "playing";
        if next.is_none() {
            let now = self.ctx.clock.now_us();
            *next = self
                .prompt
                .as_ref()
                .and_then(|p| self.my_move(&table, p, now))
                .map(|d| Due { at_us: now, ..d });
        }
        Ok(None)
    }

    /// A game whose table is gone: its stored record must hold its end,
    /// by black's five as every script ends (another end is counted as in
    /// [`Player::play`]).
    async fn ended_away(&mut self, table: &TableId) -> Result<End, ClientError> {
        self.doing = "reading the record of a game that ended meanwhile";
        let ask = ClientMsg::GameRecord {
            game: table.clone(),
            format: RecordFormat::Json,
        };
        let result = match rejoin::request(self.ctx, &mut self.conn, ask).await? {
            ServerMsg::GameRecord(r) => r.record.and_then(|r| r.result),
            other => return Err(ClientError::Unexpected(other.type_name().into())),
        };
        let Some(result) = result else {
            return Err(ClientError::Unexpected(format!(
                "table {table} is gone but its record has no result"
            )));
        };
        if !matches!(result.reason, ResultReason::Five { .. }) && self.me == Seat::First {
            let kind = format!("game_ended_{}", reason_name(&result.reason));
            self.ctx.error(kind);
        }
        Ok(End::Completed)
    }

    /// A resume is complete: counted and timed (from the connection's end
    /// to caught up).
    fn resumed(&self, started: std::time::Instant) {
        let mut s = self.ctx.stats();
        s.resumes += 1;
        s.record(RESUME, started.elapsed().as_micros() as u64);
    }

    /// Creates a room; a seat that the server has not freed yet (its last
    /// game ended a moment ago, perhaps on another node, whose news of it
    /// lags) is asked again, for up to a second.
    async fn create_room(&mut self) -> Result<RoomId, ClientError> {
        let mut tries = 0;
        loop {
            let r = self
                .conn
                .request(ClientMsg::CreateRoom {
                    rated: false,
                    config: Script::config(),
                    public: true,
                    name: None,
                    chat: true,
                })
                .await;
            match r {
                Ok(ServerMsg::RoomCreated { room, .. }) => return Ok(room),
                Ok(other) => return Err(ClientError::Unexpected(other.type_name().into())),
                Err(ClientError::Refused(e))
                    if e.code == tengen_protocol::ErrorCode::AlreadySeated && tries < 50 =>
                {
                    tries += 1;
                    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                }
                Err(e) => match busy_retry_after(&e) {
                    Some(wait) if !self.ctx.past_deadline() => {
                        self.ctx.stats().shed += 1;
                        tokio::time::sleep(wait).await;
                    }
                    _ => return Err(e),
                },
            }
        }
    }

    /// Relay: the creator (black) starts game after game; the joiner answers.
    async fn relay_games(&mut self, slot: &Slot) -> Result<(), ClientError> {
        let mut serial = 0u64;
        let mut next = None;
        loop {
            if self.me == Seat::First {
                serial += 1;
                let table = TableId::from_u64(((slot.n as u64) << 24) | serial);
                slot.due.start(&table, self.script.len());
                self.ctx.stats().games_started += 1;
                let at_us = self.ctx.clock.now_us() + self.first_delay_us(serial);
                next = Some(Due {
                    table,
                    number: 1,
                    at_us,
                });
            }
            match self.play(next.take(), true).await? {
                End::Completed => {
                    if self.me == Seat::First {
                        self.ctx.stats().games_completed += 1;
                    }
                    if self.ctx.past_deadline() || self.ctx.plan.scenario == Scenario::Fanout {
                        return Ok(());
                    }
                }
                End::Deadline => return Ok(()),
            }
        }
    }

    /// How long after its start a game's first move is due: a fixed
    /// fraction of the interval per slot and game, so that games that all
    /// started in the same second do not all move in the same millisecond
    /// ever after (a real crowd's moves are spread out, not synchronised).
    fn first_delay_us(&self, game: u64) -> u64 {
        let mut z = (self.slot as u64) << 32 | game;
        z = (z ^ (z >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
        z ^= z >> 33;
        self.interval_us() / 2 + z % self.interval_us().max(1)
    }

    /// The move `prompt` asks of this player, due one interval after `now`
    /// (a game's first move: see [`Player::first_delay_us`]).
    fn my_move(&self, table: &TableId, prompt: &Prompt, now: u64) -> Option<Due> {
        match prompt.task {
            Task::Place { move_number, .. } if prompt.seat == self.me => Some(Due {
                table: table.clone(),
                number: move_number,
                at_us: now
                    + if move_number == 1 {
                        self.first_delay_us(table_hash(table))
                    } else {
                        self.interval_us()
                    },
            }),
            _ => None,
        }
    }

    /// Plays until the game is over (the server's `game_over`; the relay's
    /// last scripted move) or the deadline and the drain after it. A
    /// connection the server ends (a restart) comes back and plays on.
    async fn play(&mut self, mut next: Option<Due>, relay: bool) -> Result<End, ClientError> {
        let ctx = self.ctx;
        loop {
            if let Some(due) = next.take_if(|_| !self.paused) {
                // A move made again after a resume keeps its first due time.
                if self.due_book.get(&due.table, due.number).is_none() {
                    self.due_book.set(due.number, due.at_us);
                }
                tokio::select! {
                    _ = sleep_until(ctx.clock.instant(due.at_us).into()) => {}
                    _ = sleep_until(ctx.finish_by) => return Ok(End::Deadline),
                }
                match self.send_move(&due, relay).await {
                    Ok(()) => {
                        let lag = ctx.clock.now_us().saturating_sub(due.at_us);
                        let mut s = ctx.stats();
                        s.moves += 1;
                        s.record(SEND_LAG, lag);
                    }
                    Err(e) if self.rejoin.is_some() && lost(&e) => {
                        next = Some(due);
                        if let Some(end) = self.resume_play(&mut next).await? {
                            return Ok(end);
                        }
                        continue;
                    }
                    Err(e) => return Err(e),
                }
            }
            let frame = tokio::select! {
                f = self.conn.next() => f,
                _ = sleep_until(ctx.finish_by) => return Ok(End::Deadline),
            };
            let end = match frame {
                Ok(frame) => self.on_frame(frame, &mut next, relay)?,
                Err(e) if self.rejoin.is_some() && lost(&e) => self.resume_play(&mut next).await?,
                Err(e) => return Err(e),
            };
            if let Some(end) = end {
                return Ok(end);
            }
        }
    }

    /// One frame while playing: the opponent's move timed, the next move
    /// of ours due; `Some` at the game's end.
    fn on_frame(
        &mut self,
        frame: ServerFrame,
        next: &mut Option<Due>,
        relay: bool,
    ) -> Result<Option<End>, ClientError> {
        let ctx = self.ctx;
        let now = ctx.clock.now_us();
        match frame.msg {
            ServerMsg::TableEvent(te) => {
                if !relay {
                    self.follow.check(&te.table, te.seq, &mut ctx.stats());
                }
                match &te.event {
                    Event::Moved { mv, .. } => {
                        if mv.seat != self.me
                            && let Some(due) = self.due_book.get(&te.table, mv.number)
                        {
                            let mut stats = ctx.stats();
                            stats.record(OPPONENT, now.saturating_sub(due));
                            if ctx.steady(due) {
                                stats.record(OPPONENT_STEADY, now.saturating_sub(due));
                            }
                        }
                        if relay && mv.number as usize == self.script.len() {
                            return Ok(Some(End::Completed));
                        }
                    }
                    Event::GameOver { result, .. } => {
                        // Every script ends with black's five; any other
                        // end (an abandonment, the clock, an abort) broke
                        // the game: counted once, by black.
                        if !matches!(result.reason, ResultReason::Five { .. })
                            && self.me == Seat::First
                        {
                            ctx.error(format!("game_ended_{}", reason_name(&result.reason)));
                        }
                        return Ok(Some(End::Completed));
                    }
                    _ => {}
                }
                self.prompt = te.prompt.clone();
                *next = te
                    .prompt
                    .as_ref()
                    .and_then(|p| self.my_move(&te.table, p, now));
            }
            ServerMsg::TablePaused { table, paused, .. } if self.follow.has(&table) => {
                self.paused = paused.is_some();
            }
            // The table cannot take the move now (restored after a restart,
            // it waits for both players; or it is moving between nodes):
            // made again after the time it gives, or once it runs again.
            ServerMsg::Error(e) if self.rejoin.is_some() && e.code == ErrorCode::Unavailable => {
                ctx.stats().shed += 1;
                let at = now + 1000 * e.retry_after_ms.unwrap_or(200);
                let table = self.follow.tables.first().map(|t| t.0.clone());
                *next = table
                    .zip(self.prompt.as_ref())
                    .and_then(|(t, p)| self.my_move(&t, p, now))
                    .map(|d| Due { at_us: at, ..d });
            }
            ServerMsg::Error(e) => return Err(ClientError::Refused(e)),
            _ => {}
        }
        Ok(None)
    }

    async fn send_move(&mut self, due: &Due, relay: bool) -> Result<(), ClientError> {
        let point = self.script.point(due.number).ok_or_else(|| {
            ClientError::Unexpected(format!("move {} past the script", due.number))
        })?;
        if !relay {
            self.conn
                .send(ClientMsg::Act {
                    table: due.table.clone(),
                    action: Action::place(point),
                })
                .await?;
            return Ok(());
        }
        // What the server would send for this move, for the relay to forward.
        let color = if due.number % 2 == 1 {
            Color::Black
        } else {
            Color::White
        };
        let last = due.number as usize == self.script.len();
        let prompt = (!last).then(|| Prompt {
            seat: self.me.other(),
            task: Task::Place {
                color: color.opponent(),
                move_number: due.number + 1,
                within: None,
            },
            may: vec![ActionKind::Place, ActionKind::Resign],
            other_may: vec![ActionKind::Resign],
            stones_left: None,
        });
        let event = TableEvent {
            table: due.table.clone(),
            seq: due.number as u64,
            event: Event::Moved {
                mv: Move {
                    number: due.number,
                    seat: self.me,
                    color,
                    point: Some(point),
                    board: 0,
                },
                clocks: None,
            },
            prompt,
            forbidden: Vec::new(),
        };
        let frame: ServerFrame = Envelope::push(ServerMsg::TableEvent(event));
        let bytes = encode_server(&frame, self.conn.encoding());
        let msg = if self.conn.encoding().is_text() {
            Message::Text(String::from_utf8(bytes).unwrap_or_default().into())
        } else {
            Message::Binary(bytes.into())
        };
        self.conn.send_raw(msg).await
    }

    /// Soak: this player leaves after its game and a new one (a new name,
    /// a new connection) takes the seat for the next. True to go on (always,
    /// outside a soak); false when the new one could not connect (counted)
    /// or the deadline came.
    async fn replaced(&mut self, slot: &Slot, who: &str) -> bool {
        let ctx = self.ctx;
        if ctx.plan.scenario != Scenario::Soak {
            return true;
        }
        self.generation += 1;
        let name = format!("{who}{}g{}", slot.n, self.generation);
        let Some(conn) = connect(ctx, ctx.plan.url(slot.n), &name).await else {
            return false;
        };
        let old = std::mem::replace(&mut self.conn, conn);
        let _ = tokio::time::timeout(std::time::Duration::from_secs(1), old.close()).await;
        true
    }

    async fn close(self) {
        let _ = tokio::time::timeout(std::time::Duration::from_secs(1), self.conn.close()).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_ended_otherwise_than_by_five_is_named_in_its_error_kind() {
        let abandoned = ResultReason::Abandonment { seat: Seat::First };
        assert_eq!(reason_name(&abandoned), "abandonment");
        let called = ResultReason::DrawCalled { seat: Seat::Second };
        assert_eq!(reason_name(&called), "draw_called");
    }
}
