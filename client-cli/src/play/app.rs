//! The board's event loop: server deliveries, key presses and a redraw
//! tick, one `tokio::select!` in one task.
//!
//! Why this shape: the session (`tengen_client::Session`) is a value owned
//! by one task with no background reader, and every call on it can be
//! cancelled without losing anything (a reconnection under way included),
//! so selecting over "the next delivery", "the next terminal event" and
//! "the next tick" needs no threads, locks or channels, and the board keeps
//! redrawing while the connection comes back. Actions are sent without
//! waiting for their reply: the events they cause arrive like anyone
//! else's, and a refusal (an `error` with our request id) lands in the
//! status line. The tick (10 a second) only redraws, so the clocks, counted
//! down from the server's figures, and an away player's countdown move
//! smoothly.
//!
//! A dropped connection needs nothing from the player: the session
//! reconnects with the resume token, replays what was missed into the view,
//! and the status line says what is happening meanwhile. Once back at the
//! table the board asks for a snapshot too: replayed events do not carry
//! whether the clocks stand still (after a server restart the restored
//! game waits for both players), and the snapshot does. Keys that send
//! are refused with a word while the link is down (the player retries once
//! it is back; nothing is queued behind their back).
//!
//! A rematch: `rematch_started` names the new table, whose snapshot then
//! replaces the view (the players are subscribed to it; a spectator asks
//! with `watch`).
//!
//! While a player's game runs, the session's resume token is kept on disk
//! ([`Keeper`]), so that a new `tengen play` can take the game up again if
//! this process ends (quit, a closed terminal, a crash); it is forgotten
//! when the game is over.
//!
//! The loop is generic over the ratatui backend and the stream of terminal
//! events, and reports every drawn frame to `on_frame`: the real board
//! runs on crossterm, and the tests run the very same loop on a
//! `TestBackend` with keys they send, reading the screen as it changes.

use std::io;
use std::time::{Duration, Instant};

use anyhow::Result;
use crossterm::event::{Event, KeyEventKind};
use futures_util::{Stream, StreamExt};
use ratatui::backend::Backend;
use ratatui::buffer::Buffer;
use tengen_client::view::{TableView, Update, ViewError};
use tengen_client::{Delivery, Session};
use tengen_protocol::{ClientMsg, ServerMsg, TableId};
use tengen_rules::game::GameResult;

use super::around::{Around, Link};
use super::input::{Command, Local};
use super::ui::{self, Extra};

/// How often the screen is redrawn when nothing happens.
const TICK: Duration = Duration::from_millis(100);
/// How often an application ping keeps a quiet connection alive (the
/// server closes one idle for a minute).
const KEEPALIVE: Duration = Duration::from_secs(20);

/// Keeps the resume token of a player's running game on disk for the
/// server `server` (see `config::Game`), and forgets it once the game is
/// over.
pub struct Keeper {
    server: Option<String>,
    saved: Option<(String, TableId)>,
}

impl Keeper {
    /// Keeps the game of the board for `server`; `None` keeps nothing.
    pub fn new(server: Option<String>) -> Keeper {
        Keeper {
            server,
            saved: None,
        }
    }

    /// Brings the file in line with the board; an error in words.
    fn sync(&mut self, session: &Session, view: &TableView) -> Result<(), String> {
        let Some(server) = &self.server else {
            return Ok(());
        };
        let want = match (session.token(), view.seat()) {
            (Some(token), Some(_)) if !view.is_over() => {
                Some((token.to_string(), view.table().clone()))
            }
            _ => None,
        };
        if want == self.saved {
            return Ok(());
        }
        let r = match &want {
            Some((token, table)) => crate::config::save_game(&crate::config::Game {
                server: server.clone(),
                resume_token: token.clone(),
                table: table.to_string(),
            }),
            None => crate::config::forget_game(server).map(|_| ()),
        };
        self.saved = want;
        r.map_err(|e| format!("{e:#}"))
    }
}

/// The board's state: the table, what surrounds it, the local UI.
struct Board {
    view: TableView,
    around: Around,
    local: Local,
    status: String,
}

