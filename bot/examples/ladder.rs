//! The ladder's match runner: the built-in bot's levels against each
//! other, or a level against a Piskvork engine (Rapfi), one game at a
//! time, each game refereed by `tengen-rules`' game machine.
//!
//! ```sh
//! # Level 3 against level 2: 100 games at 200 ms a move, free-style
//! cargo run --release -p tengen-bot --example ladder -- levels 3 2 --games 100 --ms 200 --rules freestyle
//! # Level 5 against Rapfi at 1 s a move, renju (RAPFI: the engine's path,
//! # its config.toml beside it; or ENGINE: any Piskvork engine's command
//! # line, such as another build's `tengen pbrain --level 5`)
//! RAPFI=/path/to/pbrain-rapfi cargo run --release -p tengen-bot --example ladder -- \
//!     engine 5 --games 20 --ms 1000 --rules renju
//! ```
//!
//! Games come in pairs: each pair starts from one of the 26 renju
//! openings (black 1, white 2, black 3 about H8) in one of its eight
//! orientations, played once with each side as black; the rest is free
//! play. Prints one line per game and the first side's score: wins plus
//! half the draws, in percent, with twice its standard error.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use tengen_bot::{Bot, Level, Situation, TimeBudget};
use tengen_rules::game::Game;
use tengen_rules::game::{
    Action, GameConfig, GameResult, Outcome, RuleSet, Seat, Task, TimeControl,
};
use tengen_rules::opening::{OPENINGS, symmetry::Symmetry};
use tengen_rules::{Color, Point};

enum Player {
    Bot(Bot),
    Engine(Engine),
}

struct Engine {
    /// How it was started, to start it afresh for each game.
    command: String,
    rule: u32,
    ms: u64,
    child: Child,
    stdin: ChildStdin,
    /// Its lines, read on a thread of their own (so a wait can time out).
    lines: Receiver<String>,
}

