//! The churn scenario's connection: a [`Link`] drops its socket at random
//! moments and resumes the session on a new one, checking every `seq` of
//! the table it follows (see [`crate::churn`] for why).
//!
//! It is its own module because the steps of a resume (drop, `hello.resume`,
//! `watch since`, the missed events up to `replayed`) and the bookkeeping
//! that tells a lost or doubled event from a good one are the part a reader
//! must be able to check on their own; the players and spectators around it
//! are the same as in `games`.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use tengen_client::{ClientError, Connection};
use tengen_protocol::{ClientMsg, ServerFrame, ServerMsg, TableId};
use tokio::sync::watch;
use tokio::time::sleep_until;

use crate::games::connect_welcome;
use crate::run::Ctx;
use crate::stats::RESUME;

/// A small seeded generator (splitmix64): drop times only, no crate needed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// An exponentially distributed wait of mean `mean` (drops as a Poisson
    /// process: as likely at any moment, whatever happened before).
    pub fn exp(&mut self, mean: Duration) -> Duration {
        let u = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64; // [0, 1)
        mean.mul_f64(-(1.0 - u).ln())
    }
}

/// What [`Link::next`] hands over.
pub enum Got {
    /// A frame; `replayed`: it came again after a resume.
    Frame(Box<ServerFrame>, bool),
    /// A resume is complete: every missed event has been delivered.
    CaughtUp,
    /// The `wake` instant passed.
    Wake,
    /// The watched channel changed (spectators: the slot has a new table).
    Changed,
    Deadline,
}

/// One simulated client's connection, dropped and resumed at random, with
/// every `seq` of the table it follows checked.
pub struct Link<'a> {
    ctx: &'a Ctx,
    conn: Option<Connection>,
    url: String,
    name: String,
    token: Option<String>,
    rng: Rng,
    next_drop: tokio::time::Instant,
    /// Whether drops may happen now (mid-game only).
    pub armed: bool,
    /// The table followed and the last `seq` delivered of it.
    pub follow: Option<(TableId, u64)>,
    /// Frames read during a resume, still to deliver.
    queue: VecDeque<Got>,
    /// Events at or below this `seq` of the followed table were replayed.
    pub replayed_to: u64,
    /// Drops since the last [`Link::take_dropped`].
    dropped: bool,
}

