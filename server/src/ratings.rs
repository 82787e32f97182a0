//! Glicko-2 ratings: one per rule family, updated after every rated game.
//!
//! Choices, and why:
//!
//! - **Families.** One rating per rule set ([`RatingFamily`]): `renju`
//!   (every opening rule: RIF, Yamaguchi, Soosõrv, Jonsson, Taraguchi, Tarannikov,
//!   Sakata, Super Sakata, Swap2,
//!   free; they are one game with different first moves), `gomoku`
//!   (standard, free or swap openings), `freestyle` (15 x 15 and
//!   19 x 19) and `twin` (two boards, docs/rules.md §9). Not per speed class: a young server's players would be
//!   spread over too many pools to ever leave the provisional rule.
//! - **Each game is its own rating period.** Ratings change as soon as a
//!   game ends, as players expect online; the update is Glicko-2's for a
//!   period with one game (the `skillratings` crate, τ = 0.5). A series of
//!   games played one after the other therefore gives slightly different
//!   numbers than the same games in one period (Glickman's worked example
//!   is both computed here, in one period, and checked against the
//!   sequential result in the tests). A player's deviation does not grow
//!   with idle time; inactivity is shown instead (below).
//! - **Start** at 1500 / 350 / 0.06.
//! - **Provisional** until 7 rated games against at least 3 different
//!   opponents (docs/rules.md §8); provisional players are left off the
//!   leaderboard. **Inactive**: fewer than 7 rated games in the last 12
//!   months; listed apart.
//!
//! [`updates_for`] turns a finished rated game into the two
//! [`RatingUpdate`]s the store applies with the game's record in one write
//! (each conditional on the games count it read); [`finish`] does that
//! write and, on a [`StoreError::Conflict`] (a rating changed meanwhile),
//! reads again and retries.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use tengen_protocol::RatingFamily;
use tengen_store::{FinishedGame, HistoryPoint, Rating, RatingUpdate, Store, StoreError, name_key};

/// A new player's rating, deviation and volatility.
pub const START: (f64, f64, f64) = (1500.0, 350.0, 0.06);
/// Rated games a player needs before the rating is established.
pub const ESTABLISHED_GAMES: u32 = 7;
/// Different opponents a player needs before the rating is established.
pub const ESTABLISHED_OPPONENTS: usize = 3;
/// The inactivity rule: fewer than 7 rated games within this many
/// milliseconds (365 days).
pub const ACTIVE_WINDOW_MS: u64 = 365 * 24 * 3600 * 1000;
/// Distinct opponents remembered per rating (the provisional rule needs 3).
pub const MAX_OPPONENTS: usize = 64;
/// Times of the latest games kept per rating (the inactivity rule needs 7).
pub const RECENT_GAMES: usize = 7;
/// How often [`finish`] retries after a conflict.
pub const CONFLICT_RETRIES: usize = 5;

/// A finished rated game, as the table reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedGame {
    /// The game's id (its table's id).
    pub id: String,
    pub family: RatingFamily,
    /// The account names, by seat: first, second.
    pub players: [String; 2],
    /// The first seat's score: 1 win, 0.5 draw, 0 loss.
    pub score_first: f64,
    /// When it ended, in Unix milliseconds.
    pub finished_ms: u64,
}

fn config() -> Glicko2Config {
    Glicko2Config::new()
}

fn glicko(r: &Rating) -> Glicko2Rating {
    Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

/// A player's rating before their first game in `family`.
pub fn initial(player: &str, family: RatingFamily) -> Rating {
    Rating {
        player: player.to_string(),
        family: family.as_str().to_string(),
        rating: START.0,
        deviation: START.1,
        volatility: START.2,
        games: 0,
        wins: 0,
        draws: 0,
        losses: 0,
        opponents: Vec::new(),
        recent_ms: Vec::new(),
    }
}

fn outcome(score: f64) -> Outcomes {
    if score >= 0.75 {
        Outcomes::WIN
    } else if score <= 0.25 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    }
}

