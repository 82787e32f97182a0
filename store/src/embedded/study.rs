//! The embedded store's tallies and documents (`crate::study`): six
//! redb tables, created by their first write (a store written before they
//! existed has none, and reads of it find nothing).
//!
//! | table | key | value |
//! |---|---|---|
//! | `study_counts` | (space, key, field) | the counters (encoded list of integers) |
//! | `study_lists` | (space, key, seq) | an item; `seq` counts down, so a key's newest item comes first |
//! | `study_applied` | (space, token) | nothing: the tally was applied |
//! | `study_docs` | (space, key) | (version, value) |
//! | `study_scores` | (space, index, score, member) | nothing: read by score range |
//! | `study_score_of` | (space, index, member) | its score, to move it |
//! | `study_meta` | `"list_seq"` | the next list sequence number |
//!
//! Writes go through the writer thread like every other ([`StudyWrite`]
//! in the journal); each checks its preconditions (token, versions)
//! before it writes, so a refused one writes nothing.

use std::collections::HashSet;
use std::ops::Bound;

use redb::{
    Database, ReadTransaction, ReadableDatabase, ReadableTable, TableDefinition, TableError,
    WriteTransaction,
};
use serde::{Deserialize, Serialize};

use super::lazy::Lazy;
use super::schema::{Applied, Failure, db_error};
use crate::StudyPage;
use crate::study::{DocPut, ScorePut, StudyItem, Tally, add_into, valid_space};
use crate::{Doc, ExportCursor, Result, StoreError};

pub(super) const COUNTS: TableDefinition<(&str, &[u8], u32), &[u8]> =
    TableDefinition::new("study_counts");
pub(super) const LISTS: TableDefinition<(&str, &[u8], u64), &[u8]> =
    TableDefinition::new("study_lists");
pub(super) const APPLIED: TableDefinition<(&str, &str), ()> = TableDefinition::new("study_applied");
pub(super) const DOCS: TableDefinition<(&str, &str), (u64, &[u8])> =
    TableDefinition::new("study_docs");
pub(super) const SCORES: TableDefinition<(&str, &str, i64, &str), ()> =
    TableDefinition::new("study_scores");
pub(super) const SCORE_OF: TableDefinition<(&str, &str, &str), i64> =
    TableDefinition::new("study_score_of");
pub(super) const META: TableDefinition<&str, u64> = TableDefinition::new("study_meta");
const LIST_SEQ: &str = "list_seq";

/// A write of this family, as the writer thread applies it (and the
/// journal keeps it).
#[derive(Serialize, Deserialize)]
pub(super) enum StudyWrite {
    Tally {
        space: String,
        tally: Tally,
    },
    PutDocs {
        space: String,
        docs: Vec<DocPut>,
        scores: Vec<ScorePut>,
    },
    Import(Vec<StudyItem>),
}

/// This family's tables in one write transaction, each opened when first
/// used.
pub(super) struct StudyTables<'txn> {
    counts: Lazy<'txn, (&'static str, &'static [u8], u32), &'static [u8]>,
    lists: Lazy<'txn, (&'static str, &'static [u8], u64), &'static [u8]>,
    applied: Lazy<'txn, (&'static str, &'static str), ()>,
    docs: Lazy<'txn, (&'static str, &'static str), (u64, &'static [u8])>,
    scores: Lazy<'txn, (&'static str, &'static str, i64, &'static str), ()>,
    score_of: Lazy<'txn, (&'static str, &'static str, &'static str), i64>,
    meta: Lazy<'txn, &'static str, u64>,
}

fn refused(e: StoreError) -> Failure {
    Failure::Refused(e)
}

fn encode_values(v: &[i64]) -> Vec<u8> {
    rmp_serde::to_vec(v).expect("integers always encode")
}

fn decode_values(bytes: &[u8]) -> Result<Vec<i64>> {
    rmp_serde::from_slice(bytes)
        .map_err(|e| StoreError::Corrupt(format!("a tally's counters do not decode: {e}")))
}

fn check_space(space: &str) -> std::result::Result<(), Failure> {
    if valid_space(space) {
        Ok(())
    } else {
        Err(refused(StoreError::Invalid(format!(
            "'{space}' is not a space name (lower-case letters)"
        ))))
    }
}

impl<'txn> StudyTables<'txn> {
    pub(super) fn new(txn: &'txn WriteTransaction) -> Self {
        StudyTables {
            counts: Lazy::new(txn, COUNTS),
            lists: Lazy::new(txn, LISTS),
            applied: Lazy::new(txn, APPLIED),
            docs: Lazy::new(txn, DOCS),
            scores: Lazy::new(txn, SCORES),
            score_of: Lazy::new(txn, SCORE_OF),
            meta: Lazy::new(txn, META),
        }
    }

