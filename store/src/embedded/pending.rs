//! Appends answered from the journal alone, kept here until redb gets them.
//!
//! Why: a move's append is the store's most frequent write by far, and a
//! group of nothing but appends needs no redb transaction to be durable:
//! its journal record, synced, is what makes it durable (a crash replays
//! it). Committing each such group to redb as well (a write transaction,
//! its B-tree copies, its commit bookkeeping) cost the writer thread about
//! as much again as the journal's write and sync, for every group, under a
//! load of small groups. So such a group is checked here, journalled,
//! answered, and its entries wait in memory; they go to redb, in the order
//! they were answered, in the next write transaction the writer makes for
//! any other reason (a group with another kind of write, a read of live
//! logs, which asks for one first), when [`FLUSH_ENTRIES`] are waiting, or
//! at the next checkpoint. Every write transaction applies them before
//! anything else, so redb sees the writes in exactly the journal's order.
//!
//! The checks are redb's own (`Tables::append`): the table is live and its
//! log has `at` entries. A table's length is read from redb (one read
//! transaction for the group) the first time it is needed and is counted
//! here from then on, until a transaction with other writes (which may
//! change any table) makes the counts stale and they are forgotten.

use std::collections::HashMap;

use redb::{Database, ReadOnlyTable, ReadTransaction, ReadableDatabase};

use super::schema::{Failure, LIVE, fatal};
use super::tables::Tables;
use crate::StoreError;

/// Waiting entries at which the writer gives them to redb (in a write
/// transaction of their own, without durability) once it has answered the
/// group that brought them there: a few hundred moves' worth, so that each
/// such transaction is short and its cost is shared by many groups.
pub(super) const FLUSH_ENTRIES: usize = 1024;

/// The appends answered but not yet in redb, by table.
#[derive(Default)]
pub(super) struct Pending {
    tables: HashMap<String, Log>,
    entries: usize,
}

/// One table's length as redb has it and the entries answered after it.
struct Log {
    stored: u64,
    entries: Vec<Vec<u8>>,
}

/// How to take back what one group added, if its journal record fails:
/// each table (named by the group's own request) and its waiting entries
/// before.
#[derive(Default)]
pub(super) struct Undo<'a>(Vec<(&'a str, usize)>);

/// A read transaction opened at most once per group, on first need.
pub(super) struct Snapshot<'db> {
    db: &'db Database,
    live: Option<ReadOnlyTable<&'static str, (u64, u64)>>,
    /// Kept open while `live` is read (never read itself).
    _txn: Option<ReadTransaction>,
}

impl<'db> Snapshot<'db> {
    pub(super) fn new(db: &'db Database) -> Self {
        Snapshot {
            db,
            live: None,
            _txn: None,
        }
    }

    /// Table `id`'s log length in redb, or `None` if it is not live.
    fn stored_len(&mut self, id: &str) -> Result<Option<u64>, Failure> {
        if self.live.is_none() {
            let txn = self.db.begin_read().map_err(fatal)?;
            self.live = Some(txn.open_table(LIVE).map_err(fatal)?);
            self._txn = Some(txn);
        }
        let live = self.live.as_ref().expect("opened above");
        Ok(live.get(id).map_err(fatal)?.map(|row| row.value().1))
    }
}

impl Pending {
    /// Whether no entry waits.
    pub(super) fn is_empty(&self) -> bool {
        self.entries == 0
    }

    /// Whether enough entries wait for the writer to give them to redb.
    pub(super) fn full(&self) -> bool {
        self.entries >= FLUSH_ENTRIES
    }

