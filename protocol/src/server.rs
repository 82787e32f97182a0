//! What the server sends: [`ServerMsg`], one variant per `type`.
//!
//! Replies echo the request's `id` (in the envelope); pushes (lobby updates,
//! table events, spectator counts, a game's start) carry none. Table events
//! carry the rules crate's [`Event`] and [`Prompt`] unchanged, numbered by
//! `seq` per table, so every subscriber of a table gets byte-identical frames
//! (serialized once, sent many times) and a client renders a game from them
//! without knowing a single rule. A client must ignore message types and
//! fields it does not know.

use serde::{Deserialize, Serialize};
use tengen_rules::game::{
    ClockSnapshot, Event, ForbiddenPoint, GameConfig, Prompt, Seat, Snapshot,
};

use crate::analysis::GameAnalysis;
use crate::error::ErrorBody;
use crate::ids::{RoomId, SessionId, TableId};
use crate::limits::Limits;
use crate::lobby::{CancelReason, LobbyUpdate, Player, Players, RoomInfo};
use crate::ranked::{GameSummary, Leaderboard, LoggedIn, Profile, RecordExport, SeatedTable};
use crate::study::{
    ExplorerView, PuzzleRef, PuzzleStep, PuzzleView, TrainerPosition, TrainerVerdict,
};
use crate::tournament::{TournamentSummary, TournamentView};

/// The server's name and build, for logs and bug reports.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ServerInfo {
    pub name: String,
    pub version: String,
}

/// The answer to `hello`: the session is open.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Welcome {
    /// The protocol version this session speaks (the client's).
    pub version: u32,
    pub server: ServerInfo,
    pub session: SessionId,
    /// You, as others will see you.
    pub player: Player,
    pub limits: Limits,
    /// Optional features this server offers beyond this version's messages
    /// (later: `"resume"`, `"chat"`, `"rematch"`, `"accounts"`, `"queue"`).
    /// A client uses a reserved message only if its feature is listed.
    #[serde(default)]
    pub features: Vec<String>,
    /// Keep it: `hello.resume` with this token after a dropped connection
    /// resumes this session (valid while the session lives; see the
    /// README's "Reconnecting").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume_token: Option<String>,
    /// Whether this `hello` resumed an earlier session.
    #[serde(default, skip_serializing_if = "is_false")]
    pub resumed: bool,
    /// When resumed: the tables where you sit (send `watch` with `since`
    /// for each to get what you missed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tables: Vec<TableId>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Who may read a chat message: the two players, or the spectators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ChatChannel {
    Players,
    Spectators,
}

/// A table's whole public state, sent when you start playing or watching it
/// and on `snapshot` requests. Events with `seq` greater than this `seq`
/// follow; apply none with a smaller or equal one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TableSnapshot {
    pub table: TableId,
    pub room: RoomId,
    /// The `seq` of the last event the snapshot includes (0: none yet).
    pub seq: u64,
    /// The referee's public state: configuration, opener, colours, moves,
    /// prompt, clocks, draw offer, result.
    pub snapshot: Snapshot,
    pub players: Players,
    pub spectators: u32,
    /// Your seat, or `null` when you watch.
    pub seat: Option<Seat>,
    /// Why the table's clocks stand still, if they do (see
    /// [`ServerMsg::TablePaused`]); absent while they run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<PauseReason>,
    /// In `block` and `lose` renju rooms, while black is asked for a stone:
    /// every point where black's stone would be forbidden now, as the
    /// referee judges it. Left out when empty (always in `claim` rooms).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forbidden: Vec<ForbiddenPoint>,
    /// The players away from the table now, as the last `player_status`
    /// of each told (left out when both are here).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub away: Vec<Away>,
    /// Once the game is over: the seats that have offered a rematch.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rematch: Vec<Seat>,
    /// The tournament game this table plays (no rematch then: offer the
    /// way back to the tournament instead).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<crate::tournament::TournamentGame>,
}

