//! The opening explorer, puzzles and the trainer through the real server.
//!
//! - The explorer's acceptance: generated games (four opening rules, each
//!   game under all eight symmetries, accounts and guests, ratings, six
//!   months) indexed in a real store, then every position's counts and
//!   results, and each next move's, compared with a count made from the
//!   raw records another way (`tengen_study::sample::Reference`); also a
//!   player's own explorer and a period. 10,000 games on the embedded
//!   store (`TENGEN_EXPLORER_GAMES` to change), fewer on Redis.
//! - Games played to the end over WebSockets reach the explorer and the
//!   miner by themselves: a missed VCF becomes a puzzle linked from its
//!   game, solved and failed by real clients with their ratings moved; a
//!   foul becomes a trainer position, judged; imports count once.

use crate::common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{place, table};
use rand::SeedableRng;
use rand::rngs::StdRng;
use tengen_client::{ClientError, Connection};
use tengen_protocol::{
    ClientMsg, Encoding, ErrorCode, ExplorerFilter, ExplorerView, PuzzleStep, PuzzleView,
    ServerMsg, StepOutcome, TableId,
};
use tengen_rules::game::{Action, ForbiddenPoint, GameConfig, Opening, RuleSet};
use tengen_rules::{Color, Forbidden, Point};
use tengen_server::study::{Finished, explore, index_game};
use tengen_store::{EmbeddedStore, Store};
use tengen_study::sample::{self, Reference, SampleGame};

const DEPTH: u32 = 14;

fn finished(g: SampleGame) -> Finished {
    Finished {
        id: g.id,
        record: g.record,
        players: g.players,
        finished_ms: g.finished_ms,
    }
}