/// Whether a rating is still provisional (not enough games or opponents).
pub fn provisional(r: &Rating) -> bool {
    r.games < ESTABLISHED_GAMES || r.opponents.len() < ESTABLISHED_OPPONENTS
}

/// Whether a player has had fewer than 7 rated games in the 12 months
/// before `now_ms`.
pub fn inactive(r: &Rating, now_ms: u64) -> bool {
    let need = ESTABLISHED_GAMES as usize;
    let window_start = now_ms.saturating_sub(ACTIVE_WINDOW_MS);
    r.recent_ms.iter().filter(|&&t| t >= window_start).count() < need
}

/// `r` after one game against `opponent` (as they stood before it) with
/// `score`, finished at `at_ms`: Glicko-2 with the game as its own rating
/// period, and the counts the provisional and inactive rules need.
fn after_game(
    r: &Rating,
    opponent: &Rating,
    score: f64,
    at_ms: u64,
    game: &str,
) -> (Rating, HistoryPoint) {
    let (new, _) = glicko2(&glicko(r), &glicko(opponent), &outcome(score), &config());
    let mut next = r.clone();
    next.rating = new.rating;
    next.deviation = new.deviation;
    next.volatility = new.volatility;
    next.games += 1;
    match outcome(score) {
        Outcomes::WIN => next.wins += 1,
        Outcomes::LOSS => next.losses += 1,
        Outcomes::DRAW => next.draws += 1,
    }
    let key = name_key(&opponent.player);
    if next.opponents.len() < MAX_OPPONENTS && !next.opponents.iter().any(|o| name_key(o) == key) {
        next.opponents.push(opponent.player.clone());
    }
    next.recent_ms.push(at_ms);
    if next.recent_ms.len() > RECENT_GAMES {
        next.recent_ms.drain(..next.recent_ms.len() - RECENT_GAMES);
    }
    let point = HistoryPoint {
        game: game.to_string(),
        at_ms,
        opponent: opponent.player.clone(),
        score,
        rating: next.rating,
        deviation: next.deviation,
        volatility: next.volatility,
    };
    (next, point)
}

/// The rating updates of a finished rated game: both players' new
/// ratings, each conditional on the games count read now. Empty when the
/// two seats are one account (never rated).
pub async fn updates_for(
    store: &dyn Store,
    game: &RatedGame,
) -> Result<Vec<RatingUpdate>, StoreError> {
    Ok(updates_and_before(store, game).await?.0)
}

/// [`updates_for`], and the two seats' ratings before the game.
async fn updates_and_before(
    store: &dyn Store,
    game: &RatedGame,
) -> Result<(Vec<RatingUpdate>, Option<[f64; 2]>), StoreError> {
    let [a, b] = &game.players;
    if name_key(a) == name_key(b) {
        return Ok((Vec::new(), None));
    }
    let family = game.family.as_str();
    let ra = store
        .rating(a, family)
        .await?
        .unwrap_or_else(|| initial(a, game.family));
    let rb = store
        .rating(b, family)
        .await?
        .unwrap_or_else(|| initial(b, game.family));
    let score = game.score_first.clamp(0.0, 1.0);
    let (na, ha) = after_game(&ra, &rb, score, game.finished_ms, &game.id);
    let (nb, hb) = after_game(&rb, &ra, 1.0 - score, game.finished_ms, &game.id);
    let before = Some([ra.rating, rb.rating]);
    let updates = vec![
        RatingUpdate {
            expected_games: ra.games,
            rating: na,
            history: ha,
        },
        RatingUpdate {
            expected_games: rb.games,
            rating: nb,
            history: hb,
        },
    ];
    Ok((updates, before))
}

