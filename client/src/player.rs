//! A bot player for a client: the built-in bot at a level of its ladder
//! ([`tengen_bot`]), or the quick bot ([`crate::bot`]) in the rooms the
//! built-in bot does not play (two boards).
//!
//! Why a module of its own: `tengen bot --level N` and anything else that
//! seats a bot take one decision per prompt from what a [`TableView`]
//! holds; the time it may take is our seat's clock less a margin (the
//! engine bridge's arithmetic, [`crate::engine::clock`]), at most a cap a
//! move so that people are not kept waiting, and the search runs on a
//! blocking thread so the task that owns the session is not stalled by
//! the CPU (it is still not read until the answer comes, as with an
//! engine: the cap keeps that well inside the server's ping interval).

use std::time::Instant;

use tengen_bot::{Bot, Level, Situation as Position, TimeBudget};
use tengen_rules::game::{Action, Prompt, SeatClock, TimeControl};

use crate::bot::{Situation, decide};
use crate::engine::clock::turn_time;
use crate::view::TableView;

/// Kept in hand on every move (for the lag and the blocking thread).
pub const MARGIN_MS: u64 = 300;

/// A bot that plays a seat.
pub struct Player {
    bot: Option<Bot>,
    seed: u64,
    cap_ms: u64,
    /// Taken for each search, when set (a server's CPU slots).
    slots: Option<std::sync::Arc<tokio::sync::Semaphore>>,
}

impl Player {
    /// The built-in bot at `level` (the quick bot when `None`), thinking
    /// at most `cap_ms` a move.
    pub fn new(level: Option<Level>, seed: u64, cap_ms: u64) -> Player {
        Player {
            bot: level.map(|l| Bot::new(l, seed)),
            seed,
            cap_ms,
            slots: None,
        }
    }

    /// The player taking one of `slots` for each search (waiting at most
    /// half the move's time for one; without, the quick bot answers).
    pub fn with_slots(mut self, slots: std::sync::Arc<tokio::sync::Semaphore>) -> Player {
        self.slots = Some(slots);
        self
    }

    pub fn level(&self) -> Option<Level> {
        self.bot.as_ref().map(Bot::level)
    }

    /// The action for `prompt` (ours) at `view`'s table.
    pub async fn decide(&mut self, view: &TableView, prompt: &Prompt, seed: u64) -> Action {
        let quick = || {
            let s = Situation::from_moves(view.board(), view.config(), view.moves())
                .with_second(view.board_at(1));
            decide(&s, prompt, seed ^ self.seed)
        };
        if view.config().rule_set.boards() > 1 {
            return quick();
        }
        let budget = self.budget(view);
        let permit = match &self.slots {
            None => None,
            Some(slots) => {
                let wait = std::time::Duration::from_millis(budget.turn_ms / 2);
                match tokio::time::timeout(wait, slots.clone().acquire_owned()).await {
                    Ok(Ok(permit)) => Some(permit),
                    _ => return quick(),
                }
            }
        };
        let Some(mut bot) = self.bot.take() else {
            return quick();
        };
        let board = view.board().clone();
        let config = view.config().clone();
        let last_stone = view.moves().last().and_then(|m| m.point);
        let prompt = prompt.clone();
        let started = Instant::now();
        let thought = tokio::task::spawn_blocking(move || {
            let _slot = permit;
            let clock = move || started.elapsed().as_millis() as u64;
            let s = Position {
                board: &board,
                config: &config,
                last_stone,
            };
            let action = bot.decide(&s, &prompt, &clock, budget);
            (bot, action)
        })
        .await;
        match thought {
            Ok((bot, action)) => {
                self.bot = Some(bot);
                action
            }
            // The thread panicked: the quick bot answers, the level is lost.
            Err(_) => quick(),
        }
    }

    /// The time this move may take: our clock less the margin, at most
    /// the cap.
    fn budget(&self, view: &TableView) -> TimeBudget {
        let control = view.config().time;
        let clock = view
            .seat()
            .and_then(|seat| view.clock_now(Instant::now()).map(|c| c.seat(seat)))
            .unwrap_or_else(|| SeatClock::start(control));
        let t = turn_time(control, clock, MARGIN_MS, self.cap_ms);
        let increment_ms = match control {
            TimeControl::Fischer { increment_ms, .. } => increment_ms,
            _ => 0,
        };
        TimeBudget {
            turn_ms: t.timeout_turn,
            left_ms: if t.timeout_match == 0 {
                u64::MAX
            } else {
                t.time_left
            },
            increment_ms,
        }
    }
}

