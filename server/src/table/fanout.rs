//! What a table sends: events stamped with their `seq` and queued to every
//! subscriber (encoded once per encoding in use; spectators of other nodes
//! get them once per node, `super::fans`), snapshots, and the coalesced
//! spectator count.

use std::time::Instant;

use tengen_protocol::{
    Encoding, Envelope, Players, RequestId, ServerFrame, ServerMsg, TableEvent, TableSnapshot,
};
use tengen_rules::game::{Event, Millis, Seat};

use super::Table;
use crate::msg::lobby::LobbyCmd;
use crate::outbound::Shared;
use crate::sessions::Session;

impl Table {
    /// Stamps `events` and queues them to every subscriber.
    pub(super) fn broadcast(&mut self, events: Vec<Event>, ms: Millis) {
        if events.is_empty() {
            return;
        }
        let over = events.iter().any(|e| matches!(e, Event::GameOver { .. }));
        if over && self.timers.close_at.is_none() {
            self.timers.first_action_due = None;
            self.note_leaver();
            for s in &mut self.seats {
                s.away_until = None;
                s.grace_over = false;
            }
            self.timers.close_at =
                Some(Instant::now() + self.hosting.settings.finished_table_linger);
            // The lobby hears of the end before any player can: a player
            // who leaves the room as soon as `game_over` arrives must find
            // it finished, not still playing.
            self.hosting.lobby.notify(LobbyCmd::TableFinished {
                room: self.meta.room.clone(),
            });
        }
        let prompt = self.game.prompt(ms);
        let stamped = TableEvent::stamp(&self.id, self.events.seq, events, prompt.as_ref());
        self.events.seq += stamped.len() as u64;
        // What a `block` or `lose` room shows of black's forbidden points.
        let forbidden = self.game.forbidden_points_shown(ms);
        for mut te in stamped {
            te.forbidden.clone_from(&forbidden);
            let seq = te.seq;
            let frame = Envelope::push(ServerMsg::TableEvent(te));
            let mut shared = Shared::new(&frame);
            // Kept in MessagePack ([`parts::EventLog`]); a MessagePack
            // subscriber gets the same encoding.
            let packed = shared.get(Encoding::MsgPack);
            let limit = self.hosting.settings.event_log;
            self.events.keep(seq, packed.bytes(), limit);
            self.send_shared(&mut shared);
        }
    }

    /// Queues `frame` to both players (if subscribed) and every spectator.
    pub(super) fn send_to_all(&mut self, frame: &ServerFrame) {
        self.send_shared(&mut Shared::new(frame));
    }

    fn send_shared(&mut self, shared: &mut Shared<'_>) {
        for s in &mut self.seats {
            if s.subscribed
                && !s
                    .session
                    .outbox
                    .send(shared.get(s.session.outbox.encoding()))
            {
                s.subscribed = false;
            }
        }
        self.send_spectators(shared);
    }

    pub(super) fn snapshot_msg(&self, seat: Option<Seat>) -> ServerMsg {
        let ms = self.now_ms(Instant::now());
        ServerMsg::TableSnapshot(Box::new(TableSnapshot {
            table: self.id.clone(),
            room: self.meta.room.clone(),
            seq: self.events.seq,
            snapshot: self.game.snapshot(ms),
            players: Players {
                first: Some(self.seats[0].session.player.clone()),
                second: Some(self.seats[1].session.player.clone()),
            },
            spectators: self.subs.spectators.len() as u32,
            seat,
            paused: self.freeze.since.and(self.freeze.announced),
            forbidden: self.game.forbidden_points_shown(ms),
            away: Seat::BOTH
                .into_iter()
                .filter_map(|s| self.away_status(s, Instant::now()))
                .collect(),
            rematch: Seat::BOTH
                .into_iter()
                .filter(|s| self.seats[s.index()].rematch)
                .collect(),
            tournament: self.meta.tournament.clone(),
        }))
    }

    pub(super) fn send_snapshot(&self, session: &Session, id: Option<RequestId>) {
        let msg = self.snapshot_msg(self.seat_of(&session.id));
        session.outbox.send_msg(&Envelope::with_id(id, msg));
    }

    pub(super) fn send_snapshot_to_seat(&self, seat: Seat, id: Option<RequestId>) {
        let s = &self.seats[seat.index()];
        s.session
            .outbox
            .send_msg(&Envelope::with_id(id, self.snapshot_msg(Some(seat))));
    }

    pub(super) fn spectators_changed(&mut self) {
        if self.subs.count_due.is_none() {
            self.subs.count_due = Some(Instant::now() + self.hosting.settings.coalesce_interval);
        }
    }

    /// Brings the node's gauges of spectators and of players in the game
    /// (connected, while it is in progress) up to date with this table's
    /// (all gone once `closing`).
    pub(super) fn count_presence(&mut self, closing: bool) {
        let now = if closing {
            (0, 0)
        } else {
            let in_game = !self.game.is_over();
            let players = self
                .seats
                .iter()
                .filter(|s| in_game && s.subscribed && !s.away && !s.session.outbox.is_closed());
            (self.subs.spectators.len(), players.count())
        };
        let (was_spectators, was_players) = self.subs.counted;
        if now.0 != was_spectators {
            metrics::gauge!(crate::metrics::SPECTATORS)
                .increment(now.0 as f64 - was_spectators as f64);
        }
        if now.1 != was_players {
            metrics::gauge!(crate::metrics::TABLE_PLAYERS)
                .increment(now.1 as f64 - was_players as f64);
        }
        self.subs.counted = now;
    }

    /// The coalesced spectator count, to every subscriber and the lobby.
    pub(super) fn send_spectator_count(&mut self) {
        let count = self.subs.spectators.len() as u32;
        let frame = Envelope::push(ServerMsg::Spectators {
            table: self.id.clone(),
            count,
        });
        let mut shared = Shared::new(&frame);
        for s in &self.seats {
            if s.subscribed {
                s.session
                    .outbox
                    .send(shared.get(s.session.outbox.encoding()));
            }
        }
        self.send_spectators(&mut shared);
        let _ = self.hosting.lobby.try_send(LobbyCmd::Spectators {
            room: self.meta.room.clone(),
            count,
        });
    }
}
