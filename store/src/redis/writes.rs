//! The Redis store's writes.

use redis::ScriptInvocation;

use super::finish::Run;
use super::handle::{RedisStore, unexpected};
use super::scripts;
use crate::codec::{decode, encode};
use crate::{Account, AuthToken, FinishedGame, Result, StoreError, token_digest};

impl RedisStore {
    /// Runs a script that writes, within the timeout and acknowledged
    /// by the replicas waited for ([`RedisStore::write`]); its answer.
    pub(super) async fn invoke<T: redis::FromRedisValue>(
        &self,
        what: &str,
        invocation: ScriptInvocation<'static>,
    ) -> Result<T> {
        if self.wait.is_none() {
            return self.read_script(what, invocation).await;
        }
        let mut pipe = redis::pipe();
        pipe.invoke_script(&invocation);
        let answer = self.write(what, pipe, Some(&invocation)).await?.pop();
        super::handle::from_value(what, answer)
    }

    /// Runs a script that only reads, within the timeout; its answer.
    pub(super) async fn read_script<T: redis::FromRedisValue>(
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

    /// Runs one command that writes and whose answer does not matter
    /// (acknowledged by the replicas waited for).
    pub(super) async fn exec(&self, what: &str, cmd: redis::Cmd) -> Result<()> {
        let _: redis::Value = self.query_write(what, cmd).await?;
        Ok(())
    }

    pub(super) async fn create_table_impl(&self, id: &str, meta: &[u8]) -> Result<()> {
        // The index first: a crash after it leaves a candidate that is not
        // live (readers check, and drop it once it stayed stale), never a
        // live table missing from it. And again after the create, in case
        // a reader dropped the candidate in between (see *Key layout*).
        let mut add = redis::cmd("SADD");
        add.arg(self.keys.live_index()).arg(id);
        self.exec("indexing a live table", add.clone()).await?;
        let mut create = scripts::CREATE.prepare_invoke();
        create
            .key(self.keys.meta(id))
            .key(self.keys.log(id))
            .key(self.keys.game(id))
            .key(self.keys.finishing(id))
            .key(self.keys.lease(id))
            .arg(meta);
        let status: String = self.invoke("creating a table", create).await?;
        match status.as_str() {
            // A leased table is in its holder's set since the lease was
            // taken (`lease_index`); one without is looked at.
            "leased" => self.exec("indexing a live table", add).await,
            "ok" => {
                self.exec("indexing a live table", add).await?;
                self.index_created(id).await
            }
            "live" => Err(StoreError::Exists(format!("table {id} is live"))),
            "finishing" => Err(StoreError::Exists(format!("game {id} is being finished"))),
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
        self.finish_game_run(game, &mut Run::new(None)).await
    }

    pub(super) async fn create_account_impl(&self, account: &Account) -> Result<()> {
        // Indexed first: a crash between the two leaves an index entry
        // without its account (which readers skip), never an account
        // missing from the index.
        let _: i64 = self
            .query("indexing an account name", self.index_name(&account.name))
            .await?;
        let mut set = redis::cmd("SET");
        set.arg(self.keys.account(&account.name))
            .arg(encode(account)?)
            .arg("NX");
        let done: Option<String> = self.query_write("registering an account", set).await?;
        match done {
            Some(_) => Ok(()),
            None => Err(StoreError::Exists(format!(
                "the name {} is taken",
                account.name
            ))),
        }
    }

    /// See [`crate::Store::make_bot`]: the game index read first, then the
    /// account swapped only if it is still what was read.
    pub(super) async fn make_bot_impl(&self, name: &str) -> Result<()> {
        let mut get = redis::cmd("GET");
        get.arg(self.keys.account(name));
        let Some(stored): Option<Vec<u8>> = self.query("reading an account", get).await? else {
            return Err(StoreError::NotFound(format!("no account {name}")));
        };
        let mut account: Account = decode(&stored, "an account")?;
        if account.bot {
            return Ok(());
        }
        let mut count = redis::cmd("ZCARD");
        count.arg(self.keys.player_games(name));
        let played: u64 = self.query("counting a player's games", count).await?;
        if played > 0 {
            return Err(StoreError::Conflict(format!("{name} has played a game")));
        }
        account.bot = true;
        let mut swap = scripts::SWAP.prepare_invoke();
        swap.key(self.keys.account(name))
            .arg(stored)
            .arg(encode(&account)?);
        let status: String = self.invoke("making an account a bot", swap).await?;
        match status.as_str() {
            "ok" => Ok(()),
            _ => Err(StoreError::Conflict(format!(
                "the account {name} changed meanwhile"
            ))),
        }
    }

    /// See [`crate::Store::set_bot_filters`]: the account read, changed
    /// and swapped only if it is still what was read (tried again a few
    /// times when another write came between).
    pub(super) async fn set_bot_filters_impl(&self, name: &str, filters: &str) -> Result<()> {
        for _ in 0..5 {
            let mut get = redis::cmd("GET");
            get.arg(self.keys.account(name));
            let Some(stored): Option<Vec<u8>> = self.query("reading an account", get).await? else {
                return Err(StoreError::NotFound(format!("no account {name}")));
            };
            let mut account: Account = decode(&stored, "an account")?;
            if !account.bot {
                return Err(StoreError::Conflict(format!("{name} is not a bot")));
            }
            account.bot_filters = Some(filters.to_owned());
            let mut swap = scripts::SWAP.prepare_invoke();
            swap.key(self.keys.account(name))
                .arg(stored)
                .arg(encode(&account)?);
            let status: String = self.invoke("storing a bot's filters", swap).await?;
            if status == "ok" {
                return Ok(());
            }
        }
        Err(StoreError::Conflict(format!(
            "the account {name} kept changing meanwhile"
        )))
    }

    pub(super) async fn put_token_impl(&self, token: &AuthToken) -> Result<()> {
        let stored = AuthToken {
            token: token_digest(&token.token),
            ..token.clone()
        };
        let mut set = redis::cmd("SET");
        set.arg(self.keys.token(&stored.token))
            .arg(encode(&stored)?);
        self.exec("storing a token", set).await
    }

    pub(super) async fn revoke_token_impl(&self, token: &str) -> Result<()> {
        let mut del = redis::cmd("DEL");
        del.arg(self.keys.token(&token_digest(token)));
        self.exec("revoking a token", del).await
    }
}