    /// Checks one append as redb would (the table is live, its log has
    /// `at` entries) and, if it passes, keeps its entries, noting in `undo`
    /// how to take them back.
    pub(super) fn append<'a>(
        &mut self,
        snapshot: &mut Snapshot<'_>,
        id: &'a str,
        at: u64,
        entries: &[Vec<u8>],
        undo: &mut Undo<'a>,
    ) -> Result<(), Failure> {
        if !self.tables.contains_key(id) {
            let Some(stored) = snapshot.stored_len(id)? else {
                return Err(Failure::Refused(StoreError::NotFound(format!(
                    "no live table {id}"
                ))));
            };
            self.tables.insert(
                id.to_owned(),
                Log {
                    stored,
                    entries: Vec::new(),
                },
            );
        }
        let log = self.tables.get_mut(id).expect("inserted above");
        let len = log.stored + log.entries.len() as u64;
        if len != at {
            return Err(Failure::Refused(StoreError::Conflict(format!(
                "table {id}'s log has {len} entries, not {at}"
            ))));
        }
        undo.0.push((id, log.entries.len()));
        log.entries.extend_from_slice(entries);
        self.entries += entries.len();
        Ok(())
    }

    /// Takes back a group's appends (its journal record failed).
    pub(super) fn undo(&mut self, undo: Undo<'_>) {
        for (id, len) in undo.0.into_iter().rev() {
            if let Some(log) = self.tables.get_mut(id) {
                self.entries -= log.entries.len() - len;
                log.entries.truncate(len);
            }
        }
    }

    /// Applies every waiting entry in `tables` (a write transaction); they
    /// count as given only once that transaction commits
    /// ([`Pending::given`] or [`Pending::forget`]).
    pub(super) fn apply(&self, tables: &mut Tables<'_>) -> Result<(), StoreError> {
        for (id, log) in &self.tables {
            if log.entries.is_empty() {
                continue;
            }
            match tables.append(id, log.stored, &log.entries) {
                Ok(()) => {}
                // Checked against this very state when it was answered.
                Err(Failure::Refused(e)) => {
                    return Err(StoreError::Corrupt(format!(
                        "an answered append could not be applied to the database: {e}"
                    )));
                }
                Err(Failure::Fatal(e)) => return Err(e),
            }
        }
        Ok(())
    }

    /// Every waiting entry, taken out for a checkpoint on its own thread
    /// (`checkpointer`) as if given to redb already: the lengths here count
    /// them, so that later appends are checked against them meanwhile. If
    /// that checkpoint fails, [`Pending::restore`] puts them back.
    pub(super) fn take(&mut self) -> Pending {
        let mut taken = Pending::default();
        for (id, log) in &mut self.tables {
            if log.entries.is_empty() {
                continue;
            }
            let entries = std::mem::take(&mut log.entries);
            let stored = log.stored;
            log.stored += entries.len() as u64;
            taken.entries += entries.len();
            taken.tables.insert(id.clone(), Log { stored, entries });
        }
        self.entries = 0;
        taken
    }

    /// Puts back entries [`Pending::take`] took (their checkpoint failed),
    /// before the ones that came meanwhile. No transaction commits while a
    /// checkpoint runs, so every table they came from is still counted here.
    pub(super) fn restore(&mut self, taken: Pending) {
        for (id, mut back) in taken.tables {
            let log = self.tables.entry(id).or_insert_with(|| Log {
                stored: back.stored + back.entries.len() as u64,
                entries: Vec::new(),
            });
            log.stored = back.stored;
            self.entries += back.entries.len();
            back.entries.append(&mut log.entries);
            log.entries = back.entries;
        }
    }

    /// How many entries wait.
    pub(super) fn len(&self) -> usize {
        self.entries
    }

    /// The transaction that applied the entries, and nothing else,
    /// committed: the lengths stay known.
    pub(super) fn given(&mut self) {
        for log in self.tables.values_mut() {
            log.stored += log.entries.len() as u64;
            log.entries.clear();
        }
        self.entries = 0;
    }

    /// The transaction that applied the entries and other writes
    /// committed: the lengths may have changed and are read again.
    pub(super) fn forget(&mut self) {
        self.tables.clear();
        self.entries = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(stored: u64, entries: &[&str]) -> Log {
        Log {
            stored,
            entries: entries.iter().map(|e| e.as_bytes().to_vec()).collect(),
        }
    }

    fn shown(pending: &Pending) -> Vec<(String, u64, Vec<String>)> {
        let mut shown: Vec<_> = pending
            .tables
            .iter()
            .map(|(id, log)| {
                let entries = log.entries.iter();
                let entries = entries.map(|e| String::from_utf8(e.clone()).unwrap());
                (id.clone(), log.stored, entries.collect())
            })
            .collect();
        shown.sort();
        shown
    }

    /// Taken entries count as stored while their checkpoint runs; put
    /// back, they go before the entries that came meanwhile.
    #[test]
    fn taken_entries_count_and_come_back_first() {
        let mut pending = Pending::default();
        pending.tables.insert("a".into(), log(2, &["a2", "a3"]));
        pending.tables.insert("b".into(), log(5, &[]));
        pending.entries = 2;

        let taken = pending.take();
        assert!(pending.is_empty());
        assert_eq!(taken.len(), 2);
        assert_eq!(
            shown(&taken),
            [("a".into(), 2, vec!["a2".into(), "a3".into()])]
        );
        assert_eq!(shown(&pending)[0], ("a".into(), 4, vec![]));

        pending
            .tables
            .get_mut("a")
            .unwrap()
            .entries
            .push(b"a4".to_vec());
        pending.entries += 1;
        pending.restore(taken);
        assert_eq!(pending.len(), 3);
        assert_eq!(
            shown(&pending),
            [
                ("a".into(), 2, vec!["a2".into(), "a3".into(), "a4".into()]),
                ("b".into(), 5, vec![]),
            ]
        );
    }
}
