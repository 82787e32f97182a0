//! The moderator actions that reach live rooms and games: `close_room`
//! and `abort_game`. Each is checked (the target exists: the room in some
//! node's lobby, the game live in the store), written to the audit log,
//! and then handed to the room's lobby or the game's table, here or on
//! the node that holds it (as a `join_room` or an `act` is routed), which
//! does it and answers the moderator's session itself: `moderated`, or a
//! refusal (the game just ended). `tengen-server admin` reaches the same
//! path through the admin socket ([`through_socket`]), with a session of
//! its own whose answer it waits for.

use std::time::{Duration, Instant};

use tengen_protocol::{
    Encoding, ErrorBody, ErrorCode, ModRequest, Player, RequestId, ServerMsg, SessionId, TableId,
};
use tengen_rules::game::GameError;
use tengen_store::Store;

use super::audit;
use super::wire::News;
use crate::hosting::Hosting;
use crate::msg::lobby::LobbyCmd;
use crate::msg::node::{NodeCmd, NodeHandle};
use crate::msg::table::{TableAsk, TableCmd, TableRequest};
use crate::sessions::Session;

/// How long the admin socket waits for the lobby's or the table's answer.
const ANSWER_WAIT: Duration = Duration::from_secs(10);

/// Whether `req` is one of the actions on live rooms and games.
pub fn reaches_live(req: &ModRequest) -> bool {
    matches!(
        req,
        ModRequest::CloseRoom { .. } | ModRequest::AbortGame { .. }
    )
}

/// What a live action reaches: this node's lobby and tables, and with
/// several nodes this node's actor (the way to the others).
pub struct Reach<'a> {
    pub hosting: &'a Hosting,
    pub node: Option<&'a NodeHandle>,
}

/// Checks, audits (as `by`) and hands on `req`; its owner answers `id` on
/// `session`. A refusal before it is handed on comes back as `Err`.
pub async fn dispatch(
    reach: &Reach<'_>,
    session: Session,
    id: Option<RequestId>,
    by: &str,
    req: ModRequest,
) -> Result<(), ErrorBody> {
    let action = req.action();
    let store = &*reach.hosting.store;
    match req {
        ModRequest::CloseRoom { room, reason } => {
            let (reply, known) = tokio::sync::oneshot::channel();
            let ask = LobbyCmd::Locate {
                room: room.clone(),
                reply,
            };
            if !reach.hosting.lobby.try_send(ask) {
                return Err(busy());
            }
            match tokio::time::timeout(ANSWER_WAIT, known).await {
                Ok(Ok(true)) => {}
                Ok(Ok(false)) => {
                    return Err(refuse(ErrorCode::NotFound, format!("no room {room}")));
                }
                _ => return Err(busy()),
            }
            audit::record(store, by, action, room.as_str(), &reason).await?;
            let close = LobbyCmd::Close {
                session,
                id,
                room,
                reason,
                here_only: false,
            };
            if !reach.hosting.lobby.try_send(close) {
                return Err(busy());
            }
            Ok(())
        }
        ModRequest::AbortGame { table, reason } => {
            let live = store
                .live_table(table.as_str())
                .await
                .map_err(store_failed)?;
            if live.is_none() {
                return Err(
                    match store.game(table.as_str()).await.map_err(store_failed)? {
                        Some(_) => ErrorBody::game(GameError::GameOver),
                        None => refuse(ErrorCode::NotFound, format!("no game {table}")),
                    },
                );
            }
            audit::record(store, by, action, table.as_str(), &reason).await?;
            let ask = TableAsk {
                session,
                id,
                request: TableRequest::Arbiter {
                    reason,
                    close_room: false,
                },
                received: Instant::now(),
                via: None,
            };
            let sent = match (reach.hosting.directory.get(&table), reach.node) {
                (Some(handle), _) => handle.try_send(TableCmd::Request(Box::new(ask))),
                (None, Some(node)) => node.try_send(NodeCmd::Route { table, ask }),
                (None, None) => {
                    let why = format!("game {table} is not running on this server now; try again");
                    return Err(refuse(ErrorCode::Unavailable, why));
                }
            };
            if sent { Ok(()) } else { Err(busy()) }
        }
        other => Err(refuse(
            ErrorCode::BadRequest,
            format!("{} does not reach a live room or game", other.action()),
        )),
    }
}

fn refuse(code: ErrorCode, why: impl Into<String>) -> ErrorBody {
    ErrorBody::new(code, why)
}

fn store_failed(e: tengen_store::StoreError) -> ErrorBody {
    crate::accounts::store_refusal(&e)
}

