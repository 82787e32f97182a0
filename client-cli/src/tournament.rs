//! `tengen tournament list|show|join|withdraw|create|start|export`: the
//! server's tournaments from a shell, as plain text (like `leaderboard`).
//! Why a module of its own: one command with its own subcommands, each a
//! single request whose reply is printed; pairing and scoring are the
//! server's (and its engine's), never worked out here.

use std::process::ExitCode;

use anyhow::{Result, bail};
use tengen_protocol::{
    ClientMsg, EntryLimits, ServerMsg, TieBreakName, TournamentSpec, TournamentSummary,
    TournamentSystem, TournamentView,
};

use crate::net::ServerArgs;
use crate::spec::QueueSpec;
use crate::stats::{ask, emit};

/// Tournaments run by the server.
#[derive(clap::Args)]
#[command(long_about = "\
Tournaments run by the server: Swiss, round robin, double round robin,
knockout and arena events. Pairings, standings and tie-breaks are the server's.

Examples:
    tengen tournament list
    tengen tournament create \"Friday Swiss\" --system swiss --rounds 5 renju 10+5
    tengen tournament create \"Final\" --system round_robin renju 15+10 \\
        --tie-breaks sonneborn_berger,direct_encounter,wins,first_seat_games
    tengen tournament create \"Blitz arena\" --system arena --minutes 30 gomoku 3+2
    tengen tournament join 3k9d2m7qv1x0a
    tengen tournament show 3k9d2m7qv1x0a
    tengen tournament start 3k9d2m7qv1x0a      (the organiser)
    tengen tournament withdraw 3k9d2m7qv1x0a
    tengen tournament export 3k9d2m7qv1x0a --trf > event.trf
")]
pub struct TournamentArgs {
    #[command(subcommand)]
    pub command: TournamentCommand,
}

#[derive(clap::Subcommand)]
pub enum TournamentCommand {
    /// Every event the server keeps, newest first.
    List {
        #[command(flatten)]
        server: ServerArgs,
    },
    /// An event: players, pairings per round, standings, crosstable.
    Show {
        #[command(flatten)]
        server: ServerArgs,
        id: String,
    },
    /// Enter an event (accounts: log in first).
    Join {
        #[command(flatten)]
        server: ServerArgs,
        id: String,
    },
    /// Leave an event (after its start your remaining games are forfeited).
    Withdraw {
        #[command(flatten)]
        server: ServerArgs,
        id: String,
    },
    /// Start your event now (round 1 is paired).
    Start {
        #[command(flatten)]
        server: ServerArgs,
        id: String,
    },
    /// The crosstable (or, with --trf, a TRF-16 file).
    Export {
        #[command(flatten)]
        server: ServerArgs,
        id: String,
        #[arg(long)]
        trf: bool,
    },
    /// Create an event you organise: NAME, then the game (RULESET TIMECONTROL).
    Create(CreateArgs),
    /// End your running event now (its round over): standings final. For
    /// a round no legal pairing exists for.
    End {
        #[command(flatten)]
        server: ServerArgs,
        id: String,
    },
    /// Pair your Swiss's next round by hand (when the rules leave none):
    /// each --board FIRST,SECOND; every player still in the event once.
    Pair {
        #[command(flatten)]
        server: ServerArgs,
        id: String,
        /// The round (the next one).
        round: u32,
        /// A board: the first seat's name, a comma, the second's.
        #[arg(long = "board", value_name = "FIRST,SECOND", value_parser = parse_board)]
        boards: Vec<[String; 2]>,
        /// The player left out (gets a bye's points).
        #[arg(long)]
        bye: Option<String>,
    },
}

fn parse_board(s: &str) -> Result<[String; 2], String> {
    match s.split_once(',') {
        Some((a, b)) if !a.trim().is_empty() && !b.trim().is_empty() => {
            Ok([a.trim().to_owned(), b.trim().to_owned()])
        }
        _ => Err(format!("a board is FIRST,SECOND, not {s:?}")),
    }
}

