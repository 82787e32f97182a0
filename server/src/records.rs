//! What the store tells about players and finished games, as the protocol
//! shows it: leaderboards, profiles, game histories and record exports.
//!
//! - **Leaderboard** of a family: established players (not provisional,
//!   see [`crate::ratings`]), highest rating first; those with fewer than
//!   7 rated games in the last 12 months listed apart as `inactive`. Each
//!   list holds at most [`MAX_LEADERBOARD`] players; provisional players
//!   are left out. People and bot accounts have leaderboards apart
//!   (people's by default).
//! - **Profile**: the account and its rating in each family it has played,
//!   marked provisional or inactive, with the latest
//!   [`MAX_RATING_POINTS`] points of its rating history.
//! - **History**: a player's finished games, newest first, in pages of
//!   [`HISTORY_PAGE`], each with its result, colours, configuration and
//!   opening (from its record).
//! - **Records**: a finished game's record is stored as the rules crate's
//!   JSON [`GameRecord`]; it is sent as it is (`json`, with the tags the
//!   renju text shows added: `black`, `white`, `opening`) or exported as a
//!   game in renju notation (tags, the opening's decisions, the result) or
//!   PSQ (the players' names are the record's `first` and `second` tags).
//!   A game still running has no stored record: its table renders its
//!   record so far the same way ([`render`]), with no result.

use futures_util::{StreamExt, stream};
use tengen_protocol::limits::{HISTORY_PAGE, MAX_LEADERBOARD, MAX_RATING_POINTS};
use tengen_protocol::{
    ErrorBody, ErrorCode, FamilyRating, GameSummary, Leaderboard, Player, Profile, RatingFamily,
    RatingPoint, RecordExport, RecordFormat, Standing, TableId,
};
use tengen_rules::game::GameRecord;
use tengen_store::{Rating, Store, StoreError};

use crate::ratings::{inactive, provisional};

fn standing(rank: usize, r: &Rating) -> Standing {
    Standing {
        rank: rank as u32,
        player: r.player.clone(),
        rating: r.rating,
        deviation: r.deviation,
        games: r.games,
        wins: r.wins,
        draws: r.draws,
        losses: r.losses,
    }
}

/// Established ratings (provisional ones left out), best first.
fn established(mut all: Vec<Rating>) -> Vec<Rating> {
    all.retain(|r| !provisional(r));
    all.sort_by(|a, b| {
        b.rating
            .total_cmp(&a.rating)
            .then(a.deviation.total_cmp(&b.deviation))
            .then_with(|| a.player.cmp(&b.player))
    });
    all
}

/// Orders ratings for a leaderboard and splits them: (active, inactive),
/// provisional ones left out, each list ranked from 1 and bounded.
pub fn rank(all: Vec<Rating>, now_ms: u64) -> (Vec<Standing>, Vec<Standing>) {
    let all = established(all);
    let (idle, active): (Vec<Rating>, Vec<Rating>) =
        all.into_iter().partition(|r| inactive(r, now_ms));
    let list = |v: Vec<Rating>| {
        v.iter()
            .take(MAX_LEADERBOARD)
            .enumerate()
            .map(|(i, r)| standing(i + 1, r))
            .collect()
    };
    (list(active), list(idle))
}

/// The established ratings of bot accounts (`bots`) or of people, best
/// first, as many as both lists can show: each player's account is read
/// (a few at once, in rating order) until both lists are full.
async fn of_kind(
    store: &dyn Store,
    all: Vec<Rating>,
    bots: bool,
    now_ms: u64,
) -> Result<Vec<Rating>, StoreError> {
    let mut checks = stream::iter(established(all))
        .map(|r| async move {
            let bot = store.account(&r.player).await?.is_some_and(|a| a.bot);
            Ok::<_, StoreError>((r, bot))
        })
        .buffered(8);
    let (mut active, mut idle, mut kept) = (0, 0, Vec::new());
    while active < MAX_LEADERBOARD || idle < MAX_LEADERBOARD {
        let Some(checked) = checks.next().await else {
            break;
        };
        let (r, bot) = checked?;
        let shown = if inactive(&r, now_ms) {
            &mut idle
        } else {
            &mut active
        };
        if bot == bots && *shown < MAX_LEADERBOARD {
            *shown += 1;
            kept.push(r);
        }
    }
    Ok(kept)
}

