//! Twin rooms' wire values (two boards, docs/rules.md §9), each taken from
//! a real game: the room's configuration, a placement naming its board, a
//! mid-turn prompt, a move on the second board, and both twin endings.

use tengen_rules::game::{Action, Event, Game, GameConfig, RuleSet, Seat};

/// Plays `stones` (`"2:K10"`: board 2, as people number them) from the
/// start of a twin game, each by the seat to act; returns the game and the
/// last stone's events.
fn twin_game(stones: &str) -> (Game, Vec<Event>) {
    let mut g = Game::new(GameConfig::new(RuleSet::Twin), Seat::First, 0).unwrap();
    let mut last = Vec::new();
    for (i, tok) in stones.split_whitespace().enumerate() {
        let (b, pt) = tok.split_once(':').unwrap();
        let board = b.parse::<u8>().unwrap() - 1;
        let seat = g.to_act().unwrap();
        let at = 1_000 * (i as u64 + 1);
        last = g
            .apply(seat, Action::place_on(board, pt.parse().unwrap()), at)
            .unwrap_or_else(|e| panic!("{tok}: {e}"));
    }
    (g, last)
}

/// Black to fours on both boards (A10–D10 on board 1; A10, B10, C10 and
/// E10 on board 2), white down the A file with gaps.
const FOURS: &str = "1:A10  1:A1 2:A1  1:B10 2:A10  1:A2 2:A2  1:C10 2:B10  1:A3 2:A3  \
                     1:D10 2:C10  1:A5 2:A5  2:E10 1:S1  1:A7 2:A7";

pub fn values(out: &mut Vec<String>) {
    let j = |x: &dyn super::erased::Ser| x.to_json();
    out.push(j(&GameConfig::new(RuleSet::Twin)));
    out.push(j(&Action::place_on(1, "K10".parse().unwrap())));
    // White's first stone of its first turn, on board 2: the prompt asks
    // for its second.
    let (g, ev) = twin_game("1:K10 2:K10");
    out.push(j(&ev[0]));
    out.push(j(&g.prompt(5_000).unwrap()));
    // Black closes both fours in one turn, or only the first.
    let (_, ev) = twin_game(&format!("{FOURS} 2:D10 1:E10"));
    out.push(j(ev.last().unwrap()));
    let (_, ev) = twin_game(&format!("{FOURS} 1:E10 2:S19"));
    out.push(j(ev.last().unwrap()));
}
