//! The public types travel as JSON between server and clients: every event,
//! refusal, prompt and snapshot the machine produces must read back as it
//! was written.

use crate::common;

use common::*;
use serde::{Serialize, de::DeserializeOwned};
use tengen_rules::game::{
    Action, DrawPolicy, Event, ForbiddenHandling, GameConfig, GameError, Opening, Prompt, RuleSet,
    Seat, Snapshot, TimeControl,
};

fn round_trip<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(v: &T) {
    let json = serde_json::to_string(v).unwrap();
    let back: T = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{json}: {e}"));
    assert_eq!(&back, v, "{json}");
}

#[test]
fn events_errors_prompts_and_snapshots_read_back() {
    let mut all: Vec<Event> = Vec::new();
    let mut errors: Vec<GameError> = Vec::new();
    let mut prompts: Vec<Prompt> = Vec::new();
    let mut snaps: Vec<Snapshot> = Vec::new();

    let mut g = game(
        GameConfig::new(RuleSet::Gomoku)
            .with_opening(Opening::SwapAfterThree)
            .with_time(TimeControl::ByoYomi {
                main_ms: 1_000,
                periods: 2,
                period_ms: 3_000,
                moves_per_period: 1,
            })
            .with_draw(DrawPolicy {
                max_offers: Some(5),
                answer_ms: Some(500),
            }),
    );
    let mut t = 0;
    let mut step = |g: &mut tengen_rules::game::Game, seat: Seat, a: Action| {
        t += 400;
        prompts.extend(g.prompt(t));
        snaps.push(g.snapshot(t));
        match g.apply(seat, a, t) {
            Ok(ev) => all.extend(ev),
            Err(e) => errors.push(e),
        }
    };
    step(
        &mut g,
        Seat::First,
        Action::Place {
            point: p("H8"),
            board: 0,
            offer_draw: true,
        },
    );
    step(&mut g, Seat::Second, Action::DeclineDraw);
    step(&mut g, Seat::Second, Action::place(p("H8")));
    step(&mut g, Seat::Second, Action::place(p("I9")));
    step(&mut g, Seat::First, Action::place(p("J10")));
    step(&mut g, Seat::First, Action::OfferDraw);
    step(&mut g, Seat::Second, Action::place(p("K11"))); // refused: swap first
    step(&mut g, Seat::Second, Action::Swap);
    step(&mut g, Seat::First, Action::pass());
    step(&mut g, Seat::First, Action::place(p("A1")));
    step(&mut g, Seat::Second, Action::Abort);
    all.extend(g.tick(100_000));
    snaps.push(g.snapshot(100_000));

    let mut r = game(GameConfig::new(RuleSet::Renju).with_forbidden(ForbiddenHandling::Claim));
    play(&mut r, "H8 A1");
    all.extend(
        r.apply(Seat::Second, Action::ClaimForbidden { point: None }, 0)
            .unwrap(),
    );
    errors.push(r.apply(Seat::First, Action::claim(p("H8")), 0).unwrap_err());
    play(&mut r, "G8 A3 I9 A5 I10 A7 I8");
    all.extend(r.apply(Seat::Second, Action::claim(p("I8")), 0).unwrap());
    snaps.push(r.snapshot(0));

    let kinds: std::collections::BTreeSet<String> = all
        .iter()
        .map(|e| {
            serde_json::to_value(e).unwrap()["type"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    for k in [
        "moved",
        "swap_decided",
        "draw_offered",
        "draw_declined",
        "draw_offer_lapsed",
        "violation",
        "claim_upheld",
        "game_over",
    ] {
        assert!(kinds.contains(k), "no {k} event in {kinds:?}");
    }
    assert!(errors.len() >= 3, "{errors:?}");
    all.iter().for_each(round_trip);
    errors.iter().for_each(round_trip);
    prompts.iter().for_each(round_trip);
    snaps.iter().for_each(round_trip);
    assert_eq!(
        serde_json::to_value(GameError::Occupied { point: p("H8") }).unwrap(),
        serde_json::json!({"code": "occupied", "point": "H8"})
    );
}
