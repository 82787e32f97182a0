//! This node among the others: routing table commands to the node that
//! runs the table, and relaying its frames back.
//!
//! Why: every node accepts any client, but each table runs on one node
//! (the holder of its lease, `crate::table`). A connection here that
//! speaks to a table run elsewhere has its commands sent to that node over
//! the [`bus`](super::bus); there the *relay* of the connection stands in
//! for it: an ordinary [`Outbox`] whose frames go back over the bus
//! instead of into a socket. The table cannot tell a relay from a local
//! connection, so every rule about seats, replays and snapshots holds as
//! it is. Save one thing: what a table sends all its spectators comes
//! here once per event for all of this node's spectators of it, not
//! through their relays ([`super::fan`]; the receiving end is `fans`).
//!
//! Losses: pub/sub may drop a message (a full queue, a lost connection).
//! A relay numbers its messages, and after sending some it says how many
//! at the next tick (`Mark`), so that even a loss of the last ones shows;
//! when this node sees a number skipped, or the bus says it may have lost
//! deliveries, the connections concerned
//! are closed with 1012, and the clients resume (`watch` with `since`):
//! the table replays exactly what they missed, from its log. So a client
//! may reconnect, but never sees a hole or a double.
//!
//! Death: every node holds a lease on `node:NAME` in the store and renews
//! it. A relay whose connection's node stopped renewing is dropped (its
//! players' abandonment countdowns start, as for any lost connection),
//! and connections routed to a node that died are closed with 1012: by
//! the time they resume, another node has taken the table over.
//!
//! One actor does both sides (a node is a client of some tables and the
//! host of others): its mailbox, the bus's deliveries and a timer.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Instant;

use tengen_protocol::{CloseCode, ErrorBody, ErrorCode, RequestId, ServerFrame, TableId};
use tengen_rules::game::GameConfig;
use tengen_store::Lease;
use tokio::sync::{mpsc, watch};

use super::bus::{Bus, Delivery};
use super::wire::{Body, NodeMsg, RemoteSession};
use crate::hosting::Hosting;
use crate::msg::matchmaker::MatchmakerHandle;
use crate::msg::node::{NodeCmd, NodeHandle};
use crate::msg::table::TableAsk;
use crate::outbound::{Frame, Outbox};
use crate::sessions::Session;
use crate::settings::Settings;

/// Commands a node's actor takes.
const MAILBOX: usize = 8192;

/// Commands that may wait for one table's node to be looked up.
const MAX_WAITING: usize = 1024;

mod fans;
mod host;
mod liveness;
mod lobby;
mod locate;
mod matchmaking;
mod tournaments;

/// A local connection with tables (or a queue entry) elsewhere.
struct Routed {
    outbox: Outbox,
    /// The tables it spoke to, by the node running each.
    tables: HashMap<TableId, String>,
    /// The next relay message number expected from each node (every node
    /// it spoke to: tables', lobbies' and the matchmaker's).
    next: HashMap<String, u64>,
    /// When a request went to each node that has sent nothing for this
    /// connection since (the oldest such): a request lost on the bus, or
    /// with a node that stopped or restarted meanwhile, would otherwise
    /// never be answered ([`Node::unanswered`]).
    asked: HashMap<String, Instant>,
}

/// The relay here of another node's connection.
struct Relay {
    outbox: Outbox,
    session: tengen_protocol::SessionId,
    tables: HashSet<TableId>,
    /// Whether it may be waiting in this node's matchmaker.
    queued: bool,
    /// Messages the relay has sent (its next number).
    sent: Arc<std::sync::atomic::AtomicU64>,
    /// The count last announced in a `Mark`.
    marked: u64,
    /// How many more ticks it is announced.
    marks_left: u8,
}

/// What this node follows of one table's fan to it (`fans`): the latest
/// fan, and the connections here that fans of the table sent to.
struct Follow {
    /// The fan's id.
    id: u64,
    /// The number of its next message.
    next: u64,
    /// The local connections it (or a fan before it) has sent to, pruned
    /// at each tick to those still routed; forgotten with the last.
    conns: HashSet<u64>,
}

/// How many ticks a relay's count is announced after it changed.
const MARKS: u8 = 3;

