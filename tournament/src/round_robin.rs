//! Round robins by the Berger tables as FIDE publishes them (Handbook
//! C.05, Annex 1): with an even count `n`, player `n` meets in round `r`
//! the player `a(r)`, where `a(1) = 1` and `a` steps by `n/2` modulo
//! `n - 1`; the other boards pair `a + k` (first seat) with `a - k`
//! (modulo `n - 1`, `k = 1 .. n/2 - 1`); player `n` takes the second seat
//! in odd rounds and the first in even ones. An odd count adds a bye as
//! the highest number. A double round robin plays the cycle again with
//! the seats swapped; as FIDE recommends, the last two rounds of the first
//! cycle may be exchanged so nobody opens (or answers) three times running
//! across the join.

use serde::{Deserialize, Serialize};

/// One board of a round-robin round, in pairing numbers (1-based).
/// `second == None` is the bye.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    pub first: usize,
    pub second: Option<usize>,
}

/// The rounds of a single round robin of `players` (>= 2) by the Berger
/// table, boards in the published order. With an odd count the board
/// against the missing highest number is the bye, its player listed in
/// `first`.
pub fn berger_rounds(players: usize) -> Vec<Vec<Board>> {
    if players < 2 {
        return Vec::new();
    }
    let n = players + players % 2;
    let m = n - 1;
    let half = n / 2;
    // Numbers 1..=m on a circle.
    let wrap = |x: isize| -> usize { (x - 1).rem_euclid(m as isize) as usize + 1 };
    let real = |p: usize| (p <= players).then_some(p);
    (0..m)
        .map(|r| {
            let a = wrap(1 + (r * half) as isize);
            let mut boards = Vec::with_capacity(half);
            // Player n: second seat in odd rounds (r even, 0-based), first in even ones.
            let (f, s) = if r % 2 == 0 { (a, n) } else { (n, a) };
            boards.push(bye_aware(real(f), real(s)));
            for k in 1..half {
                let f = wrap(a as isize + k as isize);
                let s = wrap(a as isize - k as isize);
                boards.push(Board {
                    first: f,
                    second: Some(s),
                });
            }
            boards
        })
        .collect()
}

fn bye_aware(f: Option<usize>, s: Option<usize>) -> Board {
    match (f, s) {
        (Some(f), s) => Board {
            first: f,
            second: s,
        },
        (None, Some(s)) => Board {
            first: s,
            second: None,
        },
        (None, None) => unreachable!("only one number of a board can be the bye"),
    }
}

/// The rounds of a double round robin: the single cycle (with its last two
/// rounds exchanged when `swap_last_two`), then the cycle again with every
/// board's seats swapped.
pub fn double_berger_rounds(players: usize, swap_last_two: bool) -> Vec<Vec<Board>> {
    let mut first = berger_rounds(players);
    let len = first.len();
    if swap_last_two && len >= 2 {
        first.swap(len - 1, len - 2);
    }
    let second: Vec<Vec<Board>> = berger_rounds(players)
        .into_iter()
        .map(|round| {
            round
                .into_iter()
                .map(|b| match b.second {
                    Some(s) => Board {
                        first: s,
                        second: Some(b.first),
                    },
                    None => b,
                })
                .collect()
        })
        .collect();
    first.extend(second);
    first
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everyone_meets_everyone_once_with_seats_balanced() {
        for n in 2..=20 {
            let rounds = berger_rounds(n);
            let mut met = vec![vec![0u8; n + 1]; n + 1];
            let mut firsts = vec![0i32; n + 1];
            for round in &rounds {
                let mut seen = vec![false; n + 1];
                for b in round {
                    assert!(!seen[b.first], "n={n}: a player twice in a round");
                    seen[b.first] = true;
                    if let Some(s) = b.second {
                        assert!(!seen[s]);
                        seen[s] = true;
                        met[b.first][s] += 1;
                        met[s][b.first] += 1;
                        firsts[b.first] += 1;
                        firsts[s] -= 1;
                    }
                }
            }
            for i in 1..=n {
                for (j, times) in met[i].iter().enumerate().skip(1) {
                    assert_eq!(*times, u8::from(i != j), "n={n}: {i} v {j}");
                }
                assert!(
                    firsts[i].abs() <= 1,
                    "n={n}: player {i} seat balance {}",
                    firsts[i]
                );
            }
        }
    }

    #[test]
    fn the_double_cycle_swaps_seats_and_avoids_three_in_a_row() {
        for n in 4..=16 {
            let rounds = double_berger_rounds(n, true);
            assert_eq!(rounds.len(), 2 * (n + n % 2 - 1));
            for p in 1..=n {
                let seats: Vec<bool> = rounds
                    .iter()
                    .filter_map(|r| {
                        r.iter().find_map(|b| match b.second {
                            Some(_) if b.first == p => Some(true),
                            Some(s) if s == p => Some(false),
                            _ => None,
                        })
                    })
                    .collect();
                let opens = seats.iter().filter(|s| **s).count();
                assert_eq!(opens * 2, seats.len(), "n={n}: player {p} opens half");
                for w in seats.windows(3) {
                    assert!(!(w[0] == w[1] && w[1] == w[2]), "n={n}: {p} three alike");
                }
            }
        }
    }
}
