//! The board's event loop: server frames, key presses and a redraw tick,
//! one `tokio::select!` in one task.
//!
//! Why this shape: the connection (`tengen_client::Connection`) is a value
//! owned by one task with no background reader, and its reads can be
//! cancelled without losing a frame, so selecting over "the next frame",
//! "the next terminal event" and "the next tick" needs no threads, locks or
//! channels. Actions are sent without waiting for their reply: the events
//! they cause arrive like anyone else's, and a refusal (an `error` with our
//! request id) lands in the status line. The tick (10 a second) only
//! redraws, so the clocks, counted down from the server's figures, move
//! smoothly.

use std::time::{Duration, Instant};

use anyhow::Result;
use crossterm::event::{Event, EventStream, KeyEventKind};
use futures_util::StreamExt;
use tengen_client::view::TableView;
use tengen_client::{ClientError, Connection};
use tengen_protocol::{ClientMsg, ServerMsg};
use tengen_rules::game::GameResult;

use super::Terminal;
use super::input::{Command, Local};
use super::ui::{self, Extra};
use crate::net;

/// How often the screen is redrawn when nothing happens.
const TICK: Duration = Duration::from_millis(100);
/// How often an application ping keeps a quiet connection alive (the
/// server closes one idle for a minute).
const KEEPALIVE: Duration = Duration::from_secs(20);

/// Runs the board until the player quits; returns the result if the game
/// ended meanwhile.
pub async fn run(
    terminal: &mut Terminal,
    mut conn: Connection,
    mut view: TableView,
) -> Result<Option<GameResult>> {
    let mut local = Local::new(view.board().size());
    let mut status = String::new();
    let mut connected = true;
    let mut events = EventStream::new();
    let mut tick = tokio::time::interval(TICK);
    let mut keepalive = tokio::time::interval(KEEPALIVE);
    keepalive.tick().await;
    loop {
        let extra = Extra {
            status: &status,
            disconnected: !connected,
        };
        terminal.draw(|f| ui::draw(f, &view, &local, &extra, Instant::now()))?;
        tokio::select! {
            frame = conn.next(), if connected => match frame {
                Ok(frame) => {
                    let prompt = view.prompt().cloned();
                    let seq = view.seq();
                    if let ServerMsg::Error(e) = &frame.msg {
                        status = format!("refused: {}", e.message);
                    }
                    if let Err(e) = net::absorb(&mut conn, &mut view, &frame.msg).await {
                        status = format!("{e:#}");
                    }
                    if view.seq() != seq {
                        status.clear();
                    }
                    if view.prompt() != prompt.as_ref() {
                        local.clear();
                    }
                }
                Err(ClientError::Timeout(_)) => {}
                Err(e) => {
                    connected = false;
                    status = e.to_string();
                }
            },
            ev = events.next() => match ev {
                Some(Ok(Event::Key(k))) if k.kind == KeyEventKind::Press => {
                    match local.key(k, &view) {
                        Command::None => status.clear(),
                        Command::Say(s) => status = s,
                        Command::Quit => break,
                        Command::Send(action) if connected => {
                            status.clear();
                            let act = ClientMsg::Act { table: view.table().clone(), action };
                            if let Err(e) = conn.send(act).await {
                                connected = false;
                                status = e.to_string();
                            }
                        }
                        Command::Send(_) => status = "not connected".into(),
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(e.into()),
                None => break,
            },
            _ = tick.tick() => {}
            _ = keepalive.tick(), if connected => {
                if let Err(e) = conn.send(ClientMsg::Ping).await {
                    connected = false;
                    status = e.to_string();
                }
            }
        }
    }
    Ok(view.result().cloned())
}
