//! Identifiers on the wire: rooms, tables, sessions, requests.
//!
//! Rooms, tables and sessions are named by short opaque strings so that
//! every client language handles them the same way (no 64-bit integers in
//! JavaScript, no case folding). The server makes them from random 64-bit
//! values written in lowercase Crockford base32, 13 characters (e.g.
//! `"c9x2mwe4k0qjt"`); clients must treat them as opaque and compare them as
//! strings. Decoding accepts 1 to [`MAX_ID_CHARS`] characters of `0-9`,
//! `a-z`, `-` and `_`, so a later server (a cluster prefixing a node name)
//! can change the form without breaking clients. A private room's id is its
//! invite code: 64 random bits are not guessable.
//!
//! A request id ([`RequestId`]) is the client's own number, echoed in the
//! reply.

use serde::{Deserialize, Serialize};

/// A client's request id: a non-negative integer echoed in the reply.
/// Clients in languages with 53-bit integers should stay below 2^53.
pub type RequestId = u64;

/// The longest id accepted on input.
pub const MAX_ID_CHARS: usize = 32;

/// Length of the ids the server makes ([`RoomId::from_u64`] and friends).
pub const GENERATED_ID_CHARS: usize = 13;

const CROCKFORD: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

/// Writes `v` as 13 lowercase Crockford base32 digits (65 bits, the top one
/// always 0 or 1), most significant first.
fn base32(v: u64) -> String {
    (0..GENERATED_ID_CHARS)
        .rev()
        .map(|i| CROCKFORD[((v >> (5 * i)) & 31) as usize] as char)
        .collect()
}

/// Why a string is not an id.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IdError {
    #[error("an id must not be empty")]
    Empty,
    #[error("an id has at most {MAX_ID_CHARS} characters")]
    TooLong,
    #[error("an id may only contain 0-9, a-z, '-' and '_'")]
    BadChar,
}

fn check(s: &str) -> Result<(), IdError> {
    if s.is_empty() {
        return Err(IdError::Empty);
    }
    if s.len() > MAX_ID_CHARS {
        return Err(IdError::TooLong);
    }
    if !s
        .bytes()
        .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase() || b == b'-' || b == b'_')
    {
        return Err(IdError::BadChar);
    }
    Ok(())
}

macro_rules! id_type {
    ($(#[doc = $doc_text:literal])* $name:ident) => {
        $(#[doc = $doc_text])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(try_from = "String", into = "String")]
        pub struct $name(String);

        impl $name {
            /// The id the server makes from a random 64-bit value.
            pub fn from_u64(v: u64) -> $name {
                $name(base32(v))
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl TryFrom<String> for $name {
            type Error = IdError;
            fn try_from(s: String) -> Result<$name, IdError> {
                check(&s)?;
                Ok($name(s))
            }
        }

        impl std::str::FromStr for $name {
            type Err = IdError;
            fn from_str(s: &str) -> Result<$name, IdError> {
                $name::try_from(s.to_string())
            }
        }

        impl From<$name> for String {
            fn from(id: $name) -> String {
                id.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        #[cfg(feature = "schema")]
        impl schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }

            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                id_schema(concat!($($doc_text,)*))
            }
        }
    };
}

/// An id's schema: the form [`check`] accepts, with the type's own
/// documentation.
#[cfg(feature = "schema")]
fn id_schema(doc: &str) -> schemars::Schema {
    let doc = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    schemars::json_schema!({
        "description": format!("{doc} Opaque: compare as strings."),
        "type": "string",
        "pattern": "^[0-9a-z_-]+$",
        "minLength": 1,
        "maxLength": MAX_ID_CHARS,
    })
}

id_type!(
    /// A room: a lobby entry with a configuration and two seats, where
    /// games are played one after another (a rematch is a new table in the
    /// same room).
    RoomId
);
id_type!(
    /// A table: one game, its event log and its spectators. Its events are
    /// numbered by `seq` from 1.
    TableId
);
id_type!(
    /// A connection's session, named in `welcome` (for logs and support).
    SessionId
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_ids_are_13_crockford_chars_and_distinct() {
        assert_eq!(RoomId::from_u64(0).as_str(), "0000000000000");
        assert_eq!(TableId::from_u64(u64::MAX).as_str(), "fzzzzzzzzzzzz");
        assert_eq!(RoomId::from_u64(32).as_str(), "0000000000010");
        let a = RoomId::from_u64(0x0123_4567_89ab_cdef);
        assert_eq!(a.as_str().len(), GENERATED_ID_CHARS);
        assert_ne!(a, RoomId::from_u64(0x0123_4567_89ab_cdee));
        assert_eq!(a.as_str().parse::<RoomId>(), Ok(a.clone()));
    }

    #[test]
    fn decoding_checks_the_form() {
        let ok: TableId = serde_json::from_str("\"n1-abc_9\"").unwrap();
        assert_eq!(ok.as_str(), "n1-abc_9");
        for bad in ["\"\"", "\"ABC\"", "\"a b\"", "\"é\"", "7"] {
            assert!(serde_json::from_str::<TableId>(bad).is_err(), "{bad}");
        }
        let long = format!("\"{}\"", "a".repeat(MAX_ID_CHARS + 1));
        assert!(serde_json::from_str::<RoomId>(&long).is_err());
        assert_eq!("".parse::<SessionId>(), Err(IdError::Empty));
        assert_eq!(
            serde_json::to_string(&SessionId::from_u64(1)).unwrap(),
            "\"0000000000001\""
        );
    }
}
