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
