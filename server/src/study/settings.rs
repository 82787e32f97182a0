//! The explorer's, the miner's and the puzzle tries' bounds, as the
//! server's settings hold them.

use std::time::Duration;

use tengen_rules::analysis::Budget;
use tengen_study::puzzle::MineBudget;

/// The explorer's, the miner's and the puzzles' bounds.
#[derive(Clone, Debug)]
pub struct StudySettings {
    /// How many moves deep finished games are indexed (0: no explorer).
    pub depth: u32,
    /// Finished games waiting to be indexed, at most.
    pub index_queue: usize,
    /// Indexed games waiting to be searched for puzzles, at most.
    pub mine_queue: usize,
    /// Whether finished games are searched for puzzles at all.
    pub mine: bool,
    /// Nodes each search may visit (mining, judging a move).
    pub nodes: u64,
    /// The longest VCT a puzzle may have, in attacker moves ("short").
    pub vct_depth: u8,
    /// Puzzle tries kept at once on this node (the oldest go first).
    pub attempts: usize,
    /// How long a try is kept.
    pub attempt_ttl: Duration,
}

impl Default for StudySettings {
    fn default() -> StudySettings {
        StudySettings {
            depth: tengen_study::explorer::DEFAULT_DEPTH,
            index_queue: 1024,
            mine_queue: 256,
            mine: true,
            nodes: 100_000,
            vct_depth: 3,
            attempts: 10_000,
            attempt_ttl: Duration::from_secs(3600),
        }
    }
}

impl StudySettings {
    pub fn mine_budget(&self) -> MineBudget {
        MineBudget {
            vcf: Budget::new(self.nodes, u8::MAX),
            vct: Budget::new(self.nodes, self.vct_depth),
        }
    }

    /// The budget of each search that judges a puzzle move.
    pub fn judge_budget(&self) -> Budget {
        Budget::new(self.nodes, u8::MAX)
    }
}
