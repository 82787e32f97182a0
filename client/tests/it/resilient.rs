//! `Session` against a real server (in-process) through a TCP proxy on
//! loopback that the test can cut: every connection through it vanishes at
//! once, no close frame, like a lost network. Games are played to the end
//! with the quick bot while the link is cut at awkward moments; the
//! session's user must see every table event exactly once, in order, and do
//! nothing to get there.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tengen_client::bot::{Situation, decide};
use tengen_client::view::{Applied, TableView};
use tengen_client::{Connection, Delivery, Session, SessionError};
use tengen_protocol::{ClientMsg, Encoding, ServerMsg, TableId};
use tengen_rules::game::{Action, ForbiddenHandling, GameConfig, Opening, RuleSet, Seat};
use tengen_server::{Server, Settings};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

const LIMIT: Duration = Duration::from_secs(15);

/// A loopback proxy whose connections can be cut, and which can refuse
/// new ones for a while (the network is still down).
#[derive(Clone)]
struct Proxy {
    addr: SocketAddr,
    links: Arc<Mutex<Vec<JoinHandle<()>>>>,
    down: Arc<AtomicBool>,
}

impl Proxy {
    async fn start(target: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let proxy = Proxy {
            addr: listener.local_addr().unwrap(),
            links: Arc::default(),
            down: Arc::default(),
        };
        let p = proxy.clone();
        tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                if p.down.load(Ordering::SeqCst) {
                    continue; // dropped: the connection attempt fails
                }
                let link = tokio::spawn(async move {
                    if let Ok(mut server) = TcpStream::connect(target).await {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                    }
                });
                p.links.lock().unwrap().push(link);
            }
        });
        proxy
    }

    fn url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// Every connection through the proxy vanishes; new ones fail until
    /// [`Proxy::restore`].
    fn cut(&self) {
        self.down.store(true, Ordering::SeqCst);
        for link in self.links.lock().unwrap().drain(..) {
            link.abort();
        }
    }

    fn restore(&self) {
        self.down.store(false, Ordering::SeqCst);
    }

    /// Restores the link after `after`, while the test goes on.
    fn restore_in(&self, after: Duration) {
        let p = self.clone();
        tokio::spawn(async move {
            tokio::time::sleep(after).await;
            p.restore();
        });
    }
}

async fn server(event_log: usize) -> Server {
    Server::start(Settings {
        listen: "127.0.0.1:0".parse().unwrap(),
        data_dir: std::path::PathBuf::new(),
        coalesce_interval: Duration::from_millis(50),
        event_log,
        ..Settings::default()
    })
    .await
    .expect("server starts")
}

fn url(server: &Server) -> String {
    format!("ws://{}/ws", server.addr())
}

/// A `Session`'s user: a view fed only from deliveries, and a record of
/// what came.
struct User {
    session: Session,
    view: Option<TableView>,
    /// Every event seq delivered, in order.
    seen: Vec<u64>,
    lost: u32,
    reconnected: u32,
    /// `replayed` of each `Rewatched`.
    rewatched: Vec<bool>,
    snapshots: u32,
}

impl User {
    async fn connect(url: &str, name: &str) -> User {
        let (session, w) = Session::connect(url, Encoding::Json, Some(name))
            .await
            .unwrap();
        assert!(w.resume_token.is_some());
        User {
            session,
            view: None,
            seen: Vec::new(),
            lost: 0,
            reconnected: 0,
            rewatched: Vec::new(),
            snapshots: 0,
        }
    }

    fn view(&self) -> &TableView {
        self.view.as_ref().expect("a table")
    }

    fn take(&mut self, d: Delivery) {
        match d {
            Delivery::Frame(f) => match f.msg {
                ServerMsg::TableEvent(e) => {
                    let v = self.view.as_mut().expect("a snapshot first");
                    match v.apply(&e, Instant::now()).expect("no gap, right table") {
                        Applied::New => self.seen.push(e.seq),
                        Applied::Duplicate => panic!("seq {} delivered twice", e.seq),
                    }
                }
                ServerMsg::TableSnapshot(s) => {
                    self.snapshots += 1;
                    match &mut self.view {
                        Some(v) => v.reset(&s, Instant::now()).unwrap(),
                        None => self.view = Some(TableView::new(&s, Instant::now()).unwrap()),
                    }
                }
                _ => {}
            },
            Delivery::Lost { .. } => self.lost += 1,
            Delivery::Reconnected { resumed } => {
                assert!(resumed, "the session is resumed");
                self.reconnected += 1;
            }
            Delivery::Rewatched { replayed, seq, .. } => {
                assert_eq!(seq, self.view().seq(), "caught up when rewatched");
                self.rewatched.push(replayed);
            }
            Delivery::TableLost { table, error } => panic!("{table}: {error:?}"),
        }
    }

