//! `tengen-server import` and `tengen-server reindex`: seeding the opening
//! explorer (and the puzzles) from records, and indexing the games a
//! store held before its explorer existed.
//!
//! An imported record is played through the referee (a record that does
//! not replay is refused, naming the file and game), stored as a finished
//! game listed under no player (so `/game/ID` shows it) with an id made
//! from its moves and rules (`i-` and 13 characters: importing a file
//! twice stores and counts each game once), and indexed in everyone's
//! explorer. Stone lists (renju notation, PSQ) are played as free
//! openings; a renju text's tags (`[Rule "rif"]`, `[Result "white wins"]`,
//! `[Black "..."]`, as `game_record` writes them) give the opening rule it
//! is indexed under, the result its moves alone may not show (a
//! resignation) and the names; without them the rule is the one
//! `--opening` names, and a list that does not end in a five or a full
//! board has no result and is skipped. Every write is the store's ordinary one, so a running server
//! on Redis may keep serving meanwhile; the embedded store's directory is
//! the running server's own and must be free (stop the server first).

use std::path::{Path, PathBuf};

use tengen_protocol::{ColorResult, TableId};
use tengen_rules::game::notation::import;
use tengen_rules::game::{GameRecord, Opening, RuleSet};
use tengen_store::{FinishedGame, Item, Store, StoreError};
use tengen_study::explorer::Players;

use super::finished::Finished;
use super::indexer::{IndexError, Stated, index_game};
use super::miner::mine_and_store;
use super::settings::StudySettings;

/// What an import or a reindex did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Records read.
    pub read: u64,
    /// Games added to the explorer now (the others were in it already).
    pub indexed: u64,
    /// Records or games that could not be indexed (unfinished, aborted,
    /// two boards, not replaying).
    pub skipped: u64,
    pub puzzles: u64,
    pub exercises: u64,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} games read, {} added to the explorer, {} skipped, {} puzzles and {} exercises found",
            self.read, self.indexed, self.skipped, self.puzzles, self.exercises
        )
    }
}

/// Why an import stopped.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("{0}: {1}")]
    File(PathBuf, std::io::Error),
    #[error("{file}, game {game}: {why}")]
    Record {
        file: PathBuf,
        game: usize,
        why: String,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The games of a file: a JSON record, a JSON list of records or one
/// record a line; a PSQ file (one game); renju texts with tags, each game
/// from its first tag line; or renju notation, one game a line.
fn games_in(text: &str) -> Vec<String> {
    let t = text.trim_start();
    if t.starts_with('[')
        && let Ok(list) = serde_json::from_str::<Vec<serde_json::Value>>(t)
    {
        return list.iter().map(|v| v.to_string()).collect();
    }
    if t.starts_with("Piskvorky")
        || (t.starts_with('{') && serde_json::from_str::<serde_json::Value>(t).is_ok())
    {
        return vec![t.to_owned()];
    }
    if t.starts_with('[') {
        let mut games: Vec<String> = Vec::new();
        let mut in_tags = false;
        for line in t.lines() {
            let tag = line.trim_start().starts_with('[');
            if tag && !in_tags {
                games.push(String::new());
            }
            in_tags = tag || (in_tags && line.trim().is_empty());
            if let Some(g) = games.last_mut() {
                g.push_str(line);
                g.push('\n');
            }
        }
        return games;
    }
    t.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

/// A renju text's tags (`[Name "value"]` lines).
fn tags_of(text: &str) -> std::collections::HashMap<String, String> {
    text.lines()
        .filter_map(|l| {
            let inner = l.trim().strip_prefix('[')?.strip_suffix(']')?;
            let (name, value) = inner.split_once(' ')?;
            Some((name.to_owned(), value.trim().trim_matches('"').to_owned()))
        })
        .collect()
}

/// What a stone list's text states: its tags' opening rule (else
/// `opening`) and result.
fn stated(text: &str, opening: Opening) -> Result<Stated, String> {
    let tags = tags_of(text);
    let opening = match tags.get("Rule") {
        Some(r) => r.parse().map_err(|e| format!("Rule \"{r}\": {e}"))?,
        None => opening,
    };
    let result = match tags.get("Result").map(|r| r.to_ascii_lowercase()) {
        None => None,
        Some(r) if r == "black wins" => Some(ColorResult::Black),
        Some(r) if r == "white wins" => Some(ColorResult::White),
        Some(r) if r == "draw" => Some(ColorResult::Draw),
        Some(r) => {
            return Err(format!(
                "Result \"{r}\" is not black wins, white wins or draw"
            ));
        }
    };
    Ok(Stated {
        opening: Some(opening),
        result,
    })
}

/// The id of an imported game: a digest of its rules and moves.
fn import_id(record: &GameRecord) -> String {
    format!(
        "i-{}",
        TableId::from_u64(tengen_study::explorer::record_digest(record))
    )
}

/// Imports every game of `files`: stone lists as games of `rule_set`,
/// indexed under `opening`; with `mine`, searched for puzzles too.
pub async fn import_files(
    store: &dyn Store,
    settings: &StudySettings,
    files: &[PathBuf],
    rule_set: RuleSet,
    opening: Opening,
    mine: bool,
) -> Result<Report, ImportError> {
    let mut report = Report::default();
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| ImportError::File(file.clone(), e))?;
        for (n, game) in games_in(&text).into_iter().enumerate() {
            let bad = |why: String| ImportError::Record {
                file: file.clone(),
                game: n + 1,
                why,
            };
            let record = import(&game, rule_set).map_err(|e| bad(e.to_string()))?;
            let replayed = record.replay().map_err(|e| bad(e.to_string()))?;
            report.read += 1;
            let stone_list = !game.trim_start().starts_with('{');
            let (stated, names) = if stone_list {
                let tags = tags_of(&game);
                // Names by seat: the tags name them by colour.
                let black = replayed.seat_of(tengen_rules::Color::Black).index();
                let mut names = [None, None];
                names[black] = tags.get("Black").cloned();
                names[1 - black] = tags.get("White").cloned();
                (stated(&game, opening).map_err(bad)?, names)
            } else {
                (Stated::default(), [None, None])
            };
            one(store, settings, record, stated, names, mine, &mut report).await?;
        }
        tracing::info!(file = %file.display(), done = %report, "imported");
    }
    Ok(report)
}

