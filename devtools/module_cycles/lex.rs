//! The lexer: Rust source to the few tokens the scan needs.

#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    Ident(String),
    Str(String),
    PathSep,
    Punct(char),
    Other,
}

pub struct Token {
    pub tok: Tok,
    pub line: usize,
}

/// Splits Rust source into the tokens the checker needs, dropping
/// comments and whitespace, keeping string contents (for `#[path]`).
pub fn lex(src: &str) -> Vec<Token> {
    let c: Vec<char> = src.chars().collect();
    let mut out = vec![];
    let (mut i, mut line) = (0, 1);
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    let ident_char = |ch: char| ch == '_' || ch.is_alphanumeric();
    while i < c.len() {
        let ch = c[i];
        let start_line = line;
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += (c[i] == '\n') as usize;
                    i += 1;
                }
            }
        } else if ch == '"' {
            let (s, j) = string(&c, i + 1, &mut line);
            out.push(Token {
                tok: Tok::Str(s),
                line: start_line,
            });
            i = j;
        } else if ch == '\'' {
            // A character literal, or a lifetime or label.
            if at(i + 1) == '\\' {
                i += 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                i += 1;
                while i < c.len() && ident_char(c[i]) {
                    i += 1;
                }
            }
            out.push(Token {
                tok: Tok::Other,
                line: start_line,
            });
        } else if ch.is_ascii_digit() {
            while i < c.len() && (ident_char(c[i]) || (c[i] == '.' && at(i + 1).is_ascii_digit())) {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Other,
                line: start_line,
            });
        } else if ident_char(ch) {
            let s = i;
            while i < c.len() && ident_char(c[i]) {
                i += 1;
            }
            let word: String = c[s..i].iter().collect();
            let raw_prefix = matches!(word.as_str(), "r" | "br" | "cr");
            if raw_prefix && (at(i) == '"' || (at(i) == '#' && matches!(at(i + 1), '#' | '"'))) {
                let mut hashes = 0;
                while at(i) == '#' {
                    hashes += 1;
                    i += 1;
                }
                i += 1; // the opening quote
                let s = i;
                loop {
                    if i >= c.len() {
                        break;
                    }
                    if c[i] == '"' && (1..=hashes).all(|k| at(i + k) == '#') {
                        break;
                    }
                    line += (c[i] == '\n') as usize;
                    i += 1;
                }
                let text: String = c[s..i.min(c.len())].iter().collect();
                i += 1 + hashes;
                out.push(Token {
                    tok: Tok::Str(text),
                    line: start_line,
                });
            } else if word == "r" && at(i) == '#' {
                // A raw identifier `r#name`.
                let s = i + 1;
                i += 1;
                while i < c.len() && ident_char(c[i]) {
                    i += 1;
                }
                out.push(Token {
                    tok: Tok::Ident(c[s..i].iter().collect()),
                    line: start_line,
                });
            } else if matches!(word.as_str(), "b" | "c") && at(i) == '"' {
                let (s, j) = string(&c, i + 1, &mut line);
                out.push(Token {
                    tok: Tok::Str(s),
                    line: start_line,
                });
                i = j;
            } else if word == "b" && at(i) == '\'' {
                i += if at(i + 1) == '\\' { 2 } else { 1 };
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
                out.push(Token {
                    tok: Tok::Other,
                    line: start_line,
                });
            } else {
                out.push(Token {
                    tok: Tok::Ident(word),
                    line: start_line,
                });
            }
        } else if ch == ':' && at(i + 1) == ':' {
            out.push(Token {
                tok: Tok::PathSep,
                line,
            });
            i += 2;
        } else if ch == '$'
            && c[i + 1..].starts_with(&['c', 'r', 'a', 't', 'e'])
            && !ident_char(at(i + 6))
        {
            out.push(Token {
                tok: Tok::Ident("$crate".into()),
                line,
            });
            i += 6;
        } else {
            out.push(Token {
                tok: Tok::Punct(ch),
                line,
            });
            i += 1;
        }
    }
    out
}

/// A string literal's contents from just after its opening quote; returns
/// the index after the closing quote.
fn string(c: &[char], mut i: usize, line: &mut usize) -> (String, usize) {
    let mut s = String::new();
    while i < c.len() && c[i] != '"' {
        if c[i] == '\\' {
            i += 1;
        }
        if i < c.len() {
            *line += (c[i] == '\n') as usize;
            s.push(c[i]);
        }
        i += 1;
    }
    (s, i + 1)
}
