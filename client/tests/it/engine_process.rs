//! The engine child process through the library ([`Engine`]): real
//! processes (`sh` scripts) that answer, log, babble, hang and exit, each
//! coming back as the typed answer or error in time; the memory limit is
//! a real rlimit on the child.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tengen_client::engine::{Engine, EngineError, EngineSpec, Log, Note};
use tengen_client::piskvork::NoteKind;
use tengen_rules::Point;

const WAIT: Duration = Duration::from_secs(10);

fn sh(script: &str, max_memory: Option<u64>) -> EngineSpec {
    EngineSpec {
        max_memory,
        ..EngineSpec::new("sh", vec!["-c".into(), script.into()])
    }
}

fn collect() -> (Log, Arc<Mutex<Vec<Note>>>) {
    let notes = Arc::new(Mutex::new(Vec::new()));
    let n = notes.clone();
    (Arc::new(move |note| n.lock().unwrap().push(note)), notes)
}

#[tokio::test]
async fn max_memory_is_an_rlimit_on_the_child() {
    let (log, _) = collect();
    let script = r#"read l; v=$(ulimit -v); [ "$v" = 65536 ] && echo OK || echo "limit $v""#;
    let mut e = Engine::spawn(&sh(script, Some(64 << 20)), log.clone()).unwrap();
    e.send("START 15").await.unwrap();
    e.expect_ok(WAIT).await.unwrap();
    // Without a limit the child has none.
    let script = r#"read l; v=$(ulimit -v); [ "$v" = unlimited ] && echo OK || echo "limit $v""#;
    let mut e = Engine::spawn(&sh(script, None), log).unwrap();
    e.send("START 15").await.unwrap();
    e.expect_ok(WAIT).await.unwrap();
}

#[tokio::test]
async fn notes_are_logged_and_an_error_line_is_never_a_move() {
    let (log, notes) = collect();
    // As Rapfi told more memory than fits: an ERROR after the INFO, then
    // a note and the move.
    let script = "read l; echo 'MESSAGE thinking'; echo 'DEBUG depth 3'; echo '7,7'; \
                  read l; echo 'ERROR Failed to allocate 1048576 KB for transposition table.'; \
                  echo 'MESSAGE Allocated 524288 KB for transposition table.'; echo '8,8'; \
                  read l; echo 'ERROR cannot'; read l";
    let mut e = Engine::spawn(&sh(script, None), log).unwrap();
    e.send("BEGIN").await.unwrap();
    assert_eq!(e.expect_point(15, WAIT).await.unwrap(), Point::center(15));
    e.send("TURN 1,1").await.unwrap();
    assert_eq!(
        e.expect_point(15, WAIT).await.unwrap(),
        "I7".parse().unwrap()
    );
    // An ERROR and nothing more: the move never comes.
    e.send("TURN 2,2").await.unwrap();
    let r = e.expect_point(15, Duration::from_millis(1500)).await;
    assert!(matches!(r, Err(EngineError::Timeout(_))), "{r:?}");
    let notes = notes.lock().unwrap();
    let said: Vec<&Note> = notes
        .iter()
        .filter(|n| matches!(n, Note::Engine(..)))
        .collect();
    assert_eq!(
        said,
        [
            &Note::Engine(NoteKind::Message, "thinking".into()),
            &Note::Engine(NoteKind::Debug, "depth 3".into()),
            &Note::Engine(
                NoteKind::Error,
                "Failed to allocate 1048576 KB for transposition table.".into()
            ),
            &Note::Engine(
                NoteKind::Message,
                "Allocated 524288 KB for transposition table.".into()
            ),
            &Note::Engine(NoteKind::Error, "cannot".into()),
        ]
    );
    assert!(notes.contains(&Note::Sent("TURN 1,1".into())));
}

