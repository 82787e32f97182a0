//! Forbidden-point exercises served: a random one (one range read of an
//! index whose scores are the exercises' random ids), and an answer
//! judged by the referee.

use tengen_protocol::{ErrorBody, ErrorCode, TrainerPosition, TrainerVerdict};
use tengen_rules::game::ForbiddenPoint;
use tengen_store::Store;
use tengen_study::trainer::{self, Exercise, judge};

fn store_error(e: tengen_store::StoreError) -> ErrorBody {
    crate::accounts::store_refusal(&e)
}

/// A random exercise.
pub(super) async fn next(store: &dyn Store) -> Result<TrainerPosition, ErrorBody> {
    let at: i64 = rand::random_range(0..1 << 60);
    let mut found = store
        .scored(trainer::SPACE, "all", at, i64::MAX, 1)
        .await
        .map_err(store_error)?;
    if found.is_empty() {
        found = store
            .scored(trainer::SPACE, "all", i64::MIN, i64::MAX, 1)
            .await
            .map_err(store_error)?;
    }
    let (id, _) = found.pop().ok_or_else(|| {
        ErrorBody::new(
            ErrorCode::NotFound,
            "no exercises yet: they come from finished renju games",
        )
    })?;
    let e = load(store, &id).await?;
    Ok(TrainerPosition {
        position: e.id,
        board_size: e.size,
        black: e.black,
        white: e.white,
        game: e
            .game
            .parse()
            .map_err(|_| ErrorBody::new(ErrorCode::Internal, "an exercise names no game"))?,
        move_number: e.move_number,
    })
}

async fn load(store: &dyn Store, id: &str) -> Result<Exercise, ErrorBody> {
    let doc = store
        .docs(trainer::SPACE, &[format!("e:{id}")])
        .await
        .map_err(store_error)?
        .remove(0)
        .ok_or_else(|| ErrorBody::new(ErrorCode::NotFound, format!("no exercise {id}")))?;
    Exercise::decode(&doc.value)
        .ok_or_else(|| ErrorBody::new(ErrorCode::Internal, "a stored exercise cannot be read"))
}

/// The referee's judgement of `marks` on exercise `id`.
pub(super) async fn answer(
    store: &dyn Store,
    id: &str,
    marks: &[ForbiddenPoint],
) -> Result<TrainerVerdict, ErrorBody> {
    let e = load(store, id).await?;
    judge(&e, marks).map_err(|err| ErrorBody::new(ErrorCode::Internal, err.to_string()))
}
