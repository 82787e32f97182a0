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

use anyhow::Result;
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
    pub fn open() -> Screen {
        Screen {
            terminal: ratatui::init(),
        }
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        ratatui::restore();
    }
}

/// Opens the board on `view` until the player quits; returns the result if
/// the game ended.
pub async fn board(session: Session, view: TableView) -> Result<Option<GameResult>> {
    let mut screen = Screen::open();
    app::run(&mut screen.terminal, session, view).await
}
