//! The transposition table: positions already searched, by Zobrist hash
//! (with the side to move folded in), each with its best move, value,
//! depth and bound. One entry per slot, replaced by depth.

/// How a stored value bounds the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The value is at least this (a cut-off).
    Lower,
    /// The value is at most this (every move failed low).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub key: u64,
    pub mv: u16,
    pub value: i16,
    pub depth: i8,
    pub bound: Bound,
}

/// A table of `2^bits` entries.
pub struct Tt {
    slots: Vec<Option<Entry>>,
    mask: usize,
}

impl Tt {
    pub fn new(bits: u32) -> Tt {
        Tt {
            slots: vec![None; 1 << bits],
            mask: (1 << bits) - 1,
        }
    }

    /// Bytes used by a table of `2^bits` entries.
    pub fn bytes(bits: u32) -> usize {
        (1usize << bits) * std::mem::size_of::<Option<Entry>>()
    }

    pub fn get(&self, key: u64) -> Option<Entry> {
        self.slots[key as usize & self.mask].filter(|e| e.key == key)
    }

    pub fn put(&mut self, e: Entry) {
        let slot = &mut self.slots[e.key as usize & self.mask];
        match slot {
            Some(old) if old.key != e.key && old.depth > e.depth + 2 => {}
            _ => *slot = Some(e),
        }
    }

    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
    }
}
