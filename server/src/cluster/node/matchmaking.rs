//! The one matchmaker of all nodes: run by the holder of the
//! `matchmaker` lease; every node keeps its own players' queue entries and
//! sends them to it (again, with the time waited, when it moves).

use std::time::Instant;

use tengen_protocol::ErrorCode;

use super::{Node, Queued, refuse};
use crate::cluster::wire::{Body, RemoteMatchCmd, RemoteSession};
use crate::msg::matchmaker::MatchCmd;
use crate::sessions::Session;

impl Node {
    /// A local connection's queue command: kept here, and sent to the
    /// matchmaker of the node that runs it (this one's, or over the bus).
    pub(super) fn route_match(&mut self, session: Session, cmd: RemoteMatchCmd) {
        let conn = session.outbox.conn;
        match &cmd {
            RemoteMatchCmd::Queue {
                config,
                account,
                rating,
                kind,
                ..
            } => {
                self.queued.insert(
                    conn,
                    Queued {
                        session: session.clone(),
                        config: config.clone(),
                        account: account.clone(),
                        rating: *rating,
                        since: Instant::now(),
                        kind: *kind,
                    },
                );
            }
            RemoteMatchCmd::Unqueue { .. } => {
                self.queued.remove(&conn);
            }
        }
        self.send_match(session, cmd);
    }

    /// Hands a queue command to the matchmaker, wherever it runs.
    pub(super) fn send_match(&mut self, session: Session, cmd: RemoteMatchCmd) {
        let leader = self.leader.clone();
        let id = match &cmd {
            RemoteMatchCmd::Queue { id, .. } | RemoteMatchCmd::Unqueue { id, .. } => *id,
        };
        match leader {
            Some(leader) if leader != self.hosting.settings.node => {
                let body = Body::ToMatchmaker {
                    conn: session.outbox.conn,
                    session: self.remote_session(&session),
                    cmd,
                };
                self.send_routed(&leader, &session, id, body, "the matchmaker is busy");
            }
            Some(_) => {
                let cmd = MatchCmd::from_remote(session.clone(), cmd);
                if !self.matchmaker.try_send(cmd) {
                    session.outbox.refuse_with(
                        id,
                        crate::pressure::busy("the matchmaker is busy; try again"),
                    );
                }
            }
            None => refuse(
                &session.outbox,
                id,
                ErrorCode::Unavailable,
                "the matchmaker cannot be reached; try again",
            ),
        }
    }

    /// Another node's connection asks this node's matchmaker.
    pub(super) fn host_match(
        &mut self,
        from: String,
        conn: u64,
        who: RemoteSession,
        cmd: RemoteMatchCmd,
    ) {
        if self.leading.is_none() {
            // Not (or no longer) the matchmaker: the sender learns the new
            // one within a tick and sends its entries there.
            return;
        }
        let outbox = self.relay_for(&from, conn, &who);
        if let Some(r) = self.relays.get_mut(&(from, conn)) {
            r.queued = true;
        }
        let session = Session {
            id: who.id,
            player: who.player,
            outbox,
        };
        let id = match &cmd {
            RemoteMatchCmd::Queue { id, .. } | RemoteMatchCmd::Unqueue { id, .. } => *id,
        };
        if !self
            .matchmaker
            .try_send(MatchCmd::from_remote(session.clone(), cmd))
        {
            session.outbox.refuse_with(
                id,
                crate::pressure::busy("the matchmaker is busy; try again"),
            );
        }
    }

    /// The matchmaker moved: every local waiter is queued again there.
    pub(super) fn requeue_all(&mut self, before: Option<&str>) {
        // Those this node's matchmaker paired already sit at their game.
        let sessions = self.hosting.sessions.clone();
        self.queued.retain(|_, q| !sessions.sits(&q.session.id));
        tracing::info!(from = ?before, to = ?self.leader, waiting = self.queued.len(), "the matchmaker moved; queueing local players there again");
        let entries: Vec<(Session, RemoteMatchCmd)> = self
            .queued
            .values()
            .map(|q| {
                (
                    q.session.clone(),
                    RemoteMatchCmd::Queue {
                        id: None,
                        config: q.config.clone(),
                        account: q.account.clone(),
                        rating: q.rating,
                        waited_ms: q.since.elapsed().as_millis() as u64,
                        kind: q.kind,
                    },
                )
            })
            .collect();
        if before == Some(self.hosting.settings.node.as_str()) {
            // This node's matchmaker had them: it must not pair them too.
            for (session, _) in &entries {
                let _ = self.matchmaker.try_send(MatchCmd::Unqueue {
                    session: session.clone(),
                    id: None,
                    reply: false,
                });
            }
        }
        for (session, cmd) in entries {
            self.send_match(session, cmd);
        }
    }
}
