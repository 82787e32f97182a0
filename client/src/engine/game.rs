//! One game on a [`Session`] with the engine playing our seat: the
//! table's events kept in a [`TableView`], each prompt for our seat
//! answered by the engine (stones) or the bot (everything else, see the
//! policy in [`super`]), the clock turned into the engine's time, and the
//! round trip of our actions measured as the lag kept in hand.
//!
//! Why a module of its own: it is the only part that touches the server;
//! the engine side ([`super::Bridge`]) knows nothing of sessions.
//!
//! While the engine thinks the connection is not read (the session has no
//! background task); the turn's cap (`Timing::cap_ms`, 10 s by default)
//! keeps that well inside the server's ping interval and idle timeout, and
//! whatever arrived meanwhile is read right after the move is sent.

use std::time::{Duration, Instant};

use tengen_protocol::{ClientMsg, ErrorCode, RequestId, ServerMsg};
use tengen_rules::game::{Action, ActionKind, GameResult, SeatClock, Task};
use tengen_rules::{Color, Point};

use super::bridge::{Bridge, MoveRequest};
use super::clock::{TurnTime, turn_time};
use super::opening::{OpeningAsk, engine_opening};
use super::types::{Log, Note};
use crate::bot::{Situation, decide};
use crate::follow::{Follow, Step, reconnected};
use crate::session::{Session, SessionError};
use crate::view::{TableView, ViewError};

/// Refusals of our actions in a row after which the bridge resigns rather
/// than loop.
const MAX_REFUSALS: u32 = 3;

/// The wait before sending again what a busy server (`unavailable`) did
/// not take.
const BACKOFF: Duration = Duration::from_millis(500);

/// How a game ended for the bridge.
#[derive(Clone, Debug)]
pub struct GameEnd {
    pub result: GameResult,
    /// The engine failed (twice, or did not start): the bridge resigned,
    /// and should take no new game until the engine starts cleanly.
    pub engine_failed: bool,
}

