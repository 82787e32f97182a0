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
    Action, ActionKind, ForbiddenHandling, Game, GameConfig, OfferSet, Opening, Prompt,
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
        other_may: Vec::new(),
        stones_left: None,
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
        assert!(
            now < 10 * 1000,
            "{config:?} seed {seed}: the game never ends"
        );
        let s =
            Situation::from_moves(game.board(), config, game.moves()).with_second(game.board_at(1));
        let action = decide(&s, &prompt, seed ^ now);
        let board = game.board();
        match (prompt.task, action) {
            (Task::Place { color, .. }, Action::Place { point, .. })
                if renju && color == Color::Black =>
            {
                assert_eq!(board.forbidden(point), None, "seed {seed}: black {point}");
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
            (Task::SuperSakataChoice { .. }, a) => {
                seen.kinds.insert(format!("sakata {:?}", a.kind()));
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
            ResultReason::Five { .. }
                | ResultReason::BoardFull
                | ResultReason::BothPassed
                // Twin rooms: a bot completes a five on one board only when
                // nothing else is free, so its games end on both boards.
                | ResultReason::TwinFives { .. }
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
    for k in [
        "Offers",
        "Single",
        "OfferFifths",
        "KeepFifth",
        "Swap",
        "Keep",
    ] {
        assert!(seen.has(k), "{k}");
    }
    let seen = renju_games(Opening::Taraguchi { n: 2 }, 1);
    assert!(seen.has("Offers") && !seen.has("Single"));
}

#[test]
fn jonsson_and_the_yamaguchi_forms() {
    for opening in [
        Opening::Jonsson,
        Opening::Yamaguchi52,
        Opening::YamaguchiVariant,
    ] {
        let seen = renju_games(opening, 2);
        for k in ["DeclareOffers", "OfferFifths", "KeepFifth"] {
            assert!(seen.has(k), "{opening}: {k}");
        }
    }
}

#[test]
fn sakata_and_super_sakata_games() {
    let seen = renju_games(Opening::Sakata, 2);
    assert!(seen.has("Swap") || seen.has("Keep"));
    assert!(!seen.has("PlaceTwo"));
    let seen = renju_games(Opening::SuperSakata, 4);
    for k in ["sakata PlaceTwo", "sakata Swap", "sakata Keep"] {
        assert!(seen.has(k), "{k}: {:?}", seen.kinds);
    }
}

#[test]
fn tarannikov_games() {
    let seen = renju_games(Opening::Tarannikov, 4);
    for k in ["Swap", "Keep"] {
        assert!(seen.has(k), "{k}");
    }
}

#[test]
fn twin_games_on_two_boards_end_on_both() {
    let mut seen = Seen::default();
    let config = GameConfig::new(RuleSet::Twin);
    for seed in 0..4 {
        let game = self_play(&config, seed, &mut seen);
        let reason = &game.result().unwrap().reason;
        assert!(
            matches!(
                reason,
                ResultReason::TwinFives { .. } | ResultReason::BoardFull
            ),
            "seed {seed}: {reason:?}"
        );
    }
    assert!(seen.has("Place"));
}

#[test]
fn gomoku_and_freestyle_games() {
    let mut seen = Seen::default();
    for rule_set in [RuleSet::Gomoku, RuleSet::Freestyle] {
        for opening in [Opening::Free, Opening::SwapAfterThree, Opening::Swap2] {
            let config = GameConfig::new(rule_set).with_opening(opening);
            for seed in 0..4 {
                self_play(&config, seed, &mut seen);
            }
        }
    }
    // Free-style on the 19x19 board.
    let big = GameConfig::new(RuleSet::Freestyle)
        .with_size(19)
        .with_opening(Opening::Swap2);
    self_play(&big, 7, &mut seen);
    for k in [
        "swap2 Place",
        "swap2 Swap",
        "swap2 PlaceTwo",
        "Swap",
        "Keep",
    ] {
        assert!(seen.has(k), "{k}: {:?}", seen.kinds);
    }
}

/// Scripted stones in a free renju game (both sides, as a human would).
fn scripted(handling: ForbiddenHandling, moves: &str) -> (Game, GameConfig, u64) {
    let config = GameConfig::new(RuleSet::Renju).with_forbidden(handling);
    let mut game = Game::new(config.clone(), Seat::First, 0).unwrap();
    let mut now = 0;
    for p in pts(moves) {
        now += 10;
        let seat = game.to_act().unwrap();
        game.apply(seat, Action::place(p), now).unwrap();
    }
    (game, config, now)
}

/// The bot's action for the game's current prompt.
fn bot_action(game: &Game, config: &GameConfig, now: u64, seed: u64) -> (Prompt, Action) {
    let prompt = game.prompt(now).unwrap();
    let s = Situation::from_moves(game.board(), config, game.moves());
    let action = decide(&s, &prompt, seed);
    (prompt, action)
}

// Black H8 I8 J9 J10, then J8: horizontal H8-I8-J8 and vertical J8-J9-J10,
// two open threes. White's stones are far away.
const BEFORE_DOUBLE_THREE: &str = "H8 A1 I8 A3 J9 O15 J10 O13";

#[test]
fn claims_a_forbidden_stone_and_wins() {
    let (b, _, _) = scripted(ForbiddenHandling::Claim, BEFORE_DOUBLE_THREE);
    assert!(
        b.board().forbidden(pt("J8")).is_some(),
        "the script's premise"
    );
    for seed in 0..5 {
        let (mut game, config, now) = scripted(
            ForbiddenHandling::Claim,
            &format!("{BEFORE_DOUBLE_THREE} J8"),
        );
        let (prompt, action) = bot_action(&game, &config, now, seed);
        assert_eq!(action, Action::claim(pt("J8")));
        game.apply(prompt.seat, action, now + 10).unwrap();
        let result = game.result().unwrap();
        assert!(
            matches!(result.reason, ResultReason::ForbiddenClaimed { point, .. } if point == pt("J8"))
        );
    }
}

#[test]
fn never_claims_falsely() {
    // A legal last stone, with a forbidden point still open on the board;
    // a forbidden stone no longer the last (white has moved since).
    let cases = [
        format!("{BEFORE_DOUBLE_THREE} A15"),
        format!("{BEFORE_DOUBLE_THREE} J8 N2 B15"),
    ];
    for moves in cases {
        for seed in 0..5 {
            let (mut game, config, now) = scripted(ForbiddenHandling::Claim, &moves);
            let (prompt, action) = bot_action(&game, &config, now, seed);
            assert!(
                matches!(action, Action::Place { .. }),
                "{moves}: {action:?}"
            );
            game.apply(prompt.seat, action, now + 10).unwrap();
            assert_eq!(game.violations(prompt.seat), 0);
        }
    }
}

#[test]
fn ten_offers_are_legal_and_pairwise_different() {
    let renju = GameConfig::new(RuleSet::Renju);
    // A symmetric opening (many equivalent points), an asymmetric one with
    // white 4, and a crowded position with a forbidden point (H8) nearby.
    let boards = [
        board("H8 H10", "H9"),
        board("H8 J10", "I9 G7"),
        board("F8 G8 H9 H10", "A1 A3 O15 O13"),
    ];
    for b in &boards {
        for seed in 0..3 {
            let s = Situation::new(b, &renju, None);
            let task = Task::OfferFifths { count: 10 };
            let Action::OfferFifths { points } =
                decide(&s, &prompt(task, &[ActionKind::OfferFifths]), seed)
            else {
                panic!("no offers");
            };
            let (black, white) = split(b);
            assert_eq!(points.len(), 10);
            assert_eq!(check_offers(&black, &white, points.as_slice()), Ok(()));
            assert!(points.as_slice().iter().all(|&p| b.forbidden(p).is_none()));
        }
    }
}

#[test]
fn keeps_the_offer_worst_for_black() {
    // I9 gives black an open three on the diagonal; A1 is wasted.
    let b = board("H8 J10", "H9 G10");
    let config = GameConfig::new(RuleSet::Renju);
    let offers = OfferSet::new(&pts("I9 A1")).unwrap();
    for seed in 0..5 {
        let s = Situation::new(&b, &config, None);
        let task = Task::KeepFifth { offers };
        let action = decide(&s, &prompt(task, &[ActionKind::KeepFifth]), seed);
        assert_eq!(action, Action::KeepFifth { point: pt("A1") });
    }
}

#[test]
fn swaps_to_the_winning_side() {
    // Black to move with an open three: it makes an open four.
    let b = board("H8 I8 J8", "A1 A3 O15");
    let config = GameConfig::new(RuleSet::Gomoku);
    let s = Situation::new(&b, &config, None);
    let may = [ActionKind::Swap, ActionKind::Keep];
    for seed in 0..10 {
        let ask = |color| decide(&s, &prompt(Task::DecideSwap { color }, &may), seed);
        assert_eq!(ask(Color::White), Action::Swap);
        assert_eq!(ask(Color::Black), Action::Keep);
    }
    // Swap2: three black stones in a row against one white is too much.
    let b = board("H8 I8 J8", "A1");
    let s = Situation::new(&b, &config, None);
    for seed in 0..10 {
        let may = [ActionKind::Place, ActionKind::Swap, ActionKind::PlaceTwo];
        assert_eq!(
            decide(&s, &prompt(Task::Swap2Choice, &may), seed),
            Action::Swap
        );
    }
}

#[test]
fn small_answers() {
    let config = GameConfig::new(RuleSet::Renju);
    let b = board("H8 J10", "I9 G7");
    let s = Situation::new(&b, &config, None);
    for seed in 0..20 {
        for max in 1..=10 {
            let task = Task::DeclareOffers { max };
            let a = decide(&s, &prompt(task, &[ActionKind::DeclareOffers]), seed);
            let Action::DeclareOffers { count } = a else {
                panic!("{a:?}")
            };
            assert!((1..=max.min(4)).contains(&count), "{count} of {max}");
        }
        for offers in 1..=3 {
            let task = Task::ChooseOption { offers };
            let a = decide(&s, &prompt(task, &[ActionKind::ChooseOption]), seed);
            assert_eq!(
                a,
                Action::ChooseOption {
                    option: TaraguchiOption::Offers
                }
            );
        }
    }
}

#[test]
fn draws_only_on_a_nearly_full_board() {
    let config = GameConfig::new(RuleSet::Gomoku);
    let may = [
        ActionKind::Place,
        ActionKind::AcceptDraw,
        ActionKind::DeclineDraw,
    ];
    let task = Task::Place {
        color: Color::Black,
        move_number: 9,
        within: None,
    };
    let early = board("H8 I9 G7 J4", "H9 I8 G8 K4");
    let a = decide(
        &Situation::new(&early, &config, None),
        &prompt(task, &may),
        1,
    );
    assert!(matches!(a, Action::Place { .. }), "{a:?}");
    // A board filled in stripes of two (no five anywhere), ten points left.
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for p in Board::standard().points().skip(10) {
        if (p.x / 2 + p.y) % 2 == 0 {
            black.push(p)
        } else {
            white.push(p)
        }
    }
    let full = Board::with_stones(15, &black, &white).unwrap();
    assert!(full.find_winner(Variant::Gomoku).is_none());
    let a = decide(
        &Situation::new(&full, &config, None),
        &prompt(task, &may),
        1,
    );
    assert_eq!(a, Action::AcceptDraw);
}

#[test]
fn gives_up_only_when_nothing_is_playable() {
    let config = GameConfig::new(RuleSet::Renju);
    let b = board("H8", "");
    let s = Situation::new(&b, &config, Some(pt("H8")));
    let task = Task::Place {
        color: Color::Black,
        move_number: 2,
        within: Some(1),
    };
    assert_eq!(
        decide(&s, &prompt(task, &[ActionKind::Place]), 0),
        Action::Resign
    );
    let may = [ActionKind::Place, ActionKind::Pass];
    assert_eq!(decide(&s, &prompt(task, &may), 0), Action::pass());
    let task = Task::Place {
        color: Color::Black,
        move_number: 2,
        within: Some(3),
    };
    assert!(matches!(
        decide(&s, &prompt(task, &may), 0),
        Action::Place { .. }
    ));
}
