//! The server's settings: where it listens, where it keeps data, and every
//! bound it enforces (the protocol's limits plus the server's own queues and
//! timers). One value, built by the binary from flags and environment, or
//! by tests directly.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use tengen_protocol::Limits;
use tengen_rules::game::TimeControl;

/// New tables a second per core this node may use, by default: on one
/// core of the project's machine, with 2,000 games ending and starting
/// within the same second, the moves' p99 was 10.6–12.5 ms unpaced, 8.8
/// ms at 1,000 a second and 4.8–7.9 ms at 500 (single runs; see
/// `crate::pacing`).
pub const TABLE_STARTS_PER_CORE: u32 = 500;

/// The default of [`Settings::table_start_rate`]: [`TABLE_STARTS_PER_CORE`]
/// for each core this process may run on.
pub fn default_table_start_rate() -> u32 {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    TABLE_STARTS_PER_CORE.saturating_mul(cores as u32)
}

/// Everything a server needs to start.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Accounts made admins at start (`--admin NAME`; see
    /// `crate::moderation`).
    pub admins: Vec<String>,
    /// Address to bind (`127.0.0.1:8415` by default; port 0 picks one).
    pub listen: SocketAddr,
    /// The data directory of the embedded store (`tengen-data` by default).
    /// Not used with [`Settings::redis`].
    pub data_dir: PathBuf,
    /// Keep the durable state in Redis instead of the embedded store
    /// (`None`, the default: the embedded store in `data_dir`).
    pub redis: Option<RedisSettings>,
    /// The limits announced to clients in `welcome` and enforced here.
    pub limits: Limits,
    /// The most games a bot account may play at once (its own cap,
    /// `set_bot_filters.max_games`, is bounded by this).
    pub bot_max_games: u32,
    /// The most challenges a bot account may send other bots in an hour.
    pub bot_challenges_per_hour: u32,
    /// The most WebSocket connections served at once; an upgrade beyond it
    /// gets HTTP 503. The default leaves headroom under the process's
    /// open-file limit for the store, Redis and the listener
    /// ([`default_max_connections`]).
    pub max_connections: usize,
    /// The most sessions the registry keeps (connected or resumable); past
    /// it the sessions whose connection ended longest ago are forgotten
    /// first. Twice the connection cap by default.
    pub max_sessions: usize,
    /// Frames a connection's outbound queue holds before the connection is
    /// cut off as a slow consumer.
    pub outbound_queue: usize,
    /// Commands a table's mailbox holds.
    pub table_mailbox: usize,
    /// tungstenite's read buffer per connection (the default, 128 KiB, would
    /// cost ~135 KiB per idle socket; 4 KiB keeps an idle connection near
    /// 10.7 KiB in all, and larger frames still arrive: the buffer grows).
    pub read_buffer_bytes: usize,
    /// How often the server pings each connection (the round trips are
    /// its lag estimate; a silent peer is noticed by the idle timeout).
    pub ping_interval: Duration,
    /// How long a game may wait for a seat's first action before it is
    /// aborted (docs/rules.md §7: a side that never moves).
    pub first_move_timeout: Duration,
    /// How often coalesced updates (lobby changes, spectator counts) go out.
    pub coalesce_interval: Duration,
    /// How long a session stays resumable after its connection ends.
    pub resume_grace: Duration,
    /// Bounds of the time a disconnected player has to come back before
    /// losing by abandonment: a tenth of the room's main time, within these
    /// bounds (the ceiling for untimed rooms). See [`Settings::abandon_grace`].
    pub abandon_grace_min: Duration,
    pub abandon_grace_max: Duration,
    /// Table events kept for replay to a resuming client; older gaps get a
    /// snapshot.
    pub event_log: usize,
    /// How long a finished table stays open for snapshots, late viewers and
    /// its room's players; then the room goes too.
    pub finished_table_linger: Duration,
    /// How long a store write may take before the table treats the store
    /// as down (refuses actions, stops its clocks).
    pub store_timeout: Duration,
    /// Overload: the runtime lag (a moving average) above which new work
    /// (upgrades, rooms, challenges, queue entries) is refused with
    /// `retry_after`, so the games in progress keep the machine; zero
    /// never sheds (see [`crate::pressure`]).
    pub shed_lag: Duration,
    /// New tables a second this node starts at most: a wave of starts is
    /// spread out beside the games in progress (see [`crate::pacing`]);
    /// zero does not pace.
    pub table_start_rate: u32,
    /// The embedded store's page cache, in bytes (bounded, so that the
    /// process does not grow with the database file).
    pub store_cache_bytes: usize,
    /// After a restart: how long a restored game's clocks wait for both
    /// players to come back before they run (an absent player then gets
    /// the abandonment countdown).
    pub restore_grace: Duration,
    /// On SIGTERM/SIGINT: how long `/healthz` answers 503 before the
    /// listener closes (so a load balancer stops sending new players).
    pub drain_delay: Duration,
    /// This node's name among the nodes sharing a store (in table leases
    /// and logs); each running node needs its own. A node started again
    /// under the same name takes its predecessor's tables back at once.
    /// `Settings::default()` gives a random `node-XXXXXXXX`; the binary
    /// takes `--node-id`, or the host name.
    pub node: String,
    /// How long a table's lease lasts unless renewed (renewed every third
    /// of it). A node that dies loses its tables to another node this long
    /// after its last renewal.
    pub lease_ttl: Duration,
    /// How often the node looks for live tables nobody holds a lease on
    /// (a dead node's) and takes them over. `None`: never (a single node
    /// on the embedded store, which restores everything at start).
    pub takeover_every: Option<Duration>,
    /// Caps and deadlines against floods and slow peers (SECURITY.md).
    pub caps: CapSettings,
    /// Accounts: token lifetime, hashing slots, login limits.
    pub accounts: AccountSettings,
    /// The matchmaker's interval and widening curve.
    pub matchmaking: MatchSettings,
    /// Post-game analysis (`analyze_game`): budgets and slots.
    pub analysis: AnalysisSettings,
    /// The computer (`play_computer`): games at once, time a move.
    pub computer: ComputerSettings,
    /// The opening explorer, the puzzle miner and puzzle tries (`study`).
    pub study: crate::study::StudySettings,
}

