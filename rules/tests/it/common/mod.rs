//! Helpers shared by the game tests.
#![allow(dead_code)]

use tengen_rules::game::{
    Action, ClockSnapshot, Event, Game, GameConfig, GameError, Millis, OfferSet, Opening, RuleSet,
    Seat, TaraguchiOption, Task, TimeControl,
};
use tengen_rules::{Color, Point};

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

/// A renju game with `opening`, the first seat the opener.
pub fn renju_game(opening: Opening) -> Game {
    game(GameConfig::new(RuleSet::Renju).with_opening(opening))
}

/// The seat to act and what it is asked for.
pub fn task_of(g: &Game) -> (Seat, Task) {
    g.task().expect("the game is on")
}

pub fn place_task(color: Color, move_number: u32, within: Option<u8>) -> Task {
    Task::Place {
        color,
        move_number,
        within,
    }
}

pub fn swap_task(color: Color) -> Task {
    Task::DecideSwap { color }
}

/// Each declared count is refused as out of 1..=`max`, by `seat`.
pub fn refuse_counts(g: &mut Game, seat: Seat, counts: &[u8], max: u8) {
    for &count in counts {
        assert_eq!(
            refused(g, seat, Action::DeclareOffers { count }, 0),
            GameError::OfferCountOutOfRange { count, max }
        );
    }
}

/// Each pair of offers by `seat` is refused as equivalent.
pub fn refuse_equivalent(g: &mut Game, seat: Seat, pairs: &[(&str, &str)]) {
    for &(a, b) in pairs {
        assert_eq!(
            refused(g, seat, token_action(&format!("offer:{a},{b}")), 0),
            GameError::EquivalentOffers {
                first: p(a),
                second: p(b)
            }
        );
    }
}

/// Whether the events say `seat` declared `count` offers.
pub fn declared(events: &[Event], seat: Seat, count: u8) -> bool {
    events.iter().any(|e| {
        matches!(e, Event::OffersDeclared { seat: s, count: c, .. } if *s == seat && *c == count)
    })
}

/// Whether the events say `seat` took the swap, leaving black to `black`.
pub fn swap_taken(events: &[Event], seat: Seat, black: Seat) -> bool {
    events.iter().any(|e| {
        matches!(e, Event::SwapDecided { seat: s, swapped: true, black: b, .. } if *s == seat && *b == black)
    })
}

/// The code of the opening the events name as formed.
pub fn formed(events: &[Event]) -> Option<&str> {
    events.iter().find_map(|e| match e {
        Event::OpeningFormed { code, .. } => Some(code.as_str()),
        _ => None,
    })
}

/// The snapshot names the opening `canonical` and the declared count, and
/// the record replays to the same game.
pub fn check_progress(g: &Game, canonical: &str, declared_offers: Option<u8>) {
    let progress = g.snapshot(0).opening;
    assert_eq!(progress.canonical.as_deref(), Some(canonical));
    assert_eq!(progress.declared_offers, declared_offers);
    assert_eq!(g.record().replay().unwrap(), *g);
}

/// The game asks `seat` for `task`.
#[track_caller]
pub fn asks(g: &Game, seat: Seat, task: Task) {
    assert_eq!(task_of(g), (seat, task));
}
