//! What a search is given ([`Budget`]) and what it finds ([`Outcome`]).

use crate::point::Point;

/// How much work a search may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Moves the search may try (attacker and defender moves both count).
    pub nodes: u64,
    /// The longest solution looked for, in attacker moves.
    pub max_depth: u8,
}

impl Budget {
    /// A VCF budget that finishes in well under a second on any position
    /// a game reaches: a million nodes, any length.
    pub const VCF_DEFAULT: Budget = Budget {
        nodes: 1_000_000,
        max_depth: u8::MAX,
    };
    /// A VCT budget for interactive use: a million nodes, solutions of up to
    /// seven attacker moves.
    pub const VCT_DEFAULT: Budget = Budget {
        nodes: 1_000_000,
        max_depth: 7,
    };

    pub const fn new(nodes: u64, max_depth: u8) -> Budget {
        Budget { nodes, max_depth }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A forced win: the attacker's and the defender's moves in turn,
    /// starting and ending with the attacker's (see the module doc).
    Win(Vec<Point>),
    /// No such win within the budget's depth: the search was complete.
    /// With an unbounded depth ([`Budget::VCF_DEFAULT`]) this is a proof
    /// that there is none.
    None,
    /// The node budget ran out first.
    Unknown,
}

impl Outcome {
    /// The winning line, if any.
    pub fn line(&self) -> Option<&[Point]> {
        match self {
            Outcome::Win(line) => Some(line),
            _ => None,
        }
    }

    /// The solution's length in attacker moves (`None` without a win).
    pub fn attacker_moves(&self) -> Option<usize> {
        self.line().map(|l| l.len().div_ceil(2))
    }
}
