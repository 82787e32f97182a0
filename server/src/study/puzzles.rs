//! Puzzles served: picking one near a player's puzzle rating, the daily
//! puzzle, a try's moves judged, and Glicko-2 ratings for players and
//! puzzles alike, as lichess rates them: each rated try is a game between
//! the player and the puzzle, won by the player when solved (each its own
//! rating period, `skillratings`'s Glicko-2 as `crate::ratings` uses it).
//! Only an account's first try of a puzzle is rated.
//!
//! Documents of the `puzzles` space: `p:ID` a puzzle, `r:NAME` a player's
//! puzzle rating, `a:NAME:ID` a rated try, `daily:DATE` the day's puzzle.
//! Scored indexes: `rating` and `theme:T` (by the puzzle's rating),
//! `game:GAME` (the puzzles of a game, by move), `tried:NAME` (by time),
//! `daily` (the puzzles that were one, by day).

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use tengen_protocol::{
    ErrorBody, ErrorCode, Player, PuzzleRef, PuzzleStep, PuzzleTheme, PuzzleView, RatingChange,
    StepOutcome, TableId,
};
use tengen_rules::Point;
use tengen_store::{DocPut, ScorePut, Store, StoreError, name_key};
use tengen_study::explorer::date_of;
use tengen_study::puzzle::{self, Attempt, Judged, Puzzle, StepError};

use super::attempts::Try;
use super::handle::Study;
use super::keys::{doc_key, game_index, scores, theme_index};

/// A player's puzzle rating before any try.
const START: (f64, f64, f64) = (1500.0, 350.0, 0.06);
/// How often a rated try's write is tried again after a conflict.
const RETRIES: usize = 5;

/// A player's puzzle rating.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct PlayerRating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub plays: u32,
    pub solved: u32,
}

impl Default for PlayerRating {
    fn default() -> PlayerRating {
        PlayerRating {
            rating: START.0,
            deviation: START.1,
            volatility: START.2,
            plays: 0,
            solved: 0,
        }
    }
}

/// A rated try, as kept.
#[derive(Serialize, Deserialize)]
struct Tried {
    at_ms: u64,
    solved: bool,
}

fn encode<T: Serialize>(v: &T) -> Vec<u8> {
    rmp_serde::to_vec_named(v).expect("always encodes")
}

fn decode<T: for<'de> Deserialize<'de>>(bytes: &[u8], what: &str) -> Result<T, ErrorBody> {
    rmp_serde::from_slice(bytes).map_err(|e| {
        tracing::error!(error = %e, "a stored {what} does not decode");
        ErrorBody::new(
            ErrorCode::Internal,
            format!("a stored {what} cannot be read"),
        )
    })
}

fn store_error(e: StoreError) -> ErrorBody {
    crate::accounts::store_refusal(&e)
}

/// The player's name key, when an account.
fn account(player: &Player) -> Option<String> {
    (!player.guest).then(|| name_key(&player.name))
}

/// Rating before and after one try: the player and the puzzle as the two
/// sides of a Glicko-2 game.
pub(super) fn rate(player: &PlayerRating, puzzle: &Puzzle, solved: bool) -> (PlayerRating, Puzzle) {
    let g = |rating, deviation, volatility| Glicko2Rating {
        rating,
        deviation,
        volatility,
    };
    let outcome = if solved {
        Outcomes::WIN
    } else {
        Outcomes::LOSS
    };
    let (p, z) = glicko2(
        &g(player.rating, player.deviation, player.volatility),
        &g(puzzle.rating, puzzle.deviation, puzzle.volatility),
        &outcome,
        &Glicko2Config::new(),
    );
    let next_player = PlayerRating {
        rating: p.rating,
        deviation: p.deviation,
        volatility: p.volatility,
        plays: player.plays + 1,
        solved: player.solved + u32::from(solved),
    };
    let mut next_puzzle = puzzle.clone();
    next_puzzle.rating = z.rating;
    next_puzzle.deviation = z.deviation;
    next_puzzle.volatility = z.volatility;
    next_puzzle.plays += 1;
    next_puzzle.solved += u32::from(solved);
    (next_player, next_puzzle)
}

