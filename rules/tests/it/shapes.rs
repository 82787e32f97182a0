//! One test per shape the renju rules name (docs/rules.md §2–3, from the
//! national rules and the Chinese renju rules), each a small hand-built
//! position drawn in its comment.
//!
//! Drawings show the line(s) that matter, left to right or bottom to top as
//! stated: `B` black, `O` white, `.` empty, `|` the board's edge, `P` (or a
//! lower-case letter) the point judged. Every verdict is asserted on both
//! [`Board::forbidden`] and [`Board::forbidden_points`]; where the whole map
//! is small it is asserted exactly.

use tengen_rules::{Board, Color, Forbidden, Point, Variant};

use Forbidden::{DoubleFour, DoubleThree, Overline};

fn pt(s: &str) -> Point {
    s.parse().unwrap()
}

fn pts(s: &str) -> Vec<Point> {
    s.split_whitespace().map(pt).collect()
}

fn board(black: &str, white: &str) -> Board {
    Board::with_stones(15, &pts(black), &pts(white)).unwrap()
}

/// The board with extra black stones (the stones the recursion imagines).
fn plus(b: &Board, black: &str) -> Board {
    let mut b = b.clone();
    for p in pts(black) {
        b.place(p, Color::Black).unwrap();
    }
    b
}

/// Asserts the verdict at `p` through both APIs.
#[track_caller]
fn check(b: &Board, p: &str, expected: Option<Forbidden>) {
    let p = pt(p);
    assert_eq!(b.forbidden(p), expected, "forbidden({p})\n{}", b.to_text());
    let in_map = b
        .forbidden_points()
        .into_iter()
        .find(|&(q, _)| q == p)
        .map(|(_, k)| k);
    assert_eq!(
        in_map,
        expected,
        "forbidden_points() at {p}\n{}",
        b.to_text()
    );
}

/// Asserts the whole map.
#[track_caller]
fn check_map(b: &Board, expected: &[(&str, Forbidden)]) {
    let expected: Vec<(Point, Forbidden)> = expected.iter().map(|&(p, k)| (pt(p), k)).collect();
    assert_eq!(b.forbidden_points(), expected, "\n{}", b.to_text());
    for (p, k) in expected {
        assert_eq!(b.forbidden(p), Some(k), "forbidden({p})");
    }
}

fn five(b: &Board, p: &str) -> bool {
    b.makes_five(pt(p), Color::Black, Variant::Renju)
}

// ---------------------------------------------------------------------------
// Threes.

/// Row 8:  `. . B B P . .`  (F8 G8, P = H8): a solid three (连三). One three
/// is legal. Two stones alone can never make any point forbidden.
#[test]
fn solid_three_alone_is_legal() {
    let b = board("F8 G8", "");
    check(&b, "H8", None);
    check(&b, "E8", None);
    check_map(&b, &[]);
}

/// Row 8:  `. F . H P .`  (F8 H8, P = I8) and `. P . G H .` (G8 H8,
/// P = E8): split threes (跳三). One three is legal.
#[test]
fn split_three_alone_is_legal() {
    let b = board("F8 H8", "");
    check(&b, "I8", None);
    check(&b, "E8", None);
    check_map(&b, &[]);
    let b = board("G8 H8", "");
    check(&b, "E8", None);
}

/// ```text
///  9  . . . . . .
///  8  . B B P . .      row 8: solid three F8 G8 P
///  7  . . . B . .      column H: solid three H6 H7 P
///  6  . . . B . .
///  5  . . . . . .
///     E F G H I J
/// ```
/// H8 makes two live threes, both containing it: double three (三三).
/// Nothing else on the board is forbidden.
#[test]
fn two_solid_threes_are_a_double_three() {
    let b = board("F8 G8 H6 H7", "");
    check(&b, "H8", Some(DoubleThree));
    check_map(&b, &[("H8", DoubleThree)]);
}

/// Row 8 `E . G P` (E8 G8) and column H `H5 H6 . P` (gap H7): two split
/// threes through H8: double three.
#[test]
fn two_split_threes_are_a_double_three() {
    let b = board("E8 G8 H5 H6", "");
    check_map(&b, &[("H8", DoubleThree)]);
}

/// Row 8 solid `F G P` and diagonal split `E5 F6 . P` (gap G7): a solid
/// and a split three through H8 (one of them diagonal): double three.
#[test]
fn solid_and_split_three_are_a_double_three() {
    let b = board("F8 G8 E5 F6", "");
    check_map(&b, &[("H8", DoubleThree)]);
}

