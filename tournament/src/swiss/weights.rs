//! The Dutch criteria as matching weights. Each legal pair gets a penalty
//! made of tiers, each tier weighted above the largest possible total of
//! all tiers below it, so the matching compares pairings tier by tier:
//!
//! 1. the bye: its receiver's score, then their unplayed rounds, then
//!    their rank from the bottom (the bye goes to the lowest-scored
//!    eligible player with the fewest games missed, the lowest-ranked of
//!    those);
//! 2. score differences (squared, in half points): as few and as small
//!    floats as possible;
//! 3. seat preferences denied (a strong wish counts double);
//! 4. floating the same way as in the last round;
//! 5. position: within a score group the top half meets the bottom half
//!    in order (1st v (k+1)th ...), transpositions cost their distance,
//!    pairs inside one half (exchanges) cost more; a downfloater should be
//!    the lowest of its group and meet the highest of the next.
//!
//! Every edge also carries a constant larger than any matching's total
//! penalty, so the matching first maximises the number of pairs.

use integer_blossom::max_weight_matching;

use super::colours::{clash, compatible, preference};
use super::player::{Float, SwissPlayer};

/// Where each player sits: score group, position in it, group size.
struct Place {
    pos: i128,
    size: i128,
}

fn places(order: &[&SwissPlayer]) -> Vec<Place> {
    let mut out = Vec::with_capacity(order.len());
    let mut start = 0;
    while start < order.len() {
        let end = (start..order.len())
            .find(|&k| order[k].score != order[start].score)
            .unwrap_or(order.len());
        for k in start..end {
            out.push(Place {
                pos: (k - start) as i128,
                size: (end - start) as i128,
            });
        }
        start = end;
    }
    out
}

/// The per-tier penalties of one pair (or of a bye when `b` is None).
#[derive(Default)]
struct Tiers {
    bye: i128,
    score: i128,
    colour: i128,
    float: i128,
    position: i128,
}

fn pair_tiers(order: &[&SwissPlayer], pl: &[Place], i: usize, j: usize) -> Tiers {
    let (a, b) = (order[i], order[j]);
    let d = i128::from(a.score.0) - i128::from(b.score.0);
    let mut t = Tiers {
        score: d * d,
        colour: i128::from(clash(preference(&a.seats), preference(&b.seats))),
        ..Tiers::default()
    };
    let (pa, pb) = (&pl[i], &pl[j]);
    if d == 0 {
        let half = pa.size / 2;
        let (lo, hi) = (pa.pos.min(pb.pos), pa.pos.max(pb.pos));
        t.position = (hi - lo - half).abs();
        if hi < half || lo >= half {
            t.position += pa.size;
        }
    } else {
        // i is above j in the order, so i floats down and j up.
        t.float = i128::from(a.last_float == Some(Float::Down))
            + i128::from(b.last_float == Some(Float::Up));
        t.position = (pa.size - 1 - pa.pos) + pb.pos;
    }
    t
}

/// Solves the matching. Returns each player's partner by order index
/// (`None` for the bye), or `None` when no legal pairing exists.
pub(super) fn solve(order: &[&SwissPlayer]) -> Option<Vec<Option<usize>>> {
    let n = order.len();
    let odd = n % 2 == 1;
    let v = n + usize::from(odd);
    let pl = places(order);
    let n_i = n as i128;
    let top = order
        .iter()
        .map(|p| i128::from(p.score.0))
        .max()
        .unwrap_or(0);
    let bottom = order
        .iter()
        .map(|p| i128::from(p.score.0))
        .min()
        .unwrap_or(0);
    let pairs = (v / 2) as i128 + 1;
    // Tier weights: each above the total the tiers below can reach.
    let k_float = pairs * 2 * n_i + 1;
    let k_colour = k_float * (pairs * 2 + 1);
    let k_score = k_colour * (pairs * 2 + 1);
    let k_bye = k_score * (pairs * (top - bottom) * (top - bottom) + 1);
    let rounds = order
        .iter()
        .map(|p| i128::from(p.unplayed_rounds))
        .max()
        .unwrap_or(0)
        + 1;
    let max_edge = k_bye * ((top + 1) * rounds * n_i + 1);
    let base = (pairs + 1) * max_edge + 1;
    let penalty = |t: Tiers| {
        t.bye * k_bye + t.score * k_score + t.colour * k_colour + t.float * k_float + t.position
    };

    let mut w = vec![0i128; v * v];
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (order[i], order[j]);
            if a.opponents.contains(&b.id)
                || b.opponents.contains(&a.id)
                || !compatible(preference(&a.seats), preference(&b.seats))
            {
                continue;
            }
            w[i * v + j] = base - penalty(pair_tiers(order, &pl, i, j));
        }
        if odd && !order[i].had_bye {
            let t = Tiers {
                bye: (i128::from(order[i].score.0) * rounds + i128::from(order[i].unplayed_rounds))
                    * n_i
                    + (n_i - 1 - i as i128),
                ..Tiers::default()
            };
            w[i * v + n] = base - penalty(t);
        }
    }
    let mate = max_weight_matching(&w, v);
    // An unmatched real player means no legal pairing; the dummy vertex
    // (index n) is the bye.
    mate.iter()
        .take(n)
        .map(|m| m.map(|j| (j < n).then_some(j)))
        .collect()
}