/// How a try's puzzle is chosen.
pub(super) enum Pick {
    Next(Option<PuzzleTheme>),
    Id(String),
    Daily,
}

/// Starts a try: the puzzle chosen, the try kept on this node.
pub(super) async fn start(
    study: &Study,
    player: &Player,
    pick: Pick,
) -> Result<PuzzleView, ErrorBody> {
    let store = study.store().as_ref();
    let who = account(player);
    let mine = match &who {
        Some(name) => stored_rating(store, name).await?,
        None => None,
    };
    let (id, daily) = match pick {
        Pick::Id(id) => (id, None),
        Pick::Daily => {
            let date = date_of(crate::accounts::unix_ms());
            (daily(store, &date).await?, Some(date))
        }
        Pick::Next(theme) => {
            let around = mine.as_ref().map_or(START.0, |r| r.rating.round()) as i64;
            (next(store, who.as_deref(), theme, around).await?, None)
        }
    };
    let puzzle = load(store, &id).await?.0;
    let rated = match &who {
        Some(name) => tried(store, name, std::slice::from_ref(&id)).await?[0].is_none(),
        None => false,
    };
    let attempt = Attempt::new(&puzzle).map_err(|e| {
        tracing::error!(puzzle = %id, error = %e, "a stored puzzle is not a position");
        ErrorBody::new(ErrorCode::Internal, "the puzzle cannot be set up")
    })?;
    let view = PuzzleView {
        puzzle: puzzle.id.clone(),
        attempt: String::new(),
        rule_set: puzzle.rule_set,
        board_size: puzzle.size,
        black: puzzle.black.clone(),
        white: puzzle.white.clone(),
        to_move: puzzle.to_move,
        themes: puzzle.themes.clone(),
        rating: puzzle.rating.round().max(0.0) as u32,
        plays: puzzle.plays,
        solved: puzzle.solved,
        game: game_id(&puzzle.game)?,
        move_number: puzzle.move_number,
        daily,
        rated,
        your_rating: mine
            .as_ref()
            .map(|r| r.rating.round().max(0.0) as u32)
            .or(who.as_ref().map(|_| START.0 as u32)),
    };
    let attempt_id = study.attempts().insert(Try {
        attempt,
        puzzle: Arc::new(puzzle),
        player: who.unwrap_or_else(|| player.name.clone()),
        rated,
        started: std::time::Instant::now(),
    });
    Ok(PuzzleView {
        attempt: attempt_id,
        ..view
    })
}

fn game_id(game: &str) -> Result<TableId, ErrorBody> {
    game.parse()
        .map_err(|_| ErrorBody::new(ErrorCode::Internal, "a stored puzzle names no game"))
}

/// A puzzle and its version.
async fn load(store: &dyn Store, id: &str) -> Result<(Puzzle, u64), ErrorBody> {
    let doc = store
        .docs(puzzle::SPACE, &[doc_key(id)])
        .await
        .map_err(store_error)?
        .remove(0)
        .ok_or_else(|| ErrorBody::new(ErrorCode::NotFound, format!("no puzzle {id}")))?;
    Ok((decode(&doc.value, "puzzle")?, doc.version))
}

async fn stored_rating(store: &dyn Store, name: &str) -> Result<Option<PlayerRating>, ErrorBody> {
    match store
        .docs(puzzle::SPACE, &[format!("r:{name}")])
        .await
        .map_err(store_error)?
        .remove(0)
    {
        Some(d) => Ok(Some(decode(&d.value, "puzzle rating")?)),
        None => Ok(None),
    }
}

