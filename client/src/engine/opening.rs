//! Opening decisions asked of the engine through two protocol extensions:
//! `SWAP2BOARD` (Gomocup's Swap2 command: the opener's three stones, the
//! second player's choice after them, the opener's colour after five; and
//! any swap option after three or five stones, RIF's among them) and
//! `YXNBEST N` (Yixin board's N best moves, asked for black's N fifth-move
//! offers after the position is given by `YXBOARD` … `DONE`).
//!
//! Positions are sent as in `BOARD`: `x,y,field` in the order played,
//! field 1 for the stones of the colour to move and 2 for the others
//! (Rapfi reads the field and answers a bare `x,y` line with `ERROR Color
//! is not a valid value`; engines that read `x,y` alone ignore it).
//!
//! Why a module of its own: an engine may know neither extension. Asking,
//! learning that it does not answer, falling back to the built-in bot and
//! turning the answers into the referee's actions are kept here, apart
//! from the stones' path ([`super::bridge`]).
//!
//! **Support is learnt by asking** (the engine's `ABOUT` has no standard
//! field for it): the first request of each kind in a game is the probe.
//! `UNKNOWN` or `ERROR`, no answer in time, an answer that is not one of
//! the forms below or does not fit the board, or the server refusing the
//! action made from it turns that extension off for the rest of the game
//! (a [`Note::Unsupported`] in the log), and the built-in bot decides that
//! decision and the later ones. After a timeout the engine is restarted
//! (a late line must not be read as its next move); otherwise whatever it
//! still prints is drained.
//!
//! Answers understood (`x,y` as in [`crate::piskvork`]):
//! - `SWAP2BOARD` with no stone: `x1,y1 x2,y2 x3,y3`, black 1, white 2,
//!   black 3, played one by one as the referee asks for them;
//! - with three stones (the second player): `SWAP` (take black), `x,y`
//!   (white 4, staying white) or `x4,y4 x5,y5` (white 4 and black 5, the
//!   opener then chooses the colour);
//! - with five stones (the opener, holding black): `SWAP` (keep black, the
//!   other side plays white 6) or `x,y` (take white and play 6 there);
//! - any other swap option after three or five stones (RIF's, the swap
//!   after three, Yamaguchi's, ...), asked the same way: `SWAP` when the
//!   colour to move is not worth having (Rapfi: its search's value for it
//!   is below zero), else `x,y`, that colour's next stone;
//! - `YXNBEST N`: one line of N points `x1,y1 x2,y2 …`, black's offers;
//!   or, as Rapfi answers, one point (its best), the others in its
//!   `MESSAGE (k) value | depth | pv` lines, one per k in 1..=N for each
//!   depth searched: the latest complete set gives them.
//!
//! Nothing here judges a rule beyond the board's facts (empty points,
//! distinct points): offers are checked by the rules crate (forbidden
//! points, equivalent offers), and the server refuses anything else.

use std::time::Duration;

use tengen_rules::game::{Action, GameConfig, OfferSet, Opening, Task};
use tengen_rules::opening::position_with_offer;
use tengen_rules::{Board, Color, Point, Variant};

use super::bridge::{Bridge, send_time};
use super::clock::TurnTime;
use super::process::EngineError;
use super::types::{Ext, Note};
use crate::piskvork::{from_label, from_xy, to_xy};

/// How long the engine must stay quiet before a drain ends.
const QUIET: Duration = Duration::from_millis(300);

/// The most points an extension's answer may hold.
const MAX_POINTS: usize = 16;

/// An answer to `SWAP2BOARD`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swap2Answer {
    /// With no stone: black 1, white 2, black 3.
    Opening([Point; 3]),
    /// Take the colour that is not to move (black, after three or five).
    Swap,
    /// With three stones white 4; with five, white 6.
    Stone(Point),
    /// With three stones: white 4 and black 5.
    Two(Point, Point),
}

/// The points of an answer line, separated by spaces.
pub fn parse_points(line: &str, size: u8) -> Result<Vec<Point>, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.is_empty() || words.len() > MAX_POINTS {
        return Err(format!("'{line}': expected 1 to {MAX_POINTS} points"));
    }
    words
        .into_iter()
        .map(|w| from_xy(w, size).map_err(|e| e.to_string()))
        .collect()
}

