//! Draw offers (docs/rules.md §5): with a move or right after it, answered,
//! declined by a move, limited by the lead rule and a room's cap, and
//! lapsing after the answer time.

use crate::common;

use common::*;
use tengen_rules::game::{
    Action, ActionKind, DrawPolicy, Event, Game, GameConfig, GameError, Outcome, ResultReason,
    RuleSet, Seat,
};

fn with_policy(max_offers: Option<u32>, answer_ms: Option<u64>) -> Game {
    game(GameConfig::free(RuleSet::Gomoku).with_draw(DrawPolicy {
        max_offers,
        answer_ms,
    }))
}

fn place_offer(s: &str) -> Action {
    Action::Place {
        point: p(s),
        board: 0,
        offer_draw: true,
    }
}

#[test]
fn offer_with_a_move_then_accept() {
    let mut g = new_game(RuleSet::Gomoku);
    let ev = g.apply(Seat::First, place_offer("H8"), 10).unwrap();
    assert!(matches!(ev[0], Event::Moved { .. }));
    assert_eq!(
        ev[1],
        Event::DrawOffered {
            seat: Seat::First,
            offers: 1
        }
    );
    assert_eq!(g.draw_offer(10), Some(Seat::First));
    let may = g.prompt(10).unwrap().may;
    assert!(may.contains(&ActionKind::AcceptDraw) && may.contains(&ActionKind::DeclineDraw));
    assert_eq!(
        refused(&mut g, Seat::First, Action::AcceptDraw, 10),
        GameError::NoDrawOffer
    );
    let ev = g.apply(Seat::Second, Action::AcceptDraw, 20).unwrap();
    assert_eq!(ev[0], Event::DrawAccepted { seat: Seat::Second });
    let r = game_over(&ev).unwrap();
    assert_eq!(
        (r.outcome, &r.reason),
        (Outcome::Draw, &ResultReason::DrawAgreed)
    );
}

#[test]
fn separate_offer_only_right_after_ones_own_move() {
    let mut g = new_game(RuleSet::Gomoku);
    // Nobody has moved: nobody may offer.
    for seat in Seat::BOTH {
        assert_eq!(
            refused(&mut g, seat, Action::OfferDraw, 0),
            GameError::OfferNotAllowed
        );
    }
    play(&mut g, "H8");
    // The opponent, whose turn it is, may not; the mover may.
    assert_eq!(
        refused(&mut g, Seat::Second, Action::OfferDraw, 0),
        GameError::OfferNotAllowed
    );
    assert!(g.allowed(Seat::First, 0).contains(&ActionKind::OfferDraw));
    let ev = g.apply(Seat::First, Action::OfferDraw, 0).unwrap();
    assert_eq!(
        ev,
        vec![Event::DrawOffered {
            seat: Seat::First,
            offers: 1
        }]
    );
    assert_eq!(
        refused(&mut g, Seat::First, Action::OfferDraw, 0),
        GameError::OfferPending
    );
    // Declined explicitly: the opponent has acted, so no new offer now.
    let ev = g.apply(Seat::Second, Action::DeclineDraw, 0).unwrap();
    assert_eq!(
        ev,
        vec![Event::DrawDeclined {
            seat: Seat::Second,
            by_move: false
        }]
    );
    assert_eq!(
        refused(&mut g, Seat::First, Action::OfferDraw, 0),
        GameError::OfferNotAllowed
    );
    assert_eq!(
        refused(&mut g, Seat::Second, Action::AcceptDraw, 0),
        GameError::NoDrawOffer
    );
    assert_eq!(
        refused(&mut g, Seat::Second, Action::DeclineDraw, 0),
        GameError::NoDrawOffer
    );
}

#[test]
fn a_move_declines_a_pending_offer() {
    let mut g = new_game(RuleSet::Gomoku);
    g.apply(Seat::First, place_offer("H8"), 0).unwrap();
    let ev = play(&mut g, "I9");
    assert_eq!(
        ev[0],
        Event::DrawDeclined {
            seat: Seat::Second,
            by_move: true
        }
    );
    assert!(matches!(ev[1], Event::Moved { .. }));
    assert_eq!(g.draw_offer(0), None);
    // A pass declines too, and may carry an offer of its own.
    play(&mut g, "J10 A1 K11");
    g.apply(Seat::First, Action::OfferDraw, 0).unwrap();
    let ev = g
        .apply(Seat::Second, Action::Pass { offer_draw: true }, 0)
        .unwrap();
    assert_eq!(
        ev[0],
        Event::DrawDeclined {
            seat: Seat::Second,
            by_move: true
        }
    );
    assert_eq!(
        ev[2],
        Event::DrawOffered {
            seat: Seat::Second,
            offers: 1
        }
    );
}

