//! The journal records of versions before commit numbers (`"TGJ1"`, and
//! `"TGJH"` for a handover), read once by a server upgraded after a crash.
//!
//! Such a record is a magic, the payload's length (`u32`), the tag
//! (`u64`), a CRC-32 of the tag's bytes and the payload, then the payload.
//! The records that follow the database's last checkpoint are those from
//! the start of the file whose first record carries its tag, up to the
//! first that does not or fails its checksum; a handover record continues
//! at the start of the other file under the tag it names. Without commit
//! numbers, a failing record is a cut write only if no record of the same
//! tag follows it: one that does was written, and acknowledged, after it,
//! so that is damage, refused like damage to a current record. The open
//! replays what this finds and takes a checkpoint at once, after which
//! only current records are written.

use super::scan::{Damage, File};

const MAGIC: &[u8; 4] = b"TGJ1";
const HANDOVER: &[u8; 4] = b"TGJH";
const HEADER: usize = 20;

/// One record read.
struct Record<'a> {
    handover: bool,
    payload: &'a [u8],
    size: usize,
}

/// The payloads of the groups that follow the checkpoint tagged `tag`, in
/// order, up to a break; and the damage, if records of the same tag
/// follow that break.
pub(super) fn read<'a>(files: [File<'a>; 2], tag: u64) -> (Vec<&'a [u8]>, Option<Damage>) {
    for (i, file) in files.iter().enumerate() {
        let (mut groups, next, damage) = read_file(file, tag);
        if groups.is_empty() && next.is_none() && damage.is_none() {
            continue;
        }
        if let Some(next) = next {
            // A checkpoint was under way: what followed it went to the
            // other file, under the tag it was to write.
            let (more, _, damage) = read_file(&files[1 - i], next);
            groups.extend(more);
            return (groups, damage);
        }
        return (groups, damage);
    }
    (Vec::new(), None)
}

/// The groups tagged `tag` from the start of `file`, the tag a handover
/// there names, and damage after them.
fn read_file<'a>(file: &File<'a>, tag: u64) -> (Vec<&'a [u8]>, Option<u64>, Option<Damage>) {
    let mut groups = Vec::new();
    let mut at = 0;
    let mut n = 0u64;
    while let Some(record) = parse(&file.bytes[at..], tag) {
        n += 1;
        if record.handover {
            let next = <[u8; 8]>::try_from(record.payload)
                .ok()
                .map(u64::from_le_bytes);
            return (groups, next, None);
        }
        groups.push(record.payload);
        at += record.size;
    }
    // A record of this tag after the break was written after it: damage.
    // (Records of the checkpoint's tag are only ever at the start of one
    // file and in order, so none lies elsewhere.)
    let later = (at + 1..file.bytes.len()).find(|&i| parse(&file.bytes[i..], tag).is_some());
    let damage = later.map(|later| {
        let file = file.path.display().to_string();
        Damage {
            file: file.clone(),
            offset: at as u64,
            seq: n + 1,
            why: "a record of the previous journal format fails its checksum".into(),
            follows: Some((1, file, later as u64, n + 2, n + 2)),
        }
    });
    (groups, None, damage)
}

/// The record tagged `tag` at the start of `bytes`, if one is there whole.
fn parse(bytes: &[u8], tag: u64) -> Option<Record<'_>> {
    let header = bytes.get(..HEADER)?;
    let magic = &header[..4];
    let len = u32::from_le_bytes(header[4..8].try_into().ok()?) as usize;
    let record_tag = u64::from_le_bytes(header[8..16].try_into().ok()?);
    let sum = u32::from_le_bytes(header[16..20].try_into().ok()?);
    if (magic != MAGIC && magic != HANDOVER) || record_tag != tag {
        return None;
    }
    let payload = bytes.get(HEADER..HEADER.checked_add(len)?)?;
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&tag.to_le_bytes());
    hasher.update(payload);
    (hasher.finalize() == sum).then_some(Record {
        handover: magic == HANDOVER,
        payload,
        size: HEADER + len,
    })
}

/// Writes a record as those versions did (for tests of the upgrade).
#[cfg(any(test, feature = "testing"))]
pub(in crate::embedded) fn encode(out: &mut Vec<u8>, handover: bool, tag: u64, payload: &[u8]) {
    out.extend_from_slice(if handover { HANDOVER } else { MAGIC });
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&tag.to_le_bytes());
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&tag.to_le_bytes());
    hasher.update(payload);
    out.extend_from_slice(&hasher.finalize().to_le_bytes());
    out.extend_from_slice(payload);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn records(tag: u64, n: u8) -> Vec<u8> {
        let mut out = Vec::new();
        for i in 0..n {
            encode(&mut out, false, tag, &[i; 30]);
        }
        out.resize(out.len() + 200, 0);
        out
    }

    fn read_one(bytes: &[u8], tag: u64) -> Result<Vec<Vec<u8>>, Damage> {
        let (a, b) = (PathBuf::from("a"), PathBuf::from("b"));
        match read(
            [
                File { path: &a, bytes },
                File {
                    path: &b,
                    bytes: &[],
                },
            ],
            tag,
        ) {
            (_, Some(damage)) => Err(damage),
            (groups, None) => Ok(groups.into_iter().map(<[u8]>::to_vec).collect()),
        }
    }

    #[test]
    fn old_records_replay_up_to_a_cut_write_and_damage_before_others_is_refused() {
        let clean = records(5, 4);
        assert_eq!(read_one(&clean, 5).unwrap().len(), 4);
        assert!(read_one(&clean, 6).unwrap().is_empty());
        let mut cut = clean.clone();
        cut[3 * 50 + 25..4 * 50].fill(0);
        assert_eq!(read_one(&cut, 5).unwrap().len(), 3);
        for (at, record) in [(60, 1), (3, 0)] {
            let mut damaged = clean.clone();
            damaged[at] ^= 0xff;
            let damage = read_one(&damaged, 5).unwrap_err();
            assert_eq!((damage.offset, damage.seq), (record * 50, record + 1));
        }
    }
}