/// `line` as the answer to `SWAP2BOARD` with `stones` stones given.
pub fn parse_swap2(line: &str, stones: usize, size: u8) -> Result<Swap2Answer, String> {
    let not = || format!("'{line}' is not an answer to SWAP2BOARD with {stones} stones");
    if line.trim().eq_ignore_ascii_case("SWAP") {
        return if stones == 0 {
            Err(not())
        } else {
            Ok(Swap2Answer::Swap)
        };
    }
    let points = parse_points(line, size)?;
    match (stones, points.as_slice()) {
        (0, &[a, b, c]) => Ok(Swap2Answer::Opening([a, b, c])),
        (3 | 5, &[p]) => Ok(Swap2Answer::Stone(p)),
        (3, &[w, b]) => Ok(Swap2Answer::Two(w, b)),
        _ => Err(not()),
    }
}

/// The `n` best moves of a `YXNBEST n` answer `line`, given the
/// `MESSAGE` texts the engine printed while it searched: the line's
/// points when it holds `n` of them; when it holds one (Rapfi), that one
/// first, then the others of the latest complete set of `(k) value |
/// depth | pv` lines (the first move of each k's line).
pub fn nbest_points(
    line: &str,
    messages: &[String],
    n: usize,
    size: u8,
) -> Result<Vec<Point>, String> {
    let points = parse_points(line, size)?;
    if points.len() == n || points.len() != 1 {
        return Ok(points);
    }
    let mut block: Vec<Point> = Vec::new();
    let mut complete: Option<Vec<Point>> = None;
    for (k, p) in messages.iter().filter_map(|m| multipv_line(m, size)) {
        if k == 1 {
            block.clear();
        }
        if k == block.len() + 1 {
            block.push(p);
            if block.len() == n {
                complete = Some(block.clone());
            }
        } else {
            block.clear();
        }
    }
    let Some(set) = complete else {
        return Err(format!(
            "'{line}': one point, and no {n} best in its MESSAGE lines"
        ));
    };
    let best = points[0];
    let mut out = vec![best];
    out.extend(set.into_iter().filter(|&p| p != best));
    out.truncate(n);
    Ok(out)
}

/// Rapfi's multi-PV line `(k) value | depth-seldepth | pv...`: k and the
/// first move of its line.
fn multipv_line(text: &str, size: u8) -> Option<(usize, Point)> {
    let (k, rest) = text.strip_prefix('(')?.split_once(')')?;
    let k = k.trim().parse().ok()?;
    let first = rest.split('|').nth(2)?.split_whitespace().next()?;
    Some((k, from_label(first, size)?))
}

/// The colour to move after `n` stones of an opening (they alternate).
fn to_move(n: usize) -> Color {
    if n.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    }
}

/// A position as `BOARD` gives it: `x,y,field` lines in the order
/// played, field 1 for the stones of the colour to move.
fn position_lines(stones: &[(Point, Color)], size: u8) -> impl Iterator<Item = String> + '_ {
    let mover = to_move(stones.len());
    stones.iter().map(move |&(p, c)| {
        let field = if c == mover { 1 } else { 2 };
        format!("{},{field}", to_xy(p, size))
    })
}

/// Whether `points` are pairwise distinct empty points of `board`.
fn fresh(board: &Board, points: &[Point]) -> bool {
    points
        .iter()
        .enumerate()
        .all(|(i, &p)| board.is_empty_point(p) && !points[..i].contains(&p))
}

/// What a prompt for our seat needs from the engine's extensions.
#[derive(Clone, Copy, Debug)]
pub struct OpeningAsk<'a> {
    pub board: &'a Board,
    pub config: &'a GameConfig,
    /// The stones on the board in the order they were played.
    pub stones: &'a [(Point, Color)],
    pub task: Task,
    pub time: TurnTime,
}

/// The engine's action for an opening decision through an extension, if
/// the prompt is one and the engine answers it usably; `None`: the caller
/// decides as before (the built-in bot, or the engine's ordinary move).
pub async fn engine_opening(bridge: &mut Bridge, ask: &OpeningAsk<'_>) -> Option<Action> {
    bridge.last_ext = None;
    let (action, ext) = match ask.task {
        Task::Place { within: None, .. } => match bridge.planned(ask) {
            Some(p) => (Action::place(p), Ext::Swap2),
            None if ask.config.opening == Opening::Swap2 && ask.stones.is_empty() => {
                (opener_stones(bridge, ask).await?, Ext::Swap2)
            }
            None => return None,
        },
        Task::Swap2Choice => (swap2_choice(bridge, ask).await?, Ext::Swap2),
        Task::DecideSwap { color } if matches!(ask.stones.len(), 3 | 5) => {
            (swap_decision(bridge, ask, color).await?, Ext::Swap2)
        }
        Task::OfferFifths { count } => (offers(bridge, ask, count).await?, Ext::NBest),
        _ => return None,
    };
    bridge.last_ext = Some(ext);
    (bridge.log)(Note::Played {
        action: format!("{action:?}"),
        by: match ext {
            Ext::Swap2 => "engine SWAP2BOARD",
            Ext::NBest => "engine YXNBEST",
        },
    });
    Some(action)
}

