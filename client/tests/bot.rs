//! The quick bot: wins when it can, blocks fives and open threes, never
//! plays a forbidden point as black, answers every opening prompt, and
//! plays whole games of every rule set and opening through the referee's
//! state machine without a refused action.
//!
//! The referee (`Game`) only judges here; the bot sees what a client sees,
//! a [`Situation`] and the prompt.

use std::collections::BTreeSet;

use tengen_client::bot::{Rules, Situation, choose_stone, decide};
use tengen_rules::game::{
    Action, ActionKind, Event, ForbiddenHandling, Game, GameConfig, Opening, OfferSet, Prompt,
    ResultReason, RuleSet, Seat, TaraguchiOption, Task,
};
use tengen_rules::opening::check_offers;
use tengen_rules::{Board, Color, Point, Variant};

fn pts(s: &str) -> Vec<Point> {
    s.split_whitespace().map(|t| t.parse().unwrap()).collect()
}

fn board(black: &str, white: &str) -> Board {
    Board::with_stones(15, &pts(black), &pts(white)).unwrap()
}

const RENJU: Rules = Rules {
    variant: Variant::Renju,
};

#[test]
fn completes_its_own_five_before_anything_else() {
    // Black has an open four; white threatens a five of its own.
    let b = board("H8 I8 J8 K8", "C3 C4 C5 C6");
    for seed in 0..20 {
        let p = choose_stone(&b, Color::Black, RENJU, None, seed).unwrap();
        assert!(pts("G8 L8").contains(&p), "seed {seed}: {p}");
    }
}

#[test]
fn blocks_a_five() {
    let b = board("H8 A1", "C3 C4 C5 C6 C7 H2");
    for seed in 0..20 {
        let p = choose_stone(&b, Color::Black, RENJU, None, seed).unwrap();
        assert!(pts("C2 C8").contains(&p), "seed {seed}: {p}");
    }
}

#[test]
fn blocks_an_open_three() {
    // White's G7 H7 I7 would become an open four at F7 or J7.
    let b = board("H9 A1", "G7 H7 I7");
    for seed in 0..20 {
        let p = choose_stone(&b, Color::Black, RENJU, None, seed).unwrap();
        assert!(pts("F7 J7").contains(&p), "seed {seed}: {p}");
    }
}

#[test]
fn never_chooses_a_forbidden_point() {
    // H8 would make two open threes for black (a double three), and it is
    // the point with the best shape; in free-style it is the natural move.
    let b = board("F8 G8 H9 H10", "A1 A3 O15 O13");
    assert!(b.forbidden("H8".parse().unwrap()).is_some());
    let free = Rules {
        variant: Variant::Freestyle,
    };
    let mut chose_h8_in_freestyle = false;
    for seed in 0..20 {
        let p = choose_stone(&b, Color::Black, RENJU, None, seed).unwrap();
        assert!(b.forbidden(p).is_none(), "seed {seed}: {p}");
        chose_h8_in_freestyle |=
            choose_stone(&b, Color::Black, free, None, seed) == Some("H8".parse().unwrap());
    }
    assert!(
        chose_h8_in_freestyle,
        "the test position should tempt the bot"
    );
}

#[test]
fn respects_the_zone() {
    let b = Board::standard();
    assert_eq!(
        choose_stone(&b, Color::Black, RENJU, Some(1), 7),
        Some("H8".parse().unwrap())
    );
    let b = board("H8", "");
    for seed in 0..20 {
        let p = choose_stone(&b, Color::White, RENJU, Some(3), seed).unwrap();
        assert!((6..=8).contains(&p.x) && (6..=8).contains(&p.y), "{p}");
    }
}

fn pt(s: &str) -> Point {
    s.parse().unwrap()
}

fn split(board: &Board) -> (Vec<Point>, Vec<Point>) {
    let mut out = (Vec::new(), Vec::new());
    for (p, c) in board.stones() {
        match c {
            Color::Black => out.0.push(p),
            Color::White => out.1.push(p),
        }
    }
    out
}

