//! A connection's way out: a bounded queue of ready-made frames, drained by
//! one writer task.
//!
//! Everyone who talks to a client (its own connection task, the lobby, the
//! tables it sits at or watches) holds an [`Outbox`] and *never waits* on
//! it: [`Outbox::send`] either queues the frame at once or, when the queue
//! is full, cuts the connection off as a slow consumer (close 4002). So a
//! slow reader can never slow a table; it may reconnect and resynchronise.
//!
//! Frames are encoded before they are queued. A table encodes an event once
//! per encoding in use and queues the same bytes ([`Frame`] clones are
//! reference counts) to every subscriber. The writer feeds every queued
//! frame to the socket and flushes once per batch.
//!
//! A burst that belongs together (a replay of up to the table's whole event
//! log, then `replayed`) is queued as *one* entry ([`Outbox::send_all`]):
//! it is bounded by its maker (the table keeps at most 512 events), takes
//! one place in the queue however long it is, and the writer feeds it to
//! the socket as fast as the socket takes it. Counting each of its frames
//! against the queue instead would cut off a client that reads at full
//! speed, only because it asked for more than the queue holds.
//!
//! The queue is a `flume` channel rather than tokio's: tokio's bounded
//! channel allocates its first block of 32 slots (about 1.3 KB here) when
//! it is made, for every connection, while most connections hold one or
//! two frames at a time, or none. flume's queue is a `VecDeque` that
//! allocates on first use and grows with what is actually queued.

mod queue;
mod writer;

