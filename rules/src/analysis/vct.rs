//! The VCT search: iterative deepening on the number of attacker moves over
//! an AND/OR depth-first search whose attacker moves are fours and threats.
//!
//! A *threat* is a quiet attacker move after which the attacker would have
//! a VCF if the defender passed. Which defender replies must be searched is
//! the hard part of any VCT solver; this one takes no shortcut: it finds
//! the attacker's VCF after the threat (the null-move VCF, one move
//! shorter), then replays that exact line after every legal defender move.
//! A reply after which the line still wins is refuted on the spot; every
//! other reply (blocks on the line, counter-fours, a stone that changes a
//! renju forbidden verdict the line relies on) is searched in full. So a
//! win reported here holds against every defence, with renju's forbidden
//! points judged by the crate's judge at every step.
//!
//! Candidate attacker moves come from the windows holding two or more
//! attacker stones and none of the defender's: every move that makes a four
//! or a three. The VCF searches below share one table of failed positions.

use super::outcome::{Budget, Outcome};
use super::region::Region;
use super::threats::Pos;
use super::vcf::{self, Failures, Nodes, Res, Root, Shot, VcfSearch};
use crate::board::{Board, Variant};
use crate::point::{Color, Point};

pub(crate) struct VctSearch {
    attacker: Color,
    vcf: VcfSearch,
    failed: Failures,
}

impl VctSearch {
    pub(crate) fn new(attacker: Color) -> VctSearch {
        VctSearch {
            attacker,
            vcf: VcfSearch::new(attacker),
            failed: Failures::default(),
        }
    }

    /// The shortest VCT of at most `max_depth` attacker moves, as
    /// [`VcfSearch::deepen`].
    pub(crate) fn deepen(
        &mut self,
        pos: &mut Pos,
        nodes: &mut Nodes,
        max_depth: u8,
        threat: Option<Point>,
    ) -> (Option<Vec<Point>>, bool) {
        let mut line = Vec::new();
        for depth in 1..=max_depth {
            match self.attack(pos, nodes, depth, threat, &mut line) {
                Res::Win => {
                    line.reverse();
                    return (Some(line), true);
                }
                Res::Fail { complete: true } => return (None, true),
                Res::Fail { complete: false } if nodes.exhausted() => return (None, false),
                Res::Fail { complete: false } => line.clear(),
            }
        }
        (None, false)
    }

    /// Whether the attacker's move `p` begins a forced win of at most
    /// `max_depth` attacker moves (a VCT with `threats`, else a VCF);
    /// `None` when the nodes ran out first.
    pub(crate) fn first_move_wins(
        &mut self,
        pos: &mut Pos,
        nodes: &mut Nodes,
        max_depth: u8,
        p: Point,
        threats: bool,
    ) -> Option<bool> {
        let a = self.attacker;
        let mut buf = Vec::new();
        pos.play(p, a);
        let shot = vcf::shot(pos, p, a, &mut buf);
        let mut verdict = Some(false);
        if matches!(shot, Shot::Unstoppable) {
            verdict = Some(true);
        } else if threats || matches!(shot, Shot::Four(_)) {
            for depth in 2..=max_depth {
                let mut line = Vec::new();
                let res = match shot {
                    Shot::Four(q) if threats => self.defend_four(pos, nodes, depth, q, &mut line),
                    Shot::Four(q) => self.vcf.defend(pos, nodes, depth, q, &mut line),
                    _ => self.defend_threat(pos, nodes, depth, &mut line),
                };
                match res {
                    Res::Win => verdict = Some(true),
                    Res::Fail { complete: false } if nodes.exhausted() => verdict = None,
                    Res::Fail { complete: false } => continue,
                    Res::Fail { complete: true } => {}
                }
                break;
            }
        }
        pos.undo(p);
        verdict
    }

