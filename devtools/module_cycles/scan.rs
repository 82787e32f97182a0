//! The scan: the module tree of a target and every path in it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::lex::{Tok, Token, lex};

/// The modules of the target whose root file is `root` (the root first)
/// and every path they hold; file names relative to `base`.
pub fn read(root: &Path, base: &Path) -> Result<(Vec<Module>, Vec<Reference>), String> {
    let mut reader = Reader {
        modules: vec![Module {
            path: vec![],
            parent: None,
            children: BTreeMap::new(),
        }],
        refs: vec![],
        base: base.to_path_buf(),
    };
    let dir = root.parent().unwrap_or(Path::new(".")).to_path_buf();
    reader.read_file(root, 0, dir)?;
    Ok((reader.modules, reader.refs))
}

/// A module: its path from the root, its parent and children.
pub struct Module {
    pub path: Vec<String>,
    pub parent: Option<usize>,
    pub children: BTreeMap<String, usize>,
}

/// A path found in a module: its segments, where it is, and for a `use`
/// the name it binds (none for a glob or `_`).
pub struct Reference {
    pub module: usize,
    pub segments: Vec<String>,
    pub at: String,
    pub binds: Option<String>,
}

/// Builds the module tree and gathers every path, file by file.
struct Reader {
    modules: Vec<Module>,
    refs: Vec<Reference>,
    base: PathBuf,
}

/// Where a module's file children and `#[path]` files are looked up.
struct Dirs<'a> {
    children: &'a Path,
    path_attr: &'a Path,
    file: &'a str,
}

impl Reader {
    /// Reads `file`, the body of `module`, whose file children are in
    /// `children`.
    fn read_file(&mut self, file: &Path, module: usize, children: PathBuf) -> Result<(), String> {
        let src = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let toks = lex(&src);
        let shown = file
            .strip_prefix(&self.base)
            .unwrap_or(file)
            .display()
            .to_string();
        let here = file.parent().unwrap_or(Path::new(".")).to_path_buf();
        let dirs = Dirs {
            children: &children,
            path_attr: &here,
            file: &shown,
        };
        let mut i = 0;
        self.scan(&toks, &mut i, module, &dirs)
    }

    fn child(&mut self, parent: usize, name: &str) -> usize {
        let mut path = self.modules[parent].path.clone();
        path.push(name.to_string());
        self.modules.push(Module {
            path,
            parent: Some(parent),
            children: BTreeMap::new(),
        });
        let id = self.modules.len() - 1;
        self.modules[parent].children.insert(name.to_string(), id);
        id
    }

    /// Scans the items of `module` from `*i` to the end of the file or to
    /// the `}` closing the module's block (left unconsumed).
    fn scan(
        &mut self,
        t: &[Token],
        i: &mut usize,
        module: usize,
        dirs: &Dirs,
    ) -> Result<(), String> {
        let mut depth = 0usize;
        let mut test_only = false;
        let mut path_attr: Option<String> = None;
        while *i < t.len() {
            let tok = &t[*i].tok;
            if let Tok::Punct('#') = tok {
                let mut j = *i + 1;
                if t.get(j).map(|t| &t.tok) == Some(&Tok::Punct('!')) {
                    j += 1;
                }
                if t.get(j).map(|t| &t.tok) == Some(&Tok::Punct('[')) {
                    let end = closing(t, j);
                    let body = &t[j + 1..end.min(t.len())];
                    let words = |w: &str| body.iter().any(|t| t.tok == Tok::Ident(w.into()));
                    if body.first().map(|t| &t.tok) == Some(&Tok::Ident("cfg".into()))
                        && words("test")
                        && !words("not")
                    {
                        if j == *i + 2 {
                            // `#![cfg(test)]`: the whole module is test code.
                            while *i < t.len() && t[*i].tok != Tok::Punct('}') {
                                let before = *i;
                                skip_item(t, i);
                                *i += usize::from(*i == before);
                            }
                            return Ok(());
                        }
                        test_only = true;
                    }
                    let toks: Vec<&Tok> = body.iter().map(|t| &t.tok).collect();
                    if let [Tok::Ident(p), Tok::Punct('='), Tok::Str(s)] = toks[..]
                        && p == "path"
                    {
                        path_attr = Some(s.clone());
                    }
                    self.paths(&t[j + 1..end.min(t.len())], module, dirs.file);
                    *i = end + 1;
                    continue;
                }
            }
            if test_only {
                skip_item(t, i);
                test_only = false;
                path_attr = None;
                continue;
            }
            let next = |k: usize| t.get(*i + k).map(|t| &t.tok);
            match tok {
                Tok::Ident(w) if w == "pub" && next(1) == Some(&Tok::Punct('(')) => {
                    *i = closing(t, *i + 1) + 1;
                    continue;
                }
                Tok::Ident(w) if w == "pub" => {
                    *i += 1;
                    continue;
                }
                Tok::Ident(w) if w == "mod" => {
                    if let (Some(Tok::Ident(name)), Some(after)) = (next(1), next(2)) {
                        let name = name.clone();
                        if after == &Tok::Punct(';') {
                            let child = self.child(module, &name);
                            let (file, children) = match path_attr.take() {
                                Some(p) => {
                                    let f = dirs.path_attr.join(p);
                                    let d = f.parent().unwrap_or(Path::new(".")).to_path_buf();
                                    (f, d)
                                }
                                None => {
                                    let flat = dirs.children.join(format!("{name}.rs"));
                                    let nested = dirs.children.join(&name).join("mod.rs");
                                    let f = if flat.exists() { flat } else { nested };
                                    (f, dirs.children.join(&name))
                                }
                            };
                            self.read_file(&file, child, children)?;
                            *i += 3;
                            continue;
                        }
                        if after == &Tok::Punct('{') {
                            let child = self.child(module, &name);
                            let inner = dirs.children.join(&name);
                            let d = Dirs {
                                children: &inner,
                                path_attr: &inner,
                                file: dirs.file,
                            };
                            *i += 3;
                            self.scan(t, i, child, &d)?;
                            *i += 1;
                            path_attr = None;
                            continue;
                        }
                    }
                }
                Tok::Ident(w) if w == "use" => {
                    *i += 1;
                    let mut leaves = vec![];
                    use_tree(t, i, &mut vec![], &mut leaves);
                    for (segments, line, binds) in leaves {
                        let at = format!("{}:{line}", dirs.file);
                        self.refs.push(Reference {
                            module,
                            segments,
                            at,
                            binds,
                        });
                    }
                    path_attr = None;
                    continue;
                }
                Tok::Ident(_)
                    if next(1) == Some(&Tok::PathSep)
                        && (*i == 0 || t[*i - 1].tok != Tok::PathSep) =>
                {
                    let (segments, end) = path_at(t, *i);
                    let at = format!("{}:{}", dirs.file, t[*i].line);
                    self.refs.push(Reference {
                        module,
                        segments,
                        at,
                        binds: None,
                    });
                    *i = end;
                    path_attr = None;
                    continue;
                }
                Tok::Punct('{') => depth += 1,
                Tok::Punct('}') if depth == 0 => return Ok(()),
                Tok::Punct('}') => depth -= 1,
                _ => {}
            }
            path_attr = None;
            *i += 1;
        }
        Ok(())
    }

