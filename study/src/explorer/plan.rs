//! What one finished game adds to the index: its counter additions and
//! the latest-game entries, as plain keys, fields and numbers for the
//! store's tally.

use tengen_rules::Color;

use super::{Field, GameFacts, Kind, Latest, Period, Scope, months_key, node_key, result_counts};
use crate::canon::Canonical;

/// A game's additions to the index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// (key, packed field, values to add).
    pub counts: Vec<(Vec<u8>, u32, Vec<i64>)>,
    /// (key, a [`Latest`] encoded): pushed on the key's latest games.
    pub latest: Vec<(Vec<u8>, Vec<u8>)>,
}

/// The additions of `game` to an index `depth` moves deep: in everyone's
/// scope, and in the scope of each account that played it (with the
/// colour it held), at every position from the empty board to the
/// `depth`-th move, in the game's month and in all time.
pub fn plan(game: &GameFacts, depth: u32) -> Plan {
    let month = super::month_of(game.finished_ms);
    let scope = |player: Option<&String>| Scope {
        rule_set: game.rule_set,
        opening: game.opening,
        size: game.size,
        player: player.cloned(),
    };
    let mut scopes = vec![(scope(None), None)];
    if let Some(a) = &game.black_account {
        scopes.push((scope(Some(a)), Some(Color::Black)));
    }
    if let Some(a) = &game.white_account {
        scopes.push((scope(Some(a)), Some(Color::White)));
    }
    let counts = result_counts(game.result, game.rating);
    let last = game.moves.len().min(depth as usize);
    let mut plan = Plan::default();
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for ply in 0..=last {
        let form = Canonical::of(game.size, &black, &white);
        let (kind, key) = match game.moves.get(ply) {
            Some(&p) if ply < last => (Kind::Move, form.move_key(p)),
            _ => (Kind::End, 0),
        };
        let offers: Vec<(u16, bool)> = game
            .offers
            .iter()
            .filter(|o| o.0 == ply)
            .flat_map(|(_, points, kept)| {
                points
                    .iter()
                    .map(|&p| (form.move_key(p), Some(p) == *kept))
                    .collect::<Vec<_>>()
            })
            .collect();
        for (scope, color) in &scopes {
            let field = |kind, key| {
                Field {
                    kind,
                    key,
                    speed: game.speed,
                    band: game.band,
                    color: *color,
                }
                .pack()
            };
            for period in [Period::All, Period::Month(month)] {
                let node = node_key(scope, &form, period);
                plan.counts
                    .push((node.clone(), field(kind, key), counts.clone()));
                for &(offer, kept) in &offers {
                    let values = vec![1, i64::from(kept)];
                    plan.counts
                        .push((node.clone(), field(Kind::Offer, offer), values));
                }
                if period == Period::All {
                    let latest = Latest {
                        game: game.id.clone(),
                        finished_ms: game.finished_ms,
                        black: game.black_name.clone(),
                        white: game.white_name.clone(),
                        result: game.result,
                        speed: game.speed,
                        band: game.band,
                        color: *color,
                    };
                    plan.latest.push((node, latest.encode()));
                }
            }
        }
        if let Some(&p) = game.moves.get(ply) {
            if ply % 2 == 0 {
                black.push(p);
            } else {
                white.push(p);
            }
        }
    }
    for (scope, _) in &scopes {
        plan.counts.push((months_key(scope), month, vec![1]));
    }
    plan
}
