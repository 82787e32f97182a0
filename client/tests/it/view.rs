//! `TableView` against the referee: whole games played on a rules `Game`,
//! its events stamped with `seq` as the server does, fed to a view started
//! from a snapshot; after every step the view must equal what the `Game`
//! itself reports (board, moves, prompt, clocks, result, the whole
//! snapshot). Also repeats, gaps, other tables, late joiners, and both
//! wire encodings.

use std::time::{Duration, Instant};

use tengen_client::view::{Applied, TableView, Update, ViewError};
use tengen_protocol::{
    Encoding, Envelope, PauseReason, Player, Players, RoomId, ServerMsg, TableEvent, TableId,
    TableSnapshot, decode_server, encode_server,
};
use tengen_rules::game::{
    Action, DrawPolicy, Event, ForbiddenHandling, ForbiddenStone, Game, GameConfig, Millis, Move,
    OfferSet, Opening, Outcome, ResultReason, RuleSet, Seat, Snapshot, TaraguchiOption,
    TimeControl,
};
use tengen_rules::{Color, Forbidden, Point};

fn p(s: &str) -> Point {
    s.parse().unwrap()
}

/// An action from a token: a point, `pass`, `swap`, `keep`, `n=3`,
/// `offer:J10,G9`, `keep:J10`, `offers` (Taraguchi), `two:H9,J9`.
fn action(tok: &str) -> Action {
    let list = |s: &str| s.split(',').map(p).collect::<Vec<_>>();
    match tok {
        "pass" => Action::pass(),
        "swap" => Action::Swap,
        "keep" => Action::Keep,
        "offers" => Action::ChooseOption {
            option: TaraguchiOption::Offers,
        },
        _ if tok.starts_with("n=") => Action::DeclareOffers {
            count: tok[2..].parse().unwrap(),
        },
        _ if tok.starts_with("offer:") => Action::OfferFifths {
            points: OfferSet::new(&list(&tok[6..])).unwrap(),
        },
        _ if tok.starts_with("keep:") => Action::KeepFifth {
            point: p(&tok[5..]),
        },
        _ if tok.starts_with("two:") => {
            let l = list(&tok[4..]);
            Action::PlaceTwo {
                white: l[0],
                black: l[1],
            }
        }
        _ => Action::place(p(tok)),
    }
}

/// A table as the server runs it: the referee, `seq`, every event sent,
/// and a view (seat `first`) fed each event as it is sent. Server time is
/// `Millis` from `base`; the view gets `base + ms` as the arrival instant.
struct Table {
    game: Game,
    id: TableId,
    base: Instant,
    seq: u64,
    log: Vec<TableEvent>,
    /// After each step: its last `seq`, the time, the referee's snapshot.
    snaps: Vec<(u64, Millis, Snapshot)>,
    view: TableView,
}

impl Table {
    fn new(config: GameConfig, opener: Seat, start: Millis) -> Table {
        let game = Game::new(config, opener, start).unwrap();
        let (id, base) = (TableId::from_u64(77), Instant::now());
        let snap = game.snapshot(start);
        let first = table_snapshot(&id, 0, snap.clone(), Some(Seat::First));
        let view = TableView::new(&first, base + Duration::from_millis(start)).unwrap();
        let t = Table {
            game,
            id,
            base,
            seq: 0,
            log: Vec::new(),
            snaps: vec![(0, start, snap)],
            view,
        };
        t.check(start);
        t
    }

    fn at(&self, ms: Millis) -> Instant {
        self.base + Duration::from_millis(ms)
    }

    /// `seat` acts at `now`. Before, the view's countdown must show what
    /// the referee's clocks show; after, the whole state must agree.
    fn act(&mut self, seat: Seat, action: Action, now: Millis) -> Vec<TableEvent> {
        assert_eq!(self.view.clock_now(self.at(now)), self.game.clocks(now));
        let ev = self
            .game
            .apply(seat, action, now)
            .unwrap_or_else(|e| panic!("{action:?} at {now}: {e}"));
        self.send(ev, now)
    }