/// A player away from the table: its connection is lost and its clock (if
/// it is to move) runs on.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Away {
    pub seat: Seat,
    /// The time left of the grace for coming back, in milliseconds, as of
    /// the message; 0 once it is over. Absent in correspondence games,
    /// where being away is normal and nothing is counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grace_ms: Option<u64>,
    /// What happens when the grace is over (absent with `grace_ms`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after_grace: Option<AfterGrace>,
}

/// What happens when an away player's grace is over (docs/rules.md §4).
/// Nothing ends a game by itself but the clock, except where nobody is
/// there to claim.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AfterGrace {
    /// The opponent may then claim the win or call a draw
    /// (`claim_absence`), or wait; the absent player's clock runs on.
    Claim,
    /// The server gives the opponent the win: nobody is there to claim
    /// (an untimed room, a tournament game, an opponent that is a bot).
    Win,
    /// Both players are away and fewer than two moves stand: the game is
    /// aborted.
    Abort,
    /// Both players are away in an untimed game: it is drawn.
    Draw,
    /// Both players are away: the clocks decide, nothing else.
    Clock,
    /// A value this version does not know (a newer server's). Never sent.
    #[serde(other)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    Other,
}

/// Why a rematch offer is gone.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RematchCancel {
    /// `seat` declined the opponent's offer (`decline_rematch`).
    Declined,
    /// `seat` withdrew its own offer (`decline_rematch`).
    Withdrawn,
    /// The finished table closed with the offer standing.
    Expired,
    /// A value this version does not know (a newer server's). Never sent.
    #[serde(other)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    Other,
}

/// Why a table's clocks stand still.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum PauseReason {
    /// The server restarted and restored the game; the clocks wait for both
    /// players to come back (or for the grace after the restart to pass).
    Restored,
    /// The server cannot save actions right now: actions are refused with
    /// `unavailable` until it can again.
    Store,
}

/// One thing that happened at a table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TableEvent {
    pub table: TableId,
    /// 1 for a table's first event, then +1 for each: no gaps, no repeats.
    pub seq: u64,
    pub event: Event,
    /// What the referee waits for once the step that produced this event
    /// is complete (the same on every event of one step); `null` when the
    /// game is over.
    pub prompt: Option<Prompt>,
    /// As [`TableSnapshot::forbidden`], once the step is complete (the same
    /// on every event of one step). Left out when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forbidden: Vec<ForbiddenPoint>,
}

impl TableEvent {
    /// Numbers the events of one step (one action, one tick) after
    /// `last_seq`, each carrying the prompt that follows the step.
    pub fn stamp(
        table: &TableId,
        last_seq: u64,
        events: impl IntoIterator<Item = Event>,
        prompt: Option<&Prompt>,
    ) -> Vec<TableEvent> {
        events
            .into_iter()
            .zip(last_seq + 1..)
            .map(|(event, seq)| TableEvent {
                table: table.clone(),
                seq,
                event,
                prompt: prompt.cloned(),
                forbidden: Vec::new(),
            })
            .collect()
    }
}

