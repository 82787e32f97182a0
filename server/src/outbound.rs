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

use std::sync::Arc;
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes};
use bytes::Bytes;
use futures_util::task::AtomicWaker;
use futures_util::{Sink, SinkExt};
use tengen_protocol::{
    CloseCode, Encoding, ErrorBody, ErrorCode, RequestId, ServerFrame, encode_server,
};

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// A connection id no other connection (or relay, `crate::cluster`) of
/// this process has: what an [`Outbox`]'s `conn` is.
pub fn next_conn_id() -> u64 {
    NEXT_CONN.fetch_add(1, Ordering::Relaxed)
}

/// Bytes tungstenite may buffer before writing (a batch of small frames).
pub const WRITE_BUFFER: usize = 8 * 1024;
/// The most tungstenite may hold unwritten (a large snapshot fits).
pub const MAX_WRITE_BUFFER: usize = 2 * 1024 * 1024;
/// Frames the writer feeds before it flushes.
const BATCH: usize = 64;

/// One encoded server message, cheap to clone.
#[derive(Clone, Debug)]
pub enum Frame {
    Text(Utf8Bytes),
    Binary(Bytes),
}

impl Frame {
    /// Encodes `frame` for a connection speaking `encoding`.
    pub fn encode(frame: &ServerFrame, encoding: Encoding) -> Frame {
        let bytes = encode_server(frame, encoding);
        match encoding {
            Encoding::Json => Frame::Text(Utf8Bytes::from(
                String::from_utf8(bytes).expect("JSON is UTF-8"),
            )),
            Encoding::MsgPack => Frame::Binary(Bytes::from(bytes)),
        }
    }

    /// The encoded bytes.
    pub fn bytes(&self) -> &[u8] {
        match self {
            Frame::Text(t) => t.as_bytes(),
            Frame::Binary(b) => b,
        }
    }

    fn into_message(self) -> Message {
        match self {
            Frame::Text(t) => Message::Text(t),
            Frame::Binary(b) => Message::Binary(b),
        }
    }
}

/// A frame encoded lazily, at most once per encoding: what a table builds
/// for each event before fanning it out.
pub struct Shared<'a> {
    frame: &'a ServerFrame,
    json: Option<Frame>,
    msgpack: Option<Frame>,
}

impl<'a> Shared<'a> {
    pub fn new(frame: &'a ServerFrame) -> Shared<'a> {
        Shared {
            frame,
            json: None,
            msgpack: None,
        }
    }

    /// The frame in `encoding`, encoded on first use.
    pub fn get(&mut self, encoding: Encoding) -> Frame {
        let slot = match encoding {
            Encoding::Json => &mut self.json,
            Encoding::MsgPack => &mut self.msgpack,
        };
        slot.get_or_insert_with(|| Frame::encode(self.frame, encoding))
            .clone()
    }
}

struct Control {
    /// The close code asked for, [`NO_CLOSE`] until then; the first close
    /// asked for wins. Once it is set, `writer` is woken: the writer looks
    /// at it on every turn of its loop, which costs two atomic operations
    /// (a `Notify` took its waiter list's lock and linked and unlinked a
    /// waiter each turn: 5 % of the server's time when one table fans out
    /// to 5,000 spectators).
    close_code: AtomicU16,
    writer: AtomicWaker,
    /// The estimated one-way lag in microseconds (half the ping round
    /// trip, smoothed); 0 until the first pong.
    lag_us: AtomicU64,
}

/// `Control::close_code` before any close is asked for (no WebSocket
/// close code is 0).
const NO_CLOSE: u16 = 0;

impl Control {
    /// The close code asked for, if one was.
    fn asked_code(&self) -> Option<u16> {
        Some(self.close_code.load(Ordering::Acquire)).filter(|&c| c != NO_CLOSE)
    }

    /// Ready once a close was asked for.
    fn close_asked(&self) -> impl std::future::Future<Output = ()> + '_ {
        std::future::poll_fn(|cx| {
            if self.asked_code().is_some() {
                return std::task::Poll::Ready(());
            }
            // Registered before the second look: a close asked for in
            // between wakes this waker.
            self.writer.register(cx.waker());
            if self.asked_code().is_some() {
                std::task::Poll::Ready(())
            } else {
                std::task::Poll::Pending
            }
        })
    }
}

