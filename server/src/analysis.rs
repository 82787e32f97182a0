//! Post-game analysis on request (`analyze_game`): a finished game's forced
//! wins, move by move, found by the referee crate's VCF/VCT search.
//!
//! Why its own module: the search is CPU work of a different kind from
//! anything else the server does, and must never slow a game. So it runs
//! neither in a table actor nor on the async runtime's workers but on the
//! blocking pool (`spawn_blocking`), each position within a fixed node
//! budget ([`AnalysisSettings::nodes`]), and at most
//! [`AnalysisSettings::slots`] games at once server-wide: a request that
//! finds every slot taken is refused at once as `unavailable` with
//! `retry_after_ms` (no queue). The slot is held until the search is done,
//! even if the asking connection has gone, so the bound is on the CPU and
//! not only on the answers. Each connection's requests are bounded too, by
//! the in-flight bound of its account and record requests
//! (`conn::accounts`). Nothing is cached: the same game gives the same
//! answer (the budgets are node counts, not times), and asking again costs
//! a search again.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tengen_protocol::{ErrorBody, ErrorCode, GameAnalysis, MoveVerdict, TableId};
use tengen_rules::Point;
use tengen_rules::analysis::{AnalysisError, Budget, MoveAnalysis, Outcome, analyze_record};
use tengen_rules::game::GameRecord;
use tengen_store::Store;
use tokio::sync::Semaphore;

pub use crate::settings::AnalysisSettings;

/// The server's analysis slots and budgets.
pub struct Analyzer {
    settings: AnalysisSettings,
    slots: Arc<Semaphore>,
}

impl Analyzer {
    pub fn new(settings: AnalysisSettings) -> Arc<Analyzer> {
        let slots = Arc::new(Semaphore::new(settings.slots.max(1)));
        crate::metrics::watch_slots(&slots, settings.slots.max(1));
        Arc::new(Analyzer { settings, slots })
    }

    /// The slots, which the computer's searches, the puzzle miner and
    /// puzzle tries take too: CPU work of the same kind, bounded together.
    pub fn slots(&self) -> Arc<Semaphore> {
        self.slots.clone()
    }

    /// Analyses the finished game `game`: `not_found` when the store has
    /// no such game, `unavailable` when every slot is busy or the store
    /// does not answer within `store_wait`.
    pub async fn analyze(
        &self,
        store: &dyn Store,
        game: &TableId,
        vct: bool,
        store_wait: Duration,
    ) -> Result<GameAnalysis, ErrorBody> {
        let Ok(slot) = self.slots.clone().try_acquire_owned() else {
            return Err(ErrorBody {
                retry_after_ms: Some(self.settings.retry_after.as_millis() as u64),
                ..ErrorBody::new(
                    ErrorCode::Unavailable,
                    "every analysis slot is busy; try again",
                )
            });
        };
        let record = tokio::time::timeout(store_wait, crate::records::finished_record(store, game))
            .await
            .map_err(|_| {
                ErrorBody::new(
                    ErrorCode::Unavailable,
                    "the store did not answer in time; try again",
                )
            })??;
        let nodes = self.settings.nodes;
        let vct_budget = vct.then_some(Budget::new(nodes, self.settings.vct_depth));
        let id = game.clone();
        let done = tokio::task::spawn_blocking(move || {
            let started = Instant::now();
            let out = search(&id, &record, Budget::new(nodes, u8::MAX), vct_budget);
            let took = started.elapsed();
            let took_ms = took.as_millis() as u64;
            metrics::histogram!(crate::metrics::ANALYSIS_SECONDS).record(took.as_secs_f64());
            tracing::debug!(game = %id, vct, took_ms, "analysed");
            drop(slot);
            out
        })
        .await;
        done.map_err(|_| ErrorBody::new(ErrorCode::Internal, "the analysis failed"))?
    }
}