/// The rated game a finished table reports, or `None` when the table is
/// not rated, the game is not over or was aborted, or the seats are not
/// two players.
pub fn rated_game(
    rated: bool,
    game: &tengen_rules::game::Game,
    id: &str,
    players: &[String],
    finished_ms: u64,
) -> Option<RatedGame> {
    use tengen_rules::game::{Outcome, Seat};
    if !rated {
        return None;
    }
    let score_first = match game.result()?.outcome {
        Outcome::Win { seat, .. } => {
            if seat == Seat::First {
                1.0
            } else {
                0.0
            }
        }
        Outcome::Draw => 0.5,
        Outcome::Aborted => return None,
    };
    let [a, b] = players else {
        return None;
    };
    Some(RatedGame {
        id: id.to_string(),
        family: RatingFamily::of(game.config().rule_set),
        players: [a.clone(), b.clone()],
        score_first,
        finished_ms,
    })
}

/// The id of the finished-game entry that reverses game `game`'s rating
/// changes (a moderator's `reset_rating`, `crate::moderation::rerate`).
pub fn reversal_id(game: &str) -> String {
    format!("{game}-reset")
}

/// The game a reversal entry reverses, if `id` is one.
pub fn reversed_by(id: &str) -> Option<&str> {
    id.strip_suffix("-reset")
}