#[tokio::test]
async fn a_reply_refused_by_error_or_unknown_and_answered_after_errors() {
    let (log, _) = collect();
    // UNKNOWN refuses at once; ERROR then silence refuses after the
    // grace; ERRORs then an answer (Rapfi on lines it cannot read) are
    // the answer.
    let script = "read l; echo 'UNKNOWN what'; read l; echo 'ERROR Unsupported board size!'; \
                  read l; echo 'ERROR Color is not a valid value'; echo 'ERROR again'; \
                  echo SWAP; read l";
    let mut e = Engine::spawn(&sh(script, None), log).unwrap();
    e.send("YXFOO").await.unwrap();
    let r = e.expect_line(WAIT).await;
    assert!(
        matches!(&r, Err(EngineError::Refused(l)) if l == "UNKNOWN what"),
        "{r:?}"
    );
    e.send("START 30").await.unwrap();
    let started = Instant::now();
    let r = e.expect_ok(WAIT).await;
    assert!(
        matches!(&r, Err(EngineError::Refused(l)) if l == "ERROR Unsupported board size!"),
        "{r:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    e.send("SWAP2BOARD").await.unwrap();
    assert_eq!(e.expect_line(WAIT).await.unwrap(), "SWAP");
}

#[tokio::test]
async fn babble_is_garbage_and_silence_a_timeout() {
    let (log, _) = collect();
    let script = "read l; echo 'hello there'; read l; head -c 10000 /dev/zero | tr '\\0' a; \
                  read l; exec sleep 30";
    let mut e = Engine::spawn(&sh(script, None), log).unwrap();
    e.send("BEGIN").await.unwrap();
    assert!(matches!(
        e.expect_point(15, WAIT).await,
        Err(EngineError::Garbage(l)) if l == "hello there"
    ));
    e.send("TURN 1,1").await.unwrap();
    assert!(matches!(
        e.expect_point(15, WAIT).await,
        Err(EngineError::Garbage(l)) if l.ends_with("(a line too long)")
    ));
    e.send("TURN 2,2").await.unwrap();
    // The rest of the long line is dropped, not taken for an answer.
    let started = Instant::now();
    let r = e.expect_point(15, Duration::from_millis(300)).await;
    assert!(matches!(r, Err(EngineError::Timeout(_))), "{r:?}");
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(300) && took < Duration::from_secs(3),
        "{took:?}"
    );
}

#[tokio::test]
async fn an_exit_and_a_missing_program_are_told() {
    let (log, _) = collect();
    let mut e = Engine::spawn(&sh("exit 3", None), log.clone()).unwrap();
    let r = e.expect_ok(WAIT).await;
    assert!(matches!(r, Err(EngineError::Exited(_))), "{r:?}");
    let missing = EngineSpec::new("/nonexistent/engine", Vec::new());
    assert!(matches!(
        Engine::spawn(&missing, log),
        Err(EngineError::Spawn(_))
    ));
}

#[tokio::test]
async fn an_engine_that_stops_reading_is_a_timeout() {
    let (log, _) = collect();
    let mut e = Engine::spawn(&sh("exec sleep 30", None), log).unwrap();
    let line = "x".repeat(1000);
    let started = Instant::now();
    let mut result = Ok(());
    // The pipe holds some 64 KiB; then the write waits, and gives up.
    for _ in 0..200 {
        result = e.send(&line).await;
        if result.is_err() {
            break;
        }
    }
    assert!(matches!(result, Err(EngineError::Timeout(_))), "{result:?}");
    assert!(started.elapsed() < Duration::from_secs(15));
}

#[tokio::test]
async fn an_engine_past_its_memory_limit_dies_and_is_told() {
    let (log, _) = collect();
    // The shell holds 200 MB of output in a variable: past 64 MiB of
    // address space its allocation fails and it dies.
    let script = "read l; x=$(head -c 200000000 /dev/zero | tr '\\0' a); echo 7,7";
    let mut e = Engine::spawn(&sh(script, Some(64 << 20)), log.clone()).unwrap();
    e.send("BEGIN").await.unwrap();
    let r = e.expect_point(15, Duration::from_secs(60)).await;
    assert!(matches!(r, Err(EngineError::Exited(_))), "{r:?}");
}

#[tokio::test]
async fn cpu_seconds_is_an_rlimit_and_a_spinning_engine_is_ended() {
    let (log, _) = collect();
    let limited = |script: &str| EngineSpec {
        cpu_seconds: Some(1),
        ..sh(script, None)
    };
    let script = r#"read l; v=$(ulimit -t); [ "$v" = 1 ] && echo OK || echo "limit $v""#;
    let mut e = Engine::spawn(&limited(script), log.clone()).unwrap();
    e.send("START 15").await.unwrap();
    e.expect_ok(WAIT).await.unwrap();
    // An engine that spins past its second of CPU is killed by the kernel
    // long before its turn time is up.
    let spin = "read l; while :; do :; done";
    let mut e = Engine::spawn(&limited(spin), log).unwrap();
    e.send("BEGIN").await.unwrap();
    let started = std::time::Instant::now();
    let r = e.expect_point(15, Duration::from_secs(60)).await;
    assert!(matches!(r, Err(EngineError::Exited(_))), "{r:?}");
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
}
