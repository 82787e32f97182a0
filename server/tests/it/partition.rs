//! A network partition: node A cut off from Redis but not from its
//! players, then healed.
//!
//! Node A runs in a network namespace of its own with two links to the
//! test's namespace: one its players use, one to Redis. Cutting is taking
//! the Redis link down on the host's side (packets are lost, nothing is
//! refused), so A sees a silent Redis while its players still reach it.
//! Node B and Redis stay in the test's namespace. Needs root (`ip netns`;
//! said and skipped otherwise; CI runs as root).
//!
//! What must hold, checked against the players' acknowledgements and the
//! stored log: no move A acknowledges while cut, every acknowledged move
//! stored once and in order, B the only writer once it took the table,
//! and A, healed, writes nothing more and sends its players to reconnect.

use crate::common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::proc::{self, DataDir, stop};
use common::redis::{lease_moves_to, store};
use common::scripted::{self, games_part_way, ply, resume_and_finish};
use tengen_client::ClientError;
use tengen_protocol::{ClientMsg, ServerMsg};
use tengen_rules::game::Action;
use tengen_store::Store;
use tengen_store::testing::RedisServer;

const LEASE: &str = "2";

/// A network namespace with two veth links to the test's namespace:
/// `players` (A at `.2`, the host at `.1`) and `redis` (the same); removed
/// when dropped.
struct Net {
    ns: String,
    /// The host's ends of the two links.
    players_if: String,
    redis_if: String,
    players: [String; 2],
    redis: [String; 2],
}