#[test]
fn offers_may_lead_the_opponents_by_two_at_most() {
    let mut g = new_game(RuleSet::Gomoku);
    g.apply(Seat::First, place_offer("H8"), 0).unwrap();
    play(&mut g, "A1");
    g.apply(Seat::First, place_offer("I8"), 0).unwrap();
    play(&mut g, "A3");
    // A third offer would lead by three: the whole move is refused.
    assert_eq!(
        refused(&mut g, Seat::First, place_offer("J8"), 0),
        GameError::OfferLimit
    );
    play(&mut g, "J8");
    assert_eq!(
        refused(&mut g, Seat::First, Action::OfferDraw, 0),
        GameError::OfferLimit
    );
    assert!(!g.allowed(Seat::First, 0).contains(&ActionKind::OfferDraw));
    // Once the opponent has offered, one more is fine.
    g.apply(Seat::Second, place_offer("A5"), 0).unwrap();
    g.apply(Seat::First, place_offer("K8"), 0).unwrap();
    assert_eq!(g.offers(Seat::First), 3);
    assert_eq!(g.offers(Seat::Second), 1);
}

#[test]
fn a_room_may_cap_offers() {
    let mut g = with_policy(Some(1), None);
    g.apply(Seat::First, place_offer("H8"), 0).unwrap();
    play(&mut g, "A1");
    assert_eq!(
        refused(&mut g, Seat::First, place_offer("I8"), 0),
        GameError::OfferCap { max: 1 }
    );
    play(&mut g, "I8");
    assert_eq!(
        refused(&mut g, Seat::First, Action::OfferDraw, 0),
        GameError::OfferCap { max: 1 }
    );
}

#[test]
fn an_unanswered_offer_lapses() {
    let mut g = with_policy(None, Some(30_000));
    g.apply(Seat::First, place_offer("H8"), 1_000).unwrap();
    assert_eq!(g.next_deadline(), Some(31_000));
    assert!(g.tick(30_999).is_empty());
    assert_eq!(g.draw_offer(30_999), Some(Seat::First));
    assert_eq!(g.draw_offer(31_000), None);
    // Too late to accept, even before the server ticks.
    assert_eq!(
        refused(&mut g, Seat::Second, Action::AcceptDraw, 31_000),
        GameError::NoDrawOffer
    );
    assert_eq!(
        g.tick(31_000),
        vec![Event::DrawOfferLapsed { seat: Seat::First }]
    );
    assert!(g.tick(31_000).is_empty(), "tick is idempotent");
    assert_eq!(g.next_deadline(), None);
    assert_eq!(g.entries().len(), 2, "the lapse is in the record");
}

#[test]
fn a_lapse_is_reported_with_the_next_input_if_the_server_did_not_tick() {
    let mut g = with_policy(None, Some(30_000));
    g.apply(Seat::First, place_offer("H8"), 0).unwrap();
    let ev = g
        .apply(Seat::Second, Action::place(p("I9")), 40_000)
        .unwrap();
    assert_eq!(ev[0], Event::DrawOfferLapsed { seat: Seat::First });
    assert!(matches!(ev[1], Event::Moved { .. }));
    assert_eq!(ev.len(), 2, "a lapsed offer is not also declined");
}

#[test]
fn the_offerer_may_repeat_after_a_lapse() {
    let mut g = with_policy(None, Some(30_000));
    g.apply(Seat::First, place_offer("H8"), 0).unwrap();
    let ev = g.apply(Seat::First, Action::OfferDraw, 35_000).unwrap();
    assert_eq!(
        ev,
        vec![
            Event::DrawOfferLapsed { seat: Seat::First },
            Event::DrawOffered {
                seat: Seat::First,
                offers: 2
            }
        ]
    );
    assert_eq!(g.next_deadline(), Some(65_000));
}
