//! The grid: labels, stones, the cursor, the last move, move numbers,
//! forbidden points, fifth-move offers, the winning line, and a claimed
//! forbidden stone (red).
//!
//! Each point takes two columns (a gap and the point), so a 15 x 15 board
//! with its labels is 35 columns wide and 17 rows high and fits an 80 x 24
//! terminal beside the panel. The cursor is drawn as brackets in the gaps
//! around its point (`[X]`), so it never hides what is under it.
//!
//! A twin room (two boards, docs/rules.md §9) shows both boards side by
//! side under a title row when the terminal is wide enough, else only the
//! board the cursor is on; the cursor, the last move and the winning lines
//! are drawn on the board they belong to.
//!
//! Forbidden points are marked for black only in `block` and `lose` rooms
//! and only while a black stone (or black's fifth-move offers) is asked for:
//! in `claim` rooms spotting them is white's skill, so the board never
//! helps. Which points are forbidden is the referee's answer
//! (`Board::forbidden_points`), not a judgement of ours.

use ratatui::style::{Color as Tint, Modifier, Style};
use ratatui::text::{Line, Span};
use tengen_client::view::TableView;
use tengen_rules::game::{ForbiddenHandling, ResultReason, Task};
use tengen_rules::{Color, Point};

use super::input::Local;

/// Columns the board takes: labels, and two per point.
pub fn width(size: u8) -> u16 {
    2 * size as u16 + 5
}

/// Rows the board takes: a label row above and below.
pub fn height(size: u8) -> u16 {
    size as u16 + 2
}

/// Columns two boards side by side take (twin rooms).
pub fn pair_width(size: u8) -> u16 {
    2 * width(size) + GAP.len() as u16
}

/// Between two boards side by side.
const GAP: &str = "  ";

pub const EMPTY: char = '.';
pub const BLACK: char = 'X';
pub const WHITE: char = 'O';
pub const FORBIDDEN: char = '×';
pub const OFFER: char = '*';
pub const MARKED: char = '+';

/// Whether forbidden points are shown now: a `block` or `lose` room, and
/// the referee waits for a black stone or black's offers.
pub fn shows_forbidden(view: &TableView) -> bool {
    let handling = view.config().forbidden_handling();
    if !matches!(
        handling,
        Some(ForbiddenHandling::Block | ForbiddenHandling::Lose)
    ) {
        return false;
    }
    matches!(
        view.prompt().map(|p| &p.task),
        Some(Task::Place {
            color: Color::Black,
            ..
        }) | Some(Task::OfferFifths { .. })
    )
}

/// The board's lines, top row (the highest number) first. In twin rooms a
/// title row comes first, then both boards side by side (`both`) or the
/// cursor's board alone.
pub fn lines(view: &TableView, local: &Local, both: bool) -> Vec<Line<'static>> {
    if view.config().rule_set.boards() < 2 {
        return grid(view, local, 0);
    }
    let shown: Vec<u8> = if both { vec![0, 1] } else { vec![local.board] };
    let w = width(view.board().size()) as usize;
    let title = shown
        .iter()
        .map(|&b| {
            let text = if b == local.board {
                format!("board {} (cursor)", b + 1)
            } else {
                format!("board {}", b + 1)
            };
            let style = if b == local.board {
                Style::default()
                    .fg(Tint::Yellow)
                    .add_modifier(Modifier::BOLD)
            } else {
                Style::default().fg(Tint::DarkGray)
            };
            Span::styled(format!("{text:^w$}{GAP}"), style)
        })
        .collect::<Vec<_>>();
    let grids: Vec<Vec<Line<'static>>> = shown.iter().map(|&b| grid(view, local, b)).collect();
    let mut out = vec![Line::from(title)];
    for row in 0..grids[0].len() {
        let mut spans = Vec::new();
        for (i, g) in grids.iter().enumerate() {
            if i > 0 {
                spans.push(Span::raw(GAP));
            }
            spans.extend(g[row].spans.iter().cloned());
        }
        out.push(Line::from(spans));
    }
    out
}

