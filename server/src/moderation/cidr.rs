//! Address ranges as moderators write them (`203.0.113.0/24`,
//! `2001:db8::/32`, or one address), and whether an address is in one.
//! IPv4 addresses seen as IPv4-mapped IPv6 (`::ffff:203.0.113.7`, what a
//! dual-stack listener reports) match IPv4 ranges.

use std::net::IpAddr;

/// A parsed range: the network's bits and the prefix length, IPv4 kept
/// apart from IPv6.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    v4: bool,
    bits: u128,
    len: u32,
}

impl Range {
    /// Parses `ADDR` or `ADDR/LEN`; host bits set past the prefix are
    /// refused (`10.0.0.1/8` is a typo more often than not).
    pub fn parse(s: &str) -> Result<Range, String> {
        let (addr, len) = match s.split_once('/') {
            Some((a, l)) => (a, Some(l)),
            None => (s, None),
        };
        let ip: IpAddr = addr
            .trim()
            .parse()
            .map_err(|_| format!("{addr} is not an IP address"))?;
        let (v4, bits, max) = split(ip);
        let len = match len {
            None => max,
            Some(l) => l
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|l| *l <= max)
                .ok_or_else(|| format!("the prefix length must be 0 to {max}"))?,
        };
        if bits & !mask(len, max) != 0 {
            return Err(format!(
                "{s} has bits set past its prefix; write the network address"
            ));
        }
        Ok(Range { v4, bits, len })
    }

    /// `ip` is in the range.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let (v4, bits, max) = split(ip);
        v4 == self.v4 && bits & mask(self.len, max) == self.bits
    }
}

/// Whether an address is IPv4 (mapped ones too), its bits, its width.
fn split(ip: IpAddr) -> (bool, u128, u32) {
    let ip = match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    };
    match ip {
        IpAddr::V4(a) => (true, u128::from(u32::from(a)), 32),
        IpAddr::V6(a) => (false, u128::from(a), 128),
    }
}

/// The network mask of a prefix of `len` bits out of `max`.
fn mask(len: u32, max: u32) -> u128 {
    if len == 0 {
        return 0;
    }
    let all = if max == 32 {
        u128::from(u32::MAX)
    } else {
        u128::MAX
    };
    all & !((1u128 << (max - len)) - 1) & all
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn ranges_match_their_addresses_only() {
        let r = Range::parse("203.0.113.0/24").unwrap();
        assert!(r.contains(ip("203.0.113.7")));
        assert!(r.contains(ip("::ffff:203.0.113.200")));
        assert!(!r.contains(ip("203.0.114.1")));
        assert!(!r.contains(ip("2001:db8::1")));
        let r = Range::parse("2001:db8::/32").unwrap();
        assert!(r.contains(ip("2001:db8:ffff::1")));
        assert!(!r.contains(ip("2001:db9::1")));
        let one = Range::parse("192.0.2.5").unwrap();
        assert!(one.contains(ip("192.0.2.5")));
        assert!(!one.contains(ip("192.0.2.6")));
        assert!(Range::parse("0.0.0.0/0").unwrap().contains(ip("8.8.8.8")));
        assert!(Range::parse("::/0").unwrap().contains(ip("::1")));
        assert!(Range::parse("10.0.0.1/8").is_err());
        assert!(Range::parse("10.0.0.0/33").is_err());
        assert!(Range::parse("nonsense").is_err());
    }
}