/// A server message. The wire form is a map with `"type"` set to the
/// snake_case variant name and the fields below; the envelope adds `"id"`
/// to replies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// Reply to `hello`.
    Welcome(Welcome),
    /// Reply to any request that was refused (see [`crate::ErrorCode`]).
    Error(ErrorBody),
    /// Reply to `ping`, with the server's wall clock (Unix milliseconds).
    Pong { time_ms: u64 },
    /// Reply to `list_rooms` and `lobby_subscribe`: open rooms and live
    /// games, at most [`crate::MAX_ROOMS_LISTED`].
    Rooms {
        rooms: Vec<RoomInfo>,
        #[serde(default)]
        truncated: bool,
    },
    /// Push to lobby subscribers, coalesced (at most about one a second).
    LobbyUpdate(LobbyUpdate),
    /// Reply to `lobby_unsubscribe`.
    LobbyUnsubscribed,
    /// Reply to `create_room`.
    RoomCreated { room: RoomId, seat: Seat },
    /// Reply to `join_room`.
    Joined { room: RoomId, seat: Seat },
    /// Reply to `leave_room`.
    Left { room: RoomId },
    /// Reply to `cancel_room`, or a push to the creator when the server
    /// cancels the room.
    RoomCancelled { room: RoomId, reason: CancelReason },
    /// Reply to `watch` and `snapshot`; a push to both players when their
    /// game starts.
    // Boxed: it is by far the largest message.
    TableSnapshot(Box<TableSnapshot>),
    /// Push to a table's players and spectators.
    TableEvent(TableEvent),
    /// Reply to `act`, after the events the action produced: `seq` is the
    /// last of them.
    Acted { table: TableId, seq: u64 },
    /// Push: the table's spectator count changed (coalesced).
    Spectators { table: TableId, count: u32 },
    /// Reply to `unwatch`.
    Unwatched { table: TableId },
    /// Reply to `watch` with `since`, after the missed events it sent
    /// again: `seq` is the table's last.
    Replayed {
        table: TableId,
        since: u64,
        seq: u64,
    },
    /// Push to a table's players and spectators: a player's connection was
    /// lost (`connected: false`) or is back. While away: `grace_ms` is the
    /// time left to come back (its clock keeps running meanwhile), and
    /// `after_grace` what happens then ([`AfterGrace`]). When the grace is
    /// over and the opponent may claim, it comes again with `grace_ms: 0`
    /// (`after_grace: claim`): offer "claim the win", "call a draw" and
    /// "wait" (`claim_absence`). It comes again, too, when the other
    /// player's coming or going changes `after_grace`. No `grace_ms`: a
    /// correspondence game, where nothing is counted.
    PlayerStatus {
        table: TableId,
        seat: Seat,
        connected: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        grace_ms: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        after_grace: Option<AfterGrace>,
    },
    /// Push to a table's players and spectators: its clocks stopped
    /// (`paused` says why) or run again (`paused` absent). `clocks` are the
    /// figures they stand at or restart from; render them without counting
    /// down while paused.
    TablePaused {
        table: TableId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        paused: Option<PauseReason>,
        clocks: Option<ClockSnapshot>,
    },
    /// A chat message, to its channel (the sender gets it as the reply).
    Chat {
        table: TableId,
        channel: ChatChannel,
        from: Player,
        text: String,
    },
    /// Reply to `rematch`, and a push to the opponent wherever its
    /// connection is (at the table or in the lobby): `seat` offers (or
    /// accepts) a rematch. The push names who offers (`from`), the room
    /// and its configuration, so a lobby can show it; accept with
    /// `rematch` on `table`, decline with `decline_rematch`.
    RematchOffered {
        table: TableId,
        seat: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<Player>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        room: Option<RoomId>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        config: Option<GameConfig>,
    },
    /// Reply to `decline_rematch`, and a push to the other player (or to
    /// both, `seat` absent, when the finished table closes with an offer
    /// standing): the rematch offers of `table` are gone.
    RematchCancelled {
        table: TableId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        reason: RematchCancel,
    },
    /// Push to the old table's players and spectators: the rematch runs at
    /// `rematch` (its `table_snapshot` follows for the players).
    RematchStarted {
        table: TableId,
        rematch: TableId,
        room: RoomId,
    },
    /// Push: `from` challenges you to a game in the private room `room`
    /// with this configuration. Accept with `join_room`, refuse with
    /// `decline_challenge`.
    Challenged {
        room: RoomId,
        from: Player,
        config: GameConfig,
        /// A rated challenge (absent: casual).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        rated: bool,
    },
    /// Reply to `register`: the account exists and this session is logged
    /// in to it.
    Registered(LoggedIn),
    /// Reply to `login`.
    LoggedIn(LoggedIn),
    /// Reply to `logout`: the token is revoked and you are `player`, a
    /// guest, again.
    LoggedOut { player: Player },
    /// Reply to `queue`: you wait for an opponent for `config`.
    Queued { config: GameConfig },
    /// Reply to `unqueue`.
    Unqueued,
    /// Reply to `become_bot`: you are `player` (`bot: true`) from now on.
    BecameBot { player: Player },
    /// Reply to `set_bot_filters`: the filters now in force.
    BotFiltersSet { filters: crate::BotFilters },
    /// Push to both players the matchmaker paired: a rated game in `room`
    /// at `table` against `opponent`, you in `seat`. The table's
    /// `table_snapshot` follows. Also pushed when a tournament's game
    /// starts: then `tournament` says which game it is (rated or not as
    /// the tournament is).
    Matched {
        room: RoomId,
        table: TableId,
        seat: Seat,
        opponent: Player,
        config: GameConfig,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tournament: Option<crate::tournament::TournamentGame>,
    },
    /// Reply to `leaderboard`.
    Leaderboard(Leaderboard),
    /// Reply to `profile`.
    Profile(Box<Profile>),
    /// Reply to `history`: a page of `player`'s finished games, newest
    /// first; `more`: older games exist (ask with `before` set to the last
    /// one's `finished_ms`).
    History {
        player: String,
        games: Vec<GameSummary>,
        #[serde(default, skip_serializing_if = "is_false")]
        more: bool,
    },
    /// Reply to `game_record`.
    GameRecord(RecordExport),
    /// Reply to `analyze_game`.
    GameAnalysis(GameAnalysis),
    /// Reply to `my_tables`: where the account's sessions sit.
    MyTables { tables: Vec<SeatedTable> },
    /// A moderator's action was done (and written to the audit log).
    Moderated { action: String, target: String },
    /// Push to everyone seated in or watching room `room`: a moderator
    /// closed it (`reason`); it is gone from the lobby, and a game in it
    /// was aborted.
    RoomClosed { room: RoomId, reason: String },
    /// Push to the players and spectators of `table`, after its final
    /// `game_over` event: a moderator aborted the game (`reason`).
    GameAborted { table: TableId, reason: String },
    /// The audit log, newest first (reply to `moderate` `audit_log`).
    AuditLog {
        entries: Vec<crate::moderation::AuditItem>,
    },
    /// The open reports, oldest first (reply to `moderate` `reports`).
    Reports {
        reports: Vec<crate::moderation::ReportItem>,
    },
    /// The groups of accounts whose names look alike, each two or more
    /// names (reply to `moderate` `lookalikes`; at most 500 groups).
    Lookalikes { groups: Vec<Vec<String>> },
    /// The players you block now (reply to `block` and `unblock`).
    Blocks { players: Vec<String> },
    /// Your report is queued for the moderators.
    Reported { report: String },
    /// Reply to `create_tournament`.
    TournamentCreated { tournament: TournamentSummary },
    /// Reply to `tournaments`: newest first.
    TournamentList { tournaments: Vec<TournamentSummary> },
    /// Reply to `tournament` and `watch_tournament`.
    TournamentInfo { tournament: Box<TournamentView> },
    /// Reply to `join_tournament`.
    TournamentJoined { tournament: String },
    /// Reply to `withdraw_tournament`.
    TournamentWithdrawn { tournament: String },
    /// Reply to `start_tournament`.
    TournamentStarted { tournament: String },
    /// Push to a tournament's watchers at every change (entries, pairings, results).
    TournamentUpdate { tournament: Box<TournamentView> },
    /// Reply to `unwatch_tournament`.
    TournamentUnwatched { tournament: String },
    /// Reply to `tournament_export`.
    TournamentExported {
        tournament: String,
        crosstable: String,
        trf: String,
    },
    /// Reply to `tournament_result`.
    TournamentRecorded { tournament: String },
    /// Reply to `end_tournament`.
    TournamentEnded { tournament: String },
    /// Reply to `pair_tournament`.
    TournamentPaired { tournament: String, round: u32 },
    /// Push to the organiser and the players (connected to the directing
    /// node) when a round cannot be paired: no pairing satisfies the
    /// rules. The event waits for the organiser: `pair_tournament` or
    /// `end_tournament`. Also in the view as `stalled`.
    TournamentStalled {
        tournament: String,
        round: u32,
        reason: String,
    },
    /// Reply to `explore`.
    Explorer(Box<ExplorerView>),
    /// Reply to `next_puzzle`, `puzzle` and `daily_puzzle`: a new try.
    Puzzle(Box<PuzzleView>),
    /// Reply to `puzzle_move`.
    PuzzleStep(PuzzleStep),
    /// Reply to `game_puzzles`, in move order.
    GamePuzzles {
        game: TableId,
        puzzles: Vec<PuzzleRef>,
    },
    /// Reply to `trainer_next`.
    TrainerPosition(TrainerPosition),
    /// Reply to `trainer_answer`.
    TrainerVerdict(TrainerVerdict),
}

