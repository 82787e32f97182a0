//! The Dutch system's pairing of one round, bracket by bracket from the
//! top score group down (FIDE C.04.3, articles 2 to 4), done as
//! bbpPairings does it: a maximum-weight matching over all players whose
//! edge weights pack the criteria in priority order, one field each, so
//! that a better matching is a better pairing by the first criterion that
//! differs. Absolute criteria (C1 no rematch, C3 seats) remove the edge;
//! the completion criterion (C4) and the bye (C2, C5) sit in the top field
//! of every edge, so whatever the current bracket does, the rest of the
//! field stays pairable and the bye goes to the lowest score that can
//! take it. Each bracket then fixes its decisions in the order the rules
//! generate candidates (which moved-down players are paired, with whom,
//! which residents are exchanged, then each S1 player's partner), each
//! decision the first in that order that an optimal matching allows, so
//! where every criterion ties the rules' first candidate is the one made.

use std::collections::HashMap;

use super::colours::{Colours, agree};
use super::player::{Float, SwissPlayer};
use super::wide::{Field, Graph};

/// What the round needs beyond the players.
pub(super) struct Context {
    /// Rounds already played.
    pub played_rounds: u32,
    /// This round is the last: topscorers may break C3.
    pub last_round: bool,
    /// Points (halves) of the most a round can give: a win.
    pub round_max: u32,
}

/// One player as the procedure sees them (sorted: score down, then
/// pairing number).
struct Vertex {
    score: u32,
    colours: Colours,
    bye_eligible: bool,
    played: usize,
    floats: [Option<Float>; 2],
    topscorer: bool,
}

/// The bit layout of a weight: `b` bits count players of one score group,
/// `s` bits hold one count per score group (`shift` of a score is where
/// its count starts), `room` bits the ordering adjustments.
struct Layout {
    b: u32,
    s: u32,
    room: u32,
    shift: HashMap<u32, u32>,
}

fn bits(x: usize) -> u32 {
    usize::BITS - x.leading_zeros()
}

impl Layout {
    fn new(scores: &[u32]) -> Layout {
        let mut shift = HashMap::new();
        let (mut s, mut biggest) = (0, 0);
        let mut end = scores.len();
        while end > 0 {
            let start = scores[..end]
                .iter()
                .rposition(|x| *x != scores[end - 1])
                .map_or(0, |k| k + 1);
            shift.insert(scores[end - 1], s);
            s += bits(end - start);
            biggest = biggest.max(end - start);
            end = start;
        }
        let b = bits(biggest);
        Layout {
            b,
            s,
            room: b.max(bits(scores.len()) + 1),
            shift,
        }
    }

    /// Bits of the widest weight, with room for the matching's sums.
    fn total(&self, played_rounds: u32) -> u32 {
        let floats = match played_rounds {
            0 => 0,
            1 => 2 * self.b + 2 * self.s,
            _ => 4 * self.b + 4 * self.s,
        };
        2 + 2 * self.b + 2 * self.s + 2 * self.b + 4 * self.b + floats + 3 * self.room + 1
    }
}

/// The pairs (by input index) and the player left over, or `None` when no
/// pairing satisfies the absolute criteria.
pub(super) type Mates = Vec<Option<usize>>;

/// Pairs `players` (any order). Returns each player's partner by index
/// (`None` for the bye), or `None` when no legal pairing exists.
pub(super) fn pair(players: &[SwissPlayer], cx: &Context) -> Option<Mates> {
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by(|&a, &b| {
        players[b]
            .score
            .cmp(&players[a].score)
            .then(players[a].rank.cmp(&players[b].rank))
    });
    let scores: Vec<u32> = order.iter().map(|&i| players[i].score.0).collect();
    let layout = Layout::new(&scores);
    let need = layout.total(cx.played_rounds) + bits(players.len()) + 6;
    let sorted: Vec<&SwissPlayer> = order.iter().map(|&i| &players[i]).collect();
    let mates = match need {
        0..=127 => Dutch::<super::wide::Wide<2>>::run(&sorted, cx, layout),
        128..=255 => Dutch::<super::wide::Wide<4>>::run(&sorted, cx, layout),
        256..=511 => Dutch::<super::wide::Wide<8>>::run(&sorted, cx, layout),
        512..=1023 => Dutch::<super::wide::Wide<16>>::run(&sorted, cx, layout),
        1024..=2047 => Dutch::<super::wide::Wide<32>>::run(&sorted, cx, layout),
        _ => Dutch::<super::wide::Wide<64>>::run(&sorted, cx, layout),
    }?;
    let mut out = vec![None; players.len()];
    for (v, m) in mates.iter().enumerate() {
        out[order[v]] = m.map(|u| order[u]);
    }
    Some(out)
}

