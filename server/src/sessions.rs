//! Sessions outlive connections: a resume token brings a player back to the
//! same session (id, name, seats) on a new connection.
//!
//! The registry maps each token's digest (`tengen_store::token_digest`) to
//! its session, so that a session restored from the store, which keeps
//! only digests, is found by the token its player presents; the token
//! itself is known while this process issued it or was shown it. It
//! remembers which
//! connection holds it now and which tables it sits at. When a connection
//! ends, its session stays resumable for the grace the settings give, or
//! for as long as it sits at an open table (a correspondence game lasts
//! days; a live one ends soon after its player leaves); a
//! `hello` with the token within it gets the same session back, and the
//! old connection (if it still lingers) is closed with 4005. The lock is a
//! `std::sync::Mutex`, held only for map operations, never across an await.
//!
//! The registry is bounded: past `max` sessions, the resumable ones whose
//! connection ended longest ago are forgotten first (counted in the
//! `tengen_sessions_evicted_total` metric); their tokens then open fresh
//! sessions. Connected sessions are never forgotten (the connection cap
//! bounds them).

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

// tokio's clock (the monotonic clock, paused in tests) so that the grace
// can be tested to the second without waiting it out.
use tokio::time::Instant;

use tengen_protocol::{Player, SeatedTable, SessionId, TableId};

use crate::outbound::Outbox;
use tengen_store::{is_digest, token_digest};

/// A token's digest; a digest as it is.
fn digest_of(token: &str) -> String {
    if is_digest(token) {
        token.to_owned()
    } else {
        token_digest(token)
    }
}

/// Who is on the other end of a connection, as the lobby, the tables and
/// the matchmaker know them: the session, its player, and where to send.
#[derive(Clone)]
pub struct Session {
    pub id: SessionId,
    pub player: Player,
    pub outbox: Outbox,
}

struct Entry {
    id: SessionId,
    player: Player,
    /// The resume token, when this process knows it (it issued it, or a
    /// `hello` presented it since a restore).
    token: Option<String>,
    /// The connection holding the session now, with its outbox.
    holder: Option<Outbox>,
    /// When a session without a connection stops being resumable.
    expires: Option<Instant>,
    tables: BTreeSet<TableId>,
    /// The login token the session is its account with (from
    /// `hello.token`, a `login` or a `register`); `None` for a guest, and
    /// for a session restored or learnt from another node.
    login: Option<String>,
}

#[derive(Default)]
struct Inner {
    /// By the digest of the resume token.
    by_token: HashMap<String, Entry>,
    token_of: HashMap<SessionId, String>,
    /// The digest of a restored session's token, once `tables_of` gave
    /// that session a new token: the old one still resumes it.
    aliases: HashMap<String, String>,
    /// Names in use by live (connected or resumable) sessions: each unique.
    names: HashMap<String, SessionId>,
    last_purge: Option<Instant>,
}

/// The session registry.
#[derive(Clone)]
pub struct Sessions {
    inner: Arc<Mutex<Inner>>,
    grace: Duration,
    max: usize,
}

/// A session as a connection gets it at `hello`.
pub struct Opened {
    pub id: SessionId,
    pub player: Player,
    pub token: String,
    pub resumed: bool,
    /// The tables the session sits at.
    pub tables: Vec<TableId>,
    /// The connection that held the session before, if still open.
    pub previous: Option<Outbox>,
}

impl Sessions {
    /// A registry whose sessions stay resumable `grace` after their
    /// connection ends.
    pub fn new(grace: Duration, max: usize) -> Sessions {
        Sessions {
            inner: Arc::default(),
            grace,
            max: max.max(1),
        }
    }

