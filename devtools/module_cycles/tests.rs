//! The checker on small module trees written to a temporary directory.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::{Cycle, Graph, crate_report, format_cycles};

/// A crate in a fresh directory: each `(path under src/, text)`.
fn write(files: &[(&str, &str)]) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("module-cycles-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let file = dir.join("src").join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    dir
}

fn graph(files: &[(&str, &str)]) -> Graph {
    let dir = write(files);
    let graph = Graph::read(&dir.join("src/lib.rs"), &dir).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    graph
}

fn cycles(files: &[(&str, &str)]) -> Vec<Vec<String>> {
    graph(files)
        .cycles()
        .into_iter()
        .map(|c| c.modules)
        .collect()
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn edge(from: &str, to: &str, at: &str) -> (String, String, String) {
    (from.into(), to.into(), at.into())
}

#[test]
fn a_child_using_super_and_a_parent_using_the_child_is_a_cycle() {
    let g = graph(&[
        ("lib.rs", "mod a;\nfn h() {}\nfn f() {\n    a::g();\n}\n"),
        ("a.rs", "pub fn g() {\n    super::h();\n}\n"),
    ]);
    assert_eq!(
        g.cycles(),
        [Cycle {
            modules: names(&["a", "crate"]),
            edges: vec![
                edge("a", "crate", "src/a.rs:2"),
                edge("crate", "a", "src/lib.rs:4")
            ],
        }]
    );
    let text = format_cycles(&g.cycles());
    assert!(text.contains("cycle 1: a, crate"), "{text}");
    assert!(text.contains("a -> crate  (src/a.rs:2)"), "{text}");
}

#[test]
fn crate_paths_there_and_back_are_a_cycle_of_the_deepest_modules() {
    let found = cycles(&[
        ("lib.rs", "mod a;\nmod c;\n"),
        ("a/mod.rs", "pub mod b;\n"),
        ("a/b.rs", "use crate::c::Y;\npub struct X;\n"),
        ("c.rs", "pub struct Y;\nfn f(_: crate::a::b::X) {}\n"),
    ]);
    assert_eq!(found, [names(&["a::b", "c"])]);
}

#[test]
fn a_parent_using_its_children_alone_is_no_cycle() {
    let g = graph(&[
        (
            "lib.rs",
            "mod a;\npub use a::X;\nmod b;\nfn f() { b::inner::g() }\n",
        ),
        ("a.rs", "pub struct X;\n"),
        ("b.rs", "pub mod inner;\n"),
        ("b/inner.rs", "pub fn g() { crate::a::X; }\n"),
    ]);
    assert!(g.cycles().is_empty());
    let edges: Vec<_> = g.edges().into_iter().map(|(a, b, _)| (a, b)).collect();
    let want = [("b::inner", "a"), ("crate", "a"), ("crate", "b::inner")];
    assert_eq!(edges, want.map(|(a, b)| (a.to_string(), b.to_string())));
}

#[test]
fn declaring_a_module_is_no_use_of_it() {
    let found = cycles(&[
        ("lib.rs", "pub mod a;\npub(crate) fn top() {}\n"),
        ("a.rs", "pub fn g() { crate::top() }\n"),
    ]);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn use_trees_with_braces_self_and_renames() {
    let g = graph(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;\n"),
        (
            "a.rs",
            "use crate::{\n    b::{self, B},\n    c::{d::{E as F}},\n};\n",
        ),
        ("b.rs", "pub struct B;\nuse super::a::{self as aa};\n"),
        (
            "c.rs",
            "pub mod d {\n    pub struct E;\n    use super::super::c::*;\n}\n",
        ),
    ]);
    let edges: Vec<_> = g
        .edges()
        .into_iter()
        .map(|(a, b, at)| format!("{a}>{b}@{at}"))
        .collect();
    assert_eq!(
        edges,
        [
            "a>b@src/a.rs:2",
            "a>c::d@src/a.rs:3",
            "b>a@src/b.rs:2",
            "c::d>c@src/c.rs:3"
        ]
    );
    assert_eq!(
        g.cycles()
            .into_iter()
            .map(|c| c.modules)
            .collect::<Vec<_>>(),
        [names(&["a", "b"])]
    );
}

#[test]
fn a_bare_child_module_in_a_use_or_a_glob_is_a_use_of_it() {
    let found = cycles(&[
        ("lib.rs", "mod checks;\n"),
        (
            "checks/mod.rs",
            "mod one;\npub use one::*;\npub fn helper() {}\n",
        ),
        (
            "checks/one.rs",
            "use super::helper;\npub fn check() { helper() }\n",
        ),
    ]);
    assert_eq!(found, [names(&["checks", "checks::one"])]);
}

#[test]
fn visibilities_are_not_uses_but_pub_crate_use_is() {
    let restricted = [
        ("lib.rs", "mod a;\nmod b;\n"),
        ("a.rs", "pub(crate) use crate::b::B;\npub struct A;\n"),
        (
            "b.rs",
            "pub struct B;\npub(in crate::a) struct C;\npub(super) struct D;\n",
        ),
    ];
    assert!(cycles(&restricted).is_empty());
    let mut using = restricted;
    using[2].1 = "pub struct B;\npub(crate) fn f() -> crate::a::A { todo!() }\n";
    assert_eq!(cycles(&using), [names(&["a", "b"])]);
}

#[test]
fn test_code_is_left_out() {
    let files = [
        ("lib.rs", "mod a;\npub use a::X;\npub fn top() {}\n"),
        (
            "a.rs",
            "pub struct X;\n#[cfg(test)]\nmod tests {\n    use super::*;\n    fn f() { crate::top() }\n}\n\
             #[cfg(test)]\n#[path = \"missing.rs\"]\nmod file_tests;\n\
             #[cfg(all(test, unix))]\nfn helper() { crate::top(); }\n#[cfg(test)]\nuse crate::top;\n",
        ),
    ];
    assert!(cycles(&files).is_empty());
    let whole_file = [
        ("lib.rs", "mod a;\nfn top() { a::f() }\n"),
        (
            "a.rs",
            "#![cfg(test)]\npub fn f() {}\nfn g() { super::top() }\n",
        ),
    ];
    assert!(cycles(&whole_file).is_empty());
    let mut not_test = files;
    not_test[1].1 = "pub struct X;\n#[cfg(not(test))]\nfn f() { crate::top() }\n";
    assert_eq!(cycles(&not_test), [names(&["a", "crate"])]);
}

#[test]
fn comments_strings_and_literals_are_no_uses() {
    let quiet = [
        ("lib.rs", "mod a;\npub use a::X;\npub fn top() {}\n"),
        (
            "a.rs",
            "//! See [`crate::top`].\n/// [super::top]\n// crate::top()\n/* super::top() /* nested */ crate::top */\n\
             pub struct X;\nfn f<'a>(s: &'a str) -> (char, &'a str, &'static [u8]) {\n\
             ('\"', r#\"crate::top \" \"#, b\"super::top\")\n}\nconst Q: char = '\\'';\n\
             const S: &str = \"\\\"crate::top\";\n",
        ),
    ];
    assert!(cycles(&quiet).is_empty());
    // The same with one real use after all the literals: found, on its line.
    let mut loud = quiet;
    let text = format!("{}fn g() {{ crate::top() }}\n", quiet[1].1);
    loud[1].1 = &text;
    let g = graph(&loud);
    assert_eq!(g.cycles()[0].edges[0], edge("a", "crate", "src/a.rs:11"));
}

#[test]
fn imported_names_are_followed_to_where_they_lead() {
    let g = graph(&[
        (
            "lib.rs",
            "mod a;\nmod b;\npub use a::X;\nuse b::inner as renamed;\n",
        ),
        ("a.rs", "pub struct X;\nfn f() { crate::renamed::g() }\n"),
        (
            "b.rs",
            "pub mod inner {\n    pub fn g() {}\n}\nuse crate::X;\n",
        ),
    ]);
    let edges: Vec<_> = g
        .edges()
        .into_iter()
        .map(|(a, b, _)| format!("{a}>{b}"))
        .collect();
    assert_eq!(edges, ["a>b::inner", "b>a", "crate>a", "crate>b::inner"]);
    assert!(g.cycles().is_empty());
}

#[test]
fn inline_modules_are_modules() {
    let found = cycles(&[(
        "lib.rs",
        "mod outer {\n    pub mod inner {\n        pub fn f() { super::g() }\n    }\n    \
         pub fn g() { inner::f() }\n}\nmod other {\n    pub fn h() { crate::outer::g() }\n}\n",
    )]);
    assert_eq!(found, [names(&["outer", "outer::inner"])]);
}

#[test]
fn macro_crate_paths_and_nested_file_modules_of_a_flat_file() {
    let found = cycles(&[
        (
            "lib.rs",
            "mod a;\nmacro_rules! m { () => { $crate::a::b::f() }; }\npub fn top() {}\n",
        ),
        ("a.rs", "pub mod b;\n"),
        ("a/b.rs", "pub fn f() { crate::top() }\n"),
    ]);
    assert_eq!(found, [names(&["a::b", "crate"])]);
}

#[test]
fn a_crate_report_names_its_target_and_a_missing_module_is_an_error() {
    let dir = write(&[
        ("main.rs", "mod a;\nfn main() { a::f() }\nfn top() {}\n"),
        ("a.rs", "pub fn f() { super::top() }\n"),
    ]);
    let (modules, report) = crate_report(&dir).unwrap();
    assert_eq!(modules, 2);
    let report = report.expect("a cycle");
    assert!(
        report.starts_with("target src/main.rs: 1 cycle(s)"),
        "{report}"
    );
    std::fs::remove_file(dir.join("src/a.rs")).unwrap();
    let error = crate_report(&dir).unwrap_err();
    assert!(error.contains("a") && error.contains("mod.rs"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}