struct Dutch<'a, W> {
    v: Vec<Vertex>,
    met: Vec<Vec<bool>>,
    cx: &'a Context,
    layout: Layout,
    /// The lowest score the bye can go to (odd fields), else 0.
    bye_score: u32,
    /// C9 (fewest unplayed games of the bye's receiver) is in force for
    /// the bracket being paired.
    single_bye: bool,
    /// C9's order of the bye candidates: by games played, most first.
    unplayed_rank: HashMap<usize, u64>,
    g: Graph<W>,
}

impl<'a, W: Field> Dutch<'a, W> {
    fn run(sorted: &[&SwissPlayer], cx: &'a Context, layout: Layout) -> Option<Mates> {
        let n = sorted.len();
        let index: HashMap<_, _> = sorted.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
        let mut met = vec![vec![false; n]; n];
        for (i, p) in sorted.iter().enumerate() {
            for o in &p.opponents {
                if let Some(&j) = index.get(o) {
                    met[i][j] = true;
                    met[j][i] = true;
                }
            }
        }
        let v = sorted
            .iter()
            .map(|p| Vertex {
                score: p.score.0,
                colours: Colours::of(&p.seats),
                bye_eligible: !p.bye_barred,
                played: p.played(),
                floats: p.floats,
                topscorer: 2 * p.score.0 > cx.played_rounds * cx.round_max,
            })
            .collect();
        let mut d: Dutch<W> = Dutch {
            v,
            met,
            cx,
            layout,
            bye_score: 0,
            single_bye: false,
            unplayed_rank: HashMap::new(),
            g: Graph::new(n),
        };
        d.start()?;
        d.brackets()
    }

    fn compatible(&self, a: usize, b: usize) -> bool {
        let (x, y) = (&self.v[a], &self.v[b]);
        !self.met[a][b]
            && (!x.colours.absolute()
                || !y.colours.absolute()
                || x.colours.seat() != y.colours.seat()
                || (self.cx.last_round && (x.topscorer || y.topscorer)))
    }

    fn bye_candidate(&self, a: usize) -> bool {
        self.v[a].bye_eligible && self.v[a].score <= self.bye_score
    }

    fn shift(&self, a: usize) -> u32 {
        self.layout.shift[&self.v[a].score]
    }

    fn one_at(&self, a: usize) -> W {
        W::ONE << self.shift(a)
    }

    /// The weight of pairing `h` (higher in the order) with `l`: `cur`
    /// when `l` is in the bracket being paired, `next` when in the next.
    fn edge(&self, h: usize, l: usize, cur: bool, next: bool) -> W {
        if !self.compatible(h, l) {
            return W::ZERO;
        }
        let Layout { b, s, room, .. } = self.layout;
        let flag = |x: bool| W::small(u64::from(x));
        let (vh, vl) = (&self.v[h], &self.v[l]);
        // C4 and the bye (C2, C5): pair every player who cannot take it.
        let mut r =
            W::small(1 + u64::from(!self.bye_candidate(h)) + u64::from(!self.bye_candidate(l)));
        // C6: pairs in the bracket; C7: their scores (the downfloaters'
        // scores as low as can be).
        r = (r << b) | flag(cur);
        r = r << s;
        if cur {
            r = r | self.one_at(h);
        }
        // C8: the same in the next bracket.
        r = (r << b) | flag(next);
        r = r << s;
        if next {
            r = r | self.one_at(h);
        }
        // C9: the bye to the candidate who has played the most.
        r = r << (2 * b);
        if self.single_bye {
            for x in [h, l] {
                if self.v[x].score == self.bye_score {
                    r += W::small(self.unplayed_rank[&self.v[x].played]);
                }
            }
        }
        // C10-C13: colours (only inside the bracket).
        let (cl, ch) = (&vl.colours, &vh.colours);
        let same = cl.seat() == ch.seat();
        r = (r << b) | flag(cur && !(cl.imbalance > 1 && ch.imbalance > 1 && same));
        r = (r << b) | flag(cur && no_third_in_a_row(cl, ch));
        r = (r << b) | flag(cur && agree(cl, ch));
        let weak = |c: &Colours| !c.strong() && !c.absolute();
        r = (r << b)
            | flag(cur && (weak(cl) || weak(ch) || (cl.absolute() && ch.absolute()) || !same));
        // C14-C17: repeated floats, last round then the one before.
        let float_rounds = self.cx.played_rounds.min(2) as usize;
        for k in 0..float_rounds {
            r = r << b;
            if cur {
                r += flag(vl.floats[k] == Some(Float::Down));
                r += flag(vh.score <= vl.score && vh.floats[k] == Some(Float::Down));
            }
            r = (r << b) | flag(cur && !(vh.score > vl.score && vl.floats[k] == Some(Float::Up)));
        }
        // C18-C21: the scores involved in those repeated floats.
        for k in 0..float_rounds {
            r = r << s;
            if cur {
                if vl.floats[k] == Some(Float::Down) {
                    r += self.one_at(l);
                }
                if vh.floats[k] == Some(Float::Down) {
                    r += self.one_at(h);
                }
            }
            r = r << s;
            if cur && !(vl.floats[k] == Some(Float::Up) && vh.score > vl.score) {
                r = r | self.one_at(h);
            }
        }
        // Room for the ordering of candidates.
        r << (3 * room + 1)
    }

