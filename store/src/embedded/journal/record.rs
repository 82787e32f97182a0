//! One journal record as it lies in the file, and how much of one a
//! stretch of bytes is.
//!
//! Why each part is there: the header says what the record is (its kind,
//! the checkpoint tag it was written under, its commit number) and carries
//! a checksum of its own, so that a header can be trusted, and found, on
//! its own; the payload has its checksum; and a trailer after the payload
//! repeats what the header says. A write cut short by a crash leaves the
//! header but not the trailer (the bytes there are what the file held
//! before: zeros, or an older record's), while damage to a record that was
//! written whole leaves most of both. The reader tells the two apart by
//! how many of the bytes it can predict match ([`Expected`]).
//!
//! Layout (integers little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 0..4 | magic `"TGJ2"` |
//! | 4..8 | payload length (`u32`) |
//! | 8..16 | the checkpoint tag the record was written under (`u64`) |
//! | 16..24 | the commit number XOR the tag (`u64`): stale records of another tag differ from the expected value in every byte |
//! | 24..28 | CRC-32 of the payload |
//! | 28 | kind: 0 a group of writes, 1 a handover |
//! | 29..32 | zero |
//! | 32..36 | CRC-32 of bytes 0..32 |
//! | payload | |
//! | 0..8 | trailer: the commit number XOR the tag, again |
//! | 8..12 | the payload's CRC-32, again |
//! | 12..16 | the payload length, again |
//! | 16..20 | `"TGJE"` |

/// The header's first bytes.
pub(super) const MAGIC: &[u8; 4] = b"TGJ2";
const END: &[u8; 4] = b"TGJE";
pub(super) const HEADER: usize = 36;
pub(super) const TRAILER: usize = 20;
/// No group comes near this; a length above it is damage.
pub(super) const MAX_PAYLOAD: u32 = 1 << 30;
/// Of the bytes the reader can predict in a header (magic, tag, commit
/// number) or a trailer (all of it), how many must match for the bytes to
/// be taken as that record's, damaged: a record written whole and then
/// damaged keeps most of them, while bytes that were never that record's
/// (zeros, an older record, a write cut short) match a few at most.
const OURS: usize = 10;

/// What a record is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Group,
    /// Ends a file: the records that follow are at the start of the other
    /// file, under the tag the payload names.
    Handover,
}

/// A header that passed its checksum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Header {
    pub len: u32,
    pub tag: u64,
    pub seq: u64,
    pub crc: u32,
    pub kind: Kind,
}

impl Header {
    /// The whole record's size in the file.
    pub fn size(&self) -> u64 {
        (HEADER + TRAILER) as u64 + u64::from(self.len)
    }

    /// The header at the start of `bytes`, if one is there and passes its
    /// checksum.
    pub fn parse(bytes: &[u8]) -> Option<Header> {
        let bytes = bytes.get(..HEADER)?;
        if &bytes[..4] != MAGIC || crc(&bytes[..32]) != u32_at(bytes, 32) {
            return None;
        }
        let kind = match bytes[28] {
            0 => Kind::Group,
            1 => Kind::Handover,
            _ => return None,
        };
        let len = u32_at(bytes, 4);
        let tag = u64_at(bytes, 8);
        (len <= MAX_PAYLOAD).then(|| Header {
            len,
            tag,
            seq: u64_at(bytes, 16) ^ tag,
            crc: u32_at(bytes, 24),
            kind,
        })
    }

    /// The record's trailer as it must be.
    fn trailer(&self) -> [u8; TRAILER] {
        let mut t = [0u8; TRAILER];
        t[..8].copy_from_slice(&(self.seq ^ self.tag).to_le_bytes());
        t[8..12].copy_from_slice(&self.crc.to_le_bytes());
        t[12..16].copy_from_slice(&self.len.to_le_bytes());
        t[16..].copy_from_slice(END);
        t
    }
}

/// Appends one record to `out`.
pub(super) fn encode(out: &mut Vec<u8>, kind: Kind, tag: u64, seq: u64, payload: &[u8]) {
    let len = u32::try_from(payload.len()).expect("checked by the writer");
    let header = Header {
        len,
        tag,
        seq,
        crc: crc(payload),
        kind,
    };
    let start = out.len();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&tag.to_le_bytes());
    out.extend_from_slice(&(seq ^ tag).to_le_bytes());
    out.extend_from_slice(&header.crc.to_le_bytes());
    out.extend_from_slice(&[kind as u8, 0, 0, 0]);
    let sum = crc(&out[start..]);
    out.extend_from_slice(&sum.to_le_bytes());
    out.extend_from_slice(payload);
    out.extend_from_slice(&header.trailer());
}

