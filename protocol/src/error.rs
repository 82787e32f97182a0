//! Typed refusals: the `error` message and its codes.
//!
//! Every request the server cannot honour gets exactly one `error` reply
//! carrying the request's `id` and a [`ErrorCode`]: clients branch on the
//! code, never on the human-readable `message`. A refusal changes nothing
//! (for the sender or anyone else); unless a code's documentation says
//! otherwise the connection stays open. Rule refusals are not re-described
//! here: code `game` carries the rules crate's own [`GameError`] as
//! `game_error`, so the referee remains the only place that knows them.

use serde::{Deserialize, Serialize};
use tengen_rules::game::GameError;

/// Why a request was refused. The wire form is the snake_case name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The frame could not be decoded at all: not JSON / MessagePack, not a
    /// map, no string `type`, nesting too deep, or trailing bytes.
    BadFrame,
    /// The frame is a map whose `type` this server does not know (perhaps
    /// a newer or reserved message; see `welcome.features`).
    UnknownType,
    /// The `type` is known but a field is missing, of the wrong type, or out
    /// of range (names too long, malformed ids, a bad `id`).
    BadRequest,
    /// The frame is larger than `welcome.limits.max_frame_bytes`; it was
    /// dropped unread (its `id` cannot be echoed).
    TooLarge,
    /// `hello.version` is outside the versions this server speaks; `supported`
    /// says which it does. The server then closes with 4003.
    UnsupportedVersion,
    /// A request arrived before `hello`. The connection stays open for the
    /// `hello` (a second `hello` on an open session is a `bad_request`).
    HelloRequired,
    /// More messages than `welcome.limits` allow; the message was dropped.
    /// `retry_after_ms` says when one will be accepted again. Persistent
    /// flooding closes the connection with 1008.
    RateLimited,
    /// No such room or table (or it is private and you were not invited, or
    /// it has gone).
    NotFound,
    /// Both seats of the room are taken.
    RoomFull,
    /// You hold no seat in this room or at this table: a spectator tried to
    /// act, or someone other than the room's creator tried to cancel it.
    NotAPlayer,
    /// You are neither seated at nor watching this table (`act`,
    /// `snapshot`, `unwatch` need one or the other).
    WrongTable,
    /// You already sit in this room, or sitting in another would exceed
    /// `welcome.limits.max_seats`.
    AlreadySeated,
    /// The room's game is running: resign (or abort) before leaving, and a
    /// room cannot be cancelled once its game has started.
    GameInProgress,
    /// A per-session limit other than seats would be exceeded (e.g. watching
    /// more than `welcome.limits.max_watch` tables).
    LimitReached,
    /// `create_room.config` is not a valid configuration (the message says
    /// why).
    InvalidConfig,
    /// The referee refused the action; `game_error` holds its reason (the
    /// rules crate's `GameError`, tagged by its own `code`). Nothing changed.
    Game,
    /// The server cannot do this now (shutting down, overloaded, or a
    /// feature switched off). Retrying later may work.
    Unavailable,
    /// A bug or an internal failure on the server; the request may or may
    /// not have taken effect.
    Internal,
    /// Chat is switched off in this room.
    ChatOff,
    /// No rematch now: the game is not over, it is a tournament game, the
    /// finished table has closed, or no rematch offer stands to decline.
    NoRematch,
    /// `register`: the name is registered already (in any case), looks
    /// like a registered account's name, or a guest online uses it.
    NameTaken,
    /// `register`: the name is not a valid account name (the message says
    /// why); `create_room`, `create_tournament`: the name hides
    /// characters, or looks like another account's name or like
    /// `guest-<n>`.
    InvalidName,
    /// `register`: the password is too short.
    WeakPassword,
    /// `login`: no such account, or a wrong password (never says which);
    /// `hello.token`: no such token (or it was revoked).
    BadCredentials,
    /// `hello.token`: the token has expired; log in again.
    TokenExpired,
    /// The request needs an account (rated play, the queue, `logout`); you
    /// are a guest.
    LoginRequired,
    /// `become_bot`: the account has played a game (or sits at a table), so
    /// it stays a person's.
    AlreadyPlayed,
    /// A bot's filters refuse this challenge: outside the rule sets, time
    /// controls, casual games or kinds of opponent it takes (the message
    /// says which).
    BotRefused,
    /// The account is banned: `ban` says why and until when. Login and
    /// `hello` with its token are refused; its connections are closed.
    Banned,
    /// The request needs a role the account lacks (moderator, admin).
    Forbidden,
    /// The other player blocks you (or you them): no challenge, no pairing.
    Blocked,
    /// A fair-play wait before the next rated game: `retry_after_ms` says
    /// how long.
    Playbanned,
    /// A tournament takes no entries now (it has started or is over), or cannot start or be changed now (the message says why).
    TournamentClosed,
    /// `join_tournament`: you are entered already.
    AlreadyJoined,
    /// `withdraw_tournament`: you are not entered (or withdrew already).
    NotJoined,
    /// `join_tournament`: an entry limit is not met (rating range, accounts only, no bots, the event is full; the message says which).
    EntryRefused,
    /// `start_tournament`: too few players are entered.
    TooFewPlayers,
    /// Only the tournament's organiser may do this (`start_tournament`).
    NotOrganiser,
    /// `reset_rating`: this game's rating changes were reversed already.
    AlreadyReset,
    /// `reset_rating`: the game changed no rating (casual, or aborted).
    NotRated,
    /// `claim_absence`: the opponent is not away past the grace (or is
    /// back), you are away yourself, or the server settles this game's
    /// absences itself (untimed, tournament and bot games).
    NotAbsent,
    /// A code this version of the protocol does not know (a newer server's):
    /// decoding maps any unknown code here. Never sent.
    #[serde(other)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    Other,
}

