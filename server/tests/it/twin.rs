//! Twin rooms (professional traditional gomoku on two boards,
//! docs/rules.md §9) over real WebSockets: two scripted players play a game
//! to each ending — fives on both boards in one turn, a five on one board
//! only, both boards full — every stone checked against the prompt the
//! server sends (seat, colour, stones left in the turn), with a second
//! board that does not exist, a third stone in a turn and a pass refused
//! over the wire; both players' views, both boards included, end with the
//! server's state.

use crate::common;

use common::*;
use tengen_client::view::TableView;
use tengen_protocol::Encoding;
use tengen_rules::game::{
    Action, GameConfig, GameError, GameResult, Outcome, ResultReason, RuleSet, Seat, Task,
};
use tengen_rules::{Color, Point};

struct Players {
    t: Table,
    views: [TableView; 2],
}

impl Players {
    async fn sit(server: &tengen_server::Server) -> Players {
        let mut t = table(server, GameConfig::new(RuleSet::Twin), Encoding::Json).await;
        let views = t.views().await;
        Players { t, views }
    }

    /// The seat the server asks for a stone now, with the stone's colour
    /// and the stones left in the turn.
    fn asked(&self) -> (Seat, Color, u8) {
        let prompt = self.views[0].prompt().expect("a prompt");
        assert_eq!(self.views[1].prompt(), Some(prompt));
        let Task::Place { color, .. } = prompt.task else {
            panic!("{prompt:?}")
        };
        (
            prompt.seat,
            color,
            prompt.stones_left.expect("a twin prompt"),
        )
    }

    /// The seat asked places a stone on `board` (0 or 1); both players
    /// catch up with the events.
    async fn place(&mut self, board: u8, point: Point) {
        let (seat, _, _) = self.asked();
        let seq = self.t.act_as(seat, Action::place_on(board, point)).await;
        let mut swaps = 0;
        catch_up(&mut self.t.first, &mut self.views[0], seq, &mut swaps).await;
        catch_up(&mut self.t.second, &mut self.views[1], seq, &mut swaps).await;
    }

    /// Plays `stones` (`"2:K10"`: board 2, as people number them).
    async fn play(&mut self, stones: &str) {
        for tok in stones.split_whitespace() {
            let (b, pt) = tok.split_once(':').unwrap();
            let board = b.parse::<u8>().unwrap() - 1;
            self.place(board, pt.parse().unwrap()).await;
        }
    }

    /// `seat` tries `action`; the server refuses it with `expected`.
    async fn refused(&mut self, seat: Seat, action: Action, expected: GameError) {
        self.t.refused_as(seat, action, expected).await;
    }

    /// The game is over with both views, the server's snapshot and the
    /// replayed record agreeing; returns the result.
    async fn result(&mut self) -> GameResult {
        let server = snapshot_of(&mut self.t.first, &self.t.table).await;
        let result = server.snapshot.result.clone().expect("the game is over");
        for v in &self.views {
            assert_eq!(v.moves(), &server.snapshot.moves[..]);
            assert_eq!(v.result(), Some(&result));
        }
        let full = |b: u8| self.views[0].board_at(b).unwrap().stone_count();
        let stones = server.snapshot.moves.iter().filter(|m| m.point.is_some());
        assert_eq!(full(0) + full(1), stones.count());
        result
    }
}

/// Black to fours on both boards (A10–D10 on board 1; A10, B10, C10 and
/// E10 on board 2), white down the A file with gaps; black to move.
const FOURS: &str = "1:A10  1:A1 2:A1  1:B10 2:A10  1:A2 2:A2  1:C10 2:B10  1:A3 2:A3  \
                     1:D10 2:C10  1:A5 2:A5  2:E10 1:S1  1:A7 2:A7";

fn p(s: &str) -> Point {
    s.parse().unwrap()
}

