//! Scripted tournament players for the tests of tournaments played on
//! tables: a real client per account that plays every table it is seated
//! at so that the winner is the one the test chose (the winner's five
//! down the H file, the loser's stones apart on the first row; a draw
//! offered with black's first stone and accepted), follows its tables
//! again after a restart, and may hold, or withdraw, on cue.

use std::collections::HashMap;
use std::sync::Arc;

use tengen_client::Connection;
use tengen_protocol::{ClientMsg, Encoding, ServerMsg, TableId};
use tengen_rules::game::{Action, ActionKind, Seat};
use tokio::task::JoinHandle;

/// Who wins a game: `(first seat's name, second seat's name, round, game
/// of the match)` to the winning seat, `None` for a draw.
pub type Script = Arc<dyn Fn(&str, &str, u32, u32) -> Option<Seat> + Send + Sync>;

const WIN: [&str; 5] = ["H8", "H9", "H10", "H11", "H12"];
const LOSE: [&str; 5] = ["A1", "C1", "E1", "G1", "J1"];

/// What a scripted player does besides playing.
#[derive(Clone, Default)]
pub struct Quirks {
    /// In its first game, stop acting after this many stones (the test
    /// kills the server meanwhile).
    pub hold_after: Option<usize>,
    /// Withdraw from the tournament instead of playing this (round,
    /// game).
    pub withdraw_at: Option<(u32, u32)>,
    /// Tables to follow again first (a resumed session's).
    pub watch: Vec<TableId>,
    /// Withdraw instead of playing the game of this `matched` (0-based
    /// count of the games it was seated at: for an arena, whose games
    /// are all round 1, game 0).
    pub withdraw_at_match: Option<usize>,
}

/// One table being played.
struct Playing {
    seat: Seat,
    /// The winner chosen (`None`: a draw).
    plan: Option<Seat>,
    /// Stones on the board (both colours).
    stones: usize,
    /// The referee's last prompt (acted on again when the table's clocks
    /// run again after a restart).
    prompt: Option<tengen_rules::game::Prompt>,
}

/// A player's client: logs in (or resumes), then plays every table it is
/// seated at, as `script` says, until the connection ends.
pub struct Player {
    task: JoinHandle<()>,
}

impl Drop for Player {
    fn drop(&mut self) {
        self.task.abort();
    }
}

pub async fn login(url: &str, name: &str, new: bool) -> (Connection, String) {
    let (mut c, w) = Connection::connect(url, Encoding::Json, Some(&format!("{name}-g")))
        .await
        .expect("connects");
    // These players answer every prompt at once: paced, as a bot's
    // connection is, they wait for the rate rather than lose a move.
    c.pace(&w.limits);
    let (n, password) = (name.to_owned(), "long enough".to_owned());
    let msg = match new {
        true => ClientMsg::Register { name: n, password },
        false => ClientMsg::Login { name: n, password },
    };
    match c.request(msg).await {
        Ok(ServerMsg::Registered(_) | ServerMsg::LoggedIn(_)) => {}
        other => panic!("{name}: {other:?}"),
    }
    (c, w.resume_token.expect("a token"))
}

pub fn spawn_player(mut c: Connection, script: Script, quirks: Quirks) -> Player {
    let task = tokio::spawn(async move {
        let mut tables: HashMap<TableId, Playing> = HashMap::new();
        let mut game_of: HashMap<TableId, (u32, u32)> = HashMap::new();
        let mut games_played = 0;
        let mut matched = 0;
        let mut skip: Vec<TableId> = Vec::new();
        let mut first = std::collections::VecDeque::new();
        for table in &quirks.watch {
            let watch = ClientMsg::Watch {
                table: table.clone(),
                since: None,
            };
            first.push_back(c.request(watch).await.expect("the table again"));
        }
        loop {
            let msg = match first.pop_front() {
                Some(m) => m,
                None => match c.next().await {
                    Ok(f) => f.msg,
                    Err(_) => return,
                },
            };
            let (table, prompt) = match msg {
                ServerMsg::Matched {
                    table, tournament, ..
                } => {
                    let t = tournament.expect("a tournament game");
                    matched += 1;
                    let by_count = quirks.withdraw_at_match == Some(matched - 1);
                    if by_count {
                        skip.push(table.clone());
                    }
                    if by_count || quirks.withdraw_at == Some((t.round, t.game)) {
                        let w = ClientMsg::WithdrawTournament {
                            tournament: t.tournament.clone(),
                        };
                        assert!(matches!(
                            c.request(w).await,
                            Ok(ServerMsg::TournamentWithdrawn { .. })
                        ));
                    }
                    game_of.insert(table, (t.round, t.game));
                    continue;
                }
                ServerMsg::TableSnapshot(s) => {
                    let Some(seat) = s.seat else { continue };
                    // A tournament game's table names its game, for the
                    // way back to the event.
                    if let Some(&(round, game)) = game_of.get(&s.table) {
                        let t = s.tournament.as_ref().expect("the snapshot names its game");
                        assert_eq!((t.round, t.game), (round, game));
                    }
                    if s.snapshot.result.is_some() {
                        continue;
                    }
                    let first = s.players.first.as_ref().unwrap().name.clone();
                    let second = s.players.second.as_ref().unwrap().name.clone();
                    let (round, game) = game_of.get(&s.table).copied().unwrap_or((0, 0));
                    if quirks.withdraw_at == Some((round, game)) || skip.contains(&s.table) {
                        continue;
                    }
                    let plan = script(&first, &second, round, game);
                    let stones = s.snapshot.moves.len();
                    let prompt = s.snapshot.prompt.clone();
                    let playing = Playing {
                        seat,
                        plan,
                        stones,
                        prompt: prompt.clone(),
                    };
                    tables.insert(s.table.clone(), playing);
                    (s.table.clone(), prompt)
                }
                ServerMsg::TablePaused {
                    table,
                    paused: None,
                    ..
                } => {
                    let Some(p) = tables.get(&table) else {
                        continue;
                    };
                    let prompt = p.prompt.clone();
                    (table, prompt)
                }
                ServerMsg::TableEvent(e) => {
                    let Some(p) = tables.get_mut(&e.table) else {
                        continue;
                    };
                    if matches!(e.event, tengen_rules::game::Event::Moved { .. }) {
                        p.stones += 1;
                    }
                    if matches!(e.event, tengen_rules::game::Event::GameOver { .. }) {
                        tables.remove(&e.table);
                        games_played += 1;
                        continue;
                    }
                    p.prompt = e.prompt.clone();
                    (e.table.clone(), e.prompt.clone())
                }
                _ => continue,
            };
            let Some(prompt) = prompt else { continue };
            let Some(p) = tables.get(&table) else {
                continue;
            };
            if prompt.seat != p.seat {
                continue;
            }
            // The opener (first seat) is black in these free games.
            let black = p.seat == Seat::First;
            let mine = p.stones / 2;
            if games_played == 0 && quirks.hold_after.is_some_and(|h| mine >= h) {
                continue;
            }
            let action = match p.plan {
                None if prompt.may.contains(&ActionKind::AcceptDraw) => Action::AcceptDraw,
                None if black => Action::Place {
                    point: WIN[mine].parse().unwrap(),
                    board: 0,
                    offer_draw: true,
                },
                None => continue,
                Some(w) => {
                    let line = if w == p.seat { WIN } else { LOSE };
                    Action::place(line[mine].parse().unwrap())
                }
            };
            let act = ClientMsg::Act { table, action };
            // A refusal (the game ended meanwhile) is not this test's
            // concern: the standings are.
            let _ = c.request(act).await;
        }
    });
    Player { task }
}
