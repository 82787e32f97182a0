//! The Redis store's index of account names by their confusable skeleton
//! ([`crate::name_skeleton`]): a set per skeleton, `P:{s:SKELETON}:accounts`,
//! of the name keys of the accounts whose names have it. An account is
//! added to its set before it is written (a set may name an account that
//! was never written: readers read the accounts and skip it), and the sets
//! are built at connect for the accounts stored before them (or before
//! [`SKELETON_VERSION`] changed; `P:name_skeletons` holds the version they
//! were built with).

use futures_util::{StreamExt, TryStreamExt, stream};

use super::handle::RedisStore;
use super::keys;
use super::reads::READ_AHEAD;
use super::transfer::Scan;
use crate::{Result, SKELETON_VERSION, name_key, name_skeleton};

impl RedisStore {
    /// The command that indexes the account `name`.
    pub(super) fn index_name(&self, name: &str) -> redis::Cmd {
        let mut add = redis::cmd("SADD");
        add.arg(self.keys.skeleton(&name_skeleton(name)))
            .arg(name_key(name));
        add
    }

    /// Builds the index when it was built with another version (or never):
    /// every account scanned and added (adding is idempotent, so nodes
    /// starting together do no harm).
    pub(super) async fn index_names_if_needed(&self) -> Result<()> {
        let mut get = redis::cmd("GET");
        get.arg(self.keys.skeletons_version());
        let built: Option<u32> = self.query("reading the name index's version", get).await?;
        if built == Some(SKELETON_VERSION) {
            return Ok(());
        }
        let (mut cursor, mut accounts) = (Scan::default(), 0usize);
        while !cursor.done() {
            let found = self.scan(&mut cursor, keys::ACCOUNTS, 500).await?;
            let names: Vec<String> = found
                .iter()
                .filter_map(|k| self.keys.parse(k, keys::ACCOUNTS))
                .map(str::to_owned)
                .collect();
            let indexed: Vec<bool> = stream::iter(names)
                .map(|key| async move {
                    let Some(account) = self.account_impl(&key).await? else {
                        return Ok(false);
                    };
                    let _: i64 = self
                        .query("indexing an account name", self.index_name(&account.name))
                        .await?;
                    Ok::<_, crate::StoreError>(true)
                })
                .buffered(READ_AHEAD)
                .try_collect()
                .await?;
            accounts += indexed.into_iter().filter(|i| *i).count();
        }
        let mut set = redis::cmd("SET");
        set.arg(self.keys.skeletons_version()).arg(SKELETON_VERSION);
        let _: () = self
            .query_write("writing the name index's version", set)
            .await?;
        tracing::info!(accounts, "indexed the account names by their skeleton");
        Ok(())
    }

    /// The registered names of the accounts in the set of `skeleton`
    /// whose names still have it.
    async fn accounts_of(&self, skeleton: &str) -> Result<Vec<String>> {
        let mut members = redis::cmd("SMEMBERS");
        members.arg(self.keys.skeleton(skeleton));
        let keys: Vec<String> = self.query("reading the name index", members).await?;
        let found: Vec<Option<String>> = stream::iter(keys)
            .map(|key| async move {
                let account = self.account_impl(&key).await?;
                Ok::<_, crate::StoreError>(
                    account
                        .map(|a| a.name)
                        .filter(|n| name_skeleton(n) == skeleton),
                )
            })
            .buffered(READ_AHEAD)
            .try_collect()
            .await?;
        let mut names: Vec<String> = found.into_iter().flatten().collect();
        names.sort_unstable();
        Ok(names)
    }

    pub(super) async fn accounts_like_impl(&self, name: &str) -> Result<Vec<String>> {
        self.accounts_of(&name_skeleton(name)).await
    }

    pub(super) async fn lookalike_accounts_impl(&self, limit: usize) -> Result<Vec<Vec<String>>> {
        let mut cursor = Scan::default();
        let mut skeletons = Vec::new();
        while !cursor.done() {
            let found = self.scan(&mut cursor, keys::SKELETONS, 500).await?;
            for key in &found {
                let Some(skeleton) = self.keys.parse(key, keys::SKELETONS) else {
                    continue;
                };
                let mut count = redis::cmd("SCARD");
                count.arg(key);
                let n: u64 = self.query("reading the name index", count).await?;
                if n > 1 {
                    skeletons.push(skeleton.to_owned());
                }
            }
        }
        skeletons.sort_unstable();
        skeletons.dedup();
        let mut groups = Vec::new();
        for skeleton in skeletons {
            if groups.len() >= limit {
                break;
            }
            let names = self.accounts_of(&skeleton).await?;
            if names.len() > 1 {
                groups.push(names);
            }
        }
        Ok(groups)
    }
}
