//! The messages the server's actors take, and their mailboxes: one file
//! per actor. They are the contracts between actors, kept apart from the
//! actors' implementations so that an actor names another only through
//! its messages (no module of one actor reaches into another's).
//!
//! | actor | owns | file |
//! |---|---|---|
//! | lobby (`crate::lobby`) | the rooms, lobby watchers | [`lobby`] |
//! | table (`crate::table`), one per game | the referee's game, clocks, subscribers | [`table`] |
//! | matchmaker (`crate::matchmaker`) | the rated queues | [`matchmaker`] |
//! | node (`crate::cluster::node`), several nodes only | routing to other nodes, relays, liveness | [`node`] |
//! | lease keeper (`crate::keeper`) | this node's table leases, renewed together | [`keeper`] |
//! | tournament director (`crate::tournaments`), one node by lease | the tournaments, their watchers | [`tournament`] |

pub mod keeper;
pub mod lobby;
pub mod matchmaker;
pub mod node;
pub mod table;
pub mod tournament;
