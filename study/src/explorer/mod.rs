//! The opening explorer's index: what one finished game adds to it, and
//! how a position's view is read back out of it.
//!
//! # Layout
//! The index is counters in the store's tally family [`SPACE`], under
//! 16-byte keys: a BLAKE2b digest of a *node*, which is a part of the
//! index (the scope: rule set, opening rule, board size, and for a
//! player's own explorer the player), a position in canonical form
//! ([`crate::canon`]) and a period (every month with games, and all time).
//! Each key holds counters by field ([`Field`]): the move played from the
//! position (or the game ending there, or leaving the index's depth), the
//! game's [`Speed`] and [`RatingBand`], and in a player's scope the colour
//! they held; per field the games won by black, drawn, won by white, the
//! sum of the games' average ratings and how many were rated. Fifth-move
//! offers are fields of their own (offered, kept). The all-time node of a
//! scope also keeps its latest games ([`Latest`]). One more key per scope
//! counts games by month, so a query reads only the months that have any.
//!
//! # Why this shape
//! A finished game adds to a fixed number of keys: for each of at most
//! three scopes (everyone's, black's, white's) and two periods (its month,
//! all time), one key per position it passed through, up to the depth
//! (20 moves by default). So the cost of indexing a game does not depend
//! on how many are indexed already (only a B-tree's depth does), and a
//! filter never scans games: speeds, bands and colours are fields of the
//! keys a query reads anyway, periods are keys. A query reads one key per
//! month asked for (or one for all time) plus the month index; a filter
//! on a period with the all-time key's latest games keeps those of them
//! that fall in it.
//!
//! [`plan`] makes a game's additions, [`Query`] names the keys a view
//! needs, and [`view`] sums what they hold.

mod facts;
mod plan;
mod view;

pub use facts::{FactsError, GameFacts, Players, facts, facts_stated};
pub use plan::{Plan, plan};
pub use view::{Query, QueryError, Rows, view};

use blake2::digest::consts::U16;
use blake2::{Blake2b, Digest};
use serde::{Deserialize, Serialize};
use tengen_protocol::{ColorResult, RatingBand, Speed};
use tengen_rules::Color;
use tengen_rules::game::{Millis, Opening, RuleSet, TimeControl};

use crate::canon::Canonical;

/// The store's tally family of the explorer.
pub const SPACE: &str = "explorer";

/// How many moves deep a game is indexed unless the server says otherwise.
pub const DEFAULT_DEPTH: u32 = 20;

/// The deepest index a server may ask for.
pub const MAX_DEPTH: u32 = 60;

/// Latest games kept per all-time node.
pub const LATEST: u32 = 8;

/// The most months one query reads (twenty years).
pub const MAX_MONTHS: usize = 240;

/// A part of the index: everyone's games of one rule set, opening rule
/// and board size, or one player's.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Scope {
    pub rule_set: RuleSet,
    pub opening: Opening,
    pub size: u8,
    /// A player's own explorer: the player's name key (lower case).
    pub player: Option<String>,
}

impl Scope {
    /// The scope's name, part of every key digest: `renju/rif/15`, or
    /// `renju/rif/15/@ann`.
    pub fn name(&self) -> String {
        let mut s = format!("{}/{}/{}", self.rule_set.name(), self.opening, self.size);
        if let Some(p) = &self.player {
            s.push_str("/@");
            s.push_str(p);
        }
        s
    }
}

/// A period of a node: all time, or one month (`year * 12 + month - 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Period {
    All,
    Month(u32),
}

fn digest(parts: &[&[u8]]) -> Vec<u8> {
    let mut h = Blake2b::<U16>::new();
    h.update(b"tengen-explorer-1");
    for p in parts {
        h.update((p.len() as u32).to_le_bytes());
        h.update(p);
    }
    h.finalize().to_vec()
}

