//! The puzzles' documents and scored indexes, by name (`puzzles` writes
//! and reads them, the miner writes them).

use tengen_protocol::PuzzleTheme;
use tengen_store::ScorePut;
use tengen_study::puzzle::Puzzle;

pub(super) fn doc_key(id: &str) -> String {
    format!("p:{id}")
}

pub(super) fn game_index(game: &str) -> String {
    format!("game:{game}")
}

/// A puzzle's entries in the scored indexes.
pub(super) fn scores(p: &Puzzle) -> Vec<ScorePut> {
    let rating = p.rating.round() as i64;
    let mut out = vec![
        ScorePut {
            index: "rating".into(),
            member: p.id.clone(),
            score: Some(rating),
        },
        ScorePut {
            index: game_index(&p.game),
            member: p.id.clone(),
            score: Some(i64::from(p.move_number)),
        },
    ];
    out.extend(p.themes.iter().map(|&t| ScorePut {
        index: theme_index(t),
        member: p.id.clone(),
        score: Some(rating),
    }));
    out
}

/// The index names of a theme.
pub(super) fn theme_index(t: PuzzleTheme) -> String {
    let name = match t {
        PuzzleTheme::Vcf => "vcf",
        PuzzleTheme::Vct => "vct",
        PuzzleTheme::Black => "black",
        PuzzleTheme::White => "white",
        PuzzleTheme::Forbidden => "forbidden",
    };
    format!("theme:{name}")
}
