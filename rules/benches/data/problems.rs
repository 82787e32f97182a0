//! The solver problem sets of `tests/data/` (published VCF problems, VCT
//! game positions), parsed: shared by the `analysis` benchmark, the
//! `solve_times` example and the `analysis` tests (each includes this file
//! with `#[path]`).
#![allow(dead_code)]

use tengen_rules::{Board, Color, Point};

pub struct Problem {
    pub name: String,
    pub attacker: Color,
    /// `vcf` or `vct`.
    pub kind: &'static str,
    /// The published length in attacker moves; `None` for a "none within"
    /// case, whose depth limit is `limit`.
    pub length: Option<usize>,
    pub limit: u8,
    pub board: Board,
}

pub fn vcf() -> Vec<Problem> {
    parse(include_str!("../../tests/data/vcf-problems.txt"))
}

pub fn vct() -> Vec<Problem> {
    parse(include_str!("../../tests/data/vct-problems.txt"))
}

fn parse(text: &str) -> Vec<Problem> {
    let mut out = Vec::new();
    for block in text.split("\n\n") {
        let lines: Vec<&str> = block
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .collect();
        if lines.is_empty() {
            continue;
        }
        let field = |key: &str| {
            lines
                .iter()
                .find_map(|l| l.strip_prefix(key))
                .map(str::trim)
        };
        let attacker = match field("attacker:") {
            Some("black") => Color::Black,
            Some("white") => Color::White,
            other => panic!("bad attacker {other:?}"),
        };
        let (kind, length, limit) = match (field("vcf:"), field("vct:"), field("none-within:")) {
            (Some(n), _, _) => ("vcf", Some(n.parse().unwrap()), u8::MAX),
            (_, Some(n), _) => ("vct", Some(n.parse().unwrap()), n.parse().unwrap()),
            (_, _, Some(n)) => ("vcf", None, n.parse().unwrap()),
            _ => panic!("a problem needs a length"),
        };
        let at = lines.iter().position(|l| *l == "board:").unwrap();
        let mut board = Board::standard();
        for (i, row) in lines[at + 1..].iter().enumerate() {
            let cells = row.chars().filter(|c| !c.is_whitespace());
            for (x, c) in cells.enumerate() {
                let color = match c {
                    'X' => Color::Black,
                    'O' => Color::White,
                    _ => continue,
                };
                board
                    .place(Point::new(x as u8, 14 - i as u8), color)
                    .unwrap();
            }
        }
        out.push(Problem {
            name: field("name:").unwrap().to_string(),
            attacker,
            kind,
            length,
            limit,
            board,
        });
    }
    out
}
