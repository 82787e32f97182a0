//! The lobby as this node shows it: its own rooms and the other nodes'
//! (kept here as they tell of them), the changes its watchers get next,
//! and the changes to its own rooms the other nodes get next. See
//! [`super::remote`] for how the nodes keep each other's rooms.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Instant;

use tengen_protocol::{LobbyUpdate, RoomId, RoomInfo, SessionId};

use super::updates::Pending;
use crate::cluster::wire::{LobbyNews, SharedRoom};
use crate::msg::node::{NodeCmd, NodeHandle};

/// Rooms per message between nodes.
pub const PART: usize = 256;

/// A room of another node.
pub(super) struct Other {
    pub(super) node: String,
    pub(super) room: SharedRoom,
}

/// What this node knows of another node's lobby.
pub(super) struct Peer {
    pub(super) epoch: u64,
    /// The last update applied.
    pub(super) seq: u64,
    /// Whether the rooms are complete as of `seq` (else updates wait for
    /// the answer to a `Sync`).
    pub(super) synced: bool,
    pub(super) heard: Instant,
    /// When a `Sync` was last asked of it.
    pub(super) asked: Option<Instant>,
    pub(super) rooms: BTreeSet<RoomId>,
    /// An answer to `Sync` arriving in parts.
    pub(super) incoming: Option<Incoming>,
}

pub(super) struct Incoming {
    pub(super) epoch: u64,
    pub(super) seq: u64,
    pub(super) next: u32,
    pub(super) rooms: Vec<SharedRoom>,
}

/// This node's side of the conversation.
pub(super) struct Link {
    /// This node's actor, which publishes for the lobby.
    pub(super) node: NodeHandle,
    pub(super) me: String,
    pub(super) epoch: u64,
    pub(super) seq: u64,
    pub(super) next_alive: Instant,
}

/// The lobby view: the changes gathered for this node's watchers (its own
/// public rooms and the other nodes'), the changes to its own rooms for
/// the other nodes, and the other nodes' rooms.
#[derive(Default)]
pub(super) struct View {
    pub(super) watchers: Pending,
    /// This node's rooms changed since the last update sent: as they are
    /// now, or `None` when gone.
    pub(super) outgoing: BTreeMap<RoomId, Option<SharedRoom>>,
    /// This node's own public rooms.
    pub(super) local: BTreeSet<RoomId>,
    pub(super) others: BTreeMap<RoomId, Other>,
    /// The rooms of `others` each session sits in (its seats on other
    /// nodes, counted against its limit here).
    pub(super) elsewhere: HashMap<SessionId, BTreeSet<RoomId>>,
    pub(super) peers: HashMap<String, Peer>,
    pub(super) link: Option<Link>,
}

impl View {
    /// A public room of this node was added.
    pub(super) fn added(&mut self, info: &RoomInfo) {
        self.set(info, true);
    }

    /// A room of this node was added or changed.
    pub(super) fn set(&mut self, info: &RoomInfo, public: bool) {
        if self.link.is_some() {
            // Its seats are filled in when it is published.
            let room = SharedRoom {
                info: info.clone(),
                public,
                seats: Vec::new(),
            };
            self.outgoing.insert(info.room.clone(), Some(room));
        }
        if !public {
            return;
        }
        let shown = self.local.contains(&info.room) || self.listed_other(&info.room).is_some();
        self.local.insert(info.room.clone());
        if shown {
            self.watchers.changed(info);
        } else {
            self.watchers.added(info);
        }
    }

    /// A room of this node went.
    pub(super) fn gone(&mut self, room: &RoomId, public: bool) {
        if self.link.is_some() {
            self.outgoing.insert(room.clone(), None);
        }
        if !public || !self.local.remove(room) {
            return;
        }
        match self.listed_other(room) {
            Some(info) => {
                let info = info.clone();
                self.watchers.changed(&info);
            }
            None => self.watchers.removed(room),
        }
    }

    /// The update for this node's watchers, if anything changed.
    pub(super) fn take(&mut self) -> Option<LobbyUpdate> {
        (!self.watchers.changes.is_empty()).then(|| self.watchers.take())
    }

    /// Another node's public room, as listed.
    pub(super) fn listed_other(&self, room: &RoomId) -> Option<&RoomInfo> {
        self.others
            .get(room)
            .filter(|o| o.room.public)
            .map(|o| &o.room.info)
    }