/// Row 8 holds a three already (F8 G8 H8); E6 makes another, the diagonal
/// C4 D5 E6. The new stone must belong to each three, so E6 is legal.
#[test]
fn a_three_not_through_the_new_stone_does_not_count() {
    let b = board("F8 G8 H8 C4 D5", "");
    check(&b, "E6", None);
    check_map(&b, &[]);
}

// ---------------------------------------------------------------------------
// Fours.

/// Row 8: `O B B B P .` (white D8, black E8 F8 G8, P = H8): a rush four
/// (冲四), one five point (I8). And `B . B B P` (D8 F8 G8): a split rush
/// four, five point E8. One four is legal.
#[test]
fn rush_four_alone_is_legal() {
    let b = board("E8 F8 G8", "D8");
    check(&b, "H8", None);
    check_map(&b, &[]);
    let b = board("D8 F8 G8", "");
    check(&b, "H8", None);
    check_map(&b, &[]);
}

/// Row 8: `. B B B P .` (E8 F8 G8, P = H8): a straight four (活四), two
/// five points D8 and I8, which counts as ONE four: legal.
#[test]
fn straight_four_alone_is_legal() {
    let b = board("E8 F8 G8", "");
    check(&b, "H8", None);
    check(&b, "D8", None);
    check_map(&b, &[]);
}

/// ```text
///  9  . . . . . . . .
///  8  . O B B B P . .     row 8: rush four (five point I8)
///  7  . . . . . . . .
///  6  . . . . . B . .     column H: H4 H5 H6 . P, a split four (five
///  5  . . . . . B . .     point H7)
///  4  . . . . . B . .
///  3  . . . . . . . .
///     C D E F G H I J
/// ```
/// Two fours through H8 on two lines: double four (四四).
#[test]
fn double_four_on_two_lines() {
    let b = board("E8 F8 G8 H4 H5 H6", "D8");
    check_map(&b, &[("H8", DoubleFour)]);
    // A straight four counts once, but it still is a four: straight four
    // plus the column's four is a double four too.
    let b = board("E8 F8 G8 H4 H5 H6", "");
    check_map(&b, &[("H8", DoubleFour)]);
}

/// Row 8, columns D..J: `B . B B B . B`, the new stone one of the middle
/// three (扁担阵). Each gap makes exactly five with the middle three and
/// one outer stone: two fours on ONE line, a double four.
#[test]
fn double_four_on_one_line_b_bbb_b() {
    // P = G8 (centre), F8 (left of the three), H8 (right of the three).
    for (black, p) in [
        ("D8 F8 H8 J8", "G8"),
        ("D8 G8 H8 J8", "F8"),
        ("D8 F8 G8 J8", "H8"),
    ] {
        let b = board(black, "");
        check_map(&b, &[(p, DoubleFour)]);
    }
}

/// Row 8, columns C..J: `B B . B B . B B`, the new stone one of the middle
/// two. E8 makes C..G, H8 makes F..J: two fours on one line.
#[test]
fn double_four_on_one_line_bb_bb_bb() {
    let b = board("C8 D8 G8 I8 J8", "");
    check_map(&b, &[("F8", DoubleFour)]);
    let b = board("C8 D8 F8 I8 J8", "");
    check_map(&b, &[("G8", DoubleFour)]);
}

/// Row 8, columns B..J: `B B B . P . B B B`, the new stone the lone middle
/// one. E8 makes B..F and G8 makes F..J, each exactly five (the other gap
/// stays empty): two fours on one line. E8 and G8 themselves only make a
/// straight four (`.BBBB.`): legal.
#[test]
fn double_four_on_one_line_bbb_b_bbb() {
    let b = board("B8 C8 D8 H8 I8 J8", "");
    check_map(&b, &[("F8", DoubleFour)]);
    check(&b, "E8", None);
    check(&b, "G8", None);
}

/// A four on the board that does not go through the new stone does not
/// count. Row 8 `O E F G .` is a rush four already; column H `H7 . H9 P H11`
/// gives H10 one four (five point H8). H10 is legal — whereas H8, where
/// both lines meet, is a double four.
#[test]
fn a_four_not_through_the_new_stone_does_not_count() {
    let b = board("E8 F8 G8 H7 H9 H11", "D8");
    check(&b, "H10", None);
    check(&b, "H8", Some(DoubleFour));
}

// ---------------------------------------------------------------------------
// Four-three, four-three-three, four-four-three.

