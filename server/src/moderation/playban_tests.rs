use tengen_rules::game::{Action, Game, GameConfig, RuleSet, Seat, TimeControl};

use super::*;

const T0: u64 = 1_700_000_000_000;

/// A timed freestyle game, the first seat to move first.
fn game() -> Game {
    let config = GameConfig::free(RuleSet::Freestyle)
        .with_time(TimeControl::SuddenDeath { main_ms: 10_000 });
    Game::new(config, Seat::First, 0).expect("a valid config")
}

fn place(g: &mut Game, seat: Seat, point: &str, at: u64) {
    let p = point.parse().expect("a point");
    g.apply(seat, Action::place(p), at).expect("a legal move");
}

/// `record` after offences in games `g0`, `g1`, ... at the given times.
fn offences(times: &[u64]) -> Playban {
    let mut r = Playban::default();
    for (i, &t) in times.iter().enumerate() {
        r = after_offence(&r, &format!("g{i}"), t).expect("a new game");
    }
    r
}

#[test]
fn an_abort_before_any_move_is_the_aborters_offence() {
    let mut g = game();
    g.apply(Seat::Second, Action::Abort, 100).expect("abort");
    assert_eq!(offender(&g, None), Some((Seat::Second, Offence::Aborted)));
}

#[test]
fn aborting_a_game_whose_opponent_never_moves_is_no_offence() {
    let mut g = game();
    place(&mut g, Seat::First, "H8", 100);
    g.apply(Seat::First, Action::Abort, 200).expect("abort");
    assert_eq!(offender(&g, None), None);
}

#[test]
fn a_server_abort_blames_only_the_seat_the_table_names() {
    let mut g = game();
    place(&mut g, Seat::First, "H8", 100);
    g.declare_aborted(5_000).expect("abort");
    assert_eq!(offender(&g, None), None, "a moderator's abort");
    assert_eq!(
        offender(&g, Some(Seat::Second)),
        Some((Seat::Second, Offence::Aborted))
    );
}

#[test]
fn losing_on_time_without_a_move_is_an_offence_with_a_move_it_is_not() {
    let mut g = game();
    g.tick(10_000);
    assert_eq!(offender(&g, None), Some((Seat::First, Offence::NoMove)));

    let mut g = game();
    place(&mut g, Seat::First, "H8", 100);
    place(&mut g, Seat::Second, "H9", 200);
    place(&mut g, Seat::First, "J8", 300);
    g.tick(20_000);
    assert!(g.is_over());
    assert_eq!(offender(&g, None), None, "the second seat had moved");
}

#[test]
fn abandonment_and_resigning_without_a_move_count_resigning_after_play_does_not() {
    let mut g = game();
    place(&mut g, Seat::First, "H8", 100);
    place(&mut g, Seat::Second, "H9", 200);
    g.declare_abandoned(Seat::Second, 300).expect("abandoned");
    assert_eq!(offender(&g, None), Some((Seat::Second, Offence::Left)));

    let mut g = game();
    place(&mut g, Seat::First, "H8", 100);
    g.apply(Seat::Second, Action::Resign, 200).expect("resign");
    assert_eq!(offender(&g, None), Some((Seat::Second, Offence::Left)));

    let mut g = game();
    place(&mut g, Seat::First, "H8", 100);
    place(&mut g, Seat::Second, "H9", 200);
    g.apply(Seat::Second, Action::Resign, 300).expect("resign");
    assert_eq!(offender(&g, None), None);
}

#[test]
fn leaving_counts_whether_claimed_drawn_or_lost_on_time_while_away() {
    // The opponent called a draw against the absent second seat.
    let mut g = game();
    place(&mut g, Seat::First, "H8", 100);
    place(&mut g, Seat::Second, "H9", 200);
    g.declare_draw_called(Seat::Second, 300).expect("drawn");
    assert_eq!(offender(&g, None), Some((Seat::Second, Offence::Left)));
    // Its clock ran out while it was away past the grace (the table's
    // word), after it had moved.
    let mut g = game();
    place(&mut g, Seat::First, "H8", 100);
    place(&mut g, Seat::Second, "H9", 200);
    place(&mut g, Seat::First, "J8", 300);
    g.tick(20_000);
    assert_eq!(
        offender(&g, None),
        None,
        "not away: an ordinary loss on time"
    );
    assert_eq!(
        offender(&g, Some(Seat::Second)),
        Some((Seat::Second, Offence::Left))
    );
    // Away, but the game ended in its favour: no offence.
    assert_eq!(offender(&g, Some(Seat::First)), None);
}