/// A family's leaderboard as of `now_ms`: people's, or bot accounts'.
pub async fn leaderboard(
    store: &dyn Store,
    family: RatingFamily,
    bots: bool,
    now_ms: u64,
) -> Result<Leaderboard, StoreError> {
    let all = of_kind(store, store.ratings(family.as_str()).await?, bots, now_ms).await?;
    let (players, inactive) = rank(all, now_ms);
    Ok(Leaderboard {
        family,
        bots,
        players,
        inactive,
    })
}

/// A registered player's profile, or `None` when no account has the name.
pub async fn profile(
    store: &dyn Store,
    name: &str,
    now_ms: u64,
) -> Result<Option<Profile>, StoreError> {
    let Some(account) = store.account(name).await? else {
        return Ok(None);
    };
    let mut ratings = Vec::new();
    for family in RatingFamily::ALL {
        let Some(r) = store.rating(&account.name, family.as_str()).await? else {
            continue;
        };
        let points = store.rating_history(&account.name, family.as_str()).await?;
        let skip = points.len().saturating_sub(MAX_RATING_POINTS);
        let history = points
            .into_iter()
            .skip(skip)
            .filter_map(|p| {
                Some(RatingPoint {
                    game: p.game.parse().ok()?,
                    at_ms: p.at_ms,
                    opponent: p.opponent,
                    score: p.score,
                    rating: p.rating,
                    deviation: p.deviation,
                })
            })
            .collect();
        ratings.push(FamilyRating {
            family,
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
            games: r.games,
            wins: r.wins,
            draws: r.draws,
            losses: r.losses,
            provisional: provisional(&r),
            inactive: inactive(&r, now_ms),
            history,
        });
    }
    Ok(Some(Profile {
        player: Player {
            name: account.name,
            guest: false,
            bot: account.bot,
        },
        created_ms: account.created_ms,
        ratings,
    }))
}

/// A page of `player`'s finished games, newest first, ending before
/// `before` when given; and whether older ones exist. Each game is shown
/// with its result, colours, configuration and opening, read from its
/// stored record (a few records at a time).
pub async fn history(
    store: &dyn Store,
    player: &str,
    before: Option<u64>,
) -> Result<(Vec<GameSummary>, bool), StoreError> {
    let mut games = store.games_of(player, before, HISTORY_PAGE + 1).await?;
    let more = games.len() > HISTORY_PAGE;
    games.truncate(HISTORY_PAGE);
    let page: Vec<Option<GameSummary>> = stream::iter(games)
        .map(|g| async move {
            let record = match store.game(&g.id).await {
                Ok(Some(f)) => GameRecord::from_json(&String::from_utf8_lossy(&f.record)).ok(),
                Ok(None) => None,
                Err(e) => return Err(e),
            };
            let mut summary = GameSummary {
                reverses: crate::ratings::reversed_by(&g.id).and_then(|r| r.parse().ok()),
                game: match g.id.parse() {
                    Ok(id) => id,
                    Err(_) => return Ok(None),
                },
                finished_ms: g.finished_ms,
                players: g.players,
                result: None,
                black: None,
                config: None,
                opening: None,
            };
            if let Some(record) = record {
                describe(&mut summary, &record);
            }
            Ok(Some(summary))
        })
        .buffered(8)
        .collect::<Vec<Result<_, StoreError>>>()
        .await
        .into_iter()
        .collect::<Result<_, _>>()?;
    Ok((page.into_iter().flatten().collect(), more))
}

/// What a history lists of a game, from its record: the result, who held
/// black at the end (the record replayed; a record that does not replay
/// shows the opener), the configuration and the canonical opening.
fn describe(summary: &mut GameSummary, record: &GameRecord) {
    summary.result = record.result.clone();
    summary.config = Some(record.config.clone());
    match record.replay() {
        Ok(game) => {
            summary.black = Some(game.seat_of(tengen_rules::Color::Black));
            let o = game.opening_progress();
            if let (Some(code), Some(name), Some(chinese)) =
                (o.canonical, o.canonical_name, o.canonical_chinese)
            {
                summary.opening = Some([code, name, chinese]);
            }
        }
        Err(e) => {
            tracing::warn!(game = %summary.game, error = %e, "a stored record does not replay");
            summary.black = Some(record.opener);
        }
    }
}

