//! Per-address caps: open sockets and WebSockets per client address, and
//! WebSocket handshakes per address per minute.
//!
//! One address should not be able to take the whole server: at accept a
//! socket is counted against its address (beyond twice the WebSocket cap
//! it is closed unanswered), and at the upgrade the open WebSockets and a
//! token bucket of handshakes are checked; beyond either the upgrade is
//! answered HTTP 429 with `Retry-After`, before it becomes a WebSocket.
//!
//! An *address* is an IPv4 address, or an IPv6 /64 (one subscriber's
//! usual allocation: a host can pick any of its /64's addresses at will,
//! so counting single IPv6 addresses would count nothing). IPv4-mapped
//! IPv6 addresses count as their IPv4 address. Loopback is exempt unless
//! [`CapSettings::limit_loopback`] (the load generator and the tests
//! connect from 127.0.0.1 by the thousand). Behind a reverse proxy every
//! client has the proxy's address: a peer in [`CapSettings::trusted_proxies`]
//! is not counted itself, and the client's address is the last hop its
//! `X-Forwarded-For` names.
//!
//! The table is bounded: an entry with nothing open and a full bucket is
//! worth nothing and is swept out when the table is full; when it is full
//! of live entries, new addresses are refused (`address_table`) until
//! some end — a flood of fresh addresses cannot grow it without bound.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub use crate::cidr::Cidr;
use crate::metrics::Cap;
use crate::settings::CapSettings;

/// A client address as counted: an IPv4 address or an IPv6 /64.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AddrKey(IpAddr);

impl AddrKey {
    pub fn of(ip: IpAddr) -> AddrKey {
        match ip {
            IpAddr::V4(_) => AddrKey(ip),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => AddrKey(IpAddr::V4(v4)),
                None => {
                    let bits = u128::from(v6) & !((1u128 << 64) - 1);
                    AddrKey(IpAddr::V6(Ipv6Addr::from(bits)))
                }
            },
        }
    }
}

impl std::fmt::Display for AddrKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            IpAddr::V4(a) => write!(f, "{a}"),
            IpAddr::V6(a) => write!(f, "{a}/64"),
        }
    }
}

/// Who a request is from: the client's address (through a trusted proxy,
/// the one it forwarded) and whether the per-address caps apply to it.
#[derive(Clone, Copy, Debug)]
pub struct Client {
    pub ip: IpAddr,
    pub limited: bool,
}

/// One address's counts.
struct Entry {
    sockets: u32,
    websockets: u32,
    /// Handshakes left in the bucket, as of `last`.
    tokens: f64,
    last: Instant,
}

/// Why an upgrade was refused, and when to try again.
#[derive(Debug, PartialEq, Eq)]
pub struct Refused {
    pub cap: Cap,
    pub retry_after: Duration,
}

/// The per-address table the listener and the upgrade share.
pub struct Addresses {
    settings: CapSettings,
    table: Mutex<Table>,
}

struct Table {
    entries: HashMap<AddrKey, Entry>,
    last_sweep: Option<Instant>,
}

/// A socket or WebSocket counted against its address until dropped.
pub struct Place {
    addresses: Arc<Addresses>,
    key: AddrKey,
    websocket: bool,
}

impl Drop for Place {
    fn drop(&mut self) {
        if let Ok(mut t) = self.addresses.table.lock()
            && let Some(e) = t.entries.get_mut(&self.key)
        {
            let n = if self.websocket {
                &mut e.websockets
            } else {
                &mut e.sockets
            };
            *n = n.saturating_sub(1);
        }
    }
}

impl Addresses {
    pub fn new(settings: CapSettings) -> Arc<Addresses> {
        Arc::new(Addresses {
            settings,
            table: Mutex::new(Table {
                entries: HashMap::new(),
                last_sweep: None,
            }),
        })
    }

    pub fn settings(&self) -> &CapSettings {
        &self.settings
    }

    /// Whether `peer` is a reverse proxy whose `X-Forwarded-For` is trusted.
    pub fn trusted_proxy(&self, peer: IpAddr) -> bool {
        self.settings
            .trusted_proxies
            .iter()
            .any(|c| c.contains(peer))
    }

    /// Whether the per-address caps apply to `ip`.
    pub fn limited(&self, ip: IpAddr) -> bool {
        self.settings.limit_loopback || !ip.is_loopback()
    }

