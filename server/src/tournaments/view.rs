//! An event rendered for clients: the summary lists show, and the full
//! view (entries, boards per round, standings with tie-breaks, the
//! engine's crosstable, as data and as text). Why apart: the wire's views are plain text and
//! numbers; the engine's values are turned into them here and nowhere
//! else.

use tengen_protocol::{
    BoardView, CrossCell, CrossRow, RoundView, StandingView, TieBreakValue, TournamentPlayer,
    TournamentSummary, TournamentView,
};
use tengen_tournament::arena::Arena;
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
    if let Some(arena) = e.engine.arena() {
        return arena_view(e, arena);
    }
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
            tie_breaks: tie_breaks(tbs, &s.tie_breaks),
        })
        .collect();
    TournamentView {
        summary: summary(e),
        spec: e.spec.clone(),
        players: players(e),
        rounds,
        standings,
        crosstable: export::crosstable(&e.engine),
        cross: cross(e),
        stalled: e
            .stalled
            .as_ref()
            .map(|s| format!("round {} cannot be paired: {}", s.round, s.reason)),
        warning: (!e.engine.finished())
            .then(|| e.engine.rounds_warning())
            .flatten(),
    }
}

/// The event's tie-breaks with their values, as the wire shows them.
fn tie_breaks(tbs: &[tengen_tournament::TieBreak], values: &[i64]) -> Vec<TieBreakValue> {
    tbs.iter()
        .zip(values)
        .map(|(tb, v)| TieBreakValue {
            name: tb.label().to_owned(),
            value: tb.format(*v),
        })
        .collect()
}

/// The crosstable's lines as the wire's rows.
fn cross(e: &Event) -> Vec<CrossRow> {
    let tbs = &e.engine.settings().tie_breaks;
    export::cross_lines(&e.engine)
        .into_iter()
        .map(|l| CrossRow {
            rank: l.rank as u32,
            withdrawn: e
                .engine
                .entrant(l.player)
                .is_some_and(|p| p.withdrawn_after.is_some()),
            name: l.name,
            rating: l.rating,
            rounds: l
                .rounds
                .iter()
                .map(|c| CrossCell {
                    opponent: c.opponent.map(|o| o as u32),
                    seat: c.seat.map(|s| match s {
                        Seat::First => tengen_rules::game::Seat::First,
                        Seat::Second => tengen_rules::game::Seat::Second,
                    }),
                    result: c.result.to_string().trim().to_owned(),
                })
                .collect(),
            points: l.score.to_string(),
            tie_breaks: tie_breaks(tbs, &l.tie_breaks),
        })
        .collect()
}

fn players(e: &Event) -> Vec<TournamentPlayer> {
    e.engine
        .entrants()
        .iter()
        .map(|p| TournamentPlayer {
            name: p.name.clone(),
            rating: p.rating,
            withdrawn: p.withdrawn_after.is_some(),
        })
        .collect()
}

/// An arena: its games as the boards of one round (board `id + 1`, in
/// the order they were paired), the standings by score, then fewer
/// games, then more wins (`Games` and `Wins` shown as tie-breaks), and
/// a plain table of the same as the crosstable.
fn arena_view(e: &Event, arena: &Arena) -> TournamentView {
    let boards = arena
        .games()
        .iter()
        .map(|g| {
            let board = g.id as u32 + 1;
            BoardView {
                board,
                first: e.name_of(g.first).to_owned(),
                second: Some(e.name_of(g.second).to_owned()),
                games: g
                    .result
                    .map(|r| vec![result_text(r, true).to_owned()])
                    .unwrap_or_default(),
                table: e
                    .live
                    .iter()
                    .find(|l| l.at.board == board)
                    .and_then(|l| l.table.clone()),
                over: g.result.is_some(),
            }
        })
        .collect();
    let table = arena.standings();
    let mut standings: Vec<StandingView> = Vec::with_capacity(table.len());
    let mut cross = Vec::with_capacity(table.len());
    let mut crosstable = String::from("rank  name                      points  games  wins\n");
    for (i, s) in table.iter().enumerate() {
        let rank = match i {
            0 => 1,
            _ if Arena::tied(&table[i - 1], s) => standings[i - 1].rank,
            _ => i as u32 + 1,
        };
        let name = e.name_of(s.player).to_owned();
        crosstable.push_str(&format!(
            "{rank:>4}  {name:<24}  {:>6}  {:>5}  {:>4}{}\n",
            s.score.to_string(),
            s.games,
            s.wins,
            if s.withdrawn { "  (withdrawn)" } else { "" }
        ));
        let tie_breaks = vec![
            TieBreakValue {
                name: "Games".into(),
                value: s.games.to_string(),
            },
            TieBreakValue {
                name: "Wins".into(),
                value: s.wins.to_string(),
            },
        ];
        cross.push(CrossRow {
            rank,
            name: name.clone(),
            rating: e.engine.entrant(s.player).map_or(0, |p| p.rating),
            rounds: Vec::new(),
            points: s.score.to_string(),
            tie_breaks: tie_breaks.clone(),
            withdrawn: s.withdrawn,
        });
        standings.push(StandingView {
            rank,
            name,
            points: s.score.to_string(),
            tie_breaks,
        });
    }
    TournamentView {
        summary: summary(e),
        spec: e.spec.clone(),
        players: players(e),
        rounds: vec![RoundView { round: 1, boards }],
        standings,
        crosstable,
        cross,
        stalled: None,
        warning: None,
    }
}

/// The crosstable (an arena: its standings table) and the TRF file.
pub fn export(e: &Event) -> (String, String) {
    let crosstable = match e.engine.arena() {
        Some(arena) => arena_view(e, arena).crosstable,
        None => export::crosstable(&e.engine),
    };
    (crosstable, export::trf(&e.engine, &e.spec.name))
}
