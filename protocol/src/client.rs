//! What a client may send: [`ClientMsg`], one variant per `type`.
//!
//! Requests name rooms and tables by id and carry rules values ([`GameConfig`],
//! [`Action`]) exactly as the rules crate defines them: the server hands them
//! to the referee unchanged and never re-describes a rule. Unknown fields are
//! ignored (a newer client may send more), so every field added later must be
//! optional. Names reserved for later versions are in
//! [`RESERVED_CLIENT_TYPES`]; until a server lists the matching feature in
//! `welcome.features` it answers them with `unknown_type`.

use serde::{Deserialize, Serialize};
use tengen_rules::game::{Action, ForbiddenPoint, GameConfig, Opening, RuleSet};
use tengen_rules::{Color, Point};

use crate::ids::{RoomId, TableId};
use crate::limits::{
    MAX_CHAT_CHARS, MAX_CLIENT_CHARS, MAX_NAME_CHARS, MAX_PASSWORD_CHARS, MAX_ROOM_NAME_CHARS,
    MAX_TOKEN_CHARS, check_text,
};
use crate::ranked::{RatingFamily, RecordFormat};
use crate::study::{ExplorerFilter, PuzzleTheme, check_study_id, parse_month};
use crate::tournament::{ReportedResult, TournamentSpec, check_tournament_id};

/// The first message of every connection.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Hello {
    /// The protocol version the client speaks ([`crate::PROTOCOL_VERSION`]).
    pub version: u32,
    /// The client's name and version, for the server's logs
    /// (`"tengen-cli/0.1.0"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client: Option<String>,
    /// The display name a guest would like; the server may alter it to keep
    /// names unique (`welcome.player.name` is the one given). Taken in its
    /// NFKC form, in one script, without invisible or direction-changing
    /// characters (`bad_request` otherwise); one that looks like a
    /// registered account's name or like `guest-<n>` gives `guest-<n>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The `resume_token` of an earlier session (from its `welcome`): if it
    /// is still valid the server resumes that session (same session id,
    /// name and seats) and says so in `welcome.resumed`; an unknown or
    /// expired token simply opens a new session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume: Option<String>,
    /// A login token (from `logged_in` or `registered`; feature
    /// `accounts`): the new session is the account's. Ignored when
    /// `resume` resumes a session. An expired, revoked or unknown token is
    /// refused (`token_expired`, `bad_credentials`) and the server waits
    /// for another `hello`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
}