/// Row 8 `O B B B P .` a rush four, column H `H6 H7 P` a three: four-three
/// (四三), black's winning shape, legal.
#[test]
fn four_three_is_legal() {
    let b = board("E8 F8 G8 H6 H7", "D8");
    check(&b, "H8", None);
    check_map(&b, &[]);
}

/// ```text
///  9  . . . . . . . .
///  8  . O B B B P . .     row 8: rush four
///  7  . . . . B B . .     column H (H6 H7 P): three
///  6  . . . B . B . .     diagonal (F6 G7 P): three
///  5  . . . . . . . .
///     C D E F G H I J
/// ```
/// One four and two threes through H8: four-three-three (四三三), a double
/// three. (The map holds other double threes too, e.g. G6 = F6 G6 H6 and
/// G6 G7 G8.)
#[test]
fn four_three_three_is_a_double_three() {
    let b = board("E8 F8 G8 H6 H7 F6 G7", "D8");
    check(&b, "H8", Some(DoubleThree));
    check(&b, "G6", Some(DoubleThree));
}

/// Row 8 rush four, column H `H4 H5 H6 . P` a second four, diagonal F6 G7
/// a three: four-four-three (四四三), a double four (double four outranks
/// double three).
#[test]
fn four_four_three_is_a_double_four() {
    let b = board("E8 F8 G8 H4 H5 H6 F6 G7", "D8");
    check(&b, "H8", Some(DoubleFour));
}

// ---------------------------------------------------------------------------
// Overlines and fives.

/// Row 8: `B B B P B B` (C8 D8 E8 . G8 H8): F8 makes six, an overline
/// (长连). B8 (`P B B B . B B`) is only a rush four (A8 makes A..E). Seven
/// and more are overlines too.
#[test]
fn overline_is_forbidden() {
    let b = board("C8 D8 E8 G8 H8", "");
    check_map(&b, &[("F8", Overline)]);
    check(&b, "B8", None);
    let b = board("B8 C8 D8 E8 G8 H8 I8", "");
    check_map(&b, &[("F8", Overline)]);
}

/// F8 is an overline on row 8, and also makes two fours (column F4 F5 F6
/// . P, diagonal C5 D6 E7 P): the kind reported is overline, the first of
/// overline > double four > double three.
#[test]
fn overline_outranks_double_four() {
    let b = board("C8 D8 E8 G8 H8 F4 F5 F6 C5 D6 E7", "");
    check(&b, "F8", Some(Overline));
}

/// Row 8 `B B B P B B` (overline at F8) while column F (F4 F5 F6 F7) makes
/// exactly five at F8: a five made with a forbidden shape is a five, black
/// wins (the national rules art. 10) — F8 is not forbidden.
#[test]
fn overline_with_a_five_elsewhere_is_a_five() {
    let b = board("C8 D8 E8 G8 H8 F4 F5 F6 F7", "");
    assert!(five(&b, "F8"));
    check(&b, "F8", None);
    // Without the column's four, F8 is an overline again.
    let b = board("C8 D8 E8 G8 H8 F4 F5 F6", "");
    check(&b, "F8", Some(Overline));
}

/// Row 8 `D E F G P` makes exactly five at H8, which also makes the threes
/// H6 H7 H8 and F6 G7 H8. Five beats double three: legal. With D8 white
/// instead the row is only a rush four and H8 is four-three-three.
#[test]
fn five_with_double_three_is_a_five() {
    let b = board("D8 E8 F8 G8 H6 H7 F6 G7", "");
    assert!(five(&b, "H8"));
    check(&b, "H8", None);
    let b = board("E8 F8 G8 H6 H7 F6 G7", "D8");
    assert!(!five(&b, "H8"));
    check(&b, "H8", Some(DoubleThree));
}

/// H8 makes five on row 8 and two fours (column H5 H6 H7 P, diagonal E5 F6
/// G7 P): five beats double four.
#[test]
fn five_with_double_four_is_a_five() {
    let b = board("D8 E8 F8 G8 H5 H6 H7 E5 F6 G7", "");
    check(&b, "H8", None);
    let b = board("E8 F8 G8 H5 H6 H7 E5 F6 G7", "D8");
    check(&b, "H8", Some(DoubleFour));
}

// ---------------------------------------------------------------------------
// The Chinese renju rules, figures 1.10-1.12: points that look like double threes but are not.

