//! A connection's message rate: a token bucket.

use std::time::Instant;

/// A token bucket: `burst` messages at once, refilled at `rate` per second.
pub(super) struct Bucket {
    tokens: f64,
    rate: f64,
    burst: f64,
    last: Instant,
}

impl Bucket {
    pub(super) fn new(rate: u32, burst: u32) -> Bucket {
        Bucket {
            tokens: burst as f64,
            rate: rate.max(1) as f64,
            burst: burst.max(1) as f64,
            last: Instant::now(),
        }
    }

    pub(super) fn take(&mut self, now: Instant) -> bool {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    pub(super) fn retry_after_ms(&self) -> u64 {
        (((1.0 - self.tokens) / self.rate) * 1000.0).ceil().max(0.0) as u64
    }
}
