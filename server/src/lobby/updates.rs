//! Coalescing lobby updates: the changes to rooms between two flushes,
//! reduced to what a watcher needs (a room added and gone within one
//! interval is never mentioned).
//!
//! Also what each watcher who subscribed between two flushes was sent
//! ([`Fresh`]; the `fresh` module makes their first update from it).

use std::collections::{BTreeMap, HashMap};

use tengen_protocol::{LobbyUpdate, RoomId, RoomInfo};

/// Changes gathered for the next coalesced update, by room.
#[derive(Default)]
pub(super) struct Pending {
    pub(super) changes: BTreeMap<RoomId, Change>,
}

pub(super) enum Change {
    Added(RoomInfo),
    Changed(RoomInfo),
    Removed,
}

impl Pending {
    pub(super) fn added(&mut self, info: &RoomInfo) {
        let entry = match self.changes.remove(&info.room) {
            // Gone and back within one interval (another node's room, its
            // node silent for a while): the watchers have it.
            Some(Change::Removed | Change::Changed(_)) => Change::Changed(info.clone()),
            _ => Change::Added(info.clone()),
        };
        self.changes.insert(info.room.clone(), entry);
    }

    pub(super) fn changed(&mut self, info: &RoomInfo) {
        let entry = match self.changes.remove(&info.room) {
            Some(Change::Added(_)) => Change::Added(info.clone()),
            _ => Change::Changed(info.clone()),
        };
        self.changes.insert(info.room.clone(), entry);
    }

    pub(super) fn removed(&mut self, room: &RoomId) {
        match self.changes.remove(room) {
            // Added and gone within one interval: nobody needs to hear.
            Some(Change::Added(_)) => {}
            _ => {
                self.changes.insert(room.clone(), Change::Removed);
            }
        }
    }

    pub(super) fn take(&mut self) -> LobbyUpdate {
        let mut u = LobbyUpdate::default();
        for (room, c) in std::mem::take(&mut self.changes) {
            match c {
                Change::Added(i) => u.added.push(i),
                Change::Changed(i) => u.changed.push(i),
                Change::Removed => u.removed.push(room),
            }
        }
        u
    }
}

/// For each fresh watcher (by connection), the rooms changed before it
/// subscribed, as its room list showed them (`None`: not listed).
#[derive(Default)]
pub(super) struct Fresh {
    seen: HashMap<u64, BTreeMap<RoomId, Option<RoomInfo>>>,
}

impl Fresh {
    /// What watcher `conn` was sent of the rooms changed since the last flush.
    pub(super) fn note(&mut self, conn: u64, seen: BTreeMap<RoomId, Option<RoomInfo>>) {
        self.seen.insert(conn, seen);
    }

    pub(super) fn forget(&mut self, conn: u64) {
        self.seen.remove(&conn);
    }

    pub(super) fn take(&mut self) -> HashMap<u64, BTreeMap<RoomId, Option<RoomInfo>>> {
        std::mem::take(&mut self.seen)
    }
}
