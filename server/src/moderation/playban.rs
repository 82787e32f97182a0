//! Fair-play limits ("playbans", as lichess calls them): a player who
//! abandons rated games more than a few times within a window waits
//! before the next rated game, longer at each further offence.
//!
//! Pure policy, no I/O and no clock (times are arguments), so that every
//! rule here is tested exactly; `super::fairplay` stores it and
//! the lobby and the matchmaker's door ask [`refusal`].
//!
//! **What counts** ([`offender`]), in a finished *rated* game only (a
//! casual game never counts), for the seat that:
//!
//! - *aborted* it (the `abort` action, allowed before both seats have
//!   acted), unless that seat had moved and the other had not (aborting a
//!   game whose opponent never comes is no fault); or failed to make its
//!   first move in time, so that the server aborted the game;
//! - *left* it: was away from the table past the grace and the game then
//!   ended against it — the opponent claimed the win or called a draw, the
//!   server gave the win where nobody could claim, or its clock ran out
//!   while it was still away — or resigned before making a single move
//!   (walking away at once, to the opponent just as an abandonment);
//! - *let the clock run out without moving*: lost on time without a move.
//!
//! A move is an action that can end its seat's turn
//! (`Action::may_press_clock`: a stone, a pass, an opening choice); a
//! draw offer, a claim, a resignation or an abort is none. Losses,
//! resignations after play and draws are never offences.
//!
//! **The waits** ([`wait_for`]): the first [`FREE_OFFENCES`] offences
//! within [`WINDOW_MS`] cost nothing (a dropped connection happens);
//! each further one within the window sets a wait from [`WAITS_MS`]
//! (15 minutes, then 1, 3, 12 and 24 hours, then 48 hours, the cap
//! [`MAX_WAIT_MS`]), counted from the offence. A wait never shortens an
//! earlier one still running. Offences older than the window are
//! forgotten, and at most [`MAX_OFFENCES`] are kept.

use tengen_protocol::{ErrorBody, ErrorCode};
use tengen_rules::game::{Game, Input, Outcome, ResultReason, Seat};
use tengen_store::Playban;

const MINUTE_MS: u64 = 60 * 1000;
const HOUR_MS: u64 = 60 * MINUTE_MS;

/// How far back offences count: 24 hours.
pub const WINDOW_MS: u64 = 24 * HOUR_MS;
/// Offences within the window that cost no wait.
pub const FREE_OFFENCES: usize = 3;
/// The wait after the first offence past the free ones, the second, ...;
/// every later one waits the last.
pub const WAITS_MS: [u64; 6] = [
    15 * MINUTE_MS,
    HOUR_MS,
    3 * HOUR_MS,
    12 * HOUR_MS,
    24 * HOUR_MS,
    48 * HOUR_MS,
];
/// No wait is longer than two days.
pub const MAX_WAIT_MS: u64 = 48 * HOUR_MS;
/// The most offences a record keeps (the newest).
pub const MAX_OFFENCES: usize = 16;

/// How a seat abandoned a rated game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offence {
    /// Aborted it (or the server aborted it: its first move never came).
    Aborted,
    /// Lost by abandonment, or resigned without a move.
    Left,
    /// Lost on time without a move.
    NoMove,
}

impl Offence {
    /// Its name in logs.
    pub fn as_str(self) -> &'static str {
        match self {
            Offence::Aborted => "aborted",
            Offence::Left => "left",
            Offence::NoMove => "no_move",
        }
    }
}

/// Whether `seat` made at least one move in `game`.
fn moved(game: &Game, seat: Seat) -> bool {
    game.entries().iter().any(|e| {
        matches!(&e.input, Input::Act { seat: s, action, .. } if *s == seat && action.may_press_clock())
    })
}

