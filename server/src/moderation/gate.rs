//! The checks at the door: a banned account's login (a password login,
//! or a `hello` with its login token) is refused with `banned`, carrying
//! the ban's reason and end; a WebSocket upgrade from a banned address
//! range gets HTTP 403. Reading an account's standing at login is also
//! what puts it in this node's [`super::book::Book`], so that its mute
//! and blocks are known wherever it chats or queues.

use std::net::IpAddr;

use tengen_protocol::{ErrorBody, ErrorCode, Sanction as WireSanction};
use tengen_store::{Sanction, Standing, Store};

use super::state::Moderation;
use super::state::unix_ms;

/// Refuses a banned account; notes its standing otherwise, and returns it
/// (the caller checks a login token against its `tokens_after_ms`). A
/// store that cannot answer refuses the login (`unavailable`) rather than
/// let a banned account in.
pub async fn check_login(
    m: &Moderation,
    store: &dyn Store,
    name: &str,
) -> Result<Option<Standing>, ErrorBody> {
    let standing = store.standing(name).await.map_err(|e| {
        tracing::warn!(error = %e, "cannot read a standing at login");
        ErrorBody::new(
            ErrorCode::Unavailable,
            "the store did not answer; try again",
        )
    })?;
    let Some(standing) = standing else {
        return Ok(None);
    };
    if let Some(ban) = standing.ban.as_ref().filter(|b| b.active(unix_ms())) {
        return Err(banned(ban));
    }
    // A mute, blocks or a fair-play wait matter wherever the account's
    // tables and rooms are: with several nodes, every node reads this
    // standing too.
    if standing.mute.is_some()
        || !standing.blocks.is_empty()
        || standing.playban.until_ms > unix_ms()
    {
        m.announce(&super::wire::News::Standing {
            name: standing.name.clone(),
        });
    }
    m.book.set(standing.clone());
    Ok(Some(standing))
}

/// The `banned` refusal for `ban`.
pub fn banned(ban: &Sanction) -> ErrorBody {
    let until = match ban.until_ms {
        Some(ms) => format!(" until {ms} (Unix ms)"),
        None => String::new(),
    };
    ErrorBody {
        ban: Some(WireSanction {
            reason: ban.reason.clone(),
            until_ms: ban.until_ms,
        }),
        ..ErrorBody::new(
            ErrorCode::Banned,
            format!("this account is banned{until}: {}", ban.reason),
        )
    }
}

/// Whether a WebSocket upgrade from `ip` may go on (HTTP 403 if not).
pub fn upgrade_allowed(m: &Moderation, ip: IpAddr) -> bool {
    !m.addresses.banned(ip, unix_ms())
}