    /// The client behind a request from `peer` with this `X-Forwarded-For`
    /// (only a trusted proxy's is believed; its last entry is the address
    /// the proxy itself saw).
    pub fn client(&self, peer: IpAddr, forwarded_for: Option<&str>) -> Client {
        let ip = match forwarded_for {
            Some(xff) if self.trusted_proxy(peer) => xff
                .rsplit(',')
                .next()
                .and_then(|last| last.trim().parse().ok())
                .unwrap_or(peer),
            _ => peer,
        };
        Client {
            ip,
            limited: !self.trusted_proxy(ip) && self.limited(ip),
        }
    }

    /// Counts a socket just accepted from `peer`; `None`: close it at once
    /// (its address has too many open, or the table is full).
    pub fn accept(self: &Arc<Self>, peer: IpAddr) -> Result<Option<Place>, Cap> {
        if self.trusted_proxy(peer) || !self.limited(peer) {
            return Ok(None);
        }
        let key = AddrKey::of(peer);
        let max = self.settings.max_connections_per_address.saturating_mul(2);
        let busy = self.settings.busy_retry;
        self.with_entry(key, Instant::now(), |e| {
            if e.sockets >= max {
                return Err(Refused {
                    cap: Cap::AddressSockets,
                    retry_after: busy,
                });
            }
            e.sockets += 1;
            Ok(())
        })
        .map_err(|r| r.cap)?;
        Ok(Some(self.place(key, false)))
    }

    /// An upgrade from `client`: one handshake taken from its bucket and a
    /// WebSocket place, or why not.
    pub fn upgrade(self: &Arc<Self>, client: Client) -> Result<Option<Place>, Refused> {
        if !client.limited {
            return Ok(None);
        }
        let key = AddrKey::of(client.ip);
        let s = &self.settings;
        let per_min = f64::from(s.handshakes_per_minute.max(1));
        let now = Instant::now();
        let refused = |cap, retry_after| Refused { cap, retry_after };
        self.with_entry(key, now, |e| {
            let dt = now.saturating_duration_since(e.last).as_secs_f64();
            e.last = now;
            e.tokens = (e.tokens + dt * per_min / 60.0).min(per_min);
            if e.tokens < 1.0 {
                let wait = (1.0 - e.tokens) * 60.0 / per_min;
                return Err(refused(Cap::Handshakes, Duration::from_secs_f64(wait)));
            }
            e.tokens -= 1.0;
            if e.websockets >= s.max_connections_per_address {
                return Err(refused(Cap::AddressConnections, s.busy_retry));
            }
            e.websockets += 1;
            Ok(())
        })?;
        Ok(Some(self.place(key, true)))
    }

    fn place(self: &Arc<Self>, key: AddrKey, websocket: bool) -> Place {
        Place {
            addresses: self.clone(),
            key,
            websocket,
        }
    }

    /// Runs `f` on `key`'s entry (made if missing, room permitting).
    /// Refused as `address_table` when the table is full of live entries.
    fn with_entry(
        &self,
        key: AddrKey,
        now: Instant,
        f: impl FnOnce(&mut Entry) -> Result<(), Refused>,
    ) -> Result<(), Refused> {
        let full_table = Refused {
            cap: Cap::AddressTable,
            retry_after: self.settings.busy_retry,
        };
        let Ok(mut t) = self.table.lock() else {
            return Err(full_table);
        };
        if !t.entries.contains_key(&key) {
            if t.entries.len() >= self.settings.max_tracked_addresses {
                self.sweep(&mut t, now);
            }
            if t.entries.len() >= self.settings.max_tracked_addresses {
                return Err(full_table);
            }
            let full = f64::from(self.settings.handshakes_per_minute.max(1));
            t.entries.insert(
                key,
                Entry {
                    sockets: 0,
                    websockets: 0,
                    tokens: full,
                    last: now,
                },
            );
        }
        match t.entries.get_mut(&key) {
            Some(entry) => f(entry),
            None => Err(full_table),
        }
    }

