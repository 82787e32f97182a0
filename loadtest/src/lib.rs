//! `tengen-loadtest`: the load generator that measures what a Tengen server
//! does on a machine, each figure beside the limit it is held to
//! (`BENCHMARKS.md`).
//!
//! A run is one parent process that spawns `--processes` load processes
//! (children: one process can hold only so many sockets), samples the
//! server's memory, starts a fan-out game when every spectator watches, and
//! merges the children's JSON; with `--baseline` it then starts the bare
//! relay ([`relay`]) as another process and runs the same scenario against
//! it, and with `--baseline-durable` the relay again with every forwarded
//! frame synced to a [`journal`] first.
//!
//! - [`args`], the command line and its checks;
//! - [`run`], what one load process shares: plan, clock, counters, due times;
//! - [`games`], simulated players (`games`, `fanout`, and `soak`, where
//!   they leave after each game and new ones come);
//! - [`spectator`], their spectators, each table's events checked and timed;
//! - [`connect`], connecting and requests retried when the server sheds them;
//! - [`churn`], the same dropping and resuming their connections (`churn`),
//!   over [`resume`]'s self-checking link;
//! - [`follow`], each table's events checked to come in order, none lost;
//! - [`rejoin`], `games` connections coming back after a server restart;
//! - [`idle`], connections that only stay;
//! - [`soak`], the server's memory sampled through a long run, judged flat or not;
//! - [`script`], the precomputed legal game every table replays;
//! - [`stats`], histograms, the report and merging; [`human`], its wording;
//! - [`memory`], the server's resident memory;
//! - [`relay`], the bare relay; [`journal`], what makes it durable;
//! - [`stop`], the server stopped with SIGTERM after the load, timed;
//! - [`parent`], spawning the load processes and merging their results.

pub mod args;
pub mod churn;
pub mod connect;
pub mod cpu;
pub mod follow;
pub mod games;
pub mod human;
pub mod idle;
pub mod journal;
pub mod memory;
pub mod parent;
pub mod rejoin;
pub mod relay;
pub mod resume;
pub mod run;
pub mod script;
pub mod soak;
pub mod spectator;
pub mod stats;
pub mod stop;
