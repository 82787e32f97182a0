//! [`Cidr`]: an address range, as `--trusted-proxy` names one and as
//! moderators ban one (`203.0.113.0/24`, `2001:db8::/32`, or one address).
//! A value of its own so that the settings (which hold them), the
//! per-address caps and the address bans (which match against them) use
//! it without depending on each other. IPv4 addresses seen as IPv4-mapped
//! IPv6 (what a dual-stack listener reports) match IPv4 ranges.

use std::net::IpAddr;

/// An address range (`10.0.0.0/8`, `fd00::/8`, or one address).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    net: IpAddr,
    prefix: u8,
}

impl std::str::FromStr for Cidr {
    type Err = String;
    fn from_str(s: &str) -> Result<Cidr, String> {
        let (ip, prefix) = s.split_once('/').unwrap_or((s, ""));
        let net: IpAddr = ip.parse().map_err(|_| format!("not an address: {ip}"))?;
        let max = if net.is_ipv4() { 32 } else { 128 };
        let prefix = if prefix.is_empty() {
            max
        } else {
            prefix
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= max)
                .ok_or_else(|| format!("not a prefix length: {prefix}"))?
        };
        let cidr = Cidr { net, prefix };
        if !cidr.contains_exactly(net) {
            return Err(format!(
                "{s} has bits set past its prefix; write the network address"
            ));
        }
        Ok(cidr)
    }
}

impl Cidr {
    /// Whether `ip`, masked to the prefix, is the network address itself.
    fn contains_exactly(&self, ip: IpAddr) -> bool {
        match ip {
            IpAddr::V4(a) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(a) & !mask == 0
            }
            IpAddr::V6(a) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(a) & !mask == 0
            }
        }
    }

    /// `ip` is in the range.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
            v4 => v4,
        };
        match (self.net, ip) {
            (IpAddr::V4(n), IpAddr::V4(a)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(n) & mask == u32::from(a) & mask
            }
            (IpAddr::V6(n), IpAddr::V6(a)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(n) & mask == u128::from(a) & mask
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cidrs_parse_and_match() {
        let c: Cidr = "10.0.0.0/8".parse().unwrap();
        assert!(c.contains("10.9.8.7".parse().unwrap()));
        assert!(c.contains("::ffff:10.1.1.1".parse().unwrap()));
        assert!(!c.contains("11.0.0.1".parse().unwrap()));
        let one: Cidr = "192.0.2.1".parse().unwrap();
        assert!(one.contains("192.0.2.1".parse().unwrap()));
        assert!(!one.contains("192.0.2.2".parse().unwrap()));
        let all: Cidr = "::/0".parse().unwrap();
        assert!(all.contains("fd00::1".parse().unwrap()));
        assert!("10.0.0.0/33".parse::<Cidr>().is_err());
        assert!("10.0.0.1/8".parse::<Cidr>().is_err(), "host bits set");
        let v6: Cidr = "2001:db8::/32".parse().unwrap();
        assert!(v6.contains("2001:db8:ffff::1".parse().unwrap()));
        assert!(!v6.contains("2001:db9::1".parse().unwrap()));
        assert!(!v6.contains("203.0.113.7".parse().unwrap()));
        assert!(
            "0.0.0.0/0"
                .parse::<Cidr>()
                .unwrap()
                .contains("8.8.8.8".parse().unwrap())
        );
        assert!("nonsense".parse::<Cidr>().is_err());
    }
}