/// A local connection waiting in the rated queue (kept here, whichever
/// node's matchmaker has it, so that a new matchmaker gets it again).
struct Queued {
    session: Session,
    config: GameConfig,
    account: String,
    rating: f64,
    since: Instant,
    kind: crate::cluster::wire::QueueKind,
}

struct Node {
    /// The store, settings, this node's lobby (other nodes' lobby news and
    /// commands go there), table directory, sessions, and how this node
    /// finds the store (its liveness tick reports failures).
    hosting: Hosting,
    bus: Bus,
    tx: NodeHandle,
    /// The node running each table, as last learnt.
    owners: HashMap<TableId, String>,
    /// Commands for tables whose node is being looked up, in order.
    resolving: HashMap<TableId, Vec<TableAsk>>,
    routed: HashMap<u64, Routed>,
    relays: HashMap<(String, u64), Relay>,
    /// This node's own liveness lease.
    alive: Option<Lease>,
    matchmaker: MatchmakerHandle,
    /// The node running the matchmaker, as last learnt.
    leader: Option<String>,
    /// The `matchmaker` lease, while this node holds it.
    leading: Option<Lease>,
    /// The node directing the tournaments, as last learnt.
    director: Option<String>,
    /// A tick's store work is running ([`liveness`]).
    ticking: bool,
    queued: HashMap<u64, Queued>,
    /// Probes of other nodes waiting for their `Pong`, by nonce.
    probes: HashMap<u64, tokio::sync::oneshot::Sender<()>>,
    next_probe: u64,
    /// How this node's tables publish to other nodes' spectators.
    fan: crate::msg::table::FanLink,
    /// The fans of other nodes' tables received here, by node and table
    /// (`fans`).
    fans: HashMap<(String, TableId), Follow>,
}

/// Starts this node's actor on `bus`'s deliveries, with the handles a
/// node hosting tables needs (`hosting`) and the matchmaker's.
pub fn spawn(
    hosting: Hosting,
    matchmaker: MatchmakerHandle,
    bus: Bus,
    deliveries: mpsc::Receiver<Delivery>,
    shutdown: watch::Receiver<bool>,
) -> NodeHandle {
    let max = hosting.settings.max_connections;
    let (tx, rx) = crate::mailbox::for_every_connection(MAILBOX, max);
    let fan: crate::msg::table::FanLink =
        Arc::new(super::fan::BusFan::new(bus.clone(), &hosting.settings.node));
    let node = Node {
        hosting,
        bus,
        tx: tx.clone(),
        owners: HashMap::new(),
        resolving: HashMap::new(),
        routed: HashMap::new(),
        relays: HashMap::new(),
        alive: None,
        matchmaker,
        leader: None,
        leading: None,
        director: None,
        ticking: false,
        queued: HashMap::new(),
        probes: HashMap::new(),
        next_probe: 0,
        fan,
        fans: HashMap::new(),
    };
    let handle = tx;
    node.attach_lobby(handle.clone());
    tokio::spawn(node.run(rx, deliveries, shutdown));
    handle
}

