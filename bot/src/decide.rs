//! The bot's answer to any prompt of a one-board game: one [`Action`]
//! for whatever the referee waits for, from what a client has (the board,
//! the room's configuration, the latest stone, the prompt).
//!
//! Stones come from [`crate::think`]. The opening decisions come from the
//! same search's values, not from rules of thumb:
//! - **Swap options** (RIF, Yamaguchi, Soosõrv, Taraguchi, the swap after
//!   three, Swap2's opener after five, Super Sakata): the position is
//!   searched for the side to move; the decider keeps its colour when
//!   that colour's value is at least even, else swaps.
//! - **Stones the opponent will judge** (the opener's first stones before
//!   a swap option or Swap2's choice): of the playable points, the one
//!   after which a short search finds the position most even.
//! - **Fifth-move offers**: black's moves ranked by the search's values
//!   at the root, the best first, each taken only if not equivalent to
//!   one taken already (the referee's offer geometry) and not forbidden.
//! - **Which offer to keep**: the one after which white's searched value
//!   is best.
//! - **Declaring the number of offers**: fewer when the declarer's colour
//!   stands worse, more when better (more offers help white), from the
//!   searched value.
//! - **Swap2's second player**: black if white's searched value after
//!   three is clearly below even, white 4 (the searched best) if clearly
//!   above, else white 4 and the black 5 after which the position is most
//!   even, leaving the colour to the opener.
//! - **Taraguchi's option**: the offers when black's value is at least
//!   even (white then picks among several), else the single fifth move.
//!
//! Claims: holding white in a claim room, black's latest stone is claimed
//! when the referee says it was forbidden. A draw offer is accepted only
//! on a nearly full board with no five to make. Nothing playable: a pass
//! where allowed, else resignation.

use tengen_rules::game::{
    Action, ActionKind, ForbiddenHandling, GameConfig, OfferSet, Prompt, TaraguchiOption, Task,
};
use tengen_rules::opening::{CanonicalPosition, CentralSquare, position_with_offer};
use tengen_rules::{Board, Color, Point};

use crate::level::Level;
use crate::position::Position;
use crate::search::{Limits, MATE_BOUND, Searcher};
use crate::think::{Clock, TimeBudget, choose_stone};
use crate::tt::Tt;

/// What a client knows when a prompt arrives.
#[derive(Clone, Copy, Debug)]
pub struct Situation<'a> {
    pub board: &'a Board,
    pub config: &'a GameConfig,
    /// The stone the latest move put down (claims look at it).
    pub last_stone: Option<Point>,
}

/// A player of one level with its transposition table, answering the
/// prompts of one game after another.
pub struct Bot {
    level: Level,
    seed: u64,
    tt: Tt,
    last: Option<crate::think::Choice>,
}

/// How far ahead white is after Swap2's three stones before the second
/// player keeps white outright (or behind before it takes black), in
/// evaluation units.
const SWAP2_CLEAR: i32 = 60;

/// The time a decision's searches share with the stone it may lead to.
fn part(budget: TimeBudget, n: u64) -> TimeBudget {
    TimeBudget {
        turn_ms: (budget.turn_ms / n).max(1),
        left_ms: if budget.left_ms == u64::MAX {
            u64::MAX
        } else {
            budget.left_ms / n
        },
        increment_ms: budget.increment_ms / n,
    }
}

impl Bot {
    pub fn new(level: Level, seed: u64) -> Bot {
        Bot {
            level,
            seed,
            tt: Tt::new(level.params().tt_bits),
            last: None,
        }
    }

    /// How the latest stone was chosen (for logs and tests).
    pub fn last_choice(&self) -> Option<crate::think::Choice> {
        self.last
    }

    pub fn level(&self) -> Level {
        self.level
    }

    /// Forgets the positions searched (a new game).
    pub fn new_game(&mut self) {
        self.tt.clear();
    }

