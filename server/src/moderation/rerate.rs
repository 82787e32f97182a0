//! `reset_rating`: the rating changes of a finished rated game played in
//! bad faith (sandbagging, a thrown game) reversed for both players.
//!
//! **How.** The reversal is written like a game's own rating changes: as
//! a finished game of its own, `ID-reset` ([`crate::ratings::reversal_id`]), whose rating
//! updates take back what game `ID` gave each player, in the store's one
//! atomic, conditional write (`Store::finish_game`: both players' ratings
//! change together or not at all, and not over a change made meanwhile;
//! it is then tried again). Its record is game `ID`'s record marked with
//! who reset it, when and why (tags `rating_reset_of`, `rating_reset_by`,
//! `rating_reset_reason`), and it is in both players' histories next to
//! the game (`history` marks it with `reverses`).
//!
//! **Once.** The reversal's id is taken at most once (a second reset finds
//! it and is refused with `already_reset`, changing nothing).
//!
//! **What is reversed.** For each player, the game's change: the rating,
//! deviation and volatility each minus what the game added to them (the
//! game's history point less the point before it), one game fewer and one
//! win, draw or loss fewer, the game's time out of the recent games, the
//! opponent out of the distinct opponents unless met in another game.
//! Later games are *not* recomputed: each was rated from the rating the
//! player had then, and stays; a reversal subtracts this game's delta from
//! wherever the rating stands now. Recomputing every later game of both
//! players (and of their later opponents, and theirs) would rewrite many
//! accounts' ratings that moderators did not mean to touch.

use tengen_protocol::{ErrorBody, ErrorCode, RatingFamily, TableId};
use tengen_rules::game::GameRecord;
use tengen_store::{FinishedGame, HistoryPoint, Rating, RatingUpdate, StoreError, name_key};

use super::actions::{Ctx, refuse, store_failed};
use super::audit;
use super::state::unix_ms;
use crate::ratings::{reversal_id, reversed_by};

impl Ctx<'_> {
    /// Reverses game `game`'s rating changes (audited with `reason`).
    pub(super) async fn reset_rating(&self, game: &TableId, reason: &str) -> Result<(), ErrorBody> {
        let store = self.store;
        let Some(finished) = store.game(game.as_str()).await.map_err(store_failed)? else {
            return Err(refuse(
                ErrorCode::NotFound,
                format!("no finished game {game}"),
            ));
        };
        let id = reversal_id(game.as_str());
        if reversed_by(game.as_str()).is_some()
            || store.game(&id).await.map_err(store_failed)?.is_some()
        {
            return Err(already(game));
        }
        let record = std::str::from_utf8(&finished.record)
            .ok()
            .and_then(|t| GameRecord::from_json(t).ok())
            .ok_or_else(|| {
                refuse(
                    ErrorCode::Internal,
                    format!("game {game}'s record is unreadable"),
                )
            })?;
        let family = RatingFamily::of(record.config.rule_set);
        // Checked before the audit entry: a game that changed no rating.
        self.reversals(&finished, family, &id).await?;
        audit::record(store, self.by, "reset_rating", game.as_str(), reason).await?;
        let now = unix_ms();
        let marked = record
            .with_tag("rating_reset_of", game.as_str())
            .with_tag("rating_reset_by", self.by)
            .with_tag("rating_reset_reason", reason)
            .with_tag("rating_reset_unix_ms", &now.to_string());
        let mut entry = FinishedGame {
            id: id.clone(),
            players: finished.players.clone(),
            finished_ms: now,
            record: marked.to_json().into_bytes(),
            ratings: Vec::new(),
        };
        for _ in 0..=crate::ratings::CONFLICT_RETRIES {
            entry.ratings = self.reversals(&finished, family, &id).await?;
            match store.finish_game(&entry).await {
                Ok(()) => return Ok(()),
                Err(StoreError::Exists(_)) => return Err(already(game)),
                Err(StoreError::Conflict(_)) => continue,
                Err(e) => return Err(store_failed(e)),
            }
        }
        Err(refuse(
            ErrorCode::Unavailable,
            "the players' ratings keep changing; try again",
        ))
    }

    /// Both players' ratings with game `finished`'s change taken back, as
    /// conditional updates; `not_rated` if it changed no rating.
    async fn reversals(
        &self,
        finished: &FinishedGame,
        family: RatingFamily,
        id: &str,
    ) -> Result<Vec<RatingUpdate>, ErrorBody> {
        let not_rated = || {
            refuse(
                ErrorCode::NotRated,
                format!("game {} changed no rating", finished.id),
            )
        };
        if finished.players.len() != 2 {
            return Err(not_rated());
        }
        let mut updates = Vec::new();
        for player in &finished.players {
            let history = self
                .store
                .rating_history(player, family.as_str())
                .await
                .map_err(store_failed)?;
            let Some(at) = history.iter().position(|p| p.game == finished.id) else {
                return Err(not_rated());
            };
            let Some(now) = self
                .store
                .rating(player, family.as_str())
                .await
                .map_err(store_failed)?
            else {
                return Err(not_rated());
            };
            let before = match at {
                0 => {
                    let r = crate::ratings::initial(player, family);
                    (r.rating, r.deviation, r.volatility)
                }
                n => {
                    let p = &history[n - 1];
                    (p.rating, p.deviation, p.volatility)
                }
            };
            updates.push(reverse(now, &history, at, before, id));
        }
        Ok(updates)
    }
}

/// `now` without the change of the game at `history[at]`, which moved the
/// rating from `before`.
fn reverse(
    now: Rating,
    history: &[HistoryPoint],
    at: usize,
    before: (f64, f64, f64),
    id: &str,
) -> RatingUpdate {
    let point = &history[at];
    let mut r = now.clone();
    r.rating -= point.rating - before.0;
    r.deviation = (r.deviation - (point.deviation - before.1)).clamp(1.0, crate::ratings::START.1);
    r.volatility = (r.volatility - (point.volatility - before.2)).max(0.0001);
    r.games = r.games.saturating_sub(1);
    let tally = if point.score >= 1.0 {
        &mut r.wins
    } else if point.score > 0.0 {
        &mut r.draws
    } else {
        &mut r.losses
    };
    *tally = tally.saturating_sub(1);
    if let Some(i) = r.recent_ms.iter().position(|t| *t == point.at_ms) {
        r.recent_ms.remove(i);
    }
    let met_again = history.iter().enumerate().any(|(i, p)| {
        i != at
            && name_key(&p.opponent) == name_key(&point.opponent)
            && reversed_by(&p.game).is_none()
    });
    if !met_again {
        r.opponents
            .retain(|o| name_key(o) != name_key(&point.opponent));
    }
    let mark = HistoryPoint {
        game: id.to_owned(),
        at_ms: unix_ms(),
        opponent: point.opponent.clone(),
        score: point.score,
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    };
    RatingUpdate {
        expected_games: now.games,
        rating: r,
        history: mark,
    }
}

fn already(game: &TableId) -> ErrorBody {
    refuse(
        ErrorCode::AlreadyReset,
        format!("game {game}'s rating changes were reversed already; nothing was done"),
    )
}
