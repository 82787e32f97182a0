//! Drawing the board screen: a pure function of the [`TableView`], the
//! local UI state and the time, into a ratatui `Frame`.
//!
//! Why pure: what a player sees is the part of the client most worth
//! testing, and with no I/O here every screen (each prompt, clocks, offers,
//! forbidden marks, results) is checked on ratatui's `TestBackend` from a
//! view built out of a real game. The clocks are counted down from the
//! server's last figures by `TableView::clock_now(now)`; the caller passes
//! `now` and redraws a few times a second, so they move smoothly and never
//! run on a guess of our own.
//!
//! Layout: the board on the left, the panel on its right (players and
//! clocks, an away player's grace and what follows it (the claim keys once
//! it is open), takeback requests, stopped clocks
//! (`table_paused`) and why, the prompt in words,
//! offers and draw offers, rematch offers, what just happened, the keys),
//! and a status line at the bottom for the server's refusals and hints, and
//! for our own connection while it reconnects. A terminal too narrow for
//! both puts the panel under the board.

use std::time::Instant;

use ratatui::Frame;
use ratatui::layout::{Constraint, Direction, Layout};
use ratatui::style::{Color as Tint, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use tengen_client::view::TableView;
use tengen_protocol::AfterGrace;
use tengen_rules::Color;
use tengen_rules::game::{Seat, Task};

use super::around::{Around, Link};
use super::board;
use super::input::Local;
use crate::describe;

/// Everything the screen shows besides the table itself.
pub struct Extra<'a> {
    /// The status line: the last refusal or hint.
    pub status: &'a str,
    /// The players' connections, rematch offers, our own link.
    pub around: &'a Around,
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, view: &TableView, local: &Local, extra: &Extra, now: Instant) {
    let area = frame.area();
    let [main, status] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(area);
    let n = view.board().size();
    let (mut bw, mut bh) = (board::width(n), board::height(n));
    // Twin rooms: a title row, and both boards when they fit beside the
    // panel (or above it), else the cursor's board alone.
    let twin = view.config().rule_set.boards() == 2;
    let both = twin && main.width >= board::pair_width(n);
    if twin {
        bh += 1;
        if both {
            bw = board::pair_width(n);
        }
    }
    let side_by_side = main.width >= bw + 24;
    let (board_area, panel_area) = if side_by_side {
        let [b, _, p] = Layout::horizontal([
            Constraint::Length(bw),
            Constraint::Length(2),
            Constraint::Min(1),
        ])
        .areas(main);
        (b, p)
    } else {
        let [b, p] = Layout::new(
            Direction::Vertical,
            [Constraint::Length(bh), Constraint::Min(1)],
        )
        .areas(main);
        (b, p)
    };
    frame.render_widget(Paragraph::new(board::lines(view, local, both)), board_area);
    frame.render_widget(
        Paragraph::new(panel(view, local, extra.around, now)).wrap(Wrap { trim: false }),
        panel_area,
    );
    let (text, style) = if extra.around.link == Link::Reconnecting {
        (
            "connection lost: reconnecting... (your clock runs on the server)".to_string(),
            bold().fg(Tint::Yellow),
        )
    } else if extra.around.link == Link::Gone {
        (
            format!("disconnected: {}", extra.status),
            Style::default().fg(Tint::Red),
        )
    } else if extra.status.is_empty() {
        (
            format!("table {}  room {}", view.table(), view.room()),
            Style::default().fg(Tint::DarkGray),
        )
    } else {
        (extra.status.to_string(), Style::default().fg(Tint::Yellow))
    };
    frame.render_widget(Paragraph::new(Line::styled(text, style)), status);
}

fn bold() -> Style {
    Style::default().add_modifier(Modifier::BOLD)
}