    /// The action for `prompt` (addressed to the bot's seat), within
    /// `budget` on `clock`.
    pub fn decide(
        &mut self,
        s: &Situation,
        prompt: &Prompt,
        clock: Clock<'_>,
        budget: TimeBudget,
    ) -> Action {
        if let Some(point) = claim_holds(s, prompt) {
            return Action::claim(point);
        }
        if prompt.may.contains(&ActionKind::AcceptDraw) && accept_draw(s, prompt) {
            return Action::AcceptDraw;
        }
        let variant = s.config.rule_set.variant();
        let mut pos = Position::from_board(s.board, variant);
        let seed = self.seed ^ (s.board.stone_count() as u64).wrapping_mul(0x9E37_79B9);
        let action = match prompt.task {
            Task::Place {
                color,
                move_number,
                within,
            } => {
                let zone = within.and_then(CentralSquare::new);
                let inside = move |p: Point| zone.is_none_or(|z| z.contains(p));
                let judged = move_number <= last_judged_stone(s.config.opening);
                let p = if judged {
                    self.even_stone(&mut pos, color, &inside, clock, budget)
                } else {
                    let allowed: Option<&dyn Fn(Point) -> bool> =
                        zone.is_some().then_some(&inside as &dyn Fn(Point) -> bool);
                    let c = choose_stone(
                        &mut pos,
                        color,
                        self.level,
                        seed,
                        clock,
                        budget,
                        allowed,
                        &mut self.tt,
                    );
                    self.last = c;
                    c.map(|c| c.point)
                };
                p.map(Action::place)
            }
            Task::DecideSwap { color } | Task::SuperSakataChoice { color } => {
                let mover = to_move(s.board);
                let v = self.value(&mut pos, mover, clock, budget);
                let mine = if color == mover { v } else { -v };
                Some(if mine >= 0 {
                    Action::Keep
                } else {
                    Action::Swap
                })
            }
            Task::DeclareOffers { max } => {
                // The declarer holds the colour of the stone that follows
                // the offers' turn: black for Yamaguchi, white for Soosõrv.
                let v_black = {
                    let mover = to_move(s.board);
                    let v = self.value(&mut pos, mover, clock, budget);
                    if mover == Color::Black { v } else { -v }
                };
                let holds_black = s.board.stone_count() == 3;
                let mine = if holds_black { v_black } else { -v_black };
                // More offers help white: black ahead declares more to
                // keep the swap from being worth it; white ahead fewer.
                let n = if holds_black {
                    2 + mine / 80
                } else {
                    2 - mine / 80
                };
                Some(Action::DeclareOffers {
                    count: n.clamp(1, max as i32) as u8,
                })
            }
            Task::OfferFifths { count } => self
                .offers(&mut pos, count as usize, clock, budget)
                .and_then(|pts| OfferSet::new(&pts).ok())
                .filter(|set| set.len() == count as usize)
                .map(|points| Action::OfferFifths { points }),
            Task::KeepFifth { offers } => self
                .keep(&mut pos, offers, clock, budget)
                .map(|point| Action::KeepFifth { point }),
            Task::ChooseOption { .. } => {
                let v = self.value(&mut pos, Color::Black, clock, budget);
                Some(Action::ChooseOption {
                    option: if v >= 0 {
                        TaraguchiOption::Offers
                    } else {
                        TaraguchiOption::Single
                    },
                })
            }
            Task::Swap2Choice => self.swap2(&mut pos, clock, budget),
            _ => None,
        };
        action.unwrap_or_else(|| give_up(prompt))
    }

    /// The searched value of `pos` for `mover` (a share of the time).
    fn value(
        &mut self,
        pos: &mut Position,
        mover: Color,
        clock: Clock<'_>,
        budget: TimeBudget,
    ) -> i32 {
        let level = self.level.params();
        let (_, hard) = part(budget, 2).plan(pos.stones());
        let limits = Limits {
            max_depth: level.depth.clamp(2, 8),
            width: level.width,
            nodes: level.nodes.min(2_000_000),
            soft_ms: hard / 2,
            hard_ms: hard,
        };
        Searcher::new(&mut self.tt, clock, limits)
            .run(pos, mover, &[])
            .map_or(0, |o| o.value)
    }

