//! The lobby actor: it owns every room that is waiting for players or whose
//! game is running, and the list of lobby watchers.
//!
//! A room is created by one player with a full rules configuration; when a
//! second player joins, the lobby draws the opener seat by lot (docs/rules.md
//! §8), starts a table actor for the game and hands both players to it.
//! Watchers get the room list once and then *coalesced* updates: changes are
//! gathered and sent at most once per coalescing interval, each encoded once
//! per encoding. Private rooms are never listed; their id is the invitation.
//!
//! Commands arrive on a bounded mailbox (connections `try_send`); replies go
//! straight into each session's outbox, so the lobby never waits on a
//! connection.

use std::collections::{BTreeMap, HashMap};

use tengen_protocol::{
    CancelReason, Envelope, ErrorCode, LobbyUpdate, Players, RequestId, RoomId, RoomInfo,
    RoomStatus, ServerMsg, SessionId, TableId,
};
use tengen_rules::game::{GameConfig, Seat};
use tokio::sync::watch;

use crate::hosting::Hosting;
use crate::mailbox::Inbox;
use crate::outbound::Shared;
use crate::sessions::Session;
use crate::table;

mod closing;
mod departures;
mod find;
mod fresh;
mod lookups;
mod rated;
mod remote;
mod social;
mod tournament;
mod updates;
mod view;
use crate::msg::lobby::{LobbyCmd, LobbyHandle, NewRoom};
use view::View;

/// How many commands the lobby's mailbox holds.
const MAILBOX: usize = 4096;

struct Room {
    info: RoomInfo,
    public: bool,
    /// For a challenge: the only session that may join.
    challenged: Option<SessionId>,
    /// The sessions seated, by seat (the creator sits first).
    seats: [Option<Session>; 2],
    /// The seat that opens (black, or the tentative black of an opening
    /// rule) when the game starts; else drawn by lot then.
    opener: Option<Seat>,
}

impl Room {
    /// The seat `session` sits in, if any.
    fn seat_of(&self, session: &SessionId) -> Option<usize> {
        self.seats
            .iter()
            .position(|s| s.as_ref().is_some_and(|s| s.id == *session))
    }

    /// The sessions seated, as other nodes are told (`remote`).
    fn seat_ids(&self) -> Vec<SessionId> {
        self.seats.iter().flatten().map(|s| s.id.clone()).collect()
    }
}

struct Lobby {
    /// The store, settings, table directory, sessions, and this lobby's
    /// own mailbox (`hosting.lobby`), as the tables it starts get them.
    hosting: Hosting,
    rooms: BTreeMap<RoomId, Room>,
    /// The rooms each session sits in (so seat limits and a session's
    /// departure cost O(its rooms), not a scan of every room).
    seated: HashMap<SessionId, Vec<RoomId>>,
    watchers: HashMap<u64, Session>,
    /// Watchers who subscribed since the last flush ([`fresh`]).
    fresh: updates::Fresh,
    /// The changes for the watchers, and every node's rooms ([`remote`]).
    pending: View,
    /// Challenges whose player is being looked for on the other nodes
    /// ([`find`]).
    finds: lookups::Finds,
}

/// The lobby's mailbox, made before the lobby itself: [`Hosting`] (which
/// the lobby gets) carries it.
pub fn mailbox(max_connections: usize) -> (LobbyHandle, Inbox<LobbyCmd>) {
    crate::mailbox::for_every_connection(MAILBOX, max_connections)
}

/// Starts the lobby actor on `rx`, the inbox of `hosting.lobby`.
pub fn spawn(hosting: Hosting, rx: Inbox<LobbyCmd>, shutdown: watch::Receiver<bool>) {
    let lobby = Lobby {
        hosting,
        rooms: BTreeMap::new(),
        seated: HashMap::new(),
        watchers: HashMap::new(),
        fresh: updates::Fresh::default(),
        pending: View::default(),
        finds: lookups::Finds::default(),
    };
    tokio::spawn(lobby.run(rx, shutdown));
}

/// A room's configuration as the server plays it: the forbidden-move
/// handling in force spelt out (renju: `claim` unless chosen otherwise),
/// so the room's data says it, and takebacks on in casual games only
/// (never in rated or tournament games).
fn room_config(config: GameConfig, casual: bool) -> GameConfig {
    GameConfig {
        forbidden: config.forbidden_handling(),
        takebacks: casual,
        ..config
    }
}

fn reply(session: &Session, id: Option<RequestId>, msg: ServerMsg) {
    session.outbox.send_msg(&Envelope::with_id(id, msg));
}