/// The lines of board `index` (0, or 1 in twin rooms), with the cursor if
/// it is on this board.
fn grid(view: &TableView, local: &Local, index: u8) -> Vec<Line<'static>> {
    let board = view.board_at(index).unwrap_or(view.board());
    let n = board.size();
    let forbidden: Vec<Point> = if shows_forbidden(view) {
        board
            .forbidden_points()
            .into_iter()
            .map(|(p, _)| p)
            .collect()
    } else {
        Vec::new()
    };
    let offers = view.pending_fifths().unwrap_or(&[]);
    let last = view
        .last_move()
        .filter(|m| m.board == index)
        .and_then(|m| m.point);
    // A forbidden stone claimed (or played in a `lose` room) is shown.
    let claimed = match view.result().map(|r| &r.reason) {
        Some(ResultReason::ForbiddenClaimed { point, .. })
        | Some(ResultReason::ForbiddenPlayed { point, .. })
            if index == 0 =>
        {
            Some(*point)
        }
        _ => None,
    };
    let winning: &[Point] = match view.result().map(|r| &r.reason) {
        Some(ResultReason::Five { line }) => line,
        Some(ResultReason::TwinFives { lines }) => &lines[index.min(1) as usize],
        Some(ResultReason::OneBoardFive { board, line, .. }) if *board == index => line,
        _ => &[],
    };
    let number: Vec<Option<u32>> = {
        let mut v = vec![None; n as usize * n as usize];
        for m in view.moves().iter().filter(|m| m.board == index) {
            if let Some(p) = m.point {
                v[p.y as usize * n as usize + p.x as usize] = Some(m.number);
            }
        }
        v
    };
    // Off every board when it is on the other one.
    let cursor = if local.board == index {
        local.cursor
    } else {
        Point::new(u8::MAX, u8::MAX)
    };
    let dim = Style::default().fg(Tint::DarkGray);
    let bracket = Style::default()
        .fg(Tint::Yellow)
        .add_modifier(Modifier::BOLD);

    let letters = || {
        let mut s = String::from("  ");
        for x in 0..n {
            s.push(' ');
            s.push((b'A' + x) as char);
        }
        Line::styled(s, dim)
    };
    let mut out = vec![letters()];
    for y in (0..n).rev() {
        let mut spans = vec![Span::styled(format!("{:>2}", y + 1), dim)];
        for x in 0..n {
            let p = Point::new(x, y);
            let gap = if cursor == p {
                Some('[')
            } else if x > 0 && cursor == Point::new(x - 1, y) {
                Some(']')
            } else {
                None
            };
            let stone = board.get(p);
            let mut style = match stone {
                Some(Color::Black) => Style::default().add_modifier(Modifier::BOLD),
                Some(Color::White) => Style::default().fg(Tint::Cyan),
                None => dim,
            };
            if Some(p) == last {
                style = style.add_modifier(Modifier::REVERSED);
            }
            if winning.contains(&p) {
                style = style.fg(Tint::Green).add_modifier(Modifier::UNDERLINED);
            }
            if Some(p) == claimed {
                style = style.fg(Tint::Red).add_modifier(Modifier::UNDERLINED);
            }
            let num = number[y as usize * n as usize + x as usize].filter(|_| local.numbers);
            let (gap_char, cell) = match (stone, num) {
                (Some(_), Some(k)) => {
                    let k = k % 100;
                    let tens = (k >= 10).then(|| char::from(b'0' + (k / 10) as u8));
                    (gap.or(tens), char::from(b'0' + (k % 10) as u8))
                }
                (Some(Color::Black), None) => (gap, BLACK),
                (Some(Color::White), None) => (gap, WHITE),
                (None, _) if local.marked.contains(&p) => {
                    style = Style::default()
                        .fg(Tint::Green)
                        .add_modifier(Modifier::BOLD);
                    (gap, MARKED)
                }
                (None, _) if offers.contains(&p) => {
                    style = Style::default()
                        .fg(Tint::Magenta)
                        .add_modifier(Modifier::BOLD);
                    (gap, OFFER)
                }
                (None, _) if forbidden.contains(&p) => {
                    style = Style::default().fg(Tint::Red);
                    (gap, FORBIDDEN)
                }
                (None, _) => (gap, EMPTY),
            };
            let gap_style = if gap.is_some() { bracket } else { style };
            spans.push(Span::styled(gap_char.unwrap_or(' ').to_string(), gap_style));
            spans.push(Span::styled(cell.to_string(), style));
        }
        let close = if cursor == Point::new(n - 1, y) {
            ']'
        } else {
            ' '
        };
        spans.push(Span::styled(close.to_string(), bracket));
        spans.push(Span::styled(format!("{:<2}", y + 1), dim));
        out.push(Line::from(spans));
    }
    out.push(letters());
    out
}