impl Node {
    async fn run(
        mut self,
        mut rx: crate::mailbox::Inbox<NodeCmd>,
        mut deliveries: mpsc::Receiver<Delivery>,
        mut shutdown: watch::Receiver<bool>,
    ) {
        let mut tick = tokio::time::interval(self.hosting.settings.lease_ttl / 3);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.command(cmd),
                    None => break,
                },
                d = deliveries.recv() => match d {
                    Some(d) => self.delivery(d),
                    None => {
                        tracing::error!("the cluster bus stopped");
                        break;
                    }
                },
                _ = tick.tick() => self.start_tick(),
                r = shutdown.changed() => {
                    if r.is_err() || *shutdown.borrow() {
                        break;
                    }
                }
            }
        }
        // Stopping: the connections relayed here are told to reconnect
        // (their games go on at another node), as local ones are.
        for relay in self.relays.values() {
            relay.outbox.close(CloseCode::ServiceRestart);
        }
        // Stopping: a tick's store work still running may take leases;
        // its report is awaited (briefly) so that they are given up too.
        if self.ticking {
            let wait = self.hosting.settings.store_timeout * 2;
            let _ = tokio::time::timeout(wait, async {
                while let Some(cmd) = rx.recv().await {
                    if let NodeCmd::Ticked(t) = cmd {
                        self.ticked(*t);
                        break;
                    }
                }
            })
            .await;
        }
        // Stopping: the matchmaker moves to another node at once.
        if let Some(lease) = self.leading.take() {
            let _ = self
                .hosting
                .store
                .release_lease(crate::cluster::leases::MATCHMAKER, &lease)
                .await;
        }
        if let Some(lease) = self.alive.take() {
            let _ = self
                .hosting
                .store
                .release_lease(
                    &crate::cluster::leases::alive_id(&self.hosting.settings.node),
                    &lease,
                )
                .await;
        }
    }

    fn me(&self) -> &str {
        &self.hosting.settings.node
    }

    fn publish(&self, node: &str, body: Body) -> bool {
        let msg = NodeMsg {
            from: self.me().to_owned(),
            body,
        };
        self.bus.publish_node(node, msg.encode())
    }

    fn command(&mut self, cmd: NodeCmd) {
        match cmd {
            NodeCmd::Route { table, ask } => self.route(table, ask),
            NodeCmd::Match { session, cmd } => self.route_match(session, cmd),
            NodeCmd::Tournament(cmd) => self.route_tournament(*cmd),
            NodeCmd::Resolved { table, owner } => self.resolved(table, owner),
            NodeCmd::Ticked(t) => self.ticked(*t),
            NodeCmd::ConnGone { conn } => {
                // Commands still waiting for a lookup go with it.
                for waiting in self.resolving.values_mut() {
                    waiting.retain(|a| a.session.outbox.conn != conn);
                }
                self.queued.remove(&conn);
                if let Some(r) = self.routed.remove(&conn) {
                    // The cache of owners is only as large as what is
                    // routed now (looked up again when next needed).
                    for t in r.tables.keys() {
                        self.owners.remove(t);
                    }
                    for node in r.next.into_keys() {
                        self.publish(&node, Body::ConnGone { conn });
                    }
                }
            }
            NodeCmd::RelayEnded { node, conn } => {
                if let Some(r) = self.relays.get(&(node.clone(), conn))
                    && r.outbox.is_closed()
                {
                    self.relays.remove(&(node, conn));
                }
            }
            NodeCmd::RouteLobby { node, session, cmd } => self.route_lobby(node, session, cmd),
            NodeCmd::Probe { node, reply } => self.probe(node, reply),
            NodeCmd::PublishLobby { to, news } => self.publish_lobby(to, news),
        }
    }

    // --- this node as a client of tables elsewhere ---------------------

    /// Sends a local connection's command to the node running `table`.
    fn route(&mut self, table: TableId, ask: TableAsk) {
        // Looked up off the actor (a store round trip must not hold up
        // every other message); commands for the table wait meanwhile, in
        // order. A `watch` (a client arriving, or coming back after a
        // failure) is always looked up afresh: the node last known may
        // have died a moment ago (`locate`).
        let watch = ask.request.is_watch();
        if !watch
            && !self.resolving.contains_key(&table)
            && let Some(owner) = self.owners.get(&table).cloned()
        {
            return self.forward(owner, table, ask);
        }
        if let Some(waiting) = self.resolving.get_mut(&table) {
            if waiting.len() < MAX_WAITING {
                waiting.push(ask);
            } else {
                let busy = crate::pressure::busy("the server is busy; try again");
                ask.session.outbox.refuse_with(ask.id, busy);
            }
            return;
        }
        self.resolving.insert(table.clone(), vec![ask]);
        let lookup = self.lookup();
        tokio::spawn(async move {
            let tx = lookup.node.clone();
            let owner = lookup.owner(&table).await;
            tx.notify(NodeCmd::Resolved { table, owner });
        });
    }

    /// The node running `table` is known (`None`: no such live table; an
    /// error while it moves, answered `unavailable` with a time to try
    /// again): the commands that waited for it go.
    fn resolved(&mut self, table: TableId, owner: Result<Option<String>, String>) {
        let waiting = self.resolving.remove(&table).unwrap_or_default();
        if let Ok(Some(owner)) = &owner {
            self.owners.insert(table.clone(), owner.clone());
        }
        for ask in waiting {
            let (outbox, id) = (&ask.session.outbox, ask.id);
            match &owner {
                Ok(Some(owner)) => self.forward(owner.clone(), table.clone(), ask),
                Ok(None) => refuse(
                    outbox,
                    id,
                    ErrorCode::NotFound,
                    &format!("no table {table}"),
                ),
                Err(why) => refuse_retry(outbox, id, why, &self.hosting.settings),
            }
        }
    }

    /// Sends a local connection's command to `owner`, the node running
    /// `table`.
    fn forward(&mut self, owner: String, table: TableId, ask: TableAsk) {
        let TableAsk {
            session,
            id,
            request,
            ..
        } = ask;
        let body = Body::ToTable {
            table: table.clone(),
            conn: session.outbox.conn,
            session: self.remote_session(&session),
            id,
            request,
        };
        if let Some(r) = self.send_routed(&owner, &session, id, body, "the server is busy") {
            r.tables.insert(table, owner);
        }
    }

    /// Publishes a local connection's `body` to `node`, whose relay of the
    /// connection answers (numbered from 0, so this connection now expects
    /// `node`'s messages); refuses `id` with `unavailable` ("`busy`; try
    /// again") when the bus's queue is full. The connection's routing
    /// record, if the message went.
    fn send_routed(
        &mut self,
        node: &str,
        session: &Session,
        id: Option<RequestId>,
        body: Body,
        busy: &str,
    ) -> Option<&mut Routed> {
        if !self.publish(node, body) {
            session
                .outbox
                .refuse_with(id, crate::pressure::busy(&format!("{busy}; try again")));
            return None;
        }
        let r = self
            .routed
            .entry(session.outbox.conn)
            .or_insert_with(|| Routed {
                outbox: session.outbox.clone(),
                tables: HashMap::new(),
                next: HashMap::new(),
                asked: HashMap::new(),
            });
        r.outbox = session.outbox.clone();
        r.next.entry(node.to_owned()).or_insert(0);
        if id.is_some() {
            r.asked.entry(node.to_owned()).or_insert_with(Instant::now);
        }
        Some(r)
    }

    /// A local session as another node sees it.
    fn remote_session(&self, session: &Session) -> RemoteSession {
        RemoteSession {
            id: session.id.clone(),
            player: session.player.clone(),
            token: self
                .hosting
                .sessions
                .token_digest(&session.id)
                .unwrap_or_default(),
            binary: session.outbox.encoding() == tengen_protocol::Encoding::MsgPack,
        }
    }

    /// Closes a routed connection so that its client resumes (it may have
    /// missed frames, or its tables moved).
    fn resync(&mut self, conn: u64, why: &str) {
        if let Some(r) = self.routed.remove(&conn) {
            tracing::debug!(conn, why, "routed connection closed to resynchronise");
            crate::metrics::error("cluster_resync");
            for t in r.tables.keys() {
                self.owners.remove(t);
            }
            r.outbox.close(CloseCode::ServiceRestart);
        }
    }

    // --- the bus -------------------------------------------------------

    fn delivery(&mut self, d: Delivery) {
        match d {
            Delivery::Node { payload } => match NodeMsg::decode(&payload) {
                Some(msg) => self.message(msg),
                None => crate::metrics::error("cluster_malformed"),
            },
            Delivery::Topic { topic, payload } => self.lobby_topic(&topic, &payload),
            Delivery::Resubscribed => {
                self.lobby_reset();
                // The subscription was down for a while: anything may have
                // been lost, marks included; everyone routed resumes.
                let conns: Vec<u64> = self.routed.keys().copied().collect();
                for conn in conns {
                    self.resync(conn, "the bus may have lost messages");
                }
            }
            Delivery::Lagged { dropped } => {
                // A burst overflowed this node's queue: the relays that
                // lost something show it by their numbers or their next
                // marks (repeated for a few ticks), so only those resume.
                tracing::warn!(dropped, "bus deliveries dropped (this node is overloaded)");
                self.lobby_reset();
            }
        }
    }

    fn message(&mut self, msg: NodeMsg) {
        let from = msg.from;
        match msg.body {
            Body::ToTable {
                table,
                conn,
                session,
                id,
                request,
            } => self.host(from, table, conn, session, id, request),
            Body::Frames { conn, n, frames } => {
                if !self.expect(&from, conn, n) {
                    return;
                }
                let Some(r) = self.routed.get(&conn) else {
                    return;
                };
                if self.queued.contains_key(&conn)
                    && super::wire::left_queue(&frames, r.outbox.encoding())
                {
                    self.queued.remove(&conn);
                }
                let Some(r) = self.routed.get(&conn) else {
                    return;
                };
                // One entry, as the relay's own outbox queued it: a replay
                // passes through whole, at the client's socket's pace.
                r.outbox
                    .send_all(frames.into_iter().map(Frame::from).collect());
            }
            Body::Fan {
                table,
                fan,
                n,
                prev,
                parts,
            } => {
                let head = crate::msg::table::FanHead { fan, n, prev };
                self.fan(from, table, head, parts)
            }
            Body::FanMark { table, fan, n, to } => self.fan_mark(from, table, fan, n, to),
            Body::Mark { conn, n } => {
                let behind = self
                    .routed
                    .get(&conn)
                    .and_then(|r| r.next.get(&from))
                    .is_some_and(|next| *next < n);
                if behind {
                    self.resync(conn, "a relay's last messages were lost");
                }
            }
            Body::Close { conn, n, code } => {
                if !self.expect(&from, conn, n) {
                    return;
                }
                if let Some(r) = self.routed.remove(&conn) {
                    for t in r.tables.keys() {
                        self.owners.remove(t);
                    }
                    r.outbox
                        .close(CloseCode::from_code(code).unwrap_or(CloseCode::ServiceRestart));
                }
            }
            Body::ConnGone { conn } => {
                if let Some(relay) = self.relays.remove(&(from, conn)) {
                    self.relay_gone(relay);
                }
            }
            Body::ToMatchmaker { conn, session, cmd } => self.host_match(from, conn, session, cmd),
            Body::ToDirector {
                conn,
                session,
                id,
                msg,
            } => self.host_tournament(from, conn, session, id, msg),
            Body::ToLobby { conn, session, cmd } => self.host_lobby(from, conn, session, cmd),
            Body::Lobby(news) => self.lobby_news(from, news),
            Body::Ping { nonce } => {
                self.publish(&from, Body::Pong { nonce });
            }
            Body::Pong { nonce } => self.pong(nonce),
        }
    }

    /// Whether message `n` of `from`'s relay of `conn` is the next one;
    /// if not, the connection resynchronises.
    /// Closes the routed connections with a request no node has answered
    /// for [`Settings::answer_wait`]: the client resumes and asks again
    /// (every request is answered, in a bounded time).
    fn unanswered(&mut self) {
        let wait = self.hosting.settings.answer_wait();
        let late: Vec<u64> = self
            .routed
            .iter()
            .filter(|(_, r)| r.asked.values().any(|t| t.elapsed() > wait))
            .map(|(c, _)| *c)
            .collect();
        for conn in late {
            crate::metrics::error("cluster_unanswered");
            self.resync(conn, "a request to another node went unanswered");
        }
    }

    fn expect(&mut self, from: &str, conn: u64, n: u64) -> bool {
        let Some(r) = self.routed.get_mut(&conn) else {
            return false;
        };
        let next = r.next.entry(from.to_owned()).or_insert(0);
        if *next == n {
            *next += 1;
            r.asked.remove(from);
            true
        } else {
            self.resync(conn, "a relay message was lost");
            false
        }
    }
}

fn refuse(outbox: &Outbox, id: Option<RequestId>, code: ErrorCode, message: &str) {
    outbox.refuse(id, code, message);
}

/// Refuses `id` with `unavailable` and when to try again: its table is
/// moving between nodes.
fn refuse_retry(outbox: &Outbox, id: Option<RequestId>, message: &str, settings: &Settings) {
    crate::metrics::error("table_moving");
    let mut body = ErrorBody::new(ErrorCode::Unavailable, message);
    body.retry_after_ms = Some(settings.failover_retry().as_millis() as u64);
    outbox.send_msg(&ServerFrame::error(id, body));
}
