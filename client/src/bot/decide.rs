//! The bot's answer to any prompt: one [`Action`] for whatever the referee
//! waits for, from what a client actually has.
//!
//! A client knows the board (from the events), the room's configuration,
//! the moves so far and the prompt the server sends with each event
//! (which carries the task, e.g. the offers to keep from). It has no rules
//! `Game`, and the bot does not need one: [`Situation`] is exactly that
//! knowledge, and every rule question (five, forbidden point, equivalent
//! offers) goes to `tengen-rules`' board and opening geometry.
//!
//! The decision rules, in the order [`decide`] applies them:
//!
//! 1. **Claim.** Holding white in a `claim` room, with black's latest stone
//!    forbidden when it was played (judged by [`Board::forbidden`] on the
//!    board without it), claim — it wins at once. Otherwise never: a false
//!    claim is a violation.
//! 2. **Draw offers.** Accepted only when the board is nearly full (at most
//!    one row's worth of empty points) and the bot cannot make five now;
//!    otherwise the bot simply acts, and a move declines the offer.
//! 3. **The task:**
//!    - `Place`: [`choose_stone`] in the zone given, except for opening
//!      stones that the opponent will judge by a swap option or Swap2's
//!      choice (RIF, Yamaguchi and Swap2 moves 1-3, Soosõrv 1-4,
//!      Taraguchi, Tarannikov and the Sakata rules 1-5): there the point
//!      after which the position looks most even, since a strong stone
//!      only invites a swap.
//!    - `DecideSwap`: judge the position ([`eval::balance`]) for the
//!      colour held, with the side to move known from the stone count;
//!      swap when the other colour looks better. A seeded margin of up to
//!      ±[`TASTE`] stands in for taste, so near-equal positions go both
//!      ways across seeds.
//!    - `DeclareOffers { max }`: 2 to 4 by seed, at most `max`. Few offers
//!      help black, many help white; a small count keeps the opening
//!      playable for either side.
//!    - `OfferFifths { count }`: black's best points by the one-move
//!      look-ahead, taking each only if it is not equivalent to one taken
//!      already (`opening::position_with_offer`); never an occupied or a
//!      forbidden point. There are always enough: each class of
//!      equivalent points has at most eight members.
//!    - `KeepFifth`: the offer after which black's position is worst.
//!    - `ChooseOption { offers }` (Taraguchi): option (b), the offers, when
//!      there are at most three of them (white picks among few, so black
//!      keeps most of its choice); with more, the seed picks either option.
//!    - `Swap2Choice`: take black ([`Action::Swap`]) when black is clearly
//!      ahead after three stones (by more than [`SWAP2_TAKE_BLACK`]);
//!      otherwise the seed picks between placing white 4 and staying white,
//!      or placing white 4 and the most even black 5 and leaving the colour
//!      to the opener.
//!    - `SuperSakataChoice`: one time in [`SAKATA_TWO_ODDS`] (by seed) the
//!      two most even stones, white then black, handing the choice back
//!      (option (c)), if neither makes a five; otherwise the colour that
//!      looks better, judged as for `DecideSwap` (keep or swap).
//!    - `Place` in a twin room (two boards): `twin::twin_stone`, which
//!      makes a five only as half of a five on both boards in one turn.
//! 4. **Nothing playable** (every point full or, for black, forbidden): a
//!    pass if the prompt allows one, else resignation. A task this version
//!    does not know also gets that answer, rather than a guess.

use tengen_rules::game::{
    Action, ActionKind, GameConfig, Move, OfferSet, Prompt, TaraguchiOption, Task,
};
use tengen_rules::{Board, Color, Point};

use tengen_bot::decide::{accept_draw, claim_holds, distinct_offers, give_up, last_judged_stone};

use super::eval::{balance, to_move};
use super::stone::{Rules, candidates, choose_stone, in_zone, mix, score};
use super::twin::twin_stone;

/// The largest seeded margin, in shape points, added to the swap judgement.
pub const TASTE: i32 = 15;

/// How far ahead black must look after Swap2's three stones before the
/// second player takes black outright. Two stones against one always put
/// black some 45 shape points ahead on the bot's balance scale (an extra
/// stone's worth, less white's tempo), so only more than that counts as
/// "clearly".
pub const SWAP2_TAKE_BLACK: i32 = 50;

/// Offers of Taraguchi's option (b) the bot accepts without a coin toss.
const FEW_OFFERS: u8 = 3;

