//! Reconnection: resume tokens, replay of missed events (exactly once, in
//! order), snapshots for gaps older than the table keeps, abandonment and
//! coming back in time, sessions taken over.

use crate::common;

use std::time::{Duration, Instant};

use common::*;
use tengen_client::bot::{Situation, decide};
use tengen_client::view::{Applied, TableView};
use tengen_client::{ClientError, Connection};
use tengen_protocol::{ClientMsg, Encoding, ServerMsg, TableId, Welcome};
use tengen_rules::game::{
    Action, Event, ForbiddenHandling, GameConfig, Opening, Outcome, ResultReason, RuleSet, Seat,
};

/// A player or spectator with its view, its token, and what it received.
struct Who {
    name: &'static str,
    conn: Connection,
    token: String,
    view: TableView,
    /// Every event seq applied, in order of arrival.
    seen: Vec<u64>,
    duplicates: usize,
}

async fn connect(url: &str, name: &'static str) -> (Connection, Welcome) {
    Connection::connect(url, Encoding::Json, Some(name))
        .await
        .unwrap()
}

impl Who {
    /// Reads frames until the view has `seq` (or the next `reply` frame
    /// satisfying `stop`).
    async fn catch_up(&mut self, seq: u64) {
        while self.view.seq() < seq {
            let f = self.conn.next().await.expect("a frame");
            self.take(&f.msg);
        }
    }

    fn take(&mut self, msg: &ServerMsg) {
        if let ServerMsg::TableEvent(e) = msg {
            match self
                .view
                .apply(e, Instant::now())
                .expect("no gap, right table")
            {
                Applied::New => self.seen.push(e.seq),
                Applied::Duplicate => self.duplicates += 1,
            }
        } else if let ServerMsg::TableSnapshot(s) = msg
            && s.table == *self.view.table()
        {
            self.view.reset(s, Instant::now()).unwrap();
        }
    }

    /// Reconnects with the token and asks for what was missed since the
    /// view's seq. Returns whether the table replayed (else: a snapshot).
    async fn resume(&mut self, url: &str, table: &TableId) -> bool {
        let (conn, w) = Connection::reconnect(
            url,
            Encoding::Json,
            Some(self.name),
            &self.token,
            Duration::from_secs(5),
        )
        .await
        .unwrap();
        assert!(w.resumed, "{} resumes its session", self.name);
        let old = std::mem::replace(&mut self.conn, conn);
        drop(old);
        let since = self.view.seq();
        let id = self
            .conn
            .send(ClientMsg::Watch {
                table: table.clone(),
                since: Some(since),
            })
            .await
            .unwrap();
        loop {
            let f = self.conn.next().await.unwrap();
            if f.id == Some(id) {
                return match f.msg {
                    ServerMsg::Replayed { since: s, seq, .. } => {
                        assert_eq!(s, since);
                        assert_eq!(
                            self.view.seq(),
                            seq,
                            "every missed event came before `replayed`"
                        );
                        true
                    }
                    ServerMsg::TableSnapshot(s) => {
                        self.view.reset(&s, Instant::now()).unwrap();
                        false
                    }
                    other => panic!("{other:?}"),
                };
            }
            self.take(&f.msg);
        }
    }
}

/// Sets up a RIF table with two players and a spectator, all with tokens.
async fn setup(server: &tengen_server::Server) -> (Who, Who, Who, TableId) {
    let u = url(server);
    let (mut a, wa) = connect(&u, "ann").await;
    let (mut b, wb) = connect(&u, "bob").await;
    let (mut s, ws) = connect(&u, "sam").await;
    let config = GameConfig::new(RuleSet::Renju)
        .with_opening(Opening::Rif)
        .with_forbidden(ForbiddenHandling::Claim);
    let room = create_room(&mut a, config, true).await;
    b.request(ClientMsg::JoinRoom { room }).await.unwrap();
    let sa = snapshot_push(&mut a).await;
    let sb = snapshot_push(&mut b).await;
    let table = sa.table.clone();
    let ss = match s
        .request(ClientMsg::Watch {
            table: table.clone(),
            since: None,
        })
        .await
        .unwrap()
    {
        ServerMsg::TableSnapshot(x) => *x,
        other => panic!("{other:?}"),
    };
    let who = |name, conn, w: Welcome, snap: &tengen_protocol::TableSnapshot| Who {
        name,
        conn,
        token: w.resume_token.expect("a resume token"),
        view: TableView::new(snap, Instant::now()).unwrap(),
        seen: Vec::new(),
        duplicates: 0,
    };
    (
        who("ann", a, wa, &sa),
        who("bob", b, wb, &sb),
        who("sam", s, ws, &ss),
        table,
    )
}