    /// A stone for a position the opponent will judge (a swap option
    /// follows): the point in the zone after which the position is most
    /// even for the colour to move next.
    fn even_stone(
        &mut self,
        pos: &mut Position,
        color: Color,
        inside: &dyn Fn(Point) -> bool,
        clock: Clock<'_>,
        budget: TimeBudget,
    ) -> Option<Point> {
        let mut points: Vec<usize> = pos
            .board()
            .points()
            .filter(|&p| inside(p))
            .map(|p| pos.cell(p))
            .filter(|&q| pos.legal(q, color) && (pos.is_near(q) || pos.stones() == 0))
            .collect();
        if points.is_empty() {
            points = pos
                .board()
                .points()
                .filter(|&p| inside(p))
                .map(|p| pos.cell(p))
                .filter(|&q| pos.legal(q, color))
                .collect();
        }
        if points.len() <= 1 {
            return points.first().map(|&q| pos.point(q));
        }
        let mut rng = crate::think::Rng::new(self.seed ^ pos.hash());
        let (_, hard) = budget.plan(pos.stones());
        let start = clock();
        let per = ((hard.saturating_sub(start)) / points.len() as u64).max(1);
        let mut best: Option<(i32, usize)> = None;
        for q in points {
            let now = clock();
            let limits = Limits {
                max_depth: 2,
                width: 10,
                nodes: 20_000,
                soft_ms: now + per / 2,
                hard_ms: now + per,
            };
            pos.place(q, color);
            let v = Searcher::new(&mut self.tt, clock, limits)
                .run(pos, color.opponent(), &[])
                .map_or(0, |o| o.value);
            pos.undo();
            let score = v.abs() * 4 + rng.spread(3);
            if best.is_none_or(|b| score < b.0) {
                best = Some((score, q));
            }
        }
        best.map(|(_, q)| pos.point(q))
    }

    /// Black's `count` fifth-move offers: the best-valued moves of a root
    /// search, pairwise non-equivalent, none forbidden.
    fn offers(
        &mut self,
        pos: &mut Position,
        count: usize,
        clock: Clock<'_>,
        budget: TimeBudget,
    ) -> Option<Vec<Point>> {
        let level = self.level.params();
        let (soft, hard) = budget.plan(pos.stones());
        let limits = Limits {
            max_depth: level.depth.clamp(2, 60),
            width: (level.width + count).max(24),
            nodes: level.nodes,
            soft_ms: soft,
            hard_ms: hard,
        };
        let out = Searcher::new(&mut self.tt, clock, limits).run(pos, Color::Black, &[])?;
        let mut ranked: Vec<Point> = out.root.iter().map(|&(q, _)| pos.point(q)).collect();
        // Beyond the searched ones, the rest of the board's playable
        // points (a class of equivalent points has at most eight members,
        // so there are always enough).
        for p in pos.board().points() {
            let q = pos.cell(p);
            if !ranked.contains(&p) && pos.legal(q, Color::Black) {
                ranked.push(p);
            }
        }
        let chosen = distinct_offers(pos.board(), ranked, count);
        (chosen.len() == count).then_some(chosen)
    }

    /// White keeps the offer after which its searched value is best.
    fn keep(
        &mut self,
        pos: &mut Position,
        offers: OfferSet,
        clock: Clock<'_>,
        budget: TimeBudget,
    ) -> Option<Point> {
        let n = offers.len().max(1) as u64;
        let mut best: Option<(i32, Point)> = None;
        for &p in offers.as_slice() {
            let q = pos.cell(p);
            if !pos.is_empty(q) {
                continue;
            }
            pos.place(q, Color::Black);
            let v = self.value(pos, Color::White, clock, part(budget, n));
            pos.undo();
            if best.is_none_or(|b| v > b.0) {
                best = Some((v, p));
            }
        }
        best.map(|b| b.1)
    }