/// The panel's lines.
pub fn panel(view: &TableView, local: &Local, around: &Around, now: Instant) -> Vec<Line<'static>> {
    let mut out = vec![Line::styled(
        describe::config(view.config()),
        Style::default().fg(Tint::DarkGray),
    )];
    let clocks = view.clock_now(now);
    let running = describe::running(clocks.as_ref());
    let turn = view.prompt().map(|p| p.seat);
    for seat in [view.black(), view.black().other()] {
        let color = if seat == view.black() {
            Color::Black
        } else {
            Color::White
        };
        let stone = if color == Color::Black {
            board::BLACK
        } else {
            board::WHITE
        };
        let mut name = describe::player_name(view.players(), seat);
        if view.seat() == Some(seat) {
            name.push_str(" (you)");
        }
        let clock = clocks
            .map(|c| describe::clock(c.seat(seat), view.config().time))
            .unwrap_or_default();
        let marker = if turn == Some(seat) { "◀" } else { " " };
        let style = if running == Some(seat) || turn == Some(seat) {
            bold()
        } else {
            Style::default()
        };
        out.push(Line::from(vec![
            Span::styled(format!("{stone} {color:<5} "), style),
            Span::styled(format!("{name:<18.18} "), style),
            Span::styled(format!("{clock:>9} "), style),
            Span::styled(marker, Style::default().fg(Tint::Yellow)),
        ]));
    }
    if !view.is_over() {
        for seat in [view.black(), view.black().other()] {
            out.extend(away_lines(view, around, seat, now));
        }
    }
    if let (Some(p), false) = (view.paused(), view.is_over()) {
        out.push(Line::styled(describe::pause(p), bold().fg(Tint::Yellow)));
    }
    let mut facts = Vec::new();
    if view.spectators() > 0 {
        facts.push(format!("spectators {}", view.spectators()));
    }
    if let Some(code) = &view.opening().canonical {
        facts.push(format!("opening {code}"));
    }
    facts.push(format!("move {}", view.moves().len()));
    out.push(Line::styled(
        facts.join("  "),
        Style::default().fg(Tint::DarkGray),
    ));
    out.push(Line::default());
    out.extend(prompt_lines(view, local));
    out.extend(rematch_lines(view, around));
    if let Some(e) = view.last_event()
        && let Some(text) = describe::event(e, view.players(), view.config().rule_set.boards() > 1)
        && !view.is_over()
    {
        out.push(Line::styled(
            format!("last: {text}"),
            Style::default().fg(Tint::DarkGray),
        ));
    }
    out.push(Line::default());
    out.extend(
        keys(view)
            .into_iter()
            .map(|k| Line::styled(k, Style::default().fg(Tint::DarkGray))),
    );
    out
}

/// An away player's lines: the grace left and what follows it, or, once
/// it is over, what the opponent may do.
fn away_lines(view: &TableView, around: &Around, seat: Seat, now: Instant) -> Vec<Line<'static>> {
    let name = describe::player_name(view.players(), seat);
    let me = view.seat();
    let red = |text: String| Line::styled(text, bold().fg(Tint::Red));
    if around.claimable(seat) {
        return if me == Some(seat.other()) {
            vec![
                red(format!("{name} left: w claims the win, d calls a draw")),
                red("or wait: their clock runs".to_string()),
            ]
        } else {
            vec![red(format!("{name} left: the opponent may claim the win"))]
        };
    }
    let Some(left) = around.away_left(seat, now) else {
        return if around.offline[seat.index()] {
            vec![Line::styled(
                format!("{name} is away (no countdown in correspondence)"),
                Style::default().fg(Tint::Yellow),
            )]
        } else {
            Vec::new()
        };
    };
    let left = describe::duration(left.as_millis() as u64);
    let text = match around.after[seat.index()] {
        Some(AfterGrace::Claim) if me == Some(seat.other()) => {
            format!("{name} away: {left} left, then you may claim")
        }
        Some(AfterGrace::Claim) => format!("{name} is away: {left} to come back"),
        Some(AfterGrace::Abort) => format!("{name} away too: aborted in {left}"),
        Some(AfterGrace::Draw) => format!("{name} away too: drawn in {left}"),
        Some(AfterGrace::Clock) => format!("{name} away too: the clocks decide"),
        _ => format!("{name} is away: loses by abandonment in {left}"),
    };
    vec![red(text)]
}