/// Something the game loop says on the way (the caller prints or logs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Said {
    /// The connection dropped, or came back.
    Link(String),
    /// The server refused our action (`retrying`: it was busy).
    Refused { message: String, retrying: bool },
    /// The table is paused (why), or `None`: going on.
    Paused(Option<tengen_protocol::PauseReason>),
}

/// Why a game could not be played to its end.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    #[error(transparent)]
    Session(#[from] crate::session::SessionError),
    #[error(transparent)]
    View(#[from] crate::view::ViewError),
    #[error(transparent)]
    Gone(#[from] crate::follow::TableGone),
    #[error("the game ended without a result")]
    NoResult,
}

/// Refusals in a row after which the player resigns rather than loop.
pub const MAX_REFUSALS: u32 = 3;

/// Plays the game at `view`'s table to its end with `player`, through
/// dropped connections and server restarts (the session reconnects, the
/// turn is decided again once the table is followed again). `seed` varies
/// the decisions; `think` is waited before each action (so a person can
/// follow); `event` hears every new event (after it is in the view),
/// `said` the rest.
pub async fn play(
    session: &mut crate::Session,
    view: &mut TableView,
    player: &mut Player,
    seed: u64,
    think: std::time::Duration,
    event: &mut (dyn FnMut(&TableView) + Send),
    said: &mut (dyn FnMut(Said) + Send),
) -> Result<tengen_rules::game::GameResult, GameError> {
    use std::time::Duration;
    use tengen_protocol::{ClientMsg, ErrorCode, RequestId, ServerMsg};

    use crate::follow::{Follow, Step, reconnected};
    use crate::view::ViewError;

    let mut pending: Option<RequestId> = None;
    let mut acted_at: Option<u64> = None;
    let mut follow = Follow::new(view.table().clone());
    let mut refusals = 0;
    let mut backoff = Duration::ZERO;
    while !view.is_over() {
        let can_act = !follow.syncing() && view.paused().is_none() && session.is_connected();
        if can_act && pending.is_none() && view.my_turn() && acted_at != Some(view.seq()) {
            let prompt = view.prompt().expect("my turn").clone();
            let action = if refusals >= MAX_REFUSALS {
                Action::Resign
            } else {
                let seed = seed ^ view.seq() ^ (u64::from(refusals) << 32);
                player.decide(view, &prompt, seed).await
            };
            let wait = think + std::mem::take(&mut backoff);
            if !wait.is_zero() {
                tokio::time::sleep(wait).await;
            }
            acted_at = Some(view.seq());
            let act = ClientMsg::Act {
                table: view.table().clone(),
                action,
            };
            // Dropped: the session says so next, then resyncs.
            if let Ok(id) = session.send(act).await {
                pending = Some(id);
            }
        }
        let frame = match follow.take(session.next().await?)? {
            Step::Frame(f) => f,
            Step::Lost(reason) => {
                said(Said::Link(format!(
                    "connection lost ({reason}): reconnecting"
                )));
                pending = None;
                continue;
            }
            Step::Reconnected { resumed } => {
                said(Said::Link(reconnected(resumed).into()));
                continue;
            }
            Step::Resynced => {
                // Up to date now: if it is still our turn at the same
                // seq, the action sent before the drop never landed.
                acted_at = None;
                continue;
            }
            Step::Other => continue,
        };
        if frame.id.is_some() && frame.id == pending {
            pending = None;
            match &frame.msg {
                ServerMsg::Error(e) if e.code == ErrorCode::Unavailable => {
                    said(Said::Refused {
                        message: e.message.clone(),
                        retrying: true,
                    });
                    acted_at = None;
                    backoff = Duration::from_millis(500);
                }
                ServerMsg::Error(e) => {
                    refusals += 1;
                    said(Said::Refused {
                        message: e.message.clone(),
                        retrying: false,
                    });
                    acted_at = None;
                }
                _ => refusals = 0,
            }
        }
        if let ServerMsg::TablePaused { paused, .. } = &frame.msg {
            said(Said::Paused(*paused));
            if paused.is_none() {
                acted_at = None;
            }
        }
        let seq = view.seq();
        match view.handle(&frame.msg, Instant::now()) {
            Ok(_) => {}
            Err(ViewError::Gap { .. } | ViewError::Inconsistent { .. }) => {
                let table = view.table().clone();
                let _ = session.send(ClientMsg::Snapshot { table }).await;
            }
            Err(e) => return Err(e.into()),
        }
        if view.seq() == seq + 1 {
            event(view);
        }
    }
    view.result().cloned().ok_or(GameError::NoResult)
}
