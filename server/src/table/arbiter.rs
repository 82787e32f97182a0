//! A moderator's word at a table: abort its game (unrated, result
//! `arbiter`), and, when the room is closed, send everyone away. The
//! referee records the abort like any input (`Game::declare_arbiter_abort`),
//! through the table's one finish path: persisted, then broadcast, then
//! stored as a finished game with no rating change. The moderator's role
//! was checked where the request came from (the lobby or the moderation
//! task); no client's message becomes this request.

use std::time::Instant;

use tengen_protocol::{Envelope, ErrorBody, ErrorCode, RequestId, ServerMsg};
use tengen_rules::game::GameError;

use super::Table;
use crate::outbound::Outbox;

impl Table {
    /// Aborts the game for a moderator (`reason`), answering `id` on
    /// `outbox` with `moderated` (or the refusal: the game is over, or the
    /// store cannot take the abort now). `close_room`: the room is being
    /// closed: the game is ended if it runs (no refusal when it is over),
    /// everyone gets `room_closed`, and the table closes now.
    pub(super) async fn arbiter(
        &mut self,
        outbox: &Outbox,
        id: Option<RequestId>,
        reason: String,
        close_room: bool,
    ) {
        let aborted = self.arbiter_abort().await;
        match &aborted {
            Ok(()) => {
                tracing::info!(table = %self.id, %reason, "aborted by a moderator");
                self.send_to_all(&Envelope::push(ServerMsg::GameAborted {
                    table: self.id.clone(),
                    reason: reason.clone(),
                }));
            }
            Err(body) if !close_room => {
                outbox.refuse_with(id, body.clone());
                return;
            }
            Err(_) => {}
        }
        if close_room {
            self.send_to_all(&Envelope::push(ServerMsg::RoomClosed {
                room: self.meta.room.clone(),
                reason,
            }));
            self.timers.close_at = Some(Instant::now());
            return;
        }
        outbox.send_msg(&Envelope::with_id(
            id,
            ServerMsg::Moderated {
                action: "abort_game".into(),
                target: self.id.to_string(),
            },
        ));
    }

    /// Ends the running game as aborted by an arbiter: a flag already due
    /// falls first (and then the game is over).
    async fn arbiter_abort(&mut self) -> Result<(), ErrorBody> {
        if self.game.is_over() {
            return Err(ErrorBody::game(GameError::GameOver));
        }
        let ms = self.now_ms(Instant::now());
        let due = self.tick_guarded(ms);
        if !due.is_empty() {
            self.persist().await.map_err(|_| unsaved())?;
            self.broadcast(due, ms);
        }
        let events = match self.game.declare_arbiter_abort(ms) {
            Ok(events) => events,
            Err(GameError::TimeUp { .. }) => {
                // The flag, within its lag grace a moment ago, falls now.
                let flag = self.game.tick(ms);
                self.persist().await.map_err(|_| unsaved())?;
                self.broadcast(flag, ms);
                return Err(ErrorBody::game(GameError::GameOver));
            }
            Err(e) => return Err(ErrorBody::game(e)),
        };
        self.persist().await.map_err(|_| unsaved())?;
        self.broadcast(events, ms);
        Ok(())
    }
}

fn unsaved() -> ErrorBody {
    ErrorBody::new(
        ErrorCode::Unavailable,
        "the server cannot save the game now; nothing was done, try again",
    )
}
