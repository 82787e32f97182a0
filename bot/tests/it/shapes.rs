//! The search's view agrees with the referee: every neighbourhood's five
//! and overline against `Board::makes_five`, and the position's shapes and
//! sums, kept stone by stone, against a fresh build after random games.

use tengen_bot::line::{self, BLOCKED, OWN, Shape};
use tengen_bot::position::Position;
use tengen_rules::{Board, Color, Point, Variant};

/// Every neighbourhood, on row 8 of a 15x15 board (P at H8): a five in the
/// table exactly when the referee says P makes five, an overline exactly
/// when it does not and the run is six or more.
#[test]
fn fives_are_the_referees() {
    for (variant, color) in [
        (Variant::Freestyle, Color::Black),
        (Variant::Gomoku, Color::White),
        (Variant::Renju, Color::Black),
        (Variant::Renju, Color::White),
    ] {
        let table = line::table(variant, color);
        for key in 0..line::ENTRIES as u32 {
            let cells = line::cells(key);
            let mut board = Board::new(15).unwrap();
            for (i, &c) in cells.iter().enumerate() {
                let p = Point::new(2 + i as u8, 7);
                match c {
                    OWN => board.place(p, color).unwrap(),
                    BLOCKED => board.place(p, color.opponent()).unwrap(),
                    _ => {}
                }
            }
            let p = Point::new(7, 7);
            let five = board.makes_five(p, color, variant);
            let shape = table.shape(key);
            assert_eq!(
                shape == Shape::Five,
                five,
                "{variant:?} {color:?} {cells:?}"
            );
            if !five {
                board.place(p, color).unwrap();
                let six = board.makes_five(p, color, Variant::Freestyle);
                assert_eq!(shape == Shape::Overline, six, "{variant:?} {cells:?}");
            }
        }
    }
}

fn lcg(seed: &mut u64) -> u64 {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *seed >> 33
}

#[test]
fn shapes_kept_stone_by_stone_match_a_fresh_build() {
    let mut seed = 7u64;
    for (size, variant) in [
        (15u8, Variant::Renju),
        (19, Variant::Freestyle),
        (15, Variant::Gomoku),
    ] {
        for _game in 0..6 {
            let mut pos = Position::new(size, variant);
            let mut color = Color::Black;
            let mut placed = 0;
            let mut steps = 0;
            while placed < 80 {
                steps += 1;
                let p = Point::new(
                    (lcg(&mut seed) % size as u64) as u8,
                    (lcg(&mut seed) % size as u64) as u8,
                );
                let q = pos.cell(p);
                if !pos.is_empty(q) {
                    continue;
                }
                pos.place(q, color);
                color = color.opponent();
                placed += 1;
                if steps % 7 == 0 {
                    pos.undo();
                    color = color.opponent();
                    placed -= 1;
                }
                if placed % 10 == 0 {
                    let fresh = Position::from_board(pos.board(), variant);
                    assert_eq!(fresh.hash(), pos.hash());
                    for c in [Color::Black, Color::White] {
                        assert_eq!(fresh.total(c), pos.total(c));
                        assert_eq!(fresh.five_points(c), pos.five_points(c));
                    }
                    for p in pos.board().points() {
                        let q = pos.cell(p);
                        if pos.is_empty(q) {
                            for c in [Color::Black, Color::White] {
                                assert_eq!(fresh.shapes(q, c), pos.shapes(q, c), "{p}");
                            }
                        }
                    }
                }
            }
        }
    }
}
