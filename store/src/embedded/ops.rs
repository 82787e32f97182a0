//! The writes the embedded store's writer thread applies: plain data, so
//! that the journal can keep them and a restart replay them.

use serde::{Deserialize, Serialize};

use crate::{Account, AuthToken, FinishedGame};

/// A write, as the writer thread applies it (and the journal keeps it).
#[derive(Serialize, Deserialize)]
pub(super) enum Op {
    Ping,
    CreateTable {
        id: String,
        meta: Vec<u8>,
    },
    Append {
        id: String,
        at: u64,
        entries: Vec<Vec<u8>>,
    },
    Discard {
        id: String,
    },
    Finish(FinishedGame),
    CreateAccount(Account),
    MakeBot(String),
    SetBotFilters {
        name: String,
        filters: String,
    },
    PutToken(AuthToken),
    RevokeToken(String),
    /// A tournament's whole state, replacing the stored one.
    PutTournament {
        id: String,
        state: Vec<u8>,
    },
    Import(Vec<crate::Item>),
    Moderation(ModWrite),
}

/// A moderation write (applied by `super::moderation`).
#[derive(Serialize, Deserialize)]
pub(super) enum ModWrite {
    Standing(crate::Standing),
    Audit(crate::AuditEntry),
    Report(crate::Report),
    AddressBan(crate::AddressBan),
    LiftAddressBan(String),
}
