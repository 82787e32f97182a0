//! Talking at a table: chat (players with players, spectators with
//! spectators, so nobody can coach a player) and rematches (offered to the
//! opponent wherever it is, declined, expired with the table).

use std::time::Instant;

use tengen_protocol::{
    ChatChannel, Envelope, ErrorBody, ErrorCode, RematchCancel, RequestId, ServerFrame, ServerMsg,
};
use tengen_rules::game::Seat;

use super::Table;
use crate::msg::lobby::{LobbyCmd, NewRoom};
use crate::outbound::{Outbox, Shared};
use crate::sessions::Session;

impl Table {
    /// Table chat: players to players, spectators to spectators, rate
    /// limited per connection (a burst of 3, then one a second).
    pub(super) fn chat(&mut self, session: &Session, id: Option<RequestId>, text: String) {
        let outbox = &session.outbox;
        let seat = self.seat_of(&session.id);
        if seat.is_none() && !self.subs.spectators.contains_key(&outbox.conn) {
            return self.wrong_table(outbox, id);
        }
        if !self.meta.chat {
            outbox.refuse(id, ErrorCode::ChatOff, "chat is off in this room");
            return;
        }
        let now = Instant::now();
        let (tokens, last) = self
            .social
            .chat_rate
            .entry(outbox.conn)
            .or_insert((3.0, now));
        *tokens = (*tokens + now.saturating_duration_since(*last).as_secs_f64()).min(3.0);
        *last = now;
        if *tokens < 1.0 {
            crate::metrics::error("rate_limited");
            metrics::counter!(crate::metrics::RATE_LIMITED, "what" => "chat").increment(1);
            let wait = ((1.0 - *tokens) * 1000.0).ceil() as u64;
            outbox.send_msg(&ServerFrame::error(id, ErrorBody::rate_limited(wait)));
            return;
        }
        *tokens -= 1.0;
        if self.social.chat_rate.len() > 4 * (self.subs.spectators.len() + 2) {
            let live: Vec<u64> = self.subs.spectators.keys().copied().collect();
            let players: Vec<u64> = self.seats.iter().map(|s| s.session.outbox.conn).collect();
            self.social
                .chat_rate
                .retain(|c, _| live.contains(c) || players.contains(c));
            self.subs.who.retain(|c, _| live.contains(c));
        }
        let channel = if seat.is_some() {
            ChatChannel::Players
        } else {
            ChatChannel::Spectators
        };
        let msg = ServerMsg::Chat {
            table: self.id.clone(),
            channel,
            from: session.player.clone(),
            text,
        };
        // The sender gets it as the reply; the rest of the channel as a push
        // (none when the sender is muted; none to a reader blocking them).
        outbox.send_msg(&Envelope::with_id(id, msg.clone()));
        let book = &self.hosting.moderation.book;
        if crate::moderation::chat::muted(book, &session.player) {
            return;
        }
        let frame = Envelope::push(msg);
        let mut shared = Shared::new(&frame);
        let sender = outbox.conn;
        match channel {
            ChatChannel::Players => {
                for s in &self.seats {
                    if s.subscribed
                        && s.session.outbox.conn != sender
                        && !crate::moderation::chat::hides(book, &s.session.player, &session.player)
                    {
                        s.session
                            .outbox
                            .send(shared.get(s.session.outbox.encoding()));
                    }
                }
            }
            ChatChannel::Spectators => {
                for (c, o) in &self.subs.spectators {
                    let blocks = self.subs.who.get(c).is_some_and(|reader| {
                        crate::moderation::chat::hides(book, reader, &session.player)
                    });
                    if *c != sender && !blocks {
                        o.send(shared.get(o.encoding()));
                    }
                }
            }
        }
    }

