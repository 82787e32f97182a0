//! The vocabulary of post-game analysis: `analyze_game`'s reply, one entry
//! per move where the side to move had a forced win.
//!
//! Why apart from `ranked`: analysis is the rules crate's forced-win search
//! run on a stored record; the protocol only carries its findings, points
//! and lines in renju notation (`h8`, `j10 k11 l12`), as `game_record`
//! writes moves. What a VCF or VCT is and how long a search may run are the
//! rules crate's and the server's (`docs/rules.md`, the server's settings).

use serde::{Deserialize, Serialize};
use tengen_rules::Color;

use crate::ids::TableId;

/// One move of a finished game where the side to move had a forced win in
/// the position before it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MoveVerdict {
    /// The move's number, from 1, counting every stone and pass of the game
    /// in order (as `game_record`'s renju notation lists them for the
    /// openings that place one stone per move).
    pub number: u32,
    /// The side to move (who played it).
    pub color: Color,
    /// The move played, in renju notation (`h8`, or `pass`).
    pub played: String,
    /// The mover's VCF (victory by continuous fours), when there was one:
    /// the attacker's and the defender's moves in turn, in renju notation,
    /// starting and ending with the attacker's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vcf: Option<String>,
    /// With `vct` asked and no VCF: the mover's VCT (victory by continuous
    /// threes and fours), as `vcf`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vct: Option<String>,
    /// Whether the move played began a forced win of the same kind (it need
    /// not be the line shown); `null` when the search ran out of budget
    /// deciding it.
    #[serde(default)]
    pub kept: Option<bool>,
}

/// The reply to `analyze_game`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GameAnalysis {
    pub game: TableId,
    /// Whether VCTs were looked for (as asked).
    pub vct: bool,
    /// The moves whose mover had a forced win, in order. A move not listed
    /// had none that the search found within its budget.
    pub moves: Vec<MoveVerdict>,
    /// Numbers of the moves where the VCF search ran out of budget before
    /// deciding (a win may have been missed there unseen). Left out when
    /// empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub undecided: Vec<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdict_leaves_out_the_kind_not_found() {
        let v = MoveVerdict {
            number: 7,
            color: Color::Black,
            played: "b14".into(),
            vcf: Some("h11".into()),
            vct: None,
            kept: Some(false),
        };
        let j = serde_json::to_value(&v).unwrap();
        assert_eq!(j["color"], "black");
        assert!(j.get("vct").is_none());
        assert_eq!(j["kept"], false);
        let back: MoveVerdict = serde_json::from_str(
            r#"{"number":1,"color":"white","played":"pass","vct":"a1 a2 a3"}"#,
        )
        .unwrap();
        assert_eq!(back.kept, None);
    }
}