/// The seat that abandoned the finished `game` and how, if one did
/// (whether the game was rated is the caller's concern). `no_show`: the
/// table's word on who did not show: the seat whose first move never came,
/// when the server aborted the game for that, or the seat that was away
/// past its grace when the game ended otherwise.
pub fn offender(game: &Game, no_show: Option<Seat>) -> Option<(Seat, Offence)> {
    let result = game.result()?;
    let moved = |seat| moved(game, seat);
    match (&result.outcome, &result.reason) {
        (Outcome::Aborted, ResultReason::Aborted { seat: Some(seat) }) => {
            let waiting_for_other = moved(*seat) && !moved(seat.other());
            (!waiting_for_other).then_some((*seat, Offence::Aborted))
        }
        // The server aborted it: only the table knows whether for a first
        // move that never came (`no_show`, the seat it waited for) or for
        // another reason (a moderator's), which is nobody's offence.
        (Outcome::Aborted, ResultReason::Aborted { seat: None }) => {
            no_show.map(|seat| (seat, Offence::Aborted))
        }
        (_, ResultReason::Abandonment { seat } | ResultReason::DrawCalled { seat }) => {
            Some((*seat, Offence::Left))
        }
        // Away past the grace at the end (its clock ran out meanwhile, say).
        (Outcome::Win { .. } | Outcome::Draw, _)
            if no_show.is_some_and(|s| result.winner() != Some(s)) =>
        {
            no_show.map(|seat| (seat, Offence::Left))
        }
        (_, ResultReason::Resignation { seat }) if !moved(*seat) => Some((*seat, Offence::Left)),
        (_, ResultReason::Time { seat }) if !moved(*seat) => Some((*seat, Offence::NoMove)),
        _ => None,
    }
}

/// The offences of `record` within the window before `now_ms`.
pub fn recent(record: &Playban, now_ms: u64) -> usize {
    let since = now_ms.saturating_sub(WINDOW_MS);
    record.offences_ms.iter().filter(|&&t| t > since).count()
}

/// The wait earned by the `n`th offence within the window (0 for the
/// free ones), never past [`MAX_WAIT_MS`].
pub fn wait_for(n: usize) -> u64 {
    if n <= FREE_OFFENCES {
        return 0;
    }
    let step = (n - FREE_OFFENCES - 1).min(WAITS_MS.len() - 1);
    WAITS_MS[step].min(MAX_WAIT_MS)
}

/// `record` after an offence in `game` at `now_ms`: old offences dropped,
/// this one added, the wait set. `None` when `game` was counted already
/// (its end reported twice).
pub fn after_offence(record: &Playban, game: &str, now_ms: u64) -> Option<Playban> {
    if record.games.iter().any(|g| g == game) {
        return None;
    }
    let since = now_ms.saturating_sub(WINDOW_MS);
    let mut next = Playban::default();
    for (i, &at) in record.offences_ms.iter().enumerate() {
        if at > since {
            next.offences_ms.push(at);
            next.games
                .push(record.games.get(i).cloned().unwrap_or_default());
        }
    }
    next.offences_ms.push(now_ms);
    next.games.push(game.to_owned());
    let excess = next.offences_ms.len().saturating_sub(MAX_OFFENCES);
    next.offences_ms.drain(..excess);
    next.games.drain(..excess.min(next.games.len()));
    let wait = wait_for(recent(&next, now_ms));
    let cap = now_ms.saturating_add(MAX_WAIT_MS);
    next.until_ms = record.until_ms.max(now_ms.saturating_add(wait)).min(cap);
    if next.until_ms <= now_ms {
        next.until_ms = 0;
    }
    Some(next)
}

/// How long `record` still bars rated games at `now_ms` (0: not at all).
pub fn remaining_ms(record: &Playban, now_ms: u64) -> u64 {
    record.until_ms.saturating_sub(now_ms)
}

/// A duration in words, rounded up to the minute: `45 min`, `2 h 15 min`,
/// `1 h`, `2 d 3 h` (a wait is never longer than two days).
pub fn in_words(ms: u64) -> String {
    let minutes = ms.div_ceil(MINUTE_MS).max(1);
    let (d, h, m) = (minutes / (24 * 60), minutes / 60 % 24, minutes % 60);
    let parts = [(d, "d"), (h, "h"), (m, "min")];
    let words: Vec<String> = parts
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, unit)| format!("{n} {unit}"))
        .collect();
    words.join(" ")
}

/// The `playbanned` refusal while `record` bars rated games at `now_ms`:
/// the time left in words and in `retry_after_ms`.
pub fn refusal(record: &Playban, now_ms: u64) -> Option<ErrorBody> {
    let left = remaining_ms(record, now_ms);
    if left == 0 {
        return None;
    }
    let what = match recent(record, now_ms) {
        0 => "too many rated games lately".to_owned(),
        1 => format!("1 rated game in the last {} hours", WINDOW_MS / HOUR_MS),
        n => format!("{n} rated games in the last {} hours", WINDOW_MS / HOUR_MS),
    };
    let mut body = ErrorBody::new(
        ErrorCode::Playbanned,
        format!(
            "you abandoned {what} (aborted, left, or let the clock run out without moving); you can play rated games again in {}",
            in_words(left)
        ),
    );
    body.retry_after_ms = Some(left);
    Some(body)
}

#[cfg(test)]
#[path = "playban_tests.rs"]
mod tests;
