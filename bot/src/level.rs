//! The ladder: what each level may do.
//!
//! Level 1 is for a beginner: it looks one move ahead, wanders, and lets
//! an open three through one time in two (a four it always stops). Level
//! 2 searches one ply and wanders, levels 3 and 4 two and three plies; the
//! top level searches as deep as all the time it is given allows, and
//! runs the referee's VCF and VCT solvers at the root. BENCHMARKS.md has
//! each level's score against the one below.

/// The weakest and strongest levels.
pub const MIN: u8 = 1;
pub const MAX: u8 = 5;

/// A level of the ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// What a level may do.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    /// Plies of full search (0: the move order alone).
    pub depth: i32,
    /// Moves tried at a node.
    pub width: usize,
    /// The share of the move's time it may spend, in percent.
    pub time_percent: u64,
    /// The most nodes a search may visit.
    pub nodes: u64,
    /// Random wander added to the root moves' values (evaluation units).
    pub noise: i32,
    /// The chance in percent of not seeing an open three to stop.
    pub blind_to_threes: u64,
    /// Whether the referee's VCF and VCT solvers run at the root.
    pub solver: bool,
    /// The transposition table's size, 2^bits entries.
    pub tt_bits: u32,
}

impl Level {
    /// The level `n`, if it is on the ladder.
    pub fn new(n: u8) -> Option<Level> {
        (MIN..=MAX).contains(&n).then_some(Level(n))
    }

    pub fn strongest() -> Level {
        Level(MAX)
    }

    pub fn number(self) -> u8 {
        self.0
    }

    pub fn params(self) -> Params {
        match self.0 {
            1 => Params {
                depth: 0,
                width: 8,
                time_percent: 5,
                nodes: 1_000,
                noise: 220,
                blind_to_threes: 50,
                solver: false,
                tt_bits: 10,
            },
            2 => Params {
                depth: 1,
                width: 10,
                time_percent: 10,
                nodes: 20_000,
                noise: 80,
                blind_to_threes: 0,
                solver: false,
                tt_bits: 12,
            },
            3 => Params {
                depth: 2,
                width: 12,
                time_percent: 25,
                nodes: 100_000,
                noise: 0,
                blind_to_threes: 0,
                solver: false,
                tt_bits: 16,
            },
            4 => Params {
                depth: 3,
                width: 14,
                time_percent: 50,
                nodes: 1_000_000,
                noise: 0,
                blind_to_threes: 0,
                solver: false,
                tt_bits: 18,
            },
            _ => Params {
                depth: 60,
                width: 16,
                time_percent: 100,
                nodes: u64::MAX,
                noise: 0,
                blind_to_threes: 0,
                solver: true,
                tt_bits: 20,
            },
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::str::FromStr for Level {
    type Err = String;

    fn from_str(s: &str) -> Result<Level, String> {
        s.parse::<u8>()
            .ok()
            .and_then(Level::new)
            .ok_or_else(|| format!("'{s}': levels are {MIN} to {MAX}"))
    }
}
