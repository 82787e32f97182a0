//! The forbidden-point trainer: positions from real renju games where a
//! forbidden point mattered, and the referee's judgement of an answer.
//!
//! A position qualifies, black to move, when black's next move in the
//! game was on a forbidden point (a foul, claimed or not), or when white's
//! last move made a four whose only block was forbidden (black could not
//! stop it). Kept once for all eight orientations. The answer is every
//! point forbidden for black, each with its kind, judged against
//! [`Board::forbidden_points`].

use std::collections::{BTreeMap, HashSet};

use blake2::digest::consts::U8;
use blake2::{Blake2b, Digest};
use serde::{Deserialize, Serialize};
use tengen_protocol::TrainerVerdict;
use tengen_rules::game::ForbiddenPoint;
use tengen_rules::{Board, BoardError, Color, Forbidden, Point, Variant};

use crate::canon::Canonical;
use crate::puzzle::attempt::five_points;

/// The store's document family of exercises.
pub const SPACE: &str = "trainer";

/// An exercise as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exercise {
    pub id: String,
    pub size: u8,
    pub black: Vec<Point>,
    pub white: Vec<Point>,
    pub game: String,
    /// The black move about to be played in the game.
    pub move_number: u32,
}

impl Exercise {
    pub fn encode(&self) -> Vec<u8> {
        rmp_serde::to_vec_named(self).expect("an exercise always encodes")
    }

    pub fn decode(bytes: &[u8]) -> Option<Exercise> {
        rmp_serde::from_slice(bytes).ok()
    }
}

/// An exercise's id: 16 hex digits of a digest of its canonical position.
pub fn exercise_id(size: u8, black: &[Point], white: &[Point]) -> String {
    let mut h = Blake2b::<U8>::new();
    h.update(b"tengen-trainer-1");
    h.update(Canonical::of(size, black, white).bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The exercises of the renju game `game` (its moves in order, `None` a
/// pass).
pub fn exercises(game: &str, size: u8, moves: &[(Color, Option<Point>)]) -> Vec<Exercise> {
    let Ok(mut board) = Board::new(size) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for (i, &(color, point)) in moves.iter().enumerate() {
        let Some(p) = point else {
            continue;
        };
        if color == Color::Black {
            let fouled = board.forbidden(p).is_some();
            let trapped = match five_points(&board, Color::White, Variant::Renju)[..] {
                [f] => board.forbidden(f).is_some(),
                _ => false,
            };
            if fouled || trapped {
                let (black, white) = crate::puzzle::mine::stones_before(moves, i);
                let id = exercise_id(size, &black, &white);
                if seen.insert(id.clone()) {
                    out.push(Exercise {
                        id,
                        size,
                        black,
                        white,
                        game: game.to_owned(),
                        move_number: i as u32 + 1,
                    });
                }
            }
        }
        if board.place(p, color).is_err() {
            break;
        }
    }
    out
}

/// Judges `marks` (points the player calls forbidden, with their kinds)
/// on the exercise's position.
pub fn judge(exercise: &Exercise, marks: &[ForbiddenPoint]) -> Result<TrainerVerdict, BoardError> {
    let board = Board::with_stones(exercise.size, &exercise.black, &exercise.white)?;
    let truth: BTreeMap<Point, Forbidden> = board.forbidden_points().into_iter().collect();
    let marked: BTreeMap<Point, Forbidden> = marks.iter().map(|m| (m.point, m.kind)).collect();
    let (mut right, mut wrong, mut wrong_kind) = (Vec::new(), Vec::new(), Vec::new());
    for (&p, &kind) in &marked {
        match truth.get(&p) {
            Some(&k) if k == kind => right.push(p),
            Some(_) => wrong_kind.push(p),
            None => wrong.push(p),
        }
    }
    let missed: Vec<Point> = truth
        .keys()
        .filter(|p| !marked.contains_key(p))
        .copied()
        .collect();
    Ok(TrainerVerdict {
        position: exercise.id.clone(),
        correct: missed.is_empty() && wrong.is_empty() && wrong_kind.is_empty(),
        forbidden: truth
            .into_iter()
            .map(|(point, kind)| ForbiddenPoint { point, kind })
            .collect(),
        right,
        missed,
        wrong,
        wrong_kind,
    })
}
