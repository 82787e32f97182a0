//! Generated games for tests and benchmarks (feature `sample`): whole,
//! valid records played through the referee by a random player that
//! answers every prompt of any opening rule, and a record's image under
//! any of the board's eight symmetries; and the explorer's counts made
//! from records another way ([`Reference`]), to check its views against.

use std::ops::RangeInclusive;

use rand::Rng;
use rand::seq::IndexedRandom;
use tengen_protocol::{ExplorerFilter, ExplorerView, NodeStats};
use tengen_rules::game::{
    Action, Game, GameConfig, GameRecord, Input, OfferSet, Opening, RuleSet, Task, TimeControl,
};
use tengen_rules::opening::{Symmetry, check_offers};
use tengen_rules::{Color, Point, Variant};

use crate::canon::map_point;

/// Plays a random game of `rule_set` with `opening`: stones near the
/// others (black never on a forbidden point), swaps and offers at random,
/// until a five or, after 6 to 40 moves, a resignation or an agreed draw.
pub fn random_game(rng: &mut impl Rng, rule_set: RuleSet, opening: Opening) -> GameRecord {
    let config = GameConfig::new(rule_set).with_opening(opening);
    random_game_of(rng, config, 6..=40)
}

/// [`random_game`] of any `config`, resigned or drawn after a number of
/// moves drawn from `moves` (if no five came first).
pub fn random_game_of(
    rng: &mut impl Rng,
    config: GameConfig,
    moves: RangeInclusive<usize>,
) -> GameRecord {
    let mut game = Game::new(config, tengen_rules::game::Seat::First, 0).expect("a valid config");
    let stop_after = rng.random_range(moves);
    let mut at = 0;
    while !game.is_over() {
        at += 1000;
        let Some(prompt) = game.prompt(at) else {
            break;
        };
        let seat = prompt.seat;
        if game.moves().len() >= stop_after && matches!(prompt.task, Task::Place { .. }) {
            if rng.random_bool(0.1) {
                game.apply(seat, Action::OfferDraw, at)
                    .or_else(|_| game.apply(seat, Action::Resign, at))
                    .expect("an offer or a resignation");
                if !game.is_over() {
                    at += 1000;
                    game.apply(seat.other(), Action::AcceptDraw, at)
                        .expect("the draw accepted");
                }
            } else {
                game.apply(seat, Action::Resign, at).expect("a resignation");
            }
            break;
        }
        let action = choose(rng, &game, &prompt.task);
        game.apply(seat, action, at)
            .expect("the random player plays legally");
    }
    game.record()
}

/// A random legal answer to `task`.
fn choose(rng: &mut impl Rng, game: &Game, task: &Task) -> Action {
    match *task {
        Task::Place { color, within, .. } => Action::place(stone(rng, game, color, within)),
        Task::DecideSwap { .. } | Task::SuperSakataChoice { .. } => {
            if rng.random_bool(0.5) {
                Action::Swap
            } else {
                Action::Keep
            }
        }
        Task::DeclareOffers { max } => Action::DeclareOffers {
            count: rng.random_range(1..=max.min(3)),
        },
        Task::OfferFifths { count } => {
            let (black, white) = stones(game);
            let mut offers: Vec<Point> = Vec::new();
            while offers.len() < count as usize {
                let p = stone(rng, game, Color::Black, None);
                let mut next = offers.clone();
                next.push(p);
                if check_offers(&black, &white, &next).is_ok() {
                    offers = next;
                }
            }
            Action::OfferFifths {
                points: OfferSet::new(&offers).expect("at most ten"),
            }
        }
        Task::KeepFifth { offers } => Action::KeepFifth {
            point: *offers.as_slice().choose(rng).expect("offers"),
        },
        Task::ChooseOption { .. } => Action::ChooseOption {
            option: tengen_rules::game::TaraguchiOption::Single,
        },
        Task::Swap2Choice => Action::Swap,
        _ => Action::Resign,
    }
}

fn stones(game: &Game) -> (Vec<Point>, Vec<Point>) {
    let (mut b, mut w) = (Vec::new(), Vec::new());
    for (p, c) in game.board().stones() {
        match c {
            Color::Black => b.push(p),
            Color::White => w.push(p),
        }
    }
    (b, w)
}