/// The origin of ping timestamps (a ping carries its send time).
fn epoch() -> std::time::Instant {
    static EPOCH: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    *EPOCH.get_or_init(std::time::Instant::now)
}

/// A ping's payload: its send time, in microseconds since [`epoch`].
fn ping_payload() -> Bytes {
    let us = epoch().elapsed().as_micros() as u64;
    Bytes::copy_from_slice(&us.to_be_bytes())
}

/// One entry of a connection's queue: a frame, or a burst of frames that
/// belong together (see the module doc).
#[derive(Debug)]
enum Queued {
    One(Frame),
    Many(Vec<Frame>),
}

impl Queued {
    fn into_frames(self) -> impl Iterator<Item = Frame> {
        let (one, many) = match self {
            Queued::One(f) => (Some(f), Vec::new()),
            Queued::Many(v) => (None, v),
        };
        one.into_iter().chain(many)
    }
}

/// The sending side of one connection's queue.
#[derive(Clone)]
pub struct Outbox {
    tx: flume::Sender<Queued>,
    control: Arc<Control>,
    encoding: Encoding,
    /// Identifies the connection (for subscriber lists).
    pub conn: u64,
}

/// The writer's side, owned by the connection's writer task.
pub struct Inbox {
    rx: flume::Receiver<Queued>,
    control: Arc<Control>,
}

/// An outbox with no connection behind it (a restored player who has not
/// reconnected yet): everything sent to it is dropped. Its `conn` is 0,
/// which no real connection has.
pub fn detached() -> Outbox {
    let (outbox, _inbox) = channel(0, Encoding::Json, 1);
    outbox
}

/// A queue of `capacity` frames for connection `conn` speaking `encoding`.
pub fn channel(conn: u64, encoding: Encoding, capacity: usize) -> (Outbox, Inbox) {
    let (tx, rx) = flume::bounded(capacity.max(1));
    let control = Arc::new(Control {
        close_code: AtomicU16::new(NO_CLOSE),
        writer: AtomicWaker::new(),
        lag_us: AtomicU64::new(0),
    });
    (
        Outbox {
            tx,
            control: control.clone(),
            encoding,
            conn,
        },
        Inbox { rx, control },
    )
}

impl Outbox {
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Queues a ready frame. Returns false when the connection is gone or
    /// was just cut off because its queue was full.
    pub fn send(&self, frame: Frame) -> bool {
        self.queue(Queued::One(frame), 1)
    }

    /// Queues `frames` as one entry, in order: a burst its maker bounds (a
    /// replay), which the writer feeds to the socket at the socket's pace.
    /// Returns false as [`Outbox::send`] does.
    pub fn send_all(&self, frames: Vec<Frame>) -> bool {
        match frames.len() {
            0 => !self.is_closed(),
            n => self.queue(Queued::Many(frames), n as u64),
        }
    }

    fn queue(&self, entry: Queued, frames: u64) -> bool {
        if self.is_closed() {
            return false;
        }
        match self.tx.try_send(entry) {
            Ok(()) => {
                metrics::counter!(crate::metrics::MESSAGES_OUT).increment(frames);
                true
            }
            Err(flume::TrySendError::Full(_)) => {
                metrics::counter!(crate::metrics::QUEUE_DROPS).increment(1);
                crate::metrics::cap_hit(crate::metrics::Cap::OutboundQueue);
                crate::metrics::error("slow_consumer");
                self.close(CloseCode::SlowConsumer);
                false
            }
            Err(flume::TrySendError::Disconnected(_)) => false,
        }
    }

    /// Encodes and queues one message.
    pub fn send_msg(&self, frame: &ServerFrame) -> bool {
        self.send(Frame::encode(frame, self.encoding))
    }

    /// Answers request `id` with a typed error (counted by its code).
    pub fn refuse(
        &self,
        id: Option<RequestId>,
        code: ErrorCode,
        message: impl Into<String>,
    ) -> bool {
        self.refuse_with(id, ErrorBody::new(code, message))
    }

    /// Answers request `id` with `body` (counted by its code).
    pub fn refuse_with(&self, id: Option<RequestId>, body: ErrorBody) -> bool {
        crate::metrics::error(body.code.as_str());
        self.send_msg(&ServerFrame::error(id, body))
    }

