//! Reading a position's view out of the index: which keys to read for a
//! query, and the sums of what they hold under its filter.

use std::collections::BTreeMap;

use tengen_protocol::study::parse_month;
use tengen_protocol::{
    ExplorerFilter, ExplorerGame, ExplorerView, NextMove, NodeStats, OfferCount, OpeningName,
    TableId,
};
use tengen_rules::game::{Opening, RuleSet};
use tengen_rules::opening::{CanonicalOpening, recognize_52};
use tengen_rules::{Color, Point};

use super::{Field, Kind, Latest, MAX_MONTHS, Period, Scope, months_key, node_key};
use crate::canon::Canonical;

/// A position asked for, and the games to count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    pub rule_set: RuleSet,
    pub opening: Opening,
    pub size: u8,
    /// From the empty board, in play order (black first).
    pub moves: Vec<Point>,
    pub filter: ExplorerFilter,
    /// The index's depth.
    pub depth: u32,
}

/// Why a query cannot be answered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    #[error("{0} is off the {1}x{1} board")]
    OffBoard(Point, u8),
    #[error("{0} is played twice")]
    Twice(Point),
    #[error("'{0}' is not a month like 2026-01")]
    Month(String),
    #[error("since is after until")]
    Backwards,
    #[error("a period of at most {MAX_MONTHS} months, please")]
    TooLong,
    #[error("twin games (two boards) are not indexed")]
    TwoBoards,
}

/// What the keys of a query hold: each node key's fields with their
/// counters, and the all-time node's latest games (encoded, newest first).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rows {
    pub counts: Vec<Vec<(u32, Vec<i64>)>>,
    pub latest: Vec<Vec<u8>>,
}

impl Query {
    /// The part of the index the query reads.
    pub fn scope(&self) -> Scope {
        Scope {
            rule_set: self.rule_set,
            opening: self.opening,
            size: self.size,
            player: self.filter.player.as_ref().map(|p| p.to_lowercase()),
        }
    }

    /// The position asked for, in canonical form.
    pub fn form(&self) -> Result<Canonical, QueryError> {
        if self.rule_set.boards() > 1 {
            return Err(QueryError::TwoBoards);
        }
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for (i, &p) in self.moves.iter().enumerate() {
            if !p.on_board(self.size) {
                return Err(QueryError::OffBoard(p, self.size));
            }
            if self.moves[..i].contains(&p) {
                return Err(QueryError::Twice(p));
            }
            if i % 2 == 0 {
                black.push(p);
            } else {
                white.push(p);
            }
        }
        Ok(Canonical::of(self.size, &black, &white))
    }

    /// The key of the scope's month index (read first when the filter has
    /// a period).
    pub fn months_key(&self) -> Vec<u8> {
        months_key(&self.scope())
    }

    /// Whether the filter names a period (then the month index is read
    /// first, and [`Query::node_keys`] given its months).
    pub fn has_period(&self) -> bool {
        self.filter.since.is_some() || self.filter.until.is_some()
    }

    fn bounds(&self) -> Result<(u32, u32), QueryError> {
        let month = |m: &Option<String>, default| match m {
            None => Ok(default),
            Some(s) => parse_month(s).ok_or_else(|| QueryError::Month(s.clone())),
        };
        let (since, until) = (
            month(&self.filter.since, 0)?,
            month(&self.filter.until, u32::MAX)?,
        );
        if since > until {
            return Err(QueryError::Backwards);
        }
        Ok((since, until))
    }

    /// The node keys to read: the all-time node, or with a period the
    /// node of each month in it that has games (`months`: the scope's
    /// month index's fields). The all-time node comes first either way:
    /// its latest games are read with it.
    pub fn node_keys(&self, form: &Canonical, months: &[u32]) -> Result<Vec<Vec<u8>>, QueryError> {
        let scope = self.scope();
        let mut keys = vec![node_key(&scope, form, Period::All)];
        if !self.has_period() {
            return Ok(keys);
        }
        let (since, until) = self.bounds()?;
        let chosen: Vec<u32> = months
            .iter()
            .copied()
            .filter(|m| (since..=until).contains(m))
            .collect();
        if chosen.len() > MAX_MONTHS {
            return Err(QueryError::TooLong);
        }
        keys.extend(
            chosen
                .into_iter()
                .map(|m| node_key(&scope, form, Period::Month(m))),
        );
        Ok(keys)
    }

    /// Whether a field's games pass the filter.
    fn admits(&self, f: &Field) -> bool {
        (self.filter.speeds.is_empty() || self.filter.speeds.contains(&f.speed))
            && (self.filter.bands.is_empty() || self.filter.bands.contains(&f.band))
            && (self.filter.color.is_none()
                || self.filter.player.is_none()
                || f.color == self.filter.color)
    }

