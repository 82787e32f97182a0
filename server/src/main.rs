//! `tengen-server`: the Tengen game server.
//!
//! Parses flags (each with an environment variable), sets up logging, and
//! runs [`tengen_server::Server`] until SIGINT/SIGTERM.

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use clap::Parser;
use tengen_server::{Server, Settings};
use tracing_subscriber::EnvFilter;

/// The Tengen gomoku and renju server (WebSocket at /ws, /healthz, /metrics).
#[derive(Parser)]
#[command(name = "tengen-server", version)]
struct Args {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, env = "TENGEN_LISTEN", default_value = "127.0.0.1:8415")]
    listen: SocketAddr,
    /// Directory for durable state: the embedded store (live games' action
    /// logs, finished games, accounts, ratings). Created if missing.
    #[arg(long, env = "TENGEN_DATA_DIR", default_value = "tengen-data")]
    data_dir: PathBuf,
    /// WebSocket read buffer per connection, in bytes (larger frames still
    /// arrive: the buffer grows for them).
    #[arg(long, env = "TENGEN_READ_BUFFER", default_value_t = 4096)]
    read_buffer_bytes: usize,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_env("TENGEN_LOG").unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let args = Args::parse();
    // Each connection is an open file: take the whole hard limit (a
    // container's soft limit is often 1,024, which would cap a node near a
    // thousand players).
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(n) => tracing::info!(open_files = n, "open-file limit"),
        Err(e) => tracing::warn!(error = %e, "could not raise the open-file limit"),
    }
    if args.data_dir.as_os_str().is_empty() {
        anyhow::bail!("--data-dir must name a directory");
    }
    let settings = Settings {
        listen: args.listen,
        data_dir: args.data_dir,
        read_buffer_bytes: args.read_buffer_bytes.clamp(1024, 64 * 1024),
        ..Settings::default()
    };
    let server = Server::start(settings)
        .await
        .context("tengen-server did not start")?;
    if server.restored() > 0 {
        tracing::info!(games = server.restored(), "live games restored");
    }
    // The one line scripts wait for (`--listen 127.0.0.1:0` tells the port).
    println!("listening on {}", server.addr());
    shutdown_signal().await;
    tracing::info!("shutting down: closing connections with 1012 (restarting)");
    server.shutdown();
    // Every accepted action is already on disk; leave within 5 seconds even
    // if a connection does not finish its closing handshake.
    match tokio::time::timeout(STOP_WITHIN, server.wait()).await {
        Ok(r) => r.context("server stopped with an error")?,
        Err(_) => tracing::warn!("connections still open after {STOP_WITHIN:?}; exiting anyway"),
    }
    Ok(())
}

/// How long a graceful stop may take.
const STOP_WITHIN: std::time::Duration = std::time::Duration::from_millis(4500);

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .expect("a SIGTERM handler");
        tokio::select! {
            _ = ctrl_c => {},
            _ = term.recv() => {},
        }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}
