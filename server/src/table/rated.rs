//! The end of a rated game: its record and both players' rating updates,
//! stored in one write (`crate::ratings::finish`, which retries when a
//! rating changed meanwhile).
//!
//! Interim hook: until every table persists its actions and finishes its
//! game in the store (the durable-tables work), only rated tables write
//! here, once, when their game ends. An aborted game is never rated; it
//! is not written either.

use std::sync::Arc;

use tengen_protocol::RatingFamily;
use tengen_rules::game::{Game, Outcome, Seat};
use tengen_store::{FinishedGame, Store};

use crate::accounts::unix_ms;
use crate::ratings::{self, RatedGame};

/// The score of the first seat, or `None` when the game is not over or
/// was aborted (unrated).
pub fn score_first(game: &Game) -> Option<f64> {
    match game.result()?.outcome {
        Outcome::Win { seat, .. } => Some(if seat == Seat::First { 1.0 } else { 0.0 }),
        Outcome::Draw => Some(0.5),
        Outcome::Aborted => None,
    }
}

/// Writes a finished rated game and its rating updates, in the background
/// (the table never waits on the store). `players`: the account names by
/// seat.
pub fn finish(store: Arc<dyn Store>, id: String, game: &Game, players: [String; 2]) {
    let Some(score_first) = score_first(game) else {
        return;
    };
    let mut record = game.record();
    record
        .tags
        .insert(Seat::First.to_string(), players[0].clone());
    record
        .tags
        .insert(Seat::Second.to_string(), players[1].clone());
    let finished_ms = unix_ms();
    let rated = RatedGame {
        id: id.clone(),
        family: RatingFamily::of(record.config.rule_set),
        players: players.clone(),
        score_first,
        finished_ms,
    };
    let finished = FinishedGame {
        id,
        players: players.to_vec(),
        finished_ms,
        record: record.to_json().into_bytes(),
        ratings: Vec::new(),
    };
    tokio::spawn(async move {
        match ratings::finish(store.as_ref(), finished, Some(&rated)).await {
            Ok(()) => tracing::info!(game = %rated.id, "rated game stored"),
            Err(e) => tracing::error!(game = %rated.id, error = %e, "rated game not stored"),
        }
    });
}
