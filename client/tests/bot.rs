//! The quick bot: wins when it can, blocks fives and open threes, never
//! plays a forbidden point as black, and plays whole games through the
//! referee's state machine without a refused action.

use tengen_client::bot::{Rules, choose_stone};
use tengen_rules::game::{
    Action, ForbiddenHandling, Game, GameConfig, ResultReason, RuleSet, Seat, Task,
};
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

/// Plays a whole game bot against bot; every action must be accepted.
fn self_play(config: GameConfig, seed: u64) -> Game {
    let rules = Rules {
        variant: config.rule_set.variant(),
    };
    let mut game = Game::new(config, Seat::First, 0).unwrap();
    let mut now = 0;
    while let Some(prompt) = game.prompt(now) {
        now += 10;
        let action = match prompt.task {
            Task::Place { color, within, .. } => {
                let p = choose_stone(game.board(), color, rules, within, seed ^ now)
                    .expect("a playable point");
                Action::Place {
                    point: p,
                    offer_draw: false,
                }
            }
            Task::DecideSwap { .. } => {
                if seed % 2 == 0 {
                    Action::Swap
                } else {
                    Action::Keep
                }
            }
            other => panic!("task not handled: {other:?}"),
        };
        game.apply(prompt.seat, action, now)
            .unwrap_or_else(|e| panic!("seed {seed}: {action:?} refused: {e}"));
    }
    game
}

#[test]
fn whole_games_in_every_rule_set() {
    let configs = [
        GameConfig::new(RuleSet::Freestyle),
        GameConfig::new(RuleSet::Gomoku),
        GameConfig::new(RuleSet::Renju).with_forbidden(ForbiddenHandling::Block),
        GameConfig::new(RuleSet::Renju).with_forbidden(ForbiddenHandling::Lose),
        GameConfig::new(RuleSet::Renju).with_forbidden(ForbiddenHandling::Claim),
    ];
    for config in configs {
        for seed in 0..6 {
            let game = self_play(config.clone(), seed);
            let result = game.result().expect("the game ends");
            assert!(
                matches!(
                    result.reason,
                    ResultReason::Five { .. } | ResultReason::BoardFull
                ),
                "{:?} seed {seed}: {result:?}",
                config.rule_set
            );
            // No black stone of the bot's was forbidden when played.
            if config.rule_set == RuleSet::Renju {
                let mut replay = Board::standard();
                for m in game.moves() {
                    let p = m.point.unwrap();
                    if m.color == Color::Black {
                        assert!(
                            replay.forbidden(p).is_none(),
                            "seed {seed}: black {p} was forbidden"
                        );
                    }
                    replay.place(p, m.color).unwrap();
                }
            }
        }
    }
}
