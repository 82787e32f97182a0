//! The search: iterative deepening over a principal-variation alpha-beta
//! search, with a transposition table, threat-based move generation, a
//! quiescence search of fours (a VCF of its own at the leaves), and the
//! clock asked through a closure.
//!
//! Move generation follows the threats, as strong gomoku programs do:
//! a five is played; the opponent's five point is the only move (two of
//! them lose); an open four wins; facing the opponent's open three, only
//! our fours and the points that stop it are tried; otherwise the points
//! near the stones, best first by what they make and stop, the width
//! bounded. Values are the side to move's, in the evaluation's units;
//! a forced win is [`MATE`] less the plies to it.

use tengen_rules::Color;

use crate::position::{Position, Threat, ci};
use crate::tt::{Bound, Entry, Tt};

/// A win now; a win in n plies is `MATE - n`.
pub const MATE: i32 = 30_000;
/// Values beyond this are forced wins or losses.
pub const MATE_BOUND: i32 = MATE - 500;

/// The side to move's bonus (its next stone is worth something).
const TEMPO: i32 = 12;

/// How far the quiescence search follows fours.
const Q_DEPTH: i32 = 14;

/// What a search may do.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub max_depth: i32,
    /// Most moves tried at a node (the threat-forced ones always).
    pub width: usize,
    /// Most nodes; the search stops when they run out.
    pub nodes: u64,
    /// Milliseconds after which no new iteration starts.
    pub soft_ms: u64,
    /// Milliseconds after which the search stops at once.
    pub hard_ms: u64,
}

/// A finished search.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The best move found (an array index of the position), with its
    /// value; the root moves and their values from the last complete
    /// iteration, best first.
    pub best: usize,
    pub value: i32,
    pub depth: i32,
    pub nodes: u64,
    pub root: Vec<(usize, i32)>,
}

/// The static evaluation for `me` to move.
pub fn evaluate(pos: &Position, me: Color) -> i32 {
    pos.total(me) - pos.total(me.opponent()) + TEMPO
}

/// A move's place in the order: what it makes for us and stops of theirs.
pub fn order_score(pos: &Position, cell: usize, me: Color) -> i32 {
    const ATTACK: [i32; 10] = [0, 10, 30, 120, 160, 400, 600, 900, 5000, 100_000];
    const DEFEND: [i32; 10] = [0, 5, 20, 90, 120, 300, 400, 700, 4000, 50_000];
    let a = pos.threat(cell, me) as usize;
    let d = pos.threat(cell, me.opponent()) as usize;
    ATTACK[a] + DEFEND[d] + pos.value(cell, me) + pos.value(cell, me.opponent()) / 2
}

/// The moves of `me` worth trying, best first, and whether the position is
/// already decided: `Err(value)` for a win or loss found by the threats
/// alone.
pub fn generate(pos: &Position, me: Color, ply: i32) -> Result<Vec<(usize, i32)>, i32> {
    let opp = me.opponent();
    let mut fives_opp = Vec::new();
    let mut open4 = None;
    let mut opp_threat = false;
    let mut all: Vec<(usize, Threat, Threat)> = Vec::new();
    for q in pos.candidates() {
        let (a, d) = (pos.threat(q, me), pos.threat(q, opp));
        if a == Threat::Five {
            return Err(MATE - ply - 1);
        }
        if d == Threat::Five {
            fives_opp.push(q);
        }
        if d >= Threat::OpenFour {
            opp_threat = true;
        }
        all.push((q, a, d));
    }
    if fives_opp.len() >= 2 {
        return Err(-(MATE - ply - 2));
    }
    if let Some(&q) = fives_opp.first() {
        return if pos.legal(q, me) {
            Ok(vec![(q, 0)])
        } else {
            Err(-(MATE - ply - 2))
        };
    }
    for &(q, a, _) in &all {
        if a == Threat::OpenFour && pos.legal(q, me) {
            open4 = Some(q);
            break;
        }
    }
    if open4.is_some() {
        return Err(MATE - ply - 3);
    }
    let mut moves: Vec<(usize, i32)> = all
        .iter()
        .filter(|&&(q, a, d)| {
            // Facing an open three: our fours, and the points of their
            // fours (which stop it).
            !opp_threat || a >= Threat::Four || has_four_shape(pos, q, opp) || d >= Threat::OpenFour
        })
        .filter(|&&(q, _, _)| pos.legal(q, me))
        .map(|&(q, _, _)| (q, order_score(pos, q, me)))
        .collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.1));
    Ok(moves)
}

