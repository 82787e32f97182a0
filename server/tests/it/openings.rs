//! Jonsson, Yamaguchi with the 52 openings, the Yamaguchi variant, Sakata
//! and Super Sakata over real WebSockets: two scripted players drive each
//! opening into normal play, every step checked against the prompt the
//! server sends (seat and task), with refusals of a wrong zone, a wrong N,
//! an equivalent offer, a stone before the colour choice, a forbidden
//! stone in Super Sakata's option (c) and an action by the wrong seat
//! coming back over the wire; both players end with the server's state.

use crate::common;

use common::*;
use tengen_client::view::TableView;
use tengen_protocol::Encoding;
use tengen_rules::Color;
use tengen_rules::game::{
    Action, ForbiddenHandling, GameConfig, GameError, MAX_FIFTH_OFFERS, OfferSet, Opening, RuleSet,
    Seat, Task,
};

/// Who acts, relative to the opener drawn by lot.
#[derive(Clone, Copy)]
enum Who {
    Opener,
    Other,
}

struct Players {
    t: Table,
    views: [TableView; 2],
}

impl Players {
    async fn sit(server: &tengen_server::Server, opening: Opening) -> Players {
        let config = GameConfig::new(RuleSet::Renju)
            .with_opening(opening)
            .with_forbidden(ForbiddenHandling::Claim);
        let mut t = table(server, config, Encoding::Json).await;
        let views = t.views().await;
        Players { t, views }
    }

    fn seat(&self, who: Who) -> Seat {
        match who {
            Who::Opener => self.t.opener(),
            Who::Other => self.t.opener().other(),
        }
    }

    /// The server asks `who` for `task`; `who` answers with `action`.
    async fn step(&mut self, who: Who, task: Task, action: Action) {
        let seat = self.seat(who);
        let prompt = self.views[0].prompt().expect("a prompt").clone();
        assert_eq!(
            (prompt.seat, prompt.task),
            (seat, task),
            "before {action:?}"
        );
        assert_eq!(self.views[1].prompt().map(|p| p.task), Some(task));
        let seq = self.t.act_as(seat, action).await;
        let mut swaps = 0;
        catch_up(&mut self.t.first, &mut self.views[0], seq, &mut swaps).await;
        catch_up(&mut self.t.second, &mut self.views[1], seq, &mut swaps).await;
    }

    /// `who` tries `action`; the server refuses it with `expected`.
    async fn refused(&mut self, who: Who, action: Action, expected: GameError) {
        let seat = self.seat(who);
        self.t.refused_as(seat, action, expected).await;
    }

    /// Move 6 stands; both players see the server's moves and the opening
    /// named `code`; the colours are as `black` says.
    async fn check_end(&mut self, code: &str, black: Who) {
        self.check_end_at(6, code, black).await;
    }

    /// [`Players::check_end`] with `moves` standing and black to play next.
    async fn check_end_at(&mut self, moves: u32, code: &str, black: Who) {
        let server = snapshot_of(&mut self.t.first, &self.t.table).await;
        assert_eq!(server.snapshot.moves.len(), moves as usize);
        for v in &self.views {
            assert_eq!(v.moves(), &server.snapshot.moves[..]);
            assert_eq!(v.snapshot().opening, server.snapshot.opening);
        }
        assert_eq!(server.snapshot.opening.canonical.as_deref(), Some(code));
        let prompt = self.views[0].prompt().expect("play goes on");
        assert_eq!(prompt.task, place_task(Color::Black, moves + 1, None));
        assert_eq!(prompt.seat, self.seat(black));
    }
}

fn place_task(color: Color, move_number: u32, within: Option<u8>) -> Task {
    Task::Place {
        color,
        move_number,
        within,
    }
}

fn swap_task(color: Color) -> Task {
    Task::DecideSwap { color }
}

fn offer(points: &[&str]) -> Action {
    let points: Vec<_> = points.iter().map(|p| p.parse().unwrap()).collect();
    Action::OfferFifths {
        points: OfferSet::new(&points).unwrap(),
    }
}

fn keep_fifth(p: &str) -> Action {
    Action::KeepFifth {
        point: p.parse().unwrap(),
    }
}

