//! Screens on ratatui's `TestBackend`, from views built out of real games
//! (`testkit`): stones, labels, clocks, prompts, forbidden marks (only in
//! `block` and `lose` rooms), offers, draw offers, results, sizes.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use tengen_rules::game::{
    Action, ForbiddenHandling, GameConfig, Opening, RuleSet, Seat, TimeControl,
};

use super::{Extra, draw};
use crate::play::around::{Around, Link};
use crate::play::input::Local;
use crate::testkit::{Table, p};
use tengen_protocol::{AfterGrace, ServerMsg};

/// The screen as lines of text.
fn screen(t: &Table, local: &Local, w: u16, h: u16, at_ms: u64) -> Vec<String> {
    screen_around(t, local, &Around::default(), w, h, at_ms)
}

fn screen_around(
    t: &Table,
    local: &Local,
    around: &Around,
    w: u16,
    h: u16,
    at_ms: u64,
) -> Vec<String> {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    let extra = Extra { status: "", around };
    term.draw(|f| draw(f, &t.view, local, &extra, t.at(at_ms)))
        .unwrap();
    let buf = term.backend().buffer().clone();
    (0..h)
        .map(|y| (0..w).map(|x| buf[(x, y)].symbol().to_string()).collect())
        .collect()
}

fn show(t: &Table) -> Vec<String> {
    screen(t, &Local::new(t.view.board().size()), 80, 24, t.now)
}

/// The symbol drawn for point `s` on a 15x15 board at the top left.
fn cell(lines: &[String], s: &str) -> char {
    let pt = p(s);
    let row = 1 + (14 - pt.y as usize);
    lines[row].chars().nth(3 + 2 * pt.x as usize).unwrap()
}

fn has(lines: &[String], text: &str) -> bool {
    lines.iter().any(|l| l.contains(text))
}

fn fischer() -> GameConfig {
    GameConfig::free(RuleSet::Renju).with_time(TimeControl::Fischer {
        main_ms: 300_000,
        increment_ms: 3_000,
    })
}

#[test]
fn the_board_shows_labels_stones_and_the_cursor() {
    let t = Table::new(fischer(), Some(Seat::First)).play("H8 I9 J8");
    let s = show(&t);
    assert!(
        s[0].starts_with("   A B C D E F G H I J K L M N O"),
        "{}",
        s[0]
    );
    assert!(s[1].starts_with("15 . . ."), "{}", s[1]);
    assert!(s[15].starts_with(" 1 . . ."), "{}", s[15]);
    assert!(s[16].starts_with("   A B C"), "{}", s[16]);
    assert_eq!(cell(&s, "H8"), 'X');
    assert_eq!(cell(&s, "I9"), 'O');
    assert_eq!(cell(&s, "J8"), 'X');
    assert_eq!(cell(&s, "A1"), '.');
    // The cursor (on H8 at first) is drawn around its point.
    let row8 = &s[8];
    assert_eq!(&row8[2 + 2 * 7..2 + 2 * 7 + 3], "[X]", "{row8}");
}

#[test]
fn the_last_move_is_highlighted() {
    let t = Table::new(fischer(), Some(Seat::First)).play("H8 I9");
    let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let extra = Extra {
        status: "",
        around: &Around::default(),
    };
    let local = Local::new(15);
    term.draw(|f| draw(f, &t.view, &local, &extra, t.at(t.now)))
        .unwrap();
    let buf = term.backend().buffer();
    let i9 = &buf[(3 + 2 * 8, 1 + 14 - 8)];
    let h8 = &buf[(3 + 2 * 7, 1 + 14 - 7)];
    assert_eq!(i9.symbol(), "O");
    assert!(i9.modifier.contains(ratatui::style::Modifier::REVERSED));
    assert!(!h8.modifier.contains(ratatui::style::Modifier::REVERSED));
}

#[test]
fn clocks_count_down_from_the_servers_figures() {
    // Black 1 at 1 s, white 2 at 2 s: black's clock runs since then.
    let t = Table::new(fischer(), Some(Seat::First)).play("H8 I9");
    let now = show(&t);
    assert!(has(&now, "alice (you)"), "{now:#?}");
    let black = now.iter().find(|l| l.contains("alice")).unwrap();
    let white = now.iter().find(|l| l.contains("bob")).unwrap();
    // Black moved after 1 s (+3 s): 5:02; white after 1 s (+3): 5:02.
    assert!(black.contains("5:02"), "{black}");
    assert!(white.contains("5:02"), "{white}");
    assert!(black.contains('◀'), "black to move: {black}");
    // 61.5 s later black's clock shows a minute less; white's is still.
    let later = screen(&t, &Local::new(15), 80, 24, t.now + 61_500);
    let black = later.iter().find(|l| l.contains("alice")).unwrap();
    let white = later.iter().find(|l| l.contains("bob")).unwrap();
    assert!(black.contains("4:00"), "{black}");
    assert!(white.contains("5:02"), "{white}");
    // Under ten seconds, tenths.
    let late = screen(&t, &Local::new(15), 80, 24, t.now + 292_700);
    let black = late.iter().find(|l| l.contains("alice")).unwrap();
    assert!(black.contains("0:09.3"), "{black}");
}