fn busy() -> ErrorBody {
    refuse(ErrorCode::Unavailable, "the server is busy; try again")
}

/// The live actions for the admin socket: done as a moderator's would be,
/// by `by`, with a session whose one answer is returned.
pub async fn through_socket(h: &Hosting, by: &str, req: ModRequest) -> ServerMsg {
    let conn = crate::outbound::next_conn_id();
    let (outbox, inbox) = crate::outbound::channel(conn, Encoding::Json, 16);
    let session = Session {
        id: SessionId::from_u64(rand::random()),
        player: Player {
            name: by.to_owned(),
            guest: false,
            bot: false,
        },
        outbox: outbox.clone(),
    };
    let reach = Reach {
        hosting: h,
        node: None,
    };
    if let Err(body) = dispatch(&reach, session, None, by, req).await {
        return ServerMsg::Error(body);
    }
    let (tx, mut rx) = tokio::sync::mpsc::channel(16);
    let relay = tokio::spawn(inbox.relay(move |frames| {
        for f in frames {
            let _ = tx.try_send(f);
        }
        true
    }));
    let answer = tokio::time::timeout(ANSWER_WAIT, rx.recv()).await;
    outbox.close(tengen_protocol::CloseCode::Normal);
    relay.abort();
    let text = match answer {
        Ok(Some(crate::outbound::Frame::Text(t))) => t,
        _ => {
            return ServerMsg::Error(refuse(
                ErrorCode::Unavailable,
                "no answer from the server in time; see the audit log",
            ));
        }
    };
    match tengen_protocol::decode_server(text.as_bytes(), Encoding::Json) {
        Ok(frame) => frame.msg,
        Err(e) => ServerMsg::Error(refuse(ErrorCode::Internal, e.to_string())),
    }
}

/// A command of `tengen-server admin --redis` heard on the bus: done here
/// if the room or the table is here (every node hears it; the others
/// leave it). Nobody waits for an answer.
pub fn heard(h: &Hosting, news: &News) {
    let nobody = |by: &str| Session {
        id: SessionId::from_u64(0),
        player: Player {
            name: by.to_owned(),
            guest: false,
            bot: false,
        },
        outbox: crate::outbound::detached(),
    };
    match news {
        News::CloseRoom { room, by, reason } => {
            let Ok(room) = room.parse() else { return };
            let _ = h.lobby.try_send(LobbyCmd::Close {
                session: nobody(by),
                id: None,
                room,
                reason: reason.clone(),
                here_only: true,
            });
        }
        News::AbortGame { table, by, reason } => {
            let Some(handle) = table.parse().ok().and_then(|t| h.directory.get(&t)) else {
                return;
            };
            let _ = handle.try_send(TableCmd::Request(Box::new(TableAsk {
                session: nobody(by),
                id: None,
                request: TableRequest::Arbiter {
                    reason: reason.clone(),
                    close_room: false,
                },
                received: Instant::now(),
                via: None,
            })));
        }
        News::Standing { .. } | News::AddressBans | News::Logout { .. } => {}
    }
}

/// `tengen-server admin --redis` for a live action: checked against the
/// store (a game must be live; a room cannot be checked from here),
/// audited, then published for the node that holds it.
pub async fn by_news(store: &dyn Store, by: &str, req: ModRequest) -> Result<News, ErrorBody> {
    let action = req.action();
    match req {
        ModRequest::CloseRoom { room, reason } => {
            audit::record(store, by, action, room.as_str(), &reason).await?;
            Ok(News::CloseRoom {
                room: room.to_string(),
                by: by.to_owned(),
                reason,
            })
        }
        ModRequest::AbortGame { table, reason } => {
            live_game(store, &table).await?;
            audit::record(store, by, action, table.as_str(), &reason).await?;
            Ok(News::AbortGame {
                table: table.to_string(),
                by: by.to_owned(),
                reason,
            })
        }
        other => Err(refuse(
            ErrorCode::BadRequest,
            format!("{} does not reach a live room or game", other.action()),
        )),
    }
}

/// `Ok` if game `table` runs (its log is live in the store); else the
/// game is over, or there is no such game.
async fn live_game(store: &dyn Store, table: &TableId) -> Result<(), ErrorBody> {
    if store
        .live_table(table.as_str())
        .await
        .map_err(store_failed)?
        .is_some()
    {
        return Ok(());
    }
    Err(
        match store.game(table.as_str()).await.map_err(store_failed)? {
            Some(_) => ErrorBody::game(GameError::GameOver),
            None => refuse(ErrorCode::NotFound, format!("no game {table}")),
        },
    )
}
