//! `tengen-server`: the Tengen game server.
//!
//! Parses flags (each with an environment variable), sets up logging, and
//! runs [`tengen_server::Server`] until SIGINT/SIGTERM; or, with the
//! `migrate` subcommand, moves a community from a data directory to Redis;
//! with `salvage`, keeps what precedes the damage in a damaged journal;
//! with `backup`, copies the store while it serves
//! (`tengen_server::backup`); with `admin`, moderates
//! (`tengen_server::moderation::admin`); or, with `import` and `reindex`,
//! fills the opening explorer (`tengen_server::study::import`).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
use tengen_server::settings::{AccountSettings, CapSettings};
use tengen_server::{RedisSettings, Server, Settings};
use tengen_store::EmbeddedStore;
use tengen_store::embedded::{DEFAULT_CACHE_BYTES, salvage as salvage_store};

/// The Tengen gomoku and renju server (WebSocket at /ws, /healthz, /metrics).
///
/// Without a subcommand it serves. Durable state (live games' action logs,
/// finished games, accounts, ratings) goes to the embedded store in
/// --data-dir, or to Redis with --redis (and then the data directory holds
/// nothing that matters).
#[derive(Parser)]
#[command(
    name = "tengen-server",
    version,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(flatten)]
    serve: Serve,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Moves a community (accounts, login tokens, ratings and their
    /// history, finished and live games, moderation data, tournaments)
    /// from the embedded store in a data directory to Redis. Stop the server that uses the directory first.
    /// Refuses a Redis prefix that already holds data unless --force.
    Migrate(Migrate),
    /// Salvages a data directory whose journal is damaged: the server
    /// refuses to start on one (naming the file, the offset and the
    /// commits after it, which players were told of). Keeps a copy of the
    /// files as they are in a `salvaged-TIME` directory inside the data
    /// directory, keeps every commit that precedes the damage, and says
    /// how many were lost. Stop the server first. A journal without damage
    /// is left as it is.
    Salvage(Salvage),
    /// Copies the embedded store, consistently, into the new directory
    /// DEST while the server runs on --data-dir (through its admin socket;
    /// moves go on meanwhile), or, with no server running there, from the
    /// store directly. The copy is a data directory a server starts on:
    /// every game finished before the backup, every live game as it was.
    /// Refuses a DEST that exists or lies inside the data directory.
    Backup(BackupArgs),
    /// Moderation from the command line: roles, bans and unbans of
    /// accounts and addresses, mutes, fair-play waits, closing rooms,
    /// aborting games, resetting a game's rating changes, reports, the
    /// audit log. Works with
    /// a server running on the same data directory (through its admin
    /// socket) or not (on the store directly), or on Redis (--redis; the
    /// running nodes are told). Prints the server's answer as JSON.
    Admin(tengen_server::moderation::admin::AdminArgs),
    /// Adds game records to the opening explorer, so that a community can
    /// seed it: JSON records (one, a list, or one a line), renju texts
    /// (with their tags, as game_record writes them, or a game a line)
    /// and PSQ files, or directories of them. Each game
    /// is stored as a finished game listed under no player, once however
    /// often it is imported. Stop a server using the data directory first.
    Import(ImportArgs),
    /// Adds every stored finished game to the opening explorer (those in
    /// it already stay as they are): for a store whose games were played
    /// before the explorer existed, or after dropped work. With
    /// --puzzles, searches them for puzzles too.
    Reindex(ReindexArgs),
}

/// Where a command finds the store.
#[derive(Args)]
struct StoreArgs {
    /// The data directory of the embedded store.
    #[arg(long, env = "TENGEN_DATA_DIR", default_value = "tengen-data")]
    data_dir: PathBuf,
    /// Use the Redis store instead.
    #[arg(long, env = "TENGEN_REDIS")]
    redis: Option<String>,
    /// The Redis key prefix.
    #[arg(long, env = "TENGEN_REDIS_PREFIX", default_value = "tengen")]
    redis_prefix: String,
    /// For rediss://: a PEM file of the CA certificate(s) to trust.
    #[arg(long, env = "TENGEN_REDIS_CA")]
    redis_ca: Option<PathBuf>,
    /// How many moves deep games are indexed (as the server's
    /// --explorer-depth).
    #[arg(long, env = "TENGEN_EXPLORER_DEPTH", default_value_t = tengen_study::explorer::DEFAULT_DEPTH)]
    explorer_depth: u32,
    /// Search the games for puzzles and forbidden-point exercises too.
    #[arg(long)]
    puzzles: bool,
}

