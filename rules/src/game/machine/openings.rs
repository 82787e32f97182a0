//! The opening rules as a sequence of steps (docs/rules.md §6 and the
//! documents it cites).
//!
//! Like the rest of the machine, what the opening waits for is derived, not
//! stored: [`step`] computes the current step from the room's rule, the
//! number of stones placed and a few recorded decisions ([`OpeningFacts`]:
//! which swap options were decided, the declared number of offers, the
//! offers made, Taraguchi's option, Swap2's two-stone choice). Each rule is
//! one arm of [`step`], so a rule reads as its procedure, and the handlers
//! (`opening_handlers`) only record decisions and never decide what comes
//! next. `None` means the opening is over (or the rule has none beyond the
//! plain alternation of `Free` and `SwapAfterThree`, which keep their own
//! derivation in `mod.rs`): play alternates from there.
//!
//! A swap option always belongs to the seat holding the colour that moves
//! next (the Tarannikov and Taraguchi rules: "the other player may swap"
//! after each stone); if
//! it keeps, it plays on, and if it swaps, the colours change hands and the
//! other seat plays on. Swap2's final colour choice is the one exception:
//! the opener, holding black, chooses with white to move.

use serde::{Deserialize, Serialize};

use crate::game::opening_rule::{
    JONSSON_MAX_OFFERS, MAX_FIFTH_OFFERS, OfferSet, Opening, SUPER_SAKATA_MAX_ROUNDS,
    TaraguchiOption,
};
use crate::opening::{CanonicalOpening, CentralSquare};
use crate::point::Color;

/// The decisions taken so far in the opening, from which [`step`] derives
/// what comes next.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct OpeningFacts {
    /// Bit `k` is set once the swap option after `k` stones is decided
    /// (Swap2: the second player's choice after 3, by swap or keep).
    pub decided: u32,
    /// The declared number of fifth-move offers.
    pub declared: Option<u8>,
    /// Black's fifth-move offers once made (still kept after white's
    /// choice, for the snapshot).
    pub offers: Option<OfferSet>,
    /// Taraguchi's option, once chosen.
    pub option: Option<TaraguchiOption>,
    /// Swap2: the second player placed white 4 and black 5 together.
    pub placed_two: bool,
    /// The canonical opening the first three stones form (renju rules).
    pub canonical: Option<&'static CanonicalOpening>,
}

impl OpeningFacts {
    pub fn is_decided(&self, after: usize) -> bool {
        self.decided & (1 << after) != 0
    }

    pub fn decide(&mut self, after: usize) {
        self.decided |= 1 << after;
    }
}

/// One step of an opening: what the machine waits for and from whom (by
/// colour held; the seat follows from the current colour assignment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// The holder of `by` places the next stone (its colour follows from
    /// the move number), inside `zone` if set.
    Stone {
        by: Color,
        zone: Option<CentralSquare>,
    },
    /// The holder of `decider` may take the other colour.
    Swap { decider: Color },
    /// The holder of `by` declares 1..=`max` fifth-move offers.
    Declare { by: Color, max: u8 },
    /// Black places `count` fifth-move offers.
    Offers { count: u8 },
    /// White keeps one of the offers.
    KeepFifth(OfferSet),
    /// Black chooses Taraguchi's option; option (b) means `offers` offers.
    TaraguchiChoice { offers: u8 },
    /// Swap2's second player chooses.
    Swap2Choice,
    /// Super Sakata: the holder of `chooser` takes white, takes black or
    /// places two more stones.
    SuperSakataChoice { chooser: Color },
}

/// The colour of move `k` (1-based).
pub(super) fn color_of_move(k: usize) -> Color {
    if k % 2 == 1 {
        Color::Black
    } else {
        Color::White
    }
}

/// The square move `k` is confined to under the confined rules.
pub(super) fn zone(k: usize) -> Option<CentralSquare> {
    CentralSquare::for_move(k as u32)
}