/// Swap2's three opening stones: asked once, then played one by one.
async fn opener_stones(bridge: &mut Bridge, ask: &OpeningAsk<'_>) -> Option<Action> {
    match bridge.swap2(ask).await? {
        Swap2Answer::Opening(three) if fresh(ask.board, &three) => {
            bridge.plan = vec![(0, three[0]), (1, three[1]), (2, three[2])];
            Some(Action::place(three[0]))
        }
        other => bridge.unusable(Ext::Swap2, other).await,
    }
}

/// Swap2's second player, after three stones.
async fn swap2_choice(bridge: &mut Bridge, ask: &OpeningAsk<'_>) -> Option<Action> {
    match bridge.swap2(ask).await? {
        Swap2Answer::Swap => Some(Action::Swap),
        Swap2Answer::Stone(p) if fresh(ask.board, &[p]) => Some(Action::place(p)),
        Swap2Answer::Two(white, black) if fresh(ask.board, &[white, black]) => {
            Some(Action::PlaceTwo { white, black })
        }
        other => bridge.unusable(Ext::Swap2, other).await,
    }
}

/// A swap option after three or five stones, the decider holding
/// `color`: `SWAP` means the colour to move is not worth having, a point
/// is that colour's next stone (played if the decider ends up holding
/// it). Swap2's opener after five, holding black with white to move:
/// `SWAP` keeps black, a point takes white and is played as white 6.
async fn swap_decision(bridge: &mut Bridge, ask: &OpeningAsk<'_>, color: Color) -> Option<Action> {
    let holds_mover = color == to_move(ask.stones.len());
    let (take, leave) = if holds_mover {
        (Action::Keep, Action::Swap)
    } else {
        (Action::Swap, Action::Keep)
    };
    match bridge.swap2(ask).await? {
        Swap2Answer::Swap => Some(leave),
        Swap2Answer::Stone(p) if fresh(ask.board, &[p]) => {
            bridge.plan = vec![(ask.stones.len(), p)];
            Some(take)
        }
        other => bridge.unusable(Ext::Swap2, other).await,
    }
}

/// Black's `count` fifth-move offers by `YXNBEST`.
async fn offers(bridge: &mut Bridge, ask: &OpeningAsk<'_>, count: u8) -> Option<Action> {
    let size = ask.board.size();
    let mut lines = vec!["YXBOARD".to_string()];
    lines.extend(position_lines(ask.stones, size));
    lines.push("DONE".into());
    lines.push(format!("YXNBEST {count}"));
    let (line, messages) = bridge.ask_ext(Ext::NBest, &lines, ask.time).await?;
    let points = match nbest_points(&line, &messages, count as usize, size) {
        Ok(points) => points,
        Err(why) => return bridge.off(Ext::NBest, EngineError::Garbage(why)).await,
    };
    match usable_offers(ask, &points, count) {
        Ok(points) => Some(Action::OfferFifths { points }),
        Err(why) => {
            let err = EngineError::Garbage(format!("{line}: {why}"));
            bridge.off(Ext::NBest, err).await
        }
    }
}

/// `points` as black's offers, if they are `count` distinct empty points,
/// none forbidden (renju) and no two equivalent, as the rules crate
/// judges.
fn usable_offers(ask: &OpeningAsk<'_>, points: &[Point], count: u8) -> Result<OfferSet, String> {
    if points.len() != count as usize {
        return Err(format!("{} points, {count} asked", points.len()));
    }
    if !fresh(ask.board, points) {
        return Err("an occupied or repeated point".into());
    }
    let renju = ask.config.rule_set.variant() == Variant::Renju;
    if renju && points.iter().any(|&p| ask.board.forbidden(p).is_some()) {
        return Err("a point forbidden for black".into());
    }
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for (p, c) in ask.board.stones() {
        match c {
            Color::Black => black.push(p),
            Color::White => white.push(p),
        }
    }
    let mut forms = Vec::with_capacity(points.len());
    for &p in points {
        let form = position_with_offer(&black, &white, p);
        if forms.contains(&form) {
            return Err("two equivalent offers".into());
        }
        forms.push(form);
    }
    OfferSet::new(points).map_err(|e| e.to_string())
}

