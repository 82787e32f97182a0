//! Checks of finishes racing one another.

use std::sync::Arc;

use super::helpers::{as_stored, finished, live_table, ok, same, update};
use crate::{Store, StoreError};

/// Tasks racing to finish different games, each updating the same
/// rating from the same count: exactly one succeeds, the others get
/// `Conflict` and write nothing.
pub async fn racing_rated_finishes(store: Arc<dyn Store>) {
    let mut tasks = Vec::new();
    for racer in 0..8u32 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let id = format!("rr{racer}");
            ok(store.create_table(&id, b"m").await, "create");
            let game = finished(
                &id,
                &["Ann", "Bob"],
                10 + u64::from(racer),
                vec![update(
                    "Ann",
                    "renju",
                    0,
                    &id,
                    10,
                    1500.0 + f64::from(racer),
                )],
            );
            match store.finish_game(&game).await {
                Ok(()) => Some(game),
                Err(StoreError::Conflict(_)) => None,
                Err(e) => panic!("racing rated finishes: got {e:?}"),
            }
        }));
    }
    let mut winners = Vec::new();
    for task in tasks {
        winners.extend(task.await.expect("a racing task panicked"));
    }
    same(winners.len(), 1, "rated games finished by the racers");
    let winner = &winners[0];
    same(
        ok(store.rating("Ann", "renju").await, "rating Ann"),
        Some(winner.ratings[0].rating.clone()),
        "Ann's rating after the race",
    );
    same(
        ok(store.rating_history("Ann", "renju").await, "history Ann"),
        vec![winner.ratings[0].history.clone()],
        "Ann's history after the race",
    );
    same(
        ok(store.games_of("Bob", None, 10).await, "games_of Bob")
            .into_iter()
            .map(|g| g.id)
            .collect::<Vec<_>>(),
        vec![winner.id.clone()],
        "Bob's games after the race",
    );
    for racer in 0..8u32 {
        let id = format!("rr{racer}");
        let finished = ok(store.game(&id).await, "game").is_some();
        same(finished, id == winner.id, &format!("{id} finished"));
        same(
            live_table(&*store, &id).await.is_none(),
            id == winner.id,
            &format!("{id} gone from the live tables"),
        );
    }
}

/// Tasks racing to finish one game: exactly one succeeds, the rest get
/// `Exists`, and the ratings moved once.
pub async fn racing_finish_game(store: Arc<dyn Store>) {
    ok(store.create_table("race", b"m").await, "create race");
    let mut tasks = Vec::new();
    for racer in 0..8u32 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let mut game = finished(
                "race",
                &["Ann", "Bob"],
                10,
                vec![update(
                    "Ann",
                    "freestyle",
                    0,
                    "race",
                    10,
                    1500.0 + f64::from(racer),
                )],
            );
            game.record = format!("racer {racer}").into_bytes();
            match store.finish_game(&game).await {
                Ok(()) => Some(game),
                // A racer checking after the winner sees Exists; one
                // checking the rating first may see Conflict.
                Err(StoreError::Exists(_) | StoreError::Conflict(_)) => None,
                Err(e) => panic!("racing finish_game: got {e:?}"),
            }
        }));
    }
    let mut winners = Vec::new();
    for task in tasks {
        winners.extend(task.await.expect("a racing task panicked"));
    }
    same(winners.len(), 1, "games finished by the racers");
    let winner = &winners[0];
    same(
        ok(store.game("race").await, "game race"),
        Some(as_stored(winner)),
        "the race's record",
    );
    same(
        ok(store.rating("Ann", "freestyle").await, "rating Ann"),
        Some(winner.ratings[0].rating.clone()),
        "Ann's rating after the race",
    );
    same(
        ok(
            store.rating_history("Ann", "freestyle").await,
            "history Ann",
        )
        .len(),
        1,
        "Ann's history points after the race",
    );
}
