//! What the server counts, and `/metrics` in the Prometheus text format.
//!
//! The names live here, in one place, so a dashboard and the code agree.
//! The recorder is process-wide (the `metrics` crate's design): tests that
//! run several servers in one process share it, which only means their
//! counts add up.

use std::sync::OnceLock;

use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};

/// 1 while the store takes writes, 0 while it refuses them (gauge; the
/// reason is on `/healthz`).
pub const STORE_UP: &str = "tengen_store_up";
/// Open WebSocket connections (gauge).
pub const CONNECTIONS: &str = "tengen_connections";
/// Upgrades refused because the connection cap was reached (HTTP 503).
pub const CONNECTIONS_REFUSED: &str = "tengen_connections_refused_total";
/// Resumable sessions forgotten early because the registry was full.
pub const SESSIONS_EVICTED: &str = "tengen_sessions_evicted_total";
/// Live table actors (gauge).
pub const TABLES: &str = "tengen_tables";
/// Messages received from clients (counter, label `type`).
pub const MESSAGES_IN: &str = "tengen_messages_in_total";
/// Frames sent to clients (counter).
pub const MESSAGES_OUT: &str = "tengen_messages_out_total";
/// Error replies and forced closes (counter, label `kind`).
pub const ERRORS: &str = "tengen_errors_total";
/// Connections cut off because their outbound queue was full (counter).
pub const QUEUE_DROPS: &str = "tengen_queue_drops_total";
/// Seconds from a move's frame arriving to its events being queued for
/// every subscriber (histogram).
pub const MOVE_SECONDS: &str = "tengen_move_handling_seconds";
/// Store calls of tables that outlasted the store timeout while the store
/// was completing other writes (behind, not down), so were waited for
/// longer (counter).
pub const STORE_SLOW: &str = "tengen_store_slow_waits_total";
/// Seconds a table waited for the store to confirm an append (histogram).
pub const STORE_APPEND_SECONDS: &str = "tengen_store_append_seconds";
/// New work refused because the server was behind, by `what` (counter).
pub const SHED: &str = "tengen_shed_total";
/// New tables that waited for their turn to start (`crate::pacing`).
pub const TABLE_STARTS_PACED: &str = "tengen_table_starts_paced_total";
/// The runtime's lag, seconds (a moving average; gauge).
pub const RUNTIME_LAG: &str = "tengen_runtime_lag_seconds";
/// Post-game analyses finished (counter), and the milliseconds they took
/// on the blocking pool (counter): their quotient is the mean.
pub const ANALYSES: &str = "tengen_analyses_total";
pub const ANALYSIS_MS: &str = "tengen_analysis_milliseconds_total";

/// Games against the computer started (counter).
pub const COMPUTER_GAMES: &str = "tengen_computer_games_total";

/// A cap or deadline hit (counter, label `cap`: one of [`Cap`]'s names):
/// what SECURITY.md lists, each visible when it bites.
pub const CAPS_HIT: &str = "tengen_caps_hit_total";

/// Every cap and deadline the server enforces against floods and slow
/// peers, by the name `tengen_caps_hit_total` counts it under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cap {
    /// The global connection cap (HTTP 503).
    Connections,
    /// The session registry was full: a resumable session forgotten early.
    Sessions,
    /// Open WebSockets per client address (HTTP 429).
    AddressConnections,
    /// Open sockets per address at accept (closed unanswered).
    AddressSockets,
    /// WebSocket handshakes per address per minute (HTTP 429).
    Handshakes,
    /// The per-address table was full (closed unanswered).
    AddressTable,
    /// No complete HTTP request (the upgrade) in time.
    HandshakeTimeout,
    /// No `hello` in time (close 4001).
    HelloTimeout,
    /// Silence after `welcome` (close 4004).
    IdleTimeout,
    /// A write the peer did not take in time (a stalled reader).
    WriteTimeout,
    /// A full outbound queue (close 4002, a slow consumer).
    OutboundQueue,
    /// Registrations per address per hour.
    Registrations,
    /// A login refused while the (account, address) pair waits out its
    /// delay after failures.
    LoginDelay,
    /// A login refused while the (account, address) pair is locked.
    LoginLock,
    /// A login refused while the account's failures from all addresses
    /// throttle it (briefly).
    AccountThrottle,
}

impl Cap {
    pub const ALL: [Cap; 15] = [
        Cap::Connections,
        Cap::Sessions,
        Cap::AddressConnections,
        Cap::AddressSockets,
        Cap::Handshakes,
        Cap::AddressTable,
        Cap::HandshakeTimeout,
        Cap::HelloTimeout,
        Cap::IdleTimeout,
        Cap::WriteTimeout,
        Cap::OutboundQueue,
        Cap::Registrations,
        Cap::LoginDelay,
        Cap::LoginLock,
        Cap::AccountThrottle,
    ];

