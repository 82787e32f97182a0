//! `tengen-server admin`: moderation from the command line, against a
//! community's store whether or not a server runs on it.
//!
//! - **A data directory** (the embedded store): if a running server's
//!   admin socket answers there ([`super::socket`]), the request goes
//!   through it, so the running server acts on its live state (a ban
//!   closes sessions at once); otherwise the store is opened directly
//!   (redb lets one process hold it, so no server can be running on it).
//! - **Redis** (`--redis URL`): the store is written directly, then a
//!   message on the moderation topic (`PREFIX:topic:moderation`) tells
//!   every running node, which reads the change and acts on it.
//!
//! Every action is written to the audit log as done by `cli:USER` (the
//! operating system's user running the command).

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use clap::{Args, Subcommand};
use tengen_protocol::{ModRequest, Role, ServerMsg};
use tengen_store::{EmbeddedStore, Store};

use super::actions::Ctx;
use super::socket::{self, AdminRequest};
use super::state::Moderation;
use super::wire::{News, TOPIC};
use crate::sessions::Sessions;

/// Where the community is, and what to do.
#[derive(Args, Debug)]
pub struct AdminArgs {
    /// The data directory of the embedded store (a running server there is
    /// reached through its admin socket).
    #[arg(long, env = "TENGEN_DATA_DIR", default_value = "tengen-data")]
    pub data_dir: PathBuf,
    /// Act on the Redis store instead (and tell the running nodes).
    #[arg(long, env = "TENGEN_REDIS")]
    pub redis: Option<String>,
    /// The Redis key prefix.
    #[arg(long, env = "TENGEN_REDIS_PREFIX", default_value = "tengen")]
    pub redis_prefix: String,
    /// For rediss://: a PEM file of the CA certificate(s) to trust.
    #[arg(long, env = "TENGEN_REDIS_CA")]
    pub redis_ca: Option<PathBuf>,
    #[command(subcommand)]
    pub action: AdminAction,
}

/// One moderation action.
#[derive(Subcommand, Debug)]
pub enum AdminAction {
    /// Gives an account a role: player, moderator or admin.
    Role {
        player: String,
        #[arg(value_parser = parse_role)]
        role: Role,
        #[arg(long, default_value = "set from the command line")]
        reason: String,
    },
    /// Bans an account (for --minutes, or for good): logins refused, its
    /// sessions closed.
    Ban {
        player: String,
        #[arg(long)]
        reason: String,
        #[arg(long)]
        minutes: Option<u64>,
    },
    /// Lifts an account's ban.
    Unban {
        player: String,
        #[arg(long)]
        reason: String,
    },
    /// Mutes an account's chat for --minutes.
    Mute {
        player: String,
        #[arg(long)]
        reason: String,
        #[arg(long)]
        minutes: u64,
    },
    /// Lifts a mute.
    Unmute {
        player: String,
        #[arg(long)]
        reason: String,
    },
    /// Bans an address or a CIDR range (IPv4 or IPv6) from connecting.
    BanAddress {
        range: String,
        #[arg(long)]
        reason: String,
        #[arg(long)]
        minutes: Option<u64>,
    },
    /// Lifts an address ban.
    UnbanAddress {
        range: String,
        #[arg(long)]
        reason: String,
    },
    /// Lists the open reports, oldest first.
    Reports,
    /// Lists the groups of accounts whose names look alike (registered
    /// before such names were refused).
    Lookalikes,
    /// Closes a report with a note.
    CloseReport {
        report: String,
        #[arg(long)]
        reason: String,
    },
    /// Ends an account's fair-play wait before rated games, and forgets
    /// its abandoned rated games.
    LiftPlayban {
        player: String,
        #[arg(long)]
        reason: String,
    },
    /// Shows the audit log, newest first.
    Audit {
        #[arg(long, default_value_t = 50)]
        limit: u32,
    },
    /// Closes a room (a running server's): it leaves the lobby, a game in
    /// it is aborted unrated, everyone there is told why.
    CloseRoom {
        room: tengen_protocol::RoomId,
        #[arg(long)]
        reason: String,
    },
    /// Aborts a running game (unrated; its players and spectators are told
    /// why).
    AbortGame {
        table: tengen_protocol::TableId,
        #[arg(long)]
        reason: String,
    },
    /// Reverses the rating changes of a finished rated game, once.
    ResetRating {
        game: tengen_protocol::TableId,
        #[arg(long)]
        reason: String,
    },
}

fn parse_role(s: &str) -> Result<Role, String> {
    match s {
        "player" => Ok(Role::Player),
        "moderator" => Ok(Role::Moderator),
        "admin" => Ok(Role::Admin),
        _ => Err("a role is player, moderator or admin".into()),
    }
}

