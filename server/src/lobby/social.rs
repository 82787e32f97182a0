//! Challenges to a named player and rematches (a new table in the same
//! room, the opener switched). A challenge is made on the node where its
//! player is online (found there by [`super::find`] when it is not here),
//! so that the refusals about them are decided where their session is.

use super::lookups::ChallengeAsk;
use super::*;
use tengen_protocol::RoomInfo;

impl Lobby {
    /// A challenge: a private room for the challenger that only the named
    /// player (online now) may join; they hear of it at once. A rated one
    /// is a rated room (as `create_room` with `rated`), so its result
    /// updates ratings as a matchmaker pairing's does; both must be
    /// accounts. A player not online here is looked for on the other
    /// nodes ([`super::find`]).
    pub(super) fn challenge(&mut self, session: Session, id: Option<RequestId>, ask: ChallengeAsk) {
        if ask.rated && !self.may_rate(&session, id) {
            return;
        }
        match self.hosting.sessions.online(&ask.player) {
            Some(target) => self.challenge_here(session, id, ask, target, true),
            None => self.find_elsewhere(session, id, ask),
        }
    }

    /// A challenge from a connection of another node, whose lookup found
    /// the player here: made as a local one, the challenger seated
    /// through its relay. Its bot allowance was counted at its own node.
    pub(super) fn challenge_routed(
        &mut self,
        session: Session,
        id: Option<RequestId>,
        ask: ChallengeAsk,
    ) {
        if ask.rated && !self.may_rate(&session, id) {
            return;
        }
        match self.hosting.sessions.online(&ask.player) {
            Some(target) => self.challenge_here(session, id, ask, target, false),
            None => refuse(
                &session,
                id,
                ErrorCode::NotFound,
                format!("nobody called {} is online", ask.player),
            ),
        }
    }

    /// The challenge of `target`, online here: the refusals that depend on
    /// them, then the room. `count`: a bot challenging a bot uses its
    /// hourly allowance here (not when it was counted at its own node).
    fn challenge_here(
        &mut self,
        session: Session,
        id: Option<RequestId>,
        ask: ChallengeAsk,
        (target, them, outbox): (SessionId, tengen_protocol::Player, crate::outbound::Outbox),
        count: bool,
    ) {
        let ChallengeAsk {
            player,
            config,
            chat,
            rated,
        } = ask;
        if target == session.id {
            return refuse(
                &session,
                id,
                ErrorCode::BadRequest,
                "you cannot challenge yourself".into(),
            );
        }
        if rated && them.guest {
            return refuse(
                &session,
                id,
                ErrorCode::LoginRequired,
                format!("{player} is a guest: rated games are between accounts"),
            );
        }
        if rated && let Some(refusal) = self.opponent_barred(&them.name) {
            session.outbox.refuse_with(id, refusal);
            return;
        }
        if crate::moderation::chat::apart(&self.hosting.moderation.book, &session.player, &them) {
            let why = format!("{player} and you block challenges from each other");
            return refuse(&session, id, ErrorCode::Blocked, why);
        }
        let refused = them.bot.then(|| {
            let filters = &self.hosting.bot_filters;
            filters.refusal(&them.name, &config, rated, session.player.bot)
        });
        if let Some(Some(why)) = refused {
            return refuse(
                &session,
                id,
                ErrorCode::BotRefused,
                format!("{player}: {why}"),
            );
        }
        if count && them.bot && session.player.bot && !self.bot_challenge_counted(&session, id) {
            return;
        }
        let from = session.player.clone();
        let new = NewRoom {
            config: config.clone(),
            public: false,
            name: None,
            chat,
            rated,
        };
        let Some(room) = self.create(session, id, new) else {
            return;
        };
        if let Some(r) = self.rooms.get_mut(&room) {
            r.challenged = Some(target);
        }
        outbox.send_msg(&Envelope::push(ServerMsg::Challenged {
            room,
            from,
            config,
            rated,
        }));
    }

    /// Counts a bot's challenge to another bot against its hourly
    /// allowance; `false` (and `rate_limited` with when to retry) beyond.
    pub(super) fn bot_challenge_counted(&self, session: &Session, id: Option<RequestId>) -> bool {
        let per_hour = self.hosting.settings.bot_challenges_per_hour;
        let now = std::time::Instant::now();
        let book = &self.hosting.bot_filters;
        let Err(wait) = book.bot_challenge(&session.player.name, now, per_hour) else {
            return true;
        };
        let why = format!("a bot challenges other bots at most {per_hour} times an hour");
        let body = tengen_protocol::ErrorBody {
            retry_after_ms: Some(wait.as_millis() as u64),
            ..tengen_protocol::ErrorBody::new(ErrorCode::RateLimited, why)
        };
        session.outbox.refuse_with(id, body);
        false
    }

