//! `tengen register NAME`, `tengen login NAME`, `tengen logout`,
//! `tengen become-bot`: an account
//! on a server, and its login token kept in the configuration directory
//! (`config`), which every later command that connects sends in
//! `hello.token`, so the player is their account.
//!
//! Why the password is never an argument: the command line is visible to
//! every user of the machine (`ps`) and lands in shell histories. It is
//! read from the terminal without echo, or with `--password-stdin` as the
//! first line of standard input (for scripts and tests).

use std::io::BufRead;
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow, bail};
use tengen_client::ClientError;
use tengen_protocol::{ClientMsg, ErrorCode, LoggedIn, ServerMsg};

use crate::config::{self, Login};
use crate::net::{self, ServerArgs};

/// Create an account and log in to it.
#[derive(clap::Args)]
#[command(long_about = "\
Create an account on the server and log in to it. The login token is kept
in your configuration directory (one file per server, readable by you
only), and every later command sends it: you play, queue and appear as
your account.

The password (at least 8 characters) is asked on the terminal, twice,
without echo; --password-stdin reads it from the first line of standard
input instead.

A name has 3 to 20 letters, digits, `_` or `-`, starts with a letter, and
is unique on the server whatever its case.

Example:
    tengen register alice
")]
pub struct RegisterArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The account name.
    pub account: String,
    /// Read the password from the first line of standard input.
    #[arg(long)]
    pub password_stdin: bool,
}

/// Log in to an account.
#[derive(clap::Args)]
#[command(long_about = "\
Log in to your account on the server: the login token (valid 30 days, or
until `tengen logout`) is kept in your configuration directory, and every
later command sends it.

The password is asked on the terminal without echo; --password-stdin reads
it from the first line of standard input instead.
")]
pub struct LoginArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The account name.
    pub account: String,
    /// Read the password from the first line of standard input.
    #[arg(long)]
    pub password_stdin: bool,
}

/// Make the logged-in account a bot account, for good.
#[derive(clap::Args)]
#[command(long_about = "\
Make the account you are logged in to a bot account: a program (say
`tengen engine`) plays it. It is marked as a bot wherever players are
shown, ranked on the bots' leaderboard, and paired in the rated queue only
with bots and with people who asked for bots (`tengen queue --bots`).

There is no way back, and only an account that has not played a game yet
can become a bot: register a new account for your engine. --yes says you
mean it.

Example:
    tengen register my-engine && tengen become-bot --yes
")]
pub struct BecomeBotArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// Yes, make this account a bot for good.
    #[arg(long)]
    pub yes: bool,
}

/// Log out: revoke the login token and forget it.
#[derive(clap::Args)]
pub struct LogoutArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// Log the account out on every device: revoke all its login tokens
    /// and close all its sessions (for a token someone else may have).
    #[arg(long)]
    pub everywhere: bool,
}

pub async fn register(args: &RegisterArgs) -> Result<ExitCode> {
    let password = password(args.password_stdin, true)?;
    let msg = ClientMsg::Register {
        name: args.account.clone(),
        password,
    };
    sign_in(&args.server, &args.account, msg, "registered").await
}

pub async fn login(args: &LoginArgs) -> Result<ExitCode> {
    let password = password(args.password_stdin, false)?;
    let msg = ClientMsg::Login {
        name: args.account.clone(),
        password,
    };
    sign_in(&args.server, &args.account, msg, "logged in").await
}

/// Sends `register` or `login` on a guest connection and keeps the token.
async fn sign_in(server: &ServerArgs, name: &str, msg: ClientMsg, done: &str) -> Result<ExitCode> {
    let mut h = server.hello_guest().await?;
    let reply = h.conn.request(msg).await.map_err(|e| match &e {
        ClientError::Refused(b) if b.code == ErrorCode::NameTaken => {
            anyhow!(
                "the name {name} is taken on {}: choose another",
                server.server
            )
        }
        _ => anyhow!(net::explain(&e)),
    })?;
    let li: LoggedIn = match reply {
        ServerMsg::Registered(l) | ServerMsg::LoggedIn(l) => l,
        other => bail!("unexpected reply {}", other.type_name()),
    };
    let old = config::login(&server.server).ok().flatten();
    let path = config::save_login(&Login {
        server: server.server.clone(),
        name: li.player.name.clone(),
        token: li.token,
        expires_ms: li.expires_ms,
    })?;
    let _ = h.conn.close().await;
    // A login kept before this one: revoke it (best effort), since it is
    // forgotten here anyway.
    if let Some(old) = old {
        revoke(server, &old.token).await;
    }
    println!(
        "{done} as {} on {} (until {}; token kept in {})",
        li.player.name,
        server.server,
        crate::stats::date(li.expires_ms),
        path.display()
    );
    if let Some(wait) = &li.playban {
        println!("fair play: {}", wait.message);
    }
    Ok(ExitCode::SUCCESS)
}

