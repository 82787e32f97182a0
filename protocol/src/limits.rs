//! Every bound of the protocol in one place: frame sizes, rate, timeouts,
//! string lengths.
//!
//! The server announces the ones a client must respect in `welcome`
//! ([`Limits`]), so a server may tighten or loosen them without a protocol
//! change; the constants here are the defaults and the bounds the codec
//! enforces.

use serde::{Deserialize, Serialize};

/// Default cap on a client frame (16 KiB). The largest legitimate client
/// message (`create_room` with a full configuration and a name) is under
/// 1 KiB; the cap only bounds what one bad frame can cost the server.
pub const MAX_FRAME_BYTES: usize = 16 * 1024;

/// The WebSocket layer's hard cap on a client message (64 KiB): a larger
/// message is not even read; the connection is closed with 1009. Frames
/// between [`MAX_FRAME_BYTES`] and this are dropped with a `too_large`
/// error and the connection stays.
pub const MAX_WS_MESSAGE_BYTES: usize = 64 * 1024;

/// Cap on a server frame when a client decodes it (1 MiB). A full
/// `table_snapshot` of a 19x19 game is under 40 KiB, a `rooms` list of
/// [`MAX_ROOMS_LISTED`] rooms with the longest names under 400 KiB.
pub const MAX_SERVER_FRAME_BYTES: usize = 1024 * 1024;

/// Maximum nesting of maps and arrays in a decoded MessagePack frame,
/// counting the message's own map (a message nested exactly this deep is
/// read; one level more is `bad_frame`). Real messages nest less than 8
/// deep; the bound keeps a hostile frame from exhausting the decoder's
/// stack.
pub const MAX_DEPTH: usize = 32;

/// The same bound for a JSON frame (serde_json's customary 128).
pub const MAX_JSON_DEPTH: usize = 128;

/// How long the server waits for `hello` after the WebSocket opens before
/// closing with 4001.
pub const HELLO_TIMEOUT_MS: u64 = 10_000;

/// The most rooms one `rooms` message lists (`truncated` says if more
/// exist).
pub const MAX_ROOMS_LISTED: usize = 500;

/// Longest player name, in characters.
pub const MAX_NAME_CHARS: usize = 32;
/// Longest room name, in characters.
pub const MAX_ROOM_NAME_CHARS: usize = 64;
/// Longest chat message, in characters.
pub const MAX_CHAT_CHARS: usize = 280;
/// Longest `hello.client` string, in characters.
pub const MAX_CLIENT_CHARS: usize = 64;
/// Longest password, in characters (`register`, `login`).
pub const MAX_PASSWORD_CHARS: usize = 128;
/// Longest login token accepted in `hello.token`, in characters (the
/// server's are 32).
pub const MAX_TOKEN_CHARS: usize = 64;
/// The most players in each list of one `leaderboard`.
pub const MAX_LEADERBOARD: usize = 100;
/// The most games in one `history` page.
pub const HISTORY_PAGE: usize = 50;
/// The most rating points per family in one `profile`.
pub const MAX_RATING_POINTS: usize = 50;

/// The limits a client must respect, announced in `welcome`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Limits {
    /// Largest frame the server accepts, in bytes.
    pub max_frame_bytes: u32,
    /// Sustained messages per second (a token bucket refilled at this rate).
    pub rate_per_sec: u32,
    /// Messages that may be sent at once above the sustained rate (the
    /// bucket's size).
    pub rate_burst: u32,
    /// The server closes a connection (4004) from which nothing, not even a
    /// WebSocket pong, arrived for this long. The server pings at a third of
    /// it; ordinary WebSocket libraries answer by themselves.
    pub idle_timeout_ms: u64,
    /// Rooms or tables a session may sit in at once.
    pub max_seats: u32,
    /// Tables a session may watch at once.
    pub max_watch: u32,
}

impl Limits {
    /// The defaults a server uses unless configured otherwise.
    pub const DEFAULT: Limits = Limits {
        max_frame_bytes: MAX_FRAME_BYTES as u32,
        rate_per_sec: 20,
        rate_burst: 40,
        idle_timeout_ms: 60_000,
        max_seats: 1,
        max_watch: 16,
    };
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}

/// Checks a user-supplied display string: not blank, at most `max`
/// characters, no control characters.
pub(crate) fn check_text(what: &str, s: &str, max: usize) -> Result<(), String> {
    if s.trim().is_empty() {
        return Err(format!("{what} must not be blank"));
    }
    if s.chars().count() > max {
        return Err(format!("{what} has more than {max} characters"));
    }
    if s.chars().any(char::is_control) {
        return Err(format!("{what} must not contain control characters"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_consistent() {
        let l = Limits::default();
        assert_eq!(l.max_frame_bytes as usize, MAX_FRAME_BYTES);
        const { assert!(MAX_FRAME_BYTES < MAX_WS_MESSAGE_BYTES) };
        const { assert!(MAX_WS_MESSAGE_BYTES <= MAX_SERVER_FRAME_BYTES) };
        assert!(l.rate_burst >= l.rate_per_sec);
    }

    #[test]
    fn text_checks() {
        assert!(check_text("name", "Ann", 3).is_ok());
        assert!(check_text("name", "五目並べ", 4).is_ok());
        assert!(check_text("name", "五目並べ!", 4).is_err());
        assert!(check_text("name", "  ", 4).is_err());
        assert!(check_text("name", "a\nb", 4).is_err());
    }
}