/// The next action the bot takes for the prompt's seat.
fn bot_action(v: &TableView, seed: u64) -> (Seat, Action) {
    let prompt = v.prompt().expect("a prompt").clone();
    let a = decide(
        &Situation::from_moves(v.board(), v.config(), v.moves()),
        &prompt,
        seed,
    );
    (prompt.seat, a)
}

#[tokio::test]
async fn dropped_connections_resume_with_every_event_exactly_once() {
    let server = server_with(|s| s.event_log = 4).await;
    let u = url(&server);
    let (mut a, mut b, mut s, table) = setup(&server).await;
    let mut step = 0u64;
    let mut dropped_in_opening = false;
    let mut dropped_with_offer = false;
    let mut snapshot_resume = false;
    while !a.view.is_over() && step < 400 {
        step += 1;
        let (seat, mut action) = bot_action(&a.view, step);
        let in_opening = a.view.moves().len() < 5;
        // Awkward moments: drop the player who is not to act just before
        // the other acts (during the opening, and with a draw offer made on
        // the move), and drop the spectator for a long stretch.
        let (actor, other) = if seat == Seat::First {
            (&mut a, &mut b)
        } else {
            (&mut b, &mut a)
        };
        let drop_other = (in_opening && !dropped_in_opening && step >= 2)
            || (!in_opening && !dropped_with_offer && matches!(action, Action::Place { .. }));
        if drop_other
            && !in_opening
            && let Action::Place { point, .. } = action
        {
            action = Action::Place {
                point,
                board: 0,
                offer_draw: true,
            };
        }
        if drop_other {
            // The connection vanishes (dropped, no close frame).
            let dead = std::mem::replace(
                &mut other.conn,
                Connection::open(&u, Encoding::Json).await.unwrap(),
            );
            drop(dead);
        }
        if step == 8 {
            let dead = std::mem::replace(
                &mut s.conn,
                Connection::open(&u, Encoding::Json).await.unwrap(),
            );
            drop(dead);
        }
        let seq = act(&mut actor.conn, &table, action).await;
        actor.catch_up(seq).await;
        if drop_other {
            // Give the server a moment to notice the drop, then come back.
            tokio::time::sleep(Duration::from_millis(50)).await;
            assert!(other.resume(&u, &table).await, "a short gap is replayed");
            if in_opening {
                dropped_in_opening = true;
            } else {
                dropped_with_offer = true;
                assert_eq!(
                    other.view.draw_offer(),
                    Some(seat),
                    "the pending offer was replayed"
                );
            }
        }
        other.catch_up(seq).await;
        if step == 20 {
            // The spectator missed far more than the table keeps (4 events).
            snapshot_resume = !s.resume(&u, &table).await;
        } else if !(8..=20).contains(&step) {
            s.catch_up(seq).await;
        }
    }
    assert!(a.view.is_over());
    assert!(dropped_in_opening && dropped_with_offer && snapshot_resume);
    let end = a.view.seq();
    s.catch_up(end).await;
    for w in [&a, &b] {
        assert_eq!(w.duplicates, 0, "{}: nothing arrives twice", w.name);
        assert_eq!(
            w.seen,
            (1..=end).collect::<Vec<_>>(),
            "{}: every event, in order",
            w.name
        );
    }
    assert_eq!(s.duplicates, 0);
    assert!(
        s.seen.windows(2).all(|p| p[0] < p[1]),
        "spectator: in order"
    );
    for w in [&b, &s] {
        assert_eq!(
            w.view.snapshot(),
            a.view.snapshot(),
            "{} ends in the same state",
            w.name
        );
    }
}

