//! Rated rooms in the lobby: who may sit in one, and the rooms the
//! matchmaker's pairings are played in.
//!
//! A rated room takes accounts only (`login_required` for a guest), and
//! never one account in both seats (two sessions of one account). A
//! matchmaker pairing becomes a public rated room with both seats taken,
//! its table started at once; both players hear `matched` before the
//! table's first snapshot. A player who meanwhile sat down elsewhere (the
//! seat limit) is dropped from the queue with an `unqueued` push, and the
//! other waits on.

use tengen_protocol::{
    Envelope, ErrorCode, Players, RequestId, RoomId, RoomInfo, RoomStatus, ServerMsg, TableId,
    TournamentGame,
};
use tengen_rules::game::{GameConfig, Seat};
use tengen_store::name_key;

use super::{Lobby, Room, refuse};
use crate::msg::matchmaker::{MatchCmd, MatchmakerHandle, Pairing};
use crate::sessions::Session;

impl Room {
    /// Why `session` may not join the rated `room`, if it may not.
    pub(super) fn may_join_rated(&self, session: &Session) -> Result<(), (ErrorCode, String)> {
        if session.player.guest {
            return Err((
                ErrorCode::LoginRequired,
                "a rated room takes accounts only: log in first".into(),
            ));
        }
        let me = name_key(&session.player.name);
        if self
            .seats
            .iter()
            .flatten()
            .any(|s| name_key(&s.player.name) == me)
        {
            return Err((
                ErrorCode::BadRequest,
                "you cannot play a rated game against yourself".into(),
            ));
        }
        Ok(())
    }
}

impl Lobby {
    /// Whether `session` may create a rated room (refused if not).
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
        true
    }

    /// Seats a matchmaker pairing in a new rated room and starts its game.
    pub(super) fn matched(&mut self, pairing: Pairing, matchmaker: MatchmakerHandle) {
        let Pairing {
            config,
            seats,
            opener,
        } = pairing;
        let free = seats
            .each_ref()
            .map(|w| self.seats_of(&w.session.id) < self.seat_cap(&w.session));
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
                seats: [Some(a.clone()), Some(b.clone())],
            },
        );
        self.start_table(&room_id, [a, b], opener, table_id, tournament);
    }
}
