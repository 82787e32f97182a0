//! Twin rooms (two boards, docs/rules.md §9) in `tengen`: both boards
//! drawn side by side when they fit (the cursor's alone when not), each
//! stone on its own board, Tab or `b` moving the cursor between boards,
//! Enter placing on the cursor's board, the prompt naming the stone of the
//! turn; on views built from real games (`testkit`).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use tengen_rules::game::{Action, GameConfig, RuleSet, Seat};

use super::around::Around;
use super::input::{Command, Local};
use super::ui::{Extra, draw};
use crate::testkit::{Table, p};

fn twin(seat: Option<Seat>) -> Table {
    Table::new(GameConfig::new(RuleSet::Twin), seat)
}

fn screen(t: &Table, local: &Local, w: u16, h: u16) -> Vec<String> {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    let around = Around::default();
    let extra = Extra {
        status: "",
        around: &around,
    };
    term.draw(|f| draw(f, &t.view, local, &extra, t.at(t.now)))
        .unwrap();
    let buf = term.backend().buffer().clone();
    (0..h)
        .map(|y| (0..w).map(|x| buf[(x, y)].symbol().to_string()).collect())
        .collect()
}

/// The symbol at point `s` of the board drawn from column `left` (19x19,
/// a title row above the labels).
fn cell(lines: &[String], left: usize, s: &str) -> char {
    let pt = p(s);
    let row = 2 + (18 - pt.y as usize);
    lines[row]
        .chars()
        .nth(left + 3 + 2 * pt.x as usize)
        .unwrap()
}

fn has(lines: &[String], text: &str) -> bool {
    lines.iter().any(|l| l.contains(text))
}

#[test]
fn both_boards_are_drawn_side_by_side_with_each_stone_on_its_board() {
    let t = twin(Some(Seat::Second)).play("1:K10 2:K10 2:L10");
    let local = Local::new(19);
    let lines = screen(&t, &local, 150, 30);
    assert!(lines[0].contains("board 1 (cursor)"), "{}", lines[0]);
    assert!(lines[0].contains("board 2"), "{}", lines[0]);
    // Board 2 starts after board 1 (43 columns) and the gap (2).
    let second = super::board::width(19) as usize + 2;
    assert_eq!(cell(&lines, 0, "K10"), 'X');
    assert_eq!(cell(&lines, 0, "L10"), '.');
    assert_eq!(cell(&lines, second, "K10"), 'O');
    assert_eq!(cell(&lines, second, "L10"), 'O');
    assert!(
        has(&lines, "place black 4 (stone 1 of 2 this turn)"),
        "{lines:#?}"
    );
}

#[test]
fn a_narrow_terminal_shows_the_cursors_board_alone() {
    let t = twin(Some(Seat::First)).play("1:K10 2:K11");
    let mut local = Local::new(19);
    let lines = screen(&t, &local, 80, 40);
    assert!(lines[0].contains("board 1 (cursor)"));
    assert!(!lines[0].contains("board 2"));
    assert_eq!(cell(&lines, 0, "K10"), 'X');
    assert_eq!(cell(&lines, 0, "K11"), '.');
    local.board = 1;
    let lines = screen(&t, &local, 80, 40);
    assert!(lines[0].contains("board 2 (cursor)"));
    assert_eq!(cell(&lines, 0, "K10"), '.');
    assert_eq!(cell(&lines, 0, "K11"), 'O');
}

#[test]
fn tab_switches_boards_and_enter_places_on_the_cursors_board() {
    let t = twin(Some(Seat::Second)).play("1:K10");
    // The cursor starts on the centre, J10.
    let mut local = Local::new(19);
    let enter = KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(
        local.key(enter, &t.view),
        Command::Send(Action::place_on(0, p("J10")))
    );
    local.key(KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE), &t.view);
    assert_eq!(local.board, 1);
    assert_eq!(
        local.key(enter, &t.view),
        Command::Send(Action::place_on(1, p("J10")))
    );
    local.key(
        KeyEvent::new(KeyCode::Char('b'), KeyModifiers::NONE),
        &t.view,
    );
    assert_eq!(local.board, 0);
    // One-board rooms have no second board to switch to.
    let single = Table::new(GameConfig::free(RuleSet::Freestyle), Some(Seat::First));
    let mut l = Local::new(15);
    l.key(
        KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE),
        &single.view,
    );
    assert_eq!(l.board, 0);
}

#[test]
fn the_winning_lines_show_on_both_boards() {
    let fours = "1:A10  1:A1 2:A1  1:B10 2:A10  1:A2 2:A2  1:C10 2:B10  1:A3 2:A3  \
                 1:D10 2:C10  1:A5 2:A5  2:E10 1:S1  1:A7 2:A7";
    let t = twin(None).play(&format!("{fours} 1:E10 2:D10"));
    let lines = screen(&t, &Local::new(19), 220, 30);
    assert!(
        has(&lines, "a five on both boards in one turn"),
        "{lines:#?}"
    );
}