#[tokio::test]
async fn abandonment_at_the_documented_time_and_coming_back_in_time() {
    let server = server_with(|s| {
        s.abandon_grace_min = Duration::from_millis(300);
        s.abandon_grace_max = Duration::from_millis(300);
    })
    .await;
    let u = url(&server);
    // A player comes back within the grace: the game goes on.
    let (mut a, mut b, mut s, table) = setup(&server).await;
    let opener = a.view.opener();
    let (first_mover, other) = if opener == Seat::First {
        (&mut a, &mut b)
    } else {
        (&mut b, &mut a)
    };
    let dead = std::mem::replace(
        &mut other.conn,
        Connection::open(&u, Encoding::Json).await.unwrap(),
    );
    drop(dead);
    let status = player_status(&mut s.conn).await;
    assert_eq!(status, (false, Some(300), opener.other()));
    tokio::time::sleep(Duration::from_millis(100)).await;
    other.resume(&u, &table).await;
    let back = loop {
        if let ServerMsg::PlayerStatus { connected, .. } = s.conn.next().await.unwrap().msg {
            break connected;
        }
    };
    assert!(back);
    tokio::time::sleep(Duration::from_millis(400)).await;
    let seq = act(&mut first_mover.conn, &table, place("H8")).await;
    assert_eq!(seq, 1, "no abandonment happened");

    // A player who stays away loses by abandonment when the grace is over.
    let (mut a, mut b, mut s, _table) = setup(&server).await;
    let gone = a.view.opener();
    let who = if gone == Seat::First { &mut a } else { &mut b };
    let dead = std::mem::replace(
        &mut who.conn,
        Connection::open(&u, Encoding::Json).await.unwrap(),
    );
    let started = Instant::now();
    drop(dead);
    let result = loop {
        if let ServerMsg::TableEvent(e) = s.conn.next().await.unwrap().msg
            && let Event::GameOver { result, .. } = e.event
        {
            break result;
        }
    };
    let took = started.elapsed();
    assert_eq!(result.reason, ResultReason::Abandonment { seat: gone });
    assert!(matches!(result.outcome, Outcome::Win { seat, .. } if seat == gone.other()));
    assert!(
        took >= Duration::from_millis(250) && took < Duration::from_secs(3),
        "{took:?}"
    );
}

#[tokio::test]
async fn a_resume_elsewhere_takes_the_session_over() {
    let server = server().await;
    let u = url(&server);
    let (mut a, _b, _s, table) = setup(&server).await;
    // A second connection resumes Ann's session while the first still runs.
    let (mut c2, w) = Connection::connect_resuming(&u, Encoding::Json, Some("ann"), Some(&a.token))
        .await
        .unwrap();
    assert!(w.resumed);
    assert_eq!(w.tables, vec![table.clone()]);
    let code = loop {
        match a.conn.next().await {
            Err(ClientError::Closed { code, .. }) => break code,
            Ok(_) => continue,
            Err(e) => panic!("{e:?}"),
        }
    };
    assert_eq!(code, 4005);
    // The new connection acts for Ann's seat.
    let snap = match c2
        .request(ClientMsg::Watch {
            table: table.clone(),
            since: None,
        })
        .await
        .unwrap()
    {
        ServerMsg::TableSnapshot(s) => *s,
        other => panic!("{other:?}"),
    };
    assert_eq!(snap.seat, Some(Seat::First));
    // An unknown token just opens a new session.
    let (_c3, w) = Connection::connect_resuming(&u, Encoding::Json, Some("zed"), Some("nonsense"))
        .await
        .unwrap();
    assert!(!w.resumed);
}

#[tokio::test]
async fn a_takeover_keeps_the_new_connections_lobby_subscription() {
    let server = server().await;
    let u = url(&server);
    let (old, w) = connect(&u, "ann").await;
    let token = w.resume_token.unwrap();
    let (mut new, w2) = Connection::connect_resuming(&u, Encoding::Json, Some("ann"), Some(&token))
        .await
        .unwrap();
    assert!(w2.resumed);
    new.request(ClientMsg::LobbySubscribe).await.unwrap();
    // The old connection's end (closed with 4005) comes after the
    // subscription; it must not take it away.
    drop(old);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (mut other, _) = connect(&u, "bob").await;
    let room = create_room(&mut other, GameConfig::new(RuleSet::Gomoku), true).await;
    loop {
        if let ServerMsg::LobbyUpdate(u) = new.next().await.unwrap().msg
            && u.added.iter().any(|r| r.room == room)
        {
            break;
        }
    }
}
