//! A fresh key prefix for the examples that run against Redis: their
//! keys are left behind in a scratch Redis, and no run meets another's.

/// `{name}-{process id}-{milliseconds since the epoch}`.
pub fn fresh(name: &str) -> String {
    format!(
        "{name}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis()
    )
}
