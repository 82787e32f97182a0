//! A prototype, not a product: the Tengen server with settings its binary
//! does not expose yet, for measuring what they change beside the idle
//! memory figure of BENCHMARKS.md. `cargo run --release -p tengen-loadtest --example
//! tuned_server -- 127.0.0.1:18416 4096` serves with a 4 KiB read buffer.

use tengen_server::{Server, Settings};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let listen = args
        .next()
        .unwrap_or_else(|| "127.0.0.1:0".into())
        .parse()
        .expect("ADDR:PORT");
    let read_buffer_bytes = args.next().map_or(8 * 1024, |s| s.parse().expect("bytes"));
    let server = Server::start(Settings {
        listen,
        read_buffer_bytes,
        // A throwaway data directory, removed at exit.
        data_dir: std::path::PathBuf::new(),
        ..Settings::default()
    })
    .await?;
    println!(
        "listening on {} (read buffer {read_buffer_bytes} B)",
        server.addr()
    );
    tokio::signal::ctrl_c().await?;
    server.shutdown();
    server.wait().await?;
    Ok(())
}
