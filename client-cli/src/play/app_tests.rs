//! The board's event loop against a real server (in-process), through a
//! proxy the test cuts (`testproxy`): the board runs on ratatui's `TestBackend` with keys
//! the test sends, and the test reads the screen as it is drawn. The
//! connection drops under the board, then the server restarts on the same
//! data directory; the board comes back by itself each time (the player
//! presses nothing), shows the stopped clocks while the restored game waits
//! for the opponent, and the game goes on to its end.

use std::path::Path;
use std::pin::Pin;
use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use futures_util::Stream;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use tengen_client::view::TableView;
use tengen_client::{Delivery, Session};
use tengen_protocol::{ClientMsg, Encoding, ServerMsg, TableId};
use tengen_rules::game::{Action, GameConfig, ResultReason, RuleSet, TimeControl};
use tengen_server::{Server, Settings};
use tokio::sync::{mpsc, watch};

use super::{Keeper, run};
use crate::testproxy::Proxy;

const LIMIT: Duration = Duration::from_secs(20);

async fn start(dir: &Path) -> Server {
    // A restart reopens the store once the old server has let go of it.
    let mut last = None;
    for _ in 0..100 {
        let s = Settings {
            listen: "127.0.0.1:0".parse().unwrap(),
            data_dir: dir.to_path_buf(),
            coalesce_interval: Duration::from_millis(50),
            ..Settings::default()
        };
        match Server::start(s).await {
            Ok(server) => return server,
            Err(e) => last = Some(e),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the server does not start on {}: {last:?}", dir.display());
}

fn text(buf: &Buffer) -> String {
    let area = buf.area;
    (0..area.height)
        .map(|y| {
            (0..area.width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Waits until the drawn screen satisfies `pred`.
async fn until(screen: &mut watch::Receiver<String>, what: &str, pred: impl Fn(&str) -> bool) {
    let end = Instant::now() + LIMIT;
    loop {
        if pred(&screen.borrow_and_update()) {
            return;
        }
        let left = end.saturating_duration_since(Instant::now());
        if tokio::time::timeout(left, screen.changed()).await.is_err() {
            panic!("no {what} on the screen:\n{}", *screen.borrow());
        }
    }
}

/// Bob, a plain session driven by the test (it reconnects only while the
/// test reads from it).
struct Bob {
    session: Session,
    table: TableId,
}

impl Bob {
    /// Reads deliveries until `pred` holds for one.
    async fn until(&mut self, what: &str, mut pred: impl FnMut(&Delivery) -> bool) {
        let end = tokio::time::Instant::now() + LIMIT;
        loop {
            let d = tokio::time::timeout_at(end, self.session.next())
                .await
                .unwrap_or_else(|_| panic!("bob: no {what}"))
                .expect("bob's session");
            if pred(&d) {
                return;
            }
        }
    }

    async fn act(&mut self, action: Action) {
        let msg = ClientMsg::Act {
            table: self.table.clone(),
            action,
        };
        match self.session.request(msg).await {
            Ok(ServerMsg::Acted { .. }) => {}
            other => panic!("bob's action: {other:?}"),
        }
    }
}

fn key(code: KeyCode) -> Event {
    Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// The symbol at point `s` of the 15 x 15 board at the top left.
fn cell(screen: &str, s: &str) -> Option<char> {
    let col = (s.as_bytes()[0] - b'A') as usize;
    let row: usize = s[1..].parse().unwrap();
    screen.lines().nth(1 + 15 - row)?.chars().nth(3 + 2 * col)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_comes_back_by_itself_after_a_drop_and_a_server_restart() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path()).await;
    let proxy = Proxy::start(server.addr());
    let url = proxy.url();

    // Alice creates a room, Bob joins: Alice's board opens on the game.
    let (mut alice, _) = Session::connect(&url, Encoding::Json, Some("alice"))
        .await
        .unwrap();
    let config = GameConfig::free(RuleSet::Renju).with_time(TimeControl::Fischer {
        main_ms: 300_000,
        increment_ms: 3_000,
    });
    let created = alice
        .request(ClientMsg::CreateRoom {
            rated: false,
            config,
            public: true,
            name: None,
            chat: true,
        })
        .await
        .unwrap();
    let ServerMsg::RoomCreated { room, .. } = created else {
        panic!("{created:?}")
    };
    let (mut bob_session, _) = Session::connect(&url, Encoding::Json, Some("bob"))
        .await
        .unwrap();
    bob_session
        .request(ClientMsg::JoinRoom { room })
        .await
        .unwrap();
    let view = loop {
        if let Delivery::Frame(f) = alice.next().await.unwrap()
            && let ServerMsg::TableSnapshot(s) = f.msg
        {
            break TableView::new(&s, Instant::now()).unwrap();
        }
    };
    let mut bob = Bob {
        session: bob_session,
        table: view.table().clone(),
    };
    let alice_seat = view.seat().unwrap();
    let alice_black = view.black() == alice_seat;

    let (keys, key_rx) = mpsc::unbounded_channel::<Event>();
    let mut key_stream: Pin<Box<dyn Stream<Item = std::io::Result<Event>> + Send>> =
        Box::pin(futures_util::stream::unfold(key_rx, |mut rx| async move {
            rx.recv().await.map(|e| (Ok(e), rx))
        }));
    let (screen_tx, mut screen) = watch::channel(String::new());
    let board = tokio::spawn(async move {
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        let mut on_frame = |b: &Buffer| {
            screen_tx.send_replace(text(b));
        };
        run(
            &mut terminal,
            &mut key_stream,
            alice,
            view,
            Keeper::new(None),
            &mut on_frame,
        )
        .await
    });

    // Two moves: Alice's by keys (the cursor starts on H8), Bob's I9.
    if alice_black {
        until(&mut screen, "alice's turn", |s| {
            s.contains("Your turn: place black 1")
        })
        .await;
        keys.send(key(KeyCode::Enter)).unwrap();
        until(&mut screen, "black 1", |s| cell(s, "H8") == Some('X')).await;
        bob.act(Action::place("I9".parse().unwrap())).await;
    } else {
        bob.act(Action::place("H8".parse().unwrap())).await;
        until(&mut screen, "alice's turn", |s| {
            s.contains("Your turn: place white 2")
        })
        .await;
        keys.send(key(KeyCode::Char('k'))).unwrap();
        keys.send(key(KeyCode::Enter)).unwrap();
        until(&mut screen, "white 2", |s| cell(s, "H9") == Some('O')).await;
    }
    let turn = |s: &str| s.contains("Your turn");
    if alice_black {
        until(&mut screen, "bob's stone", |s| cell(s, "I9") == Some('O')).await;
    }

    // The network goes: the board says so, and comes back by itself.
    proxy.cut();
    until(&mut screen, "the lost connection", |s| {
        s.contains("connection lost: reconnecting")
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    proxy.restore();
    until(&mut screen, "the way back", |s| {
        s.contains("back at the table")
    })
    .await;
    bob.until("bob back", |d| matches!(d, Delivery::Rewatched { .. }))
        .await;

    // Bob moves; the board shows it; Alice answers with keys.
    if alice_black {
        // Alice to play black 3 (it was her turn before the cut).
        until(&mut screen, "alice's turn", turn).await;
        keys.send(key(KeyCode::Char('l'))).unwrap();
        keys.send(key(KeyCode::Enter)).unwrap();
        until(&mut screen, "black 3", |s| cell(s, "I8") == Some('X')).await;
        bob.act(Action::place("J10".parse().unwrap())).await;
        until(&mut screen, "white 4", |s| cell(s, "J10") == Some('O')).await;
    } else {
        bob.act(Action::place("J10".parse().unwrap())).await;
        until(&mut screen, "black 3", |s| cell(s, "J10") == Some('X')).await;
        keys.send(key(KeyCode::Char('l'))).unwrap();
        keys.send(key(KeyCode::Enter)).unwrap();
        until(&mut screen, "white 4", |s| cell(s, "I9") == Some('O')).await;
    }

    // The server restarts on the same data directory (and a new port,
    // behind the same proxy). Alice's board reconnects and resumes by
    // itself; the restored game's clocks wait for Bob, and the board says
    // so.
    server.shutdown();
    let old = server;
    tokio::time::sleep(Duration::from_millis(700)).await;
    // In a real restart the process ends; here the old server's table
    // actors live on and keep its store open, so the new server opens a
    // copy of the data directory as the old one left it.
    let dir2 = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), dir2.path().join(entry.file_name())).unwrap();
        }
    }
    let server = start(dir2.path()).await;
    assert_eq!(server.restored(), 1);
    proxy.retarget(server.addr());
    until(&mut screen, "the stopped clocks", |s| {
        s.contains("server restoring — waiting for players")
    })
    .await;
    bob.until("bob back after the restart", |d| {
        matches!(d, Delivery::Rewatched { .. })
    })
    .await;
    until(&mut screen, "the clocks running again", |s| {
        !s.contains("server restoring")
    })
    .await;

    // The game goes on: Alice resigns with keys, and quits.
    if alice_black {
        until(&mut screen, "alice's turn", turn).await;
    } else {
        bob.act(Action::place("G7".parse().unwrap())).await;
        until(&mut screen, "black 5", |s| cell(s, "G7") == Some('X')).await;
    }
    keys.send(key(KeyCode::Char('r'))).unwrap();
    keys.send(key(KeyCode::Char('r'))).unwrap();
    until(&mut screen, "the result", |s| s.contains("Game over:")).await;
    keys.send(key(KeyCode::Char('q'))).unwrap();
    let result = tokio::time::timeout(LIMIT, board)
        .await
        .expect("the board closes")
        .unwrap()
        .unwrap()
        .expect("a result");
    assert!(
        matches!(result.reason, ResultReason::Resignation { seat } if seat == alice_seat),
        "{result:?}"
    );
    drop(old);
}
