//! `tengen queue RULESET TIMECONTROL`: wait in the rated queue, showing the
//! wait, and open the board when the matchmaker pairs us.
//!
//! Why a screen of its own while waiting: the wait can last minutes, the
//! player wants to see that something is happening (the time waited) and
//! to leave with one key (`q`, Esc or Ctrl-C: `unqueue`, then exit 0). The
//! same terminal and key stream then carry the board, so there is no flash
//! back to the shell between the match and the game.
//!
//! A dropped connection while waiting: the server takes us out of the
//! queue with the connection; once the session is back we queue again (or,
//! if we were paired meanwhile, the game's table comes with the resumed
//! session and the board opens on it).

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use crossterm::event::{Event, EventStream, KeyCode, KeyEventKind, KeyModifiers};
use futures_util::StreamExt;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color as Tint, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use crate::describe;
use crate::games::print_result;
use crate::net::ServerArgs;
use crate::play::{Screen, app};
use crate::spec::QueueSpec;
use crate::wait::{Ask, News, Waiter};

/// Wait for a rated opponent, then play.
#[derive(clap::Args)]
#[command(long_about = "\
Wait in the rated queue for an opponent for a game of RULESET and
TIMECONTROL (read as `tengen create --time` reads it), showing how long
you have waited; when the matchmaker pairs you, the board opens on the
game. q, Esc or Ctrl-C leaves the queue.

The queue is for accounts: `tengen register NAME` or `tengen login NAME`
first. Players wait per exact game: the opening, forbidden-move handling
and board size options must match too (each defaults to the rule set's
own). The matchmaker pairs close ratings first, widening the allowed gap
the longer you wait. Bot accounts are paired with you only if you say
--bots.

Examples:
    tengen queue renju 10+5
    tengen queue gomoku 5+3
    tengen queue renju 5+3 --opening rif --forbidden block
    tengen queue freestyle 3+2 --bots
")]
pub struct QueueArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    #[command(flatten)]
    pub game: QueueSpec,
    /// Accept a bot account as your opponent (without it the matchmaker
    /// never pairs you with one).
    #[arg(long)]
    pub bots: bool,
}

pub async fn run(args: &QueueArgs) -> Result<ExitCode> {
    let config = args.game.config()?;
    let url = &args.server.server;
    if crate::config::login(url)?.is_none() {
        bail!(
            "the rated queue is for accounts: `tengen register NAME` or `tengen login NAME` \
             first (you are not logged in on {url})"
        );
    }
    if !std::io::stdout().is_terminal() {
        bail!(
            "`tengen queue` opens the board when matched, which needs a terminal \
             (`tengen bot --queue` plays by itself)"
        );
    }
    let (mut session, welcome) = args.server.session_hello().await?;
    if welcome.player.guest {
        bail!("the rated queue is for accounts: log in again (`tengen login NAME`)");
    }
    let (mut waiter, mut news) =
        Waiter::start(&mut session, Ask::Queue(config.clone(), args.bots)).await?;
    let game = describe::config(&config);
    let mut screen = Screen::open()?;
    let mut keys = EventStream::new();
    let since = Instant::now();
    let mut status = String::new();
    let mut tick = tokio::time::interval(Duration::from_millis(250));
    let view = loop {
        match news.take() {
            Some(News::Queued) => status = "in the queue".into(),
            Some(News::Matched { opponent, .. }) => {
                status = format!(
                    "matched with {}: opening the board",
                    crate::describe::shown(&opponent)
                )
            }
            Some(News::Lost) => status = "connection lost: reconnecting...".into(),
            Some(News::Back) => status = "reconnected".into(),
            Some(News::Room(_) | News::Challenged { .. } | News::Entered) | None => {}
        }
        if let Some(view) = waiter.started.take() {
            break view;
        }
        let waited = since.elapsed();
        screen
            .terminal
            .draw(|f| draw(f, &welcome.player.name, &game, waited, &status))?;
        tokio::select! {
            n = waiter.step(&mut session) => news = n?,
            ev = keys.next() => match ev {
                Some(Ok(Event::Key(k))) if k.kind == KeyEventKind::Press && leaves(k) => {
                    waiter.cancel(&mut session).await?;
                    let _ = session.close().await;
                    drop(screen);
                    println!("left the queue after {}", minutes(waited));
                    return Ok(ExitCode::SUCCESS);
                }
                Some(Err(e)) => return Err(e.into()),
                None => bail!("the terminal went away"),
                _ => {}
            },
            _ = tick.tick() => {}
        }
    };
    let keeper = app::Keeper::new(Some(url.clone()));
    let result = app::run(
        &mut screen.terminal,
        &mut keys,
        session,
        view,
        keeper,
        &mut |_| {},
    )
    .await?;
    drop(screen);
    print_result(result.as_ref(), true);
    Ok(ExitCode::SUCCESS)
}

/// `m:ss`.
fn minutes(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

/// q, Esc or Ctrl-C.
fn leaves(k: crossterm::event::KeyEvent) -> bool {
    matches!(k.code, KeyCode::Char('q') | KeyCode::Esc)
        || (k.modifiers.contains(KeyModifiers::CONTROL) && k.code == KeyCode::Char('c'))
}

/// The waiting screen.
pub fn draw(f: &mut Frame, me: &str, game: &str, waited: Duration, status: &str) {
    let [body, _] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(f.area());
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let grey = Style::default().fg(Tint::DarkGray);
    let lines = vec![
        Line::styled("Tengen: rated queue", bold),
        Line::default(),
        Line::raw(format!("{me}, waiting for an opponent for {game}")),
        Line::styled(format!("waited {}", minutes(waited)), bold.fg(Tint::Yellow)),
        Line::raw(status.to_string()),
        Line::default(),
        Line::styled("q leaves the queue", grey),
    ];
    f.render_widget(Paragraph::new(lines), body);
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    #[test]
    fn the_waiting_screen_shows_the_game_and_the_wait() {
        let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
        term.draw(|f| {
            draw(
                f,
                "alice",
                "renju free 10+5 claim",
                Duration::from_millis(77_400),
                "in the queue",
            )
        })
        .unwrap();
        let buf = term.backend().buffer().clone();
        let text: Vec<String> = (0..24)
            .map(|y| (0..80).map(|x| buf[(x, y)].symbol().to_string()).collect())
            .collect();
        let all = text.join("\n");
        assert!(
            all.contains("alice, waiting for an opponent for renju free 10+5 claim"),
            "{all}"
        );
        assert!(all.contains("waited 1:17"), "{all}");
        assert!(all.contains("in the queue"), "{all}");
        assert!(all.contains("q leaves the queue"), "{all}");
    }
}
