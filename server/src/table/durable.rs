//! A table's durability: nothing is reported before it is on disk.
//!
//! Every input the referee accepts (an action, a flag or a lapsed draw
//! offer, an abandonment, an abort) lands in the game's entries; the table
//! appends the new ones to its log in the store and only then broadcasts
//! what they did. The store confirms each append once it is durable (the
//! embedded store fsyncs, batching the appends of the same instant into one
//! commit), so a crash can lose only what nobody was told.
//!
//! When the store cannot confirm an append, the table puts the game back
//! to what the store holds, refuses actions with `unavailable`, and stops
//! its clocks (time is passed to the referee, so stopping them is not
//! passing it on: game time stands still while the table is frozen). It
//! probes the store every second; once the store answers, the table takes
//! any entries that did reach the log after all (an append can time out
//! and still land), tells everyone, and lets the clocks run again. The
//! same freeze holds the clocks of a game restored after a restart until
//! both players are back ([`PauseReason::Restored`]).
//!
//! When the game ends, its full record goes to the store as a finished
//! game, in one write that also removes the live log; until that write
//! succeeds the table keeps trying (and a restart would finish it from the
//! log).

use std::time::{Duration, Instant};

use tengen_protocol::{Envelope, PauseReason, ServerMsg};
use tengen_rules::game::{Game, Seat};
use tengen_store::{FinishedGame, Store, StoreError};

use super::Table;
use super::meta::{decode_entries, encode_entries, unix_ms};
use crate::msg::tournament::DirectorCmd;

/// How often a table whose store is down tries it again.
const PROBE_EVERY: Duration = Duration::from_secs(1);

/// How many store timeouts a table waits for one call while the store is
/// behind (completing other writes) before it counts the call as failed.
const PATIENCE: u32 = 10;

/// A store call that must answer within `timeout`, or counts as failed
/// (unavailable: it may still land, which [`Table::probe`] finds out) —
/// unless the store completed some other write within the last `timeout`:
/// then it is behind, not down (overload), and the call is given more
/// time, up to [`PATIENCE`] timeouts in all. So a slow store slows a game
/// down and never makes it refuse a move.
pub(super) async fn within<T>(
    store: &dyn Store,
    timeout: Duration,
    call: impl std::future::Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    let started = Instant::now();
    let mut call = std::pin::pin!(call);
    loop {
        if let Ok(result) = tokio::time::timeout(timeout, &mut call).await {
            return result;
        }
        let behind = store.last_progress().is_some_and(|t| t.elapsed() < timeout);
        if !behind || started.elapsed() >= timeout * PATIENCE {
            return Err(StoreError::Unavailable(format!(
                "no answer within {:?}",
                started.elapsed()
            )));
        }
        metrics::counter!(crate::metrics::STORE_SLOW).increment(1);
    }
}

impl Table {
    /// One store call of this table's, [`within`] the store timeout;
    /// timed and its failure counted under `name` (the call's).
    pub(super) async fn store_call<T>(
        &self,
        name: &'static str,
        call: impl std::future::Future<Output = Result<T, StoreError>>,
    ) -> Result<T, StoreError> {
        let store = self.hosting.store.as_ref();
        let timeout = self.hosting.settings.store_timeout;
        let started = Instant::now();
        let result = within(store, timeout, call).await;
        let took = started.elapsed();
        metrics::histogram!(crate::metrics::STORE_CALL_SECONDS, "call" => name)
            .record(took.as_secs_f64());
        if let Err(e) = &result {
            crate::metrics::store_error(e);
        }
        if took > timeout {
            self.hosting.pressure.store_behind();
        }
        result
    }

