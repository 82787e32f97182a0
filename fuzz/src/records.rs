//! Record import (rules/src/game/notation.rs and record.rs): the JSON
//! record, renju notation and PSQ, and `import`, which tells them apart.
//! Any text is read to a record or a typed error, never a panic. An
//! imported stone list is played through the machine, so its record
//! replays, and writing it back out (renju notation, PSQ when it has no
//! pass) reads back to the same stones. A JSON record that replays gives a
//! game whose own record replays again to the same state.

use tengen_rules::game::{GameRecord, RuleSet, from_psq, from_renju_notation, import};

/// The first byte picks the reader and the rule set; the rest is the text.
pub fn check(data: &[u8]) {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let rule_set = [
        RuleSet::Freestyle,
        RuleSet::Gomoku,
        RuleSet::Renju,
        RuleSet::Twin,
    ][usize::from(choice % 4)];
    match (choice >> 2) % 4 {
        0 => {
            if let Ok(record) = import(&text, rule_set) {
                check_json_record(&record);
            }
        }
        1 => {
            if let Ok(record) = from_renju_notation(&text, rule_set) {
                check_stone_list(&record, rule_set);
            }
        }
        2 => {
            if let Ok(record) = from_psq(&text, rule_set) {
                check_stone_list(&record, rule_set);
            }
        }
        _ => {
            if let Ok(record) = GameRecord::from_json(&text) {
                check_json_record(&record);
            }
        }
    }
}

/// A stone list's record replays, and reads back from its own text forms.
fn check_stone_list(record: &GameRecord, rule_set: RuleSet) {
    let game = record
        .replay()
        .unwrap_or_else(|e| panic!("an imported record does not replay: {e}"));
    let notation = record.renju_notation();
    let again = from_renju_notation(&notation, rule_set)
        .unwrap_or_else(|e| panic!("our own notation {notation:?} does not read: {e}"));
    assert_eq!(again.replay().expect("replays").moves(), game.moves());
    if let Ok(psq) = record.to_psq() {
        let again =
            from_psq(&psq, rule_set).unwrap_or_else(|e| panic!("our own PSQ does not read: {e}"));
        let stones = |g: &tengen_rules::game::Game| -> Vec<_> {
            g.moves().iter().map(|m| (m.point, m.color)).collect()
        };
        assert_eq!(stones(&again.replay().expect("replays")), stones(&game));
    }
}

/// A JSON record that replays rebuilds a game whose record replays to it.
fn check_json_record(record: &GameRecord) {
    let _ = record.renju_notation();
    let _ = record.to_psq();
    let _ = record.to_json();
    if let Ok(game) = record.replay() {
        let own = game.record();
        let again = own
            .replay()
            .unwrap_or_else(|e| panic!("a replayed game's record does not replay: {e}"));
        assert_eq!(again.entries(), game.entries());
        assert_eq!(again.result(), game.result());
    }
}
