//! Twin rooms, professional traditional gomoku on two boards
//! (docs/rules.md §9): the turn structure, the clock pressed once a turn,
//! every ending (a five on both boards, a five on one board, a full pair of
//! boards), every refusal, and record replay.

use crate::common;

use common::p;
use tengen_rules::game::{
    Action, ActionKind, ConfigError, Event, ExportError, ForbiddenHandling, Game, GameConfig,
    GameError, Millis, Opening, Outcome, ResultReason, RuleSet, Seat, Task, TimeControl, from_psq,
    from_renju_notation,
};
use tengen_rules::{Color, Point};

pub(crate) fn twin() -> Game {
    Game::new(GameConfig::new(RuleSet::Twin), Seat::First, 0).unwrap()
}

/// A twin game with a Fischer clock: a minute and 5 s a turn.
pub(crate) fn twin_fischer() -> Game {
    let time = TimeControl::Fischer {
        main_ms: 60_000,
        increment_ms: 5_000,
    };
    Game::new(
        GameConfig::new(RuleSet::Twin).with_time(time),
        Seat::First,
        0,
    )
    .unwrap()
}

/// Plays `stones` (`"1:J10"`: board 1 of the two, 1-based as people name
/// them) by whichever seat is to act, one second apart from `from`.
pub(crate) fn play(game: &mut Game, stones: &str, from: Millis) -> Vec<Event> {
    let mut events = Vec::new();
    for (i, tok) in stones.split_whitespace().enumerate() {
        let (b, pt) = tok.split_once(':').unwrap();
        let board: u8 = b.parse::<u8>().unwrap() - 1;
        let seat = game.to_act().expect("the game is on");
        let at = from + 1000 * (i as Millis + 1);
        events = game
            .apply(seat, Action::place_on(board, p(pt)), at)
            .unwrap_or_else(|e| panic!("{tok}: {e}"));
    }
    events
}

/// Black, from the first stone, to fours on both boards (A10–D10 on board
/// 1; A10, B10, C10 and E10 on board 2), white's stones down the A file
/// with gaps; black to move.
const FOURS: &str = "1:A10  1:A1 2:A1  1:B10 2:A10  1:A2 2:A2  1:C10 2:B10  1:A3 2:A3  \
                     1:D10 2:C10  1:A5 2:A5  2:E10 1:S1  1:A7 2:A7";

fn over(events: &[Event]) -> Option<&tengen_rules::game::GameResult> {
    events.iter().find_map(|e| match e {
        Event::GameOver { result, .. } => Some(result),
        _ => None,
    })
}

#[test]
fn the_room_is_two_19x19_boards_with_a_free_start_and_no_forbidden_moves() {
    let c = GameConfig::new(RuleSet::Twin);
    assert_eq!((c.board_size, c.opening), (19, Opening::Free));
    assert_eq!(RuleSet::Twin.boards(), 2);
    assert_eq!(RuleSet::Renju.boards(), 1);
    assert_eq!("twin".parse::<RuleSet>().unwrap(), RuleSet::Twin);
    assert!(matches!(
        c.clone().with_size(15).validate(),
        Err(ConfigError::BoardSize { size: 15, .. })
    ));
    for o in [Opening::SwapAfterThree, Opening::Swap2, Opening::Rif] {
        assert!(matches!(
            c.clone().with_opening(o).validate(),
            Err(ConfigError::Opening { .. })
        ));
    }
    assert!(matches!(
        c.with_forbidden(ForbiddenHandling::Lose).validate(),
        Err(ConfigError::ForbiddenHandlingWithoutForbiddenMoves(
            RuleSet::Twin
        ))
    ));
    let g = twin();
    assert_eq!(g.board_at(0).unwrap().size(), 19);
    assert_eq!(g.board_at(1).unwrap().size(), 19);
    assert!(g.board_at(2).is_none());
}

#[test]
fn black_opens_with_one_stone_then_every_turn_is_two() {
    let mut g = twin();
    let expect = [
        (Seat::First, Color::Black, 1),
        (Seat::Second, Color::White, 2),
        (Seat::Second, Color::White, 1),
        (Seat::First, Color::Black, 2),
        (Seat::First, Color::Black, 1),
        (Seat::Second, Color::White, 2),
    ];
    let stones = ["1:J10", "1:K10", "2:K10", "2:J10", "2:J11", "1:A1"];
    for (n, ((seat, color, left), tok)) in expect.into_iter().zip(stones).enumerate() {
        let prompt = g.prompt(n as Millis).unwrap();
        assert_eq!(prompt.seat, seat, "stone {}", n + 1);
        assert_eq!(prompt.stones_left, Some(left), "stone {}", n + 1);
        assert!(!prompt.may.contains(&ActionKind::Pass));
        assert_eq!(
            prompt.task,
            Task::Place {
                color,
                move_number: n as u32 + 1,
                within: None
            }
        );
        play(&mut g, tok, n as Millis);
    }
    let m = g.moves()[2];
    assert_eq!((m.number, m.color, m.board), (3, Color::White, 1));
    assert_eq!(g.board_at(1).unwrap().get(p("K10")), Some(Color::White));
    assert_eq!(g.board_at(0).unwrap().get(p("K10")), Some(Color::White));
    assert_eq!(g.board_at(1).unwrap().get(p("A1")), None);
    // One-board rooms carry no count.
    let single = Game::new(GameConfig::free(RuleSet::Freestyle), Seat::First, 0).unwrap();
    assert_eq!(single.prompt(0).unwrap().stones_left, None);
}

