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
//! and the status line says what is happening meanwhile. Keys that send
//! are refused with a word while the link is down (the player retries once
//! it is back; nothing is queued behind their back).
//!
//! A rematch: `rematch_started` names the new table, whose snapshot then
//! replaces the view (the players are subscribed to it; a spectator asks
//! with `watch`).

use std::time::{Duration, Instant};

use anyhow::Result;
use crossterm::event::{Event, EventStream, KeyEventKind};
use futures_util::StreamExt;
use tengen_client::view::{TableView, Update, ViewError};
use tengen_client::{Delivery, Session};
use tengen_protocol::{ClientMsg, ServerMsg};
use tengen_rules::game::GameResult;

use super::Terminal;
use super::around::{Around, Link};
use super::input::{Command, Local};
use super::ui::{self, Extra};

/// How often the screen is redrawn when nothing happens.
const TICK: Duration = Duration::from_millis(100);
/// How often an application ping keeps a quiet connection alive (the
/// server closes one idle for a minute).
const KEEPALIVE: Duration = Duration::from_secs(20);

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
            Delivery::Rewatched { .. } => self.status = "back at the table".into(),
            Delivery::TableLost { error, .. } => {
                self.status = format!("the table is gone: {}", error.message)
            }
        }
    }
}

/// Runs the board until the player quits; returns the result if the game
/// (the last one, after rematches) ended meanwhile.
pub async fn run(
    terminal: &mut Terminal,
    mut session: Session,
    view: TableView,
) -> Result<Option<GameResult>> {
    let mut b = Board {
        local: Local::new(view.board().size()),
        view,
        around: Around::default(),
        status: String::new(),
    };
    let mut events = EventStream::new();
    let mut tick = tokio::time::interval(TICK);
    let mut keepalive = tokio::time::interval(KEEPALIVE);
    keepalive.tick().await;
    loop {
        let extra = Extra {
            status: &b.status,
            around: &b.around,
        };
        terminal.draw(|f| ui::draw(f, &b.view, &b.local, &extra, Instant::now()))?;
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
    Ok(b.view.result().cloned())
}