#[derive(Args)]
struct ImportArgs {
    #[command(flatten)]
    store: StoreArgs,
    /// The rule set of stone lists (renju notation, PSQ); JSON records
    /// carry their own.
    #[arg(long, default_value = "renju")]
    rule_set: tengen_rules::game::RuleSet,
    /// The opening rule stone lists are counted under (`rif`,
    /// `soosorv-8`, ...) unless a renju text's `Rule` tag names it: they
    /// are played as free openings.
    #[arg(long, default_value = "free")]
    opening: tengen_rules::game::Opening,
    /// The files (or directories of files) to import.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

#[derive(Args)]
struct ReindexArgs {
    #[command(flatten)]
    store: StoreArgs,
}

#[derive(Args)]
struct Serve {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, env = "TENGEN_LISTEN", default_value = "127.0.0.1:8415")]
    listen: SocketAddr,
    /// Directory for durable state: the embedded store (live games' action
    /// logs, finished games, accounts, ratings). Created if missing. Not
    /// used with --redis (then nothing in it matters).
    #[arg(long, env = "TENGEN_DATA_DIR", default_value = "tengen-data")]
    data_dir: PathBuf,
    /// Keep durable state in Redis instead of the data directory:
    /// redis://[user:password@]host:port[/db], or rediss:// for TLS; a
    /// Redis Cluster as redis+cluster://host:port,host:port,... and a
    /// primary under Sentinel as redis+sentinel://host:port,.../NAME. Run
    /// Redis with `appendonly yes` and `appendfsync always` (or
    /// `everysec`), or an accepted move can be lost; the server warns at
    /// start when it is not so.
    #[arg(long, env = "TENGEN_REDIS")]
    redis: Option<String>,
    /// The first part of every Redis key (several communities can share a
    /// Redis under different prefixes).
    #[arg(long, env = "TENGEN_REDIS_PREFIX", default_value = "tengen")]
    redis_prefix: String,
    /// For rediss://: a PEM file of the CA certificate(s) to trust instead
    /// of the system's roots (a Redis with a private CA).
    #[arg(long, env = "TENGEN_REDIS_CA")]
    redis_ca: Option<PathBuf>,
    /// This node's name among the nodes sharing one Redis (in the leases
    /// of the tables it runs, and in logs). Each running node needs its own;
    /// a node restarted under the same name takes its games back at once
    /// instead of waiting for their leases to lapse. Default: the host name.
    #[arg(long, env = "TENGEN_NODE_ID")]
    node_id: Option<String>,
    /// How long (seconds) a table's lease lasts unless its
    /// node renews it (every third of it). When a node dies, another takes
    /// its games over this long after; after an outage of Redis itself no
    /// node takes any over until Redis has answered it for this long plus
    /// the store's timeout (the games stay where they were).
    #[arg(long, env = "TENGEN_LEASE_SECONDS", default_value_t = 4.0)]
    lease_seconds: f64,
    /// WebSocket read buffer per connection, in bytes (larger frames still
    /// arrive: the buffer grows for them).
    #[arg(long, env = "TENGEN_READ_BUFFER", default_value_t = 4096)]
    read_buffer_bytes: usize,
    /// The most WebSocket connections at once; upgrades beyond it get HTTP
    /// 503. Default: the open-file limit less 512 (for the store, Redis
    /// and the listener). The session registry holds twice as many.
    #[arg(long, env = "TENGEN_MAX_CONNECTIONS")]
    max_connections: Option<usize>,
    /// The most games a bot account may play at once (the cap a bot sets
    /// with `set_bot_filters` is bounded by this; people play one).
    #[arg(long, env = "TENGEN_BOT_MAX_GAMES", default_value_t = 8)]
    bot_max_games: u32,
    /// The most challenges a bot account may send other bots in an hour
    /// (beyond: `rate_limited`, with when the next is allowed).
    #[arg(long, env = "TENGEN_BOT_CHALLENGES_PER_HOUR", default_value_t = 30)]
    bot_challenges_per_hour: u32,
    /// Post-game analyses (`analyze_game`) run at once, server-wide, each
    /// on a core of its own; more requests are refused as `unavailable`.
    #[arg(long, env = "TENGEN_ANALYSIS_SLOTS", default_value_t = 2)]
    analysis_slots: usize,
    /// Games against the computer (`play_computer`: the built-in bot, from
    /// the web client's "play the computer") at once, server-wide; 0 turns
    /// it off. Its searches take the analysis slots too.
    #[arg(long, env = "TENGEN_COMPUTER_GAMES", default_value_t = 4)]
    computer_games: usize,
    /// The most milliseconds one of the computer's moves may take.
    #[arg(long, env = "TENGEN_COMPUTER_MOVE_MS", default_value_t = 2_000)]
    computer_move_ms: u64,
    /// Nodes each forced-win search may visit per position of an analysed
    /// game (the answer depends only on it, not on the machine).
    #[arg(long, env = "TENGEN_ANALYSIS_NODES", default_value_t = 100_000)]
    analysis_nodes: u64,
    /// How many moves deep finished games are indexed in the opening
    /// explorer (0: no explorer).
    #[arg(long, env = "TENGEN_EXPLORER_DEPTH", default_value_t = tengen_study::explorer::DEFAULT_DEPTH,
          value_parser = clap::value_parser!(u32).range(0..=i64::from(tengen_study::explorer::MAX_DEPTH)))]
    explorer_depth: u32,
    /// Do not search finished games for puzzles and forbidden-point
    /// exercises.
    #[arg(long, env = "TENGEN_NO_PUZZLES")]
    no_puzzles: bool,
    /// Overload: when the server's runtime runs this many milliseconds
    /// late (a moving average), new connections, rooms, challenges and
    /// queue entries are refused with a time to retry, so the games in
    /// progress keep the machine. 0 never refuses.
    #[arg(long, env = "TENGEN_SHED_LAG_MS", default_value_t = 500)]
    shed_lag_ms: u64,
    /// New games this server starts at most per second: a wave of games
    /// starting at once (an event's round, a crowd that sat down together)
    /// is spread out, each new game waiting its turn before its clocks
    /// start, so that the games in progress keep their pace. 0 does not
    /// pace. Default: 500 for each core the server may run on.
    #[arg(long, env = "TENGEN_TABLE_START_RATE",
          default_value_t = tengen_server::settings::default_table_start_rate())]
    table_start_rate: u32,
    /// The embedded store's page cache in MiB: the most memory it keeps of
    /// the data file (the rest is read from the disk when needed).
    #[arg(long, env = "TENGEN_STORE_CACHE_MB", default_value_t = 64,
          value_parser = clap::value_parser!(u64).range(1..=65536))]
    store_cache_mb: u64,
    /// Makes this account an admin at start (repeatable; the account must
    /// be registered). An admin gives others roles with `moderate
    /// set_role` or `tengen-server admin role`.
    #[arg(long = "admin", value_name = "NAME")]
    admins: Vec<String>,
    /// Open WebSockets per client address (an IPv4 address or an IPv6
    /// /64); an upgrade beyond it gets HTTP 429 with Retry-After. Open
    /// sockets of any kind are capped at twice this (closed unanswered).
    #[arg(long, env = "TENGEN_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = 32)]
    max_connections_per_address: u32,
    /// WebSocket handshakes per client address per minute; beyond it HTTP
    /// 429 with Retry-After.
    #[arg(long, env = "TENGEN_HANDSHAKES_PER_MINUTE", default_value_t = 60)]
    handshakes_per_minute: u32,
    /// Apply the per-address caps (connections, handshakes, registrations)
    /// to loopback too (exempt by default, for local load tests).
    #[arg(long, env = "TENGEN_LIMIT_LOOPBACK")]
    limit_loopback: bool,
    /// Reverse proxies (addresses or ranges, comma-separated: 10.0.0.0/8)
    /// whose X-Forwarded-For names the client; their own address is never
    /// counted. Without it, behind a proxy every client is the proxy.
    #[arg(long, env = "TENGEN_TRUSTED_PROXIES", value_delimiter = ',')]
    trusted_proxy: Vec<tengen_server::addresses::Cidr>,
    /// Seconds from accept to a complete HTTP request (the upgrade). After
    /// a plain HTTP response the connection has this plus --write-timeout
    /// to take it and send its next request.
    #[arg(long, env = "TENGEN_HANDSHAKE_TIMEOUT", default_value_t = 5.0)]
    handshake_timeout: f64,
    /// Seconds from the upgrade to a good `hello` (else close 4001).
    #[arg(long, env = "TENGEN_HELLO_TIMEOUT", default_value_t = 10.0)]
    hello_timeout: f64,
    /// Seconds one write to a client may make no progress (a client that
    /// stopped reading) before its connection is dropped.
    #[arg(long, env = "TENGEN_WRITE_TIMEOUT", default_value_t = 15.0)]
    write_timeout: f64,
    /// Accounts registered per client address per hour.
    #[arg(long, env = "TENGEN_REGISTRATIONS_PER_HOUR", default_value_t = 5)]
    registrations_per_hour: u32,
    /// Failed logins of one address to one account before that pair is
    /// locked (after 3 free failures each one doubles a wait from 1 s).
    #[arg(long, env = "TENGEN_LOGIN_LOCK_AFTER", default_value_t = 10)]
    login_lock_after: u32,
    /// Minutes a locked (account, address) pair stays locked.
    #[arg(long, env = "TENGEN_LOGIN_LOCK_MINUTES", default_value_t = 15)]
    login_lock_minutes: u64,
}