/// Indexes `n` generated games into `store` (many at once, as the server's
/// tables would), then checks every position against the reference: all
/// games, one player's (as black), and a period.
async fn explorer_counts(store: Arc<dyn Store>, n: usize) {
    let mut rng = StdRng::seed_from_u64(2026);
    let games: Vec<Finished> = sample::games(&mut rng, n).map(finished).collect();
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for chunk in games.chunks(games.len().div_ceil(16)) {
        let (store, chunk) = (store.clone(), chunk.to_vec());
        tasks.spawn(async move {
            for g in &chunk {
                assert!(
                    index_game(store.as_ref(), g, DEPTH, Default::default())
                        .await
                        .unwrap(),
                    "{}",
                    g.id
                );
            }
        });
    }
    while let Some(t) = tasks.join_next().await {
        t.unwrap();
    }
    eprintln!("indexed {} games in {:?}", games.len(), started.elapsed());
    // A game indexed again changes nothing.
    assert!(
        !index_game(store.as_ref(), &games[0], DEPTH, Default::default())
            .await
            .unwrap()
    );

    let rules = |g: &Finished| format!("{}/{}", g.record.config.rule_set, g.record.config.opening);
    let check = async |filter: ExplorerFilter, admit: &dyn Fn(&Finished) -> bool| {
        let mut reference = Reference::new(DEPTH);
        for g in games.iter().filter(|g| admit(g)) {
            assert!(reference.add(&rules(g), &g.record));
        }
        let kinds: std::collections::HashMap<String, (RuleSet, Opening)> = games
            .iter()
            .map(|g| {
                (
                    rules(g),
                    (g.record.config.rule_set, g.record.config.opening),
                )
            })
            .collect();
        let (mut positions, mut moves) = (0, 0);
        for position in reference.positions() {
            let (name, path, _, _) = position;
            let (rule_set, opening) = kinds[name];
            let view: ExplorerView = explore(
                store.as_ref(),
                DEPTH,
                rule_set,
                opening,
                None,
                path.to_vec(),
                filter.clone(),
            )
            .await
            .unwrap();
            moves += reference.check_view(position, &view, &filter);
            positions += 1;
        }
        (positions, moves)
    };
    let (p, m) = check(ExplorerFilter::default(), &|_| true).await;
    eprintln!("checked {p} positions and {m} moves of every game");
    assert!(p > n, "{p} positions");
    let (p, _) = check(
        ExplorerFilter {
            player: Some("PLAYER7".into()),
            color: Some(Color::Black),
            ..Default::default()
        },
        &|g| {
            let game = g.record.replay().unwrap();
            let black = game.seat_of(Color::Black).index();
            g.players.accounts[black].as_deref() == Some("player7")
        },
    )
    .await;
    assert!(p > 20, "{p} positions of player7's");
    // March and April 2026 (months 2026*12+2 and +3).
    let (p, _) = check(
        ExplorerFilter {
            since: Some("2026-03".into()),
            until: Some("2026-04".into()),
            ..Default::default()
        },
        &|g| {
            let month = tengen_study::explorer::month_of(g.finished_ms);
            (2026 * 12 + 2..=2026 * 12 + 3).contains(&month)
        },
    )
    .await;
    assert!(p > 20, "{p} positions in March and April");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_counts_what_the_records_say() {
    let n = std::env::var("TENGEN_EXPLORER_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    explorer_counts(store, n).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_counts_on_redis() {
    let redis = tengen_store::testing::RedisServer::start();
    let store = Arc::new(common::redis::store(&redis, "explorer").await);
    explorer_counts(store, 800).await;
}

/// Freestyle: black's row H8-J8 (blocked at G8) and K9 K10. At move 11
/// K8 is a four (L8 forced) that makes K8-K10 with K11 an open four: a
/// VCF. Black plays O15 instead, white blocks K8, and black resigns.
const MISSED: [&str; 12] = [
    "H8", "G8", "I8", "A1", "J8", "A3", "K9", "A5", "K10", "A7", "O15", "K8",
];

/// Renju: black H8 I8 J9 J10; J8 makes two threes. White claims it.
const FOUL: [&str; 9] = ["H8", "A1", "I8", "A3", "J9", "A5", "J10", "A7", "J8"];

/// Plays `moves` at a new table of `config` (the opener holds black),
/// then `last` by the side to act: the game's id.
async fn played(
    server: &tengen_server::Server,
    config: GameConfig,
    moves: &[&str],
    last: Action,
) -> TableId {
    let mut t = table(server, config, Encoding::Json).await;
    let black = t.opener();
    for (i, p) in moves.iter().enumerate() {
        let seat = if i % 2 == 0 { black } else { black.other() };
        t.act_as(seat, place(p)).await;
    }
    let seat = if moves.len().is_multiple_of(2) {
        black
    } else {
        black.other()
    };
    t.act_as(seat, last).await;
    t.table
}

/// A request and its reply, each checked against the protocol's schema
/// (these frames are not in `wire_schema`'s sessions: they need games
/// mined first).
async fn ask(c: &mut Connection, msg: ClientMsg) -> Result<ServerMsg, ClientError> {
    common::schema::assert_client_valid(&msg);
    let reply = c.request(msg).await;
    if let Ok(r) = &reply {
        common::schema::assert_valid(r);
    }
    reply
}

/// The game's puzzles, once the miner has stored them.
async fn puzzles_of(c: &mut Connection, game: &TableId) -> Vec<tengen_protocol::PuzzleRef> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match c
            .request(ClientMsg::GamePuzzles { game: game.clone() })
            .await
        {
            Ok(ServerMsg::GamePuzzles { puzzles, .. }) if !puzzles.is_empty() => return puzzles,
            Ok(ServerMsg::GamePuzzles { .. }) if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(100)).await
            }
            other => panic!("{other:?}"),
        }
    }
}

async fn start(c: &mut Connection, msg: ClientMsg) -> PuzzleView {
    match ask(c, msg).await {
        Ok(ServerMsg::Puzzle(v)) => *v,
        other => panic!("{other:?}"),
    }
}

async fn step(c: &mut Connection, attempt: &str, p: &str) -> PuzzleStep {
    match ask(
        c,
        ClientMsg::PuzzleMove {
            attempt: attempt.into(),
            point: p.parse().unwrap(),
        },
    )
    .await
    {
        Ok(ServerMsg::PuzzleStep(s)) => s,
        other => panic!("{other:?}"),
    }
}

