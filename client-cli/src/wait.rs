//! Getting to a game on a [`Session`]: create a room and wait for an
//! opponent, join a room, wait in the rated queue until the matchmaker
//! pairs us, challenge a player by name, or accept the next challenge —
//! surviving dropped connections on the way.
//!
//! Why a step-by-step value and not one `async fn`: the caller selects
//! over the wait and other things (Ctrl-C, `q`, a clock showing the wait),
//! and must be able to withdraw cleanly (`cancel_room`, `unqueue`) with
//! what the wait knows (the room id). [`Waiter::step`] handles one delivery
//! of the session and can be dropped in a `select!` between deliveries.
//!
//! A dropped connection: the session reconnects by itself. The server
//! cancels a waiting room whose creator's connection ended, and takes a
//! player out of the queue likewise, so once back the waiter asks again (a
//! new room, whose id it announces; the queue again) — unless the game
//! started meanwhile: then `welcome.tables` names its table, the session
//! watches it, and its snapshot starts the game as usual.

use std::time::Instant;

use anyhow::{Result, bail};
use tengen_client::view::TableView;
use tengen_client::{ClientError, Delivery, Session, SessionError};
use tengen_protocol::{ClientMsg, ErrorCode, Player, RoomId, ServerMsg, TableId, TournamentView};
use tengen_rules::game::GameConfig;

use crate::net::session_error;

/// What to ask for.
#[derive(Clone, Debug)]
pub enum Ask {
    /// Create a room (`create_room`) and wait for an opponent.
    Create(ClientMsg),
    /// Join this room.
    Join(RoomId),
    /// Wait in the rated queue for this configuration (`true`: a person
    /// who accepts a bot opponent).
    Queue(GameConfig, bool),
    /// Wait for a tournament's next game, entering the tournament first
    /// (already entered, or started, is no error: the request also tells
    /// a server of several nodes which connection to seat us through).
    /// The server seats us and pushes `matched`, then the table's
    /// snapshot.
    Tournament(String),
    /// Challenge a player by name (a `challenge` message) and wait for
    /// them to join the private room it makes.
    Challenge(ClientMsg),
    /// Wait for a challenge by name and accept the first (`join_room`):
    /// the server has already refused those outside a bot's filters.
    Accept,
}

/// What happened while waiting, for the caller to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum News {
    /// Our room exists (again, after a lost connection: a new id).
    Room(RoomId),
    /// We are in the queue (again, after a lost connection).
    Queued,
    /// The matchmaker paired us with `opponent`; the table follows.
    Matched { opponent: Player, table: TableId },
    /// The connection dropped; the session is reconnecting.
    Lost,
    /// Connected again.
    Back,
    /// `from` challenged us (`rated` or not); we join its room.
    Challenged { from: Player, rated: bool },
    /// We entered the tournament.
    Entered,
}

/// A wait under way.
pub struct Waiter {
    ask: Ask,
    room: Option<RoomId>,
    queued: bool,
    /// The game, once its snapshot came.
    pub started: Option<TableView>,
    /// A tournament wait: the event as last seen (it is watched while we
    /// wait), for the caller to tell when no game will come.
    pub tournament: Option<Box<TournamentView>>,
}

impl Waiter {
    /// Sends the request; returns the first news (`Room`, `Queued`, or none
    /// for a join).
    pub async fn start(session: &mut Session, ask: Ask) -> Result<(Waiter, Option<News>)> {
        let mut w = Waiter {
            ask,
            room: None,
            queued: false,
            started: None,
            tournament: None,
        };
        let news = w.ask(session).await?;
        Ok((w, news))
    }

