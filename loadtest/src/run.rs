//! What one load process shares between its connection tasks: the plan, the
//! clock, the counters, the deadline, and the book of when each move was due.
//!
//! Times are microseconds of the Unix clock read through a monotonic anchor
//! (`Clock`), so that a move's due time written by one process (the players
//! of a fan-out game) means the same instant to the spectators in another.

use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use tengen_client::ClientError;
use tengen_protocol::{Encoding, TableId};
use tokio::sync::{Semaphore, watch};

use crate::script::Script;
use crate::stats::Stats;

/// What a load process runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Scenario {
    /// N connections that say hello and stay.
    Idle,
    /// G concurrent games (a finished game is replaced), S spectators each.
    Games,
    /// One game watched by S spectators.
    Fanout,
    /// Connections dropping and resuming mid-game (needs resume tokens).
    Churn,
    /// `games` for a long time (30 minutes unless told) with players and
    /// spectators leaving after each game and new ones coming; the server's
    /// memory sampled throughout must stay flat (`soak`).
    Soak,
    /// Internal: the bare relay `--baseline` measures against.
    #[value(hide = true)]
    Relay,
    /// Internal: a process that keeps one core busy (`--burn`).
    #[value(hide = true)]
    Burn,
}

/// Who the simulated clients talk to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A Tengen server: rooms, tables, the referee.
    Server,
    /// The bare relay: hello, then every frame forwarded to its group.
    Relay,
}

/// One load process's share of the run.
#[derive(Clone, Debug)]
pub struct Plan {
    pub scenario: Scenario,
    pub target: Target,
    pub urls: Vec<String>,
    pub encoding: Encoding,
    /// Idle: this process's connections, numbered from `first`.
    pub connections: std::ops::Range<usize>,
    /// Games: this process's game slots (global numbers).
    pub slots: std::ops::Range<usize>,
    /// Spectators per game (fan-out: this process's spectators).
    pub spectators: usize,
    /// Fan-out: whether this process hosts the two players.
    pub fanout_players: bool,
    pub fanout_file: Option<PathBuf>,
    pub move_interval: Duration,
    pub duration: Duration,
    /// Games: how long games in progress at the deadline may take to
    /// finish (no new game starts after the deadline).
    pub drain: Duration,
    pub script: Arc<Script>,
    pub connect_concurrency: usize,
    /// Churn: the mean time between a connection's drops, and the seed.
    pub drop_every: Duration,
    pub seed: u64,
}

impl Plan {
    /// The URL of connection or slot `n` (round-robin over `--url`s).
    pub fn url(&self, n: usize) -> &str {
        &self.urls[n % self.urls.len()]
    }

    /// How many connections this process opens.
    pub fn connection_count(&self) -> usize {
        match self.scenario {
            Scenario::Idle => self.connections.len(),
            Scenario::Games | Scenario::Churn | Scenario::Soak => {
                self.slots.len() * (2 + self.spectators)
            }
            Scenario::Fanout => self.spectators + if self.fanout_players { 2 } else { 0 },
            Scenario::Relay | Scenario::Burn => 0,
        }
    }
}

/// Microseconds of the Unix clock, read monotonically.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    base: Instant,
    base_us: u64,
}

impl Clock {
    pub fn new() -> Clock {
        let since = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        Clock {
            base: Instant::now(),
            base_us: since.as_micros() as u64,
        }
    }

    pub fn now_us(&self) -> u64 {
        self.base_us + self.base.elapsed().as_micros() as u64
    }

    /// The instant of Unix microsecond `us`.
    pub fn instant(&self, us: u64) -> Instant {
        match us.checked_sub(self.base_us) {
            Some(d) => self.base + Duration::from_micros(d),
            None => self.base,
        }
    }
}

impl Default for Clock {
    fn default() -> Clock {
        Clock::new()
    }
}

