//! The explorer's plan and view against a count made another way: games
//! generated under several opening rules' prompts and played again under
//! all eight symmetries, added to an index kept in memory, and every
//! position's view compared with counts taken straight from the records
//! (`sample::Reference`).

use std::collections::{BTreeMap, HashMap, HashSet};

use rand::SeedableRng;
use rand::rngs::StdRng;
use tengen_protocol::{ExplorerFilter, RatingBand, Speed};
use tengen_rules::Color;
use tengen_rules::game::{GameRecord, Opening, RuleSet};
use tengen_rules::opening::Symmetry;
use tengen_study::explorer::{self, GameFacts, Players, Query, Rows};
use tengen_study::sample::{self, Reference};

/// An index in memory: a key's fields and their counters, a key's latest
/// games (newest first).
#[derive(Default)]
struct Memory {
    counts: HashMap<Vec<u8>, BTreeMap<u32, Vec<i64>>>,
    latest: HashMap<Vec<u8>, Vec<Vec<u8>>>,
}

impl Memory {
    fn add(&mut self, plan: &explorer::Plan) {
        for (key, field, values) in &plan.counts {
            let slot = self
                .counts
                .entry(key.clone())
                .or_default()
                .entry(*field)
                .or_default();
            if slot.len() < values.len() {
                slot.resize(values.len(), 0);
            }
            for (s, v) in slot.iter_mut().zip(values) {
                *s += v;
            }
        }
        for (key, item) in &plan.latest {
            let list = self.latest.entry(key.clone()).or_default();
            list.insert(0, item.clone());
            list.truncate(explorer::LATEST as usize);
        }
    }

    fn read(&self, keys: &[Vec<u8>]) -> Rows {
        Rows {
            counts: keys
                .iter()
                .map(|k| {
                    self.counts
                        .get(k)
                        .map(|f| f.iter().map(|(a, b)| (*a, b.clone())).collect())
                        .unwrap_or_default()
                })
                .collect(),
            latest: self.latest.get(&keys[0]).cloned().unwrap_or_default(),
        }
    }

    fn view(&self, query: &Query) -> tengen_protocol::ExplorerView {
        let form = query.form().unwrap();
        let months: Vec<u32> = self
            .counts
            .get(&query.months_key())
            .map(|f| f.keys().copied().collect())
            .unwrap_or_default();
        let keys = query.node_keys(&form, &months).unwrap();
        explorer::view(query, &form, &self.read(&keys)).unwrap()
    }
}

/// Games: random ones of several rules, each with its images under the
/// eight symmetries, with players and ratings.
fn games(n: usize, seed: u64) -> Vec<(GameRecord, GameFacts)> {
    let mut rng = StdRng::seed_from_u64(seed);
    let kinds = [
        (RuleSet::Renju, Opening::Rif),
        (RuleSet::Renju, Opening::Free),
        (RuleSet::Renju, Opening::SOOSORV),
        (RuleSet::Gomoku, Opening::Swap2),
    ];
    let names = ["ann", "bo", "cy", "di"];
    let mut out = Vec::new();
    for i in 0..n {
        let (rule_set, opening) = kinds[i % kinds.len()];
        let base = sample::random_game(&mut rng, rule_set, opening);
        for (j, s) in Symmetry::ALL.into_iter().enumerate() {
            let record: GameRecord = sample::transform(&base, s);
            let k = i * 8 + j;
            let players = Players {
                accounts: [
                    Some(names[k % 4].into()),
                    (k % 3 != 0).then(|| names[(k + 1) % 4].into()),
                ],
                names: [names[k % 4].into(), names[(k + 1) % 4].into()],
                ratings: (k % 5 != 0).then_some([1200.0 + (k % 13) as f64 * 90.0, 1600.0]),
            };
            // Three months, a game an hour.
            let ms = 1_767_225_600_000 + (k as u64 % 3) * 31 * 86_400_000 + k as u64 * 3_600_000;
            let facts = explorer::facts(&format!("g{k:06}"), &record, &players, ms).unwrap();
            out.push((record, facts));
        }
    }
    out
}

#[test]
fn every_node_counts_what_the_records_say() {
    const DEPTH: u32 = 12;
    let games = games(60, 7);
    let mut index = Memory::default();
    for (_, g) in &games {
        index.add(&explorer::plan(g, DEPTH));
    }
    for filter in [
        ExplorerFilter::default(),
        ExplorerFilter {
            bands: vec![RatingBand::Unrated, RatingBand::From1500],
            ..Default::default()
        },
        ExplorerFilter {
            player: Some("Ann".into()),
            color: Some(Color::White),
            ..Default::default()
        },
        ExplorerFilter {
            since: Some("2026-02".into()),
            speeds: vec![Speed::Unlimited],
            ..Default::default()
        },
    ] {
        check(&index, &games, &filter, DEPTH);
    }
}

