//! Reading the journal at open: the records that follow the database's
//! last checkpoint, and whether anything after them was lost.
//!
//! Every record carries a commit number, one more than the record before
//! it across both files and every checkpoint, and each checkpoint stores
//! the number of the last record it covers. So the records to replay are
//! a chain: number S+1 at the start of one file, then each next number
//! right after the one before (at the start of the other file after a
//! handover), until the place where the next number is not. What lies
//! there decides:
//! - nothing that was ever that record (zeros, an older record): the end;
//! - its header, with the rest cut short (the file ends, or the trailer is
//!   not its own): a write the crash interrupted, which was never
//!   acknowledged (a record is synced before its group is answered). It is
//!   dropped, and said;
//! - the record whole but failing its checksum, or a header damaged past
//!   its checksum: damage;
//! - and whatever lies there, any record anywhere with a higher number
//!   than the chain reached is damage too: those records were written after
//!   the one that is missing, so they, and it, were acknowledged.
//!
//! Damage is reported with the file, the offset and what follows it; the
//! caller refuses to start on it (or, for a salvage, keeps the chain).

use std::fmt;
use std::path::Path;

use super::record::{self, Body, Expected, Header, Kind};

/// One journal file's name and bytes.
pub(super) struct File<'a> {
    pub path: &'a Path,
    pub bytes: &'a [u8],
}

/// A record of the chain.
pub(super) struct Found<'a> {
    pub kind: Kind,
    pub payload: &'a [u8],
}

/// A record whose write was cut short (dropped).
#[derive(Debug)]
pub(crate) struct Cut {
    pub(crate) file: String,
    pub(crate) offset: u64,
    pub(crate) seq: u64,
    /// The record's size as its header gives it.
    pub(crate) size: u64,
}

/// Where the chain breaks although acknowledged records follow.
#[derive(Debug)]
pub(crate) struct Damage {
    pub(crate) file: String,
    pub(crate) offset: u64,
    /// The commit number that should be there.
    pub(crate) seq: u64,
    pub(crate) why: String,
    /// The records with higher numbers: how many, the first one's place
    /// and number, and the highest number.
    pub(crate) follows: Option<(usize, String, u64, u64, u64)>,
}

impl Damage {
    /// How many commits a salvage that keeps the chain loses: this one and
    /// every one after it that was seen.
    pub(crate) fn lost(&self) -> u64 {
        let last = self.follows.as_ref().map_or(self.seq, |f| f.4);
        last - self.seq + 1
    }
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is damaged at offset {} (commit #{}: {})",
            self.file, self.offset, self.seq, self.why
        )?;
        if let Some((count, file, offset, first, last)) = &self.follows {
            write!(
                f,
                "; {count} intact commits follow it (#{first}..#{last}, the first at offset {offset} of {file})"
            )?;
        }
        Ok(())
    }
}

/// What the two files hold after the checkpoint (tag, number) `stored`.
pub(super) struct Judged<'a> {
    /// The chain, in order (groups and handovers).
    pub chain: Vec<Found<'a>>,
    pub cut: Option<Cut>,
    /// Where the chain breaks, if records follow the break.
    pub damage: Option<Damage>,
    /// The highest commit number of any record header in either file.
    pub highest: u64,
}