    /// Swap2's second player after three stones.
    fn swap2(
        &mut self,
        pos: &mut Position,
        clock: Clock<'_>,
        budget: TimeBudget,
    ) -> Option<Action> {
        let third = part(budget, 3);
        let v = self.value(pos, Color::White, clock, third);
        if v < -SWAP2_CLEAR {
            return Some(Action::Swap);
        }
        let choice = choose_stone(
            pos,
            Color::White,
            self.level,
            self.seed,
            clock,
            third,
            None,
            &mut self.tt,
        )?;
        if v > SWAP2_CLEAR || choice.value.abs() >= MATE_BOUND {
            return Some(Action::place(choice.point));
        }
        let white = pos.cell(choice.point);
        pos.place(white, Color::White);
        let all = |_: Point| true;
        let black = self.even_stone(pos, Color::Black, &all, clock, third);
        pos.undo();
        let black = black?;
        let five = pos
            .board()
            .makes_five(choice.point, Color::White, pos.variant());
        if five {
            return Some(Action::place(choice.point));
        }
        Some(Action::PlaceTwo {
            white: choice.point,
            black,
        })
    }
}

/// The colour to move on `board` (openings alternate; a pass is no stone
/// of an opening).
fn to_move(board: &Board) -> Color {
    if board.stone_count().is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    }
}

/// The last opening stone a swap option (or Swap2's choice) by the other
/// player follows: the stones up to it are laid for the opponent to
/// judge. 0 when none (free play, the swap after three: each side lays
/// its own).
pub fn last_judged_stone(opening: tengen_rules::game::Opening) -> u32 {
    use tengen_rules::game::Opening;
    match opening {
        Opening::Rif
        | Opening::Yamaguchi
        | Opening::Yamaguchi52
        | Opening::YamaguchiVariant
        | Opening::Swap2 => 3,
        Opening::Soosorv { .. } | Opening::Jonsson => 4,
        Opening::Taraguchi { .. }
        | Opening::Tarannikov
        | Opening::Sakata
        | Opening::SuperSakata => 5,
        _ => 0,
    }
}

/// The first `count` of `ranked` (black's fifth moves, best first) no
/// two of which are equivalent offers on `board`, as the referee's offer
/// geometry judges.
pub fn distinct_offers(board: &Board, ranked: Vec<Point>, count: usize) -> Vec<Point> {
    let (black, white) = stones(board);
    let mut forms: Vec<CanonicalPosition> = Vec::with_capacity(count);
    let mut chosen = Vec::with_capacity(count);
    for p in ranked {
        if chosen.len() == count {
            break;
        }
        let form = position_with_offer(&black, &white, p);
        if !forms.contains(&form) {
            forms.push(form);
            chosen.push(p);
        }
    }
    chosen
}

/// The stones of each colour, for the opening geometry.
pub fn stones(board: &Board) -> (Vec<Point>, Vec<Point>) {
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for (p, c) in board.stones() {
        match c {
            Color::Black => black.push(p),
            Color::White => white.push(p),
        }
    }
    (black, white)
}

/// The last resort: a pass where allowed, else resignation.
pub fn give_up(prompt: &Prompt) -> Action {
    if prompt.may.contains(&ActionKind::Pass) {
        Action::pass()
    } else {
        Action::Resign
    }
}

/// Black's latest stone, if a claim of it would hold: white to move in a
/// claim room, and that stone was forbidden on the board it was played on.
pub fn claim_holds(s: &Situation, prompt: &Prompt) -> Option<Point> {
    let white_to_move = matches!(
        prompt.task,
        Task::Place {
            color: Color::White,
            ..
        }
    );
    if !white_to_move
        || !prompt.may.contains(&ActionKind::ClaimForbidden)
        || s.config.forbidden_handling() != Some(ForbiddenHandling::Claim)
    {
        return None;
    }
    let p = s.last_stone?;
    if s.board.get(p) != Some(Color::Black) {
        return None;
    }
    let mut before = s.board.clone();
    before.remove(p);
    before.forbidden(p).map(|_| p)
}

/// Accept a draw only on a nearly full board the bot cannot win on now.
pub fn accept_draw(s: &Situation, prompt: &Prompt) -> bool {
    let board = s.board;
    let empty = board.points().filter(|&p| board.is_empty_point(p)).count();
    if empty > board.size() as usize {
        return false;
    }
    let variant = s.config.rule_set.variant();
    match prompt.task {
        Task::Place { color, .. } => !board.points().any(|p| {
            board.is_empty_point(p)
                && board.makes_five(p, color, variant)
                && !(variant == tengen_rules::Variant::Renju
                    && color == Color::Black
                    && board.forbidden(p).is_some())
        }),
        _ => true,
    }
}
