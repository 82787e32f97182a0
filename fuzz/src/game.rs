//! The game state machine (`tengen_rules::game`) fed arbitrary programs: a
//! room configuration (any rule set, opening, board size, forbidden-move
//! handling, time control, draw policy; the machine refuses invalid ones),
//! then up to [`MAX_STEPS`] inputs: any action from any seat, ticks,
//! abandonments and aborts (an arbiter's too), at any instant (forwards, standing still or
//! backwards; the crate is pure, time is passed in). Half the actions are
//! built from the prompt (so that games get deep: openings decided, fives
//! made) and half are anything at all.
//!
//! After every input, checked through the public API:
//! - a refused input, and a tick that reports nothing, change nothing (the
//!   whole machine compares equal to its copy from before);
//! - an accepted input reports events and adds exactly one record entry;
//! - an action of a kind [`Game::allowed`] does not list is refused;
//! - a result, once there, never changes; moves are only appended;
//! - every board holds exactly the stones of the move list, each of its
//!   move's colour, and moves are numbered 1, 2, 3, ...;
//! - a game over has no prompt, nothing allowed and no deadline;
//!
//! At the end the snapshot and the record survive JSON, and the record
//! replays to the same game.

use tengen_rules::Point;
use tengen_rules::game::{
    Action, DrawPolicy, ForbiddenHandling, Game, GameConfig, GameRecord, Millis, OfferSet, Opening,
    RuleSet, Seat, Snapshot, TaraguchiOption, Task, TimeControl,
};

use crate::Bytes;

/// Inputs per program: enough for a long game on a small board.
pub const MAX_STEPS: usize = 300;

/// Runs one program.
pub fn check(data: &[u8]) {
    play(data);
}

/// Runs one program, checking as it goes; the game it played, if its
/// configuration was valid.
pub fn play(data: &[u8]) -> Option<Game> {
    let mut bytes = Bytes::new(data);
    let config = config(&mut bytes);
    let opener = bytes.pick(&Seat::BOTH);
    let mut now = Millis::from(bytes.u32());
    let mut game = Game::new(config, opener, now).ok()?;
    check_state(&game, now);
    for _ in 0..MAX_STEPS {
        if bytes.is_empty() {
            break;
        }
        now = next_instant(&mut bytes, now);
        step(&mut game, &mut bytes, now);
        check_state(&game, now);
    }
    check_record(&game, now);
    Some(game)
}

fn config(bytes: &mut Bytes) -> GameConfig {
    let rule_set = bytes.pick(&[
        RuleSet::Freestyle,
        RuleSet::Gomoku,
        RuleSet::Renju,
        RuleSet::Twin,
    ]);
    let mut config = GameConfig::new(rule_set).with_opening(opening(bytes));
    let size = bytes.byte();
    if size & 0x80 != 0 {
        config = config.with_size(size & 0x1f);
    }
    config.forbidden = bytes.pick(&[
        None,
        None,
        Some(ForbiddenHandling::Claim),
        Some(ForbiddenHandling::Lose),
        Some(ForbiddenHandling::Block),
    ]);
    config = config.with_time(time_control(bytes));
    let max_offers = bytes.byte();
    let answer_ms = bytes.u16();
    config = config.with_draw(DrawPolicy {
        max_offers: (max_offers & 0x80 != 0).then_some(u32::from(max_offers & 7)),
        answer_ms: (answer_ms & 1 == 1).then_some(Millis::from(answer_ms)),
    });
    config.with_lag_credit_cap(Millis::from(bytes.u16()))
}

fn opening(bytes: &mut Bytes) -> Opening {
    let n = bytes.byte() % 16;
    match bytes.byte() % 13 {
        0 => Opening::Free,
        1 => Opening::SwapAfterThree,
        2 => Opening::Rif,
        3 => Opening::Yamaguchi,
        4 => Opening::Soosorv { n },
        5 => Opening::Taraguchi { n },
        6 => Opening::Tarannikov,
        7 => Opening::Jonsson,
        8 => Opening::Yamaguchi52,
        9 => Opening::YamaguchiVariant,
        10 => Opening::Sakata,
        11 => Opening::SuperSakata,
        _ => Opening::Swap2,
    }
}

fn time_control(bytes: &mut Bytes) -> TimeControl {
    let kind = bytes.byte() % 6;
    let main_ms = Millis::from(bytes.u16()) * 10;
    let other_ms = Millis::from(bytes.u16()) * 10;
    let count = u32::from(bytes.byte() % 12);
    match kind {
        0 => TimeControl::Unlimited,
        1 => TimeControl::SuddenDeath { main_ms },
        2 => TimeControl::Fischer {
            main_ms,
            increment_ms: other_ms,
        },
        3 => TimeControl::ByoYomi {
            main_ms,
            periods: count,
            period_ms: other_ms,
            moves_per_period: count / 3,
        },
        4 => TimeControl::EightStone {
            main_ms,
            move_ms: other_ms,
            stones: count,
            move_limit_in_main: count & 1 == 1,
            shared_main: count & 2 == 2,
        },
        _ => TimeControl::Correspondence {
            move_ms: main_ms * 1000,
            vacation_ms: other_ms * 1000,
        },
    }
}