#[test]
fn the_clock_is_pressed_once_a_turn() {
    let mut g = twin_fischer();
    g.apply(Seat::First, Action::place_on(0, p("J10")), 1_000)
        .unwrap();
    let c = g.clocks(1_000).unwrap();
    assert_eq!(c.running, Some(Seat::Second));
    assert_eq!(c.first.main_ms, 64_000, "black's one-stone turn: one press");
    g.apply(Seat::Second, Action::place_on(1, p("J10")), 3_000)
        .unwrap();
    let c = g.clocks(3_000).unwrap();
    assert_eq!(c.running, Some(Seat::Second), "white's turn is not over");
    assert_eq!(c.second.main_ms, 58_000);
    g.apply(Seat::Second, Action::place_on(1, p("K10")), 4_000)
        .unwrap();
    let c = g.clocks(4_000).unwrap();
    assert_eq!(c.running, Some(Seat::First));
    assert_eq!(c.second.main_ms, 62_000, "3 s spent, one increment");
}

#[test]
fn a_turn_that_completes_a_five_on_both_boards_wins() {
    let mut g = twin();
    // Black builds a four on each board; its next turn closes both.
    let ev = play(&mut g, FOURS, 0);
    assert!(over(&ev).is_none());
    let ev = play(&mut g, "2:D10 1:E10", 50_000);
    let r = over(&ev).expect("the turn ends the game");
    assert_eq!(
        r.outcome,
        Outcome::Win {
            seat: Seat::First,
            color: Color::Black
        }
    );
    let ResultReason::TwinFives { lines } = &r.reason else {
        panic!("{r:?}")
    };
    assert_eq!(lines[0].len(), 5);
    assert!(lines[0].contains(&p("E10")) && lines[1].contains(&p("D10")));
}

#[test]
fn a_turn_that_completes_a_five_on_one_board_only_loses() {
    let mut g = twin();
    // Black completes board 1 only, with the first stone of its last turn.
    let stones = "1:A10  1:A1 2:A1  1:B10 1:C10  1:A2 2:A2  1:D10 2:S19  1:A4 2:A4  1:E10 2:J10";
    let ev = play(&mut g, stones, 0);
    let r = over(&ev).expect("the turn ends the game");
    assert_eq!(
        r.outcome,
        Outcome::Win {
            seat: Seat::Second,
            color: Color::White
        }
    );
    let ResultReason::OneBoardFive { seat, board, line } = &r.reason else {
        panic!("{r:?}")
    };
    assert_eq!((*seat, *board, line.len()), (Seat::First, 0, 5));
}

#[test]
fn a_one_board_five_is_judged_when_the_turn_ends_not_at_once() {
    let mut g = twin();
    play(&mut g, FOURS, 0);
    // The first stone completes board 1's five: the game goes on...
    let ev = play(&mut g, "1:E10", 50_000);
    assert!(over(&ev).is_none());
    assert_eq!(g.to_act(), Some(Seat::First));
    assert_eq!(g.prompt(50_000).unwrap().stones_left, Some(1));
    // ... and the second completes board 2's: a win.
    let ev = play(&mut g, "2:D10", 60_000);
    assert!(matches!(
        over(&ev).unwrap().reason,
        ResultReason::TwinFives { .. }
    ));
}

#[test]
fn two_fives_on_the_same_board_are_still_one_board_and_lose() {
    let mut g = twin();
    // Black's last turn completes a row and a column, both on board 1.
    let stones = "1:A10  1:A1 2:A1  1:B10 1:A11  1:A2 2:A2  1:C10 1:A12  1:A3 2:A3  \
                  1:D10 1:A13  1:A5 2:A5  1:E10 1:A14";
    let ev = play(&mut g, stones, 0);
    let r = over(&ev).unwrap();
    assert_eq!(r.winner(), Some(Seat::Second));
    assert!(matches!(
        r.reason,
        ResultReason::OneBoardFive {
            seat: Seat::First,
            board: 0,
            ..
        }
    ));
}