/// A prompt as the server would send it for `task`.
fn prompt(task: Task, may: &[ActionKind]) -> Prompt {
    Prompt {
        seat: Seat::Second,
        task,
        may: may.to_vec(),
    }
}

/// What the bots chose over some games: every action kind, every
/// Taraguchi option, and the Swap2 choices by name.
#[derive(Default)]
struct Seen {
    kinds: BTreeSet<String>,
}

impl Seen {
    fn has(&self, name: &str) -> bool {
        self.kinds.contains(name)
    }
}

/// Plays a whole game bot against bot, the rules `Game` as referee: every
/// action must be accepted, black never plays a forbidden point, offers
/// are never equivalent, occupied or forbidden, nobody claims falsely.
fn self_play(config: &GameConfig, seed: u64, seen: &mut Seen) -> Game {
    let renju = config.rule_set == RuleSet::Renju;
    let mut game = Game::new(config.clone(), Seat::First, 0).unwrap();
    let mut now = 0;
    while let Some(prompt) = game.prompt(now) {
        now += 10;
        assert!(now < 10 * 1000, "{config:?} seed {seed}: the game never ends");
        let s = Situation::from_moves(game.board(), config, game.moves());
        let action = decide(&s, &prompt, seed ^ now);
        let board = game.board();
        match (prompt.task, action) {
            (Task::Place { color, .. }, Action::Place { point, .. }) => {
                if renju && color == Color::Black {
                    assert_eq!(board.forbidden(point), None, "seed {seed}: black {point}");
                }
            }
            (Task::OfferFifths { .. }, Action::OfferFifths { points }) => {
                let (black, white) = split(board);
                assert_eq!(check_offers(&black, &white, points.as_slice()), Ok(()));
                for &p in points.as_slice() {
                    assert_eq!(board.forbidden(p), None, "offer {p}");
                }
            }
            (Task::ChooseOption { .. }, Action::ChooseOption { option }) => {
                seen.kinds.insert(format!("{option:?}"));
            }
            (Task::Swap2Choice, a) => {
                seen.kinds.insert(format!("swap2 {:?}", a.kind()));
            }
            (_, Action::Pass { .. } | Action::Resign) => {
                panic!("seed {seed}: gave up on {prompt:?}")
            }
            _ => {}
        }
        seen.kinds.insert(format!("{:?}", action.kind()));
        game.apply(prompt.seat, action, now)
            .unwrap_or_else(|e| panic!("{config:?} seed {seed}: {action:?} refused: {e}"));
    }
    let result = game.result().expect("the game ends");
    assert!(
        matches!(
            result.reason,
            ResultReason::Five { .. } | ResultReason::BoardFull | ResultReason::BothPassed
        ),
        "{config:?} seed {seed}: {result:?}"
    );
    for seat in Seat::BOTH {
        assert_eq!(game.violations(seat), 0, "false claims");
    }
    if renju {
        // No black stone, the kept fifth included, was forbidden when played.
        let mut replay = Board::standard();
        for m in game.moves() {
            let Some(p) = m.point else { continue };
            if m.color == Color::Black {
                assert_eq!(replay.forbidden(p), None, "seed {seed}: black {p}");
            }
            replay.place(p, m.color).unwrap();
        }
    }
    game
}

/// Self-play of `opening` in every renju room, seeds `0..seeds`.
fn renju_games(opening: Opening, seeds: u64) -> Seen {
    let mut seen = Seen::default();
    let rooms = [
        ForbiddenHandling::Claim,
        ForbiddenHandling::Lose,
        ForbiddenHandling::Block,
    ];
    for (room, handling) in (0..).zip(rooms) {
        let config = GameConfig::new(RuleSet::Renju)
            .with_opening(opening)
            .with_forbidden(handling);
        for seed in 0..seeds {
            self_play(&config, 100 * room + seed, &mut seen);
        }
    }
    seen
}

