//! The binary's log subscriber: `TENGEN_LOG` chooses the levels, but no
//! filter raises another crate's lines above `DEBUG`.
//!
//! Why: the libraries under the server print what passes through them at
//! `TRACE` (tungstenite and tokio-tungstenite every WebSocket frame, in
//! hex or as text; the Redis client its commands' states; rustls its
//! handshake), and a WebSocket frame carries passwords, login tokens and
//! resume tokens. Their `log` records reach `tracing` through the
//! `tracing-log` bridge, so an env filter of `trace` (or
//! `tungstenite=trace`) would print them. A ceiling layer beside the env
//! filter keeps every target outside the project's own crates at `DEBUG`
//! at most, whatever the filter asks; the project's crates log at any
//! level and never log a secret (SECURITY.md; the `no_secrets_logged`
//! test runs the binary at `trace` and looks).

use tracing_subscriber::EnvFilter;
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// The project's crates (their module paths are their targets).
pub const OWN_CRATES: [&str; 6] = [
    "tengen_server",
    "tengen_store",
    "tengen_protocol",
    "tengen_client",
    "tengen_rules",
    "tengen_tournament",
];

/// The most verbose level a line of another crate is ever printed at.
pub const OTHERS_CEILING: LevelFilter = LevelFilter::DEBUG;

/// The ceiling: the project's crates at any level, every other target at
/// most [`OTHERS_CEILING`].
pub fn ceiling() -> Targets {
    OWN_CRATES.iter().fold(
        Targets::new().with_default(OTHERS_CEILING),
        |targets, own| targets.with_target(*own, LevelFilter::TRACE),
    )
}

/// Installs the subscriber for the process: `filter` (a `TENGEN_LOG`
/// value; `info` when missing or unreadable) under the [`ceiling`], to
/// stderr, with colours only on a terminal; `log` records (the
/// libraries') go through the same filters.
pub fn init(filter: Option<&str>) {
    let filter = filter
        .and_then(|f| EnvFilter::try_new(f).ok())
        .unwrap_or_else(|| EnvFilter::new("info"));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::registry()
        .with(filter)
        .with(ceiling())
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_ansi(ansi),
        )
        .init();
}

#[cfg(test)]
mod tests {
    use tracing::Level;
    use tracing_subscriber::filter::Targets;

    use super::*;

    fn allows(t: &Targets, target: &str, level: Level) -> bool {
        t.would_enable(target, &level)
    }

    #[test]
    fn the_ceiling_keeps_other_crates_at_debug_and_ours_at_trace() {
        let t = ceiling();
        for frames in [
            "tungstenite::protocol",
            "tokio_tungstenite",
            "redis",
            "hyper",
        ] {
            assert!(!allows(&t, frames, Level::TRACE), "{frames}");
            assert!(allows(&t, frames, Level::DEBUG), "{frames}");
        }
        for own in ["tengen_server::conn", "tengen_store::embedded"] {
            assert!(allows(&t, own, Level::TRACE), "{own}");
        }
    }
}
