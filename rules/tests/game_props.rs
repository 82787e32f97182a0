//! Property tests: random sequences of inputs, legal and illegal, against
//! every kind of room. The machine never panics; a refused input changes
//! nothing; an accepted action was among those `allowed`; and the record of
//! whatever happened replays (through its JSON form) to the same game.

use proptest::prelude::*;
use tengen_rules::Point;
use tengen_rules::game::{
    Action, ActionKind, DrawPolicy, ForbiddenHandling, Game, GameConfig, GameRecord, Opening,
    RuleSet, Seat, TimeControl,
};

fn configs() -> Vec<GameConfig> {
    let fischer = TimeControl::Fischer {
        main_ms: 120_000,
        increment_ms: 2_000,
    };
    let byo = TimeControl::ByoYomi {
        main_ms: 5_000,
        periods: 3,
        period_ms: 8_000,
        moves_per_period: 2,
    };
    let draw = DrawPolicy {
        max_offers: Some(3),
        answer_ms: Some(6_000),
    };
    vec![
        GameConfig::new(RuleSet::Freestyle),
        GameConfig::new(RuleSet::Freestyle)
            .with_opening(Opening::SwapAfterThree)
            .with_size(19)
            .with_time(TimeControl::SuddenDeath { main_ms: 300_000 }),
        GameConfig::new(RuleSet::Gomoku)
            .with_time(byo)
            .with_draw(draw),
        GameConfig::new(RuleSet::Gomoku)
            .with_opening(Opening::Free)
            .with_time(fischer),
        GameConfig::new(RuleSet::Renju)
            .with_forbidden(ForbiddenHandling::Claim)
            .with_draw(draw),
        GameConfig::new(RuleSet::Renju)
            .with_forbidden(ForbiddenHandling::Lose)
            .with_time(fischer),
        GameConfig::new(RuleSet::Renju)
            .with_forbidden(ForbiddenHandling::Block)
            .with_time(byo),
    ]
}

#[derive(Clone, Debug)]
enum Op {
    /// An action by the seat the game asks for (`true`) or by either seat.
    Act {
        to_act: bool,
        seat: bool,
        action: Action,
        lag: u64,
    },
    Tick,
    Abandon(bool),
    ServerAbort,
}

fn point() -> impl Strategy<Value = Point> {
    prop_oneof![
        1 => Just(Point::new(7, 7)),
        8 => (4u8..11, 4u8..11).prop_map(|(x, y)| Point::new(x, y)),
        1 => (0u8..20, 0u8..20).prop_map(|(x, y)| Point::new(x, y)),
    ]
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        80 => (point(), prop::bool::weighted(0.1))
            .prop_map(|(point, offer_draw)| Action::Place { point, offer_draw }),
        3 => any::<bool>().prop_map(|offer_draw| Action::Pass { offer_draw }),
        2 => Just(Action::Swap),
        2 => Just(Action::Keep),
        2 => Just(Action::OfferDraw),
        1 => Just(Action::AcceptDraw),
        2 => Just(Action::DeclineDraw),
        2 => Just(Action::ClaimForbidden),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        600 => (prop::bool::weighted(0.8), any::<bool>(), action(), 0u64..3_000)
            .prop_map(|(to_act, seat, action, lag)| Op::Act { to_act, seat, action, lag }),
        10 => Just(Op::Tick),
        1 => any::<bool>().prop_map(|s| Op::Act { to_act: false, seat: s, action: Action::Resign, lag: 0 }),
        1 => any::<bool>().prop_map(|s| Op::Act { to_act: false, seat: s, action: Action::Abort, lag: 0 }),
        1 => any::<bool>().prop_map(Op::Abandon),
        1 => Just(Op::ServerAbort),
    ]
}

fn seat(b: bool) -> Seat {
    if b { Seat::First } else { Seat::Second }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_inputs(
        cfg in 0..7usize,
        opener in any::<bool>(),
        ops in prop::collection::vec((op(), 0u64..2_500, prop::bool::weighted(0.02)), 0..200),
    ) {
        let config = configs()[cfg].clone();
        let mut g = Game::new(config, seat(opener), 500).unwrap();
        let mut now = 500u64;
        for (op, dt, backwards) in ops {
            now += dt;
            let at = if backwards { now.saturating_sub(5_000) } else { now };
            let before = g.clone();
            let logged = g.entries().len();
            let outcome = match op {
                Op::Act { to_act, seat: s, action, lag } => {
                    let who = if to_act { g.to_act().unwrap_or(seat(s)) } else { seat(s) };
                    let allowed = g.allowed(who, at);
                    let r = g.apply_with_lag(who, action, at, lag);
                    if r.is_ok() {
                        prop_assert!(
                            allowed.contains(&action.kind()),
                            "{action:?} by {who} accepted but not allowed: {allowed:?}"
                        );
                        prop_assert!(!matches!(action.kind(), ActionKind::Place) || g.moves().len() == before.moves().len() + 1);
                    }
                    r.map(|_| ())
                }
                Op::Tick => {
                    let ev = g.tick(at);
                    if ev.is_empty() {
                        prop_assert_eq!(&g, &before, "an idle tick changed the game");
                    }
                    Ok(())
                }
                Op::Abandon(s) => g.declare_abandoned(seat(s), at).map(|_| ()),
                Op::ServerAbort => g.declare_aborted(at).map(|_| ()),
            };
            match outcome {
                Err(_) => prop_assert_eq!(&g, &before, "a refused input changed the game"),
                Ok(()) => prop_assert!(g.entries().len() <= logged + 1),
            }
            // Nothing is allowed once over; something always is otherwise.
            if g.is_over() {
                prop_assert!(g.prompt(at).is_none());
            } else {
                prop_assert!(g.prompt(now).is_some() || g.flag_at().is_some_and(|f| f <= now));
            }
        }
        let record = g.record();
        let json = record.to_json();
        let back = GameRecord::from_json(&json).unwrap();
        prop_assert_eq!(&back, &record);
        let replayed = back.replay().unwrap();
        prop_assert_eq!(&replayed, &g);
        let _ = serde_json::to_string(&g.snapshot(now)).unwrap();
    }
}