/// Which of `ids` the player has had a rated try of (`Some`: tried).
async fn tried(
    store: &dyn Store,
    name: &str,
    ids: &[String],
) -> Result<Vec<Option<()>>, ErrorBody> {
    let keys: Vec<String> = ids.iter().map(|id| format!("a:{name}:{id}")).collect();
    Ok(store
        .docs(puzzle::SPACE, &keys)
        .await
        .map_err(store_error)?
        .into_iter()
        .map(|d| d.map(|_| ()))
        .collect())
}

/// A puzzle near `around` that the account has not tried (of `theme`),
/// looked for in widening bands on either side; with none left, any.
async fn next(
    store: &dyn Store,
    who: Option<&str>,
    theme: Option<PuzzleTheme>,
    around: i64,
) -> Result<String, ErrorBody> {
    let index = theme.map_or_else(|| "rating".to_owned(), theme_index);
    let mut any = None;
    for width in [100, 200, 400, 800, 1 << 40] {
        let mut found = Vec::new();
        for (lo, hi) in [(around, around + width), (around - width, around)] {
            let rows = store
                .scored(puzzle::SPACE, &index, lo, hi, 30)
                .await
                .map_err(store_error)?;
            found.extend(rows.into_iter().map(|(id, _)| id));
        }
        found.sort();
        found.dedup();
        if any.is_none() {
            any = found.first().cloned();
        }
        let fresh: Vec<String> = match who {
            Some(name) => {
                let seen = tried(store, name, &found).await?;
                found
                    .into_iter()
                    .zip(seen)
                    .filter(|(_, s)| s.is_none())
                    .map(|(id, _)| id)
                    .collect()
            }
            None => found,
        };
        if !fresh.is_empty() {
            return Ok(fresh[rand::random_range(0..fresh.len())].clone());
        }
    }
    any.ok_or_else(|| ErrorBody::new(ErrorCode::NotFound, "no puzzles yet"))
}

/// The day's puzzle: chosen once by the first to ask (a conditional
/// write), from puzzles rated 1400 to 2400 that never were one, by the
/// date's digest.
async fn daily(store: &dyn Store, date: &str) -> Result<String, ErrorBody> {
    let key = format!("daily:{date}");
    for _ in 0..RETRIES {
        if let Some(d) = store
            .docs(puzzle::SPACE, std::slice::from_ref(&key))
            .await
            .map_err(store_error)?
            .remove(0)
        {
            return String::from_utf8(d.value)
                .map_err(|_| ErrorBody::new(ErrorCode::Internal, "a daily puzzle is unreadable"));
        }
        let used: std::collections::HashSet<String> = store
            .scored(puzzle::SPACE, "daily", i64::MIN, i64::MAX, 100_000)
            .await
            .map_err(store_error)?
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        let mut pool: Vec<String> = store
            .scored(puzzle::SPACE, "rating", 1400, 2400, 1000)
            .await
            .map_err(store_error)?
            .into_iter()
            .map(|(id, _)| id)
            .filter(|id| !used.contains(id))
            .collect();
        if pool.is_empty() {
            pool = store
                .scored(puzzle::SPACE, "rating", i64::MIN, i64::MAX, 1000)
                .await
                .map_err(store_error)?
                .into_iter()
                .map(|(id, _)| id)
                .filter(|id| !used.contains(id))
                .collect();
        }
        if pool.is_empty() {
            return Err(ErrorBody::new(ErrorCode::NotFound, "no puzzles yet"));
        }
        let pick = date
            .bytes()
            .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
        let id = pool[(pick % pool.len() as u64) as usize].clone();
        let day = date.replace('-', "").parse::<i64>().unwrap_or(0);
        let put = DocPut {
            key: key.clone(),
            expect: 0,
            value: id.clone().into_bytes(),
        };
        let used = ScorePut {
            index: "daily".into(),
            member: id,
            score: Some(day),
        };
        match store.put_docs(puzzle::SPACE, &[put], &[used]).await {
            Ok(()) | Err(StoreError::Conflict(_)) => {}
            Err(e) => return Err(store_error(e)),
        }
    }
    Err(ErrorBody::new(
        ErrorCode::Unavailable,
        "the daily puzzle is being chosen; try again",
    ))
}