/// The computer's bounds (`play_computer`, `crate::computer`).
#[derive(Clone, Debug)]
pub struct ComputerSettings {
    /// Games against the computer at once, server-wide; 0 turns it off.
    pub games: usize,
    /// The most one of its moves may take (less when its clock has less).
    pub move_ms: u64,
    /// What `retry_after_ms` says when every computer is playing.
    pub retry_after: Duration,
}

impl Default for ComputerSettings {
    fn default() -> ComputerSettings {
        ComputerSettings {
            games: 4,
            move_ms: 2_000,
            retry_after: Duration::from_secs(30),
        }
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            admins: Vec::new(),
            listen: "127.0.0.1:8415".parse().expect("a valid address"),
            data_dir: PathBuf::from("tengen-data"),
            redis: None,
            limits: Limits::default(),
            bot_max_games: 8,
            bot_challenges_per_hour: 30,
            max_connections: default_max_connections(),
            max_sessions: 2 * default_max_connections(),
            outbound_queue: 256,
            table_mailbox: 256,
            read_buffer_bytes: 4 * 1024,
            ping_interval: Duration::from_secs(10),
            first_move_timeout: Duration::from_secs(60),
            coalesce_interval: Duration::from_millis(250),
            finished_table_linger: Duration::from_secs(600),
            resume_grace: Duration::from_secs(300),
            abandon_grace_min: Duration::from_secs(15),
            abandon_grace_max: Duration::from_secs(60),
            event_log: 512,
            store_timeout: Duration::from_secs(3),
            shed_lag: Duration::from_millis(500),
            table_start_rate: default_table_start_rate(),
            store_cache_bytes: tengen_store::embedded::DEFAULT_CACHE_BYTES,
            restore_grace: Duration::from_secs(60),
            drain_delay: Duration::from_millis(500),
            node: node_id("node"),
            lease_ttl: Duration::from_secs(4),
            takeover_every: None,
            caps: Default::default(),
            accounts: Default::default(),
            matchmaking: Default::default(),
            analysis: Default::default(),
            computer: Default::default(),
            study: Default::default(),
        }
    }
}