    /// The seat the referee asks plays each token of `text`, at `t`,
    /// `t + step`, ...
    fn play(&mut self, text: &str, t: Millis, step: Millis) -> Vec<TableEvent> {
        let mut out = Vec::new();
        for (i, tok) in text.split_whitespace().enumerate() {
            let seat = self.game.to_act().expect("the game is on");
            out.extend(self.act(seat, action(tok), t + i as Millis * step));
        }
        out
    }

    fn tick(&mut self, now: Millis) -> Vec<TableEvent> {
        let ev = self.game.tick(now);
        self.send(ev, now)
    }

    /// What the server does with one step's events: stamp, send, and here
    /// also feed the view and compare.
    fn send(&mut self, ev: Vec<Event>, now: Millis) -> Vec<TableEvent> {
        let prompt = self.game.prompt(now);
        let stamped = TableEvent::stamp(&self.id, self.seq, ev, prompt.as_ref());
        for e in &stamped {
            assert_eq!(self.view.apply(e, self.at(now)), Ok(Applied::New));
        }
        self.seq += stamped.len() as u64;
        self.log.extend(stamped.iter().cloned());
        self.snaps.push((self.seq, now, self.game.snapshot(now)));
        self.check(now);
        stamped
    }

    /// The view equals the referee at `now`.
    fn check(&self, now: Millis) {
        let (v, g, at) = (&self.view, &self.game, self.at(now));
        assert_eq!(v.seq(), self.seq);
        assert_eq!(v.board(), g.board());
        assert_eq!(v.moves(), g.moves());
        assert_eq!(v.prompt(), g.prompt(now).as_ref());
        assert_eq!(v.clock_now(at), g.clocks(now));
        assert_eq!(v.result(), g.result());
        assert_eq!(v.black(), g.seat_of(Color::Black));
        assert_eq!(v.forbidden(), g.revealed_forbidden());
        assert_eq!(v.snapshot_at(at), g.snapshot(now));
    }

    /// A fresh view started from the snapshot sent after `steps` steps.
    fn late_view(&self, steps: usize) -> TableView {
        let (seq, now, snap) = self.snaps[steps].clone();
        let msg = table_snapshot(&self.id, seq, snap, Some(Seat::First));
        TableView::new(&msg, self.at(now)).unwrap()
    }

    /// When each event was sent (the time of its step).
    fn sent_at(&self, seq: u64) -> Instant {
        let (_, now, _) = self.snaps.iter().find(|(s, _, _)| *s >= seq).unwrap();
        self.at(*now)
    }
}

fn table_snapshot(id: &TableId, seq: u64, snapshot: Snapshot, seat: Option<Seat>) -> TableSnapshot {
    let mut players = Players::default();
    for (seat, name) in [(Seat::First, "alice"), (Seat::Second, "bob")] {
        *players.seat_mut(seat) = Some(Player {
            name: name.into(),
            guest: true,
            bot: false,
        });
    }
    TableSnapshot {
        table: id.clone(),
        room: RoomId::from_u64(5),
        seq,
        snapshot,
        players,
        spectators: 0,
        seat,
        paused: None,
        forbidden: Vec::new(),
        away: Vec::new(),
        rematch: Vec::new(),
        tournament: None,
    }
}

fn fischer(main_ms: Millis, increment_ms: Millis) -> TimeControl {
    TimeControl::Fischer {
        main_ms,
        increment_ms,
    }
}

/// The README's free renju game: Fischer 5 min + 5 s, opener `second`,
/// black's five on move 9.
fn readme_game() -> Table {
    let config = GameConfig::free(RuleSet::Renju).with_time(fischer(300_000, 5_000));
    let mut t = Table::new(config, Seat::Second, 0);
    t.play("H8 I9 H9 J9 H10 J8 H11 H12 H7", 2_000, 1_500);
    t
}

#[test]
fn free_renju_with_a_fischer_clock_to_a_five() {
    let t = readme_game();
    let v = &t.view;
    assert_eq!(v.seq(), 10, "nine moves and the game_over");
    assert_eq!((v.opener(), v.black()), (Seat::Second, Seat::Second));
    assert_eq!(v.board().get(p("H7")), Some(Color::Black));
    let r = v.result().expect("over");
    assert_eq!(
        r.outcome,
        Outcome::Win {
            seat: Seat::Second,
            color: Color::Black
        }
    );
    assert!(matches!(&r.reason, ResultReason::Five { line } if line.len() == 5));
    assert_eq!(v.prompt(), None);
    let clocks = v.clocks().unwrap();
    assert_eq!(clocks.running, None, "stopped at the end");
    assert_eq!(
        v.clock_now(t.at(1_000_000)).as_ref(),
        Some(clocks),
        "a stopped clock does not run down"
    );
    assert!(matches!(v.last_event(), Some(Event::GameOver { .. })));
}