/// A game played over WebSockets becomes a puzzle by itself; accounts'
/// first tries are rated (a solve up, a failure down, the puzzle the other
/// way), later tries and guests' are not; a try is its player's alone;
/// the daily puzzle is one for everyone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missed_win_becomes_a_puzzle_solved_and_failed_with_ratings() {
    let server = common::server().await;
    let game = played(
        &server,
        GameConfig::free(RuleSet::Freestyle),
        &MISSED,
        Action::Resign,
    )
    .await;
    let mut cat = common::account(&server, "cat").await;
    let made = puzzles_of(&mut cat, &game).await;
    let at11: Vec<_> = made.iter().filter(|p| p.move_number == 11).collect();
    assert_eq!(at11.len(), 1, "{made:?}");
    let id = at11[0].puzzle.clone();
    assert_eq!(at11[0].to_move, Color::Black);
    // The game is in the explorer too, asked over the protocol, in the
    // orientation asked: a rotation of the game's first moves.
    let explore = ClientMsg::Explore {
        rule_set: RuleSet::Freestyle,
        opening: Opening::Free,
        board_size: None,
        moves: ["H8", "H7"].map(|p| p.parse().unwrap()).to_vec(),
        filter: ExplorerFilter::default(),
    };
    match ask(&mut cat, explore).await {
        Ok(ServerMsg::Explorer(v)) => {
            assert_eq!(
                (v.stats.games, v.stats.white, v.to_move),
                (1, 1, Color::Black)
            );
            // G8 rotated a quarter turn about H8: H9.
            assert_eq!(v.next.len(), 1);
            assert_eq!(v.next[0].point, "H9".parse().unwrap());
        }
        other => panic!("{other:?}"),
    }

    // Solved by cat, rated: the four, the forced block, the open four.
    let v = start(&mut cat, ClientMsg::Puzzle { puzzle: id.clone() }).await;
    assert!(v.rated);
    assert_eq!(v.your_rating, Some(1500));
    assert_eq!((v.game.clone(), v.move_number), (game.clone(), 11));
    assert_eq!(v.black.len(), 5);
    let before = v.rating;
    // Another player cannot play cat's try.
    let mut guest = common::client(&server, "eve", Encoding::Json).await;
    match guest
        .request(ClientMsg::PuzzleMove {
            attempt: v.attempt.clone(),
            point: "K8".parse().unwrap(),
        })
        .await
    {
        Err(ClientError::Refused(e)) => assert_eq!(e.code, ErrorCode::NotFound),
        other => panic!("{other:?}"),
    }
    let s = step(&mut cat, &v.attempt, "K8").await;
    assert_eq!(
        (s.outcome, s.reply),
        (StepOutcome::Continue, Some("L8".parse().unwrap()))
    );
    let s = step(&mut cat, &v.attempt, "K11").await;
    assert_eq!(s.outcome, StepOutcome::Solved);
    let up = s.rating.expect("a rated try");
    assert_eq!(up.before, 1500);
    assert!(up.after > 1500, "{up:?}");
    // The try is over.
    assert!(matches!(
        cat.request(ClientMsg::PuzzleMove {
            attempt: v.attempt.clone(),
            point: "K7".parse().unwrap()
        })
        .await,
        Err(ClientError::Refused(_))
    ));
    // Again: not rated any more; a wrong first move fails with the line.
    let v = start(&mut cat, ClientMsg::Puzzle { puzzle: id.clone() }).await;
    assert!(!v.rated);
    assert!(
        v.rating < before,
        "the puzzle lost to a solver: {} -> {}",
        before,
        v.rating
    );
    assert_eq!(v.your_rating, Some(up.after));
    let s = step(&mut cat, &v.attempt, "K11").await;
    assert_eq!(
        (s.outcome, s.reason.as_deref()),
        (StepOutcome::Failed, Some("no_win"))
    );
    assert_eq!(s.rating, None);
    assert_eq!(s.solution.first(), Some(&"K8".parse().unwrap()));

    // Dan fails his first try: his rating goes down, the puzzle's up.
    let mut dan = common::account(&server, "dan").await;
    let v = start(
        &mut dan,
        ClientMsg::NextPuzzle {
            theme: Some(tengen_protocol::PuzzleTheme::Vcf),
        },
    )
    .await;
    let v = if v.puzzle == id {
        v
    } else {
        start(&mut dan, ClientMsg::Puzzle { puzzle: id.clone() }).await
    };
    assert!(v.rated);
    let puzzle_before = v.rating;
    let s = step(&mut dan, &v.attempt, "A15").await;
    assert_eq!(s.outcome, StepOutcome::Failed);
    let down = s.rating.expect("a rated try");
    assert!(down.after < down.before, "{down:?}");
    let v = start(&mut dan, ClientMsg::Puzzle { puzzle: id.clone() }).await;
    assert!(v.rating > puzzle_before && !v.rated);
    assert_eq!(v.plays, 2);
    assert_eq!(v.solved, 1);

    // A guest's tries are never rated.
    let v = start(&mut guest, ClientMsg::Puzzle { puzzle: id.clone() }).await;
    assert!(!v.rated && v.your_rating.is_none());
    // The daily puzzle: the same for two players, with today's date.
    let a = start(&mut guest, ClientMsg::DailyPuzzle).await;
    let b = start(&mut dan, ClientMsg::DailyPuzzle).await;
    assert_eq!(a.puzzle, b.puzzle);
    assert!(a.daily.is_some() && a.daily == b.daily);
}

