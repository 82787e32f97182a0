//! `tengen leaderboard`, `profile`, `history` and `record`: what the server
//! keeps about finished games and ratings, as short plain-text tables (or,
//! for `record`, the game record itself, to a file or standard output).
//!
//! Why plain text: these are read by people in a shell and by scripts
//! (`tengen history alice | head`), so no board or colours; fixed columns
//! that line up, dates in UTC (`2026-01-01 10:06`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow, bail};
use tengen_client::{ClientError, Connection};
use tengen_protocol::{
    ClientMsg, ErrorCode, FamilyRating, GameSummary, RatingFamily, RecordFormat, ServerMsg,
    Standing,
};

use crate::config;
use crate::net::{self, ServerArgs};

/// A rule family's leaderboard.
#[derive(clap::Args)]
#[command(long_about = "\
A rule family's leaderboard: renju (every opening rule), gomoku, freestyle
or twin (two boards). Only established players are listed (a rating is provisional
until 7 rated games against 3 different opponents); players with fewer
than 7 rated games in the last 12 months are listed apart as inactive.
People and bot accounts are ranked apart: --bots lists the bots.
")]
pub struct LeaderboardArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// renju, gomoku, freestyle or twin.
    #[arg(default_value = "renju", value_parser = parse_family)]
    pub family: RatingFamily,
    /// Bot accounts' leaderboard instead of people's.
    #[arg(long)]
    pub bots: bool,
}

/// A player's ratings.
#[derive(clap::Args)]
pub struct ProfileArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The player (default: you, as logged in).
    pub player: Option<String>,
}

/// A player's finished games, newest first.
#[derive(clap::Args)]
#[command(long_about = "\
A player's finished games (rated or not), newest first, 50 at a time. The
GAME column is what `tengen record GAME` saves. When older games exist the
last line says how to list them (--before).
")]
pub struct HistoryArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The player (default: you, as logged in).
    pub player: Option<String>,
    /// Only games finished before this instant (Unix ms; the last line of
    /// the previous page gives it).
    #[arg(long)]
    pub before: Option<u64>,
}

/// Save a finished game's record.
#[derive(clap::Args)]
#[command(long_about = "\
Save a finished game's record, as the server keeps it: the full JSON game
record (every action with its time and the clocks, the result; `tengen
replay` reads it), renju notation (`h8 i9 j10 ...`) or Piskvork PSQ.

GAME is a game id, as `tengen history` lists them (the table the game was
played at). Without -o the record goes to standard output.

Example:
    tengen record 0rgcyfb9b6qv0 -o game.json && tengen replay game.json
")]
pub struct RecordArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The game id.
    pub game: String,
    /// json (the full record), renju (notation) or psq.
    #[arg(long, default_value = "json", value_parser = parse_format)]
    pub format: RecordFormat,
    /// Write to this file instead of standard output.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
}

fn parse_family(s: &str) -> Result<RatingFamily, String> {
    RatingFamily::parse(&s.to_ascii_lowercase())
        .ok_or_else(|| format!("'{s}': expected renju, gomoku, freestyle or twin"))
}

fn parse_format(s: &str) -> Result<RecordFormat, String> {
    match s.to_ascii_lowercase().as_str() {
        "json" => Ok(RecordFormat::Json),
        "renju" => Ok(RecordFormat::Renju),
        "psq" => Ok(RecordFormat::Psq),
        _ => Err(format!("'{s}': expected json, renju or psq")),
    }
}

/// One request on a fresh connection, its refusal in words.
pub(crate) async fn ask(server: &ServerArgs, msg: ClientMsg) -> Result<ServerMsg> {
    let mut h = server.hello().await?;
    let reply = h.conn.request(msg).await;
    let _ = Connection::close(h.conn).await;
    reply.map_err(|e| anyhow!(net::explain(&e)))
}

