//! Game records: the versioned JSON form, exact replay, tamper detection,
//! and the stone-list formats (renju notation, PSQ) both ways.

use crate::common;

use common::*;
use tengen_rules::Color;
use tengen_rules::game::{
    Action, DrawPolicy, ExportError, Game, GameConfig, GameError, GameRecord, ImportError, Input,
    Opening, Outcome, ReplayError, ResultReason, RuleSet, Seat, TimeControl, from_psq,
    from_renju_notation, import,
};

/// A game that exercises most kinds of input: a swap, offers, a decline, a
/// lapse (tick), lag credit, a pass, and a resignation, with byo-yomi
/// clocks and the second seat as opener.
fn eventful() -> Game {
    let mut g = Game::new(
        GameConfig::new(RuleSet::Gomoku)
            .with_opening(Opening::SwapAfterThree)
            .with_time(TimeControl::ByoYomi {
                main_ms: 20_000,
                periods: 2,
                period_ms: 5_000,
                moves_per_period: 1,
            })
            .with_draw(DrawPolicy {
                max_offers: Some(3),
                answer_ms: Some(4_000),
            }),
        Seat::Second,
        1_000,
    )
    .unwrap();
    let s = Seat::Second;
    let f = Seat::First;
    g.apply_with_lag(s, Action::place(p("H8")), 2_000, 300)
        .unwrap();
    g.apply(f, Action::place(p("I9")), 3_500).unwrap();
    g.apply(
        s,
        Action::Place {
            point: p("J10"),
            board: 0,
            offer_draw: true,
        },
        9_000,
    )
    .unwrap();
    g.apply(f, Action::DeclineDraw, 9_500).unwrap();
    g.apply(f, Action::Swap, 10_000).unwrap();
    g.apply(s, Action::place(p("A1")), 12_000).unwrap();
    g.apply(f, Action::place(p("K11")), 13_000).unwrap();
    g.apply(f, Action::OfferDraw, 13_100).unwrap();
    assert_eq!(g.tick(17_100).len(), 1, "the offer lapses");
    g.apply(s, Action::pass(), 30_000).unwrap();
    g.apply(f, Action::place(p("L12")), 31_000).unwrap();
    g.apply(s, Action::Resign, 32_000).unwrap();
    g
}

#[test]
fn json_round_trip_and_exact_replay() {
    let g = eventful();
    let rec = g
        .record()
        .with_tag("first", "alice")
        .with_tag("second", "bob");
    let json = rec.to_json();
    let back = GameRecord::from_json(&json).unwrap();
    assert_eq!(back, rec);
    let replayed = back.replay().unwrap();
    assert_eq!(replayed, g, "replay reproduces the whole game");
    assert_eq!(replayed.snapshot(40_000), g.snapshot(40_000));
    let r = replayed.result().unwrap();
    assert_eq!(r.reason, ResultReason::Resignation { seat: Seat::Second });
    assert_eq!(
        r.outcome,
        Outcome::Win {
            seat: Seat::First,
            color: Color::Black
        }
    );
}

#[test]
fn json_form_is_documented_shape() {
    let rec = eventful().record();
    let v: serde_json::Value = serde_json::from_str(&rec.to_json()).unwrap();
    assert_eq!(v["version"], 1);
    assert_eq!(v["opener"], "second");
    assert_eq!(v["start"], 1_000);
    assert_eq!(v["config"]["rule_set"], "gomoku");
    let e0 = &v["entries"][0];
    assert_eq!(e0["at"], 2_000);
    assert_eq!(e0["input"], "act");
    assert_eq!(e0["seat"], "second");
    assert_eq!(e0["action"]["type"], "place");
    assert_eq!(e0["action"]["point"], "H8");
    assert_eq!(e0["lag_credit_ms"], 300);
    assert_eq!(e0["clocks"]["running"], "first");
    assert!(
        v["entries"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["input"] == "tick")
    );
    assert_eq!(v["result"]["outcome"]["kind"], "win");
    assert_eq!(v["result"]["reason"]["kind"], "resignation");
}

#[test]
fn live_record_replays_mid_game() {
    let mut g = new_game(RuleSet::Renju);
    play(&mut g, "H8 I9 J10");
    let rec = g.record();
    assert_eq!(rec.result, None);
    let mut again = rec.replay().unwrap();
    assert_eq!(again, g);
    // The restored game goes on like the original.
    play(&mut again, "A1");
    play(&mut g, "A1");
    assert_eq!(again, g);
}

