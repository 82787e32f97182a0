//! The writer task's side of a connection's queue: draining it into the
//! socket a batch at a time (fed, then flushed once), sending the pings the
//! connection's reader asks for, ending on a stalled peer, and the close;
//! or, for a connection another node relays, into that node's link.
//!
//! Why apart from the queue: the queue (`Outbox`) is what every sender
//! sees and must never wait on; this side is the one task per connection
//! that waits on the socket, and its future's size is paid by every idle
//! connection (see [`Inbox::drain`]).
//!
//! Why so plain: when a table fans a move out to 5,000 spectators, every
//! one of their writers wakes, writes one frame and waits again, and
//! whatever the writer does per turn is paid 5,000 times a move. So it
//! waits on one thing only, the queue: a close asked for and a ping due
//! arrive as queue entries, not as futures of their own polled (and their
//! wakers registered) on every turn, and a write is put under its timeout
//! only once the socket has not taken it at once (no clock read, no timer
//! for a write that goes straight through, which on loopback or a healthy
//! link is nearly every one).

use std::future::Future;
use std::pin::Pin;
use std::task::Poll;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes};
use futures_util::{Sink, SinkExt};
use tengen_protocol::CloseCode;
use tokio::time::Sleep;

use super::queue::{BATCH, Frame, Inbox, Queued, ping_payload};

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

impl Inbox {
    /// Drains the queue into `sink` until asked to close (then sends the
    /// close frame) or the socket fails. A write the socket does not take
    /// within `write_timeout` (a peer that stopped reading, its TCP window
    /// shut) ends the writer as [`WriterEnd::Stalled`]: the socket is
    /// dropped, not waited on for ever.
    ///
    /// The writer is one task per connection and mostly waits: its future
    /// holds only what waiting needs. Each write step is boxed for as long
    /// as it runs, not kept inline, where every idle connection would hold
    /// room for it (0.6 KiB a connection more in the `idle` and `games`
    /// runs); its timer is boxed too, and made only when a write has to
    /// wait. This is a function returning an `async move` block, not an
    /// `async fn`, which would keep its arguments twice.
    #[allow(clippy::manual_async_fn)]
    pub fn drain<S>(
        self,
        sink: S,
        write_timeout: Duration,
    ) -> impl Future<Output = WriterEnd> + Send
    where
        S: Sink<Message> + Unpin + Send,
    {
        async move {
            let mut sink = sink;
            let within = write_timeout;
            while self.control.asked_code().is_none() {
                let Ok(entry) = self.rx.recv_async().await else {
                    return WriterEnd::Gone;
                };
                if matches!(entry, Queued::Wake) {
                    continue;
                }
                let step = bounded(within, write_batch(&mut sink, entry, &self.rx));
                if let Some(end) = Box::pin(step).await {
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

/// Runs one write step, within `within` of the first time it has to wait:
/// `None` when it went through, else how the writer ends (the socket
/// failed, or stalled). A step that completes at once reads no clock and
/// makes no timer.
async fn bounded<E>(
    within: Duration,
    step: impl Future<Output = Result<(), E>>,
) -> Option<WriterEnd> {
    let mut step = std::pin::pin!(step);
    let mut timer: Option<Pin<Box<Sleep>>> = None;
    let outcome = std::future::poll_fn(|cx| {
        if let Poll::Ready(done) = step.as_mut().poll(cx) {
            return Poll::Ready(Some(done));
        }
        let timer = timer.get_or_insert_with(|| Box::pin(tokio::time::sleep(within)));
        timer.as_mut().poll(cx).map(|()| None)
    })
    .await;
    match outcome {
        Some(Ok(())) => None,
        Some(Err(_)) => Some(WriterEnd::Gone),
        None => {
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

/// Feeds an entry's frames (or its ping) to `sink`, counting them in
/// `fed`; a long burst is flushed every [`BATCH`] frames, so it goes out as
/// the socket takes it rather than piling up in the write buffer.
async fn feed<S>(sink: &mut S, entry: Queued, fed: &mut usize) -> Result<(), S::Error>
where
    S: Sink<Message> + Unpin,
{
    if matches!(entry, Queued::Ping) {
        *fed += 1;
        return sink.feed(Message::Ping(ping_payload())).await;
    }
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
    /// Every frame queued now, without waiting: what a table made for a
    /// spectator of another node, to go in the table's fan to that node
    /// (`crate::cluster::fan`).
    pub fn take_now(&self) -> Vec<Frame> {
        let mut frames = Vec::new();
        while let Ok(entry) = self.rx.try_recv() {
            frames.extend(entry.into_frames());
        }
        frames
    }

    /// Drains the queue into `send` instead of a socket, a batch at a time
    /// (a node relaying a connection of another node's: `cluster`), until
    /// asked to close; returns the close code. A batch `send` refuses is
    /// dropped (the receiver sees the gap and resynchronises).
    pub async fn relay(self, mut send: impl FnMut(Vec<Frame>) -> bool) -> u16 {
        while self.control.asked_code().is_none() {
            let Ok(entry) = self.rx.recv_async().await else {
                break;
            };
            let mut batch: Vec<Frame> = entry.into_frames().collect();
            while batch.len() < BATCH {
                let Ok(entry) = self.rx.try_recv() else { break };
                batch.extend(entry.into_frames());
            }
            if !batch.is_empty() {
                let _ = send(batch);
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