/// A flag's seconds as a duration, within `range`.
fn seconds(
    flag: &str,
    value: f64,
    range: std::ops::RangeInclusive<f64>,
) -> anyhow::Result<Duration> {
    if !range.contains(&value) {
        anyhow::bail!(
            "--{flag} must be between {} and {} seconds",
            range.start(),
            range.end()
        );
    }
    Ok(Duration::from_secs_f64(value))
}

/// The caps and login limits the flags set.
fn caps(args: &Serve) -> anyhow::Result<(CapSettings, AccountSettings)> {
    if args.max_connections_per_address == 0 || args.handshakes_per_minute == 0 {
        anyhow::bail!(
            "--max-connections-per-address and --handshakes-per-minute must be at least 1"
        );
    }
    if args.registrations_per_hour == 0 || args.login_lock_after == 0 {
        anyhow::bail!("--registrations-per-hour and --login-lock-after must be at least 1");
    }
    let caps = CapSettings {
        max_connections_per_address: args.max_connections_per_address,
        handshakes_per_minute: args.handshakes_per_minute,
        limit_loopback: args.limit_loopback,
        trusted_proxies: args.trusted_proxy.clone(),
        handshake_timeout: seconds("handshake-timeout", args.handshake_timeout, 0.1..=300.0)?,
        hello_timeout: seconds("hello-timeout", args.hello_timeout, 0.1..=300.0)?,
        write_timeout: seconds("write-timeout", args.write_timeout, 0.1..=300.0)?,
        ..CapSettings::default()
    };
    let accounts = AccountSettings {
        registrations_per_hour: args.registrations_per_hour,
        login_lock_after: args.login_lock_after,
        login_lock: Duration::from_secs(args.login_lock_minutes.clamp(1, 24 * 60) * 60),
        ..AccountSettings::default()
    };
    Ok((caps, accounts))
}

