//! A try at a puzzle: each of the solver's moves judged by the referee's
//! solver, each defence chosen by the server.

use tengen_rules::analysis::{Budget, Outcome, first_move_wins, vcf, vct};
use tengen_rules::{Board, BoardError, Color, Point, Variant};

use super::Puzzle;

/// What a move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judged {
    /// It keeps the win; the defender answered here.
    Continue(Point),
    /// It wins: a five, or a threat nothing stops.
    Solved,
    /// It lets the win go: `forbidden` (black's move is forbidden),
    /// `no_win` (the solver finds no forced win after it), `undecided`
    /// (the solver ran out of budget deciding; the try ends all the same).
    Failed(&'static str),
}

/// A move that cannot be judged: the try changes nothing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    #[error("the try is over")]
    Over,
    #[error(transparent)]
    Board(#[from] BoardError),
}

/// One try at a puzzle.
#[derive(Clone, Debug)]
pub struct Attempt {
    board: Board,
    variant: Variant,
    attacker: Color,
    threats: bool,
    /// The puzzle's line, while the try has followed it.
    line: Option<Vec<Point>>,
    played: Vec<Point>,
    over: bool,
}

impl Attempt {
    pub fn new(puzzle: &Puzzle) -> Result<Attempt, BoardError> {
        Ok(Attempt {
            board: Board::with_stones(puzzle.size, &puzzle.black, &puzzle.white)?,
            variant: puzzle.rule_set.variant(),
            attacker: puzzle.to_move,
            threats: puzzle.threats,
            line: Some(puzzle.line.clone()),
            played: Vec::new(),
            over: false,
        })
    }

    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Every move of the try so far, the defender's included.
    pub fn played(&self) -> &[Point] {
        &self.played
    }

    /// Judges the attacker's move `p` (each search within `budget`) and
    /// plays the defender's answer.
    pub fn play(&mut self, p: Point, budget: Budget) -> Result<Judged, StepError> {
        if self.over {
            return Err(StepError::Over);
        }
        self.board.check_place(p)?;
        let judged = self.judge(p, budget);
        if !matches!(judged, Judged::Continue(_)) {
            self.over = true;
        }
        Ok(judged)
    }

    fn judge(&mut self, p: Point, budget: Budget) -> Judged {
        let (a, variant) = (self.attacker, self.variant);
        if variant == Variant::Renju && a == Color::Black && self.board.forbidden(p).is_some() {
            return Judged::Failed("forbidden");
        }
        if self.board.makes_five(p, a, variant) {
            self.place(p, a);
            return Judged::Solved;
        }
        // The puzzle's own line needs no second search.
        let on_line = self
            .line
            .as_ref()
            .is_some_and(|l| l.get(self.played.len()) == Some(&p));
        if !on_line {
            self.line = None;
            match first_move_wins(&self.board, a, variant, p, budget, self.threats) {
                Some(true) => {}
                Some(false) => {
                    self.place(p, a);
                    return Judged::Failed("no_win");
                }
                None => return Judged::Failed("undecided"),
            }
        }
        self.place(p, a);
        match defence(&self.board, a, variant, budget) {
            Defence::Lost => Judged::Solved,
            Defence::Reply(d) => {
                if self.line.as_ref().and_then(|l| l.get(self.played.len())) != Some(&d) {
                    self.line = None;
                }
                self.place(d, a.opponent());
                if self.board.makes_five(d, a.opponent(), variant) {
                    // The defender won: the move was no win after all.
                    return Judged::Failed("no_win");
                }
                Judged::Continue(d)
            }
        }
    }

    fn place(&mut self, p: Point, c: Color) {
        if self.board.place(p, c).is_ok() {
            self.played.push(p);
        }
    }
}

/// The points where `color` would make five now.
pub fn five_points(board: &Board, color: Color, variant: Variant) -> Vec<Point> {
    board
        .points()
        .filter(|&p| board.is_empty_point(p) && board.makes_five(p, color, variant))
        .collect()
}

/// The defender's answer to the attacker's last move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Defence {
    /// Nothing stops the attacker: two ways to five, or a black block
    /// that would be forbidden.
    Lost,
    Reply(Point),
}

/// How the defender (the attacker's opponent, to move) answers in `board`:
/// its own five if it has one; the block of a four; after a three, of
/// the moves that leave the attacker no VCF (counter-fours among them)
/// the one after which the attacker's VCT is longest, or if there is
/// none the move after which the attacker's VCF is longest; ties go to
/// the lowest point. A black defender never plays a forbidden point.
pub fn defence(board: &Board, attacker: Color, variant: Variant, budget: Budget) -> Defence {
    let d = attacker.opponent();
    let legal = |p: Point| {
        board.is_empty_point(p)
            && !(variant == Variant::Renju && d == Color::Black && board.forbidden(p).is_some())
    };
    if let Some(&win) = five_points(board, d, variant).first() {
        return Defence::Reply(win);
    }
    match five_points(board, attacker, variant)[..] {
        [] => {}
        [f] if legal(f) => return Defence::Reply(f),
        _ => return Defence::Lost,
    }
    let length = |o: &Outcome| match o {
        Outcome::Win(l) => l.len(),
        Outcome::Unknown => usize::MAX,
        Outcome::None => 0,
    };
    let mut scratch = board.clone();
    let mut stopping: Vec<(usize, Point)> = Vec::new();
    let mut best_vcf: Option<(usize, Point)> = None;
    for p in board.points().filter(|&p| legal(p)) {
        if scratch.place(p, d).is_err() {
            continue;
        }
        match vcf(&scratch, attacker, variant, budget) {
            Outcome::Win(l) => {
                if best_vcf.is_none_or(|(n, _)| l.len() > n) {
                    best_vcf = Some((l.len(), p));
                }
            }
            _ => stopping.push((0, p)),
        }
        scratch.remove(p);
    }
    if stopping.is_empty() {
        return best_vcf.map_or(Defence::Lost, |(_, p)| Defence::Reply(p));
    }
    for (len, p) in stopping.iter_mut() {
        if scratch.place(*p, d).is_ok() {
            *len = length(&vct(&scratch, attacker, variant, budget));
            scratch.remove(*p);
        }
    }
    let best = stopping
        .iter()
        .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)))
        .expect("not empty");
    Defence::Reply(best.1)
}
