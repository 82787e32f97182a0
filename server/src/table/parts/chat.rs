//! Each connection's chat rate at a table.

use std::collections::HashMap;
use std::time::Instant;

/// Each connection's chat rate: (tokens, last refill).
#[derive(Default)]
pub(crate) struct ChatRates {
    pub(crate) chat_rate: HashMap<u64, (f64, Instant)>,
}