/// The instant of the next input: mostly a little later, sometimes the
/// same instant, far later, or earlier than the last.
fn next_instant(bytes: &mut Bytes, now: Millis) -> Millis {
    match bytes.byte() % 8 {
        0 => now,
        1 => now.saturating_sub(Millis::from(bytes.u16())),
        2 => now + Millis::from(bytes.u32()),
        _ => now + Millis::from(bytes.byte()) * 50,
    }
}

/// One input, checked against the machine's state before it.
fn step(game: &mut Game, bytes: &mut Bytes, now: Millis) {
    let before = game.clone();
    let seat = bytes.pick(&Seat::BOTH);
    let op = bytes.byte();
    let outcome = match op % 16 {
        0 => {
            let events = game.tick(now);
            if events.is_empty() {
                assert_eq!(
                    *game, before,
                    "a tick that reported nothing changed the game"
                );
            }
            Ok(events)
        }
        1 => game.declare_abandoned(seat, now),
        2 => game.declare_aborted(now),
        9 => game.declare_arbiter_abort(now),
        3 => {
            let lag = Millis::from(bytes.u16());
            let action = any_action(game, bytes);
            game.apply_with_lag(seat, action, now, lag)
        }
        4..=8 => {
            let action = any_action(game, bytes);
            let allowed = before.allowed(seat, now);
            let outcome = game.apply(seat, action, now);
            // A claim naming no point is the one exception: records from
            // before claims named their point hold such claims, judged (a
            // violation if false) whenever they came; live play refuses
            // them before the referee (the table).
            let legacy_claim = action == Action::ClaimForbidden { point: None };
            if outcome.is_ok() && !legacy_claim {
                assert!(
                    allowed.contains(&action.kind()),
                    "{action:?} by {seat:?} was accepted, but allowed() listed only {allowed:?}"
                );
            }
            outcome
        }
        _ => {
            let seat = game.to_act().unwrap_or(seat);
            let action = prompted_action(game, bytes);
            game.apply(seat, action, now)
        }
    };
    match outcome {
        Err(_) => assert_eq!(*game, before, "a refused input changed the game"),
        Ok(events) if events.is_empty() => {}
        Ok(_) => assert_eq!(
            game.entries().len(),
            before.entries().len() + 1,
            "an accepted input is one record entry"
        ),
    }
    if let Some(result) = before.result() {
        assert_eq!(game.result(), Some(result), "a result changed");
    }
    assert!(
        game.moves().starts_with(before.moves()),
        "moves were rewritten"
    );
}

/// Some point: usually on the board, sometimes just off it.
fn point(game: &Game, bytes: &mut Bytes) -> Point {
    let span = game.config().board_size.saturating_add(2).max(1);
    Point::new(bytes.byte() % span, bytes.byte() % span)
}

/// An empty point of board `board` near the chosen one (the chosen one if
/// nothing is empty), within `within` of the centre if given.
fn empty_point(game: &Game, bytes: &mut Bytes, board: u8, within: Option<u8>) -> Point {
    let size = game.config().board_size;
    let (low, span) = match within {
        Some(w) if w < size => ((size - w) / 2, w),
        _ => (0, size),
    };
    let span = span.max(1);
    let start =
        usize::from(bytes.byte() % span) * usize::from(span) + usize::from(bytes.byte() % span);
    let cells = usize::from(span) * usize::from(span);
    let at = |i: usize| {
        let i = (start + i) % cells;
        Point::new(
            low + (i / usize::from(span)) as u8,
            low + (i % usize::from(span)) as u8,
        )
    };
    let Some(b) = game.board_at(board) else {
        return at(0);
    };
    (0..cells)
        .map(at)
        .find(|&p| b.is_empty_point(p))
        .unwrap_or_else(|| at(0))
}

fn offers(game: &Game, bytes: &mut Bytes, count: u8) -> OfferSet {
    let mut points = Vec::new();
    for _ in 0..count {
        let p = empty_point(game, bytes, 0, None);
        if !points.contains(&p) {
            points.push(p);
        }
    }
    OfferSet::new(&points).unwrap_or_else(|_| OfferSet::new(&[]).expect("no offers is fine"))
}

