//! One lobby across nodes: every node's watchers see the rooms
//! of every node, and a room is joined from any node.
//!
//! **One view.** Each node's lobby holds its own rooms, as on one node.
//! What changes in them goes, coalesced (once per coalescing interval),
//! to every other node on the bus's lobby topic
//! ([`crate::cluster::wire::LOBBY_TOPIC`]), private rooms included but
//! marked (they are never listed, but their id must be joinable
//! anywhere). A node merges the others' public rooms into its `rooms`
//! lists and `lobby_update`s.
//! A room on two nodes at once (a dead node's table taken over here
//! before the dead node's rooms expired) is shown once, as this node has
//! it.
//!
//! **Losses.** Each node numbers its updates (`seq`, within an `epoch`
//! drawn at start); a receiver that sees a number skipped, a node it does
//! not know, or a heartbeat naming a later number than it has, asks that
//! node for all its rooms (`Sync`, answered on the asker's node channel
//! in parts of [`PART`] rooms) and ignores its updates until the answer
//! is complete; unanswered, it asks again every [`SYNC_RETRY`]. A node
//! that starts, or whose bus says it may have lost deliveries, asks every
//! node at once.
//!
//! **Death.** Every node says `Alive` every third of the lease time; a
//! node not heard for twice the lease time is taken for dead and its
//! rooms go from the view (a node that stops says `Bye`, and its rooms
//! go at once). Its games move to another node, which brings their rooms
//! back as its own.
//!
//! **Join anywhere.** `join_room`, `leave_room` and `cancel_room` for a
//! room of another node go to that node through the node actor, as table
//! commands do ([`crate::cluster::node`]): there the connection's relay
//! is the session the room's lobby seats, so the room's answers, and the
//! frames of the table started there, come back through it. When that
//! relay ends, the session leaves its finished rooms there and the games
//! it plays there start the abandonment countdown. A room unknown here is
//! `not_found`; one whose node has not been heard for a while is
//! `unavailable`. A challenge of a player online at another node goes
//! there the same way, once a lookup found them ([`super::find`]).
//!
//! **Seats everywhere.** Each room a node tells of carries the sessions
//! seated in it, so a node counts a session's seats on every node against
//! its limit (`max_seats`, or a bot's own cap): its own rooms exactly,
//! the others' as last heard. The limit stays a session's, as on one node
//! and as the protocol says (two logins of one account are two sessions);
//! what this adds is that a session's seats on other nodes, joined through
//! its relays there, count too. The node a command arrives at (the
//! connection's) checks the seats it holds before sending the command
//! on; the node making the seat checks them all. What remains is the
//! news' lag (a coalescing interval plus the bus's latency): a session
//! that sits down on two nodes within it gets both seats, and one that
//! just left a room of another node may be refused for that long.
//!
//! Everything here runs in the lobby actor: no lock, no await; every
//! publication is a `try_send` on the bus's bounded queue (a message lost
//! there is a gap the receivers see).

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use tengen_protocol::{
    ErrorCode, MAX_ROOMS_LISTED, RequestId, RoomId, RoomInfo, RoomStatus, ServerMsg, SessionId,
};

use super::lookups::ChallengeAsk;
use super::view::{Incoming, Link, PART};
use super::{Lobby, refuse};
use crate::cluster::wire::{LobbyNews, LobbyRemoteCmd, SharedRoom};
use crate::msg::lobby::ClusterCmd;
use crate::msg::node::NodeHandle;
use crate::msg::table::TableCmd;
use crate::sessions::Session;

/// How long a node waits for an answer to `Sync` before asking again.
pub const SYNC_RETRY: Duration = Duration::from_secs(2);
/// The most rooms kept of one other node (more are dropped).
pub const MAX_ROOMS_PER_NODE: usize = 100_000;

impl Lobby {
    /// The public rooms of every node, this node's first, at most
    /// `MAX_ROOMS_LISTED`.
    pub(super) fn rooms_msg(&self) -> ServerMsg {
        let own = self.rooms.values().filter(|r| r.public).map(|r| &r.info);
        let others = self
            .pending
            .others
            .values()
            .filter(|o| o.room.public && !self.rooms.contains_key(&o.room.info.room))
            .map(|o| &o.room.info);
        let mut all = own.chain(others);
        let rooms: Vec<RoomInfo> = all.by_ref().take(MAX_ROOMS_LISTED).cloned().collect();
        ServerMsg::Rooms {
            rooms,
            truncated: all.next().is_some(),
        }
    }