/// Whether the filter admits a game (as the records say).
fn admits(g: &GameFacts, f: &ExplorerFilter) -> bool {
    let month = explorer::month_of(g.finished_ms);
    let player = f.player.as_ref().map(|p| p.to_lowercase());
    let played = |c: Color| match c {
        Color::Black => g.black_account == player,
        Color::White => g.white_account == player,
    };
    (f.bands.is_empty() || f.bands.contains(&g.band))
        && (f.speeds.is_empty() || f.speeds.contains(&g.speed))
        && f.since
            .as_ref()
            .is_none_or(|s| month >= tengen_protocol::study::parse_month(s).unwrap())
        && match (&player, f.color) {
            (None, _) => true,
            (Some(_), Some(c)) => played(c),
            (Some(_), None) => played(Color::Black) || played(Color::White),
        }
}

fn check(index: &Memory, games: &[(GameRecord, GameFacts)], filter: &ExplorerFilter, depth: u32) {
    let rules = |g: &GameFacts| format!("{}/{}", g.rule_set, g.opening);
    let mut reference = Reference::new(depth);
    for (record, g) in games.iter().filter(|(_, g)| admits(g, filter)) {
        assert!(reference.add(&rules(g), record));
    }
    let kinds: HashMap<String, (RuleSet, Opening)> = games
        .iter()
        .map(|(_, g)| (rules(g), (g.rule_set, g.opening)))
        .collect();
    let mut positions = 0;
    let mut children = 0;
    for position in reference.positions() {
        let (name, path, _, _) = position;
        let (rule_set, opening) = kinds[name];
        let query = Query {
            rule_set,
            opening,
            size: 15,
            moves: path.to_vec(),
            filter: filter.clone(),
            depth,
        };
        children += reference.check_view(position, &index.view(&query), filter);
        positions += 1;
    }
    assert!(
        positions > 300 && children > 300,
        "{positions} positions, {children} moves"
    );
}

#[test]
fn a_symmetric_position_answers_in_the_askers_orientation() {
    // Chosei (H8, I9, J10) as played, and mirrored: one opening, one count;
    // each asker gets the next moves on their own board.
    let mut rng = StdRng::seed_from_u64(3);
    let mut index = Memory::default();
    let base = sample::random_game(&mut rng, RuleSet::Renju, Opening::Free);
    let plain: Vec<GameFacts> = Symmetry::ALL
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            let r = sample::transform(&base, s);
            explorer::facts(
                &format!("s{i}"),
                &r,
                &Players::default(),
                1_767_225_600_000 + i as u64,
            )
            .unwrap()
        })
        .collect();
    for g in &plain {
        index.add(&explorer::plan(g, 10));
    }
    for g in &plain {
        let query = Query {
            rule_set: RuleSet::Renju,
            opening: Opening::Free,
            size: 15,
            moves: g.moves[..4].to_vec(),
            filter: ExplorerFilter::default(),
            depth: 10,
        };
        let view = index.view(&query);
        assert_eq!(view.stats.games, 8);
        // The move this game played next is among the answers, where it
        // stands on this game's board (or at its mirror in the position,
        // when the position is symmetric).
        let played = g.moves[4];
        let (b, w) = (vec![g.moves[0], g.moves[2]], vec![g.moves[1], g.moves[3]]);
        assert!(
            view.next
                .iter()
                .any(|m| sample::drawing(15, &b, &w, Some(m.point))
                    == sample::drawing(15, &b, &w, Some(played))),
            "{played} in {:?}",
            view.next
        );
        assert_eq!(view.next.iter().map(|m| m.stats.games).sum::<u64>(), 8);
        assert_eq!(view.games.len(), 8);
        assert!(
            view.games
                .windows(2)
                .all(|w| w[0].finished_ms >= w[1].finished_ms)
        );
        assert_eq!(view.games[0].speed, Speed::Unlimited);
    }
}

