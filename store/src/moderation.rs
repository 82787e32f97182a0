//! What moderation keeps: an account's standing (its role, a ban, a mute,
//! the players it blocks, its fair-play record, when it last logged out
//! everywhere), the append-only audit
//! log of moderators' actions, players' reports, and banned address
//! ranges. Plain values: the store knows no rule and no policy; the
//! server decides what a ban or a mute means.

use serde::{Deserialize, Serialize};

/// An account's standing, kept beside the account under the same name
/// (any case). Written only through [`crate::Store::put_standing`], which
/// checks `version` so that two writers never lose each other's change.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// The account's name as registered.
    pub name: String,
    /// `""` (a player), `"moderator"` or `"admin"`.
    #[serde(default)]
    pub role: String,
    /// Login refused while set (and not past `until_ms`).
    #[serde(default)]
    pub ban: Option<Sanction>,
    /// Chat reaches nobody but the sender while set.
    #[serde(default)]
    pub mute: Option<Sanction>,
    /// The names (name_key) of the players this account blocks.
    #[serde(default)]
    pub blocks: Vec<String>,
    /// Rated games abandoned (aborted, left, timed out without a move).
    #[serde(default)]
    pub playban: Playban,
    /// Login tokens issued before this (Unix ms) no longer open the
    /// account: its owner logged out everywhere (0: never).
    #[serde(default)]
    pub tokens_after_ms: u64,
    /// How many times the standing was written (0: never); a write must
    /// carry the version it read.
    #[serde(default)]
    pub version: u64,
}

impl Standing {
    /// A fresh standing for `name` (nothing set, never written).
    pub fn new(name: &str) -> Standing {
        Standing {
            name: name.to_owned(),
            ..Standing::default()
        }
    }
}

/// A ban or a mute: who set it, why, since when, until when (`None`: for
/// good). Times are Unix milliseconds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sanction {
    pub by: String,
    pub reason: String,
    pub since_ms: u64,
    #[serde(default)]
    pub until_ms: Option<u64>,
}

impl Sanction {
    /// In force at `now_ms`.
    pub fn active(&self, now_ms: u64) -> bool {
        self.until_ms.is_none_or(|until| now_ms < until)
    }
}

/// A player's record of abandoned rated games and the wait it earned.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Playban {
    /// When each recent offence happened (Unix ms, oldest first, bounded
    /// by the server).
    #[serde(default)]
    pub offences_ms: Vec<u64>,
    /// The games those offences were in (ids, same order and bound), so
    /// that a game is counted once however often its end is reported.
    #[serde(default)]
    pub games: Vec<String>,
    /// No rated game before this (Unix ms; 0: none).
    #[serde(default)]
    pub until_ms: u64,
}

/// One moderator action, as the audit log keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditEntry {
    /// When (Unix ms).
    pub at_ms: u64,
    /// Who (an account name, or `cli:` and the operator's tool).
    pub by: String,
    /// What (`ban`, `mute`, `set_role`, ...).
    pub action: String,
    /// On whom or what (an account, a game, a room, an address range).
    pub target: String,
    /// Why, as the moderator gave it.
    pub reason: String,
}

/// A player's report of another player or a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// A random id.
    pub id: String,
    pub at_ms: u64,
    /// The reporting account.
    pub by: String,
    /// The player reported.
    pub player: String,
    /// The game concerned, if any.
    #[serde(default)]
    pub game: Option<String>,
    /// `chat_abuse`, `cheating`, `sandbagging` or `other`.
    pub reason: String,
    pub text: String,
    /// Set when a moderator closed it.
    #[serde(default)]
    pub closed: Option<ReportClosed>,
}

/// Who closed a report, when, with what note.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportClosed {
    pub by: String,
    pub at_ms: u64,
    pub note: String,
}

/// A banned address range (`203.0.113.0/24`, `2001:db8::/32`, or one
/// address).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AddressBan {
    pub range: String,
    pub ban: Sanction,
}