    /// Node `node` has `room` as it is now.
    pub(super) fn upsert_other(&mut self, node: &str, room: SharedRoom) {
        let id = room.info.room.clone();
        let public = room.public;
        let info = room.info.clone();
        for s in &room.seats {
            self.elsewhere
                .entry(s.clone())
                .or_default()
                .insert(id.clone());
        }
        let before = self.others.insert(
            id.clone(),
            Other {
                node: node.to_owned(),
                room,
            },
        );
        if let Some(b) = &before {
            let now = &self.others[&id].room.seats;
            let left: Vec<SessionId> = b
                .room
                .seats
                .iter()
                .filter(|s| !now.contains(s))
                .cloned()
                .collect();
            for s in &left {
                self.unseat_elsewhere(s, &id);
            }
        }
        if let Some(b) = &before
            && b.node != node
            && let Some(p) = self.peers.get_mut(&b.node)
        {
            p.rooms.remove(&id);
        }
        if let Some(p) = self.peers.get_mut(node) {
            p.rooms.insert(id.clone());
        }
        if self.local.contains(&id) {
            return; // this node's own copy is the one shown
        }
        let same = before.as_ref().is_some_and(|b| b.room.info == info);
        match (before.is_some_and(|b| b.room.public), public) {
            (true, true) if same => {} // a sync's answer repeats what is known
            (true, true) => self.watchers.changed(&info),
            (false, true) => self.watchers.added(&info),
            (true, false) => self.watchers.removed(&id),
            (false, false) => {}
        }
    }

    /// Node `node` no longer has `room`.
    pub(super) fn remove_other(&mut self, node: &str, room: &RoomId) {
        if self.others.get(room).is_none_or(|o| o.node != node) {
            return;
        }
        if let Some(p) = self.peers.get_mut(node) {
            p.rooms.remove(room);
        }
        let Some(o) = self.others.remove(room) else {
            return;
        };
        for s in &o.room.seats {
            self.unseat_elsewhere(s, room);
        }
        if o.room.public && !self.local.contains(room) {
            self.watchers.removed(room);
        }
    }

    pub(super) fn unseat_elsewhere(&mut self, session: &SessionId, room: &RoomId) {
        if let Some(rooms) = self.elsewhere.get_mut(session) {
            rooms.remove(room);
            if rooms.is_empty() {
                self.elsewhere.remove(session);
            }
        }
    }

    /// The rooms of other nodes `session` sits in, as last heard.
    pub(super) fn seated_elsewhere(&self, session: &SessionId) -> impl Iterator<Item = &Other> {
        self.elsewhere
            .get(session)
            .into_iter()
            .flatten()
            .filter_map(|r| self.others.get(r))
    }

    /// Forgets node `node` and its rooms.
    pub(super) fn drop_peer(&mut self, node: &str) {
        if let Some(p) = self.peers.remove(node) {
            for room in &p.rooms {
                self.remove_other(node, room);
            }
        }
    }

    /// What this node knows of `node`, heard from now in `epoch` (a new
    /// epoch: the node restarted, and its rooms are asked for anew).
    pub(super) fn peer(&mut self, node: &str, epoch: u64) -> &mut Peer {
        let p = self.peers.entry(node.to_owned()).or_insert_with(|| Peer {
            epoch,
            seq: 0,
            synced: false,
            heard: Instant::now(),
            asked: None,
            rooms: BTreeSet::new(),
            incoming: None,
        });
        if p.epoch != epoch {
            p.epoch = epoch;
            p.seq = 0;
            p.synced = false;
            p.incoming = None;
        }
        p.heard = Instant::now();
        p
    }

    /// Publishes the changes to this node's rooms, in parts, each with
    /// the sessions `seats` says sit in it now.
    pub(super) fn publish_outgoing(&mut self, seats: impl Fn(&RoomId) -> Vec<SessionId>) {
        let Some(link) = &mut self.link else {
            self.outgoing.clear();
            return;
        };
        let changes = std::mem::take(&mut self.outgoing);
        let mut changes = changes.into_iter().peekable();
        while changes.peek().is_some() {
            let (mut rooms, mut removed) = (Vec::new(), Vec::new());
            for (id, room) in changes.by_ref().take(PART) {
                match room {
                    Some(r) => rooms.push(SharedRoom {
                        seats: seats(&id),
                        ..r
                    }),
                    None => removed.push(id),
                }
            }
            link.seq += 1;
            let news = LobbyNews::Update {
                epoch: link.epoch,
                seq: link.seq,
                rooms,
                removed,
            };
            link.broadcast(news);
        }
    }
}

