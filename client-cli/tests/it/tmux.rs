//! The interactive board in a real terminal: `tengen create` runs in an
//! 80 x 24 tmux pane against an in-process server while `tengen bot
//! --join` plays the other side; keys go in with `tmux send-keys`, and
//! `tmux capture-pane` must show the room id, the board, our stone after a
//! move, the result after resigning, and the plain result line once the
//! board closes.
//!
//! Also in tmux: `tengen queue` (the waiting screen, `q` leaving the
//! queue, then a match against a bot account and the board), and `tengen
//! play` taking a game up again after the board was quit mid-game.
//!
//! Skipped (with a message) only when `tmux` is not installed.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{BIN, Lines, register, server, stderr_of, tengen, tengen_in, wait};

/// A tmux server of our own (its own socket), killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn cmd(&self, args: &[&str]) -> std::process::Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("tmux runs")
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "board"];
        args.extend_from_slice(keys);
        assert!(self.cmd(&args).status.success());
    }

    fn screen(&self) -> String {
        String::from_utf8(self.cmd(&["capture-pane", "-p", "-t", "board"]).stdout).unwrap()
    }

    /// Waits until the screen satisfies `pred`; panics with the screen.
    fn until(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let end = Instant::now() + Duration::from_secs(30);
        loop {
            let s = self.screen();
            if pred(&s) {
                return s;
            }
            if Instant::now() > end {
                panic!("timed out waiting for {what}; the screen:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Tmux {
    /// A tmux server of our own running `script` in an 80 x 24 pane;
    /// `None` (and a message) when tmux is not installed.
    fn start(tag: &str, script: &str) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            eprintln!("SKIPPED: tmux is not installed (apt-get install -y tmux)");
            return None;
        }
        let tmux = Tmux {
            socket: format!("tengen-test-{tag}-{}", std::process::id()),
        };
        let started = tmux.cmd(&[
            "new-session",
            "-d",
            "-s",
            "board",
            "-x",
            "80",
            "-y",
            "24",
            script,
        ]);
        assert!(started.status.success(), "{started:?}");
        Some(tmux)
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd(&["kill-server"]);
    }
}

/// The symbol at point `s` of a 15 x 15 board drawn at the top left.
fn cell(screen: &str, s: &str) -> Option<char> {
    let col = (s.as_bytes()[0] - b'A') as usize;
    let row: usize = s[1..].parse().unwrap();
    let line = screen.lines().nth(1 + 15 - row)?;
    line.chars().nth(3 + 2 * col)
}

#[test]
fn a_short_game_on_the_board_in_tmux() {
    let url = server();
    let cfg = tempfile::tempdir().unwrap();
    let script = format!(
        "TENGEN_SERVER={url} TENGEN_CONFIG_DIR={} {BIN} create --name alice --time 5+3 \
         --forbidden block; echo EXIT=$?; sleep 60",
        cfg.path().display()
    );
    let Some(tmux) = Tmux::start("create", &script) else {
        return;
    };

    let s = tmux.until("the room id", |s| s.contains("room: "));
    let room = s
        .lines()
        .find_map(|l| l.strip_prefix("room: "))
        .unwrap()
        .trim()
        .to_string();

    let mut bot = tengen(
        &url,
        &[
            "bot",
            "--join",
            &room,
            "--name",
            "robot",
            "--think-ms",
            "100",
        ],
    )
    .spawn()
    .unwrap();
    let mut bot_out = Lines::new(bot.stdout.take().unwrap());

    // The board opens: labels, both players, a prompt in words.
    let s = tmux.until("the board", |s| {
        s.contains("A B C D E F G H I J K L M N O") && s.contains("alice (you)")
    });
    assert!(s.contains("robot"), "{s}");
    assert!(s.contains("renju free 5+3 block"), "{s}");
    assert!(s.contains("15 . . ."), "{s}");

    // The opener is drawn by lot: as black we play H8 (the cursor starts
    // there); as white we wait for the bot's H8 and play I8.
    let s = tmux.until("our turn", |s| s.contains("Your turn: place"));
    let (point, stone) = if s.contains("Your turn: place black 1") {
        tmux.keys(&["Enter"]);
        ("H8", 'X')
    } else {
        assert!(s.contains("Your turn: place white 2"), "{s}");
        assert_eq!(cell(&s, "H8"), Some('X'), "{s}");
        tmux.keys(&["l", "Enter"]);
        ("I8", 'O')
    };
    let s = tmux.until("our stone", |s| cell(s, point) == Some(stone));
    assert!(
        s.contains("move 1") || s.contains("move 2") || s.contains("move 3"),
        "{s}"
    );

    // The bot answers; Enter on our own stone (the cursor is still on it)
    // is refused by the referee, and the status line says so.
    tmux.until("the bot's reply", |s| s.contains("Your turn: place"));
    tmux.keys(&["Enter"]);
    let s = tmux.until("the refusal", |s| s.contains("refused:"));
    assert!(s.contains(&format!("{point} is occupied")), "{s}");

    // Resign (twice), see the result, quit.
    tmux.keys(&["r"]);
    tmux.until("the confirmation", |s| s.contains("r again to resign"));
    tmux.keys(&["r"]);
    let s = tmux.until("the result", |s| s.contains("Game over:"));
    assert!(s.contains("resigned"), "{s}");
    tmux.keys(&["q"]);
    let s = tmux.until("the plain result", |s| s.contains("EXIT="));
    assert!(s.contains("result: ") && s.contains("resigned"), "{s}");
    assert!(s.contains("EXIT=0"), "{s}");

    let status = wait(&mut bot, Duration::from_secs(30), "the bot");
    let out = bot_out.rest(Duration::from_secs(5));
    assert!(status.success(), "{out:#?} {}", stderr_of(&mut bot));
    let result = out.iter().find(|l| l.starts_with("result: ")).unwrap();
    assert!(result.contains("resigned"), "{out:#?}");
    assert!(
        out.iter().any(|l| l.contains(&format!(" {point} (alice)"))),
        "the bot saw our move: {out:#?}"
    );
}

/// Whether a game is kept for `tengen play` in `dir`.
fn game_kept(dir: &Path) -> bool {
    std::fs::read_dir(dir).unwrap().any(|e| {
        let name = e.unwrap().file_name();
        name.to_string_lossy().starts_with("game-")
    })
}

#[test]
fn queue_in_tmux_leave_then_matched_with_a_bot_account() {
    let url = server();
    let (alice, robot) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    register(&url, alice.path(), "alice");
    register(&url, robot.path(), "robot");
    let script = format!(
        "export TENGEN_SERVER={url} TENGEN_CONFIG_DIR={}; {BIN} queue renju 5+3; \
         echo EXIT=$?; {BIN} queue renju 5+3; echo EXIT2=$?; sleep 60",
        alice.path().display()
    );
    let Some(tmux) = Tmux::start("queue", &script) else {
        return;
    };
    // The waiting screen counts the wait; q leaves the queue.
    let s = tmux.until("the waiting screen", |s| s.contains("waited 0:01"));
    assert!(
        s.contains("alice, waiting for an opponent for renju free 5+3 claim"),
        "{s}"
    );
    assert!(s.contains("q leaves the queue"), "{s}");
    tmux.keys(&["q"]);
    let s = tmux.until("the second wait", |s| s.contains("waited 0:01"));
    let _ = s;

    // A bot account queues for the same game: matched, the board opens.
    let mut bot = tengen_in(
        &url,
        robot.path(),
        &[
            "bot",
            "--queue",
            "--rules",
            "renju",
            "--time",
            "5+3",
            "--think-ms",
            "100",
        ],
    )
    .spawn()
    .unwrap();
    let mut bot_out = Lines::new(bot.stdout.take().unwrap());
    // Alice's turn: a hint shown before an incoming move would be cleared
    // by it.
    let s = tmux.until("the board", |s| {
        s.contains("alice (you)") && s.contains("Your turn")
    });
    assert!(s.contains("robot"), "{s}");
    assert!(
        game_kept(alice.path()),
        "the running game is kept for `tengen play`"
    );
    tmux.keys(&["r"]);
    tmux.until("the confirmation", |s| s.contains("r again to resign"));
    tmux.keys(&["r"]);
    tmux.until("the result", |s| s.contains("Game over:"));
    tmux.keys(&["q"]);
    let s = tmux.until("the end", |s| s.contains("EXIT2="));
    assert!(s.contains("left the queue after 0:0"), "{s}");
    assert!(s.contains("EXIT=0") && s.contains("EXIT2=0"), "{s}");
    assert!(s.contains("result: ") && s.contains("resigned"), "{s}");
    assert!(!game_kept(alice.path()), "a finished game is forgotten");
    let status = wait(&mut bot, Duration::from_secs(30), "the bot");
    let out = bot_out.rest(Duration::from_secs(5));
    assert!(status.success(), "{out:#?} {}", stderr_of(&mut bot));
    assert!(out[1].starts_with("matched with alice"), "{out:#?}");
}

#[test]
fn play_takes_a_quit_game_up_again_in_tmux() {
    let url = server();
    let cfg = tempfile::tempdir().unwrap();
    let mut bot = tengen(
        &url,
        &[
            "bot",
            "--create",
            "--name",
            "robot",
            "--time",
            "5+3",
            "--think-ms",
            "100",
        ],
    )
    .spawn()
    .unwrap();
    let mut bot_out = Lines::new(bot.stdout.take().unwrap());
    let room = bot_out.next(Duration::from_secs(20)).expect("room line");
    let room = room.strip_prefix("room: ").unwrap().to_string();
    let script = format!(
        "export TENGEN_SERVER={url} TENGEN_CONFIG_DIR={}; {BIN} join {room} --name alice; \
         echo EXIT=$?; read x; {BIN} play; echo EXIT2=$?; sleep 60",
        cfg.path().display()
    );
    let Some(tmux) = Tmux::start("play", &script) else {
        let _ = bot.kill();
        let _ = bot.wait();
        return;
    };
    // Alice's turn (the robot has opened): a key pressed before the
    // robot's move arrived would have its hint cleared by that move.
    let s = tmux.until("the board", |s| {
        s.contains("alice (you)") && s.contains("Your turn")
    });
    assert!(s.contains("robot"), "{s}");
    // Quit mid-game (twice: the clock runs on): the game is kept.
    tmux.keys(&["q"]);
    tmux.until("the confirmation", |s| s.contains("q again to quit"));
    tmux.keys(&["q"]);
    let s = tmux.until("the first exit", |s| s.contains("EXIT="));
    assert!(s.contains("`tengen play` takes it up again"), "{s}");
    assert!(game_kept(cfg.path()));

    // A new process takes it up: the same game, alice's seat.
    tmux.keys(&["Enter"]);
    let s = tmux.until("the board again", |s| {
        s.contains("alice (you)") && s.contains("Your turn")
    });
    assert!(s.contains("robot"), "{s}");
    tmux.keys(&["r"]);
    tmux.until("the confirmation", |s| s.contains("r again to resign"));
    tmux.keys(&["r"]);
    tmux.until("the result", |s| s.contains("Game over:"));
    tmux.keys(&["q"]);
    let s = tmux.until("the end", |s| s.contains("EXIT2="));
    assert!(s.contains("EXIT2=0") && s.contains("resigned"), "{s}");
    assert!(!game_kept(cfg.path()));
    let status = wait(&mut bot, Duration::from_secs(30), "the bot");
    let out = bot_out.rest(Duration::from_secs(5));
    assert!(status.success(), "{out:#?} {}", stderr_of(&mut bot));
    let result = out.iter().find(|l| l.starts_with("result: ")).unwrap();
    assert!(result.contains("resigned"), "{out:#?}");
}
