//! The study requests of a connection (`explore`, the puzzle messages,
//! the trainer's), each answered by one task the connection spawns
//! (`crate::conn::accounts`, which bounds how many run at once).

use tengen_protocol::{ClientMsg, ErrorBody, ErrorCode, Player, ServerMsg};

use super::puzzles::{self, Pick};
use super::{explore, trainer};
use crate::AppState;

/// Whether `msg` is one of this module's.
pub fn is_study(msg: &ClientMsg) -> bool {
    matches!(
        msg,
        ClientMsg::Explore { .. }
            | ClientMsg::NextPuzzle { .. }
            | ClientMsg::Puzzle { .. }
            | ClientMsg::DailyPuzzle
            | ClientMsg::PuzzleMove { .. }
            | ClientMsg::GamePuzzles { .. }
            | ClientMsg::TrainerNext
            | ClientMsg::TrainerAnswer { .. }
    )
}

/// Answers one study request of `player`, bounded by the store's wait.
pub async fn answer(
    state: &AppState,
    player: &Player,
    msg: ClientMsg,
) -> Result<ServerMsg, ErrorBody> {
    let wait = state.accounts.settings().store_wait;
    // A move's search has its own bound (its node budget); the store's
    // reads around it get the store's wait, twice.
    let bound = if matches!(msg, ClientMsg::PuzzleMove { .. }) {
        wait * 4
    } else {
        wait * 2
    };
    match tokio::time::timeout(bound, reply(state, player, msg)).await {
        Ok(r) => r,
        Err(_) => Err(ErrorBody::new(
            ErrorCode::Unavailable,
            "the store did not answer in time; try again",
        )),
    }
}

async fn reply(state: &AppState, player: &Player, msg: ClientMsg) -> Result<ServerMsg, ErrorBody> {
    let study = &state.hosting.study;
    let store = study.store().as_ref();
    Ok(match msg {
        ClientMsg::Explore {
            rule_set,
            opening,
            board_size,
            moves,
            filter,
        } => ServerMsg::Explorer(Box::new(
            explore::explore(
                store,
                study.settings().depth,
                rule_set,
                opening,
                board_size,
                moves,
                filter,
            )
            .await?,
        )),
        ClientMsg::NextPuzzle { theme } => ServerMsg::Puzzle(Box::new(
            puzzles::start(study, player, Pick::Next(theme)).await?,
        )),
        ClientMsg::Puzzle { puzzle } => ServerMsg::Puzzle(Box::new(
            puzzles::start(study, player, Pick::Id(puzzle)).await?,
        )),
        ClientMsg::DailyPuzzle => {
            ServerMsg::Puzzle(Box::new(puzzles::start(study, player, Pick::Daily).await?))
        }
        ClientMsg::PuzzleMove { attempt, point } => {
            ServerMsg::PuzzleStep(puzzles::play(study, player, &attempt, point).await?)
        }
        ClientMsg::GamePuzzles { game } => ServerMsg::GamePuzzles {
            puzzles: puzzles::of_game(store, game.as_str()).await?,
            game,
        },
        ClientMsg::TrainerNext => ServerMsg::TrainerPosition(trainer::next(store).await?),
        ClientMsg::TrainerAnswer { position, marks } => {
            ServerMsg::TrainerVerdict(trainer::answer(store, &position, &marks).await?)
        }
        other => {
            return Err(ErrorBody::new(
                ErrorCode::Internal,
                format!("{} is not a study request", other.type_name()),
            ));
        }
    })
}
