//! The bridge's draw and resignation policies, chosen by the engine's
//! owner (`tengen engine --accept-draw`, `--resign`), and the evaluation
//! read from the engine's own lines that they may depend on.
//!
//! Why a module of its own: these are the owner's choices, stated once
//! and tested apart from the game loop that applies them.
//!
//! **Evaluations parsed**: a `MESSAGE` or `DEBUG` line with a word `ev`
//! or `eval` (any case, optionally ending in `:` or `=`) followed by a
//! signed integer, or joined to it (`ev=-350`, `eval:120`), as Yixin and
//! Rapfi print; a mate score `+M7`/`-M7` (or `M7`) counts as +/-20000.
//! The score is our side's, the engine's own scale (Rapfi and Yixin:
//! roughly centi-stones). An engine that reports none never resigns, and
//! `when-behind` never accepts a draw for it.

use std::str::FromStr;

/// When a draw offer is accepted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DrawPolicy {
    /// The built-in bot's judgement: only on a nearly full board (at most
    /// one row's worth of empty points) where we cannot make five now.
    #[default]
    Board,
    /// Never.
    Never,
    /// Always.
    Always,
    /// When the engine's latest evaluation is below zero.
    WhenBehind,
    /// Once the game has at least this many moves.
    AfterMove(u32),
}

/// When the bridge resigns by choice (it always resigns for an engine that
/// failed twice in a game).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ResignPolicy {
    /// Never by choice.
    #[default]
    Never,
    /// When the engine's latest evaluation is below this.
    EvalBelow(i32),
}

/// The owner's policies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Policy {
    pub draw: DrawPolicy,
    pub resign: ResignPolicy,
}

impl Policy {
    /// Whether to accept a draw offered now: `None` leaves it to the
    /// built-in bot's judgement.
    pub fn accept_draw(&self, moves: usize, eval: Option<i32>) -> Option<bool> {
        match self.draw {
            DrawPolicy::Board => None,
            DrawPolicy::Never => Some(false),
            DrawPolicy::Always => Some(true),
            DrawPolicy::WhenBehind => Some(eval.is_some_and(|e| e < 0)),
            DrawPolicy::AfterMove(n) => Some(moves >= n as usize),
        }
    }

    /// Whether to resign now, given the engine's latest evaluation.
    pub fn resign(&self, eval: Option<i32>) -> bool {
        match self.resign {
            ResignPolicy::Never => false,
            ResignPolicy::EvalBelow(x) => eval.is_some_and(|e| e < x),
        }
    }
}

impl FromStr for DrawPolicy {
    type Err = String;

    /// `board`, `never`, `always`, `when-behind`, `after-move N` (or
    /// `after-move=N`).
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim().to_ascii_lowercase();
        let n = s
            .strip_prefix("after-move")
            .map(|n| n.trim_start_matches([' ', '=']));
        match (s.as_str(), n) {
            ("board", _) => Ok(DrawPolicy::Board),
            ("never", _) => Ok(DrawPolicy::Never),
            ("always", _) => Ok(DrawPolicy::Always),
            ("when-behind", _) => Ok(DrawPolicy::WhenBehind),
            (_, Some(n)) => n
                .parse()
                .map(DrawPolicy::AfterMove)
                .map_err(|_| format!("'{s}': after-move takes a number of moves")),
            _ => Err(format!(
                "'{s}': expected board, never, always, when-behind or after-move N"
            )),
        }
    }
}

impl FromStr for ResignPolicy {
    type Err = String;

    /// `never`, `eval-below X` (or `eval-below=X`).
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim().to_ascii_lowercase();
        if s == "never" {
            return Ok(ResignPolicy::Never);
        }
        let x = s
            .strip_prefix("eval-below")
            .map(|x| x.trim_start_matches([' ', '=']))
            .ok_or_else(|| format!("'{s}': expected never or eval-below X"))?;
        x.parse()
            .map(ResignPolicy::EvalBelow)
            .map_err(|_| format!("'{s}': eval-below takes a whole number"))
    }
}

/// The evaluation in an engine's `MESSAGE`/`DEBUG` text, if it reports
/// one (see the module doc for the forms read).
pub fn evaluation(text: &str) -> Option<i32> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == '|' || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    for (i, w) in words.iter().enumerate() {
        let lower = w.to_ascii_lowercase();
        for key in ["eval", "ev"] {
            let Some(rest) = lower.strip_prefix(key) else {
                continue;
            };
            let rest = rest.trim_start_matches([':', '=']);
            let value = if rest.is_empty() {
                words.get(i + 1).map(|v| v.to_ascii_lowercase())
            } else if rest.starts_with(|c: char| c.is_ascii_digit() || "+-m".contains(c)) {
                Some(rest.to_string())
            } else {
                None
            };
            if let Some(v) = value.as_deref().and_then(score) {
                return Some(v);
            }
        }
    }
    None
}

/// A score: a signed integer, or a mate `+M7`/`-M7`/`M7`.
fn score(v: &str) -> Option<i32> {
    let (sign, rest) = match v.strip_prefix('-') {
        Some(r) => (-1, r),
        None => (1, v.strip_prefix('+').unwrap_or(v)),
    };
    if let Some(m) = rest.strip_prefix('m') {
        return m.parse::<u32>().ok().map(|_| sign * 20_000);
    }
    rest.parse::<i32>().ok().map(|n| sign * n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluations_are_read_in_the_forms_engines_print() {
        assert_eq!(evaluation("depth 12 ev -350 n 1000"), Some(-350));
        assert_eq!(evaluation("depth 10-14 | eval 123 | time 500"), Some(123));
        assert_eq!(evaluation("EV=+42"), Some(42));
        assert_eq!(evaluation("eval: -M5 pv h8"), Some(-20_000));
        assert_eq!(evaluation("ev M3"), Some(20_000));
        assert_eq!(evaluation("evening thoughts 12"), None);
        assert_eq!(evaluation("ev bad"), None);
        assert_eq!(evaluation("hello"), None);
    }

    #[test]
    fn policies_parse_and_decide() {
        assert_eq!("never".parse(), Ok(DrawPolicy::Never));
        assert_eq!("after-move 60".parse(), Ok(DrawPolicy::AfterMove(60)));
        assert_eq!("after-move=7".parse(), Ok(DrawPolicy::AfterMove(7)));
        assert!("sometimes".parse::<DrawPolicy>().is_err());
        assert_eq!("eval-below -900".parse(), Ok(ResignPolicy::EvalBelow(-900)));
        assert!("eval-below x".parse::<ResignPolicy>().is_err());
        let p = Policy {
            draw: DrawPolicy::WhenBehind,
            resign: ResignPolicy::EvalBelow(-900),
        };
        assert_eq!(p.accept_draw(10, Some(-5)), Some(true));
        assert_eq!(p.accept_draw(10, Some(5)), Some(false));
        assert_eq!(p.accept_draw(10, None), Some(false));
        assert!(p.resign(Some(-901)) && !p.resign(Some(-900)) && !p.resign(None));
        assert_eq!(Policy::default().accept_draw(200, Some(-1)), None);
        assert!(!Policy::default().resign(Some(-30_000)));
        let after = Policy {
            draw: DrawPolicy::AfterMove(30),
            ..Policy::default()
        };
        assert_eq!(after.accept_draw(29, None), Some(false));
        assert_eq!(after.accept_draw(30, None), Some(true));
    }
}