#[derive(Args)]
struct Salvage {
    /// The data directory to salvage.
    #[arg(long, env = "TENGEN_DATA_DIR", default_value = "tengen-data")]
    data_dir: PathBuf,
}

#[derive(Args)]
struct BackupArgs {
    /// The new directory to copy the store into (on another disk,
    /// ideally).
    dest: PathBuf,
    /// The data directory of the store to copy.
    #[arg(long, env = "TENGEN_DATA_DIR", default_value = "tengen-data")]
    data_dir: PathBuf,
}

#[derive(Args)]
struct Migrate {
    /// The data directory of the embedded store to read (not changed, but
    /// for bringing a store an earlier version wrote up to date, as a start
    /// would).
    #[arg(long)]
    from_data_dir: PathBuf,
    /// The Redis to write to (redis:// or rediss://).
    #[arg(long, env = "TENGEN_REDIS")]
    to_redis: String,
    /// The key prefix to write under.
    #[arg(long, env = "TENGEN_REDIS_PREFIX", default_value = "tengen")]
    redis_prefix: String,
    /// For rediss://: a PEM file of the CA certificate(s) to trust.
    #[arg(long, env = "TENGEN_REDIS_CA")]
    redis_ca: Option<PathBuf>,
    /// Write even if the prefix already holds data (items with the same
    /// keys are replaced, the rest is left).
    #[arg(long)]
    force: bool,
}