#[test]
fn tampered_records_are_caught() {
    let rec = eventful().record();

    let mut v = rec.clone();
    v.version = 2;
    assert_eq!(v.replay().unwrap_err(), ReplayError::Version(2));

    let mut c = rec.clone();
    c.entries[1].clocks.as_mut().unwrap().first.main_ms += 1;
    assert_eq!(
        c.replay().unwrap_err(),
        ReplayError::ClocksDiffer { index: 1 }
    );

    let mut r = rec.clone();
    r.result = None;
    assert_eq!(r.replay().unwrap_err(), ReplayError::ResultDiffers);

    let mut o = rec.clone();
    o.entries[1].input = Input::Act {
        seat: Seat::First,
        action: Action::place(p("H8")),
        lag_credit_ms: 0,
    };
    assert_eq!(
        o.replay().unwrap_err(),
        ReplayError::Refused {
            index: 1,
            at: 3_500,
            error: GameError::Occupied { point: p("H8") }
        }
    );

    let mut t = rec.clone();
    let mut tick = t.entries[0].clone();
    tick.input = Input::Tick;
    t.entries.insert(1, tick);
    assert_eq!(
        t.replay().unwrap_err(),
        ReplayError::IdleTick {
            index: 1,
            at: 2_000
        }
    );

    let mut bad = rec;
    bad.config.board_size = 17;
    assert!(matches!(bad.replay().unwrap_err(), ReplayError::Config(_)));
}

#[test]
fn renju_notation_out_and_in() {
    let mut g = new_game(RuleSet::Renju);
    play(&mut g, "H8 I9 J10 A1 A3 pass");
    assert_eq!(g.renju_notation(), "h8 i9 j10 a1 a3 pass");
    assert_eq!(g.record().renju_notation(), "h8 i9 j10 a1 a3 pass");

    let rec = from_renju_notation("1. h8 2. i9, J10 a1\na3 PASS", RuleSet::Renju).unwrap();
    let back = rec.replay().unwrap();
    assert_eq!(back.board(), g.board());
    assert_eq!(back.moves(), g.moves());

    // A notation record that ends in a five has a result.
    let rec = from_renju_notation("h8 a1 g8 a3 f8 a5 e8 a7 d8", RuleSet::Renju).unwrap();
    let r = rec.result.clone().unwrap();
    assert_eq!(r.winner_color(), Some(Color::Black));
    assert!(matches!(r.reason, ResultReason::Five { .. }));
    assert_eq!(
        r.describe(),
        "black (first seat) wins: 5 in a row (D8 E8 F8 G8 H8)"
    );

    // Errors name the token or the move.
    assert_eq!(
        from_renju_notation("h8 zz", RuleSet::Renju).unwrap_err(),
        ImportError::Token {
            index: 2,
            token: "zz".into()
        }
    );
    assert!(matches!(
        from_renju_notation("h8 i9 pass", RuleSet::Renju).unwrap_err(),
        ImportError::Illegal {
            move_number: 3,
            error: GameError::PassNotAllowed,
            ..
        }
    ));
    assert!(matches!(
        from_renju_notation("i9", RuleSet::Renju).unwrap_err(),
        ImportError::Illegal {
            move_number: 1,
            error: GameError::OutsideZone { within: 1 },
            ..
        }
    ));
    // Free-style notation beyond the standard board is read on 19 x 19.
    let big = from_renju_notation("k10 s19", RuleSet::Freestyle).unwrap();
    assert_eq!(big.config.board_size, 19);
}

#[test]
fn psq_out_and_in() {
    let mut g = new_game(RuleSet::Freestyle);
    play_at(&mut g, "H8 A1 O15", 1_000, 1_500);
    let rec = g.record().with_tag("first", "alice");
    let text = rec.to_psq().unwrap();
    assert_eq!(
        text,
        "Piskvorky 15x15, 11:11, 0\n8,8,1000\n1,15,1500\n15,1,1500\nalice\nsecond seat\n-1\n"
    );
    let back = from_psq(&text, RuleSet::Freestyle).unwrap();
    assert_eq!(back.renju_notation(), "h8 a1 o15");
    assert_eq!(back.entries[2].at, 4_000, "move times add up");
    assert_eq!(back.to_psq().unwrap().lines().nth(3), Some("15,1,1500"));

    // Gomocup files: 2 or 3 fields, trailer lines after the moves.
    let gomocup =
        "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,12\n8,9\nA.zip\nB.zip\n-1\n0,Freestyle15_1\n";
    let r = from_psq(gomocup, RuleSet::Gomoku).unwrap();
    assert_eq!(r.renju_notation(), "h8 i7 h7");

    assert!(matches!(
        from_psq("Piskvork 15x15\n8,8,0", RuleSet::Gomoku).unwrap_err(),
        ImportError::PsqHeader(_)
    ));
    assert!(matches!(
        from_psq("Piskvorky 15x15, 0:0, 0\n16,1,0", RuleSet::Gomoku).unwrap_err(),
        ImportError::PsqPoint { line: 2, .. }
    ));
    assert!(matches!(
        from_psq("Piskvorky 19x19, 0:0, 0\n10,10,0", RuleSet::Renju).unwrap_err(),
        ImportError::Config(_)
    ));

    // No passes in PSQ.
    let mut g = new_game(RuleSet::Gomoku);
    play(&mut g, "H8 A1 L12 A3 D12 pass");
    assert_eq!(g.record().to_psq().unwrap_err(), ExportError::PassInPsq(6));
}