/// What the bytes after a valid header hold.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Body<'a> {
    /// The whole record: payload and trailer check out.
    Whole(&'a [u8]),
    /// The file ends inside the record, or its trailer is not this
    /// record's: the write was cut short.
    Cut,
    /// Payload and trailer are there but do not check out: damage.
    Damaged(&'static str),
}

/// The payload and trailer following `header`, which starts `bytes`.
pub(super) fn body<'a>(header: &Header, bytes: &'a [u8]) -> Body<'a> {
    let len = header.len as usize;
    let Some(trailer) = bytes.get(HEADER + len..HEADER + len + TRAILER) else {
        return Body::Cut;
    };
    let expected = header.trailer();
    if similarity(trailer, &expected) < OURS {
        return Body::Cut;
    }
    let payload = &bytes[HEADER..HEADER + len];
    if crc(payload) != header.crc {
        Body::Damaged("its payload fails its checksum")
    } else if trailer != expected {
        Body::Damaged("its trailer does not match its header")
    } else {
        Body::Whole(payload)
    }
}

/// The record the reader expects at some place: the tag it must carry and
/// its commit number.
#[derive(Clone, Copy, Debug)]
pub(super) struct Expected {
    pub tag: u64,
    pub seq: u64,
}

impl Expected {
    /// Whether `bytes` start with what is left of the expected record's
    /// header after damage (most of its predictable bytes match), rather
    /// than with bytes that were never that header.
    pub fn damaged_header(&self, bytes: &[u8]) -> bool {
        let Some(bytes) = bytes.get(..24) else {
            return false;
        };
        let mut known = [0u8; 20];
        known[..4].copy_from_slice(MAGIC);
        known[4..12].copy_from_slice(&self.tag.to_le_bytes());
        known[12..].copy_from_slice(&(self.seq ^ self.tag).to_le_bytes());
        let mut found = [0u8; 20];
        found[..4].copy_from_slice(&bytes[..4]);
        found[4..].copy_from_slice(&bytes[8..24]);
        similarity(&found, &known) >= OURS
    }
}

fn similarity(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).filter(|(x, y)| x == y).count()
}

pub(super) fn crc(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(seq: u64) -> Vec<u8> {
        let mut out = Vec::new();
        encode(
            &mut out,
            Kind::Group,
            0xfeed_beef_0123_4567,
            seq,
            b"a group's writes",
        );
        out
    }

    #[test]
    fn a_record_reads_back_whole() {
        let bytes = record(7);
        let header = Header::parse(&bytes).unwrap();
        assert_eq!(
            (header.seq, header.kind, header.size()),
            (7, Kind::Group, bytes.len() as u64)
        );
        assert_eq!(body(&header, &bytes), Body::Whole(b"a group's writes"));
    }

    /// Eight bytes inverted anywhere in a record leave a header that is
    /// still recognised, or a body that is damaged, never a record that
    /// looks like one never written; a record whose end was never written
    /// looks cut, whatever the bytes there were before.
    #[test]
    fn damage_is_told_from_a_cut_write() {
        let clean = record(7);
        let expected = Expected {
            tag: 0xfeed_beef_0123_4567,
            seq: 7,
        };
        for at in 0..clean.len() - 8 {
            let mut bytes = clean.clone();
            bytes[at..at + 8].iter_mut().for_each(|b| *b = !*b);
            match Header::parse(&bytes) {
                Some(h) => assert!(
                    matches!(body(&h, &bytes), Body::Damaged(_)),
                    "damage at {at} read as {:?}",
                    body(&h, &bytes)
                ),
                None => assert!(expected.damaged_header(&bytes), "damage at {at}"),
            }
        }
        for before in [vec![0u8; clean.len()], {
            let mut other = Vec::new();
            encode(&mut other, Kind::Group, 42, 3, &[9u8; 16]);
            other.resize(clean.len(), 0);
            other
        }] {
            // Only the header's sector reached the disk.
            let mut bytes = before.clone();
            bytes[..HEADER].copy_from_slice(&clean[..HEADER]);
            let header = Header::parse(&bytes).unwrap();
            assert_eq!(body(&header, &bytes), Body::Cut);
            // Nothing of it did: no header, and nothing like it.
            assert!(Header::parse(&before).is_none_or(|h| h.seq != 7));
            assert!(!expected.damaged_header(&before));
        }
        assert_eq!(
            body(&Header::parse(&clean).unwrap(), &clean[..clean.len() - 1]),
            Body::Cut
        );
    }
}