/// Judges the try's move at `point` (on the blocking pool, within an
/// analysis slot) and, once the try is over, rates it.
pub(super) async fn play(
    study: &Study,
    player: &Player,
    attempt: &str,
    point: Point,
) -> Result<PuzzleStep, ErrorBody> {
    let who = account(player).unwrap_or_else(|| player.name.clone());
    let Ok(slot) = study.slots().clone().try_acquire_owned() else {
        return Err(ErrorBody {
            retry_after_ms: Some(500),
            ..ErrorBody::new(
                ErrorCode::Unavailable,
                "the server is busy judging; try again",
            )
        });
    };
    let mut t = study.attempts().take(attempt, &who).ok_or_else(|| {
        ErrorBody::new(
            ErrorCode::NotFound,
            "no such try (it ended, or expired): start the puzzle again",
        )
    })?;
    let budget = study.settings().judge_budget();
    let (t_back, judged) = tokio::task::spawn_blocking(move || {
        let judged = t.attempt.play(point, budget);
        drop(slot);
        (t, judged)
    })
    .await
    .map_err(|_| ErrorBody::new(ErrorCode::Internal, "judging the move failed"))?;
    t = t_back;
    let judged = match judged {
        Ok(j) => j,
        Err(e) => {
            if !matches!(e, StepError::Over) {
                study.attempts().put(attempt.to_owned(), t);
            }
            return Err(ErrorBody::new(ErrorCode::BadRequest, e.to_string()));
        }
    };
    let (outcome, reply, reason) = match judged {
        Judged::Continue(reply) => {
            study.attempts().put(attempt.to_owned(), t);
            return Ok(PuzzleStep {
                attempt: attempt.to_owned(),
                point,
                outcome: StepOutcome::Continue,
                reply: Some(reply),
                reason: None,
                solution: Vec::new(),
                rating: None,
            });
        }
        Judged::Solved => (StepOutcome::Solved, None, None),
        Judged::Failed(why) => (StepOutcome::Failed, None, Some(why.to_owned())),
    };
    let rating = if t.rated {
        rate_try(
            study.store().as_ref(),
            &who,
            &t.puzzle.id,
            outcome == StepOutcome::Solved,
        )
        .await?
    } else {
        None
    };
    Ok(PuzzleStep {
        attempt: attempt.to_owned(),
        point,
        outcome,
        reply,
        reason,
        solution: t.puzzle.line.clone(),
        rating,
    })
}