/// A finished game's record as stored (`not_found` while it runs or when
/// there is no such game).
pub async fn finished_record(store: &dyn Store, game: &TableId) -> Result<GameRecord, ErrorBody> {
    let finished = store
        .game(game.as_str())
        .await
        .map_err(|e| crate::accounts::store_refusal(&e))?
        .ok_or_else(|| ErrorBody::new(ErrorCode::NotFound, format!("no finished game {game}")))?;
    let text = String::from_utf8_lossy(&finished.record);
    GameRecord::from_json(&text).map_err(|e| {
        tracing::error!(%game, error = %e, "a stored record does not read");
        ErrorBody::new(ErrorCode::Internal, "the stored record cannot be read")
    })
}

/// `record` with the tags a reader wants without replaying it: the names
/// of the players who held black and white at the end (`black`,
/// `white`), and the canonical opening (`opening`: code, name, Chinese
/// name), where the game had one.
fn with_shown_tags(record: GameRecord) -> GameRecord {
    let Ok(game) = record.replay() else {
        return record;
    };
    let black = game.seat_of(tengen_rules::Color::Black);
    let name = |seat: tengen_rules::game::Seat| record.tags.get(&seat.to_string()).cloned();
    let (b, w) = (name(black), name(black.other()));
    let o = game.opening_progress();
    let mut record = record;
    if let (Some(b), Some(w)) = (b, w) {
        record = record.with_tag("black", &b).with_tag("white", &w);
    }
    if let (Some(code), Some(en), Some(zh)) = (o.canonical, o.canonical_name, o.canonical_chinese) {
        record = record.with_tag("opening", &format!("{code} {en} {zh}"));
    }
    record
}

/// A finished game's record in `format`.
pub async fn export(
    store: &dyn Store,
    game: &TableId,
    format: RecordFormat,
) -> Result<RecordExport, ErrorBody> {
    let record = finished_record(store, game).await?;
    render(game, record, format)
}

/// `record` (a finished game's, or a running game's from its table, with
/// no result yet) in `format`: JSON with the shown tags, a game in renju
/// notation, or PSQ (refused for a pass or two boards, saying why).
pub fn render(
    game: &TableId,
    record: GameRecord,
    format: RecordFormat,
) -> Result<RecordExport, ErrorBody> {
    let (record, text) = match format {
        RecordFormat::Json => (Some(Box::new(with_shown_tags(record))), None),
        RecordFormat::Renju => (None, Some(record.to_renju_text())),
        RecordFormat::Psq => {
            let psq = record
                .to_psq()
                .map_err(|e| ErrorBody::new(ErrorCode::BadRequest, e.to_string()))?;
            (None, Some(psq))
        }
    };
    Ok(RecordExport {
        game: game.clone(),
        format,
        record,
        text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ratings::{ACTIVE_WINDOW_MS, initial};

    fn rated(name: &str, rating: f64, games: u32, opponents: usize, last_ms: u64) -> Rating {
        Rating {
            rating,
            games,
            opponents: (0..opponents).map(|i| format!("o{i}")).collect(),
            recent_ms: vec![last_ms; games.min(7) as usize],
            ..initial(name, RatingFamily::Renju)
        }
    }

    #[test]
    fn provisional_players_are_left_out_and_inactive_ones_apart() {
        let now = 10 * ACTIVE_WINDOW_MS;
        let all = vec![
            rated("low", 1400.0, 9, 3, now),
            rated("top", 1900.0, 7, 3, now),
            rated("few_games", 2100.0, 6, 3, now),
            rated("few_opponents", 2000.0, 20, 2, now),
            rated("idle", 1950.0, 30, 5, now - ACTIVE_WINDOW_MS - 1),
            rated("mid", 1600.0, 12, 4, now - 1000),
        ];
        let (active, idle) = rank(all, now);
        let names: Vec<&str> = active.iter().map(|s| s.player.as_str()).collect();
        assert_eq!(names, ["top", "mid", "low"]);
        assert_eq!(active.iter().map(|s| s.rank).collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!(idle.len(), 1);
        assert_eq!((idle[0].player.as_str(), idle[0].rank), ("idle", 1));
    }

    #[test]
    fn lists_are_bounded() {
        let all = (0..MAX_LEADERBOARD + 10)
            .map(|i| rated(&format!("p{i}"), 1500.0 + i as f64, 7, 3, 5))
            .collect();
        let (active, _) = rank(all, 5);
        assert_eq!(active.len(), MAX_LEADERBOARD);
        assert_eq!(active[0].rating, 1500.0 + (MAX_LEADERBOARD + 9) as f64);
    }
}