/// Fig. 1.10 (六腐): "a is not a double three, because the horizontal is
/// not a live three but the skeleton of an overline".
///
/// ```text
///  9  . . . . . . . . .
///  8  . . B B . a . B .      row 8: E8 F8, a = H8, J8
///  7  . . . . . B . . .      column H: H6 H7 a, a real three
///  6  . . . . . B . . .
///  5  . . . . . . . . .
///     C D E F G H I J K
/// ```
/// The only way to a straight four on row 8 is G8 (`E F G a`, ends D8 and
/// I8), but I8 would then make E..J, six: the ends do not both make five,
/// so no straight four can be made and row 8 holds no three. H8 is legal.
/// Without J8 the same point is a double three.
///
/// The solid version `B . . B B a . . B` (C8, F8 G8 a, K8): G8's row can
/// grow to a four only at E8 or I8, and each of those fours has one end
/// (D8, J8) that makes six. Removing just C8 gives a real three again (via
/// I8), so it takes both outer stones.
#[test]
fn fig_1_10_overline_skeleton_is_not_a_three() {
    let b = board("E8 F8 J8 H6 H7", "");
    check(&b, "H8", None);
    check_map(&b, &[]);
    check(&board("E8 F8 H6 H7", ""), "H8", Some(DoubleThree));

    let b = board("C8 F8 G8 K8 H6 H7", "");
    check(&b, "H8", None);
    check_map(&b, &[]);
    check(&board("F8 G8 K8 H6 H7", ""), "H8", Some(DoubleThree));
}

/// Fig. 1.11 (下止): "a is not a double three either, because the horizontal
/// is not a live three but a false live three".
///
/// ```text
///  9  . . . . . . . . .
///  8  . O . B B a . O .      row 8: white D8, F8 G8 a, white J8
///  7  . . . . . B . . .      column H: H6 H7 a, a real three
///  6  . . . . . B . . .
///  5  . . . . . . . . .
///     C D E F G H I J K
/// ```
/// E8 gives `O B B B B . O`, I8 gives `O . B B B B O`: each only a rush
/// four, so row 8 is a blocked, false three. H8 is legal. Open the right
/// side (no J8) and I8 makes a straight four: double three.
#[test]
fn fig_1_11_blocked_false_three_is_not_a_three() {
    let b = board("F8 G8 H6 H7", "D8 J8");
    check(&b, "H8", None);
    check_map(&b, &[]);
    check_map(&board("F8 G8 H6 H7", "D8"), &[("H8", DoubleThree)]);
}

/// Fig. 1.12: "a might be taken for a double three. But the split vertical
/// three's next move, at x, would be a double four and cannot be played, so
/// that vertical three is dead, and a is not a double three."
///
/// ```text
/// 10  . . . . . . .
///  9  . . . . B . .      column H: H6 x a H9, a split three through a
///  8  . . B B a . .      row 8: F8 G8 a, a real three (E8 and I8 free)
///  7  . B B B x . .      row 7: E7 F7 G7, so x = H7 also makes a four
///  6  . . . . B . .
///  5  . . . . . . .
///     D E F G H I J
/// ```
/// With a (H8) on the board, x (H7) makes the straight four H6..H9 and the
/// four E7..H7: a double four, forbidden. x is the only point that turns
/// the column into a straight four, so the column is no three and a is
/// legal. Without E7, x is merely four-three (legal), the column is a real
/// three, and a is a double three.
#[test]
fn fig_1_12_three_whose_four_point_is_a_double_four_is_dead() {
    let b = board("F8 G8 H6 H9 E7 F7 G7", "");
    check(&plus(&b, "H8"), "H7", Some(DoubleFour));
    check(&b, "H8", None);
    // G9 (column G7 G8 G9 and diagonal E7 F8 G9) is the only real double three.
    check_map(&b, &[("G9", DoubleThree)]);

    let b = board("F8 G8 H6 H9 F7 G7", "");
    check(&plus(&b, "H8"), "H7", None);
    check(&b, "H8", Some(DoubleThree));
}

/// RIF's definition of a three: one more stone makes a straight four
/// "without at the same time making a five". Row 8 F8 G8 P can become a
/// straight four only at E8 or I8, but E8 completes the column E4..E8 and
/// I8 the column I8..I12, each a five: row 8 is no three, and H8 (with the
/// column three H6 H7) is legal. With only one of the two columns, the
/// other completion point still works and H8 is a double three.
#[test]
fn a_three_whose_four_points_make_fives_is_not_a_three() {
    let b = board("F8 G8 H6 H7 E4 E5 E6 E7 I9 I10 I11 I12", "");
    check(&b, "H8", None);
    let b = board("F8 G8 H6 H7 I9 I10 I11 I12", "");
    check(&b, "H8", Some(DoubleThree));
}