/// The key of a node.
pub fn node_key(scope: &Scope, form: &Canonical, period: Period) -> Vec<u8> {
    let period = match period {
        Period::All => u32::MAX,
        Period::Month(m) => m,
    };
    digest(&[
        scope.name().as_bytes(),
        &form.bytes(),
        &period.to_le_bytes(),
    ])
}

/// A digest of a record's rules and moves (the id of an imported game).
pub fn record_digest(record: &tengen_rules::game::GameRecord) -> u64 {
    let d = digest(&[
        record.config.rule_set.name().as_bytes(),
        record.config.opening.to_string().as_bytes(),
        record.renju_notation().as_bytes(),
    ]);
    u64::from_le_bytes(d[..8].try_into().expect("16 bytes"))
}

/// The key of a scope's month index: a field per month with games, each
/// counting them.
pub fn months_key(scope: &Scope) -> Vec<u8> {
    digest(&[scope.name().as_bytes(), b"months"])
}

/// What a field counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Games that played the move `key` here.
    Move,
    /// Games that ended here, or went on past the index's depth.
    End,
    /// A fifth-move offer at `key` made here (offered, kept).
    Offer,
}

/// One counter slot of a node: what it counts and for which games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    pub kind: Kind,
    /// The move or offer, as the node's canonical form names it (0 for
    /// `End`).
    pub key: u16,
    pub speed: Speed,
    pub band: RatingBand,
    /// In a player's scope, the colour they held.
    pub color: Option<Color>,
}

impl Field {
    /// Packed: kind (2 bits), colour (2), speed (3), band (3), then 6
    /// spare bits, and the move in the low 16.
    pub fn pack(&self) -> u32 {
        let kind = match self.kind {
            Kind::Move => 0,
            Kind::End => 1,
            Kind::Offer => 2,
        };
        let color = match self.color {
            None => 0,
            Some(Color::Black) => 1,
            Some(Color::White) => 2,
        };
        let speed = Speed::ALL
            .iter()
            .position(|s| *s == self.speed)
            .unwrap_or(0) as u32;
        let band = RatingBand::ALL
            .iter()
            .position(|b| *b == self.band)
            .unwrap_or(0) as u32;
        kind << 30 | color << 28 | speed << 25 | band << 22 | u32::from(self.key)
    }

    /// The field a packed value names; `None` for a value no field packs to.
    pub fn unpack(v: u32) -> Option<Field> {
        let kind = match v >> 30 {
            0 => Kind::Move,
            1 => Kind::End,
            2 => Kind::Offer,
            _ => return None,
        };
        let color = match (v >> 28) & 3 {
            0 => None,
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => return None,
        };
        Some(Field {
            kind,
            color,
            speed: *Speed::ALL.get(((v >> 25) & 7) as usize)?,
            band: *RatingBand::ALL.get(((v >> 22) & 7) as usize)?,
            key: (v & 0xffff) as u16,
        })
    }
}

/// The counters of a game field: black won, drawn, white won, rating sum,
/// rated.
pub fn result_counts(result: ColorResult, rating: Option<f64>) -> Vec<i64> {
    let mut v = vec![0; 5];
    v[match result {
        ColorResult::Black => 0,
        ColorResult::Draw => 1,
        ColorResult::White => 2,
    }] = 1;
    if let Some(r) = rating {
        v[3] = r.round() as i64;
        v[4] = 1;
    }
    v
}

/// One of a node's latest games, as its all-time key keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Latest {
    pub game: String,
    pub finished_ms: u64,
    pub black: String,
    pub white: String,
    pub result: ColorResult,
    pub speed: Speed,
    pub band: RatingBand,
    /// In a player's scope, the colour they held.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<Color>,
}

impl Latest {
    pub fn encode(&self) -> Vec<u8> {
        rmp_serde::to_vec_named(self).expect("a latest game always encodes")
    }

    pub fn decode(bytes: &[u8]) -> Option<Latest> {
        rmp_serde::from_slice(bytes).ok()
    }
}

