//! `finish_game` on Redis: an idempotent outbox whose every step is one
//! script on ONE hash tag, so it runs on Redis Cluster (why, and what it
//! promises: *Atomicity* in the [module documentation](super)).
//!
//! A finish is staged under the game's tag (`P:{t:ID}:finishing`: the
//! record, the players, the rating updates and a random nonce), then
//! driven through its states by whoever comes across it: the caller, a
//! racing or later `finish_game` of the same game, another finish blocked
//! by it, or the `live_tables` sweep. Every step is idempotent, so any
//! number of drivers, in any interleaving, and a crash between any two
//! steps, lead to the same end:
//!
//! 1. `staged`: each family (in name order) *reserves* the finish's
//!    players, checking their game counts (`FAMILY reserve`). A conflict,
//!    or a player held too long by another finish, aborts the finish:
//!    the stage is deleted (`DECIDE aborted`), the reservations are let
//!    go, and nothing was written. With every family reserved, the finish
//!    is decided (`DECIDE prepared`); from then on it only goes forward.
//! 2. `prepared`: each family appends its players' history points (one
//!    `HISTORY` per player, skipping a point already there) and then
//!    applies its ratings and counts, releasing the players (`FAMILY
//!    apply`, a no-op once done). `COMMIT` writes the game's record and
//!    removes the live table.
//! 3. `committed`: the families forget the nonce, each player's games
//!    index gets the game, the stage is dropped, and the id leaves the
//!    live index.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::handle::RedisStore;
use super::handle::unexpected;
use super::scripts;
use crate::codec::{decode, encode};
use crate::{FinishedGame, Result, StoreError, name_key};

/// How deep a finish helps the finishes in its way (a helper does not
/// help without end).
const MAX_DEPTH: u8 = 2;
/// How often a finish tries a family held by another finish before it
/// gives up (a conflict, for the caller; the other finish's driver will
/// finish it).
const BUSY_TRIES: u32 = 4;
/// How often `finish_game` meets a staged finish of the same game before
/// it gives up.
const STAGE_TRIES: u32 = 4;

/// One rating update as staged, without its encoded values.
#[derive(Serialize, Deserialize)]
struct Head {
    family: String,
    player: String,
    expected_games: u32,
    games: u32,
}

struct Update {
    head: Head,
    /// The encoded rating and history point, as staged (drivers use these
    /// very bytes, so a history point is recognised by them).
    rating: Vec<u8>,
    history: Vec<u8>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Staged,
    Prepared,
    Committed,
}

/// A staged finish.
struct Staged {
    id: String,
    nonce: String,
    state: State,
    players: Vec<String>,
    finished_ms: u64,
    updates: Vec<Update>,
}

impl Staged {
    fn new(game: &FinishedGame) -> Result<Staged> {
        let updates = game
            .ratings
            .iter()
            .map(|u| {
                Ok(Update {
                    head: Head {
                        family: u.rating.family.clone(),
                        player: u.rating.player.clone(),
                        expected_games: u.expected_games,
                        games: u.rating.games,
                    },
                    rating: encode(&u.rating)?,
                    history: encode(&u.history)?,
                })
            })
            .collect::<Result<_>>()?;
        Ok(Staged {
            id: game.id.clone(),
            nonce: format!("{:032x}", rand::random::<u128>()),
            state: State::Staged,
            players: game.players.clone(),
            finished_ms: game.finished_ms,
            updates,
        })
    }

    /// What the families hold for this finish: `NONCE ID`.
    fn tag(&self) -> String {
        format!("{} {}", self.nonce, self.id)
    }

    /// The updates by family, families in name order (every finish takes
    /// them in that order).
    fn families(&self) -> BTreeMap<&str, Vec<&Update>> {
        let mut families: BTreeMap<&str, Vec<&Update>> = BTreeMap::new();
        for u in &self.updates {
            families.entry(&u.head.family).or_default().push(u);
        }
        families
    }
}

/// How a drive ended.
enum Outcome {
    /// The finish is committed.
    Committed,
    /// It was aborted (why): nothing of it is written.
    Aborted(String),
    /// A helper gave up (another finish holds a player): still staged.
    Unfinished,
}

/// What reserving every family came to.
enum Reserved {
    Held,
    Conflict(String),
    Busy,
}

/// One drive: how deep it helps, and (tests) how many steps it may take
/// before it stops as if its process died.
pub(super) struct Run {
    depth: u8,
    budget: Option<u32>,
}

