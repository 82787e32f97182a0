//! The strongest level against the referee's solvers, on a committed set
//! of positions (`tests/data/positions.txt`, taken from the ladder's
//! renju games): where the side to move has a VCF, or a VCT of up to seven
//! moves, the bot's move begins one (the referee's `analyze_moves` says
//! whether a move kept the win); where the opponent has a VCF, or a VCT of
//! up to three moves, and some move stops it, the bot's move stops it
//! (after it the solvers find none).
//!
//! The set is made by the ignored `mine` below from game records
//! (`LADDER_GAMES`: files of the ladder runner's output), each position
//! checked with the solvers then, and again here.

use tengen_bot::{Bot, Level, Situation, TimeBudget};
use tengen_rules::analysis::{self, Budget, Outcome, analyze_moves};
use tengen_rules::game::{GameConfig, Prompt, RuleSet, Seat, Task};
use tengen_rules::{Board, Color, Point, Variant};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/positions.txt");
const VARIANT: Variant = Variant::Renju;
/// The solvers' budgets for the verdicts (generous: they judge the bot).
const CHECK: Budget = Budget::new(1_000_000, u8::MAX);
const VCT7: Budget = Budget::new(300_000, 7);
const VCT3: Budget = Budget::new(300_000, 3);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Vcf,
    Vct,
    DefendVcf,
    DefendVct,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Vcf => "vcf",
            Kind::Vct => "vct",
            Kind::DefendVcf => "defend-vcf",
            Kind::DefendVct => "defend-vct",
        }
    }

    fn parse(s: &str) -> Option<Kind> {
        [Kind::Vcf, Kind::Vct, Kind::DefendVcf, Kind::DefendVct]
            .into_iter()
            .find(|k| k.name() == s)
    }
}

fn colour(i: usize) -> Color {
    if i.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    }
}

fn board_of(moves: &[Point]) -> Board {
    let mut b = Board::new(15).unwrap();
    for (i, &p) in moves.iter().enumerate() {
        b.place(p, colour(i)).unwrap();
    }
    b
}

/// Whether `attacker` (to move on `board`) has a forced win within
/// `budget`.
fn wins(board: &Board, attacker: Color, vct: Option<Budget>) -> bool {
    let found = match vct {
        None => analysis::vcf(board, attacker, VARIANT, CHECK),
        Some(b) => analysis::vct(board, attacker, VARIANT, b),
    };
    matches!(found, Outcome::Win(_))
}

/// The kind of `moves`' position (the side to move by the count), if it
/// is one the set keeps.
fn kind_of(moves: &[Point]) -> Option<Kind> {
    let board = board_of(moves);
    let me = colour(moves.len());
    let opp = me.opponent();
    if wins(&board, me, None) {
        return Some(Kind::Vcf);
    }
    if wins(&board, me, Some(VCT7)) {
        return Some(Kind::Vct);
    }
    let threat = if wins(&board, opp, None) {
        Kind::DefendVcf
    } else if wins(&board, opp, Some(VCT3)) {
        Kind::DefendVct
    } else {
        return None;
    };
    // Only positions where some move stops it.
    (!defences(&board, me, threat).is_empty()).then_some(threat)
}

/// Every move of `me` after which the opponent's threat of `kind` is gone.
fn defences(board: &Board, me: Color, kind: Kind) -> Vec<Point> {
    let opp = me.opponent();
    let mut out = Vec::new();
    let mut after = board.clone();
    for p in board.points() {
        if !board.is_empty_point(p)
            || (me == Color::Black && board.forbidden(p).is_some())
            || !near(board, p)
        {
            continue;
        }
        after.place(p, me).unwrap();
        let still =
            wins(&after, opp, None) || (kind == Kind::DefendVct && wins(&after, opp, Some(VCT3)));
        after.remove(p);
        if !still {
            out.push(p);
        }
    }
    out
}

fn near(board: &Board, p: Point) -> bool {
    (-2..=2).any(|dx| {
        (-2..=2).any(|dy| {
            p.offset(dx, dy, board.size())
                .is_some_and(|q| board.get(q).is_some())
        })
    })
}

fn load() -> Vec<(Kind, Vec<Point>)> {
    std::fs::read_to_string(DATA)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut words = l.split_whitespace();
            let kind = Kind::parse(words.next().unwrap()).unwrap();
            let moves = words.map(|w| w.parse().unwrap()).collect();
            (kind, moves)
        })
        .collect()
}

