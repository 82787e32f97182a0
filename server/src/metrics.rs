//! What the server counts, and `/metrics` in the Prometheus text format.
//!
//! The names live here, in one place, so a dashboard and the code agree.
//! The recorder is process-wide (the `metrics` crate's design): tests that
//! run several servers in one process share it, which only means their
//! counts add up.

use std::sync::{Arc, Mutex, OnceLock, Weak};

use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use tengen_rules::game::{GameConfig, GameResult, Outcome};
use tokio::sync::Semaphore;

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
/// New work refused because the server was behind, by `what` (counter).
pub const SHED: &str = "tengen_shed_total";
/// New tables that waited for their turn to start (`crate::pacing`).
pub const TABLE_STARTS_PACED: &str = "tengen_table_starts_paced_total";
/// The runtime's lag, seconds (a moving average; gauge).
pub const RUNTIME_LAG: &str = "tengen_runtime_lag_seconds";
/// Seconds a post-game analysis took on the blocking pool (histogram).
pub const ANALYSIS_SECONDS: &str = "tengen_analysis_seconds";
/// The analysis slots (gauge; the computer's searches take them too).
pub const ANALYSIS_SLOTS: &str = "tengen_analysis_slots";
/// Analysis slots taken now, by analyses and the computer (gauge).
pub const ANALYSIS_SLOTS_BUSY: &str = "tengen_analysis_slots_busy";

/// Seconds from a move's frame arriving to the store confirming its entry
/// (durable: the embedded store's fsync), the part of
/// [`MOVE_SECONDS`] before its broadcast (histogram).
pub const MOVE_DURABLE_SECONDS: &str = "tengen_move_durable_seconds";
/// Games started, by `rule_set`, `opening` and `rated` (counter).
pub const GAMES_STARTED: &str = "tengen_games_started_total";
/// Games finished and stored, by `rule_set`, `opening`, `rated`, `result`
/// (`black`, `white`, `draw`, `aborted`) and `reason` (the result's wire
/// name: `five`, `time`, `resignation`, ...) (counter).
pub const GAMES_FINISHED: &str = "tengen_games_finished_total";
/// Players waiting in the rated queues, by rating `family` (gauge).
pub const RATED_WAITING: &str = "tengen_rated_queue_waiting";
/// How long the longest waiter of each `family` has waited (gauge).
pub const RATED_OLDEST_WAIT: &str = "tengen_rated_queue_oldest_wait_seconds";
/// How long a paired player waited in the rated queue, by `family`
/// (histogram).
pub const RATED_WAIT: &str = "tengen_rated_queue_wait_seconds";
/// Players of games in progress with their connection at the table
/// (gauge).
pub const TABLE_PLAYERS: &str = "tengen_players_in_game";
/// Spectators of live tables (gauge).
pub const SPECTATORS: &str = "tengen_spectators";
/// Players whose grace after losing their connection ran out in a game
/// (counter).
pub const ABANDONMENTS: &str = "tengen_abandonments_total";
/// Claims the referee took, by `kind`: `forbidden_upheld` and
/// `forbidden_false` (white names a stone of black's as forbidden; a false
/// claim is a violation), `absence_win` and `absence_draw` (the opponent
/// is away past the grace) (counter).
pub const CLAIMS: &str = "tengen_claims_total";
/// Draws offered (counter).
pub const DRAW_OFFERS: &str = "tengen_draw_offers_total";
/// Seconds a table's store call took, by `call` (histogram).
pub const STORE_CALL_SECONDS: &str = "tengen_store_call_seconds";
/// Table store calls that failed, by `kind` (`unavailable`, `conflict`,
/// `lease_lost`, `corrupt`, ...) (counter).
pub const STORE_ERRORS: &str = "tengen_store_errors_total";
/// Requests refused for coming faster than their rate, by `what`
/// (`messages`, `chat`) (counter).
pub const RATE_LIMITED: &str = "tengen_rate_limited_total";
/// Renewals of this node's table leases that failed; while they fail the
/// leases lapse and other nodes take the tables over (counter).
pub const LEASE_RENEWALS_FAILED: &str = "tengen_lease_renewals_failed_total";
/// Table leases this node holds (gauge).
pub const LEASES_HELD: &str = "tengen_leases_held";
/// 1, labelled with this server's `node` id (gauge): joins a node's
/// series in a cluster.
pub const NODE_INFO: &str = "tengen_node_info";

