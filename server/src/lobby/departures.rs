//! Players leaving: `leave_room`/`cancel_room`, a finished room emptied
//! seat by seat, a session's departure, and a room's removal.

use super::*;

impl Lobby {
    /// Leaving a waiting room: the creator's leave (or cancel) cancels it.
    pub(super) fn leave(
        &mut self,
        session: Session,
        id: Option<RequestId>,
        room_id: RoomId,
        cancel: bool,
    ) {
        let Some(room) = self.rooms.get_mut(&room_id) else {
            return self.leave_elsewhere(session, id, room_id, cancel);
        };
        let Some(seat) = room.seat_of(&session.id) else {
            return refuse(
                &session,
                id,
                ErrorCode::NotAPlayer,
                "you do not sit in this room".into(),
            );
        };
        if room.info.status == RoomStatus::Finished && !cancel {
            reply(
                &session,
                id,
                ServerMsg::Left {
                    room: room_id.clone(),
                },
            );
            self.vacate(&room_id, seat);
            return;
        }
        if room.info.status != RoomStatus::Waiting {
            return refuse(
                &session,
                id,
                ErrorCode::GameInProgress,
                "the game has started: resign or abort it instead".into(),
            );
        }
        if cancel && seat != 0 {
            return refuse(
                &session,
                id,
                ErrorCode::NotAPlayer,
                "only the creator may cancel".into(),
            );
        }
        let msg = if cancel {
            ServerMsg::RoomCancelled {
                room: room_id.clone(),
                reason: CancelReason::ByCreator,
            }
        } else {
            ServerMsg::Left {
                room: room_id.clone(),
            }
        };
        reply(&session, id, msg);
        self.remove(&room_id, CancelReason::ByCreator, Some(&session.id));
    }

    /// A player leaves a finished room; the room goes with its last player.
    pub(super) fn vacate(&mut self, room_id: &RoomId, seat: usize) {
        let Some(room) = self.rooms.get_mut(room_id) else {
            return;
        };
        let Some(left) = room.seats[seat].take() else {
            return;
        };
        let empty = room.seats.iter().all(Option::is_none);
        self.unsit(&left.id, room_id);
        if empty && let Some(room) = self.take_room(room_id) {
            self.pending.gone(room_id, room.public);
        }
    }

    /// A connection closed: the waiting rooms it created are cancelled, and
    /// it leaves the finished rooms it sat in.
    pub(super) fn gone(&mut self, session: &SessionId) {
        let rooms = self.seated.get(session).cloned().unwrap_or_default();
        for room_id in rooms {
            let Some(room) = self.rooms.get(&room_id) else {
                continue;
            };
            let seat = room.seat_of(session);
            match (room.info.status, seat) {
                (RoomStatus::Finished, Some(seat)) => self.vacate(&room_id, seat),
                (RoomStatus::Waiting, Some(0)) => {
                    self.remove(&room_id, CancelReason::CreatorGone, Some(session))
                }
                _ => {}
            }
        }
    }

    /// `session` lives on at a new connection: its seats in rooms follow
    /// it there (a waiting room stays open, and the game it starts is
    /// announced on the new connection).
    pub(super) fn resumed(&mut self, session: Session) {
        let rooms = self.seated.get(&session.id).cloned().unwrap_or_default();
        for room_id in rooms {
            if let Some(room) = self.rooms.get_mut(&room_id) {
                for s in room.seats.iter_mut().flatten() {
                    if s.id == session.id {
                        *s = session.clone();
                    }
                }
            }
        }
    }

    /// Removes a room, telling its players why (all but `told`, who got a
    /// reply already or is gone).
    pub(super) fn remove(
        &mut self,
        room_id: &RoomId,
        reason: CancelReason,
        told: Option<&SessionId>,
    ) {
        if let Some(room) = self.take_room(room_id) {
            for s in room.seats.iter().flatten().filter(|s| Some(&s.id) != told) {
                reply(
                    s,
                    None,
                    ServerMsg::RoomCancelled {
                        room: room_id.clone(),
                        reason,
                    },
                );
            }
            self.pending.gone(room_id, room.public);
        }
    }
}
