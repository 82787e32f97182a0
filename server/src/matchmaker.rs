//! The matchmaker actor: rated queues, one per game configuration (rule
//! set, opening, time control and the rest, exactly as `queue.config`
//! gives it).
//!
//! Every [`MatchSettings::interval`] it pairs what it can, oldest waiters
//! first. Two players may be paired when their rating gap is within the
//! allowed gap of *both*; the allowed gap widens with the time waited:
//!
//! ```text
//! allowed(wait) = 100 + 10 x wait_seconds  rating points  (wait < 120 s)
//!               = any gap                                   (wait >= 120 s)
//! ```
//!
//! (so ±100 at once, ±400 after 30 s, ±700 after a minute, and after two
//! minutes anyone in the same queue). Among the players a waiter may be
//! paired with, the closest rating wins (the longer waiter on a tie). Two
//! players who have just played each other are not paired again while
//! someone else waits in their queue. The opener is drawn by lot, the
//! lobby creates the rated room and table and tells both players
//! `matched`. One account waits once: queueing again (from any session)
//! replaces its entry. `unqueue`, a dropped connection, or logging out
//! remove it.
//!
//! Bots and people: a bot is paired with bots, and with a person only if
//! that person's `queue` said `bots: true`; a person without that opt-in
//! never meets a bot here (`QueueKind::pairs_with`).
//!
//! Commands arrive on a bounded mailbox; nothing here waits on anyone.

use std::collections::HashMap;
use std::time::Instant;

use tengen_protocol::{Envelope, RatingFamily, RequestId, ServerMsg, SessionId};
use tengen_rules::game::{GameConfig, Seat};
use tengen_store::name_key;
use tokio::sync::watch;

use crate::msg::lobby::{LobbyCmd, LobbyHandle};
use crate::msg::matchmaker::{MatchCmd, MatchmakerHandle, Pairing, Waiter};
use crate::sessions::Session;

/// How many commands the mailbox holds.
const MAILBOX: usize = 4096;

pub use crate::settings::MatchSettings;

/// The queues: each configuration's waiters, oldest first.
#[derive(Default)]
pub struct Queues {
    queues: Vec<(GameConfig, Vec<Waiter>)>,
    /// Each account's last opponent (by name key).
    last_opponent: HashMap<String, String>,
    /// Who blocks whom: two players one of whom blocks the other are
    /// never paired (`crate::moderation`).
    pub blocks: crate::moderation::book::Book,
}

