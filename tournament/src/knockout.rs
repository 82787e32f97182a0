//! The knockout bracket: single elimination of matches, seeded so the
//! best seeds meet as late as possible (1 v 16, 8 v 9, 4 v 13, 5 v 12,
//! ... in a bracket of 16), and byes, when the count is not a power of
//! two, going to the top seeds (the missing seeds are the bottom ones).

/// The bracket size: the smallest power of two holding `players`.
pub fn bracket_size(players: usize) -> usize {
    players.max(2).next_power_of_two()
}

/// The number of rounds of a knockout of `players`.
pub fn rounds(players: usize) -> usize {
    bracket_size(players).trailing_zeros() as usize
}

/// Seeds (1-based) in bracket order for a bracket of `size` (a power of
/// two): slot pairs (0,1), (2,3), ... meet in round 1, winners of
/// adjacent pairs in round 2, and so on.
pub fn seed_order(size: usize) -> Vec<usize> {
    let mut order = vec![1usize];
    while order.len() < size {
        let n = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, n + 1 - s]).collect();
    }
    order
}

/// Round-1 pairs of seeds (1-based); `None` in the second place is a bye
/// (the seed has no opponent because seed `size + 1 - s` does not exist).
pub fn first_round(players: usize) -> Vec<(usize, Option<usize>)> {
    let order = seed_order(bracket_size(players));
    order
        .chunks(2)
        .map(|c| {
            let (a, b) = (c[0], c[1]);
            match (a <= players, b <= players) {
                (true, true) => (a, Some(b)),
                (true, false) => (a, None),
                (false, true) => (b, None),
                (false, false) => unreachable!("a slot pair always holds a seed"),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixteen_is_the_standard_bracket() {
        assert_eq!(
            seed_order(16),
            vec![1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
        );
        assert_eq!(rounds(16), 4);
    }

    #[test]
    fn byes_go_to_the_top_seeds() {
        // 6 players in a bracket of 8: seeds 1 and 2 have byes.
        let r1 = first_round(6);
        assert_eq!(r1, vec![(1, None), (4, Some(5)), (2, None), (3, Some(6))]);
        let r1 = first_round(13);
        let byes: Vec<usize> = r1
            .iter()
            .filter(|(_, b)| b.is_none())
            .map(|(a, _)| *a)
            .collect();
        assert_eq!(byes, vec![1, 2, 3], "16 - 13 = 3 byes, to seeds 1-3");
        assert_eq!(rounds(13), 4);
    }
}