    /// The first matching: whether a legal pairing exists at all, and for
    /// an odd field the lowest score the bye can go to.
    fn start(&mut self) -> Option<()> {
        let n = self.v.len();
        let odd = n % 2 == 1;
        let Layout { b, s, .. } = self.layout;
        for j in 0..n {
            for i in 0..j {
                let w = if odd {
                    if self.compatible(i, j) {
                        let eligible = |x: usize| u64::from(!self.v[x].bye_eligible);
                        let top = self.v[j].score >= self.v[0].score;
                        ((W::small(1 + eligible(i) + eligible(j)) << s)
                            | W::small(u64::from(self.shift(i) + self.shift(j))))
                            << b
                            | W::small(u64::from(top))
                    } else {
                        W::ZERO
                    }
                } else {
                    self.edge(i, j, false, false)
                };
                self.g.set(i, j, w);
            }
        }
        let m = self.g.solve();
        let mut left = (0..n).filter(|&x| m[x] == x);
        let bye = left.next();
        if left.next().is_some() || bye.is_some_and(|x| !self.v[x].bye_eligible) {
            return None;
        }
        let Some(bye) = bye else {
            return Some(());
        };
        self.bye_score = self.v[bye].score;
        let top = self.v[0].score;
        self.single_bye = self.bye_score >= top
            && (0..n)
                .take_while(|&x| self.v[x].score >= top)
                .all(|x| self.v[m[x]].score >= top);
        let mut played: Vec<usize> = (0..n)
            .filter(|&x| self.v[x].score == self.bye_score)
            .map(|x| self.v[x].played)
            .collect();
        played.sort_unstable_by(|a, b| b.cmp(a));
        for (rank, p) in played.into_iter().enumerate() {
            self.unplayed_rank.insert(p, rank as u64);
        }
        for j in 0..n {
            for i in 0..j {
                let w = self.edge(i, j, false, false);
                self.g.set(i, j, w);
            }
        }
        Some(())
    }