impl<'a> Link<'a> {
    pub async fn open(ctx: &'a Ctx, url: &str, name: String, seed: u64) -> Option<Link<'a>> {
        let (conn, welcome) = connect_welcome(ctx, url, &name).await?;
        let token = welcome.resume_token;
        let mut rng = Rng::new(seed ^ ctx.plan.seed);
        let next_drop = tokio::time::Instant::now() + rng.exp(ctx.plan.drop_every);
        Some(Link {
            ctx,
            conn: Some(conn),
            url: url.to_string(),
            name,
            token,
            rng,
            next_drop,
            armed: false,
            follow: None,
            queue: VecDeque::new(),
            replayed_to: 0,
            dropped: false,
        })
    }

    pub fn conn(&mut self) -> &mut Connection {
        self.conn
            .as_mut()
            .expect("a link is connected between calls")
    }

    /// Whether the link dropped since the last call.
    pub fn take_dropped(&mut self) -> bool {
        std::mem::take(&mut self.dropped)
    }

    pub async fn request(&mut self, msg: ClientMsg) -> Result<ServerMsg, ClientError> {
        self.conn().request(msg).await
    }

    pub async fn send(&mut self, msg: ClientMsg) -> Result<(), ClientError> {
        self.conn().send(msg).await.map(|_| ())
    }

    /// The next frame (pushes and replies of `send`), or `Wake` at `wake`,
    /// `Changed` when `changed` does, or `Deadline`; drops and resumes on
    /// the way when armed. Not cancel-safe (a resume cut in half would leave
    /// no connection): the wake-ups a caller needs are its arguments, so
    /// that no caller has to select around it.
    pub async fn next(
        &mut self,
        wake: Option<tokio::time::Instant>,
        mut changed: Option<&mut watch::Receiver<Option<TableId>>>,
    ) -> Result<Got, ClientError> {
        loop {
            if let Some(g) = self.queue.pop_front() {
                return Ok(g);
            }
            let ctx = self.ctx;
            let far = ctx.deadline + Duration::from_secs(3600);
            let drop_at = if self.armed { self.next_drop } else { far };
            let conn = self.conn.as_mut().expect("connected");
            let frame = tokio::select! {
                f = conn.next() => f,
                _ = sleep_until(wake.unwrap_or(far)), if wake.is_some() => return Ok(Got::Wake),
                c = async { changed.as_mut().expect("guarded").changed().await }, if changed.is_some() => {
                    return Ok(if c.is_ok() { Got::Changed } else { Got::Deadline });
                }
                _ = sleep_until(drop_at), if self.armed => {
                    self.drop_and_resume().await?;
                    continue;
                }
                _ = sleep_until(ctx.deadline) => return Ok(Got::Deadline),
            };
            let frame = match frame {
                Err(ClientError::Timeout(_)) => continue,
                f => f?,
            };
            if let Some(g) = self.check(frame) {
                return Ok(g);
            }
        }
    }

    /// Checks a frame's `seq` against the followed table: a duplicate is
    /// counted and not delivered, a gap is counted and delivered.
    fn check(&mut self, frame: ServerFrame) -> Option<Got> {
        let mut replayed = false;
        match &frame.msg {
            ServerMsg::TableEvent(te) => {
                if let Some((table, last)) = &mut self.follow
                    && *table == te.table
                {
                    if te.seq <= *last {
                        let mut s = self.ctx.stats();
                        s.events_duplicated += 1;
                        s.error("event_duplicated");
                        return None;
                    }
                    if te.seq > *last + 1 {
                        let mut s = self.ctx.stats();
                        s.events_lost += te.seq - *last - 1;
                        s.error("event_lost");
                    }
                    *last = te.seq;
                    replayed = te.seq <= self.replayed_to;
                }
            }
            ServerMsg::TableSnapshot(s)
                if self.follow.as_ref().is_none_or(|(t, _)| *t == s.table) =>
            {
                self.follow = Some((s.table.clone(), s.seq));
            }
            _ => {}
        }
        Some(Got::Frame(Box::new(frame), replayed))
    }

    /// Drops the connection without a word and resumes the session on a new
    /// one, then the followed table from its last `seq`.
    async fn drop_and_resume(&mut self) -> Result<(), ClientError> {
        let ctx = self.ctx;
        let started = Instant::now();
        // The socket just ends: no close frame, as when the network dies.
        drop(self.conn.take());
        self.dropped = true;
        self.next_drop = tokio::time::Instant::now() + self.rng.exp(ctx.plan.drop_every);
        let token = self
            .token
            .clone()
            .ok_or_else(|| ClientError::Unexpected("welcome without resume_token".into()))?;
        let (mut conn, welcome) = Connection::reconnect(
            &self.url,
            ctx.plan.encoding,
            Some(&self.name),
            &token,
            Duration::from_secs(10),
        )
        .await?;
        conn.timeout = (ctx.plan.move_interval * 4).max(Duration::from_secs(10));
        if !welcome.resumed {
            ctx.error("resume_refused");
        }
        self.token = welcome.resume_token.or(Some(token));
        if let Some((table, since)) = self.follow.clone() {
            let id = conn
                .send(ClientMsg::Watch {
                    table: table.clone(),
                    since: Some(since),
                })
                .await?;
            self.conn = Some(conn);
            loop {
                let frame = self.conn().next().await?;
                if frame.id != Some(id) {
                    if let Some(g) = self.check(frame) {
                        self.queue.push_back(g);
                    }
                    continue;
                }
                match frame.msg {
                    ServerMsg::Replayed { seq, .. } => {
                        self.replayed_to = seq;
                        let have = self.follow.as_ref().map_or(0, |f| f.1);
                        if have < seq {
                            let mut s = ctx.stats();
                            s.events_lost += seq - have;
                            s.error("event_lost");
                        }
                    }
                    ServerMsg::TableSnapshot(_) => {
                        // The gap was older than the table keeps: a reset.
                        ctx.error("resume_snapshot");
                        if let Some(g) = self.check(frame) {
                            self.queue.push_back(g);
                        }
                    }
                    ServerMsg::Error(e) => return Err(ClientError::Refused(e)),
                    other => return Err(ClientError::Unexpected(other.type_name().into())),
                }
                break;
            }
        } else {
            self.conn = Some(conn);
        }
        self.queue.push_back(Got::CaughtUp);
        let mut s = ctx.stats();
        s.resumes += 1;
        s.record(RESUME, started.elapsed().as_micros() as u64);
        Ok(())
    }

    pub async fn close(mut self) {
        if let Some(c) = self.conn.take() {
            let _ = tokio::time::timeout(Duration::from_secs(1), c.close()).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drop_times_are_seeded_and_average_the_mean() {
        let mean = Duration::from_secs(2);
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        let xs: Vec<Duration> = (0..20_000).map(|_| a.exp(mean)).collect();
        let ys: Vec<Duration> = (0..20_000).map(|_| b.exp(mean)).collect();
        assert_eq!(xs, ys, "the same seed, the same drops");
        let avg = xs.iter().sum::<Duration>().as_secs_f64() / xs.len() as f64;
        assert!((avg - 2.0).abs() < 0.1, "mean {avg}");
        assert_ne!(Rng::new(8).exp(mean), Rng::new(7).exp(mean));
    }

    fn ctx() -> std::sync::Arc<Ctx> {
        use crate::run::{Plan, Scenario, Target};
        Ctx::new(Plan {
            scenario: Scenario::Churn,
            target: Target::Server,
            urls: vec!["ws://127.0.0.1:1/ws".into()],
            encoding: tengen_protocol::Encoding::Json,
            connections: 0..0,
            slots: 0..0,
            spectators: 0,
            fanout_players: false,
            fanout_file: None,
            move_interval: Duration::from_secs(1),
            duration: Duration::from_secs(1),
            drain: Duration::ZERO,
            script: std::sync::Arc::new(crate::script::Script::new(9).unwrap()),
            connect_concurrency: 1,
            drop_every: Duration::from_secs(1),
            seed: 1,
        })
    }

    fn event(table: &TableId, seq: u64) -> ServerFrame {
        use tengen_rules::game::{Event, Move, Seat};
        ServerFrame::push(ServerMsg::TableEvent(tengen_protocol::TableEvent {
            table: table.clone(),
            seq,
            event: Event::Moved {
                mv: Move {
                    number: seq as u32,
                    seat: Seat::First,
                    color: tengen_rules::Color::Black,
                    point: None,
                    board: 0,
                },
                clocks: None,
            },
            prompt: None,
            forbidden: Vec::new(),
        }))
    }

    #[test]
    fn a_doubled_event_is_held_back_and_a_gap_is_counted_both_as_errors() {
        let ctx = ctx();
        let t = TableId::from_u64(9);
        let mut link = Link {
            ctx: &ctx,
            conn: None,
            url: String::new(),
            name: String::new(),
            token: None,
            rng: Rng::new(1),
            next_drop: tokio::time::Instant::now(),
            armed: false,
            follow: Some((t.clone(), 3)),
            queue: VecDeque::new(),
            replayed_to: 4,
            dropped: false,
        };
        assert!(matches!(
            link.check(event(&t, 4)),
            Some(Got::Frame(_, true))
        ));
        assert!(
            link.check(event(&t, 4)).is_none(),
            "a duplicate is not delivered"
        );
        assert!(matches!(
            link.check(event(&t, 7)),
            Some(Got::Frame(_, false))
        ));
        // Another table's late event is delivered and not checked.
        assert!(link.check(event(&TableId::from_u64(1), 1)).is_some());
        let s = ctx.stats();
        assert_eq!((s.events_duplicated, s.events_lost), (1, 2));
        assert_eq!(s.errors["event_duplicated"], 1);
        assert_eq!(s.errors["event_lost"], 1);
        assert_eq!(link.follow.as_ref().unwrap().1, 7);
    }
}