#[test]
fn the_prompt_is_in_words_for_players_and_spectators() {
    let t = Table::new(fischer(), Some(Seat::First));
    let s = show(&t);
    assert!(has(&s, "Your turn: place black 1 on the centre"), "{s:#?}");
    assert!(has(&s, "Enter places the stone"));
    let t = t.play("H8");
    assert!(has(&show(&t), "Waiting for bob: place white 2"));
    let w = Table::new(fischer(), None).play("H8");
    let s = show(&w);
    assert!(has(&s, "bob to play: place white 2"), "{s:#?}");
    assert!(has(&s, "spectators 2"));
    assert!(has(&s, "watching"));
}

#[test]
fn swap_and_opening_prompts() {
    let t = Table::new(GameConfig::new(RuleSet::Gomoku), Some(Seat::Second)).play("H8 H9 I8");
    let s = show(&t);
    assert!(has(&s, "Your turn: swap? (white may take black)"), "{s:#?}");
    assert!(has(&s, "s swaps, n keeps"));
    let t = Table::new(
        GameConfig::new(RuleSet::Renju).with_opening(Opening::Yamaguchi),
        Some(Seat::First),
    )
    .play("H8 H9 I9");
    let s = show(&t);
    assert!(
        has(&s, "Your turn: declare fifth-move offers (1-10)"),
        "{s:#?}"
    );
    assert!(has(&s, "opening D"), "the canonical opening is named");
}

/// Black G8 H8 I9 I10 and four white stones away: I8 is a double three,
/// black to move.
fn double_three(handling: Option<ForbiddenHandling>) -> Table {
    let mut c = GameConfig::free(RuleSet::Renju);
    if let Some(h) = handling {
        c = c.with_forbidden(h);
    }
    Table::new(c, Some(Seat::Second)).play("H8 A1 G8 A3 I9 A5 I10 O15")
}

#[test]
fn forbidden_points_are_marked_in_block_and_lose_rooms_only() {
    for h in [ForbiddenHandling::Block, ForbiddenHandling::Lose] {
        let s = show(&double_three(Some(h)));
        assert_eq!(cell(&s, "I8"), '×', "{h:?}");
        assert!(has(&s, "× = forbidden for black"));
        assert_eq!(cell(&s, "J8"), '.');
    }
    for h in [Some(ForbiddenHandling::Claim), None] {
        let s = show(&double_three(h));
        assert_eq!(cell(&s, "I8"), '.', "{h:?}");
        assert!(!s.iter().any(|l| l.contains('×')), "{h:?}");
    }
    // Not while white is to move.
    let mut t = double_three(Some(ForbiddenHandling::Block));
    t.act(Seat::First, Action::place(p("E5")));
    assert_eq!(cell(&show(&t), "I8"), '.');
}

#[test]
fn fifth_move_offers_and_marks_are_shown() {
    let rif = || {
        Table::new(
            GameConfig::new(RuleSet::Renju).with_opening(Opening::Rif),
            Some(Seat::First),
        )
        .play("H8 H9 I9 keep I8")
    };
    let t = rif();
    let mut local = Local::new(15);
    local.marked = vec![p("J10")];
    let s = screen(&t, &local, 80, 24, t.now);
    assert_eq!(cell(&s, "J10"), '+');
    assert!(has(&s, "Your turn: offer 2 fifth moves"), "{s:#?}");
    assert!(has(&s, "Enter marks (1/2), f sends them"));
    assert!(has(&s, "marked (+): J10"));
    let t = rif().play("offer:J10,G9");
    let s = show(&t);
    assert_eq!(cell(&s, "J10"), '*');
    assert_eq!(cell(&s, "G9"), '*');
    assert!(has(&s, "fifth-move offers (*): J10 G9"), "{s:#?}");
    assert!(has(&s, "Waiting for bob: choose the fifth"));
    // Once kept, the offer is a stone and the other is gone.
    let t = t.play("keep:G9");
    let s = show(&t);
    assert_eq!(cell(&s, "G9"), 'X');
    assert_eq!(cell(&s, "J10"), '.');
}

