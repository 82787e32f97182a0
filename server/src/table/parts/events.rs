//! A table's events: how many were stamped, and the latest kept for a
//! resuming client's replay.
//!
//! Why the kept events are stored as frames: a `TableEvent` is 264 bytes
//! plus its own allocations, and a queue of them grows in doubling steps,
//! so a short game's log held about 10 KB, most of a table's memory after
//! the game itself. Each event is kept as the MessagePack frame already
//! made for it (one allocation of its exact size, 150–250 bytes), which a
//! MessagePack client gets back as it is and a JSON client decoded and
//! encoded again: replays are rare, events are not. The events a restarted
//! server read back from the store stay as they were read until they age
//! out (encoding thousands of tables' logs would slow the restore down).

use std::collections::VecDeque;

use bytes::Bytes;
use tengen_protocol::{Encoding, Envelope, ServerMsg, TableEvent, decode_server};

use crate::outbound::Frame;

/// The table's events: how many were stamped, and the latest kept for a
/// resuming client's replay.
#[derive(Default)]
pub(crate) struct EventLog {
    /// The last `seq` stamped (events count from 1).
    pub(crate) seq: u64,
    /// Events read back from the store at a restore, oldest first; all
    /// older than those in `packed`.
    restored: VecDeque<TableEvent>,
    /// Events stamped since, oldest first.
    packed: VecDeque<Packed>,
}

/// One kept event: its number and its push frame in MessagePack.
struct Packed {
    seq: u64,
    frame: Box<[u8]>,
}

impl EventLog {
    /// The log of a restored table: `log` as read from the store.
    pub(crate) fn restored(log: Vec<TableEvent>) -> EventLog {
        EventLog {
            seq: log.last().map_or(0, |e| e.seq),
            restored: log.into(),
            packed: VecDeque::new(),
        }
    }

    fn len(&self) -> usize {
        self.restored.len() + self.packed.len()
    }

    fn first_seq(&self) -> Option<u64> {
        match self.restored.front() {
            Some(e) => Some(e.seq),
            None => self.packed.front().map(|p| p.seq),
        }
    }

    /// Whether every event after `since` is still kept.
    pub(crate) fn replayable(&self, since: u64) -> bool {
        if since > self.seq {
            return false;
        }
        match self.first_seq() {
            None => since == self.seq,
            Some(first) => since + 1 >= first,
        }
    }

    /// Keeps event `seq`, whose push frame in MessagePack is `frame`,
    /// dropping the oldest beyond `limit` (at least one).
    pub(crate) fn keep(&mut self, seq: u64, frame: &[u8], limit: usize) {
        if self.len() >= limit.max(1) && self.restored.pop_front().is_none() {
            self.packed.pop_front();
        }
        self.packed.push_back(Packed {
            seq,
            frame: frame.into(),
        });
    }

    /// The kept events after `since`, oldest first, as frames in
    /// `encoding`; `None` if one cannot be read back (then the client
    /// needs a snapshot instead).
    pub(crate) fn frames_after(&self, since: u64, encoding: Encoding) -> Option<Vec<Frame>> {
        let restored = self.restored.iter().filter(|e| e.seq > since).map(|te| {
            let push = Envelope::push(ServerMsg::TableEvent(te.clone()));
            Some(Frame::encode(&push, encoding))
        });
        let packed = self
            .packed
            .iter()
            .filter(|p| p.seq > since)
            .map(|p| match encoding {
                Encoding::MsgPack => Some(Frame::Binary(Bytes::copy_from_slice(&p.frame))),
                Encoding::Json => match decode_server(&p.frame, Encoding::MsgPack) {
                    Ok(push) => Some(Frame::encode(&push, encoding)),
                    Err(e) => {
                        tracing::error!(seq = p.seq, error = %e, "a kept event does not decode");
                        None
                    }
                },
            });
        restored.chain(packed).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_protocol::{ServerFrame, TableId, encode_server};
    use tengen_rules::game::{Event, Seat};

    fn event(seq: u64) -> TableEvent {
        TableEvent {
            table: TableId::from_u64(1),
            seq,
            event: Event::DrawOffered {
                seat: Seat::First,
                offers: seq as u32,
            },
            prompt: None,
            forbidden: Vec::new(),
        }
    }

    fn push(seq: u64) -> ServerFrame {
        Envelope::push(ServerMsg::TableEvent(event(seq)))
    }

    fn keep(log: &mut EventLog, seq: u64, limit: usize) {
        log.seq = seq;
        log.keep(seq, &encode_server(&push(seq), Encoding::MsgPack), limit);
    }

    fn decoded(frames: &[Frame]) -> Vec<ServerFrame> {
        frames
            .iter()
            .map(|f| match f {
                Frame::Text(t) => decode_server(t.as_bytes(), Encoding::Json).unwrap(),
                Frame::Binary(b) => decode_server(b, Encoding::MsgPack).unwrap(),
            })
            .collect()
    }

    #[test]
    fn a_replay_gives_the_events_after_since_in_either_encoding() {
        let mut log = EventLog::default();
        assert!(log.replayable(0));
        for seq in 1..=5 {
            keep(&mut log, seq, 512);
        }
        for encoding in [Encoding::Json, Encoding::MsgPack] {
            let frames = log.frames_after(2, encoding).unwrap();
            assert!(frames.iter().all(|f| matches!(
                (f, encoding),
                (Frame::Text(_), Encoding::Json) | (Frame::Binary(_), Encoding::MsgPack)
            )));
            assert_eq!(decoded(&frames), vec![push(3), push(4), push(5)]);
        }
        assert!(log.frames_after(5, Encoding::Json).unwrap().is_empty());
        assert!(!log.replayable(6));
    }

    /// Keeps `seqs` (room for four), then checks that the log replays
    /// exactly from `first` on, in `encoding`.
    fn keep_then_replay(
        log: &mut EventLog,
        seqs: std::ops::RangeInclusive<u64>,
        first: u64,
        encoding: Encoding,
    ) {
        let last = *seqs.end();
        for seq in seqs {
            keep(log, seq, 4);
        }
        assert!(!log.replayable(first - 2));
        assert!(log.replayable(first - 1));
        let frames = log.frames_after(first - 1, encoding).unwrap();
        assert_eq!(
            decoded(&frames),
            (first..=last).map(push).collect::<Vec<_>>()
        );
    }

    #[test]
    fn the_oldest_go_first_restored_ones_before_new_ones() {
        let mut log = EventLog::restored((1..=3).map(event).collect());
        assert_eq!(log.seq, 3);
        assert!(log.replayable(0));
        // Five events with room for four: the first restored one is gone.
        keep_then_replay(&mut log, 4..=5, 2, Encoding::MsgPack);
        keep_then_replay(&mut log, 6..=8, 5, Encoding::Json);
    }

    #[test]
    fn a_kept_frame_that_does_not_decode_asks_for_a_snapshot() {
        let mut log = EventLog {
            seq: 1,
            ..EventLog::default()
        };
        log.keep(1, b"\xc1", 512);
        assert!(log.frames_after(0, Encoding::Json).is_none());
    }
}