/// A foul in a renju game becomes a trainer position, judged by the
/// referee point by point and kind by kind.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_foul_becomes_a_trainer_position() {
    let server = common::server().await;
    let j8: Point = "J8".parse().unwrap();
    let game = played(
        &server,
        GameConfig::free(RuleSet::Renju),
        &FOUL,
        Action::ClaimForbidden { point: Some(j8) },
    )
    .await;
    let mut c = common::client(&server, "ann", Encoding::Json).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    let pos = loop {
        match ask(&mut c, ClientMsg::TrainerNext).await {
            Ok(ServerMsg::TrainerPosition(p)) => break p,
            Err(ClientError::Refused(e))
                if e.code == ErrorCode::NotFound && Instant::now() < deadline =>
            {
                tokio::time::sleep(Duration::from_millis(100)).await
            }
            other => panic!("{other:?}"),
        }
    };
    assert_eq!((pos.game.clone(), pos.move_number), (game, 9));
    assert_eq!((pos.black.len(), pos.white.len()), (4, 4));
    let answer = async |c: &mut Connection, marks: Vec<ForbiddenPoint>| match ask(
        c,
        ClientMsg::TrainerAnswer {
            position: pos.position.clone(),
            marks,
        },
    )
    .await
    {
        Ok(ServerMsg::TrainerVerdict(v)) => v,
        other => panic!("{other:?}"),
    };
    let v = answer(&mut c, vec![]).await;
    assert!(!v.correct);
    assert_eq!(v.missed, vec![j8]);
    let v = answer(
        &mut c,
        vec![
            ForbiddenPoint {
                point: j8,
                kind: Forbidden::DoubleFour,
            },
            ForbiddenPoint {
                point: "K8".parse().unwrap(),
                kind: Forbidden::DoubleThree,
            },
        ],
    )
    .await;
    assert_eq!(
        (v.wrong_kind.clone(), v.wrong.clone(), v.correct),
        (vec![j8], vec!["K8".parse().unwrap()], false)
    );
    let v = answer(
        &mut c,
        vec![ForbiddenPoint {
            point: j8,
            kind: Forbidden::DoubleThree,
        }],
    )
    .await;
    assert!(v.correct, "{v:?}");
    assert_eq!(v.right, vec![j8]);
}

