//! Reconnection at a table: replaying the events a resuming client missed,
//! and the countdown to abandonment while a player's connection is lost
//! (the clock keeps running meanwhile). Correspondence games have no
//! countdown: their players come and go over days.

use std::time::Instant;

use tengen_protocol::{Envelope, RequestId, ServerMsg, SessionId};
use tengen_rules::game::Seat;

use super::Table;
use crate::outbound::{Frame, Outbox};

impl Table {
    /// Sends the logged events after `since`, in order, then `replayed`:
    /// one entry of the outbox, which the writer feeds to the socket at the
    /// socket's pace (a replay of the whole log is more frames than the
    /// queue holds, and must not count as a slow reader). `false`, with
    /// nothing sent, if the log could not give them all back.
    pub(super) fn replay(&self, outbox: &Outbox, id: Option<RequestId>, since: u64) -> bool {
        let encoding = outbox.encoding();
        let Some(mut frames) = self.events.frames_after(since, encoding) else {
            return false;
        };
        frames.push(Frame::encode(
            &Envelope::with_id(
                id,
                ServerMsg::Replayed {
                    table: self.id.clone(),
                    since,
                    seq: self.events.seq,
                },
            ),
            encoding,
        ));
        outbox.send_all(frames);
        true
    }

    /// A player's connection `conn` ended: the countdown to abandonment
    /// starts (the clock keeps running), and everyone is told.
    pub(super) fn away(&mut self, session: &SessionId, conn: u64) {
        let Some(seat) = self.seat_of(session) else {
            return;
        };
        let s = &mut self.seats[seat.index()];
        if s.session.outbox.conn != conn || self.game.is_over() || s.away_until.is_some() {
            return;
        }
        s.subscribed = false;
        if self.game.config().time.is_correspondence() {
            // Closing the browser is normal in a correspondence game: no
            // countdown, the clock alone decides (docs/rules.md §7).
            self.send_player_status(seat, false, None);
            return;
        }
        let grace = self
            .hosting
            .settings
            .abandon_grace(&self.game.config().time);
        s.away_until = Some(Instant::now() + grace);
        self.send_player_status(seat, false, Some(grace.as_millis() as u64));
    }

    pub(super) fn send_player_status(
        &mut self,
        seat: Seat,
        connected: bool,
        grace_ms: Option<u64>,
    ) {
        let frame = Envelope::push(ServerMsg::PlayerStatus {
            table: self.id.clone(),
            seat,
            connected,
            grace_ms,
        });
        self.send_to_all(&frame);
    }
}