/// An empty point for `color`: inside the centred square of side `within`
/// when given, else within two points of a stone (anywhere on an empty
/// board); never a forbidden point for black in renju. Random points are
/// tried first; the whole board is looked through only when they miss.
fn stone(rng: &mut impl Rng, game: &Game, color: Color, within: Option<u8>) -> Point {
    let board = game.board();
    let size = board.size();
    let c = i32::from(size / 2);
    let near = |p: Point| {
        board.stone_count() == 0
            || (-2..=2).any(|dx| {
                (-2..=2).any(|dy| {
                    p.offset(dx, dy, size)
                        .is_some_and(|q| board.get(q).is_some())
                })
            })
    };
    let renju = game.config().rule_set.variant() == Variant::Renju;
    let fits = |p: Point| {
        board.is_empty_point(p)
            && match within {
                Some(w) => {
                    let r = i32::from(w / 2);
                    (i32::from(p.x) - c).abs() <= r && (i32::from(p.y) - c).abs() <= r
                }
                None => near(p),
            }
            && !(renju && color == Color::Black && board.forbidden(p).is_some())
    };
    let (lo, hi) = match within {
        Some(w) => (c - i32::from(w / 2), c + i32::from(w / 2)),
        None => (0, i32::from(size) - 1),
    };
    for _ in 0..200 {
        let p = Point::new(
            rng.random_range(lo..=hi) as u8,
            rng.random_range(lo..=hi) as u8,
        );
        if fits(p) {
            return p;
        }
    }
    let all: Vec<Point> = board.points().filter(|&p| fits(p)).collect();
    match all.choose(rng) {
        Some(&p) => p,
        None => board
            .points()
            .find(|&p| board.is_empty_point(p))
            .expect("a free point"),
    }
}

/// The image of a record under `s` about the board's centre: every point
/// of every action mapped, and the game played again through the referee
/// (the rules are symmetric, so it plays), its tags kept.
pub fn transform(record: &GameRecord, s: Symmetry) -> GameRecord {
    let size = record.config.board_size;
    let m = |p: Point| map_point(s, size, p);
    let mut game =
        Game::new(record.config.clone(), record.opener, record.start).expect("a valid record");
    for e in &record.entries {
        let input = match e.input {
            Input::Act {
                seat,
                action,
                lag_credit_ms,
            } => Input::Act {
                seat,
                action: map_action(action, &m),
                lag_credit_ms,
            },
            other => other,
        };
        game.feed(&input, e.at)
            .expect("the image of a legal game is legal");
    }
    let mut out = game.record();
    out.tags = record.tags.clone();
    out
}

fn map_action(a: Action, m: &impl Fn(Point) -> Point) -> Action {
    match a {
        Action::Place {
            point,
            board,
            offer_draw,
        } => Action::Place {
            point: m(point),
            board,
            offer_draw,
        },
        Action::OfferFifths { points } => {
            let mapped: Vec<Point> = points.as_slice().iter().map(|&p| m(p)).collect();
            Action::OfferFifths {
                points: OfferSet::new(&mapped).expect("as many as before"),
            }
        }
        Action::KeepFifth { point } => Action::KeepFifth { point: m(point) },
        Action::PlaceTwo { white, black } => Action::PlaceTwo {
            white: m(white),
            black: m(black),
        },
        other => other,
    }
}

/// Games through a position, by result, as [`Reference`] counts them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub games: u64,
    pub black: u64,
    pub draws: u64,
    pub white: u64,
}

impl Counts {
    fn add(&mut self, winner: Option<Color>) {
        self.games += 1;
        match winner {
            Some(Color::Black) => self.black += 1,
            Some(Color::White) => self.white += 1,
            None => self.draws += 1,
        }
    }
}

/// The explorer's counts made another way, straight from records: each
/// record replayed by the referee, each position reduced by drawing its
/// board as text in the eight orientations (the maps written out here,
/// not taken from [`crate::canon`]) and keeping the least drawing; a
/// move is the position's drawing with the move's point marked.
#[derive(Default)]
pub struct Reference {
    depth: usize,
    /// (rules, drawing) → the games through it, one way there, and the
    /// drawings of the moves played from it.
    nodes: std::collections::HashMap<(String, String), Node>,
    /// (rules, drawing with the move marked) → the games that played it.
    moves: std::collections::HashMap<(String, String), Counts>,
}

/// A reference node: its games, one way there, its moves' drawings.
type Node = (Counts, Vec<Point>, std::collections::HashSet<String>);