/// Records the project reads imported into the explorer: a JSON list,
/// renju texts with their tags (several in a file: the result a
/// resignation leaves out of the moves comes from `Result`), a plain stone
/// list and PSQ (counted only when their moves end the game). Each game is
/// counted once however often imported, and every position agrees with
/// the count made from the original records.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn imported_records_are_counted_once() {
    use tengen_rules::game::notation::import as read;
    use tengen_server::study::{StudySettings, import};
    let dir = tempfile::tempdir().unwrap();
    let store = EmbeddedStore::open(&dir.path().join("data")).unwrap();
    let mut rng = StdRng::seed_from_u64(7);
    let games: Vec<_> = (0..7)
        .map(|_| sample::random_game(&mut rng, RuleSet::Freestyle, Opening::Free))
        .collect();
    let files = dir.path().join("records");
    std::fs::create_dir(&files).unwrap();
    let json: Vec<serde_json::Value> = games[..2]
        .iter()
        .map(|g| serde_json::from_str(&g.to_json()).unwrap())
        .collect();
    std::fs::write(files.join("a.json"), serde_json::to_string(&json).unwrap()).unwrap();
    let texts: Vec<String> = games[2..5].iter().map(|g| g.to_renju_text()).collect();
    std::fs::write(files.join("b.txt"), texts.join("\n")).unwrap();
    std::fs::write(files.join("c.txt"), games[5].renju_notation()).unwrap();
    std::fs::write(files.join("d.psq"), games[5 + 1].to_psq().unwrap()).unwrap();
    // The stone lists without tags count when their moves end the game.
    let ends = |text: &str| {
        let r = read(text, RuleSet::Freestyle).unwrap();
        r.replay().unwrap().result().is_some()
    };
    let counted: Vec<bool> = (0..7)
        .map(|i| match i {
            5 => ends(&games[5].renju_notation()),
            6 => ends(&games[6].to_psq().unwrap()),
            _ => true,
        })
        .collect();
    let n = counted.iter().filter(|c| **c).count() as u64;
    // Not all the same: a resigned game's text keeps its result in a tag.
    assert!(games[2..5].iter().any(|g| !ends(&g.renju_notation())));
    let settings = StudySettings {
        depth: DEPTH,
        ..Default::default()
    };
    let paths = import::expand(std::slice::from_ref(&files)).unwrap();
    assert_eq!(paths.len(), 4);
    let report = import::import_files(
        &store,
        &settings,
        &paths,
        RuleSet::Freestyle,
        Opening::Free,
        true,
    )
    .await
    .unwrap();
    assert_eq!(
        (report.read, report.indexed, report.skipped),
        (7, n, 7 - n),
        "{report}"
    );
    let again = import::import_files(
        &store,
        &settings,
        &paths,
        RuleSet::Freestyle,
        Opening::Free,
        false,
    )
    .await
    .unwrap();
    assert_eq!((again.read, again.indexed), (7, 0), "{again}");
    let mut reference = Reference::new(DEPTH);
    for (g, _) in games.iter().zip(&counted).filter(|(_, c)| **c) {
        assert!(reference.add("freestyle/free", g));
    }
    let mut positions = 0;
    for (_, path, counts, next) in reference.positions() {
        let v = explore(
            &store,
            DEPTH,
            RuleSet::Freestyle,
            Opening::Free,
            None,
            path.to_vec(),
            ExplorerFilter::default(),
        )
        .await
        .unwrap();
        assert_eq!(
            (v.stats.games, v.stats.black, v.stats.draws, v.stats.white),
            (counts.games, counts.black, counts.draws, counts.white),
            "after {path:?}"
        );
        assert_eq!(v.next.len(), next, "after {path:?}");
        common::schema::assert_valid(&ServerMsg::Explorer(Box::new(v)));
        positions += 1;
    }
    assert!(positions > 20, "{positions}");
    let root = explore(
        &store,
        DEPTH,
        RuleSet::Freestyle,
        Opening::Free,
        None,
        vec![],
        ExplorerFilter::default(),
    )
    .await
    .unwrap();
    assert_eq!(root.stats.games, n);
    // A record that does not replay is refused, naming its file and game.
    std::fs::write(files.join("e.txt"), "h8 h8").unwrap();
    let err = import::import_files(
        &store,
        &settings,
        &[files.join("e.txt")],
        RuleSet::Freestyle,
        Opening::Free,
        false,
    )
    .await
    .unwrap_err();
    assert!(err.to_string().contains("e.txt, game 1"), "{err}");
}
