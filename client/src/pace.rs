//! Keeps a connection within the message rate the server allows
//! (`welcome.limits`: so many a second, so many at once). The server
//! refuses what goes past its token bucket; a client that replies the
//! moment an event arrives (a bot, an engine) would go past it over a fast
//! link, so a paced connection waits before a frame instead.

use std::time::Duration;

use tengen_protocol::Limits;
use tokio::time::Instant;

/// A token bucket a little below the server's: nine tenths of its rate and
/// half its burst, so that frames bunched on the way still fit.
#[derive(Debug, Clone)]
pub struct Pace {
    rate: f64,
    burst: f64,
    tokens: f64,
    last: Instant,
}

impl Pace {
    pub fn new(limits: &Limits) -> Pace {
        let rate = f64::from(limits.rate_per_sec.max(1)) * 0.9;
        let burst = (f64::from(limits.rate_burst) / 2.0).max(1.0);
        Pace {
            rate,
            burst,
            tokens: burst,
            last: Instant::now(),
        }
    }

    /// How long to wait before the next frame, taking its token.
    pub fn take(&mut self, now: Instant) -> Duration {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        self.last = now;
        self.tokens -= 1.0;
        if self.tokens >= 0.0 {
            Duration::ZERO
        } else {
            Duration::from_secs_f64(-self.tokens / self.rate)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(rate: u32, burst: u32) -> Limits {
        Limits {
            rate_per_sec: rate,
            rate_burst: burst,
            ..Limits::DEFAULT
        }
    }

    #[test]
    fn a_burst_goes_at_once_then_frames_wait_their_share() {
        let t0 = Instant::now();
        let mut p = Pace::new(&limits(20, 40));
        for _ in 0..20 {
            assert_eq!(p.take(t0), Duration::ZERO);
        }
        // The 21st at the same instant waits one token's time (1 / 18 s),
        // the 22nd two.
        let w1 = p.take(t0);
        let w2 = p.take(t0);
        assert!((w1.as_secs_f64() - 1.0 / 18.0).abs() < 1e-9, "{w1:?}");
        assert!((w2.as_secs_f64() - 2.0 / 18.0).abs() < 1e-9, "{w2:?}");
    }

    #[test]
    fn over_any_second_a_paced_sender_stays_below_the_servers_rate() {
        let t0 = Instant::now();
        let mut p = Pace::new(&limits(20, 40));
        // Send as fast as the pace lets: each frame at the time it says.
        let mut at = t0;
        let mut sent = Vec::new();
        for _ in 0..200 {
            at += p.take(at);
            sent.push(at);
        }
        // The server's bucket (20 a second, 40 at once) never runs dry.
        let mut tokens = 40.0_f64;
        let mut last = t0;
        for s in sent {
            tokens = (tokens + s.duration_since(last).as_secs_f64() * 20.0).min(40.0);
            last = s;
            tokens -= 1.0;
            assert!(tokens >= 0.0);
        }
    }
}