    /// Every coalescing interval: this node's changes go out, it says it
    /// lives, the nodes not heard for too long go, and the nodes whose
    /// rooms are incomplete are asked again.
    pub(super) fn cluster_tick(&mut self) {
        let rooms = &self.rooms;
        self.pending.publish_outgoing(|id| seat_ids(rooms, id));
        self.finds_tick();
        let ttl = self.hosting.settings.lease_ttl;
        let view = &mut self.pending;
        let Some(link) = &mut view.link else {
            return;
        };
        let now = Instant::now();
        if now >= link.next_alive {
            link.broadcast(LobbyNews::Alive {
                epoch: link.epoch,
                seq: link.seq,
            });
            link.next_alive = now + heartbeat(ttl);
        }
        let dead: Vec<String> = view
            .peers
            .iter()
            .filter(|(_, p)| now.duration_since(p.heard) > expiry(ttl))
            .map(|(n, _)| n.clone())
            .collect();
        for node in dead {
            tracing::info!(%node, "a node's lobby went silent: its rooms go");
            view.drop_peer(&node);
        }
        let Some(link) = &view.link else {
            return;
        };
        for (node, p) in &mut view.peers {
            if !p.synced && p.asked.is_none_or(|t| now.duration_since(t) > SYNC_RETRY) {
                p.asked = Some(now);
                link.send(node, LobbyNews::Sync);
            }
        }
    }

    /// This node stops: its rooms go from the others' lobbies now.
    pub(super) fn say_bye(&self) {
        if let Some(link) = &self.pending.link {
            link.broadcast(LobbyNews::Bye { epoch: link.epoch });
        }
    }

    pub(super) fn cluster(&mut self, cmd: ClusterCmd) {
        match cmd {
            ClusterCmd::Attach { node } => {
                let link = Link {
                    node,
                    me: self.hosting.settings.node.clone(),
                    epoch: rand::random(),
                    seq: 0,
                    next_alive: Instant::now(),
                };
                // Whoever hears of this node asks for its rooms.
                link.broadcast(LobbyNews::Sync);
                self.pending.outgoing.clear();
                self.pending.link = Some(link);
                self.cluster_tick();
            }
            ClusterCmd::News { from, news } => self.news(from, news),
            ClusterCmd::Reset => {
                let Some(link) = &self.pending.link else {
                    return;
                };
                link.broadcast(LobbyNews::Sync);
                let now = Instant::now();
                for p in self.pending.peers.values_mut() {
                    p.synced = false;
                    p.asked = Some(now);
                }
            }
            ClusterCmd::Remote { from, session, cmd } => {
                if let LobbyRemoteCmd::Challenge {
                    id,
                    player,
                    config,
                    chat,
                    rated,
                } = cmd
                {
                    let ask = ChallengeAsk {
                        player,
                        config,
                        chat,
                        rated,
                    };
                    return self.challenge_routed(session, id, ask);
                }
                let id = cmd.id();
                let Some(room) = cmd.room().cloned() else {
                    return;
                };
                if !self.rooms.contains_key(&room) {
                    return refuse(
                        &session,
                        id,
                        ErrorCode::NotFound,
                        format!("no room {room} (it may have moved: try again)"),
                    );
                }
                match cmd {
                    LobbyRemoteCmd::Join { seated, .. } => {
                        let sender = seated.map(|n| (from.as_str(), n as usize));
                        self.join_counted(session, id, room, sender)
                    }
                    LobbyRemoteCmd::Leave { .. } => self.leave(session, id, room, false),
                    LobbyRemoteCmd::Cancel { .. } => self.leave(session, id, room, true),
                    LobbyRemoteCmd::Close { reason, .. } => self.close(session, id, room, reason),
                    LobbyRemoteCmd::Challenge { .. } => {} // handled above
                }
            }
            ClusterCmd::RelayGone { session, conn } => self.relay_gone(session, conn),
        }
    }