pub use queue::{
    Frame, Inbox, MAX_WRITE_BUFFER, Outbox, Shared, WRITE_BUFFER, channel, detached, next_conn_id,
};
pub use writer::WriterEnd;

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use axum::extract::ws::Message;
    use futures_util::Sink;
    use tengen_protocol::{CloseCode, Encoding, Envelope, ServerFrame, ServerMsg};

    use super::*;

    const WRITE_TIMEOUT: Duration = Duration::from_secs(5);

    fn pong(n: u64) -> ServerFrame {
        Envelope::push(ServerMsg::Pong { time_ms: n })
    }

    /// A sink that records what the writer sends.
    fn recorder() -> (
        impl Sink<Message> + Unpin,
        std::sync::Arc<std::sync::Mutex<Vec<Message>>>,
    ) {
        let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let l = log.clone();
        let sink = Box::pin(futures_util::sink::unfold((), move |(), m: Message| {
            let l = l.clone();
            async move {
                l.lock().unwrap().push(m);
                Ok::<_, std::convert::Infallible>(())
            }
        }));
        (sink, log)
    }

    fn close_code(m: &Message) -> Option<u16> {
        match m {
            Message::Close(Some(c)) => Some(c.code),
            _ => None,
        }
    }

    #[tokio::test]
    async fn a_full_queue_cuts_the_reader_off_and_never_waits() {
        let (outbox, inbox) = channel(1, Encoding::Json, 2);
        assert!(outbox.send_msg(&pong(1)));
        assert!(outbox.send_msg(&pong(2)));
        // The third frame finds the queue full: refused at once, and the
        // connection is marked for closing as a slow consumer.
        assert!(!outbox.send_msg(&pong(3)));
        assert!(outbox.is_closed());
        assert!(!outbox.send_msg(&pong(4)), "nothing more is queued");
        let (sink, log) = recorder();
        let end = inbox.drain(sink, WRITE_TIMEOUT).await;
        let sent = log.lock().unwrap().clone();
        assert!(matches!(end, WriterEnd::Closed(4002)));
        assert_eq!(sent.len(), 1, "the backlog is dropped: {sent:?}");
        assert_eq!(close_code(&sent[0]), Some(4002));
    }

    #[tokio::test]
    async fn a_close_sends_what_was_queued_first() {
        let (outbox, inbox) = channel(1, Encoding::MsgPack, 8);
        assert!(outbox.send_msg(&pong(1)));
        assert!(outbox.send_msg(&pong(2)));
        outbox.close(CloseCode::PolicyViolation);
        outbox.close(CloseCode::Normal);
        let (sink, log) = recorder();
        let end = inbox.drain(sink, WRITE_TIMEOUT).await;
        let sent = log.lock().unwrap().clone();
        assert!(
            matches!(end, WriterEnd::Closed(1008)),
            "the first close asked wins"
        );
        assert_eq!(sent.len(), 3);
        assert!(matches!(sent[0], Message::Binary(_)));
        assert_eq!(close_code(&sent[2]), Some(1008));
    }

    #[tokio::test(start_paused = true)]
    async fn a_waiting_writer_is_woken_by_a_close() {
        let (outbox, inbox) = channel(1, Encoding::Json, 8);
        let (sink, log) = recorder();
        let writer = tokio::spawn(inbox.drain(sink, WRITE_TIMEOUT));
        assert!(outbox.send_msg(&pong(1)));
        // The writer sends the frame, then waits.
        while log.lock().unwrap().is_empty() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        outbox.close(CloseCode::PolicyViolation);
        let end = tokio::time::timeout(Duration::from_secs(5), writer)
            .await
            .expect("the close wakes the waiting writer")
            .unwrap();
        assert!(matches!(end, WriterEnd::Closed(1008)));
        let sent = log.lock().unwrap().clone();
        assert_eq!(close_code(sent.last().unwrap()), Some(1008));
    }

    #[tokio::test]
    async fn a_ping_asked_for_is_stamped_when_it_is_written() {
        let (outbox, inbox) = channel(1, Encoding::Json, 8);
        let (sink, log) = recorder();
        let writer = tokio::spawn(inbox.drain(sink, WRITE_TIMEOUT));
        assert!(outbox.send_msg(&pong(1)));
        outbox.ping();
        while log.lock().unwrap().len() < 2 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        // The pong carries the ping's payload back: the lag estimate.
        let Message::Ping(payload) = log.lock().unwrap()[1].clone() else {
            panic!("the second message is the ping")
        };
        assert_eq!(outbox.lag_ms(), 0, "no pong yet");
        tokio::time::sleep(Duration::from_millis(30)).await;
        outbox.record_pong(&payload);
        assert!(
            outbox.lag_ms() >= 10,
            "half of a round trip of 30 ms or more"
        );
        outbox.close(CloseCode::Normal);
        assert!(matches!(writer.await.unwrap(), WriterEnd::Closed(1000)));
    }

    #[tokio::test(start_paused = true)]
    async fn a_peer_that_stops_reading_is_cut_off_after_the_write_timeout() {
        let (outbox, inbox) = channel(1, Encoding::Json, 8);
        // A sink that takes the first frame and then never any other.
        let taken = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let t = taken.clone();
        let sink = Box::pin(futures_util::sink::unfold((), move |(), _m: Message| {
            let first = t.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0;
            async move {
                if !first {
                    std::future::pending::<()>().await;
                }
                Ok::<_, std::convert::Infallible>(())
            }
        }));
        let t0 = tokio::time::Instant::now();
        let writer = tokio::spawn(inbox.drain(sink, WRITE_TIMEOUT));
        assert!(outbox.send_msg(&pong(1)));
        assert!(outbox.send_msg(&pong(2)));
        let end = tokio::time::timeout(WRITE_TIMEOUT * 2, writer)
            .await
            .expect("the stalled write is given up")
            .unwrap();
        assert!(matches!(end, WriterEnd::Stalled), "{end:?}");
        // On paused time the cut comes exactly at the write timeout: not
        // before (a slow peer is given all of it), not much after.
        let took = t0.elapsed();
        assert!(
            took >= WRITE_TIMEOUT && took < WRITE_TIMEOUT + Duration::from_millis(10),
            "{took:?}"
        );
    }

    #[test]
    fn a_shared_frame_is_encoded_once_per_encoding() {
        let frame = pong(7);
        let mut shared = Shared::new(&frame);
        let (Frame::Text(a), Frame::Text(b)) =
            (shared.get(Encoding::Json), shared.get(Encoding::Json))
        else {
            panic!("JSON goes in text frames")
        };
        assert_eq!(
            a.as_str().as_ptr(),
            b.as_str().as_ptr(),
            "the same bytes, not a copy"
        );
        assert!(matches!(shared.get(Encoding::MsgPack), Frame::Binary(_)));
    }
}