#[test]
fn the_countdown_subtracts_the_time_since_the_figures_arrived() {
    let config = GameConfig::free(RuleSet::Gomoku).with_time(fischer(60_000, 2_000));
    let mut t = Table::new(config, Seat::First, 0);
    t.play("H8", 3_000, 0);
    let v = &t.view;
    let sent = *v.clocks().unwrap();
    assert_eq!(sent.running, Some(Seat::Second));
    assert_eq!(sent.first.main_ms, 60_000 - 3_000 + 2_000);
    assert_eq!(v.clocks_received_at(), t.at(3_000));
    let later = v.clock_now(t.at(3_000 + 1_250)).unwrap();
    assert_eq!(later.second.main_ms, 60_000 - 1_250, "the running clock");
    assert_eq!(later.first, sent.first, "the stopped clock");
    assert_eq!(v.clock_now(t.at(10_000_000)).unwrap().second.main_ms, 0);
    // A view knows nothing of time before its figures arrived.
    assert_eq!(v.clock_now(t.at(0)).as_ref(), Some(&sent));
}

#[test]
fn paused_clocks_stand_still_until_they_run_again() {
    let config = GameConfig::free(RuleSet::Gomoku).with_time(fischer(60_000, 2_000));
    let mut t = Table::new(config, Seat::First, 0);
    t.play("H8", 3_000, 0);
    let sent = *t.view.clocks().unwrap();
    let paused = ServerMsg::TablePaused {
        table: t.id.clone(),
        paused: Some(PauseReason::Store),
        clocks: Some(sent),
    };
    let at = t.at(4_000);
    assert_eq!(t.view.handle(&paused, at).unwrap(), Update::Paused);
    assert_eq!(t.view.paused(), Some(PauseReason::Store));
    assert_eq!(t.view.clock_now(t.at(90_000)), Some(sent), "no countdown");
    let running = ServerMsg::TablePaused {
        table: t.id.clone(),
        paused: None,
        clocks: Some(sent),
    };
    assert_eq!(
        t.view.handle(&running, t.at(90_000)).unwrap(),
        Update::Paused
    );
    assert_eq!(t.view.paused(), None);
    let later = t.view.clock_now(t.at(91_000)).unwrap();
    assert_eq!(later.second.main_ms, sent.second.main_ms - 1_000);
}

#[test]
fn rif_with_a_swap_and_two_fifth_offers() {
    let config = GameConfig::new(RuleSet::Renju)
        .with_opening(Opening::Rif)
        .with_time(fischer(120_000, 3_000));
    let mut t = Table::new(config, Seat::First, 0);
    t.play("H8 I9 J10", 1_000, 700);
    assert!(t.view.opening().canonical.is_some(), "black 3 names it");
    t.play("swap", 5_000, 0);
    assert_eq!(
        (t.view.black(), t.view.swapped()),
        (Seat::Second, Some(true))
    );
    t.play("H7", 9_000, 0);
    t.play("offer:K11,G9", 12_000, 0);
    let v = &t.view;
    assert_eq!(v.pending_fifths(), Some(&[p("K11"), p("G9")][..]));
    assert_eq!(
        v.board().get(p("K11")),
        None,
        "offers stand beside the board"
    );
    assert_eq!(v.moves().len(), 4);
    assert!(v.my_turn(), "the first seat (white) keeps one");
    let joined_now = t.late_view(t.snaps.len() - 1);
    assert_eq!(
        joined_now.pending_fifths(),
        v.pending_fifths(),
        "from a snapshot"
    );
    let mut halfway = t.late_view(t.snaps.len() - 1);
    let step = t.play("keep:G9", 20_000, 0);
    assert!(matches!(step[0].event, Event::FifthKept { .. }));
    halfway.apply(&step[0], t.at(20_000)).unwrap();
    assert_eq!(
        halfway.pending_fifths(),
        None,
        "FifthKept settles the offers"
    );
    assert_eq!(
        halfway.board().get(p("G9")),
        None,
        "move 5 comes with Moved"
    );
    let v = &t.view;
    assert_eq!(v.pending_fifths(), None);
    let fifth = Move {
        number: 5,
        seat: Seat::Second,
        color: Color::Black,
        point: Some(p("G9")),
        board: 0,
    };
    assert_eq!(v.moves()[4], fifth, "the kept offer is black's move 5");
    assert_eq!(v.board().get(p("K11")), None, "the other offer is gone");
    assert!(
        v.opening().fifth_offers.is_some(),
        "still shown, as the referee does"
    );
    t.play("K11 A1", 21_000, 1_000);
    t.act(Seat::First, Action::Resign, 30_000);
    assert_eq!(t.view.result().unwrap().winner(), Some(Seat::Second));
}