async fn one(
    store: &dyn Store,
    settings: &StudySettings,
    record: GameRecord,
    stated: Stated,
    named: [Option<String>; 2],
    mine: bool,
    report: &mut Report,
) -> Result<(), StoreError> {
    let id = import_id(&record);
    let tag = |k: &str| record.tags.get(k).cloned();
    let [first, second] = named;
    let names = [
        first.or_else(|| tag("first")).unwrap_or_else(|| "?".into()),
        second
            .or_else(|| tag("second"))
            .unwrap_or_else(|| "?".into()),
    ];
    let finished_ms = tag("finished_unix_ms")
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(crate::accounts::unix_ms);
    let stored = FinishedGame {
        id: id.clone(),
        players: Vec::new(),
        finished_ms,
        record: record.to_json().into_bytes(),
        ratings: Vec::new(),
    };
    match store.finish_game(&stored).await {
        Ok(()) | Err(StoreError::Exists(_)) => {}
        Err(e) => return Err(e),
    }
    let game = Finished {
        id,
        record,
        players: Players {
            accounts: [None, None],
            names,
            ratings: None,
        },
        finished_ms,
    };
    index_and_mine(store, settings, &game, stated, mine, report).await
}

async fn index_and_mine(
    store: &dyn Store,
    settings: &StudySettings,
    game: &Finished,
    stated: Stated,
    mine: bool,
    report: &mut Report,
) -> Result<(), StoreError> {
    match index_game(store, game, settings.depth, stated).await {
        Ok(true) => report.indexed += 1,
        Ok(false) => {}
        Err(IndexError::Store(e)) => return Err(e),
        Err(IndexError::Facts(_)) => {
            report.skipped += 1;
            return Ok(());
        }
    }
    if mine {
        let (p, e) = mine_and_store(store, game, settings.mine_budget()).await?;
        report.puzzles += p as u64;
        report.exercises += e as u64;
    }
    Ok(())
}

/// Indexes every finished game `store` holds (those indexed before are
/// left as they are); with `mine`, searches each for puzzles too. Players
/// who are accounts get their own explorers; games are counted with the
/// ratings the players have now.
pub async fn reindex(
    store: &dyn Store,
    settings: &StudySettings,
    mine: bool,
) -> Result<Report, StoreError> {
    let mut report = Report::default();
    let mut cursor = None;
    loop {
        let page = store
            .export(cursor.as_ref(), tengen_store::migrate::PAGE)
            .await?;
        for item in page.items {
            let Item::Game(g) = item else {
                continue;
            };
            let Ok(record) = std::str::from_utf8(&g.record)
                .map_err(|e| e.to_string())
                .and_then(|t| GameRecord::from_json(t).map_err(|e| e.to_string()))
            else {
                report.skipped += 1;
                continue;
            };
            report.read += 1;
            let mut accounts = [None, None];
            for (i, name) in g.players.iter().take(2).enumerate() {
                if store.account(name).await?.is_some() {
                    accounts[i] = Some(tengen_store::name_key(name));
                }
            }
            let names = [0, 1].map(|i| g.players.get(i).cloned().unwrap_or_else(|| "?".into()));
            let game = Finished {
                id: g.id,
                record,
                players: Players {
                    accounts,
                    names,
                    ratings: None,
                },
                finished_ms: g.finished_ms,
            };
            index_and_mine(store, settings, &game, Stated::default(), mine, &mut report).await?;
        }
        tracing::info!(done = %report, "reindexing");
        match page.next {
            Some(next) => cursor = Some(next),
            None => return Ok(report),
        }
    }
}

/// The files named, a directory standing for the files in it.
pub fn expand(paths: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if Path::new(p).is_dir() {
            let mut inner: Vec<PathBuf> = std::fs::read_dir(p)?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file())
                .collect();
            inner.sort();
            out.extend(inner);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}