fn refuse(session: &Session, id: Option<RequestId>, code: ErrorCode, message: String) {
    session.outbox.refuse(id, code, message);
}

impl Lobby {
    async fn run(
        mut self,
        mut rx: crate::mailbox::Inbox<LobbyCmd>,
        shutdown: watch::Receiver<bool>,
    ) {
        let every = self.hosting.settings.coalesce_interval;
        rx.serve(&mut self, every, shutdown, Self::handle, Self::flush)
            .await;
        self.say_bye();
    }

    fn handle(&mut self, cmd: LobbyCmd) {
        match cmd {
            LobbyCmd::Subscribe { session, id } => {
                let rooms = self.rooms_msg();
                self.note_fresh(session.outbox.conn, &rooms);
                reply(&session, id, rooms);
                self.watchers.insert(session.outbox.conn, session);
            }
            LobbyCmd::Unsubscribe { session, id } => {
                self.watchers.remove(&session.outbox.conn);
                self.fresh.forget(session.outbox.conn);
                reply(&session, id, ServerMsg::LobbyUnsubscribed);
            }
            LobbyCmd::List { session, id } => reply(&session, id, self.rooms_msg()),
            LobbyCmd::Create { session, id, room } => {
                if room.rated && !self.may_rate(&session, id) {
                    return;
                }
                self.create(session, id, room);
            }
            LobbyCmd::CreateFor {
                session,
                id,
                room,
                opener,
                created,
            } => {
                if let Some(room) = self.create(session, id, room) {
                    if let Some(r) = self.rooms.get_mut(&room) {
                        r.opener = opener;
                    }
                    let _ = created.send(room);
                }
            }
            LobbyCmd::Join { session, id, room } => self.join(session, id, room),
            LobbyCmd::Challenge {
                session,
                id,
                player,
                config,
                chat,
                rated,
            } => {
                let ask = lookups::ChallengeAsk {
                    player,
                    config,
                    chat,
                    rated,
                };
                self.challenge(session, id, ask)
            }
            LobbyCmd::DeclineChallenge { session, id, room } => self.decline(session, id, room),
            LobbyCmd::Leave { session, id, room } => self.leave(session, id, room, false),
            LobbyCmd::Cancel { session, id, room } => self.leave(session, id, room, true),
            LobbyCmd::Gone {
                session,
                conn,
                holder,
            } => {
                self.watchers.remove(&conn);
                self.fresh.forget(conn);
                if holder {
                    self.gone(&session);
                }
            }
            LobbyCmd::Resumed { session } => self.resumed(session),
            LobbyCmd::TableFinished { room } => {
                if let Some(r) = self.rooms.get_mut(&room) {
                    r.info.status = RoomStatus::Finished;
                    self.pending.set(&r.info, r.public);
                }
            }
            LobbyCmd::TableClosed { room, table } => {
                if self
                    .rooms
                    .get(&room)
                    .is_some_and(|r| r.info.table.as_ref() == Some(&table))
                    && let Some(r) = self.take_room(&room)
                {
                    self.pending.gone(&room, r.public);
                }
            }
            LobbyCmd::Rematch {
                room,
                from,
                seats,
                opener,
                like,
            } => self.rematch(room, from, seats, opener, like),
            LobbyCmd::Matched {
                pairing,
                matchmaker,
            } => self.matched(*pairing, matchmaker),
            LobbyCmd::TournamentGame(seating) => self.tournament_game(*seating),
            LobbyCmd::Restored {
                info,
                public,
                seats,
            } => {
                let room = info.room.clone();
                for s in &seats {
                    self.sit(&s.id, &room);
                }
                self.pending.set(&info, public);
                self.rooms.insert(
                    room,
                    Room {
                        info,
                        public,
                        challenged: None,
                        opener: None,
                        seats: seats.map(Some),
                    },
                );
            }
            LobbyCmd::Spectators { room, count } => {
                if let Some(r) = self.rooms.get_mut(&room) {
                    r.info.spectators = count;
                    self.pending.set(&r.info, r.public);
                }
            }
            LobbyCmd::Cluster(cmd) => self.cluster(cmd),
            LobbyCmd::Close {
                session,
                id,
                room,
                reason,
                here_only,
            } => {
                if !here_only || self.rooms.contains_key(&room) {
                    self.close(session, id, room, reason);
                }
            }
            LobbyCmd::Locate { room, reply } => {
                let known =
                    self.rooms.contains_key(&room) || self.pending.others.contains_key(&room);
                let _ = reply.send(known);
            }
        }
    }