    async fn ask(&mut self, session: &mut Session) -> Result<Option<News>> {
        let msg = match &self.ask {
            Ask::Create(m) | Ask::Challenge(m) => m.clone(),
            Ask::Accept => return Ok(None),
            Ask::Tournament(id) => {
                let join = ClientMsg::JoinTournament {
                    tournament: id.clone(),
                };
                let news = match session.request(join).await {
                    Ok(_) => Some(News::Entered),
                    Err(SessionError::Client(ClientError::Refused(b)))
                        if matches!(
                            b.code,
                            ErrorCode::AlreadyJoined | ErrorCode::TournamentClosed
                        ) =>
                    {
                        None
                    }
                    Err(e) => bail!("cannot enter tournament {id}: {}", session_error(&e)),
                };
                // Watched while we wait: its updates tell when it is over.
                let watch = ClientMsg::WatchTournament {
                    tournament: id.clone(),
                };
                if let Ok(ServerMsg::TournamentInfo { tournament }) = session.request(watch).await {
                    self.tournament = Some(tournament);
                }
                return Ok(news);
            }
            Ask::Join(room) => ClientMsg::JoinRoom { room: room.clone() },
            Ask::Queue(config, bots) => ClientMsg::Queue {
                config: config.clone(),
                bots: *bots,
            },
        };
        let reply = session
            .request(msg)
            .await
            .map_err(|e| anyhow::anyhow!(session_error(&e)));
        let reply = match (&self.ask, reply) {
            (Ask::Join(room), Err(e)) => return Err(e.context(format!("cannot join room {room}"))),
            (_, r) => r?,
        };
        Ok(match reply {
            ServerMsg::RoomCreated { room, .. } => {
                self.room = Some(room.clone());
                Some(News::Room(room))
            }
            ServerMsg::Queued { .. } => {
                self.queued = true;
                Some(News::Queued)
            }
            ServerMsg::Joined { .. } => None,
            other => bail!("unexpected reply {}", other.type_name()),
        })
    }

    /// Waits for the next delivery and takes it; `Some` news to show. When
    /// the game has started, [`Waiter::started`] holds its view.
    pub async fn step(&mut self, session: &mut Session) -> Result<Option<News>> {
        let d = session
            .next()
            .await
            .map_err(|e| anyhow::anyhow!(session_error(&e)))?;
        match d {
            Delivery::Frame(frame) => match frame.msg {
                ServerMsg::TableSnapshot(s) if s.seat.is_some() => {
                    session.follow(s.table.clone(), s.seq);
                    self.started = Some(TableView::new(&s, Instant::now())?);
                    Ok(None)
                }
                ServerMsg::RoomCancelled { room, reason } if self.room.as_ref() == Some(&room) => {
                    bail!("room {room} was cancelled by the server ({reason:?})")
                }
                ServerMsg::Matched {
                    opponent, table, ..
                } => Ok(Some(News::Matched { opponent, table })),
                ServerMsg::TournamentUpdate { tournament } if matches!(&self.ask, Ask::Tournament(id) if *id == tournament.summary.id) =>
                {
                    self.tournament = Some(tournament);
                    Ok(None)
                }
                ServerMsg::Challenged {
                    room, from, rated, ..
                } if matches!(self.ask, Ask::Accept) => {
                    // Taken already (a game started, the challenger left):
                    // wait for the next.
                    let join = ClientMsg::JoinRoom { room };
                    match session.request(join).await {
                        Ok(_) => Ok(Some(News::Challenged { from, rated })),
                        Err(e) => {
                            eprintln!(
                                "cannot accept {}'s challenge: {}",
                                from.name,
                                session_error(&e)
                            );
                            Ok(None)
                        }
                    }
                }
                ServerMsg::Unqueued if frame.id.is_none() && self.queued => {
                    bail!("the server took us out of the queue (seated elsewhere meanwhile?)")
                }
                _ => Ok(None),
            },
            Delivery::Lost { .. } => Ok(Some(News::Lost)),
            Delivery::Reconnected { .. } => {
                if session.welcome().tables.is_empty() {
                    // Nothing started meanwhile, and the server forgot the
                    // room (or the queue entry) with the old connection.
                    self.room = None;
                    self.queued = false;
                    if let Some(news) = self.ask(session).await? {
                        return Ok(Some(news));
                    }
                }
                Ok(Some(News::Back))
            }
            Delivery::Rewatched { .. } | Delivery::TableLost { .. } => Ok(None),
        }
    }

    /// Withdraws: cancels the room or leaves the queue (a join has nothing
    /// to withdraw).
    pub async fn cancel(&self, session: &mut Session) -> Result<()> {
        let msg = match (&self.ask, &self.room) {
            (Ask::Create(_), Some(room)) => ClientMsg::CancelRoom { room: room.clone() },
            (Ask::Queue(..), _) if self.queued => ClientMsg::Unqueue,
            _ => return Ok(()),
        };
        session
            .request(msg)
            .await
            .map_err(|e| anyhow::anyhow!(session_error(&e)))?;
        Ok(())
    }
}
