//! Playbans in the running server: an abandoned rated game written to its
//! player's standing, and the check before rated play. The rules (what
//! counts, how long a wait) are [`super::playban`]'s; this file stores
//! and reads.
//!
//! **Recording.** A table that stored its finished rated game calls
//! [`finished`] (every node, the restore of a finished game included). It
//! judges the game at once (pure and cheap) and, if a seat abandoned it,
//! spawns one task that writes the offence to the player's standing
//! (compare-and-swap, [`super::standing::update`], idempotent by game id:
//! a finish reported twice counts once), then notes it in this node's
//! book and tells the other nodes. The table never waits for it; at most
//! one such task per finished game exists, and a store that does not
//! answer is tried again a few times over about a minute, then the
//! offence is given up (logged).
//!
//! **Checking.** The matchmaker's door (`queue`) reads the standing from
//! the store (it reads the store anyway) and notes it in the book; the
//! lobby (a rated room created or joined, a rated challenge sent or
//! accepted, which is a join) cannot wait and asks the book
//! ([`barred`]), which holds every standing read at login or changed
//! since on any node.

use std::sync::Arc;
use std::time::Duration;

use tengen_protocol::ErrorBody;
use tengen_rules::game::{Game, Seat};
use tengen_store::{Standing, Store};

use super::book::Book;
use super::playban::{self, Offence};
use super::state::{Moderation, unix_ms};
use super::wire::News;

/// How often an offence is tried against a store that does not answer.
const ATTEMPTS: u32 = 6;
/// The first pause between attempts (doubling: about a minute in all).
const FIRST_PAUSE: Duration = Duration::from_secs(1);

/// A rated game `id` between `players` (by seat) has finished as `game`
/// holds it (`no_show`: the seat whose first move never came, when the
/// table aborted it for that): the seat that abandoned it, if any, gets
/// an offence. Never waits.
pub fn finished(
    m: &Moderation,
    store: &Arc<dyn Store>,
    id: &str,
    players: &[String],
    game: &Game,
    no_show: Option<Seat>,
) {
    let Some((seat, offence)) = playban::offender(game, no_show) else {
        return;
    };
    let Some(name) = players.get(seat.index()) else {
        return;
    };
    let (m, store, id, name) = (m.clone(), store.clone(), id.to_owned(), name.clone());
    tokio::spawn(async move { record(&m, store.as_ref(), &id, &name, offence).await });
}

/// Writes `name`'s offence in game `id`, trying again while the store
/// does not answer; notes and announces the new standing.
async fn record(m: &Moderation, store: &dyn Store, id: &str, name: &str, offence: Offence) {
    let at_ms = unix_ms();
    let mut pause = FIRST_PAUSE;
    for attempt in 1..=ATTEMPTS {
        let changed =
            super::standing::update(
                store,
                name,
                |s: &mut Standing| match playban::after_offence(&s.playban, id, at_ms) {
                    Some(next) => {
                        s.playban = next;
                        true
                    }
                    None => false,
                },
            )
            .await;
        match changed {
            Ok(standing) => {
                let wait_ms = playban::remaining_ms(&standing.playban, at_ms);
                tracing::info!(game = %id, player = %name, offence = offence.as_str(), wait_ms, "rated game abandoned");
                m.book.set(standing);
                m.announce(&News::Standing {
                    name: name.to_owned(),
                });
                return;
            }
            Err(e) if attempt < ATTEMPTS => {
                tracing::debug!(error = %e, player = %name, "offence not stored yet; retrying");
                tokio::time::sleep(pause).await;
                pause *= 2;
            }
            Err(e) => {
                tracing::warn!(error = %e, game = %id, player = %name, "an abandoned rated game could not be recorded");
            }
        }
    }
}

/// The `playbanned` refusal for `name` now, from this node's book.
pub fn barred(book: &Book, name: &str) -> Option<ErrorBody> {
    let standing = book.get(name)?;
    playban::refusal(&standing.playban, unix_ms())
}

/// The `playbanned` refusal for `name` now, read from the store (and the
/// standing noted in the book); `Ok(None)` when nothing is stored.
pub async fn barred_in_store(
    m: &Moderation,
    store: &dyn Store,
    name: &str,
) -> Result<Option<ErrorBody>, tengen_store::StoreError> {
    let Some(standing) = store.standing(name).await? else {
        return Ok(None);
    };
    let refusal = playban::refusal(&standing.playban, unix_ms());
    m.book.set(standing);
    Ok(refusal)
}

/// The wait `name` serves now, as `logged_in` shows it (from the book,
/// which the login just filled).
pub fn shown(book: &Book, name: &str) -> Option<tengen_protocol::Playban> {
    let standing = book.get(name)?;
    let now = unix_ms();
    let refusal = playban::refusal(&standing.playban, now)?;
    Some(tengen_protocol::Playban {
        until_ms: standing.playban.until_ms,
        remaining_ms: playban::remaining_ms(&standing.playban, now),
        message: refusal.message,
    })
}
