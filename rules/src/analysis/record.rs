//! Post-game analysis: for every move of a game, whether the side to move
//! had a forced win before it, and whether the move played kept that win.
//!
//! Why: this is how renju players study a game (where was a win missed?).
//! It is a pure function of the moves and the rules, bounded by the budgets
//! given for each position, so a server can run it off its table actors and
//! a client can run it offline with the same answers.

use super::outcome::{Budget, Outcome};
use super::threats::Pos;
use super::vcf::{self, Nodes, Root};
use super::vct::VctSearch;
use crate::board::{Board, BoardError, Variant};
use crate::game::{GameRecord, ReplayError};
use crate::point::{Color, Point};

/// What the analysis says about one move of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveAnalysis {
    /// The move's number, from 1.
    pub number: usize,
    /// Who played it (the side to move in the position analysed).
    pub color: Color,
    /// The point played, `None` for a pass.
    pub point: Option<Point>,
    /// The mover's VCF in the position before the move.
    pub vcf: Outcome,
    /// With a VCF: whether the move played begins a VCF (a five, or a four
    /// after whose forced defence a VCF remains; with a five on offer, only
    /// a five). `None` without a VCF, or when the budget ran out deciding
    /// it.
    pub vcf_kept: Option<bool>,
    /// The mover's VCT before the move, when a VCT budget was given (the
    /// VCF itself when there is one: a VCF is a VCT).
    pub vct: Option<Outcome>,
    /// As `vcf_kept`, for the VCT: whether the move begins a VCT.
    pub vct_kept: Option<bool>,
}

/// Why a game could not be analysed.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    #[error("move {number} ({point}): {source}")]
    Move {
        number: usize,
        point: Point,
        source: BoardError,
    },
    #[error("move {0} comes after the game was won")]
    AfterWin(usize),
    #[error(transparent)]
    Board(#[from] BoardError),
    #[error("the record does not replay: {0}")]
    Replay(#[from] ReplayError),
    #[error("twin games (two boards) are not analysed: a forced win there is not a five")]
    TwoBoards,
}

/// Analyses every move of a game played from an empty `size` x `size`
/// board under `variant`: `moves` are the colour and point (or pass) of
/// each move in order. With `vct` set, the VCT is looked for as well (and
/// only when the mover has no VCF: a VCF is a VCT).
pub fn analyze_moves(
    size: u8,
    variant: Variant,
    moves: &[(Color, Option<Point>)],
    vcf: Budget,
    vct: Option<Budget>,
) -> Result<Vec<MoveAnalysis>, AnalysisError> {
    Analyzer::new(size, variant, moves.to_vec(), vcf, vct)?.collect()
}

/// [`analyze_moves`] one move at a time: each `next()` searches one
/// position, so a caller that must stay responsive (a server sharing its
/// cores with games) can stop between positions and go on later. After an
/// error it yields nothing more.
#[derive(Clone, Debug)]
pub struct Analyzer {
    board: Board,
    variant: Variant,
    moves: Vec<(Color, Option<Point>)>,
    vcf: Budget,
    vct: Option<Budget>,
    /// The index of the next move to analyse.
    next: usize,
    /// The last move made a five: a move after it is an error.
    won: bool,
    /// An error was yielded: nothing follows.
    stopped: bool,
}

impl Analyzer {
    /// Ready to analyse `moves` from an empty board (see [`analyze_moves`]).
    pub fn new(
        size: u8,
        variant: Variant,
        moves: Vec<(Color, Option<Point>)>,
        vcf: Budget,
        vct: Option<Budget>,
    ) -> Result<Analyzer, AnalysisError> {
        Ok(Analyzer {
            board: Board::new(size)?,
            variant,
            moves,
            vcf,
            vct,
            next: 0,
            won: false,
            stopped: false,
        })
    }

    /// How many moves are left to analyse.
    pub fn remaining(&self) -> usize {
        if self.stopped {
            0
        } else {
            self.moves.len() - self.next
        }
    }

    fn analyse(&mut self, color: Color, point: Option<Point>) -> MoveAnalysis {
        let (board, variant) = (&self.board, self.variant);
        let found = super::solve::vcf(board, color, variant, self.vcf);
        let vcf_kept = match (&found, point) {
            (Outcome::Win(_), Some(p)) => {
                first_move_wins(board, color, variant, p, self.vcf, false)
            }
            (Outcome::Win(_), None) => Some(false),
            _ => None,
        };
        let (vct, vct_kept) = match self.vct {
            None => (None, None),
            Some(_) if found.line().is_some() => (Some(found.clone()), vcf_kept),
            Some(budget) => {
                let o = super::solve::vct(board, color, variant, budget);
                let kept = match (&o, point) {
                    (Outcome::Win(_), Some(p)) => {
                        first_move_wins(board, color, variant, p, budget, true)
                    }
                    (Outcome::Win(_), None) => Some(false),
                    _ => None,
                };
                (Some(o), kept)
            }
        };
        MoveAnalysis {
            number: self.next + 1,
            color,
            point,
            vcf: found,
            vcf_kept,
            vct,
            vct_kept,
        }
    }
}

impl Iterator for Analyzer {
    type Item = Result<MoveAnalysis, AnalysisError>;

    fn next(&mut self) -> Option<Self::Item> {
        let &(color, point) = self.moves.get(self.next)?;
        if self.stopped {
            return None;
        }
        let number = self.next + 1;
        if self.won {
            self.stopped = true;
            return Some(Err(AnalysisError::AfterWin(number)));
        }
        let analysis = self.analyse(color, point);
        if let Some(p) = point
            && let Err(source) = self.board.place(p, color)
        {
            self.stopped = true;
            return Some(Err(AnalysisError::Move {
                number,
                point: p,
                source,
            }));
        }
        if let Some(p) = point {
            self.won = self.board.makes_five(p, color, self.variant);
        }
        self.next += 1;
        Some(Ok(analysis))
    }
}

/// [`analyze_moves`] on a game record: the record is replayed through the
/// referee first, and its moves (after the opening) are analysed under its
/// rule set.
pub fn analyze_record(
    record: &GameRecord,
    vcf: Budget,
    vct: Option<Budget>,
) -> Result<Vec<MoveAnalysis>, AnalysisError> {
    if record.config.rule_set.boards() > 1 {
        return Err(AnalysisError::TwoBoards);
    }
    let game = record.replay()?;
    let moves: Vec<(Color, Option<Point>)> =
        game.moves().iter().map(|m| (m.color, m.point)).collect();
    analyze_moves(
        record.config.board_size,
        record.config.rule_set.variant(),
        &moves,
        vcf,
        vct,
    )
}

/// Whether `p`, played by `attacker` in `board`, is the first move of a
/// forced win (a VCT when `threats`, else a VCF) within `budget`; `None`
/// when the budget ran out first. (How a puzzle's moves are judged.)
pub fn first_move_wins(
    board: &Board,
    attacker: Color,
    variant: Variant,
    p: Point,
    budget: Budget,
    threats: bool,
) -> Option<bool> {
    let mut pos = Pos::new(board, variant);
    if !pos.is_empty(p) || !pos.legal(p, attacker) {
        return Some(false);
    }
    match vcf::root(&pos, attacker) {
        Root::Five(_) => return Some(pos.wins_at(p, attacker)),
        Root::Lost => return Some(false),
        Root::Search(Some(t)) if t != p => return Some(false),
        Root::Search(_) => {}
    }
    let mut nodes = Nodes::new(budget.nodes);
    let mut search = VctSearch::new(attacker);
    search.first_move_wins(&mut pos, &mut nodes, budget.max_depth, p, threats)
}