#[test]
fn yamaguchi_single_offer_and_taraguchi_options() {
    // One declared offer stands as move 5 at once.
    let config = GameConfig::new(RuleSet::Renju).with_opening(Opening::Yamaguchi);
    let mut t = Table::new(config, Seat::First, 0);
    t.play("H8 H9 I9 n=1 keep J7 offer:J10", 0, 10);
    assert_eq!(t.view.opening().declared_offers, Some(1));
    assert_eq!(t.view.pending_fifths(), None);
    assert_eq!(t.view.board().get(p("J10")), Some(Color::Black));
    // Taraguchi: option (b), ten offers, white keeps one.
    let config = GameConfig::new(RuleSet::Renju).with_opening(Opening::TARAGUCHI);
    let mut t = Table::new(config, Seat::First, 0);
    t.play("H8 keep H9 keep I9 keep J7 offers", 0, 10);
    assert_eq!(t.view.opening().option, Some(TaraguchiOption::Offers));
    let ten = "offer:A1,B1,C1,D1,E1,F1,G1,A2,B2,C2";
    t.play(ten, 100, 0);
    assert_eq!(t.view.pending_fifths().map(<[Point]>::len), Some(10));
    t.play("keep:C2 A15", 200, 10);
}

#[test]
fn swap2_with_two_more_stones() {
    let config = GameConfig::new(RuleSet::Gomoku)
        .with_opening(Opening::Swap2)
        .with_time(fischer(60_000, 1_000));
    let mut t = Table::new(config, Seat::First, 0);
    t.play("H8 H9 J9", 1_000, 500);
    let ev = t.play("two:J10,K9", 4_000, 0);
    assert_eq!(ev.len(), 2, "white 4 and black 5, one step");
    assert!(
        ev.iter().all(|e| e.prompt == ev[0].prompt),
        "one prompt per step"
    );
    assert_eq!(t.view.moves().len(), 5);
    // The opener chooses white: the second seat holds black from now on.
    t.play("swap", 6_000, 0);
    assert_eq!(t.view.black(), Seat::Second);
    assert_eq!(t.view.prompt().unwrap().seat, Seat::First);
    t.play("A1 L9 A3 M9 A5 N9", 7_000, 1_000);
    let r = t.view.result().expect("black's J9-N9");
    assert_eq!(r.winner(), Some(Seat::Second));
    assert!(matches!(&r.reason, ResultReason::Five { line } if line.contains(&p("N9"))));
}

#[test]
fn claim_room_reveals_the_forbidden_stone_only_at_the_end() {
    let config = GameConfig::new(RuleSet::Renju).with_forbidden(ForbiddenHandling::Claim);
    let mut t = Table::new(config, Seat::First, 0);
    // Black I8 is a double three (G8 H8 I8 and I8 I9 I10); white plays on.
    t.play("H8 A1 G8 A3 I9 A5 I10 A7 I8 A9", 0, 100);
    assert_eq!(t.view.forbidden(), &[], "nothing is revealed while it runs");
    // A claim from an older record, naming no point (a claim naming I8
    // would be refused now: white has moved).
    t.act(Seat::Second, Action::ClaimForbidden { point: None }, 2_000);
    assert_eq!(
        t.view.violations(Seat::Second),
        1,
        "too late: a false claim"
    );
    t.act(Seat::First, Action::Resign, 3_000);
    let stone = ForbiddenStone {
        move_number: 9,
        point: p("I8"),
        kind: Forbidden::DoubleThree,
    };
    assert_eq!(t.view.forbidden(), &[stone]);
}