    async fn next(&mut self) -> Delivery {
        tokio::time::timeout(LIMIT, self.session.next())
            .await
            .expect("a delivery in time")
            .expect("the session goes on")
    }

    async fn catch_up(&mut self, seq: u64) {
        while self.view.as_ref().is_none_or(|v| v.seq() < seq) {
            let d = self.next().await;
            self.take(d);
        }
    }

    /// Reads until the table is followed again after a drop.
    async fn until_rewatched(&mut self) {
        loop {
            let d = self.next().await;
            let done = matches!(d, Delivery::Rewatched { .. });
            self.take(d);
            if done {
                return;
            }
        }
    }
}

/// A player on a plain, direct connection.
struct Direct {
    conn: Connection,
    view: TableView,
    /// `player_status` pushes seen: (connected, grace_ms).
    statuses: Vec<(bool, Option<u64>)>,
}

impl Direct {
    fn take(&mut self, msg: &ServerMsg) {
        match msg {
            ServerMsg::TableEvent(e) => {
                self.view.apply(e, Instant::now()).unwrap();
            }
            ServerMsg::PlayerStatus {
                connected,
                grace_ms,
                ..
            } => self.statuses.push((*connected, *grace_ms)),
            _ => {}
        }
    }

    async fn act(&mut self, action: Action) -> u64 {
        let table = self.view.table().clone();
        let seq = match self.conn.request(ClientMsg::Act { table, action }).await {
            Ok(ServerMsg::Acted { seq, .. }) => seq,
            other => panic!("{action:?}: {other:?}"),
        };
        self.catch_up(seq).await;
        seq
    }

    async fn catch_up(&mut self, seq: u64) {
        while self.view.seq() < seq {
            let f = self.conn.next().await.unwrap();
            self.take(&f.msg);
        }
    }

    /// Reads whatever arrives within `wait`.
    async fn drain(&mut self, wait: Duration) {
        while let Ok(Ok(f)) = tokio::time::timeout(wait, self.conn.next()).await {
            self.take(&f.msg);
        }
    }
}

async fn snapshot_push(c: &mut Connection) -> tengen_protocol::TableSnapshot {
    match c
        .next_matching(|m| matches!(m, ServerMsg::TableSnapshot(_)))
        .await
        .unwrap()
        .msg
    {
        ServerMsg::TableSnapshot(s) => *s,
        _ => unreachable!(),
    }
}

fn create(config: GameConfig) -> ClientMsg {
    ClientMsg::CreateRoom {
        rated: false,
        config,
        public: true,
        name: None,
        chat: true,
    }
}

/// `creator` (a session) creates a room, `joiner` joins it directly.
async fn start_game(creator: &mut User, server_url: &str, config: GameConfig) -> Direct {
    let room = match creator.session.request(create(config)).await.unwrap() {
        ServerMsg::RoomCreated { room, .. } => room,
        other => panic!("{other:?}"),
    };
    let (mut conn, _) = Connection::connect(server_url, Encoding::Json, Some("bob"))
        .await
        .unwrap();
    conn.request(ClientMsg::JoinRoom { room }).await.unwrap();
    let snap = snapshot_push(&mut conn).await;
    creator.catch_up(0).await;
    Direct {
        conn,
        view: TableView::new(&snap, Instant::now()).unwrap(),
        statuses: Vec::new(),
    }
}

async fn watch(user: &mut User, table: &TableId) {
    let reply = user
        .session
        .request(ClientMsg::Watch {
            table: table.clone(),
            since: None,
        })
        .await
        .unwrap();
    match reply {
        ServerMsg::TableSnapshot(s) => {
            user.snapshots += 1;
            user.view = Some(TableView::new(&s, Instant::now()).unwrap());
        }
        other => panic!("{other:?}"),
    }
}

fn bot_action(v: &TableView, seed: u64) -> (Seat, Action) {
    let prompt = v.prompt().expect("a prompt").clone();
    let a = decide(
        &Situation::from_moves(v.board(), v.config(), v.moves()),
        &prompt,
        seed,
    );
    (prompt.seat, a)
}

