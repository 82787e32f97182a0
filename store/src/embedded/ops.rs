//! The writes the embedded store's writer thread applies: plain data, so
//! that the journal can keep them and a restart replay them; and the
//! messages that bring them to that thread.

use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;

use crate::{Account, AuthToken, FinishedGame, Result};

/// A write and where its outcome goes.
pub(super) struct Request {
    pub op: Op,
    pub reply: oneshot::Sender<Result<()>>,
}

/// What the writer thread's queue carries.
// A wake-up is rare and small; boxing the write would cost an allocation
// for every write.
#[allow(clippy::large_enum_variant)]
pub(super) enum Message {
    Write(Request),
    /// A checkpoint ended (`checkpointer`): nothing to write, but writes
    /// held back for it may go now.
    Wake,
}

/// A write, as the writer thread applies it (and the journal keeps it).
#[derive(Serialize, Deserialize)]
pub(super) enum Op {
    Ping,
    CreateTable {
        id: String,
        #[serde(with = "serde_bytes")]
        meta: Vec<u8>,
    },
    Append {
        id: String,
        at: u64,
        #[serde(with = "crate::codec::byte_lists")]
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
        #[serde(with = "serde_bytes")]
        state: Vec<u8>,
    },
    Import(Vec<crate::Item>),
    Moderation(ModWrite),
    /// A write of the tallies and documents (`super::study`).
    Study(super::study::StudyWrite),
    /// Nothing: it makes the writer give redb the appends it holds (see
    /// `pending`) before a read of live logs. Never journalled.
    Flush,
}

/// Which table logs a write touches, for the writer to know which writes
/// may go on while others wait (see `writer`).
pub(super) enum Touches<'a> {
    /// An append to this table's log.
    Append(&'a str),
    /// A write that creates, finishes or drops this table.
    Table(&'a str),
    /// A write that may touch any table.
    Any,
    /// A write that touches no table's log.
    Nothing,
}

impl Op {
    pub(super) fn table(&self) -> Touches<'_> {
        match self {
            Op::Append { id, .. } => Touches::Append(id),
            Op::CreateTable { id, .. } | Op::Discard { id } => Touches::Table(id),
            Op::Finish(game) => Touches::Table(&game.id),
            Op::Import(_) => Touches::Any,
            Op::Ping
            | Op::CreateAccount(_)
            | Op::MakeBot(_)
            | Op::SetBotFilters { .. }
            | Op::PutToken(_)
            | Op::RevokeToken(_)
            | Op::PutTournament { .. }
            | Op::Moderation(_)
            | Op::Study(_)
            | Op::Flush => Touches::Nothing,
        }
    }
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

#[cfg(test)]
mod tests {
    use super::Op;
    use crate::FinishedGame;
    use crate::codec::tests::OldGame;
    use serde::Serialize;

    /// The journal's records as versions before byte fields were written
    /// as `bin` encoded them: the same shapes with plain byte vectors (the
    /// variants the tests do not write stay, so that each keeps its place).
    #[derive(Serialize)]
    enum OldOp {
        #[allow(dead_code)]
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
        #[allow(dead_code)]
        Discard {
            id: String,
        },
        Finish(OldGame),
    }

    fn entries() -> Vec<Vec<u8>> {
        vec![(0..=255).collect(), vec![], b"{\"move\":\"h8\"}".to_vec()]
    }

    #[test]
    fn a_journal_record_written_before_bin_fields_still_reads() {
        let old = vec![
            OldOp::CreateTable {
                id: "t1".into(),
                meta: vec![200, 1, 0, 255],
            },
            OldOp::Append {
                id: "t1".into(),
                at: 3,
                entries: entries(),
            },
            OldOp::Finish(OldGame {
                id: "t1".into(),
                players: vec!["ann".into(), "bo".into()],
                finished_ms: 42,
                record: (0..=255).rev().collect(),
                ratings: vec![],
            }),
        ];
        let bytes = rmp_serde::to_vec(&old).unwrap();
        let read: Vec<Op> = rmp_serde::from_slice(&bytes).unwrap();
        match &read[..] {
            [
                Op::CreateTable { id, meta },
                Op::Append {
                    at, entries: got, ..
                },
                Op::Finish(game),
            ] => {
                assert_eq!(
                    (id.as_str(), meta.as_slice()),
                    ("t1", &[200, 1, 0, 255][..])
                );
                assert_eq!((*at, got), (3, &entries()));
                assert_eq!(game.record, (0..=255).rev().collect::<Vec<u8>>());
                assert_eq!(game.finished_ms, 42);
            }
            _ => panic!("read back as other writes"),
        }
    }

    #[test]
    fn byte_fields_are_written_as_bin_and_read_back() {
        let game = FinishedGame {
            id: "t2".into(),
            players: vec!["ann".into(), "bo".into()],
            finished_ms: 7,
            record: (0..=255).collect(),
            ratings: vec![],
        };
        let ops = vec![
            Op::Append {
                id: "t2".into(),
                at: 0,
                entries: entries(),
            },
            Op::Finish(game.clone()),
        ];
        let bytes = rmp_serde::to_vec(&ops).unwrap();
        let old = rmp_serde::to_vec(&vec![
            OldOp::Append {
                id: "t2".into(),
                at: 0,
                entries: entries(),
            },
            OldOp::Finish(OldGame {
                id: game.id.clone(),
                players: game.players.clone(),
                finished_ms: 7,
                record: game.record.clone(),
                ratings: vec![],
            }),
        ])
        .unwrap();
        // A byte of 128 or more took two bytes as an integer; as `bin`
        // every byte takes one, plus a short header per field.
        assert!(
            bytes.len() + 200 < old.len(),
            "{} vs {}",
            bytes.len(),
            old.len()
        );
        let read: Vec<Op> = rmp_serde::from_slice(&bytes).unwrap();
        match &read[..] {
            [Op::Append { entries: got, .. }, Op::Finish(back)] => {
                assert_eq!(got, &entries());
                assert_eq!(back, &game);
            }
            _ => panic!("read back as other writes"),
        }
    }
}