/// Why a game could not be followed to its end.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    #[error(transparent)]
    Session(#[from] SessionError),
    #[error(transparent)]
    View(#[from] ViewError),
    #[error("the table is gone: {0}")]
    TableLost(String),
    #[error("not a player at this table")]
    NotSeated,
    #[error("the game ended without a result")]
    NoResult,
}

/// Plays the game at `view`'s table to its end with `bridge`'s engine
/// (readied here for the game); `seed` varies the bot's decisions.
pub async fn play(
    session: &mut Session,
    view: &mut TableView,
    bridge: &mut Bridge,
    seed: u64,
    log: &Log,
) -> Result<GameEnd, PlayError> {
    view.seat().ok_or(PlayError::NotSeated)?;
    let mut engine_failed = false;
    if let Err(e) = bridge.new_game(view.config()).await {
        log(Note::Failed {
            error: e.to_string(),
            then: "the engine does not start: resigning this game".into(),
        });
        engine_failed = true;
    }
    let mut pending: Option<(RequestId, Instant)> = None;
    let mut acted_at: Option<u64> = None;
    let mut follow = Follow::new(view.table().clone());
    let mut refusals = 0;
    let mut lag_ms: u64 = 0;
    let mut last: Option<(u64, Action)> = None;
    let mut backoff = Duration::ZERO;
    while !view.is_over() {
        let can_act = !follow.syncing() && view.paused().is_none() && session.is_connected();
        if can_act && pending.is_none() && view.my_turn() && acted_at != Some(view.seq()) {
            let action = match last.take() {
                // Not landed (the server busy, the link dropped): the same
                // action again, the engine is not asked twice.
                Some((seq, action)) if seq == view.seq() => action,
                _ if engine_failed || refusals >= MAX_REFUSALS => Action::Resign,
                _ => match choose(view, bridge, seed ^ view.seq(), lag_ms, log).await {
                    Some(a) => a,
                    None => {
                        engine_failed = true;
                        Action::Resign
                    }
                },
            };
            if !std::mem::take(&mut backoff).is_zero() {
                tokio::time::sleep(BACKOFF).await;
            }
            acted_at = Some(view.seq());
            last = Some((view.seq(), action));
            let act = ClientMsg::Act {
                table: view.table().clone(),
                action,
            };
            match session.send(act).await {
                Ok(id) => pending = Some((id, Instant::now())),
                Err(SessionError::Dropped) => {}
                Err(e) => return Err(e.into()),
            }
        }
        let step = follow.take(session.next().await?);
        let frame = match step.map_err(|e| PlayError::TableLost(e.0))? {
            Step::Frame(f) => f,
            Step::Lost(reason) => {
                log(Note::Link(format!(
                    "connection lost ({reason}): reconnecting"
                )));
                pending = None;
                bridge.forget();
                continue;
            }
            Step::Reconnected { resumed } => {
                log(Note::Link(reconnected(resumed).into()));
                continue;
            }
            Step::Resynced => {
                acted_at = None;
                continue;
            }
            Step::Other => continue,
        };
        if let Some((id, sent)) = pending
            && frame.id == Some(id)
        {
            pending = None;
            let rtt = sent.elapsed().as_millis() as u64;
            lag_ms = (lag_ms * 3 + rtt) / 4;
            match replied(&frame.msg, bridge, log) {
                Reply::Taken => refusals = 0,
                Reply::Busy => {
                    acted_at = None;
                    backoff = BACKOFF;
                }
                Reply::Refused => {
                    acted_at = None;
                    last = None;
                    refusals += 1;
                }
            }
        }
        if let ServerMsg::TablePaused { paused: None, .. } = &frame.msg {
            acted_at = None;
        }
        match view.handle(&frame.msg, Instant::now()) {
            Ok(_) => {}
            Err(ViewError::Gap { .. } | ViewError::Inconsistent { .. }) => {
                let table = view.table().clone();
                let _ = session.send(ClientMsg::Snapshot { table }).await;
            }
            Err(e) => return Err(e.into()),
        }
    }
    let result = view.result().cloned().ok_or(PlayError::NoResult)?;
    Ok(GameEnd {
        result,
        engine_failed,
    })
}

/// What the server said to our action.
enum Reply {
    Taken,
    /// `unavailable`: send it again a little later.
    Busy,
    /// Refused: the engine is told the whole board next time.
    Refused,
}

fn replied(msg: &ServerMsg, bridge: &mut Bridge, log: &Log) -> Reply {
    match msg {
        ServerMsg::Error(e) if e.code == ErrorCode::Unavailable => Reply::Busy,
        ServerMsg::Error(e) => {
            log(Note::Failed {
                error: format!("the server refused our action: {}", e.message),
                then: "asking again with the whole board".into(),
            });
            bridge.refused();
            Reply::Refused
        }
        _ => Reply::Taken,
    }
}

/// Our action for the prompt now: the engine's stone where a stone is
/// wanted and the engine can be asked, else the bot's decision. `None`:
/// the engine failed twice (resign).
async fn choose(
    view: &TableView,
    bridge: &mut Bridge,
    seed: u64,
    lag_ms: u64,
    log: &Log,
) -> Option<Action> {
    let mut prompt = view.prompt()?.clone();
    // Set again below if this action comes from an opening extension.
    bridge.last_ext = None;
    let (policy, eval) = (bridge.policy(), bridge.eval());
    if prompt.may.contains(&ActionKind::AcceptDraw) {
        match policy.accept_draw(view.moves().len(), eval) {
            Some(true) => return Some(by_policy(Action::AcceptDraw, log)),
            Some(false) => prompt.may.retain(|k| *k != ActionKind::AcceptDraw),
            None => {}
        }
    }
    if matches!(prompt.task, Task::Place { .. }) && policy.resign(eval) {
        return Some(by_policy(Action::Resign, log));
    }
    let board = view.board();
    let stones: Vec<(Point, Color)> = view
        .moves()
        .iter()
        .filter_map(|m| m.point.map(|p| (p, m.color)))
        .filter(|&(p, c)| board.get(p) == Some(c))
        .collect();
    let time = turn_time_now(view, bridge, lag_ms)?;
    let ask = OpeningAsk {
        board,
        config: view.config(),
        stones: &stones,
        task: prompt.task,
        time,
    };
    if let Some(action) = engine_opening(bridge, &ask).await {
        return Some(action);
    }
    let situation = Situation::from_moves(board, view.config(), view.moves());
    let bot = decide(&situation, &prompt, seed);
    let own = match (prompt.task, &bot) {
        (
            Task::Place {
                color,
                within: None,
                ..
            },
            Action::Place { .. },
        ) => color,
        _ => {
            log(Note::Played {
                action: format!("{bot:?}"),
                by: "bot",
            });
            return Some(bot);
        }
    };
    let req = MoveRequest {
        board,
        stones: &stones,
        own,
        variant: view.config().rule_set.variant(),
        time,
    };
    let started = Instant::now();
    let p = bridge.stone(&req).await.ok()?;
    log(Note::Played {
        action: format!("{p} in {:?}", round(started.elapsed())),
        by: "engine",
    });
    Some(Action::place(p))
}

/// The engine's time for a turn now: our clock less the margin and
/// twice the lag, capped.
fn turn_time_now(view: &TableView, bridge: &Bridge, lag_ms: u64) -> Option<TurnTime> {
    let control = view.config().time;
    let seat = view.seat()?;
    let clock = view
        .clock_now(Instant::now())
        .map_or_else(|| SeatClock::start(control), |c| c.seat(seat));
    let timing = bridge.timing();
    Some(turn_time(
        control,
        clock,
        timing.margin_ms + 2 * lag_ms,
        timing.cap_ms,
    ))
}

/// `action`, chosen by the owner's policy (logged so).
fn by_policy(action: Action, log: &Log) -> Action {
    log(Note::Played {
        action: format!("{action:?}"),
        by: "policy",
    });
    action
}

fn round(d: Duration) -> Duration {
    Duration::from_millis(d.as_millis() as u64)
}
