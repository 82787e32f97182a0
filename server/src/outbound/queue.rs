//! The queue itself: encoded frames ([`Frame`], [`Shared`]), the sending
//! side every actor holds ([`Outbox`]) and the receiving side the writer
//! task drains ([`Inbox`], see `writer`), with the close signal and the
//! lag estimate they share.

use std::sync::Arc;
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering};

use axum::extract::ws::{Message, Utf8Bytes};
use bytes::Bytes;
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
pub(super) const BATCH: usize = 64;

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

    pub(super) fn into_message(self) -> Message {
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

pub(super) struct Control {
    /// The close code asked for, [`NO_CLOSE`] until then; the first close
    /// asked for wins. The writer looks at it before each entry it takes;
    /// a writer waiting on an empty queue is woken by a [`Queued::Wake`]
    /// entry. (A waker of its own, registered on every turn of the writer's
    /// loop, and a `Notify` before it, cost 2 to 5 % of the server's time
    /// when one table fans out to 5,000 spectators.)
    close_code: AtomicU16,
    /// The estimated one-way lag in microseconds (half the ping round
    /// trip, smoothed); 0 until the first pong.
    lag_us: AtomicU64,
}

/// `Control::close_code` before any close is asked for (no WebSocket
/// close code is 0).
const NO_CLOSE: u16 = 0;

impl Control {
    /// The close code asked for, if one was.
    pub(super) fn asked_code(&self) -> Option<u16> {
        Some(self.close_code.load(Ordering::Acquire)).filter(|&c| c != NO_CLOSE)
    }
}

/// The origin of ping timestamps (a ping carries its send time).
fn epoch() -> std::time::Instant {
    static EPOCH: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    *EPOCH.get_or_init(std::time::Instant::now)
}

/// A ping's payload: its send time, in microseconds since [`epoch`].
pub(super) fn ping_payload() -> Bytes {
    let us = epoch().elapsed().as_micros() as u64;
    Bytes::copy_from_slice(&us.to_be_bytes())
}

/// One entry of a connection's queue: a frame, or a burst of frames that
/// belong together (see the module doc), or a signal to the writer.
#[derive(Debug)]
pub(super) enum Queued {
    One(Frame),
    Many(Vec<Frame>),
    /// Send a ping, stamped when it is written ([`Outbox::ping`]).
    Ping,
    /// Nothing to send: a close was asked for ([`Outbox::close`]).
    Wake,
}

impl Queued {
    /// The data frames of this entry (none for a signal).
    pub(super) fn into_frames(self) -> impl Iterator<Item = Frame> {
        let (one, many) = match self {
            Queued::One(f) => (Some(f), Vec::new()),
            Queued::Many(v) => (None, v),
            Queued::Ping | Queued::Wake => (None, Vec::new()),
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
    pub(super) rx: flume::Receiver<Queued>,
    pub(super) control: Arc<Control>,
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
                crate::metrics::messages_out(frames);
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
            // A full queue needs no wake-up: the writer is busy with it and
            // looks at the close code before its next entry.
            let _ = self.tx.try_send(Queued::Wake);
        }
    }

    /// Asks the writer to ping the peer (the connection's reader does,
    /// every `ping_interval`). A full queue skips this ping: the peer is
    /// behind already, and the queue's own limit deals with that.
    pub fn ping(&self) {
        let _ = self.tx.try_send(Queued::Ping);
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
