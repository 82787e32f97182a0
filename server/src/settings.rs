//! The server's settings: where it listens, where it keeps data, and every
//! bound it enforces (the protocol's limits plus the server's own queues and
//! timers). One value, built by the binary from flags and environment, or
//! by tests directly.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use tengen_protocol::Limits;

/// Everything a server needs to start.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Address to bind (`127.0.0.1:8415` by default; port 0 picks one).
    pub listen: SocketAddr,
    /// Where durable state will live (the store arrives with issue 7).
    pub data_dir: PathBuf,
    /// The limits announced to clients in `welcome` and enforced here.
    pub limits: Limits,
    /// Frames a connection's outbound queue holds before the connection is
    /// cut off as a slow consumer.
    pub outbound_queue: usize,
    /// Commands a table's mailbox holds.
    pub table_mailbox: usize,
    /// tungstenite's read buffer per connection (the default, 128 KiB, would
    /// cost ~135 KiB per idle socket).
    pub read_buffer_bytes: usize,
    /// How often the server pings an idle connection.
    pub ping_interval: Duration,
    /// How long a game may wait for a seat's first action before it is
    /// aborted (RULES.md §7: a side that never moves).
    pub first_move_timeout: Duration,
    /// How often coalesced updates (lobby changes, spectator counts) go out.
    pub coalesce_interval: Duration,
    /// How long a finished table stays open for snapshots, late viewers and
    /// its room's players; then the room goes too.
    pub finished_table_linger: Duration,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            listen: "127.0.0.1:8415".parse().expect("a valid address"),
            data_dir: PathBuf::from("tengen-data"),
            limits: Limits::default(),
            outbound_queue: 256,
            table_mailbox: 256,
            read_buffer_bytes: 8 * 1024,
            ping_interval: Duration::from_secs(20),
            first_move_timeout: Duration::from_secs(60),
            coalesce_interval: Duration::from_millis(250),
            finished_table_linger: Duration::from_secs(600),
        }
    }
}
