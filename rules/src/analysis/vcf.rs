//! The VCF search: iterative deepening on the number of attacker moves, a
//! depth-first search of the attacker's fours below it, and a table of
//! positions already shown to fail.
//!
//! A VCF leaves the defender one move each turn (block the four, unless it
//! can make five itself), so the tree is narrow and a plain depth-first
//! search is right. Deepening one attacker move at a time makes the first
//! solution found a shortest one. The table maps a position (its Zobrist
//! hash; the attacker is always to move) to the depth it failed at, or to
//! "fails at every depth" when its whole subtree was searched without
//! hitting the depth limit, so later, deeper iterations skip it.

use super::outcome::{Budget, Outcome};
use super::threats::{HashTable, Pos};
use crate::board::{Board, Variant};
use crate::point::{Color, Point};

/// The table's mark for "fails at every depth".
const PROVEN: u8 = u8::MAX;

/// Positions where the attacker is known to fail: the depth searched, or
/// [`PROVEN`] when no depth would do. Both searches keep one.
#[derive(Default)]
pub(super) struct Failures(HashTable<u8>);

impl Failures {
    /// The known failure at `hash` if it was searched at least as deep.
    pub(super) fn known(&self, hash: u64, depth: u8) -> Option<Res> {
        let failed = *self.0.get(&hash)?;
        (failed >= depth).then_some(Res::Fail {
            complete: failed == PROVEN,
        })
    }

    /// Notes a failure at `hash` (`complete`: at every depth).
    pub(super) fn note(&mut self, hash: u64, depth: u8, complete: bool) {
        self.0.insert(hash, if complete { PROVEN } else { depth });
    }
}

/// The longest VCF looked for by plain iterative deepening (see
/// [`VcfSearch::deepen`]).
const DEEPEN_UP_TO: u8 = 4;

/// The node budget shared by every search of one request.
pub(crate) struct Nodes {
    used: u64,
    limit: u64,
}

impl Nodes {
    pub(crate) fn new(limit: u64) -> Nodes {
        Nodes { used: 0, limit }
    }

    /// Counts one node; false once the budget is spent.
    pub(crate) fn spend(&mut self) -> bool {
        self.used += 1;
        self.used <= self.limit
    }

    pub(crate) fn exhausted(&self) -> bool {
        self.used > self.limit
    }

    /// The nodes counted so far.
    #[cfg(test)]
    pub(crate) fn used(&self) -> u64 {
        self.used
    }
}

/// How a subtree ended without a win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Res {
    Win,
    /// No win; `complete` when the subtree was searched without a depth or
    /// node cut-off, so it fails at every depth.
    Fail {
        complete: bool,
    },
}

/// How the attacker's turn starts, before any search.
pub(crate) enum Root {
    /// The attacker makes five at once.
    Five(Point),
    /// The defender threatens five at two points: no forced win.
    Lost,
    /// Search on; the point is the defender's one threat, if any, which the
    /// attacker's first move must block.
    Search(Option<Point>),
}

/// Looks at the attacker's turn in `pos`.
pub(crate) fn root(pos: &Pos, attacker: Color) -> Root {
    let mut buf = Vec::new();
    pos.win_points(attacker, &mut buf);
    if let Some(&p) = buf.first() {
        return Root::Five(p);
    }
    pos.win_points(attacker.opponent(), &mut buf);
    match buf.len() {
        0 => Root::Search(None),
        1 => Root::Search(Some(buf[0])),
        _ => Root::Lost,
    }
}

/// What one attacker move does.
pub(crate) enum Shot {
    /// Not a four.
    Quiet,
    /// A four the defender cannot stop: two winning points, or one that is
    /// forbidden for a black defender.
    Unstoppable,
    /// A four with one defence: the point the defender must take.
    Four(Point),
}

/// Classifies the attacker's stone just played at `p`.
pub(crate) fn shot(pos: &Pos, p: Point, attacker: Color, buf: &mut Vec<Point>) -> Shot {
    pos.win_points_through(p, attacker, buf);
    match buf.len() {
        0 => Shot::Quiet,
        1 if pos.legal(buf[0], attacker.opponent()) => Shot::Four(buf[0]),
        _ => Shot::Unstoppable,
    }
}

/// A VCF search for one attacker, its table kept across calls on related
/// positions (the VCT solver asks many).
pub(crate) struct VcfSearch {
    attacker: Color,
    failed: Failures,
    /// Spare point lists, so that a node allocates nothing.
    pool: Vec<Vec<Point>>,
}

impl VcfSearch {
    pub(crate) fn new(attacker: Color) -> VcfSearch {
        VcfSearch {
            attacker,
            failed: Failures::default(),
            pool: Vec::new(),
        }
    }