    pub(super) fn apply(&mut self, write: &StudyWrite) -> Applied {
        match write {
            StudyWrite::Tally { space, tally } => self.tally(space, tally),
            StudyWrite::PutDocs {
                space,
                docs,
                scores,
            } => self.put_docs(space, docs, scores),
            StudyWrite::Import(items) => {
                for item in items {
                    self.import(item)?;
                }
                Ok(())
            }
        }
    }

    fn tally(&mut self, space: &str, tally: &Tally) -> Applied {
        check_space(space)?;
        let applied = self.applied.open()?;
        if applied
            .get((space, tally.token.as_str()))
            .map_err(Failure::fatal)?
            .is_some()
        {
            return Err(refused(StoreError::Exists(format!(
                "tally {} was applied",
                tally.token
            ))));
        }
        applied
            .insert((space, tally.token.as_str()), ())
            .map_err(Failure::fatal)?;
        for add in &tally.counts {
            self.add(space, &add.key, add.field, &add.values)?;
        }
        let mut pushed = HashSet::new();
        for push in &tally.pushes {
            self.push(space, &push.key, &push.item)?;
            pushed.insert(push.key.as_slice());
        }
        for key in pushed {
            self.trim(space, key, tally.keep)?;
        }
        Ok(())
    }

    fn add(&mut self, space: &str, key: &[u8], field: u32, values: &[i64]) -> Applied {
        let counts = self.counts.open()?;
        let mut stored = match counts.get((space, key, field)).map_err(Failure::fatal)? {
            Some(v) => decode_values(v.value()).map_err(refused)?,
            None => Vec::new(),
        };
        add_into(&mut stored, values);
        counts
            .insert((space, key, field), encode_values(&stored).as_slice())
            .map_err(Failure::fatal)?;
        Ok(())
    }

    fn next_seq(&mut self) -> std::result::Result<u64, Failure> {
        let meta = self.meta.open()?;
        let seq = meta
            .get(LIST_SEQ)
            .map_err(Failure::fatal)?
            .map_or(0, |v| v.value());
        meta.insert(LIST_SEQ, seq + 1).map_err(Failure::fatal)?;
        Ok(u64::MAX - seq)
    }

    fn push(&mut self, space: &str, key: &[u8], item: &[u8]) -> Applied {
        let seq = self.next_seq()?;
        self.lists
            .open()?
            .insert((space, key, seq), item)
            .map_err(Failure::fatal)?;
        Ok(())
    }

    /// Keeps the newest `keep` items of a list.
    fn trim(&mut self, space: &str, key: &[u8], keep: u32) -> Applied {
        let lists = self.lists.open()?;
        let old: Vec<u64> = lists
            .range((space, key, 0)..=(space, key, u64::MAX))
            .map_err(Failure::fatal)?
            .skip(keep as usize)
            .map(|row| row.map(|(k, _)| k.value().2))
            .collect::<std::result::Result<_, _>>()
            .map_err(Failure::fatal)?;
        for seq in old {
            lists.remove((space, key, seq)).map_err(Failure::fatal)?;
        }
        Ok(())
    }

    fn put_docs(&mut self, space: &str, docs: &[DocPut], scores: &[ScorePut]) -> Applied {
        check_space(space)?;
        let mut keys = HashSet::new();
        let table = self.docs.open()?;
        let mut versions = Vec::with_capacity(docs.len());
        for d in docs {
            if !keys.insert(d.key.as_str()) {
                return Err(refused(StoreError::Invalid(format!(
                    "document {} is written twice in one batch",
                    d.key
                ))));
            }
            let stored = table
                .get((space, d.key.as_str()))
                .map_err(Failure::fatal)?
                .map_or(0, |v| v.value().0);
            if stored != d.expect {
                return Err(refused(StoreError::Conflict(format!(
                    "document {} is at version {stored}, not {}",
                    d.key, d.expect
                ))));
            }
            versions.push(stored + 1);
        }
        for (d, version) in docs.iter().zip(versions) {
            table
                .insert((space, d.key.as_str()), (version, d.value.as_slice()))
                .map_err(Failure::fatal)?;
        }
        for s in scores {
            self.set_score(space, &s.index, &s.member, s.score)?;
        }
        Ok(())
    }