    /// Asks the writer to close the connection with `code` (the first
    /// close asked for wins).
    pub fn close(&self, code: CloseCode) {
        let first = self.control.close_code.compare_exchange(
            NO_CLOSE,
            code.code(),
            Ordering::AcqRel,
            Ordering::Acquire,
        );
        if first.is_ok() {
            self.control.writer.wake();
        }
    }

    /// A pong arrived with `payload` (the ping's send time): the round trip
    /// updates the lag estimate (half of it, smoothed 1:3 with the last).
    pub fn record_pong(&self, payload: &[u8]) {
        let Ok(sent) = <[u8; 8]>::try_from(payload) else {
            return;
        };
        let now = epoch().elapsed().as_micros() as u64;
        let rtt = now.saturating_sub(u64::from_be_bytes(sent));
        let sample = rtt / 2;
        let old = self.control.lag_us.load(Ordering::Relaxed);
        let new = if old == 0 {
            sample
        } else {
            (3 * old + sample) / 4
        };
        self.control.lag_us.store(new, Ordering::Relaxed);
    }

    /// The connection's estimated one-way lag, in milliseconds.
    pub fn lag_ms(&self) -> u64 {
        self.control.lag_us.load(Ordering::Relaxed) / 1000
    }

    pub fn is_closed(&self) -> bool {
        self.control.asked_code().is_some() || self.tx.is_disconnected()
    }
}

/// What the writer saw end the connection.
#[derive(Debug)]
pub enum WriterEnd {
    /// Closed as asked, with this code.
    Closed(u16),
    /// The socket failed or every sender is gone.
    Gone,
    /// A write made no progress within the write timeout: the peer stopped
    /// reading.
    Stalled,
}

/// The writer's timers: how often it pings, and how long one write may
/// make no progress before the peer is taken as a stalled reader.
#[derive(Clone, Copy, Debug)]
pub struct WriterTimers {
    pub ping_every: Duration,
    pub write_timeout: Duration,
}

impl Inbox {
    /// Drains the queue into `sink` until asked to close (then sends the
    /// close frame) or the socket fails. Pings every `timers.ping_every`
    /// so that idle peers are noticed. A write the socket does not take
    /// within `timers.write_timeout` (a peer that stopped reading, its TCP
    /// window shut) ends the writer as [`WriterEnd::Stalled`]: the socket
    /// is dropped, not waited on for ever.
    ///
    /// The writer is one task per connection and mostly waits: its future
    /// holds only what waiting needs. Each write step (a batch, a ping, the
    /// close) is boxed for as long as it runs, not kept inline, where the
    /// largest (800 bytes with its timer) would be held by every idle
    /// connection; and this is a function returning an `async move` block,
    /// not an `async fn`, which would keep its arguments twice.
    #[allow(clippy::manual_async_fn)]
    pub fn drain<S>(
        self,
        sink: S,
        timers: WriterTimers,
    ) -> impl std::future::Future<Output = WriterEnd> + Send
    where
        S: Sink<Message> + Unpin + Send,
    {
        async move {
            let mut sink = sink;
            let within = timers.write_timeout;
            // The first tick is at once: the lag estimate starts early.
            let mut ping = tokio::time::interval(timers.ping_every);
            loop {
                let step = tokio::select! {
                    biased;
                    () = self.control.close_asked() => break,
                    entry = self.rx.recv_async() => {
                        let Ok(entry) = entry else { return WriterEnd::Gone };
                        Box::pin(bounded(within, write_batch(&mut sink, entry, &self.rx))).await
                    }
                    _ = ping.tick() => {
                        let ping = Message::Ping(ping_payload());
                        Box::pin(bounded(within, sink.send(ping))).await
                    }
                };
                if let Some(end) = step {
                    return end;
                }
            }
            Box::pin(self.close_with(sink, within)).await
        }
    }

    /// After a close was asked for: sends what was queued before it (an
    /// error saying why), unless the queue is the problem, then the close
    /// frame.
    async fn close_with<S>(self, mut sink: S, within: Duration) -> WriterEnd
    where
        S: Sink<Message> + Unpin,
    {
        let code = self
            .control
            .asked_code()
            .unwrap_or(CloseCode::Normal.code());
        if code != CloseCode::SlowConsumer.code() {
            let mut fed = 0;
            while let Ok(entry) = self.rx.try_recv() {
                if let Some(end) = bounded(within, feed(&mut sink, entry, &mut fed)).await {
                    return end;
                }
            }
        }
        let reason = CloseCode::from_code(code).map_or("", CloseCode::reason);
        let close = Message::Close(Some(CloseFrame {
            code,
            reason: Utf8Bytes::from_static(reason),
        }));
        let _ = tokio::time::timeout(within, sink.send(close)).await;
        WriterEnd::Closed(code)
    }
}