/// A node id unique to this process: `base` with a random suffix.
pub fn node_id(base: &str) -> String {
    format!("{base}-{:08x}", rand::random::<u32>())
}

/// Where the Redis store is: its URL and key prefix.
#[derive(Clone)]
pub struct RedisSettings {
    /// `redis://[user:password@]host:port[/db]`, or `rediss://` for TLS;
    /// a Redis Cluster as `redis+cluster://[user:password@]host:port,...`
    /// (any of its nodes), a primary watched by Sentinel as
    /// `redis+sentinel://[user:password@]host:port,.../NAME[/db]` (the
    /// sentinels, and the name they know the primary by); see
    /// docs/cluster.md.
    pub url: String,
    /// The first part of every key (`tengen`).
    pub prefix: String,
    /// For `rediss://`: the CA certificate(s) to trust (PEM) instead of
    /// the system's roots.
    pub ca_file: Option<PathBuf>,
}

impl RedisSettings {
    pub fn new(url: impl Into<String>) -> RedisSettings {
        RedisSettings {
            url: url.into(),
            prefix: tengen_store::RedisOptions::default().prefix,
            ca_file: None,
        }
    }
}

impl std::fmt::Debug for RedisSettings {
    /// Never shows a password in the URL.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisSettings")
            .field("url", &tengen_store::redis::redact(&self.url))
            .field("prefix", &self.prefix)
            .field("ca_file", &self.ca_file)
            .finish()
    }
}

impl Settings {
    /// How long a disconnected player may stay away before losing by
    /// abandonment: a tenth of the room's main time, but at least
    /// `abandon_grace_min` and at most `abandon_grace_max` (the ceiling in
    /// untimed rooms). The player's clock keeps running meanwhile, so one
    /// on the move with less time left than this flags first: the grace can
    /// never buy time.
    pub fn abandon_grace(&self, time: &TimeControl) -> Duration {
        let main = match *time {
            TimeControl::Unlimited => return self.abandon_grace_max,
            TimeControl::SuddenDeath { main_ms }
            | TimeControl::Fischer { main_ms, .. }
            | TimeControl::ByoYomi { main_ms, .. }
            | TimeControl::EightStone { main_ms, .. } => main_ms,
            // Never used: a correspondence game has no abandonment
            // (docs/rules.md §7).
            TimeControl::Correspondence { .. } => return self.abandon_grace_max,
        };
        Duration::from_millis(main / 10).clamp(self.abandon_grace_min, self.abandon_grace_max)
    }

    /// Several nodes: how long the store must have answered this node
    /// without a failure before it takes over a table nobody holds. Longer
    /// than the table's own node needs to take its lapsed lease back after
    /// an outage of the store (a retry every half second, each within the
    /// store's timeout), so an outage of the store alone moves no game.
    pub fn takeover_grace(&self) -> Duration {
        self.lease_ttl + self.store_timeout
    }

    /// Several nodes: the `retry_after_ms` of an `unavailable` answered
    /// while a table moves (half the lease, at least 250 ms).
    pub fn failover_retry(&self) -> Duration {
        (self.lease_ttl / 2).max(Duration::from_millis(250))
    }

    /// Several nodes: when to try again a `hello` whose table a node is
    /// taking over right now (a store read or two away).
    pub fn takeover_retry(&self) -> Duration {
        Duration::from_millis(200).min(self.failover_retry())
    }

    /// Several nodes: how long a request routed to another node may go
    /// without any message back before the connection is closed for its
    /// client to resume: the lease term, 3 s to 8 s (a reply is due in
    /// milliseconds; this is for one lost with a node that stopped, or on
    /// the bus).
    pub fn answer_wait(&self) -> Duration {
        self.lease_ttl
            .clamp(Duration::from_secs(3), Duration::from_secs(8))
    }

