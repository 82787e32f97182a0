//! A connection's message rate: a token bucket.
//!
//! A bot account's program sends more than a person (it plays several
//! games, polls, sets filters, queues again at once): its connection's
//! bucket holds and refills [`BOT_RATE_FACTOR`] times what `welcome.limits`
//! says for people, from the frame after the session became a bot (at
//! `hello` with a bot's token, a login, or `became_bot`).

use std::time::Instant;

use tengen_protocol::Limits;

/// How many times a person's rate and burst a bot account's connection
/// gets.
pub const BOT_RATE_FACTOR: u32 = 4;

/// A token bucket: `burst` messages at once, refilled at `rate` per second.
pub(super) struct Bucket {
    tokens: f64,
    rate: f64,
    burst: f64,
    last: Instant,
}

impl Bucket {
    /// The bucket of a person's (`bot` false) or a bot's connection.
    pub(super) fn for_player(limits: &Limits, bot: bool) -> Bucket {
        let factor = if bot { BOT_RATE_FACTOR } else { 1 };
        Bucket::new(
            limits.rate_per_sec.saturating_mul(factor),
            limits.rate_burst.saturating_mul(factor),
        )
    }

    fn new(rate: u32, burst: u32) -> Bucket {
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