/// Ann acts through her session until the action has taken effect; a drop
/// with the request in flight is checked against the table and retried
/// only if it did not. Returns the table's seq afterwards.
async fn session_act(ann: &mut User, bob: &mut Direct, action: Action) -> u64 {
    loop {
        let before = bob.view.seq();
        let table = ann.view().table().clone();
        match ann.session.request(ClientMsg::Act { table, action }).await {
            Ok(ServerMsg::Acted { seq, .. }) => return seq,
            Err(SessionError::Dropped) => {
                ann.until_rewatched().await;
                bob.drain(Duration::from_millis(150)).await;
                if bob.view.seq() > before {
                    return bob.view.seq();
                }
            }
            other => panic!("{action:?}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_game_over_a_flaky_link_delivers_every_event_once_in_order() {
    let server = server(512).await;
    let proxy = Proxy::start(server.addr()).await;
    let mut ann = User::connect(&proxy.url(), "ann").await;
    let mut sam = User::connect(&proxy.url(), "sam").await;
    let config = GameConfig::new(RuleSet::Renju)
        .with_opening(Opening::Rif)
        .with_forbidden(ForbiddenHandling::Claim);
    let mut bob = start_game(&mut ann, &url(&server), config).await;
    let table = bob.view.table().clone();
    watch(&mut sam, &table).await;

    let (mut cut_opening, mut cut_offer, mut cut_in_flight) = (false, false, false);
    let mut step = 0u64;
    while !bob.view.is_over() && step < 300 {
        step += 1;
        let (seat, mut action) = bot_action(&bob.view, step);
        let in_opening = bob.view.moves().len() < 5;
        let seq = if seat == Seat::First {
            if !cut_in_flight && !in_opening && step > 12 {
                // Ann's own action is on its way when the link goes.
                cut_in_flight = true;
                let before = bob.view.seq();
                let act = ClientMsg::Act {
                    table: table.clone(),
                    action,
                };
                ann.session.send(act).await.unwrap();
                proxy.cut();
                proxy.restore_in(Duration::from_millis(200));
                ann.until_rewatched().await;
                bob.drain(Duration::from_millis(150)).await;
                if bob.view.seq() == before {
                    session_act(&mut ann, &mut bob, action).await
                } else {
                    bob.view.seq()
                }
            } else {
                session_act(&mut ann, &mut bob, action).await
            }
        } else {
            // Bob acts while Ann and Sam are cut off: during the opening,
            // and with a draw offer made with the move.
            let cut = (in_opening && !cut_opening && step >= 2)
                || (!in_opening && !cut_offer && matches!(action, Action::Place { .. }));
            if cut
                && !in_opening
                && let Action::Place { point, .. } = action
            {
                action = Action::Place {
                    point,
                    board: 0,
                    offer_draw: true,
                };
            }
            if cut {
                proxy.cut();
            }
            let seq = bob.act(action).await;
            if cut {
                proxy.restore_in(Duration::from_millis(300));
                ann.catch_up(seq).await;
                if in_opening {
                    cut_opening = true;
                } else {
                    cut_offer = true;
                    assert_eq!(
                        ann.view().draw_offer(),
                        Some(Seat::Second),
                        "the pending offer was replayed"
                    );
                }
            }
            seq
        };
        bob.catch_up(seq).await;
        ann.catch_up(seq).await;
        sam.catch_up(seq).await;
    }
    assert!(bob.view.is_over(), "the game finished");
    assert!(cut_opening && cut_offer && cut_in_flight);
    let end = bob.view.seq();
    for u in [&ann, &sam] {
        assert_eq!(
            u.seen,
            (1..=end).collect::<Vec<_>>(),
            "every event, in order"
        );
        assert_eq!(u.view().snapshot(), bob.view.snapshot(), "the same state");
        assert!(u.lost >= 3, "{}", u.lost);
        assert_eq!(u.reconnected, u.lost, "every drop was resumed");
        assert_eq!(u.rewatched.len() as u32, u.lost);
        assert!(u.rewatched.iter().all(|&r| r), "short gaps are replayed");
        assert_eq!(u.session.stats().reconnects, u.lost);
        assert_eq!(u.snapshots, 1, "only the first snapshot");
    }
    // The opponent was told of each drop, with the grace, and of each return.
    let away = bob.statuses.iter().filter(|s| !s.0).count();
    assert!(away >= 2, "{:?}", bob.statuses);
    assert!(bob.statuses.iter().all(|s| s.0 || s.1.is_some()));
}

/// `n` bot actions by whoever is asked, Ann through her session.
async fn play(n: usize, step: &mut u64, ann: &mut User, bob: &mut Direct) {
    for _ in 0..n {
        *step += 1;
        let (seat, action) = bot_action(&bob.view, *step);
        let seq = if seat == Seat::First {
            session_act(ann, bob, action).await
        } else {
            bob.act(action).await
        };
        bob.catch_up(seq).await;
        ann.catch_up(seq).await;
    }
}

#[tokio::test]
async fn a_gap_older_than_the_table_keeps_comes_back_as_a_snapshot() {
    let server = server(2).await;
    let proxy = Proxy::start(server.addr()).await;
    // Ann plays on a session straight to the server; Sam watches through
    // the proxy.
    let mut ann = User::connect(&url(&server), "ann").await;
    let mut sam = User::connect(&proxy.url(), "sam").await;
    let mut bob = start_game(&mut ann, &url(&server), GameConfig::new(RuleSet::Freestyle)).await;
    let table = bob.view.table().clone();
    watch(&mut sam, &table).await;
    let mut step = 0;
    play(2, &mut step, &mut ann, &mut bob).await;
    sam.catch_up(2).await;
    proxy.cut();
    play(5, &mut step, &mut ann, &mut bob).await;
    proxy.restore();
    sam.until_rewatched().await;
    assert_eq!(sam.rewatched, vec![false], "a snapshot, not a replay");
    assert_eq!(sam.snapshots, 2);
    assert_eq!(sam.session.stats().snapshots, 1);
    assert_eq!(sam.view().seq(), 7);
    assert_eq!(sam.view().snapshot(), bob.view.snapshot());
    play(2, &mut step, &mut ann, &mut bob).await;
    sam.catch_up(9).await;
    assert_eq!(sam.seen, vec![1, 2, 8, 9]);
    assert_eq!(sam.view().snapshot(), bob.view.snapshot());
}

#[tokio::test]
async fn a_takeover_ends_the_session_without_reconnecting() {
    let server = server(512).await;
    let mut ann = User::connect(&url(&server), "ann").await;
    let _bob = start_game(&mut ann, &url(&server), GameConfig::new(RuleSet::Gomoku)).await;
    let token = ann.session.token().unwrap().to_string();
    let (mut other, w) =
        Connection::connect_resuming(&url(&server), Encoding::Json, Some("ann"), Some(&token))
            .await
            .unwrap();
    assert!(w.resumed);
    for _ in 0..2 {
        match tokio::time::timeout(LIMIT, ann.session.next())
            .await
            .unwrap()
        {
            Err(SessionError::Closed { code, .. }) => assert_eq!(code, 4005),
            other => panic!("{other:?}"),
        }
    }
    assert!(ann.session.is_ended());
    assert_eq!(ann.session.stats().reconnects, 0);
    // The session lives on, undisturbed, on the other connection.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(matches!(
        other.request(ClientMsg::Ping).await,
        Ok(ServerMsg::Pong { .. })
    ));
}

#[tokio::test]
async fn a_request_in_flight_is_dropped_and_the_session_comes_back() {
    let server = server(512).await;
    let proxy = Proxy::start(server.addr()).await;
    let mut ann = User::connect(&proxy.url(), "ann").await;
    let session_id = ann.session.welcome().session.clone();
    let first = ann.session.send(ClientMsg::Ping).await.unwrap();
    proxy.cut();
    let r = ann.session.request(ClientMsg::Ping).await;
    assert!(matches!(r, Err(SessionError::Dropped)), "{r:?}");
    proxy.restore_in(Duration::from_millis(300));
    // What came before the drop, then the news, then the new connection.
    let mut got = Vec::new();
    loop {
        let d = ann.next().await;
        let done = matches!(d, Delivery::Reconnected { .. });
        got.push(d);
        if done {
            break;
        }
    }
    assert!(matches!(
        got.last(),
        Some(Delivery::Reconnected { resumed: true })
    ));
    assert!(got.iter().any(|d| matches!(d, Delivery::Lost { .. })));
    assert_eq!(ann.session.welcome().session, session_id, "same session");
    assert!(ann.session.is_connected());
    // Ids go on across connections.
    let later = ann.session.send(ClientMsg::Ping).await.unwrap();
    assert!(later > first + 1);
    let pong = ann.next().await;
    assert!(
        matches!(&pong, Delivery::Frame(f) if f.id == Some(later)),
        "{pong:?}"
    );

    // A network that stays down: the session gives up after its budget.
    ann.session.give_up_after = Duration::from_millis(500);
    proxy.cut();
    let started = Instant::now();
    let end = loop {
        match tokio::time::timeout(LIMIT, ann.session.next())
            .await
            .unwrap()
        {
            Ok(_) => continue,
            Err(e) => break e,
        }
    };
    assert!(matches!(end, SessionError::GaveUp(_)), "{end:?}");
    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(matches!(
        ann.session.send(ClientMsg::Ping).await,
        Err(SessionError::GaveUp(_))
    ));
}

#[test]
fn a_session_can_move_between_tasks() {
    fn is_send<T: Send>() {}
    is_send::<Session>();
}