/// Fifth-move offers against a count made from the records' events: each
/// position where black offered, drawn in its eight orientations
/// (`sample::drawing`, not the crate's canonical form) with the offered
/// point marked; how often offered there and how often white kept it.
#[test]
fn fifth_move_offers_count_what_the_records_say() {
    use tengen_rules::Point;
    use tengen_rules::game::Event;
    let games = games(80, 11);
    let mut index = Memory::default();
    for (_, g) in &games {
        index.add(&explorer::plan(g, 10));
    }
    // (rules, the offered point's drawing) -> (offered, kept); and each
    // position's path, to ask for it.
    let mut want: HashMap<(String, String), (u64, u64)> = HashMap::new();
    let mut asked: Vec<(RuleSet, Opening, Vec<Point>)> = Vec::new();
    for (record, g) in &games {
        let mut offered: Vec<(Vec<Point>, Option<Point>)> = Vec::new();
        record
            .replay_with(|_, events| {
                for e in events {
                    match e {
                        Event::FifthsOffered { points, .. } if points.len() > 1 => {
                            offered.push((points.as_slice().to_vec(), None))
                        }
                        Event::FifthKept { kept, .. } => {
                            if let Some(last) = offered.last_mut() {
                                last.1 = Some(*kept);
                            }
                        }
                        _ => {}
                    }
                }
            })
            .unwrap();
        let rules = format!("{}/{}", g.rule_set, g.opening);
        for (points, kept) in offered {
            let path = g.moves[..4].to_vec();
            let (black, white): (Vec<Point>, Vec<Point>) =
                (vec![path[0], path[2]], vec![path[1], path[3]]);
            for p in points {
                let c = want
                    .entry((
                        rules.clone(),
                        sample::drawing(g.size, &black, &white, Some(p)),
                    ))
                    .or_default();
                c.0 += 1;
                c.1 += u64::from(kept == Some(p));
            }
            asked.push((g.rule_set, g.opening, path));
        }
    }
    assert!(asked.len() > 20, "{} games with offers", asked.len());
    let mut seen = 0;
    for (rule_set, opening, path) in &asked {
        let v = index.view(&Query {
            rule_set: *rule_set,
            opening: *opening,
            size: 15,
            moves: path.clone(),
            filter: ExplorerFilter::default(),
            depth: 10,
        });
        let rules = format!("{rule_set}/{opening}");
        let (black, white) = (vec![path[0], path[2]], vec![path[1], path[3]]);
        assert!(!v.offers.is_empty(), "{rules} after {path:?}");
        for o in &v.offers {
            let key = (
                rules.clone(),
                sample::drawing(15, &black, &white, Some(o.point)),
            );
            assert_eq!(
                Some(&(o.offered, o.kept)),
                want.get(&key),
                "{rules} after {path:?}: {}",
                o.point
            );
            seen += 1;
        }
        // Every offer counted from the records appears in the view.
        let total: u64 = v.offers.iter().map(|o| o.offered).sum();
        let expected: u64 = want
            .iter()
            .filter(|((r, d), _)| {
                *r == rules
                    && (0..15u8).any(|x| {
                        (0..15u8).any(|y| {
                            let p = Point::new(x, y);
                            !path.contains(&p) && sample::drawing(15, &black, &white, Some(p)) == *d
                        })
                    })
            })
            .map(|(_, c)| c.0)
            .sum();
        assert_eq!(total, expected, "{rules} after {path:?}");
    }
    assert!(seen > 40, "{seen} offers compared");
}

/// Games shaped as the explorer's benchmark makes them: as long as asked
/// unless a five came first, every speed class, the accounts of a larger
/// pool, each game its own.
#[test]
fn shaped_games_follow_their_shape() {
    let mut rng = StdRng::seed_from_u64(9);
    let shape = sample::Shape {
        moves: 20..=60,
        players: 100,
        days: 730,
        all_symmetries: false,
        timed: true,
    };
    let games: Vec<sample::SampleGame> = sample::games_shaped(&mut rng, 120, shape).collect();
    assert_eq!(games.len(), 120);
    let (mut ids, mut speeds, mut players, mut months) = (
        HashSet::new(),
        HashSet::new(),
        HashSet::new(),
        HashSet::new(),
    );
    for g in &games {
        assert!(ids.insert(g.id.clone()), "{} twice", g.id);
        let game = g.record.replay().unwrap();
        let moves = game.moves().len();
        let five = matches!(
            game.result().unwrap().reason,
            tengen_rules::game::ResultReason::Five { .. }
        );
        assert!(
            moves <= 60 && (moves >= 20 || five),
            "{}: {moves} moves, five: {five}",
            g.id
        );
        speeds.insert(explorer::speed_of(&g.record.config.time));
        players.extend(g.players.accounts.iter().flatten().cloned());
        months.insert(explorer::month_of(g.finished_ms));
    }
    assert_eq!(speeds.len(), Speed::ALL.len(), "{speeds:?}");
    assert!(players.len() > 60, "{} accounts", players.len());
    assert!(months.len() > 12, "{} months", months.len());
}