    /// The attacker's turn (see [`VcfSearch`]'s `attack`), with threats too.
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
        let (moves, fours) = match only {
            Some(t) => (vec![t], 1),
            None => attacker_moves(pos, a),
        };
        let mut buf = Vec::with_capacity(8);
        let mut complete = true;
        for (i, p) in moves.into_iter().enumerate() {
            if !pos.is_empty(p) || !pos.legal(p, a) {
                continue;
            }
            if !nodes.spend() {
                return Res::Fail { complete: false };
            }
            if depth <= 1 && i >= fours {
                // A three's shot is quiet, and a quiet move wins nothing
                // at the last depth (as the match below would find).
                complete = false;
                if nodes.exhausted() {
                    return Res::Fail { complete: false };
                }
                continue;
            }
            pos.play(p, a);
            let res = match vcf::shot(pos, p, a, &mut buf) {
                Shot::Unstoppable => Res::Win,
                Shot::Four(_) | Shot::Quiet if depth <= 1 => Res::Fail { complete: false },
                Shot::Four(q) => self.defend_four(pos, nodes, depth, q, line),
                Shot::Quiet => self.defend_threat(pos, nodes, depth, line),
            };
            pos.undo(p);
            match res {
                Res::Win => {
                    line.push(p);
                    return Res::Win;
                }
                Res::Fail { complete: c } => complete &= c,
            }
            if nodes.exhausted() {
                return Res::Fail { complete: false };
            }
        }
        self.failed.note(pos.hash(), depth, complete);
        Res::Fail { complete }
    }

    /// The defender's one reply to a four, then the attacker again.
    fn defend_four(
        &mut self,
        pos: &mut Pos,
        nodes: &mut Nodes,
        depth: u8,
        q: Point,
        line: &mut Vec<Point>,
    ) -> Res {
        if !nodes.spend() {
            return Res::Fail { complete: false };
        }
        let res = self.reply(pos, nodes, depth, q, line);
        if res == Res::Win {
            line.push(q);
        }
        res
    }

    /// The defender plays `r`; the attacker answers within `depth - 1`
    /// moves, blocking first if `r` threatens five. `line` gets the
    /// attacker's reversed continuation on a win (not `r` itself).
    fn reply(
        &mut self,
        pos: &mut Pos,
        nodes: &mut Nodes,
        depth: u8,
        r: Point,
        line: &mut Vec<Point>,
    ) -> Res {
        let d = self.attacker.opponent();
        pos.play(r, d);
        let mut threats = Vec::new();
        pos.win_points_through(r, d, &mut threats);
        let res = match threats.len() {
            0 => self.attack(pos, nodes, depth - 1, None, line),
            1 => self.attack(pos, nodes, depth - 1, Some(threats[0]), line),
            _ => Res::Fail { complete: true },
        };
        pos.undo(r);
        res
    }

    /// After the attacker's quiet move: a threat only if the attacker then
    /// has a VCF; every defender move that breaks that VCF must be refuted.
    fn defend_threat(
        &mut self,
        pos: &mut Pos,
        nodes: &mut Nodes,
        depth: u8,
        line: &mut Vec<Point>,
    ) -> Res {
        let (found, complete) = self.vcf.deepen(pos, nodes, depth - 1, None);
        let Some(plan) = found else {
            return Res::Fail { complete };
        };
        let Some(defences) = defences(pos, nodes, self.attacker, &plan) else {
            return Res::Fail { complete: false };
        };
        // The main line follows the defence that lasts longest.
        let mut best: Option<Vec<Point>> = None;
        for r in defences {
            if !nodes.spend() {
                return Res::Fail { complete: false };
            }
            let mut sub = Vec::new();
            match self.reply(pos, nodes, depth, r, &mut sub) {
                Res::Win => {
                    sub.push(r);
                    if best.as_ref().is_none_or(|b| sub.len() > b.len()) {
                        best = Some(sub);
                    }
                }
                fail => return fail,
            }
        }
        line.extend(best.unwrap_or_default());
        Res::Win
    }
}

/// The attacker's candidate moves, fours first, then threes, and how many
/// of them are fours. A three cannot make a four, so its shot is quiet.
fn attacker_moves(pos: &Pos, a: Color) -> (Vec<Point>, usize) {
    let (mut fours, mut threes) = (Vec::new(), Vec::new());
    pos.fours_and_threes(a, &mut fours, &mut threes);
    let n = fours.len();
    fours.extend(threes);
    (fours, n)
}

