//! A game as long as a test wants, for the tests of damage and full
//! disks: two guests place stones in rows of four (black on odd rows,
//! white on even ones; columns A to D, then F to I, then K to N), which
//! never makes five. Every move
//! the server acknowledges is kept, in order, to be found again after a
//! restart.

use std::time::Duration;

use tengen_client::{ClientError, Connection};
use tengen_protocol::{ClientMsg, ErrorBody, ServerMsg, TableId};
use tengen_rules::game::{Action, GameConfig, Input, RecordEntry, RuleSet, Seat, TimeControl};

/// The plies of one block of four columns, and of all three.
const BLOCK: usize = 56;
pub const MAX_PLIES: usize = 3 * BLOCK;

/// The `n`th ply's point.
pub fn point(n: usize) -> String {
    let (block, n) = (n / BLOCK, n % BLOCK);
    let (k, white) = (n / 2, n % 2 == 1);
    let row = 2 * (k / 4) + 1 + usize::from(white);
    let column = (b'A' + (5 * block + k % 4) as u8) as char;
    format!("{column}{row}")
}

pub struct LongGame {
    pub conn: [Connection; 2],
    pub token: [String; 2],
    pub name: [String; 2],
    pub table: TableId,
    pub opener: Seat,
    /// The points of the moves the server acknowledged, in order.
    pub acked: Vec<String>,
}

impl LongGame {
    /// A new game (a day a side, so no clock runs out) between two
    /// guests on the server at `url`.
    pub async fn start(url: &str) -> LongGame {
        LongGame::start_nth(url, 0).await
    }

    /// [`LongGame::start`] between `ann{i}` and `bob{i}`, for tests that
    /// play several at once.
    pub async fn start_nth(url: &str, i: usize) -> LongGame {
        let config = GameConfig::free(RuleSet::Gomoku).with_time(TimeControl::Fischer {
            main_ms: 86_400_000,
            increment_ms: 0,
        });
        let g = super::scripted::new_game_with(url, i, config).await;
        LongGame {
            conn: g.conn,
            token: g.token,
            name: g.name,
            table: g.table,
            opener: g.opener,
            acked: Vec::new(),
        }
    }

    /// Tries the next ply: `Ok` once the server acknowledged it (kept in
    /// `acked`), or the server's refusal.
    pub async fn try_next(&mut self) -> Result<(), ErrorBody> {
        let n = self.acked.len();
        assert!(n < MAX_PLIES, "the pattern has no room left");
        let seat = if n.is_multiple_of(2) {
            self.opener
        } else {
            self.opener.other()
        };
        let c = &mut self.conn[seat.index()];
        let reply = c
            .request(ClientMsg::Act {
                table: self.table.clone(),
                action: Action::place(point(n).parse().unwrap()),
            })
            .await;
        match reply {
            Ok(ServerMsg::Acted { .. }) => {
                self.acked.push(point(n));
                Ok(())
            }
            Err(ClientError::Refused(e)) => Err(e),
            other => panic!("ply {n}: {other:?}"),
        }
    }

    /// Plays `n` plies, each of which must be acknowledged.
    pub async fn play(&mut self, n: usize) {
        for _ in 0..n {
            if let Err(e) = self.try_next().await {
                panic!("ply {} refused: {e:?}", self.acked.len());
            }
        }
    }

    /// Tries the next ply until it is acknowledged, within `limit`.
    pub async fn play_within(&mut self, limit: Duration) {
        let deadline = std::time::Instant::now() + limit;
        loop {
            match self.try_next().await {
                Ok(()) => return,
                Err(_) if std::time::Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(e) => panic!("no move accepted within {limit:?}: {e:?}"),
            }
        }
    }
}

/// The points placed by a stored log's entries (the server's encoding),
/// in order.
pub fn placed(entries: &[Vec<u8>]) -> Vec<String> {
    entries
        .iter()
        .map(|e| serde_json::from_slice::<RecordEntry>(e).expect("a stored entry decodes"))
        .filter_map(|e| match e.input {
            Input::Act {
                action: Action::Place { point, .. },
                ..
            } => Some(point.to_string()),
            _ => None,
        })
        .collect()
}
