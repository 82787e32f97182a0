//! The embedded store's moderation data: one redb table of prefixed keys
//! (`s/` standings, `a/` the audit log, `r/` reports, `n/` address bans),
//! so that a store written before moderation existed needs no new
//! schema version (the table appears with the first write; reads of a
//! store without it find nothing).

use redb::{Database, ReadableDatabase, ReadableTable};
use serde::de::DeserializeOwned;

use super::ops::ModWrite as Write;
use super::schema::{Applied, Failure, MODERATION, db_error, decode, encode};
use super::tables::Tables;
use crate::{AddressBan, AuditEntry, Report, Result, Standing, StoreError, name_key};

const AUDIT_SEQ: &str = "audit_seq";

fn standing_key(name: &str) -> String {
    format!("s/{}", name_key(name))
}

impl Tables<'_> {
    pub(super) fn moderate(&mut self, write: &Write) -> Applied {
        match write {
            Write::Standing(new) => {
                let key = standing_key(&new.name);
                let stored = match self
                    .moderation
                    .open()?
                    .get(key.as_str())
                    .map_err(Failure::fatal)?
                {
                    Some(v) => {
                        decode::<Standing>(v.value(), "a standing")
                            .map_err(Failure::Refused)?
                            .version
                    }
                    None => 0,
                };
                if stored != new.version {
                    return Err(Failure::Refused(StoreError::Conflict(format!(
                        "{}'s standing is at version {stored}, not {}",
                        new.name, new.version
                    ))));
                }
                let mut next = new.clone();
                next.version += 1;
                self.put(&key, &next)
            }
            Write::Audit(entry) => {
                let seq = self
                    .counters
                    .get(AUDIT_SEQ)
                    .map_err(Failure::fatal)?
                    .map_or(0, |v| v.value());
                self.counters
                    .insert(AUDIT_SEQ, seq + 1)
                    .map_err(Failure::fatal)?;
                self.put(&format!("a/{seq:020}"), entry)
            }
            Write::Report(report) => self.put(&format!("r/{}", report.id), report),
            Write::AddressBan(ban) => self.put(&format!("n/{}", ban.range), ban),
            Write::LiftAddressBan(range) => {
                self.moderation
                    .open()?
                    .remove(format!("n/{range}").as_str())
                    .map_err(Failure::fatal)?;
                Ok(())
            }
        }
    }

    fn put(&mut self, key: &str, value: &impl serde::Serialize) -> Applied {
        let bytes = encode(value).map_err(Failure::Refused)?;
        self.moderation
            .open()?
            .insert(key, bytes.as_slice())
            .map_err(Failure::fatal)?;
        Ok(())
    }
}

/// The values under `prefix`, in key order (newest last), at most `limit`
/// from the end when given.
fn under<T: DeserializeOwned>(
    db: &Database,
    prefix: &str,
    what: &str,
    limit: Option<usize>,
) -> Result<Vec<T>> {
    let txn = db.begin_read().map_err(db_error)?;
    let table = match txn.open_table(MODERATION) {
        Ok(t) => t,
        Err(redb::TableError::TableDoesNotExist(_)) => return Ok(Vec::new()),
        Err(e) => return Err(db_error(e)),
    };
    let end = format!("{}{}", &prefix[..prefix.len() - 1], '0');
    let range = table
        .range::<&str>(prefix..end.as_str())
        .map_err(db_error)?;
    let mut out = Vec::new();
    match limit {
        Some(limit) => {
            for row in range.rev().take(limit) {
                out.push(decode(row.map_err(db_error)?.1.value(), what)?);
            }
        }
        None => {
            for row in range {
                out.push(decode(row.map_err(db_error)?.1.value(), what)?);
            }
        }
    }
    Ok(out)
}

pub(super) fn standing(db: &Database, name: &str) -> Result<Option<Standing>> {
    let txn = db.begin_read().map_err(db_error)?;
    let table = match txn.open_table(MODERATION) {
        Ok(t) => t,
        Err(redb::TableError::TableDoesNotExist(_)) => return Ok(None),
        Err(e) => return Err(db_error(e)),
    };
    match table.get(standing_key(name).as_str()).map_err(db_error)? {
        Some(v) => Ok(Some(decode(v.value(), "a standing")?)),
        None => Ok(None),
    }
}

/// The latest `limit` audit entries, newest first.
pub(super) fn audit_log(db: &Database, limit: usize) -> Result<Vec<AuditEntry>> {
    under(db, "a/", "an audit entry", Some(limit))
}

pub(super) fn reports(db: &Database) -> Result<Vec<Report>> {
    under(db, "r/", "a report", None)
}

pub(super) fn address_bans(db: &Database) -> Result<Vec<AddressBan>> {
    under(db, "n/", "an address ban", None)
}