/// The defender's legal moves after which `plan` (a VCF of the attacker,
/// the attacker to move, the defender having passed) no longer wins as it
/// stands. Only moves in the plan's [`Region`] can change its replay, so
/// only those are replayed; every counter-four is a defence. A move that is
/// neither in the region nor in a window where the defender could make a
/// four is refuted without being played, and legality (renju's judge, the
/// dearest question) is asked only of the moves that would be defences.
/// Every defender move played here is a node (see [`Budget::nodes`]);
/// `None` when the nodes ran out first.
fn defences(
    pos: &mut Pos,
    nodes: &mut Nodes,
    attacker: Color,
    plan: &[Point],
) -> Option<Vec<Point>> {
    let d = attacker.opponent();
    let mut buf = Vec::new();
    let mut region = Region::new(pos.board.size());
    if !replays(pos, attacker, plan, &mut buf, Some(&mut region)) {
        region.add_everything();
    }
    let mut counter_fours = Vec::new();
    pos.candidates(d, 3, &mut counter_fours);
    let points: Vec<Point> = pos
        .board
        .points()
        .filter(|&r| pos.is_empty(r) && (region.contains(r) || counter_fours.contains(&r)))
        .collect();
    let mut out = Vec::new();
    for r in points {
        if !nodes.spend() {
            return None;
        }
        pos.play(r, d);
        pos.win_points_through(r, d, &mut buf);
        let refuted =
            buf.is_empty() && (!region.contains(r) || replays(pos, attacker, plan, &mut buf, None));
        pos.undo(r);
        if !refuted && pos.legal(r, d) {
            out.push(r);
        }
    }
    Some(out)
}

/// Whether the attacker's fours of `plan` (every other move, from the
/// first) still win in `pos`, each defender reply being the forced one.
/// The position is returned unchanged. With `region`, every point the
/// replay reads is added to it (see [`Region`]).
pub(crate) fn replays(
    pos: &mut Pos,
    attacker: Color,
    plan: &[Point],
    buf: &mut Vec<Point>,
    mut region: Option<&mut Region>,
) -> bool {
    let d = attacker.opponent();
    let renju = pos.variant == Variant::Renju;
    let mut played = Vec::with_capacity(plan.len());
    let mut won = false;
    let mut fours = plan.iter().step_by(2).peekable();
    while let Some(&m) = fours.next() {
        if let Some(region) = region.as_deref_mut() {
            region.add_lines(m, 5);
            if renju && attacker == Color::Black && pos.is_empty(m) {
                region.add_judge_reads(&pos.board, m);
            }
        }
        if !pos.is_empty(m) || !pos.legal(m, attacker) {
            break;
        }
        pos.play(m, attacker);
        played.push(m);
        let shot = vcf::shot(pos, m, attacker, buf);
        if let Some(region) = region.as_deref_mut() {
            for &w in buf.iter() {
                region.add_lines(w, 5);
                if renju && d == Color::Black {
                    region.add_judge_reads(&pos.board, w);
                }
            }
        }
        match shot {
            Shot::Quiet => break,
            Shot::Unstoppable => {
                won = true;
                break;
            }
            Shot::Four(q) => {
                pos.play(q, d);
                played.push(q);
                pos.win_points_through(q, d, buf);
                let next = fours.peek().copied().copied();
                if buf.len() > 1 || (buf.len() == 1 && next != Some(buf[0])) {
                    break;
                }
            }
        }
    }
    for &p in played.iter().rev() {
        pos.undo(p);
    }
    won
}