#[test]
fn a_won_game_has_no_offender() {
    let mut g = game();
    for (i, (b, w)) in [("A1", "A15"), ("B1", "B15"), ("C1", "C15"), ("D1", "D15")]
        .into_iter()
        .enumerate()
    {
        place(&mut g, Seat::First, b, 100 + i as u64 * 2);
        place(&mut g, Seat::Second, w, 101 + i as u64 * 2);
    }
    place(&mut g, Seat::First, "E1", 200);
    assert!(g.is_over());
    assert_eq!(offender(&g, None), None);
}

#[test]
fn the_first_offences_are_free_then_the_waits_grow() {
    let r = offences(&[T0, T0 + 1, T0 + 2]);
    assert_eq!(remaining_ms(&r, T0 + 2), 0);
    assert_eq!(refusal(&r, T0 + 2), None);
    let r = after_offence(&r, "g3", T0 + 3).expect("new");
    assert_eq!(remaining_ms(&r, T0 + 3), WAITS_MS[0]);
    assert_eq!(WAITS_MS[0], 15 * 60 * 1000);
    let r = after_offence(&r, "g4", T0 + 4).expect("new");
    assert_eq!(remaining_ms(&r, T0 + 4), WAITS_MS[1]);
    assert_eq!(
        (4..=FREE_OFFENCES + 8).map(wait_for).collect::<Vec<_>>(),
        [
            15 * MINUTE_MS,
            HOUR_MS,
            3 * HOUR_MS,
            12 * HOUR_MS,
            24 * HOUR_MS,
            48 * HOUR_MS,
            48 * HOUR_MS,
            48 * HOUR_MS,
        ]
    );
}

#[test]
fn the_wait_is_capped_at_two_days_however_many_offences() {
    let times: Vec<u64> = (0..40).map(|i| T0 + i * 1000).collect();
    let r = offences(&times);
    let last = *times.last().expect("some");
    assert_eq!(remaining_ms(&r, last), MAX_WAIT_MS);
    assert_eq!(r.offences_ms.len(), MAX_OFFENCES, "bounded");
    assert_eq!(r.games.len(), MAX_OFFENCES);
    assert_eq!(r.games.last().map(String::as_str), Some("g39"));
    assert!(
        WAITS_MS.iter().all(|w| *w <= MAX_WAIT_MS),
        "no step past the cap"
    );
}

#[test]
fn offences_older_than_the_window_are_forgotten() {
    let r = offences(&[T0, T0 + 1, T0 + 2]);
    let later = T0 + WINDOW_MS + 10;
    let r = after_offence(&r, "late", later).expect("new");
    assert_eq!(r.offences_ms, vec![later]);
    assert_eq!(r.games, vec!["late".to_owned()]);
    assert_eq!(remaining_ms(&r, later), 0, "one offence in the window");
}

#[test]
fn a_game_counts_once_and_a_wait_never_shortens() {
    let r = offences(&[T0, T0 + 1, T0 + 2, T0 + 3, T0 + 4, T0 + 5]);
    assert_eq!(after_offence(&r, "g5", T0 + 6), None, "counted already");
    // Long after the first three left the window, a fourth offence in it
    // would earn less than the wait still running: the longer stays.
    let until = r.until_ms;
    let r2 = Playban {
        offences_ms: vec![T0 + 5],
        games: vec!["g5".into()],
        until_ms: until,
    };
    let r2 = after_offence(&r2, "next", T0 + 7).expect("new");
    assert_eq!(r2.until_ms, until);
}

#[test]
fn the_refusal_says_the_time_left_in_words() {
    let r = offences(&[T0, T0 + 1, T0 + 2, T0 + 3, T0 + 4, T0 + 5]);
    // 3 h wait from T0 + 5; 45 min later, 2 h 15 min are left.
    let now = T0 + 5 + 45 * MINUTE_MS;
    let body = refusal(&r, now).expect("barred");
    assert_eq!(body.code, ErrorCode::Playbanned);
    assert_eq!(body.retry_after_ms, Some(2 * HOUR_MS + 15 * MINUTE_MS));
    assert!(
        body.message
            .contains("you abandoned 6 rated games in the last 24 hours"),
        "{}",
        body.message
    );
    assert!(
        body.message
            .ends_with("you can play rated games again in 2 h 15 min"),
        "{}",
        body.message
    );
    assert_eq!(refusal(&r, r.until_ms), None, "over at its end");
}

#[test]
fn durations_in_words() {
    assert_eq!(in_words(1), "1 min");
    assert_eq!(in_words(15 * MINUTE_MS), "15 min");
    assert_eq!(in_words(HOUR_MS), "1 h");
    assert_eq!(in_words(HOUR_MS + 1), "1 h 1 min");
    assert_eq!(in_words(48 * HOUR_MS), "2 d");
    assert_eq!(in_words(26 * HOUR_MS + 5 * MINUTE_MS), "1 d 2 h 5 min");
}