/// Stores a finished game with its rating updates (none when `rated` is
/// `None`) in one atomic write; when a rating changed meanwhile
/// ([`StoreError::Conflict`]) the updates are computed again and the write
/// retried, up to [`CONFLICT_RETRIES`] times. Gives the seats' ratings
/// before a rated game (the opening explorer's rating bands).
pub async fn finish(
    store: &dyn Store,
    mut game: FinishedGame,
    rated: Option<&RatedGame>,
) -> Result<Option<[f64; 2]>, StoreError> {
    let mut tries = 0;
    loop {
        let before;
        (game.ratings, before) = match rated {
            Some(r) => updates_and_before(store, r).await?,
            None => (Vec::new(), None),
        };
        match store.finish_game(&game).await {
            Err(StoreError::Conflict(why)) if rated.is_some() && tries < CONFLICT_RETRIES => {
                tries += 1;
                tracing::debug!(game = %game.id, %why, tries, "rating conflict; retrying");
            }
            other => return other.map(|()| before),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    fn player(rating: f64, deviation: f64) -> Glicko2Rating {
        Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    fn rating(name: &str, r: f64, d: f64) -> Rating {
        Rating {
            rating: r,
            deviation: d,
            ..initial(name, RatingFamily::Renju)
        }
    }

    /// Glickman's worked example ("Example of the Glicko-2 system"): a
    /// 1500/200 player beats 1400/30 and loses to 1550/100 and 1700/300 in
    /// one rating period: 1464.06 / 151.52 / 0.05999.
    #[test]
    fn glickmans_worked_example_in_one_period() {
        let games = [
            (player(1400.0, 30.0), Outcomes::WIN),
            (player(1550.0, 100.0), Outcomes::LOSS),
            (player(1700.0, 300.0), Outcomes::LOSS),
        ];
        let r = glicko2_rating_period(&player(1500.0, 200.0), &games, &config());
        assert!((r.rating - 1464.06).abs() < 0.01, "{}", r.rating);
        assert!((r.deviation - 151.52).abs() < 0.01, "{}", r.deviation);
        assert!((r.volatility - 0.05999).abs() < 0.00001, "{}", r.volatility);
    }

    /// Each game is its own period here: the same three games one after
    /// the other end elsewhere (the deviation shrinks after each game, so
    /// the later losses weigh more), and a single game equals a one-game
    /// period of the paper's algorithm.
    #[test]
    fn each_game_is_its_own_period() {
        let me = rating("me", 1500.0, 200.0);
        let opps = [
            (rating("a", 1400.0, 30.0), 1.0),
            (rating("b", 1550.0, 100.0), 0.0),
            (rating("c", 1700.0, 300.0), 0.0),
        ];
        let mut now = me.clone();
        for (i, (o, s)) in opps.iter().enumerate() {
            let period =
                glicko2_rating_period(&glicko(&now), &[(glicko(o), outcome(*s))], &config());
            let (next, point) = after_game(&now, o, *s, 1_000 + i as u64, "g");
            assert!((next.rating - period.rating).abs() < 1e-9);
            assert!((next.deviation - period.deviation).abs() < 1e-9);
            assert_eq!(point.rating, next.rating);
            now = next;
        }
        assert_eq!((now.games, now.wins, now.losses, now.draws), (3, 1, 2, 0));
        // Sequential periods: close to, but not, the one-period result
        // (1463.79 against 1464.06).
        assert!((now.rating - 1463.79).abs() < 0.01, "{}", now.rating);
        assert!((now.rating - 1464.06).abs() > 0.2, "{}", now.rating);
        assert!((now.deviation - 151.87).abs() < 0.01, "{}", now.deviation);
    }

    #[test]
    fn a_first_game_moves_both_from_the_start() {
        let a = initial("ann", RatingFamily::Gomoku);
        let b = initial("bob", RatingFamily::Gomoku);
        let (na, _) = after_game(&a, &b, 1.0, 5, "g1");
        let (nb, hb) = after_game(&b, &a, 0.0, 5, "g1");
        assert!((na.rating - 1662.3).abs() < 0.1, "{}", na.rating);
        assert!((nb.rating - 1337.7).abs() < 0.1, "{}", nb.rating);
        assert!((na.deviation - 290.3).abs() < 0.1, "{}", na.deviation);
        assert_eq!(na.opponents, vec!["bob".to_string()]);
        assert_eq!(hb.opponent, "ann");
        assert_eq!(hb.score, 0.0);
        let (nd, _) = after_game(&a, &b, 0.5, 5, "g1");
        assert_eq!(nd.draws, 1);
        assert!((nd.rating - 1500.0).abs() < 1e-9);
    }

    /// docs/rules.md §8: 7 rated games against at least 3 different opponents.
    #[test]
    fn provisional_until_seven_games_and_three_opponents() {
        let mut me = initial("me", RatingFamily::Renju);
        let foes: Vec<Rating> = ["a", "b", "c"]
            .iter()
            .map(|n| initial(n, RatingFamily::Renju))
            .collect();
        // Six games against three opponents: still provisional.
        for i in 0..6 {
            me = after_game(&me, &foes[i % 3], 1.0, i as u64, "g").0;
            assert!(provisional(&me), "after {} games", i + 1);
        }
        me = after_game(&me, &foes[0], 0.0, 6, "g").0;
        assert!(!provisional(&me), "7 games, 3 opponents");
        // Ten games against two opponents (one of them in another case):
        // provisional.
        let mut two = initial("two", RatingFamily::Renju);
        let a_upper = initial("A", RatingFamily::Renju);
        for i in 0..10 {
            let foe = if i % 2 == 0 { &foes[0] } else { &foes[1] };
            two = after_game(&two, if i == 4 { &a_upper } else { foe }, 1.0, i, "g").0;
        }
        assert_eq!(two.opponents.len(), 2);
        assert!(provisional(&two));
    }

    #[test]
    fn inactive_with_fewer_than_seven_games_in_a_year() {
        let mut me = initial("me", RatingFamily::Renju);
        let foe = initial("a", RatingFamily::Renju);
        let day = 24 * 3600 * 1000;
        for i in 0..9 {
            me = after_game(&me, &foe, 1.0, 1_000 * day + i * day, "g").0;
        }
        assert_eq!(me.recent_ms.len(), RECENT_GAMES);
        let last = 1_008 * day;
        assert!(!inactive(&me, last));
        assert!(!inactive(&me, 1_002 * day + ACTIVE_WINDOW_MS));
        assert!(inactive(&me, 1_003 * day + ACTIVE_WINDOW_MS));
        assert!(inactive(&initial("new", RatingFamily::Renju), last));
    }
}