    /// The shortest VCF of at most `max_depth` attacker moves from `pos`,
    /// the attacker to move, with no five on the board for either side and
    /// `threat` the defender's one threat if it has one. Returns the line
    /// (if any) and whether a failure is complete.
    ///
    /// Depths up to [`DEEPEN_UP_TO`] are tried one by one, so short wins
    /// come cheaply. Beyond, deepening one move at a time would search a
    /// long VCF's tree once per move of it; instead any win within
    /// `max_depth` is found, then one shorter than the last, until none is
    /// left. Either way the line returned is a shortest one, unless the
    /// nodes run out between two of those searches (the last win found is
    /// returned then).
    pub(crate) fn deepen(
        &mut self,
        pos: &mut Pos,
        nodes: &mut Nodes,
        max_depth: u8,
        threat: Option<Point>,
    ) -> (Option<Vec<Point>>, bool) {
        let mut line = Vec::new();
        for depth in 1..=max_depth.min(DEEPEN_UP_TO) {
            match self.attack(pos, nodes, depth, threat, &mut line) {
                Res::Win => {
                    line.reverse();
                    return (Some(line), true);
                }
                Res::Fail { complete: true } => return (None, true),
                Res::Fail { complete: false } if nodes.exhausted() => return (None, false),
                Res::Fail { complete: false } => {}
            }
        }
        if max_depth <= DEEPEN_UP_TO {
            return (None, false);
        }
        let mut best: Option<Vec<Point>> = None;
        let mut depth = max_depth;
        while depth > DEEPEN_UP_TO {
            line.clear();
            match self.attack(pos, nodes, depth, threat, &mut line) {
                Res::Win => {
                    line.reverse();
                    depth = line.len().div_ceil(2) as u8 - 1;
                    best = Some(std::mem::take(&mut line));
                }
                Res::Fail { complete } if best.is_none() => return (None, complete),
                Res::Fail { .. } => break,
            }
        }
        (best, true)
    }

    /// The attacker's turn: a four that wins within `depth` attacker moves.
    /// `only` restricts the first move (the defender's threat must be
    /// blocked). On a win, `line` holds the moves in reverse order.
    fn attack(
        &mut self,
        pos: &mut Pos,
        nodes: &mut Nodes,
        depth: u8,
        only: Option<Point>,
        line: &mut Vec<Point>,
    ) -> Res {
        if let Some(known) = self.failed.known(pos.hash(), depth) {
            return known;
        }
        let a = self.attacker;
        let mut moves = self.pool.pop().unwrap_or_default();
        match only {
            Some(t) => {
                moves.clear();
                moves.push(t);
            }
            None => pos.candidates(a, 3, &mut moves),
        }
        let res = self.attack_moves(pos, nodes, depth, &moves, line);
        self.pool.push(moves);
        if let Res::Fail { complete } = res
            && !nodes.exhausted()
        {
            self.failed.note(pos.hash(), depth, complete);
        }
        res
    }

    /// [`Self::attack`] over the given moves.
    fn attack_moves(
        &mut self,
        pos: &mut Pos,
        nodes: &mut Nodes,
        depth: u8,
        moves: &[Point],
        line: &mut Vec<Point>,
    ) -> Res {
        let a = self.attacker;
        let mut buf = self.pool.pop().unwrap_or_default();
        let mut complete = true;
        let mut won = false;
        for &p in moves {
            if !pos.is_empty(p) || !pos.legal(p, a) {
                continue;
            }
            if !nodes.spend() {
                complete = false;
                break;
            }
            pos.play(p, a);
            let res = match shot(pos, p, a, &mut buf) {
                Shot::Quiet => Res::Fail { complete: true },
                Shot::Unstoppable => Res::Win,
                Shot::Four(_) if depth <= 1 => Res::Fail { complete: false },
                Shot::Four(q) => self.defend(pos, nodes, depth, q, line),
            };
            pos.undo(p);
            match res {
                Res::Win => {
                    line.push(p);
                    won = true;
                    break;
                }
                Res::Fail { complete: c } => complete &= c,
            }
            if nodes.exhausted() {
                complete = false;
                break;
            }
        }
        self.pool.push(buf);
        if won {
            Res::Win
        } else {
            Res::Fail { complete }
        }
    }

    /// The defender blocks the four at `q`; then the attacker, with one move
    /// fewer, must also answer any four the block made.
    pub(crate) fn defend(
        &mut self,
        pos: &mut Pos,
        nodes: &mut Nodes,
        depth: u8,
        q: Point,
        line: &mut Vec<Point>,
    ) -> Res {
        let d = self.attacker.opponent();
        if !nodes.spend() {
            return Res::Fail { complete: false };
        }
        pos.play(q, d);
        let mut threats = self.pool.pop().unwrap_or_default();
        pos.win_points_through(q, d, &mut threats);
        let only = threats.first().copied();
        let res = match threats.len() {
            0 | 1 => self.attack(pos, nodes, depth - 1, only, line),
            _ => Res::Fail { complete: true },
        };
        self.pool.push(threats);
        pos.undo(q);
        if res == Res::Win {
            line.push(q);
        }
        res
    }
}

/// [`super::solve::vcf`].
pub(crate) fn solve(board: &Board, attacker: Color, variant: Variant, budget: Budget) -> Outcome {
    let mut pos = Pos::new(board, variant);
    let threat = match root(&pos, attacker) {
        Root::Five(p) => return Outcome::Win(vec![p]),
        Root::Lost => return Outcome::None,
        Root::Search(t) => t,
    };
    let mut nodes = Nodes::new(budget.nodes);
    let mut search = VcfSearch::new(attacker);
    match search.deepen(&mut pos, &mut nodes, budget.max_depth, threat) {
        (Some(line), _) => Outcome::Win(line),
        _ if nodes.exhausted() => Outcome::Unknown,
        _ => Outcome::None,
    }
}