/// Everything the tasks of one process share.
pub struct Ctx {
    pub plan: Plan,
    pub clock: Clock,
    /// No new game (or connection) after this.
    pub deadline: tokio::time::Instant,
    /// Games in progress at the deadline play on until this
    /// (`deadline` + `--drain`).
    pub finish_by: tokio::time::Instant,
    pub stats: Mutex<Stats>,
    pub connect_permits: Semaphore,
    /// Connections (and fan-out watches) still being set up.
    pending: AtomicUsize,
    /// Connections open now.
    pub open: AtomicUsize,
    /// When the last connection was set up (`Clock::now_us`; 0: not yet).
    steady_from_us: AtomicU64,
    ready_tx: watch::Sender<bool>,
    pub ready: watch::Receiver<bool>,
    /// Failures told on stderr so far ([`Ctx::failed`]).
    told: AtomicUsize,
}

/// The most failures a process tells in detail.
const TOLD: usize = 10;

impl Ctx {
    pub fn new(plan: Plan) -> Arc<Ctx> {
        let (ready_tx, ready) = watch::channel(plan.connection_count() == 0);
        let deadline = tokio::time::Instant::now() + plan.duration;
        Arc::new(Ctx {
            clock: Clock::new(),
            deadline,
            finish_by: deadline + plan.drain,
            stats: Mutex::new(Stats::default()),
            connect_permits: Semaphore::new(plan.connect_concurrency.max(1)),
            pending: AtomicUsize::new(plan.connection_count()),
            open: AtomicUsize::new(0),
            steady_from_us: AtomicU64::new(0),
            ready_tx,
            ready,
            told: AtomicUsize::new(0),
            plan,
        })
    }

    pub fn stats(&self) -> std::sync::MutexGuard<'_, Stats> {
        self.stats.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn error(&self, kind: impl Into<String>) {
        self.stats().error(kind);
    }

    /// A client's failure: counted under its kind, and the first few of a
    /// process told on stderr with who failed where (a count alone does not
    /// say which request timed out or was refused).
    pub fn failed(&self, who: std::fmt::Arguments<'_>, e: &ClientError) {
        if self.told.fetch_add(1, Ordering::Relaxed) < TOLD {
            eprintln!("tengen-loadtest: {who}: {e}");
        }
        self.error(kind(e));
    }

    /// One connection is set up (or failed to be): the process is ready when
    /// none is left.
    pub fn settled(&self) {
        if self.pending.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.steady_from_us
                .store(self.clock.now_us().max(1), Ordering::Release);
            let _ = self.ready_tx.send(true);
        }
    }

    /// Whether a move due at `due_us` came after every connection was set up.
    pub fn steady(&self, due_us: u64) -> bool {
        let from = self.steady_from_us.load(Ordering::Acquire);
        from != 0 && due_us >= from
    }

    pub fn past_deadline(&self) -> bool {
        tokio::time::Instant::now() >= self.deadline
    }
}

/// The error kind a client failure is counted under.
pub fn kind(e: &ClientError) -> String {
    match e {
        ClientError::Ws(e) => format!("websocket: {}", short(&e.to_string())),
        ClientError::Decode(_) => "decode".into(),
        ClientError::Closed { code, .. } => format!("closed_{code}"),
        ClientError::Refused(b) => format!("refused_{}", b.code.as_str()),
        ClientError::Timeout(_) => "timeout".into(),
        ClientError::Unexpected(m) => format!("unexpected_{m}"),
    }
}

fn short(s: &str) -> String {
    s.chars().take(60).collect()
}

/// When each move of a table was due to be sent: written by the player about
/// to send it, read by whoever receives it.
pub enum DueBook {
    /// One process: the slot's current table and its moves.
    Mem(Mutex<(Option<TableId>, Vec<u64>)>),
    /// Fan-out across processes: a small shared file (see [`FanoutFile`]).
    File(FanoutFile),
}

impl DueBook {
    pub fn mem() -> DueBook {
        DueBook::Mem(Mutex::new((None, Vec::new())))
    }

    /// A new table starts (its moves' due times start empty).
    pub fn start(&self, table: &TableId, moves: usize) {
        match self {
            DueBook::Mem(m) => {
                let mut g = m.lock().unwrap_or_else(|e| e.into_inner());
                *g = (Some(table.clone()), vec![0; moves + 2]);
            }
            DueBook::File(f) => f.set_table(table),
        }
    }

