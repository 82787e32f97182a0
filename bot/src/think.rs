//! Choosing a stone: the time a move may take, the referee's forced-win
//! solvers at the root (the top level), the search, and a level's wander.
//!
//! Pure like the rest of the crate: the caller passes a closure that says
//! how many milliseconds this move has taken so far (its own clock), and
//! the search stops when the closure says the time is up.

use tengen_rules::analysis::{self, Budget, Outcome as Solved};
use tengen_rules::{Board, Color, Point};

use crate::level::{Level, Params};
use crate::position::{Position, Threat};
use crate::search::{self, Limits, MATE_BOUND, Searcher, order_score};
use crate::tt::Tt;

/// Milliseconds spent on this move so far (the caller's clock).
pub type Clock<'a> = &'a dyn Fn() -> u64;

/// The time a move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// The most this move may take, in milliseconds.
    pub turn_ms: u64,
    /// All the time left on the clock (`u64::MAX`: no clock).
    pub left_ms: u64,
    /// What the clock gains after the move (a Fischer increment).
    pub increment_ms: u64,
}

impl TimeBudget {
    /// A fixed time a move and no clock beyond it.
    pub fn per_move(ms: u64) -> TimeBudget {
        TimeBudget {
            turn_ms: ms,
            left_ms: u64::MAX,
            increment_ms: 0,
        }
    }

    /// When to start no new iteration and when to stop, in milliseconds,
    /// for a move with `stones` on the board: a fixed time a move is used
    /// up to nine tenths; with a clock, the time left shared over the
    /// moves a game still has (at least eight), plus most of the
    /// increment, at most twice that on a hard move and never more than a
    /// quarter of what is left.
    pub fn plan(&self, stones: usize) -> (u64, u64) {
        let cap = self.turn_ms.saturating_mul(95) / 100;
        if self.left_ms == u64::MAX {
            let target = self.turn_ms.saturating_mul(9) / 10;
            return (target * 6 / 10, cap.max(1));
        }
        let moves_left = (30u64.saturating_sub(stones as u64 / 4)).max(8);
        let target = (self.left_ms / moves_left + self.increment_ms * 3 / 4).min(cap);
        let hard = (target * 2).min(cap).min(self.left_ms / 4).max(1);
        (target * 6 / 10, hard)
    }
}

/// A small deterministic generator (SplitMix64) for a level's wander.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x2545_F491_4F6C_DD1D)
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `-r..=r`.
    pub(crate) fn spread(&mut self, r: i32) -> i32 {
        if r <= 0 {
            return 0;
        }
        (self.next() % (2 * r as u64 + 1)) as i32 - r
    }
}

/// How a stone was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The referee's VCF solver found a win.
    Vcf,
    /// The referee's VCT solver found a win.
    Vct,
    /// The search (among the defences against a forced win, if the
    /// solvers found one for the opponent).
    Search { defending: bool },
    /// The move order alone (the lowest level).
    Glance,
}

/// A chosen stone.
#[derive(Clone, Copy, Debug)]
pub struct Choice {
    pub point: Point,
    /// The side to move's value (evaluation units; beyond
    /// [`search::MATE_BOUND`] a forced win or loss).
    pub value: i32,
    pub reason: Reason,
    pub depth: i32,
    /// Nodes the search visited.
    pub nodes: u64,
}

/// The node budget of a root solver call taking at most about `ms`
/// milliseconds: the referee's VCT search visits 1,300 to 6,000 nodes a
/// millisecond here (a million in 0.17 to 0.8 s), its VCF far more; a
/// budget is nodes, never time.
fn solver_nodes(ms: u64) -> u64 {
    (ms.saturating_mul(1_300)).clamp(2_000, 2_000_000)
}

/// The stone `me` plays on `pos` at `level`, within `budget` on `clock`;
/// `allowed` (when given) confines it (an opening zone). `None` when no
/// point is playable.
#[allow(clippy::too_many_arguments)] // one search's inputs, each distinct
pub fn choose_stone(
    pos: &mut Position,
    me: Color,
    level: Level,
    seed: u64,
    clock: Clock<'_>,
    budget: TimeBudget,
    allowed: Option<&dyn Fn(Point) -> bool>,
    tt: &mut Tt,
) -> Option<Choice> {
    let p = level.params();
    let (soft, hard) = budget.plan(pos.stones());
    let share = |ms: u64| (ms.saturating_mul(p.time_percent) / 100).max(1);
    let (soft, hard) = (share(soft), share(hard));
    let mut rng = Rng::new(seed ^ pos.hash());
    let zone: Vec<usize> = match allowed {
        Some(f) => pos
            .board()
            .points()
            .filter(|&q| f(q))
            .map(|q| pos.cell(q))
            .filter(|&q| pos.legal(q, me))
            .collect(),
        None => Vec::new(),
    };
    if allowed.is_some() && zone.is_empty() {
        return None;
    }
    if p.depth == 0 || (!zone.is_empty() && zone.len() <= 1) {
        return glance(pos, me, &p, &mut rng, &zone);
    }
    let mut root = zone.clone();
    let mut defending = false;
    if p.solver && zone.is_empty() {
        let solved = solve(pos, me, clock, hard);
        match solved {
            Solver::Win(point, reason) => {
                return Some(Choice {
                    point,
                    value: search::MATE - 1,
                    reason,
                    depth: 0,
                    nodes: 0,
                });
            }
            Solver::Defend(moves) if !moves.is_empty() => {
                root = moves;
                defending = true;
            }
            _ => {}
        }
    }
    let limits = Limits {
        max_depth: p.depth,
        width: p.width,
        nodes: p.nodes,
        soft_ms: soft.max(clock() + 1),
        hard_ms: hard.max(clock() + 1),
    };
    let out = Searcher::new(tt, clock, limits).run(pos, me, &root)?;
    let mut best = (out.best, out.value);
    if p.noise > 0 && out.value.abs() < MATE_BOUND {
        best = out
            .root
            .iter()
            .filter(|m| m.1 > -MATE_BOUND)
            .map(|&(q, v)| (q, v + rng.spread(p.noise)))
            .max_by_key(|m| m.1)
            .unwrap_or(best);
    }
    Some(Choice {
        point: pos.point(best.0),
        value: out.value,
        reason: Reason::Search { defending },
        depth: out.depth,
        nodes: out.nodes,
    })
}