    fn news(&mut self, from: String, news: LobbyNews) {
        let rooms = &self.rooms;
        let view = &mut self.pending;
        let Some(link) = &view.link else {
            return;
        };
        if from == link.me {
            return;
        }
        match news {
            LobbyNews::Sync => {
                view.publish_outgoing(|id| seat_ids(rooms, id));
                self.answer_sync(&from);
            }
            LobbyNews::Find { nonce, name } => self.answer_find(&from, nonce, &name),
            LobbyNews::Found { nonce, player } => self.found(from, nonce, player),
            LobbyNews::Alive { epoch, seq } => {
                let p = view.peer(&from, epoch);
                if p.synced && seq > p.seq {
                    p.synced = false; // its last updates were lost
                }
            }
            LobbyNews::Bye { epoch } => {
                if view.peers.get(&from).is_some_and(|p| p.epoch == epoch) {
                    view.drop_peer(&from);
                }
            }
            LobbyNews::Update {
                epoch,
                seq,
                rooms,
                removed,
            } => {
                let p = view.peer(&from, epoch);
                if !p.synced || seq <= p.seq {
                    return;
                }
                if seq != p.seq + 1 {
                    p.synced = false;
                    return;
                }
                p.seq = seq;
                for room in &removed {
                    view.remove_other(&from, room);
                }
                for room in rooms {
                    view.upsert_other(&from, room);
                }
            }
            LobbyNews::Rooms {
                epoch,
                seq,
                part,
                last,
                rooms,
            } => {
                let p = view.peer(&from, epoch);
                if part == 0 {
                    p.incoming = Some(Incoming {
                        epoch,
                        seq,
                        next: 0,
                        rooms: Vec::new(),
                    });
                }
                let Some(inc) = p.incoming.as_mut().filter(|i| {
                    (i.epoch, i.seq, i.next) == (epoch, seq, part)
                        && i.rooms.len() + rooms.len() <= MAX_ROOMS_PER_NODE
                }) else {
                    p.incoming = None; // a part was lost: asked again later
                    return;
                };
                inc.rooms.extend(rooms);
                inc.next += 1;
                if !last {
                    return;
                }
                let Some(inc) = p.incoming.take() else {
                    return;
                };
                p.seq = seq;
                p.synced = true;
                p.asked = None;
                let keep: BTreeSet<&RoomId> = inc.rooms.iter().map(|r| &r.info.room).collect();
                let gone: Vec<RoomId> = p
                    .rooms
                    .iter()
                    .filter(|r| !keep.contains(r))
                    .cloned()
                    .collect();
                for room in &gone {
                    view.remove_other(&from, room);
                }
                for room in inc.rooms {
                    view.upsert_other(&from, room);
                }
            }
        }
    }

    /// All this node's rooms, to `node`, as of the last update sent.
    fn answer_sync(&self, node: &str) {
        let Some(link) = &self.pending.link else {
            return;
        };
        let rooms: Vec<SharedRoom> = self
            .rooms
            .values()
            .map(|r| SharedRoom {
                info: r.info.clone(),
                public: r.public,
                seats: r.seat_ids(),
            })
            .collect();
        let parts = rooms.len().div_ceil(PART).max(1);
        let mut rooms = rooms.into_iter();
        for part in 0..parts {
            link.send(
                node,
                LobbyNews::Rooms {
                    epoch: link.epoch,
                    seq: link.seq,
                    part: part as u32,
                    last: part + 1 == parts,
                    rooms: rooms.by_ref().take(PART).collect(),
                },
            );
        }
    }

    /// Whether `node` has not been heard for a while (it may be dead).
    pub(super) fn silent(&self, node: &str) -> bool {
        let ttl = self.hosting.settings.lease_ttl;
        self.pending
            .peers
            .get(node)
            .is_none_or(|p| p.heard.elapsed() > 3 * heartbeat(ttl))
    }

