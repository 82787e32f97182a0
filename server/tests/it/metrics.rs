//! The game-level metrics on a live server's `/metrics`, checked with
//! Prometheus's own `promtool`; the alert rules' unit tests; and the
//! Grafana dashboard's and the alerts' queries against the names the
//! server exports.
//!
//! `promtool` is Debian's `prometheus` package, and Grafana's dashboard
//! schema the npm package `@grafana/schema` (pinned in
//! `server/tests/grafana`), type-checked with the web client's TypeScript;
//! `scripts/test` installs both (the schema at `target/grafana-schema`).

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::*;
use tengen_client::Connection;
use tengen_protocol::{ClientMsg, Encoding, ServerMsg, TableId};
use tengen_rules::game::{Action, Event, ForbiddenHandling, GameConfig, RuleSet, TimeControl};
use tengen_server::Server;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The body of `/metrics`.
async fn scrape(server: &Server) -> String {
    let out = http_get(server, "/metrics").await;
    assert!(out.starts_with("HTTP/1.1 200"), "{out}");
    out.split_once("\r\n\r\n").unwrap().1.to_owned()
}

/// Every sample of the page: `name{labels}` (labels sorted, as the
/// exporter writes them) to its value.
fn samples(page: &str) -> BTreeMap<String, f64> {
    page.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (series, value) = l.rsplit_once(' ').unwrap();
            (series.to_owned(), value.parse().unwrap())
        })
        .collect()
}

/// The sum of the samples of `name` whose labels include every one of
/// `labels` (`key="value"`).
fn sum(page: &BTreeMap<String, f64>, name: &str, labels: &[&str]) -> f64 {
    page.iter()
        .filter(|(series, _)| {
            let (n, rest) = series.split_once('{').unwrap_or((series, ""));
            n == name && labels.iter().all(|l| rest.contains(l))
        })
        .map(|(_, v)| v)
        .sum()
}

