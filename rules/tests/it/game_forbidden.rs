//! Renju forbidden moves in the three room modes (docs/rules.md §3): claim,
//! lose, block; claims that hold, claims that come too late, false claims
//! and the second violation; when a claim is open; and that a claim room
//! never lets on. What a claim must name, as the texts word it, is tested
//! with the other rule readings (`readings`).

use crate::common;

use common::*;
use tengen_rules::game::{
    Action, ActionKind, Event, ForbiddenHandling, ForbiddenStone, Game, GameConfig, GameError,
    Outcome, ResultReason, RuleSet, Seat, ViolationKind,
};
use tengen_rules::{Color, Forbidden};

/// Black: G8 H8 I8 horizontally and I8 I9 I10 vertically: I8 is a double three.
pub(crate) const DOUBLE_THREE: [&str; 5] = ["H8", "G8", "I9", "I10", "I8"];
/// Black: H8 I8 J8 K8 . M8, then L8 makes six.
pub(crate) const OVERLINE: [&str; 6] = ["H8", "I8", "J8", "K8", "M8", "L8"];
/// Black: F8 G8 H8 and I9 I10 I11, then I8 makes two fours.
pub(crate) const DOUBLE_FOUR: [&str; 7] = ["H8", "G8", "F8", "I9", "I10", "I11", "I8"];

pub(crate) fn renju(mode: ForbiddenHandling) -> Game {
    game(GameConfig::new(RuleSet::Renju).with_forbidden(mode))
}

/// Plays all of `black` but the last (with far white moves), checks the
/// last is forbidden of `kind`, and returns the text of the last black move
/// with its preceding white move.
pub(crate) fn setup(g: &mut Game, black: &[&str], kind: Forbidden) -> String {
    let seq = with_far_white(black);
    let mut toks: Vec<&str> = seq.split_whitespace().collect();
    let last = toks.pop().unwrap();
    play(g, &toks.join(" "));
    assert_eq!(g.board().forbidden(p(last)), Some(kind), "test position");
    last.to_string()
}

#[test]
fn claim_right_after_the_forbidden_move_wins() {
    for (black, kind) in [
        (&DOUBLE_THREE[..], Forbidden::DoubleThree),
        (&OVERLINE[..], Forbidden::Overline),
        (&DOUBLE_FOUR[..], Forbidden::DoubleFour),
    ] {
        let mut g = renju(ForbiddenHandling::Claim);
        let last = setup(&mut g, black, kind);
        play(&mut g, &last);
        assert!(!g.is_over(), "the forbidden stone stands");
        let ev = g.apply(Seat::Second, Action::claim(p(&last)), 0).unwrap();
        assert_eq!(
            ev[0],
            Event::ClaimUpheld {
                seat: Seat::Second,
                point: p(&last),
                kind
            }
        );
        let r = game_over(&ev).unwrap();
        assert_eq!(
            r.outcome,
            Outcome::Win {
                seat: Seat::Second,
                color: Color::White
            }
        );
        assert_eq!(
            r.reason,
            ResultReason::ForbiddenClaimed {
                point: p(&last),
                forbidden: kind
            }
        );
    }
}

#[test]
fn a_forbidden_move_stands_once_white_plays_on() {
    let mut g = renju(ForbiddenHandling::Claim);
    let last = setup(&mut g, &DOUBLE_THREE, Forbidden::DoubleThree);
    play(&mut g, &format!("{last} C9"));
    // White has moved: no claim is open on black's turn (black's last
    // stone is behind white's), and one is refused with no penalty.
    assert!(
        !g.allowed(Seat::Second, 0)
            .contains(&ActionKind::ClaimForbidden)
    );
    assert_eq!(
        refused(&mut g, Seat::Second, Action::claim(p("I8")), 0),
        GameError::ClaimNotPossible
    );
    assert_eq!(g.violations(Seat::Second), 0);
    // Black plays on normally; a claim of I8 now names a stone that is
    // not black's last: a false claim, shown with the point it named.
    play(&mut g, "M12");
    assert_eq!(g.to_act(), Some(Seat::Second));
    let ev = g.apply(Seat::Second, Action::claim(p("I8")), 0).unwrap();
    assert_eq!(
        ev,
        vec![Event::Violation {
            seat: Seat::Second,
            kind: ViolationKind::FalseClaim,
            count: 1,
            point: Some(p("I8")),
        }]
    );
    assert!(!g.is_over());
    assert_eq!(g.violations(Seat::Second), 1);
    assert_eq!(
        g.board().get(p("I8")),
        Some(Color::Black),
        "the stone stays"
    );
}