/// At Super Sakata's choice the bot places two more stones (option (c))
/// one time in this many, by seed: often enough that self-play meets the
/// option, seldom enough that the opening ends.
pub const SAKATA_TWO_ODDS: u64 = 3;

/// What a client knows when a prompt arrives.
#[derive(Clone, Copy, Debug)]
pub struct Situation<'a> {
    /// The stones on the board now (fifth-move offers are not stones until
    /// one is kept).
    pub board: &'a Board,
    /// The room's configuration: rule set, opening, forbidden handling.
    pub config: &'a GameConfig,
    /// The stone the latest move put down: `None` before the first move
    /// and after a pass. Only claims look at it.
    pub last_stone: Option<Point>,
    /// A twin room's second board (`board` is the first).
    pub second: Option<&'a Board>,
}

impl<'a> Situation<'a> {
    pub fn new(board: &'a Board, config: &'a GameConfig, last_stone: Option<Point>) -> Self {
        Situation {
            board,
            config,
            last_stone,
            second: None,
        }
    }

    /// The same situation with a twin room's second board.
    pub fn with_second(self, second: Option<&'a Board>) -> Self {
        Situation { second, ..self }
    }

    /// The situation after `moves` (the game's moves list, as the server's
    /// events give it).
    pub fn from_moves(board: &'a Board, config: &'a GameConfig, moves: &[Move]) -> Self {
        Situation::new(board, config, moves.last().and_then(|m| m.point))
    }

    fn rules(&self) -> Rules {
        Rules {
            variant: self.config.rule_set.variant(),
        }
    }
}

/// The bot's action for `prompt` (a prompt addressed to the bot's seat).
/// Deterministic for a given `seed`.
pub fn decide(s: &Situation, prompt: &Prompt, seed: u64) -> Action {
    // Claims, draws and giving up are judged as the built-in bot's levels
    // judge them.
    let one_board = tengen_bot::Situation {
        board: s.board,
        config: s.config,
        last_stone: s.last_stone,
    };
    if let Some(point) = claim_holds(&one_board, prompt) {
        return Action::claim(point);
    }
    if prompt.may.contains(&ActionKind::AcceptDraw) && accept_draw(&one_board, prompt) {
        return Action::AcceptDraw;
    }
    let rules = s.rules();
    match prompt.task {
        Task::Place { color, .. } if s.second.is_some() => {
            let boards = [s.board, s.second.expect("checked")];
            let left = prompt.stones_left.unwrap_or(1);
            match twin_stone(boards, color, left, seed) {
                Some((board, p)) => Action::place_on(board, p),
                None => give_up(prompt),
            }
        }
        Task::Place {
            color,
            move_number,
            within,
        } => {
            let p = if move_number <= last_judged_stone(s.config.opening) {
                balanced_stone(s.board, color, rules, within, seed)
            } else {
                choose_stone(s.board, color, rules, within, seed)
            };
            match p {
                Some(p) => Action::place(p),
                None => give_up(prompt),
            }
        }
        Task::DecideSwap { color } => {
            if prefers_other_colour(s, color, seed) {
                Action::Swap
            } else {
                Action::Keep
            }
        }
        Task::DeclareOffers { max } => Action::DeclareOffers {
            count: (2 + (mix(seed ^ 0xDEC1) % 3) as u8).min(max).max(1),
        },
        Task::OfferFifths { count } => {
            let points = fifth_offers(s, count as usize, seed);
            match OfferSet::new(&points) {
                Ok(points) if points.len() == count as usize => Action::OfferFifths { points },
                _ => give_up(prompt),
            }
        }
        Task::KeepFifth { offers } => match offer_to_keep(s, offers, seed) {
            Some(point) => Action::KeepFifth { point },
            None => give_up(prompt),
        },
        Task::ChooseOption { offers } => Action::ChooseOption {
            option: if offers <= FEW_OFFERS || mix(seed ^ 0x0971).is_multiple_of(2) {
                TaraguchiOption::Offers
            } else {
                TaraguchiOption::Single
            },
        },
        Task::Swap2Choice => swap2_choice(s, seed).unwrap_or_else(|| give_up(prompt)),
        Task::SuperSakataChoice { color } => super_sakata_choice(s, color, seed),
        _ => give_up(prompt),
    }
}