    /// Opens a session for a new connection: the one `resume` names if it
    /// is still resumable, otherwise a new one for `player` (a guest's name
    /// made unique; an account's kept as it is, with the login token
    /// `login` that opened it).
    pub fn open_as(
        &self,
        resume: Option<&str>,
        player: Player,
        login: Option<String>,
        outbox: Outbox,
    ) -> Opened {
        let now = Instant::now();
        let Ok(mut inner) = self.inner.lock() else {
            return fresh_without_registry(player);
        };
        inner.purge(now);
        if let Some(resume) = resume
            && let Some(entry) = inner.by_digest(&token_digest(resume))
        {
            let previous = entry.holder.replace(outbox);
            entry.expires = None;
            entry.token.get_or_insert_with(|| resume.to_owned());
            return Opened {
                id: entry.id.clone(),
                player: entry.player.clone(),
                token: resume.to_string(),
                resumed: true,
                tables: entry.tables.iter().cloned().collect(),
                previous,
            };
        }
        inner.make_room(self.max);
        let id = SessionId::from_u64(rand::random());
        let token = fresh_token();
        let login = login.filter(|_| !player.guest);
        let player = inner.take_name(player, &id);
        let digest = token_digest(&token);
        inner.token_of.insert(id.clone(), digest.clone());
        inner.by_token.insert(
            digest,
            Entry {
                id: id.clone(),
                player: player.clone(),
                token: Some(token.clone()),
                holder: Some(outbox),
                expires: None,
                tables: BTreeSet::new(),
                login,
            },
        );
        Opened {
            id,
            player,
            token,
            resumed: false,
            tables: Vec::new(),
            previous: None,
        }
    }

    /// The connection `conn` ended: if it still held its session, the
    /// session becomes resumable for the grace, and the tables it sits at
    /// are returned (they hear that the player is away). `None` when the
    /// session had moved on to another connection (a takeover).
    pub fn closed(&self, id: &SessionId, conn: u64) -> Option<Vec<TableId>> {
        let Ok(mut inner) = self.inner.lock() else {
            return Some(Vec::new());
        };
        let Some(token) = inner.token_of.get(id).cloned() else {
            return Some(Vec::new());
        };
        let grace = self.grace;
        match inner.by_token.get_mut(&token) {
            Some(e) if e.holder.as_ref().is_some_and(|o| o.conn == conn) => {
                e.holder = None;
                e.expires = Some(Instant::now() + grace);
                Some(e.tables.iter().cloned().collect())
            }
            Some(_) => None,
            None => Some(Vec::new()),
        }
    }

    /// Learns a session of another node (connected there, speaking to this
    /// node through a relay, `crate::cluster`), so that a table started
    /// here keeps its resume token's digest (what `token` is). It is
    /// resumable here for the grace, like a session whose connection just
    /// ended: its player may come back through this node. Nothing changes
    /// if the token is known.
    pub fn remember(&self, token: &str, id: &SessionId, player: &Player) {
        if token.is_empty() {
            return;
        }
        let Ok(mut inner) = self.inner.lock() else {
            return;
        };
        let digest = digest_of(token);
        if inner.by_token.contains_key(&digest) {
            return;
        }
        inner.by_token.insert(
            digest.clone(),
            Entry {
                id: id.clone(),
                player: player.clone(),
                token: None,
                holder: None,
                expires: Some(Instant::now() + self.grace),
                tables: BTreeSet::new(),
                login: None,
            },
        );
        inner.token_of.insert(id.clone(), digest);
    }

    /// Whether the session sits at a table here.
    pub fn sits(&self, id: &SessionId) -> bool {
        self.inner.lock().is_ok_and(|inner| {
            inner
                .token_of
                .get(id)
                .and_then(|t| inner.by_token.get(t))
                .is_some_and(|e| !e.tables.is_empty())
        })
    }

    /// Records that the session sits at `table` (or no longer does).
    pub fn seat(&self, id: &SessionId, table: &TableId, sits: bool) {
        let Ok(mut inner) = self.inner.lock() else {
            return;
        };
        let Some(token) = inner.token_of.get(id).cloned() else {
            return;
        };
        if let Some(e) = inner.by_token.get_mut(&token) {
            if sits {
                e.tables.insert(table.clone());
            } else {
                e.tables.remove(table);
            }
        }
    }

