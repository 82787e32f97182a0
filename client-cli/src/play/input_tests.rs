//! Keys → actions, prompt by prompt, on views built from real games.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use tengen_rules::game::{
    Action, ForbiddenHandling, GameConfig, OfferSet, Opening, RuleSet, Seat, TaraguchiOption,
};

use super::{Command, Local};
use crate::testkit::{Table, p};

fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

fn code(k: KeyCode) -> KeyEvent {
    KeyEvent::new(k, KeyModifiers::NONE)
}

/// Presses `keys` (one char each; `⏎` Enter, arrows `←→↑↓`) and returns
/// the commands.
fn press(local: &mut Local, t: &Table, keys: &str) -> Vec<Command> {
    keys.chars()
        .map(|c| {
            let k = match c {
                '⏎' => code(KeyCode::Enter),
                '←' => code(KeyCode::Left),
                '→' => code(KeyCode::Right),
                '↑' => code(KeyCode::Up),
                '↓' => code(KeyCode::Down),
                '⌫' => code(KeyCode::Backspace),
                c => key(c),
            };
            local.key(k, &t.view)
        })
        .collect()
}

fn last(local: &mut Local, t: &Table, keys: &str) -> Command {
    press(local, t, keys).pop().unwrap()
}

fn renju(opening: Opening) -> GameConfig {
    GameConfig::new(RuleSet::Renju).with_opening(opening)
}

#[test]
fn arrows_and_hjkl_move_the_cursor_and_stop_at_the_edge() {
    let t = Table::new(GameConfig::free(RuleSet::Renju), Some(Seat::First));
    let mut l = Local::new(15);
    assert_eq!(l.cursor, p("H8"));
    press(&mut l, &t, "→→↑");
    assert_eq!(l.cursor, p("J9"));
    press(&mut l, &t, "hhjj");
    assert_eq!(l.cursor, p("H7"));
    press(&mut l, &t, &"k".repeat(20));
    assert_eq!(l.cursor, p("H15"));
    press(&mut l, &t, &"l".repeat(20));
    assert_eq!(l.cursor, p("O15"));
}

#[test]
fn enter_places_a_stone_on_my_turn_only() {
    let t = Table::new(GameConfig::free(RuleSet::Renju), Some(Seat::First));
    let mut l = Local::new(15);
    assert_eq!(last(&mut l, &t, "⏎"), Command::Send(Action::place(p("H8"))));
    assert_eq!(
        last(&mut l, &t, "l "),
        Command::Send(Action::place(p("I8")))
    );
    // After black 1 it is white's (bob's) turn.
    let t = t.play("H8");
    assert_eq!(last(&mut l, &t, "⏎"), Command::Say("not your turn".into()));
}

#[test]
fn single_keys_send_their_actions() {
    let t = Table::new(GameConfig::free(RuleSet::Renju), Some(Seat::First)).play("H8 H9 I8 I9 J8");
    let mut l = Local::new(15);
    for (k, a) in [
        ('p', Action::pass()),
        ('d', Action::OfferDraw),
        ('a', Action::AcceptDraw),
        ('x', Action::DeclineDraw),
        // A claim names the black stone under the cursor (H8 here).
        ('c', Action::claim(p("H8"))),
        ('u', Action::RequestTakeback),
        ('s', Action::Swap),
        ('n', Action::Keep),
    ] {
        assert_eq!(last(&mut l, &t, &k.to_string()), Command::Send(a), "{k}");
    }
}

#[test]
fn a_claim_names_black_s_last_stone_when_the_cursor_is_elsewhere() {
    let t = Table::new(GameConfig::free(RuleSet::Renju), Some(Seat::Second)).play("H8 H9 I8 I9 J8");
    let mut l = Local::new(15);
    assert_eq!(
        last(&mut l, &t, "kk c"),
        Command::Send(Action::claim(p("J8")))
    );
}

#[test]
fn the_absent_opponent_is_claimed_against_with_w_and_d() {
    let t = Table::new(GameConfig::free(RuleSet::Renju), Some(Seat::First)).play("H8 H9");
    let mut l = Local::new(15);
    assert!(matches!(last(&mut l, &t, "w"), Command::Say(_)));
    assert_eq!(last(&mut l, &t, "d"), Command::Send(Action::OfferDraw));
    l.absence_claim = true;
    assert_eq!(last(&mut l, &t, "w"), Command::ClaimAbsence { draw: false });
    assert_eq!(last(&mut l, &t, "d"), Command::ClaimAbsence { draw: true });
}