/// A stone for a position the opponent will judge: the point (in the zone,
/// near the stones, playable for `color`) after which the position looks
/// most even, so that neither keeping nor swapping gains much.
pub(crate) fn balanced_stone(
    board: &Board,
    color: Color,
    rules: Rules,
    within: Option<u8>,
    seed: u64,
) -> Option<Point> {
    let near: Vec<Point> = candidates(board)
        .filter(|&p| in_zone(board, within, p) && rules.may_play(board, color, p))
        .collect();
    if near.is_empty() {
        return choose_stone(board, color, rules, within, seed);
    }
    let mut with = board.clone();
    near.into_iter()
        .map(|p| {
            with.place(p, color).ok();
            let b = balance(&with, rules, color.opponent()).abs();
            with.remove(p);
            ((b, mix(seed ^ (u64::from(p.x) << 8) ^ u64::from(p.y))), p)
        })
        .min_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, p)| p)
}

/// A seeded margin in `-TASTE..=TASTE`.
fn taste(seed: u64, salt: u64) -> i32 {
    (mix(seed ^ salt) % (2 * TASTE as u64 + 1)) as i32 - TASTE
}

/// Whether the seat holding `held` would rather hold the other colour.
fn prefers_other_colour(s: &Situation, held: Color, seed: u64) -> bool {
    let b = balance(s.board, s.rules(), to_move(s.board));
    let mine = if held == Color::Black { b } else { -b };
    mine + taste(seed, 0x5A5A) < 0
}

/// Up to `count` black fifth moves, best first, pairwise non-equivalent,
/// on empty points black may play.
pub(crate) fn fifth_offers(s: &Situation, count: usize, seed: u64) -> Vec<Point> {
    let (board, rules) = (s.board, s.rules());
    let mut scratch = board.clone();
    let mut ranked: Vec<_> = board
        .points()
        .filter(|&p| rules.may_play(board, Color::Black, p))
        .map(|p| (score(&mut scratch, Color::Black, rules, p, seed), p))
        .collect();
    ranked.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
    distinct_offers(board, ranked.into_iter().map(|(_, p)| p).collect(), count)
}

/// The offer after which black (white to move) is worst off.
fn offer_to_keep(s: &Situation, offers: OfferSet, seed: u64) -> Option<Point> {
    let rules = s.rules();
    offers
        .as_slice()
        .iter()
        .filter(|&&p| s.board.is_empty_point(p))
        .map(|&p| {
            let mut with = s.board.clone();
            with.place(p, Color::Black).ok();
            let b = balance(&with, rules, Color::White);
            ((b, mix(seed ^ (u64::from(p.x) << 8) ^ u64::from(p.y))), p)
        })
        .min_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, p)| p)
}

/// Swap2's second player, after black 1, white 2, black 3.
fn swap2_choice(s: &Situation, seed: u64) -> Option<Action> {
    let (board, rules) = (s.board, s.rules());
    if balance(board, rules, Color::White) + taste(seed, 0x5202) > SWAP2_TAKE_BLACK {
        return Some(Action::Swap);
    }
    let white = choose_stone(board, Color::White, rules, None, seed)?;
    if mix(seed ^ 0x2222).is_multiple_of(2) {
        return Some(Action::place(white));
    }
    let mut with = board.clone();
    with.place(white, Color::White).ok()?;
    let black = balanced_stone(&with, Color::Black, rules, None, seed)?;
    Some(Action::PlaceTwo { white, black })
}

/// Super Sakata's chooser, holding `held`: now and then two even stones
/// (option (c)), else the better-looking colour.
fn super_sakata_choice(s: &Situation, held: Color, seed: u64) -> Action {
    let two = mix(seed ^ 0x5A4A)
        .is_multiple_of(SAKATA_TWO_ODDS)
        .then(|| even_pair(s, seed))
        .flatten();
    match two {
        Some((white, black)) => Action::PlaceTwo { white, black },
        None if prefers_other_colour(s, held, seed) => Action::Swap,
        None => Action::Keep,
    }
}

/// A white and then a black stone after which the position looks most
/// even; `None` if either would make a five (the referee refuses that in
/// an opening) or no point is left.
fn even_pair(s: &Situation, seed: u64) -> Option<(Point, Point)> {
    let (board, rules) = (s.board, s.rules());
    let white = balanced_stone(board, Color::White, rules, None, seed)?;
    let mut with = board.clone();
    with.place(white, Color::White).ok()?;
    let black = balanced_stone(&with, Color::Black, rules, None, seed)?;
    let five = board.makes_five(white, Color::White, rules.variant)
        || with.makes_five(black, Color::Black, rules.variant);
    (!five).then_some((white, black))
}