    /// Appends the game's entries the store does not have yet. On failure
    /// the game is put back to what the store holds, the table freezes,
    /// and the caller must report nothing (the action is refused).
    pub(super) async fn persist(&mut self) -> Result<(), StoreError> {
        let fresh = &self.game.entries()[self.durable.logged..];
        if fresh.is_empty() {
            return Ok(());
        }
        let bytes = encode_entries(fresh);
        let writing = Instant::now();
        let result = match (&self.tenure.lease, self.durable.created) {
            (Some(lease), true) => {
                let append = self.hosting.store.append_leased(
                    self.id.as_str(),
                    lease,
                    self.durable.logged as u64,
                    &bytes,
                );
                self.store_call("append", append).await
            }
            (None, true) => Err(StoreError::Unavailable(
                "the table's lease is being taken again".into(),
            )),
            (_, false) => Err(StoreError::Unavailable(
                "the table is not stored yet".into(),
            )),
        };
        match result {
            Ok(()) => {
                let took = writing.elapsed();
                self.hosting.lag.record_store_write(took);
                self.durable.logged = self.game.entries().len();
                // Nobody has heard of the new entries yet: the clock the
                // action started runs from the store's confirmation (when
                // the event goes out), not from the action. Game time
                // stands still while the store writes, as while frozen.
                self.hold_clocks(took);
                Ok(())
            }
            Err(StoreError::LeaseLost(why)) => {
                self.game = self.replayed(self.durable.logged);
                self.step_down(&why);
                Err(StoreError::LeaseLost(why))
            }
            Err(e) => {
                tracing::warn!(table = %self.id, error = %e, "store refused an append; table frozen");
                crate::metrics::error("store_unavailable");
                self.game = self.replayed(self.durable.logged);
                self.store_down(true);
                Err(e)
            }
        }
    }

    /// The game rebuilt from its first `n` entries (all of which it
    /// accepted once, so none can be refused now).
    fn replayed(&self, n: usize) -> Game {
        let mut game = Game::new(self.game.config().clone(), self.game.opener(), 0)
            .expect("the table's configuration was valid when it started");
        for e in &self.game.entries()[..n] {
            if let Err(err) = game.feed(&e.input, e.at) {
                tracing::error!(table = %self.id, error = %err, "an accepted entry was refused on replay");
            }
        }
        game
    }

    /// The store went down (or came back): freeze or thaw.
    pub(super) fn store_down(&mut self, down: bool) {
        self.durable.store_down = down;
        self.durable.retry_at = down.then(|| Instant::now() + PROBE_EVERY);
        self.refreeze();
    }

    /// Why the clocks should stand still now, if they should.
    pub(super) fn pause_reason(&self) -> Option<PauseReason> {
        if self.game.is_over() {
            None
        } else if self.durable.store_down {
            Some(PauseReason::Store)
        } else if self.freeze.restoring.is_some() {
            Some(PauseReason::Restored)
        } else {
            None
        }
    }

    /// Freezes or thaws game time to match [`Table::pause_reason`], and
    /// tells everyone when that changes. Thawing shifts every deadline by
    /// the time spent frozen, so no clock is charged for it.
    pub(super) fn refreeze(&mut self) {
        let reason = self.pause_reason();
        let now = Instant::now();
        match (reason, self.freeze.since) {
            (Some(r), None) => {
                self.freeze.since = Some(now);
                self.freeze.announced = Some(r);
                self.send_paused(Some(r));
            }
            (Some(r), Some(_)) if self.freeze.announced != Some(r) => {
                self.freeze.announced = Some(r);
                self.send_paused(Some(r));
            }
            (None, Some(since)) => {
                self.hold_clocks(now.saturating_duration_since(since));
                self.freeze.since = None;
                self.freeze.announced = None;
                self.send_paused(None);
            }
            _ => {}
        }
    }

    /// Game time skips `held` (time nobody is charged for): the table's
    /// origin and every real-time deadline move on by it.
    pub(super) fn hold_clocks(&mut self, held: Duration) {
        self.started += held;
        for s in &mut self.seats {
            if let Some(t) = &mut s.away_until {
                *t += held;
            }
        }
        if let Some(t) = &mut self.timers.first_action_due {
            *t += held;
        }
    }

