//! The bot in twin rooms (two boards, docs/rules.md §9): it wins when fives
//! are open on both boards, and does not complete a five on one board only
//! (whole bot-against-bot twin games are played in `bot.rs`).

use tengen_client::bot::{Situation, decide};
use tengen_rules::game::{Action, Game, GameConfig, ResultReason, RuleSet, Seat};
use tengen_rules::{Color, Point};

fn situation<'a>(game: &'a Game, config: &'a GameConfig) -> Situation<'a> {
    Situation::from_moves(game.board(), config, game.moves()).with_second(game.board_at(1))
}

/// Plays `stones` (`"2:K10"`: board 2) by the seat to act.
fn play(game: &mut Game, stones: &str) {
    for (i, tok) in stones.split_whitespace().enumerate() {
        let (b, pt) = tok.split_once(':').unwrap();
        let board = b.parse::<u8>().unwrap() - 1;
        let seat = game.to_act().unwrap();
        let point: Point = pt.parse().unwrap();
        game.apply(seat, Action::place_on(board, point), i as u64)
            .unwrap();
    }
}

/// Black to fours on both boards (A10–D10 on board 1; A10, B10, C10 and
/// E10 on board 2), white down the A file with gaps; black to move.
const FOURS: &str = "1:A10  1:A1 2:A1  1:B10 2:A10  1:A2 2:A2  1:C10 2:B10  1:A3 2:A3  \
                     1:D10 2:C10  1:A5 2:A5  2:E10 1:S1  1:A7 2:A7";

#[test]
fn the_bot_closes_both_fours_in_one_turn() {
    let config = GameConfig::new(RuleSet::Twin);
    for seed in 0..3 {
        let mut game = Game::new(config.clone(), Seat::First, 0).unwrap();
        play(&mut game, FOURS);
        for _ in 0..2 {
            let prompt = game.prompt(100).unwrap();
            let action = decide(&situation(&game, &config), &prompt, seed);
            game.apply(prompt.seat, action, 100).unwrap();
        }
        let r = game.result().expect("black wins in this turn");
        assert!(matches!(r.reason, ResultReason::TwinFives { .. }), "{r:?}");
        assert_eq!(r.winner_color(), Some(Color::Black));
    }
}

#[test]
fn the_bot_leaves_a_five_on_one_board_alone() {
    let config = GameConfig::new(RuleSet::Twin);
    // Black's four on board 1 only (A10-D10); board 2 has no four.
    let mut game = Game::new(config.clone(), Seat::First, 0).unwrap();
    play(
        &mut game,
        "1:A10  1:A1 2:A1  1:B10 2:K10  1:A2 2:A2  1:C10 2:M12  1:A3 2:A3  1:D10 2:O14  1:A5 2:A5",
    );
    for seed in 0..4 {
        let prompt = game.prompt(100).unwrap();
        let action = decide(&situation(&game, &config), &prompt, seed);
        let Action::Place { point, board, .. } = action else {
            panic!("{action:?}")
        };
        assert!(
            !(board == 0 && (point == "E10".parse().unwrap())),
            "seed {seed}: the bot completed board 1 alone"
        );
    }
}