    /// Pairs the brackets from the top down; returns each vertex's mate,
    /// or `None` if more than one player is left over.
    fn brackets(mut self) -> Option<Mates> {
        let n = self.v.len();
        let mut mates: Mates = vec![None; n];
        let group_end = |from: usize| {
            (from..n)
                .find(|&x| self.v[x].score != self.v[from].score)
                .unwrap_or(n)
        };
        // The players of the bracket and the next score group, by vertex:
        // `[0, md)` moved down, `[md, cur_end)` residents, then the next
        // group.
        let mut p: Vec<usize> = (0..group_end(0)).collect();
        let mut md = 0;
        let mut next_start = p.len();
        while p.len() > 1 || next_start < n {
            let cur_end = p.len();
            if md == cur_end && next_start == n {
                // Only players moved down and nowhere left to go.
                return None;
            }
            let res_start = if md < cur_end { p[md] } else { next_start };
            let res_end = res_start + (cur_end - md);
            let following = if next_start < n {
                group_end(next_start)
            } else {
                n
            };
            p.extend(next_start..following);
            let next_score = self.v.get(next_start).map(|x| x.score);
            next_start = following;
            let in_cur = |u: usize| u >= res_start && u < res_end;

            let mut base: HashMap<(usize, usize), W> = HashMap::new();
            for lj in md..p.len() {
                for li in 0..lj {
                    let w = self.edge(p[li], p[lj], lj < cur_end, lj >= cur_end);
                    base.insert((li, lj), w);
                    self.g.set(p[li], p[lj], w);
                }
            }
            let base_of = |base: &HashMap<(usize, usize), W>, a: usize, b: usize| {
                base.get(&(a.min(b), a.max(b))).copied().unwrap_or(W::ZERO)
            };
            let mut m = self.g.solve();

            // Which moved-down players are paired here: per score, the
            // first ones that can be.
            let mut paired_md = vec![false; md];
            let mut k = 0;
            while k < md {
                let score = self.v[p[k]].score;
                let end = (k..md).find(|&x| self.v[p[x]].score != score).unwrap_or(md);
                let mut can = (k..end).filter(|&x| in_cur(m[p[x]])).count();
                let mut left = end - k;
                for x in k..end {
                    if can == 0 {
                        break;
                    }
                    if left <= can {
                        paired_md[x] = true;
                        continue;
                    }
                    left -= 1;
                    if !in_cur(m[p[x]]) {
                        for o in md..cur_end {
                            let w = base_of(&base, x, o);
                            if !w.is_zero() {
                                self.g.set(p[x], p[o], w | W::ONE);
                            }
                        }
                        m = self.g.solve();
                    }
                    if in_cur(m[p[x]]) {
                        paired_md[x] = true;
                        can -= 1;
                        for o in md..cur_end {
                            let w = base_of(&base, x, o);
                            if !w.is_zero() {
                                let bonus = W::small((cur_end - md) as u64 + 1);
                                self.g.set(p[x], p[o], w + bonus);
                            }
                        }
                    }
                }
                k = end;
            }

            // Their opponents: each the highest resident that still
            // allows the best pairing.
            let mut taken = vec![false; p.len()];
            for x in 0..md {
                if !paired_md[x] {
                    continue;
                }
                let mut addend = p.len() as u64;
                for o in (md..cur_end).rev() {
                    if taken[o] {
                        continue;
                    }
                    let w = base_of(&base, x, o);
                    if !w.is_zero() {
                        self.g.set(p[x], p[o], w + W::small(addend));
                        addend += 1;
                    }
                }
                m = self.g.solve();
                let mate = m[p[x]];
                let o = p
                    .iter()
                    .position(|&u| u == mate)
                    .expect("an MDP's mate is in the bracket");
                taken[x] = true;
                taken[o] = true;
                self.g.fix_pair(p[x], mate);
            }

            // The remainder: residents not paired with a moved-down
            // player; its first `pairs` players are S1.
            let remainder: Vec<usize> = (md..cur_end).filter(|&x| m[p[x]] >= res_start).collect();
            let pairs = remainder
                .iter()
                .filter(|&&x| m[p[x]] < p[x] && m[p[x]] >= res_start)
                .count();
            let room = self.layout.room;
            let ordered =
                |base: &HashMap<(usize, usize), W>, small: usize, large: usize, idx: usize| {
                    let w = base_of(base, small, large);
                    if w.is_zero() {
                        return w;
                    }
                    // Fewest exchanges, then the smallest exchanged numbers.
                    let s1 = W::small(u64::from(idx < pairs)) << (2 * room);
                    (w + (s1 << 1)) - (W::small(idx as u64) << 1)
                };
            for (bi, &o) in remainder.iter().enumerate() {
                for (ai, &a) in remainder[..bi].iter().enumerate() {
                    self.g.set(p[a], p[o], ordered(&base, a, o, ai));
                }
            }
            m = self.g.solve();
            let leads = |m: &[usize], x: usize| m[p[x]] > p[x] && m[p[x]] < res_end;
            let exchanges = remainder[..pairs]
                .iter()
                .filter(|&&x| !leads(&m, x))
                .count();

            // Exchanges out of S1: the lowest players first.
            let mut remaining = exchanges;
            for idx in (0..pairs).rev() {
                if remaining == 0 {
                    break;
                }
                let a = remainder[idx];
                if leads(&m, a) {
                    for &o in &remainder[idx + 1..] {
                        let w = ordered(&base, a, o, idx);
                        if !w.is_zero() {
                            self.g.set(p[a], p[o], w - W::ONE);
                        }
                    }
                    m = self.g.solve();
                }
                let out = !leads(&m, a);
                if out {
                    remaining -= 1;
                }
                for &o in &remainder[idx + 1..] {
                    if out {
                        base.insert((a, o), W::ZERO);
                    }
                    self.g.set(p[a], p[o], ordered(&base, a, o, idx));
                }
            }

            // Exchanges into S1: the highest players of S2 first.
            let mut remaining = exchanges;
            for idx in pairs..remainder.len() {
                if remaining <= 1 {
                    break;
                }
                let a = remainder[idx];
                let already = leads(&m, a);
                if !already {
                    for &o in &remainder[idx + 1..] {
                        let w = ordered(&base, a, o, idx);
                        if !w.is_zero() {
                            self.g.set(p[a], p[o], w + W::ONE);
                        }
                    }
                    m = self.g.solve();
                }
                if leads(&m, a) {
                    remaining -= 1;
                    for &o in &remainder[..idx] {
                        base.insert((o, a), W::ZERO);
                        self.g.set(p[a], p[o], W::ZERO);
                    }
                    for o in cur_end..p.len() {
                        base.insert((a, o), W::ZERO);
                        self.g.set(p[a], p[o], W::ZERO);
                    }
                }
                if !already {
                    for &o in &remainder[idx + 1..] {
                        self.g.set(p[a], p[o], ordered(&base, a, o, idx));
                    }
                }
            }

            // Fix who leads a pair (S1) and who follows (S2).
            for (ai, &a) in remainder.iter().enumerate() {
                for &o in &remainder[ai + 1..] {
                    if !leads(&m, a) || leads(&m, o) {
                        base.insert((a, o), W::ZERO);
                    }
                    self.g.set(p[a], p[o], base_of(&base, a, o));
                }
            }

            // Each S1 player, in order, takes the highest S2 player that
            // still allows the best pairing.
            for &a in &remainder {
                if !leads(&m, a) {
                    continue;
                }
                let mut addend = 0u64;
                for &o in remainder.iter().rev() {
                    if o <= a || taken[o] {
                        continue;
                    }
                    let w = base_of(&base, a, o);
                    if !w.is_zero() {
                        self.g.set(p[a], p[o], w + W::small(addend));
                    }
                    addend += 1;
                }
                m = self.g.solve();
                let mate = m[p[a]];
                let o = p
                    .iter()
                    .position(|&u| u == mate)
                    .expect("an S1 player's mate is in the bracket");
                taken[a] = true;
                taken[o] = true;
                self.g.fix_pair(p[a], mate);
            }

            // The next bracket: this one's downfloaters, then the next
            // score group.
            let mut np = Vec::new();
            let mut nmd = 0;
            self.single_bye =
                self.v.len() % 2 == 1 && next_score.is_some_and(|s| self.bye_score >= s);
            for (x, &u) in p.iter().enumerate() {
                if x < cur_end && taken[x] {
                    mates[u] = Some(m[u]);
                } else {
                    np.push(u);
                    if x < cur_end {
                        nmd += 1;
                    }
                    if self.single_bye && next_score.is_some_and(|s| self.v[m[u]].score < s) {
                        self.single_bye = false;
                    }
                }
            }
            p = np;
            md = nmd;
        }
        Some(mates)
    }
}

/// C11's check for `player` against `opponent`: whether neither would get
/// the same seat a third time running.
fn no_third_in_a_row(player: &Colours, opponent: &Colours) -> bool {
    if !player.absolute() || !opponent.absolute() || player.seat() != opponent.seat() {
        return true;
    }
    if player.imbalance == opponent.imbalance {
        return player.repeated.is_none() || player.repeated != opponent.repeated;
    }
    let loser = if player.imbalance > opponent.imbalance {
        opponent
    } else {
        player
    };
    loser.repeated != player.seat().map(|s| s.other())
}