    /// Every path in `t` (an attribute's arguments).
    fn paths(&mut self, t: &[Token], module: usize, file: &str) {
        let mut i = 0;
        while i < t.len() {
            let starts = matches!(t[i].tok, Tok::Ident(_))
                && t.get(i + 1).map(|t| &t.tok) == Some(&Tok::PathSep)
                && (i == 0 || t[i - 1].tok != Tok::PathSep);
            if starts {
                let (segments, end) = path_at(t, i);
                let at = format!("{file}:{}", t[i].line);
                self.refs.push(Reference {
                    module,
                    segments,
                    at,
                    binds: None,
                });
                i = end;
            } else {
                i += 1;
            }
        }
    }
}

/// The index of the bracket closing the one at `open`.
fn closing(t: &[Token], open: usize) -> usize {
    let mut depth = 0usize;
    for (k, tok) in t.iter().enumerate().skip(open) {
        match tok.tok {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    t.len()
}

/// Skips one item: to its `;`, or past its first `{ ... }` block, or up
/// to a bracket closing what encloses it.
fn skip_item(t: &[Token], i: &mut usize) {
    while *i < t.len() {
        match t[*i].tok {
            Tok::Punct(';') => {
                *i += 1;
                return;
            }
            Tok::Punct('{') => {
                *i = closing(t, *i) + 1;
                return;
            }
            Tok::Punct('(' | '[') => *i = closing(t, *i) + 1,
            Tok::Punct(')' | ']' | '}') => return,
            _ => *i += 1,
        }
    }
}

/// The path `a::b::c` starting at `i`, and the index after it.
fn path_at(t: &[Token], mut i: usize) -> (Vec<String>, usize) {
    let mut segments = vec![];
    while let Some(Tok::Ident(s)) = t.get(i).map(|t| &t.tok) {
        segments.push(s.clone());
        i += 1;
        let more = t.get(i).map(|t| &t.tok) == Some(&Tok::PathSep)
            && matches!(t.get(i + 1).map(|t| &t.tok), Some(Tok::Ident(_)));
        if !more {
            break;
        }
        i += 1;
    }
    (segments, i)
}

/// One use tree from `*i`: each leaf's full path (a glob's is its
/// prefix, `a::{self}` is `a`) and line.
fn use_tree(
    t: &[Token],
    i: &mut usize,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, usize, Option<String>)>,
) {
    let base = prefix.len();
    if t.get(*i).map(|t| &t.tok) == Some(&Tok::PathSep) {
        prefix.push("::".into());
        *i += 1;
    }
    while let Some(tok) = t.get(*i) {
        match &tok.tok {
            Tok::Ident(s) => {
                prefix.push(s.clone());
                *i += 1;
                if t.get(*i).map(|t| &t.tok) == Some(&Tok::PathSep) {
                    *i += 1;
                    continue;
                }
                let mut binds = match s.as_str() {
                    "self" => prefix.iter().rev().nth(1).cloned(),
                    _ => Some(s.clone()),
                };
                if t.get(*i).map(|t| &t.tok) == Some(&Tok::Ident("as".into())) {
                    binds = match t.get(*i + 1).map(|t| &t.tok) {
                        Some(Tok::Ident(alias)) if alias != "_" => Some(alias.clone()),
                        _ => None,
                    };
                    *i += 2;
                }
                out.push((prefix.clone(), tok.line, binds));
            }
            Tok::Punct('*') => {
                *i += 1;
                out.push((prefix.clone(), tok.line, None));
            }
            Tok::Punct('{') => {
                *i += 1;
                while let Some(tok) = t.get(*i) {
                    match tok.tok {
                        Tok::Punct('}') => {
                            *i += 1;
                            break;
                        }
                        Tok::Punct(',') => *i += 1,
                        _ => {
                            let before = *i;
                            use_tree(t, i, prefix, out);
                            if *i == before {
                                *i += 1;
                            }
                        }
                    }
                }
            }
            _ => {}
        }
        break;
    }
    prefix.truncate(base);
}
