//! What `tengen` keeps on disk between runs, per server: the login token
//! (`tengen login`) and the resume token of the game being played (so a
//! new `tengen play` picks it back up).
//!
//! Where: `$TENGEN_CONFIG_DIR` if set (several accounts on one machine,
//! tests), else `$XDG_CONFIG_HOME/tengen`, else `~/.config/tengen`. One
//! JSON file per server and kind:
//!
//! ```text
//! ~/.config/tengen/login-127.0.0.1_8415_ws-3f9a1c2e.json    {"server":..,"name":..,"token":..,"expires_ms":..}
//! ~/.config/tengen/game-127.0.0.1_8415_ws-3f9a1c2e.json     {"server":..,"resume_token":..,"table":..}
//! ```
//!
//! Why per server URL: a token means something to the server that issued
//! it only, and one person may have accounts on several servers. The file
//! name is the URL made file-safe plus a hash of the exact URL, so two URLs
//! never share a file; the URL is also stored inside and checked.
//!
//! Both tokens are secrets (whoever has one is that player), so the
//! directory is created 0700 and each file is written 0600, to a temporary
//! file first and then renamed: a reader never sees half a file, and the
//! secret is never readable by others, not even for a moment.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

/// The saved login of one server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Login {
    pub server: String,
    pub name: String,
    pub token: String,
    /// When the server said the token expires (Unix ms).
    pub expires_ms: u64,
}

/// The game being played on one server: the session's resume token and the
/// table, so a new process can resume the session and open the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    pub server: String,
    pub resume_token: String,
    pub table: String,
}

/// The configuration directory.
pub fn dir() -> Result<PathBuf> {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(d) = var("TENGEN_CONFIG_DIR") {
        return Ok(PathBuf::from(d));
    }
    if let Some(d) = var("XDG_CONFIG_HOME").map(PathBuf::from)
        && d.is_absolute()
    {
        return Ok(d.join("tengen"));
    }
    match var("HOME") {
        Some(home) => Ok(PathBuf::from(home).join(".config").join("tengen")),
        None => bail!("no configuration directory: set HOME, XDG_CONFIG_HOME or TENGEN_CONFIG_DIR"),
    }
}

/// The file name part for `server`: readable, file-safe, and unique per
/// exact URL.
fn key(server: &str) -> String {
    let readable: String = server
        .split_once("://")
        .map_or(server, |(_, rest)| rest)
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(60)
        .collect();
    // FNV-1a: stable across builds and platforms (std's hasher is not).
    let hash = server.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{readable}-{:08x}", hash as u32)
}

pub fn login_path(server: &str) -> Result<PathBuf> {
    Ok(dir()?.join(format!("login-{}.json", key(server))))
}

pub fn game_path(server: &str) -> Result<PathBuf> {
    Ok(dir()?.join(format!("game-{}.json", key(server))))
}

/// The saved login for `server`, if any. A file that cannot be read as one
/// is an error naming it (the user may delete it).
pub fn login(server: &str) -> Result<Option<Login>> {
    read::<Login>(&login_path(server)?).map(|l| l.filter(|l| l.server == server))
}

pub fn save_login(login: &Login) -> Result<PathBuf> {
    let path = login_path(&login.server)?;
    write_secret(&path, login)?;
    Ok(path)
}

/// Forgets the login of `server`; returns whether there was one.
pub fn forget_login(server: &str) -> Result<bool> {
    remove(&login_path(server)?)
}

pub fn game(server: &str) -> Result<Option<Game>> {
    read::<Game>(&game_path(server)?).map(|g| g.filter(|g| g.server == server))
}

pub fn save_game(game: &Game) -> Result<()> {
    write_secret(&game_path(&game.server)?, game)
}

pub fn forget_game(server: &str) -> Result<bool> {
    remove(&game_path(server)?)
}

fn read<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Option<T>> {
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    serde_json::from_str(&text)
        .map(Some)
        .with_context(|| format!("{} is damaged (delete it)", path.display()))
}

fn remove(path: &Path) -> Result<bool> {
    match fs::remove_file(path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e).with_context(|| format!("removing {}", path.display())),
    }
}

/// Writes `value` as JSON to `path`, readable by its owner only.
fn write_secret<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    let dir = path.parent().expect("a file in the config directory");
    create_private_dir(dir)?;
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    let text = serde_json::to_string_pretty(value)?;
    let write = || -> std::io::Result<()> {
        let mut f = private_file(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.write_all(b"\n")?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    };
    write().with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

#[cfg(unix)]
fn create_private_dir(dir: &Path) -> Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    if !dir.is_dir() {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .with_context(|| format!("creating {}", dir.display()))?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn create_private_dir(dir: &Path) -> Result<()> {
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))
}

#[cfg(unix)]
fn private_file(path: &Path) -> std::io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
}

#[cfg(not(unix))]
fn private_file(path: &Path) -> std::io::Result<fs::File> {
    fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_file_safe_and_distinct() {
        let a = key("ws://127.0.0.1:8415/ws");
        assert!(a.starts_with("127.0.0.1_8415_ws-"), "{a}");
        assert!(
            a.chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        );
        assert_ne!(a, key("ws://127.0.0.1_8415/ws"));
        assert_ne!(a, key("wss://127.0.0.1:8415/ws"));
        assert_eq!(a, key("ws://127.0.0.1:8415/ws"));
    }

    #[cfg(unix)]
    #[test]
    fn secrets_are_written_for_the_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("sub").join("login-x.json");
        let login = Login {
            server: "ws://x/ws".into(),
            name: "alice".into(),
            token: "secret".into(),
            expires_ms: 1,
        };
        write_secret(&path, &login).unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        let dir_mode = fs::metadata(path.parent().unwrap())
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(dir_mode & 0o777, 0o700);
        assert_eq!(read::<Login>(&path).unwrap(), Some(login));
        assert!(remove(&path).unwrap());
        assert!(!remove(&path).unwrap());
        assert_eq!(read::<Login>(&path).unwrap(), None);
        fs::write(&path, "{").unwrap();
        let err = read::<Login>(&path).unwrap_err().to_string();
        assert!(err.contains("damaged"), "{err}");
    }
}
