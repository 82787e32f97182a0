//! Helpers shared by the game tests.
#![allow(dead_code)]

use tengen_rules::Point;
use tengen_rules::game::{
    Action, ClockSnapshot, Event, Game, GameConfig, GameError, Millis, OfferSet, RuleSet, Seat,
    TaraguchiOption, TimeControl,
};

pub fn p(s: &str) -> Point {
    s.parse().unwrap()
}

pub fn game(config: GameConfig) -> Game {
    Game::new(config, Seat::First, 0).unwrap()
}

/// A free-opening gomoku game under `time`.
pub fn timed(time: TimeControl) -> Game {
    game(GameConfig::free(RuleSet::Gomoku).with_time(time))
}

/// The clocks reported with the move among `ev`.
pub fn moved_clocks(ev: &[Event]) -> ClockSnapshot {
    ev.iter()
        .find_map(|e| match e {
            Event::Moved { clocks, .. } => *clocks,
            _ => None,
        })
        .expect("a move with clocks")
}

pub fn new_game(rule_set: RuleSet) -> Game {
    game(GameConfig::free(rule_set))
}

/// The action a token of [`play_at`] stands for: a point places a stone,
/// `pass`, `swap`, `keep`; and for the opening rules `n=3` (declare three
/// fifth-move offers), `offer:J10,G9` (offer fifths), `keep:J10` (keep that
/// fifth), `single`/`offers` (Taraguchi's option), `two:H9,J9` (Swap2's
/// white 4 and black 5).
pub fn token_action(tok: &str) -> Action {
    let list = |s: &str| s.split(',').map(p).collect::<Vec<_>>();
    match tok {
        "pass" => Action::pass(),
        "swap" => Action::Swap,
        "keep" => Action::Keep,
        "single" => Action::ChooseOption {
            option: TaraguchiOption::Single,
        },
        "offers" => Action::ChooseOption {
            option: TaraguchiOption::Offers,
        },
        _ => {
            if let Some(n) = tok.strip_prefix("n=") {
                Action::DeclareOffers {
                    count: n.parse().unwrap(),
                }
            } else if let Some(l) = tok.strip_prefix("offer:") {
                Action::OfferFifths {
                    points: OfferSet::new(&list(l)).unwrap(),
                }
            } else if let Some(k) = tok.strip_prefix("keep:") {
                Action::KeepFifth { point: p(k) }
            } else if let Some(l) = tok.strip_prefix("two:") {
                let l = list(l);
                Action::PlaceTwo {
                    white: l[0],
                    black: l[1],
                }
            } else {
                Action::place(p(tok))
            }
        }
    }
}

/// Plays the moves in `text` (renju notation; `pass` passes, `swap`/`keep`
/// decide a swap; see [`token_action`] for the opening rules' tokens),
/// each by the seat the game asks for, at `t`, `t + step`, ...; returns all
/// events. Panics, naming the move, on a refusal.
pub fn play_at(g: &mut Game, text: &str, t: Millis, step: Millis) -> Vec<Event> {
    let mut events = Vec::new();
    for (i, tok) in text.split_whitespace().enumerate() {
        let seat = g
            .to_act()
            .unwrap_or_else(|| panic!("game over before {tok}"));
        let action = token_action(tok);
        let at = t + i as Millis * step;
        let ev = g
            .apply(seat, action, at)
            .unwrap_or_else(|e| panic!("{tok} (#{i}) refused: {e}"));
        events.extend(ev);
    }
    events
}

pub fn play(g: &mut Game, text: &str) -> Vec<Event> {
    let t = g.entries().last().map_or(0, |e| e.at);
    play_at(g, text, t, 0)
}

/// Applies an action that must be refused, and checks it changed nothing.
pub fn refused(g: &mut Game, seat: Seat, action: Action, now: Millis) -> GameError {
    let before = g.clone();
    let err = g
        .apply(seat, action, now)
        .expect_err("the action should be refused");
    assert_eq!(*g, before, "a refused {action:?} changed the game");
    err
}

pub fn game_over(events: &[Event]) -> Option<&tengen_rules::game::GameResult> {
    events.iter().find_map(|e| match e {
        Event::GameOver { result, .. } => Some(result),
        _ => None,
    })
}

/// White stones far from the action, one per white move, never five in a
/// row (a gap every other point on column A and C).
pub const FAR_WHITE: [&str; 12] = [
    "A1", "A3", "A5", "A7", "A9", "A11", "A13", "A15", "C1", "C3", "C5", "C7",
];

/// Interleaves black moves with far-away white moves: "b1 A1 b2 A3 ...".
pub fn with_far_white(black: &[&str]) -> String {
    let mut out = Vec::new();
    for (i, b) in black.iter().enumerate() {
        if i > 0 {
            out.push(FAR_WHITE[i - 1]);
        }
        out.push(b);
    }
    out.join(" ")
}