/// The strongest level's move in `moves`' position, a second to think
/// (counted in clock readings, not read off the machine's clock).
fn bot_move(moves: &[Point]) -> Point {
    let board = board_of(moves);
    let config = GameConfig::new(RuleSet::Renju);
    let me = colour(moves.len());
    let prompt = Prompt {
        seat: Seat::First,
        task: Task::Place {
            color: me,
            move_number: moves.len() as u32 + 1,
            within: None,
        },
        may: Vec::new(),
        stones_left: None,
        other_may: Vec::new(),
    };
    let s = Situation {
        board: &board,
        config: &config,
        last_stone: moves.last().copied(),
    };
    // A clock that counts its own readings (the search reads it every 512
    // nodes): the search is the same on a busy machine as on a quiet one.
    // A reading is a millisecond, so a second is about 512,000 nodes.
    let readings = std::sync::atomic::AtomicU64::new(0);
    let clock = || readings.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut bot = Bot::new(Level::strongest(), 1);
    match bot.decide(&s, &prompt, &clock, TimeBudget::per_move(1_000)) {
        tengen_rules::game::Action::Place { point, .. } => point,
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_strongest_level_wins_and_defends_where_the_solvers_say_it_can() {
    let set = load();
    assert!(set.len() >= 30, "{} positions", set.len());
    for kind in [Kind::Vcf, Kind::Vct, Kind::DefendVcf, Kind::DefendVct] {
        assert!(set.iter().any(|(k, _)| *k == kind), "no {}", kind.name());
    }
    let mut failures = Vec::new();
    for (kind, moves) in &set {
        assert_eq!(kind_of(moves), Some(*kind), "the set's {kind:?} {moves:?}");
        let p = bot_move(moves);
        let ok = match kind {
            Kind::Vcf | Kind::Vct => {
                let mut all: Vec<(Color, Option<Point>)> = moves
                    .iter()
                    .enumerate()
                    .map(|(i, &q)| (colour(i), Some(q)))
                    .collect();
                all.push((colour(moves.len()), Some(p)));
                let vct = (*kind == Kind::Vct).then_some(VCT7);
                let a = analyze_moves(15, VARIANT, &all, CHECK, vct).unwrap();
                let last = a.last().unwrap();
                match kind {
                    Kind::Vcf => last.vcf_kept == Some(true),
                    _ => last.vct_kept == Some(true) || last.vcf_kept == Some(true),
                }
            }
            _ => defences(&board_of(moves), colour(moves.len()), *kind).contains(&p),
        };
        if !ok {
            let line: Vec<String> = moves.iter().map(|q| q.to_lower()).collect();
            failures.push(format!("{} {} -> {p}", kind.name(), line.join(" ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Makes the set from game records: `LADDER_GAMES=a.txt:b.txt cargo test
/// -p tengen-bot --release --test it mine -- --ignored`, the files the
/// ladder runner's output (each game line ends with its moves).
#[test]
#[ignore = "writes tests/data/positions.txt from LADDER_GAMES"]
fn mine() {
    let files = std::env::var("LADDER_GAMES").expect("LADDER_GAMES");
    let mut found: Vec<(Kind, Vec<Point>)> = Vec::new();
    let per_kind = 10;
    let full = |found: &[(Kind, Vec<Point>)]| {
        [Kind::Vcf, Kind::Vct, Kind::DefendVcf, Kind::DefendVct]
            .iter()
            .all(|k| found.iter().filter(|(f, _)| f == k).count() >= per_kind)
    };
    'files: for file in files.split(':') {
        let text = std::fs::read_to_string(file).unwrap();
        for line in text.lines().filter(|l| l.starts_with("game ")) {
            let moves: Vec<Point> = line
                .split_whitespace()
                .rev()
                .take_while(|w| w.parse::<Point>().is_ok())
                .map(|w| w.parse().unwrap())
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            if full(&found) {
                break 'files;
            }
            // One position a game, from its last moves back: the tactics
            // come late.
            for n in (6..moves.len()).rev().step_by(3) {
                let prefix = &moves[..n];
                if let Some(k) = kind_of(prefix)
                    && found.iter().filter(|(f, _)| *f == k).count() < per_kind
                {
                    found.push((k, prefix.to_vec()));
                    break;
                }
            }
        }
    }
    let mut out = String::from(
        "# Positions for the strongest level (tests/it/positions.rs): a kind\n\
         # (vcf, vct: the side to move has one; defend-vcf, defend-vct: the\n\
         # opponent has one and some move stops it), then the moves from H8,\n\
         # black first, under renju. Taken from the ladder's games by `mine`.\n",
    );
    for (k, moves) in &found {
        let words: Vec<String> = moves.iter().map(|p| p.to_lower()).collect();
        out.push_str(&format!("{} {}\n", k.name(), words.join(" ")));
    }
    std::fs::write(DATA, out).unwrap();
}