#[test]
fn an_overline_counts_as_a_five() {
    let mut g = twin();
    // Board 1: A-C and E-F stand, D makes six; board 2: A-C and E, D
    // makes five.
    let stones = "1:A10  1:A1 2:A1  1:B10 2:A10  1:A2 2:A2  1:C10 2:B10  1:A3 2:A3  \
                  1:E10 2:C10  1:A5 2:A5  1:F10 2:E10  1:S1 2:S1  1:D10 2:D10";
    let r = over(&play(&mut g, stones, 0)).unwrap().clone();
    let ResultReason::TwinFives { lines } = &r.reason else {
        panic!("{r:?}")
    };
    assert_eq!((lines[0].len(), lines[1].len()), (6, 5));
    assert_eq!(r.winner(), Some(Seat::First));
}

#[test]
fn white_wins_and_loses_the_same_way() {
    // White builds down the A file on both boards; black plays in the
    // corner.
    let start = "1:S19  1:A1 2:A1  1:S18 2:S18  1:A2 2:A2  1:S17 2:S17  1:A3 2:A3  \
                 1:R19 2:R19  1:A4 2:A4  1:R18 2:R18";
    for (last, winner) in [("1:A5 2:A5", Seat::Second), ("1:A5 2:S1", Seat::First)] {
        let mut g = twin();
        play(&mut g, start, 0);
        let r = over(&play(&mut g, last, 60_000)).unwrap().clone();
        assert_eq!(r.winner(), Some(winner), "{last}");
        match winner {
            Seat::Second => assert!(matches!(r.reason, ResultReason::TwinFives { .. })),
            Seat::First => assert_eq!(
                r.reason,
                ResultReason::OneBoardFive {
                    seat: Seat::Second,
                    board: 0,
                    line: ["A1", "A2", "A3", "A4", "A5"].map(p).to_vec(),
                }
            ),
        }
    }
}

/// A colouring of a board with no two-stone run longer than 2 in any
/// direction (stripes of two), `flip` swapping the colours.
fn striped(x: u8, y: u8, flip: bool) -> Color {
    let c = ((x as u32 + 2 * y as u32) / 2).is_multiple_of(2);
    if c != flip {
        Color::Black
    } else {
        Color::White
    }
}

#[test]
fn two_full_boards_without_a_result_are_a_draw() {
    let mut g = twin();
    // Board 1: 181 black, board 2 (flipped): 180 black; 361 of each colour.
    let mut todo: [Vec<(u8, Point)>; 2] = [Vec::new(), Vec::new()];
    for board in 0..2u8 {
        for y in 0..19 {
            for x in 0..19 {
                let c = striped(x, y, board == 1);
                todo[c as usize].push((board, Point::new(x, y)));
            }
        }
    }
    assert_eq!((todo[0].len(), todo[1].len()), (361, 361));
    let mut last = Vec::new();
    for n in 0..722u32 {
        let prompt = g.prompt(n as Millis).expect("not over before the end");
        let Task::Place { color, .. } = prompt.task else {
            panic!("{prompt:?}")
        };
        if n == 721 {
            assert_eq!(prompt.stones_left, Some(1), "one point left for two");
        }
        let (board, point) = todo[color as usize].pop().expect("colours balance");
        last = g
            .apply(prompt.seat, Action::place_on(board, point), n as Millis)
            .unwrap();
    }
    let r = over(&last).expect("the last point ends the game");
    assert_eq!(
        (r.outcome, &r.reason),
        (Outcome::Draw, &ResultReason::BoardFull)
    );
}

#[test]
fn refusals_change_nothing() {
    let mut g = twin();
    play(&mut g, "1:J10", 0);
    let before = g.clone();
    let refused = [
        (
            Seat::First,
            Action::place_on(0, p("K10")),
            GameError::NotYourTurn,
        ),
        (
            Seat::Second,
            Action::place_on(0, p("J10")),
            GameError::Occupied { point: p("J10") },
        ),
        (
            Seat::Second,
            Action::place_on(2, p("K10")),
            GameError::NoSuchBoard {
                board: 2,
                boards: 2,
            },
        ),
        (
            Seat::Second,
            Action::place_on(1, Point::new(19, 3)),
            GameError::OffBoard {
                point: Point::new(19, 3),
            },
        ),
        (Seat::Second, Action::pass(), GameError::NoPassInTwin),
        (Seat::Second, Action::Swap, GameError::NoSwapDecision),
    ];
    for (seat, action, error) in refused {
        assert_eq!(g.apply(seat, action, 5_000), Err(error), "{action:?}");
        assert_eq!(g, before, "{action:?} changed the game");
    }
    // The same point on the other board is free.
    play(&mut g, "2:J10 1:K10", 5_000);
    // A third stone in a turn: the turn has passed to black.
    let before = g.clone();
    assert_eq!(
        g.apply(Seat::Second, Action::place_on(1, p("A1")), 9_000),
        Err(GameError::NotYourTurn)
    );
    assert_eq!(g, before);
}

