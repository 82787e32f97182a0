//! Tournament games on real tables: the director sends each due game (a
//! round's boards, then each next game of a match) to the lobby, which
//! seats it as a rated room with both seats taken; the table's end comes
//! back as a notice, and the result is read from the stored game record.
//!
//! Durable: an event's due games and the tables they were sent to are
//! part of the stored event ([`LiveGame`]), written before a table is
//! asked for. So after a restart (or on the node that takes the lease
//! over) the director looks each sent table up in the store: a finished
//! game's record gives the result (a notice lost with the node costs
//! nothing), a live table is still being played (restored by its node),
//! and a table that never reached the store (the node died between the
//! two) is asked for again. A game is never sent twice while its table
//! may exist, and a result counts once (the engine refuses a second).
//!
//! Absence: a game whose player is offline, or already seated at as many
//! tables as allowed, is tried again every [`RETRY`] until the event's
//! wait (`wait_secs`) has passed since it became due; then the absent
//! player loses it by forfeit (both absent: a double forfeit), as the
//! abort rule would have it for a player who never makes a first move.

use std::time::{Duration, Instant};

use tengen_protocol::tournament::DEFAULT_WAIT_SECS;
use tengen_protocol::{TableId, TournamentGame};
use tengen_tournament::{GameRef, GameResult};

use super::director::{Director, unix_ms};
use super::event::{Event, LiveGame};
use super::outcome;
use crate::msg::lobby::LobbyCmd;
use crate::msg::tournament::TournamentSeating;
use tengen_store::name_key;

/// How often a game whose players were absent is tried again.
const RETRY: Duration = Duration::from_secs(1);
/// How long after a sent table is looked up in the store (a notice
/// usually comes first), and how often again.
const POLL_AFTER: Duration = Duration::from_secs(2);
const POLL_EVERY: Duration = Duration::from_secs(3);
/// A sent table that is neither live nor finished in the store, nor run
/// here, after this long never started (its node died first): the game
/// is sent again.
const LOST_AFTER: Duration = Duration::from_secs(15);
/// The most results one look at an event records (each can make new
/// games due, a forfeit at once when their player is gone).
const MAX_STEPS: usize = 64;

fn game_ref(at: &TournamentGame) -> GameRef {
    GameRef {
        round: at.round as usize,
        board: at.board as usize,
        game: at.game as usize,
    }
}

fn ms(d: Duration) -> u64 {
    d.as_millis() as u64
}

/// Brings `e`'s live games in line with the engine: adds the games now
/// due, drops those no longer due (recorded by the organiser, forfeited
/// by a withdrawal), and scores the games whose wait is over. Whether
/// anything changed.
fn plan(e: &mut Event, now: u64) -> bool {
    let wait = u64::from(e.spec.wait_secs.unwrap_or(DEFAULT_WAIT_SECS)) * 1000;
    let mut changed = false;
    for _ in 0..MAX_STEPS {
        let due = e.due_games();
        let before = e.live.len();
        e.live.retain(|g| due.iter().any(|(at, _)| *at == g.at));
        changed |= e.live.len() != before;
        for (at, players) in due {
            if !e.live.iter().any(|g| g.at == at) {
                changed = true;
                e.live.push(LiveGame {
                    at,
                    players,
                    due_ms: now,
                    table: None,
                    sent_ms: 0,
                    absent: [false; 2],
                });
            }
        }
        let Some(i) = e
            .live
            .iter()
            .position(|g| g.table.is_none() && now >= g.due_ms + wait)
        else {
            return changed;
        };
        changed = true;
        let g = e.live.remove(i);
        let result = if g.absent == [false; 2] {
            // Never tried (the director was away all the wait): both.
            GameResult::DoubleForfeit
        } else {
            outcome::of_absence(g.absent)
        };
        tracing::info!(tournament = %e.id, round = g.at.round, board = g.at.board, game = g.at.game, absent = ?g.absent, "a game lost by absence");
        if e.is_arena() {
            let absent = if g.absent == [false; 2] {
                [true; 2]
            } else {
                g.absent
            };
            e.arena_pause(&g.players, absent);
        }
        if let Err(err) = e.record(game_ref(&g.at), result) {
            tracing::warn!(tournament = %e.id, error = %err.message, "absence not recorded");
        }
    }
    changed
}

/// Whether [`Director::seat_games`] has anything to do for `e` (cheap:
/// checked every tick before the event is copied): a game due that is
/// not live, a live game no longer due, or one waiting for a table.
fn needs_work(e: &Event) -> bool {
    let due = e.due_games();
    e.live.iter().any(|g| g.table.is_none())
        || due.len() != e.live.len()
        || due
            .iter()
            .any(|(at, _)| !e.live.iter().any(|g| g.at == *at))
}