/// The lowest level's look: the move order with a wander; fives made and
/// stopped, open fours made, fours stopped always; an open three stopped
/// only when it is seen.
fn glance(pos: &Position, me: Color, p: &Params, rng: &mut Rng, zone: &[usize]) -> Option<Choice> {
    let opp = me.opponent();
    let blind = (rng.next() % 100) < p.blind_to_threes;
    let legal: Vec<usize> = if zone.is_empty() {
        pos.candidates().filter(|&q| pos.legal(q, me)).collect()
    } else {
        zone.to_vec()
    };
    let must = |t: &dyn Fn(usize) -> bool| legal.iter().copied().find(|&q| t(q));
    let forced = must(&|q| pos.threat(q, me) == Threat::Five)
        .or_else(|| must(&|q| pos.threat(q, opp) == Threat::Five))
        .or_else(|| must(&|q| pos.threat(q, me) >= Threat::OpenFour));
    let q = match forced {
        Some(q) => q,
        None => legal.iter().copied().max_by_key(|&q| {
            let mut s = order_score(pos, q, me);
            if blind && pos.threat(q, opp) < Threat::Five {
                // Not seeing their threats: only what it makes counts.
                s -= order_score(pos, q, me) - attack_only(pos, q, me);
            }
            s + rng.spread(p.noise)
        })?,
    };
    Some(Choice {
        point: pos.point(q),
        value: 0,
        reason: Reason::Glance,
        depth: 0,
        nodes: 0,
    })
}

fn attack_only(pos: &Position, q: usize, me: Color) -> i32 {
    const ATTACK: [i32; 10] = [0, 10, 30, 120, 160, 400, 600, 900, 5000, 100_000];
    ATTACK[pos.threat(q, me) as usize] + pos.value(q, me)
}

/// What the referee's solvers say at the root.
enum Solver {
    /// A forced win starting here.
    Win(Point, Reason),
    /// The opponent has a forced win if we pass: the moves after which it
    /// has none (empty when none was found in time).
    Defend(Vec<usize>),
    Quiet,
}

fn solve(pos: &Position, me: Color, clock: Clock<'_>, hard: u64) -> Solver {
    let board = pos.board();
    let variant = pos.variant();
    let opp = me.opponent();
    let vcf_budget = Budget::new(solver_nodes(hard / 10), u8::MAX);
    let vct_budget = Budget::new(solver_nodes(hard / 10), 7);
    let check_vct = Budget::new(solver_nodes(hard / 40), 3);
    if let Solved::Win(line) = analysis::vcf(board, me, variant, vcf_budget) {
        return Solver::Win(line[0], Reason::Vcf);
    }
    // The solver's VCT holds against every defence, counter-fours
    // included.
    if let Solved::Win(line) = analysis::vct(board, me, variant, vct_budget) {
        return Solver::Win(line[0], Reason::Vct);
    }
    let threat_vcf = matches!(
        analysis::vcf(board, opp, variant, vcf_budget),
        Solved::Win(_)
    );
    // A VCT threat is defended against when it is short (three attacker
    // moves or fewer: threes and fours about to win); a longer one is left
    // to the search, whose time it would take.
    let short = Budget::new(vct_budget.nodes, 3);
    let threat_vct =
        !threat_vcf && matches!(analysis::vct(board, opp, variant, short), Solved::Win(_));
    if !threat_vcf && !threat_vct {
        return Solver::Quiet;
    }
    // Try every playable point near the stones, best-ordered first,
    // within a quarter of the move's time.
    let mut moves: Vec<(usize, i32)> = pos
        .candidates()
        .filter(|&q| pos.legal(q, me))
        .map(|q| (q, order_score(pos, q, me)))
        .collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.1));
    let check_budget = if threat_vcf { vcf_budget } else { check_vct };
    let mut safe = Vec::new();
    let mut after = board.clone();
    for (q, _) in moves {
        // A quarter of the move's time at most, the search needs the rest.
        if clock() >= hard / 4 {
            break;
        }
        let p = pos.point(q);
        if after.place(p, me).is_err() {
            continue;
        }
        let still = refuted(&after, opp, variant, check_budget, threat_vct);
        after.remove(p);
        if !still {
            safe.push(q);
        }
    }
    Solver::Defend(safe)
}

/// Whether `attacker` (to move) still has a forced win of the kind the
/// threat was, or the search could not tell.
fn refuted(
    board: &Board,
    attacker: Color,
    variant: tengen_rules::Variant,
    budget: Budget,
    vct: bool,
) -> bool {
    let vcf = analysis::vcf(board, attacker, variant, budget);
    if !matches!(vcf, Solved::None) {
        return true;
    }
    vct && !matches!(
        analysis::vct(board, attacker, variant, budget),
        Solved::None
    )
}
