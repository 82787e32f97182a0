//! The two searches' entry points.

use super::outcome::{Budget, Outcome};
use crate::board::{Board, Variant};
use crate::point::Color;

/// The shortest VCF of `attacker` in `board` (the attacker to move) under
/// `variant`. Only the first solution of the shortest length is returned.
///
/// A position where the defender already threatens five is searched too:
/// the attacker must then win at once or block with a four.
pub fn vcf(board: &Board, attacker: Color, variant: Variant, budget: Budget) -> Outcome {
    super::vcf::solve(board, attacker, variant, budget)
}

/// The shortest VCT of `attacker` in `board` (the attacker to move) under
/// `variant`: a line of moves each of which is a four, or a threat the
/// defender must answer because the attacker would otherwise have a VCF.
///
/// Every defence is considered: after a threat, the defender's candidate
/// replies are all the moves that break the attacker's VCF (found by
/// replaying it after each legal defender move), which includes every
/// counter-four. Every VCF is a VCT, so the VCT found is never longer than
/// the VCF.
pub fn vct(board: &Board, attacker: Color, variant: Variant, budget: Budget) -> Outcome {
    super::vct::solve(board, attacker, variant, budget)
}
