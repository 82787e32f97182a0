//! The rule readings settled against the Chinese texts: that a claim names
//! the forbidden point, that a twin turn may be one stone or two, and that
//! the eight-stone quick game limits every move to 30 s. Each test cites
//! its document by title and article, under the short names of
//! docs/rules.md's Sources table, and quotes the words it turns on; the
//! test holds the referee to what those words demand, with the cases a
//! player would raise at the board.

use crate::common;
use crate::game_forbidden::{DOUBLE_FOUR, DOUBLE_THREE, OVERLINE, renju, setup};
use crate::game_twin;

use common::*;
use tengen_rules::game::{
    Action, ActionKind, Event, ForbiddenHandling, Game, GameError, Millis, ResultReason, Seat,
    Task, TimeControl, ViolationKind, from_renju_notation,
};
use tengen_rules::{Color, Forbidden, Point, game::RuleSet};

// ---- Claims name the forbidden point (docs/rules.md §3) -------------------

/// A false claim by white naming `point`, the `count`th violation.
fn false_claim(point: &str, count: u32) -> Event {
    Event::Violation {
        seat: Seat::Second,
        kind: ViolationKind::FalseClaim,
        count,
        point: Some(p(point)),
    }
}

/// The rules introduction, 连珠五子棋比赛中的规定和特例 item 7, and the
/// Chinese renju rules, 比赛规则 (竞赛中的规定和特例): "对局中如黑方出现禁手，
/// 白方应立即指出禁手点，黑方即负" — if black makes a forbidden move, white
/// must at once point out the forbidden *point*, and black loses. A claim
/// names it; the claimed point and its kind are in the upheld event, the
/// result and the record, and a replay reaches the same result.
#[test]
fn claim_names_the_forbidden_point() {
    let mut g = renju(ForbiddenHandling::Claim);
    let last = setup(&mut g, &DOUBLE_THREE, Forbidden::DoubleThree);
    play(&mut g, &last);
    let ev = g.apply(Seat::Second, Action::claim(p("I8")), 0).unwrap();
    assert_eq!(
        ev[0],
        Event::ClaimUpheld {
            seat: Seat::Second,
            point: p("I8"),
            kind: Forbidden::DoubleThree
        }
    );
    let expected = ResultReason::ForbiddenClaimed {
        point: p("I8"),
        forbidden: Forbidden::DoubleThree,
    };
    let r = game_over(&ev).unwrap();
    assert_eq!((r.winner(), &r.reason), (Some(Seat::Second), &expected));
    let record = g.record();
    assert!(
        record.to_json().contains(r#""point": "I8""#),
        "the record holds the claim's point"
    );
    let replayed = record.replay().unwrap();
    assert_eq!(replayed.result().unwrap().reason, expected);
    assert!(
        record.to_renju_text().contains("I8 (double-three)"),
        "{}",
        record.to_renju_text()
    );
}

/// The same words, "白方应立即指出禁手点" (the rules introduction, item 7;
/// the Chinese renju rules, 比赛规则): what white points out is the
/// forbidden point, so a claim naming another point has not pointed out
/// the forbidden move, though one stands. It is a false claim (a
/// violation, naming the point, docs/rules.md §3), not a win; a claim is
/// not a move, so the right to name the forbidden stone itself lasts until
/// white's next move. Two wrong points are two violations, and the second
/// loses the game with black's forbidden stone still on the board.
#[test]
fn claim_naming_a_wrong_point_is_a_false_claim() {
    // Black's double four at I8: F8 G8 H8 | I9 I10 I11.
    let mut g = renju(ForbiddenHandling::Claim);
    let last = setup(&mut g, &DOUBLE_FOUR, Forbidden::DoubleFour);
    play(&mut g, &last);
    // F8, a black stone of one of the fours, is not the forbidden point.
    let ev = g.apply(Seat::Second, Action::claim(p("F8")), 0).unwrap();
    assert_eq!(ev, vec![false_claim("F8", 1)]);
    assert!(!g.is_over());
    assert_eq!(g.to_act(), Some(Seat::Second), "still white's move");
    let ev = g.apply(Seat::Second, Action::claim(p("I8")), 0).unwrap();
    let r = game_over(&ev).expect("the forbidden point named");
    assert_eq!(
        r.reason,
        ResultReason::ForbiddenClaimed {
            point: p("I8"),
            forbidden: Forbidden::DoubleFour
        }
    );

    // Two wrong points: the second violation loses, I8 notwithstanding.
    let mut g = renju(ForbiddenHandling::Claim);
    let last = setup(&mut g, &DOUBLE_FOUR, Forbidden::DoubleFour);
    play(&mut g, &last);
    g.apply(Seat::Second, Action::claim(p("I11")), 0).unwrap();
    let ev = g.apply(Seat::Second, Action::claim(p("H8")), 0).unwrap();
    assert_eq!(ev[0], false_claim("H8", 2));
    let r = game_over(&ev).expect("the second violation");
    assert_eq!(
        (r.winner(), &r.reason),
        (
            Some(Seat::First),
            &ResultReason::Violations { seat: Seat::Second }
        )
    );
}

/// The national rules art. 10.1(2): "黑方走出長連禁手則不同，只要是在終局前，
/// 無論白方何時發現此長連禁手，指出此禁手而宣佈勝利，判白方勝" — an overline is
/// different: whenever white finds it before the game ends, white wins by
/// pointing out *this* forbidden move. The overline's stone need not be
/// black's last, so the claim names it: several moves later, on white's
/// turn or black's, naming another stone (black's last, or another stone
/// of the line) is a false claim, and naming the overline's stone wins.
#[test]
fn claim_of_an_overline_made_earlier_names_its_stone() {
    // L8 makes H8–M8, and white plays on. Then: white to move with black's
    // innocent D12 last, naming D12; black to move, naming K8, another
    // stone of the line (the overline stands for all to see, so the claim
    // is open on black's turn too).
    for (after, to_act, wrong) in [
        ("C9 M12 C11 D12", Seat::Second, "D12"),
        ("C9 M12 C11 D12 E3 L4 E5", Seat::First, "K8"),
    ] {
        let mut g = renju(ForbiddenHandling::Claim);
        let last = setup(&mut g, &OVERLINE, Forbidden::Overline);
        play(&mut g, &format!("{last} {after}"));
        assert_eq!(g.to_act(), Some(to_act));
        assert!(
            g.allowed(Seat::Second, 0)
                .contains(&ActionKind::ClaimForbidden)
        );
        let ev = g.apply(Seat::Second, Action::claim(p(wrong)), 0).unwrap();
        assert_eq!(ev, vec![false_claim(wrong, 1)]);
        let ev = g.apply(Seat::Second, Action::claim(p("L8")), 0).unwrap();
        assert_eq!(
            ev[0],
            Event::ClaimUpheld {
                seat: Seat::Second,
                point: p("L8"),
                kind: Forbidden::Overline
            }
        );
        assert_eq!(game_over(&ev).unwrap().winner(), Some(Seat::Second));
        let replayed = g.record().replay().unwrap();
        assert_eq!(replayed.result(), g.result());
    }
}

/// The national rules art. 10.1(2): "如白方在黑方出現禁手後，未立即指出而又
/// 落下一白子，則黑方禁手不再成立" — if white places a stone instead of
/// pointing the forbidden move out, it no longer counts. Naming the double
/// three once white has moved: while no claim could hold (black's last
/// stone is not the last move and no overline stands) it is refused and
/// changes nothing; after black's next stone it is judged, and as the
/// named stone no longer counts, it is a false claim.
#[test]
fn claim_of_a_forbidden_stone_white_played_past_no_longer_holds() {
    let mut g = renju(ForbiddenHandling::Claim);
    let last = setup(&mut g, &DOUBLE_THREE, Forbidden::DoubleThree);
    play(&mut g, &format!("{last} C9"));
    assert_eq!(
        refused(&mut g, Seat::Second, Action::claim(p("I8")), 0),
        GameError::ClaimNotPossible
    );
    play(&mut g, "M12");
    let ev = g.apply(Seat::Second, Action::claim(p("I8")), 0).unwrap();
    assert_eq!(ev, vec![false_claim("I8", 1)]);
    assert!(!g.is_over());
}

/// "白方应立即指出禁手点" (the rules introduction, item 7; the Chinese renju
/// rules, 比赛规则): the point pointed out is black's forbidden stone. A
/// claim naming an empty point, a white stone or a point off the board
/// names no black stone: it is refused with a typed error, changes nothing
/// (no violation, no record entry, the claim right intact) and the claim of
/// the forbidden point then wins.
#[test]
fn claim_naming_no_black_stone_is_refused_and_changes_nothing() {
    let mut g = renju(ForbiddenHandling::Claim);
    let last = setup(&mut g, &DOUBLE_THREE, Forbidden::DoubleThree);
    play(&mut g, &last);
    let entries = g.entries().len();
    // H9 is empty, A1 white's, (15, 3) off the 15 × 15 board.
    for point in [p("H9"), p("A1"), Point::new(15, 3)] {
        assert_eq!(
            refused(&mut g, Seat::Second, Action::claim(point), 0),
            GameError::ClaimNotBlackStone { point }
        );
    }
    assert_eq!(g.violations(Seat::Second), 0);
    assert_eq!(g.entries().len(), entries);
    let ev = g.apply(Seat::Second, Action::claim(p("I8")), 0).unwrap();
    assert!(matches!(ev[0], Event::ClaimUpheld { point, .. } if point == p("I8")));
}

// ---- Twin: a turn is one stone or two (docs/rules.md §9) ------------------

/// The twin rules rule 3: "第一回合先手只能下一手" — in the first turn the
/// first player may play only one stone. Black's first stone ends its
/// turn by itself: there is no turn to end before it, and no second black
/// stone after it.
#[test]
fn twin_the_first_turn_is_one_stone() {
    let mut g = game_twin::twin();
    let prompt = g.prompt(0).unwrap();
    assert_eq!((prompt.seat, prompt.stones_left), (Seat::First, Some(1)));
    assert!(!prompt.may.contains(&ActionKind::EndTurn));
    assert_eq!(
        refused(&mut g, Seat::First, Action::EndTurn, 0),
        GameError::TurnCannotEnd
    );
    game_twin::play(&mut g, "1:J10", 0);
    assert_eq!(g.to_act(), Some(Seat::Second));
    for action in [Action::place_on(1, p("J10")), Action::EndTurn] {
        assert_eq!(
            refused(&mut g, Seat::First, action, 1_500),
            GameError::NotYourTurn
        );
    }
    // White's first turn is a full one: two stones.
    assert_eq!(g.prompt(1_500).unwrap().stones_left, Some(2));
}

/// The twin rules rules 3 and 4: "其馀回合可以下连续两手" and "后手每回合均可以
/// 下连续两手" — every other turn of the first player, and every turn of the
/// second, *may* be two stones in a row: two stones end the turn by
/// themselves; one stone and then `end_turn` is a turn too, for either
/// colour. The second stone is declined with `end_turn`, not with a pass
/// (the text gives no pass; a pass is refused and changes nothing), and
/// there is nothing to end before a turn's first stone. The clock is
/// pressed once a turn.
#[test]
fn twin_a_turn_may_be_one_stone_or_two() {
    let mut g = game_twin::twin_fischer();
    game_twin::play(&mut g, "1:J10", 0);
    // White: before its first stone, no end.
    let prompt = g.prompt(1_000).unwrap();
    assert_eq!((prompt.seat, prompt.stones_left), (Seat::Second, Some(2)));
    assert!(!prompt.may.contains(&ActionKind::EndTurn));
    assert_eq!(
        refused(&mut g, Seat::Second, Action::EndTurn, 1_500),
        GameError::TurnCannotEnd
    );
    game_twin::play(&mut g, "1:K10", 1_000);
    let prompt = g.prompt(2_000).unwrap();
    assert_eq!((prompt.seat, prompt.stones_left), (Seat::Second, Some(1)));
    assert!(prompt.may.contains(&ActionKind::EndTurn));
    assert_eq!(
        refused(&mut g, Seat::Second, Action::pass(), 2_500),
        GameError::NoPassInTwin
    );
    assert_eq!(
        refused(&mut g, Seat::First, Action::EndTurn, 2_500),
        GameError::NotYourTurn
    );
    // White ends its turn after one stone: the clock is pressed (with the
    // increment) and black's turn of up to two begins.
    let ev = g.apply(Seat::Second, Action::EndTurn, 3_000).unwrap();
    assert!(matches!(
        ev[0],
        Event::TurnEnded {
            seat: Seat::Second,
            ..
        }
    ));
    let c = g.clocks(3_000).unwrap();
    assert_eq!(c.running, Some(Seat::First));
    assert_eq!(c.second.main_ms, 60_000 - 2_000 + 5_000);
    let prompt = g.prompt(3_000).unwrap();
    assert_eq!(
        (prompt.seat, prompt.stones_left, prompt.task),
        (
            Seat::First,
            Some(2),
            Task::Place {
                color: Color::Black,
                move_number: 3,
                within: None
            }
        )
    );
    // Black plays two: the turn ends by itself, no end action needed.
    game_twin::play(&mut g, "2:J10 2:J11", 3_000);
    assert_eq!(g.to_act(), Some(Seat::Second));
    // White plays two; black then one and ends its turn.
    game_twin::play(&mut g, "2:K10 2:K11 1:L12", 5_000);
    let prompt = g.prompt(9_000).unwrap();
    assert_eq!((prompt.seat, prompt.stones_left), (Seat::First, Some(1)));
    g.apply(Seat::First, Action::EndTurn, 9_000).unwrap();
    assert_eq!(g.to_act(), Some(Seat::Second));
    let colours: Vec<Color> = g.moves().iter().map(|m| m.color).collect();
    use Color::{Black as B, White as W};
    assert_eq!(colours, [B, W, B, B, W, W, B]);

    // The record replays, and its notation marks the one-stone turns.
    let record = g.record();
    assert_eq!(record.replay().unwrap().moves(), g.moves());
    let text = record.renju_notation();
    assert_eq!(text, "1:j10 1:k10 end 2:j10 2:j11 2:k10 2:k11 1:l12 end");
    let again = from_renju_notation(&text, RuleSet::Twin).unwrap();
    let replayed = again.replay().unwrap();
    let placed = |g: &Game| -> Vec<_> {
        g.moves()
            .iter()
            .map(|m| (m.color, m.board, m.point))
            .collect()
    };
    assert_eq!(placed(&replayed), placed(&g));
}

// ---- The eight-stone quick game: 30 s a move (docs/rules.md §7) -----------

/// The tournament rules' quick game: 5 minutes, 30 s a move, eight
/// overtime stones, with the per-move limit in the main time, and with or
/// without one main time for the game.
fn quick_game(shared_main: bool) -> TimeControl {
    TimeControl::EightStone {
        main_ms: 300_000,
        move_ms: 30_000,
        stones: 8,
        move_limit_in_main: true,
        shared_main,
    }
}

/// The tournament rules rule 2: "比赛采用快棋每场5分钟，步时30秒越时判负" — the
/// games are quick games of 5 minutes, 30 s a move, a late move loses. The
/// limit holds for every move, main time or not: a move that takes 30 s
/// loses on time with minutes of main time left, under both options the
/// room offers for "每场5分钟" —
/// - `eight:5+30s/8`: 5 minutes *per side* (`move_limit_in_main`);
/// - `eight:5+30s/8,shared`: 5 minutes *for the game*, one main time
///   charged to whoever is to move (`move_limit_in_main` and
///   `shared_main`).
///
/// Rooms and records from before the limit (`eight:5+30s/8,nolimit`)
/// keep their reading of the sentence as announcing the overtime only:
/// there the same move is in time.
#[test]
fn eight_stone_a_move_over_30_s_loses_with_main_time_left() {
    for shared in [false, true] {
        let control = quick_game(shared);
        let form = if shared {
            "eight:5+30s/8,shared"
        } else {
            "eight:5+30s/8"
        };
        assert_eq!(control.to_string(), form);
        let mut g = timed(control);
        assert_eq!(g.flag_at(), Some(30_000), "{form}: the first move's limit");
        // Black just in time, white in 10 s; then black dawdles.
        g.apply(Seat::First, Action::place(p("H8")), 29_999)
            .unwrap();
        let ev = g
            .apply(Seat::Second, Action::place(p("A1")), 39_999)
            .unwrap();
        let c = moved_clocks(&ev);
        let (black, white) = if shared {
            (300_000 - 39_999, 300_000 - 39_999)
        } else {
            (300_000 - 29_999, 300_000 - 10_000)
        };
        assert_eq!(
            (c.first.main_ms, c.second.main_ms),
            (black, white),
            "{form}"
        );
        let flag: Millis = 39_999 + 30_000;
        assert_eq!(g.flag_at(), Some(flag), "{form}: 30 s, not the main time");
        let before_flag = g.clocks(flag - 1).unwrap();
        assert!(
            before_flag.first.main_ms > 200_000,
            "{form}: {before_flag:?}"
        );
        assert!(g.tick(flag - 1).is_empty());
        // A stone at the 30th second is late: refused, nothing changes...
        assert_eq!(
            refused(&mut g, Seat::First, Action::place(p("J10")), flag),
            GameError::TimeUp { seat: Seat::First }
        );
        // ... and the flag falls: black loses on time.
        let ev = g.tick(flag);
        let r = game_over(&ev).expect("the move's limit fell");
        assert_eq!(
            (r.winner(), &r.reason),
            (
                Some(Seat::Second),
                &ResultReason::Time { seat: Seat::First }
            ),
            "{form}"
        );
        let replayed = g.record().replay().unwrap();
        assert_eq!(replayed.result(), g.result(), "{form}");
    }

    // Without the limit (the older reading), the same move is in time.
    let older = TimeControl::eight_stone(300_000, 30_000, 8);
    assert_eq!(older.to_string(), "eight:5+30s/8,nolimit");
    let mut g = timed(older);
    play_at(&mut g, "H8 A1", 29_999, 10_000);
    g.apply(Seat::First, Action::place(p("J10")), 39_999 + 30_000)
        .unwrap();
    assert!(!g.is_over());
}

/// The tournament rules rule 2, as above: "步时30秒越时判负" (30 s a move, a
/// late move loses) in the main time too (`move_limit_in_main`). The limit
/// is each move's own — time a move leaves unused is not carried — and a
/// move begun with less main time left than 30 s goes on, once the main
/// time is out, as the first overtime move with its full 30 s (the text's
/// "每步30秒读秒阶段", the overtime of 30 s a move).
#[test]
fn eight_stone_the_move_limit_holds_in_the_main_time_too() {
    let limited = TimeControl::EightStone {
        main_ms: 10_000,
        move_ms: 3_000,
        stones: 2,
        move_limit_in_main: true,
        shared_main: false,
    };
    let mut g = timed(limited);
    // 10 s of main time, 3 s a move: black's first move is due within 3 s.
    assert_eq!(g.flag_at(), Some(3_000));
    let ev = g.apply(Seat::First, Action::place(p("H8")), 2_500).unwrap();
    let c = moved_clocks(&ev);
    assert_eq!((c.first.main_ms, c.first.period_ms), (7_500, 3_000));
    // White dawdles past 3 s with main time to spare: it loses on time.
    assert!(g.tick(5_499).is_empty());
    let ev = g.tick(5_500);
    let r = game_over(&ev).expect("the move limit fell");
    assert_eq!(r.reason, ResultReason::Time { seat: Seat::Second });
    let again = g.record().replay().unwrap();
    assert_eq!(again.result(), g.result());

    // A move begun with less main time than the limit: the main time runs
    // out first, then the overtime move has its own 3 s.
    let mut g = timed(limited);
    play_at(&mut g, "H8 A1 J10 A3", 2_000, 2_000);
    // Black has 6 s of main time left and 3 s of limit: the limit rules.
    assert_eq!(g.flag_at(), Some(8_000 + 3_000));
    play_at(&mut g, "L12 A5", 10_000, 2_000);
    // Each side has used three moves of 2 s: 4 s of main time left.
    let c = g.clocks(12_000).unwrap();
    assert_eq!(c.first.main_ms, 10_000 - 2_000 - 2_000 - 2_000);
    assert_eq!(c.second.main_ms, 10_000 - 2_000 - 2_000 - 2_000);
    g.apply(Seat::First, Action::place(p("N14")), 14_500)
        .unwrap();
    // Black's 1.5 s main time left; white 4 s: white's limit (3 s) first.
    assert_eq!(g.flag_at(), Some(14_500 + 3_000));
    g.apply(Seat::Second, Action::place(p("A7")), 15_000)
        .unwrap();
    // Black's main time (1.5 s) runs out before its 3 s limit: then a full
    // overtime move of 3 s follows.
    assert_eq!(g.flag_at(), Some(15_000 + 1_500 + 3_000));
    let c = g.clocks(17_000).unwrap();
    assert_eq!((c.first.main_ms, c.first.period_ms), (0, 2_500));
    assert_eq!(c.second.main_ms, 0, "the overtime is both sides'");
}

/// The tournament rules rule 2: "每场5分钟" (5 minutes a game) and "若比赛时满"
/// (when the game's time is up): read as one clock for the game,
/// `shared_main` charges every move's time to one main time, and the
/// overtime begins for both when it is out.
#[test]
fn eight_stone_a_shared_main_time_is_the_games() {
    let shared = TimeControl::EightStone {
        main_ms: 10_000,
        move_ms: 3_000,
        stones: 2,
        move_limit_in_main: false,
        shared_main: true,
    };
    let mut g = timed(shared);
    let ev = g.apply(Seat::First, Action::place(p("H8")), 4_000).unwrap();
    let c = moved_clocks(&ev);
    assert_eq!((c.first.main_ms, c.second.main_ms), (6_000, 6_000));
    let c = g.clocks(7_000).unwrap();
    assert_eq!((c.first.main_ms, c.second.main_ms), (3_000, 3_000));
    g.apply(Seat::Second, Action::place(p("A1")), 7_000)
        .unwrap();
    // 3 s of the game's main time left, then black's first overtime move.
    assert_eq!(g.flag_at(), Some(7_000 + 3_000 + 3_000));
    let c = g.clocks(11_000).unwrap();
    let overtime = |period_ms, period_moves| tengen_rules::game::SeatClock {
        period_ms,
        period_moves,
        ..Default::default()
    };
    assert_eq!(c.first, overtime(2_000, 2));
    assert_eq!(c.second, overtime(3_000, 2));
    let again = g.record().replay().unwrap();
    assert_eq!(again.clocks(11_000), g.clocks(11_000));
    // Both options on the wire; left out when off, as older records are.
    let json = serde_json::to_string(&shared).unwrap();
    assert!(json.contains(r#""shared_main":true"#), "{json}");
    let older = TimeControl::eight_stone(10_000, 3_000, 2);
    let json = serde_json::to_string(&older).unwrap();
    assert!(
        !json.contains("shared_main") && !json.contains("move_limit_in_main"),
        "{json}"
    );
}