    pub fn set(&self, number: u32, us: u64) {
        match self {
            DueBook::Mem(m) => {
                let mut g = m.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(slot) = g.1.get_mut(number as usize) {
                    *slot = us;
                }
            }
            DueBook::File(f) => f.set_due(number, us),
        }
    }

    /// When move `number` of `table` was due, if known.
    pub fn get(&self, table: &TableId, number: u32) -> Option<u64> {
        match self {
            DueBook::Mem(m) => {
                let g = m.lock().unwrap_or_else(|e| e.into_inner());
                if g.0.as_ref() != Some(table) {
                    return None;
                }
                g.1.get(number as usize).copied().filter(|&us| us > 0)
            }
            DueBook::File(f) => f.due(number),
        }
    }
}

/// The file through which the processes of one fan-out run agree: bytes
/// 0..8 the start signal (non-zero once every spectator watches), 8..64 the
/// table id, then one little-endian u64 per move number: when it was due.
pub struct FanoutFile {
    file: std::fs::File,
}

const HEADER: u64 = 64;

impl FanoutFile {
    /// Creates (empty) or opens the file.
    pub fn open(path: &std::path::Path, create: bool) -> std::io::Result<FanoutFile> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(create)
            .truncate(create)
            .open(path)?;
        if create {
            file.set_len(HEADER + 8 * (crate::script::MAX_MOVES as u64 + 2))?;
        }
        Ok(FanoutFile { file })
    }

    fn read_u64(&self, at: u64) -> u64 {
        let mut b = [0u8; 8];
        match self.file.read_exact_at(&mut b, at) {
            Ok(()) => u64::from_le_bytes(b),
            Err(_) => 0,
        }
    }

    pub fn set_go(&self, us: u64) {
        let _ = self.file.write_all_at(&us.max(1).to_le_bytes(), 0);
    }

    pub fn go(&self) -> bool {
        self.read_u64(0) != 0
    }

    pub fn set_table(&self, table: &TableId) {
        let mut b = [0u8; 56];
        let s = table.as_str().as_bytes();
        b[..s.len().min(56)].copy_from_slice(&s[..s.len().min(56)]);
        let _ = self.file.write_all_at(&b, 8);
    }

    pub fn table(&self) -> Option<TableId> {
        let mut b = [0u8; 56];
        self.file.read_exact_at(&mut b, 8).ok()?;
        let end = b.iter().position(|&c| c == 0).unwrap_or(56);
        std::str::from_utf8(&b[..end]).ok()?.parse().ok()
    }

    fn set_due(&self, number: u32, us: u64) {
        let _ = self
            .file
            .write_all_at(&us.to_le_bytes(), HEADER + 8 * number as u64);
    }

    fn due(&self, number: u32) -> Option<u64> {
        if number as usize > crate::script::MAX_MOVES + 1 {
            return None;
        }
        Some(self.read_u64(HEADER + 8 * number as u64)).filter(|&us| us > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fanout_file_carries_table_go_and_due_times_between_processes() {
        let path = std::env::temp_dir().join(format!("tengen-lt-test-{}", std::process::id()));
        let a = FanoutFile::open(&path, true).unwrap();
        let b = FanoutFile::open(&path, false).unwrap();
        assert!(b.table().is_none() && !b.go());
        let t = TableId::from_u64(42);
        a.set_table(&t);
        a.set_due(7, 123_456);
        a.set_go(5);
        assert_eq!(b.table(), Some(t));
        assert!(b.go());
        assert_eq!(b.due(7), Some(123_456));
        assert_eq!(b.due(8), None);
        let _ = std::fs::remove_file(path);
    }

    #[test]
    fn a_mem_book_answers_only_for_its_current_table() {
        let book = DueBook::mem();
        let (t1, t2) = (TableId::from_u64(1), TableId::from_u64(2));
        book.start(&t1, 9);
        book.set(3, 99);
        assert_eq!(book.get(&t1, 3), Some(99));
        assert_eq!(book.get(&t2, 3), None);
        book.start(&t2, 9);
        assert_eq!(book.get(&t2, 3), None);
    }
}