impl ErrorCode {
    /// Every code a server sends, in documentation order.
    pub const ALL: [ErrorCode; 41] = [
        ErrorCode::BadFrame,
        ErrorCode::UnknownType,
        ErrorCode::BadRequest,
        ErrorCode::TooLarge,
        ErrorCode::UnsupportedVersion,
        ErrorCode::HelloRequired,
        ErrorCode::RateLimited,
        ErrorCode::NotFound,
        ErrorCode::RoomFull,
        ErrorCode::NotAPlayer,
        ErrorCode::WrongTable,
        ErrorCode::AlreadySeated,
        ErrorCode::GameInProgress,
        ErrorCode::LimitReached,
        ErrorCode::InvalidConfig,
        ErrorCode::Game,
        ErrorCode::Unavailable,
        ErrorCode::Internal,
        ErrorCode::ChatOff,
        ErrorCode::NoRematch,
        ErrorCode::NameTaken,
        ErrorCode::InvalidName,
        ErrorCode::WeakPassword,
        ErrorCode::BadCredentials,
        ErrorCode::TokenExpired,
        ErrorCode::LoginRequired,
        ErrorCode::AlreadyPlayed,
        ErrorCode::BotRefused,
        ErrorCode::Banned,
        ErrorCode::Forbidden,
        ErrorCode::Blocked,
        ErrorCode::Playbanned,
        ErrorCode::TournamentClosed,
        ErrorCode::AlreadyJoined,
        ErrorCode::NotJoined,
        ErrorCode::EntryRefused,
        ErrorCode::TooFewPlayers,
        ErrorCode::NotOrganiser,
        ErrorCode::AlreadyReset,
        ErrorCode::NotRated,
        ErrorCode::NotAbsent,
    ];