#[test]
fn renju_free_opening() {
    let seen = renju_games(Opening::Free, 3);
    assert!(seen.has("Place"));
}

#[test]
fn rif_games() {
    let seen = renju_games(Opening::Rif, 4);
    for k in ["OfferFifths", "KeepFifth"] {
        assert!(seen.has(k), "{k}");
    }
    assert!(seen.has("Swap") || seen.has("Keep"));
}

#[test]
fn yamaguchi_games() {
    let seen = renju_games(Opening::Yamaguchi, 4);
    for k in ["DeclareOffers", "OfferFifths", "KeepFifth"] {
        assert!(seen.has(k), "{k}");
    }
}

#[test]
fn soosorv_games() {
    let seen = renju_games(Opening::SOOSORV, 4);
    for k in ["DeclareOffers", "OfferFifths", "KeepFifth"] {
        assert!(seen.has(k), "{k}");
    }
    // With N = 1 the single offer stands at once: no keep step.
    let seen = renju_games(Opening::Soosorv { n: 1 }, 1);
    assert!(seen.has("OfferFifths") && !seen.has("KeepFifth"));
}

#[test]
fn taraguchi_games() {
    let seen = renju_games(Opening::TARAGUCHI, 4);
    for k in ["Offers", "Single", "OfferFifths", "KeepFifth", "Swap", "Keep"] {
        assert!(seen.has(k), "{k}");
    }
    let seen = renju_games(Opening::Taraguchi { n: 2 }, 1);
    assert!(seen.has("Offers") && !seen.has("Single"));
}

#[test]
fn tarannikov_games() {
    let seen = renju_games(Opening::Tarannikov, 4);
    for k in ["Swap", "Keep"] {
        assert!(seen.has(k), "{k}");
    }
}

#[test]
fn gomoku_and_freestyle_games() {
    let mut seen = Seen::default();
    for rule_set in [RuleSet::Gomoku, RuleSet::Freestyle] {
        for opening in [Opening::Free, Opening::SwapAfterThree, Opening::Swap2] {
            let config = GameConfig::new(rule_set).with_opening(opening);
            for seed in 0..6 {
                self_play(&config, seed, &mut seen);
            }
        }
    }
    for k in [
        "swap2 Place",
        "swap2 Swap",
        "swap2 PlaceTwo",
        "DecideSwap",
    ]
    .iter()
    .filter(|k| !k.starts_with("Decide"))
    {
        assert!(seen.has(k), "{k}: {:?}", seen.kinds);
    }
    assert!(seen.has("Swap") && seen.has("Keep"));
}

#[test]
fn zz_debug() {
    for seed in 0..8u64 {
        let config = GameConfig::new(RuleSet::Gomoku).with_opening(Opening::Swap2);
        let mut game = Game::new(config.clone(), Seat::First, 0).unwrap();
        let mut now = 0;
        while let Some(prompt) = game.prompt(now) {
            now += 10;
            let s = Situation::from_moves(game.board(), &config, game.moves());
            let action = decide(&s, &prompt, seed ^ now);
            if matches!(prompt.task, Task::Swap2Choice) {
                eprintln!("seed {seed}: {:?} -> {action:?} {}", game.moves().iter().map(|m| m.point.unwrap().to_string()).collect::<Vec<_>>(), tengen_client::bot::debug_balance(&s));
                break;
            }
            game.apply(prompt.seat, action, now).unwrap();
        }
        let config = GameConfig::new(RuleSet::Renju).with_opening(Opening::TARAGUCHI);
        let mut game = Game::new(config.clone(), Seat::First, 0).unwrap();
        let mut now = 0;
        while let Some(prompt) = game.prompt(now) {
            now += 10;
            let s = Situation::from_moves(game.board(), &config, game.moves());
            let action = decide(&s, &prompt, seed ^ now);
            if matches!(prompt.task, Task::ChooseOption{..}) {
                eprintln!("seed {seed} now {now}: {action:?}");
                break;
            }
            game.apply(prompt.seat, action, now).unwrap();
        }
    }
}
