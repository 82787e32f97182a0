//! Moderation on the wire: what a moderator or an admin asks
//! ([`ModRequest`], sent as `moderate`), what a player says about others
//! (`block`, `unblock`, `report`, with [`ReportReason`]), and what the
//! server answers ([`AuditItem`], [`ReportItem`], [`Sanction`] in a
//! `banned` refusal). Its own module because these messages share one
//! vocabulary (roles, reasons, durations) that nothing else uses.

use serde::{Deserialize, Serialize};

use crate::ids::{RoomId, TableId};
use crate::limits::{MAX_NAME_CHARS, check_text};

/// The longest reason a moderator gives, or a report's text, in characters.
pub const MAX_REASON_CHARS: usize = 200;
/// The longest sanction, in minutes (a year; longer is for good: leave
/// `minutes` out).
pub const MAX_MINUTES: u64 = 366 * 24 * 60;
/// The longest address range, in characters (`ffff:...:ffff/128`).
pub const MAX_RANGE_CHARS: usize = 50;
/// The most audit entries one `audit_log` answer carries.
pub const MAX_AUDIT_ENTRIES: u32 = 200;
/// The most groups one `lookalikes` answer carries.
pub const MAX_LOOKALIKE_GROUPS: usize = 500;

/// An account's role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// No moderation rights.
    Player,
    /// Bans, mutes, reports, the audit log, rooms and games.
    Moderator,
    /// A moderator who also sets roles.
    Admin,
}

impl Role {
    /// The role's wire name (`player`, `moderator`, `admin`).
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Player => "player",
            Role::Moderator => "moderator",
            Role::Admin => "admin",
        }
    }

    /// The role of a stored name (`""` and anything unknown: a player).
    pub fn parse(s: &str) -> Role {
        match s {
            "moderator" => Role::Moderator,
            "admin" => Role::Admin,
            _ => Role::Player,
        }
    }

    /// May moderate (moderators and admins).
    pub fn moderates(self) -> bool {
        self != Role::Player
    }
}

/// What a moderator asks, in `{"type":"moderate","action":...}`. Every
/// action but the reading ones (`audit_log`, `reports`, `lookalikes`) is
/// written to the audit log with its `reason`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum ModRequest {
    /// An admin gives `player` a role.
    SetRole {
        player: String,
        role: Role,
        reason: String,
    },
    /// Refuses `player`'s logins (for `minutes`, or for good) and closes
    /// its sessions on every node.
    Ban {
        player: String,
        reason: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        minutes: Option<u64>,
    },
    Unban {
        player: String,
        reason: String,
    },
    /// `player`'s chat reaches only themselves, for `minutes`.
    Mute {
        player: String,
        reason: String,
        minutes: u64,
    },
    Unmute {
        player: String,
        reason: String,
    },
    /// The latest audit entries, newest first (`limit`: at most
    /// [`MAX_AUDIT_ENTRIES`]).
    AuditLog {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limit: Option<u32>,
    },
    /// The open reports, oldest first.
    Reports,
    /// The groups of accounts whose names look alike (registered before
    /// such names were refused, or at the same moment), answered by
    /// `lookalikes`.
    Lookalikes,
    /// Closes report `report` with a note.
    CloseReport {
        report: String,
        reason: String,
    },
    /// Refuses WebSocket upgrades from an address or a CIDR range.
    BanAddress {
        range: String,
        reason: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        minutes: Option<u64>,
    },
    UnbanAddress {
        range: String,
        reason: String,
    },
    /// Ends `player`'s fair-play wait and forgets its abandoned rated
    /// games.
    LiftPlayban {
        player: String,
        reason: String,
    },
    /// Closes room `room` on whichever node holds it: it leaves the
    /// lobby, a game in it is aborted (unrated), and everyone seated or
    /// watching gets `room_closed` with the reason.
    CloseRoom {
        room: RoomId,
        reason: String,
    },
    /// Aborts the game at `table` (unrated, result `arbiter`): its players
    /// and spectators get the final event, then `game_aborted` with the
    /// reason.
    AbortGame {
        table: TableId,
        reason: String,
    },
    /// Reverses the rating changes of the finished rated game `game` for
    /// both players, once; the game's record is marked.
    ResetRating {
        game: TableId,
        reason: String,
    },
}