    /// Tells one subscriber that the clocks stand still (after a replay,
    /// which carries no snapshot).
    pub(super) fn send_paused_to(&self, outbox: &crate::outbound::Outbox, reason: PauseReason) {
        let ms = self.now_ms(Instant::now());
        outbox.send_msg(&Envelope::push(ServerMsg::TablePaused {
            table: self.id.clone(),
            paused: Some(reason),
            clocks: self.game.clocks(ms),
        }));
    }

    fn send_paused(&mut self, paused: Option<PauseReason>) {
        if self.game.is_over() {
            return;
        }
        let ms = self.now_ms(Instant::now());
        let frame = Envelope::push(ServerMsg::TablePaused {
            table: self.id.clone(),
            paused,
            clocks: self.game.clocks(ms),
        });
        self.send_to_all(&frame);
    }

    /// Tries the store again while it is down: creates the table if that
    /// never succeeded, takes any entries that reached the log after all,
    /// stores a finished game, and thaws once all of that worked.
    pub(super) async fn probe(&mut self) {
        self.durable.retry_at = None;
        match self.catch_up().await {
            Ok(()) => {
                if self.durable.store_down {
                    tracing::info!(table = %self.id, "store is back; table thawed");
                }
                self.store_down(false);
            }
            Err(e) => {
                tracing::debug!(table = %self.id, error = %e, "store still unavailable");
                self.durable.store_down = true;
                self.durable.retry_at = Some(Instant::now() + PROBE_EVERY);
            }
        }
    }

    async fn catch_up(&mut self) -> Result<(), StoreError> {
        if self.tenure.stepped_down {
            return Ok(());
        }
        if !self.durable.created {
            // The lease first: no other node ever sees the table unleased.
            if let Err(e) = self.take_lease().await {
                if let StoreError::LeaseLost(why) = &e {
                    self.step_down(why);
                }
                return Err(e);
            }
            // The seats' resume tokens, so that a node taking the table
            // over knows its players when they reconnect there.
            for seat in &self.meta.seats {
                if !seat.token.is_empty() {
                    self.store_call(
                        "index_seat",
                        self.hosting.store.index_seat(&seat.token, self.id.as_str()),
                    )
                    .await?;
                }
            }
            let meta = serde_json::to_vec(&self.meta).expect("table metadata serializes");
            match self
                .store_call(
                    "create_table",
                    self.hosting.store.create_table(self.id.as_str(), &meta),
                )
                .await
            {
                Ok(()) => {
                    self.durable.created = true;
                    // Just created, so its log is empty, and the store has
                    // answered: nothing to catch up. (A read and a ping
                    // here cost every new table two more trips through the
                    // store, thousands of them when many games start at
                    // once.)
                    if self.durable.logged == 0 {
                        return Ok(());
                    }
                }
                // Created by an earlier try whose answer was lost: its log
                // is read below like any other.
                Err(StoreError::Exists(_)) => self.durable.created = true,
                Err(e) => return Err(e),
            }
        }
        if !self.durable.finish_stored
            && self.game.is_over()
            && self.durable.logged == self.game.entries().len()
        {
            return self.store_finished().await;
        }
        let stored = self
            .store_call(
                "live_table",
                self.hosting.store.live_table(self.id.as_str()),
            )
            .await?;
        let stored = stored.map(|t| t.entries).unwrap_or_default();
        if stored.len() > self.durable.logged {
            let extra = decode_entries(&stored[self.durable.logged..])
                .map_err(|e| StoreError::Corrupt(e.to_string()))?;
            // Entries that landed although their append failed: they are
            // durable, so they count; report them now.
            let mut events = Vec::new();
            let mut last = 0;
            for e in &extra {
                match self.game.feed(&e.input, e.at) {
                    Ok(ev) => events.extend(ev),
                    Err(err) => {
                        return Err(StoreError::Corrupt(format!(
                            "a stored entry of table {} was refused: {err}",
                            self.id
                        )));
                    }
                }
                last = e.at;
            }
            self.durable.logged = stored.len();
            self.broadcast(events, last);
        } else {
            self.store_call("ping", self.hosting.store.ping()).await?;
        }
        Ok(())
    }