/// The search itself (on the blocking pool).
fn search(
    game: &TableId,
    record: &GameRecord,
    vcf: Budget,
    vct: Option<Budget>,
) -> Result<GameAnalysis, ErrorBody> {
    let moves = analyze_record(record, vcf, vct).map_err(|e| match e {
        // Twin games (two boards) are refused as the request's fault.
        AnalysisError::TwoBoards => ErrorBody::new(ErrorCode::BadRequest, e.to_string()),
        e => {
            tracing::error!(%game, error = %e, "a stored record does not analyse");
            ErrorBody::new(ErrorCode::Internal, "the stored record cannot be analysed")
        }
    })?;
    Ok(verdicts(game.clone(), vct.is_some(), &moves))
}

/// The protocol's account of the rules crate's analysis: the moves whose
/// mover had a forced win, and those where the VCF search ran out.
pub fn verdicts(game: TableId, vct: bool, moves: &[MoveAnalysis]) -> GameAnalysis {
    let mut out = Vec::new();
    let mut undecided = Vec::new();
    for m in moves {
        let number = m.number as u32;
        if m.vcf == Outcome::Unknown {
            undecided.push(number);
        }
        let (vcf, vct, kept) = match (&m.vcf, &m.vct) {
            (Outcome::Win(line), _) => (Some(notation(line)), None, m.vcf_kept),
            (_, Some(Outcome::Win(line))) => (None, Some(notation(line)), m.vct_kept),
            _ => continue,
        };
        out.push(MoveVerdict {
            number,
            color: m.color,
            played: m.point.map_or_else(|| "pass".to_string(), Point::to_lower),
            vcf,
            vct,
            kept,
        });
    }
    GameAnalysis {
        game,
        vct,
        moves: out,
        undecided,
    }
}

/// A line in renju notation.
fn notation(line: &[Point]) -> String {
    line.iter()
        .map(|p| p.to_lower())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_rules::Color;
    use tengen_rules::analysis::analyze_moves;

    fn moves(text: &str) -> Vec<(Color, Option<Point>)> {
        text.split(' ')
            .enumerate()
            .map(|(i, p)| {
                let color = if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                (color, Some(p.parse().unwrap()))
            })
            .collect()
    }

    fn analyse(text: &str, vct: bool) -> GameAnalysis {
        let budget = AnalysisSettings::default();
        let found = analyze_moves(
            15,
            tengen_rules::Variant::Renju,
            &moves(text),
            Budget::new(budget.nodes, u8::MAX),
            vct.then_some(Budget::new(budget.nodes, budget.vct_depth)),
        )
        .unwrap();
        verdicts("0rgcyfb9b6qv0".parse().unwrap(), vct, &found)
    }

    #[test]
    fn a_missed_vcf_is_marked_and_a_kept_one_not() {
        // Black's open three h8-h10 with white far away: h7 or h11 wins
        // at move 7; b14 misses it, and white then blocks.
        let a = analyse("h8 a1 h9 a3 h10 a5 b14 h11 c14", false);
        assert_eq!(a.moves.len(), 1, "{a:?}");
        let m = &a.moves[0];
        assert_eq!(
            (m.number, m.color, m.played.as_str()),
            (7, Color::Black, "b14")
        );
        assert!(matches!(m.vcf.as_deref(), Some("h7" | "h11")), "{m:?}");
        assert_eq!(m.kept, Some(false));
        assert!(a.undecided.is_empty());
    }

    #[test]
    fn the_protocol_example_is_what_the_search_says() {
        // protocol/README.md's `game_analysis` example, of its `game_record`
        // example game.
        let a = analyse("h8 i9 h9 j9 h10 j8 h11 h12 h7", true);
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(
            json,
            r#"{"game":"0rgcyfb9b6qv0","vct":true,"moves":[{"number":7,"color":"black","played":"h11","vcf":"h7","kept":true},{"number":9,"color":"black","played":"h7","vcf":"h7","kept":true}]}"#
        );
    }
}