#[test]
fn declining_a_draw_does_not_end_whites_claim() {
    // Black offers a draw with the forbidden move; white declines it first
    // and claims after: declining is no move, so the claim still holds.
    let mut g = renju(ForbiddenHandling::Claim);
    let last = setup(&mut g, &DOUBLE_THREE, Forbidden::DoubleThree);
    g.apply(
        Seat::First,
        Action::Place {
            point: p(&last),
            board: 0,
            offer_draw: true,
        },
        0,
    )
    .unwrap();
    g.apply(Seat::Second, Action::DeclineDraw, 0).unwrap();
    let ev = g.apply(Seat::Second, Action::claim(p(&last)), 0).unwrap();
    assert_eq!(
        ev[0],
        Event::ClaimUpheld {
            seat: Seat::Second,
            point: p(&last),
            kind: Forbidden::DoubleThree
        }
    );
    assert_eq!(game_over(&ev).unwrap().winner(), Some(Seat::Second));
}

#[test]
fn a_white_pass_ends_the_claim_on_the_last_stone() {
    // A pass is a move: after it the double three stands.
    let mut g = renju(ForbiddenHandling::Claim);
    let last = setup(&mut g, &DOUBLE_THREE, Forbidden::DoubleThree);
    play(&mut g, &last);
    g.apply(Seat::Second, Action::Pass { offer_draw: false }, 0)
        .unwrap();
    play(&mut g, "M12");
    let ev = g.apply(Seat::Second, Action::claim(p(&last)), 0).unwrap();
    assert!(matches!(ev[0], Event::Violation { count: 1, .. }), "{ev:?}");
}

#[test]
fn black_acting_does_not_end_whites_claim() {
    // Black offers a draw right after the forbidden move; white may still claim.
    let mut g = renju(ForbiddenHandling::Claim);
    let last = setup(&mut g, &DOUBLE_THREE, Forbidden::DoubleThree);
    play(&mut g, &last);
    g.apply(Seat::First, Action::OfferDraw, 0).unwrap();
    let ev = g.apply(Seat::Second, Action::claim(p(&last)), 0).unwrap();
    assert!(matches!(ev[0], Event::ClaimUpheld { .. }));
}

#[test]
fn two_false_claims_lose() {
    let mut g = renju(ForbiddenHandling::Claim);
    play(&mut g, &with_far_white(&["H8", "J10", "L12", "E4", "F11"]));
    let ev = g.apply(Seat::Second, Action::claim(p("F11")), 0).unwrap();
    assert!(matches!(ev.as_slice(), [Event::Violation { count: 1, .. }]));
    play(&mut g, "A14 C2");
    let ev = g.apply(Seat::Second, Action::claim(p("C2")), 0).unwrap();
    assert!(matches!(
        ev[0],
        Event::Violation {
            seat: Seat::Second,
            count: 2,
            ..
        }
    ));
    let r = game_over(&ev).unwrap();
    assert_eq!(
        r.outcome,
        Outcome::Win {
            seat: Seat::First,
            color: Color::Black
        }
    );
    assert_eq!(r.reason, ResultReason::Violations { seat: Seat::Second });
}

/// Records from before claims named their point hold claims without one:
/// they are judged as they were (the referee finds the stone), never
/// refused, so that those records replay to their result.
#[test]
fn a_claim_without_a_point_is_judged_as_it_was() {
    let mut g = renju(ForbiddenHandling::Claim);
    play(&mut g, "H8 A1");
    let unnamed = Action::ClaimForbidden { point: None };
    let ev = g.apply(Seat::Second, unnamed, 0).unwrap();
    assert!(matches!(
        ev.as_slice(),
        [Event::Violation {
            count: 1,
            point: None,
            ..
        }]
    ));
    let mut g = renju(ForbiddenHandling::Claim);
    let last = setup(&mut g, &OVERLINE, Forbidden::Overline);
    play(&mut g, &format!("{last} C9 M12"));
    let ev = g.apply(Seat::Second, unnamed, 0).unwrap();
    assert!(matches!(ev[0], Event::ClaimUpheld { point, .. } if point == p("L8")));
}

