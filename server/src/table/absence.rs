//! A player away from the table (docs/rules.md §4), as on lichess: the
//! absent player's clock runs on, and once a grace is over the opponent
//! may claim the win or call a draw, or wait; nothing ends the game by
//! itself but the clock.
//!
//! Where nobody is there to claim — an untimed room, a tournament game, an
//! opponent that is a bot account — the server gives the win when the
//! grace is over. When both players are away the game is aborted if fewer
//! than two moves stand, drawn if it is untimed, and otherwise left to the
//! clocks. Correspondence games count no grace at all: their players come
//! and go over days.
//!
//! Everyone at the table hears of each change as `player_status` (see
//! [`Away`]): the grace left and what follows it, again with `grace_ms: 0`
//! once a claim is open, and again whenever the other player's coming or
//! going changes what follows. The table times the grace (a connection is
//! the server's to watch); the referee only records what is declared, so
//! a record replays to the same end. A player who was away past the grace
//! when the game ended against them left it: in a rated game that counts
//! for the fair-play waits (`timers.no_show`).

use std::time::Instant;

use tengen_protocol::{
    AfterGrace, Away, Envelope, ErrorCode, PauseReason, RequestId, ServerMsg, SessionId,
};
use tengen_rules::game::{Seat, TimeControl};

use super::Table;
use crate::outbound::Outbox;

impl Table {
    /// A player's connection `conn` ended: its grace starts (none in a
    /// correspondence game), and everyone is told.
    pub(super) fn away(&mut self, session: &SessionId, conn: u64) {
        let Some(seat) = self.seat_of(session) else {
            return;
        };
        let s = &self.seats[seat.index()];
        if s.session.outbox.conn != conn || self.game.is_over() || s.away {
            return;
        }
        self.seats[seat.index()].subscribed = false;
        self.start_grace(seat);
    }

    /// `seat` is away from now: its grace starts, and everyone hears what
    /// follows it (and what now follows the other's, if it is away too).
    pub(super) fn start_grace(&mut self, seat: Seat) {
        let time = self.game.config().time;
        let s = &mut self.seats[seat.index()];
        s.away = true;
        s.grace_over = false;
        s.away_until = (!time.is_correspondence())
            .then(|| Instant::now() + self.hosting.settings.abandon_grace(&time));
        self.tell_away(seat);
        if self.seats[seat.other().index()].away {
            self.tell_away(seat.other());
        }
    }

    /// `seat` is back (it watches the table again). If the other is still
    /// away, what follows its grace changes: it is told, and settled at
    /// once if the grace is over.
    pub(super) fn back(&mut self, seat: Seat) {
        let s = &mut self.seats[seat.index()];
        if !std::mem::replace(&mut s.away, false) {
            return;
        }
        s.away_until = None;
        s.grace_over = false;
        self.send_player_status(seat, true, None);
        let other = &mut self.seats[seat.other().index()];
        if other.away && !self.game.is_over() {
            if other.grace_over {
                // Settled again by the next deadline, now that someone is
                // here to claim (or not).
                other.grace_over = false;
                other.away_until = Some(Instant::now());
            }
            self.tell_away(seat.other());
        }
    }

    /// Whether nobody can claim against the absent `seat`: an untimed room
    /// (no clock would ever end it), a tournament game (the event goes
    /// on), or an opponent that is a bot account. The server then gives
    /// the win when the grace is over.
    fn nobody_to_claim(&self, seat: Seat) -> bool {
        self.game.config().time == TimeControl::Unlimited
            || self.meta.tournament.is_some()
            || self.seats[seat.other().index()].session.player.bot
    }

    /// What follows the absent `seat`'s grace (`None` without one).
    fn after_grace(&self, seat: Seat) -> Option<AfterGrace> {
        self.seats[seat.index()].away_until?;
        Some(if self.seats[seat.other().index()].away {
            if self.game.moves().len() < 2 {
                AfterGrace::Abort
            } else if self.game.config().time == TimeControl::Unlimited {
                AfterGrace::Draw
            } else {
                AfterGrace::Clock
            }
        } else if self.nobody_to_claim(seat) {
            AfterGrace::Win
        } else {
            AfterGrace::Claim
        })
    }

    /// `seat`'s absence as of `now`, if it is away.
    pub(super) fn away_status(&self, seat: Seat, now: Instant) -> Option<Away> {
        let s = &self.seats[seat.index()];
        if !s.away {
            return None;
        }
        let grace_ms = s.away_until.map(|until| {
            if s.grace_over {
                0
            } else {
                // Rounded up: a grace just started is told in full.
                until
                    .saturating_duration_since(now)
                    .as_micros()
                    .div_ceil(1000) as u64
            }
        });
        Some(Away {
            seat,
            grace_ms,
            after_grace: self.after_grace(seat),
        })
    }

