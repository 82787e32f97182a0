//! Tarannikov and Swap2 through the machine, and which opening rules go
//! with which rule set (docs/rules.md §6).

use crate::common;

use common::*;
use tengen_rules::Color;
use tengen_rules::game::{
    Action, ActionKind, ConfigError, Event, Game, GameConfig, GameError, Opening, Outcome, RuleSet,
    Seat, Task, TimeControl,
};

fn task(g: &Game) -> (Seat, Task) {
    g.task().expect("the game is on")
}

fn place(color: Color, move_number: u32, within: Option<u8>) -> Task {
    Task::Place {
        color,
        move_number,
        within,
    }
}

fn tarannikov() -> Game {
    game(GameConfig::new(RuleSet::Renju).with_opening(Opening::Tarannikov))
}

fn swap2(rs: RuleSet) -> Game {
    game(GameConfig::new(rs).with_opening(Opening::Swap2))
}

#[test]
fn tarannikov_keeping_at_every_swap_point() {
    let mut g = tarannikov();
    let stones = ["H8", "H9", "J10", "K7", "G4"];
    for (i, s) in stones.iter().enumerate() {
        let n = i as u32 + 1;
        let color = if n % 2 == 1 {
            Color::Black
        } else {
            Color::White
        };
        let (seat, t) = task(&g);
        assert_eq!(seat, g.seat_of(color));
        assert_eq!(t, place(color, n, Some(2 * n as u8 - 1)));
        play(&mut g, s);
        // The other seat, holding the colour to move, may swap.
        let next = color.opponent();
        assert_eq!(
            task(&g),
            (g.seat_of(next), Task::DecideSwap { color: next })
        );
        play(&mut g, "keep");
    }
    assert_eq!(g.seat_of(Color::Black), Seat::First);
    assert_eq!(task(&g), (Seat::Second, place(Color::White, 6, None)));
    assert!(g.allowed(Seat::Second, 0).contains(&ActionKind::Pass));
    let ev = play(&mut g, "A1 I9 A3 K11 A5");
    assert!(game_over(&ev).is_none());
    let ev = play(&mut g, "G7");
    let r = game_over(&ev).expect("g7 h8 i9 j10 k11");
    assert_eq!(
        r.outcome,
        Outcome::Win {
            seat: Seat::First,
            color: Color::Black
        }
    );
    assert_eq!(g.record().replay().unwrap(), g);
}

#[test]
fn tarannikov_swapping_at_every_swap_point() {
    let mut g = tarannikov();
    // Each swap gives the colour to move to the seat that placed the last
    // stone, so the first seat places all five.
    for (i, s) in ["H8", "I9", "G10", "E5", "L12"].iter().enumerate() {
        assert_eq!(task(&g).0, Seat::First, "move {}", i + 1);
        play(&mut g, s);
        assert_eq!(task(&g).0, Seat::Second);
        play(&mut g, "swap");
    }
    // After the last swap the second seat holds black; the first plays 6.
    assert_eq!(g.seat_of(Color::Black), Seat::Second);
    assert_eq!(task(&g), (Seat::First, place(Color::White, 6, None)));
    play(&mut g, "A1");
    assert_eq!(task(&g), (Seat::Second, place(Color::Black, 7, None)));
    let ev = g.apply(Seat::Second, Action::Resign, 0).unwrap();
    assert_eq!(game_over(&ev).unwrap().winner(), Some(Seat::First));
}

#[test]
fn tarannikov_zones_and_no_pass() {
    let mut g = tarannikov();
    let f = Seat::First;
    for (stone, outside, within) in [
        ("H8", "G7", 1),
        ("I9", "J10", 3),
        ("G10", "K8", 5),
        ("E5", "L8", 7),
        ("L12", "C8", 9),
    ] {
        let seat = task(&g).0;
        assert_eq!(seat, f);
        assert_eq!(
            refused(&mut g, seat, Action::place(p(outside)), 0),
            GameError::OutsideZone { within }
        );
        play(&mut g, stone);
        // Five stones stand after the last one, and still no pass.
        assert_eq!(
            refused(&mut g, Seat::Second, Action::pass(), 0),
            GameError::PassDuringOpening
        );
        assert_eq!(refused(&mut g, f, Action::Swap, 0), GameError::NotYourTurn);
        play(&mut g, "swap");
    }
}