#[test]
fn resigning_and_quitting_need_a_second_press() {
    let t = Table::new(GameConfig::free(RuleSet::Renju), Some(Seat::First));
    let mut l = Local::new(15);
    assert!(matches!(last(&mut l, &t, "r"), Command::Say(_)));
    assert_eq!(last(&mut l, &t, "r"), Command::Send(Action::Resign));
    // Another key in between cancels.
    assert!(matches!(last(&mut l, &t, "rh"), Command::None));
    assert!(matches!(last(&mut l, &t, "r"), Command::Say(_)));
    assert!(matches!(last(&mut l, &t, "q"), Command::Say(_)));
    assert_eq!(last(&mut l, &t, "q"), Command::Quit);
    // Once over, or when watching, q quits at once.
    let over = Table::new(GameConfig::free(RuleSet::Renju), Some(Seat::First)).play("H8 resign");
    assert_eq!(last(&mut Local::new(15), &over, "q"), Command::Quit);
    let watching = Table::new(GameConfig::free(RuleSet::Renju), None);
    let mut l = Local::new(15);
    assert_eq!(last(&mut l, &watching, "q"), Command::Quit);
    assert_eq!(
        last(&mut l, &watching, "⏎"),
        Command::Say("you are watching this game".into())
    );
}

#[test]
fn e_asks_for_a_rematch_once_the_game_is_over() {
    let t = Table::new(GameConfig::free(RuleSet::Renju), Some(Seat::First)).play("H8 resign");
    assert_eq!(last(&mut Local::new(15), &t, "e"), Command::Rematch);
    let running = Table::new(GameConfig::free(RuleSet::Renju), Some(Seat::First)).play("H8");
    let Command::Say(s) = last(&mut Local::new(15), &running, "e") else {
        panic!()
    };
    assert!(s.contains("once the game is over"), "{s}");
    let watching = Table::new(GameConfig::free(RuleSet::Renju), None).play("H8 resign");
    assert!(matches!(
        last(&mut Local::new(15), &watching, "e"),
        Command::Say(_)
    ));
}

#[test]
fn swap_prompt_keys() {
    // Gomoku, swap after three: after black 3 the second seat (white) decides.
    let t = Table::new(GameConfig::new(RuleSet::Gomoku), Some(Seat::Second)).play("H8 H9 I8");
    let mut l = Local::new(15);
    assert_eq!(last(&mut l, &t, "s"), Command::Send(Action::Swap));
    assert_eq!(last(&mut l, &t, "n"), Command::Send(Action::Keep));
    assert_eq!(
        last(&mut l, &t, "⏎"),
        Command::Say("s swaps, n keeps".into())
    );
}

#[test]
fn yamaguchi_declaring_offers_is_typed_then_entered() {
    // The opener (first) declares after placing 1-3.
    let t = Table::new(renju(Opening::Yamaguchi), Some(Seat::First)).play("H8 H9 I9");
    let mut l = Local::new(15);
    assert_eq!(
        last(&mut l, &t, "3⏎"),
        Command::Send(Action::DeclareOffers { count: 3 })
    );
    assert_eq!(
        last(&mut l, &t, "12⌫0⏎"),
        Command::Send(Action::DeclareOffers { count: 10 })
    );
    assert!(matches!(last(&mut l, &t, "11⏎"), Command::Say(_)));
    assert!(matches!(last(&mut l, &t, "⏎"), Command::Say(_)));
}

#[test]
fn jonsson_white_declares_one_to_three_and_the_variant_asks_white_2_of_the_other_seat() {
    // Jonsson: white (the second seat, after keeping) declares after its 4th.
    let t = Table::new(renju(Opening::Jonsson), Some(Seat::Second)).play("H8 H9 I9 keep J7");
    let mut l = Local::new(15);
    assert_eq!(
        last(&mut l, &t, "3⏎"),
        Command::Send(Action::DeclareOffers { count: 3 })
    );
    assert!(matches!(last(&mut l, &t, "4⏎"), Command::Say(_)));
    // The Yamaguchi variant: after black 1 the second seat places white 2.
    let t = Table::new(renju(Opening::YamaguchiVariant), Some(Seat::Second)).play("H8");
    let mut l = Local::new(15);
    assert_eq!(
        last(&mut l, &t, "k⏎"),
        Command::Send(Action::place(p("H9")))
    );
}

#[test]
fn rif_offers_are_marked_with_enter_and_sent_with_f() {
    // RIF: opener 1-3, second keeps white, first plays white 4? No: the
    // second seat holds white after `keep` and plays 4; black (first)
    // then offers two fifths.
    let t = Table::new(renju(Opening::Rif), Some(Seat::First)).play("H8 H9 I9 keep I8");
    let mut l = Local::new(15);
    l.cursor = p("J10");
    assert!(
        matches!(last(&mut l, &t, "f"), Command::Say(_)),
        "nothing marked"
    );
    assert_eq!(last(&mut l, &t, "⏎"), Command::None);
    assert_eq!(l.marked, vec![p("J10")]);
    // Enter on a mark removes it; marking again and one more.
    press(&mut l, &t, "⏎⏎");
    assert_eq!(l.marked, vec![p("J10")]);
    press(&mut l, &t, "hhh⏎"); // G10
    assert!(
        matches!(last(&mut l, &t, "h⏎"), Command::Say(_)),
        "two at most"
    );
    assert_eq!(
        last(&mut l, &t, "f"),
        Command::Send(Action::OfferFifths {
            points: OfferSet::new(&[p("J10"), p("G10")]).unwrap()
        })
    );
    assert!(l.marked.is_empty());
    // An occupied point is not marked.
    l.cursor = p("H8");
    assert_eq!(last(&mut l, &t, "⏎"), Command::Say("H8 is occupied".into()));
}