#[test]
fn claim_upheld_ends_the_game() {
    let config = GameConfig::new(RuleSet::Renju).with_forbidden(ForbiddenHandling::Claim);
    let mut t = Table::new(config, Seat::First, 0);
    t.play("H8 A1 G8 A3 I9 A5 I10 A7 I8", 0, 100);
    let ev = t.act(Seat::Second, Action::claim(p("I8")), 2_000);
    assert!(matches!(ev[0].event, Event::ClaimUpheld { .. }));
    let r = t.view.result().unwrap();
    assert_eq!(r.winner_color(), Some(Color::White));
    assert_eq!(t.view.forbidden().len(), 1);
}

#[test]
fn a_takeback_removes_the_moves_and_a_late_view_agrees() {
    let config = GameConfig::free(RuleSet::Gomoku)
        .with_time(fischer(60_000, 1_000))
        .with_takebacks(true);
    let mut t = Table::new(config, Seat::First, 0);
    t.play("H8 H9 J10 J11", 0, 1_000);
    t.act(Seat::First, Action::RequestTakeback, 4_500);
    assert_eq!(t.view.takeback(), Some(Seat::First));
    let ev = t.act(Seat::Second, Action::AcceptTakeback, 5_000);
    assert!(matches!(ev[0].event, Event::TakenBack { .. }));
    assert_eq!(t.view.takeback(), None);
    assert_eq!(t.view.moves().len(), 2);
    assert_eq!(t.view.board().get(p("J10")), None);
    t.play("K11", 6_000, 0);
    // A view started after the takeback agrees with the one that saw it.
    let late = t.late_view(t.snaps.len() - 1);
    assert_eq!(late.moves(), t.view.moves());
    assert_eq!(late.board(), t.view.board());
}

#[test]
fn a_twin_turn_of_one_stone_keeps_the_view_with_the_referee() {
    let mut t = Table::new(GameConfig::new(RuleSet::Twin), Seat::First, 0);
    t.act(Seat::First, Action::place_on(0, p("J10")), 1_000);
    t.act(Seat::Second, Action::place_on(1, p("K10")), 2_000);
    let ev = t.act(Seat::Second, Action::EndTurn, 3_000);
    assert!(matches!(ev[0].event, Event::TurnEnded { .. }));
    assert_eq!(t.view.prompt().unwrap().seat, Seat::First);
    assert_eq!(t.view.prompt().unwrap().stones_left, Some(2));
}

#[test]
fn draw_offers_accepted_declined_and_lapsed() {
    let draw = DrawPolicy {
        answer_ms: Some(5_000),
        ..DrawPolicy::default()
    };
    let config = GameConfig::free(RuleSet::Gomoku).with_draw(draw);
    let mut t = Table::new(config, Seat::First, 0);
    t.play("H8 A1", 0, 100);
    let offer = |s: &str| Action::Place {
        point: p(s),
        board: 0,
        offer_draw: true,
    };
    // Lapsed: the server's timer fires, the view hears of it.
    t.act(Seat::First, offer("H9"), 1_000);
    assert_eq!(
        (t.view.draw_offer(), t.view.offers(Seat::First)),
        (Some(Seat::First), 1)
    );
    let ev = t.tick(6_000);
    assert_eq!(ev[0].event, Event::DrawOfferLapsed { seat: Seat::First });
    assert_eq!(t.view.draw_offer(), None);
    // Declined by a move.
    t.play("A2", 6_500, 0);
    t.act(Seat::First, offer("H10"), 7_000);
    t.play("A3", 7_500, 0);
    assert_eq!(t.view.draw_offer(), None);
    assert_eq!(t.view.offers(Seat::First), 2);
    // Offered after one's move, then accepted.
    t.act(Seat::Second, Action::OfferDraw, 7_600);
    assert_eq!(t.view.draw_offer(), Some(Seat::Second));
    assert_eq!(t.view.offers(Seat::Second), 1);
    t.act(Seat::First, Action::AcceptDraw, 7_700);
    let r = t.view.result().unwrap();
    assert_eq!(
        (r.outcome, &r.reason),
        (Outcome::Draw, &ResultReason::DrawAgreed)
    );
    assert_eq!(t.view.draw_offer(), None);
}

