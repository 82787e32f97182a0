//! `tengen lobby`: the server's rooms and live games, kept up to date.
//!
//! On a terminal it is a live list (`lobby_subscribe`, then the coalesced
//! `lobby_update`s applied as the protocol says: removed, changed, added);
//! Enter joins a waiting room or watches a game, on the same connection.
//! When standard output is not a terminal (a pipe, a script, a test) it
//! prints plain lines instead: `--once` prints the list and exits,
//! otherwise the list is printed again after every update.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Result, bail};
use crossterm::event::{Event, EventStream, KeyCode, KeyEventKind, KeyModifiers};
use futures_util::StreamExt;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color as Tint, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use tengen_client::{ClientError, Connection};
use tengen_protocol::{ClientMsg, LobbyUpdate, RoomInfo, RoomStatus, ServerMsg};

use crate::describe;
use crate::net::{self, ServerArgs};
use crate::play::{self, Screen};

/// List rooms and live games, refreshed live.
#[derive(clap::Args)]
#[command(long_about = "\
Rooms waiting for a player and games being played, refreshed live. On a
terminal: arrows (or j/k) select, Enter joins a waiting room or watches a
game, q quits. Otherwise (a pipe, a script) plain lines, one per room:

    ROOM          STATUS   PLAYERS              SPEC  RULES                      TABLE
    5yemhr9vx07jb waiting  alice vs -              0  renju free 10+5 claim      -

--once prints the list once and exits.
")]
pub struct LobbyArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// Print the list once and exit.
    #[arg(long)]
    pub once: bool,
}

pub async fn run(args: &LobbyArgs) -> Result<ExitCode> {
    let mut h = args.server.hello().await?;
    let conn = &mut h.conn;
    let tty = std::io::stdout().is_terminal();
    if args.once || !tty {
        return plain(conn, args.once).await;
    }
    let mut rooms = match conn.request(ClientMsg::LobbySubscribe).await? {
        ServerMsg::Rooms { rooms, .. } => rooms,
        other => bail!("unexpected reply {}", other.type_name()),
    };
    let mut screen = Screen::open()?;
    let choice = browse(&mut screen, conn, &mut rooms).await?;
    let view = match choice {
        None => return Ok(ExitCode::SUCCESS),
        Some(room) => {
            let _ = conn.send(ClientMsg::LobbyUnsubscribe).await;
            match (&room.status, &room.table) {
                (RoomStatus::Waiting, _) => net::join_room(conn, room.room.as_str()).await?,
                (_, Some(table)) => net::watch(conn, table).await?,
                _ => return Ok(ExitCode::SUCCESS),
            }
        }
    };
    let keep = view.seat().map(|_| args.server.server.clone());
    let session = args.server.session(h, &view);
    let mut keys = EventStream::new();
    let result = play::app::run(
        &mut screen.terminal,
        &mut keys,
        session,
        view,
        play::app::Keeper::new(keep),
        &mut |_| {},
    )
    .await?;
    drop(screen);
    if let Some(r) = result {
        println!("result: {}", r.describe());
    }
    Ok(ExitCode::SUCCESS)
}

/// Plain output: the list, then (unless `once`) the list again after each
/// update.
async fn plain(conn: &mut Connection, once: bool) -> Result<ExitCode> {
    let request = if once {
        ClientMsg::ListRooms
    } else {
        ClientMsg::LobbySubscribe
    };
    let mut rooms = match conn.request(request).await? {
        ServerMsg::Rooms { rooms, .. } => rooms,
        other => bail!("unexpected reply {}", other.type_name()),
    };
    print_rooms(&rooms)?;
    if once {
        return Ok(ExitCode::SUCCESS);
    }
    loop {
        if let ServerMsg::LobbyUpdate(u) = net::next(conn).await?.msg {
            apply(&mut rooms, u);
            println!();
            print_rooms(&rooms)?;
        }
    }
}

fn print_rooms(rooms: &[RoomInfo]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", header())?;
    for r in sorted(rooms) {
        writeln!(out, "{}", row(r))?;
    }
    if rooms.is_empty() {
        writeln!(out, "(no rooms)")?;
    }
    out.flush()?;
    Ok(())
}

/// Applies an update as the protocol says: removed, then changed, then
/// added.
pub fn apply(rooms: &mut Vec<RoomInfo>, u: LobbyUpdate) {
    rooms.retain(|r| !u.removed.contains(&r.room));
    for c in u.changed {
        match rooms.iter_mut().find(|r| r.room == c.room) {
            Some(r) => *r = c,
            None => rooms.push(c),
        }
    }
    rooms.extend(u.added);
}

/// Waiting rooms first, then live games by spectators, then finished ones.
pub fn sorted(rooms: &[RoomInfo]) -> Vec<&RoomInfo> {
    let rank = |s: &RoomStatus| match s {
        RoomStatus::Waiting => 0,
        RoomStatus::Playing => 1,
        _ => 2,
    };
    let mut v: Vec<&RoomInfo> = rooms.iter().collect();
    v.sort_by_key(|r| (rank(&r.status), std::cmp::Reverse(r.spectators)));
    v
}

pub fn header() -> String {
    format!(
        "{:<13} {:<8} {:<20} {:>4}  {:<26} TABLE",
        "ROOM", "STATUS", "PLAYERS", "SPEC", "RULES"
    )
}

