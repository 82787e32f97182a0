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
}

impl Player {
    /// The built-in bot at `level` (the quick bot when `None`), thinking
    /// at most `cap_ms` a move.
    pub fn new(level: Option<Level>, seed: u64, cap_ms: u64) -> Player {
        Player {
            bot: level.map(|l| Bot::new(l, seed)),
            seed,
            cap_ms,
        }
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
        let Some(mut bot) = self.bot.take() else {
            return quick();
        };
        let budget = self.budget(view);
        let board = view.board().clone();
        let config = view.config().clone();
        let last_stone = view.moves().last().and_then(|m| m.point);
        let prompt = prompt.clone();
        let started = Instant::now();
        let thought = tokio::task::spawn_blocking(move || {
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
