//! Two plain families for what the server gathers from finished games
//! (the opening explorer's index, puzzles, exercises), opaque to the
//! store like everything else:
//!
//! - **tallies**: per space, keys (bytes) holding integer counters by
//!   field (a `u32`), added to element-wise, and short lists of items
//!   (bytes, newest first, each list capped at its writer's `keep`); a
//!   batch of additions is applied at most once per token
//!   ([`crate::Store::tally`]), so a writer may retry after a lost answer;
//! - **documents**: per space, values (bytes) under string keys, each
//!   with a version that every write raises by one and may be made
//!   conditional on ([`crate::Store::put_docs`]), and scored indexes
//!   (member → an integer score) read by score range
//!   ([`crate::Store::scored`]).
//!
//! Space names are lower-case letters; they keep the families of
//! different users apart.

use serde::{Deserialize, Serialize};

/// A tally key's counters: `(field, values)` in field order.
pub type Fields = Vec<(u32, Vec<i64>)>;

/// Adds `values` to the counters of `field` at `key`, element by element
/// (a counter not there yet counts from 0, and a shorter stored list is
/// lengthened).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountAdd {
    #[serde(with = "serde_bytes")]
    pub key: Vec<u8>,
    pub field: u32,
    pub values: Vec<i64>,
}

/// Puts `item` first on the list at `key`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListPush {
    #[serde(with = "serde_bytes")]
    pub key: Vec<u8>,
    #[serde(with = "serde_bytes")]
    pub item: Vec<u8>,
}

/// A batch of tally changes, applied together and at most once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Names the batch: a batch whose token was applied before in the
    /// same space is not applied again.
    pub token: String,
    pub counts: Vec<CountAdd>,
    pub pushes: Vec<ListPush>,
    /// How many items each list pushed to keeps (the newest).
    pub keep: u32,
}

/// A document write: `value` under `key`, if the stored version is
/// `expect` (0: no document there).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocPut {
    pub key: String,
    pub expect: u64,
    #[serde(with = "serde_bytes")]
    pub value: Vec<u8>,
}

/// Sets `member`'s score in the scored index `index` (replacing its
/// score there), or with `None` takes it out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScorePut {
    pub index: String,
    pub member: String,
    pub score: Option<i64>,
}

/// A stored document and its version (1 after the first write).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Doc {
    pub version: u64,
    #[serde(with = "serde_bytes")]
    pub value: Vec<u8>,
}

/// One piece of the two families, as [`crate::Store::export_study`] gives
/// it and [`crate::Store::import_study`] puts it back, replacing what the
/// destination holds under the same key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StudyItem {
    /// A key's counters, every field.
    Counts {
        space: String,
        #[serde(with = "serde_bytes")]
        key: Vec<u8>,
        fields: Vec<(u32, Vec<i64>)>,
    },
    /// A key's list, newest first.
    List {
        space: String,
        #[serde(with = "serde_bytes")]
        key: Vec<u8>,
        #[serde(with = "crate::codec::byte_lists")]
        items: Vec<Vec<u8>>,
    },
    /// A tally token applied.
    Applied { space: String, token: String },
    /// A document with its version.
    Doc {
        space: String,
        key: String,
        version: u64,
        #[serde(with = "serde_bytes")]
        value: Vec<u8>,
    },
    /// A member of a scored index.
    Score {
        space: String,
        index: String,
        member: String,
        score: i64,
    },
}

/// Whether `space` is a space name (1 to 32 lower-case letters).
pub fn valid_space(space: &str) -> bool {
    !space.is_empty() && space.len() <= 32 && space.bytes().all(|b| b.is_ascii_lowercase())
}

/// Adds `values` to `stored`, element by element.
pub(crate) fn add_into(stored: &mut Vec<i64>, values: &[i64]) {
    if stored.len() < values.len() {
        stored.resize(values.len(), 0);
    }
    for (s, v) in stored.iter_mut().zip(values) {
        *s = s.saturating_add(*v);
    }
}