pub fn row(r: &RoomInfo) -> String {
    let name = |p: Option<&tengen_protocol::Player>| p.map_or("-".into(), describe::shown);
    let players = format!(
        "{} vs {}",
        name(r.players.first.as_ref()),
        name(r.players.second.as_ref())
    );
    let status = match r.status {
        RoomStatus::Waiting => "waiting",
        RoomStatus::Playing => "playing",
        _ => "finished",
    };
    let table = r.table.as_ref().map_or("-".into(), |t| t.to_string());
    let rules = describe::config(&r.config);
    let name = r
        .name
        .as_ref()
        .map_or(String::new(), |n| format!("  \"{n}\""));
    format!(
        "{:<13} {:<8} {:<20.20} {:>4}  {:<26} {table}{name}",
        r.room.as_str(),
        status,
        players,
        r.spectators,
        rules
    )
}

/// The live list until the player picks a room (`Some`) or quits.
async fn browse(
    screen: &mut Screen,
    conn: &mut Connection,
    rooms: &mut Vec<RoomInfo>,
) -> Result<Option<RoomInfo>> {
    let mut events = EventStream::new();
    let mut selected = 0usize;
    let mut status = String::new();
    let mut keepalive = tokio::time::interval(Duration::from_secs(20));
    loop {
        let list = sorted(rooms);
        selected = selected.min(list.len().saturating_sub(1));
        let draw = screen.terminal.draw(|f| {
            let [head, body, foot] = Layout::vertical([
                Constraint::Length(2),
                Constraint::Min(1),
                Constraint::Length(1),
            ])
            .areas(f.area());
            f.render_widget(
                Paragraph::new(vec![
                    Line::styled(
                        format!("Tengen lobby: {} rooms", list.len()),
                        Style::default().add_modifier(Modifier::BOLD),
                    ),
                    Line::styled(header(), Style::default().fg(Tint::DarkGray)),
                ]),
                head,
            );
            let lines: Vec<Line> = list
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    let style = if i == selected {
                        Style::default().add_modifier(Modifier::REVERSED)
                    } else {
                        Style::default()
                    };
                    Line::styled(row(r), style)
                })
                .collect();
            f.render_widget(Paragraph::new(lines), body);
            let help = if status.is_empty() {
                "↑↓/jk select   Enter join (waiting) or watch (playing)   q quit"
            } else {
                status.as_str()
            };
            f.render_widget(
                Paragraph::new(Line::styled(help, Style::default().fg(Tint::DarkGray))),
                foot,
            );
        });
        drop(list);
        draw?;
        tokio::select! {
            frame = conn.next() => match frame {
                Ok(f) => if let ServerMsg::LobbyUpdate(u) = f.msg { apply(rooms, u) },
                Err(ClientError::Timeout(_)) => {}
                Err(e) => return Err(e.into()),
            },
            ev = events.next() => match ev {
                Some(Ok(Event::Key(k))) if k.kind == KeyEventKind::Press => match k.code {
                    KeyCode::Char('q') | KeyCode::Esc => return Ok(None),
                    KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => {
                        return Ok(None)
                    }
                    KeyCode::Up | KeyCode::Char('k') => selected = selected.saturating_sub(1),
                    KeyCode::Down | KeyCode::Char('j') => selected += 1,
                    KeyCode::Enter => match sorted(rooms).get(selected) {
                        Some(r) if r.status == RoomStatus::Waiting || r.table.is_some() => {
                            return Ok(Some((*r).clone()))
                        }
                        _ => status = "nothing to join or watch there".into(),
                    },
                    _ => {}
                },
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(e.into()),
                None => return Ok(None),
            },
            _ = keepalive.tick() => { conn.send(ClientMsg::Ping).await?; }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_protocol::{Player, Players, RoomId, TableId};
    use tengen_rules::game::{GameConfig, RuleSet};

    fn room(id: u64, status: RoomStatus, spectators: u32) -> RoomInfo {
        RoomInfo {
            rated: false,
            room: RoomId::from_u64(id),
            name: None,
            config: GameConfig::new(RuleSet::Renju),
            players: Players {
                first: Some(Player {
                    name: "ann".into(),
                    guest: true,
                    bot: false,
                }),
                second: None,
            },
            status,
            table: (status != RoomStatus::Waiting).then(|| TableId::from_u64(id + 100)),
            chat: true,
            spectators,
        }
    }

    #[test]
    fn updates_apply_removed_then_changed_then_added() {
        let mut rooms = vec![
            room(1, RoomStatus::Waiting, 0),
            room(2, RoomStatus::Waiting, 0),
        ];
        apply(
            &mut rooms,
            LobbyUpdate {
                added: vec![room(3, RoomStatus::Waiting, 0)],
                changed: vec![room(2, RoomStatus::Playing, 4)],
                removed: vec![RoomId::from_u64(1)],
            },
        );
        let ids: Vec<_> = rooms.iter().map(|r| r.room.clone()).collect();
        assert_eq!(ids, [RoomId::from_u64(2), RoomId::from_u64(3)]);
        assert_eq!(rooms[0].status, RoomStatus::Playing);
        // Waiting rooms first, then live games by spectators.
        rooms.push(room(4, RoomStatus::Playing, 9));
        let order: Vec<_> = sorted(&rooms).iter().map(|r| r.room.clone()).collect();
        assert_eq!(
            order,
            [
                RoomId::from_u64(3),
                RoomId::from_u64(4),
                RoomId::from_u64(2)
            ]
        );
    }

    #[test]
    fn a_row_reads_like_the_header() {
        let r = room(2, RoomStatus::Playing, 4);
        let line = row(&r);
        assert!(line.starts_with(r.room.as_str()), "{line}");
        assert!(line.contains(" playing  ann vs -"), "{line}");
        assert!(line.contains("renju free unlimited claim"), "{line}");
        assert!(line.ends_with(TableId::from_u64(102).as_str()), "{line}");
        assert_eq!(header().find("RULES"), line.find("renju"));
    }
}
