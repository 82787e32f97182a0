//! What finding the tables to take over costs Redis with many live
//! tables: the lease index (`Store::unleased_tables`) against the scan
//! it replaced (`RedisStore::unleased_tables_scanned`: `SMEMBERS` of the
//! live set and two `EXISTS` a table).
//!
//! ```text
//! cargo build --release -p tengen-store --example lease_index
//! taskset -c 1 target/release/examples/lease_index [--tables 50000] [--seconds 15] [--redis URL]
//! ```
//!
//! `--tables` live tables are created, each leased by one node (`bench-a`)
//! as a server does (lease, then table), in a `redis-server` the example
//! starts (or at `--redis URL`, a scratch Redis: the keys go under a fresh
//! prefix, left behind). The node renews all its leases once (as its
//! lease keeper does; the leases last 10 minutes, so no renewal runs
//! during the phases and what is counted is the query alone). Then, for `--seconds` each,
//! once a second as a node's takeover loop asks: the scan, then the index.
//! For each phase, from `INFO commandstats` and `INFO cpu` (reset and read
//! around it): every command's calls and µs a second (commands a script
//! runs are counted under their own names too, and in the script's µs),
//! and Redis's main-thread CPU a second; and the query's own time.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use futures_util::{StreamExt, TryStreamExt, stream};
use tengen_store::testing::RedisServer;
use tengen_store::{Acquired, Lease, RedisOptions, RedisStore, Store, StoreError};

#[path = "common/flags.rs"]
mod flags;
#[path = "common/prefix.rs"]
mod prefix;

struct Args {
    tables: usize,
    seconds: u64,
    redis: Option<String>,
}

fn args() -> Args {
    let mut args = Args {
        tables: 50_000,
        seconds: 15,
        redis: None,
    };
    for flag in flags::parse() {
        match flag.name.as_str() {
            "--tables" => args.tables = flag.number::<u64>() as usize,
            "--seconds" => args.seconds = flag.number(),
            "--redis" => args.redis = Some(flag.value),
            _ => flag.unknown(),
        }
    }
    args
}

/// One `INFO` section as its `key:value` lines.
async fn info(
    conn: &mut redis::aio::MultiplexedConnection,
    section: &str,
) -> Vec<(String, String)> {
    let text: String = redis::cmd("INFO")
        .arg(section)
        .query_async(conn)
        .await
        .expect("INFO");
    text.lines()
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.to_owned(), v.trim().to_owned()))
        .collect()
}

/// Redis's main-thread CPU seconds so far (user + system).
async fn cpu(conn: &mut redis::aio::MultiplexedConnection) -> f64 {
    info(conn, "cpu")
        .await
        .iter()
        .filter(|(k, _)| k == "used_cpu_sys_main_thread" || k == "used_cpu_user_main_thread")
        .map(|(_, v)| v.parse::<f64>().unwrap_or(0.0))
        .sum()
}

/// `INFO commandstats`: command → (calls, µs), without `INFO` and `CONFIG`.
async fn commandstats(
    conn: &mut redis::aio::MultiplexedConnection,
) -> BTreeMap<String, (u64, u64)> {
    let field = |rest: &str, name: &str| -> u64 {
        rest.split(',')
            .find_map(|kv| kv.strip_prefix(name)?.strip_prefix('=')?.parse().ok())
            .unwrap_or(0)
    };
    info(conn, "commandstats")
        .await
        .into_iter()
        .filter_map(|(k, rest)| {
            let name = k.strip_prefix("cmdstat_")?.to_owned();
            (name != "info" && name != "config")
                .then(|| (name, (field(&rest, "calls"), field(&rest, "usec"))))
        })
        .collect()
}

/// Runs `query` once a second for `seconds`, and prints what Redis spent.
async fn phase<F, Fut>(
    name: &str,
    seconds: u64,
    conn: &mut redis::aio::MultiplexedConnection,
    mut query: F,
) where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<Vec<String>, StoreError>>,
{
    let () = redis::cmd("CONFIG")
        .arg("RESETSTAT")
        .query_async(conn)
        .await
        .expect("CONFIG RESETSTAT");
    let cpu_before = cpu(conn).await;
    let started = Instant::now();
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    let (mut took, mut answered) = (Vec::new(), 0);
    for _ in 0..seconds {
        tick.tick().await;
        let t = Instant::now();
        answered = query().await.expect("query").len();
        took.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    let elapsed = started.elapsed().as_secs_f64();
    let cpu_used = cpu(conn).await - cpu_before;
    let stats = commandstats(conn).await;
    took.sort_by(f64::total_cmp);
    let (calls, usec): (u64, u64) = stats
        .values()
        .fold((0, 0), |(c, u), (c2, u2)| (c + c2, u + u2));
    println!(
        "{name}: {} queries in {elapsed:.1} s; a query took median {:.2} ms, max {:.2} ms; {answered} unleased answered",
        took.len(),
        took[took.len() / 2],
        took[took.len() - 1],
    );
    println!(
        "  Redis main-thread CPU {:.1} ms/s; {:.0} commands/s, {:.0} µs/s in commands (scripts' commands counted twice)",
        cpu_used * 1000.0 / elapsed,
        calls as f64 / elapsed,
        usec as f64 / elapsed,
    );
    for (cmd, (c, u)) in &stats {
        println!(
            "    {cmd:>16}: {:>10.1} calls/s {:>12.0} µs/s",
            *c as f64 / elapsed,
            *u as f64 / elapsed
        );
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args = args();
    let server = args.redis.is_none().then(RedisServer::start);
    let url = args
        .redis
        .clone()
        .unwrap_or_else(|| server.as_ref().expect("started").url());
    let prefix = prefix::fresh("bench-leases");
    let store = RedisStore::connect(
        &url,
        RedisOptions {
            prefix,
            // One pipeline renews all the leases: more than 2 s on one core.
            timeout: Duration::from_secs(60),
            ..RedisOptions::default()
        },
    )
    .await
    .expect("connect to Redis");
    let mut conn = redis::Client::open(url.as_str())
        .expect("the URL")
        .get_multiplexed_async_connection()
        .await
        .expect("a plain connection to Redis (one node)");

    let ttl = Duration::from_secs(600);
    let started = Instant::now();
    let leases: Vec<(String, Lease)> = stream::iter(0..args.tables)
        .map(|i| {
            let store = &store;
            async move {
                let id = format!("t{i:06}");
                let Acquired::Ours(lease) = store.acquire_lease(&id, "bench-a", ttl).await? else {
                    panic!("{id} is held by another node");
                };
                store.create_table(&id, b"meta").await?;
                Ok::<_, StoreError>((id, lease))
            }
        })
        .buffer_unordered(256)
        .try_collect()
        .await
        .expect("creating the tables");
    println!(
        "{} live tables leased by one node in {:.1} s",
        leases.len(),
        started.elapsed().as_secs_f64()
    );
    let t = Instant::now();
    let held = store.renew_leases(&leases, ttl).await.expect("renewing");
    assert!(held.iter().all(|h| *h), "every lease renewed");
    println!(
        "one renewal of all the leases: {:.1} ms",
        t.elapsed().as_secs_f64() * 1000.0
    );

    phase("scan (before the index)", args.seconds, &mut conn, || {
        store.unleased_tables_scanned()
    })
    .await;
    phase("index", args.seconds, &mut conn, || store.unleased_tables()).await;
}
