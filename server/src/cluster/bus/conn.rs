//! The bus's Redis side: the client, opening a connection, the commands
//! it sends (each bounded in time) and the publisher task.

use super::shared::*;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{IntoConnectionInfo, ProtocolVersion, PushInfo, Value};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// A client for `config.url` speaking RESP3 (push messages), with the CA
/// file when one is given.
pub(super) fn client(config: &BusConfig) -> Result<redis::Client, BusError> {
    let shown = tengen_store::redis::redact(&config.url);
    let bad_url = |source| BusError::Url {
        url: shown.clone(),
        source,
    };
    let tls = config.url.starts_with("rediss://");
    if tls {
        // As in the store: another crate may enable a second rustls
        // provider, and then rustls must be told which one to use.
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
    let info = config
        .url
        .as_str()
        .into_connection_info()
        .map_err(bad_url)?;
    let settings = info
        .redis_settings()
        .clone()
        .set_protocol(ProtocolVersion::RESP3);
    let info = info.set_redis_settings(settings);
    match &config.ca_file {
        None => redis::Client::open(info).map_err(bad_url),
        Some(_) if !tls => Err(BusError::CaWithoutTls(shown.clone())),
        Some(file) => {
            let pem = std::fs::read(file).map_err(|source| BusError::CaFile {
                file: file.clone(),
                source,
            })?;
            let certificates = redis::TlsCertificates {
                client_tls: None,
                root_cert: Some(pem),
            };
            redis::Client::build_with_tls(info, certificates).map_err(bad_url)
        }
    }
}

/// A connection manager; with `push`, the subscriber's, whose pushes go
/// to the shared state tagged with the connection generation.
pub(super) async fn open(
    client: &redis::Client,
    push: Option<(&Arc<Shared>, u64)>,
) -> Result<ConnectionManager, BusError> {
    let mut config = ConnectionManagerConfig::new()
        .set_connection_timeout(Some(Duration::from_secs(1)))
        .set_response_timeout(Some(COMMAND_TIMEOUT))
        .set_number_of_retries(2)
        .set_min_delay(Duration::from_millis(50))
        .set_max_delay(Duration::from_millis(500));
    if let Some((shared, epoch)) = push {
        let shared = shared.clone();
        config = config
            .set_push_sender(
                move |info: PushInfo| -> Result<(), std::convert::Infallible> {
                    shared.push(epoch, info);
                    Ok(())
                },
            )
            .set_automatic_resubscription();
    }
    match tokio::time::timeout(
        COMMAND_TIMEOUT,
        ConnectionManager::new_with_config(client.clone(), config),
    )
    .await
    {
        Ok(Ok(conn)) => Ok(conn),
        Ok(Err(e)) => Err(BusError::Unavailable(e.to_string())),
        Err(_) => Err(BusError::Unavailable(format!(
            "no connection within {COMMAND_TIMEOUT:?}"
        ))),
    }
}

pub(super) async fn subscribe(
    conn: &mut ConnectionManager,
    channels: &[String],
) -> Result<(), String> {
    for batch in channels.chunks(SUBSCRIBE_BATCH) {
        bounded(conn.subscribe(batch)).await?;
    }
    Ok(())
}

pub(super) async fn unsubscribe(
    conn: &mut ConnectionManager,
    channels: &[String],
) -> Result<(), String> {
    for batch in channels.chunks(SUBSCRIBE_BATCH) {
        bounded(conn.unsubscribe(batch)).await?;
    }
    Ok(())
}

pub(super) async fn ping(conn: &mut ConnectionManager) -> Result<(), String> {
    bounded(async {
        redis::cmd("PING")
            .query_async::<Value>(conn)
            .await
            .map(|_| ())
    })
    .await
}

/// A Redis call within [`COMMAND_TIMEOUT`].
pub(super) async fn bounded<T>(
    call: impl std::future::Future<Output = redis::RedisResult<T>>,
) -> Result<T, String> {
    match tokio::time::timeout(COMMAND_TIMEOUT, call).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!("no answer within {COMMAND_TIMEOUT:?}")),
    }
}

/// The publisher task: sends what is queued, in order, one pipeline per
/// batch, until every handle is gone. An idle publisher pings now and then,
/// so its connection is back before the next message after an outage.
pub(super) async fn publish_loop(
    mut queue: mpsc::Receiver<Outgoing>,
    mut conn: ConnectionManager,
    shared: Arc<Shared>,
) {
    let mut batch = Vec::with_capacity(PUBLISH_BATCH);
    loop {
        tokio::select! {
            n = queue.recv_many(&mut batch, PUBLISH_BATCH) => if n == 0 {
                return;
            },
            _ = tokio::time::sleep(KEEPALIVE) => {
                let _ = ping(&mut conn).await;
                continue;
            }
        }
        let mut pipe = redis::pipe();
        for m in &batch {
            pipe.cmd("PUBLISH")
                .arg(&m.channel)
                .arg(m.payload.as_ref())
                .ignore();
        }
        let n = batch.len() as u64;
        match send_batch(&mut conn, &pipe).await {
            Ok(()) => bump(&shared.counters.published, n),
            Err(e) => {
                bump(&shared.counters.publish_failed, n);
                tracing::warn!(error = %e, messages = n, "bus: publishing failed, messages dropped");
            }
        }
        batch.clear();
    }
}

/// Sends one batch within [`COMMAND_TIMEOUT`]. A refused connection means
/// the batch never reached Redis, so it is sent again (the manager
/// reconnects meanwhile); any other failure may have published part of
/// it, and it is not repeated.
pub(super) async fn send_batch(
    conn: &mut ConnectionManager,
    pipe: &redis::Pipeline,
) -> Result<(), String> {
    const PAUSE: Duration = Duration::from_millis(100);
    let deadline = tokio::time::Instant::now() + COMMAND_TIMEOUT;
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        match tokio::time::timeout(left, pipe.query_async::<()>(conn)).await {
            Ok(Ok(())) => return Ok(()),
            Ok(Err(e)) if e.is_connection_refusal() && left > PAUSE => {
                tokio::time::sleep(PAUSE).await;
            }
            Ok(Err(e)) => return Err(e.to_string()),
            Err(_) => return Err(format!("no answer within {COMMAND_TIMEOUT:?}")),
        }
    }
}