    /// A player offers (or accepts) a rematch once the game is over. The
    /// opponent hears of it wherever its connection is now (at the table
    /// or back in the lobby); when both have offered, the lobby starts it
    /// with the opener switched, in the same room or a new one like it.
    /// The offers stand while the table stays open.
    pub(super) fn rematch(&mut self, session: &Session, id: Option<RequestId>) {
        let Some(seat) = self.rematch_seat(session, id) else {
            return;
        };
        self.seats[seat.index()].rematch = true;
        session.outbox.send_msg(&Envelope::with_id(
            id,
            ServerMsg::RematchOffered {
                table: self.id.clone(),
                seat,
                from: None,
                room: None,
                config: None,
            },
        ));
        let offer = Envelope::push(ServerMsg::RematchOffered {
            table: self.id.clone(),
            seat,
            from: Some(self.seats[seat.index()].session.player.clone()),
            room: Some(self.meta.room.clone()),
            config: Some(self.meta.config.clone()),
        });
        if let Some(outbox) = self.player_outbox(seat.other()) {
            outbox.send_msg(&offer);
        }
        if self.seats.iter().all(|s| s.rematch) {
            for s in &mut self.seats {
                s.rematch = false;
            }
            let _ = self.player_outbox(seat);
            self.hosting.lobby.notify(LobbyCmd::Rematch {
                room: self.meta.room.clone(),
                from: self.id.clone(),
                seats: [self.seats[0].session.clone(), self.seats[1].session.clone()],
                opener: self.game.opener().other(),
                like: NewRoom {
                    config: self.meta.config.clone(),
                    public: self.meta.public,
                    name: self.meta.room_name.clone(),
                    chat: self.meta.chat,
                    rated: self.meta.rated,
                },
            });
        }
    }

    /// A player declines the opponent's rematch offer, or withdraws its
    /// own: the offers go, and the other player hears it.
    pub(super) fn decline_rematch(&mut self, session: &Session, id: Option<RequestId>) {
        let Some(seat) = self.rematch_seat(session, id) else {
            return;
        };
        let reason = if self.seats[seat.other().index()].rematch {
            RematchCancel::Declined
        } else if self.seats[seat.index()].rematch {
            RematchCancel::Withdrawn
        } else {
            let why = "no rematch offer stands";
            session.outbox.refuse(id, ErrorCode::NoRematch, why);
            return;
        };
        for s in &mut self.seats {
            s.rematch = false;
        }
        let msg = ServerMsg::RematchCancelled {
            table: self.id.clone(),
            seat: Some(seat),
            reason,
        };
        session.outbox.send_msg(&Envelope::with_id(id, msg.clone()));
        if let Some(outbox) = self.player_outbox(seat.other()) {
            outbox.send_msg(&Envelope::push(msg));
        }
    }

    /// The table closes with a rematch offer standing: it is gone.
    pub(super) fn rematch_expired(&mut self) {
        if !self.seats.iter().any(|s| s.rematch) {
            return;
        }
        let msg = Envelope::push(ServerMsg::RematchCancelled {
            table: self.id.clone(),
            seat: None,
            reason: RematchCancel::Expired,
        });
        for seat in Seat::BOTH {
            if let Some(outbox) = self.player_outbox(seat) {
                outbox.send_msg(&msg);
            }
        }
    }

    /// The seat of the player asking about a rematch, if one may be asked
    /// about now; refuses otherwise.
    fn rematch_seat(&self, session: &Session, id: Option<RequestId>) -> Option<Seat> {
        let outbox = &session.outbox;
        let Some(seat) = self.seat_of(&session.id) else {
            outbox.refuse(
                id,
                ErrorCode::NotAPlayer,
                "only the players can ask for a rematch",
            );
            return None;
        };
        if !self.game.is_over() {
            outbox.refuse(id, ErrorCode::NoRematch, "the game is not over");
            return None;
        }
        if self.meta.tournament.is_some() {
            let why = "a tournament game has no rematch: the tournament pairs the next";
            outbox.refuse(id, ErrorCode::NoRematch, why);
            return None;
        }
        if let Some(next) = &self.rematched {
            let why = format!("the rematch has started at table {next}");
            outbox.refuse(id, ErrorCode::NoRematch, why);
            return None;
        }
        Some(seat)
    }

    /// Where `seat`'s player is now: the connection holding its session
    /// (which may have left the table for the lobby, or be a new one after
    /// a reconnection), else the one the table knows; `None` when closed.
    fn player_outbox(&mut self, seat: Seat) -> Option<Outbox> {
        let s = &mut self.seats[seat.index()];
        if let Some(holder) = self.hosting.sessions.holder(&s.session.id)
            && holder.conn != s.session.outbox.conn
        {
            s.session.outbox = holder;
            s.subscribed = false;
        }
        (!s.session.outbox.is_closed()).then(|| s.session.outbox.clone())
    }
}
