//! Watchers who subscribed between two flushes.
//!
//! A new watcher gets the room list as it is *now*, but the changes
//! gathered since the last flush are still to go out as one update to
//! everyone. Sent as they are, they would repeat what the new watcher has
//! (`added` for a room it already lists) or miss what it needs (a room
//! created and cancelled within one interval is never mentioned, so a
//! watcher that was sent it in between would keep it forever). So for each
//! room already changed when the watcher subscribed, the lobby notes what
//! the watcher was sent, and its first update says, for those rooms, how
//! the list differs from that; for every other room the common update is
//! right for it as for everyone. The snapshot and the updates after it
//! then form one sequence, as the protocol promises.

use std::collections::BTreeMap;

use tengen_protocol::{LobbyUpdate, RoomId, RoomInfo, ServerMsg};

use super::Lobby;

impl Lobby {
    /// Notes what watcher `conn` was just sent (`rooms`, a `rooms` message)
    /// of the rooms whose changes are still to go out.
    pub(super) fn note_fresh(&mut self, conn: u64, rooms: &ServerMsg) {
        let ServerMsg::Rooms { rooms, .. } = rooms else {
            return;
        };
        let changed = &self.pending.watchers.changes;
        if changed.is_empty() {
            return;
        }
        let seen = changed
            .keys()
            .map(|id| (id.clone(), rooms.iter().find(|r| r.room == *id).cloned()))
            .collect();
        self.fresh.note(conn, seen);
    }

    /// The room as the lobby lists it now, if it does.
    fn listed(&self, room: &RoomId) -> Option<&RoomInfo> {
        match self.rooms.get(room) {
            Some(r) => r.public.then_some(&r.info),
            None => self.pending.listed_other(room),
        }
    }

    /// `common`, the update for everyone, made right for a watcher that
    /// was sent `seen` of the rooms it names.
    pub(super) fn fresh_update(
        &self,
        common: &LobbyUpdate,
        seen: &BTreeMap<RoomId, Option<RoomInfo>>,
    ) -> LobbyUpdate {
        let mut u = LobbyUpdate {
            added: keep(&common.added, seen),
            changed: keep(&common.changed, seen),
            removed: common
                .removed
                .iter()
                .filter(|r| !seen.contains_key(*r))
                .cloned()
                .collect(),
        };
        for (id, was) in seen {
            match (was, self.listed(id)) {
                (None, Some(now)) => u.added.push(now.clone()),
                (Some(was), Some(now)) if was != now => u.changed.push(now.clone()),
                (Some(_), None) => u.removed.push(id.clone()),
                _ => {}
            }
        }
        u
    }
}

fn keep(rooms: &[RoomInfo], seen: &BTreeMap<RoomId, Option<RoomInfo>>) -> Vec<RoomInfo> {
    rooms
        .iter()
        .filter(|r| !seen.contains_key(&r.room))
        .cloned()
        .collect()
}