/// The class of a time control (see [`Speed`]).
pub fn speed_of(time: &TimeControl) -> Speed {
    const MIN: Millis = 60_000;
    let estimate = match *time {
        TimeControl::Unlimited => return Speed::Unlimited,
        TimeControl::Correspondence { .. } => return Speed::Correspondence,
        TimeControl::SuddenDeath { main_ms } => main_ms,
        TimeControl::Fischer {
            main_ms,
            increment_ms,
        } => main_ms + 40 * increment_ms,
        TimeControl::ByoYomi {
            main_ms,
            period_ms,
            moves_per_period,
            ..
        } => main_ms + 40 * period_ms / Millis::from(moves_per_period.max(1)),
        TimeControl::EightStone {
            main_ms,
            move_ms,
            stones,
            ..
        } => main_ms + Millis::from(stones) * move_ms,
    };
    match estimate {
        e if e < 3 * MIN => Speed::Bullet,
        e if e < 10 * MIN => Speed::Blitz,
        e if e < 30 * MIN => Speed::Rapid,
        _ => Speed::Classical,
    }
}

/// The month (`year * 12 + month - 1`, UTC) of a Unix time in ms.
pub fn month_of(unix_ms: u64) -> u32 {
    let days = (unix_ms / 86_400_000) as i64;
    let (y, m, _) = civil_from_days(days);
    (y as u32) * 12 + m - 1
}

/// The date (`"2026-12-05"`, UTC) of a Unix time in ms.
pub fn date_of(unix_ms: u64) -> String {
    let (y, m, d) = civil_from_days((unix_ms / 86_400_000) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// A month number as the filter writes it (`"2026-01"`).
pub fn month_name(month: u32) -> String {
    format!("{:04}-{:02}", month / 12, month % 12 + 1)
}

/// Year, month (1..=12) and day of a count of days since 1970-01-01
/// (Howard Hinnant's `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_pack_and_unpack() {
        for kind in [Kind::Move, Kind::End, Kind::Offer] {
            for color in [None, Some(Color::Black), Some(Color::White)] {
                for speed in Speed::ALL {
                    for band in RatingBand::ALL {
                        for key in [0, 1, 224, 360] {
                            let f = Field {
                                kind,
                                key,
                                speed,
                                band,
                                color,
                            };
                            assert_eq!(Field::unpack(f.pack()), Some(f));
                        }
                    }
                }
            }
        }
        assert_eq!(Field::unpack(u32::MAX), None);
    }

    #[test]
    fn dates() {
        assert_eq!(date_of(0), "1970-01-01");
        // 2026-12-05T12:00:00Z
        assert_eq!(date_of(1_796_472_000_000), "2026-12-05");
        assert_eq!(month_name(month_of(1_796_472_000_000)), "2026-12");
        // 2024-02-29 (a leap day) and the next day.
        assert_eq!(date_of(1_709_164_800_000), "2024-02-29");
        assert_eq!(date_of(1_709_251_200_000), "2024-03-01");
    }

    #[test]
    fn speeds() {
        let min = 60_000;
        assert_eq!(speed_of(&TimeControl::Unlimited), Speed::Unlimited);
        assert_eq!(
            speed_of(&TimeControl::SuddenDeath { main_ms: 2 * min }),
            Speed::Bullet
        );
        assert_eq!(
            speed_of(&TimeControl::Fischer {
                main_ms: 3 * min,
                increment_ms: 2_000
            }),
            Speed::Blitz
        );
        assert_eq!(
            speed_of(&TimeControl::ByoYomi {
                main_ms: 10 * min,
                periods: 3,
                period_ms: 20_000,
                moves_per_period: 1
            }),
            Speed::Rapid
        );
        assert_eq!(
            speed_of(&TimeControl::Correspondence {
                move_ms: 86_400_000,
                vacation_ms: 0
            }),
            Speed::Correspondence
        );
    }
}