impl Link {
    /// To every node, on the lobby topic. A message lost here is a gap
    /// the receivers see.
    pub(super) fn broadcast(&self, news: LobbyNews) {
        self.publish(None, news);
    }

    pub(super) fn send(&self, node: &str, news: LobbyNews) {
        self.publish(Some(node.to_owned()), news);
    }

    /// Through this node's actor, which owns the bus (never waits: a full
    /// mailbox drops the news, counted, as a full bus queue would).
    fn publish(&self, to: Option<String>, news: LobbyNews) {
        if !self.node.try_send(NodeCmd::PublishLobby { to, news }) {
            crate::metrics::error("cluster_lobby_unsent");
        }
    }
}

#[cfg(test)]
mod tests {
    use tengen_protocol::{Players, RoomStatus};
    use tengen_rules::game::{GameConfig, RuleSet};

    use super::*;

    fn info(n: u64, status: RoomStatus) -> RoomInfo {
        RoomInfo {
            room: RoomId::from_u64(n),
            name: None,
            config: GameConfig::free(RuleSet::Gomoku),
            players: Players::default(),
            status,
            table: None,
            spectators: 0,
            chat: true,
            rated: false,
        }
    }

    fn shared(n: u64, public: bool) -> SharedRoom {
        SharedRoom {
            info: info(n, RoomStatus::Waiting),
            public,
            seats: Vec::new(),
        }
    }

    #[test]
    fn seats_on_other_nodes_follow_their_rooms() {
        let (ann, bob) = (SessionId::from_u64(1), SessionId::from_u64(2));
        let seated = |v: &View, s: &SessionId| v.seated_elsewhere(s).count();
        let mut v = View::default();
        v.peer("b", 1);
        v.peer("c", 1);
        let mut r = shared(1, true);
        r.seats = vec![ann.clone()];
        v.upsert_other("b", r.clone());
        r.seats.push(bob.clone());
        v.upsert_other("b", r.clone());
        let mut other = shared(2, false);
        other.seats = vec![ann.clone()];
        v.upsert_other("c", other);
        assert_eq!((seated(&v, &ann), seated(&v, &bob)), (2, 1));
        // Ann leaves room 1; it moves to node c; then c goes.
        r.seats = vec![bob.clone()];
        v.upsert_other("b", r.clone());
        assert_eq!((seated(&v, &ann), seated(&v, &bob)), (1, 1));
        v.upsert_other("c", r);
        v.remove_other("b", &RoomId::from_u64(1));
        assert_eq!(seated(&v, &bob), 1, "the room is c's now");
        v.drop_peer("c");
        assert_eq!((seated(&v, &ann), seated(&v, &bob)), (0, 0));
        assert!(v.elsewhere.is_empty());
    }

    #[test]
    fn other_nodes_rooms_merge_into_one_view() {
        let mut v = View::default();
        v.peer("b", 1);
        v.peer("c", 1);
        v.upsert_other("b", shared(1, true));
        v.upsert_other("b", shared(2, false));
        let u = v.take().unwrap();
        assert_eq!(u.added.len(), 1, "private rooms are not listed: {u:?}");
        // Room 1 moves to this node (a takeover) before b goes silent: one
        // room, changed, and still there when b's rooms go.
        v.set(&info(1, RoomStatus::Playing), true);
        let u = v.take().unwrap();
        assert_eq!((u.added.len(), u.changed.len()), (0, 1), "{u:?}");
        v.drop_peer("b");
        assert!(v.take().is_none(), "this node's copy stays");
        assert!(v.others.is_empty());
        // A room moving between two other nodes: changed, and gone only
        // with the node that has it now.
        v.upsert_other("c", shared(3, true));
        v.take();
        v.peer("d", 1);
        v.upsert_other("d", shared(3, true));
        v.drop_peer("c");
        assert!(v.take().is_none(), "{:?}", v.others.keys());
        v.drop_peer("d");
        assert_eq!(v.take().unwrap().removed, vec![RoomId::from_u64(3)]);
        // This node's room goes: removed once.
        v.gone(&RoomId::from_u64(1), true);
        assert_eq!(v.take().unwrap().removed, vec![RoomId::from_u64(1)]);
        // Gone and back within one interval: changed, not added twice.
        v.peer("e", 1);
        v.upsert_other("e", shared(4, true));
        v.take();
        v.drop_peer("e");
        v.peer("e", 2);
        v.upsert_other("e", shared(4, true));
        let u = v.take().unwrap();
        assert_eq!((u.added.len(), u.changed.len(), u.removed.len()), (0, 1, 0));
    }
}
