//! Finding puzzles (and forbidden-point exercises) in a finished game.

use std::collections::HashSet;
use tengen_protocol::PuzzleTheme;

use tengen_rules::analysis::{AnalysisError, Analyzer, Budget, Outcome};
use tengen_rules::game::{GameRecord, RuleSet};
use tengen_rules::{Board, Color, Point, Variant};

use super::attempt::five_points;
use super::{Puzzle, initial_rating, puzzle_id};
use crate::trainer::{Exercise, exercises};

/// The searches' budgets: the VCF's (any length), and the VCT's, whose
/// depth is what "a short VCT" means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MineBudget {
    pub vcf: Budget,
    pub vct: Budget,
}

/// What a game gives.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mined {
    pub puzzles: Vec<Puzzle>,
    pub exercises: Vec<Exercise>,
}

/// The puzzles of the finished game `id`: every move whose mover had a
/// VCF, or else a VCT within the budget's depth, and played a move that
/// did not begin one (as the solver judges it: a move it could not decide
/// is not counted as a miss). Each comes with a new rating. Also the
/// game's forbidden-point exercises (renju).
pub fn mine(id: &str, record: &GameRecord, budget: MineBudget) -> Result<Mined, AnalysisError> {
    let mut mining = Mining::new(id, record, budget)?;
    while mining.step()? {}
    Ok(mining.finish())
}

/// [`mine`] one position at a time, for a caller that must not hold a core
/// for a whole game's searches: [`Mining::step`] until it says it is done,
/// then [`Mining::finish`].
pub struct Mining {
    id: String,
    rule_set: RuleSet,
    size: u8,
    moves: Vec<(Color, Option<Point>)>,
    analyzer: Analyzer,
    found: Mined,
    seen: HashSet<String>,
}

impl Mining {
    /// Ready to search the finished game `id` (the record replayed through
    /// the referee first).
    pub fn new(id: &str, record: &GameRecord, budget: MineBudget) -> Result<Mining, AnalysisError> {
        if record.config.rule_set.boards() > 1 {
            return Err(AnalysisError::TwoBoards);
        }
        let game = record.replay()?;
        let moves: Vec<(Color, Option<Point>)> =
            game.moves().iter().map(|m| (m.color, m.point)).collect();
        let rule_set = record.config.rule_set;
        let size = record.config.board_size;
        let analyzer = Analyzer::new(
            size,
            rule_set.variant(),
            moves.clone(),
            budget.vcf,
            Some(budget.vct),
        )?;
        Ok(Mining {
            id: id.to_owned(),
            rule_set,
            size,
            moves,
            analyzer,
            found: Mined::default(),
            seen: HashSet::new(),
        })
    }

    /// Searches the next position: `true` while positions are left.
    pub fn step(&mut self) -> Result<bool, AnalysisError> {
        let Some(m) = self.analyzer.next() else {
            return Ok(false);
        };
        let m = m?;
        let (line, threats) = match (&m.vcf, m.vcf_kept, &m.vct, m.vct_kept) {
            (Outcome::Win(line), Some(false), _, _) => (line, false),
            (_, _, Some(Outcome::Win(line)), Some(false)) => (line, true),
            _ => return Ok(self.analyzer.remaining() > 0),
        };
        let (rule_set, size) = (self.rule_set, self.size);
        let (black, white) = stones_before(&self.moves, m.number - 1);
        let pid = puzzle_id(rule_set, size, &black, &white, m.color);
        if self.seen.insert(pid.clone()) {
            let themes = themes_of(rule_set, size, &black, &white, m.color, line, threats);
            let attacker_moves = line.len().div_ceil(2);
            self.found.puzzles.push(Puzzle {
                id: pid,
                rule_set,
                size,
                black,
                white,
                to_move: m.color,
                threats,
                line: line.clone(),
                themes,
                game: self.id.clone(),
                move_number: m.number as u32,
                rating: initial_rating(attacker_moves, threats),
                deviation: 350.0,
                volatility: 0.06,
                plays: 0,
                solved: 0,
            });
        }
        Ok(self.analyzer.remaining() > 0)
    }

    /// What the game gave: the puzzles found, and its forbidden-point
    /// exercises (renju).
    pub fn finish(mut self) -> Mined {
        if self.rule_set == RuleSet::Renju {
            self.found.exercises = exercises(&self.id, self.size, &self.moves);
        }
        self.found
    }
}

/// The stones of the first `n` moves.
pub(crate) fn stones_before(
    moves: &[(Color, Option<Point>)],
    n: usize,
) -> (Vec<Point>, Vec<Point>) {
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for &(c, p) in &moves[..n.min(moves.len())] {
        if let Some(p) = p {
            match c {
                Color::Black => black.push(p),
                Color::White => white.push(p),
            }
        }
    }
    (black, white)
}

/// A puzzle's themes: its kind, the side to play, and `forbidden` when
/// its line ends with a white four whose only block is forbidden for
/// black.
pub fn themes_of(
    rule_set: RuleSet,
    size: u8,
    black: &[Point],
    white: &[Point],
    attacker: Color,
    line: &[Point],
    threats: bool,
) -> Vec<PuzzleTheme> {
    let mut themes = vec![
        if threats {
            PuzzleTheme::Vct
        } else {
            PuzzleTheme::Vcf
        },
        match attacker {
            Color::Black => PuzzleTheme::Black,
            Color::White => PuzzleTheme::White,
        },
    ];
    if rule_set == RuleSet::Renju
        && attacker == Color::White
        && ends_on_forbidden_block(size, black, white, line, Variant::Renju)
    {
        themes.push(PuzzleTheme::Forbidden);
    }
    themes
}

fn ends_on_forbidden_block(
    size: u8,
    black: &[Point],
    white: &[Point],
    line: &[Point],
    variant: Variant,
) -> bool {
    let Ok(mut board) = Board::with_stones(size, black, white) else {
        return false;
    };
    let mut color = Color::White;
    for &p in line {
        if board.place(p, color).is_err() {
            return false;
        }
        color = color.opponent();
    }
    // The line ends with white's move: black to defend.
    match five_points(&board, Color::White, variant)[..] {
        [f] => board.forbidden(f).is_some(),
        _ => false,
    }
}