/// The least of the eight drawings of the position, `mark` marked.
pub fn drawing(size: u8, black: &[Point], white: &[Point], mark: Option<Point>) -> String {
    let n = i32::from(size);
    type Map = fn(i32, i32, i32) -> (i32, i32);
    let maps: [Map; 8] = [
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
                let (x, y) = f(i32::from(p.x), i32::from(p.y), n);
                cells[(y * n + x) as usize] = c;
            };
            black.iter().for_each(|p| put(p, b'X'));
            white.iter().for_each(|p| put(p, b'O'));
            if let Some(m) = mark {
                put(&m, b'*');
            }
            String::from_utf8(cells).expect("ASCII")
        })
        .min()
        .expect("eight drawings")
}

fn split(moves: &[Point]) -> (Vec<Point>, Vec<Point>) {
    let (mut b, mut w) = (Vec::new(), Vec::new());
    for (i, &p) in moves.iter().enumerate() {
        if i % 2 == 0 {
            b.push(p);
        } else {
            w.push(p);
        }
    }
    (b, w)
}

impl Reference {
    /// Counts positions up to `depth` moves.
    pub fn new(depth: u32) -> Reference {
        Reference {
            depth: depth as usize,
            ..Reference::default()
        }
    }

    /// Counts a finished game under `rules` (any name for the scope).
    /// Returns false (counting nothing) for a game without a winner or a
    /// draw.
    pub fn add(&mut self, rules: &str, record: &GameRecord) -> bool {
        let Ok(game) = record.replay() else {
            return false;
        };
        let winner = match game.result().map(|r| r.outcome) {
            Some(tengen_rules::game::Outcome::Win { color, .. }) => Some(color),
            Some(tengen_rules::game::Outcome::Draw) => None,
            _ => return false,
        };
        let size = record.config.board_size;
        let moves: Vec<Point> = game.moves().iter().map_while(|m| m.point).collect();
        let last = moves.len().min(self.depth);
        for ply in 0..=last {
            let (b, w) = split(&moves[..ply]);
            let node = self
                .nodes
                .entry((rules.to_owned(), drawing(size, &b, &w, None)))
                .or_insert_with(|| (Counts::default(), moves[..ply].to_vec(), Default::default()));
            node.0.add(winner);
            if ply < last {
                let m = drawing(size, &b, &w, Some(moves[ply]));
                node.2.insert(m.clone());
                self.moves
                    .entry((rules.to_owned(), m))
                    .or_default()
                    .add(winner);
            }
        }
        true
    }

    /// Every position counted: its rules, one way there, its games and
    /// how many different moves were played from it.
    pub fn positions(&self) -> impl Iterator<Item = (&str, &[Point], Counts, usize)> {
        self.nodes
            .iter()
            .map(|((rules, _), (c, path, next))| (rules.as_str(), path.as_slice(), *c, next.len()))
    }

    /// The games that played `point` after `path`.
    pub fn next(&self, rules: &str, size: u8, path: &[Point], point: Point) -> Counts {
        let (b, w) = split(path);
        self.moves
            .get(&(rules.to_owned(), drawing(size, &b, &w, Some(point))))
            .copied()
            .unwrap_or_default()
    }

    /// Checks `view`, the explorer's answer (under `filter`) for a
    /// position of [`Reference::positions`], against this count: the
    /// position's games by result, how many moves were played from it, and
    /// each move's games. Returns how many moves it checked.
    ///
    /// # Panics
    ///
    /// At the first difference, naming the position and the filter (it is
    /// a test's check).
    pub fn check_view(
        &self,
        (rules, path, counts, moves): (&str, &[Point], Counts, usize),
        view: &ExplorerView,
        filter: &ExplorerFilter,
    ) -> usize {
        let got = |s: &NodeStats| Counts {
            games: s.games,
            black: s.black,
            draws: s.draws,
            white: s.white,
        };
        assert_eq!(
            got(&view.stats),
            counts,
            "{rules} after {path:?} ({filter:?})"
        );
        assert_eq!(
            view.next.len(),
            moves,
            "{rules} after {path:?}: the moves played from it ({filter:?})"
        );
        for next in &view.next {
            assert_eq!(
                got(&next.stats),
                self.next(rules, view.board_size, path, next.point),
                "{rules} after {path:?}, {} ({filter:?})",
                next.point
            );
        }
        view.next.len()
    }
}

/// One generated finished game, with who played it and when.
#[derive(Clone, Debug)]
pub struct SampleGame {
    pub id: String,
    pub record: GameRecord,
    pub players: crate::explorer::Players,
    pub finished_ms: u64,
}