impl Director {
    /// Looks after event `id`'s games: [`plan`], then sends each game
    /// waiting for a table (and not tried within [`RETRY`]) to the lobby,
    /// once the event that names its table is stored.
    pub(super) async fn seat_games(&mut self, id: &str) {
        let Some(event) = self.events.get(id) else {
            return;
        };
        if !event.engine.started() || !needs_work(event) {
            return;
        }
        let now = unix_ms();
        let mut next = event.clone();
        let mut changed = plan(&mut next, now);
        let mut send = Vec::new();
        for g in &mut next.live {
            if g.table.is_none() && now >= g.sent_ms + ms(RETRY) {
                let table = TableId::from_u64(rand::random());
                g.table = Some(table.clone());
                g.sent_ms = now;
                send.push((g.at.clone(), g.players.clone(), table));
                changed = true;
            }
        }
        if !changed {
            return;
        }
        let rated = next.spec.rated;
        let configs: Vec<_> = send.iter().map(|(at, ..)| next.config_for(at)).collect();
        if let Err(e) = self.save(next).await {
            tracing::warn!(tournament = %id, error = %e.message, "tournament games not stored; trying again");
            return;
        }
        for ((game, players, table), config) in send.into_iter().zip(configs) {
            let known = players
                .each_ref()
                .map(|p| self.known.get(&name_key(p)).cloned());
            let seating = TournamentSeating {
                game: game.clone(),
                players,
                known,
                config,
                rated,
                table: table.clone(),
                director: self.hosting.tournaments.clone(),
            };
            let cmd = LobbyCmd::TournamentGame(Box::new(seating));
            if !self.hosting.lobby.try_send(cmd) {
                // Not sent: no table; tried again after RETRY.
                self.unsend(id, &game, &table, [false; 2]);
            }
        }
    }

    /// The game sent to `table` was not started: its table is forgotten
    /// (in memory; the next try stores the event again).
    fn unsend(&mut self, id: &str, game: &TournamentGame, table: &TableId, absent: [bool; 2]) {
        let Some(e) = self.events.get_mut(id) else {
            return;
        };
        if let Some(g) = e
            .live
            .iter_mut()
            .find(|g| g.at == *game && g.table.as_ref() == Some(table))
        {
            g.table = None;
            if absent != [false; 2] {
                g.absent = absent;
            }
        }
    }

    /// The lobby could not seat `game` at `table`.
    pub(super) async fn absent(&mut self, game: TournamentGame, table: TableId, absent: [bool; 2]) {
        let id = game.tournament.clone();
        self.unsend(&id, &game, &table, absent);
    }

    /// A tournament table's game is over: its result is in the store.
    pub(super) async fn over(&mut self, game: TournamentGame, table: TableId) {
        if self.lease.is_none() {
            return;
        }
        self.look_up(&game.tournament, table).await;
    }

    /// Reads `table`'s finished game from the store and records its
    /// result; false if the store has no finished game for it (yet).
    async fn look_up(&mut self, id: &str, table: TableId) -> bool {
        let store = self.store.clone();
        let key = table.to_string();
        let Some(found) = self.timed(store.game(&key)).await else {
            return true;
        };
        let Some(finished) = found else {
            return false;
        };
        let Some(result) = outcome::of_record(&finished.record) else {
            tracing::error!(tournament = %id, %table, "a tournament game's record has no result");
            return true;
        };
        let r = self
            .change(id, |e| {
                let Some(i) = e.live.iter().position(|g| g.table.as_ref() == Some(&table)) else {
                    return Err(super::director::not_found());
                };
                let g = e.live.remove(i);
                if let Err(err) = e.record(game_ref(&g.at), result) {
                    tracing::warn!(tournament = %e.id, %table, error = %err.message, "a table's result not recorded");
                }
                Ok(())
            })
            .await;
        self.polled.remove(&table);
        if r.is_ok() {
            self.seat_games(id).await;
        }
        true
    }

    /// Every [`super::director`] games tick: each running event's games
    /// looked after, and its sent tables looked up in the store now and
    /// then (the durable path: a lost notice, a restart, a takeover).
    pub(super) async fn look_after_games(&mut self) {
        let running: Vec<String> = self
            .events
            .values()
            .filter(|e| e.engine.started() && !e.engine.finished())
            .map(|e| e.id.clone())
            .collect();
        for id in running {
            self.arena_tick(&id).await;
            self.seat_games(&id).await;
            self.poll_tables(&id).await;
        }
    }

    /// An arena's pairing of players who have waited long enough for a
    /// rematch, and its end ([`Event::arena_step`]), stored when anything
    /// changed.
    async fn arena_tick(&mut self, id: &str) {
        let Some(e) = self.events.get(id).filter(|e| e.is_arena()) else {
            return;
        };
        let mut next = e.clone();
        if next.arena_step(unix_ms())
            && let Err(e) = self.save(next).await
        {
            tracing::warn!(tournament = %id, error = %e.message, "arena not stored; trying again");
        }
    }

    async fn poll_tables(&mut self, id: &str) {
        let Some(e) = self.events.get(id) else {
            return;
        };
        let now = unix_ms();
        let due: Vec<(TableId, u64)> = e
            .live
            .iter()
            .filter_map(|g| Some((g.table.clone()?, g.sent_ms)))
            .filter(|(t, sent)| {
                now >= sent + ms(POLL_AFTER)
                    && self.polled.get(t).is_none_or(|p| p.elapsed() >= POLL_EVERY)
            })
            .collect();
        for (table, sent) in due {
            self.polled.insert(table.clone(), Instant::now());
            if self.look_up(id, table.clone()).await {
                continue;
            }
            // Not finished: live in the store, or run here, or lost.
            if now < sent + ms(LOST_AFTER) || self.hosting.directory.get(&table).is_some() {
                continue;
            }
            let store = self.store.clone();
            let key = table.to_string();
            if let Some(None) = self.timed(store.live_table(&key)).await {
                tracing::warn!(tournament = %id, %table, "a tournament table never started; sending its game again");
                self.polled.remove(&table);
                if let Some(e) = self.events.get_mut(id)
                    && let Some(g) = e.live.iter_mut().find(|g| g.table.as_ref() == Some(&table))
                {
                    g.table = None;
                    g.due_ms = now;
                }
            }
        }
    }
}
