//! Who is online on the other nodes, for a challenge by name.
//!
//! Why: a node's session registry knows only the connections it holds,
//! and a challenge names a player who may be connected to any node.
//! Rather than copying every node's online names to every node (news at
//! each `hello` and each close, for lookups that are rare), the lobby asks
//! when it needs to: a challenge of a name not online here waits while
//! `Find` goes on the lobby topic to every node, each answering `Found` to
//! the asker with the player online there under that name, or nobody.
//!
//! The first answer naming a player sends the challenge to that node's
//! lobby through the node actor (`LobbyRemoteCmd::Challenge`), as a join
//! of another node's room goes ([`super::remote`]): the private room is
//! made there, the challenger seated through its relay, so `room_created`
//! and later the game come back through the relay, and the challenged
//! player gets `challenged` on their own node and joins (or declines) the
//! room there, as on one node. (A player online on two nodes, two
//! sessions of one account, gets it where the first answer came from.)
//!
//! Where each refusal is checked:
//! - the challenger's own (rated games for accounts, a fair-play wait):
//!   here, before asking; its seat limit, its seats here before sending
//!   it on, and all its seats where the room is made (which knows its own
//!   rooms exactly and the others' as last heard, [`super::remote`]);
//! - a bot challenging a bot uses its hourly allowance here, at its own
//!   node, once the answer says the player is a bot, so that one window
//!   counts all its challenges wherever their targets are (a challenge
//!   the target's filters then refuse has used it);
//! - everything about the player (a guest for a rated game, their
//!   fair-play wait, blocks, a bot's filters): at the player's node, where
//!   their session is as it is now and where their standing and filters
//!   are kept (a node holds those of the accounts and bots that logged in
//!   there, `crate::moderation::book`, `crate::bot_filters`);
//! - blocks at both nodes: a block is either player's, and each node
//!   surely holds the standing of its own player only (another node's
//!   changes reach it as news, but not those made before it started).
//!
//! Nobody online anywhere: `not_found` once every node heard from lately
//! answered nobody (at once when there is no other node); a node that has
//! not answered within [`FIND_WAIT`] makes it `unavailable` (try again):
//! the player may be there. At most [`MAX_FINDS`] lookups wait at once
//! (then `unavailable`, busy). All of it runs in the lobby actor: no
//! lock, no await.

use std::time::{Duration, Instant};

use tengen_protocol::{ErrorCode, Player, RequestId};

use super::lookups::{ChallengeAsk, Finding};
use super::{Lobby, refuse};
use crate::cluster::wire::{LobbyNews, LobbyRemoteCmd};
use crate::sessions::Session;

/// How long a lookup waits for every node's answer.
pub const FIND_WAIT: Duration = Duration::from_secs(2);
/// The most lookups waiting at once.
pub const MAX_FINDS: usize = 1024;

fn nobody(session: &Session, id: Option<RequestId>, name: &str) {
    refuse(
        session,
        id,
        ErrorCode::NotFound,
        format!("nobody called {name} is online"),
    );
}

impl Lobby {
    /// A challenge of a player not online here: asks the other nodes.
    pub(super) fn find_elsewhere(
        &mut self,
        session: Session,
        id: Option<RequestId>,
        ask: ChallengeAsk,
    ) {
        let waiting: std::collections::BTreeSet<String> = self
            .pending
            .peers
            .keys()
            .filter(|n| !self.silent(n))
            .cloned()
            .collect();
        let Some(link) = self.pending.link.as_ref().filter(|_| !waiting.is_empty()) else {
            return nobody(&session, id, &ask.player);
        };
        if self.finds.len() >= MAX_FINDS {
            let busy = crate::pressure::busy("the server is busy; try again");
            session.outbox.refuse_with(id, busy);
            return;
        }
        let nonce = rand::random();
        link.broadcast(LobbyNews::Find {
            nonce,
            name: ask.player.clone(),
        });
        self.finds.insert(
            nonce,
            Finding {
                session,
                id,
                ask,
                waiting,
                until: Instant::now() + FIND_WAIT,
            },
        );
    }

    /// Another node asks who is online here as `name`.
    pub(super) fn answer_find(&self, from: &str, nonce: u64, name: &str) {
        let Some(link) = &self.pending.link else {
            return;
        };
        let player = self.hosting.sessions.online(name).map(|(_, p, _)| p);
        link.send(from, LobbyNews::Found { nonce, player });
    }

    /// Node `from` answers lookup `nonce`: the challenge goes there if
    /// the player is online there.
    pub(super) fn found(&mut self, from: String, nonce: u64, player: Option<Player>) {
        let Some(them) = player else {
            if let Some(f) = self.finds.nobody_at(nonce, &from) {
                nobody(&f.session, f.id, &f.ask.player);
            }
            return;
        };
        let Some(Finding {
            session, id, ask, ..
        }) = self.finds.take(nonce)
        else {
            return; // answered already, or given up
        };
        if session.outbox.is_closed() {
            return; // the challenger left while it was looked for
        }
        if self.seats_here(&session.id) >= self.seat_cap(&session) {
            return refuse(
                &session,
                id,
                ErrorCode::AlreadySeated,
                "you already sit in as many rooms as allowed".into(),
            );
        }
        // The player's node checks blocks too; this one holds the
        // challenger's standing (read at its login here).
        if crate::moderation::chat::apart(&self.hosting.moderation.book, &session.player, &them) {
            let why = format!("{} and you block challenges from each other", ask.player);
            return refuse(&session, id, ErrorCode::Blocked, why);
        }
        if them.bot && session.player.bot && !self.bot_challenge_counted(&session, id) {
            return;
        }
        let Some(link) = &self.pending.link else {
            return;
        };
        let cmd = LobbyRemoteCmd::Challenge {
            id,
            player: ask.player,
            config: ask.config,
            chat: ask.chat,
            rated: ask.rated,
        };
        super::remote::route_to(from, &link.node, session, cmd);
    }

    /// Lookups some node left unanswered for [`FIND_WAIT`] end.
    pub(super) fn finds_tick(&mut self) {
        for f in self.finds.expired(Instant::now()) {
            let why = format!(
                "a server did not answer whether {} is online there; try again",
                f.ask.player
            );
            refuse(&f.session, f.id, ErrorCode::Unavailable, why);
        }
    }
}