pub async fn logout(args: &LogoutArgs) -> Result<ExitCode> {
    let server = &args.server.server;
    let Some(login) = config::login(server)? else {
        println!("not logged in on {server}");
        return Ok(ExitCode::SUCCESS);
    };
    let who = tengen_client::Identity {
        name: None,
        login: Some(login.token.clone()),
    };
    let (msg, done) = match args.everywhere {
        true => (ClientMsg::LogoutEverywhere, " everywhere"),
        false => (ClientMsg::Logout, ""),
    };
    match args.server.connect_as(&who, None).await {
        Ok((mut conn, _)) => {
            conn.request(msg)
                .await
                .map_err(|e| anyhow!(net::explain(&e)))
                .context("the server did not log us out (the token is kept: try again)")?;
            let _ = conn.close().await;
            config::forget_login(server)?;
            println!("logged out {}{done} on {server}", login.name);
        }
        Err(ClientError::Refused(e)) if net::stale_login(&e) => {
            config::forget_login(server)?;
            println!(
                "the login of {} on {server} was no longer valid; forgot it",
                login.name
            );
            if args.everywhere {
                bail!(
                    "log in again (tengen login {}), then log out everywhere",
                    login.name
                );
            }
        }
        Err(e) => {
            return Err(anyhow!(net::explain(&e))).with_context(|| {
                format!("cannot connect to {server} (the token is kept: try again)")
            });
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Logs out the session of `token`, ignoring any failure.
async fn revoke(server: &ServerArgs, token: &str) {
    let who = tengen_client::Identity {
        name: None,
        login: Some(token.to_string()),
    };
    if let Ok((mut conn, _)) = server.connect_as(&who, None).await {
        let _ = conn.request(ClientMsg::Logout).await;
        let _ = conn.close().await;
    }
}

/// The password: from standard input's first line, or asked on the
/// terminal without echo (twice when `confirm`).
fn password(from_stdin: bool, confirm: bool) -> Result<String> {
    let pw = if from_stdin {
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut line)
            .context("reading the password from standard input")?;
        line.trim_end_matches(['\n', '\r']).to_string()
    } else {
        let ask = |prompt: &str| {
            rpassword::prompt_password(prompt)
                .context("no terminal to ask the password on (use --password-stdin)")
        };
        let pw = ask("password: ")?;
        if confirm {
            let again = ask("password again: ")?;
            if again != pw {
                bail!("the two passwords differ");
            }
        }
        pw
    };
    if pw.is_empty() {
        bail!("an empty password");
    }
    Ok(pw)
}

pub async fn become_bot(args: &BecomeBotArgs) -> Result<ExitCode> {
    let server = &args.server.server;
    let Some(login) = config::login(server)? else {
        bail!("not logged in on {server}: `tengen register NAME` first");
    };
    if !args.yes {
        bail!(
            "this makes {} a bot account for good; say --yes if you mean it",
            login.name
        );
    }
    let who = tengen_client::Identity {
        name: None,
        login: Some(login.token.clone()),
    };
    let (mut conn, _) = args
        .server
        .connect_as(&who, None)
        .await
        .map_err(|e| anyhow!(net::explain(&e)))
        .with_context(|| format!("cannot connect to {server}"))?;
    let reply = conn.request(ClientMsg::BecomeBot).await;
    let _ = conn.close().await;
    match reply {
        Ok(ServerMsg::BecameBot { player }) => {
            println!("{} is a bot account on {server}", player.name);
            Ok(ExitCode::SUCCESS)
        }
        Ok(other) => bail!("unexpected reply {}", other.type_name()),
        Err(e) => Err(anyhow!(net::explain(&e))).context("the account stays as it was"),
    }
}