/// The most threads of the blocking pool. What runs there is bounded by
/// its own semaphores (password hashing, post-game analysis, opening the
/// store); the store's reads and writes have threads of their own. Tokio's
/// default (512) would let a burst grow the process to hundreds of
/// threads.
const MAX_BLOCKING_THREADS: usize = 16;

#[global_allocator]
static ALLOC: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> anyhow::Result<()> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(MAX_BLOCKING_THREADS)
        .build()?
        .block_on(run())
}

async fn run() -> anyhow::Result<()> {
    tengen_server::logging::init(std::env::var("TENGEN_LOG").ok().as_deref());
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Migrate(args)) => migrate(args).await,
        Some(Command::Salvage(args)) => salvage(args).await,
        Some(Command::Backup(args)) => backup(args).await,
        Some(Command::Admin(args)) => admin(args).await,
        Some(Command::Import(args)) => import(args).await,
        Some(Command::Reindex(args)) => reindex(args).await,
        None => serve(cli.serve).await,
    }
}

async fn serve(args: Serve) -> anyhow::Result<()> {
    // Each connection is an open file: take the whole hard limit (a
    // container's soft limit is often 1,024, which would cap a node near a
    // thousand players).
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(n) => tracing::info!(open_files = n, "open-file limit"),
        Err(e) => tracing::warn!(error = %e, "could not raise the open-file limit"),
    }
    if args.redis.is_none() && args.data_dir.as_os_str().is_empty() {
        anyhow::bail!("--data-dir must name a directory");
    }
    if !(0.5..=300.0).contains(&args.lease_seconds) {
        anyhow::bail!("--lease-seconds must be between 0.5 and 300");
    }
    let (caps, accounts) = caps(&args)?;
    let node = args.node_id.unwrap_or_else(host_name);
    if node.is_empty()
        || node.len() > 64
        || !node
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        anyhow::bail!("--node-id must be 1 to 64 letters, digits, '-', '_' or '.', not {node:?}");
    }
    if args.analysis_slots == 0 || args.analysis_nodes == 0 {
        anyhow::bail!("--analysis-slots and --analysis-nodes must be at least 1");
    }
    let settings = Settings {
        caps,
        accounts,
        admins: args.admins,
        listen: args.listen,
        node,
        lease_ttl: Duration::from_secs_f64(args.lease_seconds),
        data_dir: args.data_dir,
        redis: args.redis.map(|url| RedisSettings {
            url,
            prefix: args.redis_prefix,
            ca_file: args.redis_ca,
        }),
        read_buffer_bytes: args.read_buffer_bytes.clamp(1024, 64 * 1024),
        bot_max_games: args.bot_max_games.max(1),
        bot_challenges_per_hour: args.bot_challenges_per_hour,
        shed_lag: Duration::from_millis(args.shed_lag_ms),
        table_start_rate: args.table_start_rate,
        store_cache_bytes: (args.store_cache_mb as usize) << 20,
        analysis: tengen_server::settings::AnalysisSettings {
            slots: args.analysis_slots,
            nodes: args.analysis_nodes,
            ..Default::default()
        },
        computer: tengen_server::settings::ComputerSettings {
            games: args.computer_games,
            move_ms: args.computer_move_ms.max(50),
            ..Default::default()
        },
        study: tengen_server::study::StudySettings {
            depth: args.explorer_depth,
            mine: !args.no_puzzles,
            nodes: args.analysis_nodes,
            ..Default::default()
        },
        ..Settings::default()
    };
    let settings = match args.max_connections {
        Some(max) if max > 0 => Settings {
            max_connections: max,
            max_sessions: 2 * max,
            ..settings
        },
        Some(_) => anyhow::bail!("--max-connections must be at least 1"),
        None => settings,
    };
    let server = Server::start(settings)
        .await
        .context("tengen-server did not start")?;
    if server.restored() > 0 {
        tracing::info!(games = server.restored(), "live games restored");
    }
    // The one line scripts wait for (`--listen 127.0.0.1:0` tells the port).
    let stop = shutdown_signal()?;
    println!("listening on {}", server.addr());
    stop.await;
    tracing::info!("shutting down: closing connections with 1012 (restarting)");
    server.shutdown();
    // Every accepted action is already stored; leave within 5 seconds even
    // if a connection does not finish its closing handshake.
    match tokio::time::timeout(STOP_WITHIN, server.wait()).await {
        Ok(r) => r.context("server stopped with an error")?,
        Err(_) => tracing::warn!("connections still open after {STOP_WITHIN:?}; exiting anyway"),
    }
    Ok(())
}

