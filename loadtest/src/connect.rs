//! Opening a load connection: the connect time counted, the errors
//! classified, and new work the server sheds under overload (HTTP 503
//! before the upgrade, `unavailable` with `retry_after_ms`) waited out and
//! tried again, as a well-behaved client does (counted as shed, not as
//! errors).

use std::time::Instant;

use tengen_client::{ClientError, Connection};
use tengen_protocol::{ClientMsg, ServerMsg, Welcome};
use tokio::time::sleep_until;

use crate::run::{Ctx, kind};
use crate::stats::CONNECT;

/// Opens a connection and says hello as `name`; counts the connect time or
/// the error. `None` at the deadline or on failure.
pub async fn connect(ctx: &Ctx, url: &str, name: &str) -> Option<Connection> {
    connect_welcome(ctx, url, name).await.map(|(c, _)| c)
}

/// [`connect`], with the server's `welcome` (churn keeps its resume token).
pub async fn connect_welcome(ctx: &Ctx, url: &str, name: &str) -> Option<(Connection, Welcome)> {
    let started = Instant::now();
    let result = loop {
        let permit = ctx.connect_permits.acquire().await.ok()?;
        let result = tokio::select! {
            r = Connection::connect(url, ctx.plan.encoding, Some(name)) => r,
            _ = sleep_until(ctx.deadline) => return None,
        };
        drop(permit);
        // An overloaded server sheds new connections with 503 and a time
        // to retry: a well-behaved client waits and tries again.
        match result.as_ref().err().and_then(busy_retry_after) {
            Some(wait) => {
                ctx.stats().shed += 1;
                tokio::select! {
                    _ = tokio::time::sleep(wait) => {}
                    _ = sleep_until(ctx.deadline) => return None,
                }
            }
            None => break result,
        }
    };
    match result {
        Ok((mut c, welcome)) => {
            let mut s = ctx.stats();
            s.record(CONNECT, started.elapsed().as_micros() as u64);
            s.connections += 1;
            drop(s);
            ctx.open.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            c.timeout = (ctx.plan.move_interval * 4).max(std::time::Duration::from_secs(10));
            Some((c, welcome))
        }
        Err(e) => {
            ctx.error(format!("connect: {}", kind(&e)));
            None
        }
    }
}

/// How long to wait before trying again, when `e` is the server shedding
/// new work (HTTP 503 before the upgrade, or `unavailable` with
/// `retry_after_ms`).
pub fn busy_retry_after(e: &ClientError) -> Option<std::time::Duration> {
    use tokio_tungstenite::tungstenite::Error as WsError;
    match e {
        ClientError::Ws(WsError::Http(response)) if response.status().as_u16() == 503 => {
            let secs = response
                .headers()
                .get("retry-after")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(1);
            Some(std::time::Duration::from_secs(secs.clamp(1, 30)))
        }
        ClientError::Refused(b) if b.code == tengen_protocol::ErrorCode::Unavailable => b
            .retry_after_ms
            .map(|ms| std::time::Duration::from_millis(ms.clamp(100, 30_000))),
        _ => None,
    }
}

/// Sends `msg` and waits for its answer; a refusal as busy (`unavailable`
/// with `retry_after_ms`: the server shedding new work, or an actor's full
/// mailbox) is waited out and the request sent again until the deadline
/// and its drain, each counted as shed.
pub async fn request_patiently(
    ctx: &Ctx,
    conn: &mut Connection,
    msg: ClientMsg,
) -> Result<ServerMsg, ClientError> {
    loop {
        match conn.request(msg.clone()).await {
            Err(e) => match busy_retry_after(&e) {
                Some(wait) if tokio::time::Instant::now() < ctx.finish_by => {
                    ctx.stats().shed += 1;
                    tokio::time::sleep(wait).await;
                }
                _ => return Err(e),
            },
            r => return r,
        }
    }
}