/// The player named on the command line, or the logged-in account.
fn who(server: &ServerArgs, player: &Option<String>) -> Result<String> {
    if let Some(p) = player {
        return Ok(p.clone());
    }
    match config::login(&server.server)? {
        Some(l) => Ok(l.name),
        None => bail!(
            "whose? name a PLAYER (you are not logged in on {})",
            server.server
        ),
    }
}

pub async fn leaderboard(args: &LeaderboardArgs) -> Result<ExitCode> {
    let msg = ClientMsg::Leaderboard {
        family: args.family,
        bots: args.bots,
    };
    let ServerMsg::Leaderboard(board) = ask(&args.server, msg).await? else {
        bail!("unexpected reply");
    };
    let whose = if board.bots { " bots'" } else { "" };
    let mut out = format!("{}{whose} leaderboard\n", board.family);
    if board.players.is_empty() {
        out.push_str(
            "(nobody established yet: a rating is provisional until 7 rated games \
             against 3 different opponents)\n",
        );
    } else {
        out.push_str(&standings(&board.players));
    }
    if !board.inactive.is_empty() {
        out.push_str("\ninactive (fewer than 7 rated games in 12 months)\n");
        out.push_str(&standings(&board.inactive));
    }
    emit(&out)
}

fn standings(list: &[Standing]) -> String {
    let mut out = format!(
        "{:>4}  {:<20}  {:>7}  {:>5}  {:>5}  W-D-L\n",
        "RANK", "PLAYER", "RATING", "RD", "GAMES"
    );
    for s in list {
        out.push_str(&format!(
            "{:>4}  {:<20}  {:>7.1}  {:>5.1}  {:>5}  {}-{}-{}\n",
            s.rank, s.player, s.rating, s.deviation, s.games, s.wins, s.draws, s.losses
        ));
    }
    out
}

pub async fn profile(args: &ProfileArgs) -> Result<ExitCode> {
    let player = who(&args.server, &args.player)?;
    let ServerMsg::Profile(p) = ask(&args.server, ClientMsg::Profile { player }).await? else {
        bail!("unexpected reply");
    };
    let who = crate::describe::shown(&p.player);
    let mut out = format!("{who}, registered {}\n", date(p.created_ms));
    if p.ratings.is_empty() {
        out.push_str("no rated games yet\n");
        return emit(&out);
    }
    out.push_str(&format!(
        "{:<10}  {:>7}  {:>5}  {:>5}  {:<8}  NOTE\n",
        "FAMILY", "RATING", "RD", "GAMES", "W-D-L"
    ));
    for r in &p.ratings {
        out.push_str(&rating_line(r));
    }
    for r in &p.ratings {
        let recent: Vec<_> = r.history.iter().rev().take(5).collect();
        if recent.is_empty() {
            continue;
        }
        out.push_str(&format!("\nlatest {} games\n", r.family));
        for h in recent {
            let score = match h.score {
                s if s >= 1.0 => "win",
                s if s > 0.0 => "draw",
                _ => "loss",
            };
            out.push_str(&format!(
                "  {}  {:<13}  vs {:<20}  {:<4}  -> {:.1}\n",
                date(h.at_ms),
                h.game,
                h.opponent,
                score,
                h.rating
            ));
        }
    }
    emit(&out)
}

fn rating_line(r: &FamilyRating) -> String {
    let mut note = Vec::new();
    if r.provisional {
        note.push("provisional");
    }
    // A provisional rating is inactive too (under 7 games): not news.
    if r.inactive && !r.provisional {
        note.push("inactive");
    }
    format!(
        "{:<10}  {:>7.1}  {:>5.1}  {:>5}  {:<8}  {}\n",
        r.family.as_str(),
        r.rating,
        r.deviation,
        r.games,
        format!("{}-{}-{}", r.wins, r.draws, r.losses),
        note.join(", ")
    )
}

