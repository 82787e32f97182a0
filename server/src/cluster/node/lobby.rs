//! The node's side of one lobby across nodes (`crate::lobby::remote`):
//! it carries the lobby's news between the bus and the lobby actor, and
//! routes lobby commands for rooms of other nodes as table commands are
//! routed: the room's node answers through its relay of the connection.

use super::super::wire::{Body, LOBBY_TOPIC, LobbyNews, LobbyRemoteCmd, NodeMsg, RemoteSession};
use super::{Node, Relay};
use crate::msg::lobby::{ClusterCmd, LobbyCmd};
use crate::msg::node::NodeHandle;
use crate::sessions::Session;

impl Node {
    /// Subscribes to the lobby topic, then hands the lobby what it
    /// needs to speak to the other nodes (in the background: the
    /// subscription waits for Redis).
    pub(super) fn attach_lobby(&self, node: NodeHandle) {
        let (bus, lobby) = (self.bus.clone(), self.hosting.lobby.clone());
        tokio::spawn(async move {
            if let Err(e) = bus.subscribe_topic(LOBBY_TOPIC).await {
                // Still counted: made when Redis is back (`Resubscribed`,
                // after which the lobby asks everyone for their rooms).
                tracing::warn!(error = %e, "the lobby topic is not subscribed yet");
            }
            lobby.notify(LobbyCmd::Cluster(ClusterCmd::Attach { node }));
        });
    }

    /// A delivery on a topic: the lobby topic's news go to the lobby
    /// (this node's own echo is dropped).
    pub(super) fn lobby_topic(&mut self, topic: &str, payload: &[u8]) {
        if topic != LOBBY_TOPIC {
            return;
        }
        match NodeMsg::decode(payload) {
            Some(NodeMsg {
                from,
                body: Body::Lobby(news),
            }) => {
                if from != self.me() {
                    self.lobby_news(from, news);
                }
            }
            _ => crate::metrics::error("cluster_malformed"),
        }
    }

    /// The lobby's news out: on the lobby topic, or to one node.
    pub(super) fn publish_lobby(&self, to: Option<String>, news: LobbyNews) {
        let msg = NodeMsg {
            from: self.me().to_owned(),
            body: Body::Lobby(news),
        }
        .encode();
        let sent = match to {
            None => self.bus.publish_topic(LOBBY_TOPIC, msg),
            Some(node) => self.bus.publish_node(&node, msg),
        };
        if !sent {
            crate::metrics::error("cluster_lobby_unsent");
        }
    }

    /// News from another node's lobby. When the lobby's mailbox is full
    /// they are dropped (and counted): the lobby sees the gap in the
    /// sender's numbers and asks for its rooms again.
    pub(super) fn lobby_news(&mut self, from: String, news: LobbyNews) {
        let cmd = LobbyCmd::Cluster(ClusterCmd::News { from, news });
        if !self.hosting.lobby.try_send(cmd) {
            crate::metrics::error("cluster_lobby_dropped");
        }
    }

    /// The bus may have lost messages: the lobby asks everyone again.
    pub(super) fn lobby_reset(&mut self) {
        self.hosting
            .lobby
            .notify(LobbyCmd::Cluster(ClusterCmd::Reset));
    }

    /// Sends a local connection's lobby command to the node holding the
    /// room; its answers come back through that node's relay of the
    /// connection, numbered as for tables.
    pub(super) fn route_lobby(&mut self, node: String, session: Session, cmd: LobbyRemoteCmd) {
        let id = cmd.id();
        let body = Body::ToLobby {
            conn: session.outbox.conn,
            session: self.remote_session(&session),
            cmd,
        };
        self.send_routed(&node, &session, id, body, "the server is busy");
    }

    /// A connection of node `from` asks something of a room here: the
    /// lobby gets it with the connection's relay as its outbox (the relay
    /// table commands use, so a table started for the room sends its
    /// frames through it).
    pub(super) fn host_lobby(
        &mut self,
        from: String,
        conn: u64,
        who: RemoteSession,
        cmd: LobbyRemoteCmd,
    ) {
        let outbox = self.relay_for(&from, conn, &who);
        let session = Session {
            id: who.id,
            player: who.player,
            outbox: outbox.clone(),
        };
        let id = cmd.id();
        if !self
            .hosting
            .lobby
            .try_send(LobbyCmd::Cluster(ClusterCmd::Remote { from, session, cmd }))
        {
            outbox.refuse_with(id, crate::pressure::busy("the lobby is busy; try again"));
        }
    }

    /// A relay here ended: the lobby lets its session leave the rooms it
    /// sat in through it, and the games it plays start the abandonment
    /// countdown (as when a local connection closes).
    pub(super) fn lobby_relay_gone(&self, relay: &Relay) {
        self.hosting
            .lobby
            .notify(LobbyCmd::Cluster(ClusterCmd::RelayGone {
                session: relay.session.clone(),
                conn: relay.outbox.conn,
            }));
    }
}