    fn set_score(&mut self, space: &str, index: &str, member: &str, score: Option<i64>) -> Applied {
        let of = self.score_of.open()?;
        let old = of
            .get((space, index, member))
            .map_err(Failure::fatal)?
            .map(|v| v.value());
        match score {
            Some(s) => of.insert((space, index, member), s),
            None => of.remove((space, index, member)),
        }
        .map_err(Failure::fatal)?;
        let scores = self.scores.open()?;
        if let Some(old) = old {
            scores
                .remove((space, index, old, member))
                .map_err(Failure::fatal)?;
        }
        if let Some(s) = score {
            scores
                .insert((space, index, s, member), ())
                .map_err(Failure::fatal)?;
        }
        Ok(())
    }

    fn import(&mut self, item: &StudyItem) -> Applied {
        match item {
            StudyItem::Counts { space, key, fields } => {
                check_space(space)?;
                let counts = self.counts.open()?;
                let old: Vec<u32> = counts
                    .range(
                        (space.as_str(), key.as_slice(), 0)
                            ..=(space.as_str(), key.as_slice(), u32::MAX),
                    )
                    .map_err(Failure::fatal)?
                    .map(|row| row.map(|(k, _)| k.value().2))
                    .collect::<std::result::Result<_, _>>()
                    .map_err(Failure::fatal)?;
                for f in old {
                    counts
                        .remove((space.as_str(), key.as_slice(), f))
                        .map_err(Failure::fatal)?;
                }
                for (f, values) in fields {
                    counts
                        .insert(
                            (space.as_str(), key.as_slice(), *f),
                            encode_values(values).as_slice(),
                        )
                        .map_err(Failure::fatal)?;
                }
                Ok(())
            }
            StudyItem::List { space, key, items } => {
                check_space(space)?;
                self.trim(space, key, 0)?;
                // Oldest first, so that the newest gets the lowest number.
                for item in items.iter().rev() {
                    self.push(space, key, item)?;
                }
                Ok(())
            }
            StudyItem::Applied { space, token } => {
                check_space(space)?;
                self.applied
                    .open()?
                    .insert((space.as_str(), token.as_str()), ())
                    .map_err(Failure::fatal)?;
                Ok(())
            }
            StudyItem::Doc {
                space,
                key,
                version,
                value,
            } => {
                check_space(space)?;
                self.docs
                    .open()?
                    .insert((space.as_str(), key.as_str()), (*version, value.as_slice()))
                    .map_err(Failure::fatal)?;
                Ok(())
            }
            StudyItem::Score {
                space,
                index,
                member,
                score,
            } => {
                check_space(space)?;
                self.set_score(space, index, member, Some(*score))
            }
        }
    }
}

/// A table of a read transaction, `None` when it was never written.
fn open<K: redb::Key + 'static, V: redb::Value + 'static>(
    txn: &ReadTransaction,
    def: TableDefinition<'static, K, V>,
) -> Result<Option<redb::ReadOnlyTable<K, V>>> {
    match txn.open_table(def) {
        Ok(t) => Ok(Some(t)),
        Err(TableError::TableDoesNotExist(_)) => Ok(None),
        Err(e) => Err(db_error(e)),
    }
}

pub(super) fn tallies(
    db: &Database,
    space: &str,
    keys: &[Vec<u8>],
) -> Result<Vec<crate::study::Fields>> {
    let txn = db.begin_read().map_err(db_error)?;
    let Some(counts) = open(&txn, COUNTS)? else {
        return Ok(vec![Vec::new(); keys.len()]);
    };
    keys.iter()
        .map(|key| {
            let k = key.as_slice();
            counts
                .range((space, k, 0)..=(space, k, u32::MAX))
                .map_err(db_error)?
                .map(|row| {
                    let (k, v) = row.map_err(db_error)?;
                    Ok((k.value().2, decode_values(v.value())?))
                })
                .collect()
        })
        .collect()
}

pub(super) fn lists(db: &Database, space: &str, keys: &[Vec<u8>]) -> Result<Vec<Vec<Vec<u8>>>> {
    let txn = db.begin_read().map_err(db_error)?;
    let Some(lists) = open(&txn, LISTS)? else {
        return Ok(vec![Vec::new(); keys.len()]);
    };
    keys.iter()
        .map(|key| {
            let k = key.as_slice();
            lists
                .range((space, k, 0)..=(space, k, u64::MAX))
                .map_err(db_error)?
                .map(|row| Ok(row.map_err(db_error)?.1.value().to_vec()))
                .collect()
        })
        .collect()
}