impl Bridge {
    /// The stone the engine chose ahead for a board of `ask`'s stones, if
    /// any and still empty.
    fn planned(&self, ask: &OpeningAsk<'_>) -> Option<Point> {
        let n = ask.stones.len();
        self.plan
            .iter()
            .find(|&&(at, p)| at == n && ask.board.is_empty_point(p))
            .map(|&(_, p)| p)
    }

    /// `SWAP2BOARD` with `ask`'s stones; `None` when not supported.
    async fn swap2(&mut self, ask: &OpeningAsk<'_>) -> Option<Swap2Answer> {
        let size = ask.board.size();
        let mut lines = vec!["SWAP2BOARD".to_string()];
        lines.extend(position_lines(ask.stones, size));
        lines.push("DONE".into());
        let (line, _) = self.ask_ext(Ext::Swap2, &lines, ask.time).await?;
        match parse_swap2(&line, ask.stones.len(), size) {
            Ok(answer) => Some(answer),
            Err(why) => self.off(Ext::Swap2, EngineError::Garbage(why)).await,
        }
    }

    /// An answer of the right form that does not fit the board.
    async fn unusable<T>(&mut self, ext: Ext, answer: Swap2Answer) -> Option<T> {
        let why = format!("{answer:?} does not fit the board or the question");
        self.off(ext, EngineError::Garbage(why)).await
    }

    /// Sends `lines` (after the turn's time) and reads the answer line,
    /// with the texts of the `MESSAGE` lines the engine printed meanwhile;
    /// `None` when the extension is off or fails (it is then turned off).
    async fn ask_ext(
        &mut self,
        ext: Ext,
        lines: &[String],
        time: TurnTime,
    ) -> Option<(String, Vec<String>)> {
        if !self.ext.on(ext) {
            return None;
        }
        // The engine's board is the extension's now, not the game's.
        self.sync.forget();
        let wait = self.wait_for(time);
        let e = self.engine.as_mut()?;
        e.take_messages();
        let asked = async {
            send_time(e, time).await?;
            for l in lines {
                e.send(l).await?;
            }
            let line = e.expect_line(wait).await?;
            Ok((line, e.take_messages()))
        };
        match asked.await {
            Ok(answer) => Some(answer),
            Err(err) => self.off(ext, err).await,
        }
    }

