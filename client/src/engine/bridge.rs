//! One engine through a game: readied for each game (`RESTART`, or a
//! fresh `START`), told the rules and the time, asked for stones, and when
//! it fails restarted once and told the game by `BOARD`; a second failure
//! in the same game is the caller's signal to resign.
//!
//! Why a module of its own: the restart policy is the bridge's promise to
//! the engine's owner (a bad engine costs one game, never a hang), and it
//! is kept in one place.

use std::time::{Duration, Instant};

use tengen_rules::game::{GameConfig, Millis};
use tengen_rules::{Board, Color, Point, Variant};

use super::clock::TurnTime;
use super::policy::Policy;
use super::process::{Engine, EngineError};
use super::sync::{Ask, Sync};
use super::types::{Dialect, EngineSpec, Ext, Extensions, Log, Note};
use crate::piskvork::to_xy;

/// How much longer a game's first request is waited for (see
/// [`Bridge::wait_for`]).
const HASH_WAIT: Duration = Duration::from_secs(10);

/// The bridge's time settings.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// For the engine to start and answer `START` or `RESTART`.
    pub start: Duration,
    /// Kept in hand on every move, on top of the measured lag.
    pub margin_ms: Millis,
    /// The most one move may take (an untimed game moves on, and the
    /// connection is not left unread for long).
    pub cap_ms: Millis,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            start: Duration::from_secs(10),
            margin_ms: 400,
            cap_ms: 10_000,
        }
    }
}

/// A stone wanted from the engine.
#[derive(Clone, Copy, Debug)]
pub struct MoveRequest<'a> {
    pub board: &'a Board,
    /// The stones on the board in the order they were played.
    pub stones: &'a [(Point, Color)],
    pub own: Color,
    pub variant: Variant,
    pub time: TurnTime,
}

/// An engine and what it knows.
pub struct Bridge {
    spec: EngineSpec,
    pub(super) timing: Timing,
    pub(super) log: Log,
    pub(super) engine: Option<Engine>,
    pub(super) sync: Sync,
    config: Option<GameConfig>,
    failures: u32,
    policy: Policy,
    /// Which opening extensions this engine answered in this game.
    pub(super) ext: Extensions,
    /// Stones the engine chose ahead (Swap2's three, or its white 6),
    /// each with the number of stones on the board when it is played.
    pub(super) plan: Vec<(usize, Point)>,
    /// The extension our latest action came from, if any: a refusal of
    /// that action turns the extension off for the game.
    pub(super) last_ext: Option<Ext>,
    /// A new game's engine was told its memory and has been asked nothing
    /// since: it may still be allocating a hash table of that size.
    settling: bool,
}

impl Bridge {
    pub fn new(spec: EngineSpec, timing: Timing, log: Log) -> Bridge {
        Bridge {
            spec,
            timing,
            log,
            engine: None,
            sync: Sync::default(),
            config: None,
            failures: 0,
            policy: Policy::default(),
            ext: Extensions::default(),
            plan: Vec::new(),
            last_ext: None,
            settling: false,
        }
    }

    /// The bridge with the owner's draw and resignation policies.
    pub fn with_policy(mut self, policy: Policy) -> Bridge {
        self.policy = policy;
        self
    }

    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// The engine's latest reported evaluation in this game, if any.
    pub fn eval(&self) -> Option<i32> {
        self.engine.as_ref().and_then(|e| e.last_eval)
    }

    pub fn timing(&self) -> Timing {
        self.timing
    }

    /// Readies the engine for a new game of `config`: `RESTART` if one
    /// runs on a board of that size, else a fresh engine and `START`.
    /// An error here means the engine does not start cleanly.
    pub async fn new_game(&mut self, config: &GameConfig) -> Result<(), EngineError> {
        let same_size = self
            .config
            .as_ref()
            .is_some_and(|c| c.board_size == config.board_size);
        self.failures = 0;
        self.ext = Extensions::default();
        self.plan.clear();
        self.last_ext = None;
        self.sync.forget();
        self.config = Some(config.clone());
        if let Some(e) = self.engine.as_mut() {
            e.last_eval = None;
        }
        if let Some(e) = self.engine.as_mut().filter(|_| same_size)
            && e.send("RESTART").await.is_ok()
            && e.expect_ok(self.timing.start).await.is_ok()
        {
            self.tell_rules().await?;
        } else {
            self.respawn().await?;
        }
        self.sync.fresh();
        self.settling = self.spec.told_memory() > 0;
        Ok(())
    }