/// What the referee waits for, in words, and the state of any answer being
/// made here; the result once the game is over.
fn prompt_lines(view: &TableView, local: &Local) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    if let Some(r) = view.result() {
        out.push(Line::styled(
            format!("Game over: {}", r.describe()),
            bold().fg(Tint::Green),
        ));
        return out;
    }
    let Some(prompt) = view.prompt() else {
        return out;
    };
    let name = describe::player_name(view.players(), prompt.seat);
    let head = if view.my_turn() {
        "Your turn: ".to_string()
    } else if view.is_spectator() {
        format!("{name} to play: ")
    } else {
        format!("Waiting for {name}: ")
    };
    let style = if view.my_turn() {
        bold().fg(Tint::Yellow)
    } else {
        Style::default()
    };
    out.push(Line::styled(
        format!("{head}{}", describe::task(prompt)),
        style,
    ));
    if view.my_turn() {
        let hint = match &prompt.task {
            Task::Place { .. } if prompt.stones_left.is_some() => {
                format!(
                    "Enter places it on board {} (Tab/b switches)",
                    local.board + 1
                )
            }
            Task::Place { .. } => "Enter places the stone".to_string(),
            Task::DecideSwap { .. } => "s swaps, n keeps".to_string(),
            Task::DeclareOffers { max } => format!("type 1-{max}: {}_ then Enter", local.digits),
            Task::OfferFifths { count } => {
                format!("Enter marks ({}/{count}), f sends them", local.marked.len())
            }
            Task::KeepFifth { .. } => "Enter on an offer (*) keeps it".to_string(),
            Task::ChooseOption { .. } => "press 1 or 2".to_string(),
            Task::Swap2Choice | Task::SuperSakataChoice { .. } => match local.two {
                None if prompt.task == Task::Swap2Choice => {
                    "Enter: white 4, s: take black, t: two".to_string()
                }
                None => "s swaps, n keeps, t: two stones (white, then black)".to_string(),
                Some(None) => "two stones: Enter on the white one".to_string(),
                Some(Some(w)) => format!("white at {w}: Enter on the black one"),
            },
            _ => String::new(),
        };
        out.push(Line::styled(hint, Style::default().fg(Tint::Yellow)));
    }
    if let Some(offers) = view.pending_fifths() {
        let list: Vec<String> = offers.iter().map(|p| p.to_string()).collect();
        out.push(Line::styled(
            format!("fifth-move offers (*): {}", list.join(" ")),
            Style::default().fg(Tint::Magenta),
        ));
    }
    if !local.marked.is_empty() {
        let list: Vec<String> = local.marked.iter().map(|p| p.to_string()).collect();
        out.push(Line::styled(
            format!("marked (+): {}", list.join(" ")),
            Style::default().fg(Tint::Green),
        ));
    }
    // What a player asks of the other: a draw, then a takeback (`a` and
    // `x` answer the first standing).
    for (by, mine, theirs) in [
        (view.draw_offer(), "you offered a draw", "offers a draw"),
        (
            view.takeback(),
            "you asked to take back your move",
            "asks to take back a move",
        ),
    ] {
        let Some(by) = by else { continue };
        let name = describe::player_name(view.players(), by);
        let text = if view.seat() == Some(by) {
            mine.to_string()
        } else if view.is_spectator() {
            format!("{name} {theirs}")
        } else {
            format!("{name} {theirs}: a accepts, x declines")
        };
        out.push(Line::styled(text, bold().fg(Tint::Magenta)));
    }
    if board::shows_forbidden(view) {
        out.push(Line::styled(
            format!("{} = forbidden for black", board::FORBIDDEN),
            Style::default().fg(Tint::Red),
        ));
    }
    let v = [Seat::First, Seat::Second].map(|s| view.violations(s));
    if v != [0, 0] {
        out.push(Line::raw(format!("violations: {} / {}", v[0], v[1])));
    }
    out
}

/// After the game: who wants a rematch, and what `e` does.
fn rematch_lines(view: &TableView, around: &Around) -> Vec<Line<'static>> {
    if !view.is_over() {
        return Vec::new();
    }
    let name = |seat| describe::player_name(view.players(), seat);
    let asked = |seat: Seat| around.rematch[seat.index()];
    let text = match view.seat() {
        None => match Seat::BOTH.into_iter().find(|&s| asked(s)) {
            Some(s) => format!("{} wants a rematch", name(s)),
            None => return Vec::new(),
        },
        Some(me) => match (asked(me), asked(me.other())) {
            (false, false) => "e offers a rematch".to_string(),
            (true, false) => format!("rematch offered: waiting for {}", name(me.other())),
            (false, true) => format!("{} wants a rematch: e accepts", name(me.other())),
            (true, true) => "rematch agreed: starting".to_string(),
        },
    };
    vec![Line::styled(text, bold().fg(Tint::Magenta))]
}

/// The key help, shown in full so nobody has to guess.
fn keys(view: &TableView) -> Vec<String> {
    if view.is_spectator() {
        return vec!["watching   m move numbers   q quit".into()];
    }
    if view.is_over() {
        return vec!["m numbers   q quit   e rematch".into()];
    }
    let mut keys = vec![
        "arrows/hjkl move   Enter place/choose".into(),
        "p pass  d draw  a accept  x decline".into(),
        "c claim (cursor/last)  s swap  n keep".into(),
        "u takeback  r resign (x2)  w claim win".into(),
        "m numbers  q quit (x2)  e rematch (after)".into(),
    ];
    if view.config().rule_set.boards() == 2 {
        keys.insert(1, "Tab/b switches board  p ends a turn".into());
    }
    keys
}

#[cfg(test)]
#[path = "ui_tests.rs"]
mod tests;
