//! The binary as a newcomer runs it: `tengen-server --listen 127.0.0.1:0`
//! prints the address it bound, serves /healthz, and stops on SIGTERM.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};

#[test]
fn prints_its_address_serves_and_stops_on_sigterm() {
    let dir = std::env::temp_dir().join(format!("tengen-bin-{}", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen-server"))
        .args(["--listen", "127.0.0.1:0", "--data-dir"])
        .arg(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("first line: {line:?}"))
        .to_string();
    let mut s = std::net::TcpStream::connect(&addr).unwrap();
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    assert!(
        out.starts_with("HTTP/1.1 200") && out.ends_with("ok"),
        "{out}"
    );
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}