    /// The game's record with the tags a stored record carries (the
    /// players by seat, table, room, start, tournament), but no finish
    /// time: what a running game's record download shows, and what
    /// [`Self::store_finished`] stores once it is over.
    pub(super) fn tagged_record(&self) -> tengen_rules::game::GameRecord {
        let mut record = self.game.record();
        for (seat, key) in [(Seat::First, "first"), (Seat::Second, "second")] {
            record = record.with_tag(key, &self.meta.seats[seat.index()].player.name);
        }
        record = record
            .with_tag("table", self.id.as_str())
            .with_tag("room", self.meta.room.as_str())
            .with_tag("started_unix_ms", &self.meta.created_ms.to_string());
        if let Some(t) = &self.meta.tournament {
            record = record
                .with_tag("tournament", &t.tournament)
                .with_tag("tournament_round", &t.round.to_string())
                .with_tag("tournament_board", &t.board.to_string())
                .with_tag("tournament_game", &t.game.to_string());
        }
        record
    }

    /// Stores the finished game (record and rating changes) and drops the
    /// live log, in one write. On failure the table retries every second.
    pub(super) async fn store_finished(&mut self) -> Result<(), StoreError> {
        if self.durable.finish_stored {
            return Ok(());
        }
        let finished_ms = unix_ms();
        let record = self
            .tagged_record()
            .with_tag("finished_unix_ms", &finished_ms.to_string());
        let game = FinishedGame {
            id: self.id.to_string(),
            players: self
                .meta
                .seats
                .iter()
                .map(|s| s.player.name.clone())
                .collect(),
            finished_ms,
            record: record.to_json().into_bytes(),
            ratings: Vec::new(),
        };
        // Accounts: a rated game's two rating updates go in the same write
        // (`crate::ratings::finish`, which retries when a rating changed
        // meanwhile); an aborted game is never rated.
        let players = game.players.clone();
        let study = crate::study::players([&self.meta.seats[0].player, &self.meta.seats[1].player]);
        let rated = crate::ratings::rated_game(
            self.meta.rated,
            &self.game,
            &self.id.to_string(),
            &game.players,
            finished_ms,
        );
        let result = self
            .store_call(
                "finish_game",
                crate::ratings::finish(self.hosting.store.as_ref(), game, rated.as_ref()),
            )
            .await;
        match result {
            Ok(_) | Err(StoreError::Exists(_)) => {
                self.durable.finish_stored = true;
                // Counted once, by the node whose write stored it.
                if let (Ok(_), Some(result)) = (&result, self.game.result()) {
                    crate::metrics::game_finished(&self.meta.config, self.meta.rated, result);
                }
                // The explorer and the puzzle miner (never waited for).
                let ratings = result.as_ref().ok().copied().flatten();
                self.hosting.study.finished(crate::study::Finished {
                    id: self.id.to_string(),
                    record,
                    players: tengen_study::explorer::Players { ratings, ..study },
                    finished_ms,
                });
                // A rated game's abandonment is a fair-play offence (told
                // to moderation, which stores it without the table); not a
                // tournament game's, whose absences and withdrawals the
                // event's own rules already score as forfeits.
                if self.meta.rated && self.meta.tournament.is_none() {
                    crate::moderation::fairplay::finished(
                        &self.hosting.moderation,
                        &self.hosting.store,
                        self.id.as_str(),
                        &players,
                        &self.game,
                        self.timers.no_show,
                    );
                }
                // The director reads the result from the stored record (a
                // notice lost here is found again by its polling).
                if let Some(game) = self.meta.tournament.clone() {
                    let over = DirectorCmd::Over {
                        game,
                        table: self.id.clone(),
                    };
                    self.hosting.tournaments.notify(over);
                }
                Ok(())
            }
            Err(e) => {
                tracing::warn!(table = %self.id, error = %e, "finished game not stored yet; retrying");
                self.durable.store_down = true;
                self.durable.retry_at = Some(Instant::now() + PROBE_EVERY);
                Err(e)
            }
        }
    }
}
