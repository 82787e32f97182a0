//! Rated rooms in the lobby: who may sit in one, and the rooms the
//! matchmaker's pairings are played in.
//!
//! A rated room takes accounts only (`login_required` for a guest), and
//! never one account in both seats (two sessions of one account), nor a
//! player waiting out a fair-play ban (`playbanned`, whether creating,
//! challenging or joining; `crate::moderation::fairplay`). A
//! matchmaker pairing becomes a public rated room with both seats taken,
//! its table started at once; both players hear `matched` before the
//! table's first snapshot. A player who meanwhile sat down elsewhere (the
//! seat limit) is dropped from the queue with an `unqueued` push, and the
//! other waits on.

use tengen_protocol::{
    Envelope, ErrorBody, ErrorCode, Players, RequestId, RoomId, RoomInfo, RoomStatus, ServerMsg,
    TableId, TournamentGame,
};
use tengen_rules::game::{GameConfig, Seat};
use tengen_store::name_key;

use super::{Lobby, Room, refuse};
use crate::moderation::book::Book;
use crate::moderation::fairplay;
use crate::msg::matchmaker::{MatchCmd, MatchmakerHandle, Pairing};
use crate::sessions::Session;

impl Room {
    /// Why `session` may not join the rated `room`, if it may not
    /// (`book`: the standings this node holds).
    pub(super) fn may_join_rated(&self, session: &Session, book: &Book) -> Result<(), ErrorBody> {
        if session.player.guest {
            return Err(ErrorBody::new(
                ErrorCode::LoginRequired,
                "a rated room takes accounts only: log in first",
            ));
        }
        let me = name_key(&session.player.name);
        if self
            .seats
            .iter()
            .flatten()
            .any(|s| name_key(&s.player.name) == me)
        {
            return Err(ErrorBody::new(
                ErrorCode::BadRequest,
                "you cannot play a rated game against yourself",
            ));
        }
        match fairplay::barred(book, &session.player.name) {
            Some(refusal) => Err(refusal),
            None => Ok(()),
        }
    }
}

impl Lobby {
    /// Whether `session` may create a rated room or send a rated challenge
    /// (refused if not: a guest, or a fair-play wait running).
    pub(super) fn may_rate(&self, session: &Session, id: Option<RequestId>) -> bool {
        if session.player.guest {
            refuse(
                session,
                id,
                ErrorCode::LoginRequired,
                "rated games are for accounts: log in first".into(),
            );
            return false;
        }
        if let Some(refusal) = fairplay::barred(&self.hosting.moderation.book, &session.player.name)
        {
            session.outbox.refuse_with(id, refusal);
            return false;
        }
        true
    }

    /// `playbanned` for a rated challenge to `name`, who waits out a
    /// fair-play ban (`retry_after_ms`: how long).
    pub(super) fn opponent_barred(&self, name: &str) -> Option<ErrorBody> {
        let theirs = fairplay::barred(&self.hosting.moderation.book, name)?;
        let left = crate::moderation::playban::in_words(theirs.retry_after_ms.unwrap_or(0));
        let why = format!(
            "{name} cannot play rated games for another {left} (a fair-play wait); challenge them to a casual game"
        );
        Some(ErrorBody {
            message: why,
            ..theirs
        })
    }

    /// Whether a rematch in `room` must not start because it is rated and
    /// a player waits out a fair-play ban: then that player hears
    /// `playbanned` and the other `no_rematch`.
    pub(super) fn rematch_barred(&self, room: &RoomId, seats: &[Session; 2]) -> bool {
        if !self.rooms.get(room).is_some_and(|r| r.info.rated) {
            return false;
        }
        let book = &self.hosting.moderation.book;
        let Some((who, refusal)) = seats
            .iter()
            .find_map(|s| fairplay::barred(book, &s.player.name).map(|r| (s.id.clone(), r)))
        else {
            return false;
        };
        for s in seats {
            if s.id == who {
                s.outbox.refuse_with(None, refusal.clone());
            } else {
                let why = "your opponent cannot play rated games for now".to_owned();
                refuse(s, None, ErrorCode::NoRematch, why);
            }
        }
        true
    }

    /// Seats a matchmaker pairing in a new rated room and starts its game.
    pub(super) fn matched(&mut self, pairing: Pairing, matchmaker: MatchmakerHandle) {
        let Pairing {
            config,
            seats,
            opener,
        } = pairing;
        // A player who meanwhile sat down elsewhere, or whose fair-play
        // wait began meanwhile (a game of theirs just ended), is dropped.
        let book = &self.hosting.moderation.book;
        let free = seats.each_ref().map(|w| {
            self.seats_of(&w.session.id) < self.seat_cap(&w.session)
                && fairplay::barred(book, &w.session.player.name).is_none()
        });
        if !free.iter().all(|f| *f) {
            for (w, ok) in seats.into_iter().zip(free) {
                if ok {
                    let _ = matchmaker.try_send(MatchCmd::Requeue {
                        config: config.clone(),
                        waiter: w,
                    });
                } else {
                    w.session
                        .outbox
                        .send_msg(&Envelope::push(ServerMsg::Unqueued));
                }
            }
            return;
        }
        let [a, b] = seats.map(|w| w.session);
        let table_id = TableId::from_u64(rand::random());
        self.seat_pair(config, [a, b], opener, table_id, true, None);
    }

    /// Opens a public room with both seats taken (`seats` by room seat),
    /// tells both players (`matched`, with `tournament` for a tournament
    /// game) and starts its table at `table_id`.
    pub(super) fn seat_pair(
        &mut self,
        config: GameConfig,
        seats: [Session; 2],
        opener: Seat,
        table_id: TableId,
        rated: bool,
        tournament: Option<TournamentGame>,
    ) {
        let [a, b] = seats;
        let room_id = RoomId::from_u64(rand::random());
        let info = RoomInfo {
            room: room_id.clone(),
            name: None,
            config: config.clone(),
            players: Players {
                first: Some(a.player.clone()),
                second: Some(b.player.clone()),
            },
            status: RoomStatus::Waiting,
            table: None,
            spectators: 0,
            chat: true,
            rated,
        };
        self.pending.added(&info);
        for (seat, me, them) in [(Seat::First, &a, &b), (Seat::Second, &b, &a)] {
            self.sit(&me.id, &room_id);
            me.outbox.send_msg(&Envelope::push(ServerMsg::Matched {
                room: room_id.clone(),
                table: table_id.clone(),
                seat,
                opponent: them.player.clone(),
                config: config.clone(),
                tournament: tournament.clone(),
            }));
        }
        self.rooms.insert(
            room_id.clone(),
            Room {
                info,
                public: true,
                challenged: None,
                opener: None,
                seats: [Some(a.clone()), Some(b.clone())],
            },
        );
        self.start_table(&room_id, [a, b], opener, table_id, tournament);
    }
}
