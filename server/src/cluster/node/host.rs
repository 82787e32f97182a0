//! This node as the host of its tables: the relays that stand in here
//! for connections of other nodes (see the [parent module](super)).

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use tengen_protocol::{CloseCode, ErrorCode, RequestId, TableId};

use super::{Node, Relay, refuse};
use crate::cluster::wire::{Body, NodeMsg, RemoteSession, WireFrame};
use crate::msg::matchmaker::MatchCmd;
use crate::msg::node::NodeCmd;
use crate::msg::table::{TableAsk, TableCmd, TableRequest};
use crate::outbound::{self, Outbox};
use crate::sessions::Session;

impl Node {
    /// A connection of node `from` speaks to a table here.
    pub(super) fn host(
        &mut self,
        from: String,
        table: TableId,
        conn: u64,
        who: RemoteSession,
        id: Option<RequestId>,
        request: TableRequest,
    ) {
        let key = (from.clone(), conn);
        // Whether the table ran here for this connection (its relay,
        // closed or not, remembers it).
        let ran_here = self
            .relays
            .get(&key)
            .is_some_and(|r| r.tables.contains(&table));
        let outbox = self.relay_for(&from, conn, &who);
        let Some(relay) = self.relays.get_mut(&key) else {
            return;
        };
        let Some(handle) = self.hosting.directory.get(&table) else {
            if self.hosting.takeovers.taking(table.as_str()) {
                // Being taken over here: up in a moment.
                let why = format!("table {table} is moving here; try again");
                return super::refuse_retry(&outbox, id, &why, &self.hosting.settings);
            }
            if ran_here {
                // It ran here for this connection and closed (moved away,
                // or this node stops) before the relay's close reached the
                // client's node: asked again, that node looks it up anew.
                let why = format!("table {table} is moving to another node; try again");
                return super::refuse_retry(&outbox, id, &why, &self.hosting.settings);
            }
            // Closed (a table that moves away closes its relays itself,
            // which makes the client's node look it up anew).
            refuse(
                &outbox,
                id,
                ErrorCode::NotFound,
                &format!("no table {table}"),
            );
            return;
        };
        relay.tables.insert(table.clone());
        let session = Session {
            id: who.id,
            player: who.player,
            outbox: outbox.clone(),
        };
        let cmd = TableCmd::Request(Box::new(TableAsk {
            session,
            id,
            request,
            received: Instant::now(),
            via: Some(crate::msg::table::Via {
                node: from,
                conn,
                link: self.fan.clone(),
            }),
        }));
        if !handle.try_send(cmd) {
            outbox.refuse_with(id, crate::pressure::busy("the table is busy; try again"));
        }
    }

    /// The relay here of `node`'s connection `conn` (opened if need be).
    pub(super) fn relay_for(&mut self, node: &str, conn: u64, who: &RemoteSession) -> Outbox {
        let key = (node.to_owned(), conn);
        if self.relays.get(&key).is_some_and(|r| r.outbox.is_closed()) {
            self.relays.remove(&key);
        }
        if !self.relays.contains_key(&key) {
            // Its token, so that a table started here keeps it.
            self.hosting
                .sessions
                .remember(&who.token, &who.id, &who.player);
            let relay = self.open_relay(node, conn, who);
            self.relays.insert(key.clone(), relay);
        }
        self.relays[&key].outbox.clone()
    }

    /// An outbox here whose frames go to connection `conn` of `node`.
    pub(super) fn open_relay(&self, node: &str, conn: u64, who: &RemoteSession) -> Relay {
        let local = crate::outbound::next_conn_id();
        let (outbox, inbox) =
            outbound::channel(local, who.encoding(), self.hosting.settings.outbound_queue);
        let bus = self.bus.clone();
        let (me, to) = (self.me().to_owned(), node.to_owned());
        let done = self.tx.clone();
        let sent = Arc::new(AtomicU64::new(0));
        let counted = sent.clone();
        tokio::spawn(async move {
            let code = inbox
                .relay(|batch| {
                    let msg = NodeMsg {
                        from: me.clone(),
                        body: Body::Frames {
                            conn,
                            n: counted.load(Ordering::Acquire),
                            frames: batch.into_iter().map(WireFrame::from).collect(),
                        },
                    };
                    // Counted once queued, so a mark never names a message
                    // that is not ahead of it in the bus's queue.
                    let queued = bus.publish_node(&to, msg.encode());
                    counted.fetch_add(1, Ordering::AcqRel);
                    queued
                })
                .await;
            let msg = NodeMsg {
                from: me,
                body: Body::Close {
                    conn,
                    n: counted.load(Ordering::Acquire),
                    code,
                },
            };
            bus.publish_node(&to, msg.encode());
            done.notify(NodeCmd::RelayEnded { node: to, conn });
        });
        Relay {
            outbox,
            session: who.id.clone(),
            tables: HashSet::new(),
            queued: false,
            sent,
            marked: 0,
            marks_left: 0,
        }
    }

    /// A relayed connection ended (or its node died): as for a local
    /// connection, its tables start the session's abandonment countdown.
    pub(super) fn relay_gone(&self, relay: Relay) {
        let conn = relay.outbox.conn;
        self.lobby_relay_gone(&relay);
        for t in &relay.tables {
            if let Some(h) = self.hosting.directory.get(t) {
                let _ = h.try_send(TableCmd::Away {
                    session: relay.session.clone(),
                    conn,
                });
                let _ = h.try_send(TableCmd::Gone { conn });
            }
        }
        if relay.queued {
            let _ = self.matchmaker.try_send(MatchCmd::Gone {
                session: relay.session.clone(),
                conn,
            });
        }
        relay.outbox.close(CloseCode::Normal);
    }
}
