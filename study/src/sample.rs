//! Generated games for tests and benchmarks (feature `sample`): whole,
//! valid records played through the referee by a random player that
//! answers every prompt of any opening rule, and a record's image under
//! any of the board's eight symmetries.

use rand::Rng;
use rand::seq::IndexedRandom;
use tengen_rules::game::{
    Action, Game, GameConfig, GameRecord, Input, OfferSet, Opening, RuleSet, Task,
};
use tengen_rules::opening::{Symmetry, check_offers};
use tengen_rules::{Color, Point, Variant};

use crate::canon::map_point;

/// Plays a random game of `rule_set` with `opening`: stones near the
/// others (black never on a forbidden point), swaps and offers at random,
/// until a five or, after 6 to 40 moves, a resignation or an agreed draw.
pub fn random_game(rng: &mut impl Rng, rule_set: RuleSet, opening: Opening) -> GameRecord {
    let config = GameConfig::new(rule_set).with_opening(opening);
    let mut game = Game::new(config, tengen_rules::game::Seat::First, 0).expect("a valid config");
    let stop_after = rng.random_range(6..=40usize);
    let mut at = 0;
    while !game.is_over() {
        at += 1000;
        let Some(prompt) = game.prompt(at) else {
            break;
        };
        let seat = prompt.seat;
        if game.moves().len() >= stop_after && matches!(prompt.task, Task::Place { .. }) {
            if rng.random_bool(0.1) {
                game.apply(seat, Action::OfferDraw, at)
                    .or_else(|_| game.apply(seat, Action::Resign, at))
                    .expect("an offer or a resignation");
                if !game.is_over() {
                    at += 1000;
                    game.apply(seat.other(), Action::AcceptDraw, at)
                        .expect("the draw accepted");
                }
            } else {
                game.apply(seat, Action::Resign, at).expect("a resignation");
            }
            break;
        }
        let action = choose(rng, &game, &prompt.task);
        game.apply(seat, action, at)
            .expect("the random player plays legally");
    }
    game.record()
}

/// A random legal answer to `task`.
fn choose(rng: &mut impl Rng, game: &Game, task: &Task) -> Action {
    match *task {
        Task::Place { color, within, .. } => Action::place(stone(rng, game, color, within)),
        Task::DecideSwap { .. } | Task::SuperSakataChoice { .. } => {
            if rng.random_bool(0.5) {
                Action::Swap
            } else {
                Action::Keep
            }
        }
        Task::DeclareOffers { max } => Action::DeclareOffers {
            count: rng.random_range(1..=max.min(3)),
        },
        Task::OfferFifths { count } => {
            let (black, white) = stones(game);
            let mut offers: Vec<Point> = Vec::new();
            while offers.len() < count as usize {
                let p = stone(rng, game, Color::Black, None);
                let mut next = offers.clone();
                next.push(p);
                if check_offers(&black, &white, &next).is_ok() {
                    offers = next;
                }
            }
            Action::OfferFifths {
                points: OfferSet::new(&offers).expect("at most ten"),
            }
        }
        Task::KeepFifth { offers } => Action::KeepFifth {
            point: *offers.as_slice().choose(rng).expect("offers"),
        },
        Task::ChooseOption { .. } => Action::ChooseOption {
            option: tengen_rules::game::TaraguchiOption::Single,
        },
        Task::Swap2Choice => Action::Swap,
        _ => Action::Resign,
    }
}

fn stones(game: &Game) -> (Vec<Point>, Vec<Point>) {
    let (mut b, mut w) = (Vec::new(), Vec::new());
    for (p, c) in game.board().stones() {
        match c {
            Color::Black => b.push(p),
            Color::White => w.push(p),
        }
    }
    (b, w)
}

/// An empty point for `color`: inside the centred square of side `within`
/// when given, else within two points of a stone (anywhere on an empty
/// board); never a forbidden point for black in renju.
fn stone(rng: &mut impl Rng, game: &Game, color: Color, within: Option<u8>) -> Point {
    let board = game.board();
    let size = board.size();
    let c = i32::from(size / 2);
    let near = |p: Point| {
        board.stones().any(|(q, _)| {
            (i32::from(p.x) - i32::from(q.x)).abs() <= 2
                && (i32::from(p.y) - i32::from(q.y)).abs() <= 2
        })
    };
    let renju = game.config().rule_set.variant() == Variant::Renju;
    let fits = |p: Point| {
        board.is_empty_point(p)
            && !(renju && color == Color::Black && board.forbidden(p).is_some())
            && match within {
                Some(w) => {
                    let r = i32::from(w / 2);
                    (i32::from(p.x) - c).abs() <= r && (i32::from(p.y) - c).abs() <= r
                }
                None => board.stone_count() == 0 || near(p),
            }
    };
    let all: Vec<Point> = board.points().filter(|&p| fits(p)).collect();
    match all.choose(rng) {
        Some(&p) => p,
        None => board
            .points()
            .find(|&p| board.is_empty_point(p))
            .expect("a free point"),
    }
}

/// The image of a record under `s` about the board's centre: every point
/// of every action mapped, and the game played again through the referee
/// (the rules are symmetric, so it plays), its tags kept.
pub fn transform(record: &GameRecord, s: Symmetry) -> GameRecord {
    let size = record.config.board_size;
    let m = |p: Point| map_point(s, size, p);
    let mut game =
        Game::new(record.config.clone(), record.opener, record.start).expect("a valid record");
    for e in &record.entries {
        let input = match e.input {
            Input::Act {
                seat,
                action,
                lag_credit_ms,
            } => Input::Act {
                seat,
                action: map_action(action, &m),
                lag_credit_ms,
            },
            other => other,
        };
        game.feed(&input, e.at)
            .expect("the image of a legal game is legal");
    }
    let mut out = game.record();
    out.tags = record.tags.clone();
    out
}

fn map_action(a: Action, m: &impl Fn(Point) -> Point) -> Action {
    match a {
        Action::Place {
            point,
            board,
            offer_draw,
        } => Action::Place {
            point: m(point),
            board,
            offer_draw,
        },
        Action::OfferFifths { points } => {
            let mapped: Vec<Point> = points.as_slice().iter().map(|&p| m(p)).collect();
            Action::OfferFifths {
                points: OfferSet::new(&mapped).expect("as many as before"),
            }
        }
        Action::KeepFifth { point } => Action::KeepFifth { point: m(point) },
        Action::PlaceTwo { white, black } => Action::PlaceTwo {
            white: m(white),
            black: m(black),
        },
        other => other,
    }
}