    /// The challenged player refuses: the room goes, and the challenger
    /// hears why.
    pub(super) fn decline(&mut self, session: Session, id: Option<RequestId>, room_id: RoomId) {
        let mine = self.rooms.get(&room_id).is_some_and(|r| {
            r.challenged.as_ref() == Some(&session.id) && r.info.status == RoomStatus::Waiting
        });
        if !mine {
            return refuse(
                &session,
                id,
                ErrorCode::NotFound,
                format!("no challenge {room_id} for you"),
            );
        }
        reply(
            &session,
            id,
            ServerMsg::RoomCancelled {
                room: room_id.clone(),
                reason: CancelReason::Declined,
            },
        );
        self.remove(&room_id, CancelReason::Declined, Some(&session.id));
    }

    /// Both players want a rematch. It is played in the finished room, the
    /// players seated again if they had left it, or, when both had (the
    /// room is gone), in a new room like it. Players hear `rematch_started`
    /// first, then get the new table's snapshot; a player who meanwhile
    /// sits at as many games as allowed, or may not play rated now, stops
    /// it (both hear why).
    pub(super) fn rematch(
        &mut self,
        room_id: RoomId,
        from: TableId,
        seats: [Session; 2],
        opener: Seat,
        like: NewRoom,
    ) {
        let same_room = self.rooms.get(&room_id).is_some_and(|r| {
            r.info.status == RoomStatus::Finished && r.info.table.as_ref() == Some(&from)
        });
        let busy = seats.iter().find(|s| {
            let here = self
                .rooms
                .get(&room_id)
                .is_some_and(|r| same_room && r.seat_of(&s.id).is_some());
            !here && self.seats_of(&s.id) >= self.seat_cap(s)
        });
        if let Some(b) = busy {
            let why = format!("{} sits at as many games as allowed now", b.player.name);
            for s in &seats {
                refuse(s, None, ErrorCode::NoRematch, why.clone());
            }
            return;
        }
        let room_id = if same_room {
            room_id
        } else {
            self.room_like(&seats, like)
        };
        if self.rematch_barred(&room_id, &seats) {
            return;
        }
        if let Some(room) = self.rooms.get_mut(&room_id) {
            let old = std::mem::replace(
                &mut room.seats,
                [Some(seats[0].clone()), Some(seats[1].clone())],
            );
            room.info.players.first = Some(seats[0].player.clone());
            room.info.players.second = Some(seats[1].player.clone());
            for s in &seats {
                if !old.iter().flatten().any(|o| o.id == s.id) {
                    self.sit(&s.id, &room_id);
                }
            }
        }
        // The players hear of the new table before its first snapshot can
        // reach them (it is queued behind this in their outboxes).
        let rematch = TableId::from_u64(rand::random());
        for s in &seats {
            reply(
                s,
                None,
                ServerMsg::RematchStarted {
                    table: from.clone(),
                    rematch: rematch.clone(),
                    room: room_id.clone(),
                },
            );
        }
        if self.start_table(&room_id, seats, opener, rematch.clone(), None)
            && let Some(old) = self.hosting.directory.get(&from)
        {
            let _ = old.try_send(crate::msg::table::TableCmd::RematchStarted { rematch });
        }
    }

    /// A new finished-state room like the one a rematch was offered in
    /// (both its players had left it), for the rematch to start in.
    fn room_like(&mut self, seats: &[Session; 2], like: NewRoom) -> RoomId {
        let room = RoomId::from_u64(rand::random());
        let info = RoomInfo {
            room: room.clone(),
            name: like.name,
            config: like.config,
            players: Players {
                first: Some(seats[0].player.clone()),
                second: Some(seats[1].player.clone()),
            },
            status: RoomStatus::Finished,
            table: None,
            spectators: 0,
            chat: like.chat,
            rated: like.rated,
        };
        self.rooms.insert(
            room.clone(),
            Room {
                info,
                public: like.public,
                challenged: None,
                seats: [None, None],
                // The rematch names its own opener when it starts.
                opener: None,
            },
        );
        room
    }
}