/// Games against the computer started (counter).
pub const COMPUTER_GAMES: &str = "tengen_computer_games_total";

/// Finished games dropped because the explorer's indexer (`queue="index"`)
/// or the puzzle miner (`queue="mine"`) had a full queue (counter).
pub const STUDY_DROPPED: &str = "tengen_study_dropped_total";
/// Finished games added to the opening explorer (counter).
pub const STUDY_INDEXED: &str = "tengen_study_indexed_total";
/// Finished games searched for puzzles (counter), and puzzles made.
pub const STUDY_MINED: &str = "tengen_study_mined_total";
pub const PUZZLES_MADE: &str = "tengen_puzzles_made_total";
/// Seconds one finished game's puzzle search took on the blocking pool
/// (histogram).
pub const STUDY_MINE_SECONDS: &str = "tengen_study_mine_seconds";

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

/// Buckets of the move path's and the store's latencies, seconds: 50 µs
/// (a move on an idle server) to 10 s (a store call given its patience).
const LATENCY_BUCKETS: [f64; 16] = [
    0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
    1.0, 2.5, 10.0,
];
/// Buckets of the rated queue's waits, seconds (the matchmaker pairs
/// anyone in the same queue after two minutes).
const QUEUE_BUCKETS: [f64; 11] = [
    1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0,
];
/// Buckets of an analysis's time, seconds (its budget is nodes, not time).
const ANALYSIS_BUCKETS: [f64; 11] = [0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0];

/// Installs the process-wide recorder (once; later calls do nothing).
pub fn install() {
    HANDLE.get_or_init(|| {
        use metrics_exporter_prometheus::Matcher;
        let mut builder = PrometheusBuilder::new();
        for (name, buckets) in [
            (MOVE_SECONDS, &LATENCY_BUCKETS[..]),
            (MOVE_DURABLE_SECONDS, &LATENCY_BUCKETS[..]),
            (STORE_CALL_SECONDS, &LATENCY_BUCKETS[..]),
            (RATED_WAIT, &QUEUE_BUCKETS[..]),
            (ANALYSIS_SECONDS, &ANALYSIS_BUCKETS[..]),
            (STUDY_MINE_SECONDS, &ANALYSIS_BUCKETS[..]),
        ] {
            builder = builder
                .set_buckets_for_metric(Matcher::Full(name.to_string()), buckets)
                .expect("non-empty buckets");
        }
        let recorder = builder.build_recorder();
        let handle = recorder.handle();
        // Another recorder may already be installed (a test harness); then
        // ours renders only what it sees, which is still a valid page.
        let _ = metrics::set_global_recorder(recorder);
        let collector = metrics_process::Collector::default();
        collector.describe();
        let _ = PROCESS.set(collector);
        describe();
        // Every family is on the page from the start, not from its first
        // use (but those labelled by a game's rule set and result, and the
        // histograms, which appear with their first sample).
        for gauge in [
            CONNECTIONS,
            TABLES,
            TABLE_PLAYERS,
            SPECTATORS,
            LEASES_HELD,
            ANALYSIS_SLOTS,
            ANALYSIS_SLOTS_BUSY,
            RUNTIME_LAG,
        ] {
            metrics::gauge!(gauge).set(0.0);
        }
        metrics::gauge!(STORE_UP).set(1.0);
        let out = metrics::counter!(MESSAGES_OUT);
        out.absolute(0);
        let _ = OUT.set(out);
        for counter in [
            QUEUE_DROPS,
            STORE_SLOW,
            ABANDONMENTS,
            DRAW_OFFERS,
            LEASE_RENEWALS_FAILED,
        ] {
            metrics::counter!(counter).absolute(0);
        }
        for queue in ["index", "mine"] {
            metrics::counter!(STUDY_DROPPED, "queue" => queue).absolute(0);
        }
        metrics::counter!(STUDY_INDEXED).absolute(0);
        metrics::counter!(STUDY_MINED).absolute(0);
        metrics::counter!(PUZZLES_MADE).absolute(0);
        for cap in Cap::ALL {
            metrics::counter!(CAPS_HIT, "cap" => cap.name()).absolute(0);
        }
        for kind in [
            "forbidden_upheld",
            "forbidden_false",
            "absence_win",
            "absence_draw",
        ] {
            metrics::counter!(CLAIMS, "kind" => kind).absolute(0);
        }
        for what in ["messages", "chat"] {
            metrics::counter!(RATE_LIMITED, "what" => what).absolute(0);
        }
        for kind in STORE_ERROR_KINDS {
            metrics::counter!(STORE_ERRORS, "kind" => kind).absolute(0);
        }
        for family in tengen_protocol::RatingFamily::ALL {
            metrics::gauge!(RATED_WAITING, "family" => family.as_str()).set(0.0);
            metrics::gauge!(RATED_OLDEST_WAIT, "family" => family.as_str()).set(0.0);
        }
        handle
    });
}

