//! What the tests that run a real `tengen-server` binary share.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;

/// The `tengen-server` binary: `$TENGEN_SERVER_BIN`, else built here
/// (cargo builds a dependency's library for a test, not its binary) into
/// the same target directory and profile as this crate's binary.
/// `scripts/test` sets the variable to the binary its workspace build
/// made: a build of the one package here would resolve features without
/// the workspace's dev-dependencies and compile much of it again.
pub fn server_binary() -> PathBuf {
    if let Some(p) = std::env::var_os("TENGEN_SERVER_BIN") {
        return PathBuf::from(p);
    }
    let ours = Path::new(env!("CARGO_BIN_EXE_tengen-loadtest"));
    let profile_dir = ours.parent().expect("the binary's directory");
    let target_dir = profile_dir.parent().expect("the target directory");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    // Without the variables cargo set for this test (CARGO_PKG_*, OUT_DIR,
    // ...): build scripts that watch them would otherwise see a change and
    // make this build and the next `cargo test` rebuild each other's crates.
    for (k, _) in std::env::vars_os() {
        let k = k.to_string_lossy();
        let keep = ["CARGO_HOME", "CARGO_INCREMENTAL", "CARGO_NET_OFFLINE"];
        if (k.starts_with("CARGO_") && !keep.contains(&k.as_ref()))
            || k == "OUT_DIR"
            || k.starts_with("__CARGO")
        {
            cmd.env_remove(k.as_ref());
        }
    }
    cmd.args([
        "build",
        "-q",
        "-p",
        "tengen-server",
        "--bin",
        "tengen-server",
        "--locked",
    ])
    .arg("--target-dir")
    .arg(target_dir)
    .current_dir(env!("CARGO_MANIFEST_DIR"));
    if profile_dir.file_name().is_some_and(|n| n == "release") {
        cmd.arg("--release");
    }
    let status = cmd.status().expect("cargo runs");
    assert!(status.success(), "building tengen-server: {status}");
    let bin = profile_dir.join("tengen-server");
    assert!(bin.is_file(), "no {}", bin.display());
    bin
}

/// A `tengen-server` process started on `data_dir` with `args` after
/// `--listen ADDR --data-dir DIR`.
pub struct Started {
    pub child: Child,
    /// `HOST:PORT`, as the server printed it.
    pub addr: String,
    /// What it logs, once it has exited.
    pub stderr: JoinHandle<String>,
}

/// Starts `bin` and waits for its `listening on ADDR` line; panics with
/// what it logged if it does not start.
pub fn start_server(bin: &Path, data_dir: &Path, args: &[&str]) -> Started {
    start_server_on(bin, "127.0.0.1:0", data_dir, args)
}

/// [`start_server`] listening on `listen` (a restart on the address the
/// server had).
pub fn start_server_on(bin: &Path, listen: &str, data_dir: &Path, args: &[&str]) -> Started {
    let mut child = Command::new(bin)
        .args(["--listen", listen, "--data-dir"])
        .arg(data_dir)
        .args(args)
        .env("TENGEN_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tengen-server runs");
    let mut err = child.stderr.take().unwrap();
    let stderr = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let Some(addr) = line.trim().strip_prefix("listening on ") else {
        let _ = child.kill();
        panic!("the server did not start: {}", stderr.join().unwrap());
    };
    Started {
        addr: addr.to_owned(),
        child,
        stderr,
    }
}