    /// Several nodes: how long another node has to answer a probe before
    /// it is taken as gone for now (a quarter of the lease, 100 ms to 1 s).
    pub fn probe_wait(&self) -> Duration {
        (self.lease_ttl / 4).clamp(Duration::from_millis(100), Duration::from_secs(1))
    }
}

/// File descriptors kept free beside the connections: the listener, the
/// embedded store's files, Redis connections, logs, a rare spawned process.
const FD_HEADROOM: u64 = 512;

/// The connection cap that fits this process: its open-file limit (the
/// soft one, which is what counts) less [`FD_HEADROOM`], at least 64.
/// 19,488 under the usual 20,000.
pub fn default_max_connections() -> usize {
    let limit = open_file_limit().unwrap_or(20_000);
    limit.saturating_sub(FD_HEADROOM).max(64) as usize
}

/// The soft `RLIMIT_NOFILE` (the binary raises it to the hard limit before
/// building its settings); `None` where it cannot be read or is unlimited.
fn open_file_limit() -> Option<u64> {
    let (soft, _) = rlimit::getrlimit(rlimit::Resource::NOFILE).ok()?;
    (soft != rlimit::INFINITY).then_some(soft)
}

/// The caps and deadlines against floods and slow peers (`addresses`,
/// `gate`, `conn`, `outbound`); SECURITY.md lists them all.
#[derive(Clone, Debug)]
pub struct CapSettings {
    /// Open WebSockets per client address (an IPv4 address or an IPv6
    /// /64); an upgrade beyond it gets HTTP 429. Open sockets of any kind
    /// are capped at twice this at accept.
    pub max_connections_per_address: u32,
    /// WebSocket handshakes per address per minute (a bucket that holds
    /// a minute's worth); beyond it HTTP 429 with the wait.
    pub handshakes_per_minute: u32,
    /// Whether the per-address caps apply to loopback too (off by
    /// default: the load generator and the tests use 127.0.0.1).
    pub limit_loopback: bool,
    /// Reverse proxies whose `X-Forwarded-For` names the client (their
    /// own address is never counted).
    pub trusted_proxies: Vec<crate::cidr::Cidr>,
    /// Addresses tracked at once; when full of live ones, sockets from
    /// new addresses are closed unanswered.
    pub max_tracked_addresses: usize,
    /// The `Retry-After` of a 429 for too many open connections.
    pub busy_retry: Duration,
    /// From accept to a complete HTTP request (the upgrade). After a
    /// plain response the connection has this plus `write_timeout` to take
    /// it and complete its next request.
    pub handshake_timeout: Duration,
    /// From the upgrade to a good `hello` (close 4001).
    pub hello_timeout: Duration,
    /// How long one write to a client may make no progress (a client
    /// that stopped reading) before its connection is dropped.
    pub write_timeout: Duration,
}

impl Default for CapSettings {
    fn default() -> CapSettings {
        CapSettings {
            max_connections_per_address: 32,
            handshakes_per_minute: 60,
            limit_loopback: false,
            trusted_proxies: Vec::new(),
            max_tracked_addresses: 100_000,
            busy_retry: Duration::from_secs(10),
            handshake_timeout: Duration::from_secs(5),
            hello_timeout: Duration::from_millis(tengen_protocol::HELLO_TIMEOUT_MS),
            write_timeout: Duration::from_secs(15),
        }
    }
}