/// What the opening of `rule` waits for after `n` stones, given the
/// decisions `f`; `None` once the opening is over (play alternates).
pub(super) fn step(rule: Opening, f: &OpeningFacts, n: usize) -> Option<Step> {
    use Color::{Black, White};
    let offers = |count: Option<u8>| match f.offers {
        None => Step::Offers {
            count: count.unwrap_or(1),
        },
        Some(set) => Step::KeepFifth(set),
    };
    // Moves 1-3 laid by the opener (tentative black): H8, 3x3, 5x5.
    let designated = |n: usize| Step::Stone {
        by: Black,
        zone: zone(n + 1),
    };
    let anywhere = |by| Step::Stone { by, zone: None };
    // Tarannikov and Taraguchi: after stone k, a swap option, then the
    // holder of the next colour places k + 1 in its square.
    let confined = |n: usize| {
        if n >= 1 && !f.is_decided(n) {
            Step::Swap {
                decider: color_of_move(n + 1),
            }
        } else {
            Step::Stone {
                by: color_of_move(n + 1),
                zone: zone(n + 1),
            }
        }
    };
    // Yamaguchi and its two forms after black 3: the holder of black
    // declares N, white may swap, white 4 anywhere, N offers.
    let yamaguchi_after_three = |n: usize| match n {
        3 if f.declared.is_none() => Some(Step::Declare {
            by: Black,
            max: MAX_FIFTH_OFFERS,
        }),
        3 if !f.is_decided(3) => Some(Step::Swap { decider: White }),
        3 => Some(anywhere(White)),
        4 => Some(offers(f.declared)),
        _ => None,
    };
    // Soosõrv-N and Jonsson after the opener's three stones: swap option,
    // white 4 anywhere and a declared 1..=max, swap option, the offers.
    let soosorv = |n: usize, max: u8| match n {
        0..=2 => Some(designated(n)),
        3 if !f.is_decided(3) => Some(Step::Swap { decider: White }),
        3 => Some(anywhere(White)),
        4 if f.declared.is_none() => Some(Step::Declare { by: White, max }),
        4 if !f.is_decided(4) => Some(Step::Swap { decider: Black }),
        4 => Some(offers(f.declared)),
        _ => None,
    };
    Some(match rule {
        Opening::Free | Opening::SwapAfterThree => return None,
        Opening::Rif => match n {
            0..=2 => designated(n),
            3 if !f.is_decided(3) => Step::Swap { decider: White },
            3 => anywhere(White),
            4 => offers(Some(2)),
            _ => return None,
        },
        Opening::Yamaguchi => match n {
            0..=2 => designated(n),
            _ => return yamaguchi_after_three(n),
        },
        // The opener lays the three stones, black 3 in the 7x7: one of
        // the 52.
        Opening::Yamaguchi52 => match n {
            0 | 1 => designated(n),
            2 => Step::Stone {
                by: Black,
                zone: Some(CentralSquare::SQUARE_7),
            },
            _ => return yamaguchi_after_three(n),
        },
        // Each colour lays its own: black 1, white 2 in the 3x3, black 3
        // in the 7x7.
        Opening::YamaguchiVariant => match n {
            0..=2 => Step::Stone {
                by: color_of_move(n + 1),
                zone: Some(
                    [
                        CentralSquare::CENTRE,
                        CentralSquare::SQUARE_3,
                        CentralSquare::SQUARE_7,
                    ][n],
                ),
            },
            _ => return yamaguchi_after_three(n),
        },
        Opening::Soosorv { n: max } => return soosorv(n, max),
        Opening::Jonsson => return soosorv(n, JONSSON_MAX_OFFERS),
        Opening::Taraguchi { n: count } => match (n, f.option) {
            (0..=3, _) => confined(n),
            (4, None) => Step::TaraguchiChoice { offers: count },
            (4, Some(TaraguchiOption::Single)) if !f.is_decided(4) => Step::Swap { decider: Black },
            (4, Some(TaraguchiOption::Single)) => Step::Stone {
                by: Black,
                zone: zone(5),
            },
            (5, Some(TaraguchiOption::Single)) if !f.is_decided(5) => Step::Swap { decider: White },
            (4, Some(TaraguchiOption::Offers)) => offers(Some(count)),
            _ => return None,
        },
        // Sakata and Super Sakata: the opener's three stones, then the
        // other seat (holding white) places white 4 in the 7x7 and black 5
        // in the 9x9.
        Opening::Sakata | Opening::SuperSakata if n < 5 => match n {
            0..=2 => designated(n),
            _ => Step::Stone {
                by: White,
                zone: zone(n + 1),
            },
        },
        // The opener chooses the colour, Swap2's way: keeping black, the
        // other seat plays white 6; taking white, it plays 6 itself.
        Opening::Sakata => match n {
            5 if !f.is_decided(5) => Step::Swap { decider: Black },
            _ => return None,
        },
        Opening::SuperSakata => return super_sakata(f, n),
        Opening::Tarannikov => match n {
            0..=4 => confined(n),
            5 if !f.is_decided(5) => Step::Swap { decider: White },
            _ => return None,
        },
        Opening::Swap2 => match n {
            0..=2 => anywhere(Black),
            3 if !f.is_decided(3) => Step::Swap2Choice,
            3 => anywhere(White),
            5 if f.placed_two && !f.is_decided(5) => Step::Swap { decider: Black },
            _ => return None,
        },
    })
}