    /// The `cap` label.
    pub fn name(self) -> &'static str {
        match self {
            Cap::Connections => "connections",
            Cap::Sessions => "sessions",
            Cap::AddressConnections => "address_connections",
            Cap::AddressSockets => "address_sockets",
            Cap::Handshakes => "handshakes_per_minute",
            Cap::AddressTable => "address_table",
            Cap::HandshakeTimeout => "handshake_timeout",
            Cap::HelloTimeout => "hello_timeout",
            Cap::IdleTimeout => "idle_timeout",
            Cap::WriteTimeout => "write_timeout",
            Cap::OutboundQueue => "outbound_queue",
            Cap::Registrations => "registrations_per_hour",
            Cap::LoginDelay => "login_delay",
            Cap::LoginLock => "login_lock",
            Cap::AccountThrottle => "account_login_throttle",
        }
    }
}

/// Counts one hit of `cap`.
pub fn cap_hit(cap: Cap) {
    metrics::counter!(CAPS_HIT, "cap" => cap.name()).increment(1);
}

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
static PROCESS: OnceLock<metrics_process::Collector> = OnceLock::new();
/// [`MESSAGES_OUT`]'s handle, taken once the recorder is installed: it is
/// counted for every frame queued to every client, and `counter!` looks
/// its name up in the recorder's registry on each call.
static OUT: OnceLock<metrics::Counter> = OnceLock::new();

/// Counts `frames` queued to a client.
pub fn messages_out(frames: u64) {
    match OUT.get() {
        Some(counter) => counter.increment(frames),
        None => metrics::counter!(MESSAGES_OUT).increment(frames),
    }
}

/// Installs the process-wide recorder (once; later calls do nothing).
pub fn install() {
    HANDLE.get_or_init(|| {
        let buckets = [
            0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1,
            0.25, 1.0,
        ];
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(
                metrics_exporter_prometheus::Matcher::Full(MOVE_SECONDS.to_string()),
                &buckets,
            )
            .expect("non-empty buckets")
            .set_buckets_for_metric(
                metrics_exporter_prometheus::Matcher::Full(STORE_APPEND_SECONDS.to_string()),
                &buckets,
            )
            .expect("non-empty buckets")
            .build_recorder();
        let handle = recorder.handle();
        // Another recorder may already be installed (a test harness); then
        // ours renders only what it sees, which is still a valid page.
        let _ = metrics::set_global_recorder(recorder);
        let collector = metrics_process::Collector::default();
        collector.describe();
        let _ = PROCESS.set(collector);
        describe();
        // Every family is on the page from the start, not from its first use.
        metrics::gauge!(CONNECTIONS).set(0.0);
        metrics::gauge!(TABLES).set(0.0);
        metrics::gauge!(STORE_UP).set(1.0);
        let out = metrics::counter!(MESSAGES_OUT);
        out.absolute(0);
        let _ = OUT.set(out);
        metrics::counter!(QUEUE_DROPS).absolute(0);
        metrics::counter!(STORE_SLOW).absolute(0);
        metrics::gauge!(RUNTIME_LAG).set(0.0);
        metrics::counter!(ANALYSES).absolute(0);
        metrics::counter!(ANALYSIS_MS).absolute(0);
        for cap in Cap::ALL {
            metrics::counter!(CAPS_HIT, "cap" => cap.name()).absolute(0);
        }
        handle
    });
}

fn describe() {
    metrics::describe_gauge!(CONNECTIONS, "Open WebSocket connections");
    metrics::describe_gauge!(TABLES, "Live table actors");
    metrics::describe_gauge!(
        STORE_UP,
        "1 while the store takes writes, 0 while it refuses them (/healthz says why)"
    );
    metrics::describe_counter!(MESSAGES_IN, "Messages received from clients");
    metrics::describe_counter!(MESSAGES_OUT, "Frames queued to clients");
    metrics::describe_counter!(ERRORS, "Error replies and forced closes, by kind");
    metrics::describe_counter!(QUEUE_DROPS, "Slow consumers cut off");
    metrics::describe_histogram!(
        STORE_APPEND_SECONDS,
        metrics::Unit::Seconds,
        "How long a table waited for the store to confirm an append"
    );
    metrics::describe_counter!(SHED, "New work refused because the server was behind");
    metrics::describe_counter!(
        TABLE_STARTS_PACED,
        "New tables that waited for their turn to start (a wave of starts spread out)"
    );
    metrics::describe_gauge!(
        RUNTIME_LAG,
        "How late the runtime wakes a timer (moving average)"
    );
    metrics::describe_counter!(
        STORE_SLOW,
        "Table store calls given more time because the store was behind, not down"
    );
    metrics::describe_counter!(CAPS_HIT, "Caps and deadlines hit, by cap");
    metrics::describe_counter!(ANALYSES, "Post-game analyses finished");
    metrics::describe_counter!(ANALYSIS_MS, "Milliseconds spent on post-game analyses");
    metrics::describe_histogram!(
        MOVE_SECONDS,
        metrics::Unit::Seconds,
        "From a move's frame arriving to its events being queued to every subscriber"
    );
}

/// The `/metrics` page: process figures refreshed, then everything.
pub fn render() -> String {
    install();
    if let Some(p) = PROCESS.get() {
        p.collect();
    }
    HANDLE
        .get()
        .map(PrometheusHandle::render)
        .unwrap_or_default()
}

/// Counts an error of `kind` (an error code or a close reason).
pub fn error(kind: &'static str) {
    metrics::counter!(ERRORS, "kind" => kind).increment(1);
}