    /// Where a room not here is, or why it cannot be reached.
    fn locate(&self, room: &RoomId) -> Result<(String, NodeHandle), (ErrorCode, String)> {
        let view = &self.pending;
        let (Some(other), Some(link)) = (view.others.get(room), &view.link) else {
            return Err((ErrorCode::NotFound, format!("no room {room}")));
        };
        if self.silent(&other.node) {
            return Err((
                ErrorCode::Unavailable,
                format!("the server holding room {room} does not answer; try again"),
            ));
        }
        Ok((other.node.clone(), link.node.clone()))
    }

    /// `join_room` for a room that is not here: to its node, if known.
    pub(super) fn join_elsewhere(&mut self, session: Session, id: Option<RequestId>, room: RoomId) {
        if self.pending.others.contains_key(&room)
            && self.seats_here(&session.id) >= self.seat_cap(&session)
        {
            return refuse(
                &session,
                id,
                ErrorCode::AlreadySeated,
                "you already sit in as many rooms as allowed".into(),
            );
        }
        let seated = Some(self.seats_here(&session.id) as u32);
        self.route(session, LobbyRemoteCmd::Join { id, room, seated });
    }

    /// `leave_room` or `cancel_room` for a room that is not here.
    pub(super) fn leave_elsewhere(
        &mut self,
        session: Session,
        id: Option<RequestId>,
        room: RoomId,
        cancel: bool,
    ) {
        // Taken as left at once: a seat counted here from news of the
        // room's node would stay until its next news (a `room_created`
        // right after would be refused). A leave refused there (a game in
        // progress) counts again from that room's next news.
        self.pending.unseat_elsewhere(&session.id, &room);
        let cmd = if cancel {
            LobbyRemoteCmd::Cancel { id, room }
        } else {
            LobbyRemoteCmd::Leave { id, room }
        };
        self.route(session, cmd);
    }

    pub(super) fn route(&mut self, session: Session, cmd: LobbyRemoteCmd) {
        let id = cmd.id();
        let Some(room) = cmd.room() else {
            return;
        };
        let (node, handle) = match self.locate(room) {
            Ok(to) => to,
            Err((code, why)) => return refuse(&session, id, code, why),
        };
        route_to(node, &handle, session, cmd);
    }

    /// Another node's connection, seated here through its relay `conn`,
    /// ended: as when a local connection closes, its games here start the
    /// abandonment countdown, and it leaves its finished rooms.
    fn relay_gone(&mut self, session: SessionId, conn: u64) {
        let rooms = self.seated.get(&session).cloned().unwrap_or_default();
        let mut through_relay = false;
        for room in &rooms {
            let Some(r) = self.rooms.get(room) else {
                continue;
            };
            let here = r
                .seats
                .iter()
                .flatten()
                .any(|s| s.id == session && s.outbox.conn == conn);
            through_relay |= here;
            if here
                && r.info.status == RoomStatus::Playing
                && let Some(t) = r
                    .info
                    .table
                    .as_ref()
                    .and_then(|t| self.hosting.directory.get(t))
            {
                let _ = t.try_send(TableCmd::Away {
                    session: session.clone(),
                    conn,
                });
            }
        }
        if through_relay {
            self.gone(&session);
        }
    }
}

/// How often a node says it lives.
fn heartbeat(lease_ttl: Duration) -> Duration {
    (lease_ttl / 3).max(Duration::from_millis(100))
}

/// How long a silent node's rooms stay.
fn expiry(lease_ttl: Duration) -> Duration {
    2 * lease_ttl
}

/// Sends `session`'s `cmd` to `node`'s lobby through this node's actor
/// (`handle`); `unavailable` ("busy") when its mailbox is full.
pub(super) fn route_to(node: String, handle: &NodeHandle, session: Session, cmd: LobbyRemoteCmd) {
    let id = cmd.id();
    let routed = crate::msg::node::NodeCmd::RouteLobby {
        node,
        session: session.clone(),
        cmd,
    };
    if !handle.try_send(routed) {
        session
            .outbox
            .refuse_with(id, crate::pressure::busy("the server is busy; try again"));
    }
}

/// The sessions seated in this node's room `id`, as the other nodes are
/// told (they count them against each session's seat limit).
fn seat_ids(rooms: &BTreeMap<RoomId, super::Room>, id: &RoomId) -> Vec<SessionId> {
    rooms.get(id).map_or_else(Vec::new, super::Room::seat_ids)
}
