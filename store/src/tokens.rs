//! Tokens at rest: a store keeps a login token or a resume token only as
//! its SHA-256, in values and in key names alike.
//!
//! Why: whoever can read the data (a backup, another local user, a Redis
//! dump, a replica) must not get a token that logs in or resumes a
//! session. A token is 128 random bits, so its digest can neither be
//! turned back nor guessed: no slow hash is needed (a password's is for
//! secrets people choose). Every store method that takes a token hashes
//! it, so a digest given as a login token matches nothing; an import takes
//! a digest as it is (what an export gives), and so does the seat index
//! (the server keeps only a resume token's digest with a table's seats;
//! the index is no authority, the session registry is).

use sha2::{Digest, Sha256};

/// What starts every digest.
const PREFIX: &str = "sha256:";

/// The form a token is stored in: `sha256:` and the token's SHA-256 in
/// lower-case hex.
pub fn token_digest(token: &str) -> String {
    let hash = Sha256::digest(token.as_bytes());
    let mut out = String::with_capacity(PREFIX.len() + 64);
    out.push_str(PREFIX);
    for byte in hash {
        out.push(char::from_digit(u32::from(byte >> 4), 16).expect("a nibble"));
        out.push(char::from_digit(u32::from(byte & 15), 16).expect("a nibble"));
    }
    out
}

/// Whether `s` is a digest (as stored) rather than a token.
pub fn is_digest(s: &str) -> bool {
    s.strip_prefix(PREFIX)
        .is_some_and(|hex| hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// A token as an import stores it: a digest as it is (an export gives
/// digests), anything else (an earlier version's export) hashed.
pub(crate) fn at_rest(token: &str) -> String {
    if is_digest(token) {
        token.to_owned()
    } else {
        token_digest(token)
    }
}

/// An item to import, with a token in it as stored ([`at_rest`]).
pub(crate) fn importable(item: &crate::Item) -> crate::Item {
    match item {
        crate::Item::Token(token) => crate::Item::Token(crate::AuthToken {
            token: at_rest(&token.token),
            ..token.clone()
        }),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_digest_is_sha256_in_hex_and_never_a_digest_of_itself() {
        // SHA-256 of "abc" (FIPS 180-2, appendix B.1).
        assert_eq!(
            token_digest("abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let digest = token_digest("0123456789abcdef0123456789abcdef");
        assert!(is_digest(&digest));
        assert!(!is_digest("0123456789abcdef0123456789abcdef"));
        assert_eq!(at_rest(&digest), digest);
        assert_ne!(token_digest(&digest), digest);
    }
}
