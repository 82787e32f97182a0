//! Finds dependency cycles among a crate's modules: the check that
//! `cargo modules dependencies --lib --acyclic` makes, without building
//! rust-analyzer. Every crate's `tests/it/module_cycles.rs` includes this file
//! (`#[path = "../../devtools/module_cycles/mod.rs"]`) and asserts
//! [`assert_no_cycles`]; it needs nothing but `std`.
//!
//! # What it reads
//!
//! Each target root (`src/lib.rs`, and `src/main.rs` as a crate of its
//! own) and every file module it declares: `mod a;` in the root or in a
//! `mod.rs` is `a.rs` or `a/mod.rs` beside it, in `x.rs` it is `x/a.rs` or
//! `x/a/mod.rs`; `#[path = "..."]` is taken relative to the declaring
//! file's directory. Inline `mod x { ... }` blocks are modules too. Test
//! code is left out: any item under an attribute `#[cfg(...)]` that names
//! `test` and not `not` (so `#[cfg(test)] mod tests { ... }`, a
//! `#[cfg(test)] mod tests;` file, a `#[cfg(test)]` helper), the rest of a
//! module after `#![cfg(test)]`; `tests/`, `benches/` and `examples/` are
//! never read. `#[cfg(feature = ...)]` code is read: every feature on. Comments (doc comments and
//! their intra-doc links included), strings and character literals are
//! skipped by a small lexer.
//!
//! # What counts as a use
//!
//! Every path that starts with `crate`, `$crate`, `self`, `super`, or with
//! the name of a child module of the module it is in: in `use` trees
//! (braces, `self` in braces, globs, `as`, any visibility such as
//! `pub(crate) use`) and in expressions, types, patterns, attributes'
//! arguments and macro bodies alike. `pub(in path)` is a visibility, not a
//! use. A path is resolved syntactically to the deepest module it names:
//! `crate::a::b::C` is a use of module `a::b` when `a::b` exists, else of
//! `a`, else of the crate root. A name the module reached does not
//! define but imports with a named `use` (renames included, globs not) is
//! followed to where that `use` leads, as rust-analyzer resolves it: with
//! `pub use a::X` in the root, `crate::X` is a use of `a` (and the root's
//! `pub use` itself is a use of `a` from the root); with `use
//! super::lobby;`, `lobby::Y` is a use of `lobby`. A path starting with a
//! name the module imports is followed the same way.
//!
//! # The graph
//!
//! An edge A -> B when code of module A (not of its children) uses module
//! B or an item of it, A != B. As in cargo-modules, declaring `mod child;`
//! is not a use: a parent depends on a child only through a path into it
//! (`pub use child::X` is one), and a child depends on its parent through
//! `super::X` (or `crate::...` naming it). So a `mod.rs` that re-exports its
//! children's items while the children use `super::` items is a cycle.
//! Every strongly connected component of more than one module (Tarjan) is
//! reported with each of its edges and the file and line of one use.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

mod lex;
mod scan;
#[cfg(test)]
mod tests;

use scan::Module;

/// Panics, listing every cycle, if a target of the crate at `crate_dir`
/// (its `src/lib.rs`, its `src/main.rs`) has modules in a cycle.
pub fn assert_no_cycles(crate_dir: &str) {
    let report = crate_report(Path::new(crate_dir));
    match report {
        Ok((modules, None)) => eprintln!("no cycle among {modules} modules of {crate_dir}"),
        Ok((_, Some(cycles))) => panic!("module cycles in {crate_dir}:\n{cycles}"),
        Err(e) => panic!("{e}"),
    }
}

/// The number of modules read and, if there are cycles, their report.
pub fn crate_report(crate_dir: &Path) -> Result<(usize, Option<String>), String> {
    let mut modules = 0;
    let mut out = String::new();
    for root in ["src/lib.rs", "src/main.rs"] {
        let file = crate_dir.join(root);
        if !file.exists() {
            continue;
        }
        let graph = Graph::read(&file, crate_dir)?;
        modules += graph.modules.len();
        let cycles = graph.cycles();
        if !cycles.is_empty() {
            let _ = writeln!(out, "target {root}: {} cycle(s)", cycles.len());
            out.push_str(&format_cycles(&cycles));
        }
    }
    Ok((modules, (!out.is_empty()).then_some(out)))
}

/// A cycle: its modules (`crate` for the root) and its edges
/// `(from, to, "file:line")`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cycle {
    pub modules: Vec<String>,
    pub edges: Vec<(String, String, String)>,
}

pub fn format_cycles(cycles: &[Cycle]) -> String {
    let mut out = String::new();
    for (n, c) in cycles.iter().enumerate() {
        let _ = writeln!(out, "  cycle {}: {}", n + 1, c.modules.join(", "));
        for (from, to, at) in &c.edges {
            let _ = writeln!(out, "    {from} -> {to}  ({at})");
        }
    }
    out
}

pub struct Graph {
    modules: Vec<Module>,
    /// `(from, to)` -> where the first use was seen.
    edges: BTreeMap<(usize, usize), String>,
    /// `(module, name)` -> the path a `use` in the module binds to `name`.
    imports: BTreeMap<(usize, String), Vec<String>>,
}

