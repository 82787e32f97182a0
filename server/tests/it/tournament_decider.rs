//! A knockout match's decider at a faster time control: a best-of-1
//! match drawn goes to one more game, and with the event's
//! `decider_time` that game's table runs the faster clock (read back
//! from the stored game records), while the regular game ran the event's.
//! A `decider_time` that is not faster, or not on a knockout, is refused.

use crate::common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::tournament_players::{Quirks, Script, login, spawn_player};
use tengen_protocol::{
    ClientMsg, RecordFormat, ServerMsg, TournamentSpec, TournamentState, TournamentSystem,
};
use tengen_rules::game::{GameConfig, RuleSet, Seat, TimeControl};

const EVENT_TIME: TimeControl = TimeControl::Fischer {
    main_ms: 300_000,
    increment_ms: 5_000,
};
const FAST: TimeControl = TimeControl::Fischer {
    main_ms: 60_000,
    increment_ms: 1_000,
};

fn spec() -> TournamentSpec {
    TournamentSpec {
        name: "Decider".into(),
        system: TournamentSystem::Knockout,
        rounds: None,
        games: None,
        config: GameConfig::free(RuleSet::Gomoku).with_time(EVENT_TIME),
        rated: true,
        start_ms: None,
        entry: Default::default(),
        tie_breaks: None,
        wait_secs: Some(10),
        seed: Some(5),
        duration_secs: None,
        decider_time: Some(FAST),
    }
}

/// Game 0 is drawn; every later game kim wins.
fn script() -> Script {
    Arc::new(|a: &str, _: &str, _, game| match game {
        0 => None,
        _ if a == "kim" => Some(Seat::First),
        _ => Some(Seat::Second),
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tied_match_goes_to_a_decider_at_the_faster_time_control() {
    let server = common::server().await;
    let url = common::url(&server);
    let (mut org, _) = login(&url, "otto", true).await;
    for (bad, system) in [
        (EVENT_TIME, TournamentSystem::Knockout),
        (FAST, TournamentSystem::RoundRobin),
    ] {
        let mut s = spec();
        s.system = system;
        s.decider_time = Some(bad);
        let r = org
            .request(ClientMsg::CreateTournament { tournament: s })
            .await;
        assert!(r.is_err(), "{bad:?} {system:?}: {r:?}");
    }
    let t = match org
        .request(ClientMsg::CreateTournament { tournament: spec() })
        .await
    {
        Ok(ServerMsg::TournamentCreated { tournament }) => tournament.id,
        other => panic!("{other:?}"),
    };
    let mut players = Vec::new();
    for p in ["kim", "lou"] {
        let (mut c, _) = login(&url, p, true).await;
        let join = ClientMsg::JoinTournament {
            tournament: t.clone(),
        };
        assert!(matches!(
            c.request(join).await,
            Ok(ServerMsg::TournamentJoined { .. })
        ));
        players.push(spawn_player(c, script(), Quirks::default()));
    }
    let start = ClientMsg::StartTournament {
        tournament: t.clone(),
    };
    assert!(matches!(
        org.request(start).await,
        Ok(ServerMsg::TournamentStarted { .. })
    ));
    let deadline = Instant::now() + Duration::from_secs(30);
    let v = loop {
        let ask = ClientMsg::Tournament {
            tournament: t.clone(),
        };
        let v = match org.request(ask).await {
            Ok(ServerMsg::TournamentInfo { tournament }) => *tournament,
            other => panic!("{other:?}"),
        };
        if v.summary.state == TournamentState::Finished {
            break v;
        }
        assert!(Instant::now() < deadline, "{}", v.crosstable);
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let board = &v.rounds[0].boards[0];
    assert_eq!(board.games.len(), 2, "{board:?}");
    assert_eq!(board.games[0], "½-½", "{board:?}");
    assert_eq!(v.standings[0].name, "kim");

    // The stored records: game 0 at the event's clock, the decider at
    // the faster one.
    let history = ClientMsg::History {
        player: "kim".into(),
        before: None,
    };
    let games = match org.request(history).await {
        Ok(ServerMsg::History { games, .. }) => games,
        other => panic!("{other:?}"),
    };
    assert_eq!(games.len(), 2, "{games:?}");
    let mut times = Vec::new();
    for g in games {
        let ask = ClientMsg::GameRecord {
            game: g.game.clone(),
            format: RecordFormat::Json,
        };
        let record = match org.request(ask).await {
            Ok(ServerMsg::GameRecord(r)) => r.record.expect("a json record"),
            other => panic!("{other:?}"),
        };
        times.push((record.tags["tournament_game"].clone(), record.config.time));
    }
    times.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        times,
        [("0".to_owned(), EVENT_TIME), ("1".to_owned(), FAST)]
    );
    drop(players);
}