#[derive(clap::Args)]
pub struct CreateArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The event's name.
    #[arg(value_name = "NAME")]
    pub title: String,
    #[command(flatten)]
    pub game: QueueSpec,
    /// swiss, round_robin, double_round_robin, knockout or arena.
    #[arg(long, default_value = "swiss", value_parser = parse_system)]
    pub system: TournamentSystem,
    /// A Swiss's rounds.
    #[arg(long)]
    pub rounds: Option<u32>,
    /// A knockout match's games (odd: best of).
    #[arg(long)]
    pub games: Option<u8>,
    /// Rated games (accounts only).
    #[arg(long)]
    pub rated: bool,
    /// Start at this instant (Unix ms); without it, `tengen tournament start`.
    #[arg(long)]
    pub start_ms: Option<u64>,
    #[arg(long)]
    pub min_rating: Option<i32>,
    #[arg(long)]
    pub max_rating: Option<i32>,
    #[arg(long)]
    pub max_players: Option<u32>,
    /// Seconds a game waits for an absent player before they forfeit it
    /// (60 if not given).
    #[arg(long)]
    pub wait_secs: Option<u32>,
    /// Draw the pairings' lots from this number (reproducible pairings).
    #[arg(long)]
    pub seed: Option<u64>,
    /// An arena's length in minutes (1 to 720).
    #[arg(long)]
    pub minutes: Option<u32>,
    /// A knockout's tie-break games at this faster time control (as the
    /// event's, e.g. 3+2); without it, at the event's.
    #[arg(long, value_parser = crate::spec::parse_time)]
    pub decider_time: Option<tengen_rules::game::TimeControl>,
    /// Guests may not enter.
    #[arg(long)]
    pub accounts_only: bool,
    /// Bot accounts may enter.
    #[arg(long)]
    pub bots: bool,
    /// The tie-breaks in order, comma-separated: buchholz, median_buchholz,
    /// sonneborn_berger, direct_encounter, wins, first_seat_games (default:
    /// the system's own order).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub tie_breaks: Option<Vec<TieBreakName>>,
}

fn parse_system(s: &str) -> Result<TournamentSystem, String> {
    match s.replace('-', "_").to_ascii_lowercase().as_str() {
        "swiss" => Ok(TournamentSystem::Swiss),
        "round_robin" => Ok(TournamentSystem::RoundRobin),
        "double_round_robin" => Ok(TournamentSystem::DoubleRoundRobin),
        "knockout" => Ok(TournamentSystem::Knockout),
        "arena" => Ok(TournamentSystem::Arena),
        _ => Err(format!(
            "'{s}': expected swiss, round_robin, double_round_robin, knockout or arena"
        )),
    }
}

fn line(t: &TournamentSummary) -> String {
    format!(
        "{:<13}  {:<24}  {:<18}  {:<8}  {:>3}  {:>2}/{:<2}  {}\n",
        t.id,
        t.name,
        format!("{:?}", t.system),
        format!("{:?}", t.state).to_lowercase(),
        t.players,
        t.round,
        t.rounds,
        t.organiser
    )
}

fn header() -> String {
    format!(
        "{:<13}  {:<24}  {:<18}  {:<8}  {:>3}  {:>5}  ORGANISER\n",
        "ID", "NAME", "SYSTEM", "STATE", "PL", "ROUND"
    )
}

/// An event in full, as text.
pub fn render(v: &TournamentView) -> String {
    let mut out = header();
    out.push_str(&line(&v.summary));
    if let Some(why) = &v.stalled {
        out.push_str(&format!(
            "stalled: {why}\n  the organiser decides: tengen tournament pair {id} ROUND --board A,B ..., or tengen tournament end {id}\n",
            id = v.summary.id
        ));
    }
    if let Some(w) = &v.warning {
        out.push_str(&format!("warning: {w}\n"));
    }
    if let Some(secs) = v.spec.duration_secs {
        out.push_str(&format!("arena: {} min\n", secs.div_ceil(60)));
    }
    out.push_str("\nplayers\n");
    for p in &v.players {
        let gone = if p.withdrawn { "  (withdrawn)" } else { "" };
        out.push_str(&format!("  {:<20} {:>5}{gone}\n", p.name, p.rating));
    }
    for r in &v.rounds {
        out.push_str(&format!("\nround {}\n", r.round));
        for b in &r.boards {
            let second = b.second.as_deref().unwrap_or("(bye)");
            out.push_str(&format!(
                "  {:>2}  {:<20} {:<20} {}\n",
                b.board,
                b.first,
                second,
                b.games.join(" ")
            ));
        }
    }
    if !v.standings.is_empty() {
        out.push_str("\nstandings\n");
        for s in &v.standings {
            let tbs: Vec<String> = s
                .tie_breaks
                .iter()
                .map(|t| format!("{} {}", t.name, t.value))
                .collect();
            out.push_str(&format!(
                "  {:>3}  {:<20} {:>4}  {}\n",
                s.rank,
                s.name,
                s.points,
                tbs.join("  ")
            ));
        }
    }
    if !v.crosstable.is_empty() {
        out.push_str("\ncrosstable\n");
        out.push_str(&v.crosstable);
    }
    out
}