/// An action of any kind with any data.
fn any_action(game: &Game, bytes: &mut Bytes) -> Action {
    let flags = bytes.byte();
    match bytes.byte() % 15 {
        0 => Action::Place {
            point: point(game, bytes),
            board: flags % 3,
            offer_draw: flags & 4 != 0,
        },
        1 => Action::Pass {
            offer_draw: flags & 4 != 0,
        },
        2 => Action::Swap,
        3 => Action::Keep,
        4 => Action::DeclareOffers { count: flags % 16 },
        5 => {
            let count = flags % 12;
            let points: Vec<Point> = (0..count).map(|_| point(game, bytes)).collect();
            match OfferSet::new(&points) {
                Ok(points) => Action::OfferFifths { points },
                Err(_) => Action::Resign,
            }
        }
        6 => Action::KeepFifth {
            point: point(game, bytes),
        },
        7 => Action::ChooseOption {
            option: if flags & 1 == 0 {
                TaraguchiOption::Single
            } else {
                TaraguchiOption::Offers
            },
        },
        8 => Action::PlaceTwo {
            white: point(game, bytes),
            black: point(game, bytes),
        },
        9 => Action::OfferDraw,
        10 => Action::AcceptDraw,
        11 => Action::DeclineDraw,
        12 if flags & 1 == 0 => Action::ClaimForbidden { point: None },
        12 => Action::claim(point(game, bytes)),
        13 => match flags % 6 {
            0 => Action::EndTurn,
            1 => Action::RequestTakeback,
            2 => Action::AcceptTakeback,
            3 => Action::DeclineTakeback,
            _ => Action::Resign,
        },
        _ => Action::Abort,
    }
}

/// An action that answers the current prompt (it may still be refused: a
/// forbidden point, an equivalent offer, a point outside the square).
fn prompted_action(game: &Game, bytes: &mut Bytes) -> Action {
    let choice = bytes.byte();
    let board = if game.config().rule_set.boards() == 2 {
        choice & 1
    } else {
        0
    };
    let Some((_, task)) = game.task() else {
        return any_action(game, bytes);
    };
    match task {
        Task::Place { within, .. } => {
            let point = empty_point(game, bytes, board, within);
            if choice % 64 == 63 {
                Action::pass()
            } else {
                Action::place_on(board, point)
            }
        }
        Task::DecideSwap { .. } => [Action::Swap, Action::Keep][usize::from(choice & 1)],
        Task::DeclareOffers { max } => Action::DeclareOffers {
            count: 1 + choice % max.max(1),
        },
        Task::OfferFifths { count } => Action::OfferFifths {
            points: offers(game, bytes, count),
        },
        Task::KeepFifth { offers } => match offers.as_slice() {
            [] => Action::Resign,
            all => Action::KeepFifth {
                point: all[usize::from(choice) % all.len()],
            },
        },
        Task::ChooseOption { .. } => Action::ChooseOption {
            option: [TaraguchiOption::Single, TaraguchiOption::Offers][usize::from(choice & 1)],
        },
        Task::Swap2Choice | Task::SuperSakataChoice { .. } => match choice % 4 {
            0 => Action::place(empty_point(game, bytes, 0, None)),
            1 => Action::Swap,
            2 => Action::Keep,
            _ => Action::PlaceTwo {
                white: empty_point(game, bytes, 0, None),
                black: empty_point(game, bytes, 0, None),
            },
        },
        _ => any_action(game, bytes),
    }
}

/// The invariants that hold at every moment.
fn check_state(game: &Game, now: Millis) {
    for (i, m) in game.moves().iter().enumerate() {
        assert_eq!(m.number as usize, i + 1, "moves are numbered in order");
        if let Some(p) = m.point {
            let board = game.board_at(m.board).expect("a move's board exists");
            assert_eq!(
                board.get(p),
                Some(m.color),
                "move {} is not on its board",
                m.number
            );
        }
    }
    for index in 0..game.config().rule_set.boards() {
        let stones = game
            .moves()
            .iter()
            .filter(|m| m.point.is_some() && m.board == index);
        let board = game
            .board_at(index)
            .expect("every board of the room exists");
        assert_eq!(
            board.stone_count(),
            stones.count(),
            "board {index} holds other stones"
        );
    }
    assert_eq!(game.is_over(), game.result().is_some());
    if game.is_over() {
        assert_eq!(game.prompt(now), None, "a finished game prompts");
        assert_eq!(game.next_deadline(), None, "a finished game has a deadline");
        for seat in Seat::BOTH {
            assert!(
                game.allowed(seat, now).is_empty(),
                "a finished game allows actions"
            );
        }
    }
}

/// The snapshot survives JSON; the record survives JSON and replays to the
/// same game.
fn check_record(game: &Game, now: Millis) {
    let snapshot = game.snapshot(now);
    let json = serde_json::to_string(&snapshot).expect("a snapshot serializes");
    let back: Snapshot = serde_json::from_str(&json).expect("a snapshot deserializes");
    assert_eq!(back, snapshot, "the snapshot changed through JSON");
    let record = game.record();
    let back = GameRecord::from_json(&record.to_json()).expect("a record reads back");
    assert_eq!(back, record, "the record changed through JSON");
    let replayed = record
        .replay()
        .unwrap_or_else(|e| panic!("the game's own record does not replay: {e}"));
    assert_eq!(
        replayed.entries(),
        game.entries(),
        "replay logged other entries"
    );
    assert_eq!(
        replayed.snapshot(now),
        game.snapshot(now),
        "replay ended elsewhere"
    );
}