async fn migrate(args: Migrate) -> anyhow::Result<()> {
    let from = open_data_dir(&args.from_data_dir).await?;
    let to = tengen_server::open_redis(&RedisSettings {
        url: args.to_redis,
        prefix: args.redis_prefix,
        ca_file: args.redis_ca,
    })
    .await?;
    let from = Arc::new(from);
    let report = tengen_store::migrate::migrate(from.as_ref(), &to, args.force)
        .await
        .context("the migration stopped")?;
    println!("migrated {report}");
    println!("from {}", tengen_store::Store::describe(from.as_ref()));
    println!("to {}", tengen_store::Store::describe(&to));
    Ok(())
}

/// Opens the embedded store in `dir` as the server would, for a command
/// that runs while no server does.
async fn open_data_dir(dir: &std::path::Path) -> anyhow::Result<EmbeddedStore> {
    if !dir.join(tengen_store::embedded::DB_FILE).is_file() {
        anyhow::bail!(
            "{} holds no store ({} is missing)",
            dir.display(),
            tengen_store::embedded::DB_FILE
        );
    }
    let options = tengen_server::start::embedded_options(DEFAULT_CACHE_BYTES);
    let owned = dir.to_owned();
    tokio::task::spawn_blocking(move || EmbeddedStore::open_with(&owned, &options))
        .await
        .context("opening the data directory")?
        .with_context(|| format!("cannot open the data directory {}", dir.display()))
}

/// `tengen-server salvage`: prints what was kept and lost.
async fn salvage(args: Salvage) -> anyhow::Result<()> {
    let dir = args.data_dir.clone();
    let options = tengen_server::start::embedded_options(DEFAULT_CACHE_BYTES);
    let salvaged = tokio::task::spawn_blocking(move || salvage_store(&dir, &options))
        .await
        .context("salvaging")?
        .with_context(|| format!("cannot salvage {}", args.data_dir.display()))?;
    match (&salvaged.damage, &salvaged.copy) {
        (Some(damage), Some(copy)) => {
            println!("found: {damage}");
            println!("kept {} commits that preceded the damage", salvaged.kept);
            println!("lost {} commits", salvaged.lost);
            println!("the files as they were are in {}", copy.display());
        }
        _ => println!(
            "the journal in {} has no damage; nothing was changed",
            args.data_dir.display()
        ),
    }
    Ok(())
}