impl Engine {
    fn start(command: &str, rule: u32, ms: u64) -> Engine {
        let mut words = command.split_whitespace();
        let path = words.next().expect("an engine command");
        let dir = std::path::Path::new(path).parent().map(|p| p.to_path_buf());
        let mut cmd = Command::new(path);
        cmd.args(words);
        if let Some(d) = dir.filter(|d| !d.as_os_str().is_empty()) {
            cmd.current_dir(d);
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = Engine {
            command: command.to_string(),
            rule,
            ms,
            child,
            stdin,
            lines,
        };
        e.send("START 15");
        e.answer(None).expect("the engine answers START");
        for l in [
            format!("INFO rule {rule}"),
            "INFO max_memory 268435456".into(),
            format!("INFO timeout_turn {ms}"),
            "INFO timeout_match 0".into(),
            "INFO time_left 2147483647".into(),
            "INFO game_type 1".into(),
        ] {
            e.send(&l);
        }
        e
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the engine reads");
        self.stdin.flush().ok();
    }

    /// The next line that is not a note, or None after `wait` without one.
    fn answer(&mut self, wait: Option<Duration>) -> Option<String> {
        loop {
            let line = match wait {
                None => self
                    .lines
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
                Some(w) => self.lines.recv_timeout(w),
            };
            let line = match line {
                Ok(l) => l,
                Err(RecvTimeoutError::Timeout) => return None,
                Err(RecvTimeoutError::Disconnected) => panic!("the engine exited"),
            };
            let t = line.trim();
            let word = t.split(' ').next().unwrap_or("");
            if !["MESSAGE", "DEBUG", "ERROR", "UNKNOWN", "SUGGEST", ""].contains(&word) {
                return Some(t.to_string());
            }
        }
    }

    /// A fresh process for the next game: Rapfi drops a command that
    /// comes while it is still finishing its last move (its `thinking`
    /// flag), and a dropped RESTART would hang the match.
    fn restart(&mut self) {
        *self = Engine::start(&self.command.clone(), self.rule, self.ms);
    }

    /// Its move with `stones` (in order) on the board, `own` to move.
    /// Rapfi drops a command that comes while it is still finishing its
    /// last move (its `thinking` flag, cleared after the move is printed;
    /// on a busy machine that can take a while): unanswered, the position
    /// is sent again.
    fn play(&mut self, stones: &[(Point, Color)], own: Color) -> Point {
        let wait = Duration::from_millis(self.ms * 3 + 2_000);
        let a = loop {
            self.send("BOARD");
            for &(p, c) in stones {
                let field = if c == own { 1 } else { 2 };
                self.send(&format!("{},{},{field}", p.x, 14 - p.y));
            }
            self.send("DONE");
            if let Some(a) = self.answer(Some(wait)) {
                break a;
            }
            eprintln!("the engine did not answer in {wait:?}: the position again");
        };
        let (x, y) = a.split_once(',').expect("x,y");
        Point::new(
            x.trim().parse().unwrap(),
            14 - y.trim().parse::<u8>().unwrap(),
        )
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.send("END");
        std::thread::sleep(Duration::from_millis(100));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The score of one game for the first player: 1, 0.5 or 0.
fn play_game(
    players: &mut [Player; 2],
    first_black: bool,
    rules: RuleSet,
    opening: &[Point; 3],
    ms: u64,
) -> (f64, String) {
    let mut config = GameConfig::new(rules);
    config.time = TimeControl::Unlimited;
    let mut game = Game::new(config.clone(), Seat::First, 0).expect("a valid room");
    // Seat First opens (black) in free play; players[0] sits first when
    // it is black.
    let seat_of = |i: usize| {
        if (i == 0) == first_black {
            Seat::First
        } else {
            Seat::Second
        }
    };
    for p in players.iter_mut() {
        match p {
            Player::Bot(b) => b.new_game(),
            Player::Engine(e) => e.restart(),
        }
    }
    let mut now = 0;
    for (k, &p) in opening.iter().enumerate() {
        let seat = if k % 2 == 0 {
            Seat::First
        } else {
            Seat::Second
        };
        game.apply(seat, Action::place(p), now)
            .expect("an opening stone");
    }
    let mut record: Vec<String> = opening.iter().map(|p| p.to_string()).collect();
    while !game.is_over() {
        now += 1;
        let prompt = game.prompt(now).expect("a prompt");
        let i = if seat_of(0) == prompt.seat { 0 } else { 1 };
        let stones: Vec<(Point, Color)> = game
            .moves()
            .iter()
            .filter_map(|m| m.point.map(|p| (p, m.color)))
            .collect();
        let action = match &mut players[i] {
            Player::Bot(bot) => {
                let s = Situation {
                    board: game.board(),
                    config: game.config(),
                    last_stone: game.moves().last().and_then(|m| m.point),
                };
                let started = Instant::now();
                let clock = move || started.elapsed().as_millis() as u64;
                let a = bot.decide(&s, &prompt, &clock, TimeBudget::per_move(ms));
                if std::env::var_os("LADDER_TRACE").is_some() {
                    eprintln!("{:?} in {} ms", bot.last_choice(), clock());
                }
                a
            }
            Player::Engine(e) => match prompt.task {
                Task::Place { color, .. } => Action::place(e.play(&stones, color)),
                _ => Action::Resign,
            },
        };
        if let Action::Place { point, .. } = &action {
            record.push(point.to_string());
        }
        if let Err(err) = game.apply(prompt.seat, action, now) {
            eprintln!("refused {action:?} from player {i}: {err}");
            game.apply(prompt.seat, Action::Resign, now).ok();
        }
    }
    let result = game.result().cloned().expect("a result");
    let score = match result.outcome {
        Outcome::Win { seat, .. } => {
            if seat == seat_of(0) {
                1.0
            } else {
                0.0
            }
        }
        _ => 0.5,
    };
    let _ = GameResult::describe;
    (score, record.join(" "))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str, default: &str| -> String {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
            .unwrap_or_else(|| default.to_string())
    };
    let games: usize = flag("--games", "100").parse().unwrap();
    let ms: u64 = flag("--ms", "200").parse().unwrap();
    let rules: RuleSet = flag("--rules", "freestyle").parse().unwrap();
    let seed: u64 = flag("--seed", "1").parse().unwrap();
    let level = |s: &str| -> Level { s.parse().expect("a level") };
    let (mut players, label) = match args.first().map(String::as_str) {
        Some("levels") => {
            let (a, b) = (level(&args[1]), level(&args[2]));
            (
                [
                    Player::Bot(Bot::new(a, seed)),
                    Player::Bot(Bot::new(b, seed ^ 0xB0B)),
                ],
                format!("level {a} vs level {b}"),
            )
        }
        Some("engine") => {
            let a = level(&args[1]);
            let path = std::env::var("ENGINE")
                .or_else(|_| std::env::var("RAPFI"))
                .expect("RAPFI (or ENGINE): the engine's command");
            let rule = match rules {
                RuleSet::Freestyle => 0,
                RuleSet::Gomoku => 1,
                _ => 4,
            };
            (
                [
                    Player::Bot(Bot::new(a, seed)),
                    Player::Engine(Engine::start(&path, rule, ms)),
                ],
                format!("level {a} vs {path}"),
            )
        }
        _ => {
            eprintln!(
                "usage: ladder levels A B | engine A  [--games N] [--ms MS] [--rules R] [--seed S]"
            );
            std::process::exit(2);
        }
    };
    println!("{label}: {games} games, {ms} ms a move, {rules:?}");
    let mut scores = Vec::new();
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut opening = [Point::center(15); 3];
    for g in 0..games {
        if g % 2 == 0 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let o = &OPENINGS[(rng % 26) as usize];
            let s = o.stones(Symmetry::ALL[((rng >> 8) % 8) as usize]);
            opening = [s.black1, s.white2, s.black3];
        }
        let first_black = g % 2 == 0;
        let started = Instant::now();
        let (score, record) = play_game(&mut players, first_black, rules, &opening, ms);
        scores.push(score);
        let n = scores.len() as f64;
        let mean = scores.iter().sum::<f64>() / n;
        let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        println!(
            "game {:>3} ({} black) {score}  total {:.1}/{}  {:.1}% ± {:.1}  {:.0}s  {record}",
            g + 1,
            if first_black { "first" } else { "second" },
            scores.iter().sum::<f64>(),
            scores.len(),
            mean * 100.0,
            200.0 * (var / n).sqrt(),
            started.elapsed().as_secs_f64(),
        );
    }
}
