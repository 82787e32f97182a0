//! The gate before HTTP: the listener that counts each accepted socket
//! against its address ([`crate::addresses`]), and the deadline on a
//! socket's HTTP side.
//!
//! A peer that opens a socket and sends nothing, or trickles its request a
//! byte at a time (slowloris), would hold a file for ever: every accepted
//! socket is a [`GuardedStream`] whose reads and writes fail once its
//! [`Deadline`] passes. The deadline starts at accept
//! ([`CapSettings::handshake_timeout`]); [`deadline_layer`] lifts it while
//! a complete request is handled and sets it again when the response is
//! made, to the handshake timeout plus the write timeout (time for the
//! client to take the response and send its next request: an idle
//! keep-alive connection and a reader too slow for a response are cut off
//! too). A 101
//! (the WebSocket upgrade) lifts it for good: from then on the connection's
//! own timers rule (the `hello` deadline, the idle timeout, the writer's
//! write timeout).
//!
//! Every accepted socket sends at once (`TCP_NODELAY`): the clocks in an
//! event are exact as of its send, so the kernel must not hold it back.
//!
//! [`CapSettings::handshake_timeout`]: crate::settings::CapSettings::handshake_timeout

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll, ready};
use std::time::Duration;

use axum::extract::connect_info::Connected;
use axum::extract::{ConnectInfo, Request};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::Response;
use axum::serve::IncomingStream;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::{Instant, Sleep};

use crate::addresses::{Addresses, Place};
use crate::metrics::{Cap, cap_hit};

/// The origin of [`Deadline`]'s instants.
fn epoch() -> Instant {
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// A socket's deadline, shared by its stream and the requests on it:
/// milliseconds after [`epoch`], 0 for none, or [`UPGRADED`].
#[derive(Debug, Default)]
pub struct Deadline(AtomicU64);

/// [`Deadline`]'s value once the socket is upgraded: no deadline, for good.
const UPGRADED: u64 = u64::MAX;

impl Deadline {
    /// The socket must make its next request within `after`.
    pub fn set(&self, after: Duration) {
        let at = (Instant::now() + after).duration_since(epoch()).as_millis() as u64;
        self.0.store(at.max(1), Ordering::Release);
    }

    /// No deadline (a request is being handled).
    pub fn lift(&self) {
        self.0.store(0, Ordering::Release);
    }

    /// No deadline, for good (the socket was upgraded).
    pub fn lift_for_good(&self) {
        self.0.store(UPGRADED, Ordering::Release);
    }

    fn get(&self) -> u64 {
        self.0.load(Ordering::Acquire)
    }
}

/// What a handler learns of its socket: the peer's address and the
/// socket's deadline.
#[derive(Clone, Debug)]
pub struct Peer {
    pub addr: SocketAddr,
    pub deadline: Arc<Deadline>,
}

impl Connected<IncomingStream<'_, Gate>> for Peer {
    fn connect_info(stream: IncomingStream<'_, Gate>) -> Peer {
        Peer {
            addr: *stream.remote_addr(),
            deadline: stream.io().deadline.clone(),
        }
    }
}

/// The listener: accepts, counts the socket against its address (or
/// closes it unanswered past the cap), and arms its deadline.
pub struct Gate {
    pub listener: TcpListener,
    pub addresses: Arc<Addresses>,
}

impl axum::serve::Listener for Gate {
    type Io = GuardedStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (GuardedStream, SocketAddr) {
        loop {
            let (io, peer) = match self.listener.accept().await {
                Ok(accepted) => accepted,
                Err(e) => {
                    accept_failed(e).await;
                    continue;
                }
            };
            let place = match self.addresses.accept(peer.ip()) {
                Ok(place) => place,
                Err(cap) => {
                    cap_hit(cap);
                    tracing::debug!(%peer, cap = cap.name(), "socket refused");
                    continue;
                }
            };
            // No Nagle: with it a small frame waits behind an unacknowledged
            // one (a mover's `acted` behind its own `moved`, the opponent's
            // next move behind both) until the peer's delayed ACK, 40 ms on
            // Linux, all of it on the clock of a player not yet told.
            if let Err(e) = io.set_nodelay(true) {
                tracing::debug!(%peer, error = %e, "TCP_NODELAY not set");
            }
            let deadline = Arc::new(Deadline::default());
            deadline.set(self.addresses.settings().handshake_timeout);
            let io = GuardedStream {
                io,
                deadline,
                timer: None,
                upgraded: false,
                _place: place,
            };
            return (io, peer);
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }
}

/// What axum's own listener does on an accept error: per-connection
/// errors are skipped; others (out of files) wait a moment first.
async fn accept_failed(e: io::Error) {
    use io::ErrorKind::*;
    if matches!(
        e.kind(),
        ConnectionRefused | ConnectionAborted | ConnectionReset
    ) {
        return;
    }
    tracing::error!(error = %e, "accept failed");
    tokio::time::sleep(Duration::from_secs(1)).await;
}

/// An accepted socket under its deadline, holding its place under the
/// per-address cap until dropped.
pub struct GuardedStream {
    io: TcpStream,
    deadline: Arc<Deadline>,
    /// The timer for the deadline it was set for (none once lifted: an
    /// upgraded socket keeps no timer).
    timer: Option<(u64, Pin<Box<Sleep>>)>,
    /// The deadline was lifted for good: every read and write of an
    /// upgraded socket checks this flag only, not the shared deadline.
    upgraded: bool,
    _place: Option<Place>,
}

impl GuardedStream {
    /// `Err` once the deadline has passed; else registers the timer.
    fn check(&mut self, cx: &mut Context<'_>) -> io::Result<()> {
        if self.upgraded {
            return Ok(());
        }
        let at = self.deadline.get();
        if at == 0 || at == UPGRADED {
            self.upgraded = at == UPGRADED;
            self.timer = None;
            return Ok(());
        }
        if self.timer.as_ref().is_none_or(|(t, _)| *t != at) {
            let when = epoch() + Duration::from_millis(at);
            self.timer = Some((at, Box::pin(tokio::time::sleep_until(when))));
        }
        let Some((_, sleep)) = self.timer.as_mut() else {
            return Ok(());
        };
        match sleep.as_mut().poll(cx) {
            Poll::Ready(()) => {
                cap_hit(Cap::HandshakeTimeout);
                Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "no complete request in time",
                ))
            }
            Poll::Pending => Ok(()),
        }
    }
}

impl AsyncRead for GuardedStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        self.check(cx)?;
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl AsyncWrite for GuardedStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.check(cx)?;
        Pin::new(&mut self.io).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.check(cx)?;
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.check(cx)?;
        let n = ready!(Pin::new(&mut self.io).poll_write_vectored(cx, bufs))?;
        Poll::Ready(Ok(n))
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}

/// Middleware on every route: lifts the socket's deadline while a request
/// is handled, and sets it again for the next one unless the socket was
/// upgraded (101).
pub async fn deadline_layer(
    axum::extract::State(after): axum::extract::State<Duration>,
    request: Request,
    next: Next,
) -> Response {
    let deadline = request
        .extensions()
        .get::<ConnectInfo<Peer>>()
        .map(|ConnectInfo(p)| p.deadline.clone());
    if let Some(d) = &deadline {
        d.lift();
    }
    let response = next.run(request).await;
    if let Some(d) = deadline {
        if response.status() == StatusCode::SWITCHING_PROTOCOLS {
            d.lift_for_good();
        } else {
            d.set(after);
        }
    }
    response
}
