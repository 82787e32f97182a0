//! Forced wins in the command line: the VCF/VCT answers of `tengen analyze
//! --vcf/--vct` and the per-move analysis of `tengen replay --analyze`.
//!
//! The searching is all `tengen_rules::analysis` (pure, bounded by node
//! budgets, so the same command gives the same answer on any machine);
//! this module only chooses budgets and words.

use std::fmt::Write as _;

use tengen_rules::analysis::{self, AnalysisError, Budget, MoveAnalysis, Outcome};
use tengen_rules::game::GameRecord;
use tengen_rules::{Board, Color, Point, Variant};

/// How much each search may do.
#[derive(Clone, Copy, Debug)]
pub struct Budgets {
    pub nodes: u64,
    pub vct_depth: u8,
}

/// `tengen analyze`'s budget options: one position, so a generous budget.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct AnalyzeBudgets {
    /// Nodes (moves tried) each search may visit, per position.
    #[arg(long, default_value_t = 1_000_000, value_name = "N")]
    pub nodes: u64,
    /// The longest VCT looked for, in attacker moves (a VCF may be of any
    /// length).
    #[arg(long, default_value_t = 7, value_name = "MOVES")]
    pub vct_depth: u8,
}

/// `tengen replay --analyze`'s budget options: every position of a game,
/// so a smaller budget (a 60-move game with --vct: a second or two).
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct ReplayBudgets {
    /// Nodes (moves tried) each search may visit, per position.
    #[arg(long, default_value_t = 100_000, value_name = "N")]
    pub nodes: u64,
    /// The longest VCT looked for, in attacker moves (a VCF may be of any
    /// length).
    #[arg(long, default_value_t = 5, value_name = "MOVES")]
    pub vct_depth: u8,
}

impl From<AnalyzeBudgets> for Budgets {
    fn from(b: AnalyzeBudgets) -> Budgets {
        Budgets {
            nodes: b.nodes,
            vct_depth: b.vct_depth,
        }
    }
}

impl From<ReplayBudgets> for Budgets {
    fn from(b: ReplayBudgets) -> Budgets {
        Budgets {
            nodes: b.nodes,
            vct_depth: b.vct_depth,
        }
    }
}

impl Budgets {
    pub fn vcf(&self) -> Budget {
        Budget::new(self.nodes, u8::MAX)
    }

    pub fn vct(&self) -> Budget {
        Budget::new(self.nodes, self.vct_depth)
    }
}

/// The colour an attacker is given as.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Black,
    White,
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::Black => Color::Black,
            Side::White => Color::White,
        }
    }
}

/// The side to move when stones alternate from black: black when both
/// have as many stones, else white.
pub fn side_to_move(board: &Board) -> Color {
    let blacks = board.stones().filter(|&(_, c)| c == Color::Black).count();
    if blacks * 2 == board.stone_count() {
        Color::Black
    } else {
        Color::White
    }
}

/// A line in renju notation: lower-case points separated by spaces.
fn notation(line: &[Point]) -> String {
    line.iter()
        .map(|p| p.to_lower())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `N: SEQ` (the length in attacker moves and the line), `none` or
/// `unknown`.
pub fn outcome_text(o: &Outcome) -> String {
    match o {
        Outcome::Win(line) => format!("{}: {}", o.attacker_moves().unwrap_or(0), notation(line)),
        Outcome::None => "none".to_string(),
        Outcome::Unknown => "unknown".to_string(),
    }
}

/// The answer for one position: `vcf COLOR N: SEQ`, `vct COLOR N: SEQ` or
/// both separated by `; ` (with `none`/`unknown` in place of `N: SEQ`).
pub fn answer(
    board: &Board,
    attacker: Color,
    variant: Variant,
    (vcf, vct): (bool, bool),
    budgets: &Budgets,
) -> String {
    let mut out = String::new();
    if vcf {
        let o = analysis::vcf(board, attacker, variant, budgets.vcf());
        let _ = write!(out, "vcf {attacker} {}", outcome_text(&o));
    }
    if vct {
        if !out.is_empty() {
            out.push_str("; ");
        }
        let o = analysis::vct(board, attacker, variant, budgets.vct());
        let _ = write!(out, "vct {attacker} {}", outcome_text(&o));
    }
    out
}

/// `tengen replay --analyze`: one line per move of the record.
pub fn replay_lines(
    record: &GameRecord,
    budgets: &Budgets,
    with_vct: bool,
) -> Result<Vec<String>, AnalysisError> {
    let vct = with_vct.then(|| budgets.vct());
    let moves = analysis::analyze_record(record, budgets.vcf(), vct)?;
    let mut lines = vec![if with_vct {
        format!(
            "analysis: vcf of any length and vct of up to {} moves, {} nodes a search",
            budgets.vct_depth, budgets.nodes
        )
    } else {
        format!(
            "analysis: vcf of any length, {} nodes a search",
            budgets.nodes
        )
    }];
    lines.extend(moves.iter().map(move_line));
    Ok(lines)
}

/// `N. COLOR POINT: FINDINGS`, the findings being `-` (no forced win),
/// `vcf N (SEQ) kept|missed`, or the same for `vct` when there was a VCT
/// but no VCF, `unknown` where a budget ran out.
fn move_line(m: &MoveAnalysis) -> String {
    let point = m
        .point
        .map_or_else(|| "pass".to_string(), |p| p.to_string());
    let mut line = format!("{}. {} {point}: ", m.number, m.color);
    let finding = |kind: &str, o: &Outcome, kept: Option<bool>| match o {
        Outcome::Win(l) => Some(format!(
            "{kind} {} ({}) {}",
            o.attacker_moves().unwrap_or(0),
            notation(l),
            match kept {
                Some(true) => "kept",
                Some(false) => "missed",
                None => "undecided",
            }
        )),
        Outcome::Unknown => Some(format!("{kind} unknown")),
        Outcome::None => None,
    };
    let mut parts: Vec<String> = Vec::new();
    parts.extend(finding("vcf", &m.vcf, m.vcf_kept));
    if m.vcf.line().is_none()
        && let Some(vct) = &m.vct
    {
        parts.extend(finding("vct", vct, m.vct_kept));
    }
    if parts.is_empty() {
        line.push('-');
    } else {
        line.push_str(&parts.join("; "));
    }
    line
}
