//! The writes the writer holds back while a checkpoint is taken.
//!
//! Why: the checkpoint thread holds redb's only write transaction for as
//! long as its durable commit takes (see `checkpointer`). Appends need no
//! transaction (see `pending`) and go on; a write that needs one waits
//! here, and so does every append to a table such a write creates,
//! finishes or drops, so that each table's writes keep their order (an
//! append is checked against what came before it). Writes to different
//! tables are independent, so the rest may overtake them: the journal
//! records each write when it is answered, and replays them in that order.

use std::collections::HashSet;

use super::ops::{Request, Touches};

/// The writes held back while a checkpoint is taken (it holds redb's write
/// transaction): every write that needs a transaction of its own, and every
/// append to a table such a write touches, in the order they came.
#[derive(Default)]
pub(super) struct Held {
    requests: Vec<Request>,
    tables: HashSet<String>,
    /// A held write may touch any table (an import).
    all: bool,
}

impl Held {
    pub(super) fn len(&self) -> usize {
        self.requests.len()
    }

    /// The request back if it is an append that may go on now; otherwise
    /// it is held.
    pub(super) fn hold_unless_free(&mut self, request: Request) -> Option<Request> {
        match request.op.table() {
            Touches::Append(id) if !self.all && !self.tables.contains(id) => {
                return Some(request);
            }
            Touches::Append(_) | Touches::Nothing => {}
            Touches::Table(id) => {
                self.tables.insert(id.to_owned());
            }
            Touches::Any => self.all = true,
        }
        self.requests.push(request);
        None
    }

    /// Every held request, in order; nothing is held after.
    pub(super) fn release(&mut self) -> Vec<Request> {
        self.tables.clear();
        self.all = false;
        std::mem::take(&mut self.requests)
    }
}

#[cfg(test)]
mod tests {
    use tokio::sync::oneshot;

    use super::super::ops::Op;
    use super::*;

    fn request(op: Op) -> Request {
        Request {
            op,
            reply: oneshot::channel().0,
        }
    }

    fn append(id: &str) -> Request {
        request(Op::Append {
            id: id.into(),
            at: 0,
            entries: Vec::new(),
        })
    }

    fn label(request: &Request) -> String {
        match &request.op {
            Op::Append { id, .. } => format!("append {id}"),
            Op::Discard { id } => format!("discard {id}"),
            Op::Ping => "ping".into(),
            Op::Import(_) => "import".into(),
            _ => "other".into(),
        }
    }

    #[test]
    fn appends_go_on_unless_a_held_write_touches_their_table() {
        let mut held = Held::default();
        assert!(held.hold_unless_free(append("a")).is_some());
        assert!(held.hold_unless_free(request(Op::Ping)).is_none());
        assert!(
            held.hold_unless_free(append("a")).is_some(),
            "a ping touches no table"
        );
        assert!(
            held.hold_unless_free(request(Op::Discard { id: "a".into() }))
                .is_none()
        );
        assert!(
            held.hold_unless_free(append("a")).is_none(),
            "after a held discard"
        );
        assert!(held.hold_unless_free(append("b")).is_some());
        assert_eq!(held.len(), 3);
        let order: Vec<String> = held.release().iter().map(label).collect();
        assert_eq!(order, ["ping", "discard a", "append a"]);

        // Released: nothing is held any more.
        assert_eq!(held.len(), 0);
        assert!(held.hold_unless_free(append("a")).is_some());

        // An import may touch any table.
        assert!(
            held.hold_unless_free(request(Op::Import(Vec::new())))
                .is_none()
        );
        assert!(held.hold_unless_free(append("b")).is_none());
        assert_eq!(held.release().len(), 2);
        assert!(held.hold_unless_free(append("b")).is_some());
    }
}