#[test]
fn a_fischer_game_lost_on_time() {
    let config = GameConfig::free(RuleSet::Freestyle).with_time(fischer(10_000, 1_000));
    let mut t = Table::new(config, Seat::First, 0);
    // `act` compares the countdown with the referee's clocks before each move.
    t.play("H8 H9 J8 J9", 2_500, 3_000);
    let flag = t.game.flag_at().expect("a clock runs");
    for before in [flag - 2_000, flag - 1, flag] {
        assert_eq!(t.view.clock_now(t.at(before)), t.game.clocks(before));
    }
    assert_eq!(t.tick(flag - 1), vec![], "not yet");
    let ev = t.tick(flag);
    assert_eq!(ev.len(), 1);
    let r = t.view.result().unwrap();
    assert_eq!(r.reason, ResultReason::Time { seat: Seat::First });
    assert_eq!(t.view.clocks().unwrap().first.main_ms, 0);
}

#[test]
fn a_byo_yomi_countdown_runs_through_the_periods() {
    let byo = TimeControl::ByoYomi {
        main_ms: 1_000,
        periods: 3,
        period_ms: 2_000,
        moves_per_period: 1,
    };
    let config = GameConfig::free(RuleSet::Gomoku).with_time(byo);
    let mut t = Table::new(config, Seat::First, 0);
    t.play("H8 A1", 2_500, 1_500);
    let from = 4_000;
    for dt in (0..7_000).step_by(250) {
        let now = from + dt;
        assert_eq!(t.view.clock_now(t.at(now)), t.game.clocks(now), "at {now}");
    }
    // 3 s for H9: the 2 s period is used up, the move made in the next.
    t.play("H9", from + 3_000, 0);
    let c = t.view.clocks().unwrap().first;
    assert_eq!((c.main_ms, c.periods, c.period_ms), (0, 2, 2_000));
}

#[test]
fn repeats_are_ignored_gaps_and_other_tables_refused() {
    let t = readme_game();
    let mut v = t.late_view(0);
    let at = t.at(0);
    assert_eq!(v.apply(&t.log[0], at), Ok(Applied::New));
    let before = v.clone();
    assert_eq!(v.apply(&t.log[0], at), Ok(Applied::Duplicate));
    assert_eq!(v, before, "a repeat changes nothing");
    assert_eq!(
        v.apply(&t.log[2], at),
        Err(ViewError::Gap { have: 1, got: 3 })
    );
    assert_eq!(v, before, "a gap changes nothing");
    let mut other = t.log[1].clone();
    other.table = TableId::from_u64(78);
    assert!(matches!(
        v.apply(&other, at),
        Err(ViewError::WrongTable { .. })
    ));
    // A move that cannot be recorded: the point is taken.
    let mut bad = t.log[1].clone();
    if let Event::Moved { mv, .. } = &mut bad.event {
        mv.point = Some(p("H8"));
    }
    assert!(matches!(
        v.apply(&bad, at),
        Err(ViewError::Inconsistent { seq: 2, .. })
    ));
    assert_eq!(v, before, "an inconsistent event changes nothing");
    // After a gap the caller resynchronises from a snapshot and goes on.
    let (seq, now, snap) = t.snaps[4].clone();
    let fresh = table_snapshot(&t.id, seq, snap, Some(Seat::First));
    v.reset(&fresh, t.at(now)).unwrap();
    assert_eq!(v.seq(), 4);
    for e in &t.log[4..] {
        v.apply(e, t.sent_at(e.seq)).unwrap();
    }
    assert_eq!(v, t.view);
    let mut elsewhere = fresh.clone();
    elsewhere.table = TableId::from_u64(78);
    assert!(matches!(
        v.reset(&elsewhere, at),
        Err(ViewError::WrongTable { .. })
    ));
}

