//! Tournament games in the lobby: the director sends each game of a
//! round (and each next game of a match) here, and it is played like a
//! matchmaker pairing (`rated::seat_pair`): a public room with both seats
//! taken, the paired opener in the first seat, the tournament's rules and
//! rating, and `matched` (with the game's `tournament`) to both players
//! before the table's first snapshot.
//!
//! A player connected to another node is seated through the relay of
//! their connection the director last heard them on (as a matchmaker
//! pairing seats a remote waiter). A player connected nowhere, or who
//! already sits at as many tables as allowed, cannot be seated now: nothing starts, and the
//! director hears who was absent (it asks again until the tournament's
//! wait is over, then scores the game as lost by the absent player).

use tengen_protocol::{RoomStatus, SessionId};
use tengen_rules::game::Seat;

use super::Lobby;
use crate::msg::tournament::{DirectorCmd, TournamentSeating};
use crate::sessions::Session;

impl Lobby {
    pub(super) fn tournament_game(&mut self, seating: TournamentSeating) {
        let TournamentSeating {
            game,
            players,
            known,
            config,
            rated,
            table,
            director,
        } = seating;
        let found = [0, 1].map(|i| {
            let session = match self.hosting.sessions.online(&players[i]) {
                Some((id, player, outbox)) => Session { id, player, outbox },
                None => known[i].clone().filter(|s| !s.outbox.is_closed())?,
            };
            (self.busy_seats(&session.id) < self.seat_cap(&session)).then_some(session)
        });
        let absent = found.each_ref().map(Option::is_none);
        let (Some(a), Some(b)) = (found[0].clone(), found[1].clone()) else {
            if !director.try_send(DirectorCmd::Absent {
                game,
                table,
                absent,
            }) {
                tracing::warn!("the tournament director is busy: it will ask again");
            }
            return;
        };
        for s in [&a, &b] {
            self.leave_finished(&s.id);
        }
        self.seat_pair(config, [a, b], Seat::First, table, rated, Some(game));
    }

    /// The rooms `session` sits in whose game is not over, here and on
    /// the other nodes (a finished room is left for the next game, as its
    /// player would leave it).
    fn busy_seats(&self, session: &SessionId) -> usize {
        let rooms = self.seated.get(session).map_or(&[][..], Vec::as_slice);
        let here = rooms
            .iter()
            .filter(|r| {
                self.rooms
                    .get(*r)
                    .is_some_and(|r| r.info.status != RoomStatus::Finished)
            })
            .count();
        let elsewhere = self
            .pending
            .seated_elsewhere(session)
            .filter(|o| {
                !self.rooms.contains_key(&o.room.info.room)
                    && o.room.info.status != RoomStatus::Finished
            })
            .count();
        here + elsewhere
    }

    /// `session` leaves every finished room it sits in.
    fn leave_finished(&mut self, session: &SessionId) {
        let rooms = self.seated.get(session).cloned().unwrap_or_default();
        for room_id in rooms {
            let Some(room) = self.rooms.get(&room_id) else {
                continue;
            };
            let seat = room.seat_of(session);
            if let (RoomStatus::Finished, Some(seat)) = (room.info.status, seat) {
                self.vacate(&room_id, seat);
            }
        }
    }
}
