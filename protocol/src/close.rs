//! WebSocket close codes the server uses, and what each tells a client.
//!
//! They live with the wire format because a client reacts to them: reconnect
//! at once (1001, 1012, 4002, 4004), fix itself (1002, 1003, 1009, 4003), or slow
//! down (1008). Codes from 4000 are Tengen's own (RFC 6455 leaves 4000-4999
//! to applications); 4008 to 4099 are reserved for later versions.

/// A close code sent by the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum CloseCode {
    /// 1000: the exchange is over (the client closed, or a session ended
    /// normally).
    Normal,
    /// 1001: the server is shutting down or restarting; reconnect (with
    /// backoff) to another or the same node.
    GoingAway,
    /// 1012: the server is restarting (it stopped on SIGTERM or SIGINT
    /// after saving everything); reconnect with backoff and resume with the
    /// token: live games continue where they were.
    ServiceRestart,
    /// 1002: the WebSocket protocol itself was broken (bad framing,
    /// continuation errors).
    ProtocolError,
    /// 1003: a frame of the other kind than the connection's encoding after
    /// the handshake (binary on a JSON connection or text on a MessagePack
    /// one).
    UnsupportedData,
    /// 1008: policy violation; the client kept sending after being told
    /// `rate_limited`.
    PolicyViolation,
    /// 1009: a message larger than [`crate::MAX_WS_MESSAGE_BYTES`], which the
    /// server does not even read. (A frame over `max_frame_bytes` but under
    /// this bound only gets a `too_large` error.)
    MessageTooBig,
    /// 1011: an internal error ended the connection.
    InternalError,
    /// 4001: no `hello` within [`crate::HELLO_TIMEOUT_MS`] of connecting.
    HelloTimeout,
    /// 4002: the client read too slowly and its outbound queue filled; the
    /// server cut it off rather than slow a table. Reconnect and resync from
    /// a snapshot.
    SlowConsumer,
    /// 4003: `hello.version` is not supported (after an
    /// `unsupported_version` error naming the supported versions).
    UnsupportedVersion,
    /// 4004: nothing was received (no message, no WebSocket pong) for
    /// `welcome.limits.idle_timeout_ms`.
    IdleTimeout,
    /// 4005: this session was resumed on another connection (`hello.resume`
    /// with its token); this one is closed. Do not reconnect with the same
    /// token from here.
    SessionTakenOver,
    /// 4006: the account was banned (its logins are refused with `banned`).
    Banned,
    /// 4007: the login token this session was the account with was
    /// revoked (a `logout` on another connection with the same token, or
    /// `logout_everywhere`). The session is over and cannot be resumed;
    /// log in again.
    LoggedOut,
}

impl CloseCode {
    /// Every code, in documentation order.
    pub const ALL: [CloseCode; 15] = [
        CloseCode::Normal,
        CloseCode::GoingAway,
        CloseCode::ServiceRestart,
        CloseCode::ProtocolError,
        CloseCode::UnsupportedData,
        CloseCode::PolicyViolation,
        CloseCode::MessageTooBig,
        CloseCode::InternalError,
        CloseCode::HelloTimeout,
        CloseCode::SlowConsumer,
        CloseCode::UnsupportedVersion,
        CloseCode::IdleTimeout,
        CloseCode::SessionTakenOver,
        CloseCode::Banned,
        CloseCode::LoggedOut,
    ];

    /// The number sent in the close frame.
    pub fn code(self) -> u16 {
        match self {
            CloseCode::Normal => 1000,
            CloseCode::GoingAway => 1001,
            CloseCode::ServiceRestart => 1012,
            CloseCode::ProtocolError => 1002,
            CloseCode::UnsupportedData => 1003,
            CloseCode::PolicyViolation => 1008,
            CloseCode::MessageTooBig => 1009,
            CloseCode::InternalError => 1011,
            CloseCode::HelloTimeout => 4001,
            CloseCode::SlowConsumer => 4002,
            CloseCode::UnsupportedVersion => 4003,
            CloseCode::IdleTimeout => 4004,
            CloseCode::SessionTakenOver => 4005,
            CloseCode::Banned => 4006,
            CloseCode::LoggedOut => 4007,
        }
    }

    /// The reason text sent with the code (short: close reasons are capped
    /// at 123 bytes).
    pub fn reason(self) -> &'static str {
        match self {
            CloseCode::Normal => "bye",
            CloseCode::GoingAway => "server shutting down",
            CloseCode::ServiceRestart => "server restarting",
            CloseCode::ProtocolError => "protocol error",
            CloseCode::UnsupportedData => "wrong frame type for this connection's encoding",
            CloseCode::PolicyViolation => "rate limit exceeded",
            CloseCode::MessageTooBig => "message too big",
            CloseCode::InternalError => "internal error",
            CloseCode::HelloTimeout => "no hello in time",
            CloseCode::SlowConsumer => "slow consumer: outbound queue full",
            CloseCode::UnsupportedVersion => "unsupported protocol version",
            CloseCode::IdleTimeout => "idle timeout",
            CloseCode::SessionTakenOver => "session resumed elsewhere",
            CloseCode::Banned => "banned",
            CloseCode::LoggedOut => "logged out: the login token was revoked",
        }
    }

    /// The code for a number, if the server uses it.
    pub fn from_code(code: u16) -> Option<CloseCode> {
        CloseCode::ALL.into_iter().find(|c| c.code() == code)
    }

    /// Whether a client should reconnect by itself after this close.
    pub fn should_reconnect(self) -> bool {
        matches!(
            self,
            CloseCode::GoingAway
                | CloseCode::ServiceRestart
                | CloseCode::InternalError
                | CloseCode::SlowConsumer
                | CloseCode::IdleTimeout
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_round_trip_and_reasons_fit() {
        let mut seen = std::collections::HashSet::new();
        for c in CloseCode::ALL {
            assert!(seen.insert(c.code()), "{c:?}");
            assert_eq!(CloseCode::from_code(c.code()), Some(c));
            assert!(c.reason().len() <= 123);
            // IANA-registered codes (1012 is "Service Restart") or our own range.
            assert!(c.code() <= 1012 || (4000..4100).contains(&c.code()));
        }
        assert_eq!(CloseCode::from_code(1005), None);
        assert_eq!(CloseCode::PolicyViolation.code(), 1008);
        assert!(CloseCode::SlowConsumer.should_reconnect());
        assert!(!CloseCode::UnsupportedVersion.should_reconnect());
        assert!(!CloseCode::LoggedOut.should_reconnect());
        assert_eq!(CloseCode::from_code(4007), Some(CloseCode::LoggedOut));
    }
}