// ---------------------------------------------------------------------------
// Recursion (RIF 9.3): completion points judged with the new stone placed.

/// Depth 2: P = H8 is a double three because Q = H10 is legal, because R =
/// J12 is forbidden.
///
/// ```text
/// 14  . . . . . . . . . . .
/// 13  . . . . . . B . . . .
/// 12  . . . . . R B B B O .
/// 11  . . . B B . . . . . .
/// 10  . B B Q . . . . . . .
///  9  . . . B . . . . . . .
///  8  . . . P B B . . . . .
///  7  . . . . . . . . . . .
///     E F G H I J K L M N O
/// ```
/// - P's row H8 I8 J8 is a plain three (G8/K8 free).
/// - P's column H8 H9 . H11 is a split three whose only straight-four point
///   is Q = H10.
/// - Q (with P placed) makes the straight four H8..H11 (one four), the row
///   three F10 G10 Q, and the diagonal split three Q I11 . K13, whose only
///   straight-four point is R = J12.
/// - R (with P, Q placed) makes the straight four H10..K13 and the rush four
///   J12..M12 (white N12): a double four, forbidden.
/// - So Q's diagonal is dead: Q is a four-three, legal; P's column is a
///   real three; P is a double three.
///
/// A judge that stopped at depth 1 (not checking R) would call Q a
/// four-three-three and P legal. Removing M12 flips the whole chain: R is
/// legal (four-three), Q is a double three, P's column is dead, P is legal.
#[test]
fn recursion_depth_two() {
    let b = board("I8 J8 H9 H11 F10 G10 I11 K13 K12 L12 M12", "N12");
    check(&plus(&b, "H8 H10"), "J12", Some(DoubleFour));
    check(&plus(&b, "H8"), "H10", None);
    check(&b, "H8", Some(DoubleThree));

    let b = board("I8 J8 H9 H11 F10 G10 I11 K13 K12 L12", "N12");
    check(&plus(&b, "H8 H10"), "J12", None);
    check(&plus(&b, "H8"), "H10", Some(DoubleThree));
    check(&b, "H8", None);
}

/// Depth 3: P = H8 is legal because Q = H10 is a double three, because R =
/// J12 is legal, because S = L10 is a double four.
///
/// ```text
/// 14  . . . . . . . . . . .
/// 13  . . . . . . . B . . .
/// 12  . . . . . . R B B . .
/// 11  . . . . B B . B . . .
/// 10  . . B B Q . . . S . .
///  9  . . . . B . . . B B .
///  8  . B . B P . . . B . .
///  7  . . . . . . . . B . .
///  6  . . . . . . . . . . .
///     D E F G H I J K L M N
/// ```
/// - P: row E8 . G8 P is a split three (F8 free); column P H9 . H11 needs Q.
/// - Q (P placed): straight four H8..H11, row three F10 G10 Q, diagonal
///   Q I11 . K13 needing R.
/// - R (P, Q placed): straight four H10..K13, row three R K12 L12, and the
///   anti-diagonal R K11 . M9 needing S.
/// - S (P, Q, R placed): straight four J12..M9 and the column L7 L8 L9 S,
///   a rush four (L6 makes five, L11 would make six with L12): double four.
/// - So R's anti-diagonal is dead, R is a four-three (legal), Q's diagonal
///   is real, Q is four-three-three (double three), P's column is dead, P
///   is legal.
///
/// Removing L9 leaves S without its second four, and every level flips.
#[test]
fn recursion_depth_three() {
    let black = "E8 G8 H9 H11 F10 G10 I11 K13 K12 L12 K11 M9 L7 L8";
    let b = board(&format!("{black} L9"), "");
    check(&plus(&b, "H8 H10 J12"), "L10", Some(DoubleFour));
    check(&plus(&b, "H8 H10"), "J12", None);
    check(&plus(&b, "H8"), "H10", Some(DoubleThree));
    check(&b, "H8", None);

    let b = board(black, "");
    check(&plus(&b, "H8 H10 J12"), "L10", None);
    check(&plus(&b, "H8 H10"), "J12", Some(DoubleThree));
    check(&plus(&b, "H8"), "H10", None);
    check(&b, "H8", Some(DoubleThree));
}

// ---------------------------------------------------------------------------
// The board's edge acts like a white stone.

