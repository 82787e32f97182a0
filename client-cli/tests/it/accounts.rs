//! Accounts and ranked play with the `tengen` binary against a real server
//! (in-process): register, login, logout and the token kept per server
//! (mode 0600); the token sent by every later command; stale tokens
//! dropped with a clear word; two bots registered, queued, matched and
//! playing a rated game; its record saved by `tengen record` and read back
//! by `tengen replay`; history, profile and leaderboard; a rated room.

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::{
    Lines, run_with_input, server, server_with, settings, stderr_of, tengen_in, text, wait,
};
use tempfile::TempDir;

const PASSWORD: &str = "correct horse battery";
const GAME_TIME: Duration = Duration::from_secs(180);

/// `tengen register NAME` (or `login`) with the password on standard input.
fn sign(url: &str, dir: &Path, cmd: &str, name: &str, password: &str) -> std::process::Output {
    run_with_input(
        tengen_in(url, dir, &[cmd, name, "--password-stdin"]),
        &format!("{password}\n"),
    )
}

/// The login file kept for `url` in `dir`, if any.
fn login_file(dir: &Path) -> Option<std::path::PathBuf> {
    std::fs::read_dir(dir).ok()?.find_map(|e| {
        let p = e.ok()?.path();
        let name = p.file_name()?.to_str()?.to_string();
        (name.starts_with("login-") && name.ends_with(".json")).then_some(p)
    })
}

