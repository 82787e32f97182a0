//! Talking at a table: chat (players with players, spectators with
//! spectators, so nobody can coach a player) and rematches.

use std::time::Instant;

use tengen_protocol::{
    ChatChannel, Envelope, ErrorBody, ErrorCode, RequestId, ServerFrame, ServerMsg,
};

use super::Table;
use crate::msg::lobby::LobbyCmd;
use crate::outbound::Shared;
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

    /// A player offers (or accepts) a rematch once the game is over; when
    /// both have, the lobby starts it with the opener switched.
    pub(super) fn rematch(&mut self, session: &Session, id: Option<RequestId>) {
        let outbox = &session.outbox;
        let Some(seat) = self.seat_of(&session.id) else {
            outbox.refuse(
                id,
                ErrorCode::NotAPlayer,
                "only the players can ask for a rematch",
            );
            return;
        };
        if !self.game.is_over() {
            outbox.refuse(id, ErrorCode::NoRematch, "the game is not over");
            return;
        }
        if self.meta.tournament.is_some() {
            let why = "a tournament game has no rematch: the tournament pairs the next";
            outbox.refuse(id, ErrorCode::NoRematch, why);
            return;
        }
        self.seats[seat.index()].rematch = true;
        let msg = ServerMsg::RematchOffered {
            table: self.id.clone(),
            seat,
        };
        outbox.send_msg(&Envelope::with_id(id, msg.clone()));
        let other = &self.seats[seat.other().index()];
        if other.subscribed {
            other.session.outbox.send_msg(&Envelope::push(msg));
        }
        if self.seats.iter().all(|s| s.rematch) {
            for s in &mut self.seats {
                s.rematch = false;
            }
            self.hosting.lobby.notify(LobbyCmd::Rematch {
                room: self.meta.room.clone(),
                from: self.id.clone(),
                seats: [self.seats[0].session.clone(), self.seats[1].session.clone()],
                opener: self.game.opener().other(),
            });
        }
    }
}