    /// Rooms and games `session` sits in, on this node and (as last
    /// heard) on the others ([`remote`]).
    fn seats_of(&self, session: &SessionId) -> usize {
        let here = self.seats_here(session);
        let elsewhere = self
            .pending
            .seated_elsewhere(session)
            .filter(|o| !self.rooms.contains_key(&o.room.info.room))
            .count();
        here + elsewhere
    }

    /// [`Lobby::seats_of`] but the rooms of node `node`.
    fn seats_but_at(&self, session: &SessionId, node: &str) -> usize {
        let elsewhere = self
            .pending
            .seated_elsewhere(session)
            .filter(|o| o.node != node && !self.rooms.contains_key(&o.room.info.room))
            .count();
        self.seats_here(session) + elsewhere
    }

    /// Rooms and games `session` sits in on this node (exact, where the
    /// count across nodes lags by the news: a node sending a command on to
    /// another checks this, and the other counts everything).
    fn seats_here(&self, session: &SessionId) -> usize {
        self.seated.get(session).map_or(0, Vec::len)
    }

    /// How many rooms `session` may sit in: `max_seats` for a person, the
    /// cap a bot set (within the server's `bot_max_games`).
    fn seat_cap(&self, session: &Session) -> usize {
        let settings = &self.hosting.settings;
        if session.player.bot {
            let most = settings.bot_max_games.max(1) as usize;
            let own = self.hosting.bot_filters.max_games(&session.player.name);
            own.min(most).max(settings.limits.max_seats as usize)
        } else {
            settings.limits.max_seats as usize
        }
    }

    fn sit(&mut self, session: &SessionId, room: &RoomId) {
        self.seated
            .entry(session.clone())
            .or_default()
            .push(room.clone());
    }

    fn unsit(&mut self, session: &SessionId, room: &RoomId) {
        if let Some(rooms) = self.seated.get_mut(session) {
            rooms.retain(|r| r != room);
            if rooms.is_empty() {
                self.seated.remove(session);
            }
        }
    }

    /// Removes a room from the lobby and its players' seats.
    fn take_room(&mut self, room_id: &RoomId) -> Option<Room> {
        let room = self.rooms.remove(room_id)?;
        for s in room.seats.iter().flatten() {
            self.unsit(&s.id, room_id);
        }
        Some(room)
    }

    fn create(&mut self, session: Session, id: Option<RequestId>, new: NewRoom) -> Option<RoomId> {
        let NewRoom {
            config,
            public,
            name,
            chat,
            rated,
        } = new;
        if let Err(e) = config.validate() {
            refuse(&session, id, ErrorCode::InvalidConfig, e.to_string());
            return None;
        }
        if self.seats_of(&session.id) >= self.seat_cap(&session) {
            refuse(
                &session,
                id,
                ErrorCode::AlreadySeated,
                "you already sit in as many rooms as allowed".into(),
            );
            return None;
        }
        let room = RoomId::from_u64(rand::random());
        let info = RoomInfo {
            room: room.clone(),
            name,
            config: room_config(config, !rated),
            players: Players {
                first: Some(session.player.clone()),
                second: None,
            },
            status: RoomStatus::Waiting,
            table: None,
            spectators: 0,
            chat,
            rated,
        };
        self.pending.set(&info, public);
        reply(
            &session,
            id,
            ServerMsg::RoomCreated {
                room: room.clone(),
                seat: Seat::First,
            },
        );
        self.sit(&session.id, &room);
        self.rooms.insert(
            room.clone(),
            Room {
                info,
                public,
                challenged: None,
                opener: None,
                seats: [Some(session), None],
            },
        );
        Some(room)
    }

    fn join(&mut self, session: Session, id: Option<RequestId>, room_id: RoomId) {
        self.join_counted(session, id, room_id, None)
    }