/// The bounds of the account service.
#[derive(Clone, Debug)]
pub struct AccountSettings {
    /// How long a login token is valid.
    pub token_ttl: Duration,
    /// Password hashes computed at once (each takes ~19 MiB and a core).
    pub hash_workers: usize,
    /// How long a request may wait for a hashing slot.
    pub hash_wait: Duration,
    /// How long a request may wait for the store.
    pub store_wait: Duration,
    /// Failed logins of one address to one account that cost nothing
    /// more; each failure after them makes that pair wait `login_delay`,
    /// doubling (`crate::attempts`).
    pub login_free_failures: u32,
    pub login_delay: Duration,
    /// After this many failures the pair is locked for `login_lock`.
    pub login_lock_after: u32,
    pub login_lock: Duration,
    /// Failed logins to one account from all addresses within
    /// `name_window` that throttle it (except for addresses that logged
    /// in to it before) for `name_throttle`.
    pub name_attempts: u32,
    pub name_window: Duration,
    pub name_throttle: Duration,
    /// Accounts registered per address per hour (loopback exempt unless
    /// `CapSettings::limit_loopback`).
    pub registrations_per_hour: u32,
    /// Logins and registrations a connection may try: at once, then one
    /// per `conn_refill`.
    pub conn_burst: u32,
    pub conn_refill: Duration,
    /// Entries each table of `crate::attempts` holds at once (names,
    /// pairs, addresses; the oldest are forgotten first beyond it).
    pub max_tracked_names: usize,
}

impl Default for AccountSettings {
    fn default() -> AccountSettings {
        AccountSettings {
            token_ttl: Duration::from_secs(30 * 24 * 3600),
            hash_workers: 2,
            hash_wait: Duration::from_secs(5),
            store_wait: Duration::from_secs(5),
            login_free_failures: 3,
            login_delay: Duration::from_secs(1),
            login_lock_after: 10,
            login_lock: Duration::from_secs(15 * 60),
            name_attempts: 10,
            name_window: Duration::from_secs(600),
            name_throttle: Duration::from_secs(30),
            registrations_per_hour: 5,
            conn_burst: 5,
            conn_refill: Duration::from_secs(12),
            max_tracked_names: 100_000,
        }
    }
}

/// The matchmaker's bounds and curve.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// How often pairs are made.
    pub interval: Duration,
    /// The allowed rating gap at once.
    pub base_gap: f64,
    /// How much it widens per second waited.
    pub gap_per_sec: f64,
    /// From this wait on, any gap is allowed.
    pub any_gap_after: Duration,
    /// Players waiting in all queues at once (beyond it `queue` is
    /// refused as `unavailable`).
    pub max_waiting: usize,
    /// Accounts whose last opponent is remembered (forgotten all at once
    /// beyond it).
    pub max_remembered: usize,
}

impl Default for MatchSettings {
    fn default() -> MatchSettings {
        MatchSettings {
            interval: Duration::from_millis(500),
            base_gap: 100.0,
            gap_per_sec: 10.0,
            any_gap_after: Duration::from_secs(120),
            max_waiting: 10_000,
            max_remembered: 100_000,
        }
    }
}

impl MatchSettings {
    /// The rating gap a player who has waited `wait` accepts.
    pub fn allowed_gap(&self, wait: Duration) -> f64 {
        if wait >= self.any_gap_after {
            f64::INFINITY
        } else {
            self.base_gap + self.gap_per_sec * wait.as_secs_f64()
        }
    }
}

/// The bounds of post-game analysis (`analyze_game`): each search's node
/// budget per position, and how many games are analysed at once.
#[derive(Clone, Debug)]
pub struct AnalysisSettings {
    /// Games analysed at once, server-wide (each takes a core while it
    /// runs); more requests are refused as `unavailable`.
    pub slots: usize,
    /// Nodes each search (the VCF, then the VCT) may visit per position:
    /// with 100,000 a 60-move game takes a second or two with VCTs, much
    /// less without.
    pub nodes: u64,
    /// The longest VCT looked for, in attacker moves.
    pub vct_depth: u8,
    /// What `retry_after_ms` says when every slot is busy.
    pub retry_after: Duration,
}

impl Default for AnalysisSettings {
    fn default() -> AnalysisSettings {
        AnalysisSettings {
            slots: 2,
            nodes: 100_000,
            vct_depth: 5,
            retry_after: Duration::from_secs(2),
        }
    }
}