#[test]
fn one_board_rooms_refuse_the_second_board() {
    let mut g = Game::new(GameConfig::free(RuleSet::Freestyle), Seat::First, 0).unwrap();
    let before = g.clone();
    assert_eq!(
        g.apply(Seat::First, Action::place_on(1, p("H8")), 10),
        Err(GameError::NoSuchBoard {
            board: 1,
            boards: 1
        })
    );
    assert_eq!(g, before);
}

#[test]
fn resignation_draw_offers_and_time_work_as_elsewhere() {
    let time = TimeControl::SuddenDeath { main_ms: 10_000 };
    let mut g = Game::new(
        GameConfig::new(RuleSet::Twin).with_time(time),
        Seat::First,
        0,
    )
    .unwrap();
    play(&mut g, "1:J10", 0);
    // An offer with white's first stone stands through its second.
    let offer = Action::Place {
        point: p("K10"),
        board: 1,
        offer_draw: true,
    };
    let ev = g.apply(Seat::Second, offer, 2_000).unwrap();
    assert!(ev.iter().any(|e| matches!(e, Event::DrawOffered { .. })));
    g.apply(Seat::Second, Action::place_on(1, p("K11")), 3_000)
        .unwrap();
    let ev = g.apply(Seat::First, Action::AcceptDraw, 4_000).unwrap();
    assert_eq!(over(&ev).unwrap().reason, ResultReason::DrawAgreed);

    let mut g = Game::new(
        GameConfig::new(RuleSet::Twin).with_time(time),
        Seat::First,
        0,
    )
    .unwrap();
    play(&mut g, "1:J10 2:J10", 0);
    // White is mid-turn when its time runs out.
    let ev = g.tick(2_000 + 10_000);
    assert_eq!(
        over(&ev).unwrap().reason,
        ResultReason::Time { seat: Seat::Second }
    );

    let mut g = twin();
    play(&mut g, "1:J10 2:J10", 0);
    let ev = g.apply(Seat::First, Action::Resign, 5_000).unwrap();
    assert_eq!(over(&ev).unwrap().winner(), Some(Seat::Second));
}

#[test]
fn a_record_replays_and_round_trips_through_json_and_notation() {
    let mut g = twin();
    play(&mut g, FOURS, 0);
    play(&mut g, "2:D10 1:E10", 50_000);
    assert!(g.is_over());
    let record = g.record();
    let back = tengen_rules::game::GameRecord::from_json(&record.to_json()).unwrap();
    assert_eq!(back, record);
    let replayed = back.replay().unwrap();
    assert_eq!(replayed.result(), g.result());
    assert_eq!(replayed.moves(), g.moves());
    assert_eq!(replayed.board_at(1), g.board_at(1));

    let text = record.renju_notation();
    assert!(text.starts_with("1:a10 1:a1 2:a1 1:b10 2:a10"), "{text}");
    assert!(text.ends_with("2:d10 1:e10"), "{text}");
    assert_eq!(g.renju_notation(), text);
    let imported = from_renju_notation(&text, RuleSet::Twin).unwrap();
    assert_eq!(imported.replay().unwrap().result(), g.result());
    assert!(matches!(
        from_renju_notation("a10 a1", RuleSet::Twin),
        Err(tengen_rules::game::ImportError::TwinToken { index: 1, .. })
    ));
    assert_eq!(record.to_psq(), Err(ExportError::TwoBoardsInPsq));
    assert!(from_psq("Piskvorky 19x19, 11:11, 0\n1,1,0\n", RuleSet::Twin).is_err());
}

/// A turn of one stone is judged when it ends, like any turn: a five on
/// one board in it loses (the twin rules rule 8), as the first of two stones would not
/// (the second could still make the other five).
#[test]
fn a_one_stone_turn_that_makes_one_five_loses() {
    let mut g = twin();
    play(&mut g, FOURS, 0);
    play(&mut g, "1:E10", 100_000);
    assert!(
        !g.is_over(),
        "a second stone could still make board 2's five"
    );
    let ev = g.apply(Seat::First, Action::EndTurn, 200_000).unwrap();
    let r = over(&ev).expect("judged at the end of the turn");
    assert!(matches!(
        r.reason,
        ResultReason::OneBoardFive { board: 0, .. }
    ));
    assert_eq!(r.winner(), Some(Seat::Second));
}