#[test]
fn claims_refused_without_penalty_where_they_do_not_apply() {
    let mut g = renju(ForbiddenHandling::Claim);
    play(&mut g, &with_far_white(&["H8", "J10", "L12", "E4", "F11"]));
    assert_eq!(
        refused(&mut g, Seat::First, Action::claim(p("F11")), 0),
        GameError::ClaimByBlack
    );
    // A claim names a black stone: an empty point or a white stone is
    // refused, and costs nothing.
    for point in ["H9", "A1"] {
        assert_eq!(
            refused(&mut g, Seat::Second, Action::claim(p(point)), 0),
            GameError::ClaimNotBlackStone { point: p(point) }
        );
    }
    for mode in [ForbiddenHandling::Lose, ForbiddenHandling::Block] {
        let mut g = renju(mode);
        play(&mut g, "H8 A1");
        assert_eq!(
            refused(&mut g, Seat::Second, Action::claim(p("H8")), 0),
            GameError::ClaimsDisabled
        );
        assert!(
            !g.allowed(Seat::Second, 0)
                .contains(&ActionKind::ClaimForbidden)
        );
    }
    for rs in [RuleSet::Freestyle, RuleSet::Gomoku] {
        let mut g = new_game(rs);
        play(&mut g, "H8 A1");
        assert_eq!(
            refused(&mut g, Seat::Second, Action::claim(p("H8")), 0),
            GameError::ClaimsDisabled
        );
    }
    assert_eq!(g.violations(Seat::Second), 0);
}

#[test]
fn lose_mode_ends_the_game_at_once() {
    for (black, kind) in [
        (&DOUBLE_THREE[..], Forbidden::DoubleThree),
        (&OVERLINE[..], Forbidden::Overline),
        (&DOUBLE_FOUR[..], Forbidden::DoubleFour),
    ] {
        let mut g = renju(ForbiddenHandling::Lose);
        let last = setup(&mut g, black, kind);
        let ev = play(&mut g, &last);
        assert!(matches!(&ev[0], Event::Moved { mv, .. } if mv.point == Some(p(&last))));
        let r = game_over(&ev).unwrap();
        assert_eq!(
            r.outcome,
            Outcome::Win {
                seat: Seat::Second,
                color: Color::White
            }
        );
        assert_eq!(
            r.reason,
            ResultReason::ForbiddenPlayed {
                point: p(&last),
                forbidden: kind
            }
        );
    }
}

#[test]
fn block_mode_refuses_the_point_and_changes_nothing() {
    for (black, kind) in [
        (&DOUBLE_THREE[..], Forbidden::DoubleThree),
        (&OVERLINE[..], Forbidden::Overline),
        (&DOUBLE_FOUR[..], Forbidden::DoubleFour),
    ] {
        let mut g = renju(ForbiddenHandling::Block);
        let last = setup(&mut g, black, kind);
        let err = refused(&mut g, Seat::First, Action::place(p(&last)), 0);
        assert_eq!(
            err,
            GameError::ForbiddenPoint {
                point: p(&last),
                kind
            }
        );
        play(&mut g, "M12");
        assert_eq!(g.to_act(), Some(Seat::Second));
    }
    // White may play any point, forbidden for black or not.
    let mut g = renju(ForbiddenHandling::Block);
    let last = setup(&mut g, &DOUBLE_THREE, Forbidden::DoubleThree);
    play(&mut g, "M12");
    play(&mut g, &last);
    assert_eq!(g.board().get(p(&last)), Some(Color::White));
}

/// The words that would give a forbidden stone away (once the room's own
/// setting and the name of the claim action are set aside).
fn leaks(json: &str) -> bool {
    let rest = json
        .replace("\"forbidden\":\"claim\"", "")
        .replace("\"claim_forbidden\"", "");
    ["forbidden", "double", "overline", "claim_upheld"]
        .iter()
        .any(|w| rest.contains(w))
}

