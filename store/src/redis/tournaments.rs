//! The Redis store's tournaments: one hash, `PREFIX:{t}:tournaments`,
//! field tournament id, value the server's opaque state bytes. Why one
//! hash: a state is replaced whole (`HSET`, atomic) and all are read at
//! start (`HGETALL`); the number of events a server keeps is small.

use super::handle::RedisStore;
use crate::Result;

impl RedisStore {
    pub(super) async fn put_tournament_impl(&self, id: &str, state: &[u8]) -> Result<()> {
        let mut set = redis::cmd("HSET");
        set.arg(self.keys.tournaments()).arg(id).arg(state);
        let _: i64 = self.query_write("storing a tournament", set).await?;
        Ok(())
    }

    pub(super) async fn tournament_impl(&self, id: &str) -> Result<Option<Vec<u8>>> {
        let mut get = redis::cmd("HGET");
        get.arg(self.keys.tournaments()).arg(id);
        self.query("reading a tournament", get).await
    }

    pub(super) async fn tournaments_impl(&self) -> Result<Vec<(String, Vec<u8>)>> {
        let mut all = redis::cmd("HGETALL");
        all.arg(self.keys.tournaments());
        let mut rows: Vec<(String, Vec<u8>)> = self.query("listing tournaments", all).await?;
        rows.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(rows)
    }
}