/// Rates an account's first try of a puzzle: both ratings, the try and
/// the indexes in one conditional write, read again after a conflict.
/// `None` when the account had tried it before (on another node, say).
pub(super) async fn rate_try(
    store: &dyn Store,
    name: &str,
    id: &str,
    solved: bool,
) -> Result<Option<RatingChange>, ErrorBody> {
    for _ in 0..RETRIES {
        let keys = [doc_key(id), format!("r:{name}"), format!("a:{name}:{id}")];
        let docs = store
            .docs(puzzle::SPACE, &keys)
            .await
            .map_err(store_error)?;
        let [p, r, a] = <[_; 3]>::try_from(docs)
            .map_err(|_| ErrorBody::new(ErrorCode::Internal, "a short read"))?;
        if a.is_some() {
            return Ok(None);
        }
        let Some(p) = p else {
            return Err(ErrorBody::new(
                ErrorCode::NotFound,
                format!("no puzzle {id}"),
            ));
        };
        let puzzle: Puzzle = decode(&p.value, "puzzle")?;
        let (player, r_version) = match r {
            Some(d) => (
                decode::<PlayerRating>(&d.value, "puzzle rating")?,
                d.version,
            ),
            None => (PlayerRating::default(), 0),
        };
        let (next_player, next_puzzle) = rate(&player, &puzzle, solved);
        let now = crate::accounts::unix_ms();
        let docs = [
            DocPut {
                key: keys[0].clone(),
                expect: p.version,
                value: next_puzzle.encode(),
            },
            DocPut {
                key: keys[1].clone(),
                expect: r_version,
                value: encode(&next_player),
            },
            DocPut {
                key: keys[2].clone(),
                expect: 0,
                value: encode(&Tried { at_ms: now, solved }),
            },
        ];
        let mut scores = scores(&next_puzzle);
        scores.push(ScorePut {
            index: format!("tried:{name}"),
            member: id.to_owned(),
            score: Some(now as i64),
        });
        match store.put_docs(puzzle::SPACE, &docs, &scores).await {
            Ok(()) => {
                return Ok(Some(RatingChange {
                    before: player.rating.round().max(0.0) as u32,
                    after: next_player.rating.round().max(0.0) as u32,
                }));
            }
            Err(StoreError::Conflict(_)) => continue,
            Err(e) => return Err(store_error(e)),
        }
    }
    Err(ErrorBody::new(
        ErrorCode::Unavailable,
        "the ratings changed meanwhile; try again",
    ))
}

/// The puzzles made from a game, in move order.
pub(super) async fn of_game(store: &dyn Store, game: &str) -> Result<Vec<PuzzleRef>, ErrorBody> {
    let ids = store
        .scored(puzzle::SPACE, &game_index(game), i64::MIN, i64::MAX, 200)
        .await
        .map_err(store_error)?;
    let keys: Vec<String> = ids.iter().map(|(id, _)| doc_key(id)).collect();
    let docs = store
        .docs(puzzle::SPACE, &keys)
        .await
        .map_err(store_error)?;
    let mut out = Vec::new();
    for ((_, number), doc) in ids.iter().zip(docs) {
        if let Some(d) = doc {
            let p: Puzzle = decode(&d.value, "puzzle")?;
            out.push(PuzzleRef {
                move_number: *number as u32,
                ..p.reference()
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_rules::Color;
    use tengen_rules::game::RuleSet;

    fn puzzle(rating: f64) -> Puzzle {
        Puzzle {
            id: "p".into(),
            rule_set: RuleSet::Renju,
            size: 15,
            black: vec![],
            white: vec![],
            to_move: Color::Black,
            threats: false,
            line: vec![],
            themes: vec![],
            game: "g".into(),
            move_number: 1,
            rating,
            deviation: 350.0,
            volatility: 0.06,
            plays: 0,
            solved: 0,
        }
    }

    /// A solve raises the player and lowers the puzzle by Glicko-2's
    /// amounts (the first game of two new 1500s: ±162.3, the deviation to
    /// 290.3, as `crate::ratings` checks for games); a failure the other
    /// way; a harder puzzle gains less when failed.
    #[test]
    fn a_try_moves_both_ratings_as_glicko2_says() {
        let me = PlayerRating::default();
        let (p, z) = rate(&me, &puzzle(1500.0), true);
        assert!((p.rating - 1662.3).abs() < 0.1, "{}", p.rating);
        assert!((z.rating - 1337.7).abs() < 0.1, "{}", z.rating);
        assert!((p.deviation - 290.3).abs() < 0.1);
        assert_eq!((p.plays, p.solved, z.plays, z.solved), (1, 1, 1, 1));
        let (p, z) = rate(&me, &puzzle(1500.0), false);
        assert!((p.rating - 1337.7).abs() < 0.1);
        assert!((z.rating - 1662.3).abs() < 0.1);
        assert_eq!((p.solved, z.solved), (0, 0));
        let (_, hard) = rate(&me, &puzzle(2200.0), false);
        assert!(hard.rating - 2200.0 < 162.3 && hard.rating > 2200.0);
    }
}