/// Reads the chain that follows the checkpoint `tag`, whose last record
/// was number `seq`.
pub(super) fn judge<'a>(files: [File<'a>; 2], tag: u64, seq: u64) -> Judged<'a> {
    let headers: Vec<(usize, u64, Header)> = (0..2)
        .flat_map(|f| headers(files[f].bytes).map(move |(at, h)| (f, at, h)))
        .collect();
    let highest = headers.iter().map(|(_, _, h)| h.seq).max().unwrap_or(0);
    let mut judged = Judged {
        chain: Vec::new(),
        cut: None,
        damage: None,
        highest,
    };
    let mut expected = Expected { tag, seq: seq + 1 };
    let first = (0..2)
        .find(|&f| Header::parse(files[f].bytes).is_some_and(|h| h.tag == tag && h.seq == seq + 1));
    // Where the chain breaks: the place after its last record, or, with no
    // record, the start of either file.
    let mut breaks: Vec<(usize, u64)> = match first {
        None => vec![(0, 0), (1, 0)],
        Some(f) => {
            let (mut f, mut at) = (f, 0u64);
            loop {
                let bytes = files[f].bytes.get(at as usize..).unwrap_or_default();
                let Some(h) =
                    Header::parse(bytes).filter(|h| h.tag == expected.tag && h.seq == expected.seq)
                else {
                    break vec![(f, at)];
                };
                let Body::Whole(payload) = record::body(&h, bytes) else {
                    break vec![(f, at)];
                };
                judged.chain.push(Found {
                    kind: h.kind,
                    payload,
                });
                expected.seq += 1;
                match h.kind {
                    Kind::Group => at += h.size(),
                    Kind::Handover => {
                        let Ok(next) = <[u8; 8]>::try_from(payload) else {
                            judged.damage = Some(Damage {
                                file: name(&files[f]),
                                offset: at,
                                seq: h.seq,
                                why: "a handover record that names no tag".into(),
                                follows: None,
                            });
                            return judged;
                        };
                        expected.tag = u64::from_le_bytes(next);
                        (f, at) = (1 - f, 0);
                    }
                }
            }
        }
    };
    for &(f, at) in &breaks {
        let bytes = files[f].bytes.get(at as usize..).unwrap_or_default();
        let damaged = match Header::parse(bytes) {
            Some(h) if h.tag == expected.tag && h.seq == expected.seq => {
                match record::body(&h, bytes) {
                    Body::Cut => {
                        judged.cut = Some(Cut {
                            file: name(&files[f]),
                            offset: at,
                            seq: h.seq,
                            size: h.size(),
                        });
                        None
                    }
                    Body::Damaged(why) => Some(why),
                    Body::Whole(_) => unreachable!("the chain would have taken it"),
                }
            }
            _ if expected.damaged_header(bytes) => Some("its header is damaged"),
            _ => None,
        };
        if let Some(why) = damaged {
            breaks = vec![(f, at)];
            judged.damage = Some(Damage {
                file: name(&files[f]),
                offset: at,
                seq: expected.seq,
                why: why.into(),
                follows: None,
            });
            break;
        }
    }
    // Anything numbered past the chain (but the record at the break) was
    // written after the break, so the break lost acknowledged commits.
    let mut later: Vec<&(usize, u64, Header)> = headers
        .iter()
        .filter(|(f, at, h)| {
            h.seq > expected.seq || (h.seq == expected.seq && !breaks.contains(&(*f, *at)))
        })
        .collect();
    later.sort_by_key(|(_, _, h)| h.seq);
    if let (Some(first), Some(last)) = (later.first(), later.last()) {
        let follows = (
            later.len(),
            name(&files[first.0]),
            first.1,
            first.2.seq,
            last.2.seq,
        );
        let damage = judged.damage.get_or_insert_with(|| {
            let (f, at) = breaks[0];
            let why = match judged.cut.take() {
                Some(_) => "its write looks cut short",
                None => "it is missing",
            };
            Damage {
                file: name(&files[f]),
                offset: at,
                seq: expected.seq,
                why: why.into(),
                follows: None,
            }
        });
        damage.follows = Some(follows);
    }
    judged
}

/// Every place in `bytes` where a record header that passes its checksum
/// starts. Runs of zeros (the space written ahead of the records) are
/// skipped eight bytes at a time.
fn headers(bytes: &[u8]) -> impl Iterator<Item = (u64, Header)> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        while at + record::MAGIC.len() <= bytes.len() {
            if at % 8 == 0
                && let Some(word) = bytes.get(at..at + 8)
                && word == [0; 8]
            {
                at += 8;
                continue;
            }
            let here = at;
            at += 1;
            if bytes[here] == record::MAGIC[0]
                && let Some(header) = Header::parse(&bytes[here..])
            {
                return Some((here as u64, header));
            }
        }
        None
    })
}