/// Super Sakata after black 5 (`n` >= 5): a choice after the 5th stone and
/// after each option (c), until one is a swap decision. Colours change
/// hands only by that decision, so the chooser alternates by colour: the
/// opener, holding black, first; after one (c) the seat holding white, and
/// so on. Once the bound on (c) is reached the choice is a plain swap
/// decision (options (a) and (b) only).
fn super_sakata(f: &OpeningFacts, n: usize) -> Option<Step> {
    let decided_at_or_after_5 = f.decided >> 5 != 0;
    if decided_at_or_after_5 || n.is_multiple_of(2) {
        return None;
    }
    let round = (n - 5) / 2;
    let chooser = if round.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    };
    match round {
        r if r < SUPER_SAKATA_MAX_ROUNDS as usize => Some(Step::SuperSakataChoice { chooser }),
        r if r == SUPER_SAKATA_MAX_ROUNDS as usize => Some(Step::Swap { decider: chooser }),
        _ => None,
    }
}

/// Where the opening stands, for a client that (re)joins: the decisions
/// that the moves list does not show.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OpeningProgress {
    /// The canonical opening the first three stones form (its code, e.g.
    /// `D4`), in the renju opening rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub canonical: Option<String>,
    /// Its name, romanised (`Kagetsu`), as `opening_formed` gives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub canonical_name: Option<String>,
    /// Its name in Chinese (`花月`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub canonical_chinese: Option<String>,
    /// The declared number of fifth-move offers (Yamaguchi, Soosõrv).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared_offers: Option<u8>,
    /// Black's fifth-move offers once made; still shown after white's
    /// choice (move 5 in the moves list is the one kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fifth_offers: Option<OfferSet>,
    /// Taraguchi's option, once chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub option: Option<TaraguchiOption>,
}

impl OpeningProgress {
    pub fn is_empty(&self) -> bool {
        *self == OpeningProgress::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(rule: Opening, f: &OpeningFacts, upto: usize) -> Vec<Option<Step>> {
        (0..=upto).map(|n| step(rule, f, n)).collect()
    }

    #[test]
    fn tarannikov_is_stone_then_swap_five_times() {
        let mut f = OpeningFacts::default();
        assert_eq!(
            step(Opening::Tarannikov, &f, 0),
            Some(Step::Stone {
                by: Color::Black,
                zone: Some(CentralSquare::CENTRE)
            })
        );
        for n in 1..=5 {
            assert_eq!(
                step(Opening::Tarannikov, &f, n),
                Some(Step::Swap {
                    decider: color_of_move(n + 1)
                })
            );
            f.decide(n);
            let next = step(Opening::Tarannikov, &f, n);
            if n < 5 {
                assert_eq!(
                    next,
                    Some(Step::Stone {
                        by: color_of_move(n + 1),
                        zone: zone(n + 1)
                    })
                );
            } else {
                assert_eq!(next, None);
            }
        }
    }

    #[test]
    fn legacy_openings_have_no_steps() {
        let f = OpeningFacts::default();
        for rule in [Opening::Free, Opening::SwapAfterThree] {
            assert!(walk(rule, &f, 6).iter().all(Option::is_none));
        }
    }

    #[test]
    fn super_sakata_alternates_choosers_up_to_the_bound() {
        let f = OpeningFacts::default();
        let white_seat_places = |n: usize| Step::Stone {
            by: Color::White,
            zone: zone(n + 1),
        };
        for rule in [Opening::Sakata, Opening::SuperSakata] {
            assert_eq!(step(rule, &f, 3), Some(white_seat_places(3)));
            assert_eq!(step(rule, &f, 4), Some(white_seat_places(4)));
        }
        assert_eq!(
            step(Opening::Sakata, &f, 5),
            Some(Step::Swap {
                decider: Color::Black
            })
        );
        let bound = 5 + 2 * SUPER_SAKATA_MAX_ROUNDS as usize;
        let chooser_at = |n: usize| {
            if (n - 5).is_multiple_of(4) {
                Color::Black
            } else {
                Color::White
            }
        };
        for n in (5..bound).step_by(2) {
            let chooser = chooser_at(n);
            assert_eq!(
                step(Opening::SuperSakata, &f, n),
                Some(Step::SuperSakataChoice { chooser })
            );
        }
        assert_eq!(
            step(Opening::SuperSakata, &f, bound),
            Some(Step::Swap {
                decider: chooser_at(bound)
            })
        );
        let mut decided = f.clone();
        decided.decide(7);
        assert_eq!(step(Opening::SuperSakata, &decided, 7), None);
        assert_eq!(step(Opening::SuperSakata, &decided, 8), None);
    }

    #[test]
    fn fifth_offers_then_the_choice() {
        let mut f = OpeningFacts::default();
        f.decide(3);
        assert_eq!(step(Opening::Rif, &f, 4), Some(Step::Offers { count: 2 }));
        let set = OfferSet::new(&["J10".parse().unwrap(), "G9".parse().unwrap()]).unwrap();
        f.offers = Some(set);
        assert_eq!(step(Opening::Rif, &f, 4), Some(Step::KeepFifth(set)));
        assert_eq!(step(Opening::Rif, &f, 5), None);
    }
}