fn promtool(args: &[&str], stdin: Option<&str>) -> (bool, String) {
    let mut cmd = Command::new("promtool");
    cmd.args(args).current_dir(repo().join("deploy/prometheus"));
    cmd.stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd
        .spawn()
        .expect("promtool (Debian's prometheus package; scripts/test installs it)");
    {
        use std::io::Write;
        let mut pipe = child.stdin.take().unwrap();
        if let Some(text) = stdin {
            pipe.write_all(text.as_bytes()).unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

async fn matched(c: &mut Connection) -> TableId {
    c.timeout = Duration::from_secs(10);
    let m = c
        .next_matching(|m| matches!(m, ServerMsg::Matched { .. }))
        .await
        .expect("matched");
    let ServerMsg::Matched { table, .. } = m.msg else {
        unreachable!()
    };
    snapshot_push(c).await;
    table
}

async fn game_over(c: &mut Connection) {
    c.next_matching(
        |m| matches!(m, ServerMsg::TableEvent(e) if matches!(e.event, Event::GameOver { .. })),
    )
    .await
    .expect("game over");
}

/// Waits until the page's `name{labels}` sum reaches `at_least` (the
/// table stores the finished game just after it tells the players).
async fn page_when(
    server: &Server,
    name: &str,
    labels: &[&str],
    at_least: f64,
) -> BTreeMap<String, f64> {
    for _ in 0..100 {
        let page = samples(&scrape(server).await);
        if sum(&page, name, labels) >= at_least {
            return page;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{name}{labels:?} never reached {at_least}");
}

/// A casual gomoku game with a spectator and a draw offer, ended by
/// resignation, and a rated renju game from the queue won by a five: each
/// moves the series it should, with its rule set, opening, rated, result
/// and reason; and the page passes `promtool check metrics`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_move_their_series_and_the_page_passes_promtool() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_on(dir.path(), |s| {
        s.finished_table_linger = Duration::from_millis(200);
        s.node = "metrics-one".into();
    })
    .await;
    let before = samples(&scrape(&server).await);
    let moves_before = sum(&before, "tengen_move_handling_seconds_count", &[]);

    // Casual gomoku (swap after three), watched, a draw offered and
    // declined by resigning.
    let mut t = table(&server, GameConfig::new(RuleSet::Gomoku), Encoding::Json).await;
    let mut watcher = client(&server, "cid", Encoding::Json).await;
    watch_snapshot(&mut watcher, &t.table).await;
    let black = t.snapshot.snapshot.black;
    t.act_as(black, place("H8")).await;
    t.act_as(black.other(), place("A1")).await;
    let live = page_when(&server, "tengen_spectators", &[], 1.0).await;
    assert!(sum(&live, "tengen_players_in_game", &[]) >= 2.0);
    assert!(sum(&live, "tengen_tables", &[]) >= 1.0);
    // White offers a draw with its move, then thinks better of it.
    t.act_as(black.other(), Action::OfferDraw).await;
    t.act_as(black.other(), Action::Resign).await;
    game_over(&mut t.first).await;
    let casual = [
        r#"rule_set="gomoku""#,
        r#"opening="swap_after_three""#,
        r#"rated="false""#,
    ];
    let finished = [
        casual.as_slice(),
        &[r#"result="black""#, r#"reason="resignation""#],
    ]
    .concat();
    let page = page_when(&server, "tengen_games_finished_total", &finished, 1.0).await;
    assert_eq!(sum(&page, "tengen_games_started_total", &casual), 1.0);
    assert_eq!(sum(&page, "tengen_games_finished_total", &casual), 1.0);
    assert_eq!(sum(&page, "tengen_draw_offers_total", &[]), 1.0);
    assert!(sum(&page, "tengen_move_handling_seconds_count", &[]) >= moves_before + 4.0);
    assert!(sum(&page, "tengen_move_durable_seconds_count", &[]) >= 4.0);
    assert_eq!(
        sum(
            &page,
            "tengen_store_call_seconds_count",
            &[r#"call="finish_game""#]
        ),
        1.0
    );
    assert!(
        sum(
            &page,
            "tengen_store_call_seconds_count",
            &[r#"call="append""#]
        ) >= 4.0
    );
    assert_eq!(sum(&page, "tengen_store_errors_total", &[]), 0.0);

    // Rated renju from the queue: black makes five.
    let mut ann = account(&server, "annika").await;
    let mut bob = account(&server, "bobby").await;
    let config = GameConfig::new(RuleSet::Renju);
    for c in [&mut ann, &mut bob] {
        let queued = c
            .request(ClientMsg::Queue {
                config: config.clone(),
                bots: false,
            })
            .await;
        assert!(matches!(queued, Ok(ServerMsg::Queued { .. })), "{queued:?}");
    }
    let table = matched(&mut ann).await;
    matched(&mut bob).await;
    let snap = snapshot_of(&mut ann, &table).await;
    let ann_seat = snap.seat.unwrap();
    let (black, white) = if snap.snapshot.black == ann_seat {
        (&mut ann, &mut bob)
    } else {
        (&mut bob, &mut ann)
    };
    for (b, w) in ["H8", "H9", "H10", "H11"]
        .iter()
        .zip(["A1", "A3", "A5", "A7"])
    {
        act(black, &table, place(b)).await;
        act(white, &table, place(w)).await;
    }
    act(black, &table, place("H12")).await;
    game_over(black).await;
    let rated = [
        r#"rule_set="renju""#,
        r#"opening="free""#,
        r#"rated="true""#,
    ];
    let won = [rated.as_slice(), &[r#"result="black""#, r#"reason="five""#]].concat();
    let page = page_when(&server, "tengen_games_finished_total", &won, 1.0).await;
    assert_eq!(sum(&page, "tengen_games_started_total", &rated), 1.0);
    assert_eq!(sum(&page, "tengen_games_started_total", &[]), 2.0);
    assert_eq!(sum(&page, "tengen_games_finished_total", &[]), 2.0);
    assert_eq!(
        sum(
            &page,
            "tengen_rated_queue_wait_seconds_count",
            &[r#"family="renju""#]
        ),
        2.0
    );
    assert_eq!(
        sum(&page, "tengen_rated_queue_waiting", &[r#"family="renju""#]),
        0.0
    );
    assert!(sum(&page, "tengen_move_handling_seconds_count", &[]) >= moves_before + 13.0);
    assert_eq!(sum(&page, "tengen_claims_total", &[]), 0.0);
    assert_eq!(
        sum(&page, "tengen_node_info", &[r#"node="metrics-one""#]),
        1.0
    );
    // Both games are over: nobody is playing, though the tables stay a
    // while.
    assert_eq!(sum(&page, "tengen_players_in_game", &[]), 0.0);

    // Prometheus's own reading of the page: the format, and its naming
    // conventions (units, `_total`).
    let text = scrape(&server).await;
    let (ok, out) = promtool(&["check", "metrics"], Some(&text));
    assert!(ok, "promtool check metrics:\n{out}");
    assert!(
        out.trim().is_empty(),
        "promtool check metrics complains:\n{out}"
    );
}

#[test]
fn alert_rules_pass_promtool_check_and_their_unit_tests() {
    let (ok, out) = promtool(&["check", "rules", "alerts.yml"], None);
    assert!(ok && out.contains("SUCCESS"), "{out}");
    let (ok, out) = promtool(&["test", "rules", "alerts_test.yml"], None);
    assert!(ok && out.contains("SUCCESS"), "{out}");
}

/// The metric names a PromQL expression reads: identifiers outside label
/// matchers, strings and `by (...)` lists that are neither functions nor
/// keywords nor durations.
fn metric_names(expr: &str) -> BTreeSet<String> {
    const KEYWORDS: [&str; 12] = [
        "by",
        "without",
        "on",
        "ignoring",
        "group_left",
        "group_right",
        "offset",
        "bool",
        "and",
        "or",
        "unless",
        "inf",
    ];
    let mut out = BTreeSet::new();
    let chars: Vec<char> = expr.chars().collect();
    let (mut i, mut depth_braces) = (0, 0);
    let mut after_grouping = false;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '{' => depth_braces += 1,
            '}' => depth_braces -= 1,
            '"' => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    i += 1;
                }
            }
            '[' => {
                while i < chars.len() && chars[i] != ']' {
                    i += 1;
                }
            }
            '(' if after_grouping => {
                while i < chars.len() && chars[i] != ')' {
                    i += 1;
                }
                after_grouping = false;
            }
            '$' => {
                // A Grafana variable.
                i += 1;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                continue;
            }
            c if (c.is_ascii_alphabetic() || c == '_' || c == ':') && depth_braces == 0 => {
                let start = i;
                while i < chars.len()
                    && (chars[i].is_ascii_alphanumeric() || chars[i] == '_' || chars[i] == ':')
                {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                let rest: String = chars[i..].iter().collect();
                let rest = rest.trim_start();
                // An aggregation's operator (`sum by (le) (...)`), a
                // function, or a keyword: not a metric.
                let operator = ["by ", "by(", "without ", "without("]
                    .iter()
                    .any(|k| rest.starts_with(k));
                let next = rest.chars().next();
                if operator {
                } else if word == "by" || word == "without" || word == "on" || word == "ignoring" {
                    after_grouping = true;
                } else if next != Some('(') && !KEYWORDS.contains(&word.as_str()) {
                    out.insert(word);
                }
                continue;
            }
            c if c.is_ascii_digit() => {
                // A number or a duration (`5m`, `1e3`).
                while i < chars.len() && chars[i].is_ascii_alphanumeric() {
                    i += 1;
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

#[test]
fn metric_names_are_found_in_expressions() {
    let e = r#"histogram_quantile(0.99, sum by (instance, le) (rate(tengen_x_bucket{instance=~"$instance", le!="1"}[$__rate_interval]))) > 0.1 unless count(up offset 1h) by (node)"#;
    let names: Vec<String> = metric_names(e).into_iter().collect();
    assert_eq!(names, ["tengen_x_bucket", "up"]);
}

/// The names declared in `server/src/metrics.rs`.
fn declared() -> BTreeSet<String> {
    let src = std::fs::read_to_string(repo().join("server/src/metrics.rs")).unwrap();
    src.lines()
        .filter_map(|l| l.strip_prefix("pub const "))
        .filter_map(|l| l.split_once(": &str = \""))
        .map(|(_, rest)| rest.trim_end_matches("\";").to_owned())
        .collect()
}

/// Every name the page exports: each family's name, and a histogram's
/// `_bucket`, `_sum` and `_count`.
fn exported(page: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in page.lines() {
        let Some(rest) = line.strip_prefix("# TYPE ") else {
            continue;
        };
        let (name, kind) = rest.split_once(' ').unwrap();
        out.insert(name.to_owned());
        if kind == "histogram" || kind == "summary" {
            for suffix in ["_bucket", "_sum", "_count"] {
                out.insert(format!("{name}{suffix}"));
            }
        }
    }
    out
}

/// The dashboard and the alerts ask only for series the server exports
/// (on a live page, or declared in `metrics.rs` for the families that
/// appear with their first sample), or Prometheus's own `up`. The
/// dashboard is importable: Grafana's schema version, a `DS_PROMETHEUS`
/// input used by every panel, targets with an `expr`; and each expr is
/// PromQL that `promtool` parses (as a recording rule).
#[tokio::test]
async fn the_dashboard_and_the_alerts_ask_for_exported_series_only() {
    let server = server().await;
    // Some traffic, so that the move histograms have a sample.
    let mut t = table(&server, GameConfig::new(RuleSet::Freestyle), Encoding::Json).await;
    t.act_as(t.opener(), place("H8")).await;
    let mut known = exported(&scrape(&server).await);
    for name in declared() {
        for suffix in ["", "_bucket", "_sum", "_count"] {
            known.insert(format!("{name}{suffix}"));
        }
    }
    known.insert("up".to_owned());

    let path = repo().join("deploy/grafana/tengen.json");
    let dash: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert!(dash["schemaVersion"].as_u64().unwrap() >= 36);
    assert_eq!(dash["__inputs"][0]["name"], "DS_PROMETHEUS");
    assert_eq!(dash["__inputs"][0]["pluginId"], "prometheus");
    let mut exprs = Vec::new();
    let mut titles = BTreeSet::new();
    for panel in dash["panels"].as_array().unwrap() {
        if panel["type"] == "row" {
            continue;
        }
        let title = panel["title"].as_str().unwrap();
        assert!(titles.insert(title), "two panels named {title}");
        assert_eq!(panel["datasource"]["uid"], "${DS_PROMETHEUS}", "{title}");
        let targets = panel["targets"].as_array().unwrap();
        assert!(!targets.is_empty(), "{title} has no query");
        for target in targets {
            let expr = target["expr"].as_str().unwrap();
            exprs.push((format!("dashboard panel {title}"), expr.to_owned()));
        }
    }
    let alerts = std::fs::read_to_string(repo().join("deploy/prometheus/alerts.yml")).unwrap();
    let docs = yaml_rust2::YamlLoader::load_from_str(&alerts).unwrap();
    for group in docs[0]["groups"].as_vec().unwrap() {
        for rule in group["rules"].as_vec().unwrap() {
            let name = rule["alert"].as_str().unwrap();
            exprs.push((
                format!("alert {name}"),
                rule["expr"].as_str().unwrap().into(),
            ));
        }
    }
    assert!(exprs.len() > 20, "{exprs:?}");
    let mut used = BTreeSet::new();
    for (place, expr) in &exprs {
        let names = metric_names(expr);
        assert!(!names.is_empty(), "{place}: no metric in {expr}");
        for name in names {
            assert!(
                known.contains(&name),
                "{place} asks for {name}, which the server does not export"
            );
            used.insert(name);
        }
    }
    // The game-level families are all on the dashboard.
    for family in [
        "tengen_games_started_total",
        "tengen_games_finished_total",
        "tengen_rated_queue_waiting",
        "tengen_rated_queue_wait_seconds_bucket",
        "tengen_players_in_game",
        "tengen_spectators",
        "tengen_store_call_seconds_bucket",
        "tengen_store_errors_total",
        "tengen_shed_total",
        "tengen_rate_limited_total",
        "tengen_move_handling_seconds_bucket",
        "tengen_move_durable_seconds_bucket",
        "tengen_node_info",
    ] {
        assert!(used.contains(family), "nothing shows {family}");
    }

    // promtool parses each dashboard expression, Grafana's variables
    // given values.
    let mut rules = String::from("groups:\n  - name: dashboard\n    rules:\n");
    for (i, (_, expr)) in exprs.iter().enumerate() {
        let expr = expr
            .replace("$__rate_interval", "5m")
            .replace("$instance", ".*");
        rules += &format!(
            "      - record: dashboard:expr{i}\n        expr: {}\n",
            serde_json::to_string(&expr).unwrap()
        );
    }
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), rules).unwrap();
    let (ok, out) = promtool(&["check", "rules", file.path().to_str().unwrap()], None);
    assert!(ok, "{out}");
}

/// A player's grace that runs out is an abandonment, and the opponent's
/// claim of the win counts as an absence claim and finishes the game as
/// an abandonment.
#[tokio::test]
async fn an_abandonment_and_its_claim_are_counted() {
    let grace = Duration::from_millis(300);
    let server = server_with(|s| {
        s.abandon_grace_min = grace;
        s.abandon_grace_max = grace;
    })
    .await;
    let config =
        GameConfig::free(RuleSet::Gomoku).with_time(TimeControl::SuddenDeath { main_ms: 120_000 });
    let mut t = table(&server, config, Encoding::Json).await;
    let black = t.opener();
    t.act_as(black, place("H8")).await;
    t.act_as(black.other(), place("A1")).await;
    let table = t.table.clone();
    // Black, to move, closes its tab.
    let dead = Connection::open(&url(&server), Encoding::Json)
        .await
        .unwrap();
    drop(std::mem::replace(t.conn(black), dead));
    let page = page_when(&server, "tengen_abandonments_total", &[], 1.0).await;
    assert_eq!(sum(&page, "tengen_abandonments_total", &[]), 1.0);
    assert_eq!(sum(&page, "tengen_claims_total", &[]), 0.0);
    let claimed = t
        .conn(black.other())
        .request(ClientMsg::ClaimAbsence { table, draw: false })
        .await;
    assert!(claimed.is_ok(), "{claimed:?}");
    let labels = [
        r#"rule_set="gomoku""#,
        r#"opening="free""#,
        r#"result="white""#,
        r#"reason="abandonment""#,
    ];
    let page = page_when(&server, "tengen_games_finished_total", &labels, 1.0).await;
    assert_eq!(
        sum(&page, "tengen_claims_total", &[r#"kind="absence_win""#]),
        1.0
    );
    assert_eq!(sum(&page, "tengen_abandonments_total", &[]), 1.0);
}

/// White's claims of a forbidden stone: one upheld (a double-three at
/// J10, which ends the game), one false (J10 is no double-three when
/// black's ninth stone is K12 instead), each counted under its kind.
#[tokio::test]
async fn forbidden_claims_are_counted_upheld_or_false() {
    const DOUBLE_THREE_AT_J10: [&str; 10] = [
        "H8", "A1", "H10", "A3", "I10", "A5", "J11", "A7", "J12", "A9",
    ];
    let server = server().await;
    let config = GameConfig::new(RuleSet::Renju).with_forbidden(ForbiddenHandling::Claim);
    let mut control = DOUBLE_THREE_AT_J10;
    control[8] = "K12";
    for (moves, kind) in [
        (DOUBLE_THREE_AT_J10, "forbidden_upheld"),
        (control, "forbidden_false"),
    ] {
        let mut t = table(&server, config.clone(), Encoding::Json).await;
        let black = t.opener();
        for (i, p) in moves.iter().enumerate() {
            let seat = if i % 2 == 0 { black } else { black.other() };
            t.act_as(seat, place(p)).await;
        }
        t.act_as(black, place("J10")).await;
        t.act_as(black.other(), Action::claim("J10".parse().unwrap()))
            .await;
        let label = format!(r#"kind="{kind}""#);
        page_when(&server, "tengen_claims_total", &[&label], 1.0).await;
    }
    let page = samples(&scrape(&server).await);
    assert_eq!(sum(&page, "tengen_claims_total", &[]), 2.0);
    let upheld = [r#"reason="forbidden_claimed""#, r#"result="white""#];
    assert_eq!(sum(&page, "tengen_games_finished_total", &upheld), 1.0);
}

/// The dashboard is a Grafana dashboard by Grafana's own schema: its JSON
/// (less the import's `__inputs` and `__requires`) type-checks as
/// `@grafana/schema`'s `Dashboard`.
#[test]
fn the_dashboard_fits_grafanas_schema() {
    let root = repo();
    let schema = root.join("target/grafana-schema");
    let tsc = root.join("web/node_modules/typescript/bin/tsc");
    assert!(
        schema.join("node_modules/@grafana/schema").exists() && tsc.exists(),
        "no Grafana schema at {} or no TypeScript at {}: run scripts/test, or by hand \
         (mkdir -p target/grafana-schema && cp server/tests/grafana/package*.json \
         target/grafana-schema && cd target/grafana-schema && npm ci; cd web && npm ci)",
        schema.display(),
        tsc.display()
    );
    let text = std::fs::read_to_string(root.join("deploy/grafana/tengen.json")).unwrap();
    let mut dash: serde_json::Value = serde_json::from_str(&text).unwrap();
    let map = dash.as_object_mut().unwrap();
    map.remove("__inputs");
    map.remove("__requires");
    let literal = serde_json::to_string_pretty(&dash)
        .unwrap()
        .replace(": null", ": undefined");
    let check = schema.join(format!("dashboard-{}.ts", std::process::id()));
    let source = format!(
        "import type {{ Dashboard }} from '@grafana/schema';\n\
         const dashboard: Dashboard = {literal};\nexport default dashboard;\n"
    );
    std::fs::write(&check, source).unwrap();
    let out = Command::new("node")
        .arg(&tsc)
        .args(["--noEmit", "--strict", "--moduleResolution", "node"])
        .arg(&check)
        .output()
        .expect("node");
    let _ = std::fs::remove_file(&check);
    assert!(
        out.status.success(),
        "tengen.json is not a Grafana dashboard:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
