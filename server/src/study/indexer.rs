//! The indexer: each finished game added to the opening explorer's index
//! in one store write, then passed to the miner.

use std::sync::Arc;
use std::time::Duration;

use tengen_protocol::{ColorResult, RatingFamily};
use tengen_rules::game::Opening;
use tengen_store::{CountAdd, ListPush, Store, StoreError, Tally};
use tengen_study::explorer::{self, FactsError, Players};
use tokio::sync::{mpsc, watch};

use super::finished::Finished;

/// How often a write the store could not confirm is tried (a tally is
/// applied at most once, so trying again is safe).
const TRIES: u32 = 3;

/// Why a game was not indexed.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Facts(#[from] FactsError),
}

/// The indexer's task: each game added to the index, then handed to the
/// miner's queue (`mine`; dropped and counted when it is full).
pub(super) async fn run(
    store: Arc<dyn Store>,
    depth: u32,
    mut rx: mpsc::Receiver<Finished>,
    mine: Option<mpsc::Sender<Finished>>,
    mut shutdown: watch::Receiver<bool>,
) {
    loop {
        let game = tokio::select! {
            g = rx.recv() => match g {
                Some(g) => g,
                None => return,
            },
            _ = shutdown.wait_for(|s| *s) => return,
        };
        if depth > 0 {
            let mut tries = 0;
            loop {
                tries += 1;
                match index_game(store.as_ref(), &game, depth, Stated::default()).await {
                    Ok(_) => {
                        metrics::counter!(crate::metrics::STUDY_INDEXED).increment(1);
                        break;
                    }
                    Err(IndexError::Store(StoreError::Unavailable(e))) if tries < TRIES => {
                        tracing::debug!(game = %game.id, error = %e, "indexing again soon");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                    Err(IndexError::Facts(e)) => {
                        tracing::debug!(game = %game.id, error = %e, "not indexed");
                        break;
                    }
                    Err(e) => {
                        tracing::warn!(game = %game.id, error = %e, "a finished game was not indexed (tengen-server reindex adds it)");
                        crate::metrics::error("study_index");
                        break;
                    }
                }
            }
        }
        if let Some(mine) = &mine
            && mine.try_send(game).is_err()
        {
            super::finished::dropped("mine");
        }
    }
}

/// What an imported stone list's text says that its moves do not: the
/// opening rule it was played under and its result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stated {
    pub opening: Option<Opening>,
    pub result: Option<ColorResult>,
}

/// Adds the finished game to the explorer's index `depth` moves deep
/// (under the `stated` opening rule and result when given: a stone list
/// imported as a free game): `true` when added now, `false` when it had
/// been. Unrated games between two accounts count the ratings the players
/// have now.
pub async fn index_game(
    store: &dyn Store,
    game: &Finished,
    depth: u32,
    stated: Stated,
) -> Result<bool, IndexError> {
    let mut players = game.players.clone();
    if players.ratings.is_none() {
        players.ratings = current_ratings(store, game, &players).await?;
    }
    let tally = game_tally(game, &players, depth, stated)?;
    Ok(store.tally(explorer::SPACE, &tally).await?)
}

/// What [`index_game`] writes for `game` played by `players`: one tally,
/// named by the game's id (applied at most once).
pub fn game_tally(
    game: &Finished,
    players: &Players,
    depth: u32,
    stated: Stated,
) -> Result<Tally, FactsError> {
    let mut facts = explorer::facts_stated(
        &game.id,
        &game.record,
        players,
        game.finished_ms,
        stated.result,
    )?;
    if let Some(o) = stated.opening {
        facts.opening = o;
    }
    let plan = explorer::plan(&facts, depth);
    Ok(Tally {
        token: game.id.clone(),
        counts: plan
            .counts
            .into_iter()
            .map(|(key, field, values)| CountAdd { key, field, values })
            .collect(),
        pushes: plan
            .latest
            .into_iter()
            .map(|(key, item)| ListPush { key, item })
            .collect(),
        keep: explorer::LATEST,
    })
}

async fn current_ratings(
    store: &dyn Store,
    game: &Finished,
    players: &Players,
) -> Result<Option<[f64; 2]>, StoreError> {
    let [Some(a), Some(b)] = &players.accounts else {
        return Ok(None);
    };
    let family = RatingFamily::of(game.record.config.rule_set);
    let (ra, rb) = (
        store.rating(a, family.as_str()).await?,
        store.rating(b, family.as_str()).await?,
    );
    Ok(ra.zip(rb).map(|(a, b)| [a.rating, b.rating]))
}