fn declare(count: u8) -> Action {
    Action::DeclareOffers { count }
}

#[tokio::test]
async fn jonsson_to_move_six_with_both_swaps_taken() {
    use Who::*;
    let server = server().await;
    let mut g = Players::sit(&server, Opening::Jonsson).await;
    g.step(Opener, place_task(Color::Black, 1, Some(1)), place("H8"))
        .await;
    g.refused(Other, place("H9"), GameError::NotYourTurn).await;
    g.step(Opener, place_task(Color::White, 2, Some(3)), place("H9"))
        .await;
    g.refused(Opener, place("H11"), GameError::OutsideZone { within: 5 })
        .await;
    g.step(Opener, place_task(Color::Black, 3, Some(5)), place("I9"))
        .await;
    g.step(Other, swap_task(Color::White), Action::Swap).await;
    // The opener now holds white: it plays 4 and declares 1..3.
    g.step(Opener, place_task(Color::White, 4, None), place("G10"))
        .await;
    g.refused(
        Opener,
        declare(4),
        GameError::OfferCountOutOfRange { count: 4, max: 3 },
    )
    .await;
    g.step(Opener, Task::DeclareOffers { max: 3 }, declare(2))
        .await;
    g.step(Other, swap_task(Color::Black), Action::Swap).await;
    // Black is back with the opener, who offers two fifths.
    g.refused(
        Opener,
        offer(&["J8", "I7"]),
        GameError::EquivalentOffers {
            first: "J8".parse().unwrap(),
            second: "I7".parse().unwrap(),
        },
    )
    .await;
    g.step(Opener, Task::OfferFifths { count: 2 }, offer(&["J8", "F8"]))
        .await;
    let offers = OfferSet::new(&["J8".parse().unwrap(), "F8".parse().unwrap()]).unwrap();
    g.step(Other, Task::KeepFifth { offers }, keep_fifth("F8"))
        .await;
    g.step(Other, place_task(Color::White, 6, None), place("E7"))
        .await;
    g.check_end("D4", Opener).await;
}

#[tokio::test]
async fn yamaguchi_52_to_move_six_with_a_large_opening() {
    use Who::*;
    let server = server().await;
    let mut g = Players::sit(&server, Opening::Yamaguchi52).await;
    g.step(Opener, place_task(Color::Black, 1, Some(1)), place("H8"))
        .await;
    g.step(Opener, place_task(Color::White, 2, Some(3)), place("H9"))
        .await;
    g.refused(Opener, place("H12"), GameError::OutsideZone { within: 7 })
        .await;
    g.step(Opener, place_task(Color::Black, 3, Some(7)), place("H11"))
        .await;
    let max = MAX_FIFTH_OFFERS;
    g.refused(
        Opener,
        declare(0),
        GameError::OfferCountOutOfRange { count: 0, max },
    )
    .await;
    g.step(Opener, Task::DeclareOffers { max }, declare(3))
        .await;
    g.step(Other, swap_task(Color::White), Action::Keep).await;
    g.step(Other, place_task(Color::White, 4, None), place("H5"))
        .await;
    g.refused(Other, offer(&["G10", "J9", "K9"]), GameError::NotYourTurn)
        .await;
    g.step(
        Opener,
        Task::OfferFifths { count: 3 },
        offer(&["G10", "J9", "K9"]),
    )
    .await;
    let offers = OfferSet::new(&["G10", "J9", "K9"].map(|p| p.parse().unwrap())).unwrap();
    g.step(Other, Task::KeepFifth { offers }, keep_fifth("K9"))
        .await;
    g.step(Other, place_task(Color::White, 6, None), place("L10"))
        .await;
    g.check_end("LD1", Opener).await;
}

