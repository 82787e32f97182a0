//! A connection to a Tengen server: the handshake, requests matched to
//! their replies by `id`, and everything else (pushes) in arrival order.
//!
//! It is one value owned by one task, with no background task: a request
//! reads frames until its reply arrives and keeps the pushes it passed on
//! the way, so nothing is lost and nothing is reordered. The terminal
//! client, the load generator, the bots and the server's tests all use it.

use std::collections::VecDeque;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tengen_protocol::{
    ClientMsg, DecodeError, Encoding, Envelope, ErrorBody, Hello, PROTOCOL_VERSION, RequestId,
    ServerFrame, ServerMsg, Welcome, decode_server, encode_client,
};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Why a connection failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("websocket: {0}")]
    Ws(#[from] tungstenite::Error),
    #[error("undecodable frame from the server: {0}")]
    Decode(#[from] DecodeError),
    #[error("the server closed the connection ({code}: {reason})")]
    Closed { code: u16, reason: String },
    #[error("the server refused: {} ({})", .0.message, .0.code.as_str())]
    Refused(ErrorBody),
    #[error("no answer within {0:?}")]
    Timeout(Duration),
    #[error("unexpected message: {0}")]
    Unexpected(String),
}

/// Who a connection says it is in `hello`: a guest name (which the server
/// may change, and ignores for an account) and a login token
/// (`hello.token`, from `registered` or `logged_in`) that makes the
/// session an account's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Identity {
    pub name: Option<String>,
    pub login: Option<String>,
}

impl Identity {
    /// A guest asking for `name`.
    pub fn guest(name: Option<&str>) -> Identity {
        Identity {
            name: name.map(str::to_string),
            login: None,
        }
    }
}

/// The read buffer our sockets use (tungstenite's default is 128 KiB).
const READ_BUFFER: usize = 8 * 1024;

/// One open connection.
pub struct Connection {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    encoding: Encoding,
    next_id: u64,
    pushes: VecDeque<ServerFrame>,
    /// How long a request waits for its reply.
    pub timeout: Duration,
    /// Set by [`Connection::pace`]: frames wait to stay within the
    /// server's rate instead of being refused.
    pace: Option<crate::pace::Pace>,
}