/// How [`games_shaped`] makes its games; [`Shape::default`] is what
/// [`games`] makes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// A game not won first is resigned or drawn after a number of moves
    /// drawn from this range.
    pub moves: RangeInclusive<usize>,
    /// The pool of accounts the players are drawn from.
    pub players: u32,
    /// The games finish over this many days from 1 January 2026.
    pub days: u64,
    /// Each game played again under all eight symmetries (`true`), or
    /// once, under one of them drawn at random.
    pub all_symmetries: bool,
    /// Time controls drawn from every speed class (`false`: untimed).
    pub timed: bool,
}

impl Default for Shape {
    fn default() -> Shape {
        Shape {
            moves: 6..=40,
            players: 40,
            days: 181,
            all_symmetries: true,
            timed: false,
        }
    }
}

/// A time control of each speed class, bullet to unlimited.
fn time_controls() -> [TimeControl; 6] {
    const MIN: u64 = 60_000;
    [
        TimeControl::SuddenDeath { main_ms: 2 * MIN },
        TimeControl::Fischer {
            main_ms: 3 * MIN,
            increment_ms: 2_000,
        },
        TimeControl::ByoYomi {
            main_ms: 10 * MIN,
            periods: 3,
            period_ms: 5_000,
            moves_per_period: 1,
        },
        TimeControl::Fischer {
            main_ms: 30 * MIN,
            increment_ms: 30_000,
        },
        TimeControl::Correspondence {
            move_ms: 86_400_000,
            vacation_ms: 0,
        },
        TimeControl::Unlimited,
    ]
}

/// `n` finished games (a multiple of eight): random games of renju under
/// RIF, Soosõrv-8 and the free opening, and of gomoku under Swap2, each
/// played again under all eight symmetries; players from a pool of 40
/// accounts (every ninth game has a guest in the second seat), ratings
/// for four games in five, finished over six months from January 2026.
pub fn games(rng: &mut impl Rng, n: usize) -> impl Iterator<Item = SampleGame> + '_ {
    games_shaped(rng, n, Shape::default())
}

/// `n` finished games as [`games`] makes them, shaped by `shape`: with
/// `all_symmetries` off, each game is a new random game, under a
/// symmetry drawn at random.
pub fn games_shaped(
    rng: &mut impl Rng,
    n: usize,
    shape: Shape,
) -> impl Iterator<Item = SampleGame> + '_ {
    let kinds = [
        (RuleSet::Renju, Opening::Rif),
        (RuleSet::Renju, Opening::SOOSORV),
        (RuleSet::Renju, Opening::Free),
        (RuleSet::Gomoku, Opening::Swap2),
    ];
    let copies = if shape.all_symmetries { 8 } else { 1 };
    (0..n.div_ceil(copies)).flat_map(move |i| {
        let (rule_set, opening) = kinds[i % kinds.len()];
        let mut config = GameConfig::new(rule_set).with_opening(opening);
        if shape.timed {
            config = config.with_time(*time_controls().choose(rng).expect("six"));
        }
        let base = random_game_of(rng, config, shape.moves.clone());
        let a = rng.random_range(0..shape.players);
        let b = (a + 1 + rng.random_range(0..shape.players - 1)) % shape.players;
        let rated = rng.random_bool(0.8);
        let ratings = [
            rng.random_range(900.0..2400.0),
            rng.random_range(900.0..2400.0),
        ];
        let when = 1_767_225_600_000 + rng.random_range(0..shape.days * 86_400_000);
        let symmetries: Vec<Symmetry> = if shape.all_symmetries {
            Symmetry::ALL.to_vec()
        } else {
            vec![*Symmetry::ALL.choose(rng).expect("eight")]
        };
        symmetries.into_iter().enumerate().map(move |(j, s)| {
            let k = i * copies + j;
            let guest = k % 9 == 0;
            let names = [
                format!("player{a}"),
                if guest {
                    format!("guest-{k}")
                } else {
                    format!("player{b}")
                },
            ];
            SampleGame {
                id: format!("g{:011}", k),
                record: transform(&base, s),
                players: crate::explorer::Players {
                    accounts: [Some(names[0].clone()), (!guest).then(|| names[1].clone())],
                    names,
                    ratings: (rated && !guest).then_some(ratings),
                },
                finished_ms: when + j as u64 * 60_000,
            }
        })
    })
}
