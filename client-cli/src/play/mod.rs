//! The interactive board (`tengen create`, `join`, `play ROOM`, `watch`).
//!
//! Split by concern so each part can be tested alone: [`input`] maps keys
//! to actions for the prompt at hand, [`ui`] (with [`board`]) draws a
//! `TableView` into a ratatui frame, [`around`] keeps what the table's
//! event log does not carry (players' connections, rematch offers), and
//! [`app`] is the event loop that joins them to the session (which
//! reconnects by itself) and the terminal.

pub mod app;
pub mod around;
pub mod board;
pub mod input;
pub mod ui;

#[cfg(test)]
mod twin_tests;

use anyhow::{Context, Result, bail};
use ratatui::DefaultTerminal;
use tengen_client::Session;
use tengen_client::view::TableView;
use tengen_rules::game::GameResult;

pub type Terminal = DefaultTerminal;

/// The terminal in raw mode on the alternate screen, given back to the
/// shell when dropped (also on an error; ratatui's panic hook covers
/// panics).
pub struct Screen {
    pub terminal: Terminal,
}

impl Screen {
    pub fn open() -> Result<Screen> {
        need_terminal()?;
        let terminal = ratatui::try_init().context("cannot take over the terminal")?;
        Ok(Screen { terminal })
    }
}

/// Refuses, before anything is asked of the server, a command that draws
/// on the terminal when standard input or output is not one (a pipe, a
/// service, a script): it would have nothing to draw on nor keys to read.
pub fn need_terminal() -> Result<()> {
    use std::io::IsTerminal;
    if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
        return Ok(());
    }
    bail!(
        "this command draws the board and reads keys, so it needs a terminal \
         (standard input and output are not one); without one, `tengen bot` plays, \
         `tengen lobby --once` lists the games and `tengen record` prints one"
    )
}

impl Drop for Screen {
    fn drop(&mut self) {
        ratatui::restore();
    }
}

/// Opens the board on `view` until the player quits; returns the result if
/// the game ended. `keep`: the server whose game file keeps this game's
/// resume token while it runs (`tengen play` picks it up).
pub async fn board(
    session: Session,
    view: TableView,
    keep: Option<String>,
) -> Result<Option<GameResult>> {
    let mut screen = Screen::open()?;
    let mut keys = crossterm::event::EventStream::new();
    let keeper = app::Keeper::new(keep);
    app::run(
        &mut screen.terminal,
        &mut keys,
        session,
        view,
        keeper,
        &mut |_| {},
    )
    .await
}