/// Labels this process's series with its node id ([`NODE_INFO`]).
pub fn node(id: &str) {
    metrics::gauge!(NODE_INFO, "node" => id.to_owned()).set(1.0);
}

/// Every `kind` of [`STORE_ERRORS`].
const STORE_ERROR_KINDS: [&str; 8] = [
    "unavailable",
    "conflict",
    "exists",
    "not_found",
    "corrupt",
    "invalid",
    "version",
    "lease_lost",
];

/// Counts a failed store call under its kind.
pub fn store_error(e: &tengen_store::StoreError) {
    use tengen_store::StoreError as E;
    let kind = match e {
        E::Unavailable(_) => STORE_ERROR_KINDS[0],
        E::Conflict(_) => STORE_ERROR_KINDS[1],
        E::Exists(_) => STORE_ERROR_KINDS[2],
        E::NotFound(_) => STORE_ERROR_KINDS[3],
        E::Corrupt(_) => STORE_ERROR_KINDS[4],
        E::Invalid(_) => STORE_ERROR_KINDS[5],
        E::Version { .. } => STORE_ERROR_KINDS[6],
        E::LeaseLost(_) => STORE_ERROR_KINDS[7],
    };
    metrics::counter!(STORE_ERRORS, "kind" => kind).increment(1);
}

/// A value's wire name: a unit variant's string, the `kind` tag of an
/// internally tagged enum, or the one key of an externally tagged one
/// (`soosorv` for `{"soosorv": {"n": 8}}`). Bounded by the enum's
/// variants, so fit for a label.
pub fn wire_name(value: &impl serde::Serialize) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(serde_json::Value::Object(map)) => match map.get("kind") {
            Some(serde_json::Value::String(kind)) => kind.clone(),
            _ => map.keys().next().cloned().unwrap_or_default(),
        },
        _ => String::new(),
    }
}

/// The labels a game is counted under: rule set, opening, rated.
fn game_labels(config: &GameConfig, rated: bool) -> Vec<metrics::Label> {
    vec![
        metrics::Label::new("rule_set", config.rule_set.name()),
        metrics::Label::new("opening", wire_name(&config.opening)),
        metrics::Label::new("rated", if rated { "true" } else { "false" }),
    ]
}

/// Counts a game started.
pub fn game_started(config: &GameConfig, rated: bool) {
    metrics::counter!(GAMES_STARTED, game_labels(config, rated)).increment(1);
}

/// Counts what an action the referee took says of the game: a
/// forbidden-move claim (upheld or false), a draw offer.
pub fn action_taken(kind: tengen_rules::game::ActionKind, events: &[tengen_rules::game::Event]) {
    use tengen_rules::game::{ActionKind, Event};
    match kind {
        ActionKind::ClaimForbidden => {
            let upheld = events
                .iter()
                .any(|e| matches!(e, Event::ClaimUpheld { .. }));
            let kind = if upheld {
                "forbidden_upheld"
            } else {
                "forbidden_false"
            };
            metrics::counter!(CLAIMS, "kind" => kind).increment(1)
        }
        ActionKind::OfferDraw => metrics::counter!(DRAW_OFFERS).increment(1),
        _ => {}
    }
}

