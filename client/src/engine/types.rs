//! What the bridge's parts share: how to run the engine, the notes
//! they log, and the opening extensions a game may still ask.
//!
//! Why a leaf module: every part names these, and none of the parts is
//! named by them.

use std::path::PathBuf;
use std::sync::Arc;

use crate::piskvork::NoteKind;

/// How to run the engine.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub program: PathBuf,
    pub args: Vec<String>,
    /// The engine's address space limit in bytes (`RLIMIT_AS`); `None`:
    /// no limit. The engine is told less ([`told_memory`]).
    pub max_memory: Option<u64>,
    /// The engine's CPU time limit in seconds over its life
    /// (`RLIMIT_CPU`); `None`: no limit. Past it the kernel ends the
    /// engine, a failure like any exit (restarted once, with a fresh
    /// allowance).
    pub cpu_seconds: Option<u64>,
    /// The protocol dialect it speaks.
    pub dialect: Dialect,
}

impl EngineSpec {
    /// `program ARGS` with no limits, speaking the Gomocup dialect.
    pub fn new(program: impl Into<PathBuf>, args: Vec<String>) -> EngineSpec {
        EngineSpec {
            program: program.into(),
            args,
            max_memory: None,
            cpu_seconds: None,
            dialect: Dialect::Gomocup,
        }
    }

    /// What `INFO max_memory` says: [`told_memory`] of the cap, 0 (the
    /// protocol's "no limit") without one.
    pub fn told_memory(&self) -> u64 {
        self.max_memory.map_or(0, told_memory)
    }
}

/// The memory an engine is told it may use (`INFO max_memory`) under an
/// address space cap of `cap` bytes: the cap less a quarter of it, at
/// least 256 MiB (or half of a cap under 512 MiB). Engines size a hash
/// table to the whole budget they are told (Rapfi: exactly that many
/// bytes), and the address space also holds the program, its thread
/// stacks and the allocator's arenas: told the cap itself, Rapfi's table
/// does not fit under it (`ERROR Failed to allocate 1048576 KB for
/// transposition table.` under 1 GiB, then a table of half the size).
pub fn told_memory(cap: u64) -> u64 {
    let headroom = (cap / 4).max((256 << 20).min(cap / 2));
    cap - headroom
}

/// The dialects of the Piskvork protocol the bridge speaks. Both read the
/// same answers (the N best of `YXNBEST` from one line of N points, or
/// Rapfi's `MESSAGE (k) ...` lines) and send the same positions (`BOARD`,
/// `YXBOARD` and `SWAP2BOARD` with `x,y,field`, field 1 for the stones of
/// the colour to move).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// Gomocup's (Rapfi, Embryo, most engines): `INFO rule` 0 free-style,
    /// 1 gomoku (exactly five), 4 renju.
    #[default]
    Gomocup,
    /// Yixin's protocol (Yixin, and engines made for Yixin Board): renju
    /// is `INFO rule 2`, and the hash is told by `INFO hash_size` (KiB)
    /// besides `INFO max_memory`.
    Yixin,
}

impl Dialect {
    /// The `INFO rule` value for `rule_set` (`None`: the two-board game,
    /// which no engine plays).
    pub fn rule_value(self, rule_set: tengen_rules::game::RuleSet) -> Option<u32> {
        match (self, rule_set) {
            (Dialect::Yixin, tengen_rules::game::RuleSet::Renju) => Some(2),
            _ => crate::piskvork::rule_value(rule_set),
        }
    }
}

impl std::str::FromStr for Dialect {
    type Err = String;

    fn from_str(s: &str) -> Result<Dialect, String> {
        match s.to_ascii_lowercase().as_str() {
            "gomocup" | "piskvork" | "rapfi" => Ok(Dialect::Gomocup),
            "yixin" => Ok(Dialect::Yixin),
            _ => Err(format!("'{s}': the dialects are gomocup and yixin")),
        }
    }
}

/// Something worth a log line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// A line sent to the engine.
    Sent(String),
    /// The engine's own line (`MESSAGE`, `DEBUG`, `ERROR`, `UNKNOWN`,
    /// `SUGGEST`).
    Engine(NoteKind, String),
    /// The engine failed; what the bridge does about it.
    Failed { error: String, then: String },
    /// A move played for our seat, and who chose it.
    Played { action: String, by: &'static str },
    /// The connection to the server dropped, or came back.
    Link(String),
    /// The engine does not answer an opening extension (`SWAP2BOARD`,
    /// `YXNBEST`) usably: the built-in bot decides instead, and the
    /// extension is not asked again in this game.
    Unsupported { command: &'static str, why: String },
}

/// Where notes go (the caller prints or collects them).
pub type Log = Arc<dyn Fn(Note) + Send + Sync>;

/// An opening extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ext {
    Swap2,
    NBest,
}

impl Ext {
    /// The command, as sent and as logged.
    pub fn command(self) -> &'static str {
        match self {
            Ext::Swap2 => "SWAP2BOARD",
            Ext::NBest => "YXNBEST",
        }
    }
}

/// Which extensions may still be asked in this game.
#[derive(Clone, Copy, Debug, Default)]
pub struct Extensions {
    swap2_off: bool,
    nbest_off: bool,
}

impl Extensions {
    pub fn on(&self, ext: Ext) -> bool {
        match ext {
            Ext::Swap2 => !self.swap2_off,
            Ext::NBest => !self.nbest_off,
        }
    }

    pub fn set(&mut self, ext: Ext, on: bool) {
        match ext {
            Ext::Swap2 => self.swap2_off = !on,
            Ext::NBest => self.nbest_off = !on,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engine_is_told_less_than_its_cap() {
        const MIB: u64 = 1 << 20;
        assert_eq!(told_memory(1024 * MIB), 768 * MIB);
        assert_eq!(told_memory(2048 * MIB), 1536 * MIB);
        assert_eq!(told_memory(512 * MIB), 256 * MIB);
        assert_eq!(told_memory(256 * MIB), 128 * MIB);
        assert_eq!(EngineSpec::new("x", vec![]).told_memory(), 0);
    }

    #[test]
    fn dialects_differ_in_renju_only() {
        use tengen_rules::game::RuleSet;
        assert_eq!(Dialect::Gomocup.rule_value(RuleSet::Renju), Some(4));
        assert_eq!(Dialect::Yixin.rule_value(RuleSet::Renju), Some(2));
        for r in [RuleSet::Freestyle, RuleSet::Gomoku, RuleSet::Twin] {
            assert_eq!(Dialect::Gomocup.rule_value(r), Dialect::Yixin.rule_value(r));
        }
        assert_eq!("Rapfi".parse(), Ok(Dialect::Gomocup));
        assert!("caro".parse::<Dialect>().is_err());
    }
}
