//! How both stores encode their struct values: MessagePack with field
//! names (`rmp-serde`, `to_vec_named`): compact and fast, floats stored as
//! their 8 bytes so ratings come back bit-exact (serde_json's default
//! float parsing does not promise that), and named fields let a later
//! version add one with a serde default without a new schema version.

use serde::{Serialize, de::DeserializeOwned};

use crate::StoreError;

/// Encodes a value as MessagePack with field names.
pub(crate) fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, StoreError> {
    rmp_serde::to_vec_named(value)
        .map_err(|e| StoreError::Unavailable(format!("cannot encode a value: {e}")))
}

/// Decodes a value written by [`encode`]; `what` names it for the error.
pub(crate) fn decode<T: DeserializeOwned>(bytes: &[u8], what: &str) -> Result<T, StoreError> {
    rmp_serde::from_slice(bytes).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

/// `#[serde(with = "crate::codec::byte_lists")]` for a list of byte
/// strings (a live table's log): each one as [`serde_bytes`] writes it.
/// Both readers take either form, so what an older version wrote (an array
/// of integers per entry) still reads.
pub(crate) mod byte_lists {
    use serde::{Deserialize, Deserializer, Serializer};
    use serde_bytes::{ByteBuf, Bytes};

    pub(crate) fn serialize<S: Serializer>(lists: &[Vec<u8>], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(lists.iter().map(|list| Bytes::new(list)))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<u8>>, D::Error> {
        let lists = Vec::<ByteBuf>::deserialize(d)?;
        Ok(lists.into_iter().map(ByteBuf::into_vec).collect())
    }
}

/// Lower-case hex of `bytes` (export cursors).
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes of lower- or upper-case hex, or `None` if it is not hex.
pub(crate) fn unhex(text: &str) -> Option<Vec<u8>> {
    let text = text.as_bytes();
    if !text.len().is_multiple_of(2) {
        return None;
    }
    text.chunks(2)
        .map(|pair| {
            std::str::from_utf8(pair)
                .ok()
                .and_then(|p| u8::from_str_radix(p, 16).ok())
        })
        .collect()
}

/// An export cursor holding `state` (encoded, then hex).
pub(crate) fn cursor<T: Serialize>(state: &T) -> Result<crate::ExportCursor, StoreError> {
    Ok(crate::ExportCursor(hex(&encode(state)?)))
}

/// The state in an export cursor made by [`cursor`].
pub(crate) fn uncursor<T: DeserializeOwned>(cursor: &crate::ExportCursor) -> Result<T, StoreError> {
    unhex(&cursor.0)
        .and_then(|bytes| rmp_serde::from_slice(&bytes).ok())
        .ok_or_else(|| {
            StoreError::Invalid(format!("not an export cursor of this store: {cursor:?}"))
        })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::{decode, encode};
    use crate::{FinishedGame, LiveTable};
    use serde::Serialize;

    /// `LiveTable` as older versions encoded it.
    #[derive(Serialize)]
    struct OldLive {
        id: String,
        meta: Vec<u8>,
        entries: Vec<Vec<u8>>,
    }

    /// A finished game as older versions encoded it (in the journal too).
    #[derive(Serialize)]
    pub(crate) struct OldGame {
        pub id: String,
        pub players: Vec<String>,
        pub finished_ms: u64,
        pub record: Vec<u8>,
        pub ratings: Vec<crate::RatingUpdate>,
    }

    #[test]
    fn values_written_with_byte_arrays_still_decode() {
        let entries: Vec<Vec<u8>> = vec![(0..=255).collect(), vec![], vec![7]];
        let old = encode(&OldLive {
            id: "t".into(),
            meta: vec![1, 200],
            entries: entries.clone(),
        })
        .unwrap();
        let live: LiveTable = decode(&old, "a live table").unwrap();
        assert_eq!(live.meta, vec![1, 200]);
        assert_eq!(live.entries, entries);
        let again: LiveTable = decode(&encode(&live).unwrap(), "a live table").unwrap();
        assert_eq!(again, live);

        let old = encode(&OldGame {
            id: "g".into(),
            players: vec!["ann".into()],
            finished_ms: 5,
            record: (0..=255).collect(),
            ratings: vec![],
        })
        .unwrap();
        let game: FinishedGame = decode(&old, "a game").unwrap();
        assert_eq!(game.record, (0..=255).collect::<Vec<u8>>());
        let new = encode(&game).unwrap();
        assert!(new.len() < old.len(), "{} vs {}", new.len(), old.len());
        assert_eq!(decode::<FinishedGame>(&new, "a game").unwrap(), game);
    }
}
