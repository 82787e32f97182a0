//! Reconnection at a table: replaying the events a resuming client missed
//! (what an away player's absence leads to is `super::absence`).

use tengen_protocol::{Envelope, RequestId, ServerMsg};

use super::Table;
use crate::outbound::{Frame, Outbox};

impl Table {
    /// Sends the logged events after `since`, in order, then `replayed`:
    /// one entry of the outbox, which the writer feeds to the socket at the
    /// socket's pace (a replay of the whole log is more frames than the
    /// queue holds, and must not count as a slow reader). `false`, with
    /// nothing sent, if the log could not give them all back.
    pub(super) fn replay(&self, outbox: &Outbox, id: Option<RequestId>, since: u64) -> bool {
        let encoding = outbox.encoding();
        let Some(mut frames) = self.events.frames_after(since, encoding) else {
            return false;
        };
        frames.push(Frame::encode(
            &Envelope::with_id(
                id,
                ServerMsg::Replayed {
                    table: self.id.clone(),
                    since,
                    seq: self.events.seq,
                },
            ),
            encoding,
        ));
        outbox.send_all(frames);
        true
    }
}