/// `tengen-server backup`: prints what was copied.
async fn backup(args: BackupArgs) -> anyhow::Result<()> {
    use tengen_server::backup::{BackupReply, BackupRequest, answer};
    let dest = std::path::absolute(&args.dest)
        .with_context(|| format!("the backup's path {}", args.dest.display()))?;
    let req = BackupRequest {
        by: tengen_server::moderation::admin::operator(),
        backup: dest,
    };
    let socket = tengen_server::moderation::socket::path(&args.data_dir);
    let reply = match tengen_server::moderation::socket::ask(&socket, &req).await? {
        Some(reply) => reply,
        None => {
            // No server runs on the directory: copy its store from here.
            let store = open_data_dir(&args.data_dir).await?;
            let reply = answer(&store, req).await;
            tokio::task::spawn_blocking(move || drop(store)).await?;
            reply
        }
    };
    match reply {
        BackupReply::Done(done) => {
            println!(
                "copied {} finished games, {} live games ({} rows, {} bytes) in {} ms",
                done.finished_games, done.live_tables, done.rows, done.bytes, done.took_ms
            );
            println!("into {}", done.dest.display());
            Ok(())
        }
        BackupReply::Refused(why) => anyhow::bail!("{why}"),
    }
}

impl StoreArgs {
    async fn open(&self) -> anyhow::Result<Arc<dyn tengen_store::Store>> {
        if let Some(url) = &self.redis {
            let store = tengen_server::open_redis(&RedisSettings {
                url: url.clone(),
                prefix: self.redis_prefix.clone(),
                ca_file: self.redis_ca.clone(),
            })
            .await?;
            return Ok(Arc::new(store));
        }
        Ok(Arc::new(open_data_dir(&self.data_dir).await?))
    }

    fn settings(&self) -> anyhow::Result<tengen_server::study::StudySettings> {
        if self.explorer_depth > tengen_study::explorer::MAX_DEPTH {
            anyhow::bail!(
                "--explorer-depth is at most {}",
                tengen_study::explorer::MAX_DEPTH
            );
        }
        Ok(tengen_server::study::StudySettings {
            depth: self.explorer_depth,
            mine: self.puzzles,
            ..Default::default()
        })
    }
}

async fn import(args: ImportArgs) -> anyhow::Result<()> {
    let settings = args.store.settings()?;
    let files = tengen_server::study::import::expand(&args.files).context("listing the files")?;
    let store = args.store.open().await?;
    let report = tengen_server::study::import::import_files(
        store.as_ref(),
        &settings,
        &files,
        args.rule_set,
        args.opening,
        args.store.puzzles,
    )
    .await?;
    println!("imported: {report}");
    Ok(())
}

async fn reindex(args: ReindexArgs) -> anyhow::Result<()> {
    let settings = args.store.settings()?;
    let store = args.store.open().await?;
    let report =
        tengen_server::study::import::reindex(store.as_ref(), &settings, args.store.puzzles)
            .await?;
    println!("reindexed: {report}");
    Ok(())
}

/// `tengen-server admin`: prints the answer; a refusal fails the command.
async fn admin(args: tengen_server::moderation::admin::AdminArgs) -> anyhow::Result<()> {
    let reply = tengen_server::moderation::admin::run(args).await?;
    println!("{}", serde_json::to_string(&reply)?);
    if let tengen_protocol::ServerMsg::Error(e) = reply {
        anyhow::bail!("refused ({}): {}", e.code, e.message);
    }
    Ok(())
}

/// How long a graceful stop may take.
const STOP_WITHIN: std::time::Duration = std::time::Duration::from_millis(4500);

/// SIGTERM or SIGINT, registered at once (before the server says it is
/// listening, so that a stop sent right after that line is never the
/// default action, which would kill the process).
fn shutdown_signal() -> anyhow::Result<impl std::future::Future<Output = ()>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term = signal(SignalKind::terminate()).context("a SIGTERM handler")?;
        let mut int = signal(SignalKind::interrupt()).context("a SIGINT handler")?;
        Ok(async move {
            tokio::select! {
                _ = term.recv() => {},
                _ = int.recv() => {},
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}

/// The machine's host name (a container's or pod's own), or `node`.
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "node".into())
}
