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
    /// Directory for durable state.
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
    let settings = Settings {
        listen: args.listen,
        data_dir: args.data_dir,
        read_buffer_bytes: args.read_buffer_bytes.clamp(1024, 64 * 1024),
        ..Settings::default()
    };
    let server = Server::start(settings)
        .await
        .with_context(|| format!("cannot listen on {}", args.listen))?;
    // The one line scripts wait for (`--listen 127.0.0.1:0` tells the port).
    println!("listening on {}", server.addr());
    shutdown_signal().await;
    tracing::info!("shutting down");
    server.shutdown();
    server
        .wait()
        .await
        .context("server stopped with an error")?;
    Ok(())
}

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