pub async fn history(args: &HistoryArgs) -> Result<ExitCode> {
    let player = who(&args.server, &args.player)?;
    let msg = ClientMsg::History {
        player: player.clone(),
        before: args.before,
    };
    let ServerMsg::History { games, more, .. } = ask(&args.server, msg).await? else {
        bail!("unexpected reply");
    };
    let mut out = String::new();
    if games.is_empty() {
        out.push_str(&format!("no finished games of {player}\n"));
        return emit(&out);
    }
    out.push_str(&format!(
        "{:<13}  {:<16}  FIRST SEAT vs SECOND SEAT\n",
        "GAME", "FINISHED (UTC)"
    ));
    for g in &games {
        out.push_str(&game_line(g));
    }
    if more {
        let last = games.last().map_or(0, |g| g.finished_ms);
        out.push_str(&format!(
            "(older games: tengen history {player} --before {last})\n"
        ));
    }
    emit(&out)
}

fn game_line(g: &GameSummary) -> String {
    let players = g.players.join(" vs ");
    // A moderator's reversal of a bad-faith game's rating changes.
    let reset = g
        .reverses
        .as_ref()
        .map(|r| format!("  (rating changes of {r} reversed)"))
        .unwrap_or_default();
    format!(
        "{:<13}  {}  {players}{reset}\n",
        g.game,
        date(g.finished_ms)
    )
}

pub async fn record(args: &RecordArgs) -> Result<ExitCode> {
    let game = net::table_id(&args.game)?;
    let msg = ClientMsg::GameRecord {
        game: game.clone(),
        format: args.format,
    };
    let mut h = args.server.hello().await?;
    let reply = h.conn.request(msg).await;
    let _ = Connection::close(h.conn).await;
    let export = match reply {
        Ok(ServerMsg::GameRecord(r)) => r,
        Ok(other) => bail!("unexpected reply {}", other.type_name()),
        Err(ClientError::Refused(e)) if e.code == ErrorCode::NotFound => bail!(
            "no finished game {game} on {} (a game still being played has no record yet)",
            args.server.server
        ),
        Err(e) => return Err(anyhow!(net::explain(&e))),
    };
    let text = match (export.record, export.text) {
        (Some(record), _) => serde_json::to_string_pretty(&record)? + "\n",
        (None, Some(text)) if text.ends_with('\n') => text,
        (None, Some(text)) => text + "\n",
        (None, None) => bail!("the server sent an empty record"),
    };
    match &args.output {
        Some(path) => {
            std::fs::write(path, &text).with_context(|| format!("writing {}", path.display()))?;
            eprintln!("saved game {game} to {}", path.display());
        }
        None => {
            emit(&text)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn emit(text: &str) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `2026-01-01 10:06` (UTC) of a Unix instant in milliseconds.
pub fn date(unix_ms: u64) -> String {
    let secs = unix_ms / 1000;
    let (h, m) = ((secs % 86_400) / 3600, (secs % 3600) / 60);
    let (year, month, d) = tengen_rules::game::notation::utc_date(unix_ms);
    format!("{year:04}-{month:02}-{d:02} {h:02}:{m:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_in_utc() {
        assert_eq!(date(0), "1970-01-01 00:00");
        assert_eq!(date(1_767_225_600_000), "2026-01-01 00:00");
        assert_eq!(date(1_767_226_000_000), "2026-01-01 00:06");
        assert_eq!(date(951_782_400_000), "2000-02-29 00:00");
        assert_eq!(date(1_709_251_199_000), "2024-02-29 23:59");
    }

    #[test]
    fn formats_and_families_parse() {
        assert_eq!(parse_format("PSQ"), Ok(RecordFormat::Psq));
        assert!(
            parse_format("sgf")
                .unwrap_err()
                .contains("json, renju or psq")
        );
        assert_eq!(parse_family("Gomoku"), Ok(RatingFamily::Gomoku));
        assert!(parse_family("chess").is_err());
    }
}