pub(super) fn docs(db: &Database, space: &str, keys: &[String]) -> Result<Vec<Option<Doc>>> {
    let txn = db.begin_read().map_err(db_error)?;
    let Some(docs) = open(&txn, DOCS)? else {
        return Ok(vec![None; keys.len()]);
    };
    keys.iter()
        .map(|key| {
            Ok(docs.get((space, key.as_str())).map_err(db_error)?.map(|v| {
                let (version, value) = v.value();
                Doc {
                    version,
                    value: value.to_vec(),
                }
            }))
        })
        .collect()
}

pub(super) fn scored(
    db: &Database,
    space: &str,
    index: &str,
    min: i64,
    max: i64,
    limit: usize,
) -> Result<Vec<(String, i64)>> {
    let txn = db.begin_read().map_err(db_error)?;
    let Some(scores) = open(&txn, SCORES)? else {
        return Ok(Vec::new());
    };
    if min > max {
        return Ok(Vec::new());
    }
    // Up to the first key past `max`: the next score, or the next index.
    let next_index = format!("{index}\0");
    let end = match max.checked_add(1) {
        Some(next) => (space, index, next, ""),
        None => (space, next_index.as_str(), i64::MIN, ""),
    };
    scores
        .range::<(&str, &str, i64, &str)>((
            Bound::Included((space, index, min, "")),
            Bound::Excluded(end),
        ))
        .map_err(db_error)?
        .take(limit)
        .map(|row| {
            let (k, _) = row.map_err(db_error)?;
            let (_, _, score, member) = k.value();
            Ok((member.to_owned(), score))
        })
        .collect()
}

/// Where an export of this family stands: the section, and the last key
/// it gave (encoded).
#[derive(Serialize, Deserialize)]
struct Cursor {
    section: u8,
    #[serde(with = "serde_bytes")]
    after: Vec<u8>,
}

const SECTIONS: u8 = 5;

pub(super) fn export(
    db: &Database,
    from: Option<&ExportCursor>,
    limit: usize,
) -> Result<StudyPage> {
    let limit = limit.max(1);
    let mut cursor: Cursor = match from {
        Some(c) => crate::codec::uncursor(c)?,
        None => Cursor {
            section: 0,
            after: Vec::new(),
        },
    };
    let txn = db.begin_read().map_err(db_error)?;
    let mut items = Vec::new();
    while cursor.section < SECTIONS && items.len() < limit {
        let want = limit - items.len();
        let (got, last) = match cursor.section {
            0 => export_counts(&txn, &cursor.after, want)?,
            1 => export_lists(&txn, &cursor.after, want)?,
            2 => export_applied(&txn, &cursor.after, want)?,
            3 => export_docs(&txn, &cursor.after, want)?,
            _ => export_scores(&txn, &cursor.after, want)?,
        };
        let full = got.len() >= want;
        items.extend(got);
        match last {
            Some(after) if full => cursor.after = after,
            _ => {
                cursor.section += 1;
                cursor.after = Vec::new();
            }
        }
    }
    let next = if cursor.section < SECTIONS {
        Some(crate::codec::cursor(&cursor)?)
    } else {
        None
    };
    Ok(StudyPage { items, next })
}

type Section = (Vec<StudyItem>, Option<Vec<u8>>);

fn last_of<T: Serialize>(t: &T) -> Vec<u8> {
    rmp_serde::to_vec(t).expect("a key always encodes")
}

fn after_of<T: for<'de> Deserialize<'de>>(after: &[u8]) -> Result<Option<T>> {
    if after.is_empty() {
        return Ok(None);
    }
    rmp_serde::from_slice(after)
        .map(Some)
        .map_err(|_| StoreError::Invalid("not an export cursor of this store".into()))
}