#[test]
fn keeping_a_fifth_needs_the_cursor_on_an_offer() {
    let t =
        Table::new(renju(Opening::Rif), Some(Seat::Second)).play("H8 H9 I9 keep I8 offer:J10,G9");
    let mut l = Local::new(15);
    assert!(matches!(last(&mut l, &t, "⏎"), Command::Say(s) if s.contains("J10")));
    l.cursor = p("G9");
    assert_eq!(
        last(&mut l, &t, "⏎"),
        Command::Send(Action::KeepFifth { point: p("G9") })
    );
}

#[test]
fn taraguchi_option_is_a_digit() {
    // Taraguchi: 1-4 with swap options after 1, 2, 3 (all kept); black
    // (first) then chooses.
    let t = Table::new(renju(Opening::Taraguchi { n: 10 }), Some(Seat::First))
        .play("H8 keep H9 keep I9 keep I8");
    let mut l = Local::new(15);
    assert_eq!(
        last(&mut l, &t, "2"),
        Command::Send(Action::ChooseOption {
            option: TaraguchiOption::Offers
        })
    );
    assert_eq!(
        last(&mut l, &t, "1"),
        Command::Send(Action::ChooseOption {
            option: TaraguchiOption::Single
        })
    );
}

#[test]
fn swap2_places_one_stone_or_two_with_t() {
    let t = Table::new(
        GameConfig::new(RuleSet::Gomoku).with_opening(Opening::Swap2),
        Some(Seat::Second),
    )
    .play("H8 H9 I8");
    let mut l = Local::new(15);
    l.cursor = p("J8");
    assert_eq!(last(&mut l, &t, "⏎"), Command::Send(Action::place(p("J8"))));
    assert_eq!(last(&mut l, &t, "t"), Command::None);
    assert!(matches!(last(&mut l, &t, "⏎"), Command::Say(_)));
    assert_eq!(
        last(&mut l, &t, "↑⏎"),
        Command::Send(Action::PlaceTwo {
            white: p("J8"),
            black: p("J9")
        })
    );
    assert_eq!(l.two, None);
}

#[test]
fn sakata_asks_four_and_five_of_the_other_seat_and_super_sakata_places_two_with_t() {
    // Sakata: after the opener's three stones the second seat places 4 and 5.
    let t = Table::new(renju(Opening::Sakata), Some(Seat::Second)).play("H8 H9 I9");
    let mut l = Local::new(15);
    assert_eq!(
        last(&mut l, &t, "l⏎"),
        Command::Send(Action::place(p("I8")))
    );
    // Super Sakata: the opener's choice after black 5; Enter alone only
    // explains, s and n decide, t then two Enters place white and black.
    let t = Table::new(renju(Opening::SuperSakata), Some(Seat::First)).play("H8 H9 I9 K11 L12");
    let mut l = Local::new(15);
    assert!(matches!(last(&mut l, &t, "⏎"), Command::Say(_)));
    assert_eq!(last(&mut l, &t, "n"), Command::Send(Action::Keep));
    assert_eq!(last(&mut l, &t, "s"), Command::Send(Action::Swap));
    l.cursor = p("G6");
    assert_eq!(last(&mut l, &t, "t"), Command::None);
    assert!(matches!(last(&mut l, &t, "⏎"), Command::Say(_)));
    assert_eq!(
        last(&mut l, &t, "↓⏎"),
        Command::Send(Action::PlaceTwo {
            white: p("G6"),
            black: p("G5")
        })
    );
    assert_eq!(l.two, None);
    // Once (c) is taken the other seat chooses, with the same keys.
    let t = Table::new(renju(Opening::SuperSakata), Some(Seat::Second))
        .play("H8 H9 I9 K11 L12 two:A1,O15");
    let mut l = Local::new(15);
    assert_eq!(last(&mut l, &t, "t"), Command::None);
    assert_eq!(l.two, Some(None));
}

#[test]
fn forbidden_handling_does_not_change_the_keys() {
    // In a block room Enter on a forbidden point still asks the referee;
    // it refuses, and the status line says so.
    let t = Table::new(
        GameConfig::free(RuleSet::Renju).with_forbidden(ForbiddenHandling::Block),
        Some(Seat::First),
    );
    assert_eq!(
        last(&mut Local::new(15), &t, "⏎"),
        Command::Send(Action::place(p("H8")))
    );
}

#[test]
fn m_toggles_move_numbers_and_esc_forgets_marks() {
    let t = Table::new(renju(Opening::Rif), Some(Seat::First)).play("H8 H9 I9 keep I8");
    let mut l = Local::new(15);
    press(&mut l, &t, "m");
    assert!(l.numbers);
    press(&mut l, &t, "↑↑⏎");
    assert_eq!(l.marked.len(), 1);
    l.key(code(KeyCode::Esc), &t.view);
    assert!(l.marked.is_empty());
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert_eq!(l.key(ctrl_c, &t.view), Command::Quit);
}