#[test]
fn draw_offers_and_results() {
    let mut t = Table::new(fischer(), Some(Seat::Second)).play("H8 I9 J8");
    t.act(Seat::First, Action::OfferDraw);
    let s = show(&t);
    assert!(
        has(&s, "alice offers a draw: a accepts, x declines"),
        "{s:#?}"
    );
    let mut t = Table::new(fischer(), Some(Seat::First)).play("H8 I9 J8");
    t.act(Seat::First, Action::OfferDraw);
    assert!(has(&show(&t), "you offered a draw"));
    let t = Table::new(fischer(), Some(Seat::First)).play("H8 A1 I8 A2 J8 A3 K8 A4 L8");
    let s = show(&t);
    assert!(has(&s, "Game over: black (first seat) wins"), "{s:#?}");
    assert!(has(&s, "q quit"));
}

#[test]
fn move_numbers_on_request() {
    let t = Table::new(fischer(), Some(Seat::First)).play("H8 I9 J8");
    let mut local = Local::new(15);
    local.numbers = true;
    local.cursor = p("A1");
    let s = screen(&t, &local, 80, 24, t.now);
    assert_eq!(cell(&s, "H8"), '1');
    assert_eq!(cell(&s, "I9"), '2');
    assert_eq!(cell(&s, "J8"), '3');
}

#[test]
fn a_19x19_board_and_small_terminals_fit() {
    let t = Table::new(
        GameConfig::free(RuleSet::Freestyle).with_size(19),
        Some(Seat::First),
    )
    .play("J10 K11");
    let s = show(&t);
    assert!(s[0].starts_with("   A B C D E F G H I J K L M N O P Q R S"));
    assert!(s[1].starts_with("19 ."), "{}", s[1]);
    assert!(has(&s, "Your turn: place black 3"), "{s:#?}");
    // Narrow: the panel goes under the board.
    let t = Table::new(fischer(), Some(Seat::First));
    let s = screen(&t, &Local::new(15), 40, 40, 0);
    assert!(s[1].starts_with("15 . ."));
    assert!(has(&s, "Your turn"), "{s:#?}");
}

#[test]
fn the_status_line_shows_refusals() {
    let t = Table::new(fischer(), Some(Seat::First));
    let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let extra = Extra {
        status: "refused: H8 is occupied",
        around: &Around::default(),
    };
    term.draw(|f| draw(f, &t.view, &Local::new(15), &extra, t.at(0)))
        .unwrap();
    let buf = term.backend().buffer();
    let last: String = (0..80).map(|x| buf[(x, 23)].symbol().to_string()).collect();
    assert!(last.starts_with("refused: H8 is occupied"), "{last}");
}

#[test]
fn an_away_opponent_shows_the_grace_then_the_claim_keys() {
    let t = Table::new(fischer(), Some(Seat::First)).play("H8 I9");
    let mut around = Around::default();
    // bob (second) dropped at 2 s of table time with a 30 s grace.
    let status = |grace_ms| ServerMsg::PlayerStatus {
        table: t.view.table().clone(),
        seat: Seat::Second,
        connected: false,
        grace_ms: Some(grace_ms),
        after_grace: Some(AfterGrace::Claim),
    };
    around.handle(&status(30_000), t.view.table(), t.at(2_000));
    let local = Local::new(15);
    let s = screen_around(&t, &local, &around, 80, 24, 14_000);
    assert!(
        has(&s, "bob away: 0:18 left, then you may claim"),
        "{}",
        s.join("\n")
    );
    // It counts down with the redraws.
    let s = screen_around(&t, &local, &around, 80, 24, 27_500);
    assert!(has(&s, "bob away: 0:04.5 left"), "{}", s.join("\n"));
    // The grace is over: the keys to claim, draw or wait.
    around.handle(&status(0), t.view.table(), t.at(32_000));
    let s = screen_around(&t, &local, &around, 80, 24, 33_000);
    assert!(
        has(&s, "bob left: w claims the win, d calls a draw"),
        "{}",
        s.join("\n")
    );
    // A spectator is told, without the keys.
    let watching = Table::new(fischer(), None).play("H8 I9");
    let mut seen = Around::default();
    let gone = ServerMsg::PlayerStatus {
        table: watching.view.table().clone(),
        seat: Seat::Second,
        connected: false,
        grace_ms: Some(0),
        after_grace: Some(AfterGrace::Claim),
    };
    seen.handle(&gone, watching.view.table(), watching.at(0));
    let s = screen_around(&watching, &local, &seen, 80, 24, 1_000);
    assert!(
        has(&s, "the opponent may claim the win"),
        "{}",
        s.join("\n")
    );
    // Where nobody can claim, the countdown is to the loss.
    let auto = ServerMsg::PlayerStatus {
        table: t.view.table().clone(),
        seat: Seat::Second,
        connected: false,
        grace_ms: Some(10_000),
        after_grace: Some(AfterGrace::Win),
    };
    around.handle(&auto, t.view.table(), t.at(40_000));
    let s = screen_around(&t, &local, &around, 80, 24, 41_000);
    assert!(
        has(&s, "bob is away: loses by abandonment in 0:09"),
        "{}",
        s.join("\n")
    );
    // Gone once bob is back.
    let back = ServerMsg::PlayerStatus {
        table: t.view.table().clone(),
        seat: Seat::Second,
        connected: true,
        grace_ms: None,
        after_grace: None,
    };
    around.handle(&back, t.view.table(), t.at(42_000));
    assert!(!has(
        &screen_around(&t, &local, &around, 80, 24, 43_000),
        "away"
    ));
}