impl Connection {
    /// Opens a WebSocket to `url` (e.g. `ws://127.0.0.1:8415/ws`) without
    /// saying hello (for tests of the handshake itself).
    pub async fn open(url: &str, encoding: Encoding) -> Result<Connection, ClientError> {
        let config = WebSocketConfig::default().read_buffer_size(READ_BUFFER);
        let (ws, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), true).await?;
        Ok(Connection {
            ws,
            encoding,
            next_id: 1,
            pushes: VecDeque::new(),
            timeout: Duration::from_secs(10),
            pace: None,
        })
    }

    /// Opens a connection and completes the handshake as `name`.
    pub async fn connect(
        url: &str,
        encoding: Encoding,
        name: Option<&str>,
    ) -> Result<(Connection, Welcome), ClientError> {
        Connection::connect_resuming(url, encoding, name, None).await
    }

    /// Like [`Connection::connect`], resuming the session of `resume` (a
    /// `welcome.resume_token`) if the server still has it
    /// (`welcome.resumed`).
    pub async fn connect_resuming(
        url: &str,
        encoding: Encoding,
        name: Option<&str>,
        resume: Option<&str>,
    ) -> Result<(Connection, Welcome), ClientError> {
        Connection::connect_as(url, encoding, &Identity::guest(name), resume).await
    }

    /// Opens a connection and says hello as `who`, resuming the session of
    /// `resume` if the server still has it (a resumable session wins over
    /// `who.login`). A login token the server does not accept is refused
    /// ([`ClientError::Refused`] with `token_expired` or `bad_credentials`).
    pub async fn connect_as(
        url: &str,
        encoding: Encoding,
        who: &Identity,
        resume: Option<&str>,
    ) -> Result<(Connection, Welcome), ClientError> {
        let mut c = Connection::open(url, encoding).await?;
        let reply = c
            .request(ClientMsg::Hello(Hello {
                version: PROTOCOL_VERSION,
                client: Some(format!("tengen-client/{}", env!("CARGO_PKG_VERSION"))),
                name: who.name.clone(),
                resume: resume.map(str::to_string),
                token: who.login.clone(),
            }))
            .await?;
        match reply {
            ServerMsg::Welcome(w) => Ok((c, w)),
            other => Err(ClientError::Unexpected(other.type_name().to_string())),
        }
    }

    /// Reconnects after a dropped connection, resuming the session of
    /// `token`: tries at once, then backs off (doubling from 100 ms up to
    /// 5 s, with jitter) until `give_up_after` has passed. A refusal that
    /// retrying cannot fix (an unsupported version) ends it at once; an
    /// `unavailable` refusal (the session's game is moving between nodes)
    /// is tried again after the `retry_after_ms` it gives.
    pub async fn reconnect(
        url: &str,
        encoding: Encoding,
        name: Option<&str>,
        token: &str,
        give_up_after: Duration,
    ) -> Result<(Connection, Welcome), ClientError> {
        Connection::reconnect_as(url, encoding, &Identity::guest(name), token, give_up_after).await
    }

    /// [`Connection::reconnect`] as `who` (with a login token, a session the
    /// server no longer has is opened as the account again).
    pub async fn reconnect_as(
        url: &str,
        encoding: Encoding,
        who: &Identity,
        token: &str,
        give_up_after: Duration,
    ) -> Result<(Connection, Welcome), ClientError> {
        let deadline = tokio::time::Instant::now() + give_up_after;
        let mut wait = Duration::from_millis(100);
        loop {
            match Connection::connect_as(url, encoding, who, Some(token)).await {
                Ok(ok) => return Ok(ok),
                // `unavailable`: the server cannot take the session back yet
                // (its game is moving over from a node that died), and says
                // when to try again.
                Err(ClientError::Refused(e))
                    if e.code == tengen_protocol::ErrorCode::Unavailable =>
                {
                    let now = tokio::time::Instant::now();
                    let after = Duration::from_millis(e.retry_after_ms.unwrap_or(500).min(5_000));
                    if now + after > deadline {
                        return Err(ClientError::Refused(e));
                    }
                    tokio::time::sleep(after).await;
                }
                Err(e @ ClientError::Refused(_)) => return Err(e),
                Err(e) => {
                    let now = tokio::time::Instant::now();
                    if now + wait > deadline {
                        return Err(e);
                    }
                    // Jitter (up to a quarter) so that a server restart is
                    // not met by every client at the same instant.
                    let nanos = std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.subsec_nanos() as u64);
                    let jitter = Duration::from_nanos(nanos % (wait.as_nanos() as u64 / 4 + 1));
                    tokio::time::sleep(wait + jitter).await;
                    wait = (wait * 2).min(Duration::from_secs(5));
                }
            }
        }
    }

    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Sends `msg` with a fresh request id and returns the id.
    pub async fn send(&mut self, msg: ClientMsg) -> Result<RequestId, ClientError> {
        let id = RequestId::from(self.next_id);
        self.next_id += 1;
        self.send_frame(&Envelope::with_id(Some(id), msg)).await?;
        Ok(id)
    }

    /// Keeps this connection's frames within `limits` (the welcome's):
    /// a frame past the rate waits for its turn instead of being refused.
    /// Clients that reply at once (bots, engines) want this; tests of the
    /// server's own limits do not.
    pub fn pace(&mut self, limits: &tengen_protocol::Limits) {
        self.pace = Some(crate::pace::Pace::new(limits));
    }

    /// Sends a frame as it is (any id, or none).
    pub async fn send_frame(&mut self, frame: &Envelope<ClientMsg>) -> Result<(), ClientError> {
        if let Some(pace) = &mut self.pace {
            let wait = pace.take(tokio::time::Instant::now());
            if !wait.is_zero() {
                tokio::time::sleep(wait).await;
            }
        }
        let bytes = encode_client(frame, self.encoding);
        let msg = match self.encoding {
            Encoding::Json => Message::Text(String::from_utf8(bytes).expect("JSON").into()),
            Encoding::MsgPack => Message::Binary(bytes.into()),
        };
        self.ws.send(msg).await?;
        Ok(())
    }

    /// Sends a raw WebSocket message (for tests of bad input).
    pub async fn send_raw(&mut self, msg: Message) -> Result<(), ClientError> {
        self.ws.send(msg).await?;
        Ok(())
    }

    /// Sends `msg` and waits for its reply; an `error` reply is
    /// [`ClientError::Refused`]. Pushes that arrive meanwhile are kept for
    /// [`Connection::next`].
    pub async fn request(&mut self, msg: ClientMsg) -> Result<ServerMsg, ClientError> {
        let id = self.send(msg).await?;
        let wait = self.timeout;
        tokio::time::timeout(wait, async {
            loop {
                let frame = self.read().await?;
                if frame.id == Some(id) {
                    return match frame.msg {
                        ServerMsg::Error(e) => Err(ClientError::Refused(e)),
                        other => Ok(other),
                    };
                }
                self.pushes.push_back(frame);
            }
        })
        .await
        .map_err(|_| ClientError::Timeout(wait))?
    }

    /// The next frame that was not a reply claimed by [`Connection::request`],
    /// in arrival order.
    pub async fn next(&mut self) -> Result<ServerFrame, ClientError> {
        if let Some(f) = self.pushes.pop_front() {
            return Ok(f);
        }
        let wait = self.timeout;
        tokio::time::timeout(wait, self.read())
            .await
            .map_err(|_| ClientError::Timeout(wait))?
    }

    /// The next frame whose message satisfies `pred`, skipping others.
    pub async fn next_matching(
        &mut self,
        mut pred: impl FnMut(&ServerMsg) -> bool,
    ) -> Result<ServerFrame, ClientError> {
        loop {
            let f = self.next().await?;
            if pred(&f.msg) {
                return Ok(f);
            }
        }
    }

    /// Reads one frame from the socket (control frames are answered by
    /// tungstenite and skipped).
    async fn read(&mut self) -> Result<ServerFrame, ClientError> {
        loop {
            let msg = match self.ws.next().await {
                Some(m) => m?,
                None => {
                    return Err(ClientError::Closed {
                        code: 1006,
                        reason: "connection ended".into(),
                    });
                }
            };
            let (bytes, encoding) = match msg {
                Message::Text(t) => (bytes::Bytes::from(t), Encoding::Json),
                Message::Binary(b) => (b, Encoding::MsgPack),
                Message::Close(c) => {
                    let (code, reason) = c.map_or((1005, String::new()), |c| {
                        (u16::from(c.code), c.reason.to_string())
                    });
                    return Err(ClientError::Closed { code, reason });
                }
                _ => continue,
            };
            return Ok(decode_server(&bytes, encoding)?);
        }
    }

    /// Closes the connection politely.
    pub async fn close(mut self) -> Result<(), ClientError> {
        self.ws.close(None).await?;
        Ok(())
    }
}