fn name(file: &File<'_>) -> String {
    file.path.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    const TAG: u64 = 0x1234_5678_9abc_def0;
    const NEXT: u64 = 0x0fed_cba9_8765_4321;

    /// Records `from..to` under `tag`, then zeros up to `size`.
    fn file(tag: u64, seqs: std::ops::Range<u64>, size: usize) -> Vec<u8> {
        let mut out = Vec::new();
        for seq in seqs {
            record::encode(
                &mut out,
                Kind::Group,
                tag,
                seq,
                &seq.to_le_bytes().repeat(5),
            );
        }
        out.resize(size.max(out.len()), 0);
        out
    }

    fn judged(a: &[u8], b: &[u8], tag: u64, seq: u64) -> (Vec<u64>, Option<Cut>, Option<Damage>) {
        let (pa, pb) = (PathBuf::from("a"), PathBuf::from("b"));
        let files = [
            File {
                path: &pa,
                bytes: a,
            },
            File {
                path: &pb,
                bytes: b,
            },
        ];
        let j = judge(files, tag, seq);
        let first = seq + 1;
        let chain = (first..first + j.chain.len() as u64).collect();
        (chain, j.cut, j.damage)
    }

    fn record_len() -> usize {
        file(TAG, 0..1, 0).len()
    }

    #[test]
    fn the_chain_runs_from_the_checkpoint_to_the_end() {
        let a = file(TAG, 11..16, 4096);
        let (chain, cut, damage) = judged(&a, &[], TAG, 10);
        assert_eq!(chain, vec![11, 12, 13, 14, 15]);
        assert!(cut.is_none() && damage.is_none());
        // The same records after a later checkpoint: stale.
        let (chain, _, damage) = judged(&a, &[], 99, 15);
        assert!(chain.is_empty() && damage.is_none());
    }

    #[test]
    fn a_handover_continues_in_the_other_file() {
        let mut a = file(TAG, 11..13, 0);
        record::encode(&mut a, Kind::Handover, TAG, 13, &NEXT.to_le_bytes());
        a.resize(4096, 0);
        // The other file's start still holds an older lap's records.
        let mut b = file(NEXT, 14..16, 0);
        b.extend(file(7, 3..9, 4096));
        let (chain, cut, damage) = judged(&a, &b, TAG, 10);
        assert_eq!(chain, vec![11, 12, 13, 14, 15]);
        assert!(cut.is_none() && damage.is_none(), "{damage:?}");
    }

    #[test]
    fn a_cut_last_record_is_dropped_but_a_cut_one_before_others_is_damage() {
        let mut a = file(TAG, 11..15, 4096);
        let last = 3 * record_len();
        // Only the last record's header reached the disk.
        a[last + record::HEADER..4 * record_len()].fill(0);
        let (chain, cut, damage) = judged(&a, &[], TAG, 10);
        assert_eq!(chain, vec![11, 12, 13]);
        assert_eq!(cut.map(|c| (c.offset, c.seq)), Some((last as u64, 14)));
        assert!(damage.is_none());

        let mut a = file(TAG, 11..15, 4096);
        a[record_len() + record::HEADER..2 * record_len()].fill(0);
        let (chain, cut, damage) = judged(&a, &[], TAG, 10);
        assert_eq!(chain, vec![11]);
        assert!(cut.is_none());
        let damage = damage.unwrap();
        assert_eq!((damage.offset, damage.seq), (record_len() as u64, 12));
        assert_eq!(
            damage.follows.as_ref().map(|f| (f.0, f.3, f.4)),
            Some((2, 13, 14))
        );
        assert_eq!(damage.lost(), 3);
    }

    #[test]
    fn damage_anywhere_in_the_chain_is_found() {
        let clean = file(TAG, 11..15, 4096);
        let written = 4 * record_len();
        for at in 0..written - 8 {
            let mut a = clean.clone();
            a[at..at + 8].iter_mut().for_each(|b| *b = !*b);
            let (chain, cut, damage) = judged(&a, &[], TAG, 10);
            assert!(cut.is_none(), "damage at {at} read as a cut write");
            let damage = damage.unwrap_or_else(|| panic!("damage at {at} not found: {chain:?}"));
            assert_eq!(damage.seq, 11 + (at / record_len()) as u64, "at {at}");
            assert_eq!(chain.len() as u64, damage.seq - 11);
        }
        // Damage past the written part, or in the other file's old lap,
        // changes nothing.
        let mut a = clean.clone();
        a[written + 10] = 1;
        let b = file(3, 1..9, 4096);
        let mut b2 = b.clone();
        b2[40..48].fill(0xff);
        let (chain, _, damage) = judged(&a, &b2, TAG, 10);
        assert_eq!(chain.len(), 4);
        assert!(damage.is_none());
    }

    #[test]
    fn a_lost_checkpoint_with_later_records_is_damage() {
        // The database says checkpoint 10 under TAG, but the file holds
        // records 21.. of a later checkpoint: 11..20 are gone.
        let a = file(NEXT, 21..23, 4096);
        let (chain, _, damage) = judged(&a, &[], TAG, 10);
        assert!(chain.is_empty());
        let damage = damage.unwrap();
        assert_eq!((damage.seq, damage.offset), (11, 0));
        assert_eq!(damage.follows.map(|f| (f.0, f.3)), Some((2, 21)));
    }
}