#[test]
fn our_own_reconnection_shows_in_the_status_line() {
    let t = Table::new(fischer(), Some(Seat::First)).play("H8");
    let around = Around {
        link: Link::Reconnecting,
        ..Around::default()
    };
    let s = screen_around(&t, &Local::new(15), &around, 80, 24, t.now);
    assert!(s[23].contains("reconnecting"), "{}", s[23]);
    let gone = Around {
        link: Link::Gone,
        ..Around::default()
    };
    let s = screen_around(&t, &Local::new(15), &gone, 80, 24, t.now);
    assert!(s[23].starts_with("disconnected"), "{}", s[23]);
}

#[test]
fn the_rematch_prompt_follows_the_offers() {
    let t = Table::new(fischer(), Some(Seat::First)).play("H8 resign");
    let local = Local::new(15);
    let mut around = Around::default();
    let s = screen_around(&t, &local, &around, 80, 24, t.now);
    assert!(has(&s, "e offers a rematch"), "{}", s.join("\n"));
    assert!(has(&s, "e rematch"));
    let offer = |seat| ServerMsg::RematchOffered {
        table: t.view.table().clone(),
        seat,
        from: None,
        room: None,
        config: None,
    };
    around.handle(&offer(Seat::Second), t.view.table(), t.at(t.now));
    let s = screen_around(&t, &local, &around, 80, 24, t.now);
    assert!(
        has(&s, "bob wants a rematch: e accepts"),
        "{}",
        s.join("\n")
    );
    let mut mine = Around::default();
    mine.handle(&offer(Seat::First), t.view.table(), t.at(t.now));
    let s = screen_around(&t, &local, &mine, 80, 24, t.now);
    assert!(
        has(&s, "rematch offered: waiting for bob"),
        "{}",
        s.join("\n")
    );
    // Spectators are told, without a key to press.
    let w = Table::new(fischer(), None).play("H8 resign");
    let s = screen_around(&w, &local, &around, 80, 24, w.now);
    assert!(has(&s, "bob wants a rematch"), "{}", s.join("\n"));
    assert!(!has(&s, "e accepts"));
}

#[test]
fn stopped_clocks_say_why_and_do_not_run() {
    use tengen_protocol::PauseReason;
    let mut t = Table::new(fischer(), Some(Seat::First)).play("H8 I9");
    // The server restored the game: clocks stand at the figures it sends.
    let clocks = t.game.clocks(t.now);
    for (reason, text) in [
        (
            PauseReason::Restored,
            "server restoring — waiting for players",
        ),
        (
            PauseReason::Store,
            "server cannot save moves — clocks stopped",
        ),
    ] {
        let paused = ServerMsg::TablePaused {
            table: t.view.table().clone(),
            paused: Some(reason),
            clocks,
        };
        let at = t.at(t.now);
        t.view.handle(&paused, at).unwrap();
        let early = screen(&t, &Local::new(15), 80, 24, t.now);
        assert!(has(&early, text), "{}", early.join("\n"));
        // A minute later the clocks still show the same figures.
        let late = screen(&t, &Local::new(15), 80, 24, t.now + 60_000);
        let clock_lines = |s: &[String]| -> Vec<String> {
            s.iter()
                .filter(|l| l.contains("alice") || l.contains("bob"))
                .cloned()
                .collect()
        };
        assert_eq!(clock_lines(&early), clock_lines(&late));
    }
    // Running again: the line goes.
    let running = ServerMsg::TablePaused {
        table: t.view.table().clone(),
        paused: None,
        clocks,
    };
    let at = t.at(t.now);
    t.view.handle(&running, at).unwrap();
    let s = screen(&t, &Local::new(15), 80, 24, t.now);
    assert!(!has(&s, "server restoring"), "{}", s.join("\n"));
}