    fn admits_latest(&self, l: &Latest) -> Result<bool, QueryError> {
        let (since, until) = self.bounds()?;
        let month = super::month_of(l.finished_ms);
        Ok(
            (self.filter.speeds.is_empty() || self.filter.speeds.contains(&l.speed))
                && (self.filter.bands.is_empty() || self.filter.bands.contains(&l.band))
                && (self.filter.color.is_none()
                    || self.filter.player.is_none()
                    || l.color == self.filter.color)
                && (since..=until).contains(&month),
        )
    }
}

#[derive(Default)]
struct Sums {
    black: u64,
    draws: u64,
    white: u64,
    rating_sum: i64,
    rated: u64,
}

impl Sums {
    fn add(&mut self, v: &[i64]) {
        let at = |i: usize| v.get(i).copied().unwrap_or(0);
        self.black += at(0).max(0) as u64;
        self.draws += at(1).max(0) as u64;
        self.white += at(2).max(0) as u64;
        self.rating_sum += at(3);
        self.rated += at(4).max(0) as u64;
    }

    fn stats(&self) -> NodeStats {
        NodeStats {
            games: self.black + self.draws + self.white,
            black: self.black,
            draws: self.draws,
            white: self.white,
            rating: (self.rated > 0).then(|| (self.rating_sum / self.rated as i64).max(0) as u32),
        }
    }
}

/// The view of `query`'s position (`form`) from what its keys hold: with
/// a period, the month nodes' sums (the first row, all time, gives only
/// the latest games); without, the all-time node's.
pub fn view(query: &Query, form: &Canonical, rows: &Rows) -> Result<ExplorerView, QueryError> {
    let counted: &[Vec<(u32, Vec<i64>)>] = if query.has_period() {
        rows.counts.get(1..).unwrap_or(&[])
    } else {
        rows.counts.get(..1).unwrap_or(&[])
    };
    let mut total = Sums::default();
    let mut next: BTreeMap<u16, Sums> = BTreeMap::new();
    let mut offers: BTreeMap<u16, (u64, u64)> = BTreeMap::new();
    for (packed, values) in counted.iter().flatten() {
        let Some(f) = Field::unpack(*packed) else {
            continue;
        };
        if !query.admits(&f) {
            continue;
        }
        match f.kind {
            Kind::Move => {
                total.add(values);
                next.entry(f.key).or_default().add(values);
            }
            Kind::End => total.add(values),
            Kind::Offer => {
                let o = offers.entry(f.key).or_default();
                o.0 += values.first().copied().unwrap_or(0).max(0) as u64;
                o.1 += values.get(1).copied().unwrap_or(0).max(0) as u64;
            }
        }
    }
    let mut next: Vec<NextMove> = next
        .into_iter()
        .map(|(key, s)| NextMove {
            point: form.to_asker(key),
            stats: s.stats(),
        })
        .filter(|m| m.stats.games > 0)
        .collect();
    next.sort_by(|a, b| {
        b.stats
            .games
            .cmp(&a.stats.games)
            .then(a.point.cmp(&b.point))
    });
    let mut offers: Vec<OfferCount> = offers
        .into_iter()
        .map(|(key, (offered, kept))| OfferCount {
            point: form.to_asker(key),
            offered,
            kept,
        })
        .filter(|o| o.offered > 0)
        .collect();
    offers.sort_by(|a, b| b.offered.cmp(&a.offered).then(a.point.cmp(&b.point)));
    let mut games = Vec::new();
    for bytes in &rows.latest {
        let Some(l) = Latest::decode(bytes) else {
            continue;
        };
        let Ok(game) = l.game.parse::<TableId>() else {
            continue;
        };
        if query.admits_latest(&l)? {
            games.push(ExplorerGame {
                game,
                black: l.black,
                white: l.white,
                result: l.result,
                finished_ms: l.finished_ms,
                speed: l.speed,
                band: l.band,
            });
        }
    }
    games.sort_by_key(|g| std::cmp::Reverse(g.finished_ms));
    games.truncate(super::LATEST as usize);
    Ok(ExplorerView {
        rule_set: query.rule_set,
        opening: query.opening,
        board_size: query.size,
        moves: query.moves.clone(),
        filter: query.filter.clone(),
        to_move: if query.moves.len().is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        },
        opening_name: opening_name(query),
        stats: total.stats(),
        next,
        offers,
        games,
        depth: query.depth,
    })
}

/// The canonical opening of the first three moves, in renju.
fn opening_name(query: &Query) -> Option<OpeningName> {
    let [b1, w2, b3, ..] = query.moves[..] else {
        return None;
    };
    if query.rule_set != RuleSet::Renju {
        return None;
    }
    let o = if query.opening == Opening::Yamaguchi52 {
        recognize_52(b1, w2, b3)
    } else {
        CanonicalOpening::recognize(b1, w2, b3)
    }?;
    Some(OpeningName {
        code: o.code.to_owned(),
        name: o.romanized.to_owned(),
        chinese: o.chinese.to_owned(),
    })
}
