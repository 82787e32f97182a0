//! The opening data and geometry the opening rules stand on (docs/rules.md §6).
//!
//! Competition renju opens under rules (RIF, Yamaguchi and its forms,
//! Soosõrv, Jonsson, Taraguchi, Tarannikov) that all lean on the same few facts, kept here as pure
//! functions so that the state machine only has to sequence them:
//!
//! - [`canon`]: the 26 canonical openings and their recognition under the
//!   8 symmetries of the board about H8;
//! - [`extended`]: the 26 extensions of the 52-opening Yamaguchi form
//!   (black 3 in the 7 x 7), and recognition of any of the 52;
//! - [`zones`]: the centred squares early moves are confined to;
//! - [`congruence`] and [`offers`]: when two fifth-move offers are the same
//!   offer (congruent resulting positions, centres and axes anywhere);
//! - [`symmetry`]: the 8 rotations and reflections both of those use.

pub mod canon;
pub mod congruence;
pub mod extended;
pub mod offers;
pub mod symmetry;
pub mod zones;

pub use canon::{CanonicalOpening, OPENINGS, OpeningKind, OpeningStones, Recognized};
pub use congruence::{CanonicalPosition, Isometry, congruences, congruent};
pub use extended::{EXTENDED_OPENINGS, recognize_52};
pub use offers::{
    OfferError, check_offers, equivalent_offers, first_equivalent_pair, position_with_offer,
};
pub use symmetry::Symmetry;
pub use zones::CentralSquare;