/// One section of the export: the rows of `def` after the cursor `after`
/// (a key of type `A`, which `start` turns into the bound to read after),
/// as at most `want` items. `row` turns a row into a new item and the
/// cursor that resumes after it, or returns `None` when it added the row
/// to the item before it instead.
fn export_rows<K, V, A, I>(
    txn: &ReadTransaction,
    def: TableDefinition<'static, K, V>,
    after: &[u8],
    want: usize,
    start: impl for<'a> FnOnce(&'a A) -> K::SelfType<'a>,
    mut row: impl for<'a> FnMut(
        Option<&mut I>,
        K::SelfType<'a>,
        V::SelfType<'a>,
    ) -> Result<Option<(I, Vec<u8>)>>,
) -> Result<(Vec<I>, Option<Vec<u8>>)>
where
    K: redb::Key + 'static,
    V: redb::Value + 'static,
    A: for<'de> Deserialize<'de>,
{
    let Some(table) = open(txn, def)? else {
        return Ok((Vec::new(), None));
    };
    let after: Option<A> = after_of(after)?;
    let start = match &after {
        Some(a) => Bound::Excluded(start(a)),
        None => Bound::Unbounded,
    };
    let mut items = Vec::new();
    let mut last = None;
    for r in table
        .range::<K::SelfType<'_>>((start, Bound::Unbounded))
        .map_err(db_error)?
    {
        let (k, v) = r.map_err(db_error)?;
        if let Some((item, key)) = row(items.last_mut(), k.value(), v.value())? {
            if items.len() == want {
                break;
            }
            items.push(item);
            last = Some(key);
        }
    }
    Ok((items, last))
}

/// Whole keys of a table keyed (space, key, n): each key's rows as one
/// item, which `item` makes of the key and what `value` takes of each of
/// its rows. `max` is the greatest n (the cursor resumes after a key's
/// row with it).
fn export_keys<N, V, T>(
    txn: &ReadTransaction,
    def: TableDefinition<'static, (&'static str, &'static [u8], N), V>,
    after: &[u8],
    want: usize,
    max: N,
    mut value: impl for<'a> FnMut(N, V::SelfType<'a>) -> Result<T>,
    item: fn(String, Vec<u8>, Vec<T>) -> StudyItem,
) -> Result<Section>
where
    N: redb::Key + for<'a> redb::Value<SelfType<'a> = N> + 'static,
    V: redb::Value + 'static,
{
    let (keys, last) = export_rows(
        txn,
        def,
        after,
        want,
        |(s, k): &(String, Vec<u8>)| (s.as_str(), k.as_slice(), max),
        |prev: Option<&mut (String, Vec<u8>, Vec<T>)>, (space, key, n), v| {
            let value = value(n, v)?;
            Ok(match prev {
                Some((s, kk, values)) if s == space && kk == key => {
                    values.push(value);
                    None
                }
                _ => Some((
                    (space.to_owned(), key.to_vec(), vec![value]),
                    last_of(&(space, serde_bytes::Bytes::new(key))),
                )),
            })
        },
    )?;
    let items = keys.into_iter().map(|(s, k, v)| item(s, k, v)).collect();
    Ok((items, last))
}

fn export_counts(txn: &ReadTransaction, after: &[u8], want: usize) -> Result<Section> {
    export_keys(
        txn,
        COUNTS,
        after,
        want,
        u32::MAX,
        |field, v| Ok((field, decode_values(v)?)),
        |space, key, fields| StudyItem::Counts { space, key, fields },
    )
}

fn export_lists(txn: &ReadTransaction, after: &[u8], want: usize) -> Result<Section> {
    export_keys(
        txn,
        LISTS,
        after,
        want,
        u64::MAX,
        |_, v| Ok(v.to_vec()),
        |space, key, items| StudyItem::List { space, key, items },
    )
}

fn export_applied(txn: &ReadTransaction, after: &[u8], want: usize) -> Result<Section> {
    export_rows(
        txn,
        APPLIED,
        after,
        want,
        |(s, t): &(String, String)| (s.as_str(), t.as_str()),
        |_, (space, token), ()| {
            let item = StudyItem::Applied {
                space: space.to_owned(),
                token: token.to_owned(),
            };
            Ok(Some((item, last_of(&(space, token)))))
        },
    )
}

fn export_docs(txn: &ReadTransaction, after: &[u8], want: usize) -> Result<Section> {
    export_rows(
        txn,
        DOCS,
        after,
        want,
        |(s, k): &(String, String)| (s.as_str(), k.as_str()),
        |_, (space, key), (version, value)| {
            let item = StudyItem::Doc {
                space: space.to_owned(),
                key: key.to_owned(),
                version,
                value: value.to_vec(),
            };
            Ok(Some((item, last_of(&(space, key)))))
        },
    )
}

fn export_scores(txn: &ReadTransaction, after: &[u8], want: usize) -> Result<Section> {
    export_rows(
        txn,
        SCORE_OF,
        after,
        want,
        |(s, i, m): &(String, String, String)| (s.as_str(), i.as_str(), m.as_str()),
        |_, (space, index, member), score| {
            let item = StudyItem::Score {
                space: space.to_owned(),
                index: index.to_owned(),
                member: member.to_owned(),
                score,
            };
            Ok(Some((item, last_of(&(space, index, member)))))
        },
    )
}