impl Board {
    /// Takes one delivery from the session; may send (a snapshot request
    /// after a gap, a `watch` of a spectator's rematch).
    async fn deliver(&mut self, session: &mut Session, d: Delivery) {
        let now = Instant::now();
        match d {
            Delivery::Frame(frame) => {
                let msg = &frame.msg;
                if let ServerMsg::Error(e) = msg {
                    self.status = format!("refused: {}", e.message);
                }
                if let ServerMsg::TableSnapshot(s) = msg
                    && self.around.next_table.as_ref() == Some(&s.table)
                    && let Ok(v) = TableView::new(s, now)
                {
                    session.forget(self.view.table());
                    self.view = v;
                    self.around = self.around.for_next_table();
                    self.local = Local::new(self.view.board().size());
                    self.status = "rematch: a new game".into();
                    return;
                }
                if self.around.handle(msg, self.view.table(), now) {
                    if let ServerMsg::RematchStarted { rematch, .. } = msg
                        && self.view.is_spectator()
                    {
                        let watch = ClientMsg::Watch {
                            table: rematch.clone(),
                            since: None,
                        };
                        let _ = session.send(watch).await;
                    }
                    return;
                }
                let prompt = self.view.prompt().cloned();
                let seq = self.view.seq();
                match self.view.handle(msg, now) {
                    Ok(Update::Event(_)) if self.view.is_over() => {
                        self.around.away = [None, None];
                    }
                    Ok(_) => {}
                    Err(ViewError::Gap { .. } | ViewError::Inconsistent { .. }) => {
                        let table = self.view.table().clone();
                        let _ = session.send(ClientMsg::Snapshot { table }).await;
                    }
                    Err(e) => self.status = e.to_string(),
                }
                if self.view.seq() != seq {
                    self.status.clear();
                }
                if self.view.prompt() != prompt.as_ref() {
                    self.local.clear();
                }
            }
            Delivery::Lost { .. } => self.around.link = Link::Reconnecting,
            Delivery::Reconnected { resumed } => {
                self.around.link = Link::Up;
                self.status = if resumed {
                    "reconnected".into()
                } else {
                    "reconnected, but the server had forgotten us: watching only".into()
                };
            }
            Delivery::Rewatched { table, .. } => {
                self.status = "back at the table".into();
                // Replayed events do not say whether the clocks stand
                // still (a game restored after a server restart waits for
                // both players): the snapshot does.
                if &table == self.view.table() {
                    let _ = session.send(ClientMsg::Snapshot { table }).await;
                }
            }
            Delivery::TableLost { error, .. } => {
                self.status = format!("the table is gone: {}", error.message)
            }
        }
    }
}

/// Runs the board until the player quits; returns the result if the game
/// (the last one, after rematches) ended meanwhile.
pub async fn run<B, K>(
    terminal: &mut ratatui::Terminal<B>,
    events: &mut K,
    mut session: Session,
    view: TableView,
    mut keeper: Keeper,
    on_frame: &mut (dyn FnMut(&Buffer) + Send),
) -> Result<Option<GameResult>>
where
    B: Backend,
    K: Stream<Item = io::Result<Event>> + Unpin,
{
    let mut b = Board {
        local: Local::new(view.board().size()),
        view,
        around: Around::default(),
        status: String::new(),
    };
    let mut tick = tokio::time::interval(TICK);
    let mut keepalive = tokio::time::interval(KEEPALIVE);
    keepalive.tick().await;
    loop {
        if let Err(e) = keeper.sync(&session, &b.view) {
            b.status = format!("cannot keep the game on disk: {e}");
        }
        b.local.absence_claim = b
            .view
            .seat()
            .is_some_and(|me| b.around.claimable(me.other()));
        let extra = Extra {
            status: &b.status,
            around: &b.around,
        };
        let frame = terminal.draw(|f| ui::draw(f, &b.view, &b.local, &extra, Instant::now()))?;
        on_frame(frame.buffer);
        let up = session.is_connected();
        tokio::select! {
            d = session.next(), if !session.is_ended() => match d {
                Ok(d) => b.deliver(&mut session, d).await,
                Err(e) => b.status = e.to_string(),
            },
            ev = events.next() => match ev {
                Some(Ok(Event::Key(k))) if k.kind == KeyEventKind::Press => {
                    let table = b.view.table().clone();
                    let msg = match b.local.key(k, &b.view) {
                        Command::None => {
                            b.status.clear();
                            None
                        }
                        Command::Say(s) => {
                            b.status = s;
                            None
                        }
                        Command::Quit => break,
                        Command::Send(action) => Some(ClientMsg::Act { table, action }),
                        Command::Rematch => Some(ClientMsg::Rematch { table }),
                        Command::ClaimAbsence { draw } => {
                            Some(ClientMsg::ClaimAbsence { table, draw })
                        }
                    };
                    match msg {
                        Some(_) if !up => {
                            b.status = "not connected: try again once reconnected".into();
                        }
                        Some(msg) => {
                            b.status.clear();
                            if let Err(e) = session.send(msg).await {
                                b.status = e.to_string();
                            }
                        }
                        None => {}
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(e.into()),
                None => break,
            },
            _ = tick.tick() => {}
            _ = keepalive.tick(), if up => {
                if let Err(e) = session.send(ClientMsg::Ping).await {
                    b.status = e.to_string();
                }
            }
        }
        if session.is_ended() {
            b.around.link = Link::Gone;
        }
    }
    let _ = keeper.sync(&session, &b.view);
    Ok(b.view.result().cloned())
}

#[cfg(test)]
#[path = "app_tests.rs"]
mod tests;
