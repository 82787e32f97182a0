//! The writer task's side of a connection's queue: draining it into the
//! socket a batch at a time (fed, then flushed once), pinging, ending on a
//! stalled peer, and the close; or, for a connection another node relays,
//! into that node's link.
//!
//! Why apart from the queue: the queue (`Outbox`) is what every sender
//! sees and must never wait on; this side is the one task per connection
//! that waits on the socket, and its future's size is paid by every idle
//! connection (see [`Inbox::drain`]).

use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes};
use futures_util::{Sink, SinkExt};
use tengen_protocol::CloseCode;

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
