//! The Redis store's moderation data. A standing sits in its account's
//! hash tag (`P:{a:NAME}:standing`) and is written by compare-and-swap on
//! the bytes read (so the version check and the write are one step); the
//! audit log is one list (`P:audit`, appended with `RPUSH`, never
//! rewritten), reports and address bans one hash each (`P:reports`,
//! `P:addrbans`). Every command touches one key.

use super::handle::RedisStore;
use super::scripts;
use crate::codec::{decode, encode};
use crate::{AddressBan, AuditEntry, Report, Result, Standing, StoreError};

impl RedisStore {
    pub(super) async fn standing_impl(&self, name: &str) -> Result<Option<Standing>> {
        let mut get = redis::cmd("GET");
        get.arg(self.keys.standing(name));
        let stored: Option<Vec<u8>> = self.query("reading a standing", get).await?;
        stored.map(|b| decode(&b, "a standing")).transpose()
    }

    pub(super) async fn put_standing_impl(&self, new: &Standing) -> Result<()> {
        let key = self.keys.standing(&new.name);
        let mut get = redis::cmd("GET");
        get.arg(&key);
        let stored: Option<Vec<u8>> = self.query("reading a standing", get).await?;
        let version = match &stored {
            Some(b) => decode::<Standing>(b, "a standing")?.version,
            None => 0,
        };
        let conflict = || {
            StoreError::Conflict(format!(
                "{}'s standing changed meanwhile (version {version}, not {})",
                new.name, new.version
            ))
        };
        if version != new.version {
            return Err(conflict());
        }
        let mut next = new.clone();
        next.version += 1;
        let bytes = encode(&next)?;
        let written = match stored {
            Some(old) => {
                let mut swap = scripts::SWAP.prepare_invoke();
                swap.key(&key).arg(old).arg(bytes);
                let status: String = self.invoke("writing a standing", swap).await?;
                status == "ok"
            }
            None => {
                let mut set = redis::cmd("SET");
                set.arg(&key).arg(bytes).arg("NX");
                let done: Option<String> = self.query_write("writing a standing", set).await?;
                done.is_some()
            }
        };
        if written { Ok(()) } else { Err(conflict()) }
    }

    pub(super) async fn append_audit_impl(&self, entry: &AuditEntry) -> Result<()> {
        let mut push = redis::cmd("RPUSH");
        push.arg(self.keys.audit()).arg(encode(entry)?);
        self.exec("appending to the audit log", push).await
    }

    pub(super) async fn audit_log_impl(&self, limit: usize) -> Result<Vec<AuditEntry>> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let mut range = redis::cmd("LRANGE");
        range
            .arg(self.keys.audit())
            .arg(-(limit.min(i64::MAX as usize) as i64))
            .arg(-1);
        let rows: Vec<Vec<u8>> = self.query("reading the audit log", range).await?;
        rows.iter()
            .rev()
            .map(|b| decode(b, "an audit entry"))
            .collect()
    }

    pub(super) async fn put_report_impl(&self, report: &Report) -> Result<()> {
        let mut set = redis::cmd("HSET");
        set.arg(self.keys.reports())
            .arg(&report.id)
            .arg(encode(report)?);
        self.exec("storing a report", set).await
    }

    pub(super) async fn reports_impl(&self) -> Result<Vec<Report>> {
        self.hash_values(self.keys.reports(), "a report").await
    }

    pub(super) async fn put_address_ban_impl(&self, ban: &AddressBan) -> Result<()> {
        let mut set = redis::cmd("HSET");
        set.arg(self.keys.address_bans())
            .arg(&ban.range)
            .arg(encode(ban)?);
        self.exec("banning an address range", set).await
    }

    pub(super) async fn remove_address_ban_impl(&self, range: &str) -> Result<()> {
        let mut del = redis::cmd("HDEL");
        del.arg(self.keys.address_bans()).arg(range);
        self.exec("lifting an address ban", del).await
    }

    pub(super) async fn address_bans_impl(&self) -> Result<Vec<AddressBan>> {
        self.hash_values(self.keys.address_bans(), "an address ban")
            .await
    }

    async fn hash_values<T: serde::de::DeserializeOwned>(
        &self,
        key: String,
        what: &str,
    ) -> Result<Vec<T>> {
        let mut vals = redis::cmd("HVALS");
        vals.arg(key);
        let rows: Vec<Vec<u8>> = self.query("reading moderation data", vals).await?;
        rows.iter().map(|b| decode(b, what)).collect()
    }
}