#[tokio::test]
async fn yamaguchi_variant_to_move_six() {
    use Who::*;
    let server = server().await;
    let mut g = Players::sit(&server, Opening::YamaguchiVariant).await;
    g.step(Opener, place_task(Color::Black, 1, Some(1)), place("H8"))
        .await;
    // White 2 is the other player's own.
    g.refused(Opener, place("I9"), GameError::NotYourTurn).await;
    g.refused(Other, place("J10"), GameError::OutsideZone { within: 3 })
        .await;
    g.step(Other, place_task(Color::White, 2, Some(3)), place("I9"))
        .await;
    g.step(Opener, place_task(Color::Black, 3, Some(7)), place("E5"))
        .await;
    g.step(
        Opener,
        Task::DeclareOffers {
            max: MAX_FIFTH_OFFERS,
        },
        declare(1),
    )
    .await;
    g.step(Other, swap_task(Color::White), Action::Swap).await;
    g.step(Opener, place_task(Color::White, 4, None), place("J7"))
        .await;
    // One offer stands as black 5 at once; white plays 6.
    g.step(Other, Task::OfferFifths { count: 1 }, offer(&["G9"]))
        .await;
    g.step(Opener, place_task(Color::White, 6, None), place("F10"))
        .await;
    g.check_end("LI13", Other).await;
}

/// The opener's D4 (H8 H9 I9), then the other seat's white 4 and black 5,
/// each in its square, with the refusals of the way.
async fn sakata_to_move_five(g: &mut Players, white4: &str, black5: &str) {
    use Who::*;
    g.step(Opener, place_task(Color::Black, 1, Some(1)), place("H8"))
        .await;
    g.step(Opener, place_task(Color::White, 2, Some(3)), place("H9"))
        .await;
    g.step(Opener, place_task(Color::Black, 3, Some(5)), place("I9"))
        .await;
    g.refused(Opener, place(white4), GameError::NotYourTurn)
        .await;
    g.refused(Other, place("L12"), GameError::OutsideZone { within: 7 })
        .await;
    g.step(Other, place_task(Color::White, 4, Some(7)), place(white4))
        .await;
    g.refused(Other, place("M13"), GameError::OutsideZone { within: 9 })
        .await;
    g.step(Other, place_task(Color::Black, 5, Some(9)), place(black5))
        .await;
}

#[tokio::test]
async fn sakata_to_move_six_the_opener_taking_white() {
    use Who::*;
    let server = server().await;
    let mut g = Players::sit(&server, Opening::Sakata).await;
    sakata_to_move_five(&mut g, "K11", "L12").await;
    // The opener chooses its colour.
    g.refused(Other, Action::Keep, GameError::NotYourTurn).await;
    g.refused(Opener, place("A1"), GameError::SwapDecisionPending)
        .await;
    g.step(Opener, swap_task(Color::Black), Action::Swap).await;
    g.step(Opener, place_task(Color::White, 6, None), place("A1"))
        .await;
    g.check_end("D4", Other).await;
}

#[tokio::test]
async fn super_sakata_option_c_then_black_kept() {
    use Who::*;
    let server = server().await;
    let mut g = Players::sit(&server, Opening::SuperSakata).await;
    sakata_to_move_five(&mut g, "E5", "J7").await;
    let choice = |color| Task::SuperSakataChoice { color };
    let two = |white: &str, black: &str| Action::PlaceTwo {
        white: white.parse().unwrap(),
        black: black.parse().unwrap(),
    };
    g.refused(Opener, place("A1"), GameError::SwapDecisionPending)
        .await;
    // Option (c) by the opener: white 6, black 7; the other seat chooses.
    g.step(Opener, choice(Color::Black), two("A1", "J9")).await;
    g.refused(Opener, Action::Keep, GameError::NotYourTurn)
        .await;
    // J10 would be a double three (H8 I9 J10 and J7 . J9 J10).
    g.refused(
        Other,
        two("B1", "J10"),
        GameError::ForbiddenPoint {
            point: "J10".parse().unwrap(),
            kind: tengen_rules::Forbidden::DoubleThree,
        },
    )
    .await;
    // With white on G7 first, J10 is a single three.
    g.step(Other, choice(Color::White), two("G7", "J10")).await;
    // The opener keeps black: the other seat plays white 10.
    g.step(Opener, choice(Color::Black), Action::Keep).await;
    g.step(Other, place_task(Color::White, 10, None), place("O15"))
        .await;
    g.check_end_at(10, "D4", Opener).await;
}
