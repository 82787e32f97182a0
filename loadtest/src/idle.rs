//! The `idle` scenario: N connections that say hello and stay.
//!
//! Each task reads whatever comes (the server's WebSocket pings, answered by
//! tungstenite as it reads) until the deadline, then proves the connection is
//! still held with one application `ping` before closing. A connection the
//! server dropped meanwhile is an error.

use std::sync::Arc;
use std::time::Duration;

use tengen_client::ClientError;
use tengen_protocol::{ClientMsg, ServerMsg};
use tokio::time::sleep_until;

use crate::games::connect;
use crate::run::{Ctx, Target, kind};

pub fn spawn_all(ctx: &Arc<Ctx>) -> Vec<tokio::task::JoinHandle<()>> {
    ctx.plan
        .connections
        .clone()
        .map(|n| {
            let ctx = ctx.clone();
            tokio::spawn(async move { hold(&ctx, n).await })
        })
        .collect()
}

async fn hold(ctx: &Ctx, n: usize) {
    let name = match ctx.plan.target {
        Target::Server => format!("i{n}"),
        Target::Relay => "idle".to_string(),
    };
    let conn = connect(ctx, ctx.plan.url(n), &name).await;
    ctx.settled();
    let Some(mut conn) = conn else { return };
    conn.timeout = Duration::from_secs(3600);
    loop {
        tokio::select! {
            f = conn.next() => match f {
                Ok(f) => if let ServerMsg::Error(e) = f.msg {
                    ctx.error(format!("refused_{}", e.code.as_str()));
                },
                Err(ClientError::Timeout(_)) => {}
                Err(e) => return ctx.error(kind(&e)),
            },
            _ = sleep_until(ctx.deadline) => break,
        }
    }
    conn.timeout = Duration::from_secs(15);
    match conn.request(ClientMsg::Ping).await {
        Ok(ServerMsg::Pong { .. }) => {}
        Ok(other) => ctx.error(format!("unexpected_{}", other.type_name())),
        Err(e) => ctx.error(format!("final ping: {}", kind(&e))),
    }
    let _ = tokio::time::timeout(Duration::from_secs(1), conn.close()).await;
}