    /// Tells everyone at the table where `seat`'s absence stands.
    fn tell_away(&mut self, seat: Seat) {
        if let Some(a) = self.away_status(seat, Instant::now()) {
            let frame = Envelope::push(ServerMsg::PlayerStatus {
                table: self.id.clone(),
                seat,
                connected: false,
                grace_ms: a.grace_ms,
                after_grace: a.after_grace,
            });
            self.send_to_all(&frame);
        }
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
            after_grace: None,
        });
        self.send_to_all(&frame);
    }

    /// When the next grace ends, if one is counting.
    pub(super) fn grace_deadline(&self) -> Option<Instant> {
        self.seats
            .iter()
            .filter(|s| s.away && !s.grace_over)
            .filter_map(|s| s.away_until)
            .min()
    }

    /// The graces that have ended by `now`, and what follows them: the
    /// opponent may now claim (it is told), or the server decides where
    /// nobody can claim, or, both away, aborts or draws the game as
    /// [`AfterGrace`] says.
    pub(super) async fn graces_over(&mut self, now: Instant) {
        let mut ended = Vec::new();
        for seat in Seat::BOTH {
            let s = &mut self.seats[seat.index()];
            if s.away && !s.grace_over && s.away_until.is_some_and(|t| t <= now) {
                s.grace_over = true;
                ended.push(seat);
                if !self.game.is_over() {
                    metrics::counter!(crate::metrics::ABANDONMENTS).increment(1);
                }
            }
        }
        if ended.is_empty() || self.game.is_over() {
            return;
        }
        let over = |t: &Table, seat: Seat| t.seats[seat.index()].grace_over;
        let ms = self.now_ms(now);
        for seat in ended {
            let events = match self.after_grace(seat) {
                Some(AfterGrace::Claim) => {
                    self.tell_away(seat);
                    continue;
                }
                Some(AfterGrace::Win) => {
                    tracing::info!(table = %self.id, %seat, "lost by abandonment: nobody to claim");
                    self.game.declare_abandoned(seat, ms)
                }
                // Both away: decided once both graces are over.
                Some(AfterGrace::Abort) if over(self, seat.other()) => {
                    match self.game.declare_aborted(ms) {
                        Ok(events) => Ok(events),
                        Err(_) if self.game.config().time == TimeControl::Unlimited => {
                            self.game.declare_both_away(ms)
                        }
                        Err(e) => Err(e),
                    }
                }
                Some(AfterGrace::Draw) if over(self, seat.other()) => {
                    self.game.declare_both_away(ms)
                }
                _ => continue,
            };
            if let Ok(events) = events
                && self.persist().await.is_ok()
            {
                self.broadcast(events, ms);
            }
            if self.game.is_over() {
                return;
            }
        }
    }

    /// A player claims the win against its absent opponent, or (`draw`)
    /// calls the game a draw.
    pub(super) async fn claim_absence(
        &mut self,
        session: &SessionId,
        outbox: &Outbox,
        id: Option<RequestId>,
        draw: bool,
    ) {
        let Some(seat) = self.seat_of(session) else {
            return self.refuse_non_player(outbox, id);
        };
        if let Some(reason) = self.pause_reason() {
            let why = match reason {
                PauseReason::Store => "the server cannot save actions right now; try again shortly",
                PauseReason::Restored => "the clocks wait until both players are back",
            };
            outbox.refuse(id, ErrorCode::Unavailable, why);
            return;
        }
        let absent = seat.other();
        let open = !self.game.is_over()
            && !self.seats[seat.index()].away
            && self.seats[absent.index()].away
            && self.seats[absent.index()].grace_over
            && self.after_grace(absent) == Some(AfterGrace::Claim);
        if !open {
            let why = "your opponent is not away past the grace: nothing to claim";
            outbox.refuse(id, ErrorCode::NotAbsent, why);
            return;
        }
        let ms = self.now_ms(Instant::now());
        let declared = if draw {
            self.game.declare_draw_called(absent, ms)
        } else {
            self.game.declare_abandoned(absent, ms)
        };
        match declared {
            Ok(events) => {
                if self.persist().await.is_err() {
                    outbox.refuse(
                        id,
                        ErrorCode::Unavailable,
                        "the server could not save your claim, so it did not happen",
                    );
                    return;
                }
                tracing::info!(table = %self.id, %absent, draw, "absence claimed");
                let kind = if draw { "absence_draw" } else { "absence_win" };
                metrics::counter!(crate::metrics::CLAIMS, "kind" => kind).increment(1);
                self.broadcast(events, ms);
                self.reply_acted(outbox, id);
            }
            Err(e) => {
                // The flag fell first: it is the clock's game.
                let due = self.tick_guarded(ms);
                if self.persist().await.is_ok() {
                    self.broadcast(due, ms);
                }
                outbox.send_msg(&tengen_protocol::ServerFrame::error(
                    id,
                    tengen_protocol::ErrorBody::game(e),
                ));
            }
        }
    }

    /// At the end of the game: the one player still away past its grace,
    /// if the game ended against it, left it (a fair-play offence when
    /// rated), unless another reason is noted already.
    pub(super) fn note_leaver(&mut self) {
        let gone: Vec<Seat> = Seat::BOTH
            .into_iter()
            .filter(|s| self.seats[s.index()].away && self.seats[s.index()].grace_over)
            .collect();
        let winner = self.game.result().and_then(|r| r.winner());
        if let ([seat], None) = (gone.as_slice(), self.timers.no_show)
            && winner != Some(*seat)
        {
            self.timers.no_show = Some(*seat);
        }
    }
}