    /// `join_room`; `sender`: the node that sent it on and the seats the
    /// session has there (counted instead of what this node last heard).
    fn join_counted(
        &mut self,
        session: Session,
        id: Option<RequestId>,
        room_id: RoomId,
        sender: Option<(&str, usize)>,
    ) {
        let seated = match sender {
            None => self.seats_of(&session.id),
            Some((node, there)) => self.seats_but_at(&session.id, node) + there,
        };
        let max_seats = self.seat_cap(&session);
        let Some(room) = self.rooms.get_mut(&room_id) else {
            return self.join_elsewhere(session, id, room_id);
        };
        if room.seats.iter().flatten().any(|s| s.id == session.id) {
            return refuse(
                &session,
                id,
                ErrorCode::AlreadySeated,
                "you sit in this room".into(),
            );
        }
        if room.challenged.as_ref().is_some_and(|c| *c != session.id) {
            return refuse(
                &session,
                id,
                ErrorCode::NotFound,
                format!("no room {room_id} for you"),
            );
        }
        if room.info.rated
            && let Err(body) = room.may_join_rated(&session, &self.hosting.moderation.book)
        {
            session.outbox.refuse_with(id, body);
            return;
        }
        if room.info.status != RoomStatus::Waiting || room.seats[1].is_some() {
            return refuse(
                &session,
                id,
                ErrorCode::RoomFull,
                format!("room {room_id} is full"),
            );
        }
        if seated >= max_seats {
            return refuse(
                &session,
                id,
                ErrorCode::AlreadySeated,
                "you already sit in as many rooms as allowed".into(),
            );
        }
        reply(
            &session,
            id,
            ServerMsg::Joined {
                room: room_id.clone(),
                seat: Seat::Second,
            },
        );
        room.info.players.second = Some(session.player.clone());
        let joiner = session.id.clone();
        room.seats[1] = Some(session);
        let seats = [
            room.seats[0].clone().expect("the creator sits first"),
            room.seats[1].clone().expect("just seated"),
        ];
        let opener = room.opener.unwrap_or_else(|| {
            if rand::random::<bool>() {
                Seat::First
            } else {
                Seat::Second
            }
        });
        self.sit(&joiner, &room_id);
        let table = TableId::from_u64(rand::random());
        self.start_table(&room_id, seats, opener, table, None);
    }

    /// Starts a game at `table_id` in `room_id` with `seats` and `opener`.
    fn start_table(
        &mut self,
        room_id: &RoomId,
        seats: [Session; 2],
        opener: Seat,
        table_id: TableId,
        tournament: Option<tengen_protocol::TournamentGame>,
    ) -> bool {
        let Some(room) = self.rooms.get_mut(room_id) else {
            return false;
        };
        let casual = !room.info.rated && tournament.is_none();
        room.info.config = room_config(room.info.config.clone(), casual);
        let room_first = if room.seats[0].as_ref().map(|s| &s.id) == Some(&seats[0].id) {
            Seat::First
        } else {
            Seat::Second
        };
        let sessions = &self.hosting.sessions;
        let meta = table::TableMeta {
            version: table::META_VERSION,
            room: room_id.clone(),
            room_name: room.info.name.clone(),
            public: room.public,
            chat: room.info.chat,
            rated: room.info.rated,
            config: room.info.config.clone(),
            opener,
            seats: seats.each_ref().map(|s| table::SeatMeta::of(s, sessions)),
            room_first,
            created_ms: table::unix_ms(),
            tournament,
        };
        match table::spawn(table::Start {
            id: table_id.clone(),
            meta,
            seats,
            hosting: self.hosting.clone(),
        }) {
            Ok(()) => {
                room.info.status = RoomStatus::Playing;
                room.info.table = Some(table_id);
                room.info.spectators = 0;
                self.pending.set(&room.info, room.public);
                true
            }
            Err(e) => {
                tracing::error!(%room_id, error = %e, "table did not start");
                for s in room.seats.iter().flatten() {
                    refuse(
                        s,
                        None,
                        ErrorCode::Internal,
                        "the game could not start".into(),
                    );
                }
                self.remove(room_id, CancelReason::Other, None);
                false
            }
        }
    }

    /// Sends the gathered changes to every watcher, encoded once per encoding.
    fn flush(&mut self) {
        self.cluster_tick();
        let fresh = self.fresh.take();
        let update = match self.pending.take() {
            Some(update) => update,
            // Nothing for everyone, but a room a fresh watcher was sent
            // may have come and gone since.
            None if !fresh.is_empty() => LobbyUpdate::default(),
            None => return,
        };
        if self.watchers.is_empty() {
            return;
        }
        let frame = Envelope::push(ServerMsg::LobbyUpdate(update.clone()));
        let mut shared = Shared::new(&frame);
        let mut own = Vec::new();
        self.watchers.retain(|conn, s| match fresh.get(conn) {
            Some(seen) => {
                own.push((s.clone(), seen));
                true
            }
            None => update.is_empty() || s.outbox.send(shared.get(s.outbox.encoding())),
        });
        for (s, seen) in own {
            let u = self.fresh_update(&update, seen);
            if !u.is_empty()
                && !s
                    .outbox
                    .send_msg(&Envelope::push(ServerMsg::LobbyUpdate(u)))
            {
                self.watchers.remove(&s.outbox.conn);
            }
        }
    }
}