#[test]
fn a_claim_room_never_lets_on() {
    let mut bad = renju(ForbiddenHandling::Claim);
    let last = setup(&mut bad, &DOUBLE_THREE, Forbidden::DoubleThree);
    let mut good = renju(ForbiddenHandling::Claim);
    setup(&mut good, &DOUBLE_THREE, Forbidden::DoubleThree);

    let ev_bad = play(&mut bad, &last);
    let ev_good = play(&mut good, "M12");
    // The same events, but for the point itself.
    let shape = |ev: &[Event]| serde_json::to_string(ev).unwrap().replace("I8", "M12");
    assert_eq!(shape(&ev_bad), shape(&ev_good));
    assert!(!leaks(&serde_json::to_string(&ev_bad).unwrap()));
    // The same prompt for white, claim included in both (black has five
    // stones: its last could be forbidden, as both players can count).
    assert_eq!(bad.prompt(0), good.prompt(0));
    assert!(
        bad.prompt(0)
            .unwrap()
            .may
            .contains(&ActionKind::ClaimForbidden)
    );
    // Nothing in the public state, nor in the allowed actions of either seat.
    let snap = serde_json::to_string(&bad.snapshot(0)).unwrap();
    assert!(!leaks(&snap), "{snap}");
    assert_eq!(bad.allowed(Seat::First, 0), good.allowed(Seat::First, 0));
    assert!(bad.revealed_forbidden().is_empty());
    assert!(
        !format!("{bad:?}").contains("DoubleThree"),
        "not even in a log line"
    );
    // At the end it may be told.
    // A claim of black's last stone in the good game is false, and says
    // only that.
    let ev = good
        .apply(Seat::Second, Action::claim(p("M12")), 0)
        .unwrap();
    assert!(!leaks(&serde_json::to_string(&ev).unwrap()));
    let ev = bad.apply(Seat::Second, Action::Resign, 0).unwrap();
    let Some(Event::GameOver { forbidden, .. }) = ev.last() else {
        panic!("game over expected")
    };
    let expected = vec![ForbiddenStone {
        move_number: 9,
        point: p("I8"),
        kind: Forbidden::DoubleThree,
    }];
    assert_eq!(forbidden, &expected);
    assert_eq!(bad.snapshot(0).forbidden, expected);
}

#[test]
fn a_five_made_with_a_forbidden_shape_wins() {
    // L8 completes H8..L8, and also makes threes on L8 L9 L10 and L8 M9 N10.
    for mode in [
        ForbiddenHandling::Block,
        ForbiddenHandling::Lose,
        ForbiddenHandling::Claim,
    ] {
        let mut g = renju(mode);
        play(
            &mut g,
            &with_far_white(&["H8", "L9", "L10", "M9", "N10", "I8", "J8", "K8"]),
        );
        play(&mut g, "C9");
        let mut without_five = g.board().clone();
        without_five.remove(p("H8"));
        assert_eq!(
            without_five.forbidden(p("L8")),
            Some(Forbidden::DoubleThree),
            "test position"
        );
        let ev = play(&mut g, "L8");
        let r = game_over(&ev).unwrap();
        assert_eq!(
            r.outcome,
            Outcome::Win {
                seat: Seat::First,
                color: Color::Black
            },
            "{mode:?}"
        );
        assert!(matches!(r.reason, ResultReason::Five { .. }));
    }
}

/// A claim is open only when it could hold, judged on what both players
/// see: black's last stone with five black stones on the board (no
/// forbidden shape has fewer), until white moves; a black overline on the
/// board, at any time.
#[test]
fn a_claim_is_open_only_once_a_black_stone_could_be_forbidden() {
    let mut g = renju(ForbiddenHandling::Claim);
    let white_may_claim = |g: &Game| {
        let prompt = g.prompt(0).unwrap();
        let white = g.seat_of(Color::White);
        let listed = if prompt.seat == white {
            &prompt.may
        } else {
            &prompt.other_may
        };
        let claim = listed.contains(&ActionKind::ClaimForbidden);
        assert_eq!(
            claim,
            g.allowed(white, 0).contains(&ActionKind::ClaimForbidden)
        );
        claim
    };
    assert!(!white_may_claim(&g), "move 1");
    let black = ["H8", "J10", "L12", "E4", "F11"];
    for (i, b) in black.iter().enumerate() {
        play(&mut g, b);
        assert_eq!(white_may_claim(&g), i == 4, "after black's stone {}", i + 1);
        play(&mut g, ["A1", "A3", "A5", "A7", "A9"][i]);
        assert!(!white_may_claim(&g), "white has moved");
    }
    // Black's sixth stone: open again until white's reply.
    play(&mut g, "C14");
    assert!(white_may_claim(&g));
    // Black never has a claim.
    assert!(
        !g.allowed(Seat::First, 0)
            .contains(&ActionKind::ClaimForbidden)
    );
}