/// Counts a game finished with `result`: `result` is the winner's colour,
/// `draw` or `aborted`; `reason` the reason's wire name.
pub fn game_finished(config: &GameConfig, rated: bool, result: &GameResult) {
    let outcome = match result.outcome {
        Outcome::Win { color, .. } => wire_name(&color),
        other => wire_name(&other),
    };
    let mut labels = game_labels(config, rated);
    labels.push(metrics::Label::new("result", outcome));
    labels.push(metrics::Label::new("reason", wire_name(&result.reason)));
    metrics::counter!(GAMES_FINISHED, labels).increment(1);
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
    metrics::describe_counter!(COMPUTER_GAMES, "Games against the computer started");
    metrics::describe_counter!(
        STUDY_DROPPED,
        "Finished games not indexed or not searched for puzzles: the queue was full"
    );
    metrics::describe_counter!(
        STUDY_INDEXED,
        "Finished games added to the opening explorer"
    );
    metrics::describe_counter!(STUDY_MINED, "Finished games searched for puzzles");
    metrics::describe_counter!(PUZZLES_MADE, "Puzzles made from missed wins");
    metrics::describe_histogram!(
        MOVE_SECONDS,
        metrics::Unit::Seconds,
        "From a move's frame arriving to its events being queued to every subscriber"
    );
    metrics::describe_histogram!(
        MOVE_DURABLE_SECONDS,
        metrics::Unit::Seconds,
        "From a move's frame arriving to the store confirming it"
    );
    metrics::describe_counter!(
        GAMES_STARTED,
        "Games started, by rule set, opening and rated"
    );
    metrics::describe_counter!(
        GAMES_FINISHED,
        "Games finished, by rule set, opening, rated, result and reason"
    );
    metrics::describe_gauge!(
        RATED_WAITING,
        "Players waiting in the rated queue, by family"
    );
    metrics::describe_gauge!(
        RATED_OLDEST_WAIT,
        "How long the longest waiter in the rated queue has waited, by family"
    );
    metrics::describe_histogram!(
        RATED_WAIT,
        metrics::Unit::Seconds,
        "How long a paired player waited in the rated queue, by family"
    );
    metrics::describe_gauge!(
        TABLE_PLAYERS,
        "Players of games in progress with their connection at the table"
    );
    metrics::describe_gauge!(SPECTATORS, "Spectators of live tables");
    metrics::describe_counter!(ABANDONMENTS, "Players away past their grace in a game");
    metrics::describe_counter!(CLAIMS, "Claims the referee took, by kind");
    metrics::describe_counter!(DRAW_OFFERS, "Draws offered");
    metrics::describe_histogram!(
        STORE_CALL_SECONDS,
        metrics::Unit::Seconds,
        "How long a table's store call took, by call"
    );
    metrics::describe_counter!(STORE_ERRORS, "Table store calls that failed, by kind");
    metrics::describe_counter!(RATE_LIMITED, "Requests refused for their rate, by what");
    metrics::describe_counter!(
        LEASE_RENEWALS_FAILED,
        "Failed renewals of this node's table leases"
    );
    metrics::describe_gauge!(LEASES_HELD, "Table leases this node holds");
    metrics::describe_histogram!(
        ANALYSIS_SECONDS,
        metrics::Unit::Seconds,
        "How long a post-game analysis took on the blocking pool"
    );
    metrics::describe_gauge!(
        ANALYSIS_SLOTS,
        "Analysis slots (the computer's searches take them too)"
    );
    metrics::describe_gauge!(ANALYSIS_SLOTS_BUSY, "Analysis slots taken now");
    metrics::describe_histogram!(
        STUDY_MINE_SECONDS,
        metrics::Unit::Seconds,
        "How long one finished game's puzzle search took on the blocking pool"
    );
    metrics::describe_gauge!(NODE_INFO, "1, labelled with this server's node id");
}

/// The analysis slots of the servers in this process, with their number,
/// read when the page is served ([`ANALYSIS_SLOTS`]).
static SLOTS: Mutex<Vec<(Weak<Semaphore>, usize)>> = Mutex::new(Vec::new());

/// Counts `slots` (of which there are `capacity`) on the page from now on.
pub fn watch_slots(slots: &Arc<Semaphore>, capacity: usize) {
    let mut all = SLOTS.lock().unwrap_or_else(|e| e.into_inner());
    all.push((Arc::downgrade(slots), capacity));
}

/// The `/metrics` page: process figures refreshed, then everything.
pub fn render() -> String {
    install();
    if let Some(p) = PROCESS.get() {
        p.collect();
    }
    let (mut capacity, mut busy) = (0, 0);
    SLOTS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|(slots, n)| match slots.upgrade() {
            Some(slots) => {
                capacity += n;
                busy += n.saturating_sub(slots.available_permits());
                true
            }
            None => false,
        });
    metrics::gauge!(ANALYSIS_SLOTS).set(capacity as f64);
    metrics::gauge!(ANALYSIS_SLOTS_BUSY).set(busy as f64);
    HANDLE
        .get()
        .map(PrometheusHandle::render)
        .unwrap_or_default()
}

/// Counts an error of `kind` (an error code or a close reason).
pub fn error(kind: &'static str) {
    metrics::counter!(ERRORS, "kind" => kind).increment(1);
}