impl Run {
    pub(super) fn new(budget: Option<u32>) -> Run {
        Run { depth: 0, budget }
    }

    /// Counts one round trip; fails once the budget is spent.
    fn tick(&mut self) -> Result<()> {
        match &mut self.budget {
            Some(0) => Err(StoreError::Unavailable(
                "finishing a game: interrupted (test)".into(),
            )),
            Some(n) => {
                *n -= 1;
                Ok(())
            }
            None => Ok(()),
        }
    }
}

type Boxed<'a, T> = Pin<Box<dyn Future<Output = Result<T>> + Send + 'a>>;

impl RedisStore {
    pub(super) async fn finish_game_run(&self, game: &FinishedGame, run: &mut Run) -> Result<()> {
        let id = game.id.as_str();
        let staged = Staged::new(game)?;
        // The index first, so that the sweep finds a finish left by a
        // crash even without a live table (the id leaves at the end).
        run.tick()?;
        let mut add = redis::cmd("SADD");
        add.arg(self.keys.live_index()).arg(id);
        self.exec("indexing a finish", add).await?;
        for _ in 0..STAGE_TRIES {
            let mut stage = scripts::STAGE.prepare_invoke();
            stage
                .key(self.keys.game(id))
                .key(self.keys.finishing(id))
                .arg(&staged.nonce)
                .arg(staged.finished_ms.to_string())
                .arg(encode(&game.players)?)
                .arg(game.record.as_slice())
                .arg(encode(
                    &staged.updates.iter().map(|u| &u.head).collect::<Vec<_>>(),
                )?);
            for u in &staged.updates {
                stage.arg(u.rating.as_slice()).arg(u.history.as_slice());
            }
            run.tick()?;
            let status: String = self.invoke("staging a finish", stage).await?;
            match status.as_str() {
                "ok" => {
                    return match self.drive(&staged, run).await? {
                        Outcome::Committed => Ok(()),
                        Outcome::Aborted(why) => Err(StoreError::Conflict(why)),
                        Outcome::Unfinished => Err(StoreError::Unavailable(format!(
                            "game {id}'s finish is staged but could not be completed yet"
                        ))),
                    };
                }
                "exists" => {
                    // A finished id is never live or finishing again.
                    run.tick()?;
                    let mut rem = redis::cmd("SREM");
                    rem.arg(self.keys.live_index()).arg(id);
                    self.exec("unindexing a finished game", rem).await?;
                    return Err(StoreError::Exists(format!("game {id} is finished")));
                }
                // Another finish of this game (a racer, or one left by a
                // crash): take it forward first, then try again.
                "staged" => {
                    run.tick()?;
                    if let Some(other) = self.read_stage(id).await? {
                        run.depth += 1;
                        let driven = self.drive(&other, run).await;
                        run.depth -= 1;
                        driven?;
                    }
                }
                other => return Err(unexpected("staging a finish", other)),
            }
        }
        Err(StoreError::Unavailable(format!(
            "game {id} has a staged finish that could not be completed yet"
        )))
    }

    /// The finish staged for game `id`, if any.
    async fn read_stage(&self, id: &str) -> Result<Option<Staged>> {
        let mut all = redis::cmd("HGETALL");
        all.arg(self.keys.finishing(id));
        let mut fields: HashMap<String, Vec<u8>> =
            self.query("reading a staged finish", all).await?;
        if fields.is_empty() {
            return Ok(None);
        }
        let bad = |what: &str| StoreError::Corrupt(format!("game {id}'s staged finish: {what}"));
        let mut take = |field: &str| fields.remove(field).ok_or_else(|| bad(field));
        let text = |bytes: Vec<u8>, what: &str| String::from_utf8(bytes).map_err(|_| bad(what));
        let nonce = text(take("nonce")?, "nonce")?;
        let state = match text(take("state")?, "state")?.as_str() {
            "staged" => State::Staged,
            "prepared" => State::Prepared,
            "committed" => State::Committed,
            _ => return Err(bad("state")),
        };
        let finished_ms = text(take("finished_ms")?, "finished_ms")?
            .parse()
            .map_err(|_| bad("finished_ms"))?;
        let players = decode(&take("players")?, "a staged game's players")?;
        let heads: Vec<Head> = decode(&take("heads")?, "a staged game's updates")?;
        let mut updates = Vec::with_capacity(heads.len());
        for (i, head) in heads.into_iter().enumerate() {
            updates.push(Update {
                head,
                rating: take(&format!("r:{i}"))?,
                history: take(&format!("h:{i}"))?,
            });
        }
        Ok(Some(Staged {
            id: id.to_owned(),
            nonce,
            state,
            players,
            finished_ms,
            updates,
        }))
    }