    /// The digest of a live session's resume token (what the store and
    /// other nodes are given).
    pub fn token_digest(&self, id: &SessionId) -> Option<String> {
        self.inner.lock().ok()?.token_of.get(id).cloned()
    }

    /// Whether a session with this resume token is resumable now.
    pub fn token_known(&self, token: &str) -> bool {
        let now = Instant::now();
        self.inner.lock().is_ok_and(|mut inner| {
            inner
                .by_digest(&token_digest(token))
                .is_some_and(|e| e.expires.is_none_or(|t| t > now) || !e.tables.is_empty())
        })
    }

    /// Brings back, after a restart, the session of a player seated at the
    /// restored `table`, by its resume token's digest (what the store
    /// keeps; a token is taken too): resumable with its old token for the
    /// grace, as if its connection had just ended. A session seated at
    /// several tables is restored once per table and keeps them all.
    pub fn restore(&self, token: &str, id: &SessionId, player: &Player, table: &TableId) {
        if token.is_empty() {
            return;
        }
        let Ok(mut inner) = self.inner.lock() else {
            return;
        };
        let expires = Some(Instant::now() + self.grace);
        let digest = digest_of(token);
        let digest = inner.aliases.get(&digest).cloned().unwrap_or(digest);
        let entry = inner
            .by_token
            .entry(digest.clone())
            .or_insert_with(|| Entry {
                id: id.clone(),
                player: player.clone(),
                token: None,
                holder: None,
                expires,
                tables: BTreeSet::new(),
                login: None,
            });
        entry.tables.insert(table.clone());
        inner.token_of.insert(id.clone(), digest);
        inner.names.insert(player.name.clone(), id.clone());
    }

    /// The connection holding session `id` now, if one does.
    pub fn holder(&self, id: &SessionId) -> Option<Outbox> {
        let inner = self.inner.lock().ok()?;
        inner.by_token.get(inner.token_of.get(id)?)?.holder.clone()
    }

    /// The session online (connected now) under `name`, with its outbox.
    pub fn online(&self, name: &str) -> Option<(SessionId, Player, Outbox)> {
        let inner = self.inner.lock().ok()?;
        let id = inner.names.get(name)?;
        let e = inner.by_token.get(inner.token_of.get(id)?)?;
        if let Some(outbox) = e.holder.clone() {
            return Some((e.id.clone(), e.player.clone(), outbox));
        }
        // The account's first session has no connection now (a command
        // that ended, its session kept for a resume): another session of
        // the account may be online.
        inner
            .by_token
            .values()
            .filter(|o| !o.player.guest && o.player.name == name)
            .find_map(|o| Some((o.id.clone(), o.player.clone(), o.holder.clone()?)))
    }

    /// Forgets every session of the account `name` (any case; a banned
    /// account: none of them may be resumed) and returns the connections
    /// that held them, for the caller to close.
    pub fn end_account(&self, name: &str) -> Vec<Outbox> {
        let Ok(mut inner) = self.inner.lock() else {
            return Vec::new();
        };
        let key = tengen_store::name_key(name);
        let gone: Vec<String> = inner
            .by_token
            .iter()
            .filter(|(_, e)| !e.player.guest && tengen_store::name_key(&e.player.name) == key)
            .map(|(t, _)| t.clone())
            .collect();
        let mut holders = Vec::new();
        for token in gone {
            if let Some(e) = inner.by_token.remove(&token) {
                inner.token_of.remove(&e.id);
                inner.release_name(&e.player.name, &e.id);
                holders.extend(e.holder);
            }
        }
        holders
    }

