//! Every `tengen` command line the documents show (README.md,
//! client-cli/README.md, docs/*.md: the lines of their code blocks) is
//! read by the real command line, so a document cannot show a command
//! that does not parse. Running them is `tests/it/readme.rs`'s (the
//! offline examples, output and all) and `tests/it/rapfi.rs`'s (the
//! engine lines).

use std::path::{Path, PathBuf};

use clap::Parser;

use crate::Cli;

/// The documents that show `tengen` commands: the two READMEs and every
/// page under docs/.
fn documents() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut docs = vec![root.join("README.md"), root.join("client-cli/README.md")];
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.expect("a docs entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    docs.extend(pages);
    docs
}

/// A shell line's words, quotes removed (`'...'`, `"..."`), a `$(...)`
/// standing as one word.
pub(crate) fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = line.chars().peekable();
    let mut any = false;
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                any = true;
                for d in chars.by_ref() {
                    if d == c {
                        break;
                    }
                    cur.push(d);
                }
            }
            '$' if chars.peek() == Some(&'(') => {
                any = true;
                let mut depth = 0;
                for d in chars.by_ref() {
                    cur.push(d);
                    match d {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
            }
            c if c.is_whitespace() => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The `tengen` commands of a code line: after a `$ ` prompt, after
/// `VAR=value` assignments, in each part of a pipe or `&&`, without a
/// trailing comment or redirection; each as its words after `tengen`.
pub(crate) fn commands(line: &str) -> Vec<Vec<String>> {
    let line = line.trim().trim_start_matches("$ ");
    let line = match line.find(" # ") {
        Some(i) => &line[..i],
        None if line.starts_with('#') => "",
        None => line,
    };
    let mut out = Vec::new();
    for part in line.split("&&").flat_map(|p| p.split('|')) {
        let mut w = words(part);
        while w
            .first()
            .is_some_and(|x| x.contains('=') && !x.starts_with('-'))
        {
            w.remove(0);
        }
        if w.first().map(String::as_str) != Some("tengen") {
            continue;
        }
        let end = w
            .iter()
            .position(|x| matches!(x.as_str(), ">" | ">>" | "&" | "2>" | "<"))
            .unwrap_or(w.len());
        out.push(w[1..end].to_vec());
    }
    out
}

/// Every `tengen` command in the code blocks of `text`, with its line.
pub(crate) fn shown(text: &str) -> Vec<(usize, Vec<String>)> {
    let mut out = Vec::new();
    let mut in_block = false;
    let mut pending = String::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if !in_block {
            continue;
        }
        // A line continued with a backslash.
        if let Some(head) = line.strip_suffix('\\') {
            pending.push_str(head);
            continue;
        }
        let full = std::mem::take(&mut pending) + line;
        for c in commands(&full) {
            out.push((i + 1, c));
        }
    }
    out
}

#[test]
fn every_command_the_documents_show_parses() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).expect("a document");
        for (line, args) in shown(&text) {
            checked += 1;
            let argv = std::iter::once("tengen".to_string()).chain(args.iter().cloned());
            if let Err(e) = Cli::try_parse_from(argv) {
                failures.push(format!(
                    "{}:{line}: tengen {}\n{}",
                    doc.display(),
                    args.join(" "),
                    e.render()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The READMEs show a few dozen (a bad extraction finds none).
    assert!(checked >= 40, "only {checked} commands found");
}

#[test]
fn shell_lines_are_read_as_the_shell_would() {
    assert_eq!(
        commands("TENGEN_CONFIG_DIR=~/.config/tengen-bot tengen bot --queue   # the bot"),
        [["bot", "--queue"]]
    );
    assert_eq!(
        commands(r#"$ printf 'a;\n' | tengen analyze --moves "h8 h9""#),
        [["analyze", "--moves", "h8 h9"]]
    );
    assert_eq!(
        commands("tengen record X -o game.json && tengen replay game.json"),
        [
            vec!["record", "X", "-o", "game.json"],
            vec!["replay", "game.json"]
        ]
    );
    assert_eq!(
        commands("tengen tournament export X --trf > friday.trf"),
        [["tournament", "export", "X", "--trf"]]
    );
    assert_eq!(
        commands(r#"tengen tournament create "Friday Swiss" renju 10+5"#),
        [["tournament", "create", "Friday Swiss", "renju", "10+5"]]
    );
    assert!(commands("tengen-server --data-dir x").is_empty());
    assert!(commands("# tengen bot").is_empty());
    // A command that does not parse is caught.
    let bad = commands("tengen queue freestyle # no time control");
    let argv = std::iter::once("tengen".to_string()).chain(bad[0].iter().cloned());
    assert!(Cli::try_parse_from(argv).is_err());
}
