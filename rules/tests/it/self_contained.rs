//! The repository stands on its own: no tracked file may point at material
//! that only exists beside a developer's checkout — the rules specification
//! and design notes that once lived in a sibling folder, the Chinese source
//! documents by their file names — or at internal issue numbers. The rules
//! are `docs/rules.md` (citing the documents by title and article) and the
//! design intent is in `ARCHITECTURE.md`.
//!
//! Every needle below is assembled from pieces at run time, so this file
//! passes its own scan without being exempt from it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Joins pieces into one string (keeps the needles out of this file's text).
fn j(pieces: &[&str]) -> String {
    pieces.concat()
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether `hay[at..]` is preceded by a word character.
fn after_word(hay: &str, at: usize) -> bool {
    hay[..at].chars().next_back().is_some_and(is_word_char)
}

/// Byte offsets of every occurrence of `needle` in `hay`.
fn occurrences<'a>(hay: &'a str, needle: &'a str) -> impl Iterator<Item = usize> + 'a {
    hay.match_indices(needle).map(|(i, _)| i)
}

/// The word "issue" or "issues" (any case), blanks, an optional `#`, a digit.
fn issue_number(line: &str) -> bool {
    let lower = line.to_lowercase();
    occurrences(&lower, "issue").any(|at| {
        if after_word(&lower, at) {
            return false;
        }
        let rest = &lower[at + "issue".len()..];
        let rest = rest.strip_prefix('s').unwrap_or(rest);
        let trimmed = rest.trim_start_matches([' ', '\t']);
        if trimmed.len() == rest.len() {
            return false; // no blank after the word
        }
        let trimmed = trimmed.strip_prefix('#').unwrap_or(trimmed);
        trimmed.starts_with(|c: char| c.is_ascii_digit())
    })
}

/// An opening parenthesis, `#`, digits, a closing parenthesis.
fn hash_reference(line: &str) -> bool {
    occurrences(line, "(#").any(|at| {
        let rest = &line[at + 2..];
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        digits > 0 && rest[digits..].starts_with(')')
    })
}

/// A source document's file name: `00N_` (N from 0 to 4), hex digits, `.txt`.
fn source_file_name(line: &str) -> bool {
    (0..=4).any(|n| {
        let prefix = format!("00{n}_");
        occurrences(line, &prefix).any(|at| {
            if after_word(line, at) {
                return false;
            }
            let rest = &line[at + prefix.len()..];
            let hex = rest.chars().take_while(char::is_ascii_hexdigit).count();
            hex > 0 && rest[hex..].starts_with(".txt")
        })
    })
}

/// Whether `s` starts with `00N` (N from 0 to 4) and no further digit.
fn document_number(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 3
        && b[0] == b'0'
        && b[1] == b'0'
        && (b'0'..=b'4').contains(&b[2])
        && !b.get(3).is_some_and(u8::is_ascii_digit)
}

/// The old ways of citing a source document by its number: "seed" or
/// "seeds" and a blank before `00N` (N from 0 to 4), `[00N`, or `00N art`.
fn seed_citation(line: &str) -> bool {
    let lower = line.to_lowercase();
    let after_seed = occurrences(&lower, "seed").any(|at| {
        let rest = &lower[at + "seed".len()..];
        let rest = rest.strip_prefix('s').unwrap_or(rest);
        rest.strip_prefix(' ').is_some_and(document_number)
    });
    let bracketed = occurrences(&lower, "[").any(|at| document_number(&lower[at + 1..]));
    let article = occurrences(&lower, "00").any(|at| {
        !after_word(&lower, at)
            && document_number(&lower[at..])
            && lower[at + 3..].starts_with(" art")
    });
    after_seed || bracketed || article
}

/// What is wrong with `line`, if anything.
fn offence(line: &str) -> Option<&'static str> {
    let outside = j(&["..", "/shared"]);
    let spec = j(&["RULES", ".md"]);
    let design = j(&["DESIGN", ".md"]);
    if line.contains(&outside) {
        Some("a path outside the repository")
    } else if line.contains(&spec) {
        Some("the old rules specification (cite docs/rules.md)")
    } else if line.contains(&design) {
        Some("the old design notes (cite ARCHITECTURE.md)")
    } else if source_file_name(line) {
        Some("a source document's file name (cite its title, see docs/rules.md)")
    } else if seed_citation(line) {
        Some("a source document by number (cite its title, see docs/rules.md)")
    } else if issue_number(line) || hash_reference(line) {
        Some("an internal issue number (name the feature instead)")
    } else {
        None
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the rules crate sits in the workspace")
        .to_path_buf()
}

/// The tracked files (`git ls-files`), or, outside a git checkout (an
/// unpacked source archive), every file but `target/` and `.git/`.
fn files(root: &Path) -> Vec<PathBuf> {
    let listed = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output()
        .ok()
        .filter(|o| o.status.success() && !o.stdout.is_empty());
    if let Some(out) = listed {
        return String::from_utf8(out.stdout)
            .expect("file names are UTF-8")
            .split('\0')
            .filter(|p| !p.is_empty() && !p.starts_with("target/"))
            .map(PathBuf::from)
            .collect();
    }
    let mut found = Vec::new();
    let mut dirs = vec![PathBuf::new()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(root.join(&dir)).expect("readable directory") {
            let entry = entry.expect("readable entry");
            let rel = dir.join(entry.file_name());
            let kind = entry.file_type().expect("file type");
            if kind.is_dir() {
                if !matches!(entry.file_name().to_str(), Some("target" | ".git")) {
                    dirs.push(rel);
                }
            } else if kind.is_file() {
                found.push(rel);
            }
        }
    }
    found
}

/// The `## §N` headings of docs/rules.md.
fn rule_sections(text: &str) -> BTreeSet<u32> {
    text.lines()
        .filter_map(|l| l.strip_prefix("## §"))
        .map(|l| {
            let digits: String = l.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().expect("a section number")
        })
        .collect()
}

/// Every `§N` on a line (a range like `§2–3` gives both ends; in `§3–§5`
/// each end has its own `§`).
fn cited_sections(line: &str) -> Vec<u32> {
    let mut out = Vec::new();
    for (at, _) in line.match_indices('§') {
        let rest = &line[at + '§'.len_utf8()..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if let Ok(n) = digits.parse() {
            out.push(n);
            let after = &rest[digits.len()..];
            if let Some(end) = after.strip_prefix('–').or_else(|| after.strip_prefix('-')) {
                let digits: String = end.chars().take_while(char::is_ascii_digit).collect();
                if let Ok(m) = digits.parse() {
                    out.push(m);
                }
            }
        }
    }
    out
}

#[test]
fn no_tracked_file_refers_outside_the_repository() {
    let root = root();
    let files = files(&root);
    let mut scanned = 0;
    let mut seen = BTreeSet::new();
    let mut problems = Vec::new();
    for rel in &files {
        let Ok(bytes) = std::fs::read(root.join(rel)) else {
            continue; // tracked but deleted in this working tree
        };
        let Ok(text) = String::from_utf8(bytes) else {
            continue; // binary
        };
        scanned += 1;
        seen.insert(rel.to_string_lossy().replace('\\', "/"));
        for (n, line) in text.lines().enumerate() {
            if let Some(why) = offence(line) {
                problems.push(format!(
                    "{}:{}: {why}: {}",
                    rel.display(),
                    n + 1,
                    line.trim()
                ));
            }
        }
    }
    // Not vacuous: the scan saw the whole workspace, including this file.
    assert!(scanned >= 150, "only {scanned} text files scanned");
    for must in [
        "README.md",
        "ARCHITECTURE.md",
        "docs/rules.md",
        "rules/src/forbidden.rs",
        "rules/tests/it/self_contained.rs",
    ] {
        assert!(seen.contains(must), "{must} was not scanned");
    }
    assert!(
        problems.is_empty(),
        "{} reference(s) to material outside the repository:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn every_docs_rules_citation_names_an_existing_section() {
    let root = root();
    let rules = std::fs::read_to_string(root.join("docs/rules.md")).expect("docs/rules.md");
    let sections = rule_sections(&rules);
    assert_eq!(
        sections,
        (1..=9).collect::<BTreeSet<u32>>(),
        "docs/rules.md keeps §1..§9"
    );
    let mut citations = 0;
    let mut problems = Vec::new();
    for rel in files(&root) {
        let Ok(text) = std::fs::read_to_string(root.join(&rel)) else {
            continue;
        };
        let own = rel.as_path() == Path::new("docs/rules.md");
        for (n, line) in text.lines().enumerate() {
            if !own && !line.contains("docs/rules.md") {
                continue;
            }
            for s in cited_sections(line) {
                citations += 1;
                if !sections.contains(&s) {
                    problems.push(format!("{}:{}: §{s}", rel.display(), n + 1));
                }
            }
        }
    }
    assert!(citations >= 40, "only {citations} section citations found");
    assert!(
        problems.is_empty(),
        "no such section:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_matcher_catches_each_kind_of_reference() {
    let bad = [
        j(&["see ..", "/shared/RULES", ".md §6"]),
        j(&["(", "RULES", ".md §3)"]),
        j(&["by message (", "DESIGN", ".md)"]),
        j(&["`seeds/", "000", "_f860df1a37d0612c.txt`"]),
        j(&["004", "_a9fd888180a85904.txt"]),
        j(&["(see", "d 0", "00 art.3)"]),
        j(&["(See", "ds 003/004: swap)"]),
        j(&["wins (0", "00 art.10)"]),
        j(&["distilled [0", "02 fig 1.4-1.7]"]),
        j(&["Target (iss", "ue 2): median"]),
        j(&["(iss", "ue 10, `BENCHMARKS.md`)"]),
        j(&["fixed by Iss", "ues 7 and 8"]),
        j(&["see iss", "ue #12"]),
        j(&["lease support (", "#12)"]),
    ];
    for line in &bad {
        assert!(offence(line).is_some(), "missed: {line}");
    }
}

#[test]
fn the_matcher_leaves_ordinary_text_alone() {
    let good = [
        "(docs/rules.md §6, the national rules art. 2.10)",
        "//! Several server nodes sharing one Redis.",
        "shared: Arc<Shared>,",
        "let mut rng = StdRng::seed_from_u64(seed);",
        "for seed in 0..6 {",
        "`--seed N` varies its play",
        "a tissue 12 cm wide",
        "an issue with the lease, fixed in 3 places",
        "assert_eq!(x, 1_000_000);",
        "wrapping_mul(0x0100_0000_01b3)",
        "#[derive(Clone, Copy)]",
        "rules/tests/data/renju-forbidden-cases.json",
        "a1000_ab.txt",
        "[0005, 0006] and 1000 articles",
        "latency [0.000, 0.004]",
        "(#[non_exhaustive])",
        "rules.md",
    ];
    for line in good {
        assert_eq!(offence(line), None, "false alarm: {line}");
    }
}

#[test]
fn section_citations_are_read_with_their_ranges() {
    assert_eq!(cited_sections("(docs/rules.md §6)"), [6]);
    assert_eq!(cited_sections("(docs/rules.md §2–3, RIF 9.3)"), [2, 3]);
    assert_eq!(cited_sections("(docs/rules.md §3–§5, §7)"), [3, 5, 7]);
    assert_eq!(cited_sections("no section here"), Vec::<u32>::new());
    assert_eq!(
        rule_sections("# T\n## Sources\n## §1 Board\n## §12 X\n"),
        BTreeSet::from([1, 12])
    );
}
