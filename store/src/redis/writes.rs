//! The Redis store's writes.

use redis::ScriptInvocation;

use super::{RedisStore, scripts};
use crate::codec::encode;
use crate::{Account, AuthToken, FinishedGame, Result, StoreError, name_key};

impl RedisStore {
    /// Runs a script invocation within the timeout; its status answer.
    pub(super) async fn invoke<T: redis::FromRedisValue>(
        &self,
        what: &str,
        invocation: ScriptInvocation<'static>,
    ) -> Result<T> {
        let mut conn = self.conn.clone();
        self.call(
            what,
            async move { invocation.invoke_async(&mut conn).await },
        )
        .await
    }

    /// Runs one command whose answer does not matter.
    pub(super) async fn exec(&self, what: &str, cmd: redis::Cmd) -> Result<()> {
        let _: redis::Value = self.query(what, cmd).await?;
        Ok(())
    }

    pub(super) async fn create_table_impl(&self, id: &str, meta: &[u8]) -> Result<()> {
        // The index first: a crash after it leaves a candidate that is not
        // live (readers check), never a live table missing from it.
        let mut add = redis::cmd("SADD");
        add.arg(self.keys.live_index()).arg(id);
        self.exec("indexing a live table", add).await?;
        let mut create = scripts::CREATE.prepare_invoke();
        create
            .key(self.keys.meta(id))
            .key(self.keys.log(id))
            .key(self.keys.game(id))
            .arg(meta);
        let status: String = self.invoke("creating a table", create).await?;
        match status.as_str() {
            "ok" => Ok(()),
            "live" => Err(StoreError::Exists(format!("table {id} is live"))),
            "finished" => {
                // A finished id is never live again: drop the candidate.
                let mut rem = redis::cmd("SREM");
                rem.arg(self.keys.live_index()).arg(id);
                self.exec("unindexing a finished table", rem).await?;
                Err(StoreError::Exists(format!("game {id} is finished")))
            }
            other => Err(unexpected("creating a table", other)),
        }
    }

    pub(super) async fn append_impl(&self, id: &str, at: u64, entries: &[Vec<u8>]) -> Result<()> {
        let mut append = scripts::APPEND.prepare_invoke();
        append
            .key(self.keys.meta(id))
            .key(self.keys.log(id))
            .arg(at.to_string());
        for entry in entries {
            append.arg(entry.as_slice());
        }
        let status: String = self.invoke("appending to a log", append).await?;
        match status.as_str() {
            "ok" => Ok(()),
            "missing" => Err(StoreError::NotFound(format!("no live table {id}"))),
            other => match other.strip_prefix("len:") {
                Some(len) => Err(StoreError::Conflict(format!(
                    "table {id}'s log has {len} entries, not {at}"
                ))),
                None => Err(unexpected("appending to a log", other)),
            },
        }
    }

    pub(super) async fn discard_table_impl(&self, id: &str) -> Result<()> {
        let mut del = redis::cmd("DEL");
        del.arg(self.keys.meta(id)).arg(self.keys.log(id));
        self.exec("discarding a table", del).await?;
        let mut rem = redis::cmd("SREM");
        rem.arg(self.keys.live_index()).arg(id);
        self.exec("unindexing a discarded table", rem).await
    }

    pub(super) async fn finish_game_impl(&self, game: &FinishedGame) -> Result<()> {
        let id = game.id.as_str();
        let players = encode(&game.players)?;
        let mut finish = scripts::FINISH.prepare_invoke();
        finish
            .key(self.keys.game(id))
            .key(self.keys.meta(id))
            .key(self.keys.log(id))
            .key(self.keys.live_index());
        finish
            .arg(id)
            .arg(game.finished_ms.to_string())
            .arg(players)
            .arg(game.record.as_slice())
            .arg(game.ratings.len().to_string());
        for update in &game.ratings {
            let rating = &update.rating;
            finish
                .key(self.keys.ratings(&rating.family))
                .key(self.keys.rating_games(&rating.family))
                .key(self.keys.history(&rating.player, &rating.family));
            finish
                .arg(name_key(&rating.player))
                .arg(update.expected_games.to_string())
                .arg(rating.games.to_string())
                .arg(encode(rating)?)
                .arg(encode(&update.history)?);
        }
        for player in &game.players {
            finish.key(self.keys.player_games(player));
        }
        let status: String = self.invoke("finishing a game", finish).await?;
        match status.as_str() {
            "ok" => Ok(()),
            "exists" => Err(StoreError::Exists(format!("game {id} is finished"))),
            other => match other
                .strip_prefix("conflict:")
                .and_then(|r| r.split_once(':'))
            {
                Some((i, stored)) => {
                    let update = i
                        .parse::<usize>()
                        .ok()
                        .and_then(|i| game.ratings.get(i))
                        .ok_or_else(|| unexpected("finishing a game", other))?;
                    Err(StoreError::Conflict(format!(
                        "{}'s {} rating has {stored} games, not {}",
                        update.rating.player, update.rating.family, update.expected_games
                    )))
                }
                None => Err(unexpected("finishing a game", other)),
            },
        }
    }

    pub(super) async fn create_account_impl(&self, account: &Account) -> Result<()> {
        let mut set = redis::cmd("SET");
        set.arg(self.keys.account(&account.name))
            .arg(encode(account)?)
            .arg("NX");
        let done: Option<String> = self.query("registering an account", set).await?;
        match done {
            Some(_) => Ok(()),
            None => Err(StoreError::Exists(format!(
                "the name {} is taken",
                account.name
            ))),
        }
    }

    pub(super) async fn put_token_impl(&self, token: &AuthToken) -> Result<()> {
        let mut set = redis::cmd("SET");
        set.arg(self.keys.token(&token.token)).arg(encode(token)?);
        self.exec("storing a token", set).await
    }

    pub(super) async fn revoke_token_impl(&self, token: &str) -> Result<()> {
        let mut del = redis::cmd("DEL");
        del.arg(self.keys.token(token));
        self.exec("revoking a token", del).await
    }
}

/// A script answered something it never answers.
fn unexpected(what: &str, answer: &str) -> StoreError {
    StoreError::Corrupt(format!("{what}: the script answered {answer:?}"))
}
