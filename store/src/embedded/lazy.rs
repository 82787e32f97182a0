//! A table of a write transaction, opened when first used.
//!
//! Why: most of the writer's transactions are a group of appends, which
//! touch three of the store's thirteen tables. Opening a table costs a
//! lookup in redb's table of tables, and the commit looks each opened one
//! up again; opening all of them for every group took about an eighth of
//! the writer thread's time under load (`perf` at 2,000 games).

use redb::{Key, Table, TableDefinition, Value, WriteTransaction};

use super::schema::Failure;

/// One table of `txn`, opened on the first [`Lazy::open`].
pub(super) struct Lazy<'txn, K: Key + 'static, V: Value + 'static> {
    txn: &'txn WriteTransaction,
    definition: TableDefinition<'static, K, V>,
    table: Option<Table<'txn, K, V>>,
}

impl<'txn, K: Key + 'static, V: Value + 'static> Lazy<'txn, K, V> {
    pub(super) fn new(
        txn: &'txn WriteTransaction,
        definition: TableDefinition<'static, K, V>,
    ) -> Self {
        Lazy {
            txn,
            definition,
            table: None,
        }
    }

    /// The table, opened now if it was not yet. A failure to open it is
    /// redb's (the transaction cannot be trusted).
    pub(super) fn open(&mut self) -> Result<&mut Table<'txn, K, V>, Failure> {
        if self.table.is_none() {
            let table = self
                .txn
                .open_table(self.definition)
                .map_err(Failure::fatal)?;
            self.table = Some(table);
        }
        Ok(self.table.as_mut().expect("opened above"))
    }
}
