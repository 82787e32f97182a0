//! `tengen bot` survives the network and the server: two bot processes
//! play through a proxy (`src/testproxy.rs`) that the test cuts mid-game,
//! and then the server behind it stops and starts again on the same data
//! directory (a new port behind the same proxy). Both bots reconnect and
//! resume by themselves and finish the game with the same moves and
//! result. A bot creating a room that loses its connection while waiting
//! opens a new room once back (the server forgot the old one).

use crate::common;

use std::time::Duration;

use common::proxy::Proxy;
use common::{
    Lines, cut_then_restart, moves, proxied_server, settings, spawn_server, stderr_of, tengen, wait,
};

const GAME_TIME: Duration = Duration::from_secs(180);

#[test]
fn two_bots_play_on_through_a_cut_network_and_a_server_restart() {
    let data = tempfile::tempdir().unwrap();
    let (s, server, proxy) = proxied_server(data.path());
    let url = proxy.url();

    let bot = |args: &[&str]| {
        let mut all = vec!["bot", "--think-ms", "60"];
        all.extend_from_slice(args);
        tengen(&url, &all).spawn().unwrap()
    };
    let mut ann = bot(&["--create", "--name", "ann", "--time", "10+5", "--seed", "3"]);
    let mut ann_out = Lines::new(ann.stdout.take().unwrap());
    let first = ann_out.next(Duration::from_secs(20)).expect("room line");
    let room = first.strip_prefix("room: ").unwrap().to_string();
    let mut bob = bot(&["--join", &room, "--name", "bob", "--seed", "4"]);
    let mut bob_out = Lines::new(bob.stdout.take().unwrap());

    // A few moves, then the network goes for a second; a few more, then
    // the server restarts behind the proxy.
    let server = cut_then_restart(&mut bob_out, &proxy, server, s);

    let st_bob = wait(&mut bob, GAME_TIME, "bob");
    let st_ann = wait(&mut ann, GAME_TIME, "ann");
    let (o_ann, o_bob) = (
        ann_out.rest(Duration::from_secs(5)),
        bob_out.rest(Duration::from_secs(5)),
    );
    let (e_ann, e_bob) = (stderr_of(&mut ann), stderr_of(&mut bob));
    assert!(st_ann.success(), "ann: {o_ann:#?}\n{e_ann}");
    assert!(st_bob.success(), "bob: {o_bob:#?}\n{e_bob}");
    for err in [&e_ann, &e_bob] {
        assert!(
            err.matches("connection lost").count() >= 2,
            "a cut and a restart: {err}"
        );
        assert!(err.contains("reconnected"), "{err}");
        assert!(!err.contains("forgotten"), "resumed every time: {err}");
    }
    let result = |o: &[String]| {
        o.iter()
            .rev()
            .find(|l| l.starts_with("result: "))
            .cloned()
            .unwrap_or_else(|| panic!("no result: {o:#?}"))
    };
    assert_eq!(result(&o_ann), result(&o_bob));
    assert!(!result(&o_ann).contains("abandon"), "{}", result(&o_ann));
    // Every move once, in order, the same for both.
    let (m_ann, m_bob) = (moves(&o_ann), moves(&o_bob));
    assert_eq!(m_ann, m_bob);
    for (i, m) in m_ann.iter().enumerate() {
        assert!(m.starts_with(&format!("{}. ", i + 1)), "{m_ann:#?}");
    }
    assert!(m_ann.len() > 10, "{m_ann:#?}");
    server.stop();
}

#[test]
fn a_waiting_room_lost_with_the_connection_is_opened_again() {
    let server = spawn_server(settings());
    let proxy = Proxy::start(server.addr);
    let url = proxy.url();
    let mut ann = tengen(&url, &["bot", "--create", "--name", "ann"])
        .spawn()
        .unwrap();
    let mut out = Lines::new(ann.stdout.take().unwrap());
    let first = out.next(Duration::from_secs(20)).expect("room line");
    proxy.cut();
    std::thread::sleep(Duration::from_millis(500));
    proxy.restore();
    let second = out.next(Duration::from_secs(30)).unwrap_or_else(|| {
        panic!("no second room; stderr: {}", stderr_of(&mut ann));
    });
    assert!(
        second.starts_with("room: ") && second != first,
        "{first} {second}"
    );
    let room = second.strip_prefix("room: ").unwrap();
    // The new room is the one to join: a game is played there.
    let mut bob = tengen(&url, &["bot", "--join", room, "--name", "bob"])
        .spawn()
        .unwrap();
    let st = wait(&mut bob, GAME_TIME, "bob");
    assert!(st.success(), "{}", stderr_of(&mut bob));
    let st = wait(&mut ann, GAME_TIME, "ann");
    assert!(st.success(), "{}", stderr_of(&mut ann));
    server.stop();
}