fn ip(args: &[&str]) -> Result<(), String> {
    let out = Command::new("ip")
        .args(args)
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "ip {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

impl Net {
    /// `None` when this machine cannot (not root, or no `ip netns`).
    fn create() -> Option<Net> {
        let id = std::process::id() % 200 + 20;
        let net = Net {
            ns: format!("tengen-part-{}", std::process::id()),
            players_if: format!("tgp{id}h"),
            redis_if: format!("tgr{id}h"),
            players: [format!("10.78.{id}.1"), format!("10.78.{id}.2")],
            redis: [format!("10.79.{id}.1"), format!("10.79.{id}.2")],
        };
        if let Err(e) = ip(&["netns", "add", &net.ns]) {
            eprintln!("skipped: a network namespace cannot be made here ({e})");
            return None;
        }
        let ns = net.ns.clone();
        for (host, addr) in [(&net.players_if, &net.players), (&net.redis_if, &net.redis)] {
            let inner = format!("{}n", &host[..host.len() - 1]);
            let (outer_addr, inner_addr) = (format!("{}/30", addr[0]), format!("{}/30", addr[1]));
            let steps: [Vec<&str>; 7] = [
                vec!["link", "add", host, "type", "veth", "peer", "name", &inner],
                vec!["link", "set", &inner, "netns", &ns],
                vec!["addr", "add", &outer_addr, "dev", host],
                vec!["link", "set", host, "up"],
                vec!["-n", &ns, "addr", "add", &inner_addr, "dev", &inner],
                vec!["-n", &ns, "link", "set", &inner, "up"],
                vec!["-n", &ns, "link", "set", "lo", "up"],
            ];
            for step in &steps {
                ip(step).expect("the namespace's links are set up");
            }
        }
        Some(net)
    }

    /// A's Redis link goes down on the host's side: A's packets to Redis
    /// and Redis's to A are lost.
    fn cut(&self) {
        ip(&["link", "set", &self.redis_if, "down"]).unwrap();
    }

    fn heal(&self) {
        ip(&["link", "set", &self.redis_if, "up"]).unwrap();
    }
}

impl Drop for Net {
    fn drop(&mut self) {
        let _ = ip(&["link", "del", &self.players_if]);
        let _ = ip(&["link", "del", &self.redis_if]);
        let _ = ip(&["netns", "del", &self.ns]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_cut_from_redis_but_not_from_its_players_loses_nothing_and_writes_nothing_after() {
    let Some(net) = Net::create() else {
        return;
    };
    let redis = RedisServer::start_with_flags(&[
        "--bind",
        "127.0.0.1",
        &net.redis[0],
        "--protected-mode",
        "no",
    ]);
    let (dir_a, dir_b) = (DataDir::new("part-a"), DataDir::new("part-b"));
    let a = proc::start_node_in(
        &net.ns,
        &net.players[1],
        &dir_a.0,
        &format!("redis://{}:{}", net.redis[0], redis.port()),
        "part",
        "node-a",
        LEASE,
    );
    let b = proc::start_node(&dir_b.0, &redis.url(), "part", "node-b", LEASE);
    let check = store(&redis, "part").await;

    // Three games part-way at A (2, 5 and 8 moves acknowledged and stored).
    let mut games = games_part_way(&a.url()).await;
    for g in &games {
        let lease = check.lease(g.table.as_str()).await.unwrap().unwrap();
        assert_eq!(lease.node, "node-a");
    }

    net.cut();
    let cut = Instant::now();
    // Each game's next move sent to A while A cannot reach Redis: A does
    // not acknowledge it (its append cannot be stored).
    for g in games.iter_mut() {
        let (black, point) = ply(g.played);
        let k = g.seat_for(black).index();
        let reply = tokio::time::timeout(
            Duration::from_secs(3),
            g.conn[k].request(ClientMsg::Act {
                table: g.table.clone(),
                action: Action::place(point.parse().unwrap()),
            }),
        )
        .await;
        assert!(
            !matches!(reply, Ok(Ok(ServerMsg::Acted { .. }))),
            "A acknowledged a move it could not store: {reply:?}"
        );
        eprintln!("A, cut, answered move {}: {reply:?}", g.played + 1);
    }

    // B takes the tables over once A's leases lapse.
    for g in &games {
        let (table, within) = (g.table.as_str(), Duration::from_secs(15));
        lease_moves_to(&check, table, "node-b", cut, within).await;
    }
    eprintln!("B took the tables {:?} after the cut", cut.elapsed());

    // The players come back at B: exactly the acknowledged moves are
    // there, and they play the games to their ends (the refused moves
    // again). A's connections are kept aside for later
    // (`resume_and_finish` makes its own).
    let mut at_a = Vec::new();
    for (n, g) in games.iter_mut().enumerate() {
        let stand_in = [
            scripted::connect(&b.url(), &format!("standin{n}a")).await.0,
            scripted::connect(&b.url(), &format!("standin{n}b")).await.0,
        ];
        at_a.push(std::mem::replace(&mut g.conn, stand_in));
        resume_and_finish(&b.url(), g).await;
    }

    // Healed, A writes nothing: a move sent there now (or one that waited
    // since the cut) is never acknowledged, and A sends its players off
    // to reconnect (1012).
    net.heal();
    for (g, conns) in games.iter().zip(at_a.iter_mut()) {
        let old = &mut conns[g.opener.index()];
        let late = old
            .request(ClientMsg::Act {
                table: g.table.clone(),
                action: Action::place("O15".parse().unwrap()),
            })
            .await;
        assert!(
            !matches!(late, Ok(ServerMsg::Acted { .. })),
            "A acknowledged a move after the partition healed: {late:?}"
        );
        let closed = match late {
            Err(e @ ClientError::Closed { .. }) => e,
            _ => tokio::time::timeout(Duration::from_secs(15), async {
                loop {
                    match old.next().await {
                        Err(e) => return e,
                        Ok(f) => assert!(
                            !matches!(f.msg, ServerMsg::Acted { .. }),
                            "A acknowledged a move after the heal: {:?}",
                            f.msg
                        ),
                    }
                }
            })
            .await
            .expect("A closes its old connections"),
        };
        assert!(
            matches!(closed, ClientError::Closed { code: 1012, .. }),
            "{closed:?}"
        );
    }

    // The stored games: every acknowledged move once, in order, nothing
    // of A's after the cut, and no live log left.
    scripted::check_records(&check, &games).await;
    stop([a, b]);
}
