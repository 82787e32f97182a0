//! The interactive board in a real terminal: `tengen create` runs in an
//! 80 x 24 tmux pane against an in-process server while `tengen bot
//! --join` plays the other side; keys go in with `tmux send-keys`, and
//! `tmux capture-pane` must show the room id, the board, our stone after a
//! move, the result after resigning, and the plain result line once the
//! board closes.
//!
//! Skipped (with a message) only when `tmux` is not installed.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{BIN, Lines, server, stderr_of, tengen, wait};

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
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("SKIPPED: tmux is not installed (apt-get install -y tmux)");
        return;
    }
    let url = server();
    let tmux = Tmux {
        socket: format!("tengen-test-{}", std::process::id()),
    };
    let script = format!(
        "TENGEN_SERVER={url} {BIN} create --name alice --time 5+3 --forbidden block; \
         echo EXIT=$?; sleep 60"
    );
    let started = tmux.cmd(&[
        "new-session",
        "-d",
        "-s",
        "board",
        "-x",
        "80",
        "-y",
        "24",
        &script,
    ]);
    assert!(started.status.success(), "{started:?}");

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
