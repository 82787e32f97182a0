//! Test tables: a rules `Game` played as the server plays it, its events
//! stamped with `seq` (`TableEvent::stamp`) and fed to a [`TableView`], so
//! the board and the keys are tested on exactly the states a real server
//! produces.

use std::time::{Duration, Instant};

use tengen_client::view::TableView;
use tengen_protocol::{Player, Players, RoomId, TableEvent, TableId, TableSnapshot};
use tengen_rules::Point;
use tengen_rules::game::{Action, Game, GameConfig, Millis, OfferSet, Seat, TaraguchiOption};

pub fn p(s: &str) -> Point {
    s.parse().unwrap()
}

/// An action from a token: a point, `pass`, `swap`, `keep`, `n=3`,
/// `offer:J10,G9`, `keep:J10`, `offers`, `two:H9,J9`, `draw`, `resign`,
/// and in twin rooms `1:K10` / `2:K10` (a stone on board 1 or 2).
pub fn action(tok: &str) -> Action {
    let list = |s: &str| s.split(',').map(p).collect::<Vec<_>>();
    match tok {
        "pass" => Action::pass(),
        "swap" => Action::Swap,
        "keep" => Action::Keep,
        "draw" => Action::OfferDraw,
        "resign" => Action::Resign,
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
        // Twin rooms: `2:K10` is K10 on board 2 (index 1).
        _ if tok.starts_with("1:") => Action::place_on(0, p(&tok[2..])),
        _ if tok.starts_with("2:") => Action::place_on(1, p(&tok[2..])),
        _ => Action::place(p(tok)),
    }
}

/// A table seen from `seat` (`None`: a spectator).
pub struct Table {
    pub game: Game,
    pub view: TableView,
    pub base: Instant,
    pub now: Millis,
    id: TableId,
    seq: u64,
}

impl Table {
    /// Opener `first`; `seat` is whose view this is.
    pub fn new(config: GameConfig, seat: Option<Seat>) -> Table {
        let game = Game::new(config, Seat::First, 0).unwrap();
        let id = TableId::from_u64(77);
        let base = Instant::now();
        let mut players = Players::default();
        for (s, name) in [(Seat::First, "alice"), (Seat::Second, "bob")] {
            *players.seat_mut(s) = Some(Player {
                name: name.into(),
                guest: true,
                bot: false,
            });
        }
        let snap = TableSnapshot {
            table: id.clone(),
            room: RoomId::from_u64(5),
            seq: 0,
            snapshot: game.snapshot(0),
            players,
            spectators: 2,
            seat,
            paused: None,
            forbidden: Vec::new(),
            away: Vec::new(),
            rematch: Vec::new(),
            tournament: None,
        };
        let view = TableView::new(&snap, base).unwrap();
        Table {
            game,
            view,
            base,
            now: 0,
            id,
            seq: 0,
        }
    }

    /// The seat the referee asks plays each token, one second apart.
    pub fn play(mut self, text: &str) -> Table {
        for tok in text.split_whitespace() {
            let seat = self.game.to_act().expect("the game is on");
            self.act(seat, action(tok));
        }
        self
    }

    /// `seat` acts one second later.
    pub fn act(&mut self, seat: Seat, action: Action) {
        self.now += 1000;
        let ev = self
            .game
            .apply(seat, action, self.now)
            .unwrap_or_else(|e| panic!("{action:?}: {e}"));
        let prompt = self.game.prompt(self.now);
        let at = self.at(self.now);
        for e in TableEvent::stamp(&self.id, self.seq, ev, prompt.as_ref()) {
            self.seq = e.seq;
            self.view.apply(&e, at).unwrap();
        }
    }

    pub fn at(&self, ms: Millis) -> Instant {
        self.base + Duration::from_millis(ms)
    }
}