#[tokio::test]
async fn fives_on_both_boards_in_one_turn_win() {
    let server = server().await;
    let mut g = Players::sit(&server).await;
    let black = g.t.opener();
    assert_eq!(g.asked(), (black, Color::Black, 1));
    g.play("1:A10").await;
    assert_eq!(g.asked(), (black.other(), Color::White, 2));
    // White's first stone: the same point on the other board is free, a
    // board 3 does not exist, black may not play in white's turn.
    g.refused(
        black.other(),
        Action::place_on(2, p("A1")),
        GameError::NoSuchBoard {
            board: 2,
            boards: 2,
        },
    )
    .await;
    g.refused(black, Action::place_on(1, p("A1")), GameError::NotYourTurn)
        .await;
    g.refused(black.other(), Action::pass(), GameError::NoPassInTwin)
        .await;
    g.play("2:A10").await;
    assert_eq!(g.asked(), (black.other(), Color::White, 1));
    g.refused(
        black.other(),
        Action::place_on(1, p("A10")),
        GameError::Occupied { point: p("A10") },
    )
    .await;
    g.play("1:A1").await;
    // A third stone: the turn is black's now.
    g.refused(
        black.other(),
        Action::place_on(0, p("A2")),
        GameError::NotYourTurn,
    )
    .await;
    assert_eq!(g.asked(), (black, Color::Black, 2));
    assert_eq!(
        g.views[1].board_at(1).unwrap().get(p("A10")),
        Some(Color::White)
    );
    assert_eq!(
        g.views[1].board_at(0).unwrap().get(p("A10")),
        Some(Color::Black)
    );
}

#[tokio::test]
async fn each_ending_over_the_wire() {
    let server = server().await;
    // Fives on both boards in black's last turn.
    let mut g = Players::sit(&server).await;
    g.play(&format!("{FOURS} 1:E10 2:D10")).await;
    let r = g.result().await;
    assert_eq!(
        r.outcome,
        Outcome::Win {
            seat: g.t.opener(),
            color: Color::Black
        }
    );
    assert!(matches!(r.reason, ResultReason::TwinFives { .. }), "{r:?}");
    // A five on board 1 only.
    let mut g = Players::sit(&server).await;
    g.play(&format!("{FOURS} 1:E10 2:S19")).await;
    let r = g.result().await;
    assert_eq!(r.winner(), Some(g.t.opener().other()));
    assert_eq!(
        r.reason,
        ResultReason::OneBoardFive {
            seat: g.t.opener(),
            board: 0,
            line: ["A10", "B10", "C10", "D10", "E10"].map(p).to_vec(),
        }
    );
}

/// Whether `x, y` is black on board `b`: columns in pairs, alternating
/// with each row (no run longer than two in any direction, so no five
/// ever), the second board the negative of the first, so each colour has
/// 361 points in all.
fn black_at(b: u8, x: u8, y: u8) -> bool {
    (x / 2 + y).is_multiple_of(2) == (b == 0)
}

/// Lifts the speed limit: 361 stones per player, as fast as the server
/// answers.
fn unthrottled(s: &mut tengen_server::Settings) {
    s.limits.rate_per_sec = 10_000;
    s.limits.rate_burst = 10_000;
}

#[tokio::test]
async fn two_full_boards_are_a_draw() {
    let server = server_with(unthrottled).await;
    let mut g = Players::sit(&server).await;
    let points = (0..2u8).flat_map(|b| (0..19).flat_map(move |y| (0..19).map(move |x| (b, x, y))));
    let (mut black, mut white): (Vec<_>, Vec<_>) = points.partition(|&(b, x, y)| black_at(b, x, y));
    assert_eq!((black.len(), white.len()), (361, 361));
    for _ in 0..722 {
        let next = match g.asked().1 {
            Color::Black => black.pop(),
            Color::White => white.pop(),
        };
        let (b, x, y) = next.expect("colours balance");
        g.place(b, Point::new(x, y)).await;
    }
    let r = g.result().await;
    assert_eq!(
        (r.outcome, r.reason),
        (Outcome::Draw, ResultReason::BoardFull)
    );
}