fn has_four_shape(pos: &Position, q: usize, c: Color) -> bool {
    pos.shapes(q, c)
        .iter()
        .any(|&s| matches!(s, crate::line::Shape::Four | crate::line::Shape::OpenFour))
}

/// A search over one position.
pub struct Searcher<'a> {
    tt: &'a mut Tt,
    clock: &'a dyn Fn() -> u64,
    limits: Limits,
    nodes: u64,
    stopped: bool,
    history: Vec<[i32; 2]>,
    killers: Vec<[usize; 2]>,
}

const SIDE: [u64; 2] = [0, 0x5A5A_1234_ABCD_9876];

impl<'a> Searcher<'a> {
    pub fn new(tt: &'a mut Tt, clock: &'a dyn Fn() -> u64, limits: Limits) -> Searcher<'a> {
        Searcher {
            tt,
            clock,
            limits,
            nodes: 0,
            stopped: false,
            history: Vec::new(),
            killers: vec![[usize::MAX; 2]; 128],
        }
    }

    fn out_of_time(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes >= self.limits.nodes
            || (self.nodes & 511 == 0 && (self.clock)() >= self.limits.hard_ms)
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Iterative deepening from `pos` with `me` to move, over `root` (the
    /// moves allowed, best first; empty: all). `None` when no move is
    /// playable.
    pub fn run(&mut self, pos: &mut Position, me: Color, root: &[usize]) -> Option<Outcome> {
        if self.history.len() < pos.board().size() as usize * 40 {
            self.history = vec![[0; 2]; 29 * 29];
        }
        let mut moves: Vec<(usize, i32)> = match generate(pos, me, 0) {
            Ok(m) => m,
            Err(v) => {
                // Decided by threats: the move that does it.
                let mv = decisive_move(pos, me)?;
                return Some(Outcome {
                    best: mv,
                    value: v,
                    depth: 0,
                    nodes: 1,
                    root: vec![(mv, v)],
                });
            }
        };
        if !root.is_empty() {
            let allowed: Vec<(usize, i32)> = moves
                .iter()
                .copied()
                .filter(|(q, _)| root.contains(q))
                .collect();
            moves = if allowed.is_empty() {
                root.iter().map(|&q| (q, 0)).collect()
            } else {
                allowed
            };
        }
        if moves.is_empty() {
            return None;
        }
        let width = self.limits.width.max(1);
        moves.truncate(width.max(24));
        let mut best = Outcome {
            best: moves[0].0,
            value: moves[0].1,
            depth: 0,
            nodes: 0,
            root: moves.clone(),
        };
        for depth in 1..=self.limits.max_depth {
            let mut alpha = -MATE - 1;
            let beta = MATE + 1;
            let mut scored: Vec<(usize, i32)> = Vec::with_capacity(moves.len());
            for (i, &(q, _)) in moves.iter().enumerate() {
                pos.place(q, me);
                let v = if i == 0 {
                    -self.search(pos, me.opponent(), depth - 1, 1, -beta, -alpha)
                } else {
                    let v = -self.search(pos, me.opponent(), depth - 1, 1, -alpha - 1, -alpha);
                    if v > alpha && !self.stopped {
                        -self.search(pos, me.opponent(), depth - 1, 1, -beta, -alpha)
                    } else {
                        v
                    }
                };
                pos.undo();
                if self.stopped {
                    break;
                }
                scored.push((q, v));
                if v > alpha {
                    alpha = v;
                }
            }
            if self.stopped && scored.is_empty() {
                break;
            }
            // Moves not searched in a cut-short iteration keep their place
            // after the searched ones.
            let searched: Vec<usize> = scored.iter().map(|m| m.0).collect();
            scored.sort_by_key(|m| std::cmp::Reverse(m.1));
            let complete = !self.stopped;
            if complete || scored[0].1 > best.value || scored[0].0 == best.best {
                best = Outcome {
                    best: scored[0].0,
                    value: scored[0].1,
                    depth,
                    nodes: self.nodes,
                    root: scored.clone(),
                };
            }
            let rest: Vec<(usize, i32)> = moves
                .iter()
                .copied()
                .filter(|m| !searched.contains(&m.0))
                .collect();
            moves = scored;
            moves.extend(rest);
            if self.stopped
                || best.value.abs() >= MATE_BOUND
                || (self.clock)() >= self.limits.soft_ms
            {
                break;
            }
        }
        best.nodes = self.nodes;
        Some(best)
    }

    fn search(
        &mut self,
        pos: &mut Position,
        me: Color,
        depth: i32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        if pos.board().is_full() {
            return 0;
        }
        let moves = match generate(pos, me, ply) {
            Ok(m) => m,
            Err(v) => return v,
        };
        if moves.is_empty() {
            return -(MATE - ply - 2);
        }
        // A forced reply is no step.
        if depth <= 0 && moves.len() > 1 {
            return self.quiesce(pos, me, ply, alpha, beta, Q_DEPTH);
        }
        let depth = if moves.len() == 1 {
            depth.max(1)
        } else {
            depth
        };
        if ply >= 60 {
            return evaluate(pos, me);
        }
        let key = pos.hash() ^ SIDE[ci(me)];
        let mut tt_move = usize::MAX;
        if let Some(e) = self.tt.get(key) {
            tt_move = e.mv as usize;
            if e.depth as i32 >= depth {
                let v = from_tt(e.value as i32, ply);
                match e.bound {
                    Bound::Exact => return v,
                    Bound::Lower if v >= beta => return v,
                    Bound::Upper if v <= alpha => return v,
                    _ => {}
                }
            }
        }
        let mut moves = moves;
        let width = (self.limits.width as i32 - ply).max(6) as usize;
        let killers = self.killers[ply as usize % 128];
        for m in moves.iter_mut() {
            if m.0 == tt_move {
                m.1 += 1_000_000;
            } else if killers.contains(&m.0) {
                m.1 += 50_000;
            }
            m.1 += self.history[m.0 % self.history.len()][ci(me)];
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.1));
        moves.truncate(width);
        let original_alpha = alpha;
        let mut best = -MATE - 1;
        let mut best_move = moves[0].0;
        let forced = moves.len() <= 2;
        for (i, &(q, _)) in moves.iter().enumerate() {
            // Late moves that threaten nothing and stop nothing are
            // searched shallower first (late move reductions).
            let quiet = pos.threat(q, me) < Threat::OpenThree
                && pos.threat(q, me.opponent()) < Threat::OpenThree;
            let reduce = if forced || !quiet || depth < 3 || i < 3 {
                0
            } else if i < 8 {
                1
            } else {
                2
            };
            pos.place(q, me);
            let v = if i == 0 {
                -self.search(pos, me.opponent(), depth - 1, ply + 1, -beta, -alpha)
            } else {
                let mut v = -self.search(
                    pos,
                    me.opponent(),
                    depth - 1 - reduce,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                );
                if v > alpha && reduce > 0 && !self.stopped {
                    v = -self.search(pos, me.opponent(), depth - 1, ply + 1, -alpha - 1, -alpha);
                }
                if v > alpha && v < beta && !self.stopped {
                    -self.search(pos, me.opponent(), depth - 1, ply + 1, -beta, -alpha)
                } else {
                    v
                }
            };
            pos.undo();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = q;
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                let k = &mut self.killers[ply as usize % 128];
                if k[0] != q {
                    k[1] = k[0];
                    k[0] = q;
                }
                let h = self.history.len();
                self.history[q % h][ci(me)] += depth * depth;
                break;
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.put(Entry {
            key,
            mv: best_move as u16,
            value: to_tt(best, ply) as i16,
            depth: depth as i8,
            bound,
        });
        best
    }

    /// The leaves: the evaluation, unless our fours (each answered by the
    /// only block) do better.
    fn quiesce(
        &mut self,
        pos: &mut Position,
        me: Color,
        ply: i32,
        mut alpha: i32,
        beta: i32,
        qdepth: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        let opp = me.opponent();
        if pos.five_points(me) > 0 && any_legal_five(pos, me) {
            return MATE - ply - 1;
        }
        // Nothing forcing on either side: the evaluation.
        if pos.five_points(opp) == 0 && pos.four_points(me) == 0 {
            return evaluate(pos, me);
        }
        if pos.five_points(opp) > 0 {
            let blocks: Vec<usize> = pos
                .candidates()
                .filter(|&q| pos.threat(q, opp) == Threat::Five)
                .collect();
            if blocks.len() >= 2 || !pos.legal(blocks[0], me) {
                return -(MATE - ply - 2);
            }
            if qdepth <= 0 || ply >= 60 {
                return evaluate(pos, me);
            }
            pos.place(blocks[0], me);
            let v = -self.quiesce(pos, opp, ply + 1, -beta, -alpha, qdepth - 1);
            pos.undo();
            return v;
        }
        let stand = evaluate(pos, me);
        if stand >= beta {
            return stand;
        }
        if stand > alpha {
            alpha = stand;
        }
        if qdepth <= 0 || ply >= 60 {
            return stand;
        }
        let mut fours: Vec<(usize, i32)> = Vec::new();
        for q in pos.candidates() {
            let t = pos.threat(q, me);
            if t >= Threat::Four && pos.legal(q, me) {
                if t == Threat::OpenFour {
                    return MATE - ply - 3;
                }
                fours.push((q, order_score(pos, q, me)));
            }
        }
        fours.sort_by_key(|m| std::cmp::Reverse(m.1));
        let mut best = stand;
        for (q, _) in fours {
            pos.place(q, me);
            let v = -self.quiesce(pos, opp, ply + 1, -beta, -alpha, qdepth - 1);
            pos.undo();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

fn any_legal_five(pos: &Position, me: Color) -> bool {
    pos.candidates()
        .any(|q| pos.threat(q, me) == Threat::Five && pos.legal(q, me))
}

/// The move that decides a position the threats decide: our five, the
/// block of their five, our open four; else the best-ordered legal move.
pub fn decisive_move(pos: &Position, me: Color) -> Option<usize> {
    let opp = me.opponent();
    let legal: Vec<usize> = pos.candidates().filter(|&q| pos.legal(q, me)).collect();
    let pick = |t: &dyn Fn(usize) -> bool| legal.iter().copied().find(|&q| t(q));
    pick(&|q| pos.threat(q, me) == Threat::Five)
        .or_else(|| pick(&|q| pos.threat(q, opp) == Threat::Five))
        .or_else(|| pick(&|q| pos.threat(q, me) == Threat::OpenFour))
        .or_else(|| {
            legal
                .iter()
                .copied()
                .max_by_key(|&q| order_score(pos, q, me))
        })
        .or_else(|| {
            pos.board()
                .points()
                .map(|p| pos.cell(p))
                .find(|&q| pos.legal(q, me))
        })
}

fn to_tt(v: i32, ply: i32) -> i32 {
    if v >= MATE_BOUND {
        v + ply
    } else if v <= -MATE_BOUND {
        v - ply
    } else {
        v
    }
}

fn from_tt(v: i32, ply: i32) -> i32 {
    if v >= MATE_BOUND {
        v - ply
    } else if v <= -MATE_BOUND {
        v + ply
    } else {
        v
    }
}