    /// Takes a staged finish as far as it can go (see the module
    /// documentation).
    fn drive<'a>(&'a self, s: &'a Staged, run: &'a mut Run) -> Boxed<'a, Outcome> {
        Box::pin(async move {
            let mut state = s.state;
            if state == State::Staged {
                let (wanted, why) = match self.reserve_all(s, run).await? {
                    Reserved::Held => ("prepared", String::new()),
                    Reserved::Conflict(why) => ("aborted", why),
                    Reserved::Busy => return Ok(Outcome::Unfinished),
                };
                run.tick()?;
                let mut decide = scripts::DECIDE.prepare_invoke();
                decide
                    .key(self.keys.finishing(&s.id))
                    .arg(&s.nonce)
                    .arg(wanted);
                let status: String = self.invoke("deciding a finish", decide).await?;
                match status.as_str() {
                    "prepared" => state = State::Prepared,
                    "committed" => state = State::Committed,
                    "aborted" => {
                        self.release_all(s, run).await?;
                        return Ok(Outcome::Aborted(why));
                    }
                    "gone" => {
                        self.release_all(s, run).await?;
                        return self.gone(s, run).await;
                    }
                    other => return Err(unexpected("deciding a finish", other)),
                }
            }
            if state == State::Prepared {
                for (family, updates) in s.families() {
                    // The history points first, while the family holds the
                    // players: nobody else appends to these lists now, and
                    // once the family applied, a late driver finds the
                    // point there.
                    for u in &updates {
                        run.tick()?;
                        let mut history = scripts::HISTORY.prepare_invoke();
                        history
                            .key(self.keys.history(&u.head.player, family))
                            .arg(u.history.as_slice());
                        let _: String = self.invoke("appending a history point", history).await?;
                    }
                    run.tick()?;
                    let status = self.family(s, "apply", family, &updates).await?;
                    if !matches!(status.as_str(), "ok" | "done" | "lost") {
                        return Err(unexpected("applying ratings", &status));
                    }
                }
                run.tick()?;
                let mut commit = scripts::COMMIT.prepare_invoke();
                commit
                    .key(self.keys.finishing(&s.id))
                    .key(self.keys.game(&s.id))
                    .key(self.keys.meta(&s.id))
                    .key(self.keys.log(&s.id))
                    .arg(&s.nonce);
                let status: String = self.invoke("committing a finish", commit).await?;
                match status.as_str() {
                    "committed" => {}
                    "gone" => return self.gone(s, run).await,
                    other => return Err(unexpected("committing a finish", other)),
                }
            }
            for (family, _) in s.families() {
                run.tick()?;
                self.family(s, "forget", family, &[]).await?;
            }
            for player in &s.players {
                run.tick()?;
                let mut add = redis::cmd("ZADD");
                add.arg(self.keys.player_games(player))
                    .arg(s.finished_ms)
                    .arg(&s.id);
                self.exec("indexing a finished game", add).await?;
            }
            run.tick()?;
            let mut drop = scripts::DROP.prepare_invoke();
            drop.key(self.keys.finishing(&s.id)).arg(&s.nonce);
            let _: String = self.invoke("dropping a staged finish", drop).await?;
            run.tick()?;
            let mut rem = redis::cmd("SREM");
            rem.arg(self.keys.live_index()).arg(&s.id);
            self.exec("unindexing a finished table", rem).await?;
            Ok(Outcome::Committed)
        })
    }

    /// Reserves every family of the finish, in name order.
    async fn reserve_all(&self, s: &Staged, run: &mut Run) -> Result<Reserved> {
        for (family, updates) in s.families() {
            let mut tries = 0;
            loop {
                run.tick()?;
                let status = self.family(s, "reserve", family, &updates).await?;
                if matches!(status.as_str(), "ok" | "done") {
                    break;
                }
                if let Some((i, stored)) = status
                    .strip_prefix("conflict:")
                    .and_then(|r| r.split_once(':'))
                {
                    let u = i
                        .parse::<usize>()
                        .ok()
                        .and_then(|i| updates.get(i))
                        .ok_or_else(|| unexpected("reserving ratings", &status))?;
                    return Ok(Reserved::Conflict(format!(
                        "{}'s {family} rating has {stored} games, not {}",
                        u.head.player, u.head.expected_games
                    )));
                }
                let Some(held) = status.strip_prefix("busy:") else {
                    return Err(unexpected("reserving ratings", &status));
                };
                tries += 1;
                if tries < BUSY_TRIES && run.depth < MAX_DEPTH {
                    self.help(held, family, &updates, run).await?;
                    tokio::time::sleep(Duration::from_millis(5 * u64::from(tries))).await;
                    continue;
                }
                if run.depth > 0 {
                    return Ok(Reserved::Busy);
                }
                let other = held.split_once(' ').map_or(held, |(_, id)| id);
                return Ok(Reserved::Conflict(format!(
                    "a {family} rating of game {}'s players is being updated by game {other}",
                    s.id
                )));
            }
        }
        Ok(Reserved::Held)
    }

    /// Helps the finish `held` (`NONCE ID`) that holds some of `updates`'
    /// players in `family`: drives it, or, if it is no longer staged
    /// (committed or gone), lets go of what it still holds.
    fn help<'a>(
        &'a self,
        held: &'a str,
        family: &'a str,
        updates: &'a [&'a Update],
        run: &'a mut Run,
    ) -> Boxed<'a, ()> {
        Box::pin(async move {
            let Some((nonce, id)) = held.split_once(' ') else {
                return Err(StoreError::Corrupt(format!(
                    "{family}'s ratings are held by {held:?}"
                )));
            };
            run.tick()?;
            match self.read_stage(id).await? {
                Some(other) if other.nonce == nonce && other.state != State::Committed => {
                    run.depth += 1;
                    let driven = self.drive(&other, run).await;
                    run.depth -= 1;
                    driven.map(|_| ())
                }
                _ => {
                    run.tick()?;
                    let mut release = self.family_invocation("release", nonce, held, family);
                    for u in updates {
                        release
                            .arg(name_key(&u.head.player))
                            .arg("")
                            .arg("")
                            .arg("");
                    }
                    let _: String = self.invoke("releasing ratings", release).await?;
                    Ok(())
                }
            }
        })
    }

    /// Lets go of every family's reservations for this finish.
    async fn release_all(&self, s: &Staged, run: &mut Run) -> Result<()> {
        for (family, updates) in s.families() {
            run.tick()?;
            self.family(s, "release", family, &updates).await?;
        }
        Ok(())
    }

    /// The stage vanished under a driver: committed by another driver
    /// (the game holds this nonce), or aborted by one.
    async fn gone(&self, s: &Staged, run: &mut Run) -> Result<Outcome> {
        run.tick()?;
        let mut get = redis::cmd("HGET");
        get.arg(self.keys.game(&s.id)).arg("nonce");
        let nonce: Option<String> = self.query("checking a finish", get).await?;
        Ok(if nonce.as_deref() == Some(s.nonce.as_str()) {
            Outcome::Committed
        } else {
            Outcome::Aborted(format!(
                "another driver of game {}'s finish met a conflict; nothing was written",
                s.id
            ))
        })
    }

    fn family_invocation(
        &self,
        mode: &str,
        nonce: &str,
        tag: &str,
        family: &str,
    ) -> redis::ScriptInvocation<'static> {
        let mut call = scripts::FAMILY.prepare_invoke();
        call.key(self.keys.ratings(family))
            .key(self.keys.rating_games(family))
            .key(self.keys.pending(family))
            .key(self.keys.applied(family))
            .arg(mode)
            .arg(nonce)
            .arg(tag);
        call
    }

    /// One `FAMILY` call for this finish's updates in `family`.
    async fn family(
        &self,
        s: &Staged,
        mode: &str,
        family: &str,
        updates: &[&Update],
    ) -> Result<String> {
        let mut call = self.family_invocation(mode, &s.nonce, &s.tag(), family);
        for u in updates {
            call.arg(name_key(&u.head.player))
                .arg(u.head.expected_games.to_string())
                .arg(u.head.games.to_string())
                .arg(u.rating.as_slice());
        }
        self.invoke("updating ratings", call).await
    }

    /// Takes the finish staged for `id`, if any, as far as it goes (the
    /// sweep of `live_tables`). True if none is staged any more.
    pub(super) async fn roll_forward(&self, id: &str) -> Result<bool> {
        let mut run = Run::new(None);
        run.depth = 1;
        match self.read_stage(id).await? {
            None => Ok(true),
            Some(s) => Ok(!matches!(
                self.drive(&s, &mut run).await?,
                Outcome::Unfinished
            )),
        }
    }
}