/// [`super::solve::vct`].
pub(crate) fn solve(board: &Board, attacker: Color, variant: Variant, budget: Budget) -> Outcome {
    let mut pos = Pos::new(board, variant);
    let threat = match vcf::root(&pos, attacker) {
        Root::Five(p) => return Outcome::Win(vec![p]),
        Root::Lost => return Outcome::None,
        Root::Search(t) => t,
    };
    let mut nodes = Nodes::new(budget.nodes);
    let mut search = VctSearch::new(attacker);
    match search.deepen(&mut pos, &mut nodes, budget.max_depth, threat) {
        (Some(line), _) => Outcome::Win(line),
        _ if nodes.exhausted() => Outcome::Unknown,
        _ => Outcome::None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The defences without the region shortcut: every legal reply
    /// replayed.
    fn defences_by_replaying_all(pos: &mut Pos, attacker: Color, plan: &[Point]) -> Vec<Point> {
        let d = attacker.opponent();
        let points: Vec<Point> = pos.board.points().filter(|&r| pos.is_empty(r)).collect();
        let mut buf = Vec::new();
        points
            .into_iter()
            .filter(|&r| {
                if !pos.legal(r, d) {
                    return false;
                }
                pos.play(r, d);
                pos.win_points_through(r, d, &mut buf);
                let refuted = buf.is_empty() && replays(pos, attacker, plan, &mut buf, None);
                pos.undo(r);
                !refuted
            })
            .collect()
    }

    /// Dense game-like positions from a fixed pseudo-random stream.
    fn positions() -> Vec<Board> {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n) as i32
        };
        (0..300)
            .map(|i| {
                let mut b = Board::standard();
                let mut color = Color::Black;
                let (mut placed, target) = (vec![Point::new(7, 7)], 10 + i % 40);
                b.place(placed[0], color).unwrap();
                while placed.len() < target {
                    let base = placed[next(placed.len() as u64) as usize];
                    color = color.opponent();
                    let Some(q) = base.offset(next(5) - 2, next(5) - 2, 15) else {
                        continue;
                    };
                    if b.get(q).is_none() && !b.makes_five(q, color, Variant::Renju) {
                        b.place(q, color).unwrap();
                        placed.push(q);
                    }
                }
                b
            })
            .collect()
    }

    /// The region shortcut changes no defence set: on every position where
    /// the side to move has a VCF (a defender's pass is what a threat
    /// leaves), the defences found both ways agree, in every variant.
    #[test]
    fn the_region_shortcut_is_exact() {
        let mut compared = 0;
        for board in positions() {
            for variant in [Variant::Renju, Variant::Gomoku] {
                for attacker in [Color::Black, Color::White] {
                    let mut pos = Pos::new(&board, variant);
                    let Root::Search(None) = vcf::root(&pos, attacker) else {
                        continue;
                    };
                    let mut nodes = Nodes::new(100_000);
                    let (Some(plan), _) =
                        VcfSearch::new(attacker).deepen(&mut pos, &mut nodes, 6, None)
                    else {
                        continue;
                    };
                    let fast = defences(&mut pos, &mut Nodes::new(u64::MAX), attacker, &plan)
                        .expect("an unbounded budget");
                    let all = defences_by_replaying_all(&mut pos, attacker, &plan);
                    assert_eq!(
                        fast,
                        all,
                        "{variant:?} {attacker} {plan:?}\n{}",
                        board.to_text()
                    );
                    compared += 1;
                }
            }
        }
        assert!(compared > 50, "{compared}");
    }

    /// Every defender move the defence search plays is charged to the node
    /// budget: with one node fewer than it needs it gives up (and the
    /// budget shows as spent), with exactly enough it finds the same set.
    #[test]
    fn the_defence_search_is_charged_to_the_budget() {
        let mut checked = 0;
        for board in positions() {
            let attacker = Color::Black;
            let mut pos = Pos::new(&board, Variant::Renju);
            let Root::Search(None) = vcf::root(&pos, attacker) else {
                continue;
            };
            let (Some(plan), _) =
                VcfSearch::new(attacker).deepen(&mut pos, &mut Nodes::new(100_000), 6, None)
            else {
                continue;
            };
            let mut unbounded = Nodes::new(u64::MAX);
            let all = defences(&mut pos, &mut unbounded, attacker, &plan).unwrap();
            let used = unbounded.used();
            assert!(
                used >= all.len() as u64,
                "{used} nodes for {} defences",
                all.len()
            );
            let mut short = Nodes::new(used - 1);
            assert_eq!(defences(&mut pos, &mut short, attacker, &plan), None);
            assert!(short.exhausted());
            let mut exact = Nodes::new(used);
            assert_eq!(defences(&mut pos, &mut exact, attacker, &plan), Some(all));
            assert!(!exact.exhausted());
            checked += 1;
        }
        assert!(checked > 10, "{checked}");
    }
}
