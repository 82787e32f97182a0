//! The server's resident memory: from its `/metrics` page
//! (`process_resident_memory_bytes`, which the server's process collector
//! exports) on the host and port of a `--url`, or from `/proc/PID/status`
//! when `--server-pid` is given. Read before the connections open and once
//! they all are, the difference over their number is the memory each costs.

use anyhow::{Context, bail};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// `host:port` of a `ws://host:port/path` URL.
pub fn authority(url: &str) -> anyhow::Result<&str> {
    let rest = url
        .strip_prefix("ws://")
        .with_context(|| format!("{url}: only ws:// URLs are supported"))?;
    Ok(rest.split('/').next().unwrap_or(rest))
}

/// The `/metrics` page on `url`'s host:port.
pub async fn metrics_page(url: &str) -> anyhow::Result<String> {
    let host = authority(url)?;
    let mut s = tokio::net::TcpStream::connect(host)
        .await
        .with_context(|| format!("connecting to {host} for /metrics"))?;
    s.write_all(format!("GET /metrics HTTP/1.0\r\nHost: {host}\r\n\r\n").as_bytes())
        .await?;
    let mut body = String::new();
    s.read_to_string(&mut body).await?;
    Ok(body)
}

/// `process_resident_memory_bytes` from `GET /metrics` on `url`'s host:port.
pub async fn rss_from_metrics(url: &str) -> anyhow::Result<u64> {
    let host = authority(url)?;
    let body = metrics_page(url).await?;
    parse_rss(&body).with_context(|| format!("no process_resident_memory_bytes on {host}/metrics"))
}

fn parse_rss(page: &str) -> Option<u64> {
    page.lines()
        .find_map(|l| l.strip_prefix("process_resident_memory_bytes "))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .map(|v| v as u64)
}

/// VmRSS of process `pid`.
pub fn rss_from_proc(pid: u32) -> anyhow::Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .with_context(|| format!("reading /proc/{pid}/status"))?;
    let kb = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok());
    match kb {
        Some(kb) => Ok(kb * 1024),
        None => bail!("no VmRSS in /proc/{pid}/status"),
    }
}

/// This process's resident memory (the relay's `/metrics`).
pub fn own_rss() -> anyhow::Result<u64> {
    rss_from_proc(std::process::id())
}

/// The servers' memory: summed over the distinct host:ports of `urls`, or
/// of `pid`. Returns where it was read and the bytes.
pub async fn sample(urls: &[String], pid: Option<u32>) -> anyhow::Result<(String, u64)> {
    if let Some(pid) = pid {
        return Ok((format!("/proc/{pid}"), rss_from_proc(pid)?));
    }
    let mut seen = Vec::new();
    let mut total = 0;
    for u in urls {
        let a = authority(u)?;
        if !seen.contains(&a) {
            seen.push(a);
            total += rss_from_metrics(u).await?;
        }
    }
    Ok((format!("/metrics of {}", seen.join(", ")), total))
}

/// The load average (`/proc/loadavg`'s first three figures).
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_figure_from_a_prometheus_page() {
        let page = "# HELP process_resident_memory_bytes x\n# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes 12345678\nprocess_virtual_memory_bytes 1\n";
        assert_eq!(parse_rss(page), Some(12_345_678));
        assert_eq!(parse_rss("nothing"), None);
        assert_eq!(
            authority("ws://127.0.0.1:8415/ws").unwrap(),
            "127.0.0.1:8415"
        );
        assert!(own_rss().unwrap() > 0);
    }
}