#[test]
fn tarannikov_clock_follows_the_decider() {
    let sd = TimeControl::SuddenDeath { main_ms: 60_000 };
    let mut g = game(
        GameConfig::new(RuleSet::Renju)
            .with_opening(Opening::Tarannikov)
            .with_time(sd),
    );
    play_at(&mut g, "H8", 1_000, 0);
    assert_eq!(g.clocks(1_000).unwrap().running, Some(Seat::Second));
    // The second seat thinks 5 s about the swap; keeping, it plays on.
    play_at(&mut g, "keep", 6_000, 0);
    assert_eq!(g.clocks(6_000).unwrap().running, Some(Seat::Second));
    play_at(&mut g, "H9", 7_000, 0);
    let c = g.clocks(7_000).unwrap();
    assert_eq!(c.second.main_ms, 54_000);
    assert_eq!(c.running, Some(Seat::First));
    // Swapping hands the move back at once.
    play_at(&mut g, "swap", 9_000, 0);
    let c = g.clocks(9_000).unwrap();
    assert_eq!(c.first.main_ms, 57_000);
    assert_eq!(c.running, Some(Seat::Second));
}

#[test]
fn swap2_second_player_plays_white() {
    let mut g = swap2(RuleSet::Gomoku);
    // No square binds the opener's three stones.
    for (n, color) in [(1, Color::Black), (2, Color::White), (3, Color::Black)] {
        assert_eq!(task(&g), (Seat::First, place(color, n, None)));
        play(&mut g, ["C3", "D4", "E3"][n as usize - 1]);
    }
    assert_eq!(task(&g), (Seat::Second, Task::Swap2Choice));
    let may = g.allowed(Seat::Second, 0);
    for k in [
        ActionKind::Place,
        ActionKind::Swap,
        ActionKind::Keep,
        ActionKind::PlaceTwo,
    ] {
        assert!(may.contains(&k), "{k:?}");
    }
    assert!(!may.contains(&ActionKind::Pass));
    // Placing white 4 is the choice to stay white.
    let ev = play(&mut g, "F4");
    assert!(matches!(ev[0], Event::Moved { mv, .. } if mv.number == 4 && mv.seat == Seat::Second));
    assert_eq!(task(&g), (Seat::First, place(Color::Black, 5, None)));
    let ev = play(&mut g, "F3 A1 G3 A3");
    assert!(game_over(&ev).is_none());
    let ev = play(&mut g, "D3");
    let r = game_over(&ev).expect("c3 d3 e3 f3 g3");
    assert_eq!(
        r.outcome,
        Outcome::Win {
            seat: Seat::First,
            color: Color::Black
        }
    );
    assert_eq!(g.record().replay().unwrap(), g);

    // Or keep first, then place.
    let mut g = swap2(RuleSet::Gomoku);
    play(&mut g, "C3 D4 E3 keep");
    assert_eq!(task(&g), (Seat::Second, place(Color::White, 4, None)));
}

#[test]
fn swap2_second_player_takes_black() {
    let mut g = swap2(RuleSet::Freestyle);
    play(&mut g, "H8 H9 J9 swap");
    assert_eq!(g.seat_of(Color::Black), Seat::Second);
    assert_eq!(task(&g), (Seat::First, place(Color::White, 4, None)));
    play(&mut g, "K10");
    assert_eq!(task(&g), (Seat::Second, place(Color::Black, 5, None)));
    play(&mut g, "I9");
    assert_eq!(task(&g), (Seat::First, place(Color::White, 6, None)));
    assert!(g.allowed(Seat::First, 0).contains(&ActionKind::Pass));
}