/// A client message. The wire form is a map with `"type"` set to the
/// snake_case variant name and the fields below; the envelope adds `"id"`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    /// Opens the session; answered by `welcome` (or `unsupported_version`).
    Hello(Hello),
    /// Application-level ping, answered by `pong` (WebSocket pings are
    /// answered by the WebSocket layer; this one also measures the server's
    /// queueing and gives its wall clock).
    Ping,
    /// Answered by `rooms` (the full list), then `lobby_update` messages
    /// until `lobby_unsubscribe`.
    LobbySubscribe,
    /// Answered by `lobby_unsubscribed`.
    LobbyUnsubscribe,
    /// Answered by `rooms`.
    ListRooms,
    /// Opens a room with the creator in seat `first`; answered by
    /// `room_created`.
    CreateRoom {
        config: GameConfig,
        /// Listed in the lobby (`true`, the default), or joinable only by
        /// its id.
        #[serde(default = "yes")]
        public: bool,
        /// Shown in the lobby: its NFKC form, without invisible or
        /// direction-changing characters, not one that looks like another
        /// account's name or like `guest-<n>` (`invalid_name`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// Table chat on (`true`, the default) or off for this room's games.
        #[serde(default = "yes", skip_serializing_if = "is_true")]
        chat: bool,
        /// A rated game (feature `queue`): both seats must be accounts
        /// (`login_required` otherwise). `false` (casual) by default.
        #[serde(default, skip_serializing_if = "is_false")]
        rated: bool,
    },
    /// Takes the free seat; answered by `joined`, after which the game
    /// starts and both players get a `table_snapshot`.
    JoinRoom { room: RoomId },
    /// Leaves a room you sit in (not while its game runs); answered by
    /// `left`.
    LeaveRoom { room: RoomId },
    /// Withdraws the room you created, before anyone joined; answered by
    /// `room_cancelled`.
    CancelRoom { room: RoomId },
    /// Watches a table: answered by `table_snapshot`, then every
    /// `table_event`. Watching a watched table sends a fresh snapshot.
    Watch {
        table: TableId,
        /// Resuming: the last `seq` you have of this table. If the table
        /// still keeps every event after it, they are sent again in order
        /// and the reply is `replayed`; otherwise the reply is a
        /// `table_snapshot`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        since: Option<u64>,
    },
    /// Answered by `unwatched`.
    Unwatch { table: TableId },
    /// Asks the referee to apply `action` for your seat. The resulting
    /// `table_event`s go to everyone at the table, then you get `acted`.
    /// A `claim_forbidden` must name its `point` (`bad_request` without
    /// one).
    Act { table: TableId, action: Action },
    /// Your opponent is away past the grace (`player_status` with
    /// `grace_ms: 0` and `after_grace: claim`): claim the win, or with
    /// `draw`, call the game a draw. Its `game_over` event goes to
    /// everyone at the table, then you get `acted`. Refused with
    /// `not_absent` when no such claim is open. Rather wait: send nothing
    /// (the absent player's clock runs on).
    ClaimAbsence {
        table: TableId,
        #[serde(default, skip_serializing_if = "is_false")]
        draw: bool,
    },
    /// Answered by `table_snapshot` (you must sit at or watch the table).
    Snapshot { table: TableId },
    /// Says something at a table: players talk to players, spectators to
    /// spectators (spectators must not coach a player). Answered by the
    /// `chat` message itself (with your id); the others of your channel get
    /// it as a push.
    Chat { table: TableId, text: String },
    /// After the game: offers (or, when the opponent offered, accepts) a
    /// rematch. Answered by `rematch_offered`, which the opponent gets
    /// too, wherever its connection is (the lobby included); when both have
    /// offered, a new game starts at a new table with the opener switched,
    /// in the same room (or a new one like it, if both players left it).
    /// An offer stands while the finished table stays open.
    Rematch { table: TableId },
    /// Declines the opponent's rematch offer, or withdraws your own:
    /// answered by `rematch_cancelled`, which the opponent gets too.
    DeclineRematch { table: TableId },
    /// Challenges the player online under `player` (its exact name) to a
    /// game: a private room is created for you as with `create_room`
    /// (answered by `room_created`), and the player is sent `challenged`.
    /// They accept with `join_room` or refuse with `decline_challenge`; you
    /// may withdraw with `cancel_room`.
    Challenge {
        player: String,
        config: GameConfig,
        /// Table chat on (`true`, the default) or off.
        #[serde(default = "yes", skip_serializing_if = "is_true")]
        chat: bool,
        /// A rated game (feature `accounts`): both players must be
        /// accounts, and the result updates their ratings as a game from
        /// the rated queue does. `false`, the default: casual.
        #[serde(default, skip_serializing_if = "is_false")]
        rated: bool,
    },
    /// Refuses a challenge; answered by `room_cancelled` (reason
    /// `declined`), which the challenger gets too.
    DeclineChallenge { room: RoomId },
    /// Creates an account and logs this session in to it (feature
    /// `accounts`); answered by `registered`.
    Register { name: String, password: String },
    /// Logs this session in to an account; answered by `logged_in`.
    Login { name: String, password: String },
    /// Logs out: revokes the login token and makes this session a guest
    /// again; answered by `logged_out`. Every other session that holds the
    /// same token is closed with 4007.
    Logout,
    /// Logs the account out everywhere: revokes every login token it has
    /// (those of other devices too), closes every other session of it on
    /// every node with 4007, and makes this session a guest again;
    /// answered by `logged_out`.
    LogoutEverywhere,
    /// Waits for a rated opponent for `config` (feature `queue`); answered
    /// by `queued`, then a `matched` push when paired.
    Queue {
        config: GameConfig,
        /// A person's consent to be paired with a bot account (`false`, the
        /// default: never). A bot's own entry ignores it: bots are paired
        /// with bots and with people who said yes.
        #[serde(default, skip_serializing_if = "is_false")]
        bots: bool,
    },
    /// Makes this account a bot account, for good (feature `bots`):
    /// allowed only before its first game; answered by `became_bot`.
    BecomeBot,
    /// A casual game against the server's own bot (feature `computer`) at
    /// `level` of its ladder (1, a beginner's opponent, to 5, the
    /// strongest): opens a private room of `config` with you in seat
    /// `first`, answered by `room_created`; the computer then takes the
    /// other seat and the game starts as any room's does. One-board rule
    /// sets only. `unavailable` (with `retry_after_ms`) while the server
    /// plays as many such games as it allows at once.
    PlayComputer {
        config: GameConfig,
        level: u8,
        /// The colour you start with: black opens (under an opening rule,
        /// the tentative black who lays the opening; a swap may change
        /// it). Absent: drawn by lot, as in any room.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        colour: Option<Color>,
    },
    /// A bot account's challenge filters (replacing earlier ones; kept
    /// while the server runs); answered by `bot_filters_set`.
    SetBotFilters { filters: crate::BotFilters },
    /// Leaves the queue; answered by `unqueued`.
    Unqueue,
    /// A family's leaderboard; answered by `leaderboard`.
    Leaderboard {
        family: RatingFamily,
        /// Bot accounts' leaderboard instead of people's (feature `bots`;
        /// `false`, the default: people only).
        #[serde(default, skip_serializing_if = "is_false")]
        bots: bool,
    },
    /// A registered player's ratings; answered by `profile`.
    Profile { player: String },
    /// A player's finished games, newest first, a page at a time (`before`:
    /// the `finished_ms` of the last game of the previous page); answered
    /// by `history`.
    History {
        player: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        before: Option<u64>,
    },
    /// A game's record in `format`; answered by `game_record`. A game
    /// still running is answered by its table (for its players and
    /// spectators): the record so far, without a result.
    GameRecord { game: TableId, format: RecordFormat },
    /// A finished game's forced wins, move by move (feature `analysis`):
    /// for each move, whether the side to move had a VCF (and, with `vct`,
    /// a VCT) and whether the move played kept it; answered by
    /// `game_analysis`. The search runs on the server with a fixed budget
    /// per position, a few games at a time server-wide (more are refused
    /// as `unavailable` with `retry_after_ms`).
    AnalyzeGame {
        game: TableId,
        #[serde(default, skip_serializing_if = "is_false")]
        vct: bool,
    },
    /// The tables where the logged-in account's sessions sit, whichever
    /// connection (or none) holds them now, each with the session's
    /// resume token (feature `accounts`); answered by `my_tables`. Guests
    /// are refused with `login_required`.
    MyTables,
    /// A moderator's or an admin's action ([`crate::moderation`]).
    Moderate(crate::moderation::ModRequest),
    /// Blocks a player: never paired with you, their challenges and chat
    /// never reach you. Answered by `blocks`.
    Block { player: String },
    /// Lifts a block. Answered by `blocks`.
    Unblock { player: String },
    /// Reports a player (and perhaps a game) to the moderators.
    Report {
        player: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<TableId>,
        reason: crate::moderation::ReportReason,
        text: String,
    },
    /// Creates a tournament you organise; answered by `tournament_created`.
    CreateTournament { tournament: TournamentSpec },
    /// Answered by `tournament_list`: every event the server keeps.
    Tournaments,
    /// Answered by `tournament_info`: the event in full.
    Tournament { tournament: String },
    /// Enters you (an account, within the entry limits); answered by `tournament_joined`.
    JoinTournament { tournament: String },
    /// Leaves the event (after its start your remaining games are forfeited); answered by `tournament_withdrawn`.
    WithdrawTournament { tournament: String },
    /// The organiser starts the event now (round 1 is paired); answered by `tournament_started`.
    StartTournament { tournament: String },
    /// Answered by `tournament_info`, then `tournament_update` at every change until `unwatch_tournament`.
    WatchTournament { tournament: String },
    /// Answered by `tournament_unwatched`.
    UnwatchTournament { tournament: String },
    /// Answered by `tournament_exported`: the crosstable and a TRF file.
    TournamentExport { tournament: String },
    /// The organiser records a game's result (as an arbiter: a game
    /// played elsewhere, an adjudication, a forfeit); answered by
    /// `tournament_recorded`. `board` and `round` count from 1, `game`
    /// (within a knockout match) from 0.
    TournamentResult {
        tournament: String,
        round: u32,
        board: u32,
        #[serde(default)]
        game: u32,
        result: ReportedResult,
    },
    /// The organiser ends a running event now (its current round must be
    /// over): no more rounds, the standings are final. Answered by
    /// `tournament_ended`.
    EndTournament { tournament: String },
    /// The organiser pairs a Swiss round by hand (when the rules leave
    /// none, see `tournament_stalled`): `boards` as [first seat, second
    /// seat] player names, every player still in the event placed once.
    /// Answered by `tournament_paired`.
    PairTournament {
        tournament: String,
        round: u32,
        boards: Vec<[String; 2]>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bye: Option<String>,
    },
    /// The opening explorer (feature `explorer`): the position after
    /// `moves` (from the empty board, in play order, in any orientation)
    /// among the finished games of `rule_set` and `opening` on
    /// `board_size` (the rule set's default when absent), counted over the
    /// games `filter` admits; answered by `explorer`.
    Explore {
        rule_set: RuleSet,
        opening: Opening,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        board_size: Option<u8>,
        #[serde(default)]
        moves: Vec<Point>,
        #[serde(default)]
        filter: ExplorerFilter,
    },
    /// A puzzle to solve (feature `puzzles`): one near your puzzle rating
    /// that you have not tried, of `theme` if given; answered by `puzzle`.
    NextPuzzle {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        theme: Option<PuzzleTheme>,
    },
    /// A puzzle by id (a game's `game_puzzles` lists them); answered by
    /// `puzzle`.
    Puzzle { puzzle: String },
    /// Today's puzzle, the same for everyone (UTC days); answered by
    /// `puzzle`.
    DailyPuzzle,
    /// Your move in a try (`attempt`, from `puzzle`): judged by the
    /// referee and the solver, answered by `puzzle_step` with the
    /// defender's reply, or the end of the try.
    PuzzleMove { attempt: String, point: Point },
    /// The puzzles made from a finished game; answered by `game_puzzles`.
    GamePuzzles { game: TableId },
    /// A forbidden-point exercise (feature `trainer`); answered by
    /// `trainer_position`.
    TrainerNext,
    /// Your answer to exercise `position`: every point you judge
    /// forbidden for black, with its kind; answered by `trainer_verdict`.
    TrainerAnswer {
        position: String,
        marks: Vec<ForbiddenPoint>,
    },
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The most moves an `explore` may name (and marks a `trainer_answer`):
/// every point of the largest board.
pub const MAX_EXPLORE_MOVES: usize = 361;