impl Queues {
    pub fn len(&self) -> usize {
        self.queues.iter().map(|(_, q)| q.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds a waiter (replacing the account's earlier entry, in any queue).
    pub fn add(&mut self, config: GameConfig, waiter: Waiter) {
        self.remove_account(&waiter.account);
        match self.queues.iter_mut().find(|(c, _)| *c == config) {
            Some((_, q)) => {
                let at = q.partition_point(|w| w.since <= waiter.since);
                q.insert(at, waiter);
            }
            None => self.queues.push((config, vec![waiter])),
        }
    }

    /// The rated queues' depth and longest wait by rating family, to the
    /// metrics.
    fn report(&self, now: Instant) {
        for family in RatingFamily::ALL {
            let waiting = self
                .queues
                .iter()
                .filter(|(c, _)| RatingFamily::of(c.rule_set) == family);
            let (mut depth, mut oldest) = (0usize, 0f64);
            for (_, q) in waiting {
                depth += q.len();
                if let Some(w) = q
                    .iter()
                    .map(|w| now.saturating_duration_since(w.since))
                    .max()
                {
                    oldest = oldest.max(w.as_secs_f64());
                }
            }
            let f = family.as_str();
            metrics::gauge!(crate::metrics::RATED_WAITING, "family" => f).set(depth as f64);
            metrics::gauge!(crate::metrics::RATED_OLDEST_WAIT, "family" => f).set(oldest);
        }
    }

    fn remove_where(&mut self, gone: impl Fn(&Waiter) -> bool) -> bool {
        let before = self.len();
        for (_, q) in &mut self.queues {
            q.retain(|w| !gone(w));
        }
        self.queues.retain(|(_, q)| !q.is_empty());
        self.len() != before
    }

    pub fn remove_account(&mut self, account: &str) -> bool {
        let key = name_key(account);
        self.remove_where(|w| name_key(&w.account) == key)
    }

    pub fn remove_session(&mut self, session: &SessionId) -> bool {
        self.remove_where(|w| w.session.id == *session)
    }

    fn remove_conn(&mut self, session: &SessionId, conn: u64) -> bool {
        self.remove_where(|w| w.session.id == *session && w.session.outbox.conn == conn)
    }

    /// Pairs what can be paired at `now` (see the module documentation),
    /// taking the pairs out of the queues. The seats are given in the
    /// order found (the lobby draws the opener).
    pub fn pair(&mut self, now: Instant, s: &MatchSettings) -> Vec<(GameConfig, [Waiter; 2])> {
        let mut out = Vec::new();
        for (config, queue) in &mut self.queues {
            let mut i = 0;
            while i < queue.len() {
                let a = &queue[i];
                let gap_a = s.allowed_gap(now.saturating_duration_since(a.since));
                let key_a = name_key(&a.account);
                let takes = |b: &Waiter| a.kind.pairs_with(b.kind);
                let others = queue.iter().filter(|b| takes(b)).count() - 1;
                let best = queue
                    .iter()
                    .enumerate()
                    .filter(|&(j, b)| j != i && name_key(&b.account) != key_a && takes(b))
                    .filter(|(_, b)| {
                        let gap = (a.rating - b.rating).abs();
                        gap <= gap_a && gap <= s.allowed_gap(now.saturating_duration_since(b.since))
                    })
                    .filter(|(_, b)| !self.blocks.apart(&a.account, &b.account))
                    .filter(|(_, b)| {
                        let again = self.last_opponent.get(&key_a) == Some(&name_key(&b.account));
                        !again || others == 1
                    })
                    .min_by(|(_, x), (_, y)| {
                        let dx = (a.rating - x.rating).abs();
                        let dy = (a.rating - y.rating).abs();
                        dx.total_cmp(&dy).then(x.since.cmp(&y.since))
                    })
                    .map(|(j, _)| j);
                match best {
                    Some(j) => {
                        let (lo, hi) = (i.min(j), i.max(j));
                        let second = queue.remove(hi);
                        let first = queue.remove(lo);
                        let (first, second) = if lo == i {
                            (first, second)
                        } else {
                            (second, first)
                        };
                        if self.last_opponent.len() + 2 > s.max_remembered {
                            self.last_opponent.clear();
                        }
                        let (ka, kb) = (name_key(&first.account), name_key(&second.account));
                        self.last_opponent.insert(ka.clone(), kb.clone());
                        self.last_opponent.insert(kb, ka);
                        out.push((config.clone(), [first, second]));
                        // `i` now names the next waiter.
                    }
                    None => i += 1,
                }
            }
        }
        self.queues.retain(|(_, q)| !q.is_empty());
        out
    }
}

struct Matchmaker {
    settings: MatchSettings,
    lobby: LobbyHandle,
    handle: MatchmakerHandle,
    queues: Queues,
}

pub fn spawn(
    settings: MatchSettings,
    lobby: LobbyHandle,
    blocks: crate::moderation::book::Book,
    shutdown: watch::Receiver<bool>,
) -> MatchmakerHandle {
    let (handle, rx) = crate::mailbox::mailbox(MAILBOX, 0);
    let mm = Matchmaker {
        settings,
        lobby,
        handle: handle.clone(),
        queues: Queues {
            blocks,
            ..Queues::default()
        },
    };
    tokio::spawn(mm.run(rx, shutdown));
    handle
}

fn reply(session: &Session, id: Option<RequestId>, msg: ServerMsg) {
    session.outbox.send_msg(&Envelope::with_id(id, msg));
}

impl Matchmaker {
    async fn run(
        mut self,
        mut rx: crate::mailbox::Inbox<MatchCmd>,
        shutdown: watch::Receiver<bool>,
    ) {
        let every = self.settings.interval;
        rx.serve(&mut self, every, shutdown, Self::handle, Self::pair)
            .await;
    }

    fn handle(&mut self, cmd: MatchCmd) {
        match cmd {
            MatchCmd::Queue { waiter, config, id } => {
                if self.queues.len() >= self.settings.max_waiting {
                    crate::metrics::error("unavailable");
                    waiter
                        .session
                        .outbox
                        .send_msg(&tengen_protocol::ServerFrame::error(
                            id,
                            tengen_protocol::ErrorBody::new(
                                tengen_protocol::ErrorCode::Unavailable,
                                "the queues are full; try again later",
                            ),
                        ));
                    return;
                }
                reply(
                    &waiter.session,
                    id,
                    ServerMsg::Queued {
                        config: config.clone(),
                    },
                );
                tracing::debug!(account = %waiter.account, rating = waiter.rating, "queued");
                self.queues.add(config, waiter);
            }
            MatchCmd::Unqueue {
                session,
                id,
                reply: answer,
            } => {
                self.queues.remove_session(&session.id);
                if answer {
                    reply(&session, id, ServerMsg::Unqueued);
                }
            }
            MatchCmd::Gone { session, conn } => {
                self.queues.remove_conn(&session, conn);
            }
            MatchCmd::Requeue { config, waiter } => self.queues.add(config, waiter),
        }
    }

    fn pair(&mut self) {
        let now = Instant::now();
        if self.queues.is_empty() {
            return self.queues.report(now);
        }
        for (config, seats) in self.queues.pair(now, &self.settings) {
            let family = RatingFamily::of(config.rule_set).as_str();
            let waits = seats
                .each_ref()
                .map(|w| now.saturating_duration_since(w.since).as_secs_f64());
            let opener = if rand::random::<bool>() {
                Seat::First
            } else {
                Seat::Second
            };
            tracing::info!(
                first = %seats[0].account,
                second = %seats[1].account,
                "matched"
            );
            let pairing = Pairing {
                config,
                seats,
                opener,
            };
            let matched = LobbyCmd::Matched {
                pairing: Box::new(pairing),
                matchmaker: self.handle.clone(),
            };
            match self.lobby.try_give(matched) {
                Ok(()) => {
                    for wait in waits {
                        metrics::histogram!(crate::metrics::RATED_WAIT, "family" => family)
                            .record(wait);
                    }
                }
                Err(LobbyCmd::Matched { pairing, .. }) => {
                    // The lobby is overwhelmed: both wait on.
                    let Pairing { config, seats, .. } = *pairing;
                    for w in seats {
                        self.queues.add(config.clone(), w);
                    }
                }
                Err(_) => {}
            }
        }
        self.queues.report(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msg::matchmaker::QueueKind;
    use std::time::Duration;
    use tengen_protocol::{Encoding, Player};
    use tengen_rules::game::{RuleSet, TimeControl};

    fn waiter(name: &str, rating: f64, since: Instant) -> Waiter {
        let (outbox, _inbox) = crate::outbound::channel(rand::random(), Encoding::Json, 8);
        Waiter {
            session: Session {
                id: SessionId::from_u64(rand::random()),
                player: Player {
                    name: name.into(),
                    guest: false,
                    bot: false,
                },
                outbox,
            },
            account: name.into(),
            rating,
            since,
            kind: QueueKind::default(),
        }
    }

    fn renju() -> GameConfig {
        GameConfig::new(RuleSet::Renju).with_time(TimeControl::Fischer {
            main_ms: 300_000,
            increment_ms: 5_000,
        })
    }

    fn names(pairs: &[(GameConfig, [Waiter; 2])]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(_, [a, b])| (a.account.clone(), b.account.clone()))
            .collect()
    }

    #[test]
    fn the_allowed_gap_widens_with_the_wait() {
        let s = MatchSettings::default();
        assert_eq!(s.allowed_gap(Duration::ZERO), 100.0);
        assert_eq!(s.allowed_gap(Duration::from_secs(30)), 400.0);
        assert_eq!(s.allowed_gap(Duration::from_secs(60)), 700.0);
        assert_eq!(s.allowed_gap(Duration::from_millis(119_900)), 1_299.0);
        assert_eq!(s.allowed_gap(Duration::from_secs(120)), f64::INFINITY);
        let mut last = 0.0;
        for ms in (0..130_000).step_by(500) {
            let g = s.allowed_gap(Duration::from_millis(ms));
            assert!(g >= last, "never narrows");
            last = g;
        }
    }

    #[test]
    fn close_ratings_pair_at_once_far_ones_after_waiting() {
        let s = MatchSettings::default();
        let t0 = Instant::now();
        let mut q = Queues::default();
        q.add(renju(), waiter("ann", 1500.0, t0));
        q.add(renju(), waiter("bob", 1800.0, t0));
        q.add(renju(), waiter("cid", 1560.0, t0));
        // ann and cid are 60 apart: paired at once; bob waits.
        let pairs = q.pair(t0, &s);
        assert_eq!(names(&pairs), vec![("ann".into(), "cid".into())]);
        assert_eq!(q.len(), 1);
        // dee is 350 below bob: within both gaps only once both waited
        // 25 s (100 + 10 x 25 = 350).
        q.add(renju(), waiter("dee", 1450.0, t0));
        assert!(q.pair(t0 + Duration::from_secs(24), &s).is_empty());
        let pairs = q.pair(t0 + Duration::from_secs(25), &s);
        assert_eq!(names(&pairs), vec![("bob".into(), "dee".into())]);
        assert!(q.is_empty());
    }

    #[test]
    fn the_newcomer_must_accept_the_gap_too() {
        let s = MatchSettings::default();
        let t0 = Instant::now();
        let mut q = Queues::default();
        q.add(renju(), waiter("old", 1500.0, t0));
        let later = t0 + Duration::from_secs(100);
        q.add(renju(), waiter("new", 1900.0, later));
        // old accepts 1100 now, new only 100.
        assert!(q.pair(later, &s).is_empty());
        // After 30 s new accepts 400.
        let pairs = q.pair(later + Duration::from_secs(30), &s);
        assert_eq!(pairs.len(), 1);
        // Anyone after two minutes.
        let mut q = Queues::default();
        q.add(renju(), waiter("a", 1000.0, t0));
        q.add(renju(), waiter("b", 2500.0, t0));
        assert!(q.pair(t0 + Duration::from_secs(119), &s).is_empty());
        assert_eq!(q.pair(t0 + Duration::from_secs(120), &s).len(), 1);
    }

    #[test]
    fn queues_are_per_configuration_and_one_entry_per_account() {
        let s = MatchSettings::default();
        let t0 = Instant::now();
        let mut q = Queues::default();
        let gomoku = GameConfig::new(RuleSet::Gomoku);
        q.add(renju(), waiter("ann", 1500.0, t0));
        q.add(gomoku.clone(), waiter("bob", 1500.0, t0));
        assert!(q.pair(t0, &s).is_empty(), "different games never pair");
        // ann queues again for gomoku: her renju entry goes.
        q.add(gomoku.clone(), waiter("Ann", 1500.0, t0));
        assert_eq!(q.len(), 2);
        let pairs = q.pair(t0, &s);
        assert_eq!(pairs.len(), 1);
        assert_eq!(pairs[0].0, gomoku);
        // Two sessions of one account never meet.
        q.add(renju(), waiter("cid", 1500.0, t0));
        q.add(renju(), waiter("cid", 1500.0, t0));
        assert_eq!(q.len(), 1);
    }

    #[test]
    fn the_same_two_are_not_paired_twice_in_a_row_while_others_wait() {
        let s = MatchSettings::default();
        let t0 = Instant::now();
        let mut q = Queues::default();
        q.add(renju(), waiter("ann", 1500.0, t0));
        q.add(renju(), waiter("bob", 1510.0, t0));
        assert_eq!(q.pair(t0, &s).len(), 1);
        // Alone again, the two may meet again.
        let t1 = t0 + Duration::from_secs(1);
        q.add(renju(), waiter("ann", 1500.0, t1));
        q.add(renju(), waiter("bob", 1510.0, t1));
        assert_eq!(names(&q.pair(t1, &s)), vec![("ann".into(), "bob".into())]);
        // With cid waiting (further away), ann gets cid and bob waits.
        let t2 = t1 + Duration::from_secs(1);
        q.add(renju(), waiter("ann", 1500.0, t2));
        q.add(renju(), waiter("bob", 1510.0, t2));
        q.add(renju(), waiter("cid", 1580.0, t2));
        let pairs = q.pair(t2, &s);
        assert_eq!(names(&pairs), vec![("ann".into(), "cid".into())]);
        assert_eq!(q.len(), 1);
    }

    #[test]
    fn removal_by_session_and_connection() {
        let t0 = Instant::now();
        let mut q = Queues::default();
        let a = waiter("ann", 1500.0, t0);
        let (sid, conn) = (a.session.id.clone(), a.session.outbox.conn);
        q.add(renju(), a);
        assert!(!q.remove_conn(&sid, conn + 1), "another connection");
        assert!(q.remove_conn(&sid, conn));
        q.add(renju(), waiter("bob", 1500.0, t0));
        assert!(q.remove_account("BOB"));
        assert!(q.is_empty());
    }
}