#[test]
fn swap2_two_more_stones_then_the_opener_chooses() {
    for take_white in [false, true] {
        let mut g = swap2(RuleSet::Gomoku);
        play(&mut g, "H8 H9 J9");
        let ev = play(&mut g, "two:J10,K9");
        let moved: Vec<_> = ev
            .iter()
            .filter_map(|e| match e {
                Event::Moved { mv, .. } => Some((mv.number, mv.seat, mv.color)),
                _ => None,
            })
            .collect();
        assert_eq!(
            moved,
            [
                (4, Seat::Second, Color::White),
                (5, Seat::Second, Color::Black)
            ]
        );
        assert_eq!(
            task(&g),
            (
                Seat::First,
                Task::DecideSwap {
                    color: Color::Black
                }
            )
        );
        play(&mut g, if take_white { "swap" } else { "keep" });
        let white = if take_white {
            Seat::First
        } else {
            Seat::Second
        };
        assert_eq!(g.seat_of(Color::White), white);
        assert_eq!(task(&g), (white, place(Color::White, 6, None)));
        play(&mut g, "A1 L9");
        assert_eq!(task(&g), (white, place(Color::White, 8, None)));
        assert_eq!(g.record().renju_notation(), "h8 h9 j9 j10 k9 a1 l9");
        assert_eq!(g.record().replay().unwrap(), g);
    }
}

#[test]
fn swap2_refusals() {
    let mut g = swap2(RuleSet::Gomoku);
    play(&mut g, "H8");
    assert_eq!(
        refused(&mut g, Seat::Second, Action::place(p("H9")), 0),
        GameError::NotYourTurn
    );
    play(&mut g, "H9 J9");
    let two = |w: &str, b: &str| Action::PlaceTwo {
        white: p(w),
        black: p(b),
    };
    let s = Seat::Second;
    assert_eq!(
        refused(&mut g, s, two("H9", "K9"), 0),
        GameError::Occupied { point: p("H9") }
    );
    assert_eq!(
        refused(&mut g, s, two("K10", "K10"), 0),
        GameError::Occupied { point: p("K10") }
    );
    assert_eq!(
        refused(&mut g, Seat::First, two("K10", "K9"), 0),
        GameError::NotYourTurn
    );
    assert_eq!(
        refused(&mut g, s, Action::pass(), 0),
        GameError::PassDuringOpening
    );
    assert!(matches!(
        refused(&mut g, s, Action::DeclareOffers { count: 1 }, 0),
        GameError::WrongAction {
            task: Task::Swap2Choice
        }
    ));
    play(&mut g, "two:K10,K9");
    assert_eq!(refused(&mut g, s, Action::Keep, 0), GameError::NotYourTurn);
    assert_eq!(
        refused(&mut g, Seat::First, Action::place(p("A1")), 0),
        GameError::SwapDecisionPending
    );
    assert_eq!(
        refused(&mut g, Seat::First, Action::pass(), 0),
        GameError::PassDuringOpening
    );
}

#[test]
fn opening_rules_only_in_their_rule_sets() {
    let renju_rules = [
        Opening::Rif,
        Opening::Yamaguchi,
        Opening::SOOSORV,
        Opening::TARAGUCHI,
        Opening::Tarannikov,
    ];
    for o in renju_rules {
        assert!(
            Game::new(
                GameConfig::new(RuleSet::Renju).with_opening(o),
                Seat::First,
                0
            )
            .is_ok()
        );
        for rs in [RuleSet::Gomoku, RuleSet::Freestyle] {
            assert_eq!(
                Game::new(GameConfig::new(rs).with_opening(o), Seat::First, 0).unwrap_err(),
                ConfigError::Opening {
                    rule_set: rs,
                    opening: o
                }
            );
        }
    }
    let swap2_renju = GameConfig::new(RuleSet::Renju).with_opening(Opening::Swap2);
    assert!(matches!(
        swap2_renju.validate(),
        Err(ConfigError::Opening { .. })
    ));
    let big = GameConfig::new(RuleSet::Freestyle)
        .with_opening(Opening::Swap2)
        .with_size(19);
    assert_eq!(big.validate(), Ok(()));
    assert_eq!(
        GameConfig::new(RuleSet::Renju)
            .with_opening(Opening::Soosorv { n: 0 })
            .validate(),
        Err(ConfigError::OfferCount {
            opening: Opening::Soosorv { n: 0 },
            n: 0
        })
    );
    // The room form on the wire.
    let j = serde_json::to_value(
        GameConfig::new(RuleSet::Renju).with_opening(Opening::Taraguchi { n: 5 }),
    )
    .unwrap();
    assert_eq!(j["opening"], serde_json::json!({"taraguchi": {"n": 5}}));
}