impl AdminAction {
    /// The request a moderator would send for this action.
    pub fn request(self) -> ModRequest {
        match self {
            AdminAction::Role {
                player,
                role,
                reason,
            } => ModRequest::SetRole {
                player,
                role,
                reason,
            },
            AdminAction::Ban {
                player,
                reason,
                minutes,
            } => ModRequest::Ban {
                player,
                reason,
                minutes,
            },
            AdminAction::Unban { player, reason } => ModRequest::Unban { player, reason },
            AdminAction::Mute {
                player,
                reason,
                minutes,
            } => ModRequest::Mute {
                player,
                reason,
                minutes,
            },
            AdminAction::Unmute { player, reason } => ModRequest::Unmute { player, reason },
            AdminAction::BanAddress {
                range,
                reason,
                minutes,
            } => ModRequest::BanAddress {
                range,
                reason,
                minutes,
            },
            AdminAction::UnbanAddress { range, reason } => {
                ModRequest::UnbanAddress { range, reason }
            }
            AdminAction::Reports => ModRequest::Reports,
            AdminAction::Lookalikes => ModRequest::Lookalikes,
            AdminAction::CloseReport { report, reason } => {
                ModRequest::CloseReport { report, reason }
            }
            AdminAction::Audit { limit } => ModRequest::AuditLog { limit: Some(limit) },
            AdminAction::LiftPlayban { player, reason } => {
                ModRequest::LiftPlayban { player, reason }
            }
            AdminAction::CloseRoom { room, reason } => ModRequest::CloseRoom { room, reason },
            AdminAction::AbortGame { table, reason } => ModRequest::AbortGame { table, reason },
            AdminAction::ResetRating { game, reason } => ModRequest::ResetRating { game, reason },
        }
    }
}

/// What the news of a done request is, for the other nodes.
pub fn news_of(req: &ModRequest, reply: &ServerMsg) -> Option<News> {
    match (req, reply) {
        (ModRequest::BanAddress { .. } | ModRequest::UnbanAddress { .. }, _) => {
            Some(News::AddressBans)
        }
        // A rating is read from the store at each use: nothing to tell.
        (ModRequest::ResetRating { .. }, _) => None,
        (_, ServerMsg::Moderated { target, .. }) => Some(News::Standing {
            name: target.clone(),
        }),
        _ => None,
    }
}

/// Who the command line acts as.
pub fn operator() -> String {
    let user = std::env::var("USER").unwrap_or_else(|_| "operator".into());
    format!("cli:{user}")
}

/// Runs one action; the reply as the server would send it (an `error`
/// for a refusal). `Err` only when the store cannot be reached.
pub async fn run(args: AdminArgs) -> anyhow::Result<ServerMsg> {
    let request = args.action.request();
    if let Err(why) = request.validate() {
        anyhow::bail!("{why}");
    }
    let by = operator();
    if let Some(url) = &args.redis {
        let settings = crate::RedisSettings {
            url: url.clone(),
            prefix: args.redis_prefix.clone(),
            ca_file: args.redis_ca.clone(),
        };
        let store = crate::open_redis(&settings).await?;
        if super::arbiter::reaches_live(&request) {
            let target = match &request {
                ModRequest::CloseRoom { room, .. } => room.to_string(),
                ModRequest::AbortGame { table, .. } => table.to_string(),
                _ => String::new(),
            };
            let action = request.action().to_owned();
            return Ok(match super::arbiter::by_news(&store, &by, request).await {
                Ok(news) => {
                    publish(&settings, &news).await?;
                    ServerMsg::Moderated { action, target }
                }
                Err(body) => ServerMsg::Error(body),
            });
        }
        let reply = direct(&store, &by, request.clone()).await;
        if let Some(news) = news_of(&request, &reply) {
            publish(&settings, &news).await?;
        }
        return Ok(reply);
    }
    let sock = socket::path(&args.data_dir);
    let req = AdminRequest { by, request };
    if let Some(reply) = socket::ask(&sock, &req).await? {
        return Ok(reply);
    }
    let AdminRequest { by, request } = req;
    let dir = args.data_dir.clone();
    let options = crate::start::embedded_options(tengen_store::embedded::DEFAULT_CACHE_BYTES);
    let store = tokio::task::spawn_blocking(move || EmbeddedStore::open_with(&dir, &options))
        .await?
        .with_context(|| format!("cannot open the data directory {}", args.data_dir.display()))?;
    let store = Arc::new(store);
    Ok(direct(&*store, &by, request).await)
}

/// Acts on a store directly (no running server to reach on it).
async fn direct(store: &dyn Store, by: &str, request: ModRequest) -> ServerMsg {
    let (m, sessions) = (Moderation::default(), Sessions::new(Default::default(), 1));
    let ctx = Ctx {
        m: &m,
        store,
        sessions: &sessions,
        by,
    };
    ctx.act(request).await.unwrap_or_else(ServerMsg::Error)
}

/// Publishes `news` on the moderation topic of the cluster bus.
async fn publish(settings: &crate::RedisSettings, news: &News) -> anyhow::Result<()> {
    let client = redis::Client::open(settings.url.as_str()).context("the Redis URL")?;
    let mut conn = client
        .get_multiplexed_async_connection()
        .await
        .context("connecting to Redis to tell the running nodes")?;
    let channel = format!("{}:topic:{TOPIC}", settings.prefix);
    let _: i64 = redis::cmd("PUBLISH")
        .arg(channel)
        .arg(news.encode())
        .query_async(&mut conn)
        .await
        .context("telling the running nodes")?;
    Ok(())
}