/// ```text
/// row 8:  | P B B . .      (A8 = P, B8 C8)      |O P B B . .   (white A8)
/// column A: A6 A7 P, a three along the edge      column B: B6 B7 P
/// ```
/// Against the edge, `P B B` can become a four only as `|B B B B .` (D8),
/// a rush four: no three, so A8 is legal. The same shape one column in,
/// with a white stone where the edge was, is equally legal; without the
/// white stone (`. P B B . .`) it is a real three and B8 a double three.
#[test]
fn edge_blocks_a_solid_three_like_a_white_stone() {
    let b = board("B8 C8 A6 A7", "");
    check(&b, "A8", None);
    check_map(&b, &[]);
    let b = board("C8 D8 B6 B7", "A8");
    check(&b, "B8", None);
    check_map(&b, &[]);
    check_map(&board("C8 D8 B6 B7", ""), &[("B8", DoubleThree)]);
}

/// Row 8 at the right edge: `B B . P |` (L8 M8, P = O8): N8 gives a four
/// with no room on the right, a rush four: no three. Column O6 O7 P is a
/// three along the edge. O8 is legal; so is N8 in `B B . P O` (white O8);
/// `B B . P .` (no white) is a real split three and N8 a double three.
#[test]
fn edge_blocks_a_split_three_like_a_white_stone() {
    let b = board("L8 M8 O6 O7", "");
    check(&b, "O8", None);
    check_map(&b, &[]);
    check_map(&board("K8 L8 N6 N7", "O8"), &[]);
    check_map(&board("K8 L8 N6 N7", ""), &[("N8", DoubleThree)]);
}

/// Diagonal into the corner: `| A1 B2 P` (P = C3) can only become the rush
/// four A1..D4: no three; C3's column three C3 C4 C5 alone is legal. One
/// step away from the corner (B2 C3 P = D4, A1 empty) the diagonal is a
/// real three, and with the column D4 D5 D6, D4 is a double three.
#[test]
fn corner_blocks_a_diagonal_three() {
    let b = board("A1 B2 C4 C5", "");
    check(&b, "C3", None);
    check_map(&b, &[]);
    check_map(&board("B2 C3 D5 D6", ""), &[("D4", DoubleThree)]);
}

/// Row 8 `| B B B P .` (A8 B8 C8, P = D8): a four against the edge is a
/// rush four (E8 makes five). With the column four D4 D5 D6 . P (white D3)
/// it is a double four; with the column three D6 D7 P a legal four-three.
#[test]
fn four_against_the_edge() {
    check_map(&board("A8 B8 C8 D4 D5 D6", "D3"), &[("D8", DoubleFour)]);
    let b = board("A8 B8 C8 D6 D7", "");
    check(&b, "D8", None);
    check_map(&b, &[]);
}

/// `| B B B B P` (A8..D8, P = E8) is exactly five against the edge; with F8
/// black too it is six, an overline.
#[test]
fn five_and_overline_against_the_edge() {
    let b = board("A8 B8 C8 D8", "");
    assert!(five(&b, "E8"));
    check_map(&b, &[]);
    let b = board("A8 B8 C8 D8 F8", "");
    assert!(!five(&b, "E8"));
    check_map(&b, &[("E8", Overline)]);
}

// ---------------------------------------------------------------------------
// White has no forbidden moves.

/// The judge takes no colour: it answers for black only (white has no
/// forbidden moves, docs/rules.md §3, and the API cannot even ask). So the
/// statement is tested with colours swapped: each forbidden shape of this
/// file built from WHITE stones forbids nothing, and white's overline
/// makes a winning line for white.
#[test]
fn white_shapes_forbid_nothing() {
    // The double three, the one-line double four, the overline and the
    // four-four of this file, in white.
    for (white, p) in [
        ("F8 G8 H6 H7", "H8"),
        ("D8 F8 H8 J8", "G8"),
        ("C8 D8 E8 G8 H8", "F8"),
        ("E8 F8 G8 H4 H5 H6", "H8"),
    ] {
        let b = board("", white);
        check(&b, p, None);
        check_map(&b, &[]);
    }
    // White's overline wins for white; for black F8 is just a point between
    // white stones.
    let b = board("", "C8 D8 E8 G8 H8");
    assert!(b.makes_five(pt("F8"), Color::White, Variant::Renju));
    assert!(!five(&b, "F8"));
    // The same double-three shape in black, with a white double three
    // elsewhere on the board: only black's point is forbidden.
    let b = board("F8 G8 H6 H7", "F3 G3 H1 H2");
    check_map(&b, &[("H8", DoubleThree)]);
}