    /// Live sessions (for tests and metrics).
    pub fn len(&self) -> usize {
        self.inner.lock().map_or(0, |i| i.by_token.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Inner {
    /// The session whose token has `digest` (or had it, before
    /// `tables_of` gave it another).
    fn by_digest(&mut self, digest: &str) -> Option<&mut Entry> {
        let key = self.aliases.get(digest).map_or(digest, String::as_str);
        self.by_token.get_mut(key)
    }

    /// Forgets sessions whose grace ran out (at most once a second, so a
    /// burst of reconnections does not scan the map each time).
    /// Below `max` sessions, room for one more: the resumable sessions
    /// whose connection ended longest ago go first (a batch of a hundredth
    /// of `max` at once, so a full registry is not sorted on every hello),
    /// and those seated at a table only after every other one (a
    /// correspondence player away for days keeps the seat while the
    /// registry can make room otherwise).
    fn make_room(&mut self, max: usize) {
        if self.by_token.len() < max {
            return;
        }
        let mut gone: Vec<(bool, Instant, String)> = self
            .by_token
            .iter()
            .filter_map(|(t, e)| e.expires.map(|x| (!e.tables.is_empty(), x, t.clone())))
            .collect();
        gone.sort_unstable();
        let excess = self.by_token.len() + 1 - max + max / 100;
        for (_, _, t) in gone.into_iter().take(excess) {
            if let Some(e) = self.by_token.remove(&t) {
                self.token_of.remove(&e.id);
                self.release_name(&e.player.name, &e.id);
                metrics::counter!(crate::metrics::SESSIONS_EVICTED).increment(1);
                crate::metrics::cap_hit(crate::metrics::Cap::Sessions);
            }
        }
    }

    fn purge(&mut self, now: Instant) {
        if self
            .last_purge
            .is_some_and(|t| now.saturating_duration_since(t) < Duration::from_secs(1))
        {
            return;
        }
        self.last_purge = Some(now);
        let gone: Vec<String> = self
            .by_token
            .iter()
            // A session seated at an open table stays resumable: a
            // correspondence player comes back days later (docs/rules.md §7).
            .filter(|(_, e)| e.expires.is_some_and(|t| t <= now) && e.tables.is_empty())
            .map(|(t, _)| t.clone())
            .collect();
        for t in gone {
            if let Some(e) = self.by_token.remove(&t) {
                self.token_of.remove(&e.id);
                self.release_name(&e.player.name, &e.id);
            }
        }
        let by_token = &self.by_token;
        self.aliases.retain(|_, key| by_token.contains_key(key));
    }

    /// `wanted`, or `wanted-2`, `wanted-3`, ... if a live session has it
    /// (within the name's length limit).
    fn unique_name(&self, wanted: String) -> String {
        if !self.names.contains_key(&wanted) {
            return wanted;
        }
        (2u32..)
            .map(|n| {
                let suffix = format!("-{n}");
                let keep = tengen_protocol::limits::MAX_NAME_CHARS - suffix.chars().count();
                let base: String = wanted.chars().take(keep).collect();
                base + &suffix
            })
            .find(|c| !self.names.contains_key(c))
            .expect("some suffix is free")
    }
}

/// A new resume token: 128 random bits.
fn fresh_token() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// A session that cannot be resumed (only if the registry's lock was
/// poisoned by a panic elsewhere; the connection still works).
fn fresh_without_registry(player: Player) -> Opened {
    Opened {
        id: SessionId::from_u64(rand::random()),
        player,
        token: String::new(),
        resumed: false,
        tables: Vec::new(),
        previous: None,
    }
}

// ---- accounts (`crate::conn::accounts`): who a session is can change ----

impl Sessions {
    /// Makes session `id` be `player` from now on (it became a bot) and
    /// returns the player as registered. The session's resume token,
    /// login token, tables and seats stay.
    pub fn set_player(&self, id: &SessionId, player: Player) -> Player {
        self.change_player(id, player, None)
    }

    /// Makes session `id` be `player`, with the login token `login`, from
    /// now on (a login or a registration; a logout with `None` and a
    /// guest) and returns the player as registered (a guest's name made
    /// unique). The session's resume token, tables and seats stay.
    pub fn sign(&self, id: &SessionId, player: Player, login: Option<String>) -> Player {
        self.change_player(id, player, Some(login))
    }

    /// The login token session `id` is its account with.
    pub fn login(&self, id: &SessionId) -> Option<String> {
        let inner = self.inner.lock().ok()?;
        inner.by_token.get(inner.token_of.get(id)?)?.login.clone()
    }

    fn change_player(
        &self,
        id: &SessionId,
        player: Player,
        login: Option<Option<String>>,
    ) -> Player {
        let Ok(mut inner) = self.inner.lock() else {
            return player;
        };
        let Some(token) = inner.token_of.get(id).cloned() else {
            return player;
        };
        let Some(old) = inner.by_token.get(&token).map(|e| e.player.name.clone()) else {
            return player;
        };
        inner.release_name(&old, id);
        let player = inner.take_name(player, id);
        if let Some(e) = inner.by_token.get_mut(&token) {
            e.player = player.clone();
            if let Some(login) = login {
                e.login = login;
            }
        }
        player
    }

    /// Ends every session that is an account with the login token `token`
    /// (revoked): see [`Sessions::end_logins`].
    pub fn end_login(&self, token: &str) -> Vec<Outbox> {
        self.end_where(|e| e.login.as_deref() == Some(token))
    }

    /// Ends the sessions of the account `name` (any case) for which `void`
    /// says so, given the login token each holds. Each gets a new resume
    /// token that nobody knows, so that none can be resumed, and loses its
    /// login token; the connections that held them are returned for the
    /// caller to close (4007). A session seated at a table stays seated
    /// under its new token: its tables hear that its connection went, as
    /// for any drop, and a later login of the account finds it with
    /// `my_tables`.
    pub fn end_logins(&self, name: &str, void: impl Fn(Option<&str>) -> bool) -> Vec<Outbox> {
        let key = tengen_store::name_key(name);
        self.end_where(|e| {
            !e.player.guest
                && tengen_store::name_key(&e.player.name) == key
                && void(e.login.as_deref())
        })
    }

    fn end_where(&self, ends: impl Fn(&Entry) -> bool) -> Vec<Outbox> {
        let Ok(mut inner) = self.inner.lock() else {
            return Vec::new();
        };
        let gone: Vec<String> = inner
            .by_token
            .iter()
            .filter(|(_, e)| ends(e))
            .map(|(t, _)| t.clone())
            .collect();
        gone.iter().filter_map(|t| inner.rekey(t)).collect()
    }

    /// The login tokens the sessions of the account `name` (any case)
    /// hold here.
    pub fn logins_of(&self, name: &str) -> Vec<String> {
        let Ok(inner) = self.inner.lock() else {
            return Vec::new();
        };
        let key = tengen_store::name_key(name);
        let mut logins: Vec<String> = inner
            .by_token
            .values()
            .filter(|e| !e.player.guest && tengen_store::name_key(&e.player.name) == key)
            .filter_map(|e| e.login.clone())
            .collect();
        logins.sort_unstable();
        logins.dedup();
        logins
    }

    /// The tables where the sessions of account `name` sit (connected or
    /// resumable), each with its session's resume token and whether a
    /// connection holds the session now: at most `max`, in table order. A
    /// session that logged out since is a guest now, and not listed.
    /// A session restored from the store, whose token this process was
    /// never shown, gets a new one here (its old one still resumes it).
    pub fn tables_of(&self, name: &str, max: usize) -> Vec<SeatedTable> {
        let Ok(mut inner) = self.inner.lock() else {
            return Vec::new();
        };
        let unknown: Vec<String> = inner
            .by_token
            .iter()
            .filter(|(_, e)| !e.player.guest && e.player.name == name && e.token.is_none())
            .map(|(digest, _)| digest.clone())
            .collect();
        for old in unknown {
            let token = format!("{:032x}", rand::random::<u128>());
            let digest = token_digest(&token);
            if let Some(mut e) = inner.by_token.remove(&old) {
                e.token = Some(token);
                inner.token_of.insert(e.id.clone(), digest.clone());
                inner.by_token.insert(digest.clone(), e);
                inner.aliases.insert(old, digest);
            }
        }
        let mut found: Vec<SeatedTable> = inner
            .by_token
            .values()
            .filter(|e| !e.player.guest && e.player.name == name)
            .flat_map(|e| {
                let token = e.token.clone().unwrap_or_default();
                e.tables.iter().map(move |table| SeatedTable {
                    table: table.clone(),
                    resume_token: token.clone(),
                    online: e.holder.is_some(),
                })
            })
            .collect();
        found.sort_unstable_by(|a, b| a.table.as_str().cmp(b.table.as_str()));
        found.truncate(max);
        found
    }

    /// Whether a live guest session has the name `name` (in any case).
    pub fn guest_uses(&self, name: &str) -> bool {
        let Ok(inner) = self.inner.lock() else {
            return false;
        };
        let key = name.to_lowercase();
        inner
            .by_token
            .values()
            .any(|e| e.player.guest && e.player.name.to_lowercase() == key)
    }
}

impl Inner {
    /// Registers `player`'s name for session `id`: a guest's is made
    /// unique; an account's is kept (several sessions of one account share
    /// it; the first one online is the one `online` finds).
    fn take_name(&mut self, player: Player, id: &SessionId) -> Player {
        if player.guest {
            let name = self.unique_name(player.name);
            self.names.insert(name.clone(), id.clone());
            Player {
                name,
                guest: true,
                bot: false,
            }
        } else {
            self.names
                .entry(player.name.clone())
                .or_insert_with(|| id.clone());
            player
        }
    }

    /// Moves the session of resume token `old` to a fresh token nobody
    /// knows, without its login token; the connection holding it.
    fn rekey(&mut self, old: &str) -> Option<Outbox> {
        let mut e = self.by_token.remove(old)?;
        e.login = None;
        let holder = e.holder.clone();
        let token = fresh_token();
        self.token_of.insert(e.id.clone(), token.clone());
        self.by_token.insert(token, e);
        holder
    }

    /// Frees `name` if session `id` holds it.
    fn release_name(&mut self, name: &str, id: &SessionId) {
        if self.names.get(name) == Some(id) {
            self.names.remove(name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_protocol::Encoding;

    fn guest(name: &str) -> Player {
        Player {
            name: name.into(),
            guest: true,
            bot: false,
        }
    }

    #[tokio::test]
    async fn a_full_registry_forgets_the_oldest_gone_sessions_first() {
        let sessions = Sessions::new(Duration::from_secs(300), 3);
        let outbox = |conn| crate::outbound::channel(conn, Encoding::Json, 4).0;
        let a = sessions.open_as(None, guest("a"), None, outbox(1));
        let b = sessions.open_as(None, guest("b"), None, outbox(2));
        let c = sessions.open_as(None, guest("c"), None, outbox(3));
        // b's connection ends first, then a's; c stays connected.
        sessions.closed(&b.id, 2);
        sessions.closed(&a.id, 1);
        assert!(sessions.token_known(&b.token));
        // A fourth session makes room by forgetting b, the oldest gone.
        let d = sessions.open_as(None, guest("d"), None, outbox(4));
        assert!(!d.resumed);
        assert!(!sessions.token_known(&b.token), "b is forgotten");
        assert!(sessions.token_known(&a.token), "a is still resumable");
        assert!(sessions.token_known(&c.token), "c is connected");
        let again = sessions.open_as(Some(&b.token), guest("b"), None, outbox(5));
        assert!(!again.resumed, "b's token opens a fresh session");
    }

    /// A session restored from a table's stored seats (the digest of its
    /// token) is resumed by the token; an account's, whose token this
    /// process never saw, gets a new one from `tables_of`, and the old
    /// one still resumes it.
    #[tokio::test]
    async fn a_restored_session_is_found_by_the_digest_of_its_token() {
        let sessions = Sessions::new(Duration::from_secs(300), 10);
        let outbox = |conn| crate::outbound::channel(conn, Encoding::Json, 4).0;
        let table = TableId::from_u64(9);
        let token = "00112233445566778899aabbccddeeff";
        let ann = Player {
            name: "ann".into(),
            guest: false,
            bot: false,
        };
        let id = SessionId::from_u64(5);
        sessions.restore(&token_digest(token), &id, &ann, &table);
        assert!(sessions.token_known(token));
        assert!(
            !sessions.token_known(&token_digest(token)),
            "a digest is no token"
        );
        let listed = sessions.tables_of("ann", 5);
        assert_eq!(listed.len(), 1);
        let new = listed[0].resume_token.clone();
        assert!(new.len() == 32 && new != token);
        assert_eq!(
            sessions.tables_of("ann", 5)[0].resume_token,
            new,
            "given once"
        );
        for t in [new.as_str(), token] {
            let back = sessions.open_as(Some(t), ann.clone(), None, outbox(1));
            assert!(back.resumed, "{t}");
            assert_eq!(
                (back.id.clone(), back.tables.clone()),
                (id.clone(), vec![table.clone()])
            );
        }
        assert_eq!(sessions.token_digest(&id), Some(token_digest(&new)));
    }

    #[tokio::test]
    async fn seated_sessions_are_forgotten_only_after_every_other_gone_one() {
        let sessions = Sessions::new(Duration::from_secs(300), 3);
        let outbox = |conn| crate::outbound::channel(conn, Encoding::Json, 4).0;
        let table = TableId::from_u64(7);
        let seated = sessions.open_as(None, guest("s"), None, outbox(1));
        sessions.seat(&seated.id, &table, true);
        let b = sessions.open_as(None, guest("b"), None, outbox(2));
        let _c = sessions.open_as(None, guest("c"), None, outbox(3));
        // The seated session's connection ends first (days ago, say).
        sessions.closed(&seated.id, 1);
        sessions.closed(&b.id, 2);
        sessions.open_as(None, guest("d"), None, outbox(4));
        assert!(!sessions.token_known(&b.token), "the unseated one goes");
        let back = sessions.open_as(Some(&seated.token), guest("s"), None, outbox(5));
        assert!(back.resumed, "the seated one stays");
        assert_eq!(back.tables, vec![table]);
    }

    /// The grace on paused time, to the second: a session whose connection
    /// ended is resumable for the whole of it and forgotten after; one
    /// seated at an open table outlives it.
    #[tokio::test(start_paused = true)]
    async fn a_gone_session_is_resumable_for_the_grace_and_no_longer() {
        let grace = Duration::from_secs(300);
        let sessions = Sessions::new(grace, 16);
        let outbox = |conn| crate::outbound::channel(conn, Encoding::Json, 4).0;
        let a = sessions.open_as(None, guest("a"), None, outbox(1));
        let b = sessions.open_as(None, guest("b"), None, outbox(2));
        let seated = sessions.open_as(None, guest("s"), None, outbox(3));
        sessions.seat(&seated.id, &TableId::from_u64(9), true);
        for (s, conn) in [(&a, 1), (&b, 2), (&seated, 3)] {
            sessions.closed(&s.id, conn);
        }
        tokio::time::advance(grace - Duration::from_secs(1)).await;
        let back = sessions.open_as(Some(&a.token), guest("a"), None, outbox(4));
        assert!(back.resumed, "a second before the grace ends");
        tokio::time::advance(Duration::from_secs(2)).await;
        assert!(!sessions.token_known(&b.token), "b's grace is over");
        let late = sessions.open_as(Some(&b.token), guest("b"), None, outbox(5));
        assert!(!late.resumed, "a fresh session, not b's");
        assert!(sessions.token_known(&seated.token), "seated: still there");
        let again = sessions.open_as(Some(&seated.token), guest("s"), None, outbox(6));
        assert!(again.resumed);
    }
}
