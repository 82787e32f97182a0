//! Every link and every repository path in the project's documents
//! resolves: a Markdown link to a file of the repository (and the heading
//! its `#anchor` names), and a path written as code (`server/src/http.rs`)
//! to a file or folder that exists. Documents are every `*.md` outside
//! build output and installed packages.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

/// The repository's top-level folders and files: a code span is taken for
/// a path only when it starts with one of them (or with a folder next to
/// the document), so `P:{t:ID}:meta` or `DATA_DIR/admin.sock` are not.
fn top_level(root: &Path) -> HashSet<String> {
    std::fs::read_dir(root)
        .expect("reads the root")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.') && n != "target")
        .collect()
}

fn documents(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("reads a folder").flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if name.starts_with('.') || name == "target" || name == "node_modules" {
                continue;
            }
            documents(&path, out);
        } else if name.ends_with(".md") {
            out.push(path);
        }
    }
}

/// GitHub's anchor for a heading: lower case, punctuation dropped (but
/// `-` and `_`), spaces to `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> HashSet<String> {
    let mut seen: HashSet<String> = HashSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let base = slug(line.trim_start_matches('#'));
        let mut anchor = base.clone();
        let mut n = 1;
        while seen.contains(&anchor) {
            anchor = format!("{base}-{n}");
            n += 1;
        }
        seen.insert(anchor);
    }
    seen
}

/// The text outside fenced code blocks (commands and output are not
/// links), line by line with the line's number.
fn prose(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push((i + 1, line));
        }
    }
    out
}

fn links(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        let end = after.find(')').unwrap_or(after.len());
        out.push(after[..end].trim());
        rest = &after[end..];
    }
    out
}

fn code_spans(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

fn looks_like_path(span: &str) -> bool {
    span.contains('/')
        && !span.contains(' ')
        && !span.contains("://")
        && !span.starts_with('/')
        && !span.starts_with('-')
        && span
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-/".contains(c))
}

#[test]
fn every_link_and_path_in_the_documents_resolves() {
    let root = root();
    let tops = top_level(&root);
    let mut docs = Vec::new();
    documents(&root, &mut docs);
    assert!(docs.len() > 10, "found the documents: {docs:?}");
    let mut broken = Vec::new();
    for doc in &docs {
        let text = std::fs::read_to_string(doc).expect("reads a document");
        let dir = doc.parent().expect("a folder");
        let shown = doc.strip_prefix(&root).unwrap_or(doc).display().to_string();
        for (n, line) in prose(&text) {
            for link in links(line) {
                if link.starts_with("http://")
                    || link.starts_with("https://")
                    || link.starts_with("mailto:")
                {
                    continue;
                }
                let (file, anchor) = match link.split_once('#') {
                    Some((f, a)) => (f, Some(a)),
                    None => (link, None),
                };
                let target = if file.is_empty() {
                    doc.clone()
                } else {
                    dir.join(file)
                };
                if !target.exists() {
                    broken.push(format!("{shown}:{n}: link to a missing file: {link}"));
                    continue;
                }
                if let Some(anchor) = anchor
                    && target.extension().is_some_and(|e| e == "md")
                {
                    let their = std::fs::read_to_string(&target).expect("reads the target");
                    if !anchors(&their).contains(anchor) {
                        broken.push(format!("{shown}:{n}: no heading for #{anchor} in {file}"));
                    }
                }
            }
            for span in code_spans(line) {
                if !looks_like_path(span) {
                    continue;
                }
                let path = span.trim_start_matches("./").trim_end_matches('/');
                // `corpus/TARGET/`: a placeholder, not a path.
                let placeholder = path.split('/').any(|seg| {
                    seg.len() > 1 && seg.chars().all(|c| c.is_ascii_uppercase() || c == '_')
                });
                if placeholder {
                    continue;
                }
                let first = path.split('/').next().unwrap_or("");
                let near = dir.join(first).exists();
                if !tops.contains(first) && !near {
                    continue;
                }
                // A crate's document may name its own files relative to
                // the crate (`tests/it/online.rs` in client-cli/README.md).
                let found = dir.join(path).exists() || root.join(path).exists();
                if !found {
                    broken.push(format!("{shown}:{n}: no such path: {span}"));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "{} broken links or paths:\n{}",
        broken.len(),
        broken.join("\n")
    );
}

#[test]
fn anchors_follow_the_headings_as_github_makes_them() {
    let text = "# Tengen\n## `tengen engine`: the bridge's policies\n## Swiss (Dutch system)\n## Swiss (Dutch system)\n```\n# not a heading\n```\n";
    let a = anchors(text);
    assert!(a.contains("tengen-engine-the-bridges-policies"), "{a:?}");
    assert!(a.contains("swiss-dutch-system"));
    assert!(a.contains("swiss-dutch-system-1"));
    assert!(!a.contains("not-a-heading"));
}
