//! An event rendered for clients: the summary lists show, and the full
//! view (entries, boards per round, standings with tie-breaks, the
//! engine's crosstable). Why apart: the wire's views are plain text and
//! numbers; the engine's values are turned into them here and nowhere
//! else.

use tengen_protocol::{
    BoardView, RoundView, StandingView, TieBreakValue, TournamentPlayer, TournamentSummary,
    TournamentView,
};
use tengen_tournament::{BoardContent, GameResult, Seat, export};

use super::event::Event;

pub fn summary(e: &Event) -> TournamentSummary {
    TournamentSummary {
        id: e.id.clone(),
        name: e.spec.name.clone(),
        system: e.spec.system,
        state: e.state(),
        organiser: e.organiser.clone(),
        players: e.engine.entrants().len() as u32,
        round: e.engine.rounds().len() as u32,
        rounds: e.engine.total_rounds() as u32,
        rated: e.spec.rated,
        start_ms: e.spec.start_ms,
    }
}

/// A game's result from the side of the match's first player (who opened
/// game 1): `opener_first` says whether that player opened this game.
fn result_text(r: GameResult, opener_first: bool) -> &'static str {
    let mine = |s: Seat| (s == Seat::First) == opener_first;
    match r {
        GameResult::Win(s) if mine(s) => "1-0",
        GameResult::Win(_) => "0-1",
        GameResult::Draw => "½-½",
        GameResult::Forfeit(s) if mine(s) => "+-",
        GameResult::Forfeit(_) => "-+",
        GameResult::DoubleForfeit => "--",
    }
}

fn board_view(e: &Event, round: usize, number: usize, content: &BoardContent) -> BoardView {
    // The table of the board's game being played now.
    let table = e
        .live
        .iter()
        .find(|g| g.at.round as usize == round && g.at.board as usize == number)
        .and_then(|g| g.table.clone());
    match content {
        BoardContent::Bye { player, .. } => BoardView {
            board: number as u32,
            first: e.name_of(*player).to_owned(),
            second: None,
            games: Vec::new(),
            table: None,
            over: true,
        },
        BoardContent::Match(m) => {
            let first = m.opener_of(0);
            let [a, b] = m.players();
            let second = if a == first { b } else { a };
            let mut games: Vec<String> = m
                .games()
                .iter()
                .enumerate()
                .map(|(i, r)| result_text(*r, m.opener_of(i) == first).to_owned())
                .collect();
            // A withdrawal forfeits the rest of the match: one mark for it.
            if let Some(loser) = m.forfeited_by() {
                games.push(if loser == first { "-+" } else { "+-" }.to_owned());
            }
            BoardView {
                board: number as u32,
                first: e.name_of(first).to_owned(),
                second: Some(e.name_of(second).to_owned()),
                games,
                table,
                over: m.is_over(),
            }
        }
    }
}

pub fn view(e: &Event) -> TournamentView {
    let rounds = e
        .engine
        .rounds()
        .iter()
        .map(|r| RoundView {
            round: r.number as u32,
            boards: r
                .boards
                .iter()
                .map(|b| board_view(e, r.number, b.number, &b.content))
                .collect(),
        })
        .collect();
    let tbs = &e.engine.settings().tie_breaks;
    let standings = e
        .engine
        .standings()
        .into_iter()
        .map(|s| StandingView {
            rank: s.rank as u32,
            name: e.name_of(s.player).to_owned(),
            points: s.score.to_string(),
            tie_breaks: tbs
                .iter()
                .zip(&s.tie_breaks)
                .map(|(tb, v)| TieBreakValue {
                    name: tb.label().to_owned(),
                    value: tb.format(*v),
                })
                .collect(),
        })
        .collect();
    let players = e
        .engine
        .entrants()
        .iter()
        .map(|p| TournamentPlayer {
            name: p.name.clone(),
            rating: p.rating,
            withdrawn: p.withdrawn_after.is_some(),
        })
        .collect();
    TournamentView {
        summary: summary(e),
        spec: e.spec.clone(),
        players,
        rounds,
        standings,
        crosstable: export::crosstable(&e.engine),
    }
}

/// The crosstable and the TRF file.
pub fn export(e: &Event) -> (String, String) {
    (
        export::crosstable(&e.engine),
        export::trf(&e.engine, &e.spec.name),
    )
}