pub async fn run(args: &TournamentArgs) -> Result<ExitCode> {
    use TournamentCommand as C;
    let (server, msg) = match &args.command {
        C::List { server } => (server, ClientMsg::Tournaments),
        C::Show { server, id } => (
            server,
            ClientMsg::Tournament {
                tournament: id.clone(),
            },
        ),
        C::Join { server, id } => (
            server,
            ClientMsg::JoinTournament {
                tournament: id.clone(),
            },
        ),
        C::Withdraw { server, id } => (
            server,
            ClientMsg::WithdrawTournament {
                tournament: id.clone(),
            },
        ),
        C::Start { server, id } => (
            server,
            ClientMsg::StartTournament {
                tournament: id.clone(),
            },
        ),
        C::Export { server, id, .. } => (
            server,
            ClientMsg::TournamentExport {
                tournament: id.clone(),
            },
        ),
        C::Create(c) => (&c.server, create_msg(c)?),
        C::End { server, id } => (
            server,
            ClientMsg::EndTournament {
                tournament: id.clone(),
            },
        ),
        C::Pair {
            server,
            id,
            round,
            boards,
            bye,
        } => (
            server,
            ClientMsg::PairTournament {
                tournament: id.clone(),
                round: *round,
                boards: boards.clone(),
                bye: bye.clone(),
            },
        ),
    };
    let trf = matches!(args.command, C::Export { trf: true, .. });
    let text = match ask(server, msg).await? {
        ServerMsg::TournamentList { tournaments } => {
            let mut out = header();
            for t in &tournaments {
                out.push_str(&line(t));
            }
            out
        }
        ServerMsg::TournamentInfo { tournament } => render(&tournament),
        ServerMsg::TournamentCreated { tournament } => {
            format!("created {} ({})\n", tournament.id, tournament.name)
        }
        ServerMsg::TournamentJoined { tournament } => format!("joined {tournament}\n"),
        ServerMsg::TournamentWithdrawn { tournament } => format!("withdrew from {tournament}\n"),
        ServerMsg::TournamentStarted { tournament } => format!("started {tournament}\n"),
        ServerMsg::TournamentEnded { tournament } => format!("ended {tournament}\n"),
        ServerMsg::TournamentPaired { tournament, round } => {
            format!("paired round {round} of {tournament}\n")
        }
        ServerMsg::TournamentExported {
            crosstable,
            trf: file,
            ..
        } => {
            if trf {
                file
            } else {
                crosstable
            }
        }
        _ => bail!("unexpected reply"),
    };
    emit(&text)
}

fn create_msg(c: &CreateArgs) -> Result<ClientMsg> {
    let spec = TournamentSpec {
        name: c.title.clone(),
        system: c.system,
        rounds: c.rounds,
        games: c.games,
        config: c.game.config()?,
        rated: c.rated,
        start_ms: c.start_ms,
        entry: EntryLimits {
            min_rating: c.min_rating,
            max_rating: c.max_rating,
            accounts_only: c.accounts_only,
            bots: c.bots,
            max_players: c.max_players,
        },
        tie_breaks: c.tie_breaks.clone(),
        wait_secs: c.wait_secs,
        seed: c.seed,
        duration_secs: c.minutes.map(|m| m.saturating_mul(60)),
        decider_time: c.decider_time,
    };
    if let Err(e) = spec.validate() {
        bail!("{e}");
    }
    Ok(ClientMsg::CreateTournament { tournament: spec })
}