/// Type names kept for later versions. None at present.
pub const RESERVED_SERVER_TYPES: &[&str] = &[];

impl ServerMsg {
    /// Every `type` of this version, in documentation order.
    pub const TYPES: &'static [&'static str] = &[
        "welcome",
        "error",
        "pong",
        "rooms",
        "lobby_update",
        "lobby_unsubscribed",
        "room_created",
        "joined",
        "left",
        "room_cancelled",
        "table_snapshot",
        "table_event",
        "acted",
        "spectators",
        "unwatched",
        "replayed",
        "player_status",
        "table_paused",
        "chat",
        "rematch_offered",
        "rematch_cancelled",
        "rematch_started",
        "challenged",
        "registered",
        "logged_in",
        "logged_out",
        "queued",
        "unqueued",
        "became_bot",
        "bot_filters_set",
        "matched",
        "leaderboard",
        "profile",
        "history",
        "game_record",
        "game_analysis",
        "my_tables",
        "moderated",
        "room_closed",
        "game_aborted",
        "audit_log",
        "reports",
        "lookalikes",
        "blocks",
        "reported",
        "tournament_created",
        "tournament_list",
        "tournament_info",
        "tournament_joined",
        "tournament_withdrawn",
        "tournament_started",
        "tournament_update",
        "tournament_unwatched",
        "tournament_exported",
        "tournament_recorded",
        "tournament_ended",
        "tournament_paired",
        "tournament_stalled",
        "explorer",
        "puzzle",
        "puzzle_step",
        "game_puzzles",
        "trainer_position",
        "trainer_verdict",
    ];

    /// This message's `type`.
    pub fn type_name(&self) -> &'static str {
        match self {
            ServerMsg::Welcome(_) => "welcome",
            ServerMsg::Error(_) => "error",
            ServerMsg::Pong { .. } => "pong",
            ServerMsg::Rooms { .. } => "rooms",
            ServerMsg::LobbyUpdate(_) => "lobby_update",
            ServerMsg::LobbyUnsubscribed => "lobby_unsubscribed",
            ServerMsg::RoomCreated { .. } => "room_created",
            ServerMsg::Joined { .. } => "joined",
            ServerMsg::Left { .. } => "left",
            ServerMsg::RoomCancelled { .. } => "room_cancelled",
            ServerMsg::TableSnapshot(_) => "table_snapshot",
            ServerMsg::TableEvent(_) => "table_event",
            ServerMsg::Acted { .. } => "acted",
            ServerMsg::Spectators { .. } => "spectators",
            ServerMsg::Unwatched { .. } => "unwatched",
            ServerMsg::Replayed { .. } => "replayed",
            ServerMsg::PlayerStatus { .. } => "player_status",
            ServerMsg::TablePaused { .. } => "table_paused",
            ServerMsg::Chat { .. } => "chat",
            ServerMsg::RematchOffered { .. } => "rematch_offered",
            ServerMsg::RematchCancelled { .. } => "rematch_cancelled",
            ServerMsg::RematchStarted { .. } => "rematch_started",
            ServerMsg::Challenged { .. } => "challenged",
            ServerMsg::Registered(_) => "registered",
            ServerMsg::LoggedIn(_) => "logged_in",
            ServerMsg::LoggedOut { .. } => "logged_out",
            ServerMsg::Queued { .. } => "queued",
            ServerMsg::Unqueued => "unqueued",
            ServerMsg::BecameBot { .. } => "became_bot",
            ServerMsg::BotFiltersSet { .. } => "bot_filters_set",
            ServerMsg::Matched { .. } => "matched",
            ServerMsg::Leaderboard(_) => "leaderboard",
            ServerMsg::Profile(_) => "profile",
            ServerMsg::History { .. } => "history",
            ServerMsg::GameRecord(_) => "game_record",
            ServerMsg::GameAnalysis(_) => "game_analysis",
            ServerMsg::MyTables { .. } => "my_tables",
            ServerMsg::Moderated { .. } => "moderated",
            ServerMsg::RoomClosed { .. } => "room_closed",
            ServerMsg::GameAborted { .. } => "game_aborted",
            ServerMsg::AuditLog { .. } => "audit_log",
            ServerMsg::Reports { .. } => "reports",
            ServerMsg::Lookalikes { .. } => "lookalikes",
            ServerMsg::Blocks { .. } => "blocks",
            ServerMsg::Reported { .. } => "reported",
            ServerMsg::TournamentCreated { .. } => "tournament_created",
            ServerMsg::TournamentList { .. } => "tournament_list",
            ServerMsg::TournamentInfo { .. } => "tournament_info",
            ServerMsg::TournamentJoined { .. } => "tournament_joined",
            ServerMsg::TournamentWithdrawn { .. } => "tournament_withdrawn",
            ServerMsg::TournamentStarted { .. } => "tournament_started",
            ServerMsg::TournamentUpdate { .. } => "tournament_update",
            ServerMsg::TournamentUnwatched { .. } => "tournament_unwatched",
            ServerMsg::TournamentExported { .. } => "tournament_exported",
            ServerMsg::TournamentRecorded { .. } => "tournament_recorded",
            ServerMsg::TournamentEnded { .. } => "tournament_ended",
            ServerMsg::TournamentPaired { .. } => "tournament_paired",
            ServerMsg::TournamentStalled { .. } => "tournament_stalled",
            ServerMsg::Explorer(_) => "explorer",
            ServerMsg::Puzzle(_) => "puzzle",
            ServerMsg::PuzzleStep(_) => "puzzle_step",
            ServerMsg::GamePuzzles { .. } => "game_puzzles",
            ServerMsg::TrainerPosition(_) => "trainer_position",
            ServerMsg::TrainerVerdict(_) => "trainer_verdict",
        }
    }

    /// The table this message is about, if any (for routing in clients).
    pub fn table(&self) -> Option<&TableId> {
        match self {
            ServerMsg::TableSnapshot(s) => Some(&s.table),
            ServerMsg::TableEvent(e) => Some(&e.table),
            ServerMsg::Acted { table, .. }
            | ServerMsg::Spectators { table, .. }
            | ServerMsg::Unwatched { table }
            | ServerMsg::Replayed { table, .. }
            | ServerMsg::PlayerStatus { table, .. }
            | ServerMsg::TablePaused { table, .. }
            | ServerMsg::Chat { table, .. }
            | ServerMsg::RematchOffered { table, .. }
            | ServerMsg::RematchCancelled { table, .. }
            | ServerMsg::RematchStarted { table, .. }
            | ServerMsg::Matched { table, .. } => Some(table),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_rules::game::{Action, Game, GameConfig, RuleSet};

    #[test]
    fn reserved_names_do_not_collide() {
        for r in RESERVED_SERVER_TYPES {
            assert!(!ServerMsg::TYPES.contains(r), "{r}");
        }
    }

    #[test]
    fn stamp_numbers_one_step_and_shares_its_prompt() {
        let mut g = Game::new(GameConfig::new(RuleSet::Renju), Seat::First, 0).unwrap();
        let ev = g
            .apply(Seat::First, Action::place("H8".parse().unwrap()), 10)
            .unwrap();
        let prompt = g.prompt(10);
        let t = TableId::from_u64(9);
        let stamped = TableEvent::stamp(&t, 41, ev.clone(), prompt.as_ref());
        assert_eq!(stamped.len(), ev.len());
        assert_eq!(stamped[0].seq, 42);
        assert!(stamped.iter().all(|e| e.prompt == prompt && e.table == t));
        assert_eq!(stamped.last().unwrap().seq, 41 + ev.len() as u64);
        let msg = ServerMsg::TableEvent(stamped[0].clone());
        assert_eq!(msg.table(), Some(&t));
        assert_eq!(msg.type_name(), "table_event");
    }
}