#[test]
fn import_reads_any_of_the_three() {
    let g = eventful();
    let json = g.record().to_json();
    let from_json = import(&json, RuleSet::Renju).unwrap();
    assert_eq!(
        from_json.config.rule_set,
        RuleSet::Gomoku,
        "a JSON record brings its own rules"
    );
    assert_eq!(from_json.replay().unwrap(), g);

    let psq = import("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n", RuleSet::Renju).unwrap();
    assert_eq!(psq.config.rule_set, RuleSet::Renju);
    assert_eq!(psq.renju_notation(), "h8 i7");

    let notation = import("  h8 i9\n", RuleSet::Gomoku).unwrap();
    assert_eq!(notation.config.opening, Opening::Free);
    assert_eq!(notation.replay().unwrap().moves().len(), 2);

    assert!(matches!(
        import("{ not json", RuleSet::Gomoku),
        Err(ImportError::Json(_))
    ));
}

/// A record read from a file is not replayed before it is written out: PSQ
/// export takes times that run backwards as 0 ms and refuses a stone off
/// the board, instead of overflowing (found by the `records` fuzz target).
#[test]
fn psq_of_an_unreplayed_record_never_overflows() {
    let mut g = new_game(RuleSet::Freestyle);
    play_at(&mut g, "H8 A1 O15", 1_000, 1_500);
    let mut rec = g.record();
    rec.entries[1].at = 0;
    let text = rec.to_psq().unwrap();
    assert_eq!(text.lines().nth(2), Some("1,15,0"), "{text}");
    let Input::Act { ref mut action, .. } = rec.entries[2].input else {
        panic!("move 3 is an action");
    };
    *action = Action::place("S19".parse().unwrap());
    assert_eq!(rec.to_psq().unwrap_err(), ExportError::OffBoard(3));
}

/// A game in renju notation as renju players keep it: the tags (rule set,
/// opening rule, date, players by colour after the swap, the canonical
/// opening, the fifth-move offers, result and termination), then the
/// numbered moves with the swap and the offers in braces. Readers of the
/// plain list read it too.
#[test]
fn a_renju_text_keeps_the_whole_opening() {
    use tengen_rules::game::{ForbiddenHandling, Opening, import};
    let mut g = game(
        GameConfig::new(RuleSet::Renju)
            .with_opening(Opening::Rif)
            .with_forbidden(ForbiddenHandling::Claim),
    );
    // First seat opens (tentative black); white swaps; offers K11 and G7,
    // white keeps K11; then black's I8 is a double three and is claimed.
    play(&mut g, "H8 I9 J10 swap I7 offer:K11,G7 keep:K11 A1");
    assert_eq!(g.seat_of(tengen_rules::Color::Black), Seat::Second);
    let record = g
        .record()
        .with_tag("first", "alice")
        .with_tag("second", "bob")
        .with_tag("started_unix_ms", "1777680000000");
    let text = record.to_renju_text();
    for want in [
        "[Game \"renju\"]",
        "[Rule \"rif\"]",
        "[Forbidden \"claim\"]",
        "[Date \"2026.05.02\"]",
        "[Black \"bob\"]",
        "[White \"alice\"]",
        "[Opening \"I1 Chosei 长星\"]",
        "[Alt \"k11 g7\"]",
        "1. h8 2. i9 3. j10 {swap} 4. i7 5. k11 {5th-move offers: k11 g7} 6. a1",
    ] {
        assert!(text.contains(want), "{want} missing in:\n{text}");
    }
    assert!(!text.contains("[Result"), "the game runs");
    // It reads back: the same stones, in a renju game (the Game tag).
    let back = import(&text, RuleSet::Freestyle).unwrap();
    assert_eq!(back.config.rule_set, RuleSet::Renju);
    let stones = |r: &tengen_rules::game::GameRecord| -> Vec<_> {
        r.replay()
            .unwrap()
            .moves()
            .iter()
            .map(|m| m.point)
            .collect()
    };
    assert_eq!(stones(&back), stones(&record));
    // The plain list is read as before.
    assert_eq!(
        stones(&import("h8 i9 j10 i7 k11 a1", RuleSet::Renju).unwrap()),
        stones(&record)
    );
    // Finished: the result and why, with a claimed point and its kind.
    g.apply(Seat::Second, Action::Resign, 0).unwrap();
    let text = g.record().to_renju_text();
    assert!(text.contains("[Result \"white wins\"]"), "{text}");
    assert!(
        text.contains("[Termination \"second seat resigned\"]"),
        "{text}"
    );
}