/// Runs one write step within `within`: `None` when it went through,
/// else how the writer ends (the socket failed, or stalled).
async fn bounded<E>(
    within: Duration,
    step: impl std::future::Future<Output = Result<(), E>>,
) -> Option<WriterEnd> {
    match tokio::time::timeout(within, step).await {
        Ok(Ok(())) => None,
        Ok(Err(_)) => Some(WriterEnd::Gone),
        Err(_) => {
            crate::metrics::cap_hit(crate::metrics::Cap::WriteTimeout);
            Some(WriterEnd::Stalled)
        }
    }
}

/// Writes `first` and what else is queued (up to [`BATCH`] frames), then
/// flushes.
async fn write_batch<S>(
    sink: &mut S,
    first: Queued,
    rx: &flume::Receiver<Queued>,
) -> Result<(), S::Error>
where
    S: Sink<Message> + Unpin,
{
    let mut fed = 0;
    feed(sink, first, &mut fed).await?;
    while fed < BATCH {
        let Ok(entry) = rx.try_recv() else { break };
        feed(sink, entry, &mut fed).await?;
    }
    sink.flush().await
}

/// Feeds an entry's frames to `sink`, counting them in `fed`; a long burst
/// is flushed every [`BATCH`] frames, so it goes out as the socket takes it
/// rather than piling up in the write buffer.
async fn feed<S>(sink: &mut S, entry: Queued, fed: &mut usize) -> Result<(), S::Error>
where
    S: Sink<Message> + Unpin,
{
    for frame in entry.into_frames() {
        sink.feed(frame.into_message()).await?;
        *fed += 1;
        if (*fed).is_multiple_of(BATCH) {
            sink.flush().await?;
        }
    }
    Ok(())
}

impl Inbox {
    /// Drains the queue into `send` instead of a socket, a batch at a time
    /// (a node relaying a connection of another node's: `cluster`), until
    /// asked to close; returns the close code. A batch `send` refuses is
    /// dropped (the receiver sees the gap and resynchronises).
    pub async fn relay(self, mut send: impl FnMut(Vec<Frame>) -> bool) -> u16 {
        loop {
            tokio::select! {
                biased;
                () = self.control.close_asked() => break,
                entry = self.rx.recv_async() => {
                    let Ok(entry) = entry else { break };
                    let mut batch: Vec<Frame> = entry.into_frames().collect();
                    while batch.len() < BATCH {
                        let Ok(entry) = self.rx.try_recv() else { break };
                        batch.extend(entry.into_frames());
                    }
                    let _ = send(batch);
                }
            }
        }
        let mut rest = Vec::new();
        while let Ok(entry) = self.rx.try_recv() {
            rest.extend(entry.into_frames());
        }
        if !rest.is_empty() {
            let _ = send(rest);
        }
        self.control
            .asked_code()
            .unwrap_or(CloseCode::Normal.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_protocol::{Envelope, ServerMsg};

    const TIMERS: WriterTimers = WriterTimers {
        ping_every: Duration::from_secs(60),
        write_timeout: Duration::from_secs(5),
    };

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
        let end = inbox.drain(sink, TIMERS).await;
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
        let end = inbox.drain(sink, TIMERS).await;
        let sent = log.lock().unwrap().clone();
        assert!(
            matches!(end, WriterEnd::Closed(1008)),
            "the first close asked wins"
        );
        assert_eq!(sent.len(), 3);
        assert!(matches!(sent[0], Message::Binary(_)));
        assert_eq!(close_code(&sent[2]), Some(1008));
    }

    #[tokio::test]
    async fn a_waiting_writer_is_woken_by_a_close() {
        let (outbox, inbox) = channel(1, Encoding::Json, 8);
        let (sink, log) = recorder();
        let writer = tokio::spawn(inbox.drain(sink, TIMERS));
        assert!(outbox.send_msg(&pong(1)));
        // The writer sends the frame (and its first ping), then waits.
        while log.lock().unwrap().len() < 2 {
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