    /// Turns `ext` off for this game after `err`, and leaves the engine
    /// ready for the next move: drained, or restarted after a timeout or
    /// an exit. Always `None` (the caller's fallback).
    async fn off<T>(&mut self, ext: Ext, err: EngineError) -> Option<T> {
        self.ext.set(ext, false);
        (self.log)(Note::Unsupported {
            command: ext.command(),
            why: err.to_string(),
        });
        match (err, self.engine.as_mut()) {
            (EngineError::Refused(_) | EngineError::Garbage(_), Some(e)) => e.drain(QUIET).await,
            _ => {
                if let Err(e) = self.respawn().await {
                    (self.log)(Note::Failed {
                        error: e.to_string(),
                        then: "the engine is started again at its next move".into(),
                    });
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn swap2_answers_by_stone_count() {
        let three = parse_swap2("7,7 8,7 7,8", 0, 15).unwrap();
        assert_eq!(three, Swap2Answer::Opening([p("H8"), p("I8"), p("H7")]));
        assert_eq!(parse_swap2(" swap ", 3, 15), Ok(Swap2Answer::Swap));
        assert_eq!(parse_swap2("SWAP", 5, 15), Ok(Swap2Answer::Swap));
        assert_eq!(parse_swap2("7,7", 3, 15), Ok(Swap2Answer::Stone(p("H8"))));
        assert_eq!(parse_swap2("7,7", 5, 15), Ok(Swap2Answer::Stone(p("H8"))));
        assert_eq!(
            parse_swap2("7,7 0,14", 3, 15),
            Ok(Swap2Answer::Two(p("H8"), p("A1")))
        );
        for (line, n) in [
            ("SWAP", 0),
            ("7,7", 0),
            ("7,7 8,8", 0),
            ("7,7 8,8", 5),
            ("7,7 8,8 9,9", 3),
            ("15,0", 3),
            ("hello", 3),
            ("", 3),
        ] {
            assert!(parse_swap2(line, n, 15).is_err(), "{line} with {n}");
        }
    }

    #[test]
    fn rapfi_puts_its_n_best_in_message_lines() {
        // Rapfi 0.43.02 (classical) after `YXBOARD 7,7,1 7,6,2 8,6,1
        // 9,7,2 DONE` (H8 H9 I9 J8), `YXNBEST 2`, as recorded: depth 14
        // is the latest complete set, depth 15 stopped after its first
        // line, and the answer is one point, 6,8 (Rapfi's G9, our G7).
        let messages: Vec<String> = [
            "(1) 305 | 13-20 | J6 K5 I6 I5 G6 H6 H5 G7 J4 F7 F8 G9 J5",
            "(2) 283 | 13-27 | G9 F10 F8 I8 H10 E7 J10 K10 J9 I11 G7 I9 G8",
            "Depth 13-20 | Eval 305 | Time 435ms | J6 K5 I6 I5 G6 H6 H5 G7 J4 F7 F8 G9 J5",
            "(1) 305 | 14-25 | J6 K5 I6 I5 G6 H6 H5 G7 J4 F7 F8 G9",
            "(2) 247 | 14-27 | G9 F10 G6 G7 E8 F8 F7 H5 E9 F9 E10 E11 F11 D9 I6 H6 I5",
            "Depth 14-25 | Eval 305 | Time 1045ms | J6 K5 I6 I5 G6 H6 H5 G7 J4 F7 F8 G9",
            "(1) 273 | 15-27 | G9 F10",
            "Speed 187K | Depth 14-27 | Eval 273 | Node 360K | Time 1927ms",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            nbest_points("6,8", &messages, 2, 15),
            Ok(vec![p("G7"), p("J10")])
        );
        // Three asked, two in every set: no answer.
        assert!(nbest_points("6,8", &messages, 3, 15).is_err());
        // An engine that prints the N points on its answer line.
        assert_eq!(
            nbest_points("6,8 9,5", &[], 2, 15),
            Ok(vec![p("G7"), p("J10")])
        );
        // One point and no lines to complete it.
        assert!(nbest_points("6,8", &[], 2, 15).is_err());
        assert_eq!(nbest_points("6,8", &[], 1, 15), Ok(vec![p("G7")]));
    }

    #[test]
    fn positions_are_sent_with_the_mover_as_field_one() {
        let stones = [
            (p("H8"), Color::Black),
            (p("I9"), Color::White),
            (p("G7"), Color::Black),
        ];
        let lines: Vec<String> = position_lines(&stones, 15).collect();
        // White to move: its stones are 1.
        assert_eq!(lines, ["7,7,2", "8,6,1", "6,8,2"]);
        let lines: Vec<String> = position_lines(&stones[..2], 15).collect();
        assert_eq!(lines, ["7,7,1", "8,6,2"]);
    }

    #[test]
    fn fresh_points_are_empty_and_distinct() {
        let mut b = Board::new(15).unwrap();
        b.place(p("H8"), Color::Black).unwrap();
        assert!(fresh(&b, &[p("J9"), p("G7")]));
        assert!(!fresh(&b, &[p("J9"), p("J9")]));
        assert!(!fresh(&b, &[p("H8")]));
    }

    #[test]
    fn equivalent_or_short_offers_are_unusable() {
        let config = GameConfig::new(tengen_rules::game::RuleSet::Renju);
        let mut b = Board::new(15).unwrap();
        let stones = [
            (p("H8"), Color::Black),
            (p("H9"), Color::White),
            (p("H10"), Color::Black),
            (p("H11"), Color::White),
        ];
        for (q, c) in stones {
            b.place(q, c).unwrap();
        }
        let ask = OpeningAsk {
            board: &b,
            config: &config,
            stones: &stones,
            task: Task::OfferFifths { count: 2 },
            time: crate::engine::clock::turn_time(
                config.time,
                tengen_rules::game::SeatClock::start(config.time),
                0,
                1000,
            ),
        };
        // The stones lie on the H file: a point and its mirror image in
        // it are the same offer.
        assert!(usable_offers(&ask, &[p("G7"), p("I7")], 2).is_err());
        assert!(usable_offers(&ask, &[p("G7")], 2).is_err());
        assert!(usable_offers(&ask, &[p("H8"), p("G7")], 2).is_err());
        assert!(usable_offers(&ask, &[p("G7"), p("G7")], 2).is_err());
        assert!(usable_offers(&ask, &[p("G7"), p("K11")], 2).is_ok());
    }
}
