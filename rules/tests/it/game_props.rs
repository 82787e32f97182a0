//! Property tests: random sequences of inputs, legal and illegal, against
//! every kind of room, including every opening rule (with inputs that fit
//! the opening's current task often enough to get through it). The machine never panics; a refused input changes
//! nothing; an accepted action was among those `allowed`; and the record of
//! whatever happened replays (through its JSON form) to the same game.

use proptest::prelude::*;
use tengen_rules::Point;
use tengen_rules::game::{
    Action, ActionKind, DrawPolicy, ForbiddenHandling, Game, GameConfig, GameRecord, OfferSet,
    Opening, RuleSet, Seat, TaraguchiOption, Task, TimeControl,
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

/// A room for every opening rule, with clocks and forbidden handlings
/// varied.
fn opening_configs() -> Vec<GameConfig> {
    let fischer = TimeControl::Fischer {
        main_ms: 60_000,
        increment_ms: 1_000,
    };
    let byo = TimeControl::ByoYomi {
        main_ms: 4_000,
        periods: 3,
        period_ms: 9_000,
        moves_per_period: 1,
    };
    let renju = |o: Opening| GameConfig::new(RuleSet::Renju).with_opening(o);
    vec![
        renju(Opening::Rif).with_time(fischer),
        renju(Opening::Yamaguchi).with_forbidden(ForbiddenHandling::Block),
        renju(Opening::SOOSORV).with_time(byo),
        renju(Opening::Soosorv { n: 2 }).with_forbidden(ForbiddenHandling::Lose),
        renju(Opening::TARAGUCHI).with_time(fischer),
        renju(Opening::Taraguchi { n: 2 }),
        renju(Opening::Tarannikov).with_time(byo),
        GameConfig::new(RuleSet::Gomoku)
            .with_opening(Opening::Swap2)
            .with_time(fischer),
        GameConfig::new(RuleSet::Freestyle)
            .with_opening(Opening::Swap2)
            .with_size(19),
        renju(Opening::Jonsson).with_time(fischer),
        renju(Opening::Yamaguchi52).with_forbidden(ForbiddenHandling::Block),
        renju(Opening::YamaguchiVariant).with_time(byo),
        renju(Opening::Sakata).with_time(fischer),
        renju(Opening::SuperSakata).with_time(byo),
        renju(Opening::SuperSakata).with_forbidden(ForbiddenHandling::Lose),
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
    /// The seat asked acts with an action fitted to its task: the due
    /// number of offers (from `points`), a kept offer (the `k`-th), a
    /// declared count within range, an option, a stone.
    Fit {
        points: Vec<Point>,
        k: usize,
    },
    Tick,
    Abandon(bool),
    ServerAbort,
}

/// An action that fits `task` (it may still be refused: an occupied
/// point, equivalent offers).
fn fitted(task: Task, points: &[Point], k: usize) -> Action {
    match task {
        Task::OfferFifths { count } => Action::OfferFifths {
            points: OfferSet::new(&points[..(count as usize).min(points.len())]).unwrap(),
        },
        Task::KeepFifth { offers } => Action::KeepFifth {
            point: offers.as_slice()[k % offers.len()],
        },
        Task::DeclareOffers { max } => Action::DeclareOffers {
            count: 1 + (k % max as usize) as u8,
        },
        Task::ChooseOption { .. } => Action::ChooseOption {
            option: if k.is_multiple_of(2) {
                TaraguchiOption::Single
            } else {
                TaraguchiOption::Offers
            },
        },
        Task::SuperSakataChoice { .. } if k.is_multiple_of(3) => Action::PlaceTwo {
            white: points[0],
            black: points[1],
        },
        Task::DecideSwap { .. } | Task::SuperSakataChoice { .. } => {
            if k.is_multiple_of(2) {
                Action::Swap
            } else {
                Action::Keep
            }
        }
        Task::Swap2Choice if k.is_multiple_of(3) => Action::PlaceTwo {
            white: points[0],
            black: points[1],
        },
        _ => Action::place(points[k % points.len()]),
    }
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
            .prop_map(|(point, offer_draw)| Action::Place {
                point,
                board: 0,
                offer_draw,
            }),
        3 => any::<bool>().prop_map(|offer_draw| Action::Pass { offer_draw }),
        2 => Just(Action::Swap),
        2 => Just(Action::Keep),
        1 => (0u8..12).prop_map(|count| Action::DeclareOffers { count }),
        2 => prop::collection::vec(point(), 0..11).prop_map(|v| Action::OfferFifths {
            points: OfferSet::new(&v).unwrap(),
        }),
        1 => point().prop_map(|point| Action::KeepFifth { point }),
        1 => any::<bool>().prop_map(|b| Action::ChooseOption {
            option: if b { TaraguchiOption::Single } else { TaraguchiOption::Offers },
        }),
        1 => (point(), point()).prop_map(|(white, black)| Action::PlaceTwo { white, black }),
        2 => Just(Action::OfferDraw),
        1 => Just(Action::AcceptDraw),
        2 => Just(Action::DeclineDraw),
        1 => Just(Action::ClaimForbidden { point: None }),
        1 => point().prop_map(Action::claim),
        1 => Just(Action::EndTurn),
        1 => Just(Action::RequestTakeback),
        1 => Just(Action::AcceptTakeback),
        1 => Just(Action::DeclineTakeback),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        200 => (prop::collection::vec(point(), 10..=10), 0usize..64)
            .prop_map(|(points, k)| Op::Fit { points, k }),
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
        run(configs()[cfg].clone(), opener, ops)?;
    }

    #[test]
    fn random_inputs_in_openings(
        cfg in 0..12usize,
        opener in any::<bool>(),
        ops in prop::collection::vec((op(), 0u64..2_500, prop::bool::weighted(0.02)), 0..120),
    ) {
        run(opening_configs()[cfg].clone(), opener, ops)?;
    }
}

fn run(config: GameConfig, opener: bool, ops: Vec<(Op, u64, bool)>) -> Result<(), TestCaseError> {
    {
        let mut g = Game::new(config, seat(opener), 500).unwrap();
        let mut now = 500u64;
        for (op, dt, backwards) in ops {
            now += dt;
            let at = if backwards {
                now.saturating_sub(5_000)
            } else {
                now
            };
            let before = g.clone();
            let logged = g.entries().len();
            let outcome = match op {
                Op::Act {
                    to_act,
                    seat: s,
                    action,
                    lag,
                } => {
                    let who = if to_act {
                        g.to_act().unwrap_or(seat(s))
                    } else {
                        seat(s)
                    };
                    // A move of the seat on the clock may be saved from its
                    // flag by its lag credit: what it may do then is what
                    // it could do that much earlier.
                    // (Never earlier than the last accepted input: the
                    // credit is capped by the time the turn took, and
                    // nothing is allowed before the last input.)
                    let last_at = g.entries().last().map_or(0, |e| e.at);
                    let allowed = match g.allowed(who, at) {
                        a if a.is_empty() => g.allowed(
                            who,
                            at.saturating_sub(lag.min(g.config().lag_credit_cap_ms))
                                .max(last_at),
                        ),
                        a => a,
                    };
                    let r = g.apply_with_lag(who, action, at, lag);
                    // A claim that names no point is the form of older
                    // records, judged as it was then whatever the prompt.
                    let legacy = action == Action::ClaimForbidden { point: None };
                    if r.is_ok() && !legacy {
                        prop_assert!(
                            allowed.contains(&action.kind()),
                            "{action:?} by {who} accepted but not allowed: {allowed:?}"
                        );
                        prop_assert!(
                            !matches!(action.kind(), ActionKind::Place)
                                || g.moves().len() == before.moves().len() + 1
                        );
                    }
                    r.map(|_| ())
                }
                Op::Fit { points, k } => match g.task() {
                    Some((who, task)) => {
                        let action = fitted(task, &points, k);
                        let allowed = g.allowed(who, at);
                        let r = g.apply(who, action, at);
                        if r.is_ok() {
                            prop_assert!(
                                allowed.contains(&action.kind()),
                                "{action:?} by {who} accepted but not allowed: {allowed:?}"
                            );
                        }
                        r.map(|_| ())
                    }
                    None => Ok(()),
                },
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
    Ok(())
}