#[test]
fn register_login_logout_and_the_kept_token() {
    let url = server();
    let (a, b) = (TempDir::new().unwrap(), TempDir::new().unwrap());

    let out = sign(&url, a.path(), "register", "alice", PASSWORD);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(
        said.starts_with(&format!("registered as alice on {url}")),
        "{said}"
    );
    let file = login_file(a.path()).expect("the token is kept");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "the token file is the owner's only");
    }
    let kept: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(kept["name"], "alice");
    assert_eq!(kept["server"], url.as_str());
    assert_eq!(kept["token"].as_str().unwrap().len(), 32);

    // Later commands are alice: a bot of hers creates a room, and the
    // lobby shows it as alice's (a guest could not have that name).
    let mut bot = tengen_in(&url, a.path(), &["bot", "--create", "--name", "mallory"])
        .spawn()
        .unwrap();
    let mut lines = Lines::new(bot.stdout.take().unwrap());
    let room = lines.next(Duration::from_secs(20)).expect("room line");
    let room = room.strip_prefix("room: ").unwrap().to_string();
    let lobby = tengen_in(&url, b.path(), &["lobby", "--once"])
        .output()
        .unwrap();
    let listed = text(&lobby.stdout);
    let line = listed.lines().find(|l| l.starts_with(&room)).unwrap();
    assert!(
        line.contains("alice") && !line.contains("mallory"),
        "{line}"
    );
    let _ = bot.kill();
    let _ = bot.wait();

    // Clear refusals, and nothing kept for them.
    let out = sign(&url, b.path(), "register", "Alice", PASSWORD);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("the name Alice is taken"),
        "{}",
        text(&out.stderr)
    );
    let out = sign(&url, b.path(), "register", "9lives", PASSWORD);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("letter"),
        "{}",
        text(&out.stderr)
    );
    let out = sign(&url, b.path(), "register", "bob", "short");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("at least 8"),
        "{}",
        text(&out.stderr)
    );
    let out = sign(&url, b.path(), "login", "alice", "not the password");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("wrong name or password"),
        "{}",
        text(&out.stderr)
    );
    assert!(login_file(b.path()).is_none());

    // Alice logs in elsewhere too, then logs out there: that token is
    // revoked and forgotten, the first one still works.
    let out = sign(&url, b.path(), "login", "alice", PASSWORD);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("logged in as alice"));
    let out = tengen_in(&url, b.path(), &["logout"]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("logged out alice"),
        "{}",
        text(&out.stdout)
    );
    assert!(login_file(b.path()).is_none());
    let out = tengen_in(&url, b.path(), &["logout"]).output().unwrap();
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("not logged in"));
    let out = tengen_in(&url, a.path(), &["profile"]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("alice, registered "));
    assert!(text(&out.stdout).contains("no rated games yet"));

    // Logging in again replaces the kept token and revokes the old one:
    // put the old one back, and it is a token the server no longer
    // accepts: said, forgotten, and the command goes on as a guest.
    let out = sign(&url, a.path(), "login", "alice", PASSWORD);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let now: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_ne!(now["token"], kept["token"]);
    let old = std::fs::read_to_string(&file).unwrap().replace(
        now["token"].as_str().unwrap(),
        kept["token"].as_str().unwrap(),
    );
    std::fs::write(&file, old).unwrap();
    let out = tengen_in(&url, a.path(), &["lobby", "--once"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("your login as alice") && err.contains("no longer valid"),
        "{err}"
    );
    assert!(err.contains("tengen login alice"), "{err}");
    assert!(login_file(a.path()).is_none());
    // Not logged in: no profile of "you", no queue.
    let out = tengen_in(&url, a.path(), &["profile"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("name a PLAYER"));
    let out = tengen_in(&url, a.path(), &["queue", "renju", "5+3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("the rated queue is for accounts"),
        "{}",
        text(&out.stderr)
    );
    // A guest cannot open a rated room either: the server's word, and
    // what to do.
    let out = tengen_in(&url, a.path(), &["bot", "--create", "--rated"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("tengen login NAME"), "{err}");
}

#[test]
fn an_expired_token_is_dropped_with_a_clear_word() {
    let mut s = settings();
    s.accounts.token_ttl = Duration::from_millis(1500);
    let url = server_with(s);
    let dir = TempDir::new().unwrap();
    let out = sign(&url, dir.path(), "register", "carol", PASSWORD);
    assert!(out.status.success(), "{}", text(&out.stderr));
    std::thread::sleep(Duration::from_millis(2000));
    let out = tengen_in(&url, dir.path(), &["lobby", "--once"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("your login as carol"), "{err}");
    assert!(err.contains("has expired"), "{err}");
    assert!(login_file(dir.path()).is_none());
    // Logging out a login that has expired just forgets it.
    let out = sign(&url, dir.path(), "login", "carol", PASSWORD);
    assert!(out.status.success());
    std::thread::sleep(Duration::from_millis(2000));
    let out = tengen_in(&url, dir.path(), &["logout"]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("no longer valid; forgot it"));
    assert!(login_file(dir.path()).is_none());
}

#[test]
fn logout_everywhere_ends_the_other_devices_logins_and_nothing_secret_is_printed() {
    let url = server();
    let (a, b) = (TempDir::new().unwrap(), TempDir::new().unwrap());
    // Whatever a logger would read: the CLI installs none, and prints no
    // password or token.
    let verbose = |mut c: std::process::Command| {
        c.env("RUST_LOG", "trace").env("TENGEN_LOG", "trace");
        c
    };
    let mut printed = String::new();
    let mut run = |c: std::process::Command, input: Option<&str>| {
        let out = match input {
            Some(i) => run_with_input(verbose(c), i),
            None => verbose(c).output().unwrap(),
        };
        printed.push_str(&text(&out.stdout));
        printed.push_str(&text(&out.stderr));
        out
    };
    let input = format!("{PASSWORD}\n");
    let register = tengen_in(&url, a.path(), &["register", "dora", "--password-stdin"]);
    assert!(run(register, Some(&input)).status.success());
    let login = tengen_in(&url, b.path(), &["login", "dora", "--password-stdin"]);
    assert!(run(login, Some(&input)).status.success());
    let wrong = tengen_in(&url, b.path(), &["login", "dora", "--password-stdin"]);
    assert!(!run(wrong, Some("a wrong password\n")).status.success());
    let token = |dir: &Path| -> String {
        let kept: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(login_file(dir).unwrap()).unwrap())
                .unwrap();
        kept["token"].as_str().unwrap().to_string()
    };
    let (token_a, token_b) = (token(a.path()), token(b.path()));

    let out = run(tengen_in(&url, b.path(), &["logout", "--everywhere"]), None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("logged out dora everywhere"),
        "{}",
        text(&out.stdout)
    );
    assert!(login_file(b.path()).is_none());
    // The other device's token no longer opens the account.
    let out = run(tengen_in(&url, a.path(), &["lobby", "--once"]), None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("your login as dora") && err.contains("no longer valid"),
        "{err}"
    );
    for secret in [PASSWORD, "a wrong password", &token_a, &token_b] {
        assert!(!printed.contains(secret), "{secret} printed: {printed}");
    }
}

fn result_line(out: &[String]) -> String {
    out.iter()
        .rev()
        .find(|l| l.starts_with("result: "))
        .unwrap_or_else(|| panic!("no result line: {out:#?}"))
        .clone()
}

/// Two bots, each logged in from its own directory, play one game; the
/// outputs of the first and the second.
fn bot_pair(url: &str, dirs: [&Path; 2], args: [&[&str]; 2]) -> [Vec<String>; 2] {
    let mut first = tengen_in(url, dirs[0], args[0]).spawn().unwrap();
    let mut out1 = Lines::new(first.stdout.take().unwrap());
    let head = out1.next(Duration::from_secs(20)).unwrap_or_else(|| {
        panic!("no first line; stderr: {}", stderr_of(&mut first));
    });
    let room = head.strip_prefix("room: ").map(str::to_string);
    let mut args2: Vec<&str> = args[1].to_vec();
    if let Some(room) = &room {
        args2.extend(["--join", room]);
    }
    let mut second = tengen_in(url, dirs[1], &args2).spawn().unwrap();
    let mut out2 = Lines::new(second.stdout.take().unwrap());
    let st2 = wait(&mut second, GAME_TIME, "the second bot");
    let st1 = wait(&mut first, GAME_TIME, "the first bot");
    let (o1, o2) = (
        out1.rest(Duration::from_secs(5)),
        out2.rest(Duration::from_secs(5)),
    );
    assert!(st1.success(), "{o1:#?} {}", stderr_of(&mut first));
    assert!(st2.success(), "{o2:#?} {}", stderr_of(&mut second));
    [o1, o2]
}

/// `tengen ARGS` in `dir`, run again until its standard output satisfies
/// `done` (for at most 10 s); the last output. The server stores a
/// finished game's record and rating changes just after `game_over` has
/// gone out, so a command run the moment the bots have exited can still
/// see the state before the game.
fn eventually(url: &str, dir: &Path, args: &[&str], done: impl Fn(&str) -> bool) -> String {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let out = tengen_in(url, dir, args).output().unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        let said = text(&out.stdout);
        if done(&said) || std::time::Instant::now() > deadline {
            return said;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn two_accounts_queue_play_a_rated_game_and_its_record_is_saved() {
    let url = server();
    let (a, b) = (TempDir::new().unwrap(), TempDir::new().unwrap());
    for (dir, name) in [(&a, "annika"), (&b, "bobby")] {
        let out = sign(&url, dir.path(), "register", name, PASSWORD);
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    // In another directory, bobby logs in (a second token of his).
    let b2 = TempDir::new().unwrap();
    assert!(
        sign(&url, b2.path(), "login", "bobby", PASSWORD)
            .status
            .success()
    );

    let queue: &[&str] = &["bot", "--queue", "--rules", "renju", "--time", "5+3"];
    let [o1, o2] = bot_pair(&url, [a.path(), b2.path()], [queue, queue]);
    assert_eq!(o1[0], "queued: renju free 5+3 claim", "{o1:#?}");
    assert!(o1[1].starts_with("matched with bobby at table "), "{o1:#?}");
    assert!(
        o2[1].starts_with("matched with annika at table "),
        "{o2:#?}"
    );
    let table = o1[1].rsplit(' ').next().unwrap().to_string();
    assert_eq!(result_line(&o1), result_line(&o2));

    // The game is in both players' histories.
    let hist = eventually(&url, a.path(), &["history"], |h| h.contains(&table));
    assert!(hist.starts_with("GAME "), "{hist}");
    let line = hist.lines().nth(1).unwrap();
    assert!(line.starts_with(&table), "{hist}");
    assert!(line.contains("annika") && line.contains("bobby"), "{hist}");
    let out = tengen_in(&url, a.path(), &["history", "bobby"])
        .output()
        .unwrap();
    assert!(text(&out.stdout).contains(&table));
    let out = tengen_in(&url, a.path(), &["history", "nobody"])
        .output()
        .unwrap();
    assert!(text(&out.stdout).contains("no finished games of nobody"));

    // Both are rated now (provisional), so the leaderboard has nobody.
    let out = tengen_in(&url, a.path(), &["profile", "bobby"])
        .output()
        .unwrap();
    let prof = text(&out.stdout);
    assert!(prof.starts_with("bobby, registered "), "{prof}");
    let renju = prof.lines().find(|l| l.starts_with("renju ")).unwrap();
    assert!(renju.contains("provisional"), "{prof}");
    assert!(prof.contains("vs annika"), "{prof}");
    let out = tengen_in(&url, a.path(), &["leaderboard"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("nobody established yet"));
    let out = tengen_in(&url, a.path(), &["profile", "nobody"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));

    // The record, saved and replayed by the referee to the same result.
    let file = a.path().join("game.json");
    let out = tengen_in(
        &url,
        a.path(),
        &["record", &table, "-o", file.to_str().unwrap()],
    )
    .output()
    .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("saved game"));
    let replay = tengen_in(&url, a.path(), &["replay", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(replay.status.success(), "{}", text(&replay.stdout));
    let shown = text(&replay.stdout);
    assert!(
        shown.starts_with("record: JSON game record, rule set renju"),
        "{shown}"
    );
    assert!(
        shown.lines().any(|l| l == result_line(&o1)),
        "{shown}\nbots: {}",
        result_line(&o1)
    );
    // Renju notation to standard output, replayed from standard input.
    let out = tengen_in(&url, a.path(), &["record", &table, "--format", "renju"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let notation = text(&out.stdout);
    assert!(notation.starts_with("[Game "), "{notation}");
    assert!(notation.contains("\n1. h8 "), "{notation}");
    let replay = run_with_input(tengen_in(&url, a.path(), &["replay", "-"]), &notation);
    assert!(replay.status.success(), "{}", text(&replay.stdout));
    // A game that does not exist.
    let out = tengen_in(&url, a.path(), &["record", "0rgcyfb9b6qv0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no finished game 0rgcyfb9b6qv0"));

    // A rated room, created and joined by the two accounts' bots.
    let [r1, r2] = bot_pair(
        &url,
        [a.path(), b.path()],
        [
            &["bot", "--create", "--rated", "--time", "5+3", "--seed", "5"],
            &["bot", "--seed", "6"],
        ],
    );
    assert_eq!(result_line(&r1), result_line(&r2));
    let games = |profile: &str| -> Option<u32> {
        let line = profile.lines().find(|l| l.starts_with("renju "))?;
        line.split_whitespace().nth(3)?.parse().ok()
    };
    let renju = eventually(&url, a.path(), &["profile"], |p| games(p) == Some(2));
    assert_eq!(games(&renju), Some(2), "{renju}");
}