impl Graph {
    /// Reads the target whose root is `root`; file names in the report are
    /// relative to `base`.
    pub fn read(root: &Path, base: &Path) -> Result<Graph, String> {
        let (modules, refs) = scan::read(root, base)?;
        let mut graph = Graph {
            modules,
            edges: BTreeMap::new(),
            imports: BTreeMap::new(),
        };
        for r in &refs {
            if let Some(name) = &r.binds {
                let key = (r.module, name.clone());
                graph.imports.entry(key).or_insert(r.segments.clone());
            }
        }
        for r in refs {
            if let Some(to) = graph.resolve(r.module, &r.segments, 0)
                && to != r.module
            {
                graph.edges.entry((r.module, to)).or_insert(r.at);
            }
        }
        Ok(graph)
    }

    pub fn name(&self, m: usize) -> String {
        match self.modules[m].path.is_empty() {
            true => "crate".to_string(),
            false => self.modules[m].path.join("::"),
        }
    }

    /// The deepest module `segments` names, seen from `from`; `None` for a
    /// path that does not start in this crate.
    /// A name a module does not define but imports is followed to where
    /// its `use` leads (`depth` bounds the chain).
    fn resolve(&self, from: usize, segments: &[String], depth: usize) -> Option<usize> {
        let first = segments.first()?;
        let mut at = match first.as_str() {
            "crate" | "$crate" => 0,
            "self" => from,
            "super" => self.modules[from].parent?,
            name => match self.modules[from].children.get(name) {
                Some(&child) => child,
                None => return self.follow(from, name, &segments[1..], depth),
            },
        };
        for (k, s) in segments.iter().enumerate().skip(1) {
            match s.as_str() {
                "self" => {}
                "super" => at = self.modules[at].parent?,
                name => match self.modules[at].children.get(name) {
                    Some(&child) => at = child,
                    None => {
                        return self
                            .follow(at, name, &segments[k + 1..], depth)
                            .or(Some(at));
                    }
                },
            }
        }
        Some(at)
    }

    /// `name` then `rest`, where `module` imports `name`; `None` if it
    /// does not.
    fn follow(&self, module: usize, name: &str, rest: &[String], depth: usize) -> Option<usize> {
        let import = self.imports.get(&(module, name.to_string()))?;
        if depth >= 8 {
            return None;
        }
        let mut path = import.clone();
        path.extend(rest.iter().cloned());
        self.resolve(module, &path, depth + 1)
    }

    /// Every edge, by module names, with where it was seen.
    pub fn edges(&self) -> Vec<(String, String, String)> {
        let name = |m| self.name(m);
        let mut edges: Vec<_> = (self.edges.iter())
            .map(|(&(a, b), at)| (name(a), name(b), at.clone()))
            .collect();
        edges.sort();
        edges
    }

    /// Every strongly connected component of more than one module.
    pub fn cycles(&self) -> Vec<Cycle> {
        let n = self.modules.len();
        let mut next: Vec<Vec<usize>> = vec![vec![]; n];
        for &(a, b) in self.edges.keys() {
            next[a].push(b);
        }
        let mut t = Tarjan {
            next: &next,
            index: vec![None; n],
            low: vec![0; n],
            on: vec![false; n],
            stack: vec![],
            counter: 0,
            sccs: vec![],
        };
        for v in 0..n {
            if t.index[v].is_none() {
                t.visit(v);
            }
        }
        let mut cycles: Vec<Cycle> = t
            .sccs
            .into_iter()
            .filter(|c| c.len() > 1)
            .map(|members| {
                let mut modules: Vec<String> = members.iter().map(|&m| self.name(m)).collect();
                modules.sort();
                let edges = self
                    .edges
                    .iter()
                    .filter(|((a, b), _)| members.contains(a) && members.contains(b))
                    .map(|(&(a, b), at)| (self.name(a), self.name(b), at.clone()))
                    .collect::<Vec<_>>();
                let mut edges = edges;
                edges.sort();
                Cycle { modules, edges }
            })
            .collect();
        cycles.sort_by(|a, b| a.modules.cmp(&b.modules));
        cycles
    }
}

struct Tarjan<'a> {
    next: &'a [Vec<usize>],
    index: Vec<Option<usize>>,
    low: Vec<usize>,
    on: Vec<bool>,
    stack: Vec<usize>,
    counter: usize,
    sccs: Vec<Vec<usize>>,
}

impl Tarjan<'_> {
    fn visit(&mut self, v: usize) {
        self.index[v] = Some(self.counter);
        self.low[v] = self.counter;
        self.counter += 1;
        self.stack.push(v);
        self.on[v] = true;
        for &w in &self.next[v] {
            match self.index[w] {
                None => {
                    self.visit(w);
                    self.low[v] = self.low[v].min(self.low[w]);
                }
                Some(i) if self.on[w] => self.low[v] = self.low[v].min(i),
                Some(_) => {}
            }
        }
        if Some(self.low[v]) == self.index[v] {
            let mut scc = vec![];
            while let Some(w) = self.stack.pop() {
                self.on[w] = false;
                scc.push(w);
                if w == v {
                    break;
                }
            }
            self.sccs.push(scc);
        }
    }
}