    /// Drops the entries worth nothing (nothing open, bucket full again):
    /// at most once a second, so a table full of live entries costs one
    /// scan a second, not one per refused socket.
    fn sweep(&self, t: &mut Table, now: Instant) {
        if t.last_sweep
            .is_some_and(|s| now.saturating_duration_since(s) < Duration::from_secs(1))
        {
            return;
        }
        t.last_sweep = Some(now);
        let per_min = f64::from(self.settings.handshakes_per_minute.max(1));
        t.entries.retain(|_, e| {
            let refilled =
                e.tokens + now.saturating_duration_since(e.last).as_secs_f64() * per_min / 60.0;
            e.sockets > 0 || e.websockets > 0 || refilled < per_min
        });
    }

    /// Addresses tracked now.
    pub fn tracked(&self) -> usize {
        self.table.lock().map_or(0, |t| t.entries.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caps(conns: u32, per_min: u32, table: usize) -> Arc<Addresses> {
        Addresses::new(CapSettings {
            max_connections_per_address: conns,
            handshakes_per_minute: per_min,
            max_tracked_addresses: table,
            limit_loopback: true,
            ..CapSettings::default()
        })
    }

    fn client(ip: &str) -> Client {
        Client {
            ip: ip.parse().unwrap(),
            limited: true,
        }
    }

    #[test]
    fn ipv6_counts_by_64_and_mapped_ipv4_as_ipv4() {
        let a = AddrKey::of("2001:db8:1:2:aaaa::1".parse().unwrap());
        let b = AddrKey::of("2001:db8:1:2:bbbb::9".parse().unwrap());
        let c = AddrKey::of("2001:db8:1:3::1".parse().unwrap());
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(
            AddrKey::of("::ffff:192.0.2.7".parse().unwrap()),
            AddrKey::of("192.0.2.7".parse().unwrap())
        );
        assert_eq!(a.to_string(), "2001:db8:1:2::/64");
    }

    #[test]
    fn a_trusted_proxy_forwards_its_last_hop_and_no_one_else_does() {
        let a = Addresses::new(CapSettings {
            trusted_proxies: vec!["10.0.0.0/8".parse().unwrap()],
            ..CapSettings::default()
        });
        let proxy = "10.0.0.5".parse().unwrap();
        let c = a.client(proxy, Some("1.2.3.4, 198.51.100.9"));
        assert_eq!(c.ip.to_string(), "198.51.100.9");
        assert!(c.limited);
        let stranger = "203.0.113.1".parse().unwrap();
        assert_eq!(a.client(stranger, Some("1.2.3.4")).ip, stranger);
        assert!(!a.client("127.0.0.1".parse().unwrap(), None).limited);
    }

    #[test]
    fn websockets_and_handshakes_are_capped_per_address() {
        let a = caps(2, 3, 100);
        let one = a.upgrade(client("192.0.2.1")).unwrap();
        let _two = a.upgrade(client("192.0.2.1")).unwrap();
        let refused = a.upgrade(client("192.0.2.1")).err().unwrap();
        assert_eq!(refused.cap, Cap::AddressConnections);
        assert!(a.upgrade(client("192.0.2.2")).is_ok(), "another address");
        drop(one);
        // A place is free again, but the bucket (3 a minute) is empty.
        let refused = a.upgrade(client("192.0.2.1")).err().unwrap();
        assert_eq!(refused.cap, Cap::Handshakes);
        assert!(refused.retry_after > Duration::from_secs(15));
    }

    #[test]
    fn the_table_is_bounded_and_sweeps_idle_entries() {
        let a = caps(2, 60, 2);
        let p1 = a.accept("192.0.2.1".parse().unwrap()).unwrap();
        let _p2 = a.accept("192.0.2.2".parse().unwrap()).unwrap();
        assert_eq!(
            a.accept("192.0.2.3".parse().unwrap()).err(),
            Some(Cap::AddressTable)
        );
        drop(p1);
        // 192.0.2.1 has nothing open and a full bucket: swept (a second on).
        a.table.lock().unwrap().last_sweep = None;
        assert!(a.accept("192.0.2.3".parse().unwrap()).is_ok());
        assert_eq!(a.tracked(), 2);
    }

    #[test]
    fn sockets_are_capped_at_twice_the_websockets() {
        let a = caps(1, 60, 10);
        let ip = "192.0.2.1".parse().unwrap();
        let _s = (a.accept(ip).unwrap(), a.accept(ip).unwrap());
        assert_eq!(a.accept(ip).err(), Some(Cap::AddressSockets));
        assert!(matches!(
            caps(1, 60, 10).accept("127.0.0.1".parse().unwrap()),
            Ok(Some(_))
        ));
    }
}