/// Type names kept for later versions. None at present.
pub const RESERVED_CLIENT_TYPES: &[&str] = &[];

impl ClientMsg {
    /// Every `type` of this version, in documentation order.
    pub const TYPES: &'static [&'static str] = &[
        "hello",
        "ping",
        "lobby_subscribe",
        "lobby_unsubscribe",
        "list_rooms",
        "create_room",
        "join_room",
        "leave_room",
        "cancel_room",
        "watch",
        "unwatch",
        "act",
        "snapshot",
        "chat",
        "rematch",
        "decline_rematch",
        "claim_absence",
        "challenge",
        "decline_challenge",
        "register",
        "login",
        "logout",
        "logout_everywhere",
        "queue",
        "unqueue",
        "become_bot",
        "play_computer",
        "set_bot_filters",
        "leaderboard",
        "profile",
        "history",
        "game_record",
        "analyze_game",
        "my_tables",
        "moderate",
        "block",
        "unblock",
        "report",
        "create_tournament",
        "tournaments",
        "tournament",
        "join_tournament",
        "withdraw_tournament",
        "start_tournament",
        "watch_tournament",
        "unwatch_tournament",
        "tournament_export",
        "tournament_result",
        "end_tournament",
        "pair_tournament",
        "explore",
        "next_puzzle",
        "puzzle",
        "daily_puzzle",
        "puzzle_move",
        "game_puzzles",
        "trainer_next",
        "trainer_answer",
    ];

    /// This message's `type`.
    pub fn type_name(&self) -> &'static str {
        match self {
            ClientMsg::Hello(_) => "hello",
            ClientMsg::Ping => "ping",
            ClientMsg::LobbySubscribe => "lobby_subscribe",
            ClientMsg::LobbyUnsubscribe => "lobby_unsubscribe",
            ClientMsg::ListRooms => "list_rooms",
            ClientMsg::CreateRoom { .. } => "create_room",
            ClientMsg::JoinRoom { .. } => "join_room",
            ClientMsg::LeaveRoom { .. } => "leave_room",
            ClientMsg::CancelRoom { .. } => "cancel_room",
            ClientMsg::Watch { .. } => "watch",
            ClientMsg::Unwatch { .. } => "unwatch",
            ClientMsg::Act { .. } => "act",
            ClientMsg::Snapshot { .. } => "snapshot",
            ClientMsg::Chat { .. } => "chat",
            ClientMsg::Rematch { .. } => "rematch",
            ClientMsg::DeclineRematch { .. } => "decline_rematch",
            ClientMsg::ClaimAbsence { .. } => "claim_absence",
            ClientMsg::Challenge { .. } => "challenge",
            ClientMsg::DeclineChallenge { .. } => "decline_challenge",
            ClientMsg::Register { .. } => "register",
            ClientMsg::Login { .. } => "login",
            ClientMsg::Logout => "logout",
            ClientMsg::LogoutEverywhere => "logout_everywhere",
            ClientMsg::Queue { .. } => "queue",
            ClientMsg::Unqueue => "unqueue",
            ClientMsg::BecomeBot => "become_bot",
            ClientMsg::PlayComputer { .. } => "play_computer",
            ClientMsg::SetBotFilters { .. } => "set_bot_filters",
            ClientMsg::Leaderboard { .. } => "leaderboard",
            ClientMsg::Profile { .. } => "profile",
            ClientMsg::History { .. } => "history",
            ClientMsg::GameRecord { .. } => "game_record",
            ClientMsg::AnalyzeGame { .. } => "analyze_game",
            ClientMsg::MyTables => "my_tables",
            ClientMsg::Moderate(_) => "moderate",
            ClientMsg::Block { .. } => "block",
            ClientMsg::Unblock { .. } => "unblock",
            ClientMsg::Report { .. } => "report",
            ClientMsg::CreateTournament { .. } => "create_tournament",
            ClientMsg::Tournaments => "tournaments",
            ClientMsg::Tournament { .. } => "tournament",
            ClientMsg::JoinTournament { .. } => "join_tournament",
            ClientMsg::WithdrawTournament { .. } => "withdraw_tournament",
            ClientMsg::StartTournament { .. } => "start_tournament",
            ClientMsg::WatchTournament { .. } => "watch_tournament",
            ClientMsg::UnwatchTournament { .. } => "unwatch_tournament",
            ClientMsg::TournamentExport { .. } => "tournament_export",
            ClientMsg::TournamentResult { .. } => "tournament_result",
            ClientMsg::EndTournament { .. } => "end_tournament",
            ClientMsg::PairTournament { .. } => "pair_tournament",
            ClientMsg::Explore { .. } => "explore",
            ClientMsg::NextPuzzle { .. } => "next_puzzle",
            ClientMsg::Puzzle { .. } => "puzzle",
            ClientMsg::DailyPuzzle => "daily_puzzle",
            ClientMsg::PuzzleMove { .. } => "puzzle_move",
            ClientMsg::GamePuzzles { .. } => "game_puzzles",
            ClientMsg::TrainerNext => "trainer_next",
            ClientMsg::TrainerAnswer { .. } => "trainer_answer",
        }
    }

    /// The checks serde cannot express: lengths and characters of
    /// free-text fields. (Ids check themselves when decoded; a
    /// configuration's validity is the referee's to judge, reported as
    /// `invalid_config`.)
    pub fn validate(&self) -> Result<(), String> {
        match self {
            // Each list names distinct values: no longer than there are.
            ClientMsg::SetBotFilters { filters } => {
                if filters.rule_sets.len() > 3 || filters.time_kinds.len() > 6 {
                    return Err("bot filters name at most 3 rule sets and 6 time kinds".into());
                }
                Ok(())
            }
            ClientMsg::Hello(h) => {
                if let Some(c) = &h.client {
                    check_text("client", c, MAX_CLIENT_CHARS)?;
                }
                if let Some(n) = &h.name {
                    check_text("name", n, MAX_NAME_CHARS)?;
                }
                if let Some(t) = &h.token {
                    check_text("token", t, MAX_TOKEN_CHARS)?;
                }
                Ok(())
            }
            ClientMsg::CreateRoom { name: Some(n), .. } => {
                check_text("name", n, MAX_ROOM_NAME_CHARS)
            }
            ClientMsg::Chat { text, .. } => check_text("text", text, MAX_CHAT_CHARS),
            ClientMsg::Moderate(m) => m.validate(),
            ClientMsg::Report { player, text, .. } => {
                check_text("player", player, MAX_NAME_CHARS)?;
                check_text("text", text, crate::moderation::MAX_REASON_CHARS)
            }
            ClientMsg::Challenge { player, .. }
            | ClientMsg::Block { player }
            | ClientMsg::Unblock { player }
            | ClientMsg::Profile { player }
            | ClientMsg::History { player, .. } => check_text("player", player, MAX_NAME_CHARS),
            ClientMsg::Register { name, password } | ClientMsg::Login { name, password } => {
                check_text("name", name, MAX_NAME_CHARS)?;
                if password.is_empty() || password.chars().count() > MAX_PASSWORD_CHARS {
                    return Err(format!(
                        "password must have 1 to {MAX_PASSWORD_CHARS} characters"
                    ));
                }
                Ok(())
            }
            ClientMsg::CreateTournament { tournament } => tournament.validate(),
            ClientMsg::Tournament { tournament }
            | ClientMsg::JoinTournament { tournament }
            | ClientMsg::WithdrawTournament { tournament }
            | ClientMsg::StartTournament { tournament }
            | ClientMsg::WatchTournament { tournament }
            | ClientMsg::UnwatchTournament { tournament }
            | ClientMsg::TournamentExport { tournament }
            | ClientMsg::TournamentResult { tournament, .. }
            | ClientMsg::EndTournament { tournament } => check_tournament_id(tournament),
            ClientMsg::PairTournament {
                tournament,
                boards,
                bye,
                ..
            } => {
                check_tournament_id(tournament)?;
                if boards.len() > crate::tournament::MAX_BOARDS {
                    return Err(format!("at most {} boards", crate::tournament::MAX_BOARDS));
                }
                for name in boards.iter().flatten().chain(bye) {
                    check_text("name", name, MAX_NAME_CHARS)?;
                }
                Ok(())
            }
            ClientMsg::Explore { moves, filter, .. } => {
                if moves.len() > MAX_EXPLORE_MOVES {
                    return Err(format!("at most {MAX_EXPLORE_MOVES} moves"));
                }
                if let Some(p) = &filter.player {
                    check_text("player", p, MAX_NAME_CHARS)?;
                }
                for month in [&filter.since, &filter.until].into_iter().flatten() {
                    if parse_month(month).is_none() {
                        return Err(format!("'{month}' is not a month like 2026-01"));
                    }
                }
                if filter.speeds.len() > 6 || filter.bands.len() > 7 {
                    return Err("a filter names each speed and band at most once".into());
                }
                Ok(())
            }
            ClientMsg::Puzzle { puzzle } => check_study_id("puzzle", puzzle),
            ClientMsg::PuzzleMove { attempt, .. } => check_study_id("attempt", attempt),
            ClientMsg::TrainerAnswer { position, marks } => {
                if marks.len() > MAX_EXPLORE_MOVES {
                    return Err(format!("at most {MAX_EXPLORE_MOVES} marks"));
                }
                check_study_id("position", position)
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_names_do_not_collide() {
        for r in RESERVED_CLIENT_TYPES {
            assert!(!ClientMsg::TYPES.contains(r), "{r}");
        }
    }

    #[test]
    fn create_room_defaults_to_public() {
        let m: ClientMsg = serde_json::from_str(
            r#"{"type":"create_room","config":{"rule_set":"renju","opening":"free","board_size":15,"time":{"kind":"unlimited"}}}"#,
        )
        .unwrap();
        assert!(matches!(
            m,
            ClientMsg::CreateRoom {
                public: true,
                name: None,
                ..
            }
        ));
    }

    #[test]
    fn validation_bounds_free_text() {
        let hello = |name: &str| {
            ClientMsg::Hello(Hello {
                resume: None,
                version: 1,
                client: None,
                name: Some(name.to_string()),
                token: None,
            })
        };
        assert!(hello("Ann").validate().is_ok());
        assert!(hello(&"x".repeat(MAX_NAME_CHARS + 1)).validate().is_err());
        assert!(hello("tab\there").validate().is_err());
        assert!(ClientMsg::Ping.validate().is_ok());
    }
}