#[test]
fn a_view_started_mid_game_ends_equal() {
    let mut t = Table::new(
        GameConfig::new(RuleSet::Renju)
            .with_opening(Opening::Rif)
            .with_time(fischer(120_000, 3_000)),
        Seat::Second,
        0,
    );
    t.play("H8 I9 J10 keep H7 offer:K11,G9 keep:K11 A1 G9", 1_000, 900);
    t.act(Seat::Second, Action::Resign, 20_000);
    let last = t.snaps.len() - 1;
    let at_end = t.late_view(last);
    assert_eq!(at_end.snapshot(), t.view.snapshot());
    assert_eq!(at_end.board(), t.view.board());
    for steps in 0..last {
        let mut v = t.late_view(steps);
        // Everything sent: the ones the snapshot includes are repeats.
        for e in &t.log {
            let applied = v.apply(e, t.sent_at(e.seq)).unwrap();
            assert_eq!(applied == Applied::Duplicate, e.seq <= t.snaps[steps].0);
        }
        assert_eq!(v, t.view, "started after {steps} steps");
    }
}

fn frame(msg: ServerMsg, enc: Encoding) -> ServerMsg {
    let bytes = encode_server(&Envelope::push(msg), enc);
    decode_server(&bytes, enc).unwrap().msg
}

#[test]
fn json_and_messagepack_give_the_same_view() {
    let mut t = Table::new(
        GameConfig::new(RuleSet::Renju)
            .with_opening(Opening::Yamaguchi)
            .with_forbidden(ForbiddenHandling::Claim)
            .with_time(TimeControl::ByoYomi {
                main_ms: 4_000,
                periods: 2,
                period_ms: 3_000,
                moves_per_period: 2,
            }),
        Seat::First,
        0,
    );
    t.play("H8 H9 I9 n=2 swap J7 offer:J10,G6 keep:G6 A1", 1_000, 1_000);
    t.act(Seat::First, Action::ClaimForbidden { point: None }, 11_000);
    t.act(Seat::Second, Action::Resign, 12_000);
    for enc in [Encoding::Json, Encoding::MsgPack] {
        let (seq, now, snap) = t.snaps[0].clone();
        let first = table_snapshot(&t.id, seq, snap, Some(Seat::First));
        let ServerMsg::TableSnapshot(first) = frame(ServerMsg::TableSnapshot(Box::new(first)), enc)
        else {
            panic!("a snapshot")
        };
        let mut v = TableView::new(&first, t.at(now)).unwrap();
        for e in &t.log {
            let msg = frame(ServerMsg::TableEvent(e.clone()), enc);
            let update = v.handle(&msg, t.sent_at(e.seq)).unwrap();
            assert_eq!(update, Update::Event(Applied::New));
        }
        assert_eq!(v, t.view, "{enc:?}");
    }
}

#[test]
fn handle_routes_snapshots_events_and_spectator_counts() {
    let t = readme_game();
    let mut v = t.late_view(0);
    let at = t.at(0);
    let count = ServerMsg::Spectators {
        table: t.id.clone(),
        count: 3,
    };
    assert_eq!(v.handle(&count, at), Ok(Update::Spectators));
    assert_eq!(v.spectators(), 3);
    let elsewhere = ServerMsg::Spectators {
        table: TableId::from_u64(1),
        count: 9,
    };
    assert_eq!(v.handle(&elsewhere, at), Ok(Update::Ignored));
    let acted = ServerMsg::Acted {
        table: t.id.clone(),
        seq: 1,
    };
    assert_eq!(v.handle(&acted, at), Ok(Update::Ignored));
    let ev = ServerMsg::TableEvent(t.log[0].clone());
    assert_eq!(v.handle(&ev, at), Ok(Update::Event(Applied::New)));
    assert_eq!(v.handle(&ev, at), Ok(Update::Event(Applied::Duplicate)));
    let (seq, now, snap) = t.snaps.last().unwrap().clone();
    let mut watch = table_snapshot(&t.id, seq, snap, None);
    watch.spectators = 4;
    let reset = ServerMsg::TableSnapshot(Box::new(watch));
    assert_eq!(v.handle(&reset, t.at(now)), Ok(Update::Reset));
    assert!(v.is_spectator() && !v.my_turn());
    assert_eq!((v.seq(), v.spectators()), (10, 4));
    assert_eq!(v.board(), t.game.board());
    assert_eq!(v.last_event(), None);
}
