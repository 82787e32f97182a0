//! The protocol guide is enough to write a client:
//! `protocol/examples/readme_client.py`, a Python client written from
//! `protocol/README.md` alone with the standard library only (its own
//! WebSocket framing over `socket`), plays a whole RIF game with a
//! spectator against the real server binary.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// Kills the server however the test ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_python_client_written_from_the_readme_plays_a_rif_game() {
    let python = Command::new("python3").arg("--version").output();
    assert!(
        python.as_ref().is_ok_and(|o| o.status.success()),
        "python3 is needed to run the README client test: {python:?}"
    );

    let dir = std::env::temp_dir().join(format!("tengen-pyclient-{}", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen-server"))
        .args(["--listen", "127.0.0.1:0", "--data-dir"])
        .arg(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let stdout = child.stdout.take().unwrap();
    let server = Server(child);
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).unwrap();
    let addr = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("first line: {line:?}"))
        .to_string();

    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../protocol/examples/readme_client.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg(format!("ws://{addr}/ws"))
        .output()
        .expect("python3 runs");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);

    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the Python client failed ({}):\nstdout: {stdout}\nstderr: {stderr}",
        out.status
    );
    let summary = stdout
        .lines()
        .find(|l| l.starts_with("python client: game over after "))
        .unwrap_or_else(|| panic!("no summary line:\nstdout: {stdout}\nstderr: {stderr}"));
    assert!(summary.contains(" events: "), "{summary}");
    assert!(summary.contains(" wins by five "), "{summary}");
    eprintln!("{summary}\n{stderr}");
}
