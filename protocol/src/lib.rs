//! The Tengen wire protocol: every message between a client and the server,
//! in one place.
//!
//! Like lila-ws keeps Lichess's socket vocabulary apart from the server that
//! speaks it, this crate is the whole contract and nothing else: the server,
//! the client library, the load generator, the terminal client and any
//! third-party bot build on the same types, so they cannot disagree about a
//! field. Game values (configurations, actions, events, prompts, snapshots,
//! refusals) are the rules crate's own types, carried unchanged: the protocol
//! never re-describes a rule. `protocol/README.md` documents the protocol for
//! clients in any language; its examples are checked against these types.
//!
//! A server's side of one exchange:
//!
//! ```
//! use tengen_protocol::*;
//!
//! let frame = br#"{"type":"join_room","room":"5yemhr9vx07jb","id":3}"#;
//! let enc = Encoding::of_frame(true); // a text frame: JSON
//! let reply = match decode_client(frame, enc) {
//!     Ok(Envelope { msg: ClientMsg::JoinRoom { room }, id }) => {
//!         Envelope::with_id(id, ServerMsg::Joined { room, seat: tengen_rules::game::Seat::Second })
//!     }
//!     Ok(other) => ServerFrame::error(other.id, ErrorBody::new(ErrorCode::Internal, "demo")),
//!     Err(e) => e.reply(), // typed error, echoing the id when it could be read
//! };
//! assert_eq!(
//!     encode_server(&reply, enc),
//!     br#"{"type":"joined","room":"5yemhr9vx07jb","seat":"second","id":3}"#
//! );
//! ```
//!
//! Modules, one concern each:
//! - [`ids`], room, table, session and request ids;
//! - [`client`], what a client sends;
//! - [`server`], what the server sends;
//! - [`lobby`], players and rooms as listed;
//! - [`ranked`], accounts and ranked play: rating families, leaderboards,
//!   profiles, histories, record exports;
//! - [`moderation`], roles, bans, mutes, blocks, reports and the audit
//!   log;
//! - [`tournament`], tournaments: what is asked, how an event is shown;
//! - [`analysis`], a finished game's forced wins, move by move;
//! - [`study`], the opening explorer, puzzles and the forbidden-point
//!   trainer;
//! - [`error`], refusals and their codes;
//! - [`close`], WebSocket close codes;
//! - [`limits`], every size, rate and time bound;
//! - [`codec`], the envelope, JSON and MessagePack, and decode failures;
//! - `schema` and `typescript` (feature `schema`), the reference generated
//!   from these types: a JSON Schema of every frame, and TypeScript
//!   declarations made from it.

pub mod analysis;
pub mod bots;
pub mod client;
pub mod close;
pub mod codec;
pub mod error;
pub mod ids;
pub mod limits;
pub mod lobby;
pub mod moderation;
pub mod ranked;
#[cfg(feature = "schema")]
pub mod schema;
pub mod server;
pub mod study;
pub mod tournament;
#[cfg(feature = "schema")]
pub mod typescript;

pub use analysis::{GameAnalysis, MoveVerdict};
pub use bots::{BotFilters, TimeKind};
pub use client::{ClientMsg, Hello, RESERVED_CLIENT_TYPES};
pub use close::CloseCode;
pub use codec::{
    ClientFrame, DecodeError, Encoding, Envelope, Message, ServerFrame, decode, decode_client,
    decode_server, encode, encode_client, encode_server,
};
pub use error::{ErrorBody, ErrorCode, Versions};
pub use ids::{IdError, RequestId, RoomId, SessionId, TableId};
pub use limits::{
    HELLO_TIMEOUT_MS, Limits, MAX_DEPTH, MAX_FRAME_BYTES, MAX_JSON_DEPTH, MAX_ROOMS_LISTED,
    MAX_SERVER_FRAME_BYTES, MAX_WS_MESSAGE_BYTES,
};
pub use lobby::{CancelReason, LobbyUpdate, Player, Players, RoomInfo, RoomStatus};
pub use moderation::{AuditItem, ModRequest, Playban, ReportItem, ReportReason, Role, Sanction};
pub use ranked::{
    FamilyRating, GameSummary, Leaderboard, LoggedIn, Profile, RatingFamily, RatingPoint,
    RecordExport, RecordFormat, SeatedTable, Standing,
};
pub use server::{
    AfterGrace, Away, ChatChannel, PauseReason, RESERVED_SERVER_TYPES, RematchCancel, ServerInfo,
    ServerMsg, TableEvent, TableSnapshot, Welcome,
};
pub use study::{
    ColorResult, ExplorerFilter, ExplorerGame, ExplorerView, NextMove, NodeStats, OfferCount,
    OpeningName, PuzzleRef, PuzzleStep, PuzzleTheme, PuzzleView, RatingBand, RatingChange, Speed,
    StepOutcome, TrainerPosition, TrainerVerdict,
};
pub use tournament::{
    BoardView, CrossCell, CrossRow, EntryLimits, ReportedResult, RoundView, StandingView,
    TieBreakName, TieBreakValue, TournamentGame, TournamentPlayer, TournamentSpec, TournamentState,
    TournamentSummary, TournamentSystem, TournamentView,
};

/// The protocol version this crate speaks. It changes only when an old
/// client could misread a new message; additions (optional fields, new
/// message types, new error codes, features) keep it.
pub const PROTOCOL_VERSION: u32 = 1;

/// The oldest version a server built from this crate still speaks.
pub const MIN_PROTOCOL_VERSION: u32 = 1;

/// The versions a server built from this crate speaks.
pub const SUPPORTED_VERSIONS: Versions = Versions {
    min: MIN_PROTOCOL_VERSION,
    max: PROTOCOL_VERSION,
};

/// The path of the WebSocket endpoint.
pub const WS_PATH: &str = "/ws";