    /// The engine after a lost connection or a refused move: it is told
    /// the whole board next time.
    pub fn forget(&mut self) {
        self.sync.forget();
        self.plan.clear();
    }

    /// The server refused our latest action: the engine is told the whole
    /// board next, and if the action was an extension's answer, that
    /// extension is not asked again in this game.
    pub fn refused(&mut self) {
        self.forget();
        if let Some(ext) = self.last_ext.take() {
            self.ext.set(ext, false);
            (self.log)(Note::Unsupported {
                command: ext.command(),
                why: "the server refused the action from its answer".into(),
            });
        }
    }

    /// The engine's stone. On a failure the engine is restarted once and
    /// asked again with `BOARD`; an error means it failed twice in this
    /// game (the caller resigns).
    pub async fn stone(&mut self, req: &MoveRequest<'_>) -> Result<Point, EngineError> {
        let started = Instant::now();
        let first = match self.attempt(req).await {
            Ok(p) => return Ok(p),
            Err(e) => e,
        };
        self.failures += 1;
        if self.failures >= 2 {
            return Err(self.give_up(first));
        }
        (self.log)(Note::Failed {
            error: first.to_string(),
            then: "restarting the engine and sending the board".into(),
        });
        self.engine = None;
        let again = match self.respawn().await {
            Ok(()) => {
                // The clock ran meanwhile.
                let retry = MoveRequest {
                    time: req.time.after(started.elapsed().as_millis() as u64),
                    ..*req
                };
                self.attempt(&retry).await
            }
            Err(e) => Err(e),
        };
        again.map_err(|e| {
            self.failures += 1;
            self.give_up(e)
        })
    }

    fn give_up(&mut self, e: EngineError) -> EngineError {
        (self.log)(Note::Failed {
            error: e.to_string(),
            then: "the engine failed twice in this game: resigning".into(),
        });
        // Killed: the next game starts a fresh one.
        self.engine = None;
        e
    }

    /// Ends the engine (`END`, then a kill if it lingers).
    pub async fn shutdown(mut self) {
        if let Some(e) = self.engine.take() {
            e.stop().await;
        }
    }

    pub(super) async fn respawn(&mut self) -> Result<(), EngineError> {
        self.engine = None;
        self.sync.forget();
        let size = self.config.as_ref().map_or(15, |c| c.board_size);
        let mut e = Engine::spawn(&self.spec, self.log.clone())?;
        e.send(&format!("START {size}")).await?;
        e.expect_ok(self.timing.start).await?;
        self.engine = Some(e);
        self.tell_rules().await
    }

    async fn tell_rules(&mut self) -> Result<(), EngineError> {
        let dialect = self.spec.dialect;
        let rule = match &self.config {
            None => 0,
            Some(c) => dialect.rule_value(c.rule_set).ok_or_else(|| {
                EngineError::Refused("a Piskvork engine plays one board, not a twin room".into())
            })?,
        };
        let memory = self.spec.told_memory();
        let e = self.engine.as_mut().ok_or_else(not_running)?;
        e.send(&format!("INFO rule {rule}")).await?;
        e.send(&format!("INFO max_memory {memory}")).await?;
        if dialect == Dialect::Yixin && memory > 0 {
            e.send(&format!("INFO hash_size {}", memory >> 10)).await?;
        }
        e.send("INFO game_type 0").await
    }

    /// How long the answer to a request with `t` is waited for
    /// ([`answer_wait`]); a game's first request gets [`HASH_WAIT`] more
    /// when the clock could pay for it twice (a restart and a retry must
    /// still fit before the flag): an engine that sizes its hash table to
    /// the memory it is told allocates it before it reads the request
    /// (Rapfi took 3 to 10 s for 768 MiB on a busy two-core machine, and
    /// its first Swap2 answer came too late).
    pub(super) fn wait_for(&mut self, t: TurnTime) -> Duration {
        let wait = answer_wait(t, self.timing.margin_ms);
        let longer = wait + HASH_WAIT;
        if std::mem::take(&mut self.settling) && Duration::from_millis(t.clock_bound) >= 2 * longer
        {
            longer
        } else {
            wait
        }
    }