impl ModRequest {
    /// The action's wire name (what the audit log records).
    pub fn action(&self) -> &'static str {
        match self {
            ModRequest::SetRole { .. } => "set_role",
            ModRequest::Ban { .. } => "ban",
            ModRequest::Unban { .. } => "unban",
            ModRequest::Mute { .. } => "mute",
            ModRequest::Unmute { .. } => "unmute",
            ModRequest::AuditLog { .. } => "audit_log",
            ModRequest::Reports => "reports",
            ModRequest::Lookalikes => "lookalikes",
            ModRequest::CloseReport { .. } => "close_report",
            ModRequest::BanAddress { .. } => "ban_address",
            ModRequest::UnbanAddress { .. } => "unban_address",
            ModRequest::LiftPlayban { .. } => "lift_playban",
            ModRequest::CloseRoom { .. } => "close_room",
            ModRequest::AbortGame { .. } => "abort_game",
            ModRequest::ResetRating { .. } => "reset_rating",
        }
    }

    /// Checks the sizes and bounds (`bad_request` when not met).
    pub fn validate(&self) -> Result<(), String> {
        let minutes = |m: Option<u64>| match m {
            Some(m) if m == 0 || m > MAX_MINUTES => Err(format!(
                "minutes must be 1 to {MAX_MINUTES} (leave it out for good)"
            )),
            _ => Ok(()),
        };
        match self {
            ModRequest::SetRole { player, reason, .. }
            | ModRequest::Unban { player, reason }
            | ModRequest::Unmute { player, reason } => check_player_reason(player, reason),
            ModRequest::Ban {
                player,
                reason,
                minutes: m,
            } => {
                check_player_reason(player, reason)?;
                minutes(*m)
            }
            ModRequest::Mute {
                player,
                reason,
                minutes: m,
            } => {
                check_player_reason(player, reason)?;
                minutes(Some(*m))
            }
            ModRequest::AuditLog { .. } | ModRequest::Reports | ModRequest::Lookalikes => Ok(()),
            ModRequest::CloseReport { report, reason } => {
                check_text("report", report, MAX_NAME_CHARS)?;
                check_text("reason", reason, MAX_REASON_CHARS)
            }
            ModRequest::BanAddress {
                range,
                reason,
                minutes: m,
            } => {
                check_text("range", range, MAX_RANGE_CHARS)?;
                check_text("reason", reason, MAX_REASON_CHARS)?;
                minutes(*m)
            }
            ModRequest::UnbanAddress { range, reason } => {
                check_text("range", range, MAX_RANGE_CHARS)?;
                check_text("reason", reason, MAX_REASON_CHARS)
            }
            ModRequest::LiftPlayban { player, reason } => check_player_reason(player, reason),
            ModRequest::CloseRoom { reason, .. }
            | ModRequest::AbortGame { reason, .. }
            | ModRequest::ResetRating { reason, .. } => {
                check_text("reason", reason, MAX_REASON_CHARS)
            }
        }
    }
}

fn check_player_reason(player: &str, reason: &str) -> Result<(), String> {
    check_text("player", player, MAX_NAME_CHARS)?;
    check_text("reason", reason, MAX_REASON_CHARS)
}

/// Why a player reports another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ReportReason {
    ChatAbuse,
    Cheating,
    Sandbagging,
    Other,
}

impl ReportReason {
    pub fn as_str(self) -> &'static str {
        match self {
            ReportReason::ChatAbuse => "chat_abuse",
            ReportReason::Cheating => "cheating",
            ReportReason::Sandbagging => "sandbagging",
            ReportReason::Other => "other",
        }
    }
}

/// A ban as a refused login carries it (`error.ban`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Sanction {
    pub reason: String,
    /// When it ends (Unix ms); absent: for good.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until_ms: Option<u64>,
}

/// A fair-play wait running (`logged_in.playban`): rated games are
/// refused with `playbanned` until it ends; casual games are not.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Playban {
    /// When it ends (Unix ms).
    pub until_ms: u64,
    /// How long it still runs, in milliseconds, when the answer was sent.
    pub remaining_ms: u64,
    /// For people: why and how long, in words.
    pub message: String,
}

/// One entry of the audit log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AuditItem {
    pub at_ms: u64,
    pub by: String,
    pub action: String,
    pub target: String,
    pub reason: String,
}

/// An open report, as moderators list it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ReportItem {
    pub id: String,
    pub at_ms: u64,
    pub by: String,
    pub player: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<TableId>,
    pub reason: ReportReason,
    pub text: String,
}
