//! The documents' offline examples, run: every code block of the READMEs
//! and docs/ whose `$ ` lines are all `tengen analyze`, `tengen replay` (or
//! `echo $?`) is run in a shell with this build as `tengen`, and what it
//! prints must be what the block shows (a `...` line stands for any lines).
//! That every command the documents show parses is the binary's own unit
//! test (`src/readme_tests.rs`); the engine lines are run by `rapfi.rs`.

use crate::common::BIN;

use std::path::{Path, PathBuf};
use std::process::Command;

fn documents() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut docs = vec![root.join("README.md"), root.join("client-cli/README.md")];
    for e in std::fs::read_dir(root.join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            docs.push(p);
        }
    }
    docs
}

/// One `$ ` line and the lines the block shows after it.
struct Step {
    line: usize,
    command: String,
    shows: Vec<String>,
}

/// The code blocks of `text` that hold `$ ` lines, as steps.
fn transcripts(text: &str) -> Vec<Vec<Step>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<Step>> = None;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            match current.take() {
                Some(steps) if !steps.is_empty() => blocks.push(steps),
                Some(_) => {}
                None => current = Some(Vec::new()),
            }
            continue;
        }
        let Some(steps) = current.as_mut() else {
            continue;
        };
        match line.strip_prefix("$ ") {
            Some(cmd) => steps.push(Step {
                line: i + 1,
                command: cmd.to_string(),
                shows: Vec::new(),
            }),
            None => {
                if let Some(last) = steps.last_mut() {
                    last.shows.push(line.trim_end().to_string());
                }
            }
        }
    }
    blocks
}

/// Whether the block runs here: only the offline commands.
fn offline(steps: &[Step]) -> bool {
    steps.iter().all(|s| {
        s.command == "echo $?"
            || s.command.contains("tengen analyze")
            || s.command.contains("tengen replay")
    })
}

/// Whether `got` is what `shows` shows, `...` standing for any lines.
fn matches(shows: &[String], got: &[String]) -> bool {
    match shows.split_first() {
        None => got.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=got.len()).any(|k| matches(rest, &got[k..]))
        }
        Some((first, rest)) => {
            got.first()
                .is_some_and(|g| g.trim_end() == first.trim_end())
                && matches(rest, &got[1..])
        }
    }
}

#[test]
fn the_offline_examples_print_what_the_documents_show() {
    // `tengen` on the PATH is this build.
    let bin = tempfile::TempDir::new().unwrap();
    std::os::unix::fs::symlink(BIN, bin.path().join("tengen")).unwrap();
    let path = format!(
        "{}:{}",
        bin.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    let mut failures = Vec::new();
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        for steps in transcripts(&text).into_iter().filter(|s| offline(s)) {
            let mut last_status = 0;
            for step in &steps {
                let got: Vec<String> = if step.command == "echo $?" {
                    vec![last_status.to_string()]
                } else {
                    let out = Command::new("sh")
                        .args(["-c", &step.command])
                        .env("PATH", &path)
                        .output()
                        .unwrap();
                    last_status = out.status.code().unwrap_or(-1);
                    String::from_utf8_lossy(&out.stdout)
                        .lines()
                        .map(|l| l.trim_end().to_string())
                        .collect()
                };
                ran += 1;
                if !matches(&step.shows, &got) {
                    failures.push(format!(
                        "{}:{}: $ {}\nshows:\n{}\nprints:\n{}",
                        doc.display(),
                        step.line,
                        step.command,
                        step.shows.join("\n"),
                        got.join("\n")
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(ran >= 8, "only {ran} examples found");
}
