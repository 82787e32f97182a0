//! Following one table across reconnects: what a player program (the
//! quick bot, the engine bridge) does with each [`Delivery`] of its
//! session while it plays at a table.
//!
//! Why a module of its own: every program that acts at a table must stop
//! deciding when the connection drops (its view may be behind), start
//! again only once the table is followed again on the new connection
//! (and then send again an action that never landed), and give up when
//! the table is gone; this is that logic, once.

use tengen_protocol::{ServerFrame, TableId};

use crate::session::Delivery;

/// What a delivery means for the followed table.
// Made and taken apart at once, one per delivery, like `Delivery` itself:
// boxing the frame would cost an allocation per frame for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Step {
    /// A server frame, to handle as usual.
    Frame(ServerFrame),
    /// The connection dropped (`reason`): forget any request in flight;
    /// nothing is decided until [`Step::Resynced`].
    Lost(String),
    /// A new connection is up (`resumed`: the server still had the
    /// session); the table is not followed again yet.
    Reconnected { resumed: bool },
    /// The table is followed again and up to date: an action sent before
    /// the drop may not have landed, so the turn is decided again.
    Resynced,
    /// Nothing for this table (another table followed again or lost).
    Other,
}

/// The table is gone: it could not be followed again (the server's
/// words).
#[derive(Debug, thiserror::Error)]
#[error("the table is gone: {0}")]
pub struct TableGone(pub String);

/// One table followed across reconnects.
#[derive(Debug)]
pub struct Follow {
    table: TableId,
    syncing: bool,
}

impl Follow {
    pub fn new(table: TableId) -> Follow {
        Follow {
            table,
            syncing: false,
        }
    }

    /// Between a lost connection and the table followed again: the view
    /// may be behind, so nothing is decided.
    pub fn syncing(&self) -> bool {
        self.syncing
    }

    /// Takes the session's next delivery.
    pub fn take(&mut self, d: Delivery) -> Result<Step, TableGone> {
        Ok(match d {
            Delivery::Frame(f) => Step::Frame(f),
            Delivery::Lost { reason } => {
                self.syncing = true;
                Step::Lost(reason)
            }
            Delivery::Reconnected { resumed } => Step::Reconnected { resumed },
            Delivery::Rewatched { table, .. } if table == self.table => {
                self.syncing = false;
                Step::Resynced
            }
            Delivery::TableLost { table, error } if table == self.table => {
                return Err(TableGone(error.message));
            }
            Delivery::Rewatched { .. } | Delivery::TableLost { .. } => Step::Other,
        })
    }
}

/// The line to show when the connection is back.
pub fn reconnected(resumed: bool) -> &'static str {
    if resumed {
        "reconnected"
    } else {
        "reconnected, but the server had forgotten the session"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_protocol::{ErrorBody, ErrorCode};

    #[test]
    fn a_drop_syncs_until_this_table_is_followed_again() {
        let mine = TableId::from_u64(1);
        let other = TableId::from_u64(2);
        let mut f = Follow::new(mine.clone());
        assert!(!f.syncing());
        let lost = f.take(Delivery::Lost { reason: "x".into() }).unwrap();
        assert!(matches!(lost, Step::Lost(r) if r == "x") && f.syncing());
        let back = f.take(Delivery::Reconnected { resumed: true }).unwrap();
        assert!(matches!(back, Step::Reconnected { resumed: true }) && f.syncing());
        let rewatch = |table: &TableId| Delivery::Rewatched {
            table: table.clone(),
            seq: 3,
            replayed: true,
        };
        assert!(matches!(f.take(rewatch(&other)).unwrap(), Step::Other));
        assert!(f.syncing(), "another table's resync is not ours");
        assert!(matches!(f.take(rewatch(&mine)).unwrap(), Step::Resynced));
        assert!(!f.syncing());
        let lost = |table: &TableId| Delivery::TableLost {
            table: table.clone(),
            error: ErrorBody::new(ErrorCode::NotFound, "gone"),
        };
        assert!(matches!(f.take(lost(&other)).unwrap(), Step::Other));
        let gone = f.take(lost(&mine)).unwrap_err();
        assert_eq!(gone.to_string(), "the table is gone: gone");
    }
}