    async fn attempt(&mut self, req: &MoveRequest<'_>) -> Result<Point, EngineError> {
        let ask = self.sync.ask(req.stones, req.own);
        // Whatever happens next, the engine's board is known again only
        // once it answers well.
        self.sync.forget();
        let t = req.time;
        let wait = self.wait_for(t);
        let e = self.engine.as_mut().ok_or_else(not_running)?;
        let size = req.board.size();
        send_time(e, t).await?;
        match ask {
            Ask::Begin => e.send("BEGIN").await?,
            Ask::Turn(p) => e.send(&format!("TURN {}", to_xy(p, size))).await?,
            Ask::Board(stones) => {
                e.send("BOARD").await?;
                for (p, own) in stones {
                    let field = if own { 1 } else { 2 };
                    e.send(&format!("{},{field}", to_xy(p, size))).await?;
                }
                e.send("DONE").await?;
            }
        }
        let p = e.expect_point(size, wait).await?;
        check(req, p)?;
        self.sync.played(req.stones, req.own, p);
        Ok(p)
    }
}

/// How long the engine's answer to a request with `t` is waited for: its
/// turn and a grace, a tenth of the turn (at least half the margin: the
/// other half covers the lag), but never past what the clock allows
/// (`clock_bound` and half the margin). An engine stopping at its limit
/// on a busy machine answers a few hundred milliseconds late (Rapfi at
/// ten seconds a move, beside two other searches on two cores); when the
/// turn was only capped by `--max-turn-ms` the clock has room for that.
pub(super) fn answer_wait(t: TurnTime, margin_ms: Millis) -> Duration {
    let grace = (margin_ms / 2).max(t.timeout_turn / 10);
    let bound = t.clock_bound.saturating_add(margin_ms / 2);
    let wait = (t.timeout_turn + grace).min(bound.max(t.timeout_turn + margin_ms / 2));
    Duration::from_millis(wait)
}

/// The turn's time limits, before a request.
pub(super) async fn send_time(e: &mut Engine, t: TurnTime) -> Result<(), EngineError> {
    e.send(&format!("INFO timeout_match {}", t.timeout_match))
        .await?;
    e.send(&format!("INFO time_left {}", t.time_left)).await?;
    e.send(&format!("INFO timeout_turn {}", t.timeout_turn))
        .await
}

pub(super) fn not_running() -> EngineError {
    EngineError::Exited("not running".into())
}

/// Whether the referee would take `p` from the engine: an empty point,
/// and for black in renju not a forbidden one (the referee judges).
fn check(req: &MoveRequest<'_>, p: Point) -> Result<(), EngineError> {
    let illegal = |why: &str| EngineError::Illegal {
        point: p.to_string(),
        why: why.into(),
    };
    if !req.board.is_empty_point(p) {
        return Err(illegal("occupied"));
    }
    if req.variant == Variant::Renju && req.own == Color::Black && req.board.forbidden(p).is_some()
    {
        return Err(illegal("forbidden for black"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::clock::turn_time;
    use tengen_rules::game::{SeatClock, TimeControl};

    #[test]
    fn a_capped_turn_gets_a_tenth_more_a_clock_bound_one_half_the_margin() {
        let control = TimeControl::Fischer {
            main_ms: 300_000,
            increment_ms: 3_000,
        };
        // Five minutes left, the turn capped at ten seconds: eleven.
        let t = turn_time(control, SeatClock::start(control), 400, 10_000);
        assert_eq!(t.timeout_turn, 10_000);
        assert_eq!(answer_wait(t, 400), Duration::from_millis(11_000));
        // Three seconds left: the clock's bound and half the margin.
        let short = SeatClock {
            main_ms: 3_000,
            ..SeatClock::start(control)
        };
        let t = turn_time(control, short, 400, 10_000);
        assert_eq!(t.timeout_turn, 2_600);
        assert_eq!(answer_wait(t, 400), Duration::from_millis(2_800));
    }

    #[test]
    fn the_first_request_after_the_memory_is_told_waits_the_start_time_more() {
        let control = TimeControl::Fischer {
            main_ms: 300_000,
            increment_ms: 3_000,
        };
        let log: Log = std::sync::Arc::new(|_| {});
        let mut b = Bridge::new(
            EngineSpec::new("engine", Vec::new()),
            Timing::default(),
            log,
        );
        let t = turn_time(control, SeatClock::start(control), 400, 10_000);
        b.settling = true;
        assert_eq!(b.wait_for(t), Duration::from_millis(21_000));
        assert_eq!(b.wait_for(t), Duration::from_millis(11_000));
        // Not when the clock could not pay for it twice: a restart and a
        // retry must still fit.
        let short = SeatClock {
            main_ms: 40_000,
            ..SeatClock::start(control)
        };
        let t = turn_time(control, short, 400, 10_000);
        b.settling = true;
        assert_eq!(b.wait_for(t), Duration::from_millis(11_000));
    }
}
