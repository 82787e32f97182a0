//! Coming back after a server restart: a `games` player's or spectator's
//! connection that ends (close 1012 when a node stops, or the socket lost)
//! is opened again with the session's resume token, on the next `--url`
//! (round-robin), and the caller then resumes its tables with `watch since`.
//!
//! Why it exists: a rolling restart (stop a node, start it again, the next)
//! is meant to go unnoticed by players: the session, its seat and every
//! table event survive it. `games` is the scenario operators run during
//! one, so its players and spectators come back as real clients do; what
//! a restart costs shows in the report (resumes, the resume time, the
//! longest move wait) and what it breaks counts as an error (an event lost
//! or doubled, a game that ended for another reason than its last move, a
//! session not resumed).
//!
//! Unlike the churn scenario's [`crate::resume::Link`], nothing here drops
//! a connection on purpose: the server ends it.

use std::time::Duration;

use tengen_client::{ClientError, Connection};
use tengen_protocol::{ClientMsg, ErrorCode, ServerMsg, Welcome};
use tokio::time::Instant;

use crate::connect::request_patiently;
use crate::run::{Ctx, Plan, Scenario, Target};

/// The longest a client tries to come back (every node down that long is
/// an outage, not a restart).
const GIVE_UP: Duration = Duration::from_secs(60);

/// Whether this run's connections come back after a restart: `games`
/// against a server (the soak replaces its connections on purpose, the
/// fan-out measures one table, the relay keeps no session).
pub fn applies(plan: &Plan) -> bool {
    plan.scenario == Scenario::Games && plan.target == Target::Server
}

/// Whether `e` is the connection ending in a way a resume mends: the
/// server restarting or going away (1012, 1001, 1013), the socket lost
/// without a close (1006, or an I/O error). Other close codes (a policy
/// violation, another connection taking the session) are errors.
pub fn lost(e: &ClientError) -> bool {
    match e {
        ClientError::Closed { code, .. } => matches!(code, 1001 | 1005 | 1006 | 1012 | 1013),
        ClientError::Ws(_) => true,
        _ => false,
    }
}

/// What a connection needs to come back: its session's token, its name,
/// and which `--url` it is on.
#[derive(Clone, Debug)]
pub struct Rejoin {
    url: usize,
    name: String,
    token: Option<String>,
}

impl Rejoin {
    /// A connection opened on URL number `url` (round-robin index) as
    /// `name`, whose welcome is `welcome`.
    pub fn new(url: usize, name: &str, welcome: &Welcome) -> Rejoin {
        Rejoin {
            url,
            name: name.to_owned(),
            token: welcome.resume_token.clone(),
        }
    }

    /// The URL the connection is on now.
    pub fn url<'a>(&self, ctx: &'a Ctx) -> &'a str {
        ctx.plan.url(self.url)
    }

    /// The index of that URL in `--url`.
    pub fn on(&self, ctx: &Ctx) -> usize {
        self.url % ctx.plan.urls.len()
    }

    /// Ends the connection and resumes the session through URL `index`
    /// (on to the next if it does not answer), as [`Rejoin::reconnect`].
    pub async fn reconnect_to(
        &mut self,
        ctx: &Ctx,
        index: usize,
    ) -> Result<(Connection, Welcome), ClientError> {
        self.url = index;
        self.connect_from_here(ctx).await
    }

    /// Connects again with the resume token, to the next URL first (the
    /// one the connection was on is restarting), going round the URLs
    /// with a growing pause while none answers; a node that answers
    /// `unavailable` (it is taking the session's game over) is asked again
    /// after the time it gives. The welcome says whether the session came
    /// back (a restart keeps only sessions seated at live games: a
    /// spectator's, or a player's between games, starts afresh).
    pub async fn reconnect(&mut self, ctx: &Ctx) -> Result<(Connection, Welcome), ClientError> {
        self.url += 1;
        self.connect_from_here(ctx).await
    }

    /// Resumes the session through the current URL, going round the
    /// others while none answers.
    async fn connect_from_here(&mut self, ctx: &Ctx) -> Result<(Connection, Welcome), ClientError> {
        let token = self
            .token
            .clone()
            .ok_or_else(|| ClientError::Unexpected("welcome without resume_token".into()))?;
        let give_up = Instant::now() + GIVE_UP;
        let mut pause = Duration::from_millis(50);
        loop {
            let url = ctx.plan.url(self.url);
            let tried = Connection::connect_resuming(
                url,
                ctx.plan.encoding,
                Some(&self.name),
                Some(&token),
            )
            .await;
            let wait = match tried {
                Ok((mut conn, welcome)) => {
                    conn.timeout = (ctx.plan.move_interval * 4).max(Duration::from_secs(10));
                    self.token = welcome.resume_token.clone().or(Some(token));
                    return Ok((conn, welcome));
                }
                Err(ClientError::Refused(e)) if e.code == ErrorCode::Unavailable => {
                    Duration::from_millis(e.retry_after_ms.unwrap_or(250).clamp(50, 5_000))
                }
                Err(e @ ClientError::Refused(_)) => return Err(e),
                // Down, not listening yet, or refusing upgrades while it
                // stops (503): the next node.
                Err(e) => {
                    if Instant::now() + pause > give_up {
                        return Err(e);
                    }
                    self.url += 1;
                    let wait = pause + jitter(&self.name, pause);
                    pause = (pause * 2).min(Duration::from_secs(1));
                    wait
                }
            };
            if Instant::now() + wait > give_up {
                return Err(ClientError::Timeout(GIVE_UP));
            }
            tokio::time::sleep(wait).await;
        }
    }
}

/// [`request_patiently`], with an `unavailable` that gives no time to wait
/// (a table restored after a restart until both players are back, a room
/// whose node does not answer while it stops) asked again after 250 ms,
/// for up to a minute; each counted as shed.
pub async fn request(
    ctx: &Ctx,
    conn: &mut Connection,
    msg: ClientMsg,
) -> Result<ServerMsg, ClientError> {
    let give_up = Instant::now() + GIVE_UP;
    loop {
        match request_patiently(ctx, conn, msg.clone()).await {
            Err(ClientError::Refused(e))
                if e.code == ErrorCode::Unavailable && Instant::now() < give_up =>
            {
                ctx.stats().shed += 1;
                tokio::time::sleep(AGAIN).await;
            }
            r => return r,
        }
    }
}

/// How soon a request refused `unavailable` without a time is asked again.
pub const AGAIN: Duration = Duration::from_millis(250);

/// Up to a quarter of `pause`, different per client, so that a restart is
/// not met by every client in the same millisecond.
fn jitter(name: &str, pause: Duration) -> Duration {
    let h = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    });
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos() as u64);
    Duration::from_nanos((h ^ nanos) % (pause.as_nanos() as u64 / 4 + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_restart_or_a_lost_socket_is_mended_and_other_closes_are_not() {
        let closed = |code| ClientError::Closed {
            code,
            reason: String::new(),
        };
        for code in [1001, 1006, 1012] {
            assert!(lost(&closed(code)), "{code}");
        }
        for code in [1008, 1009, 4005] {
            assert!(!lost(&closed(code)), "{code}");
        }
        assert!(!lost(&ClientError::Timeout(Duration::from_secs(1))));
    }
}