    /// The wire name (also a good metrics label).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadFrame => "bad_frame",
            ErrorCode::UnknownType => "unknown_type",
            ErrorCode::BadRequest => "bad_request",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::UnsupportedVersion => "unsupported_version",
            ErrorCode::HelloRequired => "hello_required",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::NotFound => "not_found",
            ErrorCode::RoomFull => "room_full",
            ErrorCode::NotAPlayer => "not_a_player",
            ErrorCode::WrongTable => "wrong_table",
            ErrorCode::AlreadySeated => "already_seated",
            ErrorCode::GameInProgress => "game_in_progress",
            ErrorCode::LimitReached => "limit_reached",
            ErrorCode::InvalidConfig => "invalid_config",
            ErrorCode::Game => "game",
            ErrorCode::Unavailable => "unavailable",
            ErrorCode::Internal => "internal",
            ErrorCode::ChatOff => "chat_off",
            ErrorCode::NoRematch => "no_rematch",
            ErrorCode::NameTaken => "name_taken",
            ErrorCode::InvalidName => "invalid_name",
            ErrorCode::WeakPassword => "weak_password",
            ErrorCode::BadCredentials => "bad_credentials",
            ErrorCode::TokenExpired => "token_expired",
            ErrorCode::LoginRequired => "login_required",
            ErrorCode::AlreadyPlayed => "already_played",
            ErrorCode::BotRefused => "bot_refused",
            ErrorCode::Banned => "banned",
            ErrorCode::Forbidden => "forbidden",
            ErrorCode::Blocked => "blocked",
            ErrorCode::Playbanned => "playbanned",
            ErrorCode::TournamentClosed => "tournament_closed",
            ErrorCode::AlreadyJoined => "already_joined",
            ErrorCode::NotJoined => "not_joined",
            ErrorCode::EntryRefused => "entry_refused",
            ErrorCode::TooFewPlayers => "too_few_players",
            ErrorCode::NotOrganiser => "not_organiser",
            ErrorCode::AlreadyReset => "already_reset",
            ErrorCode::NotRated => "not_rated",
            ErrorCode::NotAbsent => "not_absent",
            ErrorCode::Other => "other",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The protocol versions a server speaks, inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Versions {
    pub min: u32,
    pub max: u32,
}

impl Versions {
    pub fn contains(self, version: u32) -> bool {
        (self.min..=self.max).contains(&version)
    }
}

/// The body of an `error` message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ErrorBody {
    pub code: ErrorCode,
    /// For people and logs; wording may change at any time.
    pub message: String,
    /// With code `game`: the referee's refusal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_error: Option<GameError>,
    /// With code `unsupported_version`: what the server speaks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supported: Option<Versions>,
    /// With code `rate_limited`: how long until a message is accepted again;
    /// with `unavailable` from `analyze_game` (every analysis slot busy):
    /// when to ask again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<u64>,
    /// With `banned`: the ban's reason and end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ban: Option<crate::moderation::Sanction>,
}

impl ErrorBody {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ErrorBody {
        ErrorBody {
            code,
            message: message.into(),
            game_error: None,
            supported: None,
            retry_after_ms: None,
            ban: None,
        }
    }

    /// Code `game`, with the referee's reason.
    pub fn game(err: GameError) -> ErrorBody {
        ErrorBody {
            game_error: Some(err.clone()),
            ..ErrorBody::new(ErrorCode::Game, err.to_string())
        }
    }

    /// Code `unsupported_version`.
    pub fn unsupported_version(asked: u32, supported: Versions) -> ErrorBody {
        ErrorBody {
            supported: Some(supported),
            ..ErrorBody::new(
                ErrorCode::UnsupportedVersion,
                format!(
                    "protocol version {asked} is not supported (this server speaks {} to {})",
                    supported.min, supported.max
                ),
            )
        }
    }

    /// Code `rate_limited`.
    pub fn rate_limited(retry_after_ms: u64) -> ErrorBody {
        ErrorBody {
            retry_after_ms: Some(retry_after_ms),
            ..ErrorBody::new(ErrorCode::RateLimited, "too many messages")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_snake_case_and_as_str_agrees() {
        for code in ErrorCode::ALL {
            assert_eq!(
                serde_json::to_value(code).unwrap(),
                serde_json::Value::from(code.as_str())
            );
            let back: ErrorCode = serde_json::from_value(code.as_str().into()).unwrap();
            assert_eq!(back, code);
        }
        assert!(!ErrorCode::ALL.contains(&ErrorCode::Other));
    }

    #[test]
    fn unknown_codes_from_a_newer_server_decode_as_other() {
        let b: ErrorBody =
            serde_json::from_str(r#"{"code":"quantum_flux","message":"?","extra":1}"#).unwrap();
        assert_eq!(b.code, ErrorCode::Other);
    }

    #[test]
    fn game_errors_nest_with_their_own_code() {
        let b = ErrorBody::game(GameError::NotYourTurn);
        let v = serde_json::to_value(&b).unwrap();
        assert_eq!(v["code"], "game");
        assert_eq!(v["game_error"]["code"], "not_your_turn");
        assert_eq!(v["message"], "it is not your turn to do that");
        assert!(v.get("supported").is_none());
        assert!(Versions { min: 1, max: 2 }.contains(2));
        assert!(!Versions { min: 1, max: 2 }.contains(3));
    }
}
