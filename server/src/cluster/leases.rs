//! The ids of the cluster's own leases in the store's lease space: each
//! node's liveness lease, and the one lease whose holder runs the
//! matchmaker for all nodes.

/// The lease whose holder runs the one matchmaker of all nodes.
pub const MATCHMAKER: &str = "matchmaker";

/// The id of a node's liveness lease in the store's lease space.
pub fn alive_id(node: &str) -> String {
    format!("node:{node}")
}
