//! The explorer's plan and view against a count made another way: games
//! generated under every opening rule's prompts and played again under
//! all eight symmetries, added to an index kept in memory, and every
//! position's view compared with counts taken straight from the records
//! (each position reduced by drawing the board as text in all eight
//! orientations and keeping the least drawing).

use std::collections::{BTreeMap, HashMap};

use rand::SeedableRng;
use rand::rngs::StdRng;
use tengen_protocol::{ColorResult, ExplorerFilter, RatingBand, Speed};
use tengen_rules::game::{GameRecord, Opening, RuleSet};
use tengen_rules::opening::Symmetry;
use tengen_rules::{Color, Point};
use tengen_study::explorer::{self, GameFacts, Players, Query, Rows};
use tengen_study::sample;

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

/// The independent reduction: the board drawn as text (one character a
/// point, row by row) in each orientation, with the asked move marked,
/// the least drawing kept.
fn drawing(size: u8, black: &[Point], white: &[Point], mark: Option<Point>) -> String {
    let n = size as i32;
    // The eight maps of (x, y), written out rather than taken from the
    // crate under test.
    let maps: [fn(i32, i32, i32) -> (i32, i32); 8] = [
        |x, y, _| (x, y),
        |x, y, n| (n - 1 - y, x),
        |x, y, n| (n - 1 - x, n - 1 - y),
        |x, y, n| (y, n - 1 - x),
        |x, y, n| (n - 1 - x, y),
        |x, y, n| (x, n - 1 - y),
        |x, y, _| (y, x),
        |x, y, n| (n - 1 - y, n - 1 - x),
    ];
    maps.iter()
        .map(|f| {
            let mut cells = vec![b'.'; (n * n) as usize];
            let mut put = |p: &Point, c: u8| {
                let (x, y) = f(p.x as i32, p.y as i32, n);
                cells[(y * n + x) as usize] = c;
            };
            black.iter().for_each(|p| put(p, b'X'));
            white.iter().for_each(|p| put(p, b'O'));
            if let Some(m) = mark {
                put(&m, b'*');
            }
            String::from_utf8(cells).unwrap()
        })
        .min()
        .unwrap()
}

#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
struct Tally {
    games: u64,
    black: u64,
    draws: u64,
    white: u64,
}

impl Tally {
    fn add(&mut self, r: ColorResult) {
        self.games += 1;
        match r {
            ColorResult::Black => self.black += 1,
            ColorResult::Draw => self.draws += 1,
            ColorResult::White => self.white += 1,
        }
    }
}

/// Games: random ones of several rules, each with its images under the
/// eight symmetries, with players and ratings.
fn games(n: usize, seed: u64) -> Vec<GameFacts> {
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
                ratings: (k % 5 != 0).then(|| [1200.0 + (k % 13) as f64 * 90.0, 1600.0]),
            };
            // Three months, a game an hour.
            let ms = 1_767_225_600_000 + (k as u64 % 3) * 31 * 86_400_000 + k as u64 * 3_600_000;
            out.push(explorer::facts(&format!("g{k:06}"), &record, &players, ms).unwrap());
        }
    }
    out
}

#[test]
fn every_node_counts_what_the_records_say() {
    const DEPTH: u32 = 12;
    let games = games(60, 7);
    let mut index = Memory::default();
    for g in &games {
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

fn check(index: &Memory, games: &[GameFacts], filter: &ExplorerFilter, depth: u32) {
    // The count from the records: per (rules, position) the games through
    // it, per (rules, position, move) those that played the move.
    type Rules = (RuleSet, Opening);
    let mut nodes: HashMap<(Rules, String), (Tally, Vec<Point>)> = HashMap::new();
    let mut moves: HashMap<(Rules, String), Tally> = HashMap::new();
    for g in games.iter().filter(|g| admits(g, filter)) {
        let rules = (g.rule_set, g.opening);
        let last = g.moves.len().min(depth as usize);
        for ply in 0..=last {
            let (black, white): (Vec<Point>, Vec<Point>) = {
                let mut b = Vec::new();
                let mut w = Vec::new();
                for (i, p) in g.moves[..ply].iter().enumerate() {
                    if i % 2 == 0 { b.push(*p) } else { w.push(*p) }
                }
                (b, w)
            };
            let node = nodes
                .entry((rules, drawing(g.size, &black, &white, None)))
                .or_insert_with(|| (Tally::default(), g.moves[..ply].to_vec()));
            node.0.add(g.result);
            if ply < last {
                let m = g.moves[ply];
                moves
                    .entry((rules, drawing(g.size, &black, &white, Some(m))))
                    .or_default()
                    .add(g.result);
            }
        }
    }
    assert!(nodes.len() > 300, "{} positions", nodes.len());
    let mut children = 0;
    for (((rule_set, opening), _), (tally, path)) in &nodes {
        let query = Query {
            rule_set: *rule_set,
            opening: *opening,
            size: 15,
            moves: path.clone(),
            filter: filter.clone(),
            depth,
        };
        let view = index.view(&query);
        let stats = view.stats;
        assert_eq!(
            (stats.games, stats.black, stats.draws, stats.white),
            (tally.games, tally.black, tally.draws, tally.white),
            "{rule_set} {opening} after {path:?} ({filter:?})"
        );
        let (black, white): (Vec<Point>, Vec<Point>) = {
            let mut b = Vec::new();
            let mut w = Vec::new();
            for (i, p) in path.iter().enumerate() {
                if i % 2 == 0 { b.push(*p) } else { w.push(*p) }
            }
            (b, w)
        };
        let mut sum = 0;
        for next in &view.next {
            let want = moves
                .get(&(
                    (*rule_set, *opening),
                    drawing(15, &black, &white, Some(next.point)),
                ))
                .copied()
                .unwrap_or_default();
            let s = next.stats;
            assert_eq!(
                (s.games, s.black, s.draws, s.white),
                (want.games, want.black, want.draws, want.white),
                "{rule_set} {opening} after {path:?}, {} ({filter:?})",
                next.point
            );
            assert!(!path.contains(&next.point));
            sum += s.games;
            children += 1;
        }
        assert!(sum <= stats.games);
    }
    // Every move counted from the records is listed under its position.
    let listed: u64 = moves.values().map(|t| t.games).sum();
    let ends: u64 = nodes.values().map(|(t, _)| t.games).sum();
    assert!(
        listed < ends && children > 300,
        "{listed} {ends} {children}"
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
                .any(|m| drawing(15, &b, &w, Some(m.point)) == drawing(15, &b, &w, Some(played))),
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
